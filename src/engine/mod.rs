//! The engine facade, the one door to a search: a long-lived search thread
//! that owns the current player (and with it the hash table), fed jobs
//! over a channel, and the time control ([`Clock`]) that turns clocks into
//! the search's limits.
//!
//! Front ends (the daemon, the lab programs, the referee's built-in
//! players) never search themselves: they ask [`Engine::choose`], which
//! waits for the answer or for the hard deadline, then stops the job and
//! takes what the player had, and always returns a legal move.
//!
//! Slow is told apart from dead. A player that has not answered within
//! [`GRACE`] after its deadline is late (on a loaded machine its thread
//! may not have run): the move is the greedy one, and the player, its
//! table and its late answer are kept. Only a player that died (a panic)
//! or has stayed silent for [`STUCK_LIMIT`] is replaced by a fresh one.
//! The engine also keeps the lateness of recent answers, and moves later
//! deadlines that much earlier while it lasts (see [`Lag`]).

mod clock;
mod lag;
mod opening;
mod worker;

pub use crate::players::{
    Analysis, DEFAULT_HASH_MB, Decision, MAX_HASH_MB, MAX_THREADS, MoveScore,
};
pub use clock::Clock;

use crate::players::{self, Evaluation, Greedy, Player, UnknownPlayer};
use crate::rules::{Move, Position};
use crate::search::Limits;
use crate::search::pattern::EvalKind;
use crate::search::tunables::GRACE;
use crossbeam_channel::{after, never, select};
use lag::Lag;
pub use opening::OpeningBook;
use std::time::{Duration, Instant};
use worker::{Answer, Job, Reply, Setting, Task, Worker};

/// How long a player may stay silent, past a stopped search's deadline or
/// in a change between searches (a new game's cleared table, a new table
/// of up to [`MAX_HASH_MB`] on a starved machine), before it is taken for
/// stuck and replaced.
const STUCK_LIMIT: Duration = Duration::from_secs(30);

/// The player of a daemon until the user picks another.
pub const DEFAULT_PLAYER: &str = "strong";
/// A daemon's time per move until the user sets one or a clock.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_millis(1000);

/// What a player may use: its hash table's size and its search threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resources {
    pub hash_mb: usize,
    pub threads: usize,
    /// The 8x8 evaluation of the players that search with one.
    pub eval: EvalKind,
}

