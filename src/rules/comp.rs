//! The COMP24011 ASCII state: rows top to bottom separated by `|`, cells
//! `b`, `w`, `.`, inside braces when White is to move and square brackets
//! when Black is: `[........|........|...|...wb...|...bw...|...]`.

use super::notation::{Color, Square};
use super::position::Position;

/// Cells (row by row), size and side to move read from a state string;
/// `None` unless it is well formed (n rows of n cells). The size is not
/// checked against the supported ones.
pub fn parse_state(s: &str) -> Option<(usize, Vec<Option<Color>>, Color)> {
    let (inner, to_move) = if let Some(i) = s.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        (i, Color::White)
    } else if let Some(i) = s.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        (i, Color::Black)
    } else {
        return None;
    };
    let rows: Vec<&str> = inner.split('|').collect();
    let n = rows.len();
    let mut cells = Vec::with_capacity(n * n);
    for row in rows {
        if row.chars().count() != n {
            return None;
        }
        for c in row.chars() {
            cells.push(match c {
                'b' | 'B' => Some(Color::Black),
                'w' | 'W' => Some(Color::White),
                '.' => None,
                _ => return None,
            });
        }
    }
    Some((n, cells, to_move))
}

impl Position {
    /// The position in the COMP24011 state form.
    pub fn comp_state(&self) -> String {
        let n = self.size();
        let rows: Vec<String> = (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| match self.cell(Square::new(r, c)) {
                        Some(Color::Black) => 'b',
                        Some(Color::White) => 'w',
                        None => '.',
                    })
                    .collect()
            })
            .collect();
        match self.to_move() {
            Color::White => format!("{{{}}}", rows.join("|")),
            Color::Black => format!("[{}]", rows.join("|")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_handout_state_reads_and_prints_back() {
        // The handout's state after Black's first move, Black to move next.
        let s = "{........|........|........|...wb...|...bbb..|........|........|........}";
        let (n, cells, to_move) = parse_state(s).unwrap();
        let pos = Position::from_cells(n, &cells, to_move).unwrap();
        assert_eq!(pos.to_move(), Color::White);
        assert_eq!(pos.count(Color::Black), 4);
        assert_eq!(pos.comp_state(), s);
        assert_eq!(
            Position::start(4).unwrap().comp_state(),
            "[....|.wb.|.bw.|....]"
        );
        assert!(parse_state("{...|..}").is_none());
        assert!(parse_state("(....)").is_none());
    }
}
