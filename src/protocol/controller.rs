//! The controller: owns the game, the engine and the options, answers each
//! request in order, and is the only writer of stdout. A refused command
//! changes nothing.

use super::Startup;
use super::command::{Command, Notation, Setting, Setup};
use super::grammar::{COMMANDS, Rejection, Request, spec};
use crate::analysis::{self, AnalyzeConfig, Budget, InputGame, report};
use crate::engine::{Clock, Engine, MAX_HASH_MB, MAX_THREADS, OpeningBook, Options};
use crate::players::Evaluation;
use crate::rules::{
    Color, Game, Move, Position, RulesError, Square, ggf, is_supported_size, parse_move, printable,
    split_move_list,
};
use crate::search::{Limits, MAX_TIME, StopToken, proven_discs, score_text};
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// The largest `set depth` accepted: more plies than any game has moves.
pub const MAX_DEPTH: u64 = 1000;
/// The most byo-yomi stones `time_settings` and `time_left` accept.
pub const MAX_STONES: u64 = 10_000;

/// Refuses a clock figure beyond [`MAX_TIME`] or a stone count beyond
/// [`MAX_STONES`].
fn check_clock(seconds: &[f64], stones: u64) -> Result<(), String> {
    let max = MAX_TIME.as_secs();
    if seconds.iter().any(|&s| s > max as f64) {
        return Err(format!("times must be 0 to {max} seconds"));
    }
    if stones > MAX_STONES {
        return Err(format!("stones must be 0 to {MAX_STONES}"));
    }
    Ok(())
}

/// GoGui's Analyze menu (`type/label/command`): the game's analysis and
/// the position's, as text whose moves GoGui marks (`hstring`: moves
/// highlighted; `hpstring`: also marked on the board); `%s` asks for the
/// depth.
const ANALYZE_COMMANDS: [&str; 3] = [
    "hstring/Analyze game/analyze_game",
    "hstring/Analyze game to a depth/analyze_game %s",
    "hpstring/Analyze position/analyze",
];

/// A command's outcome: the result text, or the error message.
type Outcome = Result<String, String>;

pub struct Controller<W: Write> {
    out: W,
    game: Game,
    engine: Engine,
    clock: Clock,
    depth: Option<u32>,
    notation: Notation,
}

fn rules_error(e: RulesError) -> String {
    e.to_string()
}

impl<W: Write> Controller<W> {
    /// A controller for a new game of the `startup` size, in its notation,
    /// with the engine `options` describe.
    pub fn new(out: W, options: &Options, startup: Startup) -> io::Result<Self> {
        let engine = options.engine().map_err(io::Error::other)?;
        engine.check_size(startup.size).map_err(io::Error::other)?;
        Ok(Controller {
            out,
            game: Game::new(startup.size).map_err(io::Error::other)?,
            engine,
            clock: options.clock(),
            depth: options.depth,
            notation: startup.notation,
        })
    }

    /// Answers one line; `Ok(false)` when the daemon must exit (`quit`).
    pub fn answer(
        &mut self,
        request: Result<Request, Rejection>,
        token: StopToken,
        received: Instant,
    ) -> io::Result<bool> {
        let (id, outcome, go_on) = match request {
            Err(r) => (r.id, Err(r.message), true),
            Ok(Request { id, command }) => {
                let go_on = command != Command::Quit;
                (id, self.handle(command, token, received), go_on)
            }
        };
        let id = id.map(|i| i.to_string()).unwrap_or_default();
        let text = match outcome {
            Ok(r) if r.is_empty() || r.starts_with('\n') => format!("={id}{r}\n\n"),
            Ok(r) => format!("={id} {r}\n\n"),
            Err(m) => format!("?{id} {m}\n\n"),
        };
        match self
            .out
            .write_all(text.as_bytes())
            .and_then(|_| self.out.flush())
        {
            Ok(()) => Ok(go_on),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
            Err(e) => Err(e),
        }
    }

    fn position(&self) -> &Position {
        self.game.position()
    }

    fn n(&self) -> usize {
        self.position().size()
    }

