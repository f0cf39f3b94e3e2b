//! Matches and round-robin tournaments between contestants: openings,
//! alternating colours, every move checked by our own rules core, forfeits
//! for illegal, unreadable or late moves and for engines that die, and the
//! tables that summarise it all.

use super::contestant::{Contestant, Forfeit, GameEnd, GameStart, MoveTime, MoveTook, TimeControl};
use super::records::{Ending, GameRecord};
use super::sprt::{Pentanomial, Sprt};
use crate::openings::Openings;
use crate::rules::{Color, Game, Move, Position};
use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// The settings of a match or tournament.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub size: usize,
    /// Games per pairing (colours alternate, each opening played twice).
    pub games: usize,
    pub time: TimeControl,
    /// Players' own time controls, by their number (`None`: [`Self::time`]):
    /// an engine developer gives two engines different times to measure
    /// what time is worth.
    pub player_times: Vec<Option<TimeControl>>,
    /// Allowed lateness before a move is forfeited.
    pub margin: Duration,
    pub openings: Openings,
    /// Plies after the opening before the game is stopped and scored by
    /// discs (the COMP24011 automarker plays 20); `None` plays to the end.
    pub max_plies: Option<usize>,
    pub seed: u64,
    /// The midgame depth NBoard engines are given (`set depth`).
    pub nboard_depth: u32,
    /// Search threads of each built-in player.
    pub threads: usize,
    /// Games played at once, each worker with its own contestants (no
    /// part of the match's identity: a run may go on with another).
    pub concurrency: usize,
    /// The test that stops a two-player match once it has decided.
    pub sprt: Option<Sprt>,
    /// Whether Lab 8 programs' moves are judged on their CPU time (with a
    /// wall-clock cap), not their wall time.
    pub lab8_cpu: bool,
}

/// How one game ended.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub record: GameRecord,
    /// Black's score in discs (empty squares to the winner at the end).
    pub black_discs: i32,
    /// Who forfeited, and why.
    pub forfeit: Option<(Color, Forfeit)>,
    /// Total thinking time of each side, and its number of moves.
    pub time: [(Duration, usize); 2],
    pub max_time: [Duration; 2],
    /// Total and largest CPU time of each side whose moves were judged on
    /// it.
    pub cpu: [Option<CpuTime>; 2],
}

/// A side's CPU time in a game, where its moves were judged on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CpuTime {
    pub total: Duration,
    pub max: Duration,
}

impl CpuTime {
    /// Adds a move's CPU time.
    fn add(&mut self, took: Duration) {
        self.total += took;
        self.max = self.max.max(took);
    }

    /// Adds `other`'s total and largest move to `into`, if there is one.
    fn merge_into(into: &mut Option<CpuTime>, other: Option<CpuTime>) {
        if let Some(c) = other {
            let mine = into.get_or_insert_default();
            mine.total += c.total;
            mine.max = mine.max.max(c.max);
        }
    }
}

impl Outcome {
    /// +1 if Black won, -1 if White won, 0 for a draw.
    pub fn winner(&self) -> i32 {
        match &self.forfeit {
            Some((Color::Black, _)) => -1,
            Some((Color::White, _)) => 1,
            None => self.black_discs.signum(),
        }
    }
}

fn index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// Which game of a match: its pairing's number and its own in the pairing
/// (games 2k and 2k+1 share opening k).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameId {
    pub pairing: usize,
    pub game: usize,
}

impl GameId {
    /// As file names give it: `p0-g3`.
    pub fn label(&self) -> String {
        format!("p{}-g{}", self.pairing, self.game)
    }

    /// One number for the game in the whole match.
    pub fn number(&self) -> u64 {
        ((self.pairing as u64) << 32) | self.game as u64
    }
}

/// Each side's clock in one game: its time control, what is left of a
/// game clock, and the time its moves took.
struct Clocks {
    controls: [TimeControl; 2],
    left: [Duration; 2],
    time: [(Duration, usize); 2],
    max_time: [Duration; 2],
    cpu: [Option<CpuTime>; 2],
}

