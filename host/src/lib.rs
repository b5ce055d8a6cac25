//! The gamesman host as a library: loading modules, the tier graph, the solver, the
//! databases, and the commands built on them. The `host` binary is a thin CLI over it;
//! tools (the validator) and tests reuse it.

pub mod analyze;
pub mod compat;
pub mod db;
pub mod game;
pub mod info;
pub mod loader;
pub mod mpi;
pub mod outcome;
pub mod play;
pub mod plot;
pub mod progress;
pub mod query;
pub mod ranking;
pub mod reach;
pub mod record;
pub mod search;
pub mod solver;
pub mod tier;

pub use game::{GameHandle, ModuleError, ModuleResult};
pub use loader::{load, LoadError, Module};