    fn handle(&mut self, command: Command, token: StopToken, received: Instant) -> Outcome {
        match command {
            Command::ProtocolVersion => Ok("2".into()),
            Command::Name => Ok("reversi".into()),
            Command::Version => Ok(env!("CARGO_PKG_VERSION").into()),
            Command::KnownCommand(name) => Ok(spec(&name).is_some().to_string()),
            Command::ListCommands => Ok(COMMANDS
                .iter()
                .map(|s| s.name)
                .collect::<Vec<_>>()
                .join("\n")),
            Command::Quit | Command::Komi | Command::Stop => Ok(String::new()),
            Command::BoardSize(n) => self.board_size(n),
            Command::ClearBoard => {
                self.new_game(Game::new(self.n()).map_err(rules_error)?);
                Ok(String::new())
            }
            // gogui-twogtp sends the last pass of a finished game to both
            // engines: it changes nothing, as `genmove` answers `pass` there.
            Command::Play(_, Move::Pass) if self.position().is_game_over() => Ok(String::new()),
            Command::Play(color, mv) => self.play(color, mv),
            Command::Genmove(color) => self.genmove(color, token, received, true),
            Command::RegGenmove(color) => self.genmove(color, token, received, false),
            Command::Undo => self.game.undo().map(|_| String::new()).map_err(rules_error),
            Command::ShowBoard => Ok(self.show_board()),
            Command::ShowState => Ok(self.position().comp_state()),
            Command::FinalScore => Ok(self.score()),
            // GoGui shows this text as it is: a draw says so.
            Command::RulesFinalResult => Ok(match self.score().as_str() {
                "0" => "Draw".into(),
                score => score.into(),
            }),
            Command::TimeSettings {
                main,
                byoyomi,
                stones,
            } => check_clock(&[main, byoyomi], stones)
                .map(|()| self.clock.set_clocks(main, byoyomi, stones))
                .map(|()| String::new()),
            Command::TimeLeft {
                color,
                seconds,
                stones,
            } => check_clock(&[seconds], stones)
                .map(|()| self.clock.set_left(color, seconds, stones))
                .map(|()| String::new()),
            Command::ListGames | Command::RulesGameId => Ok("Othello".into()),
            Command::SetGame(game) => set_game(&game),
            Command::RulesBoardSize => Ok(self.n().to_string()),
            Command::RulesLegalMoves => {
                let pos = self.position();
                if pos.is_game_over() {
                    Ok(String::new())
                } else {
                    Ok(self.moves_text(pos.to_move()))
                }
            }
            Command::RulesSideToMove => Ok(self.position().to_move().name().into()),
            Command::RulesBoard => Ok(self.rules_board()),
            Command::Setup(setup) => self.setup(setup),
            Command::Legal(color) => {
                let color = color.unwrap_or(self.position().to_move());
                Ok(self.moves_text(color))
            }
            Command::Set(setting) => self.set(setting),
            Command::LoadGame(text) => self.load_game(&text),
            Command::PrintGgf => Ok(self.ggf()),
            Command::Analyze(k) => self.analyze(k, token, received),
            Command::AnalyzeGame(depth) => self.analyze_game(depth, token),
            Command::AnalyzeCommands => Ok(ANALYZE_COMMANDS.join("\n")),
            Command::Evaluate => self.evaluate(),
            Command::Help(name) => help(name.as_deref()),
        }
    }

    /// `boardsize`: a new game on an n x n board.
    fn board_size(&mut self, n: u64) -> Outcome {
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        if !is_supported_size(n) {
            return Err("unacceptable size".into());
        }
        self.new_game(Game::new(n).map_err(rules_error)?);
        Ok(String::new())
    }

    /// `play`: a move of either colour, checked, with a pass played first
    /// for the other side when it has none.
    fn play(&mut self, color: Color, mv: Move) -> Outcome {
        let mv = self.notation.read(mv, self.n())?;
        self.check_on_board(mv)?;
        let n = self.n();
        let notation = self.notation;
        self.game
            .play_passing(color, mv)
            .map_err(|e| e.describe(|sq| notation.write(Move::Place(sq), n)))?;
        Ok(String::new())
    }

