//! GGF, the Generic Game Format of the GGS server and the NBoard GUI: one
//! game on one line, `(;GM[Othello]PB[..]PW[..]RE[?]TI[5:00]TY[8]BO[8
//! ---------------------------O*------*O--------------------------- *]
//! B[F5]W[F6/-1.00/2.5];)`. Read with every ply checked against the rules
//! (a record that breaks them is refused, never half loaded), and written
//! back. Knows nothing of who sends it.

use super::game::Game;
use super::notation::{Color, Move, Square, parse_square, printable};
use super::position::Position;
use super::wide::is_supported_size;

/// Why a GGF record was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("GGF: {0}")]
pub struct GgfError(String);

fn fail<T>(message: impl Into<String>) -> Result<T, GgfError> {
    Err(GgfError(message.into()))
}

/// A side's clock: main time and the time added after each move, in
/// seconds (`TI[15:00/10]` is 900 s plus 10 s a move).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfClock {
    pub main: f64,
    pub increment: f64,
}

/// One ply as recorded: the move, and the evaluation (discs, the mover's
/// view) and time (seconds) written next to it, if any.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfPly {
    pub color: Color,
    pub mv: Move,
    pub eval: Option<f64>,
    pub seconds: Option<f64>,
}

/// A checked game record.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    pub black: String,
    pub white: String,
    /// `RE`: `?` while under way, else Black's margin (`+12`, `-64:t`).
    pub result: String,
    /// Each side's clock (`TI`, or `TB` and `TW`), if the record has one.
    pub clocks: [Option<GgfClock>; 2],
    /// `C`: a comment on the game, if it has one.
    pub comment: Option<String>,
    /// The start position, the plies and the position they lead to.
    pub game: Game,
    pub plies: Vec<GgfPly>,
}

impl GgfGame {
    /// `color`'s clock, if the record has one.
    pub fn clock(&self, color: Color) -> Option<GgfClock> {
        match color {
            Color::Black => self.clocks[0],
            Color::White => self.clocks[1],
        }
    }

    /// The seconds `color` has left: its main time, plus its increment for
    /// each of its moves, less the times written next to them.
    pub fn time_left(&self, color: Color) -> Option<f64> {
        let clock = self.clock(color)?;
        let own = self.plies.iter().filter(|p| p.color == color);
        let used: f64 = own.clone().filter_map(|p| p.seconds).sum();
        Some(clock.main + clock.increment * own.count() as f64 - used)
    }
}

/// The properties a record may hold (NBoard's and GGS's); anything else is
/// refused rather than silently dropped.
const KNOWN: &[&str] = &[
    "GM", "PC", "DT", "PB", "PW", "RE", "RB", "RW", "TI", "TB", "TW", "TY", "BO", "KB", "KW", "KM",
    "GN", "C",
];

