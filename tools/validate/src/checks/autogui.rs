//! AutoGUI strings against the module's board (filed under check 5, text forms): at
//! each legal position, `autogui_position` fits the board (`1_`/`2_`, a character per
//! center or fewer, each `-` or a token the board draws; for a C module the board is
//! its sidecar's, so every character must map to an image) and each move's
//! `autogui_move` names the board's centers. A C module's sidecar that the host
//! refused is reported once, naming the file and the entry (`sidecar`).
//!
//! The host's own checks (`serve::answer`, `engine::load::sidecar`) judge; this file
//! only asks and reports. Modules without a board are not checked.

use crate::findings::Check;
use crate::probe::{Probe, Spot};
use gamesman_host::engine::load::sidecar;
use gamesman_host::serve::answer::{check_autogui_move, check_autogui_position};
use gamesman_host::Module;
use gamesman_plugin_api::autogui::Board;
use gamesman_plugin_api::{Move, TierPosition};
use std::sync::OnceLock;

/// The board of the variant validated (one per run), asked for once.
static BOARD: OnceLock<Option<Board>> = OnceLock::new();

fn board(probe: &Probe<'_>) -> Option<&'static Board> {
    BOARD
        .get_or_init(|| probe.game.autogui_board().ok().flatten())
        .as_ref()
}

/// Checks `p`'s AutoGUI position string and its moves' strings against the board.
pub fn check(probe: &Probe<'_>, p: TierPosition, moves: &[Move]) {
    let Some(board) = board(probe) else { return };
    match probe.game.autogui_position(p) {
        Ok(Some(s)) => {
            if let Err(why) = check_autogui_position(board, &s) {
                probe.error(
                    Check::Text,
                    Spot::at(p),
                    format!("the AutoGUI position '{s}' does not fit the board: {why}"),
                    "a position string the board (or the sidecar's images) can draw",
                );
            }
        }
        Ok(None) => probe.error(
            Check::Text,
            Spot::at(p),
            "no AutoGUI position, though the module has a board".into(),
            "autogui_position for every legal position",
        ),
        Err(e) => return probe.failed(Check::Text, Spot::at(p), &e),
    }
    for (j, &m) in moves.iter().enumerate() {
        match probe.game.autogui_move(p, m) {
            Ok(Some(s)) => {
                if let Err(why) = check_autogui_move(board, &s) {
                    probe.error(
                        Check::Text,
                        Spot::with_move(p, m, j),
                        format!("the AutoGUI move '{s}' does not fit the board: {why}"),
                        "A_, M_, L_ or T_ strings naming the board's centers",
                    );
                }
            }
            // A move without a string is listed by its text (Mills' removals).
            Ok(None) => {}
            Err(e) => probe.failed(Check::Text, Spot::with_move(p, m, j), &e),
        }
    }
}

/// Reports a C module's sidecar the host refused (at the start position).
pub fn sidecar(probe: &Probe<'_>, module: &Module, start: TierPosition) {
    let names = module.variant_names();
    let why = match sidecar::load(&module.path, module.name(), &names) {
        Err(e) => e.to_string(),
        Ok(Some(s)) => match s.variant(probe.game.variant()) {
            // Not attached: the strings near the start do not fit the images.
            Some(images) if board(probe).is_none() => {
                let fit = match probe.game.autogui_position(start) {
                    Ok(Some(a)) => sidecar::check_position(images, &a),
                    Ok(None) => Err("the module gives no AutoGUI positions".into()),
                    Err(e) => Err(e.to_string()),
                };
                let why = fit.err().unwrap_or_else(|| {
                    "its images do not fit the AutoGUI strings of the positions near the start (host serve's warning names the character)".into()
                });
                format!(
                    "AutoGUI sidecar {}: at variants.{}: {why}",
                    images.path.display(),
                    images.variant
                )
            }
            _ => return,
        },
        Ok(None) => return,
    };
    probe.error(
        Check::Text,
        Spot::at(start),
        why,
        "a sidecar the host accepts (see the ABI reference)",
    );
}
