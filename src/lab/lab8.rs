//! `reversi lab8`: the Lab 8 Part 1 game, a human against a computer
//! player, with the handout's prompts and messages.

use super::{LabError, Tokens, print_board, read_dimension};
use crate::engine::{Clock, Engine};
use crate::rules::{Color, Move, Position, parse_lab_square};
use crate::search::StopToken;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// The prompts' wording: the 2025 handout's, or the course builds' of
/// 2022-2026 (`Computer plays (B/W): `, `Enter move for colour B`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Wording {
    #[default]
    Handout,
    Course,
}

impl Wording {
    fn color_prompt(self) -> &'static str {
        match self {
            Wording::Handout => "Computer plays (B/W) : ",
            Wording::Course => "Computer plays (B/W): ",
        }
    }

    fn move_prompt(self, color: Color) -> String {
        let word = match self {
            Wording::Handout => "color",
            Wording::Course => "colour",
        };
        format!("Enter move for {word} {} (RowCol): ", color.letter())
    }
}

/// Runs the Lab 8 game from `input` to `out` with `computer` choosing the
/// computer's moves within `move_time` each. End of input at any prompt
/// ends the program quietly.
pub fn run_lab8<R: BufRead, W: Write>(
    input: R,
    out: &mut W,
    wording: Wording,
    computer: &mut Engine,
    move_time: Duration,
) -> Result<(), LabError> {
    let mut tokens = Tokens::new(input);
    write!(out, "Enter the board dimension: ")?;
    out.flush()?;
    let Some(mut pos) = read_dimension(&mut tokens)? else {
        return Ok(());
    };
    write!(out, "{}", wording.color_prompt())?;
    out.flush()?;
    let Some(tok) = tokens.next()? else {
        return Ok(());
    };
    let comp = match tok.as_str() {
        "B" | "b" => Color::Black,
        "W" | "w" => Color::White,
        _ => return Err(LabError::BadColor(tok)),
    };
    let n = pos.size();
    computer.check_size(n)?;
    let clock = Clock::per_move(move_time);
    print_board(out, &pos)?;
    loop {
        if pos.is_game_over() {
            writeln!(out, "{}", result_line(&pos))?;
            break;
        }
        let side = pos.to_move();
        if !pos.has_moves(side) {
            writeln!(out, "{} player has no valid move.", side.letter())?;
            pos = pos.play(Move::Pass).expect("pass is legal here");
            continue;
        }
        if side == comp {
            let limits = clock.limits(
                &pos,
                computer.depth_defined(),
                None,
                StopToken::new(),
                Instant::now(),
            );
            let mv = computer.choose(&pos, limits);
            pos = pos.play(mv).expect("the engine answers a legal move");
            writeln!(out, "Computer places {} at {}.", side.letter(), mv.lab())?;
        } else {
            write!(out, "{}", wording.move_prompt(side))?;
            out.flush()?;
            let Some(tok) = tokens.next()? else {
                return Ok(());
            };
            match parse_lab_square(&tok, n).and_then(|sq| pos.place(side, sq).ok()) {
                Some(next) => pos = next,
                None => {
                    writeln!(out, "Invalid move.")?;
                    writeln!(out, "{} player wins.", comp.letter())?;
                    break;
                }
            }
        }
        print_board(out, &pos)?;
    }
    out.flush()?;
    Ok(())
}

fn result_line(pos: &Position) -> String {
    match pos.leader() {
        Some(c) => format!("{} player wins.", c.letter()),
        None => "Draw!".to_string(),
    }
}
