//! `reversi bench` pinned: the total node count of its fixed searches
//! changes only when the search does, so a change that was meant to keep
//! the search as it is (a refactoring, a speed-up) must leave it as it is,
//! and one that changes the search must say so by updating this number.

/// The node total of `reversi bench` at its default depth, one thread.
const BENCH_NODES: u64 = 23_161_212;

#[test]
fn bench_node_total_is_pinned() {
    let results = reversi::tools::bench::run(
        1,
        reversi::tools::bench::MIDGAME_DEPTH,
        reversi::search::pattern::EvalKind::Patterns,
        |_| {},
    );
    let total: u64 = results.iter().map(|r| r.nodes).sum();
    assert_eq!(total, BENCH_NODES);
}
