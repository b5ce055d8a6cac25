//! Check 3: undo moves agree with moves, both ways.
//!
//! Upwards: for a position `c` and each tier `T` that may hold a parent (a tier that
//! declares `c`'s tier as a child, or `c`'s own tier if loopy), every `undo_move`
//! result `p` lies in `T` inside its range, is legal, is not primitive, and has `c`
//! among its children; towards its own tier, a non-loopy tier gives no undo moves.
//! Downwards: every child `c` of a legal `p` has `p` among the undo-move results of `c`
//! towards `p`'s tier. With a symmetry hook both sides are compared in canonical form,
//! since undo moves may lead to non-canonical parents. The solver finds parents only
//! through undo moves, so a missing one leaves a parent with a wrong value and an extra
//! one corrupts another position's value. This file must not check children's tiers or
//! text forms.

use crate::checks::children::Kid;
use crate::findings::Check;
use crate::probe::{Probe, Spot};
use gamesman_plugin_api::{TierPosition, Value};

/// Downwards: each child of `p` lists `p` among its parents towards `p`'s tier.
pub fn check_children_list_parent(probe: &Probe<'_>, p: TierPosition, kids: &[Kid]) {
    let me = probe.canon(p);
    for kid in kids {
        // The solver asks canonical positions only for their parents.
        let c = probe.canon(kid.c);
        let Some(parents) = probe.parent_set(c, p.tier) else {
            continue;
        };
        if !parents.contains(&me) {
            probe.error(
                Check::UndoMoves,
                Spot::with_move(p, kid.m, kid.j),
                format!(
                    "missing undo move: the undo moves of the child {} towards tier {} lead to {}, not back to this position",
                    probe.show(c),
                    p.tier,
                    probe.show_list(&parents)
                ),
                "every child to list its parent among its undo moves (otherwise the solver never updates the parent from it)",
            );
        }
    }
}

/// Upwards: every undo move of `p` leads to a real parent of `p`.
pub fn check_parents(probe: &Probe<'_>, p: TierPosition) {
    let me = probe.canon(p);
    let mut seq = 0u64;
    let mut next_spot = || {
        seq += 1;
        Spot::later(p, seq)
    };
    for tier in probe.tiers.parent_tiers(p.tier) {
        let undo = match probe.game.undo_moves(p, tier) {
            Ok(u) => u,
            Err(e) => {
                probe.failed(Check::UndoMoves, next_spot(), &e);
                continue;
            }
        };
        for u in undo {
            let spot = next_spot();
            let what = format!(
                "{} towards {}",
                probe.show_undo(p, u),
                probe.show_tier(tier)
            );
            let q = match probe.game.undo_move(p, u) {
                Ok(q) => q,
                Err(e) => {
                    probe.failed(Check::UndoMoves, spot, &e);
                    continue;
                }
            };
            if q.tier != tier {
                probe.error(
                    Check::UndoMoves,
                    spot,
                    format!("{what} leads to {q}, in {}", probe.show_tier(q.tier)),
                    format!("a parent in tier {tier}, the tier the undo moves were asked for"),
                );
                continue;
            }
            if !probe.in_range(q) {
                let size = probe.tiers.get(tier).map_or(0, |n| n.size);
                probe.error(
                    Check::UndoMoves,
                    spot,
                    format!(
                        "{what} leads to index {}, out of range for the tier's size {size}",
                        q.position
                    ),
                    format!("an index below {size}"),
                );
                continue;
            }
            match probe.game.is_legal(q) {
                Ok(true) => {}
                Ok(false) => {
                    probe.error(
                        Check::UndoMoves,
                        spot,
                        format!(
                            "extra undo move: {what} leads to {}, which is illegal",
                            probe.show(q)
                        ),
                        "undo moves to legal parents only",
                    );
                    continue;
                }
                Err(_) => continue,
            }
            match probe.game.primitive(q) {
                Ok(Value::UNDECIDED) => {}
                Ok(v) => {
                    probe.error(
                        Check::UndoMoves,
                        spot,
                        format!(
                            "extra undo move: {what} leads to {}, which is primitive ({v}): play stops there, so it is no parent",
                            probe.show(q)
                        ),
                        "undo moves to non-primitive parents only",
                    );
                    continue;
                }
                Err(_) => continue,
            }
            if let Some(kids) = probe.child_set(q) {
                if !kids.contains(&me) {
                    probe.error(
                        Check::UndoMoves,
                        spot,
                        format!(
                            "extra undo move: {what} leads to {}, which does not have this position among its children {}",
                            probe.show(q),
                            probe.show_list(&kids)
                        ),
                        "every undo move to lead to a parent that has this position as a child",
                    );
                }
            }
        }
    }
    let loopy = probe.tiers.get(p.tier).is_some_and(|n| n.loopy);
    if !loopy {
        match probe.game.undo_moves(p, p.tier) {
            Ok(u) if !u.is_empty() => probe.error(
                Check::UndoMoves,
                next_spot(),
                format!(
                    "extra undo move: generate_undo_moves_to_tier gives {} towards the position's own tier, which is not loopy",
                    if u.len() == 1 { "an undo move".to_string() } else { format!("{} undo moves", u.len()) }
                ),
                "no undo moves towards a tier that is not a parent tier",
            ),
            Ok(_) => {}
            Err(e) => probe.failed(Check::UndoMoves, next_spot(), &e),
        }
    }
}
