//! The stable plugin interface of the gamesman tier solver, and helpers for module
//! writers.
//!
//! A module writer implements [`Game`] (the original GamesmanClassic module API with the
//! Tier Gamesman additions, in Rust), builds a `cdylib`, and exports it with
//! [`export_game!`]. The host loads it through the versioned, layout-checked ABI in
//! [`ffi`]. [`rank`] hashes boards with given piece counts densely, so a tier's
//! positions map onto `0..tier_size`.
//!
//! This crate must stay small and stable: anything that changes `ffi` breaks every
//! module in the wild, and must bump `ffi::ABI_VERSION` and the crate's minor version.

pub mod export;
pub mod ffi;
pub mod game;
pub mod rank;
pub mod types;

#[doc(hidden)]
pub use abi_stable;

/// The README's example module, compiled as a doctest so it keeps up with the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExample;
pub use game::{Game, List, Properties, VariantInfo};
pub use types::{Move, Player, Tier, TierPosition, UndoMove, Value, BAD_TIER};