/// Reads one GGF game.
pub fn parse(text: &str) -> Result<GgfGame, GgfError> {
    let text = text.trim();
    let Some(body) = text.strip_prefix("(;").and_then(|t| t.strip_suffix(";)")) else {
        return fail("a game is written (; ... ;)");
    };
    let properties = properties(body)?;
    let single = |name: &str| -> Result<Option<&str>, GgfError> {
        let mut found = properties.iter().filter(|(n, _)| n == name);
        match (found.next(), found.next()) {
            (Some((_, v)), None) => Ok(Some(v.as_str())),
            (None, _) => Ok(None),
            (Some(_), Some(_)) => fail(format!("{name} appears twice")),
        }
    };
    for (name, _) in &properties {
        if name != "B" && name != "W" && !KNOWN.contains(&name.as_str()) {
            return fail(format!("unknown property {}", printable(name)));
        }
    }
    if let Some(gm) = single("GM")?
        && !gm.trim().eq_ignore_ascii_case("othello")
    {
        return fail(format!("game {} is not Othello", printable(gm)));
    }
    let Some(bo) = single("BO")? else {
        return fail("no BO[...] start position");
    };
    let start = board(bo)?;
    let n = start.size();
    if let Some(ty) = single("TY")? {
        check_type(ty, n)?;
    }
    let ti = single("TI")?.map(clock).transpose()?;
    let tb = single("TB")?.map(clock).transpose()?;
    let tw = single("TW")?.map(clock).transpose()?;
    let clocks = [tb.or(ti), tw.or(ti)];
    let mut game = Game::from_position(start);
    let mut plies = Vec::new();
    for (name, value) in properties.iter().filter(|(n, _)| n == "B" || n == "W") {
        let color = if name == "B" {
            Color::Black
        } else {
            Color::White
        };
        let ply = parse_ply(color, value, n)?;
        game.play(color, ply.mv).or_else(|e| {
            fail(format!(
                "ply {} ({name}[{}]): {e}",
                plies.len() + 1,
                printable(value)
            ))
        })?;
        plies.push(ply);
    }
    let text_of = |name| single(name).map(|v| v.unwrap_or("").to_string());
    Ok(GgfGame {
        black: text_of("PB")?,
        white: text_of("PW")?,
        result: single("RE")?.unwrap_or("?").to_string(),
        clocks,
        comment: properties
            .iter()
            .find(|(n, _)| n == "C")
            .map(|(_, v)| v.clone()),
        game,
        plies,
    })
}

/// The `NAME[value]` pairs in order, escapes (`\]`, `\\`) undone.
fn properties(body: &str) -> Result<Vec<(String, String)>, GgfError> {
    let mut out = Vec::new();
    let mut chars = body.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.peek().is_none() {
            return Ok(out);
        }
        let mut name = String::new();
        while let Some(c) = chars.next_if(|c| c.is_ascii_uppercase()) {
            name.push(c);
        }
        if name.is_empty() || chars.next() != Some('[') {
            return fail(format!(
                "expected NAME[value] at '{}'",
                printable(&chars.clone().take(20).collect::<String>())
            ));
        }
        let mut value = String::new();
        loop {
            match chars.next() {
                None => return fail(format!("{name}[ is never closed")),
                Some(']') => break,
                Some('\\') => match chars.next() {
                    Some(c) => value.push(c),
                    None => return fail(format!("{name}[ is never closed")),
                },
                Some(c) => value.push(c),
            }
        }
        out.push((name, value));
    }
}

/// `BO[8 ---...--- *]`: the size, n x n cells (`*` black, `O` white, `-`
/// empty; spaces between them ignored) and the side to move.
fn board(value: &str) -> Result<Position, GgfError> {
    let value = value.trim_start();
    let digits = value.bytes().take_while(u8::is_ascii_digit).count();
    let n: usize = value[..digits]
        .parse()
        .or_else(|_| fail("BO does not start with the board size"))?;
    if !is_supported_size(n) {
        return fail(format!("BO: unsupported board size {n}"));
    }
    let marks: Vec<char> = value[digits..]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if marks.len() != n * n + 1 {
        return fail(format!(
            "BO: {} cells and a side to move, not {} characters",
            n * n,
            marks.len()
        ));
    }
    let cell = |c: char| match c {
        '*' => Ok(Some(Color::Black)),
        'O' => Ok(Some(Color::White)),
        '-' => Ok(None),
        c => fail(format!(
            "BO: '{}' is not a cell (*, O or -)",
            printable(&c.to_string())
        )),
    };
    let cells = marks[..n * n]
        .iter()
        .map(|&c| cell(c))
        .collect::<Result<Vec<_>, _>>()?;
    let to_move = match cell(marks[n * n])? {
        Some(color) => color,
        None => return fail("BO: the side to move is * or O"),
    };
    Position::from_cells(n, &cells, to_move).or_else(|e| fail(format!("BO: {e}")))
}

