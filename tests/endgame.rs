//! The exact solver and the search: FFO #1-#19 scores and moves, random
//! endgames against a plain minimax written here, the same scores under
//! the 8 symmetries of the board, exact results on small boards,
//! searches stopped at any moment still returning legal moves, and
//! fixed-depth searches against a plain negamax on the evaluation.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reversi::players::{Player, Strong};
use reversi::rules::obf::Problem;
use reversi::rules::{Bitboard, Board, Position, Square, SquareSet, WideBoard, parse_square};
use reversi::search::pattern::PatternEval;
use reversi::search::{
    Bound, Endgame, Evaluator, INFINITY, Limits, SELECTIVE_LEVELS, Search, Solver, StopToken,
    TranspositionTable, proven_discs, to_table,
};
use reversi::tools::solve::{ObfSolver, read_problems};
use std::time::{Duration, Instant};

fn ffo(name: &str) -> Vec<Problem> {
    let path = format!("{}/data/ffo/{name}", env!("CARGO_MANIFEST_DIR"));
    read_problems(&path).unwrap()
}

/// The 8x8 position of one OBF line.
fn obf_board(line: &str) -> Bitboard {
    Problem::parse(line).unwrap().unwrap().position.board_as()
}

/// A 24-empty position that Black, to move, loses by 2 whatever it plays
/// (two tests below say what each of its moves loses).
const LOST_BY_TWO: &str = "-OOOOO--O-OXOO--OXXOOXO-OOXOXXOOOXOXXX-OOOXXXXX-O--------------- X";

/// Plain negamax to the end of the game, no pruning.
fn minimax<B: Board>(b: &B) -> i32 {
    let moves = b.moves();
    if moves.is_empty() {
        let passed = b.pass();
        if passed.moves().is_empty() {
            return b.final_score();
        }
        return -minimax(&passed);
    }
    moves.iter().map(|sq| -minimax(&b.play(sq))).max().unwrap()
}

/// The exact score, and the engine's best move (`None` when it must pass).
fn solve(board: &Bitboard) -> (Option<usize>, i32) {
    let tt = TranspositionTable::new(4);
    let limits = Limits::unlimited();
    let score = Solver::new(&tt, &limits).solve(board, -65, 65);
    let pos = Position::from_board(
        reversi::rules::AnyBoard::Eight(*board),
        reversi::rules::Color::Black,
    );
    let best = Strong::new(4).search_position(&pos, &limits).map(|it| {
        assert_eq!(
            reversi::search::proven_discs(it.score),
            Some(score),
            "search and solver agree"
        );
        it.best
    });
    (best, score)
}

#[test]
fn ffo_1_to_19_are_solved_exactly_on_one_thread_and_on_three() {
    // Three threads on this two-core machine kind: helpers that lag and
    // write the table while the main thread reads it.
    for threads in [1, 3] {
        let mut solver = ObfSolver::new(16, threads).unwrap();
        for (i, p) in ffo("fforum-1-19.obf").iter().enumerate() {
            let s = solver.solve(p, i + 1).unwrap();
            assert_eq!(s.agrees, Some(true), "FFO #{} on {threads}: {:?}", i + 1, s);
        }
    }
    assert!(ObfSolver::new(16, 0).is_err());
    assert!(ObfSolver::new(16, 257).is_err());
}

/// A position reached by random moves from the start, with `empties` left.
fn random_position(n: usize, empties: u32, seed: u64) -> Position {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::start(n).unwrap();
    while pos.empties() > empties && !pos.is_game_over() {
        let moves = pos.legal_moves(pos.to_move());
        if moves.is_empty() {
            pos = pos.play(reversi::rules::Move::Pass).unwrap();
            continue;
        }
        let sq = moves[rng.random_range(0..moves.len())];
        pos = pos.place(pos.to_move(), sq).unwrap();
    }
    pos
}

