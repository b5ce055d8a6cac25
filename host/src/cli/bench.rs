//! `host bench floor`: the module's floor (`engine::floor`) per tier and in total, and
//! with `--solve` the solve of the same tiers beside it. The solve runs as a child
//! process of this same executable (`solve --verify off` into a scratch database that
//! is removed afterwards), so its CPU and peak memory are its own, not the floor's.
//! This file must not solve in-process nor keep anything it writes.

use super::CliError;
use crate::engine::clock::{self, Stopwatch};
use crate::engine::floor::{self, Floor, TierFloor};
use crate::engine::game::GameHandle;
use crate::engine::numbers::count;
use crate::engine::solver::{self, Scope};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What `bench floor` was asked to do.
#[derive(Clone, Debug)]
pub struct FloorArgs {
    /// Which tiers.
    pub scope: Scope,
    /// Also solve them and compare.
    pub solve: bool,
    /// `--threads` as given (passed on to the solve).
    pub threads: Option<usize>,
    /// Worker threads in use.
    pub threads_used: usize,
    /// Print JSON.
    pub json: bool,
}

/// The solve measured beside the floor.
#[derive(Clone, Debug, Serialize)]
pub struct SolveBeside {
    /// CPU of the whole solve process (user + system), in seconds.
    pub cpu_s: f64,
    /// Its wall time, in seconds.
    pub wall_s: f64,
    /// Its peak resident set, in bytes.
    pub peak_bytes: u64,
    /// Positions it solved (its summary's `positions_solved`).
    pub positions_solved: u64,
}

/// `bench floor --json`.
#[derive(Clone, Debug, Serialize)]
pub struct FloorSummary {
    /// The module.
    pub game: String,
    /// The variant.
    pub variant: String,
    /// Worker threads.
    pub threads: usize,
    /// The floor's CPU over all tiers, in seconds.
    pub floor_cpu_s: f64,
    /// The solve's CPU (with `--solve`).
    pub solve_cpu_s: Option<f64>,
    /// Solve CPU over floor CPU (with `--solve`).
    pub ratio: Option<f64>,
    /// The solve (with `--solve`).
    pub solve: Option<SolveBeside>,
    /// Legal canonical positions in all.
    pub canonical: u64,
    /// Positions expanded (neither primitive nor without moves).
    pub expanded: u64,
    /// Their children.
    pub children: u64,
    /// Every tier.
    pub tiers: Vec<TierFloor>,
}

/// Runs `bench floor` on `game`, loaded from `library`.
pub fn run(game: &GameHandle, library: &Path, args: &FloorArgs) -> anyhow::Result<()> {
    let graph = solver::graph_of(game, &args.scope)?;
    if !args.json {
        outln!(
            "floor of {} ({}), {}, {} tier{}, {} thread{}; CPU seconds",
            game.module_name(),
            game.variant(),
            args.scope,
            graph.order.len(),
            if graph.order.len() == 1 { "" } else { "s" },
            args.threads_used,
            if args.threads_used == 1 { "" } else { "s" },
        )?;
        outln!(
            "{:<24} {:>14} {:>14} {:>14} {:>15} {:>8} {:>8} {:>8} {:>8} {:>8}",
            "tier",
            "indices",
            "canonical",
            "expanded",
            "children",
            "scan",
            "children",
            "fused",
            "parents",
            "floor"
        )?;
    }
    let json = args.json;
    let mut failed = None;
    let floor = floor::measure(game, &graph, |t| {
        if !json && failed.is_none() {
            if let Err(e) = outln!("{}", tier_line(t)) {
                failed = Some(e);
            }
        }
    })?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    let solve = if args.solve {
        Some(solve_beside(game, library, args)?)
    } else {
        None
    };
    let ratio = solve
        .as_ref()
        .map(|s| s.cpu_s / floor.floor_cpu_s.max(1e-9));
    if json {
        let summary = FloorSummary {
            game: game.module_name().to_string(),
            variant: game.variant().to_string(),
            threads: args.threads_used,
            floor_cpu_s: floor.floor_cpu_s,
            solve_cpu_s: solve.as_ref().map(|s| s.cpu_s),
            ratio,
            solve,
            canonical: floor.canonical,
            expanded: floor.expanded,
            children: floor.children,
            tiers: floor.tiers,
        };
        outln!("{}", serde_json::to_string_pretty(&summary)?)?;
        return Ok(());
    }
    outln!("{}", total_line(&floor))?;
    if let (Some(s), Some(r)) = (&solve, ratio) {
        outln!(
            "solve (--verify off): {:.3} s CPU, {:.3} s wall, {} MiB peak, {} positions solved: {:.2}x the floor",
            s.cpu_s,
            s.wall_s,
            s.peak_bytes >> 20,
            count(s.positions_solved),
            r
        )?;
    }
    Ok(())
}

