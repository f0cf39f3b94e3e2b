//! Command lines parsed into [`Command`]s with nom, from a table of every
//! command with its usage. Only syntax is checked here; whether a move is
//! on the board or legal is the controller's business.

use super::command::{Command, GOGUI_AA, Notation, Setting, Setup};
use crate::rules::{Color, Move, Square, parse_move};
use crate::search::pattern::EvalKind;
use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_while1};
use nom::character::complete::{digit1, space0, space1};
use nom::combinator::{all_consuming, eof, map, map_opt, map_res, opt, recognize, value};
use nom::multi::separated_list1;
use nom::number::complete::recognize_float;
use nom::sequence::{delimited, preceded, separated_pair, terminated};
use nom::{IResult, Parser};

/// One request: an optional id and a command.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub id: Option<u64>,
    pub command: Command,
}

/// Why a line was refused, with the id to answer with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    pub id: Option<u64>,
    pub message: String,
}

type Res<'a, O> = IResult<&'a str, O>;

/// A whitespace-free word.
fn word(i: &str) -> Res<'_, &str> {
    take_while1(|c: char| c != ' ').parse(i)
}

fn color(i: &str) -> Res<'_, Color> {
    map_opt(word, Color::parse).parse(i)
}

fn unsigned(i: &str) -> Res<'_, u64> {
    // Too many digits to fit is still a number: saturate, and let range
    // checks say what is wrong with it.
    map(digit1, |d: &str| d.parse().unwrap_or(u64::MAX)).parse(i)
}

fn seconds(i: &str) -> Res<'_, f64> {
    map_res(recognize_float, |s: &str| {
        s.parse::<f64>().map_err(|_| ()).and_then(|x| {
            if x >= 0.0 && x.is_finite() {
                Ok(x)
            } else {
                Err(())
            }
        })
    })
    .parse(i)
}

fn game_move(i: &str) -> Res<'_, Move> {
    map_res(word, |w| {
        parse_move(w, crate::rules::MAX_SIZE).or_else(|e| {
            // GoGui's `AA` column, which only its notation maps to a square.
            let row = w
                .get(..2)
                .filter(|aa| aa.eq_ignore_ascii_case("aa"))
                .and_then(|_| w.get(2..))
                .and_then(|row| parse_move(&format!("a{row}"), crate::rules::MAX_SIZE).ok());
            match row {
                Some(Move::Place(sq)) => Ok(Move::Place(Square::new(sq.row as usize, GOGUI_AA))),
                _ => Err(e),
            }
        })
    })
    .parse(i)
}

fn no_args(i: &str) -> Res<'_, ()> {
    value((), eof).parse(i)
}

/// `Bba`: a colour letter and a lab square (row, column letters).
fn placement(i: &str) -> Res<'_, (Color, Square)> {
    let (rest, w) = word(i)?;
    let b = w.as_bytes();
    let fail = || nom::Err::Error(nom::error::Error::new(i, nom::error::ErrorKind::Verify));
    if b.len() != 3 || !b[1].is_ascii_lowercase() || !b[2].is_ascii_lowercase() {
        return Err(fail());
    }
    let color = match b[0] {
        b'B' | b'b' => Color::Black,
        b'W' | b'w' => Color::White,
        _ => return Err(fail()),
    };
    let sq = Square::new((b[1] - b'a') as usize, (b[2] - b'a') as usize);
    Ok((rest, (color, sq)))
}

fn cell(c: char) -> Option<Option<Color>> {
    match c {
        'X' | 'x' | '*' | 'B' | 'b' => Some(Some(Color::Black)),
        'O' | 'o' | 'W' | 'w' => Some(Some(Color::White)),
        '-' | '.' | 'U' | 'u' => Some(None),
        _ => None,
    }
}

/// The side n of a board with `cells` squares, if it is a square number.
fn side_of(cells: usize) -> Option<usize> {
    (1..=64).find(|n| n * n == cells)
}

/// `{row|row|...}` (White to move) or `[row|row|...]` (Black to move).
fn ascii_state(i: &str) -> Res<'_, Setup> {
    map_opt(word, |w| {
        let (n, cells, to_move) = crate::rules::comp::parse_state(w)?;
        Some(Setup::Board { n, cells, to_move })
    })
    .parse(i)
}

