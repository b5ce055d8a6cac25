//! Two things GamesmanClassic's own modules do that Classic tolerates, and the Classic
//! layer must too (issue 29): undo moves answered towards the position's own non-loopy
//! tier, which Classic's tier solver never asks (Classic's `mbaghchal`, `mtttwo`), and
//! move texts padded with a leading space that no `ValidTextInput` reads (`mbeeline`'s
//! `" 7 11"`). `tests/c-modules/classic_tier.c` built with `-DCLASSIC_QUIRKS` does
//! both; `validate` must pass every check on it (before the layer's fixes its undo-moves
//! and text-round-trip checks failed). This file must not test anything else.

use e2e_tests::cbuild::build_classic_module;
use e2e_tests::run::run;
use e2e_tests::workspace::artifact_dir;
use serde_json::Value as Json;
use std::process::Command;
use std::time::Duration;

#[test]
fn a_tier_module_with_classics_tolerated_quirks_validates() {
    let lib = build_classic_module(
        "tests/c-modules/classic_tier.c",
        "classic_tier_quirks",
        &["-DCLASSIC_QUIRKS"],
    );
    let mut cmd = Command::new(artifact_dir().join("validate"));
    cmd.args([
        "--plugin",
        &lib.display().to_string(),
        "--exhaustive",
        "--json",
    ]);
    let r = run(cmd, Duration::from_secs(120));
    assert!(r.status.success(), "validate must pass:\n{}", r.describe());
    let j: Json = serde_json::from_str(&r.stdout).expect("validate's JSON");
    let status = |name: &str| {
        j["checks"]
            .as_array()
            .and_then(|a| a.iter().find(|c| c["name"] == name))
            .map(|c| c["status"].as_str().unwrap_or("").to_string())
            .unwrap_or_default()
    };
    // Tic-tac-toe by tiers: 5,478 boards reachable, as without the quirks.
    assert_eq!(j["summary"]["reachable_positions"], 5478, "{}", r.stdout);
    assert_eq!(status("undo-moves"), "pass", "{}", r.stdout);
    assert_eq!(status("text-round-trip"), "pass", "{}", r.stdout);
}
