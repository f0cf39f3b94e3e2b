//! `reversi analyze`: where each game was won and lost. Every move of a
//! game is compared with the best move of the position it was played in:
//! the best move's score, the played move's, and the loss between them in
//! discs, exact near the end. Mistakes and blunders are marked, and each
//! player gets a summary.
//!
//! A position is searched by `strong` on one thread with a cleared table,
//! so that its analysis depends on nothing else: the positions of a game
//! are shared among the worker threads, and the output is the same for
//! any number of them. The played move's score comes from the same
//! search as the best move's, with the other moves left out at the root:
//! the same depth, or the same exact solve.

use crate::engine::{Engine, Resources};
use crate::rules::{Color, Game, Move, Position, ggf, parse_move, printable, split_move_list};
use crate::search::pattern::EvalKind;
use crate::search::{Limits, in_discs};
use crate::shard::Shard;
use serde::Serialize;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How games are analysed.
#[derive(Clone, Debug)]
pub struct AnalyzeConfig {
    /// Plies of each search away from the exact region.
    pub depth: u32,
    /// From this many empty squares (8x8 only) moves are solved exactly.
    pub exact_empties: u32,
    /// Positions analysed at once, each on one search thread.
    pub threads: usize,
    /// A move that loses at least this many discs is a mistake.
    pub mistake: f64,
    /// ... and from this many, a blunder.
    pub blunder: f64,
    /// The 8x8 evaluation.
    pub eval: EvalKind,
    /// Hash table of each thread, in MB.
    pub hash_mb: usize,
    /// The games of the input this run analyses (`K/N`: numbers K-1
    /// modulo N, counting from 0).
    pub shard: Shard,
}

/// Why games could not be analysed.
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeError {
    #[error("{path}: {source}")]
    File {
        path: String,
        source: std::io::Error,
    },
    #[error("line {line}: {why}")]
    Game { line: usize, why: String },
    #[error("no game in the input")]
    NoGames,
}

/// A game as read: its players and result (when the record has them), its
/// start and its plies.
#[derive(Clone, Debug)]
pub struct InputGame {
    /// The line of the input it was read from.
    pub line: usize,
    pub black: String,
    pub white: String,
    pub game: Game,
}

/// Reads games, one a line: GGF records (`(;GM[Othello]...;)`), move
/// lists (`f5d6c3...`, on an n x n board) or WTHOR lines (`1987 f5d6...
/// 40-24`); blank lines and `#` comments
/// are skipped. A line that is no legal game is an error that names it
/// and the ply.
pub fn read_games(text: &str, n: usize) -> Result<Vec<InputGame>, AnalyzeError> {
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_number = i + 1;
        let line = line.trim().trim_start_matches('\u{feff}');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: String| AnalyzeError::Game {
            line: line_number,
            why,
        };
        if line.starts_with("(;") {
            let record = ggf::parse(line).map_err(|e| bad(e.to_string()))?;
            games.push(InputGame {
                line: line_number,
                black: record.black,
                white: record.white,
                game: record.game,
            });
            continue;
        }
        // A WTHOR line: `YEAR MOVES SCORE`.
        let words: Vec<&str> = line.split_whitespace().collect();
        let moves = match words.as_slice() {
            [year, moves, ..] if year.bytes().all(|b| b.is_ascii_digit()) => moves,
            _ => line,
        };
        let mut game = Game::new(n).map_err(|e| bad(e.to_string()))?;
        for (k, word) in split_move_list(moves).iter().enumerate() {
            let mv = parse_move(word, n)
                .map_err(|e| bad(format!("ply {}: '{}': {e}", k + 1, printable(word))))?;
            game.play_next(mv)
                .map_err(|e| bad(format!("ply {} ({}): {e}", k + 1, printable(word))))?;
        }
        games.push(InputGame {
            line: line_number,
            black: String::new(),
            white: String::new(),
            game,
        });
    }
    if games.is_empty() {
        return Err(AnalyzeError::NoGames);
    }
    Ok(games)
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    Mistake,
    Blunder,
}

