//! Colours, squares and moves, and the two move notations the project
//! speaks: the standard Othello one (column letter, row number from the top:
//! `d3`, up to `z26`) and the labs' row letter + column letter (`ba` = row
//! b, column a). They are told apart by their second character.

use std::fmt;

/// A side: Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other side.
    pub fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The one-letter form the labs and GTP use (`B`, `W`).
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// The lower-case word (`black`, `white`).
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// Parses `b`, `w`, `black`, `white` in any case.
    pub fn parse(s: &str) -> Option<Color> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A square by 0-based row (0 at the top) and column (0 at the left).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Square {
    pub row: u8,
    pub col: u8,
}

impl Square {
    /// The square at `row`, `col`.
    pub fn new(row: usize, col: usize) -> Square {
        Square {
            row: row as u8,
            col: col as u8,
        }
    }

    /// The square of row-major index `idx` on an n x n board.
    pub fn from_index(idx: usize, n: usize) -> Square {
        Square::new(idx / n, idx % n)
    }

    /// Row-major index on an n x n board.
    pub fn index(self, n: usize) -> usize {
        self.row as usize * n + self.col as usize
    }

    /// Whether the square lies on an n x n board.
    pub fn on_board(self, n: usize) -> bool {
        (self.row as usize) < n && (self.col as usize) < n
    }

    /// Standard notation, lower case: column letter then row number (`d3`).
    pub fn standard(self) -> String {
        format!("{}{}", (b'a' + self.col) as char, self.row as usize + 1)
    }

    /// The labs' notation: row letter then column letter (`ba`).
    pub fn lab(self) -> String {
        format!("{}{}", (b'a' + self.row) as char, (b'a' + self.col) as char)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.standard())
    }
}

/// A move: a disc on a square, or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Place(Square),
    Pass,
}

impl Move {
    /// Standard notation (`d3`, `pass`).
    pub fn standard(self) -> String {
        match self {
            Move::Place(sq) => sq.standard(),
            Move::Pass => "pass".to_string(),
        }
    }

    /// The index of the square it plays on an n x n board (row by row,
    /// as [`Square::index`]); `None` for a pass.
    pub fn index(self, n: usize) -> Option<usize> {
        match self {
            Move::Place(sq) => Some(sq.index(n)),
            Move::Pass => None,
        }
    }

    /// Lab notation (`ba`, `pass`).
    pub fn lab(self) -> String {
        match self {
            Move::Place(sq) => sq.lab(),
            Move::Pass => "pass".to_string(),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.standard())
    }
}

/// `text` with its control characters escaped (`\u{1b}`, `\n`), for
/// echoing what a user or another program sent in a message: raw control
/// bytes would reach a terminal or break a line-based protocol.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Why a move string could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Not a move in either notation.
    Unreadable(String),
    /// A well-formed square that is not on the board.
    OffBoard(String, usize),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Unreadable(s) => write!(f, "unreadable move '{}'", printable(s)),
            NotationError::OffBoard(s, n) => {
                write!(f, "{} is off the {n}x{n} board", printable(s))
            }
        }
    }
}

impl std::error::Error for NotationError {}

/// Parses a square in either notation, case-insensitively: `d3`/`D3`
/// (column letter, row number 1-26 from the top) or `ba` (row letter,
/// column letter), and checks it lies on an n x n board.
pub fn parse_square(s: &str, n: usize) -> Result<Square, NotationError> {
    let unreadable = || NotationError::Unreadable(s.to_string());
    let lower = s.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    if bytes.len() < 2 || !bytes[0].is_ascii_lowercase() {
        return Err(unreadable());
    }
    let first = (bytes[0] - b'a') as usize;
    let sq = if bytes[1].is_ascii_lowercase() {
        if bytes.len() != 2 {
            return Err(unreadable());
        }
        Square::new(first, (bytes[1] - b'a') as usize)
    } else {
        let digits = &lower[1..];
        if digits.len() > 2
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return Err(unreadable());
        }
        let row: usize = digits.parse().map_err(|_| unreadable())?;
        Square::new(row - 1, first)
    };
    if sq.on_board(n) {
        Ok(sq)
    } else {
        Err(NotationError::OffBoard(s.to_string(), n))
    }
}

/// The first board size with a 16th row, where `pa` is a square in the
/// labs' notation (row p, column a).
const ROW_P: usize = 16;

/// The lines of a text file's `bytes`, numbered from 1, each its text or
/// why it is none (`bytes that are not UTF-8 at column 7`); a byte order
/// mark, as some editors write, is left out. Files of moves and positions
/// are read through it, so that an error names its line.
pub fn text_lines(bytes: &[u8]) -> impl Iterator<Item = (usize, Result<&str, String>)> {
    bytes.split(|&b| b == b'\n').enumerate().map(|(i, line)| {
        let text = std::str::from_utf8(line)
            .map(|t| t.trim_start_matches('\u{feff}'))
            .map_err(|e| format!("bytes that are not UTF-8 at column {}", e.valid_up_to() + 1));
        (i + 1, text)
    })
}

