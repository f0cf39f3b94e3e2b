//! A player in a match: a built-in player on its own search thread, or an
//! external engine spoken to over the protocol. The referee asks both the
//! same way and checks every answer itself.

use super::client::{ClientError, GtpClient};
use crate::engine::Engine;
use crate::players::DEFAULT_HASH_MB;
use crate::rules::{Color, Game, Move, parse_move};
use crate::search::Limits;
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
    /// A move later than the limit plus the margin.
    Late(Duration),
    /// No reply at all in time.
    NoReply,
    /// The engine died (or its output ended).
    Died,
    /// The engine refused a command it must accept (`play`, `boardsize`).
    Refused(String),
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Forfeit::Illegal(m) => write!(f, "illegal move {m}"),
            Forfeit::Unreadable(m) => write!(f, "unreadable move '{m}'"),
            Forfeit::Late(d) => write!(f, "late ({:.0} ms)", d.as_secs_f64() * 1000.0),
            Forfeit::NoReply => write!(f, "no reply"),
            Forfeit::Died => write!(f, "engine died"),
            Forfeit::Refused(m) => write!(f, "refused a command: {m}"),
        }
    }
}

impl Forfeit {
    /// A short label for tables.
    pub fn kind(&self) -> &'static str {
        match self {
            Forfeit::Illegal(_) => "illegal",
            Forfeit::Unreadable(_) => "unreadable",
            Forfeit::Late(_) => "late",
            Forfeit::NoReply => "no reply",
            Forfeit::Died => "died",
            Forfeit::Refused(_) => "refused",
        }
    }
}

fn from_client(e: ClientError) -> Forfeit {
    match e {
        ClientError::Timeout => Forfeit::NoReply,
        ClientError::Died | ClientError::Spawn(_) => Forfeit::Died,
        ClientError::Refused(m) | ClientError::Garbled(m) => Forfeit::Refused(m),
    }
}

/// How a contestant plays.
enum Kind {
    Builtin(Engine),
    External {
        command: String,
        client: Option<GtpClient>,
    },
}

/// One player of a match.
pub struct Contestant {
    name: String,
    kind: Kind,
}

impl Contestant {
    /// A player from its name: `cmd:<command line>` for an external engine,
    /// otherwise a built-in player name.
    pub fn new(spec: &str) -> Result<Contestant, String> {
        let kind = match spec.strip_prefix("cmd:") {
            Some(command) => Kind::External {
                command: command.to_string(),
                client: None,
            },
            None => Kind::Builtin(Engine::new(spec, DEFAULT_HASH_MB).map_err(|e| e.to_string())?),
        };
        Ok(Contestant {
            name: spec.to_string(),
            kind,
        })
    }

    /// The name it was given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether it can play n x n boards (external engines are asked
    /// through `boardsize` instead).
    pub fn supports(&self, n: usize) -> bool {
        match &self.kind {
            Kind::Builtin(e) => e.supports(n),
            Kind::External { .. } => true,
        }
    }

    /// Prepares a new game on an n x n board with `limit` a move, then the
    /// opening moves already played.
    pub fn start_game(
        &mut self,
        n: usize,
        limit: Duration,
        opening: &[(Color, Move)],
    ) -> Result<(), Forfeit> {
        match &mut self.kind {
            Kind::Builtin(engine) => {
                engine.new_game();
                Ok(())
            }
            Kind::External { command, client } => {
                if client.is_none() {
                    *client = Some(GtpClient::spawn(command).map_err(from_client)?);
                }
                let c = client.as_mut().expect("just started");
                let mut send = |cmd: &str| c.send(cmd, SETUP_TIMEOUT).map_err(from_client);
                send(&format!("boardsize {n}"))?;
                send("clear_board")?;
                // Our daemon's per-move time; GTP byo-yomi of one move for others.
                if send(&format!("set movetime {}", limit.as_millis().max(1))).is_err() {
                    send(&format!("time_settings 0 {} 1", limit.as_secs_f64()))?;
                }
                for (color, mv) in opening {
                    send(&format!("play {color} {mv}"))?;
                }
                Ok(())
            }
        }
    }

    /// Tells the engine a move of the other side (or a pass).
    pub fn tell(&mut self, color: Color, mv: Move) -> Result<(), Forfeit> {
        match &mut self.kind {
            Kind::Builtin(_) => Ok(()),
            Kind::External { client, .. } => {
                let c = client.as_mut().ok_or(Forfeit::Died)?;
                c.send(&format!("play {color} {mv}"), SETUP_TIMEOUT)
                    .map(|_| ())
                    .map_err(from_client)
            }
        }
    }

    /// Asks for `color`'s move in `game`, within `limit` plus `margin`;
    /// returns the legal move and the time it took.
    pub fn genmove(
        &mut self,
        game: &Game,
        color: Color,
        limit: Duration,
        margin: Duration,
    ) -> Result<(Move, Duration), Forfeit> {
        let pos = *game.position();
        let (mv, took) = match &mut self.kind {
            Kind::Builtin(engine) => {
                let start = Instant::now();
                let mv = engine
                    .choose(&pos, Limits::movetime(limit))
                    .ok_or(Forfeit::NoReply)?;
                (mv, start.elapsed())
            }
            Kind::External { client, .. } => {
                let c = client.as_mut().ok_or(Forfeit::Died)?;
                // Wait well past the limit so that a late reply is told
                // apart from none at all.
                let wait = limit * 2 + margin + Duration::from_secs(2);
                let (reply, took) = c.timed(&format!("genmove {color}"), wait);
                let text = reply.map_err(from_client)?;
                let mv = parse_move(text.trim(), pos.size())
                    .map_err(|_| Forfeit::Unreadable(text.trim().chars().take(40).collect()))?;
                (mv, took)
            }
        };
        if took > limit + margin {
            return Err(Forfeit::Late(took));
        }
        if pos.play(mv).is_err() {
            return Err(Forfeit::Illegal(mv.standard()));
        }
        Ok((mv, took))
    }

    /// After a forfeit: an external engine is restarted for the next game.
    pub fn reset(&mut self) {
        if let Kind::External { client, .. } = &mut self.kind {
            *client = None;
        }
    }

    /// Ends the engine's process, if any.
    pub fn finish(&mut self) {
        if let Kind::External { client, .. } = &mut self.kind
            && let Some(c) = client.take()
        {
            c.quit();
        }
    }
}
