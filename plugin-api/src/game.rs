//! The safe Rust trait a module writer implements: the original C module API, in Rust.
//!
//! Nothing here crosses the plugin boundary directly; `export_game!` wraps an
//! implementation in the stable ABI of `ffi`. Every method documents its meaning and,
//! where it has one, its default (the seed's default for a game that leaves it out).

use crate::types::{Move, Player, Tier, TierPosition, UndoMove, Value};

/// A variant a module offers (the original `getOption`/`setOption`, by name).
#[derive(Clone, Debug)]
pub struct VariantInfo {
    /// The name typed after `--variant` (no spaces).
    pub name: String,
    /// One line saying what the variant is.
    pub description: String,
}

impl VariantInfo {
    /// A variant from its name and description.
    pub fn new(name: &str, description: &str) -> Self {
        VariantInfo {
            name: name.to_string(),
            description: description.to_string(),
        }
    }
}

/// What a game instance (one variant) declares about itself.
#[derive(Clone, Debug)]
pub struct Properties {
    /// 2 for two-player games, 1 for puzzles (every move keeps the same player).
    pub players: u8,
    /// Whether the game defines real tiers (otherwise it is one tier 0, its own child).
    pub is_tier_game: bool,
    /// Whether `win_by` is meaningful (the seed's `gPutWinBy` is set).
    pub supports_winby: bool,
    /// Whether a move of a two-player game may leave the same player to move.
    pub go_again: bool,
    /// Whether `canonical_position` reduces symmetric positions.
    pub has_symmetry: bool,
    /// Whether `score` gives a heuristic for depth-limited search.
    pub has_score: bool,
    /// The most moves `generate_moves` ever writes for one position.
    pub max_moves: u32,
    /// The most undo moves `generate_undo_moves_to_tier` ever writes for one position.
    pub max_undo_moves: u32,
    /// The most tiers `tier_children` ever writes for one tier.
    pub max_tier_children: u32,
}

impl Default for Properties {
    fn default() -> Self {
        Properties {
            players: 2,
            is_tier_game: false,
            supports_winby: false,
            go_again: false,
            has_symmetry: false,
            has_score: false,
            max_moves: 64,
            max_undo_moves: 64,
            max_tier_children: 16,
        }
    }
}

/// A list written into a buffer the caller owns and reuses: `push` never allocates.
///
/// Pushing past the capacity the module declared in `Properties` is recorded, and the
/// call is reported to the host as an error instead of writing out of bounds.
///
/// ```
/// use gamesman_plugin_api::{List, Move};
/// let mut buf = [Move::default(); 2];
/// let mut moves = List::new(&mut buf);
/// moves.push(Move(4));
/// moves.push(Move(7));
/// assert_eq!(moves.as_slice(), [Move(4), Move(7)]);
/// moves.push(Move(9)); // past the capacity: dropped, and reported to the host
/// assert!(moves.overflowed());
/// assert_eq!(moves.len(), 2);
/// ```
pub struct List<'a, T> {
    buf: &'a mut [T],
    len: usize,
    overflowed: bool,
    unsupported: bool,
}

impl<'a, T: Copy> List<'a, T> {
    /// A list over `buf`, initially empty.
    pub fn new(buf: &'a mut [T]) -> Self {
        List {
            buf,
            len: 0,
            overflowed: false,
            unsupported: false,
        }
    }