    /// `loadgame`: a GGF record (any start position and size) or a move
    /// list from the standard start of the current size, every move
    /// checked; the game keeps its history, so `undo` goes back through it.
    fn load_game(&mut self, text: &str) -> Outcome {
        let game = if text.starts_with('(') {
            ggf::parse(text).map_err(|e| e.to_string())?.game
        } else {
            let mut game = Game::new(self.n()).map_err(rules_error)?;
            for (i, word) in split_move_list(text).iter().enumerate() {
                let mv = parse_move(word, self.n()).map_err(|e| format!("move {}: {e}", i + 1))?;
                game.play_next(mv)
                    .map_err(|e| format!("move {} ({}): {e}", i + 1, printable(word)))?;
            }
            game
        };
        self.engine
            .check_size(game.position().size())
            .map_err(|e| e.to_string())?;
        self.new_game(game);
        Ok(String::new())
    }

    /// `printggf`: the game on one GGF line, from its start position, with
    /// the result once it is over.
    fn ggf(&self) -> String {
        let pos = self.position();
        let result = if pos.is_game_over() {
            format!("{:+}", pos.black_margin())
        } else {
            "?".into()
        };
        let moves: Vec<_> = self.game.moves().collect();
        let header = ggf::Header {
            result: &result,
            ..ggf::Header::unnamed(ggf::Clocks::None)
        };
        ggf::write(&header, self.game.start(), &moves)
    }

    /// Starts `game` afresh: the player forgets the old one.
    fn new_game(&mut self, game: Game) {
        self.game = game;
        self.engine.new_game();
    }

    fn check_on_board(&self, mv: Move) -> Result<(), String> {
        match mv {
            Move::Place(sq) if !sq.on_board(self.n()) => Err(rules_error(RulesError::OffBoard(sq))),
            _ => Ok(()),
        }
    }

    fn genmove(
        &mut self,
        color: Color,
        token: StopToken,
        received: Instant,
        play: bool,
    ) -> Outcome {
        let mut game = self.game.clone();
        let pos = *game.position();
        if pos.is_game_over() {
            return Ok("pass".into());
        }
        if color != pos.to_move() {
            if !pos.must_pass() {
                return Err(rules_error(RulesError::NotYourTurn(color)));
            }
            game.play(pos.to_move(), Move::Pass).map_err(rules_error)?;
        }
        let pos = *game.position();
        self.engine
            .check_size(pos.size())
            .map_err(|e| e.to_string())?;
        let mv = if !pos.has_moves(color) {
            Move::Pass
        } else {
            let limits = self.limits(&pos, token, received);
            self.engine.choose(&pos, limits)
        };
        if play {
            game.play(color, mv).map_err(rules_error)?;
            self.game = game;
            self.clock.charge(color, received.elapsed());
        }
        Ok(self.notation.write(mv, self.n()))
    }

    /// The limits of a search of `pos` read at `received` (see
    /// [`Clock::limits`]).
    fn limits(&self, pos: &Position, token: StopToken, received: Instant) -> Limits {
        self.clock.limits(
            pos,
            self.engine.depth_defined(),
            self.depth,
            token,
            received,
        )
    }

    /// Every legal move's score for the side to move, best first (the
    /// best `k` with `analyze k`), searched with `genmove`'s time.
    fn analyze(&mut self, k: Option<u64>, token: StopToken, received: Instant) -> Outcome {
        let pos = *self.position();
        if pos.is_game_over() {
            return Err(rules_error(RulesError::GameOver));
        }
        self.engine
            .check_size(pos.size())
            .map_err(|e| e.to_string())?;
        if !pos.has_moves(pos.to_move()) {
            return Ok("pass".into());
        }
        let n = self.n();
        let legal = pos.legal_moves(pos.to_move());
        let k = k.map_or(legal.len(), |k| k as usize).max(1);
        // The book's moves first, marked; the search scores the others.
        let (book, depth) = self.engine.book_moves(&pos);
        let mut lines: Vec<String> = book
            .iter()
            .take(k)
            .map(|m| {
                let mv = self.notation.write(m.mv, n);
                let value = score_text(i32::from(m.value), false);
                match m.deviation {
                    true => format!("{mv} {value} book deviation depth {depth}"),
                    false => format!("{mv} {value} book {} games", m.games),
                }
            })
            .collect();
        if lines.len() == k || book.len() == legal.len() {
            return Ok(lines.join("\n"));
        }
        let limits = Limits {
            excluded: book.iter().filter_map(|m| m.mv.index(n)).collect(),
            ..self.limits(&pos, token, received)
        };
        // The best move alone needs only genmove's search, not a proof of
        // every other move's score.
        let scores = self
            .engine
            .analyse(&pos, limits, k == 1, &mut |_| {})
            .map_err(|e| e.to_string())?
            .scores;
        lines.extend(scores.iter().take(k - lines.len()).map(|s| {
            let mv = self.notation.write(s.mv, n);
            let score = score_text(s.score, s.exact);
            match proven_discs(s.score).filter(|_| s.exact) {
                Some(_) => format!("{mv} {score} exact"),
                None => format!("{mv} {score} depth {}", s.depth),
            }
        }));
        Ok(lines.join("\n"))
    }

