//! `host serve`'s JSON API, end to end: the real binary on 127.0.0.1, real databases.
//!
//! Its answers must agree with `host query --json` and `host analyze --json` for the
//! same positions; GamesmanUni's shapes must be there (startPosition, positionValue,
//! moveValue, deltaRemoteness, -200/-100 remoteness); every bundled module's AutoGUI
//! strings must fit its board; the computer's modes choose as the text player does.
//! Bad input and stopping are in `serve_robustness`. Games are small (a few seconds of
//! solving in all).

use e2e_tests::run::run_host;
use e2e_tests::serve::solved;
use e2e_tests::serve::{encode, resource, Response, Server};
use e2e_tests::workspace::{host_binary, plugin};
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn ok_json(r: &Response, what: &str) -> Value {
    assert_eq!(r.status, 200, "{what}: {}", r.text());
    assert!(
        r.header("content-type")
            .is_some_and(|t| t.starts_with("application/json")),
        "{what}: {:?}",
        r.headers
    );
    r.json()
}

fn position(server: &Server, game: &str, variant: &str, p: &str) -> Value {
    ok_json(
        &server.get(&format!("/api/{game}/{variant}/positions/?p={}", encode(p))),
        &format!("{game} {variant} {p}"),
    )
}

/// `host query --json` for a position.
fn query_json(db: &str, game: &str, variant: &str, p: &str) -> Value {
    let r = run_host(
        &host_binary(),
        &[
            "--plugin",
            game,
            "--variant",
            variant,
            "query",
            "--db",
            db,
            "--json",
            p,
        ],
    );
    r.assert_success();
    serde_json::from_str(&r.stdout).unwrap()
}

/// GamesmanUni's remoteness of a `query --json` record.
fn uni_remoteness(value: &Value, remoteness: &Value) -> Value {
    match (value.as_str().unwrap(), remoteness.as_u64()) {
        (_, Some(r)) => json!(r),
        ("draw" | "unsolvable", None) => json!(-200),
        _ => json!(-100),
    }
}

/// Asserts the API's value (GamesmanUni's words, for puzzles too) is the one `query
/// --json` names (solvable and unsolvable for puzzles).
fn same_value(api: &Value, q: &Value, what: &str) {
    let ok = match q.as_str().unwrap() {
        "solvable" => api == "win",
        "unsolvable" => ["lose", "tie", "draw"].contains(&api.as_str().unwrap()),
        _ => api == q,
    };
    assert!(ok, "{what}: the API says {api}, query says {q}");
}

/// A position as the API gives it: `%`, `#`, `&` and `+` percent-encoded, because
/// GamesmanUni sends positions in query strings without encoding them.
fn url_safe(text: &str) -> String {
    text.replace('%', "%25")
        .replace('#', "%23")
        .replace('&', "%26")
        .replace('+', "%2B")
}

/// A position of the API as the module writes it (`url_safe` undone).
fn module_text(text: &str) -> String {
    text.replace("%23", "#")
        .replace("%26", "&")
        .replace("%2B", "+")
        .replace("%25", "%")
}

/// WinBy as GamesmanUni reads it: the winner's margin (query's is player one's view).
fn winner_margin(q: &Value) -> Value {
    q.as_i64().map_or(Value::Null, |w| json!(w.abs()))
}

