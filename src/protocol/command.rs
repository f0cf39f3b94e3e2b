//! The daemon's commands, one vocabulary for both sides of the protocol:
//! what a line means ([`Command`]) and how it is written back
//! ([`fmt::Display`]); `grammar.rs` reads lines into them.

use crate::rules::{Color, Move, Square};
use crate::search::pattern::EvalKind;
use std::fmt;

/// A parsed command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    BoardSize(u64),
    ClearBoard,
    Komi,
    Play(Color, Move),
    Genmove(Color),
    RegGenmove(Color),
    Undo,
    ShowBoard,
    ShowState,
    FinalScore,
    TimeSettings {
        main: f64,
        byoyomi: f64,
        stones: u64,
    },
    TimeLeft {
        color: Color,
        seconds: f64,
        stones: u64,
    },
    ListGames,
    SetGame(String),
    RulesGameId,
    RulesBoardSize,
    RulesLegalMoves,
    RulesSideToMove,
    RulesFinalResult,
    RulesBoard,
    Setup(Setup),
    Legal(Option<Color>),
    Analyze(Option<u64>),
    /// `analyze_game [depth]`: every move played so far against the best.
    AnalyzeGame(Option<u64>),
    /// `gogui-analyze_commands`: the entries of GoGui's Analyze menu.
    AnalyzeCommands,
    Evaluate,
    Help(Option<String>),
    Stop,
    Set(Setting),
    /// `loadgame <GGF record | move list>`: a whole game with its history.
    LoadGame(String),
    PrintGgf,
}

/// What `setup` places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    /// Discs added to the current board (`Bba Wab ...`), no legality check.
    Placements(Vec<(Color, Square)>),
    /// A whole position: side n, cells row by row, side to move.
    Board {
        n: usize,
        cells: Vec<Option<Color>>,
        to_move: Color,
    },
}

/// An engine option set with `set`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    Player(String),
    MoveTime(u64),
    Depth(u64),
    Hash(u64),
    Threads(u64),
    /// An opening book file for `strong`, or `off`.
    Book(String),
    /// Discs from the book's best within which its moves are drawn.
    BookRandomness(u64),
    Notation(Notation),
    /// The 8x8 evaluation of `strong`.
    Eval(EvalKind),
}

/// How replies write moves (and, for GoGui's, how moves are read).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Notation {
    /// `d3`
    #[default]
    Standard,
    /// `D3`
    Upper,
    /// The labs' row-column letters: `cd`
    Lab,
    /// GoGui's: upper case, rows counted from the bottom, no column I
    /// (`D6` on 8x8 is our d3; on 10x10 the ninth column is `J`; with
    /// 25 letters left, the 26th column is `AA`).
    GoGui,
}

impl Notation {
    /// `mv` on an n x n board written in this notation.
    pub fn write(self, mv: Move, n: usize) -> String {
        match (self, mv) {
            (Notation::Standard, _) => mv.standard(),
            (Notation::Upper, _) => mv.standard().to_uppercase(),
            (Notation::Lab, _) => mv.lab(),
            (Notation::GoGui, Move::Pass) => "PASS".into(),
            (Notation::GoGui, Move::Place(sq)) => {
                let (row, col) = (sq.row as usize, sq.col as usize);
                let letter = col + usize::from(col >= GOGUI_I);
                format!("{}{}", gogui_letters(letter), n - row)
            }
        }
    }

    /// The move meant by `mv` as the parser read it (`d3`: column d, row
    /// 3 from the top): GoGui's count rows from the bottom and skip I.
    pub fn read(self, mv: Move, n: usize) -> Result<Move, String> {
        match (self, mv) {
            (Notation::GoGui, Move::Place(sq)) => {
                let (row, letter) = (sq.row as usize, sq.col as usize);
                if letter == GOGUI_I {
                    return Err("GoGui coordinates have no column I".into());
                }
                let col = letter - usize::from(letter > GOGUI_I);
                if row >= n || col >= n {
                    let text = format!("{}{}", gogui_letters(letter), row + 1);
                    return Err(format!("{text} is off the {n}x{n} board"));
                }
                Ok(Move::Place(Square::new(n - 1 - row, col)))
            }
            (_, Move::Place(sq)) if sq.col as usize == GOGUI_AA => {
                Err(format!("AA{} is off the board", sq.row + 1))
            }
            _ => Ok(mv),
        }
    }
}

/// The column of the letter I, which GoGui's coordinates skip.
const GOGUI_I: usize = 8;

/// GoGui's 26th column, `AA`, as the parser reads it: the letter after
/// `Z` (no square of ours has this column, so in any other notation the
/// move is off the board).
pub(super) const GOGUI_AA: usize = 26;

/// The column letters of a letter index of the parser's (0 for `A`, 25
/// for `Z`, [`GOGUI_AA`] for `AA`).
fn gogui_letters(letter: usize) -> String {
    if letter == GOGUI_AA {
        "AA".into()
    } else {
        char::from(b'A' + letter as u8).into()
    }
}

