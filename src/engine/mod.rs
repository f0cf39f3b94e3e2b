//! The engine facade, the one door to a search: a long-lived search thread
//! that owns the current player (and with it the hash table), fed jobs
//! over a channel, and the time control ([`Clock`]) that turns clocks into
//! the search's limits.
//!
//! Front ends (the daemon, the lab programs, the referee's built-in
//! players) never search themselves: they ask [`Engine::choose`], which
//! waits for the answer or for the hard deadline, then stops the job and
//! takes what the player had, and always returns a legal move. A player
//! that dies (a panic) or does not answer within [`GRACE`] after its
//! deadline is replaced by a fresh one, and the move is then the greedy
//! one (logged as an error).

mod clock;

pub use crate::players::{
    Analysis, DEFAULT_HASH_MB, Decision, MAX_HASH_MB, MAX_THREADS, MoveScore,
};
pub use clock::Clock;

use crate::players::{self, Evaluation, Greedy, Player, UnknownPlayer};
use crate::rules::{Move, Position};
use crate::search::Limits;
use crossbeam_channel::{Receiver, Sender, after, never, select, unbounded};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long after the hard deadline a stopped search may still take to
/// hand back its move before the engine gives up on it.
pub const GRACE: Duration = Duration::from_millis(40);

/// How long a change between searches (a new game's cleared table, a new
/// table of up to [`MAX_HASH_MB`]) may take before the player is taken
/// for stuck.
const SETTLE_LIMIT: Duration = Duration::from_secs(30);

/// A position to think about.
struct Task {
    ticket: u64,
    position: Position,
    limits: Limits,
}

/// Work for the search thread.
enum Job {
    Choose(Box<Task>),
    /// With `true`, the best move alone ([`Player::analyse_best`]).
    Analyse(Box<Task>, bool),
    Evaluate(Box<Task>),
    /// A change of the player's state between searches; its ticket comes
    /// back as [`Reply::Ready`] once done.
    Settle(u64, Setting),
}

/// What [`Job::Settle`] changes.
enum Setting {
    NewGame,
    Hash(usize),
    Threads(usize),
}

/// What the player found for a task.
enum Reply {
    Move(Decision),
    /// A deeper analysis while the search goes on.
    Progress(Analysis),
    Analysis(Option<Analysis>),
    Evaluation(Option<Evaluation>),
    /// A [`Job::Settle`] is done.
    Ready,
}

/// The reply to the job with this ticket.
struct Answer {
    ticket: u64,
    reply: Reply,
}

