//! The real binaries on the forward-only Dodgem module (built by `cargo build --release
//! --workspace`, found next to this test's executable): the validator passes every
//! check that applies and says the undo-move check does not; `solve` and `query
//! --json` give the first player's win in 19 with a3-b3 the only winning opening; a
//! computer-against-computer `play` ends that way; and 4x4 is a draw.

use std::path::PathBuf;
use std::process::Command;

fn release_dir() -> PathBuf {
    // The test executable lives in <target>/release/deps.
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

fn binaries(tool: &str) -> (PathBuf, PathBuf) {
    let dir = release_dir();
    let (bin, plugin) = (dir.join(tool), dir.join("libdodgem.so"));
    assert!(
        bin.exists() && plugin.exists(),
        "build first: cargo build --release --workspace (looked in {})",
        dir.display()
    );
    (bin, plugin)
}

/// Runs `tool --plugin libdodgem.so args...` (bounded by `timeout`), returns stdout.
fn run(tool: &str, args: &[&str]) -> String {
    let (bin, plugin) = binaries(tool);
    let out = Command::new("timeout")
        .arg("300")
        .arg(&bin)
        .arg("--plugin")
        .arg(&plugin)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{tool} {args:?}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn both_boards_validate_exhaustively_without_undo_moves() {
    // (variant, tiers, positions, reachable): the reachable counts are the brute
    // force's in tests/solve.rs.
    for (variant, tiers, positions, reachable) in
        [("3x3", 8, 2_844, 1_963), ("4x4", 15, 555_984, 393_900)]
    {
        let out = run(
            "validate",
            &["--variant", variant, "--exhaustive", "--json"],
        );
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        let summary = &json["summary"];
        assert_eq!(summary["ok"], true, "{variant}: {summary}");
        assert_eq!(summary["errors"], 0, "{variant}: {summary}");
        assert_eq!(summary["tiers"], tiers, "{variant}: {summary}");
        assert_eq!(
            summary["checked_positions"], positions,
            "{variant}: {summary}"
        );
        assert_eq!(
            summary["reachable_positions"], reachable,
            "{variant}: {summary}"
        );
        let status = |name: &str| {
            json["checks"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["name"] == name)
                .map(|c| c["status"].as_str().unwrap().to_string())
                .unwrap()
        };
        assert_eq!(status("undo-moves"), "skipped", "{variant}");
        for check in [
            "tier-graph",
            "children",
            "primitive",
            "text-round-trip",
            "turn",
        ] {
            assert_eq!(status(check), "pass", "{variant} {check}");
        }
    }
}

#[test]
fn solve_and_query_give_the_first_players_win_in_19() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("file:{}", dir.path().display());
    let solved = run("host", &["solve", "--db", &db]);
    assert!(
        solved.contains("initial position B--/B--/-RR:B: win in 19"),
        "{solved}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&run("host", &["query", "--db", &db, "--json"])).unwrap();
    assert_eq!(json["value"], "win", "{json}");
    assert_eq!(json["remoteness"], 19, "{json}");
    // Only driving the outer car (a3) forward wins; the other openings lose.
    let moves: Vec<(String, String, u64)> = json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["move_value"].as_str().unwrap().to_string(),
                m["remoteness"].as_u64().unwrap(),
            )
        })
        .collect();
    let expected = [
        ("a3-b3", "win", 18),
        ("a2-b2", "lose", 17),
        ("a2-a1", "lose", 15),
    ];
    let expected: Vec<(String, String, u64)> = expected
        .iter()
        .map(|&(m, v, r)| (m.to_string(), v.to_string(), r))
        .collect();
    assert_eq!(moves, expected, "{json}");

    // A position typed by hand: Blue's last car on c2 drives off and wins at once.
    let json: serde_json::Value = serde_json::from_str(&run(
        "host",
        &["query", "--db", &db, "--json", "---/--B/-RR:B"],
    ))
    .unwrap();
    assert_eq!(
        (&json["value"], &json["remoteness"]),
        (&"win".into(), &1.into()),
        "{json}"
    );
}

#[test]
fn perfect_play_on_3x3_ends_in_blues_win_after_19_moves() {
    let (host, plugin) = binaries("host");
    let script = format!(
        "timeout 120 '{}' --plugin '{}' play --db memory: --first computer --second computer --seed 5 </dev/null 2>/dev/null | head -c 200000",
        host.display(),
        plugin.display()
    );
    let out = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Game over: Player 1 (computer) wins after 19 moves."),
        "{text}"
    );
    assert!(text.contains("Player 1 (computer) plays a3-b3"), "{text}");
}

#[test]
fn four_by_four_is_a_draw() {
    let json: serde_json::Value = serde_json::from_str(&run(
        "host",
        &["query", "--variant", "4x4", "--db", "memory:", "--json"],
    ))
    .unwrap();
    assert_eq!(json["position"], "B---/B---/B---/-RRR:B", "{json}");
    assert_eq!(json["value"], "draw", "{json}");
    // Every opening keeps the draw or loses; none wins.
    let moves = json["moves"].as_array().unwrap();
    assert!(!moves.is_empty(), "{json}");
    assert_eq!(moves[0]["move_value"], "draw", "{json}");
    assert!(moves.iter().all(|m| m["move_value"] != "win"), "{json}");
}