/// The position with every square moved by one of the 8 symmetries.
fn transformed(pos: &Position, sym: usize) -> Position {
    let n = pos.size();
    let map = |r: usize, c: usize| -> (usize, usize) {
        let (r, c) = if sym & 4 != 0 { (c, r) } else { (r, c) };
        let r = if sym & 1 != 0 { n - 1 - r } else { r };
        let c = if sym & 2 != 0 { n - 1 - c } else { c };
        (r, c)
    };
    let mut cells = vec![None; n * n];
    for r in 0..n {
        for c in 0..n {
            let (r2, c2) = map(r, c);
            cells[r2 * n + c2] = pos.cell(Square::new(r, c));
        }
    }
    Position::from_cells(n, &cells, pos.to_move()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn solver_agrees_with_plain_minimax(seed in any::<u64>(), empties in 1u32..=9) {
        let pos = random_position(8, empties, seed);
        let board: Bitboard = pos.board_as();
        let (best, score) = solve(&board);
        prop_assert_eq!(score, minimax(&board));
        if let Some(sq) = best {
            prop_assert_eq!(-minimax(&board.play(sq)), score, "best move scores the value");
        }
    }

    #[test]
    fn solver_windows_bound_the_value(seed in any::<u64>(), empties in 4u32..=12, a in -64i32..64) {
        let board: Bitboard = random_position(8, empties, seed).board_as();
        let exact = solve(&board).1;
        let tt = TranspositionTable::new(1);
        let limits = Limits::unlimited();
        let s = Solver::new(&tt, &limits).solve(&board, a, a + 1);
        prop_assert_eq!(s > a, exact > a, "null window at {}: {} vs {}", a, s, exact);
    }

    #[test]
    fn scores_are_the_same_under_the_8_symmetries(seed in any::<u64>(), empties in 8u32..=14) {
        let pos = random_position(8, empties, seed);
        let score = solve(&pos.board_as()).1;
        for sym in 1..8 {
            let t: Bitboard = transformed(&pos, sym).board_as();
            prop_assert_eq!(solve(&t).1, score, "symmetry {}", sym);
        }
    }
}

#[test]
fn ffo_scores_are_the_same_under_the_8_symmetries() {
    for p in ffo("fforum-1-19.obf").iter().take(4) {
        let score = solve(&p.position.board_as()).1;
        for sym in 1..8 {
            let t: Bitboard = transformed(&p.position, sym).board_as();
            assert_eq!(solve(&t).1, score);
        }
    }
}

#[test]
fn small_boards_are_searched_exactly_to_the_end() {
    // On 4x4 and 6x6 the generic search (no special solver) reaches the
    // end: its exact scores must match plain minimax.
    for (n, empties) in [(4, 12), (6, 11)] {
        for seed in 1..6u64 {
            let pos = random_position(n, empties, seed * 7919);
            if pos.is_game_over() || !pos.has_moves(pos.to_move()) {
                continue;
            }
            let wide: WideBoard = pos.board_as();
            let expected = minimax(&wide);
            let mut tt = TranspositionTable::new(4);
            let limits = Limits::unlimited();
            let eval = reversi::search::Heuristic::new(n);
            // One thread, then the main thread and two helpers.
            for helpers in [0, 2] {
                tt.clear();
                let mut search = reversi::search::Search::new(n, &tt, &eval, &limits);
                let it = search.run_parallel(&wide, helpers, |_| {});
                assert!(it.exact, "{n}x{n} seed {seed}");
                assert_eq!(reversi::search::proven_discs(it.score), Some(expected));
                assert_eq!(-minimax(&wide.play(it.best)), expected, "best move is best");
            }
        }
    }
}

/// The heuristic evaluation, raising `stop` at its `after`-th call once
/// `armed`: a stop that lands inside an iteration, however loaded the
/// machine.
struct StopInside {
    inner: reversi::search::Heuristic<<WideBoard as Board>::Set>,
    armed: std::sync::atomic::AtomicBool,
    calls: std::sync::atomic::AtomicU64,
    after: u64,
    stop: StopToken,
}

impl Evaluator<WideBoard> for StopInside {
    type State = ();

    fn state(&self, _board: &WideBoard) {}

    fn play(&self, _state: &(), _board: &WideBoard, _sq: usize, _child: &WideBoard) {}

    fn pass(&self, _state: &()) {}

    fn value(&self, _state: &(), board: &WideBoard, moves: <WideBoard as Board>::Set) -> i32 {
        use std::sync::atomic::Ordering::Relaxed;
        if self.armed.load(Relaxed) && self.calls.fetch_add(1, Relaxed) + 1 == self.after {
            self.stop.stop();
        }
        self.inner.evaluate(board, moves)
    }
}

#[test]
fn a_stopped_search_counts_its_unfinished_iteration() {
    // The move's log reports what the whole decision cost, not what the
    // search had cost when its last iteration finished.
    let pos = random_position(12, 120, 17);
    let board: WideBoard = pos.board_as();
    let stop = StopToken::new();
    let limits = Limits {
        stop: stop.clone(),
        ..Limits::unlimited()
    };
    // Stopped after 20,000 evaluations of an iteration that follows the
    // first.
    let eval = StopInside {
        inner: reversi::search::Heuristic::new(12),
        armed: false.into(),
        calls: 0.into(),
        after: 20_000,
        stop,
    };
    let tt = TranspositionTable::new(8);
    let mut search = Search::new(12, &tt, &eval, &limits);
    let mut reported = None;
    let start = Instant::now();
    let it = search.run(&board, |it| {
        reported = Some((it.nodes, it.elapsed));
        eval.armed.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let took = start.elapsed();
    let (nodes, elapsed) = reported.expect("an iteration ended before the stop");
    assert!(eval.stop.is_raised(), "the search ended before the stop");
    assert!(
        it.nodes > nodes,
        "{} nodes, {nodes} at the last iteration",
        it.nodes
    );
    assert!(it.elapsed > elapsed && it.elapsed <= took, "{it:?}");
}

#[test]
fn stopped_searches_still_return_legal_moves() {
    // One thread, and three (helpers that may still be starting when
    // the stop comes).
    for (n, threads) in [(8, 1), (12, 1), (26, 1), (8, 3), (12, 3), (26, 3)] {
        let mut player = Strong::new(8);
        player.set_threads(threads);
        for (i, micros) in [0u64, 10, 100, 1_000, 5_000].into_iter().enumerate() {
            let pos = random_position(n, (n * n - 10 - 7 * i) as u32, micros + n as u64);
            if !pos.has_moves(pos.to_move()) {
                continue;
            }
            // A hard deadline that is already (or nearly) past.
            let limits =
                Limits::unlimited().with_budget(Duration::from_micros(micros), Duration::ZERO);
            let mv = player.choose(&pos, &limits);
            assert!(pos.play(mv).is_ok(), "{n}x{n} after {micros} us: {mv}");
            // A stop token raised before the search even starts.
            let stop = StopToken::new();
            stop.stop();
            let limits = Limits {
                stop,
                ..Limits::unlimited()
            };
            let decision = player.decide(&pos, &limits);
            assert!(pos.play(decision.mv).is_ok());
            // Stopped at its first look at the stop: a few thousand nodes
            // at most, however loaded the machine.
            assert!(decision.nodes < 100_000, "{} nodes", decision.nodes);
        }
    }
}

#[test]
fn selective_solves_leave_the_exact_one_exact() {
    // A selective solve's bounds are guesses, stored as shallower than a
    // solve to the end: an exact solve that follows on the same table must
    // not take them as proved, even where they are wrong.
    let limits = Limits::unlimited();
    let mut wrong = 0;
    for seed in 0..40 {
        let board: Bitboard = random_position(8, 16, seed).board_as();
        let exact = solve(&board).1;
        let tt = TranspositionTable::new(4);
        let selective = board
            .solve_exact(&tt, &limits, -INFINITY, INFINITY, SELECTIVE_LEVELS, None)
            .unwrap();
        assert!(!selective.stopped);
        let guess = proven_discs(selective.score).expect("a finished-game score");
        wrong += usize::from(guess != exact);
        let root = tt.probe(board.hash_key()).expect("the root is stored");
        assert_eq!(root.depth, 16 - SELECTIVE_LEVELS as i32, "seed {seed}");
        let after = Solver::new(&tt, &limits).solve(&board, -65, 65);
        assert_eq!(after, exact, "seed {seed}: selective guess {guess}");
    }
    // The guesses are wrong often enough for the check above to mean
    // something.
    assert!(wrong > 0, "every selective guess was right");
}

#[test]
fn the_engine_finds_the_ffo_best_move_through_the_player() {
    // FFO #1 (14 empties) is solved within a second through the player.
    let p = &ffo("fforum-1-19.obf")[0];
    let mut player = Strong::new(16);
    let mv = player.choose(&p.position, &Limits::movetime(Duration::from_secs(2)));
    assert_eq!(p.agrees(mv, 18), Some(true), "{mv}");
}

/// Runs `search` in its own thread with a stop token; a search still
/// running after two minutes is stopped and the test fails, rather than
/// hanging.
fn within_two_minutes<T: Send + 'static>(
    what: &str,
    search: impl FnOnce(Limits) -> T + Send + 'static,
) -> T {
    let stop = StopToken::new();
    let limits = Limits {
        stop: stop.clone(),
        ..Limits::unlimited()
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(search(limits));
    });
    rx.recv_timeout(Duration::from_secs(120))
        .unwrap_or_else(|_| {
            stop.stop();
            panic!("{what} did not finish in two minutes");
        })
}

#[test]
fn a_forced_finish_found_in_the_midgame_is_left_to_the_solver() {
    // FFO #59 (34 empties, +64): midgame iterations see the wipe-out from
    // about 22 plies. Proving it there took the midgame search more than
    // 15 minutes (no ProbCut at finished-game windows); the solver takes
    // about 1 M nodes.
    let position = ffo("fforum-40-59.obf").pop().unwrap().position;
    let it = within_two_minutes("the solve of FFO #59", move |limits| {
        Strong::new(64).search_position(&position, &limits)
    })
    .expect("the side to move has moves");
    assert!(it.exact, "{it:?}");
    assert_eq!(proven_discs(it.score), Some(64));
    assert!(it.nodes < 100_000_000, "{} nodes", it.nodes);
}

#[test]
fn a_depth_limit_without_a_clock_is_not_exceeded_for_a_forced_finish() {
    // Black wipes White out with f4: a forced finish at one ply, 52
    // empties from the end. With a clock the solver would go straight to
    // it; with only a depth limit an exact solve from that far could run
    // for hours on a less trivial finish, so the limit holds.
    let mut game = reversi::rules::Game::new(8).unwrap();
    for mv in reversi::rules::split_move_list("d3c3b3d2e1d6d7e3") {
        game.play_next(reversi::rules::parse_move(&mv, 8).unwrap())
            .unwrap();
    }
    let limits = Limits {
        depth: Some(3),
        ..Limits::unlimited()
    };
    let it = Strong::new(4)
        .search_position(game.position(), &limits)
        .unwrap();
    assert_eq!(proven_discs(it.score), Some(64));
    assert!(it.depth <= 3 && !it.exact, "{it:?}");
    assert_eq!(Square::from_index(it.best, 8).to_string(), "f4");
}

#[test]
fn moves_the_table_proves_lost_are_ranked_by_what_they_lose() {
    // 24 empties, Black to move and lost whatever it plays: g2 loses by 2,
    // b7 and h3 by 22 and 24. The win/loss/draw solve of every move, as the
    // solve of an earlier move leaves in the table, proves each lost.
    // Without ranking the losses by discs, the 12-ply search on that
    // table played b7: its evaluation of -14 ranked above every move whose
    // bound said only "lost", g2 among them. In play, at 300 ms a move, 3
    // replies of 12 were b7 or h3.
    let board = obf_board(LOST_BY_TWO);
    let tt = TranspositionTable::new(16);
    let unlimited = Limits::unlimited();
    let mut solver = Solver::new(&tt, &unlimited);
    for sq in board.moves().iter() {
        // The opponent's score after each move: a win.
        assert!(solver.solve(&board.play(sq), -1, 1) >= 1);
    }
    let limits = Limits {
        depth: Some(12),
        ..Limits::unlimited()
    };
    let it = Search::new(8, &tt, PatternEval::builtin(), &limits).run(&board, |_| {});
    assert_eq!(Square::from_index(it.best, 8).to_string(), "g2", "{it:?}");
    assert_eq!(it.depth, 12, "{it:?}");
}

#[test]
fn a_solved_loss_is_reported_as_proven_with_every_move_it_ranks() {
    // The position above solved to the end: every move loses, so the
    // search ranks them by their discs (hope) and then reports the
    // proven scores. It used to report the loss by 2 as an evaluation of
    // -2.00, which the protocols showed as a guess (found by CI's random
    // endgames: a 2-empty loss by 4 came out as -400).
    let board = obf_board(LOST_BY_TWO);
    let tt = TranspositionTable::new(16);
    let unlimited = Limits::unlimited();
    let it = Search::new(8, &tt, PatternEval::builtin(), &unlimited).run(&board, |_| {});
    assert!(it.exact, "{it:?}");
    assert_eq!(proven_discs(it.score), Some(-2), "{it:?}");
    assert_eq!(Square::from_index(it.best, 8).to_string(), "g2", "{it:?}");
    let (g2, rest) = it.root_scores.split_first().unwrap();
    assert_eq!(proven_discs(g2.1), Some(-2), "{it:?}");
    for &(sq, score) in rest {
        // Bounds: each failed low against the best.
        assert!(proven_discs(score).is_some_and(|d| d <= -2), "{sq}: {it:?}");
    }
}

#[test]
fn a_root_the_table_proves_lost_ranks_its_moves_by_discs_from_the_start() {
    // 23 empties, White to move and lost whatever it plays: c8 loses by
    // 8, a7 and h6 by 10, g6 and h5 by 16, g7 by 18, b8 by 28, h2 by 34
    // and b7 by 44. The table holds what a win/loss/draw solve of the move
    // before leaves: the root and the moves the middle game liked proven
    // lost, the others not. Without hope from the first iteration, every
    // proven loss ranked below the unproven moves: played twice in one
    // daemon at 200 ms a move, a7 the first time and h2 the second.
    let board = obf_board("--O-----O-OOOO--OOOOO-XXOXOOOOXXOXXOOOX-OXXXXX----XXXO-----XXX-- O");
    let loss = |name: &str| match name {
        "c8" => 8,
        "a7" | "h6" => 10,
        "g6" | "h5" => 16,
        "g7" => 18,
        "b8" => 28,
        "h2" => 34,
        "b7" => 44,
        _ => panic!("{name} is not a legal move"),
    };
    let tt = TranspositionTable::new(16);
    let unlimited = Limits::unlimited();
    let mut solver = Solver::new(&tt, &unlimited);
    for name in ["c8", "a7", "h6"] {
        let sq = parse_square(name, 8).unwrap().index(8);
        assert!(solver.solve(&board.play(sq), -1, 1) >= 1, "{name}");
    }
    tt.store(board.hash_key(), 23, to_table(-1), Bound::Upper, None);
    let limits = Limits {
        depth: Some(12),
        ..Limits::unlimited()
    };
    let it = Search::new(8, &tt, PatternEval::builtin(), &limits).run(&board, |_| {});
    let best = Square::from_index(it.best, 8).to_string();
    assert!(loss(&best) <= 10, "{best} loses by {}: {it:?}", loss(&best));
}

#[test]
fn a_depth_limit_allows_an_exact_solve_only_a_few_empties_beyond_it() {
    // FFO #1 has 14 empties: out of reach of depth 9 (9 + 4 < 14), within
    // reach of depth 10 (10 + 4). The first answers at its depth with a
    // heuristic score, the second exactly (G8 +18). The old rule solved
    // from 13 plies before the end whatever the depth.
    let position = ffo("fforum-1-19.obf")[0].position;
    let at = |depth| {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::unlimited()
        };
        Strong::new(4).search_position(&position, &limits).unwrap()
    };
    let shallow = at(9);
    assert!(!shallow.exact && shallow.depth == 9, "{shallow:?}");
    let within = at(10);
    assert!(within.exact && within.depth == 14, "{within:?}");
    assert_eq!(proven_discs(within.score), Some(18));
}

