//! The solved child tiers a tier is solved from, in one of two shapes: held whole
//! (records in memory, sorted by remoteness: the fastest), or streamed (level runs in
//! a scratch file read one level at a time, records looked up through a reader's
//! bounded block cache for verification: nearly nothing in memory). Both give the
//! solver the same positions at the same levels, so the records solved are the same.
//!
//! `ChildCache` keeps them for the parents still to come. This file only hands out
//! child positions and records; it never changes one.

use super::frontier::ChildFrontier;
use super::plan::{self, SolveMode};
use super::runs::{self, LevelRuns};
use super::{memory, meta_of, SolveError, BIG_TIER};
use crate::engine::db::{Database, DbResult, RecordSource};
use crate::engine::record::{Record, TierRecords};
use crate::engine::tier::{TierGraph, TierNode};
use gamesman_plugin_api::Tier;
use std::collections::HashMap;
use std::sync::Arc;

/// A solved child tier, whole or streamed.
#[derive(Clone)]
pub enum ChildTier {
    /// Records and their order in memory.
    Whole(ChildFrontier),
    /// Level runs on disk and a cached reader.
    Streamed(Arc<Streamed>),
}

/// A child tier's level runs and a reader of its records.
pub struct Streamed {
    /// The decided positions by remoteness and value.
    pub runs: LevelRuns,
    /// The records, read through a bounded cache.
    pub records: Arc<dyn RecordSource>,
}

impl ChildTier {
    /// The child tier.
    pub fn tier(&self) -> Tier {
        match self {
            ChildTier::Whole(f) => f.tier,
            ChildTier::Streamed(s) => s.runs.tier,
        }
    }

    /// One more than the largest remoteness of a win or loss (0 if none).
    pub fn wl_levels(&self) -> u32 {
        match self {
            ChildTier::Whole(f) => f.wl_levels(),
            ChildTier::Streamed(s) => s.runs.wl_levels(),
        }
    }

    /// One more than the largest remoteness of a tie (0 if none).
    pub fn tie_levels(&self) -> u32 {
        match self {
            ChildTier::Whole(f) => f.tie_levels(),
            ChildTier::Streamed(s) => s.runs.tie_levels(),
        }
    }

    /// The child tier's records.
    pub fn records(&self) -> &dyn RecordSource {
        match self {
            ChildTier::Whole(f) => f.records.as_ref(),
            ChildTier::Streamed(s) => s.records.as_ref(),
        }
    }

    /// The record of position `i`.
    pub fn record(&self, i: u64) -> DbResult<Record> {
        self.records().record(i)
    }
}

/// Solved tiers held in memory, with their frontiers, or spilled into level runs, for
/// the parents that still need them.
pub(super) struct ChildCache<'a> {
    pub(super) db: &'a dyn Database,
    pub(super) graph: &'a TierGraph,
    pub(super) loaded: HashMap<Tier, ChildFrontier>,
    pub(super) streamed: HashMap<Tier, Arc<Streamed>>,
    /// Unsolved parents left per tier.
    pub(super) waiting: HashMap<Tier, usize>,
}

impl ChildCache<'_> {
    /// Child tier `tier` for a parent solved in `mode` (a tier already in memory is
    /// used as it is).
    pub(super) fn get(&mut self, tier: Tier, mode: SolveMode) -> Result<ChildTier, SolveError> {
        if let Some(f) = self.loaded.get(&tier) {
            return Ok(ChildTier::Whole(f.clone()));
        }
        let node = self.graph.get(tier).expect("children are in the graph");
        match mode {
            SolveMode::Whole => {
                let f = ChildFrontier::new(tier, self.db.load_tier(&meta_of(node))?);
                self.loaded.insert(tier, f.clone());
                Ok(ChildTier::Whole(f))
            }
            SolveMode::Streamed | SolveMode::Compact | SolveMode::Byte => {
                if let Some(s) = self.streamed.get(&tier) {
                    return Ok(ChildTier::Streamed(s.clone()));
                }
                let s = Arc::new(streamed(self.db, node)?);
                self.streamed.insert(tier, s.clone());
                Ok(ChildTier::Streamed(s))
            }
        }
    }

    /// A parent of `tier` is solved; forget the tier once no parent needs it.
    pub(super) fn release(&mut self, tier: Tier) {
        if let Some(left) = self.waiting.get_mut(&tier) {
            *left = left.saturating_sub(1);
            if *left == 0 {
                self.loaded.remove(&tier);
                self.streamed.remove(&tier);
            }
        }
    }

    /// Keeps a freshly solved small tier for its parents.
    pub(super) fn offer(&mut self, tier: Tier, records: TierRecords) {
        if self.waiting.get(&tier).copied().unwrap_or(0) > 0 && (records.len() as u64) < BIG_TIER {
            self.loaded
                .insert(tier, ChildFrontier::new(tier, Arc::new(records)));
        }
    }
}

/// A stored child tier spilled into level runs beside the database, with a reader of
/// its records through a bounded cache.
pub(super) fn streamed(db: &dyn Database, node: &TierNode) -> Result<Streamed, SolveError> {
    let meta = meta_of(node);
    let runs = runs::LevelRuns::spill(db, &meta, db.scratch_dir().as_deref())?;
    log::debug!(
        "tier {} ({}): {} of level runs",
        node.tier,
        node.name,
        memory::bytes(runs.bytes)
    );
    Ok(Streamed {
        runs,
        records: db.open_records(&meta, plan::VERIFY_CACHE)?,
    })
}
