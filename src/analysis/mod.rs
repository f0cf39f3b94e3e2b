//! Game analysis: where each game was won and lost. Every move of a game
//! is compared with the best move of the position it was played in: the
//! best move's score, the played move's, and the loss between them in
//! discs, exact near the end. Mistakes and blunders are marked; each
//! player gets a summary, with the loss of each stretch of the game
//! (phases, by empty squares), and the players of many games their
//! totals ([`players`]).
//!
//! A position is searched by `strong` on one thread with a cleared table,
//! so that its analysis depends on nothing else: the positions of a game
//! are shared among the worker threads, and at a fixed depth the output
//! is the same for any number of them. The played move's score comes from
//! the same search as the best move's, with the other moves left out at
//! the root: the same depth (or time), or the same exact solve.
//!
//! The front ends only translate: `reversi analyze` ([`crate::tools::analyze`]
//! reads the games), GTP's `analyze_game`, the leaderboard's page.

pub mod picture;
pub mod report;

use crate::engine::{Engine, Resources};
use crate::rules::ggf::GgfGame;
use crate::rules::{Color, Game, Move, Position};
use crate::search::pattern::EvalKind;
use crate::search::{Limits, StopToken, in_discs};
use crate::shard::Shard;
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// How far each search looks outside the exact region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many plies: the same analysis on every run.
    Depth(u32),
    /// This long a search (the best move's, and the played move's again):
    /// deeper on a faster machine, and not the same on every run.
    Time(Duration),
}

/// The plies of a search outside the exact region, by default and at
/// most.
pub const DEFAULT_DEPTH: u32 = 10;
pub const MAX_DEPTH: u32 = 30;
/// From this many empties on 8x8 moves are solved exactly, by default:
/// the solver takes well under a second a move there.
pub const DEFAULT_EXACT_EMPTIES: u32 = 20;
/// The loss of a mistake and of a blunder, in discs, by default.
pub const DEFAULT_MISTAKE: f64 = 2.0;
pub const DEFAULT_BLUNDER: f64 = 6.0;

/// How games are analysed.
#[derive(Clone, Debug)]
pub struct AnalyzeConfig {
    pub budget: Budget,
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
    /// Where the phases end, in empty squares, largest first: with
    /// `[40, 20]` the phases hold the moves played with more than 40
    /// empties, with 40 to 21, and with 20 or fewer. Empty: the thirds
    /// of the game ([`thirds`]).
    pub phases: Vec<u32>,
    /// Raised to stop: the search under way ends, and the moves not
    /// analysed yet are left out.
    pub stop: StopToken,
}

impl Default for AnalyzeConfig {
    /// The defaults: [`DEFAULT_DEPTH`], one thread, every game.
    fn default() -> Self {
        AnalyzeConfig {
            budget: Budget::Depth(DEFAULT_DEPTH),
            exact_empties: DEFAULT_EXACT_EMPTIES,
            threads: 1,
            mistake: DEFAULT_MISTAKE,
            blunder: DEFAULT_BLUNDER,
            eval: EvalKind::default(),
            hash_mb: crate::engine::DEFAULT_HASH_MB,
            shard: Shard::ALL,
            phases: Vec::new(),
            stop: StopToken::new(),
        }
    }
}

/// The phase boundaries that split a game on an n x n board in thirds by
/// empty squares (8x8: 40 and 20).
pub fn thirds(n: usize) -> Vec<u32> {
    let moves = (n * n - 4) as u32;
    vec![moves * 2 / 3, moves / 3]
}

/// A game to analyse: its players (empty when the record has none), its
/// start and its plies, and where it came from (an input line, a label).
#[derive(Clone, Debug)]
pub struct InputGame {
    pub label: String,
    pub black: String,
    pub white: String,
    pub game: Game,
    /// Plies at the start that were set, not chosen (a match's opening):
    /// they are not analysed.
    pub opening: usize,
}

/// The opening of a match's record: its first plies without a time, when
/// others have one (`reversi match --records` writes the moves its
/// openings set with none, and each player's with its time).
pub fn opening_of(record: &GgfGame) -> usize {
    if record.plies.iter().all(|p| p.seconds.is_none()) {
        return 0;
    }
    record
        .plies
        .iter()
        .take_while(|p| p.seconds.is_none())
        .count()
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    Mistake,
    Blunder,
}

impl Mark {
    /// `mistake` or `blunder`, as the JSON gives it; empty for none.
    pub fn name(mark: Option<Mark>) -> &'static str {
        match mark {
            Some(Mark::Mistake) => "mistake",
            Some(Mark::Blunder) => "blunder",
            None => "",
        }
    }
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
    /// The move played and the best move (standard notation in JSON).
    #[serde(serialize_with = "move_name")]
    pub played: Move,
    #[serde(serialize_with = "move_name")]
    pub best: Move,
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

