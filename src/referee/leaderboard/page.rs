//! The standings page (`index.html`), which needs no server.

use super::stage::Stage;
use super::standings::{FinalRow, QualifyRow, final_rows, qualify_rows};
use super::{LeaderboardConfig, LeaderboardError, rule_text};
use crate::referee::arena::{GameId, GameResult};
use crate::rules::{Color, Game, ggf};
use serde::Serialize;
use std::path::Path;

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
const TEMPLATE: &str = include_str!("page.html");

/// The standings page.
pub(super) fn page(
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
