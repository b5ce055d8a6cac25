//! Checks of the module's orbit answers under `analyze --every-position` (issue 52,
//! F6): every class's size (`orbit_size`, `reach_orbit_size`, `orbit_by_turn`) lies
//! within its tier, a canonical position's class counts it under its own player to
//! move, a tier's classes add up without overflow to at most the tier's size and,
//! where its legal positions are counted (every tier walked index by index, and tiers
//! of at most `EXACT_LIMIT` positions otherwise), to exactly that count. A module whose
//! answers fail is a module error naming the position, never counts that are silently
//! wrong (doubled orbits gave 948 legal positions for a game of 474; orbits near 2^63
//! wrapped the totals to 0).
//!
//! This file judges answers; it must not count values or read the database.

use crate::engine::game::{GameHandle, ModuleError};
use gamesman_plugin_api::{Tier, TierPosition};
use rayon::prelude::*;

/// Tiers of at most this many positions whose classes come from `orbit_by_turn` have
/// their legal positions counted (one `is_legal` call per index) to check the sum.
pub(super) const EXACT_LIMIT: u64 = 1 << 20;

/// The positions one tier's classes stand for, summed with overflow checked, and the
/// legal positions seen where the tier is walked index by index.
#[derive(Clone, Copy, Default)]
pub(super) struct Sums {
    weighed: u64,
    overflow: bool,
    legal: u64,
}

impl Sums {
    /// Adds one class of `weight` positions.
    pub(super) fn class(&mut self, weight: u64) {
        match self.weighed.checked_add(weight) {
            Some(s) => self.weighed = s,
            None => self.overflow = true,
        }
    }

    /// Counts one legal position of the tier (walked index by index).
    pub(super) fn legal(&mut self) {
        self.legal += 1;
    }

    /// The legal positions counted.
    pub(super) fn legal_seen(&self) -> u64 {
        self.legal
    }

    /// Both sums together.
    pub(super) fn merge(mut self, other: Sums) -> Sums {
        self.overflow |= other.overflow;
        match self.weighed.checked_add(other.weighed) {
            Some(s) => self.weighed = s,
            None => self.overflow = true,
        }
        self.legal += other.legal;
        self
    }
}

/// Checks one class: `weight` positions (from `function`) for the canonical position
/// `p` of a tier of `size` positions; with `by_turn`, `p`'s own player to move
/// (`turn`, 1-based) must have at least `p` itself.
pub(super) fn check_class(
    game: &GameHandle,
    function: &'static str,
    p: TierPosition,
    size: u64,
    weight: u64,
    by_turn: Option<([u64; 2], u8)>,
) -> Result<(), ModuleError> {
    if weight > size {
        return Err(game.bad_output(
            function,
            format!(
                "gave {weight} positions for the class of position {p}, more than its tier's {size}"
            ),
        ));
    }
    if let Some((n, turn)) = by_turn {
        let own = n.get(usize::from(turn.max(1) - 1)).copied().unwrap_or(0);
        if own == 0 {
            return Err(game.bad_output(
                "orbit_by_turn",
                format!(
                    "gave {} + {} positions by turn for position {p}, none with its own player to move ({turn}), though the position itself is one",
                    n[0], n[1]
                ),
            ));
        }
    }
    Ok(())
}

/// The legal positions of `tier` (one `is_legal` call per index), counted in parallel.
pub(super) fn count_legal(game: &GameHandle, tier: Tier, size: u64) -> Result<u64, ModuleError> {
    (0..size)
        .into_par_iter()
        .try_fold(
            || 0u64,
            |n, i| Ok(n + u64::from(game.is_legal(TierPosition::new(tier, i))?)),
        )
        .try_reduce(|| 0, |a, b| Ok(a + b))
}

/// Checks a tier's sums: no overflow, at most `size`, and equal to `legal` where the
/// legal positions were counted. `function` names the answers summed.
pub(super) fn check_tier(
    game: &GameHandle,
    function: &'static str,
    tier: Tier,
    size: u64,
    sums: Sums,
    legal: Option<u64>,
) -> Result<(), ModuleError> {
    let fault = |what: String| Err(game.bad_output(function, format!("tier {tier}: {what}")));
    if sums.overflow {
        return fault(format!(
            "its classes add up to more than 2^64 positions (the tier has {size})"
        ));
    }
    if sums.weighed > size {
        return fault(format!(
            "its classes add up to {} positions, more than the tier's {size}",
            sums.weighed
        ));
    }
    match legal {
        Some(n) if n != sums.weighed => fault(format!(
            "its classes add up to {} positions, but it has {n} legal positions",
            sums.weighed
        )),
        _ => Ok(()),
    }
}

/// `a + b`, or the module error of totals past 2^64 (only lying class sizes make them).
pub(super) fn total(game: &GameHandle, a: u64, b: u64) -> Result<u64, ModuleError> {
    a.checked_add(b).ok_or_else(|| {
        game.bad_output(
            "orbit_size",
            "the positions counted over all tiers add up to more than 2^64".into(),
        )
    })
}
