//! The daemon through the real binary over pipes, where a test needs a
//! process: `stop`/`quit`/end of input during long searches, threads left
//! behind, memory, refused commands that change nothing, players and
//! notations. The byte-exact sessions are in `sessions.rs`, bad input in
//! `daemon_input.rs`.

mod common;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::process::{Child, ChildStdin, ExitStatus};
use std::sync::mpsc::Receiver;
use std::thread;
use std::time::{Duration, Instant};

/// Generous bound for things that should take milliseconds; only a hang
/// fails it.
const PATIENCE: Duration = Duration::from_secs(10);

/// A running daemon with a thread collecting its replies.
struct Daemon {
    child: Child,
    stdin: Option<ChildStdin>,
    replies: Receiver<String>,
    /// What it logs (at debug level), line by line.
    logs: Receiver<String>,
    /// Searches asked for (`genmove`, `reg_genmove`, `analyze`), and
    /// those whose start was read off the log.
    searches: usize,
    started: usize,
}

/// The daemon's arguments for a search from the start position, which
/// the opening book (on by default) would answer at once.
const BOOK_OFF: [&str; 3] = ["gtp", "--book", "off"];

impl Daemon {
    /// The daemon as `reversi` starts it.
    fn start() -> Daemon {
        Daemon::with(&[])
    }

    fn with(args: &[&str]) -> Daemon {
        // A reply is every line up to and including the empty one.
        let mut reply = String::new();
        let (child, stdin, replies, logs) =
            common::spawn_logged(args, Some("reversi=debug"), move |line| {
                reply.push_str(&line);
                reply.push('\n');
                line.is_empty().then(|| std::mem::take(&mut reply))
            });
        Daemon {
            stdin: Some(stdin),
            child,
            replies,
            logs,
            searches: 0,
            started: 0,
        }
    }

    /// Waits until the daemon logs that the last search asked for has
    /// started: a `stop`, `quit` or end of input sent after it meets a
    /// running search. (A search the opening book answers never starts.)
    fn search_started(&mut self) {
        while self.started < self.searches {
            let line = self.logs.recv_timeout(PATIENCE).expect("a search starts");
            if line.contains("search started") {
                self.started += 1;
            }
        }
    }

    /// The depth of the next search the daemon logs it finished
    /// (`strong: d3 depth 9 ...`).
    fn searched_depth(&mut self) -> u32 {
        loop {
            let line = self.logs.recv_timeout(PATIENCE).expect("a search ends");
            self.started += usize::from(line.contains("search started"));
            if let Some((_, rest)) = line.split_once(" depth ")
                && line.contains("strong: ")
            {
                return rest.split(' ').next().unwrap().parse().unwrap();
            }
        }
    }

    fn send(&mut self, line: &str) {
        let mut words = line
            .split_whitespace()
            .skip_while(|w| w.parse::<u64>().is_ok());
        if matches!(words.next(), Some("genmove" | "reg_genmove" | "analyze")) {
            self.searches += 1;
        }
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn reply(&self) -> String {
        self.replies
            .recv_timeout(PATIENCE)
            .expect("a reply in time")
    }

    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.reply()
    }

    /// The daemon's thread count (Linux: its `/proc` task entries).
    fn threads(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/task", self.child.id()))
            .expect("a running daemon on Linux")
            .count()
    }

    /// The thread count once it is `expected`, or after ten seconds: a
    /// thread the daemon has joined can stay listed for a moment after the
    /// join returns (the kernel wakes the joiner on the thread's way out,
    /// before it removes the task), longer on a loaded machine. A thread
    /// left searching (60 s a move in these tests) is still there then.
    fn threads_settled(&self, expected: usize) -> usize {
        let start = Instant::now();
        loop {
            let count = self.threads();
            if count == expected || start.elapsed() > Duration::from_secs(10) {
                return count;
            }
            thread::yield_now();
        }
    }