fn opt(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:.3}"))
}

fn tier_line(t: &TierFloor) -> String {
    format!(
        "{:<24} {:>14} {:>14} {:>14} {:>15} {:>8.3} {:>8.3} {:>8} {:>8} {:>8.3}",
        crate::engine::messages::shorten(&t.name),
        count(t.indices),
        count(t.canonical),
        count(t.expanded),
        count(t.children),
        t.scan_cpu_s,
        t.children_cpu_s,
        opt(t.fused_cpu_s),
        opt(t.parents_cpu_s),
        t.floor_cpu_s
    )
}

fn total_line(f: &Floor) -> String {
    let sum = |g: fn(&TierFloor) -> Option<f64>| -> Option<f64> {
        f.tiers.iter().map(g).sum::<Option<f64>>()
    };
    format!(
        "{:<24} {:>14} {:>14} {:>14} {:>15} {:>8.3} {:>8.3} {:>8} {:>8} {:>8.3}",
        "total",
        count(f.tiers.iter().map(|t| t.indices).sum()),
        count(f.canonical),
        count(f.expanded),
        count(f.children),
        f.tiers.iter().map(|t| t.scan_cpu_s).sum::<f64>(),
        f.tiers.iter().map(|t| t.children_cpu_s).sum::<f64>(),
        opt(sum(|t| t.fused_cpu_s)),
        opt(sum(|t| t.parents_cpu_s)),
        f.floor_cpu_s
    )
}

/// A scratch directory removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Solves the same tiers in a child process and measures it.
fn solve_beside(
    game: &GameHandle,
    library: &Path,
    args: &FloorArgs,
) -> anyhow::Result<SolveBeside> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let dir = std::env::temp_dir().join(format!(
        "gamesman-bench-floor-{}-{nanos}",
        std::process::id()
    ));
    // create_dir, not create_dir_all: an existing path (or a symlink planted there) is
    // refused, never written through.
    std::fs::create_dir(&dir).map_err(|e| {
        CliError::Usage(format!(
            "cannot make the scratch database {}: {e} (set TMPDIR to a writable directory)",
            dir.display()
        ))
    })?;
    let scratch = Scratch(dir);
    let exe = std::env::current_exe()?;
    let mut cmd = Command::new(exe);
    cmd.arg("--plugin")
        .arg(library)
        .arg("--variant")
        .arg(game.variant())
        .arg("solve")
        .arg("--db")
        .arg(format!("file:{}", scratch.0.display()))
        .args(["--force", "--no-wait", "--verify", "off", "--json"]);
    if let Some(n) = args.threads {
        cmd.arg("--threads").arg(n.to_string());
    }
    match &args.scope {
        Scope::Whole => {}
        Scope::Endgame(k) => {
            cmd.arg("--endgame").arg(k.to_string());
        }
        Scope::Tier(t) => {
            cmd.arg("--tier").arg(t);
        }
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let watch = Stopwatch::children();
    let out = cmd.output()?;
    let (cpu_s, wall_s) = watch.read();
    if !out.status.success() {
        // The solve's own error paragraph (its last lines), or its JSON error.
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let text = if stderr.trim().is_empty() {
            stdout
        } else {
            stderr
        };
        let lines: Vec<&str> = text.trim().lines().collect();
        anyhow::bail!(
            "the solve beside the floor failed ({}):\n{}",
            out.status,
            lines[lines.len().saturating_sub(12)..].join("\n")
        );
    }
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    let positions_solved = summary["positions_solved"].as_u64().unwrap_or(0);
    Ok(SolveBeside {
        cpu_s,
        wall_s,
        peak_bytes: clock::children_peak_bytes(),
        positions_solved,
    })
}
