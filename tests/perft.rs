//! Perft counts from the start position against the reference table
//! (`tests/data/perft.txt`, a copy of the shared data), on every board
//! implementation that supports the size.

use reversi::rules::{Bitboard, Board, MailboxBoard, Position, WideBoard, perft::perft};

/// (size, depth, leaves) rows of the reference table.
fn table() -> Vec<(usize, u32, u64)> {
    include_str!("data/perft.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<u64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            (f[0] as usize, f[1] as u32, f[2])
        })
        .collect()
}

fn count<B: Board>(n: usize, depth: u32) -> u64 {
    perft(&Position::start(n).unwrap().board_as::<B>(), depth)
}

#[test]
fn bitboard_matches_the_8x8_table() {
    for (n, depth, leaves) in table() {
        if n == 8 && leaves < 30_000_000 {
            assert_eq!(count::<Bitboard>(8, depth), leaves, "8x8 depth {depth}");
        }
    }
}

#[test]
fn wide_board_matches_the_table_on_every_size() {
    let mut checked = 0;
    for (n, depth, leaves) in table() {
        if leaves < 3_000_000 {
            assert_eq!(
                count::<WideBoard>(n, depth),
                leaves,
                "{n}x{n} depth {depth}"
            );
            checked += 1;
        }
    }
    assert!(checked > 40);
}

#[test]
fn the_board_of_each_size_matches_the_table() {
    let mut checked = 0;
    for (n, depth, leaves) in table() {
        if leaves < 3_000_000 {
            let start = Position::start(n).unwrap().board();
            let counted = reversi::with_board!(start, b => perft(&b, depth));
            assert_eq!(counted, leaves, "{n}x{n} depth {depth}");
            checked += 1;
        }
    }
    assert!(checked > 40);
}

#[test]
fn mailbox_board_matches_the_small_counts() {
    for (n, depth, leaves) in table() {
        if leaves < 60_000 {
            assert_eq!(
                count::<MailboxBoard>(n, depth),
                leaves,
                "{n}x{n} depth {depth}"
            );
        }
    }
}

#[test]
fn four_by_four_is_solved_to_the_end() {
    // With passes counted as plies every 4x4 game ends by ply 15, so the
    // count stops growing there: it is the number of distinct 4x4 games.
    assert_eq!(count::<WideBoard>(4, 14), 59980);
    assert_eq!(count::<WideBoard>(4, 15), 60060);
    assert_eq!(count::<WideBoard>(4, 30), 60060);
    assert_eq!(count::<MailboxBoard>(4, 30), 60060);
}
