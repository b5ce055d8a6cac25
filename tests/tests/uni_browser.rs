//! GamesmanUni, the real client (`../shared/gamesmanuni/dist`: v5.0.35 built with the
//! API base `/api/`), served by `host serve --gamesmanuni` and driven in headless
//! Chromium through every bundled game as a person plays it: the game lists, each
//! variants page, the values on every move button, moves clicked (each reaching the
//! position the API names, drawn as the API's AutoGUI string says), the value history,
//! a computer move by GamesmanUni's own strategy (Win By for WinBy games, with its Win
//! By view), the WinBy wording, and a console free of errors but the web fonts it
//! cannot fetch offline.
//!
//! Without `../shared/gamesmanuni` (or without Chromium) the tests say so and pass,
//! except under `CI`, where they fail. With `GAMESMAN_UNI_SCREENSHOTS=DIR` set, a PNG
//! of each game's board after the moves is written to `DIR/uni-<game>.png`.

use e2e_tests::browser::{browser, with_server_page, Page};
use e2e_tests::run::run_host;
use e2e_tests::uni::{
    console_errors, expected_message, gamesmanuni, goto_and_wait, message, store, wait_store,
    MOVES, STORE,
};
use e2e_tests::workspace::host_binary;
use fantoccini::Locator;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[path = "uni_browser/classic.rs"]
mod classic;
#[path = "uni_browser/gamesmanone.rs"]
mod gamesmanone;

/// One bundled game as the tests play it.
struct UniGame {
    /// The module.
    id: &'static str,
    /// The variant played.
    variant: &'static str,
    /// `--reachable` when the whole variant takes long to solve.
    reachable: bool,
    /// GamesmanUni's route: `games` or `puzzles`.
    kind: &'static str,
    /// The name GamesmanUni lists (empty: not checked, a GamesmanOne game).
    name: &'static str,
    /// The `gui` kind it is filed under.
    gui: &'static str,
    /// Moves clicked before the computer moves.
    clicks: usize,
}

const GAMES: [UniGame; 8] = [
    UniGame {
        id: "mtttier",
        variant: "regular",
        reachable: false,
        kind: "games",
        name: "Tic-Tac-Toe",
        gui: "v3",
        clicks: 3,
    },
    UniGame {
        id: "quixo",
        variant: "3x3",
        reachable: false,
        kind: "games",
        name: "Quixo",
        gui: "v3",
        clicks: 3,
    },
    UniGame {
        id: "mothello",
        variant: "4x4",
        reachable: true,
        kind: "games",
        name: "Othello",
        gui: "v3",
        clicks: 3,
    },
    UniGame {
        id: "chess",
        variant: "KQK",
        reachable: false,
        kind: "games",
        name: "Chess",
        gui: "v3",
        clicks: 2,
    },
    UniGame {
        id: "miceblocks",
        variant: "base5",
        reachable: false,
        kind: "games",
        name: "Ice Blocks",
        gui: "v3",
        clicks: 3,
    },
    UniGame {
        id: "dodgem",
        variant: "3x3",
        reachable: false,
        kind: "games",
        name: "Dodgem",
        gui: "v3",
        clicks: 3,
    },
    UniGame {
        id: "mills",
        variant: "5mm",
        reachable: true,
        kind: "games",
        name: "Mills",
        gui: "v3",
        clicks: 3,
    },
    UniGame {
        id: "whirly",
        variant: "two-colours",
        reachable: false,
        kind: "puzzles",
        name: "Whirly",
        gui: "v3",
        clicks: 3,
    },
];

