//! The real binaries on Ice Blocks (built by `cargo build --release --workspace`, found
//! next to this test's executable): the validator passes exhaustively, `query --json`
//! fills WinBy everywhere, and a computer-against-computer `play` in WinBy mode keeps
//! the start's margin (X by 6 points on base 5) at every move.

use std::path::PathBuf;
use std::process::Command;

fn release_dir() -> PathBuf {
    // The test executable lives in <target>/release/deps.
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

fn binaries(tool: &str) -> (PathBuf, PathBuf) {
    let dir = release_dir();
    let (bin, plugin) = (dir.join(tool), dir.join("libmiceblocks.so"));
    assert!(
        bin.exists() && plugin.exists(),
        "build first: cargo build --release --workspace (looked in {})",
        dir.display()
    );
    (bin, plugin)
}

#[test]
fn every_base_validates_exhaustively() {
    let (validate, plugin) = binaries("validate");
    // (variant, tiers, positions): tiers are 0..=cells blocks placed.
    for (variant, tiers, positions) in [
        ("base3-threes", 7, 61),
        ("base5", 16, 23_189),
        ("base6-longest-misere", 22, 1_277_929),
    ] {
        let out = Command::new("timeout")
            .arg("600")
            .arg(&validate)
            .arg("--plugin")
            .arg(&plugin)
            .args(["--variant", variant, "--exhaustive", "--json"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{variant}: {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(json["summary"]["tiers"], tiers, "{variant}: {json}");
        assert_eq!(json["summary"]["errors"], 0, "{variant}: {json}");
        assert_eq!(json["summary"]["ok"], true, "{variant}: {json}");
        let checked: u64 = json["tiers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["checked"].as_u64().unwrap())
            .sum();
        assert_eq!(checked, positions, "{variant}: {json}");
    }
}

#[test]
fn query_json_gives_winby_for_the_position_and_every_move() {
    let (host, plugin) = binaries("host");
    let dir = tempfile::tempdir().unwrap();
    let db = format!("file:{}", dir.path().display());
    let run = |args: &[&str]| {
        let out = Command::new("timeout")
            .arg("120")
            .arg(&host)
            .arg("--plugin")
            .arg(&plugin)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    run(&["solve", "--db", &db]);
    // The start, and a position after X 3, O 2 (X to move, 2 blocks placed).
    for (position, value, winby) in [("", "win", 6), ("-OX--/----/---/--/-", "win", 6)] {
        let mut args = vec!["query", "--db", &db, "--json"];
        if !position.is_empty() {
            args.push(position);
        }
        let json: serde_json::Value = serde_json::from_str(&run(&args)).unwrap();
        assert_eq!(json["value"], value, "{json}");
        assert_eq!(json["winby"], winby, "{json}");
        let moves = json["moves"].as_array().unwrap();
        assert!(!moves.is_empty(), "{json}");
        for m in moves {
            assert!(m["winby"].is_i64(), "{m}");
        }
        // The best move (listed first) keeps the margin.
        assert_eq!(moves[0]["winby"], winby, "{json}");
    }
}

#[test]
fn computer_against_computer_keeps_the_margin_in_winby_mode() {
    let (host, plugin) = binaries("host");
    let script = format!(
        "timeout 300 '{}' --plugin '{}' play --db memory: --first computer --second computer --seed 3 </dev/null 2>/dev/null | head -c 200000",
        host.display(),
        plugin.display()
    );
    let out = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    // Every prediction before a move names the margin 6, for the winner and the loser.
    let predictions: Vec<&str> = text.lines().filter(|l| l.contains("should")).collect();
    assert_eq!(predictions.len(), 15, "{text}");
    for (i, line) in predictions.iter().enumerate() {
        let expected = if i % 2 == 0 {
            "should win by 6 in"
        } else {
            "should lose by 6 in"
        };
        assert!(line.contains(expected), "move {i}: {line}\n{text}");
    }
    // The final score line: X six points ahead.
    let last = text
        .lines()
        .rev()
        .find(|l| l.contains("so far: X "))
        .unwrap_or_else(|| panic!("no score line:\n{text}"));
    let nums: Vec<i64> = last
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(nums[0] - nums[1], 6, "{last}");
    assert!(text.contains("wins by 6 after 15 moves"), "{text}");
}
