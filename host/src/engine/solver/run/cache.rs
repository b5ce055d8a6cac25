//! The child tiers a run holds for the parents still to come: solved tiers in memory,
//! with their frontiers, or spilled into level runs, released when the last parent
//! that needs them is solved (`Waiting`, as the planner counts them). This file only
//! hands out and drops child tiers; it never changes one.

use crate::engine::db::Database;
use crate::engine::record::TierRecords;
use crate::engine::solver::base::SolveError;
use crate::engine::solver::input::frontier::ChildFrontier;
use crate::engine::solver::input::{self, ChildTier, Shape, Streamed};
use crate::engine::solver::schedule::Waiting;
use crate::engine::solver::tier::recipe::SolveMode;
use crate::engine::tier::TierGraph;
use gamesman_plugin_api::Tier;
use std::collections::HashMap;
use std::sync::Arc;

/// Solved tiers held in memory, with their frontiers, or spilled into level runs, for
/// the parents that still need them.
pub(super) struct ChildCache<'a> {
    db: &'a dyn Database,
    graph: &'a TierGraph,
    loaded: HashMap<Tier, ChildFrontier>,
    streamed: HashMap<Tier, Arc<Streamed>>,
    /// Unsolved parents left per tier.
    waiting: Waiting,
}

impl<'a> ChildCache<'a> {
    /// An empty cache of `graph`'s tiers read from `db`, with `waiting` parents.
    pub(super) fn new(db: &'a dyn Database, graph: &'a TierGraph, waiting: Waiting) -> Self {
        ChildCache {
            db,
            graph,
            loaded: HashMap::new(),
            streamed: HashMap::new(),
            waiting,
        }
    }

    /// Child tier `tier` for a parent solved in `mode` (a tier already in memory is
    /// used as it is).
    pub(super) fn get(&mut self, tier: Tier, mode: SolveMode) -> Result<ChildTier, SolveError> {
        if let Some(f) = self.loaded.get(&tier) {
            return Ok(ChildTier::Whole(f.clone()));
        }
        let node = self.graph.get(tier).expect("children are in the graph");
        match mode.child_shape() {
            Shape::Whole => {
                let f = ChildFrontier::new(tier, self.db.load_tier(&input::meta_of(node))?);
                self.loaded.insert(tier, f.clone());
                Ok(ChildTier::Whole(f))
            }
            Shape::Streamed => {
                if let Some(s) = self.streamed.get(&tier) {
                    return Ok(ChildTier::Streamed(s.clone()));
                }
                let s = Arc::new(input::streamed(self.db, node)?);
                self.streamed.insert(tier, s.clone());
                Ok(ChildTier::Streamed(s))
            }
        }
    }

    /// A parent of `tier` is solved; forget the tier once no parent needs it.
    pub(super) fn release(&mut self, tier: Tier) {
        if self.waiting.release(tier) {
            self.loaded.remove(&tier);
            self.streamed.remove(&tier);
        }
    }

    /// Keeps a freshly solved small tier for its parents.
    pub(super) fn offer(&mut self, tier: Tier, records: TierRecords) {
        if self.waiting.keeps(tier, records.len() as u64) {
            self.loaded
                .insert(tier, ChildFrontier::new(tier, Arc::new(records)));
        }
    }
}
