//! Driving GamesmanUni (the GamesCrafters web client, built in `../shared/gamesmanuni`)
//! served by `host serve --gamesmanuni`: finding the build, reading its Vue store and
//! status line, waiting for it, and its console. This file knows GamesmanUni's page,
//! not what a test checks.

use crate::browser::{Page, WAIT};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The GamesmanUni build, or `None` after saying why the test is skipped (under `CI`
/// its absence fails the test).
pub fn gamesmanuni() -> Option<PathBuf> {
    crate::workspace::shared_input(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/gamesmanuni/dist"),
        "index.html",
        "the GamesmanUni tests",
    )
}

/// The store of GamesmanUni's Vue app, in page scripts.
pub const STORE: &str =
    "const S = document.querySelector('#app').__vue_app__.config.globalProperties.$store;";

/// Every move element GamesmanUni draws: image-board buttons and listed moves.
pub const MOVES: &str = "#image-autogui .iag-button-point, #image-autogui .iag-button-arrow, #image-autogui .iag-button-line, #listed-moves .move";

/// The value of `expr` in a page script where `S` is GamesmanUni's store.
pub async fn store(page: &Page, expr: &str) -> Value {
    page.js(&format!("{STORE} return {expr};")).await
}

/// Waits until `expr` (with `S` the store) is true; fails with GamesmanUni's state.
pub async fn wait_store(page: &Page, expr: &str, what: &str) {
    let deadline = Instant::now() + WAIT;
    while Instant::now() < deadline {
        if page
            .js(&format!(
                "{STORE} try {{ return !!({expr}); }} catch (e) {{ return false; }}"
            ))
            .await
            == json!(true)
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let state = store(page, "[S.getters.currentPosition, document.querySelector('#app-game-body-statistics-message') && document.querySelector('#app-game-body-statistics-message').textContent]").await;
    panic!("timed out waiting for {what} ({expr}); GamesmanUni: {state}");
}

/// The status line GamesmanUni shows, whitespace collapsed.
pub async fn message(page: &Page) -> String {
    let m = page
        .js("const m = document.querySelector('#app-game-body-statistics-message'); return m ? m.textContent : '';")
        .await;
    m.as_str()
        .unwrap_or("")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// What GamesmanUni should say of the answer `a` (before the game is over).
pub fn expected_message(a: &Value, puzzle: bool) -> String {
    let value = a["positionValue"].as_str().unwrap();
    let r = a["remoteness"].as_i64().unwrap();
    let moves = if r == 1 { "move" } else { "moves" };
    if puzzle {
        return match value {
            "lose" => "will not be able to solve the puzzle.".into(),
            _ => format!("should solve the puzzle in {r} {moves}."),
        };
    }
    match value {
        "draw" => "should draw".into(),
        "unsolved" => "'s turn.".into(),
        v => {
            let by = match a["winby"].as_i64() {
                Some(w) if w != 0 => format!(" by {w}"),
                _ => String::new(),
            };
            format!("should {v} the game in {r} {moves}{by}.")
        }
    }
}

/// The console's errors but for the web fonts GamesmanUni cannot fetch offline.
pub async fn console_errors(page: &Page) -> Vec<String> {
    page.browser_log()
        .await
        .into_iter()
        .filter(|e| e["level"] == "SEVERE")
        .map(|e| e["message"].as_str().unwrap_or("").to_string())
        .filter(|m| !m.contains("fonts.googleapis.com") && !m.contains("fonts.gstatic.com"))
        .collect()
}

/// Opens `path` and waits until `condition` (a page script expression) is true.
pub async fn goto_and_wait(page: &Page, path: &str, condition: &str, what: &str) {
    page.goto(path).await;
    let deadline = Instant::now() + WAIT;
    while Instant::now() < deadline {
        if page
            .js(&format!(
                "try {{ return !!({condition}); }} catch (e) {{ return false; }}"
            ))
            .await
            == json!(true)
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let text = page
        .js("return document.body.innerText.slice(0, 400);")
        .await;
    panic!("timed out waiting for {what} at {path}; the page: {text}");
}
