//! Check 2: every child of a legal position (`generate_moves` + `do_move`) lies in a
//! tier its own tier declares (itself only if loopy), below that tier's size, and is
//! legal. The children that pass are handed on to the checks that need them.
//!
//! This file must not look at undo moves, turns or text forms.

use crate::findings::Check;
use crate::probe::{Probe, Spot};
use gamesman_plugin_api::{Move, TierPosition, BAD_TIER};

/// A child that passed check 2: the move, its index in the move list, the child.
#[derive(Clone, Copy, Debug)]
pub struct Kid {
    /// The move.
    pub m: Move,
    /// Its index in the position's move list.
    pub j: usize,
    /// The position it leads to (as `do_move` returned it, not canonicalized).
    pub c: TierPosition,
}

/// The moves at `p`, or `None` when `generate_moves` failed (reported).
pub fn moves(probe: &Probe<'_>, p: TierPosition) -> Option<Vec<Move>> {
    probe
        .game
        .moves(p)
        .map_err(|e| probe.failed(Check::Children, Spot::at(p), &e))
        .ok()
}

/// Checks the child of every move at `p`; returns the valid, legal ones.
pub fn check(probe: &Probe<'_>, p: TierPosition, moves: &[Move]) -> Vec<Kid> {
    let mut kids = Vec::with_capacity(moves.len());
    for (j, &m) in moves.iter().enumerate() {
        let spot = Spot::with_move(p, m, j);
        let c = match probe.do_move_raw(p, m) {
            Ok(c) => c,
            Err(e) => {
                probe.failed(Check::Children, spot, &e);
                continue;
            }
        };
        let node = probe.tiers.get(p.tier);
        if c.tier == BAD_TIER {
            probe.error(
                Check::Children,
                spot,
                format!("the child {c} lies in BAD_TIER, whose positions are never solved"),
                "children of legal positions in real tiers",
            );
        } else if !probe.tiers.may_lead(p.tier, c.tier) {
            let declared: Vec<String> = node
                .map(|n| n.children.iter().map(|t| t.to_string()).collect())
                .unwrap_or_default();
            let problem = if c.tier == p.tier {
                format!(
                    "the child {c} lies in the position's own tier, but tier_children({}) does not list it, so the tier is not declared loopy",
                    p.tier
                )
            } else {
                format!(
                    "the child {c} lies in {}, which tier_children({}) does not declare",
                    probe.show_tier(c.tier),
                    p.tier
                )
            };
            probe.error(
                Check::Children,
                spot,
                problem,
                format!(
                    "a child in one of the declared child tiers [{}]{}",
                    declared.join(", "),
                    if node.is_some_and(|n| n.loopy) {
                        " or the same (loopy) tier"
                    } else {
                        ""
                    }
                ),
            );
        } else if !probe.in_range(c) {
            let size = probe.tiers.get(c.tier).map_or(0, |n| n.size);
            probe.error(
                Check::Children,
                spot,
                format!(
                    "the child's index {} is out of range: tier {} ({}) has size {size}",
                    c.position,
                    c.tier,
                    probe.tiers.name(c.tier)
                ),
                format!("an index below {size}"),
            );
        } else {
            match probe.game.is_legal(c) {
                Ok(true) => kids.push(Kid { m, j, c }),
                Ok(false) => probe.error(
                    Check::Children,
                    spot,
                    format!(
                        "the child {} is illegal (is_legal says false), so the solver would never give it a value",
                        probe.show(c)
                    ),
                    "every child of a legal position to be legal",
                ),
                Err(e) => probe.failed(Check::Children, spot, &e),
            }
        }
    }
    kids
}
