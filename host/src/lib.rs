//! The gamesman host as a library: loading modules, the tier graph, the solver, the
//! databases, and the commands built on them. The `host` binary is a thin CLI over it;
//! tools (the validator) and tests reuse it.

pub mod analyze;
pub mod cli;
pub mod cmodule;
pub mod compat;
pub mod data_dir;
pub mod db;
pub mod export;
pub mod game;
pub mod info;
pub mod loader;
pub mod marks;
pub mod messages;
pub mod mpi;
pub mod numbers;
pub mod outcome;
pub mod play;
pub mod plot;
pub mod plugin_path;
pub mod progress;
pub mod prompt;
pub mod query;
pub mod ranking;
pub mod reach;
pub mod record;
pub mod search;
pub mod serve;
pub mod solver;
pub mod threads;
pub mod tier;
pub mod verify_db;

pub use game::{GameHandle, ModuleError, ModuleResult};
pub use loader::{load, LoadError, Module};