/// A square in the labs' notation, row letter then column letter
/// (`cd`: row c, column d), on an n x n board; `None` for anything else.
pub fn parse_lab_square(s: &str, n: usize) -> Option<Square> {
    let b = s.as_bytes();
    if b.len() != 2 || !b.iter().all(u8::is_ascii_lowercase) {
        return None;
    }
    let sq = Square::new((b[0] - b'a') as usize, (b[1] - b'a') as usize);
    sq.on_board(n).then_some(sq)
}

/// Parses a move: `pass` (any case), or `PA` as GGF writes passes where
/// that is no square (boards below 16x16), or a square as
/// [`parse_square`].
pub fn parse_move(s: &str, n: usize) -> Result<Move, NotationError> {
    if s.eq_ignore_ascii_case("pass") || (n < ROW_P && s.eq_ignore_ascii_case("pa")) {
        return Ok(Move::Pass);
    }
    parse_square(s, n).map(Move::Place)
}

/// Splits `f5d6c3` (or `f5 d6 c3`, with `pass`/`PA` for passes) into move
/// strings in the standard notation (passes as `pass`).
pub fn split_move_list(text: &str) -> Vec<String> {
    let mut moves = Vec::new();
    for word in text.split_whitespace() {
        let mut rest = word;
        while !rest.is_empty() {
            let starts = |p: &str| {
                rest.get(..p.len())
                    .is_some_and(|s| s.eq_ignore_ascii_case(p))
            };
            let pass = if starts("pass") {
                4
            } else if starts("pa") {
                2
            } else {
                0
            };
            if pass > 0 {
                moves.push("pass".to_string());
                rest = &rest[pass..];
                continue;
            }
            // A letter and its digits, or two letters; any character may
            // be more than one byte (it is then no move, which the caller
            // says).
            let char_len = |s: &str| s.chars().next().map_or(0, char::len_utf8);
            let first = char_len(rest);
            let digits = rest[first..].bytes().take_while(u8::is_ascii_digit).count();
            let len = first
                + if digits > 0 {
                    digits
                } else {
                    char_len(&rest[first..])
                };
            moves.push(rest[..len].to_string());
            rest = &rest[len..];
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_notations_round_trip_on_every_size() {
        for n in (4..=26).step_by(2) {
            for row in 0..n {
                for col in 0..n {
                    let sq = Square::new(row, col);
                    assert_eq!(parse_square(&sq.standard(), n), Ok(sq));
                    assert_eq!(parse_square(&sq.lab(), n), Ok(sq));
                    assert_eq!(parse_square(&sq.standard().to_uppercase(), n), Ok(sq));
                    assert_eq!(parse_square(&sq.lab().to_uppercase(), n), Ok(sq));
                }
            }
        }
    }

    #[test]
    fn examples_from_the_handouts() {
        assert_eq!(parse_square("d3", 8), Ok(Square::new(2, 3)));
        assert_eq!(parse_square("ba", 4), Ok(Square::new(1, 0)));
        assert_eq!(parse_square("z26", 26), Ok(Square::new(25, 25)));
        assert_eq!(Square::new(25, 25).standard(), "z26");
        assert_eq!(parse_move("PA", 8), Ok(Move::Pass));
        assert_eq!(parse_move("Pass", 8), Ok(Move::Pass));
    }

    #[test]
    fn every_move_reads_back_as_itself_in_both_notations() {
        for n in (4..=26).step_by(2) {
            for i in 0..n * n {
                let mv = Move::Place(Square::from_index(i, n));
                assert_eq!(parse_move(&mv.standard(), n), Ok(mv));
                assert_eq!(parse_move(&mv.lab(), n), Ok(mv), "{} on {n}x{n}", mv.lab());
            }
            assert_eq!(parse_move(&Move::Pass.lab(), n), Ok(Move::Pass));
        }
        assert_eq!(parse_move("pa", 16), Ok(Move::Place(Square::new(15, 0))));
        assert_eq!(parse_move("PA", 14), Ok(Move::Pass));
    }

    #[test]
    fn bad_squares_are_rejected() {
        for s in ["", "d", "d0", "d03", "d100", "3d", "dd3", "d-1", "é3", "!!"] {
            assert!(parse_square(s, 26).is_err(), "{s}");
        }
        assert_eq!(
            parse_square("i9", 8),
            Err(NotationError::OffBoard("i9".into(), 8))
        );
        assert!(matches!(
            parse_square("ae", 4),
            Err(NotationError::OffBoard(..))
        ));
    }

    #[test]
    fn move_lists_split_with_one_and_two_digit_rows() {
        assert_eq!(split_move_list("f5d6c3"), ["f5", "d6", "c3"]);
        assert_eq!(
            split_move_list("a10b2 pass z26"),
            ["a10", "b2", "pass", "z26"]
        );
        assert_eq!(split_move_list("f5PAd6"), ["f5", "pass", "d6"]);
        // Characters of several bytes anywhere are split, not a panic.
        assert_eq!(split_move_list("é5pé"), ["é5", "pé"]);
        assert_eq!(split_move_list("f5€"), ["f5", "€"]);
    }
}
