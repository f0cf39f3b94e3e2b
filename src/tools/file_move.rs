//! `reversi file-move`: the file mode of the small C program of the seeds.
//! A board file holds 8 lines of 8 characters (space for empty, `B`, `W`)
//! and is named `<name>-<NN>`; one move is made (the computer's, within a
//! time limit, or a given human move `XY`: column digit then row digit,
//! 1-8) and the board after it is written to `<name>-<NN+1>` beside it.
//! Nothing is written when anything is wrong.

use crate::engine::{Clock, Engine, Resources};
use crate::rules::{Color, Move, Position, Square, printable};
use crate::search::{MAX_TIME, StopToken, bounded_secs};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What to do on the board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action {
    /// The computer moves, thinking this many seconds.
    Computer(f64),
    /// The human move at this square.
    Human(Square),
}

/// Why nothing was written.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum FileMoveError {
    #[error("file name '{}' does not end in -NN (two digits)", printable(.0))]
    BadName(String),
    #[error("colour '{}' is not black or white", printable(.0))]
    BadColor(String),
    #[error("'{}' is neither seconds (e.g. 1.5) nor a move XY (column, row: 1-8)", printable(.0))]
    BadAction(String),
    #[error("cannot read the board: {0}")]
    Read(String),
    #[error("bad board file: {0}")]
    BadBoard(String),
    #[error("illegal move {0}")]
    Illegal(String),
    #[error("cannot write the board: {0}")]
    Write(String),
}

/// Reads the action argument: two digits 1-8 are a move `XY` (column,
/// row); anything else must be a positive number of seconds. With the C
/// program's fourth argument present, the third is always a move.
pub fn parse_action(arg: &str, human: bool) -> Result<Action, FileMoveError> {
    let b = arg.as_bytes();
    let digit = |c: u8| (b'1'..=b'8').contains(&c);
    if b.len() == 2 && digit(b[0]) && digit(b[1]) {
        return Ok(Action::Human(Square::new(
            (b[1] - b'1') as usize,
            (b[0] - b'1') as usize,
        )));
    }
    if !human
        && let Ok(s) = arg.parse::<f64>()
        && s.is_finite()
        && s > 0.0
    {
        return Ok(Action::Computer(s));
    }
    Err(FileMoveError::BadAction(arg.to_string()))
}

/// The path of the next board: `<name>-<NN+1>`.
pub fn next_path(path: &Path) -> Result<PathBuf, FileMoveError> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let bad = || FileMoveError::BadName(path.display().to_string());
    let (stem, number) = name.rsplit_once('-').ok_or_else(bad)?;
    if number.len() != 2 || !number.bytes().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    let next = number.parse::<u32>().map_err(|_| bad())? + 1;
    Ok(path.with_file_name(format!("{stem}-{next:02}")))
}

/// Reads a board file's text.
pub fn parse_board(text: &str, to_move: Color) -> Result<Position, FileMoveError> {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() != 8 {
        return Err(FileMoveError::BadBoard(format!(
            "{} lines, expected 8",
            lines.len()
        )));
    }
    let mut cells = Vec::with_capacity(64);
    for (r, line) in lines.iter().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.chars().count() > 8 {
            return Err(FileMoveError::BadBoard(format!(
                "line {} is longer than 8",
                r + 1
            )));
        }
        // Trailing spaces may have been trimmed by an editor.
        let padded = format!("{line:<8}");
        for c in padded.chars() {
            cells.push(match c {
                ' ' => None,
                'B' => Some(Color::Black),
                'W' => Some(Color::White),
                other => {
                    return Err(FileMoveError::BadBoard(format!(
                        "'{}' on line {}",
                        other.escape_default(),
                        r + 1
                    )));
                }
            });
        }
    }
    Position::from_cells(8, &cells, to_move).map_err(|e| FileMoveError::BadBoard(e.to_string()))
}

/// The board file text of a position.
pub fn board_text(pos: &Position) -> String {
    let mut text = String::new();
    for r in 0..8 {
        for c in 0..8 {
            text.push(match pos.cell(Square::new(r, c)) {
                None => ' ',
                Some(Color::Black) => 'B',
                Some(Color::White) => 'W',
            });
        }
        text.push('\n');
    }
    text
}

/// Makes one move on the board in `path` for `color` and writes the next
/// board file; returns its path and the move made (`pass` when the side
/// has no legal move and the computer is to play).
pub fn file_move(
    path: &Path,
    color: Color,
    action: Action,
) -> Result<(PathBuf, Move), FileMoveError> {
    let next = next_path(path)?;
    let text = std::fs::read_to_string(path)
        .map_err(|e| FileMoveError::Read(format!("{}: {e}", path.display())))?;
    let pos = parse_board(&text, color)?;
    let mv = match action {
        Action::Human(sq) => Move::Place(sq),
        // No move to choose from (a full board, or one the side is shut
        // out of): a pass, with no search asked for.
        Action::Computer(_) if !pos.has_moves(color) => Move::Pass,
        Action::Computer(seconds) => {
            let player = format!("weights:{}", seconds.min(MAX_TIME.as_secs_f64()));
            let mut engine = Engine::new(&player, Resources::default())
                .map_err(|_| FileMoveError::BadAction(seconds.to_string()))?;
            let limits = Clock::per_move(bounded_secs(seconds)).limits(
                &pos,
                false,
                None,
                StopToken::new(),
                Instant::now(),
            );
            engine.choose(&pos, limits)
        }
    };
    let after = match mv {
        Move::Place(sq) => pos
            .place(color, sq)
            .map_err(|e| FileMoveError::Illegal(format!("{}{} ({})", sq.col + 1, sq.row + 1, e)))?,
        Move::Pass => pos,
    };
    std::fs::write(&next, board_text(&after))
        .map_err(|e| FileMoveError::Write(format!("{}: {e}", next.display())))?;
    Ok((next, mv))
}

/// The `file-move` subcommand: one move on the board file `file` for the
/// colour named `color`, the `action` argument read as
/// [`parse_action`] does; the line to print (`black plays 45 -> x-02`).
pub fn run(file: &str, color: &str, action: &str, human: bool) -> Result<String, FileMoveError> {
    let color = Color::parse(color).ok_or_else(|| FileMoveError::BadColor(color.into()))?;
    let action = parse_action(action, human)?;
    let (next, mv) = file_move(Path::new(file), color, action)?;
    let square = match mv {
        Move::Place(sq) => format!("{}{}", sq.col + 1, sq.row + 1),
        Move::Pass => "pass".into(),
    };
    Ok(format!("{color} plays {square} -> {}", next.display()))
}