impl Clocks {
    fn new(controls: [TimeControl; 2]) -> Clocks {
        Clocks {
            controls,
            left: controls.map(|c| match c {
                TimeControl::PerGame { main, .. } => main,
                TimeControl::PerMove(_) => Duration::ZERO,
            }),
            time: [(Duration::ZERO, 0); 2],
            max_time: [Duration::ZERO; 2],
            cpu: [None; 2],
        }
    }

    /// The time side `me`'s next move may take.
    fn budget(&self, me: usize) -> MoveTime {
        match self.controls[me] {
            TimeControl::PerMove(limit) => MoveTime::Fixed(limit),
            TimeControl::PerGame { increment, .. } => MoveTime::Clock {
                left: self.left[me],
                increment,
            },
        }
    }

    /// Charges side `me` a move that took `took` of `budget`; the move's
    /// increment comes as it starts.
    fn charge(&mut self, me: usize, budget: MoveTime, took: MoveTook) {
        let wall = took.wall;
        self.left[me] = (self.left[me] + budget.increment()).saturating_sub(wall);
        self.time[me].0 += wall;
        self.time[me].1 += 1;
        self.max_time[me] = self.max_time[me].max(wall);
        if let Some(cpu) = took.cpu {
            self.cpu[me].get_or_insert_default().add(cpu);
        }
    }
}

fn colour_of(i: usize) -> Color {
    if i == 0 { Color::Black } else { Color::White }
}

/// Tells both sides the game starts from `start` and `opening`, each on
/// its own time control; the first that cannot start forfeits.
fn start_sides(
    sides: &mut [&mut Contestant; 2],
    config: &MatchConfig,
    controls: [TimeControl; 2],
    (start, opening): (&Position, &[(Color, Move)]),
    id: GameId,
) -> Result<(), (Color, Forfeit)> {
    for (i, side) in sides.iter_mut().enumerate() {
        let start = GameStart {
            n: config.size,
            time: controls[i],
            start,
            opening,
            colour: colour_of(i),
            label: id.label(),
            number: id.number(),
        };
        side.start_game(&start).map_err(|f| (colour_of(i), f))?;
    }
    Ok(())
}

/// Tells both sides `colour`'s move `mv`, but the mover its own move.
fn tell_sides(
    sides: &mut [&mut Contestant; 2],
    colour: Color,
    mv: Move,
) -> Result<(), (Color, Forfeit)> {
    for (i, side) in sides.iter_mut().enumerate() {
        if i == index(colour) && mv != Move::Pass {
            continue;
        }
        side.tell(colour, mv).map_err(|f| (colour_of(i), f))?;
    }
    Ok(())
}