impl Default for Resources {
    /// One thread: two engines in a match on a shared machine each get a
    /// core, and a search's node counts (and so its moves at a fixed
    /// depth) are reproducible.
    fn default() -> Self {
        Resources {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            eval: EvalKind::default(),
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
    /// The opening book `strong` plays from, and the discs from the best
    /// within which its moves are drawn.
    pub book: Option<(std::sync::Arc<crate::book::Book>, f64)>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            player: DEFAULT_PLAYER.into(),
            resources: Resources::default(),
            move_time: None,
            depth: None,
            book: None,
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
    /// evaluation loaded outside any move's time: loaded in the first
    /// `genmove`, it can take all of a short move on a busy machine
    /// (docs/research/time.md, "The table's pages").
    pub fn engine(&self) -> Result<Engine, UnknownPlayer> {
        let mut engine = Engine::new(&self.player, self.resources)?;
        if let Some((book, randomness)) = &self.book {
            let mut opening = OpeningBook::new(book.clone());
            opening.set_randomness(*randomness, 0);
            engine.set_book(Some(opening));
        }
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
    /// The player did not answer by its deadline.
    #[error("{0} gave no analysis in time")]
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
    /// The job the player is late with, its deadline, and since when the
    /// engine stopped waiting for it.
    overdue: Option<Overdue>,
    lag: Lag,
    /// The opening book `strong` plays from, if any.
    book: Option<OpeningBook>,
}

impl Drop for Engine {
    /// A player late with a job was told to stop; one that never does
    /// must not hold up the program's exit, so its thread is left to end
    /// on its own.
    fn drop(&mut self) {
        if self.overdue.is_some() {
            self.worker.abandon();
        }
    }
}

/// A job whose answer did not come by its deadline and grace.
#[derive(Clone, Copy, Debug)]
struct Overdue {
    ticket: u64,
    hard: Instant,
    since: Instant,
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
        built.set_eval(resources.eval);
        let sizes = std::array::from_fn(|n| built.supports(n));
        let depth_defined = built.depth_defined();
        Engine {
            worker: Worker::spawn(built),
            player: player.to_string(),
            sizes,
            depth_defined,
            resources,
            next_ticket: 0,
            overdue: None,
            lag: Lag::default(),
            book: None,
        }
    }

    /// Plays from `book` (`strong` only: other players play as their
    /// source defines), or from none.
    pub fn set_book(&mut self, book: Option<OpeningBook>) {
        self.book = book;
    }

    /// The book played from, to change how it is played.
    pub fn book_mut(&mut self) -> Option<&mut OpeningBook> {
        self.book.as_mut()
    }

    /// `strong`'s book moves at `position` and the depth of their values
    /// ([`OpeningBook::moves`]); none for other players or without a book.
    pub fn book_moves(&self, position: &Position) -> (Vec<crate::book::BookMove>, u32) {
        match &self.book {
            Some(book) if self.player == "strong" => book.moves(position),
            _ => (Vec::new(), 0),
        }
    }

    /// Takes the book away (to give it to the engine of another player).
    pub fn take_book(&mut self) -> Option<OpeningBook> {
        self.book.take()
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
        self.settle(Setting::NewGame(None));
    }

    /// [`Engine::new_game`] for the game a referee numbers `number`: a
    /// player that draws random moves draws this game's own, so that the
    /// game does not depend on the games played before it.
    pub fn new_numbered_game(&mut self, number: u64) {
        if let Some(book) = &mut self.book {
            book.numbered_game(number);
        }
        self.settle(Setting::NewGame(Some(number)));
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

    /// Sets the player's 8x8 evaluation.
    pub fn set_eval(&mut self, eval: EvalKind) {
        self.resources.eval = eval;
        self.settle(Setting::Eval(eval));
    }

    /// Applies `setting` on the search thread and waits until it is done,
    /// so that its cost is never charged to the next move's clock: a
    /// clear of the table and the first load of the evaluation can take
    /// longer than a short move on a busy machine (the same journal
    /// section as [`Options::engine`]). A player
    /// that does not finish within [`STUCK_LIMIT`] is restarted.
    fn settle(&mut self, setting: Setting) {
        self.next_ticket += 1;
        let ticket = self.next_ticket;
        if !self.send(Job::Settle(ticket, setting)) {
            // The fresh player starts in the state asked for.
            return;
        }
        let limit = after(STUCK_LIMIT);
        loop {
            select! {
                recv(self.worker.answers) -> answer => match answer {
                    Ok(a) if a.ticket == ticket => return,
                    Ok(a) => self.late_answer(&a),
                    Err(_) => break,
                },
                recv(limit) -> _ => break,
            }
        }
        self.restart();
    }

    /// Takes note of an answer to a job the engine stopped waiting for
    /// (progress reports do not end the job).
    fn late_answer(&mut self, answer: &Answer) {
        if let Some(o) = self.overdue
            && o.ticket == answer.ticket
            && !matches!(answer.reply, Reply::Progress(_))
        {
            let now = Instant::now();
            self.lag.observe(o.hard, now);
            log::info!(
                "the {} player answered {:.0?} after its deadline",
                self.player,
                now - o.hard
            );
            self.overdue = None;
        }
    }

    /// Before a new job: takes the late answers that have come, and
    /// replaces a player that has stayed silent for [`STUCK_LIMIT`].
    fn catch_up(&mut self) {
        while let Ok(a) = self.worker.answers.try_recv() {
            self.late_answer(&a);
        }
        if self
            .overdue
            .is_some_and(|o| o.since.elapsed() >= STUCK_LIMIT)
        {
            self.restart();
        }
    }

    /// Sends `job` to the search thread; a dead thread is replaced by a
    /// fresh player and the job dropped (false).
    fn send(&mut self, job: Job) -> bool {
        self.catch_up();
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
            "the {} player died or stopped answering; restarting it",
            self.player
        );
        if let Ok(fresh) = Engine::new(&self.player, self.resources) {
            let (ticket, lag) = (self.next_ticket, self.lag);
            self.worker.abandon();
            *self = fresh;
            self.next_ticket = ticket;
            self.lag = lag;
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
    /// `position` within `limits`, with its score if it has one: for
    /// `strong` with a book that holds the position, the book's move at
    /// once. At the
    /// hard deadline the job's stop token is raised; if no answer comes
    /// within [`GRACE`] after that, or the player died or answered an
    /// illegal move, the greedy move is the answer (and a player that
    /// died or answered an illegal move is restarted).
    pub fn decide(&mut self, position: &Position, limits: Limits) -> Decision {
        if self.player == "strong"
            && let Some(d) = self.book.as_mut().and_then(|b| b.decide(position))
        {
            return d;
        }
        match self.ask(position, limits, Job::Choose, &mut |_| {}) {
            Some(Reply::Move(d)) if position.play(d.mv).is_ok() => d,
            answer => {
                match &answer {
                    Some(Reply::Move(d)) => {
                        log::error!(
                            "{} answered {}, an illegal move; playing greedy",
                            self.player,
                            d.mv
                        );
                        self.restart();
                    }
                    _ => log::warn!("{} gave no move in time; playing greedy", self.player),
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

    /// Sends the job `job` makes of a task, and waits for its answer: to
    /// the hard deadline (moved earlier by the [`Lag`]), then, with the
    /// job's stop raised, for [`GRACE`]. `None` when no answer came: the
    /// player is late (it is kept, and its answer taken in when it comes)
    /// or dead (it is restarted).
    fn ask(
        &mut self,
        position: &Position,
        limits: Limits,
        job: impl FnOnce(Box<Task>) -> Job,
        progress: &mut dyn FnMut(&Analysis),
    ) -> Option<Reply> {
        self.next_ticket += 1;
        let ticket = self.next_ticket;
        let limits = self.lag.apply(limits, Instant::now());
        let stop = limits.stop.clone();
        let deadline = limits.hard;
        let task = Box::new(Task {
            ticket,
            position: *position,
            limits,
        });
        if !self.send(job(task)) {
            return None;
        }
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
                    Ok(a) if a.ticket == ticket => {
                        if let Some(hard) = deadline {
                            self.lag.observe(hard, Instant::now());
                        }
                        return Some(a.reply);
                    }
                    Ok(a) => self.late_answer(&a),
                    Err(_) => break,
                },
                recv(timeout) -> _ => {
                    stop.stop();
                    grace = after(GRACE);
                },
                recv(grace) -> _ => {
                    if self.worker.thread.as_ref().is_some_and(|t| !t.is_finished()) {
                        let hard = deadline.expect("a grace follows a deadline");
                        let since = Instant::now();
                        self.lag.observe(hard, since);
                        self.overdue = Some(Overdue { ticket, hard, since });
                        return None;
                    }
                    break;
                },
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
    /// clear does, and says when the set-up ended; it counts its nodes
    /// (the greedy stand-in has none).
    #[derive(Default)]
    struct SlowStart {
        set_up: std::sync::Arc<std::sync::Mutex<Option<Instant>>>,
    }

    const SET_UP: Duration = Duration::from_millis(100);

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
        fn new_game(&mut self, _: Option<u64>) {
            std::thread::sleep(SET_UP);
            *self.set_up.lock().unwrap() = Some(Instant::now());
        }
    }

    #[test]
    fn a_new_game_is_set_up_before_the_next_move_is_timed() {
        // The order of two instants, not a length of time: a loaded
        // machine cannot fail it.
        let player = SlowStart::default();
        let set_up = player.set_up.clone();
        let mut engine = Engine::running(Box::new(player), "slow-start", Resources::default());
        engine.new_game();
        let returned = Instant::now();
        let ended = set_up.lock().unwrap().expect("the set-up ran");
        assert!(ended <= returned, "new_game returned before the set-up");
        // The next move is the player's own.
        let pos = Position::start(8).unwrap();
        let decision = engine.decide(&pos, Limits::unlimited());
        assert_eq!(decision.nodes, 7);
        assert_eq!(decision.mv, Move::Place(pos.legal_moves(pos.to_move())[0]));
    }

    /// A player that answers each move only once the test lets it, and
    /// counts the moves it was asked for: a count that goes on shows the
    /// same player (and its table) was kept.
    struct Held {
        release: crossbeam_channel::Receiver<()>,
        asked: u64,
    }

    impl Player for Held {
        fn name(&self) -> String {
            "held".into()
        }
        fn choose(&mut self, pos: &Position, limits: &Limits) -> Move {
            self.decide(pos, limits).mv
        }
        fn decide(&mut self, pos: &Position, _limits: &Limits) -> Decision {
            self.asked += 1;
            let _ = self.release.recv();
            Decision {
                mv: Move::Place(*pos.legal_moves(pos.to_move()).last().unwrap()),
                score: None,
                nodes: self.asked,
            }
        }
    }

    #[test]
    fn a_late_player_is_kept_and_its_lateness_moves_the_next_deadlines() {
        let (release, held) = crossbeam_channel::unbounded();
        let player = Held {
            release: held,
            asked: 0,
        };
        let mut engine = Engine::running(Box::new(player), "held", Resources::default());
        let pos = Position::start(8).unwrap();
        let greedy = Greedy.choose(&pos, &Limits::unlimited());
        let soon = || {
            Limits::unlimited().with_budget_from(
                Instant::now(),
                Duration::from_millis(10),
                Duration::from_millis(10),
            )
        };
        // Held past its deadline and grace: the greedy move, at once.
        let late = engine.decide(&pos, soon());
        assert_eq!((late.mv, late.nodes), (greedy, 0));
        assert!(engine.overdue.is_some());
        assert!(engine.lag.0 >= GRACE, "{:?}", engine.lag);
        // Let go: the late answer is taken in, and the next move is the
        // same player's (its second).
        release.send(()).unwrap();
        release.send(()).unwrap();
        let next = engine.decide(&pos, Limits::unlimited());
        assert_eq!(next.nodes, 2, "the player was replaced");
        assert_ne!(next.mv, greedy);
        assert!(engine.overdue.is_none());
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
            std::thread::sleep(Duration::from_secs(1));
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
        let slow = Box::new(SlowStart::default());
        let mut engine = Engine::running(slow, "slow-start", Resources::default());
        let none = engine.analyse(&pos, limits(), false, &mut |_| {});
        assert_eq!(
            none.unwrap_err().to_string(),
            "slow-start does not analyse positions"
        );
        let mut engine = Engine::running(Box::new(Deaf), "deaf", Resources::default());
        let late = engine.analyse(&pos, limits(), false, &mut |_| {});
        assert_eq!(
            late.unwrap_err().to_string(),
            "deaf gave no analysis in time"
        );
    }
}
