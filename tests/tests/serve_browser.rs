//! The board page of `host serve` in a real browser: headless Chromium driven through
//! chromedriver (WebDriver), against `target/release/host serve` on 127.0.0.1.
//!
//! Checks that a game loads, a click makes the move, the move colours are the API's
//! values, the computer answers with a best move, a Whirly level is solved with arrow
//! keys, a WinBy game shows its margins, and the page fits a phone's width. Without
//! Chromium and chromedriver the tests say so and pass, except when `CI` is set: CI
//! must run them (`e2e_tests::browser`). `UPDATE_SCREENSHOT=1` writes the book's
//! screenshot to docs/book/src/images/.

use e2e_tests::browser::{colour, with_page, Page};
use e2e_tests::serve::{encode, Server};
use e2e_tests::workspace::{host_binary, plugin};
use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::Locator;
use serde_json::json;
use std::path::Path;

#[test]
fn a_game_loads_and_a_click_or_a_key_makes_the_move() {
    with_page(&[("mtttier", "regular")], (1200, 900), |page| {
        Box::pin(async move {
            page.goto("/#mtttier/regular").await;
            page.wait_for_position("---------").await;
            page.select("side2", "human").await;
            let marks = page
                .js("return document.querySelectorAll('#board [role=button][data-move]').length;")
                .await;
            assert_eq!(marks, json!(9), "nine empty cells to play");
            // Cell 5 is the centre: the fifth mark in reading order.
            let centre = page
                .client
                .find(Locator::Css("#board [data-move='5']"))
                .await
                .unwrap();
            centre.click().await.unwrap();
            page.wait_for_position("----X----").await;
            // The tokens drawn: one X glyph at the centre.
            let xs = page.js("return Array.from(document.querySelectorAll('#board text')).filter(t => t.textContent === 'X').length;").await;
            assert_eq!(xs, json!(1));
            // From the keyboard: focus a move in the list and press Enter.
            page.js(
                "document.querySelector('#moves button[data-move=\"1\"]').focus(); return true;",
            )
            .await;
            page.key(Key::Enter).await;
            page.wait_for_position("O---X----").await;
            // U undoes, R redoes.
            page.js("document.activeElement.blur(); return true;").await;
            let u: char = 'u';
            let actions = KeyActions::new("k".into())
                .then(KeyAction::Down { value: u })
                .then(KeyAction::Up { value: u });
            page.client.perform_actions(actions).await.unwrap();
            page.wait_for_position("----X----").await;
            let r: char = 'r';
            let actions = KeyActions::new("k".into())
                .then(KeyAction::Down { value: r })
                .then(KeyAction::Up { value: r });
            page.client.perform_actions(actions).await.unwrap();
            page.wait_for_position("O---X----").await;
            let points = page
                .js("return document.querySelectorAll('#history circle').length;")
                .await;
            assert_eq!(
                points,
                json!(3),
                "the value history shows the three positions so far"
            );
        })
    });
}

