//! The search thread: it owns the player (and with it the table) and runs
//! one job at a time from a channel, answering each with its ticket.

use crate::players::{Analysis, Decision, Evaluation, Player};
use crate::rules::Position;
use crate::search::Limits;
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::thread::{self, JoinHandle};

/// A position to think about.
pub(super) struct Task {
    pub(super) ticket: u64,
    pub(super) position: Position,
    pub(super) limits: Limits,
}

/// Work for the search thread.
pub(super) enum Job {
    Choose(Box<Task>),
    /// With `true`, the best move alone ([`Player::analyse_best`]).
    Analyse(Box<Task>, bool),
    Evaluate(Box<Task>),
    /// A change of the player's state between searches; its ticket comes
    /// back as [`Reply::Ready`] once done.
    Settle(u64, Setting),
}

/// What [`Job::Settle`] changes.
pub(super) enum Setting {
    /// A new game, numbered by a referee ([`crate::players::Player::new_game`]).
    NewGame(Option<u64>),
    Hash(usize),
    Threads(usize),
    Eval(crate::search::pattern::EvalKind),
}

/// What the player found for a task.
pub(super) enum Reply {
    Move(Decision),
    /// A deeper analysis while the search goes on.
    Progress(Analysis),
    Analysis(Option<Analysis>),
    Evaluation(Option<Evaluation>),
    /// A [`Job::Settle`] is done.
    Ready,
}

/// The reply to the job with this ticket.
pub(super) struct Answer {
    pub(super) ticket: u64,
    pub(super) reply: Reply,
}

/// The search thread and its channels. Dropping it ends the thread and
/// waits for it, so that no thread outlives its engine.
pub(super) struct Worker {
    pub(super) jobs: Option<Sender<Job>>,
    pub(super) answers: Receiver<Answer>,
    pub(super) thread: Option<JoinHandle<()>>,
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
    pub(super) fn spawn(mut player: Box<dyn Player>) -> Worker {
        let (jobs, job_rx) = unbounded::<Job>();
        let (answer_tx, answers) = unbounded();
        let thread = thread::Builder::new()
            .name(format!("search-{}", player.name()))
            .spawn(move || {
                for job in job_rx {
                    match job {
                        Job::Choose(task) => {
                            log::debug!("{}: search started", player.name());
                            let reply = Reply::Move(player.decide(&task.position, &task.limits));
                            let ticket = task.ticket;
                            if answer_tx.send(Answer { ticket, reply }).is_err() {
                                break;
                            }
                        }
                        Job::Analyse(task, best_only) => {
                            log::debug!("{}: search started", player.name());
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
                                Setting::NewGame(number) => player.new_game(number),
                                Setting::Hash(mb) => player.set_hash_mb(mb),
                                Setting::Eval(eval) => player.set_eval(eval),
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
    pub(super) fn abandon(&mut self) {
        self.thread.take();
    }
}
