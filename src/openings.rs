//! How the games of a match start: from the start position, after random
//! plies, or from an opening suite read from a file (move lists, GGF
//! games cut at a ply, OBF positions). Each opening is played by a pair of
//! games, once with each colour; a suite is used in turn, from its first
//! opening, and starts again when it runs out. Also the counting of the
//! openings recorded games share, from which a suite is made.

use crate::rules::ggf;
use crate::rules::obf::Problem;
use crate::rules::{
    Color, Game, Move, Position, Square, parse_move, printable, split_move_list, text_lines,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A start position and moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub start: Position,
    pub moves: Vec<Move>,
}

impl Opening {
    /// Whether no move is left to play once the opening's moves are played
    /// (a whole game given as an opening would be a game of no moves).
    fn ends_the_game(&self) -> bool {
        let mut game = Game::from_position(self.start);
        for &mv in &self.moves {
            game.play_next(mv).expect("suite moves are checked as read");
        }
        game.position().is_game_over()
    }
}

/// Reads one line of a suite's file into its opening.
type LineReader = Box<dyn Fn(&str) -> Result<Opening, String>>;

/// How games start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// From the standard start position.
    None,
    /// `k` random plies from the start (different for each pair of games).
    Random(usize),
    /// A suite read from a file, used in turn; `label` names it in the
    /// match's heading.
    Suite {
        label: String,
        openings: Vec<Opening>,
    },
}

/// Why openings could not be read.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    #[error("--openings random:<plies>: '{}' is not a number of plies", printable(.0))]
    Length(String),
    #[error(
        "unknown openings '{}' (none, random:<plies>, file:<path>, ggf:<plies>:<path>, obf:<path>)",
        printable(.0)
    )]
    Unknown(String),
    #[error("{path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}, line {line}: {why}")]
    Line {
        path: String,
        line: usize,
        why: String,
    },
    #[error("{0}: no openings")]
    Empty(String),
}

impl Openings {
    /// `none`, `random:<plies>`, or a suite: `file:<path>` (move lists
    /// such as `f5d6c3` or `f5 d6 c3`, one a line), `ggf:<plies>:<path>`
    /// (GGF games, one a line, each cut after its first `plies` plies) or
    /// `obf:<path>` (OBF positions, one a line). In every file `#` starts a
    /// comment (`%` too in OBF); every opening must be on an n x n board,
    /// and every move legal.
    pub fn parse(spec: &str, n: usize) -> Result<Openings, OpeningsError> {
        if spec == "none" {
            return Ok(Openings::None);
        }
        if let Some(k) = spec.strip_prefix("random:") {
            return k
                .parse()
                .map(Openings::Random)
                .map_err(|_| OpeningsError::Length(k.into()));
        }
        let (path, read): (&str, LineReader) = if let Some(path) = spec.strip_prefix("file:") {
            (path, Box::new(move |line| move_list(line, n)))
        } else if let Some(rest) = spec.strip_prefix("ggf:") {
            let (plies, path) = rest
                .split_once(':')
                .ok_or_else(|| OpeningsError::Unknown(spec.into()))?;
            let plies: usize = plies
                .parse()
                .map_err(|_| OpeningsError::Length(plies.into()))?;
            (path, Box::new(move |line| ggf_prefix(line, n, plies)))
        } else if let Some(path) = spec.strip_prefix("obf:") {
            (path, Box::new(move |line| obf_position(line, n)))
        } else {
            return Err(OpeningsError::Unknown(spec.into()));
        };
        let bytes = std::fs::read(path).map_err(|source| OpeningsError::Read {
            path: path.into(),
            source,
        })?;
        let mut openings = Vec::new();
        for (line, text) in text_lines(&bytes) {
            let bad = |why: String| OpeningsError::Line {
                path: path.into(),
                line,
                why,
            };
            let trimmed = text.map_err(bad)?.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('%') {
                continue;
            }
            let opening = read(trimmed).map_err(bad)?;
            if opening.ends_the_game() {
                return Err(bad(
                    "the opening ends the game: no move is left to play".into()
                ));
            }
            openings.push(opening);
        }
        if openings.is_empty() {
            return Err(OpeningsError::Empty(path.into()));
        }
        let label = spec.split(':').next().unwrap_or("file").to_string();
        Ok(Openings::Suite { label, openings })
    }

