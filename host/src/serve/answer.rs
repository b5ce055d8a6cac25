//! The JSON answers of the web API, in GamesmanUni's shapes (see the project's notes on
//! its web API) plus what it lacks: every move's WinBy margin, a puzzle's shortest
//! solution, tier names, the board text and our AutoGUI board.
//!
//! Positions are answered from the same library calls as `host query --json`
//! (`query::query`, `query::report`, `query::shortest_solution`), so both agree on
//! every value, remoteness, WinBy and move order. This file builds values; it must not
//! know HTTP or parse requests.

use super::catalog::{Catalog, GameEntry, VariantEntry};
use super::error::{ApiError, ApiResult};
use super::uni_data;
use crate::engine::ask::query::{self, QueryError};
use crate::engine::ask::ranking::{RankedMove, Ranking};
use crate::engine::outcome::{margin_for, value_name};
use crate::engine::record::Record;
use gamesman_plugin_api::autogui::Board;
use gamesman_plugin_api::{TierPosition, Value};
use serde::Serialize;
use serde_json::{json, Value as Json};

/// GamesmanUni's remoteness of a draw (and of an unsolvable puzzle position).
pub const REMOTENESS_INFINITE: i64 = -200;
/// GamesmanUni's remoteness when it is not known (an unsolved position).
pub const REMOTENESS_UNKNOWN: i64 = -100;

/// How the computer chooses its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Shortest win, longest loss.
    Remoteness,
    /// The largest margin (WinBy games), then remoteness.
    WinBy,
    /// A win by the smallest margin that still wins.
    FalseHope,
}

impl Mode {
    /// Parses `remoteness`, `winby` or `falsehope`.
    pub fn parse(text: &str) -> Option<Mode> {
        match text {
            "remoteness" => Some(Mode::Remoteness),
            "winby" => Some(Mode::WinBy),
            "falsehope" | "false-hope" => Some(Mode::FalseHope),
            _ => None,
        }
    }

    /// The name the API uses.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Remoteness => "remoteness",
            Mode::WinBy => "winby",
            Mode::FalseHope => "falsehope",
        }
    }
}

/// One move of a position's answer.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveAnswer {
    /// The move in the module's text form.
    #[serde(rename = "move")]
    pub mv: String,
    /// The key GamesmanUni knows it by: its AutoGUI string when GamesmanUni draws it
    /// on its image board, else its text (`uni_data::uni_moves`).
    pub autogui_move: String,
    /// Its AutoGUI string for our board page (the text form when the module gives none).
    pub board_move: String,
    /// The position it leads to (`uni_data::url_safe`).
    pub position: String,
    /// That position's AutoGUI string.
    pub autogui_position: String,
    /// That position's value for the player to move there.
    pub position_value: &'static str,
    /// What the move achieves for the player making it.
    pub move_value: &'static str,
    /// How much longer (or, for losses, shorter) than the best move of the same value.
    pub delta_remoteness: i64,
    /// That position's remoteness.
    pub remoteness: i64,
    /// That position's WinBy as GamesmanUni reads it: the winner's margin, never
    /// negative (WinBy games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winby: Option<i64>,
    /// That position's WinBy from player one's view (WinBy games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winby_player_one: Option<i64>,
    /// The margin the move achieves for its maker (WinBy games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin: Option<i64>,
}

/// A position's answer.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PositionAnswer {
    /// The position in the module's text form (`uni_data::url_safe`).
    pub position: String,
    /// Its AutoGUI string (the text form when the module gives none).
    pub autogui_position: String,
    /// Its value for the player to move.
    pub position_value: &'static str,
    /// Its remoteness (-200 infinite, -100 unknown).
    pub remoteness: i64,
    /// Its WinBy as GamesmanUni reads it: the winner's margin, never negative (WinBy
    /// games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winby: Option<i64>,
    /// Its WinBy from player one's view (WinBy games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winby_player_one: Option<i64>,
    /// The margin for the player to move (WinBy games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin: Option<i64>,
    /// Every legal move, best first.
    pub moves: Vec<MoveAnswer>,
    /// The player to move (1 or 2); for turn-free positions only the one the module
    /// names for display (see `turn_free`).
    pub turn: u8,
    /// Present (true) when the game's positions keep no turn (plugin-api 0.1.5): either
    /// player may be to move, and `turn` is not part of the position.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub turn_free: bool,
    /// Whether the game is over here.
    pub over: bool,
    /// The tier.
    pub tier: u64,
    /// The tier's name.
    pub tier_name: String,
    /// The board as the module draws it in text.
    pub board: String,
    /// A puzzle's shortest solution from here (solvable puzzle positions only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<Vec<String>>,
}

