//! The NBoard protocol, version 2 (the NBoard GUI's; NTest and Edax speak
//! it too): `nboard 2`, `set depth`, `set game <GGF>`, `set contempt`,
//! `move`, `go`, `hint <n>`, `ping`/`pong`, `learn`, `quit`. The protocol
//! has no error reply: a command that cannot be obeyed is logged to stderr
//! and changes nothing; unknown commands are ignored, as it asks.
//!
//! The same engine, search thread and stop rules as the GTP daemon: `ping`
//! and `quit` raise the stop signal from the reader thread, so a `hint`
//! (which runs until its depth or a stop) ends at once and every `pong`
//! comes after the search before it has stopped. Front end only: the game
//! is a checked [`GgfGame`], moves and hints come from the [`Engine`].

use super::reader::{self, Line, MAX_LINE, Parsed};
use crate::engine::{Analysis, Clock, Engine, MoveScore, OpeningBook, Options};
use crate::rules::ggf::{self, GgfGame};
use crate::rules::{Game, Move, Position, printable};
use crate::search::{Limits, StopToken, score_text};
use crate::tools::book::LearningBook;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::{digit1, space0, space1};
use nom::combinator::{all_consuming, map, map_res, opt, recognize, rest, value};
use nom::sequence::{pair, preceded};
use nom::{IResult, Parser};
use std::io::{self, BufRead, Write};
use std::time::Instant;

/// The name the engine gives itself (`set myname`).
const NAME: &str = "reversi";
/// The deepest `set depth` accepted: more plies than a 26x26 game has.
pub const MAX_DEPTH: u32 = 1000;

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    Nboard(u32),
    SetDepth(u32),
    SetGame(String),
    SetContempt(i64),
    /// `move f5/-1.00/2.5` (or a bare `f5`), as written in GGF.
    Move(String),
    Hint(u32),
    Go,
    /// `ping <n>`: `n` is echoed as sent.
    Ping(String),
    Learn,
    Quit,
    /// A command of the protocol that does not apply here, or an unknown
    /// one: ignored, as the protocol asks.
    Ignored(String),
    /// A known command with arguments that cannot be obeyed: logged.
    Invalid(String),
}

/// Reads one line (blank lines are skipped); `ping` and `quit` stop the
/// search at once.
pub fn parse_line(line: Line) -> Option<Parsed<Request>> {
    let request = match line {
        Line::TooLong => Request::Invalid(format!("line too long (more than {MAX_LINE} bytes)")),
        Line::Text(bytes) => {
            let text = String::from_utf8_lossy(&bytes);
            let text = text.trim();
            if text.is_empty() {
                return None;
            }
            parse(text)
        }
    };
    let last = request == Request::Quit;
    Some(Parsed {
        stop: last || matches!(request, Request::Ping(_)),
        last,
        request,
    })
}

/// One command; see [`Request`].
pub fn parse(text: &str) -> Request {
    match all_consuming(request).parse(text) {
        Ok((_, r)) => r,
        Err(_) => {
            let word = text.split_whitespace().next().unwrap_or("");
            match word {
                "nboard" | "set" | "hint" | "ping" => {
                    Request::Invalid(format!("cannot read '{}'", printable(text)))
                }
                _ => Request::Ignored(text.to_string()),
            }
        }
    }
}

fn number<T: std::str::FromStr>(i: &str) -> IResult<&str, T> {
    map_res(digit1, str::parse).parse(i)
}

fn signed(i: &str) -> IResult<&str, i64> {
    map_res(
        recognize(pair(opt(alt((tag("-"), tag("+")))), digit1)),
        str::parse,
    )
    .parse(i)
}

