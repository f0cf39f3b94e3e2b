//! Bad input to the daemon: random bytes, mutated real command lines,
//! extreme numbers in every numeric argument, an overlong line, and
//! control characters. Each line gets exactly one reply (a success or a
//! refusal) and the daemon never crashes.

mod common;

use common::{run, run_in_process};
use proptest::prelude::*;

#[test]
fn a_one_megabyte_line_is_refused_and_the_daemon_goes_on() {
    let mut input = vec![b'a'; 1 << 20];
    input.extend_from_slice(b"\n1 name\n");
    let out = run(&[], &input);
    let (out, status) = (out.stdout, out.status);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "? line too long (more than 65536 bytes)\n\n=1 reversi\n\n"
    );
    assert!(status.success());
}

#[test]
fn crlf_tabs_comments_and_control_characters() {
    let out = run(&[], b"1\tname\r\n\x012 ver\x7fsion # x\r\n# c\r\n\r\n");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "=1 reversi\n\n=2 0.1.0\n\n"
    );
}

/// The protocol's cleaning rule, written from protocol.md: the text before
/// any `#`, without control characters (tabs count as spaces).
fn cleaned(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let before_comment = text.split('#').next().unwrap();
    before_comment.chars().filter(|c| !c.is_control()).collect()
}

/// Whether a line gets a reply at all.
fn gets_reply(line: &[u8]) -> bool {
    cleaned(line).chars().any(|c| c != ' ')
}

/// Sends `lines` (less any real `quit`, which would end the session) and
/// then `999999 name` through the protocol loop in this process: every
/// line with content gets exactly one reply, a success or a refusal, and
/// the last reply is the name's.
fn one_reply_a_line(lines: Vec<Vec<u8>>) -> Result<(), TestCaseError> {
    let lines: Vec<Vec<u8>> = lines
        .into_iter()
        .filter(|l| !cleaned(l).contains("quit"))
        .collect();
    let mut input = Vec::new();
    for l in &lines {
        input.extend_from_slice(l);
        input.push(b'\n');
    }
    input.extend_from_slice(b"999999 name\n");
    let out = run_in_process(&input);
    let expected = lines.iter().filter(|l| gets_reply(l)).count() + 1;
    let replies: Vec<&str> = out.split_terminator("\n\n").collect();
    prop_assert_eq!(replies.len(), expected, "{}", out);
    prop_assert_eq!(*replies.last().unwrap(), "=999999 reversi");
    for r in &replies {
        prop_assert!(r.starts_with('=') || r.starts_with('?'), "{}", r);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_garbage_line_gets_exactly_one_reply(
        lines in prop::collection::vec(prop::collection::vec(any::<u8>().prop_filter("no newline", |b| *b != b'\n'), 0..80), 1..40)
    ) {
        one_reply_a_line(lines)?;
    }
}

/// Numbers no command may choke on.
const EXTREME: &[&str] = &[
    "0",
    "-0",
    "-1",
    "1",
    "0.0000001",
    "1e-300",
    "1e300",
    "1.5e20",
    "1e999",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
];

/// Command templates; `#` is replaced by an extreme number.
const TEMPLATES: &[&str] = &[
    "boardsize #",
    "komi #",
    "time_settings # # #",
    "time_settings # 0 0",
    "time_settings 0 # 1",
    "time_settings 1 1 #",
    "time_left b # #",
    "time_left w # 1",
    "set movetime #",
    "set depth #",
    "set hash #",
    "analyze #",
    "# name",
    "set player norvig:#",
    "set player weights:#",
    "set player random:#",
    "play b #",
    "legal #",
    "help #",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Extreme numbers in every numeric argument, each followed by
    /// searches: one reply a line, never a crash (the daemon exits 0).
    #[test]
    fn extreme_numbers_get_a_reply_and_never_crash_a_search(
        picks in prop::collection::vec((0..TEMPLATES.len(), 0..EXTREME.len(), 0..EXTREME.len(), 0..EXTREME.len()), 1..12)
    ) {
        let mut input = String::new();
        for (t, a, b, c) in picks {
            let mut line = TEMPLATES[t].to_string();
            for n in [a, b, c] {
                line = line.replacen('#', EXTREME[n], 1);
            }
            input.push_str(&line);
            input.push_str("\ngenmove b\nanalyze\nevaluate\n");
        }
        input.push_str("999999 name\n");
        let lines = input.lines().count();
        let out = run(&[], input.as_bytes());
        let (out, status) = (out.stdout, out.status);
        let out = String::from_utf8(out).unwrap();
        prop_assert!(status.success(), "{}", out);
        let replies: Vec<&str> = out.split_terminator("\n\n").collect();
        prop_assert_eq!(replies.len(), lines, "{}", out);
        prop_assert_eq!(*replies.last().unwrap(), "=999999 reversi");
    }
}

/// Every command line of the session transcripts: real commands to mutate.
fn session_lines() -> Vec<Vec<u8>> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sessions/");
    let mut lines = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "cmds") {
            let text = std::fs::read(&path).unwrap();
            lines.extend(text.split(|&b| b == b'\n').map(<[u8]>::to_vec));
        }
    }
    lines.extend(TEMPLATES.iter().map(|t| t.replace('#', "7").into_bytes()));
    lines
}

/// `line` changed by `op` at a place and with a byte chosen by `seed`:
/// kept, a byte deleted, inserted or replaced, a word doubled or dropped,
/// or a number replaced by an extreme one.
fn mutate(line: &[u8], op: u8, seed: u64) -> Vec<u8> {
    let mut line = line.to_vec();
    let at = |len: usize| if len == 0 { 0 } else { (seed as usize) % len };
    let byte = (seed >> 32) as u8;
    match op {
        1 if !line.is_empty() => {
            line.remove(at(line.len()));
        }
        2 => line.insert(at(line.len() + 1), byte),
        3 if !line.is_empty() => {
            let i = at(line.len());
            line[i] = byte;
        }
        4 | 5 => {
            let text = String::from_utf8_lossy(&line).into_owned();
            let mut words: Vec<&str> = text.split(' ').collect();
            let i = at(words.len());
            if op == 4 {
                words.insert(i, words[i]);
            } else if words.len() > 1 {
                words.remove(i);
            }
            line = words.join(" ").into_bytes();
        }
        6 => {
            let text = String::from_utf8_lossy(&line).into_owned();
            let extreme = EXTREME[at(EXTREME.len())];
            let words: Vec<String> = text
                .split(' ')
                .map(|w| {
                    if w.parse::<f64>().is_ok() {
                        extreme.to_string()
                    } else {
                        w.to_string()
                    }
                })
                .collect();
            line = words.join(" ").into_bytes();
        }
        _ => {}
    }
    line.retain(|&b| b != b'\n');
    line
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Real command lines, mutated: one reply a line, each a success or a
    /// refusal, and the daemon ends cleanly.
    #[test]
    fn mutated_command_lines_get_exactly_one_reply_each(
        picks in prop::collection::vec((any::<prop::sample::Index>(), 0u8..8, any::<u64>()), 1..60)
    ) {
        let corpus = session_lines();
        let lines = picks
            .iter()
            .map(|(i, op, seed)| mutate(i.get::<Vec<u8>>(&corpus), *op, *seed))
            .collect();
        one_reply_a_line(lines)?;
    }
}
