//! The C ABI of `plugin-api/c/gamesman_plugin.h`, mirrored in Rust: the module struct
//! a C module's `gamesman_module_v1()` returns and the plain types its functions take.
//!
//! Every type here has the header's layout exactly (a test compiles the header and
//! compares sizes and offsets). This file must not call anything: it only describes.

use std::ffi::c_char;
use std::os::raw::c_int;

/// `GAMESMAN_C_ABI_VERSION`: the ABI version this host speaks.
pub const C_ABI_VERSION: u32 = 1;

/// `GAMESMAN_ENTRY_POINT`, NUL-terminated for the symbol lookup.
pub const ENTRY_POINT: &[u8] = b"gamesman_module_v1\0";

/// `GAMESMAN_OK`.
pub const OK: c_int = 0;
/// `GAMESMAN_ERROR`.
pub const ERROR: i64 = -1;
/// `GAMESMAN_REJECTED`.
pub const REJECTED: i64 = -2;
/// `GAMESMAN_UNSUPPORTED`.
pub const UNSUPPORTED: i64 = -3;

/// `GAMESMAN_FLAG_THREAD_SAFE`.
pub const FLAG_THREAD_SAFE: u64 = 1 << 0;
/// `GAMESMAN_FLAG_TIERS`.
pub const FLAG_TIERS: u64 = 1 << 1;
/// `GAMESMAN_FLAG_SYMMETRY`.
pub const FLAG_SYMMETRY: u64 = 1 << 2;
/// `GAMESMAN_FLAG_WINBY`.
pub const FLAG_WINBY: u64 = 1 << 3;
/// `GAMESMAN_FLAG_GO_AGAIN`.
pub const FLAG_GO_AGAIN: u64 = 1 << 4;
/// `GAMESMAN_FLAG_PUZZLE`.
pub const FLAG_PUZZLE: u64 = 1 << 5;
/// `GAMESMAN_FLAG_SCORE`.
pub const FLAG_SCORE: u64 = 1 << 6;
/// `GAMESMAN_FLAG_TURN_FREE` (plugin-api 0.1.5).
pub const FLAG_TURN_FREE: u64 = 1 << 7;
/// `GAMESMAN_FLAG_FAST_PATHS_CANONICAL` (header revision 2).
pub const FLAG_FAST_PATHS_CANONICAL: u64 = 1 << 8;
/// `GAMESMAN_FLAG_SOLVE_FORWARD` (header revision 3).
pub const FLAG_SOLVE_FORWARD: u64 = 1 << 9;

/// `GAMESMAN_MESSAGE_CAPACITY`.
pub const MESSAGE_CAPACITY: usize = 1024;

/// `gamesman_position`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CPosition {
    /// The tier.
    pub tier: u64,
    /// The index in the tier.
    pub index: u64,
}

/// `gamesman_error`: where a failing function writes its message.
#[repr(C)]
pub struct CError {
    /// NUL-terminated message.
    pub message: [c_char; MESSAGE_CAPACITY],
}

/// `gamesman_variant`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct CVariant {
    /// Name typed after `--variant`.
    pub name: *const c_char,
    /// One line about it.
    pub description: *const c_char,
}

/// `gamesman_properties`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CProperties {
    /// `GAMESMAN_FLAG_*`.
    pub flags: u64,
    /// Capacity for moves and children.
    pub max_moves: u32,
    /// Capacity for undo moves and parents.
    pub max_undo_moves: u32,
    /// Capacity for tier children.
    pub max_tier_children: u32,
    /// Zero.
    pub reserved: u32,
}

/// `gamesman_game`: opaque, the module's.
#[repr(C)]
pub struct CGameRaw {
    _private: [u8; 0],
}

/// A game pointer as the functions take it.
pub type Game = *mut CGameRaw;
/// An error pointer as the functions take it.
pub type Err = *mut CError;

/// Shorthand for the optional `extern "C"` function pointers of the struct.
macro_rules! cfn {
    ($($arg:ty),* => $ret:ty) => { Option<unsafe extern "C" fn($($arg),*) -> $ret> };
}