/// A value as GamesmanUni names it: `win`, `lose`, `tie`, `draw` or `unsolved`, for
/// puzzles too (where the text front ends say solvable and unsolvable).
pub fn web_value(v: Value) -> &'static str {
    value_name(v, 2)
}

/// GamesmanUni's remoteness of a record.
pub fn remoteness(r: &Record) -> i64 {
    match r.value {
        Value::WIN | Value::LOSE | Value::TIE => r.remoteness as i64,
        Value::DRAW => REMOTENESS_INFINITE,
        _ => REMOTENESS_UNKNOWN,
    }
}

/// A query failure as an API error: the module's complaint about the text is the
/// client's fault, anything else the server's.
pub fn query_error(e: QueryError) -> ApiError {
    match e {
        QueryError::BadPosition { .. } => ApiError::BadRequest(e.to_string()),
        other => ApiError::Internal(other.to_string()),
    }
}

fn module_error(e: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(e.to_string())
}

/// The AutoGUI string of `p`, checked against the board (the text form without one).
fn autogui_position(v: &VariantEntry, p: TierPosition, text: &str) -> ApiResult<String> {
    let (Some(board), Some(s)) = (&v.board, v.game.autogui_position(p).map_err(module_error)?)
    else {
        return Ok(text.to_string());
    };
    check_autogui_position(board, &s).map_err(|why| {
        ApiError::Internal(format!(
            "game module '{}' gave the AutoGUI position '{s}' for {text}: {why}",
            v.game.module_name()
        ))
    })?;
    Ok(s)
}

/// Checks an AutoGUI position string against its board: `1_` or `2_`, then one
/// character per center (or fewer: GamesmanOne's Quixo keeps its last centers for
/// its arrows' heads), each `-` or a token the board styles.
pub fn check_autogui_position(board: &Board, s: &str) -> Result<(), String> {
    let cells = s
        .strip_prefix("1_")
        .or_else(|| s.strip_prefix("2_"))
        .ok_or("it does not start with 1_ or 2_")?;
    let n = cells.chars().count();
    if n == 0 || n > board.centers.len() {
        return Err(format!(
            "it has {n} cells for the board's {} centers",
            board.centers.len()
        ));
    }
    if let Some(c) = cells
        .chars()
        .find(|&c| c != '-' && !board.tokens.iter().any(|t| t.ch == c))
    {
        return Err(format!("the board has no token {c:?}"));
    }
    Ok(())
}

/// Checks an AutoGUI move string: its kind and that its centers exist.
pub fn check_autogui_move(board: &Board, s: &str) -> Result<(), String> {
    let parts: Vec<&str> = s.split('_').collect();
    let center = |t: &str| -> Result<(), String> {
        match t.parse::<usize>() {
            Ok(c) if c < board.centers.len() => Ok(()),
            _ => Err(format!("'{t}' is not one of the board's centers")),
        }
    };
    // The sound is optional (GamesmanOne's games leave it out: `A_x_4`).
    let parts = match parts.as_slice() {
        [kind, a, b] => [*kind, *a, *b],
        [kind, a, b, _] => [*kind, *a, *b],
        _ => return Err("it is not A_token_center_sound, M_, L_ or T_".into()),
    };
    match parts {
        ["A", token, c] if token.chars().count() == 1 => center(c),
        ["M", a, b] | ["L", a, b] => center(a).and(center(b)),
        ["T", text, c] if !text.is_empty() => center(c),
        _ => Err("it is not A_token_center_sound, M_, L_ or T_".into()),
    }
}

fn autogui_move(v: &VariantEntry, p: TierPosition, m: &RankedMove) -> ApiResult<String> {
    let (Some(board), Some(s)) = (
        &v.board,
        v.game.autogui_move(p, m.mv).map_err(module_error)?,
    ) else {
        return Ok(m.text.clone());
    };
    check_autogui_move(board, &s).map_err(|why| {
        ApiError::Internal(format!(
            "game module '{}' gave the AutoGUI move '{s}' for {}: {why}",
            v.game.module_name(),
            m.text
        ))
    })?;
    Ok(s)
}

