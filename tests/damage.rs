//! Files the program wrote, damaged, through the real binary: a stopped
//! run's torn last record is dropped and the run goes on to the same bytes;
//! any other damage (random byte flips) is a clear error that leaves the
//! file as it was. Never a silent loss.

mod common;

use common::outcomes;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::process::Output;

fn reversi(args: &[&str], stdin: &str) -> Output {
    common::run(args, stdin.as_bytes())
}

/// The kinds of damage a file meets.
#[derive(Debug)]
enum Damage {
    /// One byte changed (xor with a non-zero mask).
    Flip { at: usize, mask: u8 },
    /// The file cut short, as a run stopped while writing leaves it.
    Cut { len: usize },
}

impl Damage {
    fn random(rng: &mut ChaCha8Rng, len: usize) -> Damage {
        if rng.random_range(0..4) == 0 {
            Damage::Cut {
                len: rng.random_range(0..len),
            }
        } else {
            Damage::Flip {
                at: rng.random_range(0..len),
                mask: rng.random_range(1..=255),
            }
        }
    }

    fn apply(&self, good: &[u8]) -> Vec<u8> {
        match *self {
            Damage::Flip { at, mask } => {
                let mut bad = good.to_vec();
                bad[at] ^= mask;
                bad
            }
            Damage::Cut { len } => good[..len].to_vec(),
        }
    }
}

/// What a run over a damaged file did.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    /// It went on, and the file is whole again.
    Resumed,
    /// It stopped with a clear error and left the file as it was.
    Refused,
}

/// Runs `run` over `cases` random damages of `good` at `path`; every run
/// must either resume to a file that `whole` accepts or refuse with
/// `message` on stderr and the file untouched. Returns the verdicts.
fn damage_cases(
    path: &Path,
    good: &[u8],
    cases: usize,
    seed: u64,
    message: &str,
    run: impl Fn() -> Output,
    whole: impl Fn(&[u8]) -> bool,
) -> Vec<(Damage, Verdict)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..cases)
        .map(|_| {
            let damage = Damage::random(&mut rng, good.len());
            let bad = damage.apply(good);
            std::fs::write(path, &bad).unwrap();
            let out = run();
            let now = std::fs::read(path).unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            let verdict = match out.status.code() {
                Some(0) => {
                    assert!(whole(&now), "{damage:?}: resumed to a file that lost data");
                    Verdict::Resumed
                }
                Some(2) => {
                    assert!(err.contains(message), "{damage:?}: {err}");
                    assert_eq!(now, bad, "{damage:?}: a refused file was changed");
                    Verdict::Refused
                }
                other => panic!("{damage:?}: status {other:?}: {err}"),
            };
            (damage, verdict)
        })
        .collect()
}

