//! The stable plugin interface of the gamesman tier solver, and helpers for module
//! writers.
//!
//! A module writer implements [`Game`] (the original GamesmanClassic module API with the
//! Tier Gamesman additions, in Rust), builds a `cdylib`, and exports it with
//! [`export_game!`]. The host loads it through the versioned, layout-checked ABI in
//! [`ffi`]. [`rank`] hashes boards with given piece counts densely, so a tier's
//! positions map onto `0..tier_size`. [`object`] states `Game`'s instance methods as a
//! fallible trait, so that a host can put a game described at run time (a C module
//! written against `c/gamesman_plugin.h`, or a GamesmanClassic module built with
//! `c/classic/`) behind the very same adapter.
//!
//! This crate must stay small and stable: anything that changes `ffi` breaks every
//! module in the wild, and must bump `ffi::ABI_VERSION` and the crate's minor version.

pub mod export;
pub mod ffi;
pub mod game;
pub mod object;
pub mod rank;
pub mod types;

#[doc(hidden)]
pub use abi_stable;
pub use game::{Game, List, Properties, VariantInfo};
pub use types::{Move, Player, Tier, TierPosition, UndoMove, Value, BAD_TIER};
