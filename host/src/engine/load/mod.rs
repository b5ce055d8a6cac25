//! Loading and checking modules: finding a plugin (`plugin_path`, `data_dir`), opening it
//! (`loader`; C modules through `cmodule`) and checking its ABI (`compat`). Hands back a
//! `GameHandle`; it must not solve, read databases, or print for a front end.

pub mod cmodule;
pub mod compat;
pub mod data_dir;
pub mod loader;
pub mod plugin_path;
pub mod sidecar;
