//! Shared helpers for the validator's integration tests: where the built binary and
//! plugins are, and how to run the validator and read its output.
//!
//! Plugins are found next to the test executable's profile directory (the test runs
//! from `target/<profile>/deps/`); nothing here builds anything.

#![allow(dead_code)]

use serde_json::Value;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `target/<profile>/`, where `cargo build --workspace` puts binaries and plugins.
pub fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test executable's path");
    exe.parent()
        .and_then(|deps| deps.parent())
        .expect("the test executable lives in target/<profile>/deps/")
        .to_path_buf()
}

/// A built file in the profile directory, or a panic saying how to build it.
pub fn built(file: &str) -> PathBuf {
    let path = profile_dir().join(file);
    assert!(
        path.is_file(),
        "{} is missing: run `cargo build --release --workspace` first (or `cargo build --workspace` for a debug test run)",
        path.display()
    );
    path
}

/// The plugin of a broken-module fixture (`tests/fixtures/broken_<name>`).
pub fn fixture(name: &str) -> PathBuf {
    built(&format!("libfixture_broken_{name}.so"))
}

/// The mtttier plugin.
pub fn mtttier() -> PathBuf {
    built("libmtttier.so")
}

/// What one run of the validator gave.
pub struct Run {
    /// Exit code.
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    /// Standard output parsed as JSON (for `--json` runs).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e}):\n{}\nstderr:\n{}",
                self.stdout, self.stderr
            )
        })
    }
}

/// Longest a single validator run may take before the test kills it.
const RUN_LIMIT: Duration = Duration::from_secs(600);

/// Runs the validator with `args`, killing it after `RUN_LIMIT`.
pub fn validate(args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_validate"))
        .args(args)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the validate binary runs");
    // Read both pipes while waiting, so a full pipe never stalls the child.
    fn drain(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
        std::thread::spawn(move || {
            let mut text = String::new();
            pipe.read_to_string(&mut text).ok();
            text
        })
    }
    let out = drain(child.stdout.take().expect("stdout"));
    let err = drain(child.stderr.take().expect("stderr"));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for validate") {
            break status;
        }
        if start.elapsed() > RUN_LIMIT {
            child.kill().ok();
            panic!("validate {args:?} ran longer than {RUN_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status
            .code()
            .expect("validate exited (not killed by a signal)"),
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
    }
}

/// Runs the validator on a plugin file with extra arguments.
pub fn validate_plugin(plugin: &std::path::Path, extra: &[&str]) -> Run {
    let p = plugin.to_str().expect("a UTF-8 path");
    let mut args = vec!["--plugin", p];
    args.extend_from_slice(extra);
    validate(&args)
}

/// The JSON object of the check named `name`.
pub fn check<'a>(json: &'a Value, name: &str) -> &'a Value {
    json["checks"]
        .as_array()
        .expect("checks is an array")
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no check named {name}"))
}

/// Names of the checks whose status is `fail`.
pub fn failing_checks(json: &Value) -> Vec<String> {
    json["checks"]
        .as_array()
        .expect("checks is an array")
        .iter()
        .filter(|c| c["status"] == "fail")
        .map(|c| c["name"].as_str().expect("a name").to_string())
        .collect()
}
