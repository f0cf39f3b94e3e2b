//! OBF, the problem format of Edax and the FFO test suites: 64 cells from
//! a1 to h8 row by row (`X` black, `O` white, `-` empty), a space, the side
//! to move, then optionally `;` and the best moves with their exact scores
//! (`G8:+18; H1:+12; ...`, side-to-move view).

use super::notation::{Color, Move, parse_move};
use super::position::Position;
use std::fmt;

/// One OBF problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub position: Position,
    /// Moves with their scores as the file gives them, best first.
    pub scores: Vec<(Move, i32)>,
}

/// Why an OBF line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfError(pub String);

impl fmt::Display for ObfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad OBF line: {}", self.0)
    }
}

impl std::error::Error for ObfError {}

/// The start of a line an error quotes: at most 80 characters, control
/// characters escaped, and `...` when there is more.
fn line_start(line: &str) -> String {
    const SHOWN: usize = 80;
    let start: String = line.chars().take(SHOWN).collect();
    let more = if line.chars().nth(SHOWN).is_some() {
        "..."
    } else {
        ""
    };
    format!("{}{more}", super::printable(&start))
}

impl Problem {
    /// Parses one line; `Ok(None)` for blank lines and `%` comments.
    pub fn parse(line: &str) -> Result<Option<Problem>, ObfError> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('%') || line.starts_with('#') {
            return Ok(None);
        }
        let err = |why: &str| ObfError(format!("{why}: {}", line_start(line)));
        let mut parts = line.split(';');
        let head = parts.next().unwrap_or("").trim();
        let (cells, side) = head
            .split_once(char::is_whitespace)
            .ok_or_else(|| err("expected 64 cells and a side to move"))?;
        let cells: Vec<Option<Color>> = cells
            .chars()
            .map(|c| match c {
                'X' | 'x' | '*' => Ok(Some(Color::Black)),
                'O' | 'o' => Ok(Some(Color::White)),
                '-' | '.' => Ok(None),
                _ => Err(err("cells must be X, O or -")),
            })
            .collect::<Result<_, _>>()?;
        if cells.len() != 64 {
            return Err(err("expected 64 cells"));
        }
        let to_move = match side.trim() {
            "X" | "x" | "*" => Color::Black,
            "O" | "o" => Color::White,
            _ => return Err(err("side to move must be X or O")),
        };
        let position = Position::from_cells(8, &cells, to_move).map_err(|e| err(&e.to_string()))?;
        let mut scores = Vec::new();
        for part in parts {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let (mv, score) = part
                .split_once(':')
                .ok_or_else(|| err("expected MOVE:SCORE"))?;
            let mv = parse_move(mv.trim(), 8).map_err(|e| err(&e.to_string()))?;
            let score: i32 = score
                .trim()
                .trim_start_matches('+')
                .parse()
                .map_err(|_| err("bad score"))?;
            scores.push((mv, score));
        }
        Ok(Some(Problem { position, scores }))
    }

    /// The best score the file gives, if any.
    pub fn best_score(&self) -> Option<i32> {
        self.scores.iter().map(|&(_, s)| s).max()
    }

    /// Whether `mv` with `score` agrees with the file: the best score, and
    /// one of the moves that reach it.
    pub fn agrees(&self, mv: Move, score: i32) -> Option<bool> {
        let best = self.best_score()?;
        Some(score == best && self.scores.iter().any(|&(m, s)| s == best && m == mv))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Square;

    #[test]
    fn ffo_1_reads_back() {
        let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6;";
        let p = Problem::parse(line).unwrap().unwrap();
        assert_eq!(p.position.to_move(), Color::Black);
        assert_eq!(p.position.empties(), 14);
        assert_eq!(p.scores[0], (Move::Place(Square::new(7, 6)), 18));
        assert_eq!(p.agrees(Move::Place(Square::new(7, 6)), 18), Some(true));
        assert_eq!(p.agrees(Move::Place(Square::new(0, 7)), 18), Some(false));
        assert!(Problem::parse("% comment").unwrap().is_none());
        assert!(Problem::parse("XO X").is_err());
        // A long bad line is quoted by its start only.
        let long = format!("{} X", "Z".repeat(1 << 20));
        let message = Problem::parse(&long).unwrap_err().to_string();
        assert!(message.len() < 200, "{} bytes", message.len());
        assert!(
            message.ends_with(&format!("{}...", "Z".repeat(80))),
            "{message}"
        );
    }
}
