//! `host solve` then `host query --json` on a Whirly level: the printed shortest
//! solution, replayed through the module's own `text_to_move` and `do_move`, ends in a
//! solved position after exactly the stored number of moves. Drives the real binaries.

use gamesman_plugin_api::{Game, Value};
use std::path::PathBuf;
use std::process::Command;
use whirly::Whirly;

fn release_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

fn host(args: &[&str]) -> String {
    let out = Command::new("timeout")
        .arg("120")
        .arg(release_dir().join("host"))
        .args(["--plugin", "whirly"])
        .args(args)
        // The built module, not one the user installed; never the user's databases.
        .env_remove("GAMESMAN_PLUGIN_PATH")
        .env_remove("GAMESMAN_DB")
        .env("XDG_DATA_HOME", release_dir().join("e2e-data-home"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn query_prints_a_shortest_solution_that_solves_the_level() {
    assert!(
        release_dir().join("host").exists(),
        "build first: cargo build --release --workspace"
    );
    let dir = tempfile::tempdir().unwrap();
    let db = format!("file:{}", dir.path().display());
    for (level, length) in [("two-colours", 10), ("warehouse", 21), ("tiny-corner", 5)] {
        host(&["--variant", level, "solve", "--db", &db]);
        let json: serde_json::Value =
            serde_json::from_str(&host(&["--variant", level, "query", "--db", &db, "--json"]))
                .unwrap();
        // A puzzle's value is named as the text names it.
        assert_eq!(json["value"], "solvable", "{level}");
        assert_eq!(json["remoteness"], length, "{level}");
        let moves: Vec<String> = json["solution"]
            .as_array()
            .expect("a solution for a solvable puzzle")
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        assert_eq!(moves.len(), length as usize, "{level}");
        let w = Whirly::open(level).unwrap();
        let mut p = w.start();
        for (i, m) in moves.iter().enumerate() {
            assert_eq!(
                w.primitive(p),
                Value::UNDECIDED,
                "{level}: solved early at move {i}"
            );
            p = w.do_move(p, w.text_to_move(p, m).unwrap());
        }
        assert_eq!(
            w.primitive(p),
            Value::WIN,
            "{level}: not solved after {moves:?}"
        );
    }
    // An unsolvable level has no solution line.
    host(&["--variant", "stuck", "solve", "--db", &db]);
    let json: serde_json::Value = serde_json::from_str(&host(&[
        "--variant",
        "stuck",
        "query",
        "--db",
        &db,
        "--json",
    ]))
    .unwrap();
    assert!(json.get("solution").is_none());
    assert_eq!(json["value"], "unsolvable");
}