    /// As the match's heading gives them.
    pub fn label(&self) -> String {
        match self {
            Openings::None => "none".into(),
            Openings::Random(k) => format!("random:{k}"),
            Openings::Suite { label, openings } if label == "file" => {
                format!("{} from a file", openings.len())
            }
            Openings::Suite { label, openings } => format!("{} from {label}", openings.len()),
        }
    }

    /// The start position and opening plies of the game pair `pair` on an
    /// `n` x `n` board, random ones drawn from `seed` and `pair`.
    pub fn of_pair(&self, n: usize, seed: u64, pair: usize) -> (Position, Vec<(Color, Move)>) {
        match self {
            Openings::None => (Position::start(n).expect("size checked"), Vec::new()),
            Openings::Random(k) => {
                let mut rng = ChaCha8Rng::seed_from_u64(
                    seed.wrapping_mul(0x9E37_79B9).wrapping_add(pair as u64),
                );
                let game = random_opening(n, *k, &mut rng);
                (*game.start(), game.moves().collect())
            }
            Openings::Suite { openings, .. } => {
                let opening = &openings[pair % openings.len()];
                let mut game = Game::from_position(opening.start);
                for &mv in &opening.moves {
                    game.play_next(mv).expect("suite moves are checked as read");
                }
                (opening.start, game.moves().collect())
            }
        }
    }
}

/// A move list from the standard start (`f5d6c3`, `f5 d6 c3`; a comment
/// after `#`), every move checked.
fn move_list(line: &str, n: usize) -> Result<Opening, String> {
    let line = line.split('#').next().unwrap_or("").trim();
    let start = Position::start(n).map_err(|e| e.to_string())?;
    let mut game = Game::from_position(start);
    let mut moves = Vec::new();
    for text in split_move_list(line) {
        let mv = parse_move(&text, n).map_err(|e| e.to_string())?;
        game.play_next(mv)
            .map_err(|e| format!("{}: {e}", printable(&text)))?;
        moves.push(mv);
    }
    Ok(Opening { start, moves })
}

/// The start and first `plies` plies of a GGF game on one line.
fn ggf_prefix(line: &str, n: usize, plies: usize) -> Result<Opening, String> {
    let record = ggf::parse(line).map_err(|e| e.to_string())?;
    let start = *record.game.start();
    if start.size() != n {
        return Err(format!(
            "a {0}x{0} game; the match is on {n}x{n}",
            start.size()
        ));
    }
    let moves = record.plies.iter().take(plies).map(|p| p.mv).collect();
    Ok(Opening { start, moves })
}

/// An OBF position (its moves and scores, if any, are left aside).
fn obf_position(line: &str, n: usize) -> Result<Opening, String> {
    let problem = Problem::parse(line)
        .map_err(|e| e.to_string())?
        .ok_or("no position")?;
    if n != 8 {
        return Err(format!("OBF positions are 8x8; the match is on {n}x{n}"));
    }
    Ok(Opening {
        start: problem.position,
        moves: Vec::new(),
    })
}

/// A game of `plies` uniformly random legal moves (fewer if it ends) on an
/// n x n board.
pub fn random_opening(n: usize, plies: usize, rng: &mut ChaCha8Rng) -> Game {
    let mut game = Game::new(n).expect("size checked by the caller");
    random_plies(&mut game, plies, rng);
    game
}

/// An 8x8 game of the first `plies` moves of a recorded game (fewer where
/// one is illegal), then `random` uniformly random ones: self-play's
/// openings from tournament games.
pub fn prefix_then_random(
    moves: &[Move],
    plies: usize,
    random: usize,
    rng: &mut ChaCha8Rng,
) -> Game {
    let mut game = Game::new(8).expect("8x8 is supported");
    for &mv in moves.iter().take(plies) {
        if game.play_next(mv).is_err() {
            break;
        }
    }
    random_plies(&mut game, random, rng);
    game
}

/// Plays `plies` uniformly random legal moves (a pass where there is none)
/// on `game`, fewer if it ends.
pub fn random_plies(game: &mut Game, plies: usize, rng: &mut ChaCha8Rng) {
    for _ in 0..plies {
        let pos = *game.position();
        if pos.is_game_over() {
            break;
        }
        let moves = pos.legal_moves(pos.to_move());
        let mv = if moves.is_empty() {
            Move::Pass
        } else {
            Move::Place(moves[rng.random_range(0..moves.len())])
        };
        game.play(pos.to_move(), mv).expect("legal random move");
    }
}

