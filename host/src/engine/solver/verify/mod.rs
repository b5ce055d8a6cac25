//! Verification of solved tiers: a position's record must follow, by the solver's own
//! rules (`derive`), from the records of its children, found forward through the
//! module's `generate_moves` and `do_move` (canonicalised) — never through the undo
//! moves, parents or children fast paths the solver used. A module whose functions
//! contradict each other then fails here instead of leaving a wrong database.
//!
//! `solve` checks every tier after solving it and before storing it (`Sample` by
//! default: every position of small tiers, a fixed, seeded share of large ones);
//! `host verify` checks a stored database in full. Positions are checked in parallel,
//! in chunks; the mismatch reported is the first in index order, whatever the threads.
//! `derive` holds the rules, `selection` the choice of positions, `mismatch` the
//! report. This file reads records and calls the module; it must not change a record.

mod checker;
pub mod derive;
mod own;
mod selection;

pub use crate::engine::solver::base::mismatch::{Mismatch, Stage, VerifyError};
pub use own::Own;
pub use selection::{Selection, VerifyMode, SAMPLE_SHARE, SMALL_TIER};

use checker::{Checker, Fail, Scratch};

use crate::engine::db::RecordSource;
use crate::engine::game::GameHandle;
use crate::engine::solver::input::ChildTier;
use crate::engine::solver::tier::recipe::Flow;
use crate::engine::tier::TierNode;
use gamesman_plugin_api::Tier;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Positions per parallel work item.
const CHUNK: usize = 1024;

/// Called with the number of positions covered, for progress.
pub type Tick<'a> = &'a (dyn Fn(u64) + Sync);

/// Checks a tier `solve` just solved against its solved child tiers (`Ok` at once when
/// `selection` is `None`).
pub fn check_solved_tier(
    game: &GameHandle,
    node: &TierNode,
    records: Own<'_>,
    children: &[ChildTier],
    selection: Option<Selection>,
) -> Result<u64, VerifyError> {
    let Some(selection) = selection else {
        return Ok(0);
    };
    let kids: Vec<(Tier, &dyn RecordSource)> =
        children.iter().map(|c| (c.tier(), c.records())).collect();
    let checked = check_tier(game, node, records, &kids, selection, Stage::Solve, &|_| {})?;
    log::debug!(
        "tier {} ({}): verified {checked} of {} positions",
        node.tier,
        node.name,
        node.size
    );
    Ok(checked)
}

/// Checks the records of tier `node` chosen by `selection`, given the records of
/// every child tier; returns how many positions were checked.
pub fn check_tier<'r>(
    game: &GameHandle,
    node: &TierNode,
    records: impl Into<Own<'r>>,
    children: &[(Tier, &dyn RecordSource)],
    selection: Selection,
    stage: Stage,
    tick: Tick<'_>,
) -> Result<u64, VerifyError> {
    let records: Own<'r> = records.into();
    let checker = Checker {
        game,
        node,
        records,
        children,
        flow: Flow::of(game),
        winby: game.supports_winby() && records.has_winby(),
        symmetry: game.properties().has_symmetry,
        players: game.properties().players,
        stage,
    };
    let n = records.len();
    let whole = selection.whole(n as u64);
    let first_failure = AtomicUsize::new(usize::MAX);
    (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map_init(
            || Scratch::new(game.properties().max_moves as usize),
            |scratch, c| {
                // A mismatch in an earlier chunk is reported; later chunks can stop.
                if c > first_failure.load(Relaxed) {
                    return Ok(0);
                }
                let (lo, hi) = (c * CHUNK, ((c + 1) * CHUNK).min(n));
                let mut checked = 0;
                for i in lo as u64..hi as u64 {
                    if !whole && !selection.picks(node.tier, i) {
                        continue;
                    }
                    checked += 1;
                    let failure = match checker.check(i, scratch) {
                        Ok(None) => continue,
                        Ok(Some(m)) => VerifyError::Mismatch(m),
                        Err(Fail::Module(cause)) => VerifyError::Module {
                            tier: node.tier,
                            name: node.name.clone(),
                            cause,
                        },
                        Err(Fail::Read(cause)) => VerifyError::Read {
                            tier: node.tier,
                            name: node.name.clone(),
                            cause,
                        },
                    };
                    first_failure.fetch_min(c, Relaxed);
                    return Err(failure);
                }
                tick((hi - lo) as u64);
                Ok(checked)
            },
        )
        // Reduction keeps the chunks' order, so the earlier failure wins.
        .reduce(
            || Ok(0),
            |a, b| match (a, b) {
                (Ok(x), Ok(y)) => Ok(x + y),
                (Err(e), _) | (Ok(_), Err(e)) => Err(e),
            },
        )
}
