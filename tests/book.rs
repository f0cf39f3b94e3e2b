//! `reversi book` through the binary: a book built from a few games (its
//! shards merged to the same bytes), extended, shown, and played from by
//! the GTP and NBoard daemons; each test builds its own in a folder of its
//! own.

mod common;

use std::process::Output;

fn reversi(args: &[&str], input: &str) -> Output {
    common::run(args, input.as_bytes())
}

/// Four games, the first two mirror images of each other (WTHOR's layout
/// for one, plain move lists for the others).
const GAMES: &str = "# a comment\n\
    1990 f5d6c3d3c4f4f6f3e6e7 34-30\n\
    d3c5f6f5e6e3c3f3 \n\
    f5f6e6f4e3c5c4d3\n\
    f5d6c5f4e3c6d3f6\n";

/// `path` as a string.
fn text(path: &std::path::Path) -> String {
    path.to_str().unwrap().to_string()
}

/// `reversi book build` of [`GAMES`] (6 plies, 1 game, depth 4) into
/// `out`, shard `shard`; returns its stdout.
fn build(out: &str, shard: &str) -> String {
    let o = reversi(
        &[
            "book",
            "build",
            "--plies",
            "6",
            "--min-games",
            "1",
            "--depth",
            "4",
            "--out",
            out,
            "--shard",
            shard,
        ],
        GAMES,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// The whole book of [`GAMES`], built into `dir`; returns its path.
fn whole_book(dir: &std::path::Path) -> String {
    let path = text(&dir.join("book.bin"));
    let whole = build(&path, "1/1");
    // Start, f5 (four first moves, one position), and 6 plies of 3
    // distinct games but for the shared f5 d6: 1 + 1 + 5 + 5 + 4.
    assert!(whole.ends_with("book.bin: 16 positions\n"), "{whole}");
    path
}

/// The best reply to f5 of the book at `book`, from `book show` (the
/// first line).
fn best_after_f5(book: &str) -> String {
    let shown = reversi(&["book", "show", "--book", book, "f5"], "");
    let text = String::from_utf8(shown.stdout).unwrap();
    text.lines()
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn a_book_built_in_shards_and_merged_is_the_whole_book() {
    let dir = common::fresh_folder("book", "shards");
    let book = &whole_book(&dir);
    let path = |name: &str| text(&dir.join(name));
    assert!(build(&path("p1.bin"), "1/2").contains("8 of the book's 16 positions (shard 1/2)"));
    build(&path("p2.bin"), "2/2");
    let merged = reversi(
        &[
            "book",
            "merge",
            "--out",
            &path("merged.bin"),
            &path("p2.bin"),
            &path("p1.bin"),
        ],
        "",
    );
    assert!(merged.status.success());
    assert_eq!(
        std::fs::read(path("merged.bin")).unwrap(),
        std::fs::read(book).unwrap()
    );
}

#[test]
fn a_book_extended_in_shards_merges_onto_its_base_only() {
    let dir = common::fresh_folder("book", "extend");
    let book = &whole_book(&dir);
    let path = |name: &str| text(&dir.join(name));
    // Shards of the build, to be refused as parts of an extension.
    build(&path("p1.bin"), "1/2");
    build(&path("p2.bin"), "2/2");
    // `book extend` deepens the deviations of positions of 2 games or
    // more (7, but for the start, whose moves all lead into the book),
    // in one run or in shards merged onto the book they extend.
    let extend = |out: &str, shard: &str| {
        let o = reversi(
            &[
                "book",
                "extend",
                "--book",
                book,
                "--depth",
                "5",
                "--min-games",
                "2",
                "--out",
                out,
                "--shard",
                shard,
            ],
            "",
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let deeper = extend(&path("deeper.bin"), "1/1");
    assert!(
        deeper.contains("16 positions, 6 of them searched again to depth 5"),
        "{deeper}"
    );
    extend(&path("e1.bin"), "1/2");
    extend(&path("e2.bin"), "2/2");
    let merge = |base: Option<&str>, parts: &[&str]| {
        let mut args = vec![
            "book".to_string(),
            "merge".into(),
            "--out".into(),
            path("m.bin"),
        ];
        if let Some(b) = base {
            args.extend(["--base".into(), path(b)]);
        }
        args.extend(parts.iter().map(|p| path(p)));
        reversi(&args.iter().map(|a| a.as_str()).collect::<Vec<_>>(), "")
    };
    assert!(
        merge(Some("book.bin"), &["e1.bin", "e2.bin"])
            .status
            .success()
    );
    assert_eq!(
        std::fs::read(path("m.bin")).unwrap(),
        std::fs::read(path("deeper.bin")).unwrap()
    );
    for refused in [
        merge(None, &["e1.bin", "e2.bin"]),
        merge(Some("deeper.bin"), &["e1.bin", "e2.bin"]),
        merge(Some("book.bin"), &["p1.bin", "p2.bin"]),
    ] {
        assert_eq!(refused.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&refused.stderr).contains("--base"));
    }
    let start = reversi(&["book", "show", "--book", &path("deeper.bin"), "f5"], "");
    assert!(
        String::from_utf8(start.stdout)
            .unwrap()
            .contains("deviation, depth 5")
    );
}

#[test]
fn book_show_lists_the_games_replies_and_the_deviation() {
    let dir = common::fresh_folder("book", "show");
    let book = &whole_book(&dir);
    // After f5 the book has the two replies the games played (d6 in
    // three, f6 in one), and the best one no game played.
    let shown = reversi(&["book", "show", "--book", book, "f5"], "");
    let text = String::from_utf8(shown.stdout).unwrap();
    assert!(text.starts_with("4 games; value "), "{text}");
    let lines: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains("deviation, depth 4"))
            .count(),
        1
    );
    for reply in ["d6 ", "f6 "] {
        assert!(lines.iter().any(|l| l.starts_with(reply)), "{text}");
    }
}

#[test]
fn the_daemon_plays_the_books_best_move() {
    let dir = common::fresh_folder("book", "play");
    let book = &whole_book(&dir);
    let best = best_after_f5(book);
    let played = reversi(&["gtp", "--book", book], "play B f5\ngenmove W\nquit\n");
    let replies = String::from_utf8(played.stdout).unwrap();
    assert!(
        replies.starts_with(&format!("=\n\n= {best}\n")),
        "{replies}"
    );
    // The same through `set book`, refusals changing nothing, and `off`.
    let session = format!(
        "set bookrandomness 1\nset book {0}\nset book {0}.missing\nset bookrandomness 65\n\
         play B f5\ngenmove W\nundo\nset book off\nset depth 1\ngenmove W\nquit\n",
        book
    );
    let replies = String::from_utf8(reversi(&["gtp", "--book", "off"], &session).stdout).unwrap();
    let answers: Vec<&str> = replies.split("\n\n").collect();
    assert_eq!(answers[0], "? no book (set book <file> first)", "{replies}");
    assert_eq!(answers[1], "=");
    assert!(
        answers[2].starts_with("? ") && answers[2].contains("missing"),
        "{replies}"
    );
    assert_eq!(answers[3], "? book randomness must be 0 to 64 discs");
    assert_eq!(answers[5], format!("= {best}"), "{replies}");
}

#[test]
fn gtp_analyze_marks_the_books_moves_and_searches_the_others() {
    let dir = common::fresh_folder("book", "analyze");
    let book = &whole_book(&dir);
    let best = best_after_f5(book);
    // GTP's analyze marks the book's moves, best first, and searches the
    // others (all legal moves are listed once); `analyze 1` is the move
    // genmove plays.
    let analysis = reversi(
        &["gtp", "--book", book],
        "play B f5\nanalyze\nanalyze 1\nquit\n",
    );
    let replies = String::from_utf8(analysis.stdout).unwrap();
    let answers: Vec<&str> = replies.split("\n\n").collect();
    let all: Vec<&str> = answers[1].trim_start_matches("= ").lines().collect();
    assert_eq!(all.len(), 3, "{replies}");
    assert_eq!(all[0].split(' ').next(), Some(best.as_str()), "{replies}");
    assert!(all.iter().any(|l| l.ends_with("book deviation depth 4")));
    assert_eq!(
        all.iter().filter(|l| l.contains(" book ")).count(),
        3,
        "{replies}"
    );
    assert_eq!(answers[2], format!("= {}", all[0]), "{replies}");
    let after_d6 = reversi(
        &["gtp", "--book", book],
        "play B f5\nplay W d6\nanalyze\nquit\n",
    );
    let replies = String::from_utf8(after_d6.stdout).unwrap();
    let lines: Vec<&str> = replies.split("\n\n").nth(2).unwrap().lines().collect();
    let legal = 5;
    assert_eq!(lines.len(), legal, "{replies}");
    let marked = lines.iter().take_while(|l| l.contains(" book ")).count();
    assert_eq!(marked, 3, "{replies}");
    // (`quit`, read at once, may cut the search: any depth.)
    assert!(
        lines[marked..].iter().all(|l| l.contains(" depth ")),
        "{replies}"
    );
    assert!(
        lines.iter().any(|l| l.contains("book 2 games")),
        "{replies}"
    );
}

#[test]
fn nboard_hints_show_the_books_moves() {
    let dir = common::fresh_folder("book", "hints");
    let book = &whole_book(&dir);
    // NBoard's hints after f5 d6: the book's moves as `book` lines (c3
    // in two games, c5 in one, and the deviation), the searched ones for
    // the others.
    let ggf = "(;GM[Othello]PC[t]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 \
        ---------------------------O*------*O--------------------------- *]B[F5]W[D6];)";
    let hints = reversi(
        &["nboard", "--book", book],
        &format!("nboard 2\nset depth 3\nset game {ggf}\nhint 64\nping 1\nquit\n"),
    );
    let text = String::from_utf8(hints.stdout).unwrap();
    let book: Vec<&str> = text.lines().filter(|l| l.starts_with("book ")).collect();
    assert_eq!(book.len(), 3, "{text}");
    let has = |start: &str, end: &str| {
        book.iter()
            .any(|l| l.starts_with(start) && l.ends_with(end))
    };
    assert!(has("book C3 ", " 2 4 played"), "{text}");
    assert!(has("book C5 ", " 1 4 played"), "{text}");
    assert!(has("book ", " 0 4 deviation"), "{text}");
    let searched: Vec<&str> = text.lines().filter(|l| l.starts_with("search ")).collect();
    assert!(!searched.is_empty(), "{text}");
    for l in &book {
        let mv = l.split(' ').nth(1).unwrap();
        assert!(
            !searched.iter().any(|s| s.split(' ').nth(1) == Some(mv)),
            "{text}"
        );
    }
}

#[test]
fn a_damaged_book_is_refused_by_every_command() {
    let dir = common::fresh_folder("book", "damaged");
    let book = &whole_book(&dir);
    let bad_path = text(&dir.join("bad.bin"));
    let mut bad = std::fs::read(book).unwrap();
    bad[40] ^= 0x10;
    std::fs::write(&bad_path, &bad).unwrap();
    for args in [
        vec!["book", "show", "--book", &bad_path],
        vec!["gtp", "--book", &bad_path],
    ] {
        let o = reversi(
            &args.iter().map(|s| s.as_ref()).collect::<Vec<&str>>(),
            "quit\n",
        );
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("damaged opening book file"));
    }
}

/// NBoard's `learn` adds the game to the --learn file, begun from --book
/// (which is never written), and the daemon plays from it at once and
/// in later sessions.
#[test]
fn nboard_learns_games_into_its_own_book_file() {
    let dir = common::fresh_folder("book", "learn");
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let built = reversi(
        &[
            "book",
            "build",
            "--plies",
            "4",
            "--min-games",
            "1",
            "--depth",
            "2",
            "--out",
            &path("base.bin"),
        ],
        "f5d6c3d3\n",
    );
    assert!(built.status.success());
    let base = std::fs::read(path("base.bin")).unwrap();
    // A game that leaves the book at its second move (f6, not d6).
    let ggf = "(;GM[Othello]PC[t]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 \
        ---------------------------O*------*O--------------------------- *]\
        B[F5]W[F6]B[E6]W[F4]B[E3];)";
    let mine = path("mine.bin");
    let nboard = |script: &str| {
        let o = reversi(
            &["nboard", "--book", &path("base.bin"), "--learn", &mine],
            script,
        );
        String::from_utf8(o.stdout).unwrap()
    };
    let at_f6 = "(;GM[Othello]PC[t]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 \
        ---------------------------O*------*O--------------------------- *]B[F5]W[F6];)";
    let hint = |game: &str| format!("nboard 2\nset depth 2\nset game {game}\nhint 3\nping 1\n");
    // Before learning, the base book does not hold the position after f6.
    let before = nboard(&format!("{}quit\n", hint(at_f6)));
    assert!(!before.contains("\nbook "), "{before}");
    assert!(!std::path::Path::new(&mine).exists());
    let session = nboard(&format!(
        "nboard 2\nset game {ggf}\nlearn\nping 2\n{}quit\n",
        hint(at_f6)
    ));
    assert!(session.contains("learned\npong 2\n"), "{session}");
    // The game's move e6 is a book move now, in this session and the next.
    assert!(session.contains("book E6 "), "{session}");
    let later = nboard(&format!("{}quit\n", hint(at_f6)));
    assert!(later.contains("book E6 "), "{later}");
    assert_eq!(std::fs::read(path("base.bin")).unwrap(), base);
    let shown = reversi(&["book", "show", "--book", &mine, "f5 f6"], "");
    assert!(
        String::from_utf8(shown.stdout)
            .unwrap()
            .starts_with("1 games;")
    );
    // Learning into the --book file itself is refused.
    let o = reversi(
        &[
            "nboard",
            "--book",
            &path("base.bin"),
            "--learn",
            &path("base.bin"),
        ],
        "quit\n",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("never the book it starts from"));
    // So is a file in a folder that does not exist, at start-up rather
    // than at the first `learn`.
    let nowhere = path("no-such-folder/mine.bin");
    let o = reversi(&["nboard", "--learn", &nowhere], "quit\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(&nowhere),
        "{o:?}"
    );
}

/// A GTP session with `reversi args...`, asked one line at a time (a
/// search is not cut by the lines after it).
fn session(args: &[&str], lines: &[String]) -> Vec<String> {
    let mut reply = String::new();
    let (mut child, mut stdin, replies) = common::spawn(args, move |line| {
        reply.push_str(&line);
        reply.push('\n');
        line.is_empty().then(|| std::mem::take(&mut reply))
    });
    let mut out = Vec::new();
    for line in lines {
        use std::io::Write;
        writeln!(stdin, "{line}").unwrap();
        out.push(replies.recv().unwrap().trim_end().to_string());
    }
    drop(stdin);
    child.wait().unwrap();
    out
}

/// The daemons play the repository's book by default; with it off they
/// play the search's own moves, those of the library's `strong` with no
/// book.
#[test]
fn the_repository_book_is_on_by_default_and_off_gives_the_search_moves() {
    use reversi::engine::{Engine, Resources};
    use reversi::rules::Game;
    use reversi::search::Limits;
    let plies = 12;
    let mut engine = Engine::new("strong", Resources::default()).unwrap();
    let mut game = Game::new(8).unwrap();
    let mut searched = Vec::new();
    for _ in 0..plies {
        let limits = Limits {
            depth: Some(4),
            ..Limits::unlimited()
        };
        let mv = engine.choose(game.position(), limits);
        game.play_next(mv).unwrap();
        searched.push(format!("= {}", mv.standard()));
    }
    let genmoves: Vec<String> = (0..plies)
        .map(|i| format!("genmove {}", if i % 2 == 0 { "b" } else { "w" }))
        .collect();
    let with = |setup: &[&str]| {
        let mut lines: Vec<String> = setup.iter().map(|s| s.to_string()).collect();
        lines.extend(genmoves.iter().cloned());
        lines
    };
    let off = session(&["gtp", "--book", "off", "--depth", "4"], &with(&[]));
    assert_eq!(off, searched);
    let set_off = session(&["gtp", "--depth", "4"], &with(&["set book off"]));
    assert_eq!(set_off[1..], searched[..]);
    // By default the book answers: the first moves are its best ones,
    // not the search's, and `set book default` brings it back.
    let book = reversi::book::repository();
    let on = session(&["gtp", "--depth", "4"], &with(&[]));
    let mut game = Game::new(8).unwrap();
    for reply in &on[..4] {
        let best = book.moves(game.position())[0];
        let mv = reversi::rules::parse_move(reply.trim_start_matches("= "), 8).unwrap();
        assert_eq!(
            book.moves(game.position())
                .iter()
                .find(|m| m.mv == mv)
                .map(|m| m.value),
            Some(best.value),
            "{on:?}"
        );
        game.play_next(mv).unwrap();
    }
    assert_ne!(on, searched);
    let back = session(
        &["gtp", "--book", "off", "--depth", "4"],
        &with(&["set book default"]),
    );
    assert_eq!(back[1..], on[..]);
}

/// `book show` without `--book` shows the book built into the binary,
/// the repository's.
#[test]
fn book_show_defaults_to_the_built_in_book() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/data/book-8x8.bin");
    let built_in = reversi(&["book", "show", "f5", "d6"], "");
    let named = reversi(&["book", "show", "--book", file, "f5", "d6"], "");
    assert!(built_in.status.success(), "{built_in:?}");
    assert_eq!(built_in.stdout, named.stdout);
    let text = String::from_utf8(built_in.stdout).unwrap();
    assert!(text.lines().any(|l| l.starts_with("c3 ")), "{text}");
}
