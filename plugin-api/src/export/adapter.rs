//! The adapter's state and the checks it applies to what a game object returns:
//! positions inside their tiers, canonical forms that stay in their tier, lists within
//! the declared capacities, children in declared tiers. This file must not catch
//! panics (`guard` does) or change what a module computes.

use super::guard::{err, module_call, CURRENT};
use crate::ffi::{CallError, CallErrorKind, FfiProperties};
use crate::game::{List, Properties};
use crate::object::GameObject;
use crate::types::{Move, Tier, TierPosition, UndoMove, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};

pub(super) fn to_ffi_properties(p: &Properties) -> FfiProperties {
    FfiProperties {
        players: p.players,
        is_tier_game: p.is_tier_game,
        supports_winby: p.supports_winby,
        go_again: p.go_again,
        has_symmetry: p.has_symmetry,
        has_score: p.has_score,
        max_moves: p.max_moves.max(1),
        max_undo_moves: p.max_undo_moves.max(1),
        max_tier_children: p.max_tier_children.max(1),
    }
}

/// A game object behind the stable ABI.
pub struct Adapter<G: GameObject> {
    pub(super) game: G,
    pub(super) props: FfiProperties,
    /// Whether the module implements undo moves (probed once at construction).
    pub(super) has_undo: bool,
    /// Whether the fast paths give canonical positions without duplicates (asked once).
    pub(super) fast_canonical: bool,
}

/// Whether `game` implements `generate_undo_moves_to_tier`: the trait's default marks
/// its list unsupported. A module that panics here is taken to have undo moves, so the
/// panic is reported where the host first uses them.
pub(super) fn probe_undo_moves<G: GameObject>(game: &G, props: &FfiProperties) -> bool {
    catch_unwind(AssertUnwindSafe(|| -> Result<bool, CallError> {
        let p = game.initial_position()?;
        let mut buf = vec![UndoMove::default(); props.max_undo_moves as usize];
        let mut list = List::new(&mut buf);
        game.generate_undo_moves_to_tier(p, p.tier, &mut list)?;
        Ok(!list.is_unsupported())
    }))
    .map_or(true, |r| r.unwrap_or(true))
}

pub(super) fn unsupported_undo(p: TierPosition) -> CallError {
    err(
        CallErrorKind::UNSUPPORTED,
        format!("the module gives no undo moves (it is forward-only), asked at position {p}"),
    )
}

impl<G: GameObject> Adapter<G> {
    /// Checks an undo move's result and returns its canonical form (`p` itself when
    /// `canonical` says it already is one).
    pub(super) fn check_parent(
        &self,
        c: TierPosition,
        p: TierPosition,
        tier: Tier,
        size: u64,
        canonical: bool,
    ) -> Result<TierPosition, CallError> {
        if p.tier != tier || p.position >= size {
            return Err(err(
                CallErrorKind::BAD_OUTPUT,
                format!(
                    "undo move at {} towards tier {tier} returned {p}, outside tier {tier} (size {size})",
                    self.describe(c)
                ),
            ));
        }
        if canonical {
            return Ok(p);
        }
        self.canonical(p, size)
    }

    /// The canonical form of `p` (of a tier with `size` positions), checked to stay in
    /// `p`'s tier and below its size: a symmetry hook that leaves the tier would make
    /// the host index past a tier's records, or solve a position in the wrong tier.
    pub(super) fn canonical(&self, p: TierPosition, size: u64) -> Result<TierPosition, CallError> {
        if !self.props.has_symmetry {
            return Ok(p);
        }
        let c = module_call!("canonical_position", self.game.canonical_position(p));
        self.check_canonical(p, c, size)
    }

    /// Whether `p` (of a tier with `size` positions) is canonical: the module's own
    /// answer where it gives one, else its checked canonical form compared with `p`.
    pub(super) fn is_canonical(&self, p: TierPosition, size: u64) -> Result<bool, CallError> {
        match module_call!("is_canonical", self.game.is_canonical(p)) {
            Some(answer) => Ok(answer),
            None => Ok(self.canonical(p, size)? == p),
        }
    }

