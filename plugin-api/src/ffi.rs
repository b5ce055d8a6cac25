//! The stable ABI itself: the root module a plugin exports and the game object it hands
//! out. This is the contract with module writers outside the team: it is versioned
//! (`ABI_VERSION` and the crate version, both checked at load time) and kept small.
//!
//! Module writers never touch this file's types: they implement `Game` and call
//! `export_game!`. Hot paths cross the boundary in batches (`scan_batch`,
//! `parents_batch`, `children_batch`) because one call per position costs 3-4x in a
//! cheap game (see the plugin ABI cost notes); single-position calls serve play,
//! queries and the validator.

// abi_stable 0.11's `sabi_trait` expansion trips this newer lint; the code is fine.
#![allow(non_local_definitions)]

use crate::types::{Move, Player, Tier, TierPosition, UndoMove, Value};
use abi_stable::{
    declare_root_module_statics,
    library::RootModule,
    sabi_trait,
    sabi_types::VersionStrings,
    std_types::{RBox, RResult, RSlice, RSliceMut, RStr, RString, RVec},
    StableAbi,
};

/// The ABI generation. Bumped only on a breaking change to the types in this file,
/// which we do not make: the ABI grows append-only (new `FfiGame` methods after the
/// prefix, each with a default). A host refuses plugins of another generation.
pub const ABI_VERSION: u32 = 1;

/// The version every plugin and host of ABI generation 1 announce to abi_stable's
/// load-time check. Fixed, because abi_stable refuses a 0.x plugin whose patch version
/// is older than the host's; the real crate version travels in `FfiModuleInfo`.
pub const ABI_LINE: &str = "0.1.0";

/// The plugin-api crate version (shown by `host info`; a module reports its own).
pub const API_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Why a call into a module failed.
#[repr(transparent)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Debug)]
pub struct CallErrorKind(pub u8);

impl CallErrorKind {
    /// The module panicked; the panic was caught at the boundary.
    pub const PANIC: CallErrorKind = CallErrorKind(1);
    /// The module returned something impossible: a position out of its tier's range, a
    /// child in a tier `tier_children` does not declare, an invalid value code.
    pub const BAD_OUTPUT: CallErrorKind = CallErrorKind(2);
    /// The module wrote more items than it declared in `Properties`.
    pub const OVERFLOW: CallErrorKind = CallErrorKind(3);
    /// The host passed something impossible (an index past a tier's size).
    pub const BAD_INPUT: CallErrorKind = CallErrorKind(4);
    /// The variant name is not one the module offers.
    pub const BAD_VARIANT: CallErrorKind = CallErrorKind(5);
    /// The module does not implement the function (plugin-api 0.1.1: undo moves of a
    /// forward-only module).
    pub const UNSUPPORTED: CallErrorKind = CallErrorKind(6);
    /// The module reported an error itself: a C module's error status, or its
    /// `exit()` caught by the GamesmanClassic compatibility layer (plugin-api 0.1.2).
    pub const MODULE_ERROR: CallErrorKind = CallErrorKind(7);
}

/// An error from a call into a module: its kind and a message for the user.
#[repr(C)]
#[derive(StableAbi, Clone, Debug)]
pub struct CallError {
    /// What went wrong.
    pub kind: CallErrorKind,
    /// What the module (or the adapter around it) says about it.
    pub message: RString,
}

/// The result of every call into a module.
pub type CallResult<T> = RResult<T, CallError>;

/// A variant, as it crosses the boundary.
#[repr(C)]
#[derive(StableAbi, Clone, Debug)]
pub struct FfiVariant {
    /// Name typed after `--variant`.
    pub name: RString,
    /// One line about it.
    pub description: RString,
}

/// Module metadata, the same for every variant.
#[repr(C)]
#[derive(StableAbi, Clone, Debug)]
pub struct FfiModuleInfo {
    /// Short name of the game (`mtttier`).
    pub name: RString,
    /// Authors.
    pub authors: RString,
    /// One paragraph about the game.
    pub description: RString,
    /// The variants offered; the first is the default.
    pub variants: RVec<FfiVariant>,
    /// The plugin-api crate version the module was built against.
    pub api_version: RString,
}

