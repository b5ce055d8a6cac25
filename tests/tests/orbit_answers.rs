//! `analyze --every-position` checks the module's orbit answers (issue 52, F6): with
//! tic-tac-toe whose `orbit_size` / `orbit_by_turn` lie (`tests/fixtures/broken_orbits`)
//! it fails as a module error naming the answer, instead of printing wrong counts:
//! doubled classes (about twice tic-tac-toe's 5,478 legal positions), classes under
//! the wrong player, and classes of 2^62 positions (whose totals wrapped). The honest
//! control counts tic-tac-toe's 5,478 legal positions exactly as the plain mtttier,
//! which has no symmetry, counts them.

use e2e_tests::run::{run_host, RunOutput};
use e2e_tests::workspace::{host_binary, plugin};
use serde_json::Value;

fn host(args: &[&str]) -> RunOutput {
    run_host(&host_binary(), args)
}

/// Solves `variant` of the fixture into a fresh database; returns it and its resource.
fn solved(variant: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let resource = format!("file:{}", dir.path().display());
    let lib = plugin("fixture_broken_orbits").display().to_string();
    host(&[
        "--plugin",
        &lib,
        "--variant",
        variant,
        "solve",
        "--db",
        &resource,
    ])
    .assert_success();
    (dir, resource)
}

fn analyze(variant: &str, resource: &str) -> RunOutput {
    let lib = plugin("fixture_broken_orbits").display().to_string();
    host(&[
        "--plugin",
        &lib,
        "--variant",
        variant,
        "analyze",
        "--every-position",
        "--db",
        resource,
        "--json",
    ])
}

#[test]
fn honest_orbits_count_every_tic_tac_toe_position() {
    let (_dir, resource) = solved("honest");
    let r = analyze("honest", &resource);
    r.assert_success();
    let a: Value = serde_json::from_str(&r.stdout).unwrap();
    // Every legal tic-tac-toe board, each under its own player to move, as the plain
    // (unsymmetric) mtttier counts them.
    let plain = tempfile::tempdir().unwrap();
    let plain_db = format!("file:{}", plain.path().display());
    host(&["--plugin", "mtttier", "solve", "--db", &plain_db]).assert_success();
    let m = host(&[
        "--plugin", "mtttier", "analyze", "--db", &plain_db, "--json",
    ]);
    m.assert_success();
    let m: Value = serde_json::from_str(&m.stdout).unwrap();
    assert_eq!(a["legal"]["counts"]["total"], 5478);
    assert_eq!(a["legal"]["counts"], m["legal"]["counts"]);
}

#[test]
fn lying_orbit_answers_are_a_module_error_not_counts() {
    for (variant, key) in [
        ("doubled", "orbit_size"),
        ("wrong-player", "none with its own player to move"),
        ("huge", "more than its tier's"),
    ] {
        let (_dir, resource) = solved(variant);
        let r = analyze(variant, &resource);
        let msg = r.assert_json_failure("module", 3);
        assert!(
            msg.contains(key) && msg.contains("broken_orbits"),
            "{variant}: the error names the answer ({key}):\n{msg}"
        );
    }
}

#[test]
fn doubled_orbits_that_each_fit_their_tier_are_caught_by_the_tiers_sum() {
    // Each doubled class (8 of the 9 boards with one X, ...) still fits its tier; the
    // tier's sum does not.
    let (_dir, resource) = solved("doubled");
    let msg = analyze("doubled", &resource).assert_json_failure("module", 3);
    assert!(msg.contains("its classes add up to"), "{msg}");
}
