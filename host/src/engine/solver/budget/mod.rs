//! The budget layer: how much memory a solve may use and how it is spent. `memory`
//! models what child tiers and kept tiers take beyond a tier's own arrays (which the
//! tier layer counts), `plan` picks every tier's way of solving (`SolveMode`) whose
//! estimated peak fits, along the one `Schedule` the driver follows, and `system`
//! reads what the machine has and the process's measured peak.
//!
//! This layer decides ways and figures; it must not solve or store anything, and
//! imports only `base`, `input`, `tier` and `schedule`.

pub mod memory;
pub mod plan;
pub mod system;

pub use memory::MemoryCheck;
