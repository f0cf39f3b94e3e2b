//! The Lab 8 Part 3 leaderboard, as the handout runs it: every program
//! plays the course's `smarter` and `smartest` with both colours and is a
//! finalist if it wins three of those four games; the finalists then play
//! every other finalist twice, once with each colour. A win scores 2, a
//! loss 0, a tie between 0 and 1 by the share of the time the player used
//! (the less, the more). The referee keeps the board, so an illegal move,
//! a move past the time limit, a crash or a hang loses the game at once.
//!
//! Everything goes into one folder: each stage's results (resumable, as a
//! match's), each game's GGF record and transcripts, the standings as text
//! (`standings.txt`) and as a page that needs no server (`index.html`:
//! standings, finalists, every game with a board to step through, links to
//! the logs).

use super::arena::{self, GameId, GameResult, MatchConfig, Tally};
use super::contestant::{TimeControl, split_name};
use super::run::{MatchError, MatchFiles, read_results, run_pairs};
use crate::openings::Openings;
use crate::rules::{Color, Game, ggf};
use crate::shard::Shard;
use serde::Serialize;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

/// How a leaderboard is run.
#[derive(Clone, Debug)]
pub struct LeaderboardConfig {
    /// Board side (8 in the handout).
    pub size: usize,
    /// Time per move (1 s in the handout).
    pub time: Duration,
    /// Lateness allowed past it before a move is forfeited.
    pub margin: Duration,
    /// The players every program must beat to be a finalist.
    pub qualifiers: Vec<String>,
    /// Wins of the qualification games a finalist needs.
    pub wins_needed: usize,
    /// The part of each stage's pairings this run plays (`K/N`: those
    /// numbered K-1 modulo N).
    pub shard: Shard,
    /// Games played at once.
    pub concurrency: usize,
    /// Whether programs' moves are judged on their CPU time (with a
    /// wall-clock cap), not their wall time.
    pub cpu_time: bool,
}

/// Why a leaderboard could not be run.
#[derive(Debug, thiserror::Error)]
pub enum LeaderboardError {
    #[error(transparent)]
    Match(#[from] MatchError),
    #[error("{path}: {source}")]
    File {
        path: String,
        source: std::io::Error,
    },
    #[error("the page could not be made: {0}")]
    Page(#[from] minijinja::Error),
    #[error("a leaderboard needs at least one program")]
    NoPrograms,
}

/// A contestant: the name shown and the player it stands for (`alice=lab8:
/// ./alice/lab8` names `lab8:./alice/lab8` alice).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    pub name: String,
    /// The whole text, as a match takes it.
    pub text: String,
}

impl Entry {
    /// `NAME=<player>`, or a player alone (named by itself).
    pub fn parse(text: &str) -> Entry {
        Entry {
            name: split_name(text).0.to_string(),
            text: text.to_string(),
        }
    }
}

/// One stage's games: who played, in which pairings, and the results
/// (this run's and those of other shards' files in the folder).
struct Stage {
    folder: &'static str,
    entries: Vec<Entry>,
    pairs: Vec<(usize, usize)>,
    results: Vec<GameResult>,
}

impl Stage {
    /// Whether every game of the stage has a result.
    fn complete(&self) -> bool {
        self.results.len() == 2 * self.pairs.len()
    }

    /// What is played of it, as a sentence.
    fn progress(&self) -> String {
        format!(
            "{}: {} of {} games played",
            self.folder,
            self.results.len(),
            2 * self.pairs.len()
        )
    }
}

/// Runs the leaderboard of `programs` under `cfg` into the folder `dir`,
/// and writes the standings to `out` too. A folder that holds part of the
/// same leaderboard (a stopped run, or other shards' results) goes on
/// where it stopped. A shard plays its part of the qualification, and of
/// the finals once the qualification is complete in the folder; the
/// standings are written once everything is.
pub fn run(
    programs: &[Entry],
    cfg: &LeaderboardConfig,
    dir: &Path,
    out: &mut dyn std::io::Write,
) -> Result<(), LeaderboardError> {
    if programs.is_empty() {
        return Err(LeaderboardError::NoPrograms);
    }
    std::fs::create_dir_all(dir).map_err(file_error(dir))?;
    let n = programs.len();
    let mut entries = programs.to_vec();
    entries.extend(cfg.qualifiers.iter().map(|q| Entry::parse(q)));
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (0..cfg.qualifiers.len()).map(move |q| (i, n + q)))
        .collect();
    let qualification = play_stage("qualify", entries, pairs, cfg, dir)?;
    if !qualification.complete() {
        return waiting(out, &qualification);
    }
    let finalists: Vec<usize> = (0..n)
        .filter(|&i| wins(&qualification, i) >= cfg.wins_needed)
        .collect();
    let finals = if finalists.len() >= 2 {
        let entries = finalists.iter().map(|&i| programs[i].clone()).collect();
        let pairs = arena::pairings(finalists.len());
        let stage = play_stage("final", entries, pairs, cfg, dir)?;
        if !stage.complete() {
            return waiting(out, &stage);
        }
        Some(stage)
    } else {
        None
    };
    let standings = standings(cfg, &qualification, &finalists, finals.as_ref());
    write_file(&dir.join("standings.txt"), &standings)?;
    write_file(
        &dir.join("index.html"),
        &page(cfg, &qualification, &finalists, finals.as_ref(), dir)?,
    )?;
    write!(out, "{standings}").map_err(file_error(Path::new("stdout")))?;
    Ok(())
}

