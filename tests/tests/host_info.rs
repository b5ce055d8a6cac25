//! End-to-end: `host --plugin mtttier info [--json]` prints mtttier's real metadata.
//!
//! Values are checked against what mtttier declares when linked statically, and against
//! fixed facts of tic-tac-toe (nine cells, empty start board in tier 9), so a host that
//! garbles anything crossing the boundary fails here. This file must not test errors.

use e2e_tests::run::run_host;
use e2e_tests::workspace::{host_binary, plugin, plugin_api_version};
use gamesman_plugin_api::{Game, Tier};
use mtttier::MttTier;
use serde_json::{json, Value};

fn info_json(args: &[&str]) -> Value {
    let mut all = vec!["--plugin", "mtttier"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["info", "--json"]);
    let r = run_host(&host_binary(), &all);
    r.assert_success();
    serde_json::from_str(&r.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", r.describe()))
}

#[test]
fn json_for_the_default_variant() {
    let v = info_json(&[]);
    let game = MttTier::new_for_tests("regular");
    assert_eq!(v["name"], "mtttier");
    assert_eq!(v["authors"], MttTier::AUTHORS);
    assert_eq!(v["description"], MttTier::DESCRIPTION);
    let file = plugin("mtttier").canonicalize().expect("canonical path");
    assert_eq!(v["file"], file.display().to_string());
    assert_eq!(v["api_version"], plugin_api_version());
    assert_eq!(v["host_api_version"], plugin_api_version());
    assert_eq!(v["abi_version"], gamesman_plugin_api::ffi::ABI_VERSION);
    assert_eq!(
        v["variants"],
        json!([
            {"name": "regular", "description": "every board is its own position", "default": true},
            {"name": "symmetric", "description": "boards equal under rotation and reflection are one position (symmetry hook)", "default": false},
        ])
    );
    assert_eq!(v["variant"], "regular");
    assert_eq!(
        v["properties"],
        json!({
            "players": 2,
            "tier_game": true,
            "winby": false,
            "go_again": false,
            "symmetry": false,
            "score": false,
            "max_moves": 9,
            "max_undo_moves": 5,
            "max_tier_children": 1,
            "turn_free": false,
        })
    );
    assert_eq!(
        v["initial_position"],
        json!({
            "tier": 9,
            "tier_name": game.tier_name(Tier(9)),
            "index": 0,
            "text": "---------",
        })
    );
}

#[test]
fn json_for_the_symmetric_variant() {
    let v = info_json(&["--variant", "symmetric"]);
    assert_eq!(v["variant"], "symmetric");
    assert_eq!(v["properties"]["symmetry"], true);
    assert_eq!(v["properties"]["max_moves"], 9);
    assert_eq!(v["initial_position"]["tier"], 9);
    assert_eq!(v["initial_position"]["text"], "---------");
    // The variant list does not depend on the variant opened.
    assert_eq!(v["variants"][0]["default"], true);
    assert_eq!(v["variants"][1]["name"], "symmetric");
}

#[test]
fn json_by_path_and_by_bare_name_agree() {
    let by_name = info_json(&[]);
    let path = plugin("mtttier");
    let r = run_host(
        &host_binary(),
        &["--plugin", path.to_str().expect("utf-8"), "info", "--json"],
    );
    r.assert_success();
    let by_path: Value = serde_json::from_str(&r.stdout).expect("JSON");
    assert_eq!(by_name, by_path);
}

#[test]
fn text_for_people() {
    let r = run_host(
        &host_binary(),
        &["--plugin", "mtttier", "--variant", "symmetric", "info"],
    );
    r.assert_success();
    let out = &r.stdout;
    assert!(
        out.starts_with(&format!("mtttier: {}\n", MttTier::DESCRIPTION)),
        "{out}"
    );
    // The opened variant is marked, the default is labelled.
    assert!(
        out.lines()
            .any(|l| l.trim_start().starts_with("* symmetric")),
        "{out}"
    );
    assert!(
        out.contains("every board is its own position (default)"),
        "{out}"
    );
    assert!(out.contains("initial position: --------- (tier 9"), "{out}");
    assert!(r.stderr.trim().is_empty(), "{}", r.describe());
}
