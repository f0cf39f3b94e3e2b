//! `reversi perft`: leaf counts of the game tree from the start position
//! on a chosen board implementation, with leaves per second and, against a
//! baseline implementation, the speed ratio of the same run.

use crate::rules::{Board, MailboxBoard, Position, Square, WideBoard, is_supported_size, perft};
use std::io::{self, Write};
use std::time::Instant;

/// Board implementations perft can run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PerftBoard {
    /// The board the engine plays the size on: the u64 board on 8x8, the
    /// wide board on the fewest words of its widths otherwise.
    Fast,
    /// The wide bit-set board on 11 words (enough for 26x26), on every size.
    Wide,
    /// The plain one-cell-per-square reference board.
    Mailbox,
}

/// Why a count could not be made or reported.
#[derive(Debug, thiserror::Error)]
pub enum PerftError {
    #[error("unsupported board size {0} (even sizes 4 to 26)")]
    Size(usize),
    #[error("baseline {base:?} counted {baseline} leaves, {board:?} {count}")]
    Mismatch {
        base: PerftBoard,
        baseline: u64,
        board: PerftBoard,
        count: u64,
    },
    #[error("i/o error: {0}")]
    Io(#[from] io::Error),
}

/// One perft run: the count, or per-move counts, and the time taken.
struct PerftRun {
    divided: Vec<(Option<usize>, u64)>,
    total: u64,
    seconds: f64,
}

fn count_with<B: Board>(board: B, depth: u32, divide: bool) -> PerftRun {
    let start = Instant::now();
    let (divided, total) = if divide {
        let d = perft::divide(&board, depth);
        // No first move to divide by (depth 0, or a finished game): the
        // position itself is the one leaf.
        let t = if d.is_empty() {
            perft::perft(&board, depth)
        } else {
            d.iter().map(|(_, c)| c).sum()
        };
        (d, t)
    } else {
        (Vec::new(), perft::perft(&board, depth))
    };
    PerftRun {
        divided,
        total,
        seconds: start.elapsed().as_secs_f64(),
    }
}

fn perft_on(kind: PerftBoard, n: usize, depth: u32, divide: bool) -> PerftRun {
    let start = Position::start(n).expect("size checked");
    match (kind, start.board()) {
        (PerftBoard::Fast, any) => crate::with_board!(any, b => count_with(b, depth, divide)),
        (PerftBoard::Wide, _) => count_with(start.board_as::<WideBoard>(), depth, divide),
        (PerftBoard::Mailbox, _) => count_with(start.board_as::<MailboxBoard>(), depth, divide),
    }
}

/// Counts the leaves `depth` plies from the n x n start position on
/// `board` (per first move with `divide`), then on `baseline` if given,
/// and writes the counts and speeds to `out`.
pub fn run(
    n: usize,
    depth: u32,
    divide: bool,
    board: PerftBoard,
    baseline: Option<PerftBoard>,
    out: &mut dyn Write,
) -> Result<(), PerftError> {
    if !is_supported_size(n) {
        return Err(PerftError::Size(n));
    }
    let run = perft_on(board, n, depth, divide);
    for (sq, count) in &run.divided {
        let name = sq.map_or("pass".to_string(), |i| Square::from_index(i, n).standard());
        writeln!(out, "{name} {count}")?;
    }
    let rate = |r: &PerftRun| r.total as f64 / r.seconds.max(1e-9) / 1e6;
    writeln!(
        out,
        "perft size {n} depth {depth}: {} leaves in {:.3} s, {:.1} M leaves/s ({board:?} board)",
        run.total,
        run.seconds,
        rate(&run),
    )?;
    if let Some(base) = baseline {
        let b = perft_on(base, n, depth, false);
        if b.total != run.total {
            return Err(PerftError::Mismatch {
                base,
                baseline: b.total,
                board,
                count: run.total,
            });
        }
        writeln!(
            out,
            "baseline: {:.3} s, {:.1} M leaves/s ({base:?} board); speed ratio {:.2}",
            b.seconds,
            rate(&b),
            b.seconds / run.seconds.max(1e-9)
        )?;
    }
    Ok(())
}