/// Checks GamesmanUni's page against the API's answer `a` for the position it shows:
/// the status line, one move element per move with the move's value, the board drawn
/// from the AutoGUI string. Gives the AutoGUI key of each move element, in DOM order.
async fn check_position(page: &Page, g: &UniGame, a: &Value, image: &Value) -> Vec<String> {
    let moves = a["moves"].as_array().unwrap();
    let n = moves.len();
    wait_store(
        page,
        &format!(
            "S.getters.currentPosition === {} && document.querySelectorAll('{MOVES}').length === {n}",
            json!(a["position"])
        ),
        &format!("{} at {} with {n} moves", g.id, a["position"]),
    )
    .await;
    let msg = message(page).await;
    let want = expected_message(a, g.kind == "puzzles");
    assert!(
        msg.contains(&want) && !msg.contains("by -"),
        "{}: GamesmanUni says '{msg}', the API's answer gives '{want}'",
        g.id
    );
    // Each element's key (hovering sets the highlighted move) and value class.
    let drawn = page
        .js(&format!(
            "{STORE} return Array.from(document.querySelectorAll('{MOVES}')).map(e => {{
                e.dispatchEvent(new MouseEvent('mouseover', {{ bubbles: true }}));
                const key = S.getters.currentHighlightedMove;
                e.dispatchEvent(new MouseEvent('mouseout', {{ bubbles: true }}));
                const c = e.getAttribute('class') || '';
                const v = (c.match(/(?:hint|uni)-(win|lose|tie|draw|unsolved)/) || [])[1] || null;
                return [key, v];
            }});"
        ))
        .await;
    let drawn = drawn.as_array().unwrap();
    let mut keys = Vec::new();
    for d in drawn {
        let (key, value) = (d[0].as_str().unwrap_or(""), &d[1]);
        let m = moves
            .iter()
            .find(|m| m["autoguiMove"] == key)
            .unwrap_or_else(|| {
                panic!(
                    "{}: a move element is keyed '{key}', which no move of the API has",
                    g.id
                )
            });
        assert_eq!(
            value, &m["moveValue"],
            "{}: move {} is shown with value {value}, the API says {}",
            g.id, m["move"], m["moveValue"]
        );
        keys.push(key.to_string());
    }
    let mut distinct = keys.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        n,
        "{}: {n} moves, elements for {keys:?}",
        g.id
    );
    // With an image board, the pieces drawn are the AutoGUI string's.
    let theme = image["defaultTheme"].as_str().unwrap_or("");
    if let Some(images) = image["themes"][theme]["charImages"].as_object() {
        let board = a["autoguiPosition"].as_str().unwrap()[2..].to_string();
        let want: Vec<usize> = board
            .chars()
            .enumerate()
            .filter(|&(_, c)| c != '-' && images.contains_key(&c.to_string()))
            .map(|(i, _)| i)
            .collect();
        let got = page
            .js("return Array.from(document.querySelectorAll('#image-autogui image.entity')).map(e => Number(e.id.slice(6)));")
            .await;
        let got: Vec<usize> = got
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(
            got, want,
            "{}: pieces drawn at {got:?}, the AutoGUI position {board} has them at {want:?}",
            g.id
        );
    } else {
        let text = page
            .js("const p = document.querySelector('#position-string pre'); return p ? p.textContent : null;")
            .await;
        assert_eq!(text, a["position"], "{}: the position shown as text", g.id);
    }
    keys
}

/// Clicks the element of one of `a`'s moves (trying them from `first` back, as a
/// person tries another when an arrow hides one: GamesmanUni draws the longest arrows
/// first, so the last elements are on top) and waits for the position it names.
async fn click_a_move(page: &Page, g: &UniGame, a: &Value, keys: &[String], first: usize) -> Value {
    let moves = a["moves"].as_array().unwrap();
    let elements = page.client.find_all(Locator::Css(MOVES)).await.unwrap();
    assert_eq!(elements.len(), keys.len());
    for k in 0..keys.len() {
        let i = keys.len() - 1 - (first + k) % keys.len();
        if elements[i].click().await.is_err() {
            continue;
        }
        let m = moves
            .iter()
            .find(|m| m["autoguiMove"] == keys[i].as_str())
            .unwrap();
        // The position the move names, or the name the API gives it when asked for it
        // (the same position: GamesmanOne's mtttier names a position by its board or
        // by TIER:INDEX, its board text not always reading back, see guide/gamesmanone.md).
        let named = page.api(g.id, g.variant, m["position"].as_str().unwrap())["position"].clone();
        wait_store(
            page,
            &format!(
                "S.getters.currentPosition === {} || S.getters.currentPosition === {}",
                json!(m["position"]),
                json!(named)
            ),
            &format!("{}: the position after clicking {}", g.id, m["move"]),
        )
        .await;
        return m.clone();
    }
    panic!(
        "{}: none of the {} move elements could be clicked",
        g.id,
        keys.len()
    );
}

fn solve(dir: &tempfile::TempDir) {
    let resource = format!("file:{}", dir.path().display());
    for g in &GAMES {
        let mut args = vec![
            "--plugin",
            g.id,
            "--variant",
            g.variant,
            "solve",
            "--db",
            &resource,
        ];
        if g.reachable {
            args.push("--reachable");
        }
        run_host(&host_binary(), &args).assert_success();
    }
}

