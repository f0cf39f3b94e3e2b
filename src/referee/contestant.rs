//! A player in a match: a built-in player on its own search thread, an
//! external engine spoken to over a protocol (GTP, NBoard), or a Lab 8
//! program spoken to as its human opponent. The referee asks all of them
//! the same way and checks every answer itself.

use super::client::{ClientError, GtpClient};
use super::lab8::{Lab8Error, Lab8Program, MoveWait, Verdict};
use super::nboard::NboardClient;
use super::sandbox::Limits;
use crate::engine::{Clock, Engine, Resources, UnsupportedSize};
use crate::players::UnknownPlayer;
use crate::protocol::Command;
use crate::protocol::Setup;
use crate::rules::{Color, Game, Move, Position, ggf, parse_move, printable};
use crate::search::StopToken;
use std::fmt;
use std::time::{Duration, Instant};

/// Time allowed for set-up commands (`boardsize`, `play`, ...).
const SETUP_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a player lost a game without it being played out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// A legal-looking move that the rules refuse.
    Illegal(String),
    /// A reply that is not a move.
    Unreadable(String),
    /// A move later than the limit plus the margin (or, under a game
    /// clock, a clock run out).
    Late(Duration),
    /// More CPU time than the limit plus the margin, for a move judged on
    /// CPU time (measured when the referee stopped waiting).
    LateCpu(Duration),
    /// No reply at all in time.
    NoReply,
    /// No move by the wall-clock cap of a move judged on CPU time: its
    /// wall and CPU time.
    Hung { wall: Duration, cpu: Duration },
    /// The engine died (or its output ended), with its last words on
    /// stderr (possibly none).
    Died(String),
    /// The engine refused a command it must accept (`play`, `boardsize`),
    /// or a program called a legal move invalid.
    Refused(String),
    /// A program printed more than the referee reads in a game.
    Flooded,
    /// A program's output ended (it exited or crashed): how, and its last
    /// lines.
    Ended(String),
    /// A program called a legal move invalid, with its last lines.
    Rejected(String),
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Forfeit::Illegal(m) => write!(f, "illegal move {m}"),
            Forfeit::Unreadable(m) => write!(f, "unreadable move '{}'", printable(m)),
            Forfeit::Late(d) => write!(f, "late ({:.0} ms)", d.as_secs_f64() * 1000.0),
            Forfeit::LateCpu(d) => write!(f, "late ({:.0} ms of CPU)", d.as_secs_f64() * 1000.0),
            Forfeit::NoReply => write!(f, "no reply"),
            Forfeit::Hung { wall, cpu } => write!(
                f,
                "no move after {:.0} ms ({:.0} ms of CPU)",
                wall.as_secs_f64() * 1000.0,
                cpu.as_secs_f64() * 1000.0
            ),
            Forfeit::Died(stderr) if stderr.is_empty() => write!(f, "engine died"),
            Forfeit::Died(stderr) => write!(f, "engine died; its stderr ended: {stderr}"),
            Forfeit::Refused(m) => write!(f, "refused a command: {m}"),
            Forfeit::Flooded => write!(
                f,
                "printed more than {} MB in a game",
                super::lab8::MAX_OUTPUT >> 20
            ),
            Forfeit::Ended(how) => write!(f, "program {how}"),
            Forfeit::Rejected(last) => {
                write!(f, "called a legal move invalid; its last lines: {last}")
            }
        }
    }
}

impl Forfeit {
    /// A short label for tables.
    pub fn kind(&self) -> &'static str {
        match self {
            Forfeit::Illegal(_) => "illegal",
            Forfeit::Unreadable(_) => "unreadable",
            Forfeit::Late(_) | Forfeit::LateCpu(_) => "late",
            Forfeit::NoReply | Forfeit::Hung { .. } => "no reply",
            Forfeit::Died(_) => "died",
            Forfeit::Refused(_) => "refused",
            Forfeit::Flooded => "flooded",
            Forfeit::Ended(_) => "died",
            Forfeit::Rejected(_) => "rejected a move",
        }
    }
}