fn request(i: &str) -> IResult<&str, Request> {
    let word = |w| preceded((tag(w), space1), rest);
    alt((
        map(preceded((tag("nboard"), space1), number), Request::Nboard),
        map(
            preceded((tag("set depth"), space1), number),
            Request::SetDepth,
        ),
        map(word("set game"), |g: &str| Request::SetGame(g.to_string())),
        map(
            preceded((tag("set contempt"), space1), signed),
            Request::SetContempt,
        ),
        map(word("move"), |m: &str| Request::Move(m.trim().to_string())),
        map(preceded((tag("hint"), space1), number), Request::Hint),
        value(Request::Go, (tag("go"), space0)),
        map(word("ping"), |n: &str| Request::Ping(n.trim().to_string())),
        value(Request::Learn, (tag("learn"), space0)),
        value(Request::Quit, (tag("quit"), space0)),
        // Protocol 1's bare move (`F5`), which NTest and Edax still take.
        map(
            take_while1(|c: char| c.is_ascii_alphanumeric() || c == '/' || c == '.'),
            |m: &str| match m.len() {
                2 | 3 if m.as_bytes()[1].is_ascii_digit() || m.eq_ignore_ascii_case("pa") => {
                    Request::Move(m.to_string())
                }
                _ => Request::Ignored(m.to_string()),
            },
        ),
    ))
    .parse(i)
}

/// Runs the NBoard front end until `quit` or end of input.
pub fn run<R, W>(
    input: R,
    output: W,
    options: &Options,
    learning: Option<LearningBook>,
) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let mut front = NboardFront::new(output, options, learning).map_err(io::Error::other)?;
    reader::serve(input, parse_line, |request, token, received| {
        front.answer(request, token, received)
    })
}

/// The game, the engine and the settings; the only writer of stdout.
struct NboardFront<W: Write> {
    out: W,
    record: GgfGame,
    engine: Engine,
    /// The time per move when the game has no clock.
    per_move: Clock,
    /// `set depth`: the midgame depth limit (the GUI's level).
    depth: Option<u32>,
    /// The user's book that `learn` adds games to (`--learn`).
    learning: Option<LearningBook>,
}

/// A new game from the standard 8x8 start, with no clock.
fn fresh_record() -> GgfGame {
    GgfGame {
        black: String::new(),
        white: String::new(),
        result: "?".into(),
        clocks: [None, None],
        comment: None,
        game: Game::new(8).expect("8x8 is supported"),
        plies: Vec::new(),
    }
}

impl<W: Write> NboardFront<W> {
    /// The front end, its engine ready for a game ([`Options::engine`]).
    fn new(
        out: W,
        options: &Options,
        learning: Option<LearningBook>,
    ) -> Result<Self, crate::players::UnknownPlayer> {
        Ok(NboardFront {
            out,
            record: fresh_record(),
            engine: options.engine()?,
            per_move: options.clock(),
            depth: options.depth,
            learning,
        })
    }

    /// `learn`: adds the game to the learning book, which `strong` then
    /// plays from; without one, or for a game the book cannot hold, logs
    /// why. Either way the GUI hears `learned`.
    fn learn(&mut self) -> io::Result<()> {
        let game = &self.record.game;
        match &mut self.learning {
            None => log::info!("nboard: learn: no --learn book to learn into"),
            Some(learning) => {
                let moves: Vec<Move> = game.moves().map(|(_, mv)| mv).collect();
                match learning.learn(game.start(), &moves) {
                    Ok(l) => {
                        log::info!(
                            "nboard: learned the game: {} of its {} positions new, {} deviations searched",
                            l.added,
                            l.positions,
                            l.searched
                        );
                        let book = learning.book();
                        match self.engine.book_mut() {
                            Some(opening) => opening.replace_book(book),
                            None => self.engine.set_book(Some(OpeningBook::new(book))),
                        }
                    }
                    Err(e) => log::warn!("nboard: learn: {e}; the book is unchanged"),
                }
            }
        }
        self.say("learned")
    }