/// The command line that [`parse_line`](super::grammar::parse_line) reads back as this command: the
/// one vocabulary for both sides of the protocol, so that the referee's
/// client, the latency tool and the contestants write what the daemon
/// parses. Numbers use Rust's shortest round-tripping form; `komi`, which
/// keeps no value, is written with 0.
impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.name();
        match self {
            Command::KnownCommand(w) | Command::SetGame(w) | Command::LoadGame(w) => {
                write!(f, "{name} {w}")
            }
            Command::BoardSize(n) => write!(f, "{name} {n}"),
            Command::Komi => write!(f, "{name} 0"),
            Command::Play(c, m) => write!(f, "{name} {c} {m}"),
            Command::Genmove(c) | Command::RegGenmove(c) => write!(f, "{name} {c}"),
            Command::TimeSettings {
                main,
                byoyomi,
                stones,
            } => write!(f, "{name} {main} {byoyomi} {stones}"),
            Command::TimeLeft {
                color,
                seconds,
                stones,
            } => write!(f, "{name} {color} {seconds} {stones}"),
            Command::Setup(Setup::Placements(list)) => {
                write!(f, "{name}")?;
                for (c, sq) in list {
                    write!(f, " {}{}", c.letter(), sq.lab())?;
                }
                Ok(())
            }
            Command::Setup(Setup::Board { cells, to_move, .. }) => {
                let cells: String = cells
                    .iter()
                    .map(|c| match c {
                        Some(Color::Black) => 'X',
                        Some(Color::White) => 'O',
                        None => '-',
                    })
                    .collect();
                write!(f, "{name} {cells} {to_move}")
            }
            Command::Legal(Some(c)) => write!(f, "{name} {c}"),
            Command::Analyze(Some(k)) | Command::AnalyzeGame(Some(k)) => write!(f, "{name} {k}"),
            Command::Help(Some(w)) => write!(f, "{name} {w}"),
            Command::Set(setting) => match setting {
                Setting::Player(p) => write!(f, "{name} player {p}"),
                Setting::MoveTime(ms) => write!(f, "{name} movetime {ms}"),
                Setting::Depth(d) => write!(f, "{name} depth {d}"),
                Setting::Hash(mb) => write!(f, "{name} hash {mb}"),
                Setting::Threads(n) => write!(f, "{name} threads {n}"),
                Setting::Book(b) => write!(f, "{name} book {b}"),
                Setting::BookRandomness(d) => write!(f, "{name} bookrandomness {d}"),
                Setting::Eval(e) => write!(f, "{name} eval {}", e.name()),
                Setting::Notation(n) => write!(
                    f,
                    "{name} notation {}",
                    match n {
                        Notation::Standard => "standard",
                        Notation::Upper => "upper",
                        Notation::Lab => "lab",
                        Notation::GoGui => "gogui",
                    }
                ),
            },
            _ => write!(f, "{name}"),
        }
    }
}

impl Command {
    /// The command's name, as [`COMMANDS`](super::grammar::COMMANDS) lists it.
    pub fn name(&self) -> &'static str {
        match self {
            Command::ProtocolVersion => "protocol_version",
            Command::Name => "name",
            Command::Version => "version",
            Command::KnownCommand(_) => "known_command",
            Command::ListCommands => "list_commands",
            Command::Quit => "quit",
            Command::BoardSize(_) => "boardsize",
            Command::ClearBoard => "clear_board",
            Command::Komi => "komi",
            Command::Play(..) => "play",
            Command::Genmove(_) => "genmove",
            Command::RegGenmove(_) => "reg_genmove",
            Command::Undo => "undo",
            Command::ShowBoard => "showboard",
            Command::ShowState => "showstate",
            Command::FinalScore => "final_score",
            Command::TimeSettings { .. } => "time_settings",
            Command::TimeLeft { .. } => "time_left",
            Command::ListGames => "list_games",
            Command::SetGame(_) => "set_game",
            Command::RulesGameId => "gogui-rules_game_id",
            Command::RulesBoardSize => "gogui-rules_board_size",
            Command::RulesLegalMoves => "gogui-rules_legal_moves",
            Command::RulesSideToMove => "gogui-rules_side_to_move",
            Command::RulesFinalResult => "gogui-rules_final_result",
            Command::RulesBoard => "gogui-rules_board",
            Command::Setup(_) => "setup",
            Command::Legal(_) => "legal",
            Command::Analyze(_) => "analyze",
            Command::AnalyzeGame(_) => "analyze_game",
            Command::AnalyzeCommands => "gogui-analyze_commands",
            Command::Evaluate => "evaluate",
            Command::Help(_) => "help",
            Command::Stop => "stop",
            Command::Set(_) => "set",
            Command::LoadGame(_) => "loadgame",
            Command::PrintGgf => "printggf",
        }
    }
}
