//! Checks 2-7 at one position: the order they run in and what they share.
//!
//! `check_position` runs every per-position check on one index of one tier; each check
//! lives in its own file. A legal position is checked fully; an illegal one only counts
//! as such, since no solver ever touches it. With a symmetry hook, undo moves are only
//! checked at canonical positions, the only ones the solver asks for parents, and not at
//! all for a forward-only module (none given). The solver's fast paths are compared with the functions they stand in for. This file
//! must not judge anything itself: it gathers facts and hands them to the checks.

pub mod autogui;
pub mod children;
pub mod fast_paths;
pub mod primitive;
pub mod symmetry;
pub mod text;
pub mod turn;
pub mod undo;

use crate::findings::Check;
use crate::probe::{Probe, Spot};
use gamesman_plugin_api::{TierPosition, Value};

/// What checking one position found out, for the per-tier counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checked {
    /// `is_legal` said false: skipped.
    Illegal,
    /// Legal: every check ran.
    Legal,
    /// `is_legal` itself failed (reported).
    Failed,
}

/// Runs checks 2-7 at `p`, reporting into the probe's sink.
pub fn check_position(probe: &Probe<'_>, p: TierPosition) -> Checked {
    match probe.game.is_legal(p) {
        Ok(true) => {}
        Ok(false) => return Checked::Illegal,
        Err(e) => {
            probe.failed(Check::Children, Spot::at(p), &e);
            return Checked::Failed;
        }
    }
    text::check_position_text(probe, p);
    let value = primitive::value(probe, p);
    let turn = turn::turn_of(probe, p);
    // Moves are only asked of non-primitive positions, as the API promises modules.
    let moves = match value {
        Some(Value::UNDECIDED) => children::moves(probe, p),
        Some(_) => Some(Vec::new()),
        None => None,
    };
    if let (Some(v), Some(ms)) = (value, &moves) {
        primitive::check(probe, p, v, turn, ms.len());
    }
    let moves = moves.unwrap_or_default();
    let kids = children::check(probe, p, &moves);
    if value == Some(Value::UNDECIDED) {
        fast_paths::check_children(probe, p, &moves, &kids);
    }
    text::check_move_texts(probe, p, &moves);
    autogui::check(probe, p, &moves);
    turn::check(probe, p, turn, &kids);
    // A forward-only module gives no undo moves: the solver builds parents from moves,
    // so there is nothing here to compare them with.
    let undo = probe.game.has_undo_moves();
    if undo && (!probe.props.has_symmetry || probe.game.canonical(p).is_ok_and(|q| q == p)) {
        undo::check_children_list_parent(probe, p, &kids);
        undo::check_parents(probe, p);
        fast_paths::check_parents(probe, p);
    }
    if probe.props.has_symmetry {
        symmetry::check(probe, p, value);
    }
    Checked::Legal
}