/// The 8x8 position after the first `plies` moves of `game` (passes
/// implied).
pub fn recorded_prefix(game: &str, plies: usize) -> Position {
    let mut g = Game::new(8).expect("8x8 is supported");
    for mv in split_move_list(game).iter().take(plies) {
        let mv = parse_move(mv, 8).expect("a move of the list");
        g.play_next(mv).expect("a legal move of a recorded game");
    }
    *g.position()
}

/// `mv` under the `k`-th symmetry (0 to 3) that keeps the 8x8 start
/// position: the identity, the two diagonal reflections and the half turn.
fn start_symmetry(mv: Move, k: usize) -> Move {
    let Move::Place(sq) = mv else {
        return mv;
    };
    let (r, c) = (sq.row, sq.col);
    let (row, col) = [(r, c), (c, r), (7 - c, 7 - r), (7 - r, 7 - c)][k];
    Move::Place(Square { row, col })
}

/// The first `plies` moves of the 8x8 `game`, turned by the symmetry of
/// the start position that makes the first move f5, so that the four first
/// moves' mirror images count as one opening; `None` when the game is
/// shorter or passes within them.
pub fn turned_prefix(game: &[Move], plies: usize) -> Option<Vec<Move>> {
    let prefix = game.get(..plies)?;
    if plies == 0 || prefix.contains(&Move::Pass) {
        return None;
    }
    let f5 = Move::Place(Square { row: 4, col: 5 });
    let k = (0..4).find(|&k| start_symmetry(prefix[0], k) == f5)?;
    Some(prefix.iter().map(|&mv| start_symmetry(mv, k)).collect())
}

/// The openings of `plies` moves (as [`turned_prefix`] turns them) that at
/// least `min_games` of the 8x8 `games` begin with, each with its count:
/// the most played first, ties in the order of their move lists' text.
/// Also returns how many games were long enough to count.
pub fn common_openings(
    games: &[Vec<Move>],
    plies: usize,
    min_games: u32,
) -> (usize, Vec<(String, u32)>) {
    let mut counts: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
    let mut counted = 0;
    for game in games {
        if let Some(prefix) = turned_prefix(game, plies) {
            counted += 1;
            let text: String = prefix.iter().map(Move::to_string).collect();
            *counts.entry(text).or_default() += 1;
        }
    }
    let mut common: Vec<(String, u32)> = counts
        .into_iter()
        .filter(|&(_, n)| n >= min_games)
        .collect();
    common.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    (counted, common)
}