/// Plays one game; `players[0]` has Black.
pub fn play_game(players: [&mut Contestant; 2], config: &MatchConfig, id: GameId) -> Outcome {
    let [black, white] = players;
    let names = [black.name().to_string(), white.name().to_string()];
    let mut sides = [black, white];
    let (start, opening) = config
        .openings
        .of_pair(config.size, config.seed, id.game / 2);
    let mut game = Game::from_position(start);
    for &(c, m) in &opening {
        game.play(c, m).expect("opening moves are legal");
    }
    // Each ply's time, none for the opening's.
    let mut times = vec![None; opening.len()];
    let mut clocks = Clocks::new(sides.each_ref().map(|s| s.time().unwrap_or(config.time)));
    let mut forfeit =
        start_sides(&mut sides, config, clocks.controls, (&start, &opening), id).err();
    let mut plies = 0;
    while forfeit.is_none()
        && !game.position().is_game_over()
        && config.max_plies.is_none_or(|m| plies < m)
    {
        let color = game.position().to_move();
        let me = index(color);
        let mv = if game.position().has_moves(color) {
            let budget = clocks.budget(me);
            match sides[me].genmove(&game, color, budget, config.margin) {
                Ok((mv, took)) => {
                    clocks.charge(me, budget, took);
                    times.push(Some(took.wall));
                    mv
                }
                Err(f) => {
                    forfeit = Some((color, f));
                    break;
                }
            }
        } else {
            times.push(None);
            Move::Pass
        };
        game.play(color, mv)
            .expect("moves are checked before they are played");
        plies += 1;
        forfeit = tell_sides(&mut sides, color, mv).err();
    }
    if let Some((c, f)) = &forfeit
        && matches!(
            f,
            Forfeit::NoReply
                | Forfeit::Died(_)
                | Forfeit::Refused(_)
                | Forfeit::Flooded
                | Forfeit::Ended(_)
                | Forfeit::Rejected(_)
        )
    {
        sides[index(*c)].reset();
    }
    let end = *game.position();
    let played_out = (forfeit.is_none() && end.is_game_over())
        .then(|| end.count(Color::Black) as i32 - end.count(Color::White) as i32);
    for side in sides.iter_mut() {
        side.end_game(GameEnd { played_out });
    }
    let [black, white] = names;
    let record = GameRecord {
        black,
        white,
        start: *game.start(),
        moves: game.moves().collect(),
        times,
        end,
        time_control: clocks.controls.map(|c| c.record()),
        ending: match &forfeit {
            None => Ending::Played,
            Some((loser, f)) => Ending::Forfeit {
                loser: *loser,
                on_time: matches!(
                    f,
                    Forfeit::Late(_)
                        | Forfeit::LateCpu(_)
                        | Forfeit::NoReply
                        | Forfeit::Hung { .. }
                ),
            },
        },
        comment: forfeit.as_ref().map(|(c, f)| format!("{c} forfeits: {f}")),
    };
    let black_discs = record.black_score();
    Outcome {
        record,
        black_discs,
        forfeit,
        time: clocks.time,
        max_time: clocks.max_time,
        cpu: clocks.cpu,
    }
}

/// One player's results in one pairing.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Wins, draws, losses with Black and with White.
    pub wdl: [[usize; 3]; 2],
    pub disc_sum: i64,
    pub time: Duration,
    pub moves: usize,
    pub max_time: Duration,
    /// CPU time, where the moves were judged on it.
    pub cpu: Option<CpuTime>,
    /// Forfeits by kind.
    pub forfeits: Vec<(String, usize)>,
    /// Tournament points (win 2, loss 0, tie by share of time).
    pub points: f64,
}

impl Tally {
    pub fn games(&self) -> usize {
        self.wdl.iter().flatten().sum()
    }

    fn total(&self) -> [usize; 3] {
        [0, 1, 2].map(|k| self.wdl[0][k] + self.wdl[1][k])
    }

    /// Score share (win 1, draw 1/2) and the half-width of its 95%
    /// confidence interval.
    pub fn score(&self) -> (f64, f64) {
        let [w, d, l] = self.total();
        let n = (w + d + l) as f64;
        if n == 0.0 {
            return (0.0, 0.0);
        }
        let mean = (w as f64 + 0.5 * d as f64) / n;
        let var = (w as f64 * (1.0 - mean).powi(2)
            + d as f64 * (0.5 - mean).powi(2)
            + l as f64 * mean.powi(2))
            / n;
        (mean, 1.96 * (var / n).sqrt())
    }