/// One move, as the analysis sees it. Scores are discs for the side that
/// moved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveAnalysis {
    /// The ply's number in the game, from 1 (passes count).
    pub ply: usize,
    #[serde(serialize_with = "colour_name")]
    pub colour: Color,
    /// Empty squares before the move.
    pub empties: u32,
    /// The move played and the best move, in standard notation.
    pub played: String,
    pub best: String,
    pub best_score: f64,
    pub played_score: f64,
    /// Discs the move gave away (0 for the best move).
    pub loss: f64,
    /// Whether both scores are exact.
    pub exact: bool,
    pub mark: Option<Mark>,
}

/// A colour as JSON gives it: `"black"`, `"white"`.
fn colour_name<S: serde::Serializer>(colour: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(colour.name())
}

/// One player's moves, summed up.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Moves analysed (passes and forced moves are not: they lose
    /// nothing by choice).
    pub moves: usize,
    pub mean_loss: f64,
    pub mistakes: usize,
    pub blunders: usize,
    /// The share of moves that were the best (or as good).
    pub best_share: f64,
}

/// A game's analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameAnalysis {
    /// The input line it came from.
    pub line: usize,
    pub black: String,
    pub white: String,
    pub size: usize,
    pub moves: Vec<MoveAnalysis>,
    pub black_summary: Summary,
    pub white_summary: Summary,
}

/// One position to analyse: the game's index and the ply's.
struct Job {
    game: usize,
    ply: usize,
}

/// Analyses `games` as `cfg` says, the shard's games only; `progress`
/// sees each position done (of how many).
pub fn analyze(
    games: &[InputGame],
    cfg: &AnalyzeConfig,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<GameAnalysis> {
    let mine: Vec<&InputGame> = games
        .iter()
        .enumerate()
        .filter(|(k, _)| cfg.shard.has(*k as u64))
        .map(|(_, g)| g)
        .collect();
    // Each game's plies with their positions.
    let plies: Vec<Vec<(Position, Color, Move)>> = mine.iter().map(|g| plies_of(&g.game)).collect();
    let jobs: Vec<Job> = plies
        .iter()
        .enumerate()
        .flat_map(|(game, p)| (0..p.len()).map(move |ply| Job { game, ply }))
        .filter(|j| {
            let (pos, _, mv) = &plies[j.game][j.ply];
            *mv != Move::Pass && pos.legal_moves(pos.to_move()).len() > 1
        })
        .collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let workers = cfg.threads.max(1).min(jobs.len().max(1));
    let mut results: Vec<(usize, usize, MoveAnalysis)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| {
                    let resources = Resources {
                        threads: 1,
                        hash_mb: cfg.hash_mb,
                        eval: cfg.eval,
                    };
                    let mut engine = Engine::new("strong", resources).expect("strong exists");
                    let mut out = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(k) else { break };
                        let (pos, colour, mv) = &plies[job.game][job.ply];
                        out.push((
                            job.game,
                            job.ply,
                            analyse_move(&mut engine, pos, *colour, *mv, job.ply + 1, cfg),
                        ));
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1, jobs.len());
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("an analysis thread does not panic"))
            .collect()
    });
    results.sort_by_key(|(g, p, _)| (*g, *p));
    mine.iter()
        .enumerate()
        .map(|(k, g)| {
            let moves: Vec<MoveAnalysis> = results
                .iter()
                .filter(|(game, _, _)| *game == k)
                .map(|(_, _, m)| m.clone())
                .collect();
            GameAnalysis {
                line: g.line,
                black: g.black.clone(),
                white: g.white.clone(),
                size: g.game.start().size(),
                black_summary: summary(&moves, Color::Black),
                white_summary: summary(&moves, Color::White),
                moves,
            }
        })
        .collect()
}

/// Each ply of `game` with the position it was played in.
fn plies_of(game: &Game) -> Vec<(Position, Color, Move)> {
    let mut replay = Game::from_position(*game.start());
    let mut plies = Vec::new();
    for (colour, mv) in game.moves() {
        plies.push((*replay.position(), colour, mv));
        replay.play(colour, mv).expect("a checked game replays");
    }
    plies
}