    /// Appends `item`; past the capacity the item is dropped and the overflow recorded.
    #[inline]
    pub fn push(&mut self, item: T) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = item;
            self.len += 1;
        } else {
            self.overflowed = true;
        }
    }

    /// The items pushed so far.
    pub fn as_slice(&self) -> &[T] {
        &self.buf[..self.len]
    }

    /// How many items were pushed (and kept).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing was pushed.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether a push went past the capacity.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// Removes every item, keeping the buffer.
    pub fn clear(&mut self) {
        self.len = 0;
        self.overflowed = false;
        self.unsupported = false;
    }

    /// The unused rest of the buffer, for code that writes items in place (a C
    /// module's function given a pointer and a capacity); follow with `advance`.
    pub fn spare_mut(&mut self) -> &mut [T] {
        &mut self.buf[self.len..]
    }

    /// Keeps `n` items written into `spare_mut`. A count past the spare capacity keeps
    /// what fits and records the overflow, as `push` does.
    pub fn advance(&mut self, n: usize) {
        let room = self.buf.len() - self.len;
        if n > room {
            self.overflowed = true;
        }
        self.len += n.min(room);
    }

    /// Says that the function filling this list is not implemented by the module (the
    /// default `generate_undo_moves_to_tier` does this). The host then builds what it
    /// needs another way (parents from forward moves). Modules rarely call it.
    pub fn mark_unsupported(&mut self) {
        self.unsupported = true;
    }

    /// Whether the function filling this list said it is not implemented.
    pub fn is_unsupported(&self) -> bool {
        self.unsupported
    }
}

