//! Every bundled plugin (each crate under `plugins/`) passes the validator in every
//! variant: exhaustively when its tiers hold at most `EXHAUSTIVE_UP_TO` positions,
//! otherwise on a sample of positions in every tier, so CI stays fast for the big games.
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
/// Positions per tier in the first sampled run of every variant: every tier is visited.
const SAMPLE_FEW: &str = "30";
/// Positions per tier in the second sampled run, for variants whose tiers are few
/// enough that it checks at most `SAMPLED_UP_TO` positions. Games with thousands of
/// tiers (Lasker Morris: 2,894; Morabaraba; Quixo 5x5) keep the first run only: 300
/// per tier took Lasker alone 124 s of CI on two cores, and the validator's checks are
/// per position, so a tier's 30 positions exercise the same code as its 300. Nor does
/// Quixo 5x5 (182 tiers): a new process builds each tier's pattern numbering again,
/// and that, not the positions, made its second run 46 s here.
const SAMPLE_MORE: u64 = 300;
/// The most positions the second sampled run may check (seven men's morris, 144 tiers,
/// is the largest that has it).
const SAMPLED_UP_TO: u64 = 45_000;

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
            let json = passes(&plugin, &variant, &["--sample", SAMPLE_FEW]);
            let positions = json["summary"]["positions"].as_u64().expect("a count");
            let tiers = json["summary"]["tiers"].as_u64().expect("a count");
            assert!(tiers > 0, "{name} {variant}: no tiers checked");
            if positions > EXHAUSTIVE_UP_TO && tiers * SAMPLE_MORE <= SAMPLED_UP_TO {
                let more = SAMPLE_MORE.to_string();
                passes(&plugin, &variant, &["--sample", &more]);
            }
            if positions <= EXHAUSTIVE_UP_TO {
                let json = passes(&plugin, &variant, &["--exhaustive"]);
                assert_eq!(json["summary"]["checked_positions"], positions);
            }
        }
    }
}