/// The answer for position `p` of a variant.
pub fn position(v: &VariantEntry, p: TierPosition) -> ApiResult<PositionAnswer> {
    let game = &v.game;
    let ranking = query::query(game, v.db.as_ref(), p).map_err(query_error)?;
    let report = query::report(game, &ranking).map_err(query_error)?;
    let solution = query::shortest_solution(game, v.db.as_ref(), p).map_err(query_error)?;
    // deltaRemoteness against the best move of the same value: the first in our order.
    let mut best: Vec<(Value, i64)> = Vec::new();
    let mut moves = Vec::with_capacity(ranking.moves.len());
    for (m, r) in ranking.moves.iter().zip(&report.moves) {
        let rem = remoteness(&m.record);
        let first = match best.iter().find(|(value, _)| *value == m.move_value) {
            Some(&(_, b)) => b,
            None => {
                best.push((m.move_value, rem));
                rem
            }
        };
        let delta = if rem >= 0 && first >= 0 {
            (rem - first).abs()
        } else {
            0
        };
        let board_move = autogui_move(v, p, m)?;
        moves.push(MoveAnswer {
            mv: r.mv.clone(),
            autogui_move: board_move.clone(),
            board_move,
            autogui_position: autogui_position(v, m.child, &r.position)?,
            position: uni_data::url_safe(&r.position),
            position_value: web_value(m.record.value),
            move_value: web_value(m.move_value),
            delta_remoteness: delta,
            remoteness: rem,
            winby: r.winby.map(i64::abs),
            winby_player_one: r.winby,
            margin: ranking.margin(m),
        });
    }
    let pairs: Vec<(String, String)> = moves
        .iter()
        .map(|m| (m.mv.clone(), m.board_move.clone()))
        .collect();
    for (m, key) in moves
        .iter_mut()
        .zip(uni_data::uni_moves(v.image.is_some(), &pairs))
    {
        m.autogui_move = key;
    }
    Ok(PositionAnswer {
        autogui_position: autogui_position(v, p, &report.position)?,
        position: uni_data::url_safe(&report.position),
        position_value: web_value(ranking.record.value),
        remoteness: remoteness(&ranking.record),
        winby: report.winby.map(i64::abs),
        winby_player_one: report.winby,
        margin: ranking.record.winby.map(|w| margin_for(w, ranking.mover)),
        moves,
        turn: ranking.mover.0,
        turn_free: game.turn_free(),
        over: ranking.is_over(),
        tier: report.tier,
        tier_name: report.tier_name,
        board: game.board_to_text(p).map_err(module_error)?,
        solution,
    })
}

/// The computer's move at `p` in `mode`, chosen at random among equally good ones.
pub fn computer(v: &VariantEntry, p: TierPosition, mode: Mode) -> ApiResult<Json> {
    use rand::seq::SliceRandom;
    let ranking = Ranking::of(&v.game, v.db.as_ref(), p, mode != Mode::Remoteness)
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    if ranking.is_over() {
        return Err(ApiError::Conflict(
            "the game is over at this position: there is no move to make".into(),
        ));
    }
    let choices = match mode {
        Mode::FalseHope => ranking.false_hope_choices(),
        _ => ranking.perfect_choices(),
    };
    let m = *choices
        .choose(&mut rand::thread_rng())
        .expect("a position that is not over has moves");
    Ok(json!({
        "move": m.text,
        "position": uni_data::url_safe(&v.game.position_to_text(m.child).map_err(module_error)?),
        "moveValue": web_value(m.move_value),
        "mode": mode.name(),
        "choices": choices.iter().map(|c| c.text.clone()).collect::<Vec<_>>(),
    }))
}

fn game_type(g: &GameEntry) -> &'static str {
    if g.players() == 1 {
        "onePlayer"
    } else {
        "twoPlayer"
    }
}

/// A game's `gui` kind: the best of its variants'.
fn game_gui(g: &GameEntry) -> &'static str {
    g.variants
        .iter()
        .map(|v| uni_data::gui_kind(v.image.as_ref()))
        .max()
        .unwrap_or("v1")
}

/// `GET /api/`: every game.
pub fn games(c: &Catalog) -> Json {
    Json::Array(
        c.games
            .iter()
            .map(|g| {
                json!({
                    "id": g.id,
                    "name": g.name,
                    "type": game_type(g),
                    "gui": game_gui(g),
                    "description": g.description,
                    "variants": g.variants.len(),
                })
            })
            .collect(),
    )
}

fn variant_summary(v: &VariantEntry) -> Json {
    json!({
        "id": v.id,
        "name": v.id,
        "description": v.description,
        "gui": uni_data::gui_kind(v.image.as_ref()),
        "status": v.status().name(),
    })
}

/// `GET /api/<game>/`: the game and its variants.
pub fn game(g: &GameEntry) -> Json {
    json!({
        "id": g.id,
        "name": g.name,
        "type": game_type(g),
        "description": g.description,
        "authors": g.authors,
        "variants": g.variants.iter().map(|v| variant_summary(v)).collect::<Vec<_>>(),
        "allowCustomVariantCreation": false,
        "supportsWinBy": g.variants.iter().any(|v| v.game.supports_winby()),
    })
}

