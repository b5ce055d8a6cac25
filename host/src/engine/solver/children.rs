//! The solved child tiers a tier is solved from, in one of two shapes: held whole
//! (records in memory, sorted by remoteness: the fastest), or streamed (level runs in
//! a scratch file read one level at a time, records looked up through a reader's
//! bounded block cache for verification: nearly nothing in memory). Both give the
//! solver the same positions at the same levels, so the records solved are the same.
//!
//! This file only hands out child positions and records; it never changes one.

use super::frontier::ChildFrontier;
use super::runs::LevelRuns;
use crate::engine::db::{DbResult, RecordSource};
use crate::engine::record::Record;
use gamesman_plugin_api::Tier;
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
