//! Every bundled plugin (each crate under `plugins/`) passes the validator in every
//! variant: exhaustively when its tiers hold at most `EXHAUSTIVE_UP_TO` positions,
//! otherwise on a sample of positions per tier, so CI stays fast for the big games.
//!
//! Plugins are discovered from the source tree, so a new plugin is covered as soon as
//! it is added to the workspace.

mod common;

use common::{built, failing_checks, validate_plugin};
use std::path::Path;

/// Above this many positions a variant is only sampled. Chess's 3-piece variants
/// (KQK, KRK: 1,056,768 numbers with both colour orientations and KK) stay under it,
/// as the chess issue asks for their exhaustive validation; about 50 s each here.
const EXHAUSTIVE_UP_TO: u64 = 1_100_000;
/// Positions per tier in the sampled runs.
const SAMPLE: &str = "300";

/// The library name of each plugin crate under `plugins/` (package name, `-` as `_`).
fn bundled_plugins() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../plugins");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|entry| {
            let manifest = entry.ok()?.path().join("Cargo.toml");
            let text = std::fs::read_to_string(manifest).ok()?;
            let name = text.lines().find_map(|l| {
                let value = l.trim().strip_prefix("name")?.trim().strip_prefix('=')?;
                Some(value.trim().trim_matches('"').replace('-', "_"))
            })?;
            Some(name)
        })
        .collect();
    names.sort();
    names
}

fn variants(plugin: &Path) -> Vec<String> {
    gamesman_host::load(plugin.to_str().expect("utf-8"))
        .unwrap_or_else(|e| panic!("{e}"))
        .variant_names()
}

fn passes(plugin: &Path, variant: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["--variant", variant, "--json", "--max-findings", "5"];
    args.extend_from_slice(extra);
    let run = validate_plugin(plugin, &args);
    let json = run.json();
    assert_eq!(
        run.code,
        0,
        "{} variant {variant} {extra:?} fails checks {:?}:\n{}",
        plugin.display(),
        failing_checks(&json),
        run.stdout
    );
    json
}

#[test]
fn every_bundled_plugin_passes_in_every_variant() {
    let names = bundled_plugins();
    assert!(names.contains(&"mtttier".to_string()), "{names:?}");
    for name in names {
        let plugin = built(&format!("lib{name}.so"));
        for variant in variants(&plugin) {
            let json = passes(&plugin, &variant, &["--sample", SAMPLE]);
            let positions = json["summary"]["positions"].as_u64().expect("a count");
            if positions <= EXHAUSTIVE_UP_TO {
                let json = passes(&plugin, &variant, &["--exhaustive"]);
                assert_eq!(json["summary"]["checked_positions"], positions);
            }
        }
    }
}