/// `<n*n cells> <side>`: the side as a colour, or `X`/`*` (Black) and `O`
/// (White) as OBF files write it.
fn flat_board(i: &str) -> Res<'_, Setup> {
    let side = |w: &str| match w {
        "X" | "x" | "*" => Some(Color::Black),
        "O" | "o" => Some(Color::White),
        _ => Color::parse(w),
    };
    map_opt(
        separated_pair(word, space1, word),
        move |(cells, to_move): (&str, &str)| {
            let to_move = side(to_move)?;
            let n = side_of(cells.chars().count())?;
            let cells = cells.chars().map(cell).collect::<Option<Vec<_>>>()?;
            Some(Setup::Board { n, cells, to_move })
        },
    )
    .parse(i)
}

fn setup(i: &str) -> Res<'_, Setup> {
    alt((
        ascii_state,
        flat_board,
        map(separated_list1(space1, placement), Setup::Placements),
    ))
    .parse(i)
}

fn setting(i: &str) -> Res<'_, Setting> {
    let number = |key: &'static str| preceded((tag_no_case(key), space1), unsigned);
    alt((
        map(preceded((tag_no_case("player"), space1), word), |w| {
            Setting::Player(w.to_string())
        }),
        map(number("movetime"), Setting::MoveTime),
        map(number("depth"), Setting::Depth),
        map(number("hash"), Setting::Hash),
        map(number("threads"), Setting::Threads),
        map(number("bookrandomness"), Setting::BookRandomness),
        map(preceded((tag_no_case("book"), space1), word), |w| {
            Setting::Book(w.to_string())
        }),
        map(
            map_opt(
                preceded((tag_no_case("eval"), space1), word),
                EvalKind::parse,
            ),
            Setting::Eval,
        ),
        map(
            preceded(
                (tag_no_case("notation"), space1),
                alt((
                    value(Notation::Standard, tag_no_case("standard")),
                    value(Notation::Upper, tag_no_case("upper")),
                    value(Notation::Lab, tag_no_case("lab")),
                    value(Notation::GoGui, tag_no_case("gogui")),
                )),
            ),
            Setting::Notation,
        ),
    ))
    .parse(i)
}

/// Parses the arguments of a command; `None` if they do not fit its usage.
type ArgParser = fn(&str) -> Option<Command>;

/// One command: its name, usage and argument parser.
pub struct Spec {
    pub name: &'static str,
    pub usage: &'static str,
    parse: ArgParser,
}

/// Runs `p` on the whole argument string (surrounding spaces allowed).
fn whole<'a, O>(
    i: &'a str,
    p: impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>,
) -> Option<O> {
    all_consuming(delimited(space0, p, space0))
        .parse(i)
        .ok()
        .map(|(_, o)| o)
}

macro_rules! spec {
    ($name:literal, $usage:literal, $parse:expr) => {
        Spec {
            name: $name,
            usage: $usage,
            parse: $parse,
        }
    };
}

