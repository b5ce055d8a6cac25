//! The memory model of a whole solve beyond one tier's own arrays (which the tier
//! layer counts, `tier::need`): child tiers held in memory, and how the memory check
//! runs (`MemoryCheck`). The planner (`plan`) sums these into a group's need. This
//! file must not solve or store anything, nor import the layers above the budget.

use crate::engine::solver::tier::recipe::SolveMode;

/// How the memory check runs.
#[derive(Clone, Debug, Default)]
pub struct MemoryCheck {
    /// Bytes the solve may use, instead of what the machine reports available.
    pub limit: Option<u64>,
    /// Solve even when the estimate exceeds what is available.
    pub ignore: bool,
    /// Whether tiers are solved through a reverse graph (set by the solver from
    /// `SolveOptions::parents` and the module).
    pub reverse_graph: bool,
    /// One way of solving for every tier instead of the fastest that fits
    /// (`--solve-mode`).
    pub forced: Option<SolveMode>,
    /// Bytes the module's own caches keep at most (`GameHandle::memory_budget`),
    /// counted in every tier's estimate.
    pub module_bytes: u64,
    /// Bytes of the process itself beyond the solver's arrays (its binary, the module's
    /// code, what it held when the plan was made, each thread's stack and buffers),
    /// counted in every tier's estimate so the whole process stays in the budget.
    pub process_bytes: u64,
}

/// What each worker thread holds beyond the tiers' arrays: its stack and the batch
/// buffers of module calls, and its allocator arena's slack.
pub const THREAD_BYTES: u64 = 4 << 20;

/// The process's own part of every estimate: what it holds now and `threads` workers.
pub fn process_bytes(resident_now: u64, threads: usize) -> u64 {
    resident_now.saturating_add(THREAD_BYTES.saturating_mul(threads as u64))
}

/// Bytes of a child frontier's order per position of a tier of `stored` indices.
pub fn order_bytes(stored: u64) -> u64 {
    if stored <= 1 << 32 {
        4
    } else {
        8
    }
}

/// Bytes a stored record of this game takes in memory (value and remoteness, WinBy).
pub fn record_bytes(winby: bool) -> u64 {
    if winby {
        6
    } else {
        2
    }
}
