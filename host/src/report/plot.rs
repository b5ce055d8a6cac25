//! The charts of an analysis, drawn with plotters to an SVG or PNG file (chosen by the
//! file's extension): positions by value and remoteness (wins, losses and ties grouped
//! per remoteness, draws as their own bar, since a draw has no remoteness), and for
//! WinBy games a second chart of positions by margin. The count axis is linear or,
//! with `log_scale`, logarithmic so small counts stay visible next to large ones.
//!
//! The font is embedded (DejaVu Sans) so a plot never depends on the machine's fonts.
//! This file only draws what an `Analysis` holds; it must not count or read databases.

use crate::engine::ask::analyze::{Analysis, Counts};
use crate::engine::numbers::{count, signed};
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Why a plot could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The file name does not say SVG or PNG.
    #[error("cannot plot to {0}: the file name must end in .svg or .png")]
    Format(String),
    /// The file cannot be written (checked before the analysis starts).
    #[error("cannot plot to {}: {reason}", path.display())]
    Unwritable {
        /// The file.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// The embedded font could not be read.
    #[error("the embedded plot font is unusable")]
    Font,
    /// Drawing or writing failed.
    #[error("drawing {path}: {message}")]
    Draw {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
}

/// How to draw.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlotOptions {
    /// A logarithmic count axis.
    pub log_scale: bool,
}

const WIN: RGBColor = RGBColor(46, 160, 67);
const LOSE: RGBColor = RGBColor(214, 39, 40);
const TIE: RGBColor = RGBColor(230, 170, 0);
const DRAW: RGBColor = RGBColor(120, 120, 120);
const AHEAD_ONE: RGBColor = RGBColor(31, 119, 180);
const AHEAD_TWO: RGBColor = RGBColor(255, 127, 14);
const EVEN: RGBColor = RGBColor(150, 150, 150);

/// Pixels of one chart.
const CHART: (u32, u32) = (1000, 600);

fn register_font() -> Result<(), PlotError> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = REGISTERED.get_or_init(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular())
            .is_ok()
    });
    if *ok {
        Ok(())
    } else {
        Err(PlotError::Font)
    }
}

