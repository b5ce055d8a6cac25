//! What the quixo benchmarks share: finding the release directory they run from, and
//! building the binaries they time into it. This file must not measure anything.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `<target>/release` directory holding this benchmark (which runs as
/// `<target>/release/deps/NAME-HASH`).
pub fn release_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the benchmark's own path");
    exe.parent()
        .and_then(Path::parent)
        .expect("the benchmark lives in <target>/release/deps")
        .to_path_buf()
}

/// Runs `cargo build --release ARGS` into the target directory holding `release`;
/// exits the benchmark when the build fails.
pub fn build(release: &Path, args: &[&str]) {
    let target = release.parent().expect("<target>/release");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    eprintln!("cargo build --release {} ...", args.join(" "));
    let ok = Command::new(cargo)
        .arg("build")
        .arg("--release")
        .args(args)
        .env("CARGO_TARGET_DIR", target)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("the build failed");
        std::process::exit(1);
    }
}