/// A move as JSON gives it: `"d3"`, `"pass"`.
fn move_name<S: serde::Serializer>(mv: &Move, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&mv.standard())
}

/// The moves of one stretch of a game: those played with `from` down to
/// `to` empty squares.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Phase {
    pub from: u32,
    pub to: u32,
    pub moves: usize,
    /// The discs those moves gave away, in all.
    pub loss: f64,
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
    /// The loss of each phase.
    pub phases: Vec<Phase>,
}

/// A game's analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameAnalysis {
    /// Where the game came from.
    pub label: String,
    pub black: String,
    pub white: String,
    pub size: usize,
    pub moves: Vec<MoveAnalysis>,
    pub black_summary: Summary,
    pub white_summary: Summary,
    /// The final disc difference for Black (empty squares to the
    /// winner), when the game was played to its end.
    pub result: Option<i32>,
    /// The exact value for Black of the first position solved (the
    /// result of perfect play from there), when one was.
    pub solved: Option<f64>,
    /// Every move was analysed (none was left out by a stop).
    pub complete: bool,
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
        .flat_map(|(game, p)| (mine[game].opening..p.len()).map(move |ply| Job { game, ply }))
        .filter(|j| {
            let (pos, _, mv) = &plies[j.game][j.ply];
            *mv != Move::Pass && pos.legal_moves(pos.to_move()).len() > 1
        })
        .collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    // No worker (and no engine's table) without a position to analyse.
    let workers = cfg.threads.max(1).min(jobs.len());
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
                    while !cfg.stop.is_raised() {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(k) else { break };
                        let (pos, colour, mv) = &plies[job.game][job.ply];
                        let analysed =
                            analyse_move(&mut engine, pos, *colour, *mv, job.ply + 1, cfg);
                        // A stopped search's scores are not the analysis's.
                        if cfg.stop.is_raised() {
                            break;
                        }
                        out.push((job.game, job.ply, analysed));
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
    let mut wanted = vec![0; mine.len()];
    for j in &jobs {
        wanted[j.game] += 1;
    }
    let mut analysed: Vec<Vec<MoveAnalysis>> = vec![Vec::new(); mine.len()];
    for (game, _, m) in results {
        analysed[game].push(m);
    }
    mine.iter()
        .zip(analysed)
        .zip(wanted)
        .map(|((g, moves), wanted)| {
            let size = g.game.start().size();
            let phases = if cfg.phases.is_empty() {
                thirds(size)
            } else {
                cfg.phases.clone()
            };
            GameAnalysis {
                label: g.label.clone(),
                black: g.black.clone(),
                white: g.white.clone(),
                size,
                black_summary: summary(&moves, Color::Black, size, &phases),
                white_summary: summary(&moves, Color::White, size, &phases),
                result: final_result(g.game.position()),
                solved: moves
                    .iter()
                    .find(|m| m.exact)
                    .map(|m| for_black(m.colour, m.best_score)),
                complete: moves.len() == wanted,
                moves,
            }
        })
        .collect()
}

/// A score for `colour` as Black sees it, or one for Black as `colour`
/// sees it: the sign changes for White.
pub fn for_black(colour: Color, score: f64) -> f64 {
    match colour {
        Color::Black => score,
        Color::White => -score,
    }
}

