//! `reversi openings`: a balanced 8x8 opening suite from recorded games.
//! The openings that enough games share ([`common_openings`]) are each
//! searched by `strong` to a fixed depth, with no opening book and its
//! table cleared, and those whose value lies within a few discs of even
//! are kept, the most played first. The suite is a file for `reversi match
//! --openings file:FILE`.

use crate::engine::{Engine, Resources};
use crate::openings::common_openings;
use crate::rules::{Game, Move, parse_move, split_move_list};
use crate::sealed::{FileError, Pending};
use crate::search::{Limits, in_discs};
use std::io::Write;

/// What a suite is made of.
#[derive(Clone, Copy, Debug)]
pub struct SuiteConfig {
    /// Plies of each opening.
    pub plies: usize,
    /// Fewest games that must share an opening.
    pub min_games: u32,
    /// Plies of each opening's search.
    pub depth: u32,
    /// The most an opening's value may be from even, in discs, either way.
    pub max_discs: f64,
}

/// Why no suite was written.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error("no game has {0} plies without a pass")]
    NoGames(usize),
    #[error("strong gave no value for {0}")]
    NoValue(String),
}

/// One kept opening: its moves, the games that played it and its value
/// for Black in discs.
struct Kept {
    moves: String,
    games: u32,
    black: f64,
}

/// Makes the suite of `games` as `cfg` says into `out` (written whole, or
/// not at all); `progress` sees how many openings are searched, of how
/// many. Returns how many
/// openings were kept, of how many searched.
pub fn make_suite(
    games: &[Vec<Move>],
    cfg: &SuiteConfig,
    out: &str,
    mut progress: impl FnMut(usize, usize),
) -> Result<(usize, usize), SuiteError> {
    let pending = Pending::start(out)?;
    let (counted, common) = common_openings(games, cfg.plies, cfg.min_games);
    if counted == 0 {
        return Err(SuiteError::NoGames(cfg.plies));
    }
    let mut engine = Engine::new("strong", Resources::default()).expect("strong exists");
    let mut kept = Vec::new();
    for (i, (moves, n)) in common.iter().enumerate() {
        let value = value(&mut engine, moves, cfg.depth)?;
        // Black is to move after an even number of plies.
        let black = if cfg.plies.is_multiple_of(2) {
            value
        } else {
            -value
        };
        if black.abs() <= cfg.max_discs {
            kept.push(Kept {
                moves: moves.clone(),
                games: *n,
                black,
            });
        }
        progress(i + 1, common.len());
    }
    let mut text = Vec::new();
    write_suite(&mut text, &kept, common.len(), counted, cfg).expect("writes to memory");
    pending.finish(&text)?;
    Ok((kept.len(), common.len()))
}

/// The value for the side to move after `moves`, in discs, from a search
/// of `depth` plies on a cleared table.
fn value(engine: &mut Engine, moves: &str, depth: u32) -> Result<f64, SuiteError> {
    let mut game = Game::new(8).expect("8x8 is supported");
    for mv in split_move_list(moves) {
        let mv = parse_move(&mv, 8).expect("a counted move");
        game.play_next(mv).expect("a counted opening is legal");
    }
    engine.new_game();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::unlimited()
    };
    let analysis = engine
        .analyse(game.position(), limits, true, &mut |_| {})
        .map_err(|_| SuiteError::NoValue(moves.into()))?;
    let best = analysis.scores.first();
    best.map(|s| in_discs(s.score))
        .ok_or_else(|| SuiteError::NoValue(moves.into()))
}

/// The suite's file: a header that says how it was made, then one opening
/// a line with its games and value as a comment.
fn write_suite(
    out: &mut dyn Write,
    kept: &[Kept],
    common: usize,
    counted: usize,
    cfg: &SuiteConfig,
) -> std::io::Result<()> {
    let SuiteConfig {
        plies,
        min_games,
        depth,
        max_discs,
    } = cfg;
    let n = kept.len();
    writeln!(
        out,
        "# {n} balanced 8x8 openings of {plies} plies, made by `reversi openings`"
    )?;
    writeln!(
        out,
        "# from {counted} games: the {common} openings (the first {plies} plies, up to"
    )?;
    writeln!(
        out,
        "# the start's symmetry, first move f5) played in {min_games} games or more, kept"
    )?;
    writeln!(
        out,
        "# where strong's search to {depth} plies gives Black {max_discs} discs or fewer"
    )?;
    writeln!(
        out,
        "# either way. Each line: the moves, then the games that played it and the value."
    )?;
    for k in kept {
        writeln!(out, "{} # {} games, {:+.2}", k.moves, k.games, k.black)?;
    }
    Ok(())
}
