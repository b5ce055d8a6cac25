//! Check 4: primitive values are consistent with having moves or not, and WinBy (when
//! the module declares it) is consistent with the value for player one.
//!
//! WinBy counts from player one's view, whoever is to move, while values count from
//! the view of the player to move; the check converts one into the other with `turn`.
//! A non-primitive position without moves is allowed by the API (it counts as a loss
//! for the player to move), so it is a warning, not an error. This file must not look
//! at children or undo moves.

use crate::findings::Check;
use crate::probe::{Probe, Spot};
use gamesman_plugin_api::{Player, TierPosition, Value};

/// The primitive value of `p`, or `None` when `primitive` failed (reported).
pub fn value(probe: &Probe<'_>, p: TierPosition) -> Option<Value> {
    probe
        .game
        .primitive(p)
        .map_err(|e| probe.failed(Check::Primitive, Spot::at(p), &e))
        .ok()
}

/// Checks the value `v` of `p`, who is to move there, and how many moves it has.
pub fn check(probe: &Probe<'_>, p: TierPosition, v: Value, turn: Option<Player>, moves: usize) {
    let spot = Spot::at(p);
    if v == Value::UNDECIDED && moves == 0 {
        probe.warn(
            Check::Primitive,
            spot,
            "the position is not primitive but has no moves, so the solver counts it as a loss for the player to move".into(),
            "primitive to return the result here, unless the player who cannot move loses",
        );
    }
    // The solver asks WinBy of primitives and of positions without moves.
    if !probe.props.supports_winby || (v == Value::UNDECIDED && moves > 0) {
        return;
    }
    let Some(turn) = turn else { return };
    let result = if v == Value::UNDECIDED {
        Value::LOSE
    } else {
        v
    };
    let for_one = if turn == Player::ONE {
        result
    } else {
        result.invert()
    };
    let w = match probe.game.win_by(p) {
        Ok(w) => w,
        Err(e) => return probe.failed(Check::Primitive, spot, &e),
    };
    let (ok, wanted) = match for_one {
        Value::WIN => (w > 0, "a positive margin"),
        Value::LOSE => (w < 0, "a negative margin"),
        _ => (w == 0, "a zero margin"),
    };
    if !ok {
        probe.error(
            Check::Primitive,
            spot,
            format!(
                "win_by is {w}, but the position is a {result} for {turn} (the player to move), so a {for_one} for player one"
            ),
            format!("{wanted}: WinBy counts from player one's view"),
        );
    }
}
