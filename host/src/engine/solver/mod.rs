//! The solver: strongly solving a game tier by tier. Layered, each layer importing only
//! the ones below it (`host/tests/layering.rs` checks it):
//!
//! | layer       | owns                                                                   |
//! |-------------|------------------------------------------------------------------------|
//! | `base`      | errors, the memory need's parts, sizes in words                        |
//! | `input`     | solved child tiers as one tier reads them: whole, or streamed runs     |
//! | `tier`      | one tier, children to records; `Recipe::choose` decides how            |
//! | `schedule`  | the order of tiers: groups, waiting parents, what is kept              |
//! | `budget`    | the memory model, the plan, the system's figures                       |
//! | `verify`    | checking a solved tier against its children                            |
//! | `run`       | the whole game: discover, plan, solve groups, retry leaner, store      |
//!
//! This file is the facade: it keeps the paths front ends and tests use
//! (`solver::solve`, `solver::plan::SolveMode`, `solver::parents::ParentMode`, ...)
//! and holds no logic of its own.

pub mod base;
pub mod budget;
pub mod input;
pub mod run;
pub mod schedule;
pub mod tier;
pub mod verify;

pub use base::SolveError;
pub use input::meta_of;
pub use run::progress::{Measured, Silent, SolveProgress};
pub use run::reachable;
pub use run::store::{solve_and_store, solve_and_store_with, solve_one, SolvedTier};
pub use run::{
    full_meta_of, graph_of, memory_check, pending_tiers, report, solve, Scope, SolveOptions,
    SolveReport, TierMemory,
};
pub use schedule::BIG_TIER;

pub use input::frontier;
pub use input::runs;
pub use tier::{by_children, counters, onebyte, parents, seeds, winby};

/// The solved child tiers a tier is solved from (`input`).
pub mod children {
    pub use super::input::{streamed, ChildTier, Shape, Streamed};
}

/// One tier's retrograde solve (`tier::retrograde`) and the types its passes share.
pub mod retrograde {
    pub use super::tier::ctx::{Note, Tick, PARENT_CHUNK};
    pub use super::tier::parents::{for_each_parents, ParentBuffers};
    pub use super::tier::recipe::Flow;
    pub use super::tier::recipe::Layout;
    pub use super::tier::retrograde::solve_tier;
    pub use super::tier::state::TierState;
}

/// Memory: the need model, the memory check, and what the machine has.
pub mod memory {
    pub use super::base::need::{SLACK_DIVISOR, SLACK_FIXED};
    pub use super::base::{bytes, parse_size, MemoryError, TierNeed};
    pub use super::budget::memory::MemoryCheck;
    pub use super::budget::system::available;
    pub use super::tier::need::extra_bytes;
}

/// The plan: every tier's way of solving and its estimated peak.
pub mod plan {
    pub use super::budget::plan::*;
    pub use super::budget::system::peak_rss;
    pub use super::input::VERIFY_CACHE;
    pub use super::tier::recipe::SolveMode;
}
