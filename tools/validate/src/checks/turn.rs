//! Check 6: whose turn it is changes on every move, unless the module declares
//! go-again moves (then either is fine) or is a puzzle (then it never changes). The
//! solver inverts a child's value exactly when the turn changes, so a wrong `turn`
//! silently flips results.
//!
//! This file must not look at anything but `turn`.

use crate::checks::children::Kid;
use crate::findings::Check;
use crate::probe::{Probe, Spot};
use gamesman_plugin_api::{Player, TierPosition};

/// Whose turn it is at `p`, or `None` when `turn` failed (reported).
pub fn turn_of(probe: &Probe<'_>, p: TierPosition) -> Option<Player> {
    probe
        .game
        .turn(p)
        .map_err(|e| probe.failed(Check::Turn, Spot::at(p), &e))
        .ok()
}

/// Checks the turn at each child of `p` against `turn`, the player to move at `p`.
pub fn check(probe: &Probe<'_>, p: TierPosition, turn: Option<Player>, kids: &[Kid]) {
    let Some(turn) = turn else { return };
    let puzzle = probe.props.players == 1;
    if probe.props.go_again && !puzzle {
        return;
    }
    for kid in kids {
        // A failure at the child is reported when the child itself is checked.
        let Ok(next) = probe.game.turn(kid.c) else {
            continue;
        };
        let spot = Spot::with_move(p, kid.m, kid.j);
        if puzzle && next != turn {
            probe.error(
                Check::Turn,
                spot,
                format!(
                    "the move hands the turn from {turn} to {next} (at the child {}) in a puzzle",
                    probe.show(kid.c)
                ),
                "the same player to move after every move of a puzzle (players = 1)",
            );
        } else if !puzzle && next == turn {
            probe.error(
                Check::Turn,
                spot,
                format!(
                    "{turn} is still to move after the move (at the child {})",
                    probe.show(kid.c)
                ),
                format!(
                    "{} to move, since the module does not declare go_again",
                    turn.other()
                ),
            );
        }
    }
}