/// `Properties` as it crosses the boundary.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug)]
pub struct FfiProperties {
    /// 2, or 1 for a puzzle.
    pub players: u8,
    /// Real tiers (else one tier 0).
    pub is_tier_game: bool,
    /// `win_by` is meaningful.
    pub supports_winby: bool,
    /// A two-player move may keep the same player to move.
    pub go_again: bool,
    /// `canonical_position` reduces symmetric positions.
    pub has_symmetry: bool,
    /// `score` is meaningful.
    pub has_score: bool,
    /// Capacity needed for `generate_moves`.
    pub max_moves: u32,
    /// Capacity needed for `generate_undo_moves_to_tier`.
    pub max_undo_moves: u32,
    /// Capacity needed for `tier_children`.
    pub max_tier_children: u32,
}

/// What the solver's first pass learns about one position of the tier being solved.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScanRecord {
    /// `ScanRecord::SKIP` for illegal and non-canonical positions, otherwise the
    /// primitive value (`Value::UNDECIDED` when the game goes on).
    pub value: u8,
    /// Whose turn it is (`Player` code) for positions that are not skipped.
    pub turn: u8,
    /// Number of distinct (canonical) children; 0 for primitives and skipped positions.
    pub children: u32,
    /// The module's WinBy for primitives and positions without moves, when supported.
    pub winby: i64,
}

impl ScanRecord {
    /// `value` of a position the solver must not solve (illegal or not canonical).
    pub const SKIP: u8 = 255;
}

/// An AutoGUI drawing slot (plugin-api 0.1.2): its place in board units.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq)]
pub struct FfiAutoGuiCenter {
    /// Horizontal position, growing to the right.
    pub x: f64,
    /// Vertical position, growing downwards.
    pub y: f64,
}

/// A fixed AutoGUI shape (plugin-api 0.1.2), as `autogui::Fixed`.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq)]
pub struct FfiAutoGuiShape {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
    /// `autogui::Shape` code.
    pub shape: u8,
    /// Fill colour (CSS), empty for none.
    pub fill: RString,
    /// Outline colour (CSS), empty for none.
    pub stroke: RString,
    /// Text in the middle, empty for none.
    pub label: RString,
}

/// How an AutoGUI token character is drawn (plugin-api 0.1.2), as `autogui::Token`.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq)]
pub struct FfiAutoGuiToken {
    /// The character (a Unicode scalar value).
    pub ch: u32,
    /// `autogui::Shape` code.
    pub shape: u8,
    /// Size in board units.
    pub size: f64,
    /// Fill colour (CSS), empty for none.
    pub fill: RString,
    /// Outline colour (CSS), empty for none.
    pub stroke: RString,
    /// Text drawn on top, empty for none.
    pub glyph: RString,
    /// The glyph's colour (CSS).
    pub glyph_colour: RString,
}

/// An AutoGUI board description (plugin-api 0.1.2), as `autogui::Board`. A board
/// without centers means the module gives no AutoGUI data.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq, Default)]
pub struct FfiAutoGuiBoard {
    /// Width of the drawing area.
    pub width: f64,
    /// Height of the drawing area.
    pub height: f64,
    /// Background colour (CSS), empty for none.
    pub background: RString,
    /// The drawing slots, numbered from 0.
    pub centers: RVec<FfiAutoGuiCenter>,
    /// Fixed shapes, drawn in order under the tokens.
    pub fixed: RVec<FfiAutoGuiShape>,
    /// How each token character is drawn.
    pub tokens: RVec<FfiAutoGuiToken>,
}

/// Converts a module-side value code, rejecting anything a module may not return.
pub fn primitive_value(v: Value) -> Option<Value> {
    (v.0 <= Value::TIE.0).then_some(v)
}

/// The game object a plugin hands out for one variant. All methods are thread-safe.
///
/// Buffers (`RSliceMut`) belong to the host and are reused between calls; methods
/// return how many items they wrote. Each method catches panics inside the module and
/// returns them as `CallError`s.