/// The games and puzzles pages list every game under its GUI kind.
async fn check_lists(page: &Page) {
    for kind in ["games", "puzzles"] {
        let ours: Vec<&UniGame> = GAMES.iter().filter(|g| g.kind == kind).collect();
        let names: Vec<&str> = ours.iter().map(|g| g.name).collect();
        goto_and_wait(
            page,
            &format!("/uni/{kind}"),
            &format!(
                "document.querySelectorAll('#app-games a').length >= {}",
                ours.len()
            ),
            "the game list",
        )
        .await;
        let listed = page
            .js("return Array.from(document.querySelectorAll('#app-games a')).map(a => [a.className.split(' ')[0], a.innerText.trim()]);")
            .await;
        for g in ours {
            assert!(
                listed.as_array().unwrap().contains(&json!([g.gui, g.name])),
                "{kind}: {} should be listed under {}; listed: {listed} (ours: {names:?})",
                g.name,
                g.gui
            );
        }
    }
}

/// A whole game as a person plays it; gives the console's errors.
async fn play(page: &Page, g: &UniGame) -> Vec<String> {
    // The variants page links the variant (a game of one variant, as most of
    // GamesmanOne's, goes straight on to it).
    goto_and_wait(
        page,
        &format!("/uni/{}/{}/variants", g.kind, g.id),
        &format!(
            "document.querySelector('a[href$=\"/{id}/variants/{v}\"]') || location.pathname.endsWith('/{id}/variants/{v}')",
            id = g.id, v = g.variant
        ),
        &format!("{}'s variants", g.id),
    )
    .await;
    let variant = page
        .server
        .get(&format!("/api/{}/{}/", g.id, g.variant))
        .json();
    let image = variant["imageAutoGUIData"].clone();
    assert_eq!(
        image.is_null(),
        g.gui == "v1",
        "{}: imageAutoGUIData {image}",
        g.id
    );
    page.goto(&format!("/uni/{}/{}/variants/{}", g.kind, g.id, g.variant))
        .await;
    let mut a = page.api(g.id, g.variant, "");
    let mut values = vec![a["positionValue"].clone()];
    for step in 0..g.clicks {
        let keys = check_position(page, g, &a, &image).await;
        let m = click_a_move(page, g, &a, &keys, step * 3 + 1).await;
        a = page.api(g.id, g.variant, m["position"].as_str().unwrap());
        values.push(a["positionValue"].clone());
        if a["over"] == json!(true) {
            break;
        }
    }
    // The value history: a row per position so far, in the position's value (a tie
    // has a dot on either side).
    let dots = page
        .js("const rows = new Map(); for (const c of document.querySelectorAll('#app-game-vvh-body-remotenessview circle.position-value')) rows.set(Number(c.getAttribute('cy')), (c.getAttribute('class').match(/win|lose|tie|draw|unsolved/) || [null])[0]); return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(r => r[1]);")
        .await;
    // Unsolved positions (a partial database) get no row.
    let solved: Vec<&Value> = values.iter().filter(|v| *v != "unsolved").collect();
    let want = if solved.is_empty() {
        json!([])
    } else {
        json!(values)
    };
    assert_eq!(dots, want, "{}: the value history", g.id);
    if a["over"] != json!(true) && a["positionValue"] != "unsolved" {
        computer_move(page, g, &a, &image).await;
    }
    if let Ok(dir) = std::env::var("GAMESMAN_UNI_SCREENSHOTS") {
        tokio::time::sleep(Duration::from_millis(700)).await;
        // C modules (GamesmanOne's, Classic's: listed under no name here) as
        // `uni-one-<game>-<variant>.png`.
        let name = if g.name.is_empty() {
            format!("uni-one-{}-{}", g.id, g.variant)
        } else {
            format!("uni-{}", g.id)
        };
        std::fs::write(
            PathBuf::from(dir).join(format!("{name}.png")),
            page.screenshot().await,
        )
        .unwrap();
    }
    console_errors(page).await
}

