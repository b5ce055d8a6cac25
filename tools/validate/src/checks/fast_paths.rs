//! The solver's fast paths agree with the API they stand in for. A module may implement
//! `children` (for `generate_moves` + `do_move`) and `parents` (for
//! `generate_undo_moves_to_tier` + `undo_move`); the solver's batch calls use them when
//! present, so every other check, which goes through the slow functions, would miss a
//! fast path that disagrees; the scan's count of children (`scan_position`) likewise.
//! Both sides are compared as sets of distinct canonical
//! positions, which is all the solver keeps. Disagreements are reported under check 2
//! (children) and check 3 (undo moves).
//!
//! Comparisons run only where the slow side is clean (its own problems are reported by
//! the other checks), and this file must not judge the slow side.

use crate::checks::children::Kid;
use crate::findings::Check;
use crate::probe::{Probe, Spot};
use gamesman_plugin_api::ffi::ScanRecord;
use gamesman_plugin_api::{Move, TierPosition};

/// Order of these findings after the position's other ones.
const SEQ: u64 = 1 << 20;

/// The children the solver sees at `p` equal those of `moves`, all of which passed
/// check 2 as `kids`.
pub fn check_children(probe: &Probe<'_>, p: TierPosition, moves: &[Move], kids: &[Kid]) {
    if kids.len() != moves.len() {
        return;
    }
    let Some(slow) = probe.child_set_by(p, |c| probe.canon_strict(c)) else {
        return;
    };
    let spot = Spot::later(p, SEQ);
    check_scan(probe, p, slow.len());
    match probe.game.children(p) {
        Ok(fast) if fast == slow => {}
        Ok(fast) => probe.error(
            Check::Children,
            spot,
            format!(
                "the solver's children of this position (the children fast path) are {}, but generate_moves + do_move give {}",
                probe.show_list(&fast),
                probe.show_list(&slow)
            ),
            "the children fast path to give exactly the children of generate_moves + do_move",
        ),
        Err(e) => probe.error(
            Check::Children,
            spot,
            format!(
                "the solver's children call fails although generate_moves + do_move work: {}",
                e.message
            ),
            "the children fast path to give exactly the children of generate_moves + do_move",
        ),
    }
}

/// The solver's scan of `p` (through the module's `scan_position` where it counts
/// children itself, plugin-api 0.1.6) counts the `slow` distinct canonical children
/// that generate_moves + do_move give. Positions the scan skips (not canonical) are
/// not compared.
fn check_scan(probe: &Probe<'_>, p: TierPosition, slow: usize) {
    let mut record = [ScanRecord::default()];
    let spot = Spot::later(p, SEQ + (1 << 10));
    let expected = "the solver's scan to count exactly the distinct canonical children of generate_moves + do_move";
    match probe.game.scan_batch(p.tier, p.position, &mut record) {
        Ok(()) if record[0].value == ScanRecord::SKIP => {}
        Ok(()) if record[0].children as usize == slow => {}
        Ok(()) => probe.error(
            Check::Children,
            spot,
            format!(
                "the solver's scan counts {} distinct children of this position (scan_position), but generate_moves + do_move give {slow}",
                record[0].children
            ),
            expected,
        ),
        // A scan failing elsewhere (the canonical form, the children) is reported by the
        // checks of those; only the count's own call is judged here.
        Err(e) if !e.message.contains("scan_position") => {}
        Err(e) => probe.error(
            Check::Children,
            spot,
            format!(
                "the solver's scan of this position fails although generate_moves + do_move work: {}",
                e.message
            ),
            expected,
        ),
    }
}

/// The parents the solver sees of `c`, in each tier that may hold them, equal the
/// results of its undo moves.
pub fn check_parents(probe: &Probe<'_>, c: TierPosition) {
    for (k, tier) in probe.tiers.parent_tiers(c.tier).into_iter().enumerate() {
        let valid = |p: TierPosition| {
            (p.tier == tier && probe.in_range(p))
                .then(|| probe.canon_strict(p))
                .flatten()
        };
        let Some(slow) = probe.parent_set_by(c, tier, valid) else {
            continue;
        };
        let spot = Spot::later(c, SEQ + 1 + k as u64);
        match probe.batch_parents(c, tier) {
            Ok(fast) if fast == slow => {}
            Ok(fast) => probe.error(
                Check::UndoMoves,
                spot,
                format!(
                    "the solver's parents of this position in {} (the parents fast path) are {}, but its undo moves give {}",
                    probe.show_tier(tier),
                    probe.show_list(&fast),
                    probe.show_list(&slow)
                ),
                "the parents fast path to give exactly the results of the undo moves",
            ),
            Err(e) => probe.error(
                Check::UndoMoves,
                spot,
                format!(
                    "the solver's parents call towards {} fails although the undo moves work: {}",
                    probe.show_tier(tier),
                    e.message
                ),
                "the parents fast path to give exactly the results of the undo moves",
            ),
        }
    }
}