/// How long a dead engine's stderr may take to reach us.
const LAST_WORDS: Duration = Duration::from_millis(200);

/// The forfeit for a client error; a death carries the engine's last
/// lines on stderr, which `last_words` gives.
fn from_client(e: ClientError, last_words: impl FnOnce(Duration) -> String) -> Forfeit {
    match e {
        ClientError::Timeout => Forfeit::NoReply,
        ClientError::Spawn(m) => Forfeit::Died(m),
        ClientError::Died => Forfeit::Died(last_words(LAST_WORDS)),
        ClientError::Refused(m) | ClientError::Garbled(m) => Forfeit::Refused(m),
    }
}

/// A player's name and the player: `NAME=<player>` names it NAME (letters,
/// digits, `-`, `_` and `.`: `alice=lab8:./alice/lab8`); otherwise the
/// player is named by itself.
pub fn split_name(text: &str) -> (&str, &str) {
    match text.split_once('=') {
        Some((name, spec))
            if !name.is_empty()
                && !spec.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) =>
        {
            (name, spec)
        }
        _ => (text, text),
    }
}

/// What a move took: its wall time, and its CPU time where the move was
/// judged on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTook {
    pub wall: Duration,
    pub cpu: Option<Duration>,
}

/// How many times its limit a move judged on CPU time may take on the
/// wall clock before it is given up as hung: a program that waits on
/// nothing is not kept for ever, and one slowed by a busy grading machine
/// (its CPU time within the limit) is not forfeited.
pub const CPU_WALL_CAP: u32 = 5;

/// How long a Lab 8 program may take to print its verdict once the game
/// is over.
const VERDICT_WAIT: Duration = Duration::from_secs(1);

/// A contestant's name as part of a file name: letters, digits, `-`, `_`
/// and `.` kept, anything else `_`, at most 60 characters.
fn file_name(name: &str) -> String {
    name.chars()
        .take(60)
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The forfeit for a Lab 8 program's error.
fn from_lab8(e: Lab8Error) -> Forfeit {
    match e {
        Lab8Error::Died(last) => Forfeit::Ended(last),
        Lab8Error::Spawn(m) => Forfeit::Died(m),
        Lab8Error::Timeout => Forfeit::NoReply,
        Lab8Error::Hung(took) => Forfeit::Hung {
            wall: took.wall,
            cpu: took.cpu,
        },
        Lab8Error::LateCpu(cpu) => Forfeit::LateCpu(cpu),
        Lab8Error::Flood => Forfeit::Flooded,
        Lab8Error::Rejected(last) => Forfeit::Rejected(last),
        Lab8Error::WrongColour(m) => Forfeit::Illegal(m),
        Lab8Error::Garbled(line) => Forfeit::Unreadable(line),
        Lab8Error::WrongPass(line) => {
            Forfeit::Illegal(format!("a pass ('{line}') with a legal move"))
        }
    }
}

/// The forfeit of an engine that could not even be started.
fn unstarted(e: ClientError) -> Forfeit {
    from_client(e, |_| String::new())
}

/// How much time the players get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// The same time for every move.
    PerMove(Duration),
    /// One clock per side for the whole game: a side may think long on
    /// one move and fast on the next, and loses when its clock runs out.
    /// It starts at `main`, and each move adds `increment` to it as it
    /// starts (a Fischer clock; none is absolute time, as in Othello
    /// tournaments).
    PerGame { main: Duration, increment: Duration },
}

impl TimeControl {
    /// As the match header and the records give it.
    pub fn label(&self) -> String {
        match self {
            TimeControl::PerMove(t) => format!("{} ms a move", t.as_millis()),
            TimeControl::PerGame { main, increment } if increment.is_zero() => {
                format!("{} ms a game", main.as_millis())
            }
            TimeControl::PerGame { main, increment } => format!(
                "{} ms a game + {} ms a move",
                main.as_millis(),
                increment.as_millis()
            ),
        }
    }