/// How moves are timed, for the standings' first line.
fn rule_text(cfg: &LeaderboardConfig) -> String {
    if cfg.cpu_time {
        format!(
            ", judged on CPU time (a move may take {} times its limit on the wall clock)",
            super::contestant::CPU_WALL_CAP
        )
    } else {
        ", judged on wall time".into()
    }
}

/// Says what a shard left for the others, and stops.
fn waiting(out: &mut dyn std::io::Write, stage: &Stage) -> Result<(), LeaderboardError> {
    writeln!(
        out,
        "{}: the rest is other shards' (run again once their results are in the folder)",
        stage.progress()
    )
    .map_err(file_error(Path::new("stdout")))
}

fn file_error(path: &Path) -> impl Fn(std::io::Error) -> LeaderboardError + '_ {
    move |source| LeaderboardError::File {
        path: path.display().to_string(),
        source,
    }
}

fn write_file(path: &Path, text: &str) -> Result<(), LeaderboardError> {
    std::fs::write(path, text).map_err(file_error(path))
}

/// The match settings of every leaderboard game: two games a pairing,
/// from the start position.
fn match_config(cfg: &LeaderboardConfig) -> MatchConfig {
    MatchConfig {
        size: cfg.size,
        games: 2,
        time: TimeControl::PerMove(cfg.time),
        player_times: Vec::new(),
        margin: cfg.margin,
        openings: Openings::None,
        max_plies: None,
        seed: 1,
        nboard_depth: 60,
        threads: 1,
        concurrency: cfg.concurrency,
        sprt: None,
        lab8_cpu: cfg.cpu_time,
    }
}

/// Plays (or resumes) this run's part of one stage in `dir/<folder>`:
/// its shard's pairings, but for the games of other shards' results files
/// in the folder (`results-K-of-N`; an unsharded run's is `results`).
fn play_stage(
    folder: &'static str,
    entries: Vec<Entry>,
    pairs: Vec<(usize, usize)>,
    cfg: &LeaderboardConfig,
    dir: &Path,
) -> Result<Stage, LeaderboardError> {
    let stage_dir = dir.join(folder);
    std::fs::create_dir_all(&stage_dir).map_err(file_error(&stage_dir))?;
    let own = if cfg.shard == Shard::ALL {
        "results".to_string()
    } else {
        format!("results-{}-of-{}", cfg.shard.index, cfg.shard.count)
    };
    let texts: Vec<String> = entries.iter().map(|e| e.text.clone()).collect();
    let mut others: Vec<GameResult> = Vec::new();
    for path in results_files(&stage_dir, &own) {
        let file = read_results(&path)?;
        if file.players == texts && file.pairs == pairs {
            others.extend(file.results);
        } else {
            log::warn!("{path}: results of another leaderboard, left out");
        }
    }
    let elsewhere: HashSet<(usize, usize)> = others.iter().map(|r| (r.pairing, r.game)).collect();
    let shard = cfg.shard;
    let select = |pairing: usize, game: usize| {
        shard.has(pairing as u64) && !elsewhere.contains(&(pairing, game))
    };
    let results_path = stage_dir.join(&own).display().to_string();
    let games_path = stage_dir.join("games").display().to_string();
    let files = MatchFiles {
        records: None,
        move_lists: None,
        results: Some(&results_path),
        games_dir: Some(&games_path),
    };
    let (mut results, written) =
        run_pairs(&texts, &pairs, &match_config(cfg), shard, &select, files)?;
    written?;
    let mine: HashSet<(usize, usize)> = results.iter().map(|r| (r.pairing, r.game)).collect();
    results.extend(
        others
            .into_iter()
            .filter(|r| !mine.contains(&(r.pairing, r.game))),
    );
    let mut seen = HashSet::new();
    results.retain(|r| seen.insert((r.pairing, r.game)));
    Ok(Stage {
        folder,
        entries,
        pairs,
        results,
    })
}

