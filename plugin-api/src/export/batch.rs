//! The adapter's batch calls, which loop inside the plugin where the game's code is
//! inlined: the scan of a range of a tier, the parents of many children, the children
//! of many positions. Each checks what the game gives as the single calls do; a game
//! that declares its fast paths canonical and distinct (`fast_paths_canonical`) is
//! trusted on those two points only. This file must not catch panics (the entry points
//! in `entries` do) or change what a module computes.

use super::adapter::{check_value, unsupported_undo, Adapter};
use super::guard::{err, module_call, CURRENT};
use crate::ffi::{CallError, CallErrorKind, ScanRecord};
use crate::game::List;
use crate::object::GameObject;
use crate::types::{Move, Tier, TierPosition, UndoMove, Value};

impl<G: GameObject> Adapter<G> {
    /// The scan of `out.len()` positions of `tier` from `first`: legality, canonical
    /// form, primitive value, turn, number of distinct children (from the module's
    /// `scan_position` when it counts them itself), WinBy of leaves.
    ///
    /// With `children`, each expanded position's distinct canonical children are
    /// written there one list after another (room for `max_moves` a position), from
    /// the same expansion that counts them: the module's own count is then not asked.
    pub(super) fn scan(
        &self,
        tier: Tier,
        first: u64,
        out: &mut [ScanRecord],
        mut children: Option<&mut [TierPosition]>,
    ) -> Result<(), CallError> {
        let size = module_call!("tier_size", self.game.tier_size(tier));
        if first
            .checked_add(out.len() as u64)
            .is_none_or(|end| end > size)
        {
            return Err(err(
                CallErrorKind::BAD_INPUT,
                format!(
                    "scan of {} positions from {first} is past the size {size} of tier {tier}",
                    out.len()
                ),
            ));
        }
        if children
            .as_ref()
            .is_some_and(|c| c.len() < out.len() * self.props.max_moves as usize)
        {
            return Err(err(
                CallErrorKind::BAD_INPUT,
                "scan_children_batch buffer too small".into(),
            ));
        }
        let mut written = 0usize;
        let allowed = self.child_tiers(tier)?;
        let mut moves = vec![Move::default(); self.props.max_moves as usize];
        let mut room = vec![TierPosition::default(); self.props.max_moves as usize];
        let mut kids = Vec::with_capacity(self.props.max_moves as usize);
        for (i, rec) in out.iter_mut().enumerate() {
            let p = TierPosition::new(tier, first + i as u64);
            *rec = ScanRecord::default();
            if !module_call!("is_legal", self.game.is_legal(p))
                || (self.props.has_symmetry && !self.is_canonical(p, size)?)
            {
                rec.value = ScanRecord::SKIP;
                continue;
            }
            rec.turn = module_call!("turn", self.game.turn(p)).0;
            // The module's own count of distinct canonical children where it gives
            // one (the validator holds it to `generate_moves` + `do_move`), else the
            // children themselves, checked.
            let counted = if children.is_some() {
                None
            } else {
                module_call!("scan_position", self.game.scan_position(p))
            };
            let (v, n) = match counted {
                Some((v, n)) => (check_value(v, "scan_position")?, n),
                None => {
                    let v = check_value(
                        module_call!("primitive", self.game.primitive(p)),
                        "primitive",
                    )?;
                    let mut n = 0;
                    if v == Value::UNDECIDED {
                        self.children_of(p, &allowed, &mut moves, &mut room, &mut kids, false)?;
                        n = kids.len() as u32;
                    }
                    (v, n)
                }
            };
            rec.value = v.0;
            if v == Value::UNDECIDED {
                if n > self.props.max_moves {
                    return Err(self.overflow("scan_position", p, self.props.max_moves));
                }
                rec.children = n;
                if let Some(out) = children.as_deref_mut() {
                    out[written..written + kids.len()].copy_from_slice(&kids);
                    written += kids.len();
                }
            }
            if self.props.supports_winby && rec.children == 0 {
                rec.winby = module_call!("win_by", self.game.win_by(p));
            }
        }
        Ok(())
    }

