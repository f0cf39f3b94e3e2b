//! `reversi lab7`: the Lab 7 program (board configuration, available moves
//! of both colours, one move checked and applied).

use super::{LabError, Tokens, lab_color, print_board, read_dimension};
use crate::rules::{Color, Square, parse_lab_square, printable};
use std::io::{BufRead, Write};

/// Runs the Lab 7 dialogue from `input` to `out`. End of input at any
/// prompt ends the program quietly.
pub fn run_lab7<R: BufRead, W: Write>(input: R, out: &mut W) -> Result<(), LabError> {
    let mut tokens = Tokens::new(input);
    write!(out, "Enter the board dimension: ")?;
    out.flush()?;
    let Some(mut pos) = read_dimension(&mut tokens)? else {
        return Ok(());
    };
    let n = pos.size();
    print_board(out, &pos)?;
    writeln!(out, "Enter board configuration:")?;
    out.flush()?;
    loop {
        let Some(tok) = tokens.next()? else {
            return Ok(());
        };
        if tok == "!!!" {
            break;
        }
        match parse_placement(&tok, n) {
            Some((color, sq)) => {
                pos = pos
                    .with_cell(sq, Some(color))
                    .expect("square checked on board");
            }
            None => log::warn!("ignoring unreadable placement '{}'", printable(&tok)),
        }
    }
    print_board(out, &pos)?;
    for color in [Color::White, Color::Black] {
        writeln!(out, "Available moves for {}:", color.letter())?;
        for sq in pos.legal_moves(color) {
            writeln!(out, "{}", sq.lab())?;
        }
    }
    writeln!(out, "Enter a move:")?;
    out.flush()?;
    let Some(tok) = tokens.next()? else {
        return Ok(());
    };
    match parse_placement(&tok, n).and_then(|(c, sq)| pos.place(c, sq).ok()) {
        Some(next) => {
            writeln!(out, "Valid move.")?;
            pos = next;
        }
        None => writeln!(out, "Invalid move.")?,
    }
    print_board(out, &pos)?;
    out.flush()?;
    Ok(())
}

/// Reads `Bba`: a colour letter, then a lab square on the board.
fn parse_placement(tok: &str, n: usize) -> Option<(Color, Square)> {
    let color = lab_color(*tok.as_bytes().first()?)?;
    let sq = parse_lab_square(tok.get(1..)?, n)?;
    Some((color, sq))
}
