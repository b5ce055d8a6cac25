//! The gamesman host as a library: an engine that loads, solves, stores and questions games,
//! with front ends on top. The `host` binary (`main.rs`, `bin/host-mpi.rs`) is a thin layer
//! over it; tools (the validator) and tests reuse it.
//!
//! The map (each folder: what it holds; what it must not touch):
//! - `engine/` — everything that knows games; imports no front end (host/tests/layering.rs).
//!   - `engine/load/` — finding, opening and checking modules (Rust cdylibs and C `cmodule`);
//!     does not solve or read databases.
//!   - `engine/game.rs` — the game handle every other part calls modules through.
//!   - `engine/tier.rs`, `engine/reach.rs` — the tier graph and which positions are reachable.
//!   - `engine/solver/` — retrograde solving tier by tier; writes only through `db`.
//!   - `engine/db/`, `engine/verify_db.rs` — database files (write, read, remote, verify);
//!     know nothing about solving order or users.
//!   - `engine/ask/` — questions of solved positions: query, ranking, search, analyze, info;
//!     read-only on databases.
//!   - `engine/{record,outcome,marks,numbers,threads,messages}.rs` — shared vocabulary.
//! - `cli/` — the command line: parses arguments, calls the engine, prints; no game logic.
//! - `play/` — the text player and its prompt; plays what the database says, never solves.
//! - `serve/` — the web server (JSON API and page); answers from the engine, no solving.
//! - `mpi/` — solving across machines: schedules tiers onto workers that run the engine's solver.
//! - `export/` — `host export`: solved positions and moves to Parquet, SQLite, CSV; reads only.
//! - `report/` — charts (`plot`) and progress lines (`progress`) for the other front ends.
//!
//! A `solve`: `main.rs` → `cli::solve` → `engine::load::loader::load` (→ `engine::game`) →
//! `engine::tier` → `engine::solver` (tier by tier, `report::progress` observing) →
//! `engine::db` writes the tier files. A web request: `serve` (connection, `serve::api`) →
//! `serve::answer` → `engine::ask::{query, ranking}` → `engine::db` reads the record →
//! JSON back to the client.

pub mod cli;
pub mod engine;
pub mod export;
pub mod mpi;
pub mod play;
pub mod report;
pub mod serve;

pub use engine::game::{GameHandle, ModuleError, ModuleResult};
pub use engine::load::loader::{load, LoadError, Module};
