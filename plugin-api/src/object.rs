//! One opened variant of a game as the adapter drives it: the instance methods of
//! `Game`, each able to fail. Every `Game` is one (blanket impl, never failing); a host
//! implements it for games described at run time (modules written in C against
//! `c/gamesman_plugin.h`), so that they run through the very adapter, checks and batch
//! loops of `export` that Rust modules use.
//!
//! This file must not check what a game returns (the adapter does): it only states
//! the contract and forwards `Game` to it.

use crate::ffi::CallError;
use crate::game::{Game, List, Properties};
use crate::types::{Move, Player, Tier, TierPosition, UndoMove, Value};

/// The result of a call into a game object: its value, or the game's own error.
pub type ObjectResult<T> = Result<T, CallError>;

/// One variant of a game, behind the adapter. Each method means what the `Game` method
/// of the same name means (see there, with its default); an `Err` is an error the game
/// reports itself (a C module's error status, its `exit()`), passed to the host as is.
///
/// Methods take `&self` and may be called from many threads at once: an implementation
/// for a game that is not thread-safe serialises the calls itself.
pub trait GameObject: Send + Sync + 'static {
    /// What this variant declares about itself.
    fn properties(&self) -> Properties;
    /// `Game::initial_position`.
    fn initial_position(&self) -> ObjectResult<TierPosition>;
    /// `Game::primitive`.
    fn primitive(&self, p: TierPosition) -> ObjectResult<Value>;
    /// `Game::generate_moves`.
    fn generate_moves(&self, p: TierPosition, moves: &mut List<'_, Move>) -> ObjectResult<()>;
    /// `Game::do_move`.
    fn do_move(&self, p: TierPosition, m: Move) -> ObjectResult<TierPosition>;
    /// `Game::turn`.
    fn turn(&self, p: TierPosition) -> ObjectResult<Player>;
    /// `Game::board_to_text`.
    fn board_to_text(&self, p: TierPosition) -> ObjectResult<String>;
    /// `Game::move_to_text`.
    fn move_to_text(&self, p: TierPosition, m: Move) -> ObjectResult<String>;
    /// `Game::text_to_move`; the inner error is the game's message for bad input.
    fn text_to_move(&self, p: TierPosition, text: &str) -> ObjectResult<Result<Move, String>>;
    /// `Game::position_to_text`.
    fn position_to_text(&self, p: TierPosition) -> ObjectResult<String>;
    /// `Game::text_to_position`; the inner error is the game's message for bad input.
    fn text_to_position(&self, text: &str) -> ObjectResult<Result<TierPosition, String>>;
    /// `Game::tier_children`.
    fn tier_children(&self, tier: Tier, children: &mut List<'_, Tier>) -> ObjectResult<()>;
    /// `Game::tier_size`.
    fn tier_size(&self, tier: Tier) -> ObjectResult<u64>;
    /// `Game::is_legal`.
    fn is_legal(&self, p: TierPosition) -> ObjectResult<bool>;
    /// `Game::generate_undo_moves_to_tier` (marks the list unsupported when the game
    /// gives no undo moves).
    fn generate_undo_moves_to_tier(
        &self,
        p: TierPosition,
        tier: Tier,
        undo: &mut List<'_, UndoMove>,
    ) -> ObjectResult<()>;
    /// `Game::undo_move`.
    fn undo_move(&self, p: TierPosition, u: UndoMove) -> ObjectResult<TierPosition>;
    /// `Game::tier_name`.
    fn tier_name(&self, tier: Tier) -> ObjectResult<String>;
    /// `Game::children` (`false`: not implemented).
    fn children(
        &self,
        p: TierPosition,
        children: &mut List<'_, TierPosition>,
    ) -> ObjectResult<bool>;
    /// `Game::parents` (`false`: not implemented).
    fn parents(
        &self,
        p: TierPosition,
        tier: Tier,
        parents: &mut List<'_, TierPosition>,
    ) -> ObjectResult<bool>;
    /// `Game::fast_paths_canonical`. Default: `false`.
    fn fast_paths_canonical(&self) -> bool {
        false
    }
    /// `Game::prefers_forward`. Default: `false`.
    fn prefers_forward(&self) -> bool {
        false
    }
    /// Whether the game answers alike in whatever order its functions are called
    /// (calls to it may come from any thread at once). Default: `true`, as for a Rust
    /// game; a C module says so with `GAMESMAN_FLAG_THREAD_SAFE`. The adapter's scan
    /// that also gives children (`scan_children_batch`) calls the game in another
    /// order than a scan and then a children pass, so it is offered only then.
    fn order_free(&self) -> bool {
        true
    }
    /// `Game::is_canonical`. Default: `None` (not answered).
    fn is_canonical(&self, _p: TierPosition) -> ObjectResult<Option<bool>> {
        Ok(None)
    }
    /// `Game::index_version`. Default: 0.
    fn index_version(&self) -> u32 {
        0
    }
    /// `Game::canonical_prefix`. Default: `None`.
    fn canonical_prefix(&self, _tier: Tier) -> ObjectResult<Option<u64>> {
        Ok(None)
    }
    /// `Game::orbit_size`. Default: 1.
    fn orbit_size(&self, _p: TierPosition) -> ObjectResult<u64> {
        Ok(1)
    }
    /// `Game::turn_free`. Default: `false`.
    fn turn_free(&self) -> bool {
        false
    }
    /// `Game::scan_position`. Default: `None` (not answered).
    fn scan_position(&self, _p: TierPosition) -> ObjectResult<Option<(Value, u32)>> {
        Ok(None)
    }
    /// `Game::reach_canonical`. Default: `p` itself.
    fn reach_canonical(&self, p: TierPosition) -> ObjectResult<TierPosition> {
        Ok(p)
    }
    /// `Game::reach_orbit_size`. Default: 1.
    fn reach_orbit_size(&self, _p: TierPosition) -> ObjectResult<u64> {
        Ok(1)
    }
    /// `Game::memory_budget`. Default: 0.
    fn memory_budget(&self, _bytes: u64) -> ObjectResult<u64> {
        Ok(0)
    }
    /// `Game::orbit_by_turn`. Default: `None`.
    fn orbit_by_turn(&self, _p: TierPosition) -> ObjectResult<Option<[u64; 2]>> {
        Ok(None)
    }
    /// `Game::win_by`.
    fn win_by(&self, p: TierPosition) -> ObjectResult<i64>;
    /// `Game::canonical_position`.
    fn canonical_position(&self, p: TierPosition) -> ObjectResult<TierPosition>;
    /// `Game::score`.
    fn score(&self, p: TierPosition) -> ObjectResult<i64>;
    /// `Game::autogui_board`. Default: none (a game described at run time may not
    /// give one).
    fn autogui_board(&self) -> ObjectResult<Option<crate::autogui::Board>> {
        Ok(None)
    }
    /// `Game::autogui_position`. Default: none.
    fn autogui_position(&self, _p: TierPosition) -> ObjectResult<Option<String>> {
        Ok(None)
    }
    /// `Game::autogui_move`. Default: none.
    fn autogui_move(
        &self,
        _p: TierPosition,
        _m: crate::types::Move,
    ) -> ObjectResult<Option<String>> {
        Ok(None)
    }
    /// `Game::image_autogui_data`. Default: none.
    fn image_autogui_data(&self) -> ObjectResult<Option<String>> {
        Ok(None)
    }
    /// `Game::undo_move_to_text` (plugin-api 0.1.9). Default: `None`.
    fn undo_move_to_text(&self, _p: TierPosition, _u: UndoMove) -> ObjectResult<Option<String>> {
        Ok(None)
    }
    /// `Game::DISPLAY_NAME` (plugin-api 0.1.9); empty when the game gives none.
    /// Default: empty.
    fn display_name(&self) -> String {
        String::new()
    }
}

/// `Game::text_to_move`'s default for any game object: matches `text` (trimmed,
/// case-insensitive) against `move_to_text` of every legal move, and lists them when
/// nothing matches.
pub fn text_to_move_by_name<O: GameObject + ?Sized>(
    game: &O,
    p: TierPosition,
    text: &str,
) -> ObjectResult<Result<Move, String>> {
    let mut buf = vec![Move::default(); game.properties().max_moves.max(1) as usize];
    let mut moves = List::new(&mut buf);
    game.generate_moves(p, &mut moves)?;
    let wanted = text.trim();
    let mut names = Vec::new();
    for &m in moves.as_slice() {
        let name = game.move_to_text(p, m)?;
        if name.eq_ignore_ascii_case(wanted) {
            return Ok(Ok(m));
        }
        names.push(name);
    }
    Ok(Err(format!(
        "'{}' is not a legal move here; legal moves: {}",
        wanted,
        names.join(" ")
    )))
}

/// `Game::position_to_text`'s default: `TIER:INDEX`.
pub fn position_to_text_by_index(p: TierPosition) -> String {
    format!("{}:{}", p.tier.0, p.position)
}

/// `Game::text_to_position`'s default for any game object: `TIER:INDEX`, checked
/// against the tier's size.
pub fn text_to_position_by_index<O: GameObject + ?Sized>(
    game: &O,
    text: &str,
) -> ObjectResult<Result<TierPosition, String>> {
    let parse = || -> Option<TierPosition> {
        let (t, i) = text.trim().split_once(':')?;
        Some(TierPosition::new(
            Tier(t.trim().parse().ok()?),
            i.trim().parse().ok()?,
        ))
    };
    let Some(p) = parse() else {
        return Ok(Err(format!(
            "'{text}' is not a position (expected TIER:INDEX)"
        )));
    };
    if p.position >= game.tier_size(p.tier)? {
        return Ok(Err(format!(
            "index {} is out of range for tier {}",
            p.position, p.tier
        )));
    }
    Ok(Ok(p))
}

/// Every `Game` is a game object whose calls never fail on their own (a panic is
/// caught by the adapter).
impl<G: Game> GameObject for G {
    #[inline]
    fn properties(&self) -> Properties {
        Game::properties(self)
    }
    #[inline]
    fn initial_position(&self) -> ObjectResult<TierPosition> {
        Ok(Game::initial_position(self))
    }
    #[inline]
    fn primitive(&self, p: TierPosition) -> ObjectResult<Value> {
        Ok(Game::primitive(self, p))
    }
    #[inline]
    fn generate_moves(&self, p: TierPosition, moves: &mut List<'_, Move>) -> ObjectResult<()> {
        Game::generate_moves(self, p, moves);
        Ok(())
    }
    #[inline]
    fn do_move(&self, p: TierPosition, m: Move) -> ObjectResult<TierPosition> {
        Ok(Game::do_move(self, p, m))
    }
    #[inline]
    fn turn(&self, p: TierPosition) -> ObjectResult<Player> {
        Ok(Game::turn(self, p))
    }
    fn board_to_text(&self, p: TierPosition) -> ObjectResult<String> {
        Ok(Game::board_to_text(self, p))
    }
    fn move_to_text(&self, p: TierPosition, m: Move) -> ObjectResult<String> {
        Ok(Game::move_to_text(self, p, m))
    }
    fn text_to_move(&self, p: TierPosition, text: &str) -> ObjectResult<Result<Move, String>> {
        Ok(Game::text_to_move(self, p, text))
    }
    fn position_to_text(&self, p: TierPosition) -> ObjectResult<String> {
        Ok(Game::position_to_text(self, p))
    }
    fn text_to_position(&self, text: &str) -> ObjectResult<Result<TierPosition, String>> {
        Ok(Game::text_to_position(self, text))
    }
    #[inline]
    fn tier_children(&self, tier: Tier, children: &mut List<'_, Tier>) -> ObjectResult<()> {
        Game::tier_children(self, tier, children);
        Ok(())
    }
    #[inline]
    fn tier_size(&self, tier: Tier) -> ObjectResult<u64> {
        Ok(Game::tier_size(self, tier))
    }
    #[inline]
    fn is_legal(&self, p: TierPosition) -> ObjectResult<bool> {
        Ok(Game::is_legal(self, p))
    }
    #[inline]
    fn generate_undo_moves_to_tier(
        &self,
        p: TierPosition,
        tier: Tier,
        undo: &mut List<'_, UndoMove>,
    ) -> ObjectResult<()> {
        Game::generate_undo_moves_to_tier(self, p, tier, undo);
        Ok(())
    }
    #[inline]
    fn undo_move(&self, p: TierPosition, u: UndoMove) -> ObjectResult<TierPosition> {
        Ok(Game::undo_move(self, p, u))
    }
    fn tier_name(&self, tier: Tier) -> ObjectResult<String> {
        Ok(Game::tier_name(self, tier))
    }
    #[inline]
    fn children(
        &self,
        p: TierPosition,
        children: &mut List<'_, TierPosition>,
    ) -> ObjectResult<bool> {
        Ok(Game::children(self, p, children))
    }
    #[inline]
    fn parents(
        &self,
        p: TierPosition,
        tier: Tier,
        parents: &mut List<'_, TierPosition>,
    ) -> ObjectResult<bool> {
        Ok(Game::parents(self, p, tier, parents))
    }
    fn fast_paths_canonical(&self) -> bool {
        Game::fast_paths_canonical(self)
    }
    fn prefers_forward(&self) -> bool {
        Game::prefers_forward(self)
    }
    fn index_version(&self) -> u32 {
        Game::index_version(self)
    }
    fn canonical_prefix(&self, tier: Tier) -> ObjectResult<Option<u64>> {
        Ok(Game::canonical_prefix(self, tier))
    }
    fn orbit_size(&self, p: TierPosition) -> ObjectResult<u64> {
        Ok(Game::orbit_size(self, p))
    }
    fn turn_free(&self) -> bool {
        Game::turn_free(self)
    }
    fn reach_canonical(&self, p: TierPosition) -> ObjectResult<TierPosition> {
        Ok(Game::reach_canonical(self, p))
    }
    fn reach_orbit_size(&self, p: TierPosition) -> ObjectResult<u64> {
        Ok(Game::reach_orbit_size(self, p))
    }
    fn memory_budget(&self, bytes: u64) -> ObjectResult<u64> {
        Ok(Game::memory_budget(self, bytes))
    }
    fn orbit_by_turn(&self, p: TierPosition) -> ObjectResult<Option<[u64; 2]>> {
        Ok(Game::orbit_by_turn(self, p))
    }
    #[inline]
    fn scan_position(&self, p: TierPosition) -> ObjectResult<Option<(Value, u32)>> {
        Ok(Game::scan_position(self, p))
    }
    #[inline]
    fn is_canonical(&self, p: TierPosition) -> ObjectResult<Option<bool>> {
        Ok(Game::is_canonical(self, p))
    }
    #[inline]
    fn win_by(&self, p: TierPosition) -> ObjectResult<i64> {
        Ok(Game::win_by(self, p))
    }
    #[inline]
    fn canonical_position(&self, p: TierPosition) -> ObjectResult<TierPosition> {
        Ok(Game::canonical_position(self, p))
    }
    #[inline]
    fn score(&self, p: TierPosition) -> ObjectResult<i64> {
        Ok(Game::score(self, p))
    }
    fn autogui_board(&self) -> ObjectResult<Option<crate::autogui::Board>> {
        Ok(Game::autogui_board(self))
    }
    fn autogui_position(&self, p: TierPosition) -> ObjectResult<Option<String>> {
        Ok(Game::autogui_position(self, p))
    }
    fn autogui_move(&self, p: TierPosition, m: crate::types::Move) -> ObjectResult<Option<String>> {
        Ok(Game::autogui_move(self, p, m))
    }
    fn image_autogui_data(&self) -> ObjectResult<Option<String>> {
        Ok(Game::image_autogui_data(self))
    }
    fn undo_move_to_text(&self, p: TierPosition, u: UndoMove) -> ObjectResult<Option<String>> {
        Ok(Game::undo_move_to_text(self, p, u))
    }
    fn display_name(&self) -> String {
        G::DISPLAY_NAME.to_string()
    }
}