/// The position after `plies` moves chosen by a fixed rule (the legal move
/// at a pseudo-random rank), the same in every build: the bench's
/// positions on every size.
pub fn fixed_opening(n: usize, plies: usize) -> Position {
    let mut pos = Position::start(n).expect("supported size");
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15 ^ n as u64;
    for _ in 0..plies {
        let moves = pos.legal_moves(pos.to_move());
        if moves.is_empty() {
            match pos.play(Move::Pass) {
                Ok(p) => pos = p,
                Err(_) => break,
            }
            continue;
        }
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let sq = moves[((state >> 33) % moves.len() as u64) as usize];
        pos = pos.place(pos.to_move(), sq).expect("legal");
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<Move> {
        split_move_list(text)
            .iter()
            .map(|m| parse_move(m, 8).unwrap())
            .collect()
    }

    #[test]
    fn the_four_first_moves_turn_into_one_opening() {
        let games: Vec<Vec<Move>> = ["f5d6c3", "d3c5f6", "c4e3f6", "e6f4c3", "f5f6e6", "f5d6c5"]
            .iter()
            .map(|g| moves(g))
            .collect();
        assert_eq!(turned_prefix(&games[1], 2), Some(moves("f5d6")));
        assert_eq!(turned_prefix(&games[2], 2), Some(moves("f5d6")));
        assert_eq!(turned_prefix(&games[3], 2), Some(moves("f5d6")));
        assert_eq!(turned_prefix(&games[0], 4), None);
        let (counted, common) = common_openings(&games, 2, 1);
        assert_eq!(counted, 6);
        assert_eq!(common, [("f5d6".to_string(), 5), ("f5f6".to_string(), 1)]);
        assert_eq!(common_openings(&games, 2, 2).1.len(), 1);
        // Ties in the order of the move lists.
        let (_, third) = common_openings(&games, 3, 1);
        let order: Vec<&str> = third.iter().map(|(o, _)| o.as_str()).collect();
        assert_eq!(order, ["f5d6c3", "f5d6c5", "f5f6e6"], "{third:?}");
    }

    /// A suite file `name` holding `text` in `dir` (removed with it).
    fn suite(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    }

    #[test]
    fn suites_of_each_kind_give_their_openings_in_turn() {
        let dir = tempfile::tempdir().unwrap();
        let lists = suite(
            &dir,
            "lists",
            "# a comment\nf5d6c3\n\nf5 f6 e6 # the perpendicular\n",
        );
        let o = Openings::parse(&format!("file:{lists}"), 8).unwrap();
        assert_eq!(o.label(), "2 from a file");
        let (start, plies) = o.of_pair(8, 1, 3);
        assert_eq!(start, Position::start(8).unwrap());
        let text: Vec<String> = plies.iter().map(|(_, m)| m.standard()).collect();
        assert_eq!(text, ["f5", "f6", "e6"]);
        // A GGF game cut after 2 plies, from its own start.
        let record = "(;GM[Othello]PC[x]PB[a]PW[b]RE[?]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6]B[c3];)";
        let ggf = suite(&dir, "ggf", &format!("{record}\n"));
        let o = Openings::parse(&format!("ggf:2:{ggf}"), 8).unwrap();
        assert_eq!(o.label(), "1 from ggf");
        assert_eq!(o.of_pair(8, 1, 0).1.len(), 2);
        // An OBF position is the start itself, with no moves.
        let position =
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;";
        let obf = suite(&dir, "obf", &format!("% FFO #40\n{position}\n"));
        let o = Openings::parse(&format!("obf:{obf}"), 8).unwrap();
        let (start, plies) = o.of_pair(8, 1, 0);
        assert!(plies.is_empty());
        assert_eq!(start.empties(), 20);
        assert_eq!(start.to_move(), Color::Black);
    }

    #[test]
    fn bad_suites_say_where() {
        let dir = tempfile::tempdir().unwrap();
        let illegal = suite(&dir, "illegal", "f5d6\nf5a1\n");
        let e = Openings::parse(&format!("file:{illegal}"), 8)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2") && e.contains("a1"), "{e}");
        let e = Openings::parse(&format!("obf:{illegal}"), 10)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 1"), "{e}");
        // A whole game (4x4, the board filled) is no opening.
        let whole = suite(&dir, "whole", "b1a1\nb1a1a2c1d1a3a4d2d3b4c4d4\n");
        let e = Openings::parse(&format!("file:{whole}"), 4)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2: the opening ends the game"), "{e}");
        let full = suite(&dir, "full", &format!("{} X;\n", "XO".repeat(32)));
        let e = Openings::parse(&format!("obf:{full}"), 8)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 1: the opening ends the game"), "{e}");
        // Bytes that are not text are named by line; a byte order mark is
        // not part of the first move.
        let path = suite(&dir, "latin1", "");
        std::fs::write(&path, b"f5d6\nf5 d6 \xe9\n").unwrap();
        let e = Openings::parse(&format!("file:{path}"), 8)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 2: bytes that are not UTF-8 at column 7"),
            "{e}"
        );
        let bom = suite(&dir, "bom", "\u{feff}f5d6\n");
        assert!(Openings::parse(&format!("file:{bom}"), 8).is_ok());
        let empty = suite(&dir, "empty", "# nothing\n");
        let e = Openings::parse(&format!("file:{empty}"), 8)
            .unwrap_err()
            .to_string();
        assert!(e.contains("no openings"), "{e}");
        assert!(
            Openings::parse("ggf:x:y", 8)
                .unwrap_err()
                .to_string()
                .contains("'x'")
        );
        assert!(
            Openings::parse("book:x", 8)
                .unwrap_err()
                .to_string()
                .contains("unknown")
        );
    }
}