#[test]
fn selfplay_resumes_over_a_torn_record_and_refuses_damage() {
    let dir = common::fresh_folder("damage", "selfplay");
    let path = dir.join("s.bin");
    let file = path.to_str().unwrap();
    let args = [
        "selfplay",
        "--out",
        file,
        "--games",
        "5",
        "--move-depth",
        "1",
        "--label-depth",
        "1",
        "--exact-empties",
        "0",
        "--threads",
        "1",
    ];
    assert!(reversi(&args, "").status.success());
    let good = std::fs::read(&path).unwrap();
    // The case the probe found: the second record's count overwritten.
    let mut bad = good.clone();
    bad[1018..1020].copy_from_slice(&[0xff, 0xff]);
    std::fs::write(&path, &bad).unwrap();
    let out = reversi(&args, "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&path).unwrap(), bad);
    let verdicts = damage_cases(
        &path,
        &good,
        150,
        1,
        "left as it is",
        || reversi(&args, ""),
        |now| now == good,
    );
    for (damage, verdict) in &verdicts {
        // A cut is what a stopped run leaves; a flip is damage.
        let expected = match damage {
            Damage::Cut { .. } => Verdict::Resumed,
            Damage::Flip { .. } => Verdict::Refused,
        };
        assert_eq!(*verdict, expected, "{damage:?}");
    }
}

#[test]
fn a_match_resumes_over_a_torn_result_and_refuses_damage() {
    let dir = common::fresh_folder("damage", "match");
    let (results, lists) = (dir.join("r.txt"), dir.join("m.txt"));
    let args = [
        "match",
        "greedy",
        "norvig:2",
        "--games",
        "6",
        "--time-ms",
        "2000",
        "--results",
        results.to_str().unwrap(),
        "--move-lists",
        lists.to_str().unwrap(),
    ];
    let first = reversi(&args, "");
    assert!(first.status.success());
    let (good, good_lists) = (
        std::fs::read(&results).unwrap(),
        std::fs::read(&lists).unwrap(),
    );
    assert_eq!(outcomes(&good).len(), 6);
    // The same command again plays nothing and prints the same table.
    let again = reversi(&args, "");
    assert!(again.status.success());
    let table = |o: &Output| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| l.split_whitespace().take(6).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
    };
    assert_eq!(table(&again), table(&first));
    assert_eq!(outcomes(&std::fs::read(&results).unwrap()), outcomes(&good));
    // Stopped after the third result, with the fourth game's move list
    // written and the fifth's torn: the run goes on to the same games.
    let lines = |bytes: &[u8], n: usize| -> usize {
        bytes
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b == b'\n')
            .nth(n - 1)
            .unwrap()
            .0
            + 1
    };
    let header = 7;
    std::fs::write(&results, &good[..lines(&good, header + 3) + 7]).unwrap();
    std::fs::write(&lists, &good_lists[..lines(&good_lists, 4) + 5]).unwrap();
    assert!(reversi(&args, "").status.success());
    assert_eq!(outcomes(&std::fs::read(&results).unwrap()), outcomes(&good));
    assert_eq!(std::fs::read(&lists).unwrap(), good_lists);
    // Move lists with more games than the results: another match's file.
    std::fs::write(&results, &good[..lines(&good, header + 2)]).unwrap();
    let out = reversi(&args, "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not this match's"));
    assert_eq!(std::fs::read(&lists).unwrap(), good_lists);
    // A result given twice is refused, naming the game, by a resumed
    // match and by match-merge (it was counted twice: a table of 7 games).
    let (second, third) = (lines(&good, header + 2), lines(&good, header + 3));
    let twice = [&good[..third], &good[second..third], &good[third..]].concat();
    std::fs::write(&results, &twice).unwrap();
    let path = results.to_str().unwrap();
    for out in [reversi(&args, ""), reversi(&["match-merge", path], "")] {
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!(
                "line {}: game 2 of pairing 0 again (its result is on line {})",
                header + 4,
                header + 3
            )),
            "{err}"
        );
    }
    assert_eq!(std::fs::read(&results).unwrap(), twice);
    // The same shard given twice to match-merge is merged once, with a warning.
    std::fs::write(&results, &good).unwrap();
    let out = reversi(&["match-merge", path, path], "");
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is shard 1/1 again"), "{err}");
    // Random damage to the results alone (the move lists are whole).
    let plain = &args[..9];
    let verdicts = damage_cases(
        &results,
        &good,
        80,
        2,
        "left as it is",
        || reversi(plain, ""),
        |now| outcomes(now) == outcomes(&good),
    );
    assert!(verdicts.iter().any(|(_, v)| *v == Verdict::Refused));
    assert!(verdicts.iter().any(|(_, v)| *v == Verdict::Resumed));
}

#[test]
fn a_damaged_training_cache_is_refused_before_any_work() {
    let dir = common::fresh_folder("damage", "train");
    let (cache, weights) = (dir.join("c.bin"), dir.join("w.bin"));
    let args = [
        "train",
        "--out",
        weights.to_str().unwrap(),
        "--cache",
        cache.to_str().unwrap(),
        "--solve-empties",
        "10",
        "--epochs",
        "1",
        "--holdout",
        "0",
        "--threads",
        "1",
    ];
    let game = "1977 f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7a7a8a1g1g2h2h1 34-30\n";
    assert!(reversi(&args, &game.repeat(2)).status.success());
    let good = std::fs::read(&cache).unwrap();
    std::fs::remove_file(&weights).unwrap();
    // The probe's case: a count of 4 billion positions.
    std::fs::write(&cache, [0xff; 4]).unwrap();
    let out = reversi(&args, "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("left as it is"));
    // The cache is written whole or not at all, so a cut is damage too.
    let verdicts = damage_cases(
        &cache,
        &good,
        100,
        3,
        "left as it is",
        || reversi(&args, ""),
        |_| false,
    );
    assert_eq!(verdicts.len(), 100);
    assert!(!weights.exists(), "no weights from a refused cache");
    // A folder that cannot take the weights fails before any solving.
    std::fs::remove_file(&cache).unwrap();
    let nowhere = dir.join("no-such-folder/w.bin");
    let mut bad = args;
    bad[2] = nowhere.to_str().unwrap();
    let out = reversi(&bad, &game.repeat(2));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-folder/w.bin"));
    assert!(
        !cache.exists(),
        "nothing solved for weights that had nowhere to go"
    );
}