/// Checks every move button and board mark of the page's position against the API.
async fn check_colours(page: &Page, game: &str, variant: &str) -> usize {
    let position = page.position().await;
    let answer = page.api(game, variant, &position);
    let moves = answer["moves"].as_array().unwrap();
    let shown = page
        .js("return Array.from(document.querySelectorAll('#moves button.move')).map(b => [b.dataset.move, b.dataset.value, getComputedStyle(b).backgroundColor]);")
        .await;
    let shown = shown.as_array().unwrap();
    assert_eq!(
        shown.len(),
        moves.len(),
        "one button per move of {position}"
    );
    for (m, s) in moves.iter().zip(shown) {
        assert_eq!(s[0], m["move"], "moves in the API's order at {position}");
        assert_eq!(s[1], m["moveValue"], "value of {} at {position}", m["move"]);
        assert_eq!(
            s[2].as_str().unwrap(),
            colour(m["moveValue"].as_str().unwrap()),
            "colour of {} at {position}",
            m["move"]
        );
    }
    // Marks on the board: each element's moves share its value and colour.
    let marks = page
        .js("return Array.from(document.querySelectorAll('#board [role=button][data-move]')).map(g => [g.dataset.move, g.dataset.value, getComputedStyle(g.querySelector('.mark')).fill, getComputedStyle(g.querySelector('.mark')).stroke]);")
        .await;
    let mut checked = 0;
    for mark in marks.as_array().unwrap() {
        let names = mark[0].as_str().unwrap();
        for name in names.split(' ') {
            let m = moves
                .iter()
                .find(|m| m["move"] == name)
                .unwrap_or_else(|| panic!("mark for {name}, not a move at {position}"));
            let value = m["moveValue"].as_str().unwrap();
            assert_eq!(mark[1], value, "mark of {name} at {position}");
            let painted = [mark[2].as_str().unwrap(), mark[3].as_str().unwrap()];
            assert!(
                painted.contains(&colour(value)),
                "mark of {name} at {position} is painted {painted:?}, not {value}"
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn move_colours_match_the_api() {
    with_page(
        &[("mtttier", "regular"), ("quixo", "3x3")],
        (1200, 900),
        |page| {
            Box::pin(async move {
                // Tic-tac-toe with a win, ties and a loss to choose from.
                page.goto("/?game=mtttier&variant=regular&p=X-O------")
                    .await;
                page.wait_for_position("X-O------").await;
                let values = page.js("return new Set(Array.from(document.querySelectorAll('#moves button.move')).map(b => b.dataset.value)).size;").await;
                assert_eq!(values, json!(3), "win, tie and lose moves");
                assert_eq!(check_colours(page, "mtttier", "regular").await, 7);
                // Quixo: a position with winning and losing moves, found through the API.
                let mut at = page.api("quixo", "3x3", "---/---/---:X");
                let mut path = 0;
                while at["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|m| m["moveValue"] == at["moves"][0]["moveValue"])
                {
                    let next = at["moves"][path % at["moves"].as_array().unwrap().len()]
                        ["position"]
                        .as_str()
                        .unwrap()
                        .to_string();
                    at = page.api("quixo", "3x3", &next);
                    path += 3;
                    assert!(path < 60, "no quixo position with mixed values found");
                }
                let position = at["position"].as_str().unwrap().to_string();
                page.goto(&format!("/?game=quixo&variant=3x3&p={}", encode(&position)))
                    .await;
                page.wait_for_position(&position).await;
                // Each cube that can be taken has a ring in its best move's colour.
                let rings = page
                .js("return Array.from(document.querySelectorAll('#board [data-source]')).map(g => [g.dataset.source, g.dataset.value, getComputedStyle(g.querySelector('.mark')).stroke]);")
                .await;
                let rings = rings.as_array().unwrap().clone();
                assert!(!rings.is_empty());
                for ring in &rings {
                    assert_eq!(ring[2].as_str().unwrap(), colour(ring[1].as_str().unwrap()));
                }
                // Selecting a cube shows its arrows, each in its move's colour.
                let first = page
                    .client
                    .find(Locator::Css(&format!(
                        "#board [data-source='{}']",
                        rings[0][0].as_str().unwrap()
                    )))
                    .await
                    .unwrap();
                first.click().await.unwrap();
                page.wait_until(
                    "document.querySelectorAll('#board [data-move]').length > 0",
                    "arrows",
                )
                .await;
                assert!(check_colours(page, "quixo", "3x3").await >= 1);
            })
        },
    );
}

#[test]
fn the_computer_answers_with_a_best_move() {
    with_page(&[("mtttier", "regular")], (1200, 900), |page| {
        Box::pin(async move {
            page.goto("/#mtttier/regular").await;
            page.wait_for_position("---------").await;
            assert_eq!(
                page.js("return document.getElementById('side2').value;")
                    .await,
                json!("computer")
            );
            page.client
                .find(Locator::Css("#board [data-move='5']"))
                .await
                .unwrap()
                .click()
                .await
                .unwrap();
            page.wait_until(
                "document.getElementById('position').textContent.includes('O')",
                "the computer's answer",
            )
            .await;
            let after = page.position().await;
            // After X in the centre only the corners keep the tie; edges lose.
            let o = after.find('O').unwrap();
            assert!([0, 2, 6, 8].contains(&o), "the computer played {after}");
            let best = page.api("mtttier", "regular", "----X----");
            let chosen = best["moves"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["position"] == after.as_str())
                .unwrap();
            assert_eq!(chosen["moveValue"], "tie");
            // The computer on both sides plays the game out: a tie.
            page.select("side1", "computer").await;
            page.wait_until(
                "document.getElementById('prediction').textContent.startsWith('Game over')",
                "the end of a computer game",
            )
            .await;
            let text = page
                .js("return document.getElementById('prediction').textContent;")
                .await;
            assert!(
                text.as_str().unwrap().contains("a tie after 9 moves"),
                "{text}"
            );
        })
    });
}

#[test]
fn a_whirly_level_is_solved_by_keystrokes() {
    with_page(&[("whirly", "two-colours")], (1200, 900), |page| {
        Box::pin(async move {
            page.goto("/#whirly/two-colours").await;
            let start = page.api("whirly", "two-colours", "");
            let start_text = start["position"].as_str().unwrap().to_string();
            page.wait_for_position(&start_text).await;
            let solution: Vec<String> = start["solution"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_string())
                .collect();
            assert_eq!(solution.len(), 10, "the level's shortest solution");
            let mut expected = start;
            for step in &solution {
                let key = match step.as_str() {
                    "u" => Key::Up,
                    "d" => Key::Down,
                    "l" => Key::Left,
                    "r" => Key::Right,
                    other => panic!("unexpected move {other}"),
                };
                let next = expected["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|m| m["move"] == step.as_str())
                    .unwrap()["position"]
                    .as_str()
                    .unwrap()
                    .to_string();
                page.key(key).await;
                page.wait_until(
                    &format!(
                        "document.getElementById('position').textContent === decodeURIComponent({})",
                        serde_json::to_string(&next).unwrap()
                    ),
                    &format!("the pusher's move {step}"),
                )
                .await;
                expected = page.api("whirly", "two-colours", &next);
            }
            page.wait_until(
                "document.getElementById('prediction').textContent === 'Solved in 10 moves!'",
                "the solved level",
            )
            .await;
        })
    });
}

#[test]
fn a_winby_game_shows_margins_and_fits_a_phone() {
    with_page(&[("miceblocks", "base5")], (390, 1400), |page| {
        Box::pin(async move {
            page.goto("/#miceblocks/base5").await;
            let start = page.api("miceblocks", "base5", "");
            page.wait_for_position(start["position"].as_str().unwrap())
                .await;
            let prediction = page
                .js("return document.getElementById('prediction').textContent;")
                .await;
            assert!(
                prediction
                    .as_str()
                    .unwrap()
                    .contains("should win in 15 by 6"),
                "{prediction}"
            );
            let shown = page
                .js("return Array.from(document.querySelectorAll('#moves button.move')).map(b => [b.dataset.move, b.querySelector('.margin').textContent]);")
                .await;
            let moves = start["moves"].as_array().unwrap();
            for (m, s) in moves.iter().zip(shown.as_array().unwrap()) {
                let margin = m["margin"].as_i64().unwrap();
                let text = if margin > 0 {
                    format!("+{margin}")
                } else {
                    margin.to_string()
                };
                assert_eq!(s[0], m["move"]);
                assert_eq!(s[1].as_str().unwrap(), text, "margin of move {}", m["move"]);
            }
            assert_eq!(shown[0][1], "+6", "the best move wins by 6");
            // Nothing wider than a phone's screen.
            let fits = page
                .js("return document.documentElement.scrollWidth <= window.innerWidth;")
                .await;
            assert_eq!(fits, json!(true), "the page scrolls sideways at 390 px");
            let board = page.js("const r = document.getElementById('board').getBoundingClientRect(); return [r.width, r.height];").await;
            assert!(board[0].as_f64().unwrap() > 250.0, "board drawn at {board}");
            // The README's screenshot: a wide window, a game under way, Player 1 (the
            // human) to choose between a win by 6 and two wins by 3.
            page.client.set_window_size(1200, 860).await.unwrap();
            page.goto("/?game=miceblocks&variant=base5&p=O-X--%2F----%2F---%2F--%2F-")
                .await;
            page.wait_for_position("O-X--/----/---/--/-").await;
            let margins = page
                .js("return Array.from(document.querySelectorAll('#moves .margin')).map(m => m.textContent);")
                .await;
            assert_eq!(margins, json!(["+6", "+3", "+3"]));
            page.wait_until(
                "document.querySelectorAll('#history circle').length === 1",
                "the history",
            )
            .await;
            let png = page.client.screenshot().await.unwrap();
            assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG screenshot");
            assert!(
                png.len() > 20_000,
                "a screenshot of a drawn page ({} bytes)",
                png.len()
            );
            if std::env::var_os("UPDATE_SCREENSHOT").is_some() {
                let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/book/src/images");
                std::fs::create_dir_all(&docs).unwrap();
                std::fs::write(docs.join("serve.png"), &png).unwrap();
            }
        })
    });
}

#[test]
fn every_bundled_game_shows_a_playable_board() {
    let _ = plugin("chess");
    with_page(&[("mtttier", "regular")], (1000, 800), |page| {
        Box::pin(async move {
            // The server above serves only mtttier: a second one serves all six.
            let all = Server::start(
                &host_binary(),
                &[
                    "mtttier",
                    "quixo",
                    "mothello",
                    "miceblocks",
                    "whirly",
                    "chess",
                ],
                "file:/nonexistent-gamesman-db",
            );
            for (game, variant) in [
                ("mtttier", "regular"),
                ("quixo", "4x4"),
                ("mothello", "4x4"),
                ("miceblocks", "base5"),
                ("whirly", "warehouse"),
                ("chess", "KQK"),
            ] {
                page.client
                    .goto(&format!("{}/#{game}/{variant}", all.url()))
                    .await
                    .unwrap();
                page.wait_until(
                    "document.querySelectorAll('#moves button.move').length > 0 && document.querySelectorAll('#board [role=button]').length > 0",
                    &format!("{game} {variant} drawn with moves"),
                )
                .await;
                let drawn = page
                    .js("return document.querySelectorAll('#board *').length;")
                    .await;
                assert!(drawn.as_u64().unwrap() > 10, "{game}: {drawn} SVG elements");
                let status = page
                    .js("return document.getElementById('status').textContent;")
                    .await;
                assert_eq!(status, json!("unsolved"), "{game}: nothing is solved here");
                // Playing the first listed move works on every board.
                let before = page.position().await;
                page.js("document.querySelector('#moves button.move').click(); return true;")
                    .await;
                page.wait_until(
                    &format!(
                        "document.getElementById('position').textContent !== {}",
                        serde_json::to_string(&before).unwrap()
                    ),
                    &format!("a move in {game}"),
                )
                .await;
            }
        })
    });
}