    /// The daemon's resident memory, in kB.
    fn resident_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("a running daemon on Linux");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("a VmRSS line")
    }

    fn close_stdin(&mut self) {
        self.stdin.take();
    }

    /// Waits for the process to exit (only a hang fails the wait).
    fn wait(&mut self) -> ExitStatus {
        common::wait_exit(&mut self.child, PATIENCE)
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Commands that must be refused without changing anything.
const REFUSED: &[&str] = &[
    "play black a1",
    "play white d3",
    "play black z26",
    "play black pass",
    "play black",
    "boardsize 9",
    "boardsize x",
    "setup Bba Wzz",
    "setup {...|...|...}",
    "setup {.|..}",
    "set player nobody",
    "set hash 0",
    "set movetime 0",
    "set nothing 1",
    "genmove white",
    "reg_genmove white",
    "undo",
    "time_settings 1",
    "time_left black",
    "set_game chess",
    "frobnicate",
    "quit please",
];

#[test]
fn refused_commands_leave_the_game_unchanged() {
    let mut d = Daemon::start();
    assert_eq!(d.ask("set player greedy"), "=\n\n");
    for setup in ["boardsize 8", "play black d3", "play white c3"] {
        assert_eq!(d.ask(setup), "=\n\n");
    }
    // After two moves, undo is allowed: use a fresh game for the undo case.
    let state = |d: &mut Daemon| {
        [
            "showboard",
            "legal",
            "legal white",
            "final_score",
            "gogui-rules_side_to_move",
        ]
        .map(|c| d.ask(c))
    };
    let before = state(&mut d);
    for bad in REFUSED.iter().filter(|&&c| c != "undo") {
        let reply = d.ask(bad);
        assert!(reply.starts_with('?'), "{bad} -> {reply}");
        assert_eq!(state(&mut d), before, "after {bad}");
    }
    assert_eq!(d.ask("clear_board"), "=\n\n");
    let start = state(&mut d);
    assert!(d.ask("undo").starts_with('?'));
    assert_eq!(state(&mut d), start);
}

#[test]
fn stop_ends_a_long_search_with_a_legal_move() {
    let mut d = Daemon::with(&BOOK_OFF);
    d.ask("set movetime 60000");
    d.send("7 genmove black");
    d.search_started();
    d.send("8 stop");
    let reply = d.reply();
    assert!(
        ["=7 d3\n\n", "=7 c4\n\n", "=7 f5\n\n", "=7 e6\n\n"].contains(&reply.as_str()),
        "{reply}"
    );
    assert_eq!(d.reply(), "=8\n\n");
    // The move was played, and the next search is not stopped by the old stop.
    assert_eq!(d.ask("gogui-rules_side_to_move"), "= white\n\n");
    d.ask("set movetime 200");
    assert!(d.ask("genmove white").starts_with("= "));
}

#[test]
fn quit_during_a_long_search_exits_cleanly() {
    let mut d = Daemon::with(&BOOK_OFF);
    d.ask("set movetime 60000");
    d.send("genmove black");
    d.search_started();
    d.send("quit");
    assert!(d.reply().starts_with("= "));
    assert_eq!(d.reply(), "=\n\n");
    assert!(d.wait().success());
}

#[test]
fn end_of_input_during_a_long_search_exits_cleanly() {
    let mut d = Daemon::with(&BOOK_OFF);
    d.ask("boardsize 26");
    d.ask("set movetime 60000");
    d.send("genmove black");
    d.search_started();
    d.close_stdin();
    assert!(d.reply().starts_with("= "));
    assert!(d.wait().success());
}

#[test]
fn a_stop_before_a_genmove_does_not_cut_it_short() {
    let mut d = Daemon::with(&BOOK_OFF);
    d.ask("stop");
    d.ask("set movetime 400");
    assert!(d.ask("genmove black").starts_with("= "));
    // A search the stale stop cut short ends before its first iteration
    // (depth 0); a real one goes far deeper in 400 ms, even on a loaded
    // machine.
    assert!(d.searched_depth() >= 4);
}

#[test]
fn analyze_gives_every_move_its_exact_score_near_the_end() {
    let mut d = Daemon::start();
    d.ask("set movetime 5000");
    // FFO #1, Black to move: G8 +18, H1 +12, H7 +6, A2 +6, ...
    let setup = "setup --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    assert_eq!(d.ask(setup), "=\n\n");
    let reply = d.ask("7 analyze 2");
    assert_eq!(reply, "=7 g8 +18 exact\nh1 +12 exact\n\n");
    // The best move alone comes from genmove's search, with the same
    // exact score.
    assert_eq!(d.ask("analyze 1"), "= g8 +18 exact\n\n");
    let all = d.ask("analyze");
    assert!(all.lines().count() >= 8, "{all}");
    assert!(all.contains("g2 -24 exact"), "{all}");
    // Analysis plays nothing.
    assert_eq!(d.ask("gogui-rules_side_to_move"), "= black\n\n");
    // A player that does not search has no best move to analyse either.
    assert_eq!(d.ask("set player greedy"), "=\n\n");
    assert_eq!(
        d.ask("analyze 1"),
        "? greedy does not analyse positions\n\n"
    );
}

#[test]
fn a_win_found_before_the_solver_reads_as_its_disc_count() {
    // Black (a1, a2) takes White's only disc (b2) with c2 or c3 and wins
    // 64-0; at depth 1, with 61 empties, no solver proves it: the search
    // finds the finished game. Its score is +64 discs, not the internal
    // score that ranks wins above evaluations (which read +10064.00).
    let mut d = Daemon::start();
    let board = format!("X{}XO{}", "-".repeat(7), "-".repeat(54));
    assert_eq!(d.ask(&format!("setup {board} X")), "=\n\n");
    d.ask("set depth 1");
    let reply = d.ask("analyze");
    let mut lines: Vec<&str> = reply.trim_start_matches("= ").lines().collect();
    lines.retain(|l| !l.is_empty());
    lines.sort();
    assert_eq!(lines, ["c2 +64.00 depth 1", "c3 +64.00 depth 1"], "{reply}");
}

/// Every built-in player, as `set player` names it.
const PLAYERS: &[&str] = &[
    "strong",
    "greedy",
    "first",
    "random:3",
    "norvig:20",
    "weights:60",
    "smarter",
    "smartest",
];

/// Whether a reply is one legal first move on 8x8.
fn first_move(reply: &str) -> bool {
    ["d3", "c4", "f5", "e6"]
        .iter()
        .any(|m| reply == format!("= {m}\n\n"))
}

#[test]
fn several_search_threads_stop_at_any_moment_and_none_is_left_running() {
    let mut d = Daemon::with(&BOOK_OFF);
    for refused in [
        "set threads 0",
        "set threads 257",
        "set threads 99999999999999999999",
    ] {
        assert!(d.ask(refused).starts_with("? "), "{refused}");
    }
    assert_eq!(d.ask("set threads 4"), "=\n\n");
    let idle = d.threads();
    let mut rng = ChaCha8Rng::seed_from_u64(33);
    for size in [8, 26] {
        assert_eq!(d.ask(&format!("boardsize {size}")), "=\n\n");
        d.ask("set movetime 60000");
        let legal = d.ask("legal b");
        for _ in 0..6 {
            d.send("reg_genmove b");
            // A stop as the search starts, or once it runs.
            if rng.random_bool(0.5) {
                d.search_started();
            }
            d.send("stop");
            let reply = d.reply();
            let mv = reply.trim_start_matches("= ").trim();
            assert!(
                legal.split_whitespace().any(|m| m == mv),
                "{reply} not in {legal}"
            );
            assert_eq!(d.reply(), "=\n\n");
            assert_eq!(
                d.threads_settled(idle),
                idle,
                "{size}x{size}: a search thread was left"
            );
        }
    }
}

#[test]
fn every_player_stops_at_once_and_leaves_no_thread_running() {
    for player in PLAYERS {
        let mut d = Daemon::with(&BOOK_OFF);
        assert_eq!(d.ask(&format!("set player {player}")), "=\n\n");
        let idle = d.threads();
        // `stop` during a long search: a legal move at once (PATIENCE
        // only catches a hang: norvig:20 alone would take hours).
        d.ask("set movetime 60000");
        d.send("reg_genmove b");
        d.search_started();
        d.send("stop");
        let reply = d.reply();
        assert!(first_move(&reply), "{player}: {reply}");
        assert_eq!(d.reply(), "=\n\n");
        // A tight limit, four times: each search ends with its reply.
        d.ask("set movetime 5");
        for _ in 0..4 {
            let reply = d.ask("reg_genmove b");
            assert!(first_move(&reply), "{player}: {reply}");
        }
        assert_eq!(
            d.threads_settled(idle),
            idle,
            "{player} left a thread running"
        );
        // `quit` during a long search ends the process.
        d.ask("set movetime 60000");
        d.send("reg_genmove b");
        d.search_started();
        d.send("quit");
        assert!(first_move(&d.reply()), "{player}");
        assert_eq!(d.reply(), "=\n\n");
        assert!(d.wait().success(), "{player}");
    }
    // End of input during a search, too.
    for player in PLAYERS {
        let mut d = Daemon::with(&BOOK_OFF);
        d.ask(&format!("set player {player}"));
        d.ask("set movetime 60000");
        d.send("reg_genmove b");
        d.search_started();
        d.close_stdin();
        assert!(first_move(&d.reply()), "{player}");
        assert!(d.wait().success(), "{player}");
    }
}

/// Black to move; Norvig's depth-8 value of h4 is -34, the best: a search
/// cut by a default time answered b3, the greedy move.
const NORVIG_POSITION: &str =
    "setup [........|.w..bb.b|..wwwwbw|..wbbb..|.w.bb...|...bbbb.|..b.....|........]";

#[test]
fn a_depth_defined_player_is_not_cut_by_the_default_time() {
    let mut d = Daemon::start();
    assert_eq!(d.ask(NORVIG_POSITION), "=\n\n");
    assert_eq!(d.ask("set player norvig:8"), "=\n\n");
    // About 1.2 s here: more than the default 1 s a move.
    assert_eq!(d.ask("reg_genmove b"), "= h4\n\n");
    // A limit chosen explicitly cuts it: the move of the deepest depth
    // that finished (h4 from depth 2 to 8), never another player's.
    assert_eq!(d.ask("set movetime 300"), "=\n\n");
    assert_eq!(d.ask("reg_genmove b"), "= h4\n\n");
    // Its static evaluation is the COMP24011 score, White minus Black.
    assert_eq!(d.ask("evaluate"), "= 23\n\n");
}

#[test]
fn a_genmove_sent_with_the_first_commands_searches_and_the_table_is_not_touched_idle() {
    let mut d = Daemon::start();
    d.send("set movetime 300");
    d.send("reg_genmove b");
    assert_eq!(d.reply(), "=\n\n");
    assert!(first_move(&d.reply()));
    // 1 GB of table is not written until used: an idle daemon (or a
    // GUI's rules-only copy) holds little more than the evaluation's
    // weights (41 MB: two tables of 334 KB for each count of empties).
    let mut idle = Daemon::start();
    assert_eq!(idle.ask("name"), "= reversi\n\n");
    assert_eq!(idle.ask("set hash 1024"), "=\n\n");
    assert_eq!(idle.ask("clear_board"), "=\n\n");
    let kb = idle.resident_kb();
    assert!(kb < 72 * 1024, "{kb} kB resident before any search");
}

#[test]
fn huge_times_are_refused_and_change_nothing() {
    let mut d = Daemon::with(&BOOK_OFF);
    d.ask("set movetime 50");
    for bad in [
        "time_settings 1e300 0 0",
        "time_settings 1.5e20 0 0",
        "time_settings 0 1e300 1",
        "time_settings 0 1 100000",
        "time_left b 1e300 1",
        "set movetime 18446744073709551615",
        "set depth 4294967296",
    ] {
        let reply = d.ask(bad);
        assert!(reply.starts_with("? "), "{bad} -> {reply}");
    }
    assert!(first_move(&d.ask("genmove b")));
    assert_eq!(
        d.ask("set movetime 1000000001"),
        "? movetime must be 1 to 1000000000 ms\n\n"
    );
    assert_eq!(
        d.ask("time_settings 1000001 0 0"),
        "? times must be 0 to 1000000 seconds\n\n"
    );
    assert_eq!(d.ask("time_settings 1000000 0 0"), "=\n\n");
    // Hours for this move: a stop ends it.
    d.send("genmove w");
    d.search_started();
    d.send("stop");
    assert!(d.reply().starts_with("= "));
    assert_eq!(d.reply(), "=\n\n");
}

#[test]
fn analyze_game_scores_each_move_played_against_the_best() {
    let mut d = Daemon::start();
    // The sixth position of data/evaltest/wthor-exact-20-24.obf, Black
    // to move with 20 empties: f1 +2 (the best), h4 +0.
    let setup = "setup -OOOO-----OOOX---OXOOOXXOOXXOOO--OXOOOOOXXOXXO----XOOX---XXXXX-- X";
    assert_eq!(d.ask(setup), "=\n\n");
    assert_eq!(d.ask("play black h4"), "=\n\n");
    let table = "\n ply colour empties played   best     best   played   loss  mark\n   \
                 1 black       20     {h4}     {f1}    +2.00    +0.00   2.00  mistake exact\n\
                 Black: 1 moves, mean loss 2.00 discs a move, 1 mistakes, 0 blunders, best move 0.0%; loss by empties 60-41 0.00, 40-21 0.00, 20-1 2.00\n\
                 White: 0 moves, mean loss 0.00 discs a move, 0 mistakes, 0 blunders, best move 0.0%; loss by empties 60-41 0.00, 40-21 0.00, 20-1 0.00\n\n";
    let expected =
        |h4: &str, f1: &str| format!("=3{}", table.replace("{h4}", h4).replace("{f1}", f1));
    assert_eq!(d.ask("3 analyze_game"), expected("h4", "f1"));
    // In GoGui's notation, as GoGui's Analyze menu shows it.
    assert_eq!(d.ask("set notation gogui"), "=\n\n");
    assert_eq!(d.ask("3 analyze_game 4"), expected("H5", "F8"));
    assert_eq!(
        d.ask("gogui-analyze_commands"),
        "= hstring/Analyze game/analyze_game\n\
         hstring/Analyze game to a depth/analyze_game %s\n\
         hpstring/Analyze position/analyze\n\n"
    );
    assert_eq!(d.ask("analyze_game 31"), "? depth must be 1 to 30\n\n");
}

#[test]
fn stop_ends_analyze_game_with_the_moves_analysed_by_then() {
    let mut d = Daemon::with(&BOOK_OFF);
    for mv in ["b f5", "w d6", "b c3", "w d3", "b c4"] {
        assert_eq!(d.ask(&format!("play {mv}")), "=\n\n");
    }
    // Thirty plies from the start would take hours.
    d.send("7 analyze_game 30");
    d.send("8 stop");
    let reply = d.reply();
    assert!(reply.starts_with("=7\n ply colour"), "{reply}");
    assert!(
        reply.ends_with("\nstopped before every move was analysed\n\n"),
        "{reply}"
    );
    assert_eq!(d.reply(), "=8\n\n");
    // Nothing was played, and the next analysis runs to its end.
    assert_eq!(d.ask("gogui-rules_side_to_move"), "= white\n\n");
    let reply = d.ask("analyze_game 2");
    assert!(reply.contains("\n   5 black       56     c4 "), "{reply}");
    assert!(!reply.contains("stopped"), "{reply}");
}

#[test]
fn analyze_stopped_before_its_first_iteration_lists_every_move() {
    let run = common::run(&BOOK_OFF, b"analyze\nstop\n");
    assert!(run.status.success());
    let out = String::from_utf8(run.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7, "{out}");
    let mut moves: Vec<&str> = lines[..4]
        .iter()
        .map(|l| l.trim_start_matches("= ").split(' ').next().unwrap())
        .collect();
    moves.sort();
    assert_eq!(moves, ["c4", "d3", "e6", "f5"], "{out}");
    assert!(lines[0].ends_with("depth 1"), "{out}");
}

#[test]
fn player_names_and_help_in_any_case() {
    let mut d = Daemon::start();
    assert_eq!(d.ask("set player STRONG"), "=\n\n");
    assert_eq!(d.ask("set player Norvig:3"), "=\n\n");
    assert_eq!(d.ask("evaluate"), "= 0\n\n");
    assert_eq!(d.ask("help play"), "= play <colour> <move|pass>\n\n");
    assert_eq!(d.ask("help nothing"), "? unknown command 'nothing'\n\n");
    assert!(d.ask("help").contains("\nset player <name>"));
    assert_eq!(d.ask("set player first"), "=\n\n");
    assert_eq!(d.ask("evaluate"), "? first has no static evaluation\n\n");
}

#[test]
fn in_lab_notation_a16_is_a_square_and_pass_is_pass() {
    let mut d = Daemon::start();
    d.ask("boardsize 16");
    d.ask("set notation lab");
    // White on a14 (row n), Black on a15 (row o), White to move: a16
    // (row p, column a) is White's only move.
    let mut rows = vec!["................"; 16];
    rows[13] = "w...............";
    rows[14] = "b...............";
    let setup = format!("setup {{{}}}", rows.join("|"));
    assert_eq!(d.ask(&setup), "=\n\n");
    assert_eq!(d.ask("legal"), "= pa\n\n");
    let mut rows = vec!["................"; 16];
    rows[14] = "w...............";
    rows[13] = "b...............";
    let setup = format!("setup [{}]", rows.join("|"));
    assert_eq!(d.ask(&setup), "=\n\n");
    assert_eq!(d.ask("legal"), "= pa\n\n");
    assert_eq!(d.ask("play b pa"), "=\n\n");
    // Black on a16 flipped a15.
    let state = d.ask("showstate");
    assert!(
        state.ends_with("|b...............|b...............|b...............}\n\n"),
        "{state}"
    );
    assert_eq!(d.ask("final_score"), "= B+256\n\n");
}
