//! A game: a position plus the moves that led to it, with checked moves,
//! passes and undo. What protocols and adapters hold; the search never
//! sees it.

use super::notation::{Color, Move};
use super::position::{Position, RulesError};

/// A game from some start position, with its move history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    start: Position,
    position: Position,
    /// Each move with the position it was played from.
    history: Vec<(Position, Move)>,
}

impl Game {
    /// A new game from the standard start on an n x n board.
    pub fn new(n: usize) -> Result<Game, RulesError> {
        Position::start(n).map(Game::from_position)
    }

    /// A new game from any position (a set-up board).
    pub fn from_position(position: Position) -> Game {
        Game {
            start: position,
            position,
            history: Vec::new(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played so far, in order, with the colour that played each.
    pub fn moves(&self) -> impl Iterator<Item = (Color, Move)> + '_ {
        self.history.iter().map(|(p, m)| (p.to_move(), *m))
    }

    /// Plays `mv` for `color`, which must be the side to move.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), RulesError> {
        if color != self.position.to_move() {
            return Err(RulesError::NotYourTurn(color));
        }
        let next = self.position.play(mv)?;
        self.history.push((self.position, mv));
        self.position = next;
        Ok(())
    }

    /// Plays `mv` for `color`; when `color` is not to move but the side to
    /// move must pass, records that pass first (GUIs may or may not send
    /// passes). On error nothing is recorded.
    pub fn play_passing(&mut self, color: Color, mv: Move) -> Result<(), RulesError> {
        if color != self.position.to_move() && mv != Move::Pass && self.position.must_pass() {
            let saved = self.clone();
            let passer = self.position.to_move();
            self.play(passer, Move::Pass)?;
            return self.play(color, mv).inspect_err(|_| *self = saved);
        }
        self.play(color, mv)
    }

    /// Plays `mv` for whoever moves next, recording a forced pass first:
    /// for move lists, where passes are left out.
    pub fn play_next(&mut self, mv: Move) -> Result<(), RulesError> {
        let mut color = self.position.to_move();
        if mv != Move::Pass && self.position.must_pass() {
            color = color.other();
        }
        self.play_passing(color, mv)
    }

    /// Takes back the last move (a pass counts as a move).
    pub fn undo(&mut self) -> Result<Move, RulesError> {
        let (prev, mv) = self.history.pop().ok_or(RulesError::NothingToUndo)?;
        self.position = prev;
        Ok(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::{Square, parse_move};

    #[test]
    fn undo_restores_every_earlier_position() {
        let mut g = Game::new(8).unwrap();
        let start = *g.position();
        for m in ["f5", "d6", "c3"] {
            let color = g.position().to_move();
            g.play(color, parse_move(m, 8).unwrap()).unwrap();
        }
        assert_eq!(g.moves().count(), 3);
        for _ in 0..3 {
            g.undo().unwrap();
        }
        assert_eq!(*g.position(), start);
        assert_eq!(g.undo(), Err(RulesError::NothingToUndo));
    }

    #[test]
    fn wrong_colour_is_refused_unless_the_mover_must_pass() {
        let mut g = Game::new(8).unwrap();
        let f5 = Move::Place(Square::new(4, 5));
        assert_eq!(
            g.play_passing(Color::White, f5),
            Err(RulesError::NotYourTurn(Color::White))
        );
        assert_eq!(g.moves().count(), 0);

        // White to move with no move on a 4x4 board where Black can move:
        // Black B at a1, White W at b1, c1 empty; White has nothing.
        let mut cells = vec![None; 16];
        cells[0] = Some(Color::Black);
        cells[1] = Some(Color::White);
        let p = Position::from_cells(4, &cells, Color::White).unwrap();
        assert!(p.must_pass());
        let mut g = Game::from_position(p);
        g.play_passing(Color::Black, Move::Place(Square::new(0, 2)))
            .unwrap();
        let played: Vec<_> = g.moves().collect();
        assert_eq!(played[0], (Color::White, Move::Pass));
        assert_eq!(played.len(), 2);
    }
}
