//! End-to-end: `solve --json` reports the CPU and wall time of the run and of every tier
//! (issue 50 item 4), so parallel work lost to waiting shows. Tiers solved side by side
//! share their group's CPU figure; a tier solved alone has its own. The real `host`
//! solves dodgem 4x4 (groups of one to six tiers) and the one-tier whirly level
//! `warehouse` on two threads. No timing target is asserted, only what must hold
//! between the figures whatever the machine's speed.

use e2e_tests::run::{run, DEFAULT_TIMEOUT};
use e2e_tests::workspace::{host_binary, plugin};
use serde_json::Value as Json;
use std::process::Command;

/// The `solve --json` report of `game --variant variant` on two threads.
fn solve(game: &str, variant: &str) -> Json {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut cmd = Command::new(host_binary());
    cmd.arg("--plugin")
        .arg(plugin(game))
        .args(["--variant", variant, "solve", "--threads", "2", "--json"])
        .arg("--db")
        .arg(format!("file:{}", dir.path().display()))
        .env("RUST_LOG", "warn");
    let out = run(cmd, DEFAULT_TIMEOUT);
    out.assert_success();
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout))
}

fn f(v: &Json) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("a number: {v}"))
}

/// Checks what must hold between the figures; returns the tiers' entries.
fn consistent(report: &Json) -> Vec<Json> {
    assert_eq!(report["threads"], 2, "{report}");
    let (wall, cpu) = (f(&report["seconds"]), f(&report["cpu_seconds"]));
    assert!(cpu > 0.0 && wall > 0.0, "{report}");
    let tiers = report["memory"]
        .as_array()
        .expect("per-tier entries")
        .clone();
    assert_eq!(tiers.len() as u64, report["tiers_solved"], "{report}");
    // Entries come group by group: `group_tiers` consecutive ones share the group's
    // CPU and wall time.
    let mut i = 0;
    let mut groups_cpu = 0.0;
    while i < tiers.len() {
        let n = tiers[i]["group_tiers"].as_u64().expect("a count") as usize;
        assert!(n >= 1 && i + n <= tiers.len(), "{report}");
        let group = &tiers[i..i + n];
        let (group_cpu, group_wall) = (
            f(&group[0]["cpu_seconds"]),
            f(&group[0]["group_wall_seconds"]),
        );
        for t in group {
            assert_eq!(t["group_tiers"], n as u64, "{t}");
            assert_eq!(f(&t["cpu_seconds"]), group_cpu, "{t}");
            assert_eq!(f(&t["group_wall_seconds"]), group_wall, "{t}");
            let own = f(&t["wall_seconds"]);
            assert!(own > 0.0 && own <= group_wall, "{t}");
        }
        // Two workers and the waiting main thread at most.
        assert!(
            group_cpu >= 0.0 && group_cpu <= 3.0 * group_wall + 0.05,
            "{group:?}"
        );
        assert!(group_wall <= wall, "{report}");
        groups_cpu += group_cpu;
        i += n;
    }
    assert!(groups_cpu <= cpu + 1e-6, "{groups_cpu} > {cpu}: {report}");
    tiers
}

#[test]
fn every_tier_has_its_wall_time_and_its_groups_cpu() {
    let report = solve("dodgem", "4x4");
    let tiers = consistent(&report);
    assert_eq!(tiers.len(), 15, "{report}");
    let sizes: Vec<u64> = tiers
        .iter()
        .map(|t| t["group_tiers"].as_u64().unwrap())
        .collect();
    assert!(
        sizes.contains(&1) && sizes.iter().any(|&n| n > 1),
        "{sizes:?}"
    );
}

#[test]
fn a_tier_solved_alone_has_the_runs_cpu() {
    let report = solve("whirly", "warehouse");
    let tiers = consistent(&report);
    assert_eq!(tiers.len(), 1, "{report}");
    let tier_cpu = f(&tiers[0]["cpu_seconds"]);
    // Discovering and planning one tier costs little beside solving its 81,900
    // positions: most of the run's CPU is the tier's.
    assert!(
        tier_cpu >= 0.5 * f(&report["cpu_seconds"]),
        "{tier_cpu}: {report}"
    );
}
