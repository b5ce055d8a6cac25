//! The human-readable report: every check with its first findings, the tier table, and
//! at the end the summary (tiers, positions, loopy tiers, width of each DAG level).
//!
//! It renders an `Outcome` and nothing else: no module calls, no decisions about what
//! is wrong.

use crate::outcome::{Outcome, Status};
use gamesman_host::engine::numbers::count;
use std::fmt::Write;

/// Tier rows shown in the text table; `--json` lists every tier.
const MAX_TIER_ROWS: usize = 60;

/// The full text report.
pub fn render(o: &Outcome) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "validate: module {}, variant {} ({})",
        o.module, o.variant, o.plugin
    );
    let how = if o.mode.by_default {
        format!(
            "chosen because the tiers hold {} {} positions",
            if o.mode.kind == "exhaustive" {
                "at most"
            } else {
                "more than"
            },
            count(o.mode.exhaustive_threshold)
        )
    } else {
        "as requested".to_string()
    };
    let _ = match (o.mode.per_tier, o.mode.seed) {
        (Some(n), Some(seed)) => writeln!(
            out,
            "mode: sample of {} random positions per tier, seed {seed} ({how})",
            count(n)
        ),
        _ => writeln!(
            out,
            "mode: exhaustive, every position of every tier ({how})"
        ),
    };
    out.push('\n');
    for c in &o.checks {
        let status = match c.status {
            Status::Pass => "pass".to_string(),
            Status::Report => "report".to_string(),
            Status::Skipped => "skipped".to_string(),
            Status::Fail | Status::Warn => {
                let mut parts = Vec::new();
                if c.errors > 0 {
                    parts.push(plural(c.errors, "error"));
                }
                if c.warnings > 0 {
                    parts.push(plural(c.warnings, "warning"));
                }
                format!(
                    "{} {}",
                    if c.status == Status::Fail {
                        "FAIL"
                    } else {
                        "warn"
                    },
                    parts.join(", ")
                )
            }
        };
        let _ = writeln!(out, "{} {:<16} {status}", c.number, c.name);
        let _ = writeln!(out, "    {}", c.title);
        if let Some(note) = &c.note {
            let _ = writeln!(out, "    ({note})");
        }
        for f in &c.findings {
            let _ = writeln!(out, "  - {f}");
        }
        if c.omitted > 0 {
            let _ = writeln!(
                out,
                "  ... and {} more (raise --max-findings to see them)",
                c.omitted
            );
        }
    }
    render_tiers(o, &mut out);
    render_summary(o, &mut out);
    out
}

fn render_tiers(o: &Outcome, out: &mut String) {
    if o.tiers.is_empty() {
        return;
    }
    let _ = writeln!(out, "\nTiers (initial tier first):");
    let name_width = o
        .tiers
        .iter()
        .take(MAX_TIER_ROWS)
        .map(|t| t.name.chars().count())
        .max()
        .unwrap_or(4)
        .clamp(4, 24);
    let _ = writeln!(
        out,
        "  {:>6}  {:<name_width$}  {:>12}  {:>12}  {:>12}  {:>12}  {:>8}  {:>5}  {:>6}  children",
        "tier", "name", "size", "checked", "legal", "reachable", "density", "level", "loopy"
    );
    for t in o.tiers.iter().take(MAX_TIER_ROWS) {
        let reachable = t.reachable.map_or("-".to_string(), count);
        let density = t
            .density
            .map_or("-".to_string(), |d| format!("{:.1}%", d * 100.0));
        let level = t.level.map_or("-".to_string(), |l| l.to_string());
        let children: Vec<String> = t.children.iter().map(|c| c.to_string()).collect();
        let _ = writeln!(
            out,
            "  {:>6}  {:<name_width$}  {:>12}  {:>12}  {:>12}  {:>12}  {:>8}  {:>5}  {:>6}  {}",
            t.tier,
            t.name,
            count(t.size),
            count(t.checked),
            count(t.legal),
            reachable,
            density,
            level,
            loopy_cell(t),
            children.join(" ")
        );
    }
    if o.tiers.iter().any(|t| t.loopy && t.cycles != Some(true)) {
        let _ = writeln!(
            out,
            "  {}",
            if o.tiers.iter().any(|t| t.cycles == Some(false)) {
                "no*: lists itself in tier_children, but no position of it can return to itself (solved as loopy all the same)"
            } else {
                "listed: lists itself in tier_children; whether its positions can return to themselves is searched in exhaustive runs"
            }
        );
    }
    if o.tiers.len() > MAX_TIER_ROWS {
        let _ = writeln!(
            out,
            "  ... and {} more tiers (--json lists them all)",
            o.tiers.len() - MAX_TIER_ROWS
        );
    }
}

