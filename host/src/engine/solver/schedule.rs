//! The order a solve takes its tiers in, shared by the planner (`budget::plan`) and
//! the driver (`run`), so that what is planned is what runs: the tier graph's levels,
//! children first; each level's small tiers in one group solved side by side and
//! each large tier (`BIG_TIER` positions or more) in a group of its own; how many
//! unsolved parents still wait for each tier; and which solved tiers are kept in
//! memory for them. It must import nothing of the solver.

use crate::engine::tier::{TierGraph, TierNode};
use gamesman_plugin_api::Tier;
use std::collections::HashMap;

/// Tiers at least this large are solved one at a time and not kept in memory for
/// their parents (they are read back from the database when a parent needs them).
pub const BIG_TIER: u64 = 1 << 20;

/// The groups of tiers a solve takes, in order.
pub struct Schedule<'g> {
    /// The groups: the tiers of a group are independent and solved side by side.
    pub groups: Vec<Vec<&'g TierNode>>,
}

impl<'g> Schedule<'g> {
    /// The tiers of `graph` that `todo` accepts, level by level (children first):
    /// small tiers of a level side by side, a tier of at least `big_tier` positions
    /// alone (every thread to itself, so memory stays near one tier and its children).
    pub fn new(graph: &'g TierGraph, todo: &dyn Fn(Tier) -> bool, big_tier: u64) -> Self {
        let mut groups = Vec::new();
        for level in graph.levels() {
            let nodes: Vec<&TierNode> = level
                .iter()
                .filter(|t| todo(**t))
                .filter_map(|t| graph.get(*t))
                .collect();
            let (big, small): (Vec<&TierNode>, Vec<&TierNode>) =
                nodes.into_iter().partition(|n| n.stored >= big_tier);
            if !small.is_empty() {
                groups.push(small);
            }
            groups.extend(big.into_iter().map(|n| vec![n]));
        }
        Schedule { groups }
    }
}

/// How many unsolved parents still need each tier's records, and which solved tiers
/// are worth keeping in memory for them.
#[derive(Clone, Debug, Default)]
pub struct Waiting {
    left: HashMap<Tier, usize>,
    big_tier: u64,
}

impl Waiting {
    /// The parents that `todo` accepts of every tier of `graph`.
    pub fn new(graph: &TierGraph, todo: &dyn Fn(Tier) -> bool, big_tier: u64) -> Self {
        let mut left: HashMap<Tier, usize> = HashMap::new();
        for n in graph.order.iter().filter(|n| todo(n.tier)) {
            for c in &n.children {
                *left.entry(*c).or_default() += 1;
            }
        }
        Waiting { left, big_tier }
    }

    /// A parent of `tier` is solved: whether no parent needs `tier` any more (then
    /// it is forgotten).
    pub fn release(&mut self, tier: Tier) -> bool {
        match self.left.get_mut(&tier) {
            Some(left) => {
                *left = left.saturating_sub(1);
                *left == 0
            }
            None => false,
        }
    }

    /// Whether a freshly solved tier of `stored` positions is kept in memory for its
    /// parents: a parent still waits, and the tier is small. (A tier solved one byte a
    /// position has no records in memory to keep; its callers do not offer it.)
    pub fn keeps(&self, tier: Tier, stored: u64) -> bool {
        self.left.get(&tier).copied().unwrap_or(0) > 0 && stored < self.big_tier
    }
}