/// The final disc difference for Black of a finished game (empty squares
/// to the winner), `None` before the end.
fn final_result(pos: &Position) -> Option<i32> {
    pos.is_game_over().then(|| pos.black_margin())
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

/// The limits of a search of `pos`: an exact solve within the exact
/// region (8x8), else the budget.
fn limits_for(pos: &Position, cfg: &AnalyzeConfig) -> Limits {
    // A search may raise its own token (at its deadline): a child's.
    let unlimited = Limits {
        stop: cfg.stop.child(),
        ..Limits::unlimited()
    };
    if pos.size() == 8 && pos.empties() <= cfg.exact_empties {
        return unlimited;
    }
    match cfg.budget {
        Budget::Depth(plies) => Limits {
            depth: Some(plies.max(1)),
            ..unlimited
        },
        Budget::Time(t) => Limits {
            stop: unlimited.stop,
            ..Limits::movetime(t)
        },
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
        ..limits_for(pos, cfg)
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
    let decision = engine.decide(pos, limits_for(pos, cfg));
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
        played,
        best: decision.mv,
        best_score,
        played_score,
        loss,
        exact: best_exact && played_exact,
        mark,
    }
}

/// The empty phases of a game on an n x n board that `bounds` (largest
/// first) split.
fn empty_phases(n: usize, bounds: &[u32]) -> Vec<Phase> {
    let mut from = (n * n - 4) as u32;
    let mut phases = Vec::new();
    for &b in bounds.iter().filter(|&&b| b >= 1) {
        if b < from {
            phases.push(Phase {
                from,
                to: b + 1,
                ..Phase::default()
            });
            from = b;
        }
    }
    phases.push(Phase {
        from,
        to: 1,
        ..Phase::default()
    });
    phases
}

/// `colour`'s moves of `moves`, summed up, with the loss of each phase of
/// a game on an n x n board that `bounds` split.
pub fn summary(moves: &[MoveAnalysis], colour: Color, n: usize, bounds: &[u32]) -> Summary {
    let mine: Vec<&MoveAnalysis> = moves.iter().filter(|m| m.colour == colour).collect();
    let mut phases = empty_phases(n, bounds);
    for m in &mine {
        if let Some(p) = phases
            .iter_mut()
            .find(|p| (p.to..=p.from).contains(&m.empties))
        {
            p.moves += 1;
            p.loss += m.loss;
        }
    }
    let count = |mark| mine.iter().filter(|m| m.mark == Some(mark)).count();
    let moves = mine.len();
    let per_move = |x: f64| if moves == 0 { 0.0 } else { x / moves as f64 };
    Summary {
        moves,
        mean_loss: per_move(mine.iter().map(|m| m.loss).sum()),
        mistakes: count(Mark::Mistake),
        blunders: count(Mark::Blunder),
        best_share: per_move(mine.iter().filter(|m| m.loss == 0.0).count() as f64),
        phases,
    }
}

/// Wins, draws and losses of one player.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Record {
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// (wins + draws / 2) / games, 0 without games.
    pub score: f64,
}

impl Record {
    fn add(&mut self, value: f64) {
        match value.partial_cmp(&0.0) {
            Some(std::cmp::Ordering::Greater) => self.wins += 1,
            Some(std::cmp::Ordering::Less) => self.losses += 1,
            _ => self.draws += 1,
        }
        let games = (self.wins + self.draws + self.losses) as f64;
        self.score = (self.wins as f64 + self.draws as f64 / 2.0) / games;
    }
}

/// One player over all the games analysed: what a match's analysis says
/// of each side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerTotals {
    /// The record's name, or the colour of unnamed records.
    pub name: String,
    pub games: usize,
    /// The player's moves of every game, summed up (the phases' losses
    /// added over the games).
    pub summary: Summary,
    /// The results of its games played to the end.
    pub results: Record,
    /// Games that ended before the board was full or blocked (a
    /// forfeit, a stop).
    pub unfinished: usize,
    /// What perfect play from the first position solved of each game
    /// would have given it: how many games were solved, and their
    /// record.
    pub solved: Record,
}