    /// Fails unless `c`, the canonical form of `p`, lies in `p`'s tier of `size`.
    pub(super) fn check_canonical(
        &self,
        p: TierPosition,
        c: TierPosition,
        size: u64,
    ) -> Result<TierPosition, CallError> {
        if c.tier != p.tier || c.position >= size {
            return Err(err(
                CallErrorKind::BAD_OUTPUT,
                format!(
                    "canonical_position of {} returned {c}, outside tier {} (size {size}): a canonical form must stay in its tier",
                    self.describe(p),
                    p.tier
                ),
            ));
        }
        Ok(c)
    }

    pub(super) fn overflow(&self, what: &str, p: TierPosition, cap: u32) -> CallError {
        err(
            CallErrorKind::OVERFLOW,
            format!(
                "{what} at {} gave more than the {cap} items the module declares in its properties",
                self.describe(p)
            ),
        )
    }

    /// `tier:index (text)`, for error messages; survives a panicking `position_to_text`.
    pub(super) fn describe(&self, p: TierPosition) -> String {
        let text = catch_unwind(AssertUnwindSafe(|| self.game.position_to_text(p)))
            .ok()
            .and_then(Result::ok)
            .unwrap_or_else(|| "?".to_string());
        format!("position {p} ({text})")
    }

    pub(super) fn check_in_tier(&self, p: TierPosition) -> Result<(), CallError> {
        let size = module_call!("tier_size", self.game.tier_size(p.tier));
        if p.position >= size {
            return Err(err(
                CallErrorKind::BAD_INPUT,
                format!(
                    "index {} is past the size {} of tier {}",
                    p.position, size, p.tier
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn moves_of(&self, p: TierPosition, buf: &mut [Move]) -> Result<usize, CallError> {
        let mut list = List::new(buf);
        module_call!("generate_moves", self.game.generate_moves(p, &mut list));
        if list.overflowed() {
            return Err(self.overflow("generate_moves", p, self.props.max_moves));
        }
        Ok(list.len())
    }

    /// The child tiers of `tier` written into `buf`; how many, or an overflow error.
    pub(super) fn tier_children_into(
        &self,
        tier: Tier,
        buf: &mut [Tier],
    ) -> Result<usize, CallError> {
        let mut list = List::new(buf);
        module_call!("tier_children", self.game.tier_children(tier, &mut list));
        if list.overflowed() {
            return Err(err(
                CallErrorKind::OVERFLOW,
                format!(
                    "tier_children({tier}) gave more than the {} tiers the module declares",
                    self.props.max_tier_children
                ),
            ));
        }
        Ok(list.len())
    }

    pub(super) fn child_tiers(&self, tier: Tier) -> Result<Vec<(Tier, u64)>, CallError> {
        let mut buf = vec![Tier::default(); self.props.max_tier_children as usize];
        let n = self.tier_children_into(tier, &mut buf)?;
        let mut out: Vec<(Tier, u64)> = Vec::with_capacity(n);
        for &t in &buf[..n] {
            out.push((t, module_call!("tier_size", self.game.tier_size(t))));
        }
        // A tier that does not list itself is not loopy: the solver never looks for
        // parents inside it, so a child there would silently become a draw. It is
        // refused like a child in any other undeclared tier.
        Ok(out)
    }

    /// The distinct canonical children of a non-primitive `p`, checked against the
    /// declared child tiers, into `kids`: sorted when `sorted`, else in any order (the
    /// scan only counts them). A fast path the module declares canonical and free of
    /// duplicates is taken as it is, and checked for duplicates when sorted. `room`
    /// holds `max_moves` positions for the fast path to write into; it is the caller's,
    /// so it is filled once per batch, not once per position.
    pub(super) fn children_of(
        &self,
        p: TierPosition,
        allowed: &[(Tier, u64)],
        moves: &mut [Move],
        room: &mut [TierPosition],
        kids: &mut Vec<TierPosition>,
        sorted: bool,
    ) -> Result<(), CallError> {
        kids.clear();
        let mut list = List::new(room);
        let fast = module_call!("children", self.game.children(p, &mut list));
        let (n, overflowed) = (list.len(), list.overflowed());
        if fast {
            if overflowed {
                return Err(self.overflow("children", p, self.props.max_moves));
            }
            kids.extend_from_slice(&room[..n]);
            for &c in kids.iter() {
                self.check_child(p, None, c, allowed)?;
            }
            if self.fast_canonical {
                if sorted {
                    kids.sort_unstable();
                    if let Some(w) = kids.windows(2).find(|w| w[0] == w[1]) {
                        return Err(err(
                            CallErrorKind::BAD_OUTPUT,
                            format!(
                                "children at {} gave {} twice, but the module declares its fast paths free of duplicates (fast_paths_canonical)",
                                self.describe(p),
                                w[0]
                            ),
                        ));
                    }
                }
                return Ok(());
            }
        } else {
            let n = self.moves_of(p, moves)?;
            for &m in &moves[..n] {
                let c = module_call!("do_move", self.game.do_move(p, m));
                self.check_child(p, Some(m), c, allowed)?;
                kids.push(c);
            }
        }
        if self.props.has_symmetry {
            for c in kids.iter_mut() {
                // `check_child` put every child in a declared tier.
                let size = allowed
                    .iter()
                    .find(|&&(t, _)| t == c.tier)
                    .map_or(0, |&(_, s)| s);
                *c = self.canonical(*c, size)?;
            }
        }
        kids.sort_unstable();
        kids.dedup();
        Ok(())
    }

    /// Fails unless child `c` of `p` (reached by `m`, if known) lies in a declared tier
    /// and below that tier's size.
    // Inlined, with the error built out of line: this runs for every child the solver
    // sees, and a call with the error's set-up in its frame was 6 % of a nine men's
    // morris placement tier's samples.
    #[inline]
    pub(super) fn check_child(
        &self,
        p: TierPosition,
        m: Option<Move>,
        c: TierPosition,
        allowed: &[(Tier, u64)],
    ) -> Result<(), CallError> {
        if allowed
            .iter()
            .any(|&(t, size)| t == c.tier && c.position < size)
        {
            return Ok(());
        }
        Err(self.bad_child(p, m, c, allowed))
    }

    /// The error of a child `check_child` refuses.
    #[cold]
    #[inline(never)]
    fn bad_child(
        &self,
        p: TierPosition,
        m: Option<Move>,
        c: TierPosition,
        allowed: &[(Tier, u64)],
    ) -> CallError {
        let how = || match m {
            Some(m) => format!(
                "do_move at {} with move '{}'",
                self.describe(p),
                self.game
                    .move_to_text(p, m)
                    .unwrap_or_else(|_| format!("#{}", m.0))
            ),
            None => format!("children at {}", self.describe(p)),
        };
        match allowed.iter().find(|&&(t, _)| t == c.tier) {
            Some(&(_, size)) => err(
                CallErrorKind::BAD_OUTPUT,
                format!(
                    "{} returned index {} of tier {}, past its size {size}",
                    how(),
                    c.position,
                    c.tier
                ),
            ),
            None => err(
                CallErrorKind::BAD_OUTPUT,
                format!(
                    "{} leads to tier {}, which tier_children({}) does not declare",
                    how(),
                    c.tier,
                    p.tier
                ),
            ),
        }
    }
}

pub(super) fn check_value(v: Value, what: &str) -> Result<Value, CallError> {
    crate::ffi::primitive_value(v).ok_or_else(|| {
        err(
            CallErrorKind::BAD_OUTPUT,
            format!(
                "{what} returned the value code {}, which is not win, lose, tie or undecided",
                v.0
            ),
        )
    })
}