/// `TY[s8r20]`: an optional `s` (synchro), the size, then flags; the size
/// must be the board's, and anti-Othello (`a`) and the octagon (`88`) are
/// other games.
fn check_type(value: &str, n: usize) -> Result<(), GgfError> {
    let rest = value.trim().strip_prefix('s').unwrap_or(value.trim());
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let size: usize = rest[..digits]
        .parse()
        .or_else(|_| fail(format!("TY[{}] has no board size", printable(value))))?;
    let flags = &rest[digits..];
    if size == 88 || flags.contains('a') {
        return fail(format!("TY[{}] is not plain Othello", printable(value)));
    }
    if size != n {
        return fail(format!("TY says {size}x{size} but BO is {n}x{n}"));
    }
    Ok(())
}

/// `TI[15:00/10/2:00]`: main time, increment (the grace period is
/// ignored); a blank part is 0.
fn clock(value: &str) -> Result<GgfClock, GgfError> {
    let mut parts = value.split('/');
    let main = seconds(parts.next().unwrap_or(""))?;
    let increment = seconds(parts.next().unwrap_or(""))?;
    Ok(GgfClock { main, increment })
}

/// `[[d.]h:]m:s` with a fraction allowed on the seconds, or plain seconds;
/// blank is 0. At most [`crate::search::MAX_TIME`]'s million seconds
/// matter to anyone; bigger figures are refused.
fn seconds(text: &str) -> Result<f64, GgfError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(0.0);
    }
    let bad = || GgfError(format!("'{}' is not a time", printable(text)));
    let mut total = 0.0;
    let fields: Vec<&str> = text.split(':').collect();
    if fields.len() > 3 {
        return Err(bad());
    }
    for (i, field) in fields.iter().enumerate() {
        let scale = [1.0, 60.0, 3600.0][fields.len() - 1 - i];
        let value = if i == 0 && fields.len() == 3 && field.contains('.') {
            let (days, hours) = field.split_once('.').ok_or_else(bad)?;
            days.parse::<u32>().map_err(|_| bad())? as f64 * 24.0
                + hours.parse::<u32>().map_err(|_| bad())? as f64
        } else if i + 1 == fields.len() {
            field.parse::<f64>().map_err(|_| bad())?
        } else {
            field.parse::<u32>().map_err(|_| bad())? as f64
        };
        if !value.is_finite() || value < 0.0 {
            return Err(bad());
        }
        total += value * scale;
    }
    if total > 1e6 {
        return Err(bad());
    }
    Ok(total)
}

/// `B[f5/-1.00/2.5]`: the move (`PA` or `pass` for a pass), then the
/// evaluation and the time, either of which may be blank or missing.
pub fn parse_ply(color: Color, value: &str, n: usize) -> Result<GgfPly, GgfError> {
    let mut parts = value.split('/');
    let text = parts.next().unwrap_or("").trim();
    let mv = if text.eq_ignore_ascii_case("pa") || text.eq_ignore_ascii_case("pass") {
        Move::Pass
    } else if text.len() >= 2 && text.as_bytes()[1].is_ascii_digit() {
        Move::Place(parse_square(text, n).or_else(|e| fail(e.to_string()))?)
    } else {
        return fail(format!("unreadable move '{}'", printable(text)));
    };
    let number = |part: Option<&str>, what: &str| -> Result<Option<f64>, GgfError> {
        match part.map(str::trim) {
            None | Some("") => Ok(None),
            Some(t) => match t.parse::<f64>() {
                Ok(x) if x.is_finite() && x.abs() <= 1e6 => Ok(Some(x)),
                _ => fail(format!("'{}' is not {what}", printable(t))),
            },
        }
    };
    let eval = number(parts.next(), "an evaluation")?;
    let seconds = number(parts.next(), "a time")?;
    if seconds.is_some_and(|s| s < 0.0) {
        return fail("a negative time");
    }
    Ok(GgfPly {
        color,
        mv,
        eval,
        seconds,
    })
}

/// The clocks a GGF record gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clocks<'a> {
    /// None.
    None,
    /// One for both sides: `TI`.
    Both(&'a str),
    /// Black's and White's own: `TB`, `TW`.
    Each(&'a str, &'a str),
}

