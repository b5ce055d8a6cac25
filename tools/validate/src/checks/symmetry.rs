//! Check 7: the symmetry hook, when the module declares one. The canonical form of a
//! position lies in the same tier inside its range, is canonical itself, and looks the
//! same to the solver: legal, the same primitive value, the same number of distinct
//! children, and (with WinBy) the same margin. The solver stores values only at
//! canonical positions, so any difference here is a wrong value somewhere.
//!
//! This file must not check anything that does not involve `canonical_position`.

use crate::findings::Check;
use crate::probe::{Probe, Spot};
use gamesman_plugin_api::{TierPosition, Value};

/// Checks the canonical form of the legal position `p`, whose value is `value`.
pub fn check(probe: &Probe<'_>, p: TierPosition, value: Option<Value>) {
    let spot = Spot::later(p, u32::MAX as u64);
    // The host checks that the canonical form stays in the tier and in range.
    let q = match probe.game.canonical(p) {
        Ok(q) => q,
        Err(e) => {
            return probe.error(
                Check::Symmetry,
                spot,
                format!("canonical_position failed: {}", e.message),
                "the canonical position in the same tier, inside its range",
            )
        }
    };
    if q == p {
        return;
    }
    let shown = probe.show(q);
    if let Ok(r) = probe.game.canonical(q) {
        if r != q {
            probe.error(
                Check::Symmetry,
                spot,
                format!(
                    "the canonical form {shown} is not canonical itself: its canonical form is {}",
                    probe.show(r)
                ),
                "canonical_position to map a canonical position to itself",
            );
        }
    }
    if probe.game.is_legal(q).is_ok_and(|legal| !legal) {
        probe.error(
            Check::Symmetry,
            spot,
            format!("the canonical form {shown} is illegal"),
            "the canonical form of a legal position to be legal",
        );
        return;
    }
    let vq = probe.game.primitive(q).ok();
    if let (Some(v), Some(vq)) = (value, vq) {
        if v != vq {
            probe.error(
                Check::Symmetry,
                spot,
                format!("the position is {v} but its canonical form {shown} is {vq}"),
                "symmetric positions to have the same primitive value",
            );
        }
    }
    if let (Some(a), Some(b)) = (probe.child_set(p), probe.child_set(q)) {
        if a.len() != b.len() {
            probe.error(
                Check::Symmetry,
                spot,
                format!(
                    "the position has {} distinct children but its canonical form {shown} has {}",
                    a.len(),
                    b.len()
                ),
                "symmetric positions to have the same number of children",
            );
        }
    }
    let primitive = value.is_some_and(|v| v != Value::UNDECIDED);
    if probe.props.supports_winby && primitive {
        if let (Ok(a), Ok(b)) = (probe.game.win_by(p), probe.game.win_by(q)) {
            if a != b {
                probe.error(
                    Check::Symmetry,
                    spot,
                    format!("win_by is {a} here but {b} at the canonical form {shown}"),
                    "symmetric positions to have the same WinBy (it is stored once, at the canonical form)",
                );
            }
        }
    }
}