    /// The distinct canonical parents in `parent_tier` of each of `children` (of
    /// `child_tier`), one list after another in `parents`, their lengths in `counts`.
    pub(super) fn parents(
        &self,
        child_tier: Tier,
        children: &[u64],
        parent_tier: Tier,
        parents: &mut [u64],
        counts: &mut [u32],
    ) -> Result<(), CallError> {
        let cap = self.props.max_undo_moves as usize;
        if parents.len() < children.len() * cap || counts.len() < children.len() {
            return Err(err(
                CallErrorKind::BAD_INPUT,
                "parents_batch buffers too small".into(),
            ));
        }
        let parent_size = module_call!("tier_size", self.game.tier_size(parent_tier));
        let mut undo = vec![UndoMove::default(); cap];
        let mut fast = vec![TierPosition::default(); cap];
        let mut found: Vec<u64> = Vec::with_capacity(cap);
        let mut written = 0usize;
        for (i, &c) in children.iter().enumerate() {
            let cp = TierPosition::new(child_tier, c);
            found.clear();
            let mut list = List::new(fast.as_mut_slice());
            let used_fast = module_call!("parents", self.game.parents(cp, parent_tier, &mut list));
            let (n, overflowed) = (list.len(), list.overflowed());
            if used_fast {
                if overflowed {
                    return Err(self.overflow("parents", cp, cap as u32));
                }
                for &p in &fast[..n] {
                    found.push(
                        self.check_parent(cp, p, parent_tier, parent_size, self.fast_canonical)?
                            .position,
                    );
                }
            } else {
                let mut list = List::new(&mut undo);
                module_call!(
                    "generate_undo_moves_to_tier",
                    self.game
                        .generate_undo_moves_to_tier(cp, parent_tier, &mut list)
                );
                if list.is_unsupported() {
                    return Err(unsupported_undo(cp));
                }
                if list.overflowed() {
                    return Err(self.overflow("generate_undo_moves_to_tier", cp, cap as u32));
                }
                for &u in list.as_slice() {
                    let p = module_call!("undo_move", self.game.undo_move(cp, u));
                    found.push(
                        self.check_parent(cp, p, parent_tier, parent_size, false)?
                            .position,
                    );
                }
            }
            // Declared distinct: the validator checks that promise.
            if !(used_fast && self.fast_canonical) {
                found.sort_unstable();
                found.dedup();
            }
            parents[written..written + found.len()].copy_from_slice(&found);
            written += found.len();
            counts[i] = found.len() as u32;
        }
        Ok(())
    }

    /// The distinct canonical children of each of `positions` (of `tier`), sorted, one
    /// list after another in `children`, their lengths in `counts`.
    pub(super) fn children(
        &self,
        tier: Tier,
        positions: &[u64],
        children: &mut [TierPosition],
        counts: &mut [u32],
    ) -> Result<(), CallError> {
        let cap = self.props.max_moves as usize;
        if children.len() < positions.len() * cap || counts.len() < positions.len() {
            return Err(err(
                CallErrorKind::BAD_INPUT,
                "children_batch buffers too small".into(),
            ));
        }
        let allowed = self.child_tiers(tier)?;
        let mut moves = vec![Move::default(); cap];
        let mut room = vec![TierPosition::default(); cap];
        let mut kids = Vec::with_capacity(cap);
        let mut written = 0usize;
        for (i, &pos) in positions.iter().enumerate() {
            let p = TierPosition::new(tier, pos);
            self.check_in_tier(p)?;
            kids.clear();
            if check_value(
                module_call!("primitive", self.game.primitive(p)),
                "primitive",
            )? == Value::UNDECIDED
            {
                self.children_of(p, &allowed, &mut moves, &mut room, &mut kids, true)?;
            }
            children[written..written + kids.len()].copy_from_slice(&kids);
            written += kids.len();
            counts[i] = kids.len() as u32;
        }
        Ok(())
    }
}