/// The limits of a search of `pos` whose result is wanted `plies` deep:
/// an exact solve within the exact region (8x8), else a fixed depth.
fn limits_for(pos: &Position, plies: u32, cfg: &AnalyzeConfig) -> Limits {
    if pos.size() == 8 && pos.empties() <= cfg.exact_empties {
        Limits::unlimited()
    } else {
        Limits {
            depth: Some(plies.max(1)),
            ..Limits::unlimited()
        }
    }
}

/// The score (discs for the side to move) and exactness of `played` in
/// `pos`, from the same search as the best move's with the other moves
/// left out at the root (the table cleared first): the same depth and
/// the same search, so that the loss compares like with like.
fn played_score(
    engine: &mut Engine,
    pos: &Position,
    played: Move,
    cfg: &AnalyzeConfig,
) -> (f64, bool) {
    let n = pos.size();
    let limits = Limits {
        excluded: pos
            .legal_moves(pos.to_move())
            .into_iter()
            .map(|sq| sq.index(n))
            .filter(|&sq| Some(sq) != played.index(n))
            .collect(),
        ..limits_for(pos, cfg.depth, cfg)
    };
    engine.new_game();
    // The analysis, not the move: one move left is still searched.
    let analysis = engine.analyse(pos, limits, true, &mut |_| {});
    match analysis.ok().and_then(|a| a.scores.first().copied()) {
        Some(s) if s.mv == played => (in_discs(s.score), s.exact),
        _ => (f64::NAN, false),
    }
}

/// The analysis of `played`, the move of `colour` in `pos` (ply `ply`).
fn analyse_move(
    engine: &mut Engine,
    pos: &Position,
    colour: Color,
    played: Move,
    ply: usize,
    cfg: &AnalyzeConfig,
) -> MoveAnalysis {
    engine.new_game();
    let decision = engine.decide(pos, limits_for(pos, cfg.depth, cfg));
    let (best_score, best_exact) = decision
        .score
        .map_or((0.0, false), |s| (in_discs(s.score), s.exact));
    let (played_score, played_exact) = if decision.mv == played {
        (best_score, best_exact)
    } else {
        played_score(engine, pos, played, cfg)
    };
    let loss = (best_score - played_score).max(0.0);
    let mark = if loss >= cfg.blunder {
        Some(Mark::Blunder)
    } else if loss >= cfg.mistake {
        Some(Mark::Mistake)
    } else {
        None
    };
    MoveAnalysis {
        ply,
        colour,
        empties: pos.empties(),
        played: played.standard(),
        best: decision.mv.standard(),
        best_score,
        played_score,
        loss,
        exact: best_exact && played_exact,
        mark,
    }
}

/// `colour`'s moves of `moves`, summed up.
pub fn summary(moves: &[MoveAnalysis], colour: Color) -> Summary {
    let mine: Vec<&MoveAnalysis> = moves.iter().filter(|m| m.colour == colour).collect();
    let n = mine.len();
    if n == 0 {
        return Summary::default();
    }
    let count = |mark| mine.iter().filter(|m| m.mark == Some(mark)).count();
    Summary {
        moves: n,
        mean_loss: mine.iter().map(|m| m.loss).sum::<f64>() / n as f64,
        mistakes: count(Mark::Mistake),
        blunders: count(Mark::Blunder),
        best_share: mine.iter().filter(|m| m.loss == 0.0).count() as f64 / n as f64,
    }
}

/// A player as the output names it: `alice (Black)`, or `Black` for a
/// record without names.
fn player_name(name: &str, colour: &str) -> String {
    if name.is_empty() {
        colour.to_string()
    } else {
        format!("{name} ({colour})")
    }
}