/// What a record says besides its position and plies.
#[derive(Clone, Copy, Debug)]
pub struct Header<'a> {
    pub black: &'a str,
    pub white: &'a str,
    /// `?` while the game is under way.
    pub result: &'a str,
    pub clocks: Clocks<'a>,
    /// A comment on the game (`C`): how a forfeit came about, say.
    pub comment: Option<&'a str>,
}

impl Header<'_> {
    /// A game under way between unnamed players, with `clocks`.
    pub fn unnamed(clocks: Clocks<'_>) -> Header<'_> {
        Header {
            black: "",
            white: "",
            result: "?",
            clocks,
            comment: None,
        }
    }
}

/// A game as one GGF line: `header`, the start position and every ply.
pub fn write(header: &Header, start: &Position, moves: &[(Color, Move)]) -> String {
    let plies: Vec<(Color, Move, Option<f64>)> = moves.iter().map(|&(c, m)| (c, m, None)).collect();
    write_timed(header, start, &plies)
}

/// [`write()`] with the seconds each ply took, where given
/// (`B[F5//0.100]`).
pub fn write_timed(
    header: &Header,
    start: &Position,
    plies: &[(Color, Move, Option<f64>)],
) -> String {
    let n = start.size();
    let mut board = String::with_capacity(n * n);
    for r in 0..n {
        for c in 0..n {
            board.push(match start.cell(Square::new(r, c)) {
                Some(Color::Black) => '*',
                Some(Color::White) => 'O',
                None => '-',
            });
        }
    }
    let side = match start.to_move() {
        Color::Black => '*',
        Color::White => 'O',
    };
    let clock = match header.clocks {
        Clocks::None => String::new(),
        Clocks::Both(t) => format!("TI[{}]", escape(t)),
        Clocks::Each(b, w) => format!("TB[{}]TW[{}]", escape(b), escape(w)),
    };
    let comment = header
        .comment
        .map(|c| format!("C[{}]", escape(c)))
        .unwrap_or_default();
    let mut text = format!(
        "(;GM[Othello]PC[reversi]PB[{}]PW[{}]RE[{}]{clock}{comment}TY[{n}]BO[{n} {board} {side}]",
        escape(header.black),
        escape(header.white),
        escape(header.result)
    );
    for (color, mv, seconds) in plies {
        let tag = match color {
            Color::Black => 'B',
            Color::White => 'W',
        };
        let mv = match mv {
            Move::Place(sq) => sq.standard(),
            Move::Pass => "PA".to_string(),
        };
        match seconds {
            Some(t) => text.push_str(&format!("{tag}[{mv}//{t:.3}]")),
            None => text.push_str(&format!("{tag}[{mv}]")),
        }
    }
    text.push_str(";)");
    text
}

/// Seconds as a GGF clock writes them, to the millisecond: `0:00.100`,
/// `5:00.000`, `1:02:03.500`.
pub fn clock_text(seconds: f64) -> String {
    let millis = (seconds.max(0.0) * 1000.0).round() as u64;
    let (h, m, s) = (millis / 3_600_000, millis / 60_000 % 60, millis % 60_000);
    let s = format!("{}.{:03}", s / 1000, s % 1000);
    if h > 0 {
        format!("{h}:{m:02}:{s:0>6}")
    } else {
        format!("{m}:{s:0>6}")
    }
}

