//! The stable-ABI entry points of the adapter (`FfiGame`): each runs its call inside
//! `guard` and forwards to the game object or to the batch loops in `batch`. This file
//! must not check what a module returns beyond what `adapter` offers.

use super::adapter::{check_value, unsupported_undo, Adapter};
use super::guard::{err, guard, module_call, CURRENT};
use crate::ffi::{CallErrorKind, CallResult, FfiAutoGuiBoard, FfiGame, FfiProperties, ScanRecord};
use crate::game::List;
use crate::object::GameObject;
use crate::types::{Move, Player, Tier, TierPosition, UndoMove, Value};
use abi_stable::std_types::{RErr, ROk, RResult, RSlice, RSliceMut, RStr, RString};

impl<G: GameObject> FfiGame for Adapter<G> {
    fn properties(&self) -> FfiProperties {
        self.props
    }

    fn initial_position(&self) -> CallResult<TierPosition> {
        guard("initial_position", || {
            Ok(module_call!(
                "initial_position",
                self.game.initial_position()
            ))
        })
    }

    fn primitive(&self, p: TierPosition) -> CallResult<Value> {
        guard("primitive", || {
            check_value(
                module_call!("primitive", self.game.primitive(p)),
                "primitive",
            )
        })
    }

    fn generate_moves(&self, p: TierPosition, mut out: RSliceMut<'_, Move>) -> CallResult<u32> {
        guard("generate_moves", || Ok(self.moves_of(p, &mut out)? as u32))
    }

    fn do_move(&self, p: TierPosition, m: Move) -> CallResult<TierPosition> {
        guard("do_move", || {
            Ok(module_call!("do_move", self.game.do_move(p, m)))
        })
    }

    fn turn(&self, p: TierPosition) -> CallResult<Player> {
        guard("turn", || {
            let t = module_call!("turn", self.game.turn(p));
            if t.0 == 1 || t.0 == 2 {
                Ok(t)
            } else {
                Err(err(
                    CallErrorKind::BAD_OUTPUT,
                    format!("turn returned player {}", t.0),
                ))
            }
        })
    }

    fn is_legal(&self, p: TierPosition) -> CallResult<bool> {
        guard("is_legal", || {
            Ok(module_call!("is_legal", self.game.is_legal(p)))
        })
    }

    fn win_by(&self, p: TierPosition) -> CallResult<i64> {
        guard("win_by", || Ok(module_call!("win_by", self.game.win_by(p))))
    }

    fn canonical_position(&self, p: TierPosition) -> CallResult<TierPosition> {
        guard("canonical_position", || {
            let c = module_call!("canonical_position", self.game.canonical_position(p));
            let size = module_call!("tier_size", self.game.tier_size(p.tier));
            self.check_canonical(p, c, size)
        })
    }

    fn score(&self, p: TierPosition) -> CallResult<i64> {
        guard("score", || Ok(module_call!("score", self.game.score(p))))
    }

    fn tier_children(&self, tier: Tier, mut out: RSliceMut<'_, Tier>) -> CallResult<u32> {
        guard("tier_children", || {
            Ok(self.tier_children_into(tier, &mut out)? as u32)
        })
    }

    fn tier_size(&self, tier: Tier) -> CallResult<u64> {
        guard("tier_size", || {
            Ok(module_call!("tier_size", self.game.tier_size(tier)))
        })
    }

    fn tier_name(&self, tier: Tier) -> CallResult<RString> {
        guard("tier_name", || {
            Ok(module_call!("tier_name", self.game.tier_name(tier)).into())
        })
    }

    fn undo_moves_to_tier(
        &self,
        p: TierPosition,
        tier: Tier,
        mut out: RSliceMut<'_, UndoMove>,
    ) -> CallResult<u32> {
        guard("generate_undo_moves_to_tier", || {
            let mut list = List::new(&mut out);
            module_call!(
                "generate_undo_moves_to_tier",
                self.game.generate_undo_moves_to_tier(p, tier, &mut list)
            );
            if list.is_unsupported() {
                return Err(unsupported_undo(p));
            }
            if list.overflowed() {
                return Err(self.overflow(
                    "generate_undo_moves_to_tier",
                    p,
                    self.props.max_undo_moves,
                ));
            }
            Ok(list.len() as u32)
        })
    }

    fn undo_move(&self, p: TierPosition, u: UndoMove) -> CallResult<TierPosition> {
        guard("undo_move", || {
            Ok(module_call!("undo_move", self.game.undo_move(p, u)))
        })
    }

    fn board_to_text(&self, p: TierPosition) -> CallResult<RString> {
        guard("board_to_text", || {
            Ok(module_call!("board_to_text", self.game.board_to_text(p)).into())
        })
    }

    fn move_to_text(&self, p: TierPosition, m: Move) -> CallResult<RString> {
        guard("move_to_text", || {
            Ok(module_call!("move_to_text", self.game.move_to_text(p, m)).into())
        })
    }

    fn text_to_move(&self, p: TierPosition, text: RStr<'_>) -> CallResult<RResult<Move, RString>> {
        guard("text_to_move", || {
            Ok(
                match module_call!("text_to_move", self.game.text_to_move(p, text.as_str())) {
                    Ok(m) => ROk(m),
                    Err(e) => RErr(e.into()),
                },
            )
        })
    }

    fn position_to_text(&self, p: TierPosition) -> CallResult<RString> {
        guard("position_to_text", || {
            Ok(module_call!("position_to_text", self.game.position_to_text(p)).into())
        })
    }