/// The analyses as text: a table a game, then each player's summary.
pub fn write_text(analyses: &[GameAnalysis], out: &mut dyn Write) -> std::io::Result<()> {
    for a in analyses {
        writeln!(
            out,
            "game of line {}: {} against {}",
            a.line,
            player_name(&a.black, "Black"),
            player_name(&a.white, "White")
        )?;
        writeln!(
            out,
            "{:>4} {:<6} {:>7} {:>6} {:>6} {:>8} {:>8} {:>6}  mark",
            "ply", "colour", "empties", "played", "best", "best", "played", "loss"
        )?;
        for m in &a.moves {
            let mark = match m.mark {
                Some(Mark::Blunder) => "blunder",
                Some(Mark::Mistake) => "mistake",
                None => "",
            };
            let exact = if m.exact { " exact" } else { "" };
            writeln!(
                out,
                "{:>4} {:<6} {:>7} {:>6} {:>6} {:>+8.2} {:>+8.2} {:>6.2}  {mark}{exact}",
                m.ply,
                m.colour.name(),
                m.empties,
                m.played,
                m.best,
                m.best_score,
                m.played_score,
                m.loss
            )?;
        }
        for (who, s) in [("Black", &a.black_summary), ("White", &a.white_summary)] {
            writeln!(
                out,
                "{who}: {} moves, mean loss {:.2} discs a move, {} mistakes, {} blunders, best move {:.1}%",
                s.moves,
                s.mean_loss,
                s.mistakes,
                s.blunders,
                s.best_share * 100.0
            )?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// The analyses as JSON: `{"games": [...]}`, each game with its moves and
/// the two summaries (the fields of [`GameAnalysis`]).
pub fn write_json(analyses: &[GameAnalysis], out: &mut dyn Write) -> std::io::Result<()> {
    #[derive(Serialize)]
    struct Document<'a> {
        games: &'a [GameAnalysis],
    }
    serde_json::to_writer_pretty(&mut *out, &Document { games: analyses })?;
    writeln!(out)
}

/// Black's view of the game after each analysed move: the best score of
/// the position the move was played in, for Black (the evaluation graph's
/// points), with the ply.
fn black_view(a: &GameAnalysis) -> Vec<(usize, f64)> {
    a.moves
        .iter()
        .map(|m| {
            let sign = if m.colour == Color::Black { 1.0 } else { -1.0 };
            (m.ply, sign * m.best_score)
        })
        .collect()
}

/// Height of one game's graph, in pixels.
const GRAPH_HEIGHT: u32 = 320;

/// The evaluation graphs of `analyses` as one SVG, a graph a game: the
/// score over the game from Black's view, the mistakes (orange) and
/// blunders (red) marked at the move that made them, and the region
/// solved exactly shaded.
pub fn svg(analyses: &[GameAnalysis]) -> Result<String, String> {
    use plotters::prelude::*;
    let mut text = String::new();
    {
        let height = GRAPH_HEIGHT * analyses.len().max(1) as u32;
        let root = SVGBackend::with_string(&mut text, (900, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let panels = root.split_evenly((analyses.len().max(1), 1));
        for (a, panel) in analyses.iter().zip(panels) {
            let points = black_view(a);
            let last = a.moves.last().map_or(1, |m| m.ply);
            let most = points
                .iter()
                .map(|(_, s)| s.abs())
                .fold(8.0f64, f64::max)
                .ceil();
            let title = format!(
                "{} against {}: the score for Black, in discs",
                player_name(&a.black, "Black"),
                player_name(&a.white, "White")
            );
            let mut chart = ChartBuilder::on(&panel)
                .caption(title, ("sans-serif", 16))
                .margin(10)
                .x_label_area_size(30)
                .y_label_area_size(45)
                .build_cartesian_2d(0..last + 1, -most..most)
                .map_err(|e| e.to_string())?;
            chart
                .configure_mesh()
                .x_desc("ply")
                .light_line_style(WHITE.mix(0.0))
                .draw()
                .map_err(|e| e.to_string())?;
            if let Some(first) = a.moves.iter().find(|m| m.exact) {
                let shade = RGBColor(220, 230, 245).filled();
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(first.ply, -most), (last + 1, most)],
                        shade,
                    )))
                    .map_err(|e| e.to_string())?
                    .label("solved exactly")
                    .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], shade));
            }
            chart
                .draw_series(LineSeries::new([(0, 0.0), (last + 1, 0.0)], BLACK.mix(0.4)))
                .map_err(|e| e.to_string())?;
            chart
                .draw_series(LineSeries::new(
                    points.iter().copied(),
                    BLUE.stroke_width(2),
                ))
                .map_err(|e| e.to_string())?
                .label("score (Black's view)")
                .legend(|(x, y)| PathElement::new([(x, y), (x + 12, y)], BLUE.stroke_width(2)));
            for (mark, colour, label) in [
                (Mark::Mistake, RGBColor(245, 150, 0), "mistake"),
                (Mark::Blunder, RED, "blunder"),
            ] {
                let marked: Vec<(usize, f64)> = a
                    .moves
                    .iter()
                    .zip(&points)
                    .filter(|(m, _)| m.mark == Some(mark))
                    .map(|(_, p)| *p)
                    .collect();
                chart
                    .draw_series(
                        marked
                            .iter()
                            .map(|&(x, y)| Circle::new((x, y), 5, colour.filled())),
                    )
                    .map_err(|e| e.to_string())?
                    .label(label)
                    .legend(move |(x, y)| Circle::new((x + 6, y), 5, colour.filled()));
            }
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK.mix(0.3))
                .position(SeriesLabelPosition::UpperLeft)
                .draw()
                .map_err(|e| e.to_string())?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(text)
}