/// The search thread and its channels. Dropping it ends the thread and
/// waits for it, so that no thread outlives its engine.
struct Worker {
    jobs: Option<Sender<Job>>,
    answers: Receiver<Answer>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Worker {
    fn drop(&mut self) {
        // With its channel closed the thread ends after its current job,
        // which is over: every job is waited for or stopped.
        self.jobs.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Worker {
    fn spawn(mut player: Box<dyn Player>) -> Worker {
        let (jobs, job_rx) = unbounded::<Job>();
        let (answer_tx, answers) = unbounded();
        let thread = thread::Builder::new()
            .name(format!("search-{}", player.name()))
            .spawn(move || {
                for job in job_rx {
                    match job {
                        Job::Choose(task) => {
                            let reply = Reply::Move(player.decide(&task.position, &task.limits));
                            let ticket = task.ticket;
                            if answer_tx.send(Answer { ticket, reply }).is_err() {
                                break;
                            }
                        }
                        Job::Analyse(task, best_only) => {
                            let ticket = task.ticket;
                            let mut progress = |a: &Analysis| {
                                let reply = Reply::Progress(a.clone());
                                let _ = answer_tx.send(Answer { ticket, reply });
                            };
                            let (position, limits) = (&task.position, &task.limits);
                            let reply = Reply::Analysis(if best_only {
                                player.analyse_best(position, limits)
                            } else {
                                player.analyse(position, limits, &mut progress)
                            });
                            if answer_tx.send(Answer { ticket, reply }).is_err() {
                                break;
                            }
                        }
                        Job::Evaluate(task) => {
                            let reply = Reply::Evaluation(player.evaluate(&task.position));
                            let ticket = task.ticket;
                            if answer_tx.send(Answer { ticket, reply }).is_err() {
                                break;
                            }
                        }
                        Job::Settle(ticket, setting) => {
                            match setting {
                                Setting::NewGame => player.new_game(),
                                Setting::Hash(mb) => player.set_hash_mb(mb),
                                Setting::Threads(n) => player.set_threads(n),
                            }
                            let reply = Reply::Ready;
                            if answer_tx.send(Answer { ticket, reply }).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .expect("spawn the search thread");
        Worker {
            jobs: Some(jobs),
            answers,
            thread: Some(thread),
        }
    }

    /// Leaves a thread that does not answer to end on its own (it was
    /// told to stop), rather than waiting for it.
    fn abandon(&mut self) {
        self.thread.take();
    }
}

/// The player of a daemon until the user picks another.
pub const DEFAULT_PLAYER: &str = "strong";
/// A daemon's time per move until the user sets one or a clock.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_millis(1000);

/// What a player may use: its hash table's size and its search threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resources {
    pub hash_mb: usize,
    pub threads: usize,
}

impl Default for Resources {
    /// One thread: two engines in a match on a shared machine each get a
    /// core, and a search's node counts (and so its moves at a fixed
    /// depth) are reproducible.
    fn default() -> Self {
        Resources {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
        }
    }
}

/// How a front end sets up its engine: what a GUI that only runs a
/// command line can choose (`reversi gtp --player ... --movetime ...`).
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub player: String,
    pub resources: Resources,
    /// A chosen time per move; `None` leaves the default, which does not
    /// cut a player whose own depth defines its answer.
    pub move_time: Option<Duration>,
    /// A depth limit for every search.
    pub depth: Option<u32>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            player: DEFAULT_PLAYER.into(),
            resources: Resources::default(),
            move_time: None,
            depth: None,
        }
    }
}

impl Options {
    /// The time per move these options give.
    pub fn clock(&self) -> Clock {
        match self.move_time {
            Some(t) => Clock::per_move(t),
            None => Clock::by_default(DEFAULT_MOVE_TIME),
        }
    }

    /// The engine these options describe, told of a new game, so that the
    /// front end that asks for it before reading its first line has the
    /// evaluation loaded outside any move's time. Loaded in the first
    /// `genmove` instead, it took all of a 200 ms move on a busy machine
    /// (four other processes on two cores): the search started past its
    /// deadline and the reply was the greedy fallback.
    pub fn engine(&self) -> Result<Engine, UnknownPlayer> {
        let mut engine = Engine::new(&self.player, self.resources)?;
        engine.new_game();
        Ok(engine)
    }
}

/// A player asked to play a board size it does not play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{player} does not play {n}x{n} boards")]
pub struct UnsupportedSize {
    pub player: String,
    pub n: usize,
}

/// Why [`Engine::analyse`] has no analysis to give.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoAnalysis {
    /// The player does not search (all but `strong`).
    #[error("{0} does not analyse positions")]
    Unsupported(String),
    /// The player did not answer by its deadline and was restarted.
    #[error("{0} gave no analysis in time and was restarted")]
    NoAnswer(String),
}

/// The engine: a named player running on its own thread.
pub struct Engine {
    worker: Worker,
    player: String,
    /// Which board sides the player plays (index n).
    sizes: [bool; crate::rules::MAX_SIZE + 1],
    depth_defined: bool,
    resources: Resources,
    next_ticket: u64,
}

impl Engine {
    /// An engine running the player called `player` with `resources`.
    pub fn new(player: &str, resources: Resources) -> Result<Engine, UnknownPlayer> {
        Ok(Engine::running(players::build(player)?, player, resources))
    }

    /// An engine running `built` (the player called `player`).
    fn running(mut built: Box<dyn Player>, player: &str, resources: Resources) -> Engine {
        built.set_hash_mb(resources.hash_mb);
        built.set_threads(resources.threads);
        let sizes = std::array::from_fn(|n| built.supports(n));
        let depth_defined = built.depth_defined();
        Engine {
            worker: Worker::spawn(built),
            player: player.to_string(),
            sizes,
            depth_defined,
            resources,
            next_ticket: 0,
        }
    }

    /// The current player's name.
    pub fn player(&self) -> &str {
        &self.player
    }

    /// Whether the player plays n x n boards.
    pub fn supports(&self, n: usize) -> bool {
        self.sizes.get(n).copied().unwrap_or(false)
    }

    /// Whether the player's own depth defines its answer (see
    /// [`Player::depth_defined`]).
    pub fn depth_defined(&self) -> bool {
        self.depth_defined
    }

    /// The hash table size and threads the player was given.
    pub fn resources(&self) -> Resources {
        self.resources
    }

    /// Tells the player a new game starts, and returns once it is ready
    /// (its table cleared, its evaluation loaded).
    pub fn new_game(&mut self) {
        self.settle(Setting::NewGame);
    }

    /// Resizes the player's hash table.
    pub fn set_hash_mb(&mut self, megabytes: usize) {
        self.resources.hash_mb = megabytes;
        self.settle(Setting::Hash(megabytes));
    }

    /// Sets the player's search threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.resources.threads = threads;
        self.settle(Setting::Threads(threads));
    }

    /// Applies `setting` on the search thread and waits until it is done,
    /// so that its cost is never charged to the next move's clock: a
    /// clear of the table and the first load of the evaluation (some
    /// 100 ms on a busy machine) once ran into the first move of a match
    /// and past its deadline, and the move was the greedy one. A player
    /// that does not finish within [`SETTLE_LIMIT`] is restarted.
    fn settle(&mut self, setting: Setting) {
        self.next_ticket += 1;
        let ticket = self.next_ticket;
        if !self.send(Job::Settle(ticket, setting)) {
            // The fresh player starts in the state asked for.
            return;
        }
        let limit = after(SETTLE_LIMIT);
        loop {
            select! {
                recv(self.worker.answers) -> answer => match answer {
                    Ok(a) if a.ticket == ticket => return,
                    Ok(_) => continue, // a late answer to an abandoned job
                    Err(_) => break,
                },
                recv(limit) -> _ => break,
            }
        }
        self.restart();
    }

    /// Sends `job` to the search thread; a dead thread is replaced by a
    /// fresh player and the job dropped (false).
    fn send(&mut self, job: Job) -> bool {
        let sent = self
            .worker
            .jobs
            .as_ref()
            .is_some_and(|j| j.send(job).is_ok());
        if !sent {
            self.restart();
        }
        sent
    }

    /// Replaces a dead or stuck player by a fresh one of the same name.
    fn restart(&mut self) {
        log::error!(
            "the {} player stopped answering; restarting it",
            self.player
        );
        if let Ok(fresh) = Engine::new(&self.player, self.resources) {
            let ticket = self.next_ticket;
            self.worker.abandon();
            *self = fresh;
            self.next_ticket = ticket;
        }
    }

    /// Refuses a board size the player does not play.
    pub fn check_size(&self, n: usize) -> Result<(), UnsupportedSize> {
        if self.supports(n) {
            Ok(())
        } else {
            Err(UnsupportedSize {
                player: self.player.clone(),
                n,
            })
        }
    }

    /// The player's legal move (or pass) for the side to move in
    /// `position` within `limits` (see [`Engine::decide`]).
    pub fn choose(&mut self, position: &Position, limits: Limits) -> Move {
        self.decide(position, limits).mv
    }

    /// The player's legal move (or pass) for the side to move in
    /// `position` within `limits`, with its score if it has one. At the
    /// hard deadline the job's stop token is raised; if no answer comes
    /// within [`GRACE`] after that (or the player died, or answered an
    /// illegal move), the player is restarted and the greedy move is the
    /// answer.
    pub fn decide(&mut self, position: &Position, limits: Limits) -> Decision {
        match self.ask(position, limits, Job::Choose, &mut |_| {}) {
            Some(Reply::Move(d)) if position.play(d.mv).is_ok() => d,
            answer => {
                log::error!(
                    "{} gave no legal move ({}); playing greedy",
                    self.player,
                    match answer {
                        Some(Reply::Move(d)) => format!("{} is illegal", d.mv),
                        _ => "no answer".into(),
                    }
                );
                if answer.is_some() {
                    self.restart();
                }
                Decision {
                    mv: Greedy.choose(position, &Limits::unlimited()),
                    score: None,
                    nodes: 0,
                }
            }
        }
    }

    /// The score of every legal move, as [`Engine::decide`] but for
    /// [`Player::analyse`], or with `best_only` the best move's alone
    /// ([`Player::analyse_best`]). `progress` sees each deeper analysis
    /// as the search finds it.
    pub fn analyse(
        &mut self,
        position: &Position,
        limits: Limits,
        best_only: bool,
        progress: &mut dyn FnMut(&Analysis),
    ) -> Result<Analysis, NoAnalysis> {
        let job = move |task| Job::Analyse(task, best_only);
        match self.ask(position, limits, job, progress) {
            Some(Reply::Analysis(Some(a))) => Ok(a),
            Some(Reply::Analysis(None)) => Err(NoAnalysis::Unsupported(self.player.clone())),
            _ => Err(NoAnalysis::NoAnswer(self.player.clone())),
        }
    }

    /// The player's static evaluation of `position` (see
    /// [`Player::evaluate`]); `None` when it has none.
    pub fn evaluate(&mut self, position: &Position) -> Option<Evaluation> {
        match self.ask(position, Limits::unlimited(), Job::Evaluate, &mut |_| {})? {
            Reply::Evaluation(e) => e,
            _ => None,
        }
    }

    fn ask(
        &mut self,
        position: &Position,
        limits: Limits,
        job: impl FnOnce(Box<Task>) -> Job,
        progress: &mut dyn FnMut(&Analysis),
    ) -> Option<Reply> {
        self.next_ticket += 1;
        let ticket = self.next_ticket;
        let stop = limits.stop.clone();
        let deadline = limits.hard;
        let task = Box::new(Task {
            ticket,
            position: *position,
            limits,
        });
        self.send(job(task));
        let timeout = match deadline {
            Some(d) => after(d.saturating_duration_since(Instant::now())),
            None => never(),
        };
        let mut grace = never();
        loop {
            select! {
                recv(self.worker.answers) -> answer => match answer {
                    Ok(Answer { ticket: t, reply: Reply::Progress(a) }) => {
                        if t == ticket {
                            progress(&a);
                        }
                    }
                    Ok(a) if a.ticket == ticket => return Some(a.reply),
                    Ok(_) => continue, // a late answer to an abandoned job
                    Err(_) => break,
                },
                recv(timeout) -> _ => {
                    stop.stop();
                    grace = after(GRACE);
                },
                recv(grace) -> _ => break,
            }
        }
        self.restart();
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A player whose new game takes a while to set up, as a large table's
    /// clear does, and that counts its nodes (the greedy stand-in has none).
    struct SlowStart;

    const SET_UP: Duration = Duration::from_millis(300);

    impl Player for SlowStart {
        fn name(&self) -> String {
            "slow-start".into()
        }
        fn choose(&mut self, pos: &Position, _limits: &Limits) -> Move {
            Move::Place(pos.legal_moves(pos.to_move())[0])
        }
        fn decide(&mut self, pos: &Position, limits: &Limits) -> Decision {
            Decision {
                mv: self.choose(pos, limits),
                score: None,
                nodes: 7,
            }
        }
        fn new_game(&mut self) {
            thread::sleep(SET_UP);
        }
    }

    #[test]
    fn a_new_game_is_set_up_before_the_next_move_is_timed() {
        let mut engine = Engine::running(Box::new(SlowStart), "slow-start", Resources::default());
        let start = Instant::now();
        engine.new_game();
        assert!(
            start.elapsed() >= SET_UP,
            "new_game returned before the set-up"
        );
        // A move with less time than the set-up took is the player's own,
        // not the greedy stand-in of a player that missed its deadline.
        let pos = Position::start(8).unwrap();
        let limits = Limits::unlimited().with_budget_from(
            Instant::now(),
            Duration::from_millis(50),
            Duration::from_millis(50),
        );
        let decision = engine.decide(&pos, limits);
        assert_eq!(decision.nodes, 7);
        assert_eq!(decision.mv, Move::Place(pos.legal_moves(pos.to_move())[0]));
    }

    /// A player that analyses but ignores its stop, far past any grace.
    struct Deaf;

    impl Player for Deaf {
        fn name(&self) -> String {
            "deaf".into()
        }
        fn choose(&mut self, pos: &Position, _limits: &Limits) -> Move {
            Move::Place(pos.legal_moves(pos.to_move())[0])
        }
        fn analyse(
            &mut self,
            _pos: &Position,
            _limits: &Limits,
            _report: &mut dyn FnMut(&Analysis),
        ) -> Option<Analysis> {
            thread::sleep(Duration::from_secs(1));
            None
        }
    }

    #[test]
    fn an_analysis_says_whether_the_player_has_none_or_gave_none_in_time() {
        let pos = Position::start(8).unwrap();
        let limits = || {
            Limits::unlimited().with_budget_from(
                Instant::now(),
                Duration::from_millis(20),
                Duration::from_millis(20),
            )
        };
        let mut engine = Engine::running(Box::new(SlowStart), "slow-start", Resources::default());
        let none = engine.analyse(&pos, limits(), false, &mut |_| {});
        assert_eq!(
            none.unwrap_err().to_string(),
            "slow-start does not analyse positions"
        );
        let mut engine = Engine::running(Box::new(Deaf), "deaf", Resources::default());
        let late = engine.analyse(&pos, limits(), false, &mut |_| {});
        assert_eq!(
            late.unwrap_err().to_string(),
            "deaf gave no analysis in time and was restarted"
        );
    }
}