    /// The GGF `TI` field's text, in seconds: a game clock as main time
    /// alone, a time per move as no main time and that much for each move
    /// (GGF's increment).
    pub(super) fn record(&self) -> String {
        match self {
            TimeControl::PerMove(t) => format!("0/{}", t.as_secs_f64()),
            TimeControl::PerGame { main, increment } if increment.is_zero() => {
                format!("{}", main.as_secs_f64())
            }
            TimeControl::PerGame { main, increment } => {
                format!("{}/{}", main.as_secs_f64(), increment.as_secs_f64())
            }
        }
    }
}

/// The time one move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveTime {
    /// A limit for this move alone.
    Fixed(Duration),
    /// What is left on the mover's clock for the rest of the game before
    /// this move's increment, and the increment each move adds.
    Clock { left: Duration, increment: Duration },
}

impl MoveTime {
    /// The longest the move may take before it is late.
    fn limit(&self) -> Duration {
        match *self {
            MoveTime::Fixed(limit) => limit,
            MoveTime::Clock { left, increment } => left + increment,
        }
    }

    /// What the move adds to the mover's clock as it starts.
    pub fn increment(&self) -> Duration {
        match *self {
            MoveTime::Fixed(_) => Duration::ZERO,
            MoveTime::Clock { increment, .. } => increment,
        }
    }
}

/// How a contestant plays.
enum Kind {
    Builtin(Engine),
    External {
        command: String,
        client: Option<GtpClient>,
    },
    Nboard {
        command: String,
        depth: u32,
        client: Option<NboardClient>,
        /// The game's time control, and what each of its own moves so far
        /// was charged (by the number of plies before it).
        time: TimeControl,
        charged: Vec<(usize, Duration)>,
    },
    /// A Lab 8 program: a process a game, its transcript written to
    /// `transcripts` (when given) at the end of each.
    Lab8 {
        command: String,
        limits: Limits,
        program: Option<Lab8Program>,
        label: String,
        /// Whether its moves are judged on CPU time, not wall time.
        cpu_judged: bool,
    },
}

/// What a contestant is told as a game starts.
#[derive(Clone, Debug)]
pub struct GameStart<'a> {
    pub n: usize,
    pub time: TimeControl,
    /// The position the game started from, and the opening moves played
    /// from it.
    pub start: &'a Position,
    pub opening: &'a [(Color, Move)],
    /// The colour it plays.
    pub colour: Color,
    /// The game's name in file names (`p0-g3`).
    pub label: String,
    /// The game's number in the whole match, which a built-in player that
    /// draws random moves draws its own from.
    pub number: u64,
}

/// How a game ended, as each contestant is told.
#[derive(Clone, Copy, Debug)]
pub struct GameEnd {
    /// Black's discs minus White's when it was played out; `None` after a
    /// forfeit.
    pub played_out: Option<i32>,
}

/// One player of a match.
pub struct Contestant {
    name: String,
    kind: Kind,
    /// Its own time control, in place of the match's.
    time: Option<TimeControl>,
    /// Where a Lab 8 program's transcripts go.
    transcripts: Option<std::path::PathBuf>,
}

impl Contestant {
    /// A player from its name: `cmd:<command line>` for an external engine
    /// speaking GTP (our protocol), `nboard:<command line>` for one
    /// speaking NBoard (played at midgame depth `nboard_depth`),
    /// `lab8:<command line>` for a Lab 8 program (run in the sandbox with
    /// its default limits), otherwise a built-in player name (given
    /// `resources`). `NAME=<player>` names it ([`split_name`]).
    pub fn new(
        text: &str,
        nboard_depth: u32,
        resources: Resources,
    ) -> Result<Contestant, UnknownPlayer> {
        let (name, spec) = split_name(text);
        let kind = if let Some(command) = spec.strip_prefix("cmd:") {
            Kind::External {
                command: command.to_string(),
                client: None,
            }
        } else if let Some(command) = spec.strip_prefix("nboard:") {
            Kind::Nboard {
                command: command.to_string(),
                depth: nboard_depth,
                client: None,
                time: TimeControl::PerMove(Duration::ZERO),
                charged: Vec::new(),
            }
        } else if let Some(command) = spec.strip_prefix("lab8:") {
            Kind::Lab8 {
                command: command.to_string(),
                limits: Limits::default(),
                program: None,
                label: String::new(),
                cpu_judged: false,
            }
        } else {
            Kind::Builtin(Engine::new(spec, resources)?)
        };
        Ok(Contestant {
            name: name.to_string(),
            kind,
            time: None,
            transcripts: None,
        })
    }

