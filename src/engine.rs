//! The engine facade: a long-lived search thread that owns the current
//! player (and with it the hash table), fed jobs over a channel.
//!
//! Front ends never search themselves: they ask [`Engine::choose`], which
//! waits for the answer or for the hard deadline, then stops the job and
//! takes what the player had. A player that dies (a panic) or does not
//! answer within [`GRACE`] after its deadline is replaced by a fresh one
//! and the caller gets `None`, so a front end can always answer with a
//! fallback move.

use crate::players::{self, MoveScore, Player, UnknownPlayer};
use crate::rules::{Move, Position};
use crate::search::Limits;
use crossbeam_channel::{Receiver, Sender, after, never, select, unbounded};
use std::thread;
use std::time::{Duration, Instant};

/// How long after the hard deadline a stopped search may still take to
/// hand back its move before the engine gives up on it.
pub const GRACE: Duration = Duration::from_millis(40);

/// A position to think about.
struct Task {
    ticket: u64,
    position: Position,
    limits: Limits,
}

/// Work for the search thread.
enum Job {
    Choose(Box<Task>),
    Analyse(Box<Task>),
    NewGame,
    SetHash(usize),
}

/// What the player found for a task.
enum Reply {
    Move(Move),
    Analysis(Option<Vec<MoveScore>>),
}

/// The reply to the job with this ticket.
struct Answer {
    ticket: u64,
    reply: Reply,
}

/// The search thread and its channels.
struct Worker {
    jobs: Sender<Job>,
    answers: Receiver<Answer>,
}

impl Worker {
    fn spawn(mut player: Box<dyn Player>) -> Worker {
        let (jobs, job_rx) = unbounded::<Job>();
        let (answer_tx, answers) = unbounded();
        thread::Builder::new()
            .name(format!("search-{}", player.name()))
            .spawn(move || {
                for job in job_rx {
                    match job {
                        Job::Choose(task) => {
                            let reply = Reply::Move(player.choose(&task.position, &task.limits));
                            let ticket = task.ticket;
                            if answer_tx.send(Answer { ticket, reply }).is_err() {
                                break;
                            }
                        }
                        Job::Analyse(task) => {
                            let reply =
                                Reply::Analysis(player.analyse(&task.position, &task.limits));
                            let ticket = task.ticket;
                            if answer_tx.send(Answer { ticket, reply }).is_err() {
                                break;
                            }
                        }
                        Job::NewGame => player.new_game(),
                        Job::SetHash(mb) => player.set_hash_mb(mb),
                    }
                }
            })
            .expect("spawn the search thread");
        Worker { jobs, answers }
    }
}

/// The engine: a named player running on its own thread.
pub struct Engine {
    worker: Worker,
    player: String,
    /// Which board sides the player plays (index n).
    sizes: [bool; crate::rules::MAX_SIZE + 1],
    hash_mb: usize,
    next_ticket: u64,
}

impl Engine {
    /// An engine running the player called `player` with a `hash_mb` MB table.
    pub fn new(player: &str, hash_mb: usize) -> Result<Engine, UnknownPlayer> {
        let mut built = players::build(player)?;
        built.set_hash_mb(hash_mb);
        let sizes = std::array::from_fn(|n| built.supports(n));
        Ok(Engine {
            worker: Worker::spawn(built),
            player: player.to_string(),
            sizes,
            hash_mb,
            next_ticket: 0,
        })
    }

    /// The current player's name.
    pub fn player(&self) -> &str {
        &self.player
    }

    /// Whether the player plays n x n boards.
    pub fn supports(&self, n: usize) -> bool {
        self.sizes.get(n).copied().unwrap_or(false)
    }

    /// The hash table size the player was given, in MB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Tells the player a new game starts.
    pub fn new_game(&mut self) {
        self.send(Job::NewGame);
    }

    /// Resizes the player's hash table.
    pub fn set_hash_mb(&mut self, megabytes: usize) {
        self.hash_mb = megabytes;
        self.send(Job::SetHash(megabytes));
    }

    fn send(&mut self, job: Job) {
        if self.worker.jobs.send(job).is_err() {
            self.restart();
        }
    }

    /// Replaces a dead or stuck player by a fresh one of the same name.
    fn restart(&mut self) {
        log::error!(
            "the {} player stopped answering; restarting it",
            self.player
        );
        if let Ok(fresh) = Engine::new(&self.player, self.hash_mb) {
            let ticket = self.next_ticket;
            *self = fresh;
            self.next_ticket = ticket;
        }
    }

    /// The player's move for the side to move in `position` within
    /// `limits`. At the hard deadline the job's stop token is raised; if no
    /// answer comes within [`GRACE`] after that (or the player died), the
    /// player is restarted and `None` returned.
    pub fn choose(&mut self, position: &Position, limits: Limits) -> Option<Move> {
        match self.ask(position, limits, false)? {
            Reply::Move(mv) => Some(mv),
            Reply::Analysis(_) => None,
        }
    }

    /// The score of every legal move, as [`Engine::choose`] but for
    /// [`Player::analyse`]; `None` also when the player does not analyse.
    pub fn analyse(&mut self, position: &Position, limits: Limits) -> Option<Vec<MoveScore>> {
        match self.ask(position, limits, true)? {
            Reply::Analysis(a) => a,
            Reply::Move(_) => None,
        }
    }

    fn ask(&mut self, position: &Position, limits: Limits, analyse: bool) -> Option<Reply> {
        self.next_ticket += 1;
        let ticket = self.next_ticket;
        let stop = limits.stop.clone();
        let deadline = limits.hard;
        let task = Box::new(Task {
            ticket,
            position: *position,
            limits,
        });
        self.send(if analyse {
            Job::Analyse(task)
        } else {
            Job::Choose(task)
        });
        let timeout = match deadline {
            Some(d) => after(d.saturating_duration_since(Instant::now())),
            None => never(),
        };
        let mut grace = never();
        loop {
            select! {
                recv(self.worker.answers) -> answer => match answer {
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
