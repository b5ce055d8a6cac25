//! `host verify`: checks every record of a stored database against the module (for a
//! database copied from elsewhere) and prints a summary. It only reads the database.

use super::{DbChoice, Invocation};
use crate::engine::game::GameHandle;
use crate::engine::numbers::{count, seconds};
use crate::engine::solver::Scope;
use crate::engine::verify_db::verify_scope;
use crate::report::progress;

/// Runs `verify` on the chosen database.
pub fn run(
    game: &GameHandle,
    inv: &Invocation,
    choice: &DbChoice,
    scope: &Scope,
) -> anyhow::Result<()> {
    if choice.is_memory() {
        return Err(super::CliError::Usage(
            "verify checks a stored database; memory: holds nothing (use --db file:DIRECTORY)"
                .into(),
        )
        .into());
    }
    let db = choice.open(game)?;
    if db.stored_tiers()?.is_empty() {
        return Err(super::CliError::NoDatabase {
            game: game.module_name().to_string(),
            variant: game.variant().to_string(),
            location: db.describe(),
            solve: inv.command(game, "solve", choice),
        }
        .into());
    }
    let progress = progress::verify_for_stderr();
    let report = verify_scope(game, db.as_ref(), scope, progress.as_ref())?;
    let part = match scope {
        Scope::Whole => String::new(),
        other => format!(" of {other}"),
    };
    outln!(
        "verified {} ({}) in {}: {} tiers{part}, {} positions, every record follows from its children ({})",
        game.module_name(),
        game.variant(),
        db.describe(),
        count(report.tiers as u64),
        count(report.positions),
        seconds(report.elapsed)
    )?;
    Ok(())
}
