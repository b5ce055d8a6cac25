//! The tier layer: one tier, from its solved child tiers to its records. `recipe`
//! decides how (by its children in one pass, or retrograde with a cell layout and a
//! source of parents) and is the only place that does; `retrograde` sets up a tier's
//! state and runs the `scan` and the `levels` passes (with `seeds`, `parents`,
//! `counters`, `onebyte`), `by_children` solves a tier that is not loopy in one pass,
//! `winby` adds margins, `need` models what the tier's arrays take, `state` holds a
//! retrograde tier's arrays and `ctx` the tier's allocations. This file only runs a
//! recipe (`solve`); its files import one another, never this one.
//!
//! This layer knows no plan, no schedule, no budget and no database: it imports only
//! `base` and `input`.

pub mod by_children;
pub mod counters;
pub mod ctx;
mod kept;
mod levels;
pub mod need;
pub mod onebyte;
pub mod parents;
mod prefetch;
pub mod recipe;
pub mod retrograde;
mod scan;
pub mod seeds;
pub mod state;
pub mod winby;

pub use ctx::{Note, Tick, TierCtx, PARENT_CHUNK};
pub use recipe::Flow;

use crate::engine::record::TierRecords;
use crate::engine::solver::base::SolveError;
use crate::engine::solver::input::ChildTier;
use recipe::{Layout, Recipe};
use state::TierState;

/// A solved tier: its records, or (one byte a position) its cells and remoteness log,
/// from which the records are assembled as the tier is written (`TierState::one_byte`).
pub enum Solved {
    /// The records, with WinBy where the module gives it.
    Records(TierRecords),
    /// The one-byte cells and log.
    OneByte(TierState),
}

/// Solves the tier of `ctx` from its solved `children` as `recipe` says: values, then
/// WinBy where the module gives it.
pub fn solve(
    ctx: &TierCtx<'_>,
    children: &[ChildTier],
    recipe: &Recipe,
    tick: Tick<'_>,
    note: Note<'_>,
) -> Result<Solved, SolveError> {
    match recipe {
        Recipe::ByChildren { fused } => Ok(Solved::Records(by_children::solve(
            ctx, children, *fused, tick,
        )?)),
        Recipe::Retrograde(r) => {
            let (mut records, state) = retrograde::solve_tier(ctx, children, r, tick, note)?;
            if let Layout::Byte(_) = r.layout {
                return Ok(Solved::OneByte(state));
            }
            if r.winby {
                records.winby = Some(winby::winby_pass(ctx, &state, &records.values, children)?);
            }
            Ok(Solved::Records(records))
        }
    }
}