/// Asserts the API's answer says what `query --json` says.
fn agree(api: &Value, q: &Value) {
    let at = q["position"].as_str().unwrap();
    assert_eq!(api["position"], json!(url_safe(at)));
    same_value(
        &api["positionValue"],
        &q["value"],
        &format!("value at {at}"),
    );
    assert_eq!(
        api["remoteness"],
        uni_remoteness(&q["value"], &q["remoteness"]),
        "remoteness at {at}"
    );
    assert_eq!(
        api.get("winby").unwrap_or(&Value::Null),
        &winner_margin(&q["winby"]),
        "winby at {at}"
    );
    assert_eq!(
        api.get("winbyPlayerOne").unwrap_or(&Value::Null),
        &q["winby"],
        "winbyPlayerOne at {at}"
    );
    assert_eq!(api["tier"], q["tier"], "tier at {at}");
    assert_eq!(api["tierName"], q["tier_name"], "tier name at {at}");
    assert_eq!(
        api.get("solution").unwrap_or(&Value::Null),
        q.get("solution").unwrap_or(&Value::Null),
        "solution at {at}"
    );
    let (am, qm) = (
        api["moves"].as_array().unwrap(),
        q["moves"].as_array().unwrap(),
    );
    assert_eq!(am.len(), qm.len(), "moves at {at}");
    for (a, m) in am.iter().zip(qm) {
        let what = format!("move {} at {at}", m["move"]);
        assert_eq!(a["move"], m["move"], "order of moves at {at}");
        assert_eq!(
            a["position"],
            json!(url_safe(m["position"].as_str().unwrap())),
            "{what}"
        );
        same_value(&a["positionValue"], &m["value"], &what);
        same_value(&a["moveValue"], &m["move_value"], &what);
        assert_eq!(
            a["remoteness"],
            uni_remoteness(&m["value"], &m["remoteness"]),
            "{what}"
        );
        assert_eq!(
            a.get("winby").unwrap_or(&Value::Null),
            &winner_margin(&m["winby"]),
            "{what}"
        );
        assert_eq!(
            a.get("winbyPlayerOne").unwrap_or(&Value::Null),
            &m["winby"],
            "{what}"
        );
    }
    // deltaRemoteness: 0 for the first move of each value, then the distance to it.
    let mut first: Vec<(Value, i64)> = Vec::new();
    for a in am {
        let r = a["remoteness"].as_i64().unwrap();
        let best = match first.iter().find(|(v, _)| *v == a["moveValue"]) {
            Some(&(_, b)) => b,
            None => {
                first.push((a["moveValue"].clone(), r));
                r
            }
        };
        let expected = if r >= 0 && best >= 0 {
            (r - best).abs()
        } else {
            0
        };
        assert_eq!(a["deltaRemoteness"], json!(expected), "delta at {at}");
    }
}

#[test]
fn answers_agree_with_query_json() {
    let games = [
        ("mtttier", "regular"),
        ("mtttier", "symmetric"),
        ("miceblocks", "base4"),
        ("quixo", "3x3"),
        ("whirly", "two-colours"),
    ];
    let dir = solved(&host_binary(), &games);
    let db = resource(&dir);
    let server = Server::start(
        &host_binary(),
        &["mtttier", "miceblocks", "quixo", "whirly"],
        &db,
    );
    let mut compared = 0;
    for (game, variant) in games.iter().chain(&[("whirly", "tiny-push")]) {
        // The start, then a line of play through different moves, to the end.
        let mut at = ok_json(
            &server.get(&format!("/api/{game}/{variant}/positions/")),
            "start",
        );
        for step in 0..8 {
            let p = at["position"].as_str().unwrap().to_string();
            if *variant == "tiny-push" {
                // Not solved: `query` refuses an empty database, the API answers
                // every position and move as unsolved.
                assert_eq!(at["positionValue"], "unsolved", "{p}");
                assert_eq!(at["remoteness"], -100, "{p}");
                for m in at["moves"].as_array().unwrap() {
                    assert_eq!(m["positionValue"], "unsolved", "{p}");
                    assert_eq!(m["moveValue"], "unsolved", "{p}");
                }
            } else {
                agree(&at, &query_json(&db, game, variant, &module_text(&p)));
            }
            compared += 1;
            let moves = at["moves"].as_array().unwrap();
            if moves.is_empty() {
                break;
            }
            let next = moves[(step * 5 + 1) % moves.len()]["position"]
                .as_str()
                .unwrap()
                .to_string();
            at = position(&server, game, variant, &next);
        }
    }
    assert!(compared >= 40, "{compared} positions compared");
}