    /// Plays every game on `time` instead of the match's time control.
    pub fn set_time(&mut self, time: TimeControl) {
        self.time = Some(time);
    }

    /// Its own time control, if it has one.
    pub fn time(&self) -> Option<TimeControl> {
        self.time
    }

    /// Its name as its transcripts' file names give it.
    pub fn file_stem(&self) -> String {
        file_name(&self.name)
    }

    /// Writes each game's transcript of a Lab 8 program into `dir`.
    pub fn keep_transcripts(&mut self, dir: &std::path::Path) {
        self.transcripts = Some(dir.to_path_buf());
    }

    /// Judges a Lab 8 program's moves on their CPU time, as the handout's
    /// students measure it, with a wall-clock cap of [`CPU_WALL_CAP`]
    /// times the limit for a program that hangs; other contestants are
    /// judged on wall time.
    pub fn judge_by_cpu(&mut self) {
        if let Kind::Lab8 { cpu_judged, .. } = &mut self.kind {
            *cpu_judged = true;
        }
    }

    /// Whether it is a Lab 8 program, which plays from the start position
    /// only.
    pub fn is_lab8(&self) -> bool {
        matches!(self.kind, Kind::Lab8 { .. })
    }

    /// The name it was given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Refuses n x n boards for a built-in player that does not play them
    /// (external engines are asked through `boardsize` instead).
    pub fn check_size(&self, n: usize) -> Result<(), UnsupportedSize> {
        match &self.kind {
            Kind::Builtin(e) => e.check_size(n),
            Kind::External { .. } | Kind::Nboard { .. } | Kind::Lab8 { .. } => Ok(()),
        }
    }

    /// Prepares a new game as `start` says: its board, its time, the
    /// opening moves already played and the colour played.
    pub fn start_game(&mut self, start: &GameStart) -> Result<(), Forfeit> {
        let (n, time, opening) = (start.n, start.time, start.opening);
        match &mut self.kind {
            Kind::Builtin(engine) => {
                engine.new_numbered_game(start.number);
                Ok(())
            }
            Kind::External { command, client } => {
                if client.is_none() {
                    *client = Some(GtpClient::spawn(command).map_err(unstarted)?);
                }
                let c = client.as_mut().expect("just started");
                let setup = |c: &mut GtpClient| -> Result<(), ClientError> {
                    c.send(&Command::BoardSize(n as u64), SETUP_TIMEOUT)?;
                    c.send(&Command::ClearBoard, SETUP_TIMEOUT)?;
                    // Another start (an OBF suite's) as our protocol's
                    // `setup`; an engine without it forfeits.
                    if Position::start(n).ok().as_ref() != Some(start.start) {
                        c.send(&setup_board(start.start), SETUP_TIMEOUT)?;
                    }
                    match time {
                        TimeControl::PerMove(limit) => c.set_move_time(limit, SETUP_TIMEOUT)?,
                        // GTP absolute time: main time and no byo-yomi; an
                        // increment as a byo-yomi of one move, which the
                        // engine may spend once its main time is gone, as
                        // it may the increment ([`Contestant::genmove`]).
                        TimeControl::PerGame { main, increment } => {
                            let settings = Command::TimeSettings {
                                main: main.as_secs_f64(),
                                byoyomi: increment.as_secs_f64(),
                                stones: u64::from(!increment.is_zero()),
                            };
                            c.send(&settings, SETUP_TIMEOUT)?;
                        }
                    }
                    for &(color, mv) in opening {
                        c.send(&Command::Play(color, mv), SETUP_TIMEOUT)?;
                    }
                    Ok(())
                };
                setup(c).map_err(|e| from_client(e, |w| c.last_stderr(w)))
            }
            Kind::Nboard {
                command,
                depth,
                client,
                time: game_time,
                charged,
            } => {
                // The game goes to the engine with each move.
                *game_time = time;
                charged.clear();
                if client.is_none() {
                    *client = Some(
                        NboardClient::spawn(command, *depth, SETUP_TIMEOUT).map_err(unstarted)?,
                    );
                }
                Ok(())
            }
            Kind::Lab8 {
                command,
                limits,
                program,
                label,
                cpu_judged,
            } => {
                if !opening.is_empty() || Position::start(n).ok().as_ref() != Some(start.start) {
                    return Err(Forfeit::Refused(
                        "a Lab 8 program plays from the start position (--openings none)".into(),
                    ));
                }
                *label = start.label.clone();
                *program = Some(
                    Lab8Program::start(command, *limits, n, start.colour, *cpu_judged)
                        .map_err(from_lab8)?,
                );
                Ok(())
            }
        }
    }