    /// Adds the game `r` for the side that played `color`.
    fn add(&mut self, r: &GameResult, color: Color) {
        let (me, sign) = match color {
            Color::Black => (0, 1),
            Color::White => (1, -1),
        };
        let k = match r.winner() * sign {
            1 => 0,
            0 => 1,
            _ => 2,
        };
        self.wdl[me][k] += 1;
        self.disc_sum += (r.black_discs * sign) as i64;
        self.time += r.time[me].0;
        self.moves += r.time[me].1;
        self.max_time = self.max_time.max(r.max_time[me]);
        CpuTime::merge_into(&mut self.cpu, r.cpu[me]);
        let forfeit = r
            .forfeit
            .as_ref()
            .filter(|(c, _)| *c == color)
            .map(|(_, k)| k.as_str());
        if let Some(f) = forfeit {
            match self.forfeits.iter_mut().find(|(kind, _)| kind == f) {
                Some((_, c)) => *c += 1,
                None => self.forfeits.push((f.to_string(), 1)),
            }
        }
    }

    pub(crate) fn merge(&mut self, other: &Tally) {
        for c in 0..2 {
            for k in 0..3 {
                self.wdl[c][k] += other.wdl[c][k];
            }
        }
        self.disc_sum += other.disc_sum;
        self.time += other.time;
        self.moves += other.moves;
        self.max_time = self.max_time.max(other.max_time);
        CpuTime::merge_into(&mut self.cpu, other.cpu);
        self.points += other.points;
        for (kind, n) in &other.forfeits {
            match self.forfeits.iter_mut().find(|(k, _)| k == kind) {
                Some((_, c)) => *c += n,
                None => self.forfeits.push((kind.clone(), *n)),
            }
        }
    }
}

/// One game's result as the tables count it: what a shard of a match
/// writes and a merge reads back ([`GameResult::line`], [`GameResult::parse`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The pairing's number in the round robin's order (0 for a match).
    pub pairing: usize,
    /// The game's number in the pairing: its first player has Black in
    /// even games.
    pub game: usize,
    /// Black's score in discs (the whole board to the winner of a
    /// forfeit).
    pub black_discs: i32,
    /// Who forfeited, and the forfeit's kind.
    pub forfeit: Option<(Color, String)>,
    /// Total thinking time of each side (Black, White) and its moves.
    pub time: [(Duration, usize); 2],
    pub max_time: [Duration; 2],
    /// Each side's CPU time, where its moves were judged on it.
    pub cpu: [Option<CpuTime>; 2],
    /// How the forfeit came about, in full (`illegal move e5`, `late (1070
    /// ms of CPU)`, `program killed by signal 11 (SIGSEGV); its last
    /// lines: ...`).
    pub reason: Option<String>,
}

impl GameResult {
    fn from_outcome(pairing: usize, game: usize, o: &Outcome) -> GameResult {
        GameResult {
            pairing,
            game,
            black_discs: o.black_discs,
            forfeit: o.forfeit.as_ref().map(|(c, f)| (*c, f.kind().to_string())),
            time: o.time,
            max_time: o.max_time,
            cpu: o.cpu,
            reason: o.forfeit.as_ref().map(|(_, f)| one_line(&f.to_string())),
        }
    }

    /// +1 if Black won, -1 if White won, 0 for a draw.
    pub(super) fn winner(&self) -> i32 {
        match &self.forfeit {
            Some((Color::Black, _)) => -1,
            Some((Color::White, _)) => 1,
            None => self.black_discs.signum(),
        }
    }

    /// One line: `result <pairing> <game> <black discs> <forfeit colour or
    /// -> <forfeit kind or -> <black µs> <black moves> <black max µs>
    /// <white µs> <white moves> <white max µs>` (a kind's spaces as `_`),
    /// and where a side was judged on CPU time, `cpu <black µs> <black max
    /// µs> <white µs> <white max µs>` (`- -` for a side that was not); and
    /// for a forfeit, `why <the reason in full>` to the end of the line.
    pub fn line(&self) -> String {
        let (who, kind) = match &self.forfeit {
            Some((c, k)) => (c.name().to_string(), k.replace(' ', "_")),
            None => ("-".into(), "-".into()),
        };
        let side = |i: usize| {
            format!(
                "{} {} {}",
                self.time[i].0.as_micros(),
                self.time[i].1,
                self.max_time[i].as_micros()
            )
        };
        let cpu = match self.cpu {
            [None, None] => String::new(),
            sides => {
                let side = |c: Option<CpuTime>| match c {
                    Some(c) => format!("{} {}", c.total.as_micros(), c.max.as_micros()),
                    None => "- -".into(),
                };
                format!(" cpu {} {}", side(sides[0]), side(sides[1]))
            }
        };
        let why = self
            .reason
            .as_ref()
            .map(|r| format!(" why {r}"))
            .unwrap_or_default();
        format!(
            "result {} {} {} {who} {kind} {} {}{cpu}{why}",
            self.pairing,
            self.game,
            self.black_discs,
            side(0),
            side(1)
        )
    }

