//! FROZEN COPY of gamesman-plugin-api 0.1.1 (commit 09af502), for the old-module test
//! fixture only: a module built against it is what a module built against the real
//! 0.1.1 release looks like to a newer host (the same package name, version and type
//! layouts). The ranking helpers (`rank`), which are not part of the ABI, are left
//! out. Never edit the ABI files here: they must stay byte-for-byte what 0.1.1 shipped.
//!
//! The stable plugin interface of the gamesman tier solver, and helpers for module
//! writers.
//!
//! A module writer implements [`Game`] (the original GamesmanClassic module API with the
//! Tier Gamesman additions, in Rust), builds a `cdylib`, and exports it with
//! [`export_game!`]. The host loads it through the versioned, layout-checked ABI in
//! [`ffi`]. (`rank`, left out of this copy, hashes boards densely, so a tier's
//! positions map onto `0..tier_size`.
//!
//! This crate must stay small and stable: anything that changes `ffi` breaks every
//! module in the wild, and must bump `ffi::ABI_VERSION` and the crate's minor version.

pub mod export;
pub mod ffi;
pub mod game;

pub mod types;

#[doc(hidden)]
pub use abi_stable;
pub use game::{Game, List, Properties, VariantInfo};
pub use types::{Move, Player, Tier, TierPosition, UndoMove, Value, BAD_TIER};