fn render_summary(o: &Outcome, out: &mut String) {
    let s = &o.summary;
    let _ = writeln!(out, "\nSummary:");
    let _ = writeln!(out, "  tiers:        {}", count(s.tiers as u64));
    let _ = writeln!(
        out,
        "  positions:    {} (sum of tier sizes)",
        count(s.positions)
    );
    let _ = writeln!(
        out,
        "  checked:      {} positions, {} of them legal",
        count(s.checked_positions),
        count(s.legal_positions)
    );
    if let Some(r) = s.reachable_positions {
        let _ = writeln!(
            out,
            "  reachable:    {} positions from the initial position",
            count(r)
        );
    }
    match s.cyclic_tiers {
        Some(c) if c != s.loopy_tiers => {
            let _ = writeln!(
                out,
                "  loopy tiers:  {c} ({} list themselves in tier_children)",
                s.loopy_tiers
            );
        }
        _ => {
            let _ = writeln!(out, "  loopy tiers:  {}", s.loopy_tiers);
        }
    }
    match (&s.level_widths, &s.cycle) {
        (Some(widths), _) => {
            let shown: Vec<String> = widths.iter().map(|w| w.to_string()).collect();
            let _ = writeln!(
                out,
                "  DAG levels:   {}; tiers per level (level 0, solved first, on the left): {}",
                widths.len(),
                shown.join(" ")
            );
            let _ = writeln!(
                out,
                "  at once:      up to {} solvable in parallel (the widest level)",
                plural(*widths.iter().max().unwrap_or(&0) as u64, "tier")
            );
        }
        (None, Some(cycle)) => {
            let shown: Vec<String> = cycle.iter().map(|t| t.to_string()).collect();
            let _ = writeln!(
                out,
                "  DAG levels:   none, the tier graph has a cycle ({})",
                shown.join(" -> ")
            );
        }
        (None, None) => {
            let _ = writeln!(
                out,
                "  DAG levels:   unknown (the tier graph could not be built)"
            );
        }
    }
    let failing: Vec<String> = o
        .checks
        .iter()
        .filter(|c| c.errors > 0)
        .map(|c| format!("{} {}", c.number, c.name))
        .collect();
    if s.ok {
        let warned = if s.warnings > 0 {
            format!(" ({})", plural(s.warnings, "warning"))
        } else {
            String::new()
        };
        let _ = writeln!(out, "  result:       OK, no errors{warned}");
    } else {
        let _ = writeln!(
            out,
            "  result:       {} in check{} {}",
            plural(s.errors, "error"),
            if failing.len() == 1 { "" } else { "s" },
            failing.join(", ")
        );
    }
}

fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The tier table's loopy cell: `yes` (a cycle of positions found), `no*` (listed
/// without a cycle), `listed` (listed, not searched), `no` (not listed).
fn loopy_cell(t: &crate::outcome::TierReport) -> &'static str {
    match (t.loopy, t.cycles) {
        (false, _) => "no",
        (true, Some(true)) => "yes",
        (true, Some(false)) => "no*",
        (true, None) => "listed",
    }
}