    /// Reads a [`GameResult::line`].
    pub fn parse(line: &str) -> Option<GameResult> {
        let (line, reason) = match line.split_once(" why ") {
            Some((fields, why)) => (fields, Some(why.to_string())),
            None => (line, None),
        };
        let w: Vec<&str> = line.split_whitespace().collect();
        if !(w.len() == 12 || w.len() == 17 && w[12] == "cpu") || w[0] != "result" {
            return None;
        }
        let us = |s: &str| s.parse::<u64>().ok().map(Duration::from_micros);
        let cpu_side = |total: &str, max: &str| -> Option<Option<CpuTime>> {
            match (total, max) {
                ("-", "-") => Some(None),
                _ => Some(Some(CpuTime {
                    total: us(total)?,
                    max: us(max)?,
                })),
            }
        };
        let cpu = match w.get(13..17) {
            Some(c) => [cpu_side(c[0], c[1])?, cpu_side(c[2], c[3])?],
            None => [None, None],
        };
        let forfeit = match (w[4], w[5]) {
            ("-", "-") => None,
            (c, k) => Some((Color::parse(c)?, k.replace('_', " "))),
        };
        Some(GameResult {
            pairing: w[1].parse().ok()?,
            game: w[2].parse().ok()?,
            black_discs: w[3].parse().ok()?,
            forfeit,
            time: [
                (us(w[6])?, w[7].parse().ok()?),
                (us(w[9])?, w[10].parse().ok()?),
            ],
            max_time: [us(w[8])?, us(w[11])?],
            cpu,
            reason,
        })
    }
}

/// `text` on one line: its line breaks as ` / `.
fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join(" / ")
}

/// The two players' tallies of a pairing from its games' results (the
/// first player has Black in even games).
pub fn tally_pairing<'a>(results: impl IntoIterator<Item = &'a GameResult>) -> [Tally; 2] {
    let mut tallies = [Tally::default(), Tally::default()];
    for r in results {
        let a_black = r.game % 2 == 0;
        let winner = r.winner();
        let (a, b) = if a_black {
            (Color::Black, Color::White)
        } else {
            (Color::White, Color::Black)
        };
        tallies[0].add(r, a);
        tallies[1].add(r, b);
        // Lab 8 Part 3 points: a win 2, a loss 0, a tie split by time: CPU
        // time where both sides were judged on it, else wall time.
        let used = match r.cpu {
            [Some(b), Some(w)] => [b.total, w.total],
            _ => [r.time[0].0, r.time[1].0],
        };
        let (ta, tb) = if a_black {
            (used[0], used[1])
        } else {
            (used[1], used[0])
        };
        let a_result = if a_black { winner } else { -winner };
        match a_result {
            1 => tallies[0].points += 2.0,
            -1 => tallies[1].points += 2.0,
            _ => {
                let total = (ta + tb).as_secs_f64();
                let share = if total > 0.0 {
                    ta.as_secs_f64() / total
                } else {
                    0.5
                };
                tallies[0].points += 1.0 - share;
                tallies[1].points += share;
            }
        }
    }
    tallies
}

fn elo(score: f64) -> String {
    if score <= 0.0 {
        "-inf".into()
    } else if score >= 1.0 {
        "+inf".into()
    } else {
        let e = (-400.0 * (1.0 / score - 1.0).log10()).round();
        if e == 0.0 {
            "0".into()
        } else {
            format!("{e:+.0}")
        }
    }
}