/// Makes the player to move a computer (GamesmanUni's Win By strategy in WinBy games,
/// Remoteness in others) and checks the move it makes by that strategy.
async fn computer_move(page: &Page, g: &UniGame, a: &Value, image: &Value) {
    let winby = a["winby"].is_i64();
    check_position(page, g, a, image).await;
    if winby {
        // The Win By view: player two's wins lie right of the middle, player one's left.
        page.js("const o = Array.from(document.querySelectorAll('.view-dropdown-option')).find(e => e.textContent.trim() === 'Win By'); o.click(); return true;").await;
        wait_store(
            page,
            "document.querySelector('#app-game-vvh-body-winbyview circle.position-value')",
            "the Win By view",
        )
        .await;
        let (cx, middle) = {
            let v = page
                .js("const c = Array.from(document.querySelectorAll('#app-game-vvh-body-winbyview circle.position-value')); return [Number(c[c.length - 1].getAttribute('cx')), Number(document.querySelector('#app-game-vvh-body-winbyview text.draw-symbol').getAttribute('x'))];")
                .await;
            (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
        };
        let mover_wins = a["positionValue"] == "win";
        let player_two_wins = (a["turn"] == 2) == mover_wins;
        match (
            a["positionValue"].as_str().unwrap(),
            a["winby"].as_i64().unwrap(),
        ) {
            ("tie", _) | (_, 0) => assert_eq!(cx, middle, "{}: a tie sits in the middle", g.id),
            _ if player_two_wins => assert!(
                cx > middle,
                "{}: player two's win at {cx}, middle {middle}",
                g.id
            ),
            _ => assert!(
                cx < middle,
                "{}: player one's win at {cx}, middle {middle}",
                g.id
            ),
        }
    }
    // GamesmanUni's player to move: the AutoGUI position's `1_`/`2_` (for a turn-free
    // game, whose API turn is always 1, the only source), else the API's turn.
    let turn = match a["autoguiPosition"].as_str().map(|s| s.as_bytes()) {
        Some([t @ (b'1' | b'2'), b'_', ..]) => (t - b'0') as usize,
        _ => a["turn"].as_u64().unwrap() as usize,
    };
    page.client
        .find(Locator::Css("button[title=Options]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_store(
        page,
        "document.querySelector('#uni-popup-window input.uni-toggle-button')",
        "the options",
    )
    .await;
    let toggles = page
        .client
        .find_all(Locator::Css(
            "#uni-popup-window #names input.uni-toggle-button",
        ))
        .await
        .unwrap();
    let index = if g.kind == "puzzles" { 0 } else { turn - 1 };
    toggles[index].click().await.unwrap();
    if winby {
        page.js(&format!(
            "const o = Array.from(document.querySelectorAll('#uni-popup-window .name')[{index}].querySelectorAll('.strategy-dropdown-option')).find(e => e.textContent.trim() === 'Win By'); o.click(); return true;"
        ))
        .await;
        wait_store(
            page,
            &format!("S.getters.currentCPUStrategy({index}) === 'Win By'"),
            "the Win By strategy",
        )
        .await;
    }
    page.client
        .find(Locator::Css("#x-button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let before = json!(a["position"]);
    wait_store(
        page,
        &format!("S.getters.currentPosition !== {before}"),
        &format!("{}: the computer's move", g.id),
    )
    .await;
    let now = store(page, "S.getters.currentPosition").await;
    let moves = a["moves"].as_array().unwrap();
    let m = moves
        .iter()
        .find(|m| {
            // By its name in the move list or the one the API gives it when asked.
            m["position"] == now
                || page.api(g.id, g.variant, m["position"].as_str().unwrap())["position"] == now
        })
        .unwrap_or_else(|| {
            panic!(
                "{}: the computer went to {now}, which no move of {before} reaches",
                g.id
            )
        });
    // Its strategy, as GamesmanUni states it, on the API's values.
    let value = a["positionValue"].as_str().unwrap();
    let best: Vec<&Value> = moves.iter().filter(|m| m["moveValue"] == value).collect();
    fn pick<'v>(key: &str, max: bool, set: Vec<&'v Value>) -> Vec<&'v Value> {
        let num = |m: &Value| m[key].as_i64().unwrap_or(0);
        let values = set.iter().map(|m| num(m));
        let want = if max { values.max() } else { values.min() };
        set.into_iter().filter(|m| Some(num(m)) == want).collect()
    }
    let chosen = match (value, winby) {
        ("win" | "tie", true) => pick("remoteness", false, pick("winby", true, best)),
        ("lose", true) => pick("remoteness", true, pick("winby", false, best)),
        ("win" | "tie", false) => pick("remoteness", false, best),
        ("lose", false) => pick("remoteness", true, best),
        _ => best,
    };
    assert!(
        chosen.contains(&m),
        "{}: the computer played {} ({}), not one of its strategy's choices {:?}",
        g.id,
        m["move"],
        m["moveValue"],
        chosen.iter().map(|m| m["move"].clone()).collect::<Vec<_>>()
    );
    if g.kind == "puzzles" {
        // A computer solver plays on to the end.
        wait_store(
            page,
            "S.getters.isEndOfMatch",
            "the computer solving the puzzle",
        )
        .await;
        assert!(
            message(page).await.contains("has solved the puzzle"),
            "{}: {}",
            g.id,
            message(page).await
        );
    } else if winby {
        let answer = page.api(g.id, g.variant, m["position"].as_str().unwrap());
        let msg = message(page).await;
        if answer["over"] != json!(true) {
            assert!(
                msg.contains(&expected_message(&answer, false)),
                "{}: after the computer: '{msg}'",
                g.id
            );
        }
    }
}

#[test]
fn gamesmanuni_plays_every_bundled_game() {
    let Some(dist) = gamesmanuni() else { return };
    if browser().is_none() {
        return;
    }
    let db = tempfile::tempdir().unwrap();
    solve(&db);
    let resource = format!("file:{}", db.path().display());
    let modules: Vec<&str> = GAMES.iter().map(|g| g.id).collect();
    let dist = dist.display().to_string();
    let started = Instant::now();
    with_server_page(
        &modules,
        &["--db", &resource, "--gamesmanuni", &dist],
        (1280, 1000),
        |page| {
            Box::pin(async move {
                check_lists(page).await;
                let mut errors = Vec::new();
                for g in &GAMES {
                    let at = Instant::now();
                    let e = play(page, g).await;
                    eprintln!(
                        "{} {}: played in {:.1} s",
                        g.id,
                        g.variant,
                        at.elapsed().as_secs_f64()
                    );
                    errors.extend(e.into_iter().map(|e| format!("{}: {e}", g.id)));
                }
                assert!(errors.is_empty(), "console errors: {errors:#?}");
            })
        },
    );
    eprintln!(
        "GamesmanUni played every game in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn uni_route_serves_the_build_with_the_spa_fallback() {
    let Some(dist) = gamesmanuni() else { return };
    let db = tempfile::tempdir().unwrap();
    let resource = format!("file:{}", db.path().display());
    let dist = dist.display().to_string();
    let server = e2e_tests::serve::Server::start_with(
        &host_binary(),
        &["mtttier"],
        &["--db", &resource, "--gamesmanuni", &dist],
    );
    let index = std::fs::read_to_string(PathBuf::from(&dist).join("index.html")).unwrap();
    for path in [
        "/uni/",
        "/uni/games/mtttier/variants/regular",
        "/uni/puzzles",
    ] {
        let r = server.get(path);
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.text(), index, "{path} answers index.html");
    }
    let sw = server.get("/uni/sw.js");
    assert_eq!(sw.status, 200);
    assert!(sw
        .header("content-type")
        .unwrap_or("")
        .contains("javascript"));
    assert_eq!(server.get("/uni").status, 308, "/uni redirects to /uni/");
    // The API and our page are still there, on the same origin.
    assert_eq!(server.get("/api/").status, 200);
    assert_eq!(server.get("/").status, 200);
}

#[test]
fn serve_refuses_a_directory_that_is_no_gamesmanuni_build() {
    let empty = tempfile::tempdir().unwrap();
    let dir = empty.path().display().to_string();
    let out = run_host(
        &host_binary(),
        &[
            "--plugin",
            "mtttier",
            "serve",
            "--gamesmanuni",
            &dir,
            "--addr",
            "127.0.0.1:0",
        ],
    );
    let err = out.assert_failure_code(2);
    assert!(err.contains("no index.html") && err.contains(&dir), "{err}");
    let out = run_host(
        &host_binary(),
        &[
            "--plugin",
            "mtttier",
            "serve",
            "--gamesmanuni",
            "/nonexistent/dist",
            "--addr",
            "127.0.0.1:0",
        ],
    );
    let err = out.assert_failure_code(2);
    assert!(err.contains("not a directory"), "{err}");
}