/// The results files of a stage's folder but `own`.
fn results_files(stage_dir: &Path, own: &str) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(stage_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with("results") && name != own
        })
        .map(|e| e.path().display().to_string())
        .collect();
    files.sort();
    files
}

/// The tallies of each pairing of `stage` (the pair's first player first).
fn tallies(stage: &Stage) -> Vec<[Tally; 2]> {
    (0..stage.pairs.len())
        .map(|k| arena::tally_pairing(stage.results.iter().filter(|r| r.pairing == k)))
        .collect()
}

/// Games player `i` won in `stage`.
fn wins(stage: &Stage, i: usize) -> usize {
    let tallies = tallies(stage);
    stage
        .pairs
        .iter()
        .zip(&tallies)
        .map(|(&(a, b), t)| {
            let me = if a == i {
                &t[0]
            } else if b == i {
                &t[1]
            } else {
                return 0;
            };
            me.wdl[0][0] + me.wdl[1][0]
        })
        .sum()
}

/// One player's line of the finals.
#[derive(Clone, Debug, Serialize)]
struct FinalRow {
    rank: usize,
    name: String,
    points: String,
    games: usize,
    wdl: String,
    discs: String,
    mean_ms: String,
    max_ms: String,
    /// Mean and largest CPU time a move, where moves were judged on it.
    cpu_mean_ms: String,
    cpu_max_ms: String,
    forfeits: String,
}

/// The time a tally's moves used, as the tie rule counts it: CPU time
/// where they were judged on it, else wall time.
fn used(t: &Tally) -> Duration {
    t.cpu.map_or(t.time, |c| c.total)
}

/// The finals' standings, best first: by points, ties by the less time
/// used.
fn final_rows(stage: &Stage) -> Vec<FinalRow> {
    let mut totals = vec![Tally::default(); stage.entries.len()];
    for (&(i, j), t) in stage.pairs.iter().zip(tallies(stage)) {
        totals[i].merge(&t[0]);
        totals[j].merge(&t[1]);
    }
    let mut order: Vec<usize> = (0..totals.len()).collect();
    order.sort_by(|&a, &b| {
        totals[b]
            .points
            .total_cmp(&totals[a].points)
            .then(used(&totals[a]).cmp(&used(&totals[b])))
    });
    order
        .iter()
        .enumerate()
        .map(|(rank, &i)| {
            let t = &totals[i];
            let [w, d, l] = [0, 1, 2].map(|k| t.wdl[0][k] + t.wdl[1][k]);
            FinalRow {
                rank: rank + 1,
                name: stage.entries[i].name.clone(),
                points: format!("{:.2}", t.points),
                games: t.games(),
                wdl: format!("{w}-{d}-{l}"),
                discs: format!("{:+.1}", t.disc_sum as f64 / t.games().max(1) as f64),
                mean_ms: format!(
                    "{:.1}",
                    t.time.as_secs_f64() * 1000.0 / t.moves.max(1) as f64
                ),
                max_ms: format!("{:.1}", t.max_time.as_secs_f64() * 1000.0),
                cpu_mean_ms: t.cpu.map_or("-".into(), |c| {
                    format!(
                        "{:.1}",
                        c.total.as_secs_f64() * 1000.0 / t.moves.max(1) as f64
                    )
                }),
                cpu_max_ms: t.cpu.map_or("-".into(), |c| {
                    format!("{:.1}", c.max.as_secs_f64() * 1000.0)
                }),
                forfeits: forfeit_text(&t.forfeits),
            }
        })
        .collect()
}