    /// Tells the engine a move of the other side (or a pass).
    pub fn tell(&mut self, color: Color, mv: Move) -> Result<(), Forfeit> {
        match &mut self.kind {
            Kind::Builtin(_) | Kind::Nboard { .. } => Ok(()),
            // A program passes for either side by itself; its own passes
            // are counted against those it announces.
            Kind::Lab8 {
                program: Some(p), ..
            } => match mv {
                Move::Place(sq) => p.tell(sq).map_err(from_lab8),
                Move::Pass => {
                    if color == p.colour() {
                        p.own_pass();
                    }
                    Ok(())
                }
            },
            Kind::Lab8 { program: None, .. } => Ok(()),
            Kind::External { client, .. } => {
                let c = client.as_mut().ok_or(Forfeit::Died(String::new()))?;
                let reply = c.send(&Command::Play(color, mv), SETUP_TIMEOUT);
                reply
                    .map(|_| ())
                    .map_err(|e| from_client(e, |w| c.last_stderr(w)))
            }
        }
    }

    /// Asks for `color`'s move in `game`, within `time` plus `margin`;
    /// returns the legal move and the time it took.
    pub fn genmove(
        &mut self,
        game: &Game,
        color: Color,
        time: MoveTime,
        margin: Duration,
    ) -> Result<(Move, MoveTook), Forfeit> {
        let pos = *game.position();
        let limit = time.limit();
        let mut cpu = None;
        let (mv, took) = match &mut self.kind {
            Kind::Builtin(engine) => {
                let start = Instant::now();
                let limits = builtin_limits(time, &pos, engine.depth_defined(), start);
                (engine.choose(&pos, limits), start.elapsed())
            }
            Kind::External { client, .. } => {
                let c = client.as_mut().ok_or(Forfeit::Died(String::new()))?;
                // What is left before this move's increment: the engine
                // has it and one byo-yomi period, the increment.
                if let MoveTime::Clock { left, .. } = time {
                    // An engine that keeps its own clock may refuse this.
                    // Milliseconds are enough, and read as exact.
                    let seconds = (left.as_millis() as f64) / 1000.0;
                    let told = c.send(
                        &Command::TimeLeft {
                            color,
                            seconds,
                            stones: 0,
                        },
                        SETUP_TIMEOUT,
                    );
                    if let Err(e @ (ClientError::Died | ClientError::Timeout)) = told {
                        return Err(from_client(e, |w| c.last_stderr(w)));
                    }
                }
                // Wait well past the limit so that a late reply is told
                // apart from none at all.
                let wait = limit * 2 + margin + Duration::from_secs(2);
                let (reply, took) = c.timed(&Command::Genmove(color), wait);
                let text = reply.map_err(|e| from_client(e, |w| c.last_stderr(w)))?;
                let mv = parse_move(text.trim(), pos.size())
                    .map_err(|_| Forfeit::Unreadable(text.trim().chars().take(40).collect()))?;
                (mv, took)
            }
            Kind::Nboard {
                client,
                time: game_time,
                charged,
                ..
            } => {
                let c = client.as_mut().ok_or(Forfeit::Died(String::new()))?;
                let (clock, plies) = nboard_clock(*game_time, game, color, charged);
                let wait = limit * 2 + margin + Duration::from_secs(2);
                let (reply, took) = c.genmove(game.start(), &plies, &clock, SETUP_TIMEOUT, wait);
                let text = reply.map_err(|e| from_client(e, |w| c.last_stderr(w)))?;
                let mv = parse_move(text.trim(), pos.size())
                    .map_err(|_| Forfeit::Unreadable(text.trim().chars().take(40).collect()))?;
                charged.push((plies.len(), nboard_charge(*game_time, took)));
                (mv, took)
            }
            Kind::Lab8 {
                program,
                cpu_judged,
                ..
            } => {
                let p = program.as_mut().ok_or(Forfeit::Died(String::new()))?;
                let wait = if *cpu_judged {
                    MoveWait {
                        deadline: Instant::now() + limit * CPU_WALL_CAP + margin,
                        cpu_limit: Some(limit + margin),
                    }
                } else {
                    MoveWait {
                        deadline: Instant::now() + limit * 2 + margin + Duration::from_secs(2),
                        cpu_limit: None,
                    }
                };
                let (sq, took) = p.next_move(wait).map_err(from_lab8)?;
                cpu = cpu_judged.then_some(took.cpu);
                (Move::Place(sq), took.wall)
            }
        };
        match cpu {
            Some(cpu) if cpu > limit + margin => return Err(Forfeit::LateCpu(cpu)),
            None if took > limit + margin => return Err(Forfeit::Late(took)),
            _ => {}
        }
        if pos.play(mv).is_err() {
            return Err(Forfeit::Illegal(mv.standard()));
        }
        Ok((mv, MoveTook { wall: took, cpu }))
    }