#[test]
fn a_midgame_search_hands_finished_game_windows_to_the_solver() {
    // Iterative deepening with no aspiration on FFO #39 (26 empties, a
    // wipe-out): once a line proves a forced finish, other lines are
    // searched against that finished-game bound, with no ProbCut there.
    // Handed to the solver (from half the empties on) the 22 iterations
    // take about 1 M nodes; without the hand-off, 38 M. (FFO #59 served
    // here until a window above a wipe-out failed at once: it no longer
    // needs the solver.)
    let board: Bitboard = ffo("fforum-20-39.obf").pop().unwrap().position.board_as();
    // ProbCut at 1.5 deviations, as when this case was found.
    let (score, nodes) = iterations_to_22_plies("FFO #39", board, 1.5);
    assert_eq!(score.and_then(proven_discs), Some(64));
    assert!(nodes < 5_000_000, "{nodes} nodes");
}

#[test]
fn a_window_beyond_a_wipe_out_fails_at_once() {
    // FFO #59 (34 empties): at ProbCut 1.5 deviations the 17-ply
    // iteration proves the wipe-out with its first move; every other move
    // then fails against it at once. Before, each was searched to 16
    // plies against it, too far from the end for the solver (164 M nodes
    // for the 22 iterations when this was found). When the proof comes
    // depends on ProbCut's margins: with today's it does not come within
    // 22 plies at 1.0 or 2.0 deviations (it did at 2.0 until ProbCut
    // reached the nodes a ply or two from the leaves).
    let board: Bitboard = ffo("fforum-40-59.obf").pop().unwrap().position.board_as();
    let (score, nodes) = iterations_to_22_plies("FFO #59", board, 1.5);
    assert_eq!(score.and_then(proven_discs), Some(64));
    assert!(nodes < 5_000_000, "{nodes} nodes");
}