    fn text_to_position(&self, text: RStr<'_>) -> CallResult<RResult<TierPosition, RString>> {
        guard("text_to_position", || {
            Ok(
                match module_call!(
                    "text_to_position",
                    self.game.text_to_position(text.as_str())
                ) {
                    Ok(p) => ROk(p),
                    Err(e) => RErr(e.into()),
                },
            )
        })
    }

    fn scan_batch(
        &self,
        tier: Tier,
        first: u64,
        mut out: RSliceMut<'_, ScanRecord>,
    ) -> CallResult<()> {
        guard("scan_batch", || self.scan(tier, first, &mut out, None))
    }

    fn scan_children_batch(
        &self,
        tier: Tier,
        first: u64,
        mut out: RSliceMut<'_, ScanRecord>,
        mut children: RSliceMut<'_, TierPosition>,
    ) -> CallResult<bool> {
        guard("scan_children_batch", || {
            if !self.game.order_free() {
                return Ok(false);
            }
            self.scan(tier, first, &mut out, Some(&mut children))
                .map(|()| true)
        })
    }

    fn parents_batch(
        &self,
        child_tier: Tier,
        children: RSlice<'_, u64>,
        parent_tier: Tier,
        mut parents: RSliceMut<'_, u64>,
        mut counts: RSliceMut<'_, u32>,
    ) -> CallResult<()> {
        guard("parents_batch", || {
            self.parents(
                child_tier,
                &children,
                parent_tier,
                &mut parents,
                &mut counts,
            )
        })
    }

    fn children_batch(
        &self,
        tier: Tier,
        positions: RSlice<'_, u64>,
        mut children: RSliceMut<'_, TierPosition>,
        mut counts: RSliceMut<'_, u32>,
    ) -> CallResult<()> {
        guard("children_batch", || {
            self.children(tier, &positions, &mut children, &mut counts)
        })
    }

    fn has_undo_moves(&self) -> bool {
        self.has_undo
    }

    fn prefers_forward(&self) -> bool {
        // A module that panics here is solved by its parents, as before 0.1.8.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.game.prefers_forward()))
            .unwrap_or(false)
    }

    fn index_version(&self) -> u32 {
        // A module that panics here numbers positions as before 0.1.3.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.game.index_version()))
            .unwrap_or(0)
    }

    fn turn_free(&self) -> bool {
        // A module that panics here keeps the turn in its positions, as before 0.1.5.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.game.turn_free()))
            .unwrap_or(false)
    }

    fn canonical_prefix(&self, tier: Tier) -> CallResult<u64> {
        guard("canonical_prefix", || {
            Ok(
                module_call!("canonical_prefix", self.game.canonical_prefix(tier))
                    .unwrap_or(u64::MAX),
            )
        })
    }

    fn orbit_size(&self, p: TierPosition) -> CallResult<u64> {
        guard("orbit_size", || {
            Ok(module_call!("orbit_size", self.game.orbit_size(p)))
        })
    }

    fn reach_canonical(&self, p: TierPosition) -> CallResult<TierPosition> {
        guard("reach_canonical", || {
            Ok(module_call!(
                "reach_canonical",
                self.game.reach_canonical(p)
            ))
        })
    }

    fn reach_orbit_size(&self, p: TierPosition) -> CallResult<u64> {
        guard("reach_orbit_size", || {
            Ok(module_call!(
                "reach_orbit_size",
                self.game.reach_orbit_size(p)
            ))
        })
    }

    fn memory_budget(&self, bytes: u64) -> CallResult<u64> {
        guard("memory_budget", || {
            Ok(module_call!(
                "memory_budget",
                self.game.memory_budget(bytes)
            ))
        })
    }

    fn orbit_by_turn(&self, p: TierPosition) -> CallResult<[u64; 2]> {
        guard("orbit_by_turn", || {
            Ok(module_call!("orbit_by_turn", self.game.orbit_by_turn(p)).unwrap_or([0, 0]))
        })
    }

    fn autogui_board(&self) -> CallResult<FfiAutoGuiBoard> {
        guard("autogui_board", || {
            Ok(
                match module_call!("autogui_board", self.game.autogui_board()) {
                    Some(b) => FfiAutoGuiBoard::from(&b),
                    None => FfiAutoGuiBoard::default(),
                },
            )
        })
    }

    fn autogui_position(&self, p: TierPosition) -> CallResult<RString> {
        guard("autogui_position", || {
            Ok(
                module_call!("autogui_position", self.game.autogui_position(p))
                    .unwrap_or_default()
                    .into(),
            )
        })
    }

    fn autogui_move(&self, p: TierPosition, m: Move) -> CallResult<RString> {
        guard("autogui_move", || {
            Ok(module_call!("autogui_move", self.game.autogui_move(p, m))
                .unwrap_or_default()
                .into())
        })
    }

    fn image_autogui_data(&self) -> CallResult<RString> {
        guard("image_autogui_data", || {
            Ok(
                module_call!("image_autogui_data", self.game.image_autogui_data())
                    .unwrap_or_default()
                    .into(),
            )
        })
    }

    fn undo_move_to_text(&self, p: TierPosition, u: UndoMove) -> CallResult<RString> {
        guard("undo_move_to_text", || {
            Ok(
                module_call!("undo_move_to_text", self.game.undo_move_to_text(p, u))
                    .unwrap_or_default()
                    .into(),
            )
        })
    }

    fn display_name(&self) -> RString {
        // A module that panics here gives no name; the host falls back to its own.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.game.display_name()))
            .unwrap_or_default()
            .into()
    }
}