#[test]
fn games_variants_and_gamesmanuni_shapes() {
    let dir = solved(
        &host_binary(),
        &[("mtttier", "regular"), ("whirly", "tiny-corner")],
    );
    let server = Server::start(&host_binary(), &["whirly", "mtttier"], &resource(&dir));
    let list = ok_json(&server.get("/api/"), "game list");
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["whirly", "mtttier"], "games in the order given");
    assert_eq!(list[0]["type"], "onePlayer");
    assert_eq!(list[1]["type"], "twoPlayer");
    assert_eq!(list[1]["name"], "Tic-Tac-Toe");
    // GamesmanUni's kinds: an animated image board, or text and a list of moves.
    assert_eq!(list[1]["gui"], "v3");
    assert_eq!(list[0]["gui"], "v3");
    // Without the trailing slash too, and CORS for another origin.
    let r = server.get("/api");
    assert_eq!(r.json(), list);
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    let pre = server.raw(format!(
        "OPTIONS /api/mtttier/ HTTP/1.1\r\nHost: {}\r\nOrigin: http://elsewhere.example\r\nAccess-Control-Request-Method: GET\r\nConnection: close\r\n\r\n",
        server.addr
    ).as_bytes()).unwrap();
    assert!(pre.status < 300, "preflight: {pre:?}");
    assert!(pre
        .header("access-control-allow-methods")
        .is_some_and(|m| m.contains("GET")));

    let whirly = ok_json(&server.get("/api/whirly/"), "whirly");
    assert_eq!(whirly["allowCustomVariantCreation"], false);
    assert_eq!(whirly["supportsWinBy"], false);
    let status: Vec<(String, String)> = whirly["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["id"].as_str().unwrap().into(),
                v["status"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(status.len(), 7);
    for (id, s) in &status {
        let want = if id == "tiny-corner" {
            "solved"
        } else {
            "unsolved"
        };
        assert_eq!(s, want, "status of whirly {id}");
    }

    let v = ok_json(&server.get("/api/mtttier/regular/"), "variant");
    assert_eq!(v["startPosition"], "---------");
    assert_eq!(v["autoguiStartPosition"], "1_---------");
    let image = &v["imageAutoGUIData"];
    assert_eq!(image["defaultTheme"], "regular");
    let theme = &image["themes"]["regular"];
    assert_eq!(theme["background"], "ttt/3x3grid.svg");
    assert_eq!(theme["charImages"]["X"]["image"], "ttt/x.svg");
    assert_eq!(theme["centers"].as_array().unwrap().len(), 9);
    let whirly_image =
        &ok_json(&server.get("/api/whirly/tiny-corner/"), "whirly")["imageAutoGUIData"];
    assert_eq!(
        whirly_image["themes"]["sokoban"]["charImages"]["0"]["image"],
        "sokoban/sokoban_wall.svg"
    );
    assert_eq!(v["status"], "solved");
    assert_eq!(v["board"]["centers"].as_array().unwrap().len(), 9);
    assert_eq!(v["board"]["tokens"]["X"]["glyph"], "X");
    let help = ok_json(
        &server.get("/api/mtttier/regular/instructions/?locale=en"),
        "help",
    );
    assert!(help["instructions"]
        .as_str()
        .unwrap()
        .contains("three in a row"));

    // A position in GamesmanUni's shape (the example's fields, in tic-tac-toe).
    let a = position(&server, "mtttier", "regular", "X-O------");
    assert_eq!(a["autoguiPosition"], "1_X-O------");
    assert_eq!(
        (a["positionValue"].clone(), a["remoteness"].clone()),
        (json!("win"), json!(5))
    );
    let first = &a["moves"][0];
    assert_eq!(first["move"], "4");
    assert_eq!(first["autoguiMove"], "A_x_3_x");
    assert_eq!(first["boardMove"], "A_x_3_x");
    assert_eq!(first["autoguiPosition"], "2_X-OX-----");
    assert_eq!(
        (first["moveValue"].clone(), first["positionValue"].clone()),
        (json!("win"), json!("lose"))
    );
    let last = a["moves"].as_array().unwrap().last().unwrap();
    assert_eq!(
        (last["move"].clone(), last["moveValue"].clone()),
        (json!("2"), json!("lose"))
    );

    // A puzzle: its whole shortest solution; arrows for the pusher.
    let w = ok_json(
        &server.get("/api/whirly/tiny-corner/positions/"),
        "whirly start",
    );
    assert_eq!(w["solution"], json!(["u", "l", "u", "r", "r"]));
    assert!(w["moves"][0]["boardMove"]
        .as_str()
        .unwrap()
        .starts_with("M_"));
    // GamesmanUni draws the arrows, so it keys them by them. Positions come with
    // their walls encoded.
    for m in w["moves"].as_array().unwrap() {
        assert_eq!(m["autoguiMove"], m["boardMove"]);
    }
    assert!(w["position"].as_str().unwrap().starts_with("%23%23"));
    let again = ok_json(
        &server.get(&format!(
            "/api/whirly/tiny-corner/positions/?p={}",
            w["moves"][0]["position"].as_str().unwrap()
        )),
        "a position sent as GamesmanUni sends it",
    );
    assert_eq!(again["position"], w["moves"][0]["position"]);
    // An unsolved variant answers unsolved, with unknown remoteness.
    let u = ok_json(&server.get("/api/whirly/tiny-push/positions/"), "unsolved");
    assert_eq!(
        (u["positionValue"].clone(), u["remoteness"].clone()),
        (json!("unsolved"), json!(-100))
    );
    assert!(u["moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["moveValue"] == "unsolved"));
    assert!(u.get("solution").is_none());
}

#[test]
fn every_bundled_module_draws_consistent_autogui() {
    for name in [
        "mtttier",
        "quixo",
        "mothello",
        "miceblocks",
        "whirly",
        "chess",
        "dodgem",
    ] {
        plugin(name);
    }
    // Nothing solved: values are unsolved, but boards and moves are all there. The
    // server checks every AutoGUI string against its board and answers 500 otherwise.
    let server = Server::start(
        &host_binary(),
        &[
            "mtttier",
            "quixo",
            "mothello",
            "miceblocks",
            "whirly",
            "chess",
            "dodgem",
        ],
        "file:/nonexistent-gamesman-db",
    );
    let games = ok_json(&server.get("/api/"), "list");
    assert_eq!(games.as_array().unwrap().len(), 7);
    for (game, variant, centers) in [
        ("mtttier", "regular", 9),
        // A center per cube, then four per cube on its edges (the arrows' heads).
        ("quixo", "4x4", 80),
        ("quixo", "3x3", 45),
        ("mothello", "4x4", 17),
        ("miceblocks", "base5", 15),
        ("miceblocks", "base2-threes", 3),
        // The floor, then its 2 targets and 20 walls.
        ("whirly", "two-colours", 37),
        ("whirly", "two-pushers", 0),
        ("chess", "KQK", 64),
        ("chess", "KPKP", 64),
        // The cells and the exits above and beside them.
        ("dodgem", "3x3", 16),
        ("dodgem", "5x5", 36),
    ] {
        let v = ok_json(&server.get(&format!("/api/{game}/{variant}/")), game);
        assert!(v["board"].is_object(), "{game} {variant} has AutoGUI");
        let n = v["board"]["centers"].as_array().unwrap().len();
        if centers > 0 {
            assert_eq!(n, centers, "centers of {game} {variant}");
        }
        let mut at = ok_json(
            &server.get(&format!("/api/{game}/{variant}/positions/")),
            game,
        );
        for step in 0..12 {
            let a = at["autoguiPosition"].as_str().unwrap();
            assert!(a.starts_with("1_") || a.starts_with("2_"), "{game}: {a}");
            assert_eq!(a.chars().count() - 2, n, "{game}: {a}");
            let moves = at["moves"].as_array().unwrap();
            if v["imageAutoGUIData"].is_null() {
                // GamesmanUni lists every move and looks a click up by its text.
                for m in moves {
                    assert_eq!(m["autoguiMove"], m["move"], "{game} {variant}");
                }
            }
            let kinds: BTreeSet<&str> = moves
                .iter()
                .map(|m| &m["boardMove"].as_str().unwrap()[..2])
                .collect();
            let allowed: &[&str] = match game {
                "quixo" | "whirly" | "chess" | "dodgem" => &["M_"],
                "mothello" => &["A_", "T_"],
                _ => &["A_"],
            };
            assert!(
                kinds.iter().all(|k| allowed.contains(k)),
                "{game}: {kinds:?}"
            );
            if moves.is_empty() {
                break;
            }
            let next = moves[(step * 3) % moves.len()]["position"]
                .as_str()
                .unwrap()
                .to_string();
            at = position(&server, game, variant, &next);
        }
    }
    // Othello's pass is a button below the board.
    let pass = position(&server, "mothello", "4x4", "BBBB/BBBB/BBWB/BBB-:W");
    assert_eq!(pass["moves"][0]["move"], "pass");
    assert_eq!(pass["moves"][0]["boardMove"], "T_pass_16_x");
    // GamesmanUni draws one-letter buttons only: it lists this one under the board and
    // a click sends its text.
    assert_eq!(pass["moves"][0]["autoguiMove"], "pass");
    // A chess promotion is one arrow for four moves (b7 is center 9, b8 center 1).
    let promo = position(&server, "chess", "KPK", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let arrows: Vec<&str> = promo["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["move"].as_str().unwrap().starts_with("b7b8"))
        .map(|m| m["boardMove"].as_str().unwrap())
        .collect();
    assert_eq!(arrows, ["M_9_1_x"; 4]);
    // GamesmanUni keys moves by autoguiMove: the four share an arrow, so it gets their
    // texts (and lists them); the other moves keep their arrows.
    for m in promo["moves"].as_array().unwrap() {
        let text = m["move"].as_str().unwrap();
        if text.starts_with("b7b8") {
            assert_eq!(m["autoguiMove"], m["move"]);
        } else {
            assert_eq!(m["autoguiMove"], m["boardMove"], "{text}");
        }
    }
}

#[test]
fn the_computer_chooses_as_the_text_player() {
    let dir = solved(
        &host_binary(),
        &[("miceblocks", "base4"), ("mtttier", "regular")],
    );
    let server = Server::start(&host_binary(), &["miceblocks", "mtttier"], &resource(&dir));
    let mut checked_false_hope = 0;
    // Walk base 4 games; at each position check all three modes against the answer.
    for line in 0..6 {
        let mut at = ok_json(&server.get("/api/miceblocks/base4/positions/"), "start");
        for step in 0..10 {
            if at["over"] == true {
                break;
            }
            let p = at["position"].as_str().unwrap().to_string();
            let moves = at["moves"].as_array().unwrap().clone();
            let by = |mode: &str| {
                ok_json(
                    &server.get(&format!(
                        "/api/miceblocks/base4/computer/?p={}&mode={mode}",
                        encode(&p)
                    )),
                    mode,
                )
            };
            let best = &moves[0]["moveValue"];
            let r = by("remoteness");
            assert_eq!(&r["moveValue"], best, "remoteness play at {p}");
            let w = by("winby");
            let top_margin = moves
                .iter()
                .filter(|m| &m["moveValue"] == best)
                .map(|m| m["margin"].as_i64().unwrap())
                .max()
                .unwrap();
            let chosen = moves.iter().find(|m| m["move"] == w["move"]).unwrap();
            assert_eq!(&chosen["moveValue"], best, "WinBy play at {p}");
            assert_eq!(
                chosen["margin"].as_i64().unwrap(),
                top_margin,
                "WinBy play at {p}"
            );
            let f = by("falsehope");
            let wins: Vec<&Value> = moves.iter().filter(|m| m["moveValue"] == "win").collect();
            if let Some(least) = wins.iter().map(|m| m["margin"].as_i64().unwrap()).min() {
                let quickest = wins
                    .iter()
                    .filter(|m| m["margin"].as_i64() == Some(least))
                    .map(|m| m["remoteness"].as_i64().unwrap())
                    .min();
                let expected: BTreeSet<&str> = wins
                    .iter()
                    .filter(|m| {
                        m["margin"].as_i64() == Some(least) && m["remoteness"].as_i64() == quickest
                    })
                    .map(|m| m["move"].as_str().unwrap())
                    .collect();
                let got: BTreeSet<&str> = f["choices"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap())
                    .collect();
                assert_eq!(got, expected, "false hope at {p}");
                checked_false_hope += 1;
            } else {
                assert_eq!(
                    f["choices"], w["choices"],
                    "false hope without a win at {p}"
                );
            }
            let next = moves[(line + step) % moves.len()]["position"]
                .as_str()
                .unwrap()
                .to_string();
            at = position(&server, "miceblocks", "base4", &next);
        }
    }
    assert!(
        checked_false_hope >= 5,
        "{checked_false_hope} positions with wins"
    );
    // Tic-tac-toe has no WinBy: every mode plays by remoteness.
    let c = ok_json(
        &server.get("/api/mtttier/regular/computer/?p=X-O------&mode=falsehope"),
        "mtttier",
    );
    let wins: BTreeSet<&str> = ["4", "7", "9"].into();
    assert!(wins.contains(c["move"].as_str().unwrap()), "{c}");
}

#[test]
fn analysis_agrees_with_analyze_json() {
    let dir = solved(&host_binary(), &[("quixo", "3x3")]);
    let db = resource(&dir);
    let server = Server::start(&host_binary(), &["quixo", "mtttier"], &db);
    let api = ok_json(&server.get("/api/quixo/3x3/analysis/"), "analysis");
    let cli = run_host(
        &host_binary(),
        &[
            "--plugin",
            "quixo",
            "--variant",
            "3x3",
            "analyze",
            "--db",
            &db,
            "--json",
        ],
    );
    cli.assert_success();
    let mut cli: Value = serde_json::from_str(&cli.stdout).unwrap();
    // The server names its database without its path (issue 32): the rest is equal.
    assert_eq!(api["database"], "file:…/quixo_3x3_tierdb");
    cli["database"] = api["database"].clone();
    assert_eq!(api, cli);
    assert_eq!(api["reachable"]["counts"]["by_value"]["tie"], 0);
    let svg = server.get("/api/quixo/3x3/analysis/plot.svg");
    assert_eq!(svg.status, 200);
    assert_eq!(svg.header("content-type"), Some("image/svg+xml"));
    let text = svg.text();
    assert!(
        text.starts_with("<svg") && text.contains("quixo (3x3)"),
        "{}",
        &text[..200]
    );
    // An unsolved variant's analysis has no solved positions to count.
    let empty = ok_json(&server.get("/api/mtttier/symmetric/analysis/"), "unsolved");
    assert_eq!(empty["legal"]["counts"]["total"], 0);
    assert_eq!(empty["unsolved_tiers"].as_array().unwrap().len(), 10);
}
