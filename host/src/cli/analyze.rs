//! `host analyze`: counts over the solved variant as tables or JSON, and the charts
//! with `--plot` (its path checked before any work, so a typo costs nothing).

use super::{open_solved, DbChoice, Invocation};
use crate::engine::ask::analyze;
use crate::engine::game::GameHandle;
use crate::report::plot::{self, PlotOptions};
use std::path::PathBuf;

/// What `analyze` was asked.
#[derive(Clone, Debug, Default)]
pub struct AnalyzeArgs {
    /// Print JSON.
    pub json: bool,
    /// Draw the charts to this .svg or .png file.
    pub plot: Option<PathBuf>,
    /// A logarithmic count axis.
    pub log_scale: bool,
    /// Count every position exactly (each under its own player to move; reachable
    /// ones by a forward search over classes that keep reachability).
    pub every_position: bool,
}

/// Runs `analyze` and prints the tables (or JSON), drawing the charts first.
pub fn run(
    game: &GameHandle,
    inv: &Invocation,
    choice: &DbChoice,
    args: &AnalyzeArgs,
) -> anyhow::Result<()> {
    if let Some(path) = &args.plot {
        plot::check_path(path)?;
    }
    let db = open_solved(game, inv, choice, false)?;
    let options = analyze::AnalyzeOptions {
        every_position: args.every_position,
    };
    let analysis = analyze::analyze_with(game, db.as_ref(), &options)?;
    if let Some(path) = &args.plot {
        let options = PlotOptions {
            log_scale: args.log_scale,
        };
        plot::plot(&analysis, path, &options)?;
        log::info!("wrote the charts to {}", path.display());
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&analysis)?)?;
    } else {
        out!("{}", analyze::text(&analysis))?;
    }
    Ok(())
}