    /// Every move played so far against the best move of its position,
    /// searched `depth` plies (10) and solved exactly from 20 empties on
    /// 8x8: `reversi analyze`'s table and the players' summaries, moves in
    /// the daemon's notation. A `stop` ends it with the moves analysed by
    /// then.
    fn analyze_game(&mut self, depth: Option<u64>, token: StopToken) -> Outcome {
        let depth = match depth {
            None => analysis::DEFAULT_DEPTH,
            Some(d) if (1..=u64::from(analysis::MAX_DEPTH)).contains(&d) => d as u32,
            Some(_) => return Err(format!("depth must be 1 to {}", analysis::MAX_DEPTH)),
        };
        let resources = self.engine.resources();
        let cfg = AnalyzeConfig {
            budget: Budget::Depth(depth),
            threads: resources.threads,
            hash_mb: (resources.hash_mb / resources.threads.max(1)).max(1),
            eval: resources.eval,
            stop: token,
            ..AnalyzeConfig::default()
        };
        let game = InputGame {
            label: "this game".into(),
            black: String::new(),
            white: String::new(),
            game: self.game.clone(),
            opening: 0,
        };
        let analyses = analysis::analyze(&[game], &cfg, &|_, _| {});
        let n = self.n();
        let mut table = Vec::new();
        report::write_moves(&analyses[0], &|mv| self.notation.write(mv, n), &mut table)
            .map_err(|e| e.to_string())?;
        Ok(format!("\n{}", String::from_utf8_lossy(&table).trim_end()))
    }

    /// The player's static evaluation of the current position: its own
    /// integer score (`norvig:<depth>`: COMP24011's, White minus Black),
    /// or discs for the side to move.
    fn evaluate(&mut self) -> Outcome {
        let pos = *self.position();
        match self.engine.evaluate(&pos) {
            Some(Evaluation::Points(p)) => Ok(p.to_string()),
            Some(Evaluation::Discs(d)) => Ok(score_text(d, false)),
            None => Err(format!("{} has no static evaluation", self.engine.player())),
        }
    }

