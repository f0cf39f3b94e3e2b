//! The standings page (`index.html`), which needs no server.

use super::review::{self, Review};
use super::stage::Stage;
use super::standings::{FinalRow, GameCell, QualifyRow, final_rows, game_cell, qualify_rows};
use super::{LeaderboardConfig, LeaderboardError, ProgramInfo, Roll, Unbuilt, rule_text};
use crate::referee::arena::GameId;
use crate::rules::ggf::GgfGame;
use crate::rules::{Color, Game, ggf, parse_square};
use serde::Serialize;
use std::path::Path;

/// One move as the page shows it.
#[derive(Clone, Debug, Serialize)]
struct PageMove {
    /// In standard notation (`d3`), and in the handout's (`cd`: row c,
    /// column d).
    standard: String,
    lab: String,
    /// The time it took, in milliseconds (empty for a pass or an untimed
    /// move).
    ms: String,
}

/// One game as the page shows it.
#[derive(Clone, Debug, Serialize)]
struct PageGame {
    /// `qualify-p3-g1`: the stage and the game's label.
    id: String,
    stage: &'static str,
    black: String,
    white: String,
    result: String,
    /// Who forfeited and why, in full; empty for a game played out.
    forfeit: String,
    moves: Vec<PageMove>,
    /// The board before the first move and after each: `n * n`
    /// characters, `B`, `W` or `.`.
    boards: Vec<String>,
    /// The square (row-major index) of an illegal move that lost the game.
    illegal: Option<usize>,
    /// The transcripts of the game's Lab 8 programs (relative links).
    logs: Vec<String>,
    /// The game's review (`--analyze`), its graph's link relative to the
    /// page.
    review: Option<Review>,
}

/// The games of `stage`, in order, from their records in the folder, with
/// their reviews when the leaderboard analyses its games.
fn page_games(stage: &Stage, dir: &Path, cfg: &LeaderboardConfig) -> Vec<PageGame> {
    let n = cfg.size;
    stage
        .results
        .iter()
        .zip(&stage.files)
        .map(|(r, files)| {
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
            let names = [&stage.entries[black].name, &stage.entries[white].name];
            let text = std::fs::read_to_string(files.record());
            let record = text.as_ref().ok().and_then(|t| ggf::parse(t.trim()).ok());
            let (moves, boards) = record.as_ref().map(replay).unwrap_or_default();
            let relative = files.dir.strip_prefix(dir).unwrap_or(&files.dir);
            let review = match (&text, cfg.analyze) {
                (Ok(t), true) => review::read(files, t, cfg).map(|r| Review {
                    graph: relative.join(&r.graph).display().to_string(),
                    ..r
                }),
                _ => None,
            };
            let logs = std::fs::read_dir(&files.dir)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|f| f.starts_with(&format!("{}-", files.label)) && f.ends_with(".txt"))
                .map(|f| relative.join(f).display().to_string())
                .collect();
            let forfeit = r.forfeit.as_ref().map(|(c, kind)| {
                let who = names[usize::from(*c == Color::White)];
                let why = r.reason.as_deref().unwrap_or(kind);
                format!("{c} ({who}) forfeits: {why}")
            });
            let illegal = r
                .reason
                .as_deref()
                .and_then(|why| why.strip_prefix("illegal move "))
                .and_then(|sq| parse_square(sq, n).ok())
                .map(|sq| usize::from(sq.row) * n + usize::from(sq.col));
            PageGame {
                id: format!("{}-{label}", stage.folder),
                stage: stage.folder,
                black: names[0].clone(),
                white: names[1].clone(),
                result: match r.black_discs.signum() {
                    1 => format!("Black wins {:+}", r.black_discs),
                    -1 => format!("White wins {:+}", -r.black_discs),
                    _ => "draw".into(),
                },
                forfeit: forfeit.unwrap_or_default(),
                moves,
                boards,
                illegal,
                logs,
                review,
            }
        })
        .collect()
}

/// The finals as a cross-table: each finalist's two games against each
/// other, from the row's player's view, in the order of the standings.
#[derive(Clone, Debug, Serialize)]
struct Cross {
    names: Vec<String>,
    /// `rows[a][b]`: the row player's games against the column player
    /// (none on the diagonal).
    rows: Vec<Vec<Vec<GameCell>>>,
}

fn cross_table(stage: &Stage, ranked: &[FinalRow]) -> Cross {
    let order: Vec<usize> = ranked
        .iter()
        .filter_map(|r| stage.entries.iter().position(|e| e.name == r.name))
        .collect();
    let rows = order
        .iter()
        .map(|&a| {
            order
                .iter()
                .map(|&b| {
                    let found = stage.pairs.iter().position(|&p| p == (a, b) || p == (b, a));
                    match found {
                        Some(k) => {
                            let first = stage.pairs[k].0 == a;
                            (0..2).map(|g| game_cell(stage, k, g, first)).collect()
                        }
                        None => Vec::new(),
                    }
                })
                .collect()
        })
        .collect();
    Cross {
        names: order
            .iter()
            .map(|&i| stage.entries[i].name.clone())
            .collect(),
        rows,
    }
}

/// The moves of `record` with their times, and the board before the
/// first and after each.
fn replay(record: &GgfGame) -> (Vec<PageMove>, Vec<String>) {
    let game = &record.game;
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
    for (k, (colour, mv)) in game.moves().enumerate() {
        if replayed.play(colour, mv).is_err() {
            break;
        }
        let seconds = record.plies.get(k).and_then(|p| p.seconds);
        moves.push(PageMove {
            standard: mv.standard(),
            lab: mv.lab(),
            ms: seconds.map_or(String::new(), |s| format!("{:.0}", s * 1000.0)),
        });
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
    cross: Option<Cross>,
    games: Vec<PageGame>,
    updated: String,
    programs: Vec<ProgramInfo>,
    unbuilt: Vec<Unbuilt>,
    /// Whether the games were analysed.
    analyzed: bool,
}

/// The page's template.
const TEMPLATE: &str = include_str!("page.html");

/// The standings page.
pub(super) fn page(
    cfg: &LeaderboardConfig,
    qualification: &Stage,
    finalists: &[usize],
    finals: Option<&Stage>,
    dir: &Path,
    roll: &Roll,
) -> Result<String, LeaderboardError> {
    let mut env = minijinja::Environment::new();
    env.add_template("index.html", TEMPLATE)?;
    let mut games = page_games(qualification, dir, cfg);
    if let Some(f) = finals {
        games.extend(page_games(f, dir, cfg));
    }
    let ranked = finals.map(final_rows);
    let context = PageContext {
        size: cfg.size,
        time_ms: cfg.time.as_millis() as u64,
        margin_ms: cfg.margin.as_millis() as u64,
        rule: rule_text(cfg),
        qualifiers: cfg.qualifiers.clone(),
        wins_needed: cfg.wins_needed,
        qualification: qualify_rows(qualification, cfg.qualifiers.len(), finalists),
        cross: finals.zip(ranked.as_ref()).map(|(f, r)| cross_table(f, r)),
        finals: ranked,
        games,
        updated: roll.updated.clone(),
        programs: roll.programs.clone(),
        unbuilt: roll.unbuilt.clone(),
        analyzed: cfg.analyze,
    };
    let html = env
        .get_template("index.html")?
        .render(minijinja::value::Serde(&context))?;
    Ok(html)
}