    /// After a forfeit: an external engine is restarted for the next game.
    pub fn reset(&mut self) {
        match &mut self.kind {
            Kind::External { client, .. } => *client = None,
            Kind::Nboard { client, .. } => *client = None,
            Kind::Lab8 { program, .. } => {
                if let Some(p) = program {
                    p.end();
                }
            }
            Kind::Builtin(_) => {}
        }
    }

    /// The game is over, as `end` says. A Lab 8 program is read for its
    /// verdict (a wrong one is noted in its transcript and on stderr),
    /// then ended, and its transcript written.
    pub fn end_game(&mut self, end: GameEnd) {
        let Kind::Lab8 { program, label, .. } = &mut self.kind else {
            return;
        };
        let Some(mut p) = program.take() else { return };
        match end.played_out {
            Some(black_discs) => {
                let truth = match black_discs.signum() {
                    1 => Verdict::Wins(Color::Black),
                    -1 => Verdict::Wins(Color::White),
                    _ => Verdict::Draw,
                };
                let said = p.verdict(VERDICT_WAIT);
                if said != truth {
                    let note = format!("disagreement: it says {said:?}, the result is {truth:?}");
                    log::warn!("{}: {note}", self.name);
                    p.note(&note);
                } else {
                    p.note(&format!("verdict agrees: {said:?}"));
                }
            }
            None => p.end(),
        }
        if let Some(dir) = &self.transcripts {
            let path = dir.join(format!("{label}-{}.txt", file_name(&self.name)));
            if let Err(e) = std::fs::write(&path, p.transcript()) {
                log::warn!("{}: {e}", path.display());
            }
        }
    }

    /// Ends the engine's process, if any.
    pub fn finish(&mut self) {
        match &mut self.kind {
            Kind::External { client, .. } => client.take().map_or((), GtpClient::quit),
            Kind::Nboard { client, .. } => client.take().map_or((), NboardClient::quit),
            Kind::Lab8 { program, .. } => {
                if let Some(mut p) = program.take() {
                    p.end();
                }
            }
            Kind::Builtin(_) => {}
        }
    }
}