/// The table of a two-player match, from the first player's view for the
/// Elo and score columns.
pub fn match_table(names: [&str; 2], tallies: &[Tally; 2]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<24} {:>5} {:>11} {:>11} {:>11} {:>9} {:>15} {:>7} {:>9} {:>9}  forfeits",
        "player",
        "games",
        "W-D-L black",
        "W-D-L white",
        "W-D-L",
        "discs +/-",
        "score (95% CI)",
        "Elo",
        "mean ms",
        "max ms"
    );
    for (name, t) in names.iter().zip(tallies) {
        let wdl = |a: [usize; 3]| format!("{}-{}-{}", a[0], a[1], a[2]);
        let (score, ci) = t.score();
        let forfeits = if t.forfeits.is_empty() {
            "-".to_string()
        } else {
            t.forfeits
                .iter()
                .map(|(k, n)| format!("{n} {k}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(
            out,
            "{:<24} {:>5} {:>11} {:>11} {:>11} {:>+9.1} {:>8.1}% ±{:>4.1} {:>7} {:>9.1} {:>9.1}  {}",
            name,
            t.games(),
            wdl(t.wdl[0]),
            wdl(t.wdl[1]),
            wdl(t.total()),
            t.disc_sum as f64 / t.games().max(1) as f64,
            score * 100.0,
            ci * 100.0,
            elo(score),
            t.time.as_secs_f64() * 1000.0 / t.moves.max(1) as f64,
            t.max_time.as_secs_f64() * 1000.0,
            forfeits
        );
    }
    out
}

/// A round robin's pairings, in order: every pair (i, j) with i < j.
pub fn pairings(players: usize) -> Vec<(usize, usize)> {
    (0..players)
        .flat_map(|i| (i + 1..players).map(move |j| (i, j)))
        .collect()
}

/// Plays the game `id` of the pairing `(i, j)` among `players` (player i
/// has Black in even games).
fn play_job(
    players: &mut [Contestant],
    (i, j): (usize, usize),
    config: &MatchConfig,
    id: GameId,
) -> Outcome {
    let (left, right) = players.split_at_mut(j);
    let (a, b) = (&mut left[i], &mut right[0]);
    if id.game.is_multiple_of(2) {
        play_game([a, b], config, id)
    } else {
        play_game([b, a], config, id)
    }
}

/// Plays the games `jobs` ((pairing, game) pairs, in that order) of the
/// pairings `pairs` (`(i, j)`, i < j: player i has Black in even games)
/// on `concurrency` workers at once, each with its own contestants from
/// `players`, and returns their results as they end. `on_game` sees each
/// outcome and its result as it ends, and stops the match by breaking:
/// no game starts after that, and those under way are played out but
/// neither seen nor returned. A game's course depends on its number and the seed alone, never
/// on which worker plays it or what it played before.
pub fn play_jobs<E: Send>(
    players: &(dyn Fn() -> Result<Vec<Contestant>, E> + Sync),
    pairs: &[(usize, usize)],
    config: &MatchConfig,
    jobs: &[(usize, usize)],
    concurrency: usize,
    mut on_game: impl FnMut(&Outcome, &GameResult) -> ControlFlow<()>,
) -> Result<Vec<GameResult>, E> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // Plays jobs on `contestants` until none is left, a stop, or `sink`
    // says to end.
    let work = |contestants: &mut [Contestant],
                sink: &mut dyn FnMut(Outcome, GameResult) -> bool| {
        while !stop.load(Ordering::SeqCst) {
            let Some(&(pairing, game)) = jobs.get(next.fetch_add(1, Ordering::SeqCst)) else {
                break;
            };
            let id = GameId { pairing, game };
            let outcome = play_job(contestants, pairs[pairing], config, id);
            let result = GameResult::from_outcome(pairing, game, &outcome);
            if !sink(outcome, result) {
                break;
            }
        }
        for c in contestants.iter_mut() {
            c.finish();
        }
    };
    let mut results = Vec::new();
    let mut see = |o: &Outcome, r: GameResult| {
        // A game that ends after the stop is not seen: the match ends
        // where it was stopped, as its results say.
        if stop.load(Ordering::SeqCst) {
            return;
        }
        let flow = on_game(o, &r);
        results.push(r);
        if flow.is_break() {
            stop.store(true, Ordering::SeqCst);
        }
    };
    if concurrency <= 1 {
        let mut contestants = players()?;
        work(&mut contestants, &mut |o, r| {
            see(&o, r);
            true
        });
        return Ok(results);
    }
    let (tx, rx) = crossbeam_channel::unbounded::<Result<(Outcome, GameResult), E>>();
    let mut failed = None;
    std::thread::scope(|scope| {
        for _ in 0..concurrency.min(jobs.len()) {
            let tx = tx.clone();
            let work = &work;
            scope.spawn(move || match players() {
                Ok(mut contestants) => {
                    work(&mut contestants, &mut |o, r| tx.send(Ok((o, r))).is_ok());
                }
                Err(e) => {
                    let _ = tx.send(Err(e));
                }
            });
        }
        drop(tx);
        for message in rx {
            match message {
                Ok((o, r)) => see(&o, r),
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    failed.get_or_insert(e);
                }
            }
        }
    });
    match failed {
        Some(e) => Err(e),
        None => Ok(results),
    }
}