/// GGF property values may not hold an unescaped `]`.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_move;

    const NBOARD: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

    #[test]
    fn nboard_s_example_replays() {
        let g = parse(NBOARD).unwrap();
        assert_eq!(g.plies.len(), 8);
        assert_eq!(g.black, "./mEdax");
        assert_eq!(g.clock(Color::White).unwrap().main, 900.0);
        let mut reference = Game::new(8).unwrap();
        for m in ["f5", "f6", "d3", "c5", "e6", "f7", "e7", "f4"] {
            reference.play_next(parse_move(m, 8).unwrap()).unwrap();
        }
        assert_eq!(g.game, reference);
    }

    #[test]
    fn written_games_read_back() {
        let mut game = Game::new(8).unwrap();
        for m in ["f5", "d6", "c3"] {
            game.play_next(parse_move(m, 8).unwrap()).unwrap();
        }
        let moves: Vec<_> = game.moves().collect();
        let header = Header {
            black: "a]b",
            white: "c\\d",
            ..Header::unnamed(Clocks::Both("5:00"))
        };
        let text = write(&header, game.start(), &moves);
        let back = parse(&text).unwrap();
        assert_eq!(back.game, game);
        assert_eq!((back.black.as_str(), back.white.as_str()), ("a]b", "c\\d"));
    }

    #[test]
    fn a_final_pass_changes_the_side_to_move() {
        // Black passes at the end (edax #50): White is to move afterwards.
        let start = "BO[4 **** **** **** **O- O]";
        let g = parse(&format!("(;GM[Othello]{start}W[PA//3.107];)")).unwrap();
        assert_eq!(g.game.position().to_move(), Color::Black);
        assert_eq!(g.plies[0].seconds, Some(3.107));
    }

    #[test]
    fn clocks_count_increments_and_own_times() {
        let g = parse(
            &NBOARD
                .replace("TI[15:00]", "TI[1:00/2]")
                .replace("W[F6]", "W[F6/-1.5/12.5]"),
        )
        .unwrap();
        assert_eq!(g.time_left(Color::White), Some(60.0 + 4.0 * 2.0 - 12.5));
        assert_eq!(g.time_left(Color::Black), Some(68.0));
        assert_eq!(seconds("1.02:00:30").unwrap(), 26.0 * 3600.0 + 30.0);
    }

    #[test]
    fn timed_plies_and_fractional_clocks_read_back() {
        let start = Position::start(8).unwrap();
        let f5 = Move::Place(Square::new(4, 5));
        let d6 = Move::Place(Square::new(5, 3));
        let plies = [(Color::Black, f5, Some(0.25)), (Color::White, d6, None)];
        let time = format!("{}/{}", clock_text(0.0), clock_text(0.1));
        assert_eq!(time, "0:00.000/0:00.100");
        let header = Header {
            black: "a",
            white: "b",
            comment: Some("White forfeits: illegal move [e5]"),
            ..Header::unnamed(Clocks::Both(&time))
        };
        let g = parse(&write_timed(&header, &start, &plies)).unwrap();
        assert_eq!(
            g.comment.as_deref(),
            Some("White forfeits: illegal move [e5]")
        );
        assert_eq!(g.plies.len(), 2);
        // Left: the increment of each own move less its time.
        assert!((g.time_left(Color::Black).unwrap() - (0.1 - 0.25)).abs() < 1e-9);
        assert_eq!(g.time_left(Color::White), Some(0.1));
        assert_eq!(clock_text(3723.5), "1:02:03.500");
        assert_eq!(seconds(&clock_text(299.9996)).unwrap(), 300.0);
    }

    #[test]
    fn bad_records_say_why() {
        let cases = [
            ("", "(; ... ;)"),
            (&NBOARD.replace("TY[8]", "TY[10]"), "TY says 10x10"),
            (&NBOARD.replace("B[F5]", "B[A1]"), "ply 1"),
            (&NBOARD.replace("B[F5]W[F6]", "W[F6]B[F5]"), "ply 1"),
            (&NBOARD.replace("W[F6]", "W[PA]"), "ply 2"),
            (&NBOARD.replace("TI[15:00]", "XX[1]"), "unknown property XX"),
            (&NBOARD.replace("W[F4];)", "W[F4;)"), "never closed"),
            (&NBOARD.replace("BO[8 -", "BO[8 "), "cells"),
            (&NBOARD.replace("GM[Othello]", "GM[Go]"), "not Othello"),
            (&NBOARD.replace("TI[15:00]", "TI[1e300]"), "not a time"),
            (&NBOARD.replace("TY[8]", "TY[8a]"), "not plain Othello"),
            (&NBOARD.replace("PB[./mEdax]", "PB[x]PB[y]"), "twice"),
        ];
        for (text, why) in cases {
            let e = parse(text).unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