    fn moves_text(&self, color: Color) -> String {
        let moves = self.position().legal_moves(color);
        if moves.is_empty() {
            return "pass".into();
        }
        moves
            .into_iter()
            .map(|sq| self.notation.write(Move::Place(sq), self.n()))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// `B+6`, `W+2` or `0`: the disc difference, empty squares to the
    /// winner once the game is over.
    fn score(&self) -> String {
        match self.position().black_margin() {
            0 => "0".into(),
            d if d > 0 => format!("B+{d}"),
            d => format!("W+{}", -d),
        }
    }

    fn cell_char(&self, sq: Square, empty: char) -> char {
        match self.position().cell(sq) {
            Some(Color::Black) => 'X',
            Some(Color::White) => 'O',
            None => empty,
        }
    }

    /// A status line, then the board with column letters and row numbers.
    fn show_board(&self) -> String {
        let pos = self.position();
        let n = self.n();
        let status = if pos.is_game_over() {
            "game over".to_string()
        } else {
            format!("{} to move", pos.to_move())
        };
        let letters: String = (0..n)
            .map(|c| format!(" {}", (b'a' + c as u8) as char))
            .collect();
        let mut text = format!(
            "{status}; black (X) {}, white (O) {}\n  {letters}\n",
            pos.count(Color::Black),
            pos.count(Color::White)
        );
        for r in 0..n {
            text.push_str(&format!("{:>2}", r + 1));
            for c in 0..n {
                text.push(' ');
                text.push(self.cell_char(Square::new(r, c), '-'));
            }
            text.push_str(&format!(" {}\n", r + 1));
        }
        text.push_str(&format!("  {letters}"));
        text
    }

    /// GoGui's board: rows from the top, cells `X`, `O`, `.` by spaces,
    /// the first row on the `=` line (GoGui reads the answer from the
    /// first space on, and a row of its own after `=` lost a cell).
    fn rules_board(&self) -> String {
        let n = self.n();
        let rows: Vec<String> = (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| self.cell_char(Square::new(r, c), '.').to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        rows.join("\n")
    }

    fn setup(&mut self, setup: Setup) -> Outcome {
        match setup {
            Setup::Placements(list) => {
                let mut pos = *self.position();
                for (color, sq) in list {
                    pos = pos.with_cell(sq, Some(color)).map_err(rules_error)?;
                }
                self.game = Game::from_position(pos);
            }
            Setup::Board { n, cells, to_move } => {
                if !is_supported_size(n) {
                    return Err("unacceptable size".into());
                }
                let pos = Position::from_cells(n, &cells, to_move).map_err(rules_error)?;
                if n != self.n() {
                    self.engine.new_game();
                }
                self.game = Game::from_position(pos);
            }
        }
        Ok(String::new())
    }

    fn set(&mut self, setting: Setting) -> Outcome {
        match setting {
            Setting::Player(name) => {
                let mut engine =
                    Engine::new(&name, self.engine.resources()).map_err(|e| e.to_string())?;
                engine.check_size(self.n()).map_err(|e| e.to_string())?;
                engine.set_book(self.engine.take_book());
                engine.new_game();
                self.engine = engine;
            }
            Setting::MoveTime(ms) if ms == 0 || ms > MAX_TIME.as_millis() as u64 => {
                return Err(format!("movetime must be 1 to {} ms", MAX_TIME.as_millis()));
            }
            Setting::MoveTime(ms) => {
                self.clock.set_move_time(Duration::from_millis(ms));
            }
            Setting::Depth(d) if d > MAX_DEPTH => {
                return Err(format!("depth must be 0 (no limit) to {MAX_DEPTH}"));
            }
            Setting::Depth(0) => self.depth = None,
            Setting::Depth(d) => self.depth = Some(d as u32),
            Setting::Hash(mb) if mb == 0 || mb > MAX_HASH_MB as u64 => {
                return Err(format!("hash must be 1 to {MAX_HASH_MB} MB"));
            }
            Setting::Hash(mb) => self.engine.set_hash_mb(mb as usize),
            Setting::Threads(n) if n == 0 || n > MAX_THREADS as u64 => {
                return Err(format!("threads must be 1 to {MAX_THREADS}"));
            }
            Setting::Threads(n) => self.engine.set_threads(n as usize),
            Setting::Eval(e) => self.engine.set_eval(e),
            Setting::Notation(n) => self.notation = n,
            Setting::Book(path) if path.eq_ignore_ascii_case("off") => self.engine.set_book(None),
            Setting::Book(path) if path.eq_ignore_ascii_case("default") => self
                .engine
                .set_book(Some(OpeningBook::new(crate::book::repository()))),
            Setting::Book(path) => {
                let book = crate::tools::book::load(&path).map_err(|e| e.to_string())?;
                self.engine
                    .set_book(Some(OpeningBook::new(std::sync::Arc::new(book))));
            }
            Setting::BookRandomness(d) if d > 64 => {
                return Err("book randomness must be 0 to 64 discs".into());
            }
            Setting::BookRandomness(d) => match self.engine.book_mut() {
                Some(book) => book.set_randomness(d as f64, 0),
                None => return Err("no book (set book <file> first)".into()),
            },
        }
        Ok(String::new())
    }
}

/// `set_game`: Othello (or Reversi), any case.
fn set_game(game: &str) -> Outcome {
    if game.eq_ignore_ascii_case("othello") || game.eq_ignore_ascii_case("reversi") {
        Ok(String::new())
    } else {
        Err(format!(
            "unsupported game '{}' (only Othello)",
            printable(game)
        ))
    }
}

/// `help`: every command's usage, or one command's.
fn help(name: Option<&str>) -> Outcome {
    match name {
        None => Ok(COMMANDS
            .iter()
            .map(|s| s.usage)
            .collect::<Vec<_>>()
            .join("\n")),
        Some(name) => spec(name)
            .map(|s| s.usage.to_string())
            .ok_or_else(|| format!("unknown command '{}'", printable(name))),
    }
}
