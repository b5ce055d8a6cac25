//! The stable plugin interface of the gamesman tier solver, and helpers for module
//! writers.
//!
//! A module writer implements [`Game`] (the original GamesmanClassic module API with the
//! Tier Gamesman additions, in Rust), builds a `cdylib`, and exports it with
//! [`export_game!`]. The host loads it through the versioned, layout-checked ABI in
//! [`ffi`]. [`rank`] hashes boards with given piece counts densely, so a tier's
//! positions map onto `0..tier_size`. [`symmetry`] gives the symmetries of square, rectangular and Mills boards
//! as permutation tables, and canonical forms as least images. [`autogui`] describes boards and moves for
//! graphical front ends. [`object`] states `Game`'s instance methods as a
//! fallible trait, so that a host can put a game described at run time (a C module
//! written against `c/gamesman_plugin.h`, or a GamesmanClassic module built with
//! `c/classic/`) behind the very same adapter.
//!
//! This crate must stay small and stable: `ffi` grows only by appending `FfiGame`
//! methods with defaults right for older modules; any other change breaks every module
//! in the wild and must bump `ffi::ABI_VERSION`.
//!
//! # A whole module
//!
//! The subtraction game below (`examples/subtraction.rs`, built as a plugin by `cargo
//! build --release --examples`) gives only what [`Game`] requires: no tiers, no undo
//! moves, no text forms for positions. The host solves it by expanding positions
//! forward; every other function has a default, documented on [`Game`].
//!
#![doc = concat!(
    "```rust\n",
    include_str!("../examples/subtraction.rs"),
    // Run in-process by the doc test, not shown: a heap of 10 starts with player one
    // to move and three moves, and an empty heap is a loss for the player to move.
    "# fn main() {\n",
    "# use gamesman_plugin_api::{Game, List, Move, Player, TierPosition, Tier, Value};\n",
    "# let game = Subtraction::new(\"10\").unwrap();\n",
    "# let start = game.initial_position();\n",
    "# assert_eq!(game.turn(start), Player::ONE);\n",
    "# let mut buf = [Move::default(); 3];\n",
    "# let mut moves = List::new(&mut buf);\n",
    "# game.generate_moves(start, &mut moves);\n",
    "# assert_eq!(moves.as_slice(), [Move(1), Move(2), Move(3)]);\n",
    "# let eight = game.do_move(start, Move(2));\n",
    "# assert_eq!(game.board_to_text(eight), \"8 stones left\");\n",
    "# assert_eq!(game.turn(eight), Player::TWO);\n",
    "# assert_eq!(game.primitive(TierPosition::new(Tier(0), 0)), Value::LOSE);\n",
    "# assert!(Subtraction::new(\"0\").is_err());\n",
    "# }\n",
    "```",
)]
// A crate strangers depend on: every public item says what it is.
#![deny(missing_docs)]

pub mod autogui;
pub mod export;
pub mod ffi;
pub mod game;
pub mod object;
pub mod rank;
pub mod symmetry;
pub mod types;

#[doc(hidden)]
pub use abi_stable;

/// The README's example module, compiled as a doctest so it keeps up with the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExample;
pub use game::{Game, List, Properties, VariantInfo};
pub use types::{Move, Player, Tier, TierPosition, UndoMove, Value, BAD_TIER};