    /// Obeys one request; `Ok(false)` when the front end must end.
    fn answer(
        &mut self,
        request: Request,
        token: StopToken,
        received: Instant,
    ) -> io::Result<bool> {
        let result = match request {
            Request::Quit => return Ok(false),
            Request::Nboard(2) => self.say(&format!("set myname {NAME}")),
            Request::Nboard(v) => {
                log::warn!("nboard: protocol version {v} asked; speaking version 2");
                self.say(&format!("set myname {NAME}"))
            }
            Request::SetDepth(d) if (1..=MAX_DEPTH).contains(&d) => {
                self.depth = Some(d);
                Ok(())
            }
            Request::SetDepth(d) => {
                log::warn!("nboard: depth {d} refused: 1 to {MAX_DEPTH}");
                Ok(())
            }
            Request::SetGame(text) => {
                self.set_game(&text);
                Ok(())
            }
            Request::SetContempt(c) => {
                log::info!("nboard: contempt {c} noted; there is no book, whose draws it values");
                Ok(())
            }
            Request::Move(text) => {
                self.play(&text);
                Ok(())
            }
            Request::Hint(0) => {
                log::warn!("nboard: hint 0 asks for no move; ignored");
                Ok(())
            }
            Request::Hint(k) => self.hint(k as usize, token),
            Request::Go => self.go(token, received),
            Request::Ping(n) => self.say(&format!("pong {n}")),
            Request::Learn => self.learn(),
            Request::Ignored(text) => {
                log::debug!("nboard: ignored '{}'", printable(&text));
                Ok(())
            }
            Request::Invalid(why) => {
                log::warn!("nboard: {why}");
                Ok(())
            }
        };
        match result {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
            Err(e) => Err(e),
        }
    }