#[sabi_trait]
pub trait FfiGame: Send + Sync {
    /// The variant's declared properties.
    fn properties(&self) -> FfiProperties;
    /// The starting position.
    fn initial_position(&self) -> CallResult<TierPosition>;
    /// `primitive(p)`.
    fn primitive(&self, p: TierPosition) -> CallResult<Value>;
    /// `generate_moves(p)` into `out`; returns the count.
    fn generate_moves(&self, p: TierPosition, out: RSliceMut<'_, Move>) -> CallResult<u32>;
    /// `do_move(p, m)`.
    fn do_move(&self, p: TierPosition, m: Move) -> CallResult<TierPosition>;
    /// `turn(p)`.
    fn turn(&self, p: TierPosition) -> CallResult<Player>;
    /// `is_legal(p)`.
    fn is_legal(&self, p: TierPosition) -> CallResult<bool>;
    /// `win_by(p)`.
    fn win_by(&self, p: TierPosition) -> CallResult<i64>;
    /// `canonical_position(p)`.
    fn canonical_position(&self, p: TierPosition) -> CallResult<TierPosition>;
    /// `score(p)`.
    fn score(&self, p: TierPosition) -> CallResult<i64>;
    /// `tier_children(tier)` into `out`; returns the count.
    fn tier_children(&self, tier: Tier, out: RSliceMut<'_, Tier>) -> CallResult<u32>;
    /// `tier_size(tier)`.
    fn tier_size(&self, tier: Tier) -> CallResult<u64>;
    /// `tier_name(tier)`.
    fn tier_name(&self, tier: Tier) -> CallResult<RString>;
    /// `generate_undo_moves_to_tier(p, tier)` into `out`; returns the count.
    fn undo_moves_to_tier(
        &self,
        p: TierPosition,
        tier: Tier,
        out: RSliceMut<'_, UndoMove>,
    ) -> CallResult<u32>;
    /// `undo_move(p, u)`.
    fn undo_move(&self, p: TierPosition, u: UndoMove) -> CallResult<TierPosition>;
    /// `board_to_text(p)`.
    fn board_to_text(&self, p: TierPosition) -> CallResult<RString>;
    /// `move_to_text(p, m)`.
    fn move_to_text(&self, p: TierPosition, m: Move) -> CallResult<RString>;
    /// `text_to_move(p, text)`: the inner error is the module's message for bad input.
    fn text_to_move(&self, p: TierPosition, text: RStr<'_>) -> CallResult<RResult<Move, RString>>;
    /// `position_to_text(p)`.
    fn position_to_text(&self, p: TierPosition) -> CallResult<RString>;
    /// `text_to_position(text)`: the inner error is the module's message for bad input.
    fn text_to_position(&self, text: RStr<'_>) -> CallResult<RResult<TierPosition, RString>>;

    /// The solver's first pass over `out.len()` positions of `tier` starting at index
    /// `first`: legality, canonicity, primitive value, WinBy of primitives, and the
    /// number of distinct canonical children. Children are checked to lie in `tier` or
    /// a declared child tier, below that tier's size.
    fn scan_batch(&self, tier: Tier, first: u64, out: RSliceMut<'_, ScanRecord>) -> CallResult<()>;

    /// For each position `children[i]` of `child_tier`, the distinct canonical parents
    /// in `parent_tier` (undo moves), written one after another into `parents`, with
    /// their count in `counts[i]`. `parents` holds `max_undo_moves` per child.
    fn parents_batch(
        &self,
        child_tier: Tier,
        children: RSlice<'_, u64>,
        parent_tier: Tier,
        parents: RSliceMut<'_, u64>,
        counts: RSliceMut<'_, u32>,
    ) -> CallResult<()>;

    /// For each position `positions[i]` of `tier`, its distinct canonical children,
    /// written one after another into `children`, with their count in `counts[i]`
    /// (0 for primitives). `children` holds `max_moves` per position.
    #[sabi(last_prefix_field)]
    fn children_batch(
        &self,
        tier: Tier,
        positions: RSlice<'_, u64>,
        children: RSliceMut<'_, TierPosition>,
        counts: RSliceMut<'_, u32>,
    ) -> CallResult<()>;

    // ---- appended in plugin-api 0.1.1 ----------------------------------------------
    // Everything below the prefix is optional in the vtable: a module built against an
    // earlier plugin-api lacks it, and the host then runs the default body written here.
    // Append only, always with a default that is right for the older modules.

    /// Whether the module gives undo moves (`generate_undo_moves_to_tier`,
    /// `undo_move`). `false` for a forward-only module, whose parents the host builds
    /// by expanding positions forward. Default (modules before 0.1.1, which had to
    /// give undo moves): `true`.
    fn has_undo_moves(&self) -> bool {
        true
    }

    // ---- appended in plugin-api 0.1.2: AutoGUI ------------------------------------

    /// The variant's AutoGUI board (`Game::autogui_board`): centers, fixed shapes and
    /// token styles. No centers means no AutoGUI data. Default (modules before 0.1.2):
    /// an empty board, no AutoGUI data.
    fn autogui_board(&self) -> CallResult<FfiAutoGuiBoard> {
        RResult::ROk(FfiAutoGuiBoard::default())
    }

    /// The AutoGUI string of position `p` (`Game::autogui_position`), empty when the
    /// module gives none. Default (modules before 0.1.2): empty, no AutoGUI data.
    fn autogui_position(&self, p: TierPosition) -> CallResult<RString> {
        let _ = p;
        RResult::ROk(RString::new())
    }

    /// The AutoGUI string of move `m` at `p` (`Game::autogui_move`), empty when the
    /// module gives none. Default (modules before 0.1.2): empty, no AutoGUI data.
    fn autogui_move(&self, p: TierPosition, m: Move) -> CallResult<RString> {
        let _ = (p, m);
        RResult::ROk(RString::new())
    }

    // ---- appended in plugin-api 0.1.3 ----------------------------------------------

    /// The version of the variant's numbering of positions (`Game::index_version`),
    /// stored with every tier file so that files of another numbering are solved again
    /// instead of misread. Default (modules before 0.1.3): 0.
    fn index_version(&self) -> u32 {
        0
    }

    // ---- appended in plugin-api 0.1.4: canonical positions first, orbits (issue 31) -

    /// How many indices at the start of `tier` hold all its canonical positions
    /// (`Game::canonical_prefix`), `u64::MAX` when the module does not say. Default
    /// (modules before): `u64::MAX`.
    fn canonical_prefix(&self, tier: Tier) -> CallResult<u64> {
        let _ = tier;
        RResult::ROk(u64::MAX)
    }

    /// The size of the symmetry class of the canonical position `p`
    /// (`Game::orbit_size`). Default (modules before): 1.
    fn orbit_size(&self, p: TierPosition) -> CallResult<u64> {
        let _ = p;
        RResult::ROk(1)
    }

    // ---- appended in plugin-api 0.1.4: GamesmanUni's image AutoGUI (issue 30) -------

    /// The variant's `imageAutoGUIData` for GamesmanUni (`Game::image_autogui_data`):
    /// JSON naming GamesmanUni's own images, empty when the module gives none. Default
    /// (modules before 0.1.4): empty.
    fn image_autogui_data(&self) -> CallResult<RString> {
        RResult::ROk(RString::new())
    }

    // ---- appended in plugin-api 0.1.5: turn-free positions (issue 29) ---------------

    /// Whether the variant's positions do not record whose turn it is
    /// (`Game::turn_free`): `turn` names a player for display only. Default (modules
    /// before 0.1.5): `false`, the turn is part of the position.
    fn turn_free(&self) -> bool {
        false
    }

    // ---- appended in plugin-api 0.1.7: exact counts of every position (issue 40) ----

    /// The canonical form of `p` under the symmetries that keep the player to move
    /// and reachability from the initial position (`Game::reach_canonical`). Default
    /// (modules before 0.1.7): `p` itself, and the host counts every position by a
    /// forward search without symmetry.
    fn reach_canonical(&self, p: TierPosition) -> CallResult<TierPosition> {
        RResult::ROk(p)
    }

    /// The size of `p`'s class under those symmetries (`Game::reach_orbit_size`).
    /// Default (modules before 0.1.7): 1.
    fn reach_orbit_size(&self, p: TierPosition) -> CallResult<u64> {
        let _ = p;
        RResult::ROk(1)
    }

    // ---- appended in plugin-api 0.1.8: the module's share of the memory budget -----

    /// Tells the module how many bytes its own caches may keep while it solves
    /// (`Game::memory_budget`); returns the most it will keep. Default (modules before
    /// 0.1.8): 0, and the host counts nothing for them.
    fn memory_budget(&self, bytes: u64) -> CallResult<u64> {
        let _ = bytes;
        RResult::ROk(0)
    }

    /// How many positions of the canonical position `p`'s class have player one and
    /// player two to move (`Game::orbit_by_turn`); `[0, 0]` when the module does not
    /// say (no class is empty). Default (modules before 0.1.8, and from then on
    /// without the hook): `[0, 0]`.
    fn orbit_by_turn(&self, p: TierPosition) -> CallResult<[u64; 2]> {
        let _ = p;
        RResult::ROk([0, 0])
    }

    /// `scan_batch`, with each expanded position's distinct canonical children one list
    /// after another in `children` (room for `max_moves` a position of `out`; a
    /// record's `children` says how many are its): one expansion of each position
    /// gives both, so a solver that builds a reverse graph need not expand the tier
    /// again. Returns `false` when not done (modules before 0.1.8, and games that do
    /// not promise answers independent of the order of calls, `GameObject::order_free`):
    /// the caller scans and asks for the children apart.
    fn scan_children_batch(
        &self,
        tier: Tier,
        first: u64,
        out: RSliceMut<'_, ScanRecord>,
        children: RSliceMut<'_, TierPosition>,
    ) -> CallResult<bool> {
        let _ = (tier, first, out, children);
        RResult::ROk(false)
    }

    /// Whether the module asks to be solved by its children although it gives undo
    /// moves (`Game::prefers_forward`). Default (modules before 0.1.8): `false`.
    fn prefers_forward(&self) -> bool {
        false
    }

    // ---- appended in plugin-api 0.1.9: names for people (issue 52) -----------------

    /// Undo move `u` at `p` as text (`Game::undo_move_to_text`), empty when the
    /// module gives none. Default (modules before 0.1.9): empty, and undo moves are
    /// named by their number.
    fn undo_move_to_text(&self, p: TierPosition, u: UndoMove) -> CallResult<RString> {
        let _ = (p, u);
        RResult::ROk(RString::new())
    }

    /// The game's display name (`Game::DISPLAY_NAME`), empty when the module gives
    /// none. Default (modules before 0.1.9): empty, and front ends cut a name from the
    /// module's description.
    fn display_name(&self) -> RString {
        RString::new()
    }
}

/// The game object as the host holds it.
pub type GameBox = FfiGame_TO<'static, RBox<()>>;

/// The root module every plugin exports (through `export_game!`).
#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = GameModuleRef)))]
#[sabi(missing_field(panic))]
pub struct GameModule {
    /// `ABI_VERSION` of the plugin-api the module was built with.
    pub abi_version: u32,
    /// The module's metadata.
    pub info: extern "C" fn() -> CallResult<FfiModuleInfo>,
    /// A game object for the named variant (an empty name selects the default).
    #[sabi(last_prefix_field)]
    pub new_game: extern "C" fn(variant: RStr<'_>) -> CallResult<GameBox>,
}

impl RootModule for GameModuleRef {
    declare_root_module_statics! {GameModuleRef}
    const BASE_NAME: &'static str = "gamesman_module";
    const NAME: &'static str = "gamesman_module";
    const VERSION_STRINGS: VersionStrings = VersionStrings::new(ABI_LINE);
}
