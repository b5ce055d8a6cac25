//! Check 6: whose turn it is changes on every move, unless the module declares
//! go-again moves (then either is fine) or is a puzzle (then it never changes). The
//! solver inverts a child's value exactly when the turn changes, so a wrong `turn`
//! silently flips results.
//!
//! A module whose positions do not record the turn (`turn_free`, plugin-api 0.1.5:
//! impartial games, GamesmanClassic modules solved on their `POSITION` alone) may
//! reach a position with either player to move, so the turn at a child is not
//! compared with the parent's; what is checked there is that `turn` answers and that
//! the declarations agree (turn-free positions cannot carry go-again moves, WinBy or a
//! puzzle's single player, which all need the turn).
//!
//! This file must not look at anything but `turn` and the declarations.

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

/// The declarations a turn-free module contradicts, if any (checked once, at the
/// initial position, by `check_declarations`).
pub fn turn_free_conflicts(probe: &Probe<'_>) -> Vec<&'static str> {
    let mut out = Vec::new();
    if !probe.game.turn_free() {
        return out;
    }
    if probe.props.players == 1 {
        out.push("a puzzle (players = 1)");
    }
    if probe.props.go_again {
        out.push("go-again moves");
    }
    if probe.props.supports_winby {
        out.push("WinBy");
    }
    out
}

/// Reports, at the initial position `start`, a turn-free module that also declares
/// something needing the turn.
pub fn check_declarations(probe: &Probe<'_>, start: TierPosition) {
    let conflicts = turn_free_conflicts(probe);
    if conflicts.is_empty() {
        return;
    }
    probe.error(
        Check::Turn,
        Spot::at(start),
        format!(
            "the module declares turn-free positions (turn_free) and also {}, which need whose turn it is",
            conflicts.join(" and ")
        ),
        "turn_free only for two-player games without go-again moves and WinBy",
    );
}

/// Checks the turn at each child of `p` against `turn`, the player to move at `p`.
pub fn check(probe: &Probe<'_>, p: TierPosition, turn: Option<Player>, kids: &[Kid]) {
    let Some(turn) = turn else { return };
    let puzzle = probe.props.players == 1;
    if probe.props.go_again && !puzzle {
        return;
    }
    // Turn-free positions may be reached with either player to move: `turn` names one
    // for display only, and it answered (above).
    if probe.game.turn_free() && !puzzle {
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