fn forfeit_text(forfeits: &[(String, usize)]) -> String {
    if forfeits.is_empty() {
        "-".into()
    } else {
        forfeits
            .iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// One program's line of the qualification.
#[derive(Clone, Debug, Serialize)]
struct QualifyRow {
    name: String,
    /// Per qualifier and colour (Black first): `W +12`, `L -64 (late)`.
    games: Vec<String>,
    wins: usize,
    finalist: bool,
}

/// The result of game `game` of pairing `pairing` for its first player.
fn game_cell(stage: &Stage, pairing: usize, game: usize) -> String {
    let Some(r) = stage
        .results
        .iter()
        .find(|r| r.pairing == pairing && r.game == game)
    else {
        return "-".into();
    };
    let first_black = game.is_multiple_of(2);
    let discs = if first_black {
        r.black_discs
    } else {
        -r.black_discs
    };
    let letter = match discs.signum() {
        1 => "W",
        -1 => "L",
        _ => "D",
    };
    let forfeit = match &r.forfeit {
        Some((c, kind)) => {
            let who = if (*c == Color::Black) == first_black {
                ""
            } else {
                "opponent "
            };
            format!(" ({who}{kind})")
        }
        None => String::new(),
    };
    format!("{letter} {discs:+}{forfeit}")
}

fn qualify_rows(stage: &Stage, qualifiers: usize, finalists: &[usize]) -> Vec<QualifyRow> {
    let programs = stage.entries.len() - qualifiers;
    (0..programs)
        .map(|i| QualifyRow {
            name: stage.entries[i].name.clone(),
            games: (0..qualifiers)
                .flat_map(|q| {
                    let k = i * qualifiers + q;
                    [game_cell(stage, k, 0), game_cell(stage, k, 1)]
                })
                .collect(),
            wins: wins(stage, i),
            finalist: finalists.contains(&i),
        })
        .collect()
}

/// The largest move time measured in `stage`, in milliseconds.
fn max_move_ms(stage: &Stage) -> f64 {
    stage
        .results
        .iter()
        .flat_map(|r| r.max_time)
        .max()
        .unwrap_or_default()
        .as_secs_f64()
        * 1000.0
}

/// The forfeits of `stage` by reason.
fn forfeits_by_reason(stage: &Stage) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for (_, kind) in stage.results.iter().filter_map(|r| r.forfeit.as_ref()) {
        match counts.iter_mut().find(|(k, _)| k == kind) {
            Some((_, n)) => *n += 1,
            None => counts.push((kind.clone(), 1)),
        }
    }
    counts
}

/// The standings as text.
fn standings(
    cfg: &LeaderboardConfig,
    qualification: &Stage,
    finalists: &[usize],
    finals: Option<&Stage>,
) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "Lab 8 Part 3 leaderboard: {n}x{n}, {} ms a move (+{} ms margin){}\n",
        cfg.time.as_millis(),
        cfg.margin.as_millis(),
        rule_text(cfg),
        n = cfg.size
    );
    let _ = writeln!(
        text,
        "Qualification: {} of {} wins against {}, each with both colours, make a finalist",
        cfg.wins_needed,
        2 * cfg.qualifiers.len(),
        cfg.qualifiers.join(" and ")
    );
    let mut head = format!("{:<24}", "program");
    for q in &cfg.qualifiers {
        for colour in ["B", "W"] {
            let _ = write!(head, " {:>20}", format!("{q} ({colour})"));
        }
    }
    let _ = writeln!(text, "{head} {:>5}  finalist", "wins");
    for row in qualify_rows(qualification, cfg.qualifiers.len(), finalists) {
        let mut line = format!("{:<24}", row.name);
        for g in &row.games {
            let _ = write!(line, " {g:>20}");
        }
        let mark = if row.finalist { "yes" } else { "-" };
        let _ = writeln!(text, "{line} {:>5}  {mark}", row.wins);
    }
    let _ = writeln!(text);
    match finals {
        Some(stage) => {
            let _ = writeln!(
                text,
                "Finals (win 2, loss 0, tie 0-1 by share of time used; ties ranked by time)"
            );
            let _ = writeln!(
                text,
                "{:>4} {:<24} {:>7} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}  forfeits",
                "rank",
                "program",
                "points",
                "games",
                "W-D-L",
                "discs",
                "mean ms",
                "max ms",
                "CPU mean",
                "CPU max"
            );
            for r in final_rows(stage) {
                let _ = writeln!(
                    text,
                    "{:>4} {:<24} {:>7} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}  {}",
                    r.rank,
                    r.name,
                    r.points,
                    r.games,
                    r.wdl,
                    r.discs,
                    r.mean_ms,
                    r.max_ms,
                    r.cpu_mean_ms,
                    r.cpu_max_ms,
                    r.forfeits
                );
            }
        }
        None => {
            let _ = writeln!(text, "No finals: fewer than two finalists.");
        }
    }
    let stages: Vec<&Stage> = std::iter::once(qualification).chain(finals).collect();
    let mut forfeits: Vec<(String, usize)> = Vec::new();
    for stage in &stages {
        for (kind, n) in forfeits_by_reason(stage) {
            match forfeits.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, c)) => *c += n,
                None => forfeits.push((kind, n)),
            }
        }
    }
    let max = stages.iter().map(|s| max_move_ms(s)).fold(0.0, f64::max);
    let _ = writeln!(
        text,
        "\nForfeits by reason: {}\nLargest move time measured: {max:.1} ms",
        forfeit_text(&forfeits)
    );
    text
}

