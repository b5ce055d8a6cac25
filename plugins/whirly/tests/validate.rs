//! The validator passes Whirly's tiny levels exhaustively (drives the real `validate`
//! binary built by `cargo build --release --workspace`).

use std::path::PathBuf;
use std::process::Command;

fn release_dir() -> PathBuf {
    // The test executable lives in target/<profile>/deps.
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

#[test]
fn tiny_levels_validate_exhaustively() {
    let dir = release_dir();
    let validate = dir.join("validate");
    let plugin = dir.join("libwhirly.so");
    assert!(
        validate.exists() && plugin.exists(),
        "build first: cargo build --release --workspace (looked in {})",
        dir.display()
    );
    for level in [
        "tiny-push",
        "tiny-corner",
        "two-colours",
        "stuck",
        "two-pushers",
    ] {
        let out = Command::new("timeout")
            .arg("120")
            .arg(&validate)
            .arg("--plugin")
            .arg(&plugin)
            .args(["--variant", level, "--exhaustive", "--json"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{level}: {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(json["summary"]["tiers"], 1, "{level}: {json}");
        assert_eq!(json["summary"]["errors"], 0, "{level}: {json}");
        assert_eq!(json["summary"]["ok"], true, "{level}: {json}");
    }
}