/// A game module. Positions are `(tier, index)` pairs; the module only ever sees its own
/// tier hashes. Implement this, then call `export_game!(YourGame)` in the crate root.
///
/// Methods take `&self` and are called from many threads at once.
pub trait Game: Send + Sync + Sized + 'static {
    /// The module's short name (`mtttier`), used for database directories.
    const NAME: &'static str;
    /// Who wrote the module.
    const AUTHORS: &'static str;
    /// One paragraph about the game.
    const DESCRIPTION: &'static str;
    /// The game's name as people read it ("Three Men's Morris"), shown by `serve`'s
    /// catalog, GamesmanUni and `host info` (plugin-api 0.1.9). Default: empty, and
    /// front ends take the description up to its first `:` when that is short
    /// ("Quixo: ..." gives "Quixo"), else `NAME`.
    const DISPLAY_NAME: &'static str = "";

    /// The variants offered; the first is the default.
    fn variants() -> Vec<VariantInfo>;

    /// The game for one variant, or a message saying why the variant is not valid.
    fn new(variant: &str) -> Result<Self, String>;

    /// What this variant declares about itself (players, WinBy, list capacities, ...).
    fn properties(&self) -> Properties;

    // ---- regular API -------------------------------------------------------------

    /// The starting position (the seed's `gInitialTier` + `gGetInitialTierPosition`).
    fn initial_position(&self) -> TierPosition;

    /// Whether the game is over at `p`: `WIN`, `LOSE` or `TIE` from the view of the
    /// player to move, or `UNDECIDED` if play goes on. A position that is not primitive
    /// but has no moves counts as a loss for the player to move.
    fn primitive(&self, p: TierPosition) -> Value;

    /// Writes every legal move at `p` into `moves` (never called on primitives).
    fn generate_moves(&self, p: TierPosition, moves: &mut List<'_, Move>);

    /// The position after making move `m` at `p`.
    fn do_move(&self, p: TierPosition, m: Move) -> TierPosition;

    /// Whose turn it is at `p`. When a move leaves the same player to move (go-again
    /// moves, every move of a puzzle) the solver does not invert the child's value.
    fn turn(&self, p: TierPosition) -> Player;

    /// The board for display, several lines, without the prediction line.
    fn board_to_text(&self, p: TierPosition) -> String;

    /// A move in the text form a player types.
    fn move_to_text(&self, p: TierPosition, m: Move) -> String;

    /// Parses a typed move. Default: matches `text` (trimmed, case-insensitive) against
    /// `move_to_text` of every legal move, and lists them when nothing matches.
    fn text_to_move(&self, p: TierPosition, text: &str) -> Result<Move, String> {
        // A `Game`'s calls never fail on their own, so the outer result is always `Ok`.
        crate::object::text_to_move_by_name(self, p, text).unwrap_or_else(|e| Err(e.message.into()))
    }

    /// A one-line text naming the position, accepted back by `text_to_position`.
    /// Default: `TIER:INDEX`.
    fn position_to_text(&self, p: TierPosition) -> String {
        crate::object::position_to_text_by_index(p)
    }

    /// Parses a position named on the command line. Default: `TIER:INDEX`.
    fn text_to_position(&self, text: &str) -> Result<TierPosition, String> {
        crate::object::text_to_position_by_index(self, text)
            .unwrap_or_else(|e| Err(e.message.into()))
    }

    // ---- tier API ----------------------------------------------------------------

    /// The tiers positions of `tier` lead to, `tier` itself included when its
    /// positions can lead to each other (a loopy tier). Default: `[tier]`, the seed's
    /// one-tier game.
    fn tier_children(&self, tier: Tier, children: &mut List<'_, Tier>) {
        children.push(tier);
    }

    /// The number of positions in `tier`'s hash (`gNumberOfTierPositions`); indices
    /// run over `0..tier_size`.
    fn tier_size(&self, tier: Tier) -> u64;

    /// Whether an index of a tier stands for a position that can really occur; the
    /// solver skips illegal ones. Default: every position is legal.
    fn is_legal(&self, _p: TierPosition) -> bool {
        true
    }

    /// Writes the undo moves that lead from `p` back to positions in `tier` (only
    /// parents that are legal, not primitive, and have `p` as a child). Returns nothing
    /// for a tier that is not a parent of `p`'s tier.
    ///
    /// Optional. Default: none, and the module is *forward-only*: the host finds every
    /// position's parents itself by expanding the tier's positions forward
    /// (`generate_moves` and `do_move`), which costs memory for the reverse graph (about
    /// 4 bytes per move plus 4 per child position) but no undo-move code. A module that
    /// implements this must also implement `undo_move`.
    fn generate_undo_moves_to_tier(
        &self,
        _p: TierPosition,
        _tier: Tier,
        undo: &mut List<'_, UndoMove>,
    ) {
        undo.mark_unsupported();
    }

    /// The parent position reached by undoing `u` at `p` (`gUnDoMove`). Optional with
    /// `generate_undo_moves_to_tier`; the default is never called by the host (a
    /// forward-only module hands out no undo moves) and returns `p`.
    fn undo_move(&self, p: TierPosition, _u: UndoMove) -> TierPosition {
        p
    }

    /// Undo move `u` at `p` as text for people (plugin-api 0.1.9), such as the move it
    /// takes back ("b2-b3" undone): `validate` names undo moves by it in its findings
    /// instead of by number. Only asked for undo moves `generate_undo_moves_to_tier`
    /// gave at `p`. Default: `None`, and undo moves are named by their number.
    #[doc(alias = "undo_move_to_string")]
    fn undo_move_to_text(&self, _p: TierPosition, _u: UndoMove) -> Option<String> {
        None
    }

    /// A readable tier name (`gTierToString`). Default: the tier number.
    fn tier_name(&self, tier: Tier) -> String {
        tier.0.to_string()
    }

    // ---- optional fast paths (GamesmanOne's children and parents) ----------------

    /// Optional fast path for the solver: writes the child of every move of the
    /// non-primitive `p` (duplicates allowed, any order) and returns `true`. It must
    /// give exactly what `generate_moves` + `do_move` give; the validator checks that.
    /// Default: returns `false`, and the solver calls `generate_moves` and `do_move`.
    fn children(&self, _p: TierPosition, _children: &mut List<'_, TierPosition>) -> bool {
        false
    }

    /// Optional fast path for the solver: writes the result of every undo move from `p`
    /// towards `tier` and returns `true`. It must give exactly what
    /// `generate_undo_moves_to_tier` + `undo_move` give. Default: returns `false`.
    fn parents(
        &self,
        _p: TierPosition,
        _tier: Tier,
        _parents: &mut List<'_, TierPosition>,
    ) -> bool {
        false
    }

    /// Whether `children` and `parents` already give canonical positions (the forms
    /// `canonical_position` returns), each at most once per call (plugin-api 0.1.3).
    /// Then the solver uses what they give as it is, without canonicalising every
    /// position again and sorting out duplicates, which is most of the cost of a call
    /// on a game with symmetries. The host still checks tiers and sizes, the batch of
    /// children it hands to verification is checked for duplicates, and the validator
    /// compares both fast paths with the slow functions. Default: `false`.
    fn fast_paths_canonical(&self) -> bool {
        false
    }

    /// Whether the solver should solve by the game's children even though it gives
    /// undo moves (plugin-api 0.1.8): it then builds each tier's reverse graph from
    /// its scan and reads the child tiers' values as it scans, as for a forward-only
    /// game. Worth it when finding parents costs about what expanding a position
    /// does, since the scan expands every position anyway; the undo moves stay for
    /// `--parents undo-moves`, `validate` and queries. Default: `false`.
    fn prefers_forward(&self) -> bool {
        false
    }

    /// Whether `p` is the canonical position of its class (plugin-api 0.1.3), for
    /// modules that can answer faster than `canonical_position` computes the form (no
    /// need to index the form found): the solver asks this of every index of a tier
    /// and skips the others. Only called when `has_symmetry`. Default: `None`, and the
    /// host computes `canonical_position(p)` (checking it stays in its tier) and
    /// compares it with `p`.
    fn is_canonical(&self, _p: TierPosition) -> Option<bool> {
        None
    }

    /// The version of this variant's numbering of positions (plugin-api 0.1.3): which
    /// index stands for which position, which tier numbers there are, which form is
    /// canonical. Raise it whenever any of that changes: a database stores it, and
    /// files solved under another numbering are refused and solved again instead of
    /// being read as the wrong positions. Default: 0.
    fn index_version(&self) -> u32 {
        0
    }

    /// How many indices at the start of `tier` hold every canonical position
    /// (appended after plugin-api 0.1.3, issue 31): a module that numbers a tier's
    /// canonical positions first (and says so with an `index_version` of its own)
    /// returns their count, and the solver sizes the tier's arrays and files by it
    /// instead of `tier_size`. Only asked when `has_symmetry`; every index at or past
    /// it must be non-canonical (the solver never looks there). Default: `None`.
    fn canonical_prefix(&self, _tier: Tier) -> Option<u64> {
        None
    }

    /// The number of positions the canonical position `p` stands for: the size of
    /// its symmetry class (appended after plugin-api 0.1.3, issue 31). `analyze
    /// --every-position` weights each stored position by it, so counts cover every
    /// position of a game with symmetry. Default: 1.
    fn orbit_size(&self, _p: TierPosition) -> u64 {
        1
    }

    /// Whether this variant's positions do not record whose turn it is (plugin-api
    /// 0.1.5): the value of a position is always its mover's, every move hands the
    /// turn over, and the same position may be reached with either player to move (an
    /// impartial game such as Nim; a GamesmanClassic module solved as Classic solves
    /// it, on its `POSITION` alone). `turn` then names a player only for display and
    /// is not part of the position: front ends say "the player to move", and the
    /// validator does not require the turn to change on every move. Only for
    /// two-player games without go-again moves and WinBy, which need the turn.
    /// Default: `false`.
    fn turn_free(&self) -> bool {
        false
    }

    /// Optional fast path for the solver's scan of a tier (plugin-api 0.1.6): the
    /// primitive value of the legal canonical position `p` and, when that is
    /// `UNDECIDED`, how many distinct canonical children it has (what the `children`
    /// path gives, once canonicalised and without duplicates), counted without
    /// numbering them: the scan needs only the count, and numbering a child costs a
    /// module that numbers canonical positions first as much as finding it. The
    /// validator compares it with `generate_moves` + `do_move`. Default: `None`, and
    /// the scan calls `primitive` and the children path.
    fn scan_position(&self, _p: TierPosition) -> Option<(Value, u32)> {
        None
    }

    /// The canonical form of `p`, in its tier, under the symmetries that keep both
    /// the player to move and reachability from the initial position (plugin-api
    /// 0.1.7): those that map the initial position to itself and moves to moves, such
    /// as a square board's rotations and reflections when the game starts on an empty
    /// board. Not a colour swap that also swaps the player to move: when one player
    /// moves first, the swapped image of a reachable position is often unreachable.
    /// `analyze --every-position` searches forward over these classes and weights
    /// each by `reach_orbit_size`, so its counts of reachable positions are exact.
    /// Only called when `has_symmetry`. Default: `p` itself (no such symmetry), and
    /// the host searches every position, which is exact but slower.
    fn reach_canonical(&self, p: TierPosition) -> TierPosition {
        p
    }

    /// The size of the class of `p` under the symmetries of `reach_canonical`
    /// (plugin-api 0.1.7). Default: 1.
    fn reach_orbit_size(&self, _p: TierPosition) -> u64 {
        1
    }

    /// The host's memory budget for the module's own caches while it solves, in bytes
    /// (plugin-api 0.1.8): keep caches of your own (tables, numberings) within about
    /// `bytes`, and return the most you will keep, which the host counts in its
    /// estimate of every tier's peak. May be called again with another figure.
    /// Default: 0, nothing worth counting.
    fn memory_budget(&self, bytes: u64) -> u64 {
        let _ = bytes;
        0
    }

    /// How many positions of the canonical position `p`'s symmetry class (those whose
    /// `canonical_position` is `p`, `orbit_size` in all) have `Player::ONE` and `Player::TWO` to
    /// move (plugin-api 0.1.8), for two-player games with symmetry whose turn is part
    /// of the position. `analyze --every-position` then counts every legal position
    /// from the stored canonical ones alone, block by block, instead of visiting every
    /// index of every tier. The two must add up to `orbit_size(p)`. Default: `None`,
    /// and the host visits every index (exact, and slow on large tiers).
    fn orbit_by_turn(&self, _p: TierPosition) -> Option<[u64; 2]> {
        None
    }

    // ---- optional hooks ----------------------------------------------------------

    /// The margin of a primitive position from player one's view (`gPutWinBy`), e.g.
    /// black discs minus white discs. Only called when `supports_winby`. Default 0.
    fn win_by(&self, _p: TierPosition) -> i64 {
        0
    }

    /// The canonical representative of `p`'s symmetry class, in the same tier. Only
    /// called when `has_symmetry`. Default: `p` itself. Every position of a class
    /// must have the same value for its player to move. A symmetry may swap which
    /// player that is (chess's colour flip) only in a game without go-again and
    /// WinBy, where the solver inverts every child's value; with either, the class
    /// must keep the player to move, as `turn` and WinBy's sign depend on it.
    fn canonical_position(&self, p: TierPosition) -> TierPosition {
        p
    }

    /// A heuristic score of a non-primitive position for depth-limited search,
    /// positive when player one stands better. Only called when `has_score`. Default 0.
    fn score(&self, _p: TierPosition) -> i64 {
        0
    }

    // ---- AutoGUI (plugin-api 0.1.2) ----------------------------------------------

    /// The board a graphical front end draws for this variant (see `autogui`): the
    /// drawing slots ("centers"), fixed shapes, and how each token character looks.
    /// Default: `None`, no AutoGUI data; front ends then show the position's text and
    /// offer its moves as text buttons.
    fn autogui_board(&self) -> Option<crate::autogui::Board> {
        None
    }

    /// Position `p` as an AutoGUI string, `<turn>_<board>` with one character per
    /// center of `autogui_board` (`-` empty); build it with `autogui::position`.
    /// Default: `None` (no AutoGUI data).
    fn autogui_position(&self, _p: TierPosition) -> Option<String> {
        None
    }

    /// Move `m` at `p` as an AutoGUI string (`A_`, `M_`, `L_` or `T_`; build it with
    /// `autogui::place`, `arrow`, `line` or `button`). Default: `None` (no AutoGUI data).
    fn autogui_move(&self, _p: TierPosition, _m: Move) -> Option<String> {
        None
    }

    // ---- GamesmanUni's image AutoGUI (plugin-api 0.1.4) ----------------------------

    /// GamesmanUni's `imageAutoGUIData` for this variant: JSON that draws the AutoGUI
    /// positions and moves above with GamesmanUni's own images (build it with
    /// `autogui::ImageData`). Its centers are those of `autogui_board`, in the same
    /// order, scaled to its `space`. Default: `None`; GamesmanUni then shows the
    /// position's text and lists the moves.
    fn image_autogui_data(&self) -> Option<String> {
        None
    }
}