/// One game as the page shows it.
#[derive(Clone, Debug, Serialize)]
struct PageGame {
    id: String,
    black: String,
    white: String,
    result: String,
    forfeit: String,
    /// The moves in standard notation.
    moves: Vec<String>,
    /// The board before the first move and after each: `n * n`
    /// characters, `B`, `W` or `.`.
    boards: Vec<String>,
    /// The transcripts of the game's Lab 8 programs (relative links).
    logs: Vec<String>,
}

/// The games of `stage`, in order, from their records in the folder.
fn page_games(stage: &Stage, dir: &Path) -> Vec<PageGame> {
    let games_dir = dir.join(stage.folder).join("games");
    let mut results: Vec<&GameResult> = stage.results.iter().collect();
    results.sort_by_key(|r| (r.pairing, r.game));
    results
        .into_iter()
        .map(|r| {
            let label = GameId {
                pairing: r.pairing,
                game: r.game,
            }
            .label();
            let (i, j) = stage.pairs[r.pairing];
            let (black, white) = if r.game.is_multiple_of(2) {
                (i, j)
            } else {
                (j, i)
            };
            let record = std::fs::read_to_string(games_dir.join(format!("{label}.ggf")))
                .ok()
                .and_then(|text| ggf::parse(text.trim()).ok());
            let (moves, boards) = record.map(|g| replay(&g.game)).unwrap_or_default();
            let logs = std::fs::read_dir(&games_dir)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|f| f.starts_with(&format!("{label}-")) && f.ends_with(".txt"))
                .map(|f| format!("{}/games/{f}", stage.folder))
                .collect();
            PageGame {
                id: format!("{}-{label}", stage.folder),
                black: stage.entries[black].name.clone(),
                white: stage.entries[white].name.clone(),
                result: match r.black_discs.signum() {
                    1 => format!("Black wins {:+}", r.black_discs),
                    -1 => format!("White wins {:+}", -r.black_discs),
                    _ => "draw".into(),
                },
                forfeit: r
                    .forfeit
                    .as_ref()
                    .map(|(c, k)| format!("{c} forfeits: {k}"))
                    .unwrap_or_default(),
                moves,
                boards,
                logs,
            }
        })
        .collect()
}

/// The moves of `game` and the board before the first and after each.
fn replay(game: &Game) -> (Vec<String>, Vec<String>) {
    let mut replayed = Game::from_position(*game.start());
    let board = |g: &Game| {
        g.position()
            .cells()
            .iter()
            .map(|c| match c {
                Some(Color::Black) => 'B',
                Some(Color::White) => 'W',
                None => '.',
            })
            .collect::<String>()
    };
    let mut boards = vec![board(&replayed)];
    let mut moves = Vec::new();
    for (colour, mv) in game.moves() {
        if replayed.play(colour, mv).is_err() {
            break;
        }
        moves.push(mv.standard());
        boards.push(board(&replayed));
    }
    (moves, boards)
}

/// What the page's template reads.
#[derive(Serialize)]
struct PageContext {
    size: usize,
    time_ms: u64,
    margin_ms: u64,
    /// How moves are timed, as a clause.
    rule: String,
    qualifiers: Vec<String>,
    wins_needed: usize,
    qualification: Vec<QualifyRow>,
    finals: Option<Vec<FinalRow>>,
    games: Vec<PageGame>,
}

/// The page's template.
const TEMPLATE: &str = include_str!("leaderboard.html");

/// The standings page.
fn page(
    cfg: &LeaderboardConfig,
    qualification: &Stage,
    finalists: &[usize],
    finals: Option<&Stage>,
    dir: &Path,
) -> Result<String, LeaderboardError> {
    let mut env = minijinja::Environment::new();
    env.add_template("index.html", TEMPLATE)?;
    let mut games = page_games(qualification, dir);
    if let Some(f) = finals {
        games.extend(page_games(f, dir));
    }
    let context = PageContext {
        size: cfg.size,
        time_ms: cfg.time.as_millis() as u64,
        margin_ms: cfg.margin.as_millis() as u64,
        rule: rule_text(cfg),
        qualifiers: cfg.qualifiers.clone(),
        wins_needed: cfg.wins_needed,
        qualification: qualify_rows(qualification, cfg.qualifiers.len(), finalists),
        finals: finals.map(final_rows),
        games,
    };
    let html = env
        .get_template("index.html")?
        .render(minijinja::value::Serde(&context))?;
    Ok(html)
}