/// `Black` or `White`.
pub fn colour_title(colour: Color) -> &'static str {
    match colour {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// The name a game's record gives `colour`'s player (empty if none).
pub fn name_in(a: &GameAnalysis, colour: Color) -> &str {
    match colour {
        Color::Black => &a.black,
        Color::White => &a.white,
    }
}

/// The name a game gives `colour`'s player: the record's, or the colour.
pub fn player_of(a: &GameAnalysis, colour: Color) -> String {
    match name_in(a, colour) {
        "" => colour_title(colour).to_string(),
        name => name.to_string(),
    }
}

/// Each player's totals over `analyses`, in the order they first play.
pub fn players(analyses: &[GameAnalysis]) -> Vec<PlayerTotals> {
    let mut totals: Vec<PlayerTotals> = Vec::new();
    for a in analyses {
        for (colour, s) in [
            (Color::Black, &a.black_summary),
            (Color::White, &a.white_summary),
        ] {
            let name = player_of(a, colour);
            let k = match totals.iter().position(|t| t.name == name) {
                Some(k) => k,
                None => {
                    totals.push(PlayerTotals {
                        name,
                        games: 0,
                        summary: Summary {
                            phases: s
                                .phases
                                .iter()
                                .map(|p| Phase {
                                    moves: 0,
                                    loss: 0.0,
                                    ..*p
                                })
                                .collect(),
                            ..Summary::default()
                        },
                        results: Record::default(),
                        unfinished: 0,
                        solved: Record::default(),
                    });
                    totals.len() - 1
                }
            };
            let t = &mut totals[k];
            t.games += 1;
            let sum = &mut t.summary;
            let moves = sum.moves + s.moves;
            let weighted = |a: f64, b: f64| {
                if moves == 0 {
                    0.0
                } else {
                    (a * sum.moves as f64 + b * s.moves as f64) / moves as f64
                }
            };
            sum.mean_loss = weighted(sum.mean_loss, s.mean_loss);
            sum.best_share = weighted(sum.best_share, s.best_share);
            sum.moves = moves;
            sum.mistakes += s.mistakes;
            sum.blunders += s.blunders;
            for (total, p) in sum.phases.iter_mut().zip(&s.phases) {
                total.moves += p.moves;
                total.loss += p.loss;
            }
            match a.result {
                Some(r) => t.results.add(for_black(colour, f64::from(r))),
                None => t.unfinished += 1,
            }
            if let Some(v) = a.solved {
                t.solved.add(for_black(colour, v));
            }
        }
    }
    totals
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analysed(colour: Color, empties: u32, loss: f64, mark: Option<Mark>) -> MoveAnalysis {
        MoveAnalysis {
            ply: 1,
            colour,
            empties,
            played: Move::Pass,
            best: Move::Pass,
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
            analysed(Color::Black, 50, 0.0, None),
            analysed(Color::Black, 40, 3.0, Some(Mark::Mistake)),
            analysed(Color::Black, 30, 9.0, Some(Mark::Blunder)),
            analysed(Color::Black, 20, 0.0, None),
            analysed(Color::White, 45, 1.5, None),
        ];
        let black = summary(&moves, Color::Black, 8, &[40, 20]);
        assert_eq!(black.moves, 4);
        assert!((black.mean_loss - 3.0).abs() < 1e-12);
        assert_eq!((black.mistakes, black.blunders), (1, 1));
        assert!((black.best_share - 0.5).abs() < 1e-12);
        // 60-41, 40-21, 20-1 empties: 50 | 40, 30 | 20.
        let phases: Vec<(u32, u32, usize, f64)> = black
            .phases
            .iter()
            .map(|p| (p.from, p.to, p.moves, p.loss))
            .collect();
        assert_eq!(
            phases,
            [(60, 41, 1, 0.0), (40, 21, 2, 12.0), (20, 1, 1, 0.0)]
        );
        let white = summary(&moves, Color::White, 8, &[40, 20]);
        assert_eq!((white.moves, white.mistakes, white.best_share), (1, 0, 0.0));
        assert_eq!(white.phases[0].loss, 1.5);
        let nobody = summary(&[], Color::White, 8, &[]);
        assert_eq!((nobody.moves, nobody.mean_loss), (0, 0.0));
        assert_eq!(nobody.phases.len(), 1);
    }

    #[test]
    fn phases_split_by_the_bounds_given() {
        let spans = |n, bounds: &[u32]| -> Vec<(u32, u32)> {
            empty_phases(n, bounds)
                .iter()
                .map(|p| (p.from, p.to))
                .collect()
        };
        assert_eq!(spans(8, &thirds(8)), [(60, 41), (40, 21), (20, 1)]);
        assert_eq!(
            spans(8, &[24, 22, 20]),
            [(60, 25), (24, 23), (22, 21), (20, 1)]
        );
        // Bounds beyond the game or at 0 add no empty phase.
        assert_eq!(spans(4, &[40, 6, 0]), [(12, 7), (6, 1)]);
        assert_eq!(thirds(4), [8, 4]);
    }

    fn game(black: &str, white: &str, result: Option<i32>, solved: Option<f64>) -> GameAnalysis {
        let moves = vec![
            analysed(Color::Black, 30, 2.0, Some(Mark::Mistake)),
            analysed(Color::White, 29, 0.0, None),
        ];
        GameAnalysis {
            label: "g".into(),
            black: black.into(),
            white: white.into(),
            size: 8,
            black_summary: summary(&moves, Color::Black, 8, &[40, 20]),
            white_summary: summary(&moves, Color::White, 8, &[40, 20]),
            moves,
            result,
            solved,
            complete: true,
        }
    }

    #[test]
    fn players_add_up_their_games_under_either_colour() {
        let games = [
            game("a", "b", Some(10), Some(4.0)),
            game("b", "a", Some(-2), Some(0.0)),
            game("a", "b", None, None),
        ];
        let totals = players(&games);
        let a = &totals[0];
        assert_eq!((a.name.as_str(), a.games), ("a", 3));
        // Its moves: mistakes as Black in games 1 and 3, best as White.
        assert_eq!((a.summary.moves, a.summary.mistakes), (3, 2));
        assert!((a.summary.mean_loss - 4.0 / 3.0).abs() < 1e-12);
        assert!((a.summary.best_share - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(a.summary.phases[1].loss, 4.0);
        assert_eq!((a.results.wins, a.results.losses, a.unfinished), (2, 0, 1));
        assert_eq!((a.solved.wins, a.solved.draws), (1, 1));
        assert!((a.solved.score - 0.75).abs() < 1e-12);
        let b = &totals[1];
        assert_eq!((b.results.losses, b.results.score), (2, 0.0));
        // Unnamed records: the colours are the players.
        let unnamed = players(&[game("", "", Some(0), None)]);
        assert_eq!(unnamed[0].name, "Black");
        assert_eq!(unnamed[1].results.draws, 1);
    }
}
