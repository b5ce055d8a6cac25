//! An exhaustive run checks a symmetric module's orbit answers against a walk of each
//! tier (issue 52, F6): tic-tac-toe with lying `orbit_size` / `orbit_by_turn`
//! (`tests/fixtures/broken_orbits`) fails check 7 (symmetry) with exit code 1, naming
//! the canonical position, what the module said and what the walk found; the honest
//! control passes; a sampled run does not walk.

mod common;

use common::{check, failing_checks, fixture, validate_plugin};
use serde_json::Value;

fn run(variant: &str, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["--variant", variant, "--json"];
    args.extend_from_slice(extra);
    let r = validate_plugin(&fixture("orbits"), &args);
    let code = r.code;
    (code, r.json())
}

#[test]
fn honest_orbit_answers_pass() {
    let (code, json) = run("honest", &["--exhaustive"]);
    assert_eq!(code, 0, "{json:#}");
    assert_eq!(json["summary"]["errors"], 0);
}

#[test]
fn every_lie_is_caught_by_the_walk() {
    for (variant, key) in [
        // The empty board's class is one position; with one X, the corner class is 4.
        ("doubled", "orbit_size gives 8, but 4 legal positions"),
        ("wrong-player", "orbit_by_turn gives 0 with player one and 1 with player two to move, but the walk finds 1 and 0"),
        ("one-moved", "orbit_by_turn gives 1 with player one and 3 with player two to move, but the walk finds 0 and 4"),
        ("huge", "orbit_size gives 4611686018427387904, but 1 legal positions"),
    ] {
        let (code, json) = run(variant, &["--exhaustive"]);
        assert_eq!(code, 1, "{variant}: {json:#}");
        assert_eq!(failing_checks(&json), ["symmetry"], "{variant}");
        let c = check(&json, "symmetry");
        let found = c["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["problem"].as_str().is_some_and(|p| p.contains(key)));
        assert!(found, "{variant}: no finding says {key:?}: {c:#}");
    }
}

#[test]
fn a_sampled_run_does_not_walk_the_tiers() {
    let (code, json) = run("one-moved", &["--sample", "5"]);
    assert_eq!(code, 0, "{json:#}");
}
