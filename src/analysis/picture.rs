//! The analysis as pictures: the graph of the score over a game (the
//! plotters crate's SVG), and a page of graphs, summaries and moves.

use super::report::{player_name, summary_lines};
use super::{AnalyzeConfig, Budget, GameAnalysis, Mark, MoveAnalysis, for_black};
use crate::rules::Color;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::Color as _;
use serde::Serialize;

/// Size of one game's graph, in pixels.
const GRAPH_SIZE: (u32, u32) = (900, 320);

/// Black's view of the game after each analysed move: the best score of
/// the position the move was played in, for Black (the evaluation graph's
/// points), with the ply.
fn black_view(a: &GameAnalysis) -> Vec<(usize, f64)> {
    a.moves
        .iter()
        .map(|m| (m.ply, for_black(m.colour, m.best_score)))
        .collect()
}

/// Draws `a`'s graph on `area`: the score over the game from Black's
/// view, the mistakes (orange) and blunders (red) marked at the move that
/// made them, and the region solved exactly shaded. Returns where each
/// ply's point lies across the area, in pixels from its left, so that a
/// page can tell which move a click is nearest.
fn draw(a: &GameAnalysis, area: &DrawingArea<SVGBackend, Shift>) -> Result<Vec<i32>, String> {
    let points = black_view(a);
    let last = a.moves.last().map_or(1, |m| m.ply);
    let most = points
        .iter()
        .map(|(_, s)| s.abs())
        .fold(8.0f64, f64::max)
        .ceil();
    let title = format!(
        "{} against {}: the score for Black, in discs",
        player_name(a, Color::Black),
        player_name(a, Color::White)
    );
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(45)
        .build_cartesian_2d(0..last + 1, -most..most)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("ply")
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| e.to_string())?;
    if let Some(first) = a.moves.iter().find(|m| m.exact) {
        let shade = RGBColor(220, 230, 245).filled();
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(first.ply, -most), (last + 1, most)],
                shade,
            )))
            .map_err(|e| e.to_string())?
            .label("solved exactly")
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], shade));
    }
    chart
        .draw_series(LineSeries::new([(0, 0.0), (last + 1, 0.0)], BLACK.mix(0.4)))
        .map_err(|e| e.to_string())?;
    chart
        .draw_series(LineSeries::new(
            points.iter().copied(),
            BLUE.stroke_width(2),
        ))
        .map_err(|e| e.to_string())?
        .label("score (Black's view)")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 12, y)], BLUE.stroke_width(2)));
    for (mark, colour, label) in [
        (Mark::Mistake, RGBColor(245, 150, 0), "mistake"),
        (Mark::Blunder, RED, "blunder"),
    ] {
        let marked: Vec<(usize, f64)> = a
            .moves
            .iter()
            .zip(&points)
            .filter(|(m, _)| m.mark == Some(mark))
            .map(|(_, p)| *p)
            .collect();
        chart
            .draw_series(
                marked
                    .iter()
                    .map(|&(x, y)| Circle::new((x, y), 5, colour.filled())),
            )
            .map_err(|e| e.to_string())?
            .label(label)
            .legend(move |(x, y)| Circle::new((x + 6, y), 5, colour.filled()));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK.mix(0.3))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(|e| e.to_string())?;
    let left = area.get_base_pixel().0;
    Ok((0..=last)
        .map(|ply| chart.backend_coord(&(ply, 0.0)).0 - left)
        .collect())
}

/// The evaluation graphs of `analyses` as one SVG, a graph a game, one
/// above the other.
pub fn svg(analyses: &[GameAnalysis]) -> Result<String, String> {
    let mut text = String::new();
    {
        let (width, height) = GRAPH_SIZE;
        let size = (width, height * analyses.len().max(1) as u32);
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        for (a, panel) in analyses
            .iter()
            .zip(root.split_evenly((analyses.len().max(1), 1)))
        {
            draw(a, &panel)?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(text)
}

/// One game's graph, for a page that steps its board by it.
#[derive(Clone, Debug, Serialize)]
pub struct Graph {
    pub svg: String,
    /// The width of the picture, in pixels.
    pub width: u32,
    /// Where ply k's point lies across the picture (k from 0, the start),
    /// in pixels from its left.
    pub plies_x: Vec<i32>,
}

/// `a`'s graph alone, with where each ply lies in it.
pub fn graph(a: &GameAnalysis) -> Result<Graph, String> {
    let mut text = String::new();
    let plies_x = {
        let root = SVGBackend::with_string(&mut text, GRAPH_SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let xs = draw(a, &root)?;
        root.present().map_err(|e| e.to_string())?;
        xs
    };
    Ok(Graph {
        svg: text,
        width: GRAPH_SIZE.0,
        plies_x,
    })
}

/// The settings of an analysis in words: `searched to 10 plies, solved
/// exactly from 20 empties (8x8)`.
pub fn settings_text(cfg: &AnalyzeConfig) -> String {
    let budget = match cfg.budget {
        Budget::Depth(d) => format!("searched to {d} plies"),
        Budget::Time(t) => format!("searched {} ms a move", t.as_millis()),
    };
    format!(
        "{budget}, solved exactly from {} empties (8x8)",
        cfg.exact_empties
    )
}

/// The analyses as a page: for each game its graph (as [`svg`] draws it),
/// the players' summaries and the table of moves, mistakes and blunders
/// highlighted.
pub fn html(analyses: &[GameAnalysis], cfg: &AnalyzeConfig) -> Result<String, String> {
    #[derive(Serialize)]
    struct PageGame<'a> {
        title: String,
        svg: String,
        summaries: Vec<String>,
        moves: &'a [MoveAnalysis],
    }
    let games = analyses
        .iter()
        .map(|a| {
            let summaries = summary_lines(a).to_vec();
            Ok(PageGame {
                title: format!(
                    "Game of {}: {} against {}",
                    a.label,
                    player_name(a, Color::Black),
                    player_name(a, Color::White)
                ),
                svg: svg(std::slice::from_ref(a))?,
                summaries,
                moves: &a.moves,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    #[derive(Serialize)]
    struct Page<'a> {
        games: Vec<PageGame<'a>>,
        mistake: f64,
        blunder: f64,
        settings: String,
    }
    let page = Page {
        games,
        mistake: cfg.mistake,
        blunder: cfg.blunder,
        settings: settings_text(cfg),
    };
    let mut env = minijinja::Environment::new();
    env.add_template("analysis", include_str!("page.html"))
        .map_err(|e| e.to_string())?;
    env.get_template("analysis")
        .and_then(|t| t.render(minijinja::value::Serde(&page)))
        .map_err(|e| e.to_string())
}
