//! What GamesmanUni needs of the API's answers, beyond their shapes: a module's
//! `imageAutoGUIData` checked before it is sent (a bad one would stop GamesmanUni's
//! page with a script error), which AutoGUI moves GamesmanUni draws on its board, and
//! the `gui` kind it files a game under.
//!
//! GamesmanUni asks for a position as `?p=<its text>` without encoding it, so every
//! position the API gives has `%`, `#`, `&` and `+` percent-encoded (`url_safe`; a
//! Whirly level's walls are `#`), and the API reads a position given either way.
//!
//! GamesmanUni (v5) keys a position's moves by `autoguiMove`. On its image board it
//! draws `A_t_N`, `M_N_N`, `L_N_N` and `T_t_N` moves (`t` one of `[a-zA-Z0-9-]`) and
//! sends their `autoguiMove` when clicked; every other move, and every move when no
//! `imageAutoGUIData` is sent, is listed as a button showing `move` and looked up by
//! that `move` string. So a move's `autoguiMove` is its AutoGUI string only when
//! GamesmanUni draws it, and its text otherwise (`uni_move`). This file decides; it
//! must not know HTTP or the database.

use gamesman_plugin_api::autogui::Board;
use serde_json::Value as Json;

/// The largest `imageAutoGUIData` accepted from a module, in bytes.
pub const MAX_IMAGE_DATA_BYTES: usize = 1 << 20;

/// The animations GamesmanUni's image AutoGUI knows.
const ANIMATIONS: [&str; 3] = ["", "entityFade", "simpleSlides"];

/// `text` with the characters that an unencoded query string would lose or change
/// (`%`, `#`, `&`, `+`) percent-encoded; other text is unchanged.
pub fn url_safe(text: &str) -> String {
    if !text.contains(['%', '#', '&', '+']) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '#' => out.push_str("%23"),
            '&' => out.push_str("%26"),
            '+' => out.push_str("%2B"),
            c => out.push(c),
        }
    }
    out
}

