//! Game records as one line per game: a move list (`f5d6c3...`, passes
//! left out as in the WTHOR lists) or GGF, the format of the GGS server and
//! the NBoard GUI (`(;GM[Othello]...BO[8 ... *]B[f5]W[d6]...;)`).

use crate::rules::{Color, Move, Position, ggf};

/// A finished (or stopped) game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub black: String,
    pub white: String,
    /// The position the moves start from.
    pub start: Position,
    /// Every ply, passes included, with the colour that played it.
    pub moves: Vec<(Color, Move)>,
    /// The time each ply took, where it was timed (not a pass, nor an
    /// opening's move).
    pub times: Vec<Option<std::time::Duration>>,
    /// The final position.
    pub end: Position,
    /// Each side's time control, as GGF writes it (`0/0.1`: no main
    /// time, 0.1 s a move): Black's, then White's.
    pub time_control: [String; 2],
    pub ending: Ending,
    /// How a forfeit came about (`White forfeits: illegal move e5`).
    pub comment: Option<String>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Played to the end, or stopped after a number of plies.
    Played,
    /// `loser` forfeited it: on time (late, or no reply), or otherwise
    /// (an illegal or unreadable move, a crash: GGF's resignation).
    Forfeit { loser: Color, on_time: bool },
}

impl GameRecord {
    /// Black's discs minus White's at the end, empty squares to the winner
    /// once the game is over; a forfeit gives the winner the whole board,
    /// as GGS scores a resignation or a timeout.
    pub fn black_score(&self) -> i32 {
        if let Ending::Forfeit { loser, .. } = self.ending {
            let board = (self.end.size() * self.end.size()) as i32;
            return if loser == Color::Black { -board } else { board };
        }
        self.end.black_margin()
    }

    /// The moves without passes: `f5d6c3...`.
    pub fn move_list(&self) -> String {
        self.moves
            .iter()
            .filter_map(|(_, m)| match m {
                Move::Place(sq) => Some(sq.standard()),
                Move::Pass => None,
            })
            .collect()
    }

    /// The game as one GGF line.
    pub fn ggf(&self) -> String {
        let score = self.black_score();
        let result = match self.ending {
            Ending::Played if score == 0 => "0".to_string(),
            Ending::Played => format!("{score:+}"),
            Ending::Forfeit { on_time, .. } => {
                format!("{score:+}:{}", if on_time { 't' } else { 'r' })
            }
        };
        let [b, w] = &self.time_control;
        let clocks = if b == w {
            ggf::Clocks::Both(b)
        } else {
            ggf::Clocks::Each(b, w)
        };
        let header = ggf::Header {
            black: &self.black,
            white: &self.white,
            result: &result,
            clocks,
            comment: self.comment.as_deref(),
        };
        let plies: Vec<(Color, Move, Option<f64>)> = self
            .moves
            .iter()
            .enumerate()
            .map(|(i, &(c, m))| {
                let time = self.times.get(i).copied().flatten();
                (c, m, time.map(|t| t.as_secs_f64()))
            })
            .collect();
        ggf::write_timed(&header, &self.start, &plies)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;

    #[test]
    fn a_short_game_in_both_forms() {
        let mut g = Game::new(8).unwrap();
        for m in ["f5", "d6", "c3"] {
            let c = g.position().to_move();
            g.play(c, crate::rules::parse_move(m, 8).unwrap()).unwrap();
        }
        let rec = GameRecord {
            black: "strong".into(),
            white: "cmd:edax [x]".into(),
            start: *g.start(),
            moves: g.moves().collect(),
            end: *g.position(),
            times: Vec::new(),
            time_control: ["0/0.1".into(), "0/0.1".into()],
            ending: Ending::Played,
            comment: None,
        };
        assert_eq!(rec.move_list(), "f5d6c3");
        assert_eq!(
            rec.ggf(),
            "(;GM[Othello]PC[reversi]PB[strong]PW[cmd:edax [x\\]]RE[+3]TI[0/0.1]TY[8]\
             BO[8 ---------------------------O*------*O--------------------------- *]\
             B[f5]W[d6]B[c3];)"
        );
        // Forfeits: the whole board to the winner, with GGF's flags.
        let late = GameRecord {
            ending: Ending::Forfeit {
                loser: Color::White,
                on_time: true,
            },
            ..rec.clone()
        };
        // Our own reader takes the record back, clock included.
        let read = crate::rules::ggf::parse(&rec.ggf()).unwrap();
        assert_eq!(read.game.moves().count(), 3);
        assert_eq!(read.clock(Color::Black).unwrap().increment, 0.1);
        assert_eq!(late.black_score(), 64);
        assert!(late.ggf().contains("RE[+64:t]"), "{}", late.ggf());
        let crashed = GameRecord {
            ending: Ending::Forfeit {
                loser: Color::Black,
                on_time: false,
            },
            ..rec
        };
        assert_eq!(crashed.black_score(), -64);
        assert!(crashed.ggf().contains("RE[-64:r]"), "{}", crashed.ggf());
    }
}
