//! Property tests: the fast boards agree with the plain mailbox board on
//! random games of every supported size (legal moves, flips, passes, game
//! end), and the 8x8 u64 board agrees with the wide board.

use proptest::prelude::*;
use reversi::rules::{
    Bitboard, Board, Color, Game, MailboxBoard, Move, Position, Square, SquareSet, WideBoard,
};

/// A tiny deterministic generator so that a proptest seed fixes a game.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Compares two boards' view of one position: moves, flips of every move
/// and game-over status, as sorted square indices.
fn same_view<A: Board, B: Board>(a: &A, b: &B) -> Result<(), TestCaseError> {
    let ma: Vec<usize> = a.moves().iter().collect();
    let mb: Vec<usize> = b.moves().iter().collect();
    prop_assert_eq!(&ma, &mb, "legal moves");
    for &sq in &ma {
        let fa: Vec<usize> = a.flips(sq).iter().collect();
        let fb: Vec<usize> = b.flips(sq).iter().collect();
        prop_assert_eq!(fa, fb, "flips at {}", sq);
    }
    let na: Vec<usize> = a.neighbours(a.player()).iter().collect();
    let nb: Vec<usize> = b.neighbours(b.player()).iter().collect();
    prop_assert_eq!(na, nb, "neighbours");
    prop_assert_eq!(a.is_game_over(), b.is_game_over());
    prop_assert_eq!(a.disc_diff(), b.disc_diff());
    prop_assert_eq!(a.empties().count(), b.empties().count());
    Ok(())
}

/// Plays a random game on `B` and the mailbox board side by side.
fn random_game<B: Board>(n: usize, seed: u64) -> Result<(), TestCaseError> {
    let start = Position::start(n).unwrap();
    let mut fast: B = start.board_as();
    let mut slow: MailboxBoard = start.board_as();
    let mut rng = Rng(seed | 1);
    let mut passes_seen = 0;
    loop {
        same_view(&fast, &slow)?;
        if fast.is_game_over() {
            break;
        }
        let moves: Vec<usize> = fast.moves().iter().collect();
        if moves.is_empty() {
            passes_seen += 1;
            fast = fast.pass();
            slow = slow.pass();
            continue;
        }
        let sq = moves[rng.below(moves.len())];
        fast = fast.play(sq);
        slow = slow.play(sq);
        prop_assert_eq!(fast.player().count(), slow.player().count());
    }
    // Every finished game either filled the board or left both sides stuck.
    prop_assert!(
        fast.empties().is_empty() || (fast.moves().is_empty() && fast.pass().moves().is_empty())
    );
    let _ = passes_seen;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn wide_board_agrees_with_mailbox(half in 2usize..=13, seed in any::<u64>()) {
        random_game::<WideBoard>(2 * half, seed)?;
    }

    /// The board each size is played on (the fewest words that hold it).
    #[test]
    fn the_board_of_each_size_agrees_with_mailbox(half in 2usize..=13, seed in any::<u64>()) {
        fn same_type<B: Board>(_: B, n: usize, seed: u64) -> Result<(), TestCaseError> {
            random_game::<B>(n, seed)
        }
        let n = 2 * half;
        reversi::with_board!(Position::start(n).unwrap().board(), b => same_type(b, n, seed))?;
    }

    #[test]
    fn bitboard_agrees_with_mailbox(seed in any::<u64>()) {
        random_game::<Bitboard>(8, seed)?;
    }

    #[test]
    fn bitboard_agrees_with_wide_board_on_8x8(seed in any::<u64>()) {
        let start = Position::start(8).unwrap();
        let mut a: Bitboard = start.board_as();
        let mut b: WideBoard = start.board_as();
        let mut rng = Rng(seed | 1);
        while !a.is_game_over() {
            same_view(&a, &b)?;
            prop_assert_eq!(a.hash_key() == a.hash_key(), true);
            let moves: Vec<usize> = a.moves().iter().collect();
            if moves.is_empty() {
                a = a.pass();
                b = b.pass();
                continue;
            }
            let sq = moves[rng.below(moves.len())];
            a = a.play(sq);
            b = b.play(sq);
        }
        same_view(&a, &b)?;
    }

    /// The checked game layer agrees with the fast board on random
    /// positions (random discs, not only reachable ones), for both colours.
    #[test]
    fn position_flips_agree_with_mailbox_on_random_boards(half in 2usize..=13, seed in any::<u64>()) {
        let n = 2 * half;
        let mut rng = Rng(seed | 1);
        let cells: Vec<Option<Color>> = (0..n * n)
            .map(|_| match rng.below(3) { 0 => None, 1 => Some(Color::Black), _ => Some(Color::White) })
            .collect();
        let pos = Position::from_cells(n, &cells, Color::Black).unwrap();
        for color in [Color::Black, Color::White] {
            let reference: MailboxBoard = pos.with_side_to_move(color).board_as();
            let legal: Vec<Square> = pos.legal_moves(color);
            let expected: Vec<Square> = reference.moves().iter().map(|i| Square::from_index(i, n)).collect();
            prop_assert_eq!(&legal, &expected);
            for sq in legal {
                let flips = pos.flips(color, sq).unwrap();
                prop_assert_eq!(flips.len() as u32, reference.flips(sq.index(n)).count());
            }
        }
    }

    /// Passes are recorded as moves and undo walks back to the start.
    #[test]
    fn game_history_undoes_to_the_start(half in 2usize..=5, seed in any::<u64>()) {
        let n = 2 * half;
        let mut g = Game::new(n).unwrap();
        let start = *g.position();
        let mut rng = Rng(seed | 1);
        let mut plies = 0;
        while !g.position().is_game_over() {
            let color = g.position().to_move();
            let moves = g.position().legal_moves(color);
            let mv = if moves.is_empty() { Move::Pass } else { Move::Place(moves[rng.below(moves.len())]) };
            g.play(color, mv).unwrap();
            plies += 1;
        }
        prop_assert_eq!(g.moves().count(), plies);
        for _ in 0..plies {
            g.undo().unwrap();
        }
        prop_assert_eq!(g.position(), &start);
    }
}