/// The value of `board` after iterations of 1 to 22 plies, each with the
/// full window (no aspiration) and ProbCut at `deviations`, on one table,
/// and the nodes of them all; a panic past two minutes.
fn iterations_to_22_plies(name: &str, board: Bitboard, deviations: f64) -> (Option<i32>, u64) {
    within_two_minutes(&format!("a 22-ply search of {name}"), move |limits| {
        let tt = TranspositionTable::new(64);
        let mut search = Search::new(8, &tt, PatternEval::builtin(), &limits);
        search.set_probcut(Some(deviations));
        let score = (1..=22)
            .map(|d| search.value_at(&board, d))
            .last()
            .flatten();
        (score, search.nodes())
    })
}

/// Plain negamax to `depth` plies on an evaluation, no pruning: the value
/// the midgame search must find when nothing is cut by ProbCut.
fn negamax_to<E: Evaluator<Bitboard>>(b: &Bitboard, depth: i32, eval: &E) -> i32 {
    let moves = b.moves();
    if moves.is_empty() {
        let passed = b.pass();
        if passed.moves().is_empty() {
            return reversi::search::terminal_score(b);
        }
        return -negamax_to(&passed, depth, eval);
    }
    if depth <= 0 {
        return eval.evaluate(b, moves);
    }
    moves
        .iter()
        .map(|sq| -negamax_to(&b.play(sq), depth - 1, eval))
        .max()
        .unwrap()
}

