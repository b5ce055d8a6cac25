//! The module writer's kit end to end: the example module `examples/subtraction.rs`,
//! built as a plugin by `cargo test` (and `cargo build --examples`), is validated and
//! solved by the real `validate` and `host` binaries as a module living outside the
//! bundled plugins would be (`--plugin path/to/lib.so`).
//!
//! The subtraction game (take 1, 2 or 3; taking the last stone wins) is known in closed
//! form: a heap is a loss for the player to move exactly when it is a multiple of 4. The
//! loser of `4k` stones lasts `2k` moves (taking one while the winner takes three); the
//! winner of `4k + r` (r = 1, 2, 3) takes `r` and wins in `2k + 1`.

use std::path::PathBuf;
use std::process::Command;

/// `<target>/release`: the test executable lives in `<target>/release/deps`.
fn release_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

/// The example plugin and the binary `tool`, both built.
fn paths(tool: &str) -> (PathBuf, PathBuf) {
    let dir = release_dir();
    let (bin, plugin) = (dir.join(tool), dir.join("examples/libsubtraction.so"));
    assert!(
        bin.exists() && plugin.exists(),
        "build first: cargo build --release --workspace --examples (looked for {} and {})",
        bin.display(),
        plugin.display()
    );
    (bin, plugin)
}

/// Runs `bin --plugin <example> args...` (bounded by `timeout`) and returns stdout.
fn run(tool: &str, args: &[&str]) -> String {
    let (bin, plugin) = paths(tool);
    let out = Command::new("timeout")
        .arg("120")
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
fn the_example_validates() {
    let json: serde_json::Value =
        serde_json::from_str(&run("validate", &["--exhaustive", "--json"])).unwrap();
    assert_eq!(json["summary"]["ok"], true, "{json}");
    assert_eq!(json["summary"]["errors"], 0, "{json}");
    assert_eq!(json["summary"]["tiers"], 1, "{json}");
    // Its one tier lists itself (the default `tier_children`), but no heap grows
    // again: the report does not call the game loopy.
    assert_eq!(json["tiers"][0]["loopy"], true, "{json}");
    assert_eq!(json["tiers"][0]["cycles"], false, "{json}");
    assert_eq!(json["summary"]["cyclic_tiers"], 0, "{json}");
    let text = run("validate", &["--exhaustive"]);
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("0  0 "))
        .unwrap_or_else(|| panic!("no row for tier 0:\n{text}"));
    assert!(row.contains(" no* "), "{row}");
    assert!(!row.contains(" yes "), "{row}");
    assert!(
        text.contains("loopy tiers:  0 (1 list themselves in tier_children)"),
        "{text}"
    );
}

#[test]
fn the_host_solves_the_example_as_the_closed_form_says() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("file:{}", dir.path().display());
    run("host", &["solve", "--db", &db]);
    // Every heap of 0..=10 stones, either player to move: index 2 * stones + player.
    for stones in 0..=10u64 {
        for two in [0, 1] {
            let position = format!("0:{}", 2 * stones + two);
            let json: serde_json::Value =
                serde_json::from_str(&run("host", &["query", "--db", &db, "--json", &position]))
                    .unwrap();
            let (value, remoteness) = if stones % 4 == 0 {
                ("lose", stones / 2)
            } else {
                ("win", stones / 4 * 2 + 1)
            };
            assert_eq!(json["value"], value, "{stones} stones: {json}");
            assert_eq!(json["remoteness"], remoteness, "{stones} stones: {json}");
        }
    }
    // The start: player one wins by taking 2, leaving 8.
    let json: serde_json::Value =
        serde_json::from_str(&run("host", &["query", "--db", &db, "--json"])).unwrap();
    assert_eq!(json["value"], "win", "{json}");
    assert_eq!(json["remoteness"], 5, "{json}");
    assert_eq!(json["moves"][0]["move"], "2", "{json}");
    assert_eq!(json["moves"][0]["move_value"], "win", "{json}");
}