/// `gamesman_module`, version 1. Fields past the module's `struct_size` are absent
/// (the host reads a zeroed copy, so they are NULL).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct CModuleStruct {
    /// `GAMESMAN_C_ABI_VERSION` of the module.
    pub abi_version: u32,
    /// `sizeof(gamesman_module)` as the module was compiled.
    pub struct_size: u32,
    /// Module-wide flags.
    pub flags: u64,
    /// Short name.
    pub name: *const c_char,
    /// Authors.
    pub authors: *const c_char,
    /// Description.
    pub description: *const c_char,
    /// Variants array.
    pub variants: *const CVariant,
    /// Number of variants.
    pub variant_count: u32,
    /// Capacity for moves.
    pub max_moves: u32,
    /// Capacity for undo moves.
    pub max_undo_moves: u32,
    /// Capacity for tier children.
    pub max_tier_children: u32,
    /// `new_game`.
    pub new_game: cfn!(*const c_char, Err => Game),
    /// `free_game`.
    pub free_game: Option<unsafe extern "C" fn(Game)>,
    /// `properties`.
    pub properties: cfn!(Game, *mut CProperties, Err => c_int),
    /// `initial_position`.
    pub initial_position: cfn!(Game, *mut CPosition, Err => c_int),
    /// `primitive`.
    pub primitive: cfn!(Game, CPosition, Err => c_int),
    /// `generate_moves`.
    pub generate_moves: cfn!(Game, CPosition, *mut u64, u32, Err => i64),
    /// `do_move`.
    pub do_move: cfn!(Game, CPosition, u64, *mut CPosition, Err => c_int),
    /// `turn`.
    pub turn: cfn!(Game, CPosition, Err => c_int),
    /// `board_to_text`.
    pub board_to_text: cfn!(Game, CPosition, *mut c_char, u64, Err => i64),
    /// `move_to_text`.
    pub move_to_text: cfn!(Game, CPosition, u64, *mut c_char, u64, Err => i64),
    /// `text_to_move`.
    pub text_to_move: cfn!(Game, CPosition, *const c_char, *mut u64, Err => c_int),
    /// `position_to_text`.
    pub position_to_text: cfn!(Game, CPosition, *mut c_char, u64, Err => i64),
    /// `text_to_position`.
    pub text_to_position: cfn!(Game, *const c_char, *mut CPosition, Err => c_int),
    /// `tier_children`.
    pub tier_children: cfn!(Game, u64, *mut u64, u32, Err => i64),
    /// `tier_size`.
    pub tier_size: cfn!(Game, u64, *mut u64, Err => c_int),
    /// `is_legal`.
    pub is_legal: cfn!(Game, CPosition, Err => c_int),
    /// `generate_undo_moves_to_tier`.
    pub generate_undo_moves_to_tier: cfn!(Game, CPosition, u64, *mut u64, u32, Err => i64),
    /// `undo_move`.
    pub undo_move: cfn!(Game, CPosition, u64, *mut CPosition, Err => c_int),
    /// `tier_name`.
    pub tier_name: cfn!(Game, u64, *mut c_char, u64, Err => i64),
    /// `children`.
    pub children: cfn!(Game, CPosition, *mut CPosition, u32, Err => i64),
    /// `parents`.
    pub parents: cfn!(Game, CPosition, u64, *mut CPosition, u32, Err => i64),
    /// `win_by`.
    pub win_by: cfn!(Game, CPosition, *mut i64, Err => c_int),
    /// `canonical_position`.
    pub canonical_position: cfn!(Game, CPosition, *mut CPosition, Err => c_int),
    /// `score`.
    pub score: cfn!(Game, CPosition, *mut i64, Err => c_int),
    /// `position_to_autogui` (called by `object::autogui`).
    pub position_to_autogui: cfn!(Game, CPosition, *mut c_char, u64, Err => i64),
    /// `move_to_autogui` (called by `object::autogui`).
    pub move_to_autogui: cfn!(Game, CPosition, u64, *mut c_char, u64, Err => i64),
    /// `scan_position` (header revision 2).
    pub scan_position: cfn!(Game, CPosition, *mut u32, Err => c_int),
    /// `is_canonical` (header revision 2).
    pub is_canonical: cfn!(Game, CPosition, Err => c_int),
    /// `memory_budget` (header revision 3).
    pub memory_budget: cfn!(Game, u64, Err => i64),
}

/// The size of the first revision of the version-1 struct (up to `move_to_autogui`):
/// every version-1 module has at least this much.
pub const V1_SIZE: usize = std::mem::offset_of!(CModuleStruct, scan_position);

/// The size of the struct as this host knows it (the latest header revision); a
/// module's fields past it are not read, fields it lacks below it count as NULL.
pub const KNOWN_SIZE: usize = std::mem::size_of::<CModuleStruct>();

/// The size of the header (`abi_version`, `struct_size`, `flags`), readable before
/// the version is known.
pub const HEADER_SIZE: usize = 16;

/// The entry point's type.
pub type EntryPoint = unsafe extern "C" fn() -> *const CModuleStruct;

impl CModuleStruct {
    /// The REQUIRED functions that are NULL, by their C names.
    pub fn missing_required(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        let mut need = |present: bool, name: &'static str| {
            if !present {
                out.push(name);
            }
        };
        need(self.new_game.is_some(), "new_game");
        need(self.initial_position.is_some(), "initial_position");
        need(self.primitive.is_some(), "primitive");
        need(self.generate_moves.is_some(), "generate_moves");
        need(self.do_move.is_some(), "do_move");
        need(self.turn.is_some(), "turn");
        need(self.board_to_text.is_some(), "board_to_text");
        need(self.move_to_text.is_some(), "move_to_text");
        need(self.tier_size.is_some(), "tier_size");
        need(
            self.generate_undo_moves_to_tier.is_none() || self.undo_move.is_some(),
            "undo_move (generate_undo_moves_to_tier is set)",
        );
        out
    }

    /// The functions `flags` require that are NULL, by their C names.
    pub fn missing_for_flags(&self, flags: u64) -> Vec<&'static str> {
        let mut out = Vec::new();
        if flags & FLAG_WINBY != 0 && self.win_by.is_none() {
            out.push("win_by (GAMESMAN_FLAG_WINBY is set)");
        }
        if flags & FLAG_SYMMETRY != 0 && self.canonical_position.is_none() {
            out.push("canonical_position (GAMESMAN_FLAG_SYMMETRY is set)");
        }
        if flags & FLAG_SCORE != 0 && self.score.is_none() {
            out.push("score (GAMESMAN_FLAG_SCORE is set)");
        }
        out
    }
}