/// `text` with its `%XX` escapes decoded, if it has any and they decode to UTF-8.
pub fn percent_decoded(text: &str) -> Option<String> {
    if !text.contains('%') {
        return None;
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Whether `c` may stand in a GamesmanUni AutoGUI token or board.
fn token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-'
}

fn center(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Whether GamesmanUni draws the AutoGUI move `s` on its image board (and so sends
/// `s` when it is clicked).
pub fn drawn_on_board(s: &str) -> bool {
    let parts: Vec<&str> = s.split('_').collect();
    match parts.as_slice() {
        ["A" | "T", t, c, ..] => {
            let mut chars = t.chars();
            matches!((chars.next(), chars.next()), (Some(ch), None) if token_char(ch)) && center(c)
        }
        ["M" | "L", a, b, ..] => center(a) && center(b),
        _ => false,
    }
}

/// The `autoguiMove` GamesmanUni gets for each move: `(text, AutoGUI string)` pairs in,
/// one key per move out. With image data, a move GamesmanUni draws keeps its AutoGUI
/// string unless another move of the position has the same one (a promotion's
/// pieces); every other move is keyed by its text, which is what its list button sends.
pub fn uni_moves(has_image: bool, moves: &[(String, String)]) -> Vec<String> {
    let mut counts = std::collections::HashMap::new();
    for (_, a) in moves {
        *counts.entry(a.as_str()).or_insert(0) += 1;
    }
    moves
        .iter()
        .map(|(text, a)| {
            if has_image && drawn_on_board(a) && counts[a.as_str()] == 1 {
                a.clone()
            } else {
                text.clone()
            }
        })
        .collect()
}

/// GamesmanUni's `gui` kind: `v3` (an animated image board), `v2` (an image board),
/// `v1` (the position as text and the moves as a list).
pub fn gui_kind(image: Option<&Json>) -> &'static str {
    let Some(data) = image else { return "v1" };
    let animated = data["themes"].as_object().is_some_and(|t| {
        t.values()
            .any(|t| !t["animationType"].as_str().unwrap_or("").is_empty())
    });
    if animated {
        "v3"
    } else {
        "v2"
    }
}

/// An image path GamesmanUni can look up: relative, plain characters, no `..`.
fn image_path(v: &Json, what: &str) -> Result<(), String> {
    let s = v
        .as_str()
        .ok_or_else(|| format!("{what} is not a string"))?;
    let plain = !s.is_empty()
        && !s.starts_with('/')
        && !s.split('/').any(|p| p == ".." || p == "." || p.is_empty())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./".contains(c))
        && (s.ends_with(".svg") || s.ends_with(".png"));
    if plain {
        Ok(())
    } else {
        Err(format!(
            "{what} '{s}' is not a relative path of an image under GamesmanUni's svg folder"
        ))
    }
}

fn positive(v: &Json, what: &str) -> Result<f64, String> {
    match v.as_f64() {
        Some(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("{what} is not a positive number")),
    }
}

fn point(v: &Json, what: &str) -> Result<(), String> {
    match v.as_array().map(Vec::as_slice) {
        Some([x, y])
            if x.as_f64().is_some_and(f64::is_finite) && y.as_f64().is_some_and(f64::is_finite) =>
        {
            Ok(())
        }
        _ => Err(format!("{what} is not a pair of numbers")),
    }
}

fn check_theme(name: &str, t: &Json, board: &Board) -> Result<(), String> {
    let at = |what: &str| format!("theme '{name}': {what}");
    let t = t.as_object().ok_or_else(|| at("not an object"))?;
    match t.get("space").and_then(Json::as_array).map(Vec::as_slice) {
        Some([w, h]) => {
            positive(w, &at("the space's width"))?;
            positive(h, &at("the space's height"))?;
        }
        _ => return Err(at("space is not [width, height]")),
    }
    let centers = t
        .get("centers")
        .and_then(Json::as_array)
        .ok_or_else(|| at("centers is not a list"))?;
    if centers.len() < board.centers.len() {
        return Err(at(&format!(
            "{} centers for the AutoGUI board's {}",
            centers.len(),
            board.centers.len()
        )));
    }
    for (i, c) in centers.iter().enumerate() {
        point(c, &at(&format!("center {i}")))?;
    }
    for key in ["background", "foreground"] {
        if let Some(v) = t.get(key) {
            image_path(v, &at(key))?;
        }
    }
    let images = t
        .get("charImages")
        .and_then(Json::as_object)
        .ok_or_else(|| at("charImages is not an object"))?;
    for (ch, img) in images {
        let mut chars = ch.chars();
        if !matches!((chars.next(), chars.next()), (Some(c), None) if token_char(c)) {
            return Err(at(&format!(
                "charImages key '{ch}' is not one character of [a-zA-Z0-9-]"
            )));
        }
        image_path(&img["image"], &at(&format!("the image of '{ch}'")))?;
        positive(&img["scale"], &at(&format!("the scale of '{ch}'")))?;
    }
    for key in [
        "arrowWidth",
        "circleButtonRadius",
        "lineWidth",
        "textEntityFontSize",
        "textButtonFontSize",
    ] {
        if let Some(v) = t.get(key) {
            positive(v, &at(key))?;
        }
    }
    if let Some(v) = t.get("entitiesOverArrows") {
        v.as_bool()
            .ok_or_else(|| at("entitiesOverArrows is not true or false"))?;
    }
    if let Some(v) = t.get("animationType") {
        let a = v.as_str().unwrap_or("?");
        if !ANIMATIONS.contains(&a) {
            return Err(at(&format!(
                "animationType {v} is not one of entityFade, simpleSlides"
            )));
        }
    }
    if t.contains_key("sounds") || t.contains_key("defaultAnimationWindow") {
        return Err(at(
            "sounds and defaultAnimationWindow are not served (a headless client cannot play them)",
        ));
    }
    Ok(())
}

/// Checks a module's `imageAutoGUIData` text against its AutoGUI board and gives it as
/// JSON: a default theme among its themes, each with a space, at least the board's
/// centers, images named by plain relative paths, and only the options GamesmanUni
/// reads.
pub fn check_image_data(text: &str, board: Option<&Board>) -> Result<Json, String> {
    let board = board.ok_or("the module gives no AutoGUI board, whose strings it would draw")?;
    if text.len() > MAX_IMAGE_DATA_BYTES {
        return Err(format!(
            "it is {} bytes long (at most {MAX_IMAGE_DATA_BYTES})",
            text.len()
        ));
    }
    let data: Json = serde_json::from_str(text).map_err(|e| format!("it is not JSON: {e}"))?;
    let default = data["defaultTheme"]
        .as_str()
        .ok_or("defaultTheme is not a string")?;
    let themes = data["themes"]
        .as_object()
        .ok_or("themes is not an object")?;
    if !themes.contains_key(default) {
        return Err(format!(
            "the default theme '{default}' is not among its themes"
        ));
    }
    for (name, t) in themes {
        check_theme(name, t, board)?;
    }
    if let Some(o) = data.as_object() {
        if let Some(k) = o
            .keys()
            .find(|k| !["defaultTheme", "themes"].contains(&k.as_str()))
        {
            return Err(format!(
                "'{k}' is not served (only defaultTheme and themes)"
            ));
        }
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_safe_in_a_query() {
        let wall = "###/#-@a#/%+&";
        assert_eq!(url_safe(wall), "%23%23%23/%23-@a%23/%25%2B%26");
        assert_eq!(percent_decoded(&url_safe(wall)).as_deref(), Some(wall));
        assert_eq!(url_safe("----/-WB-:B"), "----/-WB-:B");
        assert_eq!(percent_decoded("no escapes"), None);
        assert_eq!(percent_decoded("%2"), None);
        assert_eq!(percent_decoded("%zz"), None);
    }

    #[test]
    fn moves_gamesmanuni_draws() {
        for yes in ["A_x_4_x", "A_-_0_y", "M_0_17_x", "L_1_2_x", "T_P_16_x"] {
            assert!(drawn_on_board(yes), "{yes}");
        }
        for no in [
            "T_pass_16_x",
            "A_@_1_x",
            "A_xy_1_x",
            "M_a_1_x",
            "e2e4",
            "A_x__x",
            "",
        ] {
            assert!(!drawn_on_board(no), "{no}");
        }
    }

    #[test]
    fn keys_fall_back_to_the_text() {
        let moves = vec![
            ("a7a8q".to_string(), "M_8_0_x".to_string()),
            ("a7a8n".to_string(), "M_8_0_x".to_string()),
            ("Kb1".to_string(), "M_57_58_x".to_string()),
            ("pass".to_string(), "T_pass_16_x".to_string()),
        ];
        assert_eq!(
            uni_moves(true, &moves),
            ["a7a8q", "a7a8n", "M_57_58_x", "pass"]
        );
        assert_eq!(uni_moves(false, &moves), ["a7a8q", "a7a8n", "Kb1", "pass"]);
    }

    fn board(n: usize) -> Board {
        Board::grid(1, n, "#fff", "#000")
    }

    #[test]
    fn image_data_is_checked() {
        let good = r#"{"defaultTheme":"r","themes":{"r":{"space":[3,1],"centers":[[0.5,0.5],[1.5,0.5],[2.5,0.5]],"background":"ttt/3x3grid.svg","charImages":{"X":{"image":"ttt/x.svg","scale":1}},"animationType":"entityFade"}}}"#;
        let data = check_image_data(good, Some(&board(3))).unwrap();
        assert_eq!(gui_kind(Some(&data)), "v3");
        assert_eq!(gui_kind(None), "v1");
        let err = |text: &str, n: usize| check_image_data(text, Some(&board(n))).unwrap_err();
        assert!(err(good, 4).contains("3 centers for the AutoGUI board's 4"));
        assert!(check_image_data(good, None)
            .unwrap_err()
            .contains("no AutoGUI board"));
        assert!(err(&good.replace("\"r\":{", "\"s\":{"), 3).contains("default theme 'r'"));
        assert!(err(&good.replace("ttt/x.svg", "../x.svg"), 3).contains("'../x.svg'"));
        assert!(err(&good.replace("\"X\":", "\"@\":"), 3).contains("'@'"));
        assert!(err(&good.replace("[3,1]", "[0,1]"), 3).contains("width"));
        assert!(err(&good.replace("entityFade", "spin"), 3).contains("animationType"));
        assert!(err("{", 3).contains("not JSON"));
    }
}