#[test]
fn fixed_depth_searches_without_probcut_match_plain_negamax() {
    let eval = PatternEval::builtin();
    for seed in 1..13u64 {
        let board: Bitboard = random_position(8, 44 - seed as u32, seed * 104_729).board_as();
        for depth in 1..=4 {
            let tt = TranspositionTable::new(1);
            let limits = Limits::unlimited();
            let mut search = Search::new(8, &tt, eval, &limits);
            search.set_probcut(None);
            assert_eq!(
                search.value_at(&board, depth),
                Some(negamax_to(&board, depth, eval)),
                "seed {seed} depth {depth}"
            );
        }
    }
}

#[test]
fn probcut_margins_cover_every_depth_and_keep_parity() {
    let eval = PatternEval::builtin();
    assert_eq!(eval.probcut_error(0, 40), None, "a leaf has nothing to cut");
    for depth in 1..=30 {
        let shallow = reversi::search::probcut_depth(depth);
        if depth <= 2 {
            assert_eq!(shallow, 0, "depth {depth}: the evaluation alone");
        } else {
            assert!(shallow >= 1 && shallow < depth && (depth - shallow) % 2 == 0);
        }
        for empties in 4..=60 {
            let (_, sigma) = eval.probcut_error(depth, empties).unwrap();
            assert!(sigma > 0, "depth {depth} empties {empties}");
        }
    }
    // Beyond the measured depths, the deepest row of the same parity.
    assert_eq!(eval.probcut_error(12, 35), eval.probcut_error(10, 35));
    assert_eq!(eval.probcut_error(13, 35), eval.probcut_error(9, 35));
}
