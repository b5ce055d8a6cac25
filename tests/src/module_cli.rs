//! The host and validator commands that the C module tests run on a built module
//! library (solve in memory, query, analyze, exhaustive validate), each asserted to
//! succeed and read as JSON. Shared by `c_modules` and `classic_turns`; it must not
//! hold any game's expected values.

use crate::run::{run, run_host, RunOutput, DEFAULT_TIMEOUT};
use crate::workspace::{artifact_dir, host_binary};
use serde_json::Value as Json;
use std::path::Path;
use std::process::Command;

/// The library's path as a command-line argument.
pub fn path(lib: &Path) -> &str {
    lib.to_str().expect("utf-8 path")
}

/// `host --plugin LIB ARGS...`, asserted to succeed.
pub fn host(lib: &Path, args: &[&str]) -> RunOutput {
    let mut all = vec!["--plugin", path(lib)];
    all.extend_from_slice(args);
    let r = run_host(&host_binary(), &all);
    r.assert_success();
    r
}

/// A run's standard output as JSON.
pub fn json(r: &RunOutput) -> Json {
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", r.describe()))
}

/// `host query --db memory: --json` (solving first) at `position` (default: the start).
pub fn query(lib: &Path, variant: &str, position: Option<&str>) -> Json {
    let mut args = vec!["--variant", variant, "query", "--db", "memory:", "--json"];
    args.extend(position);
    json(&host(lib, &args))
}

/// `host analyze --db memory: --json` of `variant`.
pub fn analyze(lib: &Path, variant: &str) -> Json {
    json(&host(
        lib,
        &["--variant", variant, "analyze", "--db", "memory:", "--json"],
    ))
}

/// `validate --exhaustive --json`, asserted to pass with no errors; returns its report.
pub fn validate(lib: &Path, variant: &str) -> Json {
    let mut cmd = Command::new(artifact_dir().join("validate"));
    cmd.args([
        "--plugin",
        path(lib),
        "--variant",
        variant,
        "--exhaustive",
        "--json",
    ]);
    let r = run(cmd, DEFAULT_TIMEOUT);
    assert!(r.status.success(), "validate must pass:\n{}", r.describe());
    let j = json(&r);
    assert_eq!(j["summary"]["ok"], true, "{}", r.stdout);
    assert_eq!(j["summary"]["errors"], 0, "{}", r.stdout);
    j
}
