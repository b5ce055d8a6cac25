//! The marked view of a game for a reachable-only solve: the same game, but each tier
//! holds only its marked positions (those reachable from the start), numbered densely
//! by rank. The solver runs on this view unchanged, so every array it sizes by a tier
//! is sized by the marked count, and its scan visits only marked positions.
//!
//! Every call is forwarded to the real module with positions translated: marked to
//! full by select, full to marked by rank. Parents that are not marked are dropped
//! (they cannot occur, and their values do not matter to any position that can); a
//! child that is not marked is an error, because the children of a reachable position
//! are reachable, so the module's moves changed since the forward search. Marked
//! positions are canonical, so the view declares no symmetry.
//!
//! This file must not decide values; it only translates indices. It imports nothing
//! of the solver.

use crate::engine::game::{GameHandle, ModuleError};
use crate::engine::marks::Marks;
use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::std_types::{RErr, ROk, RResult, RSlice, RSliceMut, RStr, RString};
use gamesman_plugin_api::ffi::{
    CallError, CallErrorKind, CallResult, FfiGame, FfiGame_TO, FfiProperties, ScanRecord,
};
use gamesman_plugin_api::{Move, Player, Tier, TierPosition, UndoMove, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// The marks of every tier of a reachable-only solve.
pub type TierMarks = Arc<HashMap<Tier, Arc<Marks>>>;

/// A game whose tiers hold only marked positions.
pub struct MarkedGame {
    inner: GameHandle,
    marks: TierMarks,
    props: FfiProperties,
}

/// The marked view of `game` over `marks` (one set per tier of its graph), as a
/// handle the solver takes like any module.
pub fn marked_handle(game: &GameHandle, marks: TierMarks) -> GameHandle {
    let mut props = *game.properties();
    props.has_symmetry = false;
    let view = MarkedGame {
        inner: game.clone(),
        marks,
        props,
    };
    GameHandle::new(
        game.module_name().to_string(),
        game.variant().to_string(),
        FfiGame_TO::from_value(view, TD_Opaque),
    )
}

fn fail(kind: CallErrorKind, message: String) -> CallError {
    CallError {
        kind,
        message: message.into(),
    }
}

/// Turns a module error of the real game back into the call error it came from.
fn back(e: ModuleError) -> CallError {
    fail(e.kind, e.message)
}

impl MarkedGame {
    fn marks(&self, tier: Tier) -> Result<&Marks, CallError> {
        self.marks.get(&tier).map(|m| m.as_ref()).ok_or_else(|| {
            fail(
                CallErrorKind::BAD_INPUT,
                format!("tier {tier} is not part of the reachable-only solve"),
            )
        })
    }

    /// The real position of marked `p`.
    fn full(&self, p: TierPosition) -> Result<TierPosition, CallError> {
        let m = self.marks(p.tier)?;
        if p.position >= m.count() {
            return Err(fail(
                CallErrorKind::BAD_INPUT,
                format!(
                    "index {} is past the {} reachable positions of tier {}",
                    p.position,
                    m.count(),
                    p.tier
                ),
            ));
        }
        Ok(TierPosition::new(p.tier, m.select(p.position)))
    }

    /// The marked index of the real, canonical `p`; `what` says where it came from.
    fn marked(&self, p: TierPosition, what: &str) -> Result<TierPosition, CallError> {
        let m = self.marks(p.tier)?;
        match m.rank(p.position) {
            Some(k) => Ok(TierPosition::new(p.tier, k)),
            None => Err(fail(
                CallErrorKind::BAD_OUTPUT,
                format!(
                    "{what} {p}, which the forward search did not reach from the initial position (moves must be a function of the position)"
                ),
            )),
        }
    }

    fn canonical(&self, p: TierPosition) -> Result<TierPosition, CallError> {
        self.inner.canonical(p).map_err(back)
    }

    /// The real positions of marked indices of `tier`.
    fn full_list(&self, tier: Tier, positions: &[u64]) -> Result<Vec<u64>, CallError> {
        let m = self.marks(tier)?;
        positions
            .iter()
            .map(|&k| {
                if k < m.count() {
                    Ok(m.select(k))
                } else {
                    Err(fail(
                        CallErrorKind::BAD_INPUT,
                        format!(
                            "index {k} is past the {} reachable positions of tier {tier}",
                            m.count()
                        ),
                    ))
                }
            })
            .collect()
    }
}

impl FfiGame for MarkedGame {
    fn properties(&self) -> FfiProperties {
        self.props
    }

    fn initial_position(&self) -> CallResult<TierPosition> {
        let r = (|| {
            let p = self.inner.initial_position().map_err(back)?;
            self.marked(self.canonical(p)?, "the initial position is")
        })();
        r.into()
    }

    fn primitive(&self, p: TierPosition) -> CallResult<Value> {
        match self.full(p) {
            Ok(f) => self.inner.raw().primitive(f),
            Err(e) => RErr(e),
        }
    }

    fn generate_moves(&self, p: TierPosition, out: RSliceMut<'_, Move>) -> CallResult<u32> {
        match self.full(p) {
            Ok(f) => self.inner.raw().generate_moves(f, out),
            Err(e) => RErr(e),
        }
    }

    fn do_move(&self, p: TierPosition, m: Move) -> CallResult<TierPosition> {
        let r = (|| {
            let f = self.full(p)?;
            let c = self.inner.raw().do_move(f, m).into_result()?;
            self.marked(self.canonical(c)?, "a move leads to")
        })();
        r.into()
    }

    fn turn(&self, p: TierPosition) -> CallResult<Player> {
        match self.full(p) {
            Ok(f) => self.inner.raw().turn(f),
            Err(e) => RErr(e),
        }
    }

    fn is_legal(&self, p: TierPosition) -> CallResult<bool> {
        match self.full(p) {
            Ok(f) => self.inner.raw().is_legal(f),
            Err(e) => RErr(e),
        }
    }

    fn win_by(&self, p: TierPosition) -> CallResult<i64> {
        match self.full(p) {
            Ok(f) => self.inner.raw().win_by(f),
            Err(e) => RErr(e),
        }
    }

    fn canonical_position(&self, p: TierPosition) -> CallResult<TierPosition> {
        // Marked positions are canonical.
        match self.full(p) {
            Ok(_) => ROk(p),
            Err(e) => RErr(e),
        }
    }

    fn score(&self, p: TierPosition) -> CallResult<i64> {
        match self.full(p) {
            Ok(f) => self.inner.raw().score(f),
            Err(e) => RErr(e),
        }
    }

    fn tier_children(&self, tier: Tier, out: RSliceMut<'_, Tier>) -> CallResult<u32> {
        self.inner.raw().tier_children(tier, out)
    }

    fn tier_size(&self, tier: Tier) -> CallResult<u64> {
        self.marks(tier).map(Marks::count).into()
    }

    fn tier_name(&self, tier: Tier) -> CallResult<RString> {
        self.inner.raw().tier_name(tier)
    }

    fn undo_moves_to_tier(
        &self,
        p: TierPosition,
        tier: Tier,
        out: RSliceMut<'_, UndoMove>,
    ) -> CallResult<u32> {
        match self.full(p) {
            Ok(f) => self.inner.raw().undo_moves_to_tier(f, tier, out),
            Err(e) => RErr(e),
        }
    }

    fn undo_move(&self, p: TierPosition, u: UndoMove) -> CallResult<TierPosition> {
        let r = (|| {
            let f = self.full(p)?;
            let q = self.canonical(self.inner.raw().undo_move(f, u).into_result()?)?;
            let m = self.marks(q.tier)?;
            m.rank(q.position)
                .map(|k| TierPosition::new(q.tier, k))
                .ok_or_else(|| {
                    fail(
                        CallErrorKind::BAD_INPUT,
                        format!(
                            "the undo move leads to {q}, which cannot occur from the initial position; a reachable-only solve holds no such position"
                        ),
                    )
                })
        })();
        r.into()
    }

    fn board_to_text(&self, p: TierPosition) -> CallResult<RString> {
        match self.full(p) {
            Ok(f) => self.inner.raw().board_to_text(f),
            Err(e) => RErr(e),
        }
    }

    fn move_to_text(&self, p: TierPosition, m: Move) -> CallResult<RString> {
        match self.full(p) {
            Ok(f) => self.inner.raw().move_to_text(f, m),
            Err(e) => RErr(e),
        }
    }

    fn text_to_move(&self, p: TierPosition, text: RStr<'_>) -> CallResult<RResult<Move, RString>> {
        match self.full(p) {
            Ok(f) => self.inner.raw().text_to_move(f, text),
            Err(e) => RErr(e),
        }
    }

    fn position_to_text(&self, p: TierPosition) -> CallResult<RString> {
        match self.full(p) {
            Ok(f) => self.inner.raw().position_to_text(f),
            Err(e) => RErr(e),
        }
    }

    fn text_to_position(&self, text: RStr<'_>) -> CallResult<RResult<TierPosition, RString>> {
        let r = (|| {
            let p = match self.inner.raw().text_to_position(text).into_result()? {
                ROk(p) => p,
                RErr(message) => return Ok(RErr(message)),
            };
            let c = self.canonical(p)?;
            let m = self.marks(c.tier)?;
            Ok(match m.rank(c.position) {
                Some(k) => ROk(TierPosition::new(c.tier, k)),
                None => {
                    RErr("the position cannot occur in a game from the initial position".into())
                }
            })
        })();
        r.into()
    }

    fn scan_batch(
        &self,
        tier: Tier,
        first: u64,
        mut out: RSliceMut<'_, ScanRecord>,
    ) -> CallResult<()> {
        let r = (|| {
            let m = self.marks(tier)?;
            if first.saturating_add(out.len() as u64) > m.count() {
                return Err(fail(
                    CallErrorKind::BAD_INPUT,
                    format!(
                        "scan of {} positions from {first} is past the {} reachable positions of tier {tier}",
                        out.len(),
                        m.count()
                    ),
                ));
            }
            let mut full = vec![0u64; out.len()];
            m.select_range(first, &mut full);
            // One call per run of consecutive marked positions.
            let mut i = 0;
            while i < full.len() {
                let mut j = i + 1;
                while j < full.len() && full[j] == full[j - 1] + 1 {
                    j += 1;
                }
                self.inner
                    .raw()
                    .scan_batch(tier, full[i], (&mut out[i..j]).into())
                    .into_result()?;
                i = j;
            }
            Ok(())
        })();
        r.into()
    }

    fn parents_batch(
        &self,
        child_tier: Tier,
        children: RSlice<'_, u64>,
        parent_tier: Tier,
        mut parents: RSliceMut<'_, u64>,
        mut counts: RSliceMut<'_, u32>,
    ) -> CallResult<()> {
        let r = (|| {
            let cap = self.props.max_undo_moves as usize;
            if parents.len() < children.len() * cap || counts.len() < children.len() {
                return Err(fail(
                    CallErrorKind::BAD_INPUT,
                    "parents_batch buffers too small".into(),
                ));
            }
            let full = self.full_list(child_tier, &children)?;
            let pm = self.marks(parent_tier)?;
            let mut found = vec![0u64; full.len() * cap];
            let mut found_counts = vec![0u32; full.len()];
            self.inner
                .raw()
                .parents_batch(
                    child_tier,
                    full.as_slice().into(),
                    parent_tier,
                    found.as_mut_slice().into(),
                    found_counts.as_mut_slice().into(),
                )
                .into_result()?;
            // Distinct and sorted in, distinct and sorted out: rank keeps the order.
            let (mut at, mut written) = (0usize, 0usize);
            for (i, &n) in found_counts.iter().enumerate() {
                let before = written;
                for &p in &found[at..at + n as usize] {
                    if let Some(k) = pm.rank(p) {
                        parents[written] = k;
                        written += 1;
                    }
                }
                counts[i] = (written - before) as u32;
                at += n as usize;
            }
            Ok(())
        })();
        r.into()
    }

    fn children_batch(
        &self,
        tier: Tier,
        positions: RSlice<'_, u64>,
        mut children: RSliceMut<'_, TierPosition>,
        mut counts: RSliceMut<'_, u32>,
    ) -> CallResult<()> {
        let r = (|| {
            let full = self.full_list(tier, &positions)?;
            self.inner
                .raw()
                .children_batch(
                    tier,
                    full.as_slice().into(),
                    (&mut children[..]).into(),
                    (&mut counts[..]).into(),
                )
                .into_result()?;
            let total: usize = counts[..full.len()].iter().map(|&c| c as usize).sum();
            let mut last: Option<(Tier, &Marks)> = None;
            for c in &mut children[..total] {
                let m = match last {
                    Some((t, m)) if t == c.tier => m,
                    _ => {
                        let m = self.marks(c.tier)?;
                        last = Some((c.tier, m));
                        m
                    }
                };
                match m.rank(c.position) {
                    Some(k) => c.position = k,
                    None => {
                        return Err(fail(
                            CallErrorKind::BAD_OUTPUT,
                            format!(
                                "a position of tier {tier} leads to {c}, which the forward search did not reach from the initial position (moves must be a function of the position)"
                            ),
                        ))
                    }
                }
            }
            Ok(())
        })();
        r.into()
    }

    fn has_undo_moves(&self) -> bool {
        self.inner.has_undo_moves()
    }

    fn memory_budget(&self, bytes: u64) -> CallResult<u64> {
        self.inner.raw().memory_budget(bytes)
    }

    fn turn_free(&self) -> bool {
        self.inner.turn_free()
    }
}