    fn say(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn position(&self) -> &Position {
        self.record.game.position()
    }

    /// Replaces the game; a bad record is logged and the old game kept.
    /// The engine forgets the old game unless the new one continues it.
    fn set_game(&mut self, text: &str) {
        let record = match ggf::parse(text) {
            Ok(r) => r,
            Err(e) => {
                log::warn!("nboard: set game refused, the game is unchanged: {e}");
                return;
            }
        };
        let n = record.game.position().size();
        if let Err(e) = self.engine.check_size(n) {
            log::warn!("nboard: set game refused: {e}");
            return;
        }
        let old: Vec<_> = self.record.game.moves().collect();
        let new: Vec<_> = record.game.moves().collect();
        let continues = record.game.start() == self.record.game.start() && new.starts_with(&old);
        if !continues {
            self.engine.new_game();
        }
        self.record = record;
    }

    /// Appends one ply for the side to move (`f5`, `PA`, with evaluation
    /// and time as in GGF); an illegal one is logged and dropped.
    fn play(&mut self, text: &str) {
        let pos = *self.position();
        let ply = match ggf::parse_ply(pos.to_move(), text, pos.size()) {
            Ok(p) => p,
            Err(e) => {
                log::warn!("nboard: move '{}' refused: {e}", printable(text));
                return;
            }
        };
        match self.record.game.play(ply.color, ply.mv) {
            Ok(()) => self.record.plies.push(ply),
            Err(e) => log::warn!("nboard: move '{}' refused: {e}", printable(text)),
        }
    }

    /// `go`: the move for the side to move, within `set depth` and its
    /// clock (the game's main time less its own recorded times, plus
    /// increments; with no clock in the game, the time per move). The
    /// move is not played: the GUI sends it back if it takes it.
    fn go(&mut self, token: StopToken, received: Instant) -> io::Result<()> {
        let pos = *self.position();
        if pos.is_game_over() {
            log::warn!("nboard: go after the end of the game; no move");
            return Ok(());
        }
        if pos.must_pass() {
            return self.say("=== PA");
        }
        let clock = match self.record.clock(pos.to_move()) {
            Some(c) => {
                let mut clock = Clock::per_move(std::time::Duration::ZERO);
                let left = self.record.time_left(pos.to_move()).unwrap_or(c.main);
                clock.set_game_clock(left, c.increment);
                clock
            }
            None => self.per_move.clone(),
        };
        let limits = clock.limits(
            &pos,
            self.engine.depth_defined(),
            self.depth,
            token,
            received,
        );
        self.say(&format!("status {NAME} is thinking"))?;
        let decision = self.engine.decide(&pos, limits);
        let seconds = received.elapsed().as_secs_f64();
        if decision.nodes > 0 {
            self.say(&format!("nodestats {} {seconds:.2}", decision.nodes))?;
        }
        let mv = mv_text(decision.mv);
        match decision.score {
            Some(s) => self.say(&format!("=== {mv}/{}/{seconds:.2}", eval_text(&s))),
            None => self.say(&format!("=== {mv}//{seconds:.2}")),
        }
    }

    /// `hint k`: the best `k` moves at every depth the search finishes,
    /// until `set depth` or a `ping`; no clock applies.
    fn hint(&mut self, k: usize, token: StopToken) -> io::Result<()> {
        let pos = *self.position();
        if pos.is_game_over() {
            return self.say("status");
        }
        if let Err(e) = self.engine.check_size(pos.size()) {
            log::warn!("nboard: {e}");
            return Ok(());
        }
        // A side that must pass is shown the pass, scored by the
        // opponent's best reply.
        let passing = pos.must_pass();
        let searched = if passing {
            pos.play(Move::Pass).expect("a forced pass is legal")
        } else {
            pos
        };
        self.say(&format!("status {NAME} is thinking"))?;
        // The book's moves first, as `book` lines; the search's lines are
        // for the other moves (the GUI keeps one hint a square).
        let (book, depth) = self.engine.book_moves(&pos);
        for m in book.iter().take(k) {
            let eval = score_text(i32::from(m.value), false);
            let note = if m.deviation { "deviation" } else { "played" };
            self.say(&format!(
                "book {} {eval} {} {depth} {note}",
                mv_text(m.mv),
                m.games
            ))?;
        }
        let k = k.saturating_sub(book.len().min(k));
        // The search leaves the book's moves out; with none left, or no
        // more lines asked for, it is not run.
        let excluded: Vec<usize> = book.iter().filter_map(|m| m.mv.index(pos.size())).collect();
        if k == 0 || (!passing && excluded.len() == pos.legal_moves(pos.to_move()).len()) {
            return self.say("status");
        }
        let limits = Limits {
            depth: self.depth,
            stop: token,
            excluded,
            ..Limits::default()
        };
        let out = &mut self.out;
        let mut shown = false;
        let mut written: io::Result<()> = Ok(());
        let mut progress = |a: &Analysis| {
            if written.is_ok() {
                shown = true;
                written = write_lines(out, &hint_lines(a, k, passing));
            }
        };
        let analysis = self.engine.analyse(&searched, limits, false, &mut progress);
        written?;
        match analysis {
            Ok(a) => {
                if !shown {
                    // Stopped before the first depth: the static scores.
                    write_lines(&mut self.out, &hint_lines(&a, k, passing))?;
                }
                let seconds = a.elapsed.as_secs_f64();
                self.say(&format!("nodestats {} {seconds:.2}", a.nodes))?;
            }
            Err(e) => log::warn!("nboard: no hints: {e}"),
        }
        self.say("status")
    }
}

fn write_lines(out: &mut impl Write, lines: &[String]) -> io::Result<()> {
    for line in lines {
        writeln!(out, "{line}")?;
    }
    out.flush()
}

/// The `search` lines of an analysis: its best `k` moves (the pass alone
/// when `passing`, scored by the opponent's best reply).
fn hint_lines(a: &Analysis, k: usize, passing: bool) -> Vec<String> {
    let line = |pv: String, s: &MoveScore| {
        let depth = if s.exact {
            "100%".to_string()
        } else {
            s.depth.to_string()
        };
        format!("search {pv} {} 0 {depth}", eval_text(s))
    };
    if passing {
        return a
            .scores
            .first()
            .map(|best| {
                let negated = MoveScore {
                    score: -best.score,
                    ..*best
                };
                vec![line("PA".into(), &negated)]
            })
            .unwrap_or_default();
    }
    a.scores
        .iter()
        .take(k)
        .map(|s| line(mv_text(s.mv), s))
        .collect()
}

/// A move as NBoard writes it: `F5`, `PA`.
fn mv_text(mv: Move) -> String {
    match mv {
        Move::Pass => "PA".into(),
        Move::Place(sq) => sq.standard().to_ascii_uppercase(),
    }
}

/// A score in discs for the side to move: `+2.00`, `-4` when exact.
fn eval_text(s: &MoveScore) -> String {
    score_text(s.score, s.exact)
}