/// `GET /api/<game>/<variant>/`: the variant, its start and its board.
pub fn variant(g: &GameEntry, v: &VariantEntry) -> ApiResult<Json> {
    let start = v.game.position_to_text(v.start).map_err(module_error)?;
    let props = v.game.properties();
    Ok(json!({
        "id": v.id,
        "name": v.id,
        "description": v.description,
        "game": g.id,
        "gameName": g.name,
        "startPosition": uni_data::url_safe(&start),
        "autoguiStartPosition": autogui_position(v, v.start, &start)?,
        "imageAutoGUIData": v.image.clone().unwrap_or(Json::Null),
        "gui": uni_data::gui_kind(v.image.as_ref()),
        "status": v.status().name(),
        "players": props.players,
        "supportsWinBy": props.supports_winby,
        "database": super::error::redact_paths(&v.db.describe()),
        "board": v.board.as_ref().map(board_json),
    }))
}

/// Our AutoGUI board as JSON, drawn by our page (GamesmanUni draws
/// `imageAutoGUIData`, which names its own images).
pub fn board_json(b: &Board) -> Json {
    json!({
        "width": b.width,
        "height": b.height,
        "background": b.background,
        "centers": b.centers.iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>(),
        "fixed": b.fixed.iter().map(|f| json!({
            "x": f.x, "y": f.y, "w": f.w, "h": f.h,
            "shape": f.shape.name(),
            "fill": f.fill, "stroke": f.stroke, "label": f.label,
        })).collect::<Vec<_>>(),
        "tokens": b.tokens.iter().map(|t| (t.ch.to_string(), json!({
            "shape": t.shape.name(),
            "size": t.size,
            "fill": t.fill,
            "stroke": t.stroke,
            "glyph": t.glyph,
            "glyphColour": t.glyph_colour,
        }))).collect::<serde_json::Map<_, _>>(),
    })
}

/// `GET /api/<game>/<variant>/instructions/`: how to play, from the module's texts.
pub fn instructions(g: &GameEntry, v: &VariantEntry) -> Json {
    let players = v.game.properties().players;
    let how = if players == 1 {
        "A puzzle: every move is shown with whether the puzzle can still be solved from where it leads and in how many moves."
    } else {
        "Every move is shown with what it achieves for the player making it (win, tie, draw or lose) and in how many moves, best first."
    };
    json!({
        "instructions": format!("{}\n\nVariant {}: {}.\n\n{how}", g.description, v.id, v.description),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamesman_plugin_api::autogui::Token;

    fn board() -> Board {
        let mut b = Board::grid(1, 3, "#fff", "#000");
        b.tokens.push(Token::glyph('X', "X", "#00f"));
        b
    }

    #[test]
    fn autogui_positions_must_fit_the_board() {
        let b = board();
        assert!(check_autogui_position(&b, "1_X--").is_ok());
        assert!(check_autogui_position(&b, "2_---").is_ok());
        assert!(check_autogui_position(&b, "3_---")
            .unwrap_err()
            .contains("1_ or 2_"));
        // Fewer cells than centers: the last centers hold no piece.
        assert!(check_autogui_position(&b, "1_X-").is_ok());
        assert!(check_autogui_position(&b, "1_X---")
            .unwrap_err()
            .contains("4 cells"));
        assert!(check_autogui_position(&b, "1_")
            .unwrap_err()
            .contains("0 cells"));
        assert!(check_autogui_position(&b, "1_XO-")
            .unwrap_err()
            .contains("'O'"));
    }

    #[test]
    fn autogui_moves_must_name_centers() {
        let b = board();
        for ok in [
            "A_X_2_x",
            "M_0_2_x",
            "L_1_2_x",
            "T_pass_0_x",
            "A_X_1",
            "M_0_2",
        ] {
            assert!(check_autogui_move(&b, ok).is_ok(), "{ok}");
        }
        for bad in [
            "A_X_3_x",
            "M_0_9_x",
            "A_XY_1_x",
            "Q_1_2_x",
            "A_X",
            "T__1_x",
            "A_X_1_x_y",
        ] {
            assert!(check_autogui_move(&b, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn modes_and_remoteness() {
        assert_eq!(Mode::parse("falsehope"), Some(Mode::FalseHope));
        assert_eq!(Mode::parse("winby").map(Mode::name), Some("winby"));
        assert_eq!(Mode::parse("best"), None);
        let r = |value, remoteness| Record {
            value,
            remoteness,
            winby: None,
        };
        assert_eq!(remoteness(&r(Value::WIN, 7)), 7);
        assert_eq!(remoteness(&r(Value::DRAW, 0)), REMOTENESS_INFINITE);
        assert_eq!(remoteness(&Record::UNSOLVED), REMOTENESS_UNKNOWN);
    }
}
