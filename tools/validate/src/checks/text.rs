//! Check 5: text forms round-trip. `position_to_text` then `text_to_position` gives the
//! same position, and each move's `move_to_text` parses back (`text_to_move`) to the
//! same move, so positions and moves can be named on the command line and in play.
//!
//! This file must not judge moves or positions beyond their text.

use crate::findings::Check;
use crate::probe::{Probe, Spot};
use gamesman_plugin_api::{Move, TierPosition};

/// Checks that `p`'s text parses back to `p`.
pub fn check_position_text(probe: &Probe<'_>, p: TierPosition) {
    let spot = Spot::at(p);
    let text = match probe.game.position_to_text(p) {
        Ok(t) => t,
        Err(e) => return probe.failed(Check::Text, spot, &e),
    };
    match probe.game.text_to_position(&text) {
        Ok(Ok(q)) if q == p => {}
        Ok(Ok(q)) => probe.error(
            Check::Text,
            spot,
            format!(
                "the position text \"{text}\" parses back to {}",
                probe.show(q)
            ),
            format!("text_to_position to give back {p}"),
        ),
        Ok(Err(msg)) => probe.error(
            Check::Text,
            spot,
            format!("text_to_position rejects the position text \"{text}\": {msg}"),
            format!("text_to_position to accept position_to_text's output and give back {p}"),
        ),
        Err(e) => probe.error(
            Check::Text,
            spot,
            format!(
                "text_to_position failed on the position text \"{text}\": {}",
                e.message
            ),
            format!("text_to_position to give back {p}"),
        ),
    }
}

/// Checks that every move's text at `p` parses back to the move.
pub fn check_move_texts(probe: &Probe<'_>, p: TierPosition, moves: &[Move]) {
    for (j, &m) in moves.iter().enumerate() {
        let spot = Spot::with_move(p, m, j);
        let text = match probe.game.move_to_text(p, m) {
            Ok(t) => t,
            Err(e) => {
                probe.failed(Check::Text, spot, &e);
                continue;
            }
        };
        match probe.game.text_to_move(p, &text) {
            Ok(Ok(back)) if back == m => {}
            Ok(Ok(back)) => probe.error(
                Check::Text,
                spot,
                format!(
                    "the move text \"{text}\" parses back to a different move, #{} ({})",
                    back.0,
                    probe.move_text(p, back)
                ),
                format!("text_to_move to give back move #{}", m.0),
            ),
            Ok(Err(msg)) => probe.error(
                Check::Text,
                spot,
                format!("text_to_move rejects the move text \"{text}\": {msg}"),
                format!(
                    "text_to_move to accept move_to_text's output and give back move #{}",
                    m.0
                ),
            ),
            Err(e) => probe.error(
                Check::Text,
                spot,
                format!(
                    "text_to_move failed on the move text \"{text}\": {}",
                    e.message
                ),
                format!("text_to_move to give back move #{}", m.0),
            ),
        }
    }
}
