//! The orbit answers (`orbit_size`, `orbit_by_turn`) against an exhaustive walk, in
//! exhaustive runs of modules with symmetry (issue 52, F6): every legal position of a
//! tier is mapped to its canonical form, and each canonical position's class (the legal
//! positions mapped to it, split by their player to move) must be what the module
//! says. `analyze --every-position` weighs each stored canonical position by these
//! answers, so a wrong one is a wrong count there. Reported under check 7 (symmetry).
//!
//! This file must not check anything but the orbit answers.

use crate::findings::Check;
use crate::probe::{Probe, Spot};
use gamesman_plugin_api::TierPosition;
use rayon::prelude::*;
use std::collections::HashMap;

/// Tiers larger than this are not walked for their classes (memory: one entry per
/// canonical position).
pub const MAX_TIER: u64 = 1 << 24;

/// Classes by canonical index: positions with player one, player two to move.
type Classes = HashMap<u64, [u64; 2]>;

/// Walks every tier of at most `MAX_TIER` positions and compares each class with the
/// module's answers; returns how many tiers were walked.
pub fn check(probe: &Probe<'_>) -> usize {
    if !probe.props.has_symmetry {
        return 0;
    }
    // Turn-free positions have no player to move to split a class by.
    let turn_free = probe.game.turn_free();
    let mut walked = 0;
    for node in probe.tiers.tiers.iter().filter(|n| n.size <= MAX_TIER) {
        walked += 1;
        let classes = (0..node.size)
            .into_par_iter()
            .fold(Classes::new, |mut m, i| {
                let p = TierPosition::new(node.tier, i);
                // Failing calls are reported by the other checks at this position.
                if !probe.game.is_legal(p).unwrap_or(false) {
                    return m;
                }
                let (Ok(c), Ok(turn)) = (probe.game.canonical(p), probe.game.turn(p)) else {
                    return m;
                };
                let slot = m.entry(c.position).or_default();
                slot[usize::from(turn.0 == 2 && !turn_free)] += 1;
                m
            })
            .reduce(Classes::new, |mut a, b| {
                for (k, v) in b {
                    let s = a.entry(k).or_default();
                    s[0] += v[0];
                    s[1] += v[1];
                }
                a
            });
        let mut keys: Vec<u64> = classes.keys().copied().collect();
        keys.sort_unstable();
        keys.par_iter().for_each(|&k| {
            compare(
                probe,
                TierPosition::new(node.tier, k),
                classes[&k],
                turn_free,
            );
        });
    }
    walked
}

/// Compares the class of the canonical position `c` (`found`, by player to move)
/// with the module's `orbit_size` and `orbit_by_turn` for it.
fn compare(probe: &Probe<'_>, c: TierPosition, found: [u64; 2], turn_free: bool) {
    let spot = Spot::later(c, (u32::MAX as u64) + 1);
    let total = found[0] + found[1];
    let said = match probe.game.orbit_size(c) {
        Ok(n) => n,
        Err(e) => return probe.failed(Check::Symmetry, spot, &e),
    };
    if said != total {
        // 1 with no `orbit_by_turn` is the ABI's default: the module gives no orbit
        // answers (GamesmanOne's and Classic's games), and `analyze` walks every index
        // instead of weighing by them. Nothing to compare.
        if said == 1 && matches!(probe.game.orbit_by_turn(c, 1), Ok(None)) {
            return;
        }
        return probe.error(
            Check::Symmetry,
            spot,
            format!(
                "orbit_size gives {said}, but {total} legal positions of the tier have this canonical form"
            ),
            "orbit_size to count the legal positions whose canonical form this is",
        );
    }
    match probe.game.orbit_by_turn(c, said) {
        Ok(None) => {}
        Ok(Some(_)) if turn_free => {}
        Ok(Some(n)) if n == found => {}
        Ok(Some(n)) => probe.error(
            Check::Symmetry,
            spot,
            format!(
                "orbit_by_turn gives {} with player one and {} with player two to move, but the walk finds {} and {}",
                n[0], n[1], found[0], found[1]
            ),
            "orbit_by_turn to split the class by each position's own player to move",
        ),
        Err(e) => probe.failed(Check::Symmetry, spot, &e),
    }
}
