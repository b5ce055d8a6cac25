//! How a solve reports its progress (`SolveProgress`) and the reporter that says
//! nothing (`Silent`). It must import nothing of the solver but the tier graph's types.

use crate::engine::tier::{TierGraph, TierNode};
use std::time::Duration;

/// How to report a solve as it goes.
pub trait SolveProgress: Sync {
    /// The solve starts: the graph, and how many positions must be solved.
    fn start(&self, graph: &TierGraph, to_solve: u64);
    /// A stored tier is valid and kept.
    fn reused(&self, node: &TierNode);
    /// A stored tier is unusable and will be solved again.
    fn corrupt(&self, node: &TierNode, reason: &str);
    /// A tier starts.
    fn tier_started(&self, node: &TierNode);
    /// Positions of a tier were scanned.
    fn advance(&self, node: &TierNode, positions: u64);
    /// What a tier's solve is doing now (building a reverse graph, its size). Default:
    /// nothing shown.
    fn note(&self, _node: &TierNode, _what: &str) {}
    /// A tier is solved and stored.
    fn tier_finished(&self, node: &TierNode, took: Duration);
    /// What a stored tier's group measured (after `tier_finished`). Default: nothing
    /// shown.
    fn measured(&self, _node: &TierNode, _figures: &Measured) {}
    /// The solve is over.
    fn finish(&self);
}

/// What a finished tier measured: with a long solve's log, a table of every tier's
/// cost that survives the solve's stops and resumptions.
#[derive(Clone, Debug)]
pub struct Measured<'a> {
    /// Its way of solving (`whole`, `streamed`, ...).
    pub mode: &'a str,
    /// The CPU time of its group, in seconds: its own where it was solved alone.
    pub cpu_seconds: f64,
    /// The tiers solved side by side with it, itself included.
    pub group_tiers: usize,
    /// The process's resident high-water mark once it was solved, in bytes, where the
    /// system tells it: the peak of this tier's group or of one before it. (Restarting
    /// the mark for each group would also lower what `time` and a parent's `wait4`
    /// report for the whole process.)
    pub peak_bytes: Option<u64>,
    /// The largest resident size read while its group was solved, in bytes: its own
    /// peak (a lower bound; `system::ResidentWatch`).
    pub own_peak_bytes: Option<u64>,
    /// The planner's estimate of its peak, in bytes.
    pub estimated_bytes: u64,
}

/// A progress reporter that says nothing.
pub struct Silent;

impl SolveProgress for Silent {
    fn start(&self, _: &TierGraph, _: u64) {}
    fn reused(&self, _: &TierNode) {}
    fn corrupt(&self, _: &TierNode, _: &str) {}
    fn tier_started(&self, _: &TierNode) {}
    fn advance(&self, _: &TierNode, _: u64) {}
    fn tier_finished(&self, _: &TierNode, _: Duration) {}
    fn finish(&self) {}
}
