//! The input layer: solved child tiers as one tier reads them, in one of two shapes:
//! held whole (records in memory, sorted by remoteness: the fastest; `frontier`), or
//! streamed (level runs in a scratch file read one level at a time, records looked up
//! through a reader's bounded block cache for verification: nearly nothing in memory;
//! `runs`). Both give the solver the same positions at the same levels, so the
//! records solved are the same.
//!
//! This layer only hands out child positions and records; it never changes one. It
//! imports nothing of the solver above it (only `base`).

pub mod frontier;
pub mod runs;

use super::base::{bytes, SolveError};
use crate::engine::db::{Database, DbResult, RecordSource, TierMeta};
use crate::engine::record::Record;
use crate::engine::tier::TierNode;
use frontier::ChildFrontier;
use gamesman_plugin_api::Tier;
use runs::LevelRuns;
use std::sync::Arc;

/// Decoded child blocks a streamed child tier keeps for verification, at most.
pub const VERIFY_CACHE: u64 = 32 << 20;

/// The shape child tiers are read in for a tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Records in memory, sorted by remoteness (`ChildTier::Whole`).
    Whole,
    /// Level runs in a scratch file (`ChildTier::Streamed`).
    Streamed,
}

/// The metadata the database stores for a tier of a full database: its stored
/// indices (the canonical prefix where the module numbers canonical positions first).
pub fn meta_of(node: &TierNode) -> TierMeta {
    TierMeta {
        tier: node.tier,
        name: node.name.clone(),
        size: node.stored,
    }
}

/// Child tier `node` of `db` read in `shape`.
pub fn read(db: &dyn Database, node: &TierNode, shape: Shape) -> Result<ChildTier, SolveError> {
    Ok(match shape {
        Shape::Whole => {
            ChildTier::Whole(ChildFrontier::new(node.tier, db.load_tier(&meta_of(node))?))
        }
        Shape::Streamed => ChildTier::Streamed(Arc::new(streamed(db, node)?)),
    })
}

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

/// A stored child tier spilled into level runs beside the database, with a reader of
/// its records through a bounded cache.
pub fn streamed(db: &dyn Database, node: &TierNode) -> Result<Streamed, SolveError> {
    let meta = meta_of(node);
    let runs = LevelRuns::spill(db, &meta, db.scratch_dir().as_deref())?;
    log::debug!(
        "tier {} ({}): {} of level runs",
        node.tier,
        node.name,
        bytes(runs.bytes)
    );
    Ok(Streamed {
        runs,
        records: db.open_records(&meta, VERIFY_CACHE)?,
    })
}
