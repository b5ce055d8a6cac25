//! The validator passes 4x4 exhaustively (drives the real `validate` binary built by
//! `cargo build --release --workspace`, found next to this test's executable).

use std::path::PathBuf;
use std::process::Command;

fn release_dir() -> PathBuf {
    // The test executable lives in <target>/release/deps.
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

#[test]
fn four_by_four_validates_exhaustively() {
    let dir = release_dir();
    let validate = dir.join("validate");
    let plugin = dir.join("libmothello.so");
    assert!(
        validate.exists() && plugin.exists(),
        "build first: cargo build --release --workspace (looked in {})",
        dir.display()
    );
    let out = Command::new("timeout")
        .arg("900")
        .arg(&validate)
        .arg("--plugin")
        .arg(&plugin)
        .args(["--variant", "4x4", "--exhaustive", "--json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["summary"]["tiers"], 13, "{json}");
    assert_eq!(json["summary"]["errors"], 0, "{json}");
    assert_eq!(json["summary"]["ok"], true, "{json}");
}
