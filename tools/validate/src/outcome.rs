//! The result of a validation run as data: checks with their findings, per-tier sizes
//! and counts, and the summary. It serializes to the `--json` output as it is, and the
//! text report and the DOT file are drawn from it.
//!
//! Field names are part of the JSON interface that scripts and tests read: rename
//! nothing without need. This file must not call into the module or print anything.

use crate::findings::{Check, CheckFindings, Finding};
use serde::Serialize;

/// Everything a run found out.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// The module's name.
    pub module: String,
    /// The variant checked.
    pub variant: String,
    /// The file the module was loaded from.
    pub plugin: String,
    /// How positions were chosen.
    pub mode: Mode,
    /// What the module declares about the variant.
    pub properties: Properties,
    /// The eight checks, in order.
    pub checks: Vec<CheckReport>,
    /// The reachable tiers, initial tier first (breadth first).
    pub tiers: Vec<TierReport>,
    /// The totals.
    pub summary: Summary,
}

/// How positions were chosen.
#[derive(Clone, Debug, Serialize)]
pub struct Mode {
    /// `exhaustive` or `sample`.
    pub kind: &'static str,
    /// Whether the kind was chosen by the size threshold (not by an option).
    pub by_default: bool,
    /// Positions per tier, when sampling.
    pub per_tier: Option<u64>,
    /// The sample's seed, when sampling.
    pub seed: Option<u64>,
    /// Most positions for which exhaustive is the default.
    pub exhaustive_threshold: u64,
}

/// The properties a module declares (the subset the checks depend on).
#[derive(Clone, Debug, Serialize)]
pub struct Properties {
    /// 2, or 1 for a puzzle.
    pub players: u8,
    /// Whether it defines real tiers.
    pub is_tier_game: bool,
    /// Whether WinBy is meaningful.
    pub supports_winby: bool,
    /// Whether a move may leave the same player to move.
    pub go_again: bool,
    /// Whether it has a symmetry hook.
    pub has_symmetry: bool,
    /// Capacity of one move list.
    pub max_moves: u32,
    /// Capacity of one undo-move list.
    pub max_undo_moves: u32,
    /// Capacity of one tier-children list.
    pub max_tier_children: u32,
    /// Whether it gives undo moves (false: forward-only).
    pub undo_moves: bool,
    /// Whether its positions do not record whose turn it is (plugin-api 0.1.5): the
    /// turn check then does not compare a child's turn with its parent's.
    pub turn_free: bool,
}

/// How a check came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Nothing found.
    Pass,
    /// Errors found.
    Fail,
    /// Only warnings found.
    Warn,
    /// A report rather than a pass/fail check (check 8).
    Report,
    /// Not run (see the note).
    Skipped,
}

/// One check's result.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// 1-8.
    pub number: u8,
    /// Stable short name.
    pub name: &'static str,
    /// What it verifies.
    pub title: &'static str,
    /// How it came out.
    pub status: Status,
    /// Why it was skipped, or what it reports on.
    pub note: Option<String>,
    /// Errors found in all.
    pub errors: u64,
    /// Warnings found in all.
    pub warnings: u64,
    /// The first findings, in tier and index order.
    pub findings: Vec<Finding>,
    /// Findings found but not listed.
    pub omitted: u64,
}

impl CheckReport {
    /// The report of `found`, skipped with `skip_note` if given.
    pub fn new(found: CheckFindings, skip_note: Option<String>) -> Self {
        let check = found.check;
        let status = if found.errors > 0 {
            Status::Fail
        } else if found.warnings > 0 {
            Status::Warn
        } else if skip_note.is_some() {
            Status::Skipped
        } else if check == Check::Sizes {
            Status::Report
        } else {
            Status::Pass
        };
        CheckReport {
            number: check.number(),
            name: check.name(),
            title: check.title(),
            status,
            note: skip_note,
            errors: found.errors,
            warnings: found.warnings,
            omitted: found.omitted(),
            findings: found.kept,
        }
    }
}

/// One reachable tier.
#[derive(Clone, Debug, Serialize)]
pub struct TierReport {
    /// The tier number.
    pub tier: u64,
    /// The module's name for it.
    pub name: String,
    /// Positions in its hash.
    pub size: u64,
    /// Positions checked.
    pub checked: u64,
    /// Of those, legal ones (fully checked).
    pub legal: u64,
    /// Positions reachable from the initial position (exhaustive runs only).
    pub reachable: Option<u64>,
    /// `reachable / size`.
    pub density: Option<f64>,
    /// Whether it lists itself as a child.
    pub loopy: bool,
    /// For a tier that lists itself, whether a cycle of its positions was found
    /// (exhaustive runs of tiers up to `cycles::MAX_TIER` positions); else `None`.
    pub cycles: Option<bool>,
    /// Its DAG level (0: no children), when the graph is a DAG.
    pub level: Option<usize>,
    /// Its declared child tiers, itself excluded.
    pub children: Vec<u64>,
}

/// The totals.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Reachable tiers.
    pub tiers: usize,
    /// Positions in all their hashes.
    pub positions: u64,
    /// Positions checked.
    pub checked_positions: u64,
    /// Of those, legal ones.
    pub legal_positions: u64,
    /// Positions reachable from the initial position (exhaustive runs only).
    pub reachable_positions: Option<u64>,
    /// Tiers that list themselves as children.
    pub loopy_tiers: usize,
    /// Of those, tiers where a cycle of positions was found; `None` when not
    /// searched (sampled runs).
    pub cyclic_tiers: Option<usize>,
    /// Tiers per DAG level, level 0 (no children) first: how many can be solved at
    /// once. `None` when the graph has a cycle.
    pub level_widths: Option<Vec<usize>>,
    /// A cycle of tiers, when there is one.
    pub cycle: Option<Vec<u64>>,
    /// Errors over all checks.
    pub errors: u64,
    /// Warnings over all checks.
    pub warnings: u64,
    /// True when no check found an error.
    pub ok: bool,
}