/// Every command the daemon knows, in `list_commands` order.
pub static COMMANDS: &[Spec] = &[
    spec!("protocol_version", "protocol_version", |i| whole(
        i, no_args
    )
    .map(|_| Command::ProtocolVersion)),
    spec!("name", "name", |i| whole(i, no_args).map(|_| Command::Name)),
    spec!("version", "version", |i| whole(i, no_args)
        .map(|_| Command::Version)),
    spec!("known_command", "known_command <name>", |i| whole(i, word)
        .map(|w| Command::KnownCommand(w.to_string()))),
    spec!("list_commands", "list_commands", |i| whole(i, no_args)
        .map(|_| Command::ListCommands)),
    spec!("quit", "quit", |i| whole(i, no_args).map(|_| Command::Quit)),
    spec!("boardsize", "boardsize <n>", |i| whole(i, unsigned)
        .map(Command::BoardSize)),
    spec!("clear_board", "clear_board", |i| whole(i, no_args)
        .map(|_| Command::ClearBoard)),
    spec!("komi", "komi <number>", |i| whole(
        i,
        recognize(preceded(opt(tag("-")), recognize_float))
    )
    .map(|_| Command::Komi)),
    spec!("play", "play <colour> <move|pass>", |i| whole(
        i,
        separated_pair(color, space1, game_move)
    )
    .map(|(c, m)| Command::Play(c, m))),
    spec!("genmove", "genmove <colour>", |i| whole(i, color)
        .map(Command::Genmove)),
    spec!("reg_genmove", "reg_genmove <colour>", |i| whole(i, color)
        .map(Command::RegGenmove)),
    spec!("undo", "undo", |i| whole(i, no_args).map(|_| Command::Undo)),
    spec!("showboard", "showboard", |i| whole(i, no_args)
        .map(|_| Command::ShowBoard)),
    spec!("showstate", "showstate", |i| whole(i, no_args)
        .map(|_| Command::ShowState)),
    spec!("final_score", "final_score", |i| whole(i, no_args)
        .map(|_| Command::FinalScore)),
    spec!(
        "time_settings",
        "time_settings <main seconds> <byo-yomi seconds> <byo-yomi stones>",
        |i| {
            whole(
                i,
                (
                    terminated(seconds, space1),
                    terminated(seconds, space1),
                    unsigned,
                ),
            )
            .map(|(main, byoyomi, stones)| Command::TimeSettings {
                main,
                byoyomi,
                stones,
            })
        }
    ),
    spec!("time_left", "time_left <colour> <seconds> <stones>", |i| {
        whole(
            i,
            (
                terminated(color, space1),
                terminated(seconds, space1),
                unsigned,
            ),
        )
        .map(|(color, seconds, stones)| Command::TimeLeft {
            color,
            seconds,
            stones,
        })
    }),
    spec!("list_games", "list_games", |i| whole(i, no_args)
        .map(|_| Command::ListGames)),
    spec!("set_game", "set_game <game>", |i| whole(i, word)
        .map(|w| Command::SetGame(w.to_string()))),
    spec!("gogui-rules_game_id", "gogui-rules_game_id", |i| whole(
        i, no_args
    )
    .map(|_| Command::RulesGameId)),
    spec!("gogui-rules_board_size", "gogui-rules_board_size", |i| {
        whole(i, no_args).map(|_| Command::RulesBoardSize)
    }),
    spec!("gogui-rules_legal_moves", "gogui-rules_legal_moves", |i| {
        whole(i, no_args).map(|_| Command::RulesLegalMoves)
    }),
    spec!(
        "gogui-rules_side_to_move",
        "gogui-rules_side_to_move",
        |i| whole(i, no_args).map(|_| Command::RulesSideToMove)
    ),
    spec!(
        "gogui-rules_final_result",
        "gogui-rules_final_result",
        |i| whole(i, no_args).map(|_| Command::RulesFinalResult)
    ),
    spec!("gogui-rules_board", "gogui-rules_board", |i| whole(
        i, no_args
    )
    .map(|_| Command::RulesBoard)),
    spec!(
        "setup",
        "setup <Bba ...> | setup {row|row|...} | setup [row|...] | setup <n*n cells X/O/-> <colour>",
        |i| whole(i, setup).map(Command::Setup)
    ),
    spec!("legal", "legal [colour]", |i| whole(i, opt(color))
        .map(Command::Legal)),
    spec!("analyze", "analyze [k]", |i| whole(i, opt(unsigned))
        .map(Command::Analyze)),
    spec!("analyze_game", "analyze_game [depth]", |i| whole(
        i,
        opt(unsigned)
    )
    .map(Command::AnalyzeGame)),
    spec!("gogui-analyze_commands", "gogui-analyze_commands", |i| {
        whole(i, no_args).map(|_| Command::AnalyzeCommands)
    }),
    spec!("evaluate", "evaluate", |i| whole(i, no_args)
        .map(|_| Command::Evaluate)),
    spec!("help", "help [command]", |i| whole(i, opt(word))
        .map(|w| Command::Help(w.map(str::to_string)))),
    spec!("stop", "stop", |i| whole(i, no_args).map(|_| Command::Stop)),
    spec!(
        "set",
        "set player <name> | set movetime <ms> | set depth <plies> | set hash <MB> | set threads <N> | set notation standard|upper|lab|gogui | set book <file>|off|default | set bookrandomness <discs> | set eval patterns|network",
        |i| whole(i, setting).map(Command::Set)
    ),
    spec!(
        "loadgame",
        "loadgame <GGF game (;GM[Othello]...;)> | loadgame <moves f5d6c3...>",
        |i| {
            let text = i.trim_matches(' ');
            (!text.is_empty()).then(|| Command::LoadGame(text.to_string()))
        }
    ),
    spec!("printggf", "printggf", |i| whole(i, no_args)
        .map(|_| Command::PrintGgf)),
];