/// The analyses as a page: for each game its graph (as [`svg`] draws it),
/// the players' summaries and the table of moves, mistakes and blunders
/// highlighted.
pub fn html(analyses: &[GameAnalysis], cfg: &AnalyzeConfig) -> Result<String, String> {
    #[derive(Serialize)]
    struct PageGame<'a> {
        title: String,
        svg: String,
        summaries: Vec<String>,
        moves: &'a [MoveAnalysis],
    }
    let games = analyses
        .iter()
        .map(|a| {
            let summaries = [("Black", &a.black, &a.black_summary), ("White", &a.white, &a.white_summary)]
                .iter()
                .map(|(colour, name, s)| {
                    format!(
                        "{}: {} moves, mean loss {:.2} discs a move, {} mistakes, {} blunders, best move {:.1}%",
                        player_name(name, colour),
                        s.moves,
                        s.mean_loss,
                        s.mistakes,
                        s.blunders,
                        s.best_share * 100.0
                    )
                })
                .collect();
            Ok(PageGame {
                title: format!(
                    "Game of line {}: {} against {}",
                    a.line,
                    player_name(&a.black, "Black"),
                    player_name(&a.white, "White")
                ),
                svg: svg(std::slice::from_ref(a))?,
                summaries,
                moves: &a.moves,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    #[derive(Serialize)]
    struct Page<'a> {
        games: Vec<PageGame<'a>>,
        mistake: f64,
        blunder: f64,
        depth: u32,
        exact_empties: u32,
    }
    let page = Page {
        games,
        mistake: cfg.mistake,
        blunder: cfg.blunder,
        depth: cfg.depth,
        exact_empties: cfg.exact_empties,
    };
    let mut env = minijinja::Environment::new();
    env.add_template("analysis", include_str!("analyze.html"))
        .map_err(|e| e.to_string())?;
    env.get_template("analysis")
        .and_then(|t| t.render(minijinja::value::Serde(&page)))
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analysed(colour: Color, loss: f64, mark: Option<Mark>) -> MoveAnalysis {
        MoveAnalysis {
            ply: 1,
            colour,
            empties: 30,
            played: "d3".into(),
            best: "c4".into(),
            best_score: 1.0,
            played_score: 1.0 - loss,
            loss,
            exact: false,
            mark,
        }
    }

    #[test]
    fn a_summary_counts_its_players_moves_only() {
        let moves = [
            analysed(Color::Black, 0.0, None),
            analysed(Color::Black, 3.0, Some(Mark::Mistake)),
            analysed(Color::Black, 9.0, Some(Mark::Blunder)),
            analysed(Color::Black, 0.0, None),
            analysed(Color::White, 1.5, None),
        ];
        let black = summary(&moves, Color::Black);
        assert_eq!(black.moves, 4);
        assert!((black.mean_loss - 3.0).abs() < 1e-12);
        assert_eq!((black.mistakes, black.blunders), (1, 1));
        assert!((black.best_share - 0.5).abs() < 1e-12);
        let white = summary(&moves, Color::White);
        assert_eq!((white.moves, white.mistakes, white.best_share), (1, 0, 0.0));
        assert_eq!(summary(&[], Color::White), Summary::default());
    }
}
