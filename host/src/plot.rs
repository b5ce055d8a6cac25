//! The value-by-remoteness histogram of an analysis, drawn with plotters to an SVG or
//! PNG file (chosen by the file's extension): grouped bars of wins, losses and ties
//! per remoteness.
//!
//! The font is embedded (DejaVu Sans) so a plot never depends on the machine's fonts.
//! This file only draws what an `Analysis` holds; it must not count or read databases.

use crate::analyze::{Analysis, Counts, RemotenessRow};
use plotters::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

/// Why a plot could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The file name does not say SVG or PNG.
    #[error("cannot plot to {0}: the file name must end in .svg or .png")]
    Format(String),
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

/// One group of bars: its legend label, its colour, and what it counts.
type Series = (&'static str, RGBColor, fn(&RemotenessRow) -> u64);

const WIN: RGBColor = RGBColor(46, 160, 67);
const LOSE: RGBColor = RGBColor(214, 39, 40);
const TIE: RGBColor = RGBColor(230, 170, 0);

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

/// Whether `path` names a format `plot` can write (checked before long work).
pub fn check_path(path: &Path) -> Result<(), PlotError> {
    match extension(path).as_deref() {
        Some("svg") | Some("png") => Ok(()),
        _ => Err(PlotError::Format(path.display().to_string())),
    }
}

fn extension(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

/// The counts a plot shows, and its title: the reachable positions, or all legal ones
/// when nothing is reachable (a database without the initial tier).
fn chosen(a: &Analysis) -> (&Counts, String) {
    let (counts, which) = if a.reachable.counts.by_remoteness.is_empty() {
        (&a.legal.counts, "legal positions")
    } else {
        (&a.reachable.counts, "positions reachable from the start")
    };
    let title = format!(
        "{} ({}): {which} by value and remoteness",
        a.game, a.variant
    );
    (counts, title)
}

/// The plot's size in pixels.
const SIZE: (u32, u32) = (1000, 600);

/// The histogram as an SVG document (what `plot` writes to an `.svg` file), for front
/// ends that show it without a file.
pub fn svg(a: &Analysis) -> Result<String, PlotError> {
    register_font()?;
    let (counts, title) = chosen(a);
    let mut out = String::new();
    draw(
        SVGBackend::with_string(&mut out, SIZE).into_drawing_area(),
        counts,
        &title,
    )
    .map_err(|message| PlotError::Draw {
        path: "(an SVG in memory)".into(),
        message,
    })?;
    Ok(out)
}

/// Draws the histogram of the reachable positions (of all legal ones when nothing is
/// reachable, as for a database without the initial tier) to `path`.
pub fn plot(a: &Analysis, path: &Path) -> Result<(), PlotError> {
    register_font()?;
    let name = path.display().to_string();
    let ext = extension(path);
    let (counts, title) = chosen(a);
    let size = SIZE;
    let drawn = match ext.as_deref() {
        Some("svg") => draw(
            SVGBackend::new(path, size).into_drawing_area(),
            counts,
            &title,
        ),
        Some("png") => draw(
            BitMapBackend::new(path, size).into_drawing_area(),
            counts,
            &title,
        ),
        _ => return Err(PlotError::Format(name)),
    };
    drawn.map_err(|message| PlotError::Draw {
        path: name,
        message,
    })
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    counts: &Counts,
    title: &str,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let max_r = counts
        .by_remoteness
        .iter()
        .map(|r| r.remoteness)
        .max()
        .unwrap_or(0);
    let max_n = counts
        .by_remoteness
        .iter()
        .map(|r| r.win.max(r.lose).max(r.tie))
        .max()
        .unwrap_or(0)
        .max(1);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5f64..max_r as f64 + 0.5, 0u64..max_n + max_n / 10 + 1)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("remoteness")
        .y_desc("positions")
        .label_style(("sans-serif", 14))
        .x_labels((max_r as usize + 2).min(30))
        // Remoteness is whole; the axis may still pick fractional key points.
        .x_label_formatter(&|x| {
            if (x - x.round()).abs() < 1e-9 {
                format!("{x:.0}")
            } else {
                String::new()
            }
        })
        .draw()
        .map_err(err)?;
    let width = 0.8 / 3.0;
    let series: [Series; 3] = [
        ("win", WIN, |r| r.win),
        ("lose", LOSE, |r| r.lose),
        ("tie", TIE, |r| r.tie),
    ];
    for (k, (label, color, get)) in series.into_iter().enumerate() {
        let left = -0.4 + k as f64 * width;
        chart
            .draw_series(counts.by_remoteness.iter().map(|row| {
                let x = row.remoteness as f64 + left;
                Rectangle::new([(x, 0), (x + width, get(row))], color.filled())
            }))
            .map_err(err)?
            .label(label)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled()));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(())
}