/// The tables of `names`' games `results` in the pairings `pairs`: a
/// match's table for a single pairing; for more, each pairing's table and
/// the leaderboard by Lab 8 Part 3 points.
pub fn tables(names: &[String], pairs: &[(usize, usize)], results: &[GameResult]) -> String {
    let tallies: Vec<[Tally; 2]> = (0..pairs.len())
        .map(|k| tally_pairing(results.iter().filter(|r| r.pairing == k)))
        .collect();
    // A pairing's table, and its pairs of games when it has any.
    let table = |k: usize| {
        let (i, j) = pairs[k];
        let mut text = match_table([&names[i], &names[j]], &tallies[k]);
        let played = Pentanomial::of(results.iter().filter(|r| r.pairing == k));
        if played.pairs() > 0 {
            let _ = writeln!(text, "{}, for {}", played, names[i]);
        }
        text
    };
    if pairs.len() == 1 {
        return table(0);
    }
    let mut totals = vec![Tally::default(); names.len()];
    let mut text = String::new();
    for (k, (&(i, j), t)) in pairs.iter().zip(&tallies).enumerate() {
        text.push_str(&table(k));
        text.push('\n');
        totals[i].merge(&t[0]);
        totals[j].merge(&t[1]);
    }
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&x, &y| totals[y].points.total_cmp(&totals[x].points));
    let _ = writeln!(
        text,
        "leaderboard (Lab 8 Part 3 points: win 2, loss 0, tie 0-1 by share of time used)"
    );
    let _ = writeln!(
        text,
        "{:>4} {:<24} {:>8} {:>6} {:>11} {:>9} {:>9}  forfeits",
        "rank", "player", "points", "games", "W-D-L", "discs +/-", "mean ms"
    );
    for (rank, &i) in order.iter().enumerate() {
        let t = &totals[i];
        let [w, d, l] = t.total();
        let forfeits: usize = t.forfeits.iter().map(|(_, n)| n).sum();
        let _ = writeln!(
            text,
            "{:>4} {:<24} {:>8.2} {:>6} {:>11} {:>+9.1} {:>9.1}  {}",
            rank + 1,
            names[i],
            t.points,
            t.games(),
            format!("{w}-{d}-{l}"),
            t.disc_sum as f64 / t.games().max(1) as f64,
            t.time.as_secs_f64() * 1000.0 / t.moves.max(1) as f64,
            forfeits
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Resources;

    #[test]
    fn scores_and_elo() {
        let t = Tally {
            wdl: [[3, 1, 0], [2, 1, 1]],
            ..Tally::default()
        };
        let (s, ci) = t.score();
        assert!((s - 0.75).abs() < 1e-9);
        assert!(ci > 0.0 && ci < 0.5);
        assert_eq!(elo(0.75), "+191");
        assert_eq!(elo(1.0), "+inf");
    }

    #[test]
    fn results_keep_cpu_times_and_ties_split_by_them() {
        let ms = Duration::from_millis;
        let cpu = |total, max| {
            Some(CpuTime {
                total: ms(total),
                max: ms(max),
            })
        };
        // A draw: Black used 300 ms of CPU (900 ms of wall time), White
        // 100 ms (100 ms).
        let r = GameResult {
            pairing: 3,
            game: 0,
            black_discs: 0,
            forfeit: None,
            time: [(ms(900), 10), (ms(100), 10)],
            max_time: [ms(400), ms(20)],
            cpu: [cpu(300, 60), cpu(100, 20)],
            reason: None,
        };
        let line = r.line();
        assert!(line.ends_with(" cpu 300000 60000 100000 20000"), "{line}");
        assert_eq!(GameResult::parse(&line), Some(r.clone()));
        // A forfeit's reason in full, to the end of the line.
        let late = GameResult {
            forfeit: Some((Color::White, "late".into())),
            reason: Some("late (1070 ms of CPU)".into()),
            ..r.clone()
        };
        assert!(late.line().ends_with(" why late (1070 ms of CPU)"));
        assert_eq!(GameResult::parse(&late.line()), Some(late));
        // Version 2's lines, with no CPU times, still read.
        let v2 = "result 3 0 0 - - 900000 10 400000 100000 10 20000";
        assert_eq!(GameResult::parse(v2).unwrap().cpu, [None, None]);
        // The tie is split by CPU time: Black gets 1 - 3/4.
        let [black, white] = tally_pairing([&r]);
        assert!((black.points - 0.25).abs() < 1e-9, "{}", black.points);
        assert!((white.points - 0.75).abs() < 1e-9);
        assert_eq!(black.cpu, cpu(300, 60));
        // Without CPU times, by wall time: 1 - 9/10.
        let wall = GameResult {
            cpu: [None, None],
            ..r
        };
        assert!((tally_pairing([&wall])[0].points - 0.1).abs() < 1e-9);
    }

    #[test]
    fn built_in_players_play_a_whole_game_on_one_clock() {
        // How each move's share of the clock is set is contestant.rs's
        // test; here no wall time is judged (a loaded machine runs late),
        // so lateness has a margin that no scheduler delay reaches.
        let config = MatchConfig {
            size: 8,
            games: 1,
            time: TimeControl::PerGame {
                main: Duration::from_millis(600),
                increment: Duration::ZERO,
            },
            player_times: Vec::new(),
            margin: Duration::from_secs(600),
            openings: Openings::None,
            max_plies: None,
            seed: 1,
            nboard_depth: 60,
            threads: 1,
            concurrency: 1,
            sprt: None,
            lab8_cpu: false,
        };
        let mut a = Contestant::new("strong", 60, Resources::default()).unwrap();
        let mut b = Contestant::new("strong", 60, Resources::default()).unwrap();
        let outcome = play_game(
            [&mut a, &mut b],
            &config,
            GameId {
                pairing: 0,
                game: 0,
            },
        );
        assert!(outcome.forfeit.is_none(), "{:?}", outcome.forfeit);
        assert!(outcome.record.end.is_game_over());
        for (used, moves) in outcome.time {
            assert!(moves >= 20, "{moves} moves");
            assert!(used > Duration::ZERO);
        }
        assert_eq!(outcome.record.time_control, ["0.6", "0.6"]);
    }
}