/// The table entry for a command name.
pub fn spec(name: &str) -> Option<&'static Spec> {
    COMMANDS.iter().find(|s| s.name == name)
}

/// A request id: digits followed by a space or the end of the line.
fn request_id(i: &str) -> Res<'_, u64> {
    terminated(
        map_res(digit1, |d: &str| d.parse::<u64>()),
        alt((space1, eof)),
    )
    .parse(i)
}

/// Parses one preprocessed, non-empty line.
pub fn parse_line(line: &str) -> Result<Request, Rejection> {
    let line = line.trim_matches(' ');
    let (rest, id) = opt(request_id).parse(line).unwrap_or((line, None));
    let reject = |message: String| Rejection { id, message };
    let (args, name) = take_while1::<_, _, nom::error::Error<&str>>(|c: char| c != ' ')
        .parse(rest)
        .map_err(|_| reject("syntax error: missing command".to_string()))?;
    let spec = spec(name).ok_or_else(|| reject("unknown command".to_string()))?;
    let command =
        (spec.parse)(args).ok_or_else(|| reject(format!("syntax error: usage: {}", spec.usage)))?;
    Ok(Request { id, command })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cmd(line: &str) -> Command {
        parse_line(line).unwrap().command
    }

    #[test]
    fn ids_and_arguments() {
        let r = parse_line("12 play black d3").unwrap();
        assert_eq!(r.id, Some(12));
        assert_eq!(
            r.command,
            Command::Play(Color::Black, Move::Place(Square::new(2, 3)))
        );
        assert_eq!(cmd("play W PASS"), Command::Play(Color::White, Move::Pass));
        assert_eq!(cmd("genmove  white "), Command::Genmove(Color::White));
        assert_eq!(
            cmd("boardsize 99999999999999999999999"),
            Command::BoardSize(u64::MAX)
        );
        assert_eq!(cmd("legal"), Command::Legal(None));
        assert_eq!(
            cmd("set notation upper"),
            Command::Set(Setting::Notation(Notation::Upper))
        );
    }

    #[test]
    fn refusals_keep_the_id() {
        let r = parse_line("7 frobnicate").unwrap_err();
        assert_eq!(
            r,
            Rejection {
                id: Some(7),
                message: "unknown command".into()
            }
        );
        let r = parse_line("8 play black").unwrap_err();
        assert_eq!(r.id, Some(8));
        assert!(r.message.starts_with("syntax error: usage: play"));
        assert!(parse_line("genmove purple").is_err());
        assert!(parse_line("protocol_version 2").is_err());
        assert_eq!(
            parse_line("5").unwrap_err().message,
            "syntax error: missing command"
        );
    }

    #[test]
    fn setup_forms() {
        assert_eq!(
            cmd("setup Bba Wab"),
            Command::Setup(Setup::Placements(vec![
                (Color::Black, Square::new(1, 0)),
                (Color::White, Square::new(0, 1))
            ]))
        );
        let Command::Setup(Setup::Board { n, cells, to_move }) = cmd("setup [b...|.w..|....|....]")
        else {
            panic!()
        };
        assert_eq!(
            (n, to_move, cells[0], cells[5]),
            (4, Color::Black, Some(Color::Black), Some(Color::White))
        );
        let Command::Setup(Setup::Board { n, to_move, .. }) = cmd("setup {....|....|....|....}")
        else {
            panic!()
        };
        assert_eq!((n, to_move), (4, Color::White));
        let Command::Setup(Setup::Board { n, to_move, .. }) =
            cmd(&format!("setup {} w", "-".repeat(36)))
        else {
            panic!()
        };
        assert_eq!((n, to_move), (6, Color::White));
        assert!(parse_line("setup {...|...}").is_err());
        assert!(parse_line(&format!("setup {} w", "-".repeat(35))).is_err());
        assert!(parse_line("setup Bb").is_err());
    }

    /// Commands of every kind, with the values the parser can produce
    /// (names without spaces, finite non-negative times).
    fn any_command() -> impl Strategy<Value = Command> {
        let color = prop_oneof![Just(Color::Black), Just(Color::White)];
        let word = "[a-z0-9_:.-]{1,12}";
        let square = (0usize..26, 0usize..26).prop_map(|(r, c)| Square::new(r, c));
        let mv = prop_oneof![Just(Move::Pass), square.clone().prop_map(Move::Place)];
        let secs = prop_oneof![Just(0.0), 0.0f64..1e7, Just(1e300)];
        let cell = prop_oneof![
            Just(None),
            Just(Some(Color::Black)),
            Just(Some(Color::White))
        ];
        let board = (2usize..=13).prop_flat_map(move |half| {
            let n = 2 * half;
            (
                prop::collection::vec(cell.clone(), n * n),
                prop_oneof![Just(Color::Black), Just(Color::White)],
            )
                .prop_map(move |(cells, to_move)| Setup::Board { n, cells, to_move })
        });
        let setting = prop_oneof![
            word.prop_map(Setting::Player),
            any::<u64>().prop_map(Setting::MoveTime),
            any::<u64>().prop_map(Setting::Depth),
            any::<u64>().prop_map(Setting::Hash),
            any::<u64>().prop_map(Setting::Threads),
            word.prop_map(Setting::Book),
            any::<u64>().prop_map(Setting::BookRandomness),
            prop_oneof![Just(EvalKind::Patterns), Just(EvalKind::Network)].prop_map(Setting::Eval),
            prop_oneof![
                Just(Notation::Standard),
                Just(Notation::Upper),
                Just(Notation::Lab),
                Just(Notation::GoGui)
            ]
            .prop_map(Setting::Notation),
        ];
        prop_oneof![
            prop_oneof![
                Just(Command::ProtocolVersion),
                Just(Command::Name),
                Just(Command::Version),
                Just(Command::ListCommands),
                Just(Command::Quit),
                Just(Command::ClearBoard),
                Just(Command::Komi),
                Just(Command::Undo),
                Just(Command::ShowBoard),
                Just(Command::ShowState),
                Just(Command::FinalScore),
                Just(Command::ListGames),
                Just(Command::RulesGameId),
                Just(Command::RulesBoardSize),
                Just(Command::RulesLegalMoves),
                Just(Command::RulesSideToMove),
                Just(Command::RulesFinalResult),
                Just(Command::RulesBoard),
                Just(Command::Evaluate),
                Just(Command::Stop),
                Just(Command::PrintGgf),
            ],
            "[a-zA-Z0-9();\\[\\]*/ -]{0,30}[a-zA-Z0-9();\\[\\]*/-]"
                .prop_map(|t| Command::LoadGame(t.trim_start().to_string()))
                .prop_filter("not blank", |c| c != &Command::LoadGame(String::new())),
            word.prop_map(Command::KnownCommand),
            word.prop_map(Command::SetGame),
            prop::option::of(word).prop_map(Command::Help),
            any::<u64>().prop_map(Command::BoardSize),
            (color.clone(), mv).prop_map(|(c, m)| Command::Play(c, m)),
            color.clone().prop_map(Command::Genmove),
            color.clone().prop_map(Command::RegGenmove),
            (secs.clone(), secs.clone(), any::<u64>()).prop_map(|(main, byoyomi, stones)| {
                Command::TimeSettings {
                    main,
                    byoyomi,
                    stones,
                }
            }),
            (color.clone(), secs, any::<u64>()).prop_map(|(color, seconds, stones)| {
                Command::TimeLeft {
                    color,
                    seconds,
                    stones,
                }
            }),
            prop::collection::vec((color.clone(), square), 1..6)
                .prop_map(|l| Command::Setup(Setup::Placements(l))),
            board.prop_map(Command::Setup),
            prop::option::of(color).prop_map(Command::Legal),
            prop::option::of(any::<u64>()).prop_map(Command::Analyze),
            prop::option::of(any::<u64>()).prop_map(Command::AnalyzeGame),
            Just(Command::AnalyzeCommands),
            setting.prop_map(Command::Set),
        ]
    }

    proptest! {
        #[test]
        fn every_command_reads_back_as_written(command in any_command(), id in prop::option::of(any::<u64>())) {
            let line = match id {
                Some(id) => format!("{id} {command}"),
                None => command.to_string(),
            };
            prop_assert_eq!(parse_line(&line), Ok(Request { id, command }), "{}", line);
        }
    }
}