fn os_reason(e: &std::io::Error) -> String {
    // The OS text alone ("Permission denied"), without Rust's "(os error 13)".
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Checks, before any long work, that `path` names a format `plot` writes and a file
/// that can be written: its directory exists and accepts the file. A new file made for
/// the check is removed again; an existing one is opened without being changed.
pub fn check_path(path: &Path) -> Result<(), PlotError> {
    match extension(path).as_deref() {
        Some("svg") | Some("png") => {}
        _ => return Err(PlotError::Format(path.display().to_string())),
    }
    let unwritable = |reason: String| PlotError::Unwritable {
        path: path.to_path_buf(),
        reason,
    };
    if path.is_dir() {
        return Err(unwritable("it is a directory".into()));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(unwritable(format!(
            "the directory {} does not exist",
            dir.display()
        )));
    }
    let existed = path.exists();
    match std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
    {
        Ok(_) => {
            if !existed {
                let _ = std::fs::remove_file(path);
            }
            Ok(())
        }
        Err(e) => Err(unwritable(os_reason(&e))),
    }
}

fn extension(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

/// One legend entry and its bars (`x0`, `x1`, height).
struct Series {
    label: String,
    color: RGBColor,
    bars: Vec<(f64, f64, f64)>,
}

/// One chart: title, x range and labels, and its series.
struct Chart {
    title: String,
    x_desc: &'static str,
    x_range: Range<f64>,
    x_label: Box<dyn Fn(f64) -> String>,
    series: Vec<Series>,
}

impl Chart {
    fn max_count(&self) -> f64 {
        self.series
            .iter()
            .flat_map(|s| s.bars.iter().map(|b| b.2))
            .fold(1.0, f64::max)
    }
}

/// The value-by-remoteness chart: wins, losses and ties side by side per remoteness,
/// then draws as one bar past the largest remoteness.
fn remoteness_chart(a: &Analysis, counts: &Counts, which: &str) -> Chart {
    let puzzle = a.players == 1;
    let max_r = counts
        .by_remoteness
        .iter()
        .map(|r| r.remoteness)
        .max()
        .unwrap_or(0) as f64;
    let draw_x = max_r + 2.0;
    let (win, lose, tie, draw, draw_tick) = if puzzle {
        (
            "solvable",
            "unsolvable (dead end)",
            "unsolvable (ends)",
            "unsolvable (never ends)",
            "never ends",
        )
    } else {
        ("win", "lose", "tie", "draw", "draw")
    };
    type Get = fn(&crate::engine::ask::analyze::RemotenessRow) -> u64;
    let kinds: Vec<(&str, RGBColor, Get)> = vec![
        (win, WIN, |r| r.win),
        (lose, LOSE, |r| r.lose),
        (tie, TIE, |r| r.tie),
    ];
    // Only values that occur share a remoteness's slot, so bars stay wide.
    let present: Vec<(&str, RGBColor, Get)> = kinds
        .into_iter()
        .filter(|(_, _, get)| counts.by_remoteness.iter().any(|r| get(r) > 0))
        .collect();
    let width = 0.8 / present.len().max(1) as f64;
    let mut series: Vec<Series> = present
        .iter()
        .enumerate()
        .map(|(k, &(label, color, get))| {
            let left = -0.4 + k as f64 * width;
            Series {
                label: label.to_string(),
                color,
                bars: counts
                    .by_remoteness
                    .iter()
                    .filter(|r| get(r) > 0)
                    .map(|r| {
                        let x = r.remoteness as f64 + left;
                        (x, x + width, get(r) as f64)
                    })
                    .collect(),
            }
        })
        .collect();
    let draws = counts.by_value.draw;
    if draws > 0 {
        series.push(Series {
            label: draw.to_string(),
            color: DRAW,
            bars: vec![(draw_x - 0.4, draw_x + 0.4, draws as f64)],
        });
    }
    let x_end = if draws > 0 { draw_x } else { max_r };
    Chart {
        title: format!(
            "{} ({}): {which} by value and remoteness",
            a.game, a.variant
        ),
        x_desc: "remoteness (moves to the end with perfect play)",
        // Room on the right for the draw bar's tick label.
        x_range: -0.5..x_end + if draws > 0 { 1.2 } else { 0.5 },
        x_label: Box::new(move |x| {
            if (x - x.round()).abs() > 1e-9 || x < 0.0 {
                String::new()
            } else if draws > 0 && x.round() == draw_x {
                draw_tick.into()
            } else if x.round() > max_r {
                String::new()
            } else {
                format!("{x:.0}")
            }
        }),
        series,
    }
}

/// The WinBy chart: decided positions per margin, coloured by who is ahead.
fn margin_chart(a: &Analysis, counts: &Counts, which: &str) -> Chart {
    let rows = &counts.by_margin;
    let lo = rows.first().map_or(0, |r| r.margin) as f64;
    let hi = rows.last().map_or(0, |r| r.margin) as f64;
    let pick = |label: &str, color, keep: fn(i64) -> bool| Series {
        label: label.to_string(),
        color,
        bars: rows
            .iter()
            .filter(|r| keep(r.margin) && r.positions > 0)
            .map(|r| {
                (
                    r.margin as f64 - 0.4,
                    r.margin as f64 + 0.4,
                    r.positions as f64,
                )
            })
            .collect(),
    };
    let mut series = vec![
        pick("player 1 ahead", AHEAD_ONE, |m| m > 0),
        pick("even", EVEN, |m| m == 0),
        pick("player 2 ahead", AHEAD_TWO, |m| m < 0),
    ];
    series.retain(|s| !s.bars.is_empty());
    Chart {
        title: format!("{} ({}): {which} by WinBy margin", a.game, a.variant),
        x_desc: "margin with perfect play (player 1 minus player 2)",
        x_range: lo - 0.5..hi + 0.5,
        x_label: Box::new(|x| {
            if (x - x.round()).abs() > 1e-9 {
                String::new()
            } else {
                signed(x.round() as i64)
            }
        }),
        series,
    }
}

/// The charts a plot of `a` shows: the reachable positions (all legal ones when nothing
/// is reachable, as for a database without the initial tier) by value and remoteness,
/// then by WinBy margin for a WinBy game.
fn charts(a: &Analysis) -> Vec<Chart> {
    let (counts, which) =
        if a.reachable.counts.by_remoteness.is_empty() && a.reachable.counts.by_value.draw == 0 {
            (&a.legal.counts, "legal positions")
        } else {
            (&a.reachable.counts, "positions reachable from the start")
        };
    let mut charts = vec![remoteness_chart(a, counts, which)];
    if a.winby && !counts.by_margin.is_empty() {
        charts.push(margin_chart(a, counts, which));
    }
    charts
}

/// The charts as an SVG document (what `plot` writes to an `.svg` file), for front ends
/// that show them without a file.
pub fn svg(a: &Analysis, options: &PlotOptions) -> Result<String, PlotError> {
    register_font()?;
    let charts = charts(a);
    let size = (CHART.0, CHART.1 * charts.len() as u32);
    let mut out = String::new();
    draw_all(
        SVGBackend::with_string(&mut out, size).into_drawing_area(),
        &charts,
        options,
    )
    .map_err(|message| PlotError::Draw {
        path: "(an SVG in memory)".into(),
        message,
    })?;
    Ok(out)
}

/// Draws the charts of `a` (see `charts`) to `path`.
pub fn plot(a: &Analysis, path: &Path, options: &PlotOptions) -> Result<(), PlotError> {
    register_font()?;
    let name = path.display().to_string();
    let charts = charts(a);
    let size = (CHART.0, CHART.1 * charts.len() as u32);
    let drawn = match extension(path).as_deref() {
        Some("svg") => draw_all(
            SVGBackend::new(path, size).into_drawing_area(),
            &charts,
            options,
        ),
        Some("png") => draw_all(
            BitMapBackend::new(path, size).into_drawing_area(),
            &charts,
            options,
        ),
        _ => return Err(PlotError::Format(name)),
    };
    drawn.map_err(|message| PlotError::Draw {
        path: name,
        message,
    })
}

fn plain<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> String {
    // plotters wraps the cause in layers of "... error: "; the user needs the cause.
    let text = e.to_string();
    let cause = text
        .rsplit("error: ")
        .next()
        .unwrap_or(&text)
        .trim()
        .to_string();
    match cause.find(" (os error") {
        Some(i) => cause[..i].to_string(),
        None => cause,
    }
}

fn draw_all<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    charts: &[Chart],
    options: &PlotOptions,
) -> Result<(), String> {
    root.fill(&WHITE).map_err(plain)?;
    let areas = root.split_evenly((charts.len(), 1));
    for (area, chart) in areas.iter().zip(charts) {
        let top = chart.max_count();
        if options.log_scale {
            // Bars start just below 1 so a single position still shows.
            // Headroom above the tallest bar keeps the legend clear of the bars.
            let floor = 0.7;
            draw_chart(area, chart, (floor..top * 8.0).log_scale(), floor)?;
        } else {
            draw_chart(area, chart, 0.0..top * 1.3, 0.0)?;
        }
    }
    root.present().map_err(plain)?;
    Ok(())
}

fn draw_chart<DB: DrawingBackend, Y>(
    area: &DrawingArea<DB, Shift>,
    chart: &Chart,
    y: Y,
    floor: f64,
) -> Result<(), String>
where
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let mut ctx = ChartBuilder::on(area)
        .caption(&chart.title, ("sans-serif", 22))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(90)
        .build_cartesian_2d(chart.x_range.clone(), y)
        .map_err(plain)?;
    let span = (chart.x_range.end - chart.x_range.start).round() as usize;
    ctx.configure_mesh()
        .disable_x_mesh()
        .x_desc(chart.x_desc)
        .y_desc("positions")
        .label_style(("sans-serif", 14))
        .x_labels((span + 1).min(30))
        .x_label_formatter(&|x| (chart.x_label)(*x))
        .y_label_formatter(&|y| count(y.round().max(0.0) as u64))
        .draw()
        .map_err(plain)?;
    for s in &chart.series {
        let color = s.color;
        ctx.draw_series(
            s.bars
                .iter()
                .map(|&(x0, x1, h)| Rectangle::new([(x0, floor), (x1, h)], color.filled())),
        )
        .map_err(plain)?
        .label(s.label.clone())
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled()));
    }
    ctx.configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(plain)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_paths_are_refused_before_drawing() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            check_path(&dir.path().join("h.gif")),
            Err(PlotError::Format(_))
        ));
        let missing = dir.path().join("no/such/dir/h.svg");
        let e = check_path(&missing).unwrap_err().to_string();
        assert!(e.contains("does not exist"), "{e}");
        let as_dir = dir.path().join("d.svg");
        std::fs::create_dir(&as_dir).unwrap();
        let e = check_path(&as_dir).unwrap_err().to_string();
        assert!(e.contains("is a directory"), "{e}");
        // A writable new path is checked without leaving a file behind.
        let ok = dir.path().join("ok.png");
        check_path(&ok).unwrap();
        assert!(!ok.exists());
    }
}