/// The GGF clock (`TI`'s text) and the timed plies that tell an NBoard
/// engine the time for `color`'s move in `game`, given what its earlier
/// moves were `charged`. An engine reads its time as the main time, plus
/// the increment of each of its plies and of the move to make, less the
/// times written beside its plies (NBoard's own reckoning):
/// - a time per move is no main time and that time as the increment, each
///   move charged a whole increment, so no time carries over;
/// - a game clock is the main time, each move charged what it took.
///
/// The engine's plies of the opening (or its passes), not played on its
/// clock, are charged their increment.
fn nboard_clock(
    time: TimeControl,
    game: &Game,
    color: Color,
    charged: &[(usize, Duration)],
) -> (String, Vec<(Color, Move, Option<f64>)>) {
    let (main, increment) = match time {
        TimeControl::PerMove(limit) => (Duration::ZERO, limit),
        TimeControl::PerGame { main, increment } => (main, increment),
    };
    let clock = if increment.is_zero() {
        ggf::clock_text(main.as_secs_f64())
    } else {
        format!(
            "{}/{}",
            ggf::clock_text(main.as_secs_f64()),
            ggf::clock_text(increment.as_secs_f64())
        )
    };
    let plies = game
        .moves()
        .enumerate()
        .map(|(i, (c, mv))| {
            let seconds = if c != color {
                None
            } else if let Some((_, t)) = charged.iter().find(|(at, _)| *at == i) {
                Some(t.as_secs_f64())
            } else {
                (!increment.is_zero()).then_some(increment.as_secs_f64())
            };
            (c, mv, seconds)
        })
        .collect();
    (clock, plies)
}

/// What an NBoard engine's move that `took` is charged on its clock: a
/// time per move charges its whole increment ([`nboard_clock`]).
fn nboard_charge(time: TimeControl, took: Duration) -> Duration {
    match time {
        TimeControl::PerMove(limit) => limit,
        TimeControl::PerGame { .. } => took,
    }
}

/// `setup <cells> <side>` for `pos`.
fn setup_board(pos: &Position) -> Command {
    let n = pos.size();
    let cells = (0..n * n)
        .map(|i| pos.cell(crate::rules::Square::new(i / n, i % n)))
        .collect();
    Command::Setup(Setup::Board {
        n,
        cells,
        to_move: pos.to_move(),
    })
}

/// The limits of a built-in player's search for the side to move of `pos`
/// that started at `start`: a fixed time, or the daemon's own share of a
/// game clock (what is left, spread over the moves still to come).
fn builtin_limits(
    time: MoveTime,
    pos: &crate::rules::Position,
    depth_defined: bool,
    start: Instant,
) -> crate::search::Limits {
    let clock = match time {
        MoveTime::Fixed(limit) => Clock::per_move(limit),
        MoveTime::Clock { left, increment } => {
            let mut clock = Clock::per_move(left);
            clock.set_game_clock(left.as_secs_f64(), increment.as_secs_f64());
            clock
        }
    };
    clock.limits(pos, depth_defined, None, StopToken::new(), start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_players_spend_a_share_of_a_game_clock_on_each_move() {
        let start = Instant::now();
        let hard = |time: MoveTime, game: &Game| {
            let limits = builtin_limits(time, game.position(), false, start);
            limits.hard.expect("a time limit") - start
        };
        let mut game = Game::new(8).unwrap();
        let clock = Duration::from_millis(600);
        // The whole game's clock at the start: a small share of it.
        let on = |left| MoveTime::Clock {
            left,
            increment: Duration::ZERO,
        };
        let first = hard(on(clock), &game);
        assert!(first > Duration::ZERO && first <= clock / 10, "{first:?}");
        // The same clock near the end, with few moves to come: more of it.
        for mv in ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"] {
            game.play_next(parse_move(mv, 8).unwrap()).unwrap();
        }
        assert!(hard(on(clock), &game) >= first);
        // An increment is spent on the move as well: with nothing left
        // but it, the move has all of it (less the safety margin).
        let increment = Duration::from_millis(100);
        let bare = hard(
            MoveTime::Clock {
                left: Duration::ZERO,
                increment,
            },
            &game,
        );
        assert!(bare <= increment && bare >= increment / 2, "{bare:?}");
        // A fixed time per move is kept whole, less a safety margin.
        let fixed = hard(MoveTime::Fixed(Duration::from_millis(100)), &game);
        assert!(fixed <= Duration::from_millis(100) && fixed >= Duration::from_millis(50));
    }
}
