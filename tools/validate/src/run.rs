//! One validation run, start to end: load the module, discover its tiers (check 1),
//! choose the positions, run checks 2-7 on them in parallel, search forward for
//! reachable positions (check 8, exhaustive runs only), and gather the `Outcome`.
//!
//! This file decides what runs in which order; it must not judge the module (the
//! checks do) nor print results (the report does).

use crate::checks::{check_position, Checked};
use crate::findings::{Check, FindingSink};
use crate::outcome::{CheckReport, Mode, Outcome, Properties, Summary, TierReport};
use crate::probe::Probe;
use crate::progress::Progress;
use crate::reach::{self, Reach};
use crate::sample::Plan;
use crate::tiers::TierMap;
use gamesman_host::{GameHandle, LoadError};
use gamesman_plugin_api::TierPosition;
use std::sync::atomic::{AtomicU64, Ordering};

/// Exhaustive is the default for tiers holding at most this many positions in all.
pub const EXHAUSTIVE_THRESHOLD: u64 = 20_000_000;

/// Positions per tier when sampling by default: a big game (quixo 5x5, 351 tiers)
/// is then checked in about a minute; `--sample` asks for more.
pub const DEFAULT_SAMPLE: u64 = 2_000;

/// How to choose positions.
#[derive(Clone, Copy, Debug)]
pub enum ModeChoice {
    /// Exhaustive up to `EXHAUSTIVE_THRESHOLD` positions, else a default sample.
    Auto,
    /// Every position.
    Exhaustive,
    /// This many random positions per tier.
    Sample(u64),
}

/// What to validate and how.
#[derive(Clone, Debug)]
pub struct Options {
    /// `--plugin`: a path, or a bare name next to the binary.
    pub plugin: String,
    /// `--variant`, or the module's default.
    pub variant: Option<String>,
    /// Exhaustive or sampled.
    pub mode: ModeChoice,
    /// Seed for sampling.
    pub seed: u64,
    /// Findings kept per check.
    pub max_findings: usize,
    /// Whether to show progress.
    pub progress: bool,
}

/// Why a run could not even start.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The module could not be loaded, or the variant not opened.
    #[error(transparent)]
    Load(#[from] LoadError),
}

#[derive(Default)]
struct TierCounts {
    checked: AtomicU64,
    legal: AtomicU64,
}

/// Validates the module `opts` names.
pub fn run(opts: &Options) -> Result<Outcome, RunError> {
    let module = gamesman_host::load(&opts.plugin)?;
    let game = module.open(opts.variant.as_deref())?;
    log::info!(
        "validating {} (variant {}) from {}",
        game.module_name(),
        game.variant(),
        module.path.display()
    );
    let sink = FindingSink::new(opts.max_findings);
    let tiers = TierMap::discover(&game, &sink);
    let total = tiers.as_ref().map_or(0, TierMap::total_positions);
    let plan = match opts.mode {
        ModeChoice::Exhaustive => Plan::Exhaustive,
        ModeChoice::Sample(n) => Plan::Sample {
            per_tier: n,
            seed: opts.seed,
        },
        ModeChoice::Auto if total <= EXHAUSTIVE_THRESHOLD => Plan::Exhaustive,
        ModeChoice::Auto => Plan::Sample {
            per_tier: DEFAULT_SAMPLE,
            seed: opts.seed,
        },
    };
    let mode = Mode {
        kind: match plan {
            Plan::Exhaustive => "exhaustive",
            Plan::Sample { .. } => "sample",
        },
        by_default: matches!(opts.mode, ModeChoice::Auto),
        per_tier: match plan {
            Plan::Sample { per_tier, .. } => Some(per_tier),
            Plan::Exhaustive => None,
        },
        seed: matches!(plan, Plan::Sample { .. }).then_some(opts.seed),
        exhaustive_threshold: EXHAUSTIVE_THRESHOLD,
    };
    let mut outcome = Outcome {
        module: game.module_name().to_string(),
        variant: game.variant().to_string(),
        plugin: module.path.display().to_string(),
        mode,
        properties: properties(&game),
        checks: Vec::new(),
        tiers: Vec::new(),
        summary: Summary {
            tiers: 0,
            positions: total,
            checked_positions: 0,
            legal_positions: 0,
            reachable_positions: None,
            loopy_tiers: 0,
            cyclic_tiers: None,
            level_widths: None,
            cycle: None,
            errors: 0,
            warnings: 0,
            ok: false,
        },
    };
    let Some(tiers) = tiers else {
        finish(&mut outcome, sink, |c| {
            (c != Check::TierGraph).then(|| "no usable initial position".to_string())
        });
        return Ok(outcome);
    };
    let probe = Probe {
        game: &game,
        tiers: &tiers,
        props: *game.properties(),
        sink: &sink,
    };
    crate::checks::turn::check_declarations(&probe, tiers.initial);
    crate::checks::autogui::sidecar(&probe, &module, tiers.initial);
    let counts = check_positions(&probe, plan, opts.progress);
    if matches!(plan, Plan::Exhaustive) {
        crate::orbits::check(&probe);
    }
    let reach = match plan {
        Plan::Exhaustive => {
            let progress = Progress::new("reachable", None, opts.progress);
            let r = reach::search(&probe, &progress);
            progress.finish();
            r
        }
        Plan::Sample { .. } => None,
    };
    let cycles = match plan {
        Plan::Exhaustive => crate::cycles::search(&probe),
        Plan::Sample { .. } => vec![None; tiers.tiers.len()],
    };
    outcome.tiers = tier_reports(&tiers, &counts, reach.as_ref(), &cycles);
    let s = &mut outcome.summary;
    s.tiers = tiers.tiers.len();
    s.checked_positions = outcome.tiers.iter().map(|t| t.checked).sum();
    s.legal_positions = outcome.tiers.iter().map(|t| t.legal).sum();
    s.reachable_positions = reach.as_ref().map(|r| r.total);
    s.loopy_tiers = tiers.loopy_count();
    s.cyclic_tiers = matches!(plan, Plan::Exhaustive)
        .then(|| cycles.iter().filter(|c| **c == Some(true)).count());
    s.level_widths = tiers
        .levels
        .as_ref()
        .map(|l| l.iter().map(Vec::len).collect());
    s.cycle = tiers
        .cycle
        .as_ref()
        .map(|c| c.iter().map(|t| t.0).collect());
    let has_symmetry = game.properties().has_symmetry;
    let forward_only = !game.has_undo_moves();
    let sizes_note = match (&reach, plan) {
        (Some(_), _) => None,
        (None, Plan::Exhaustive) => Some(format!(
            "the tiers hold more than {} positions, too many to mark",
            reach::MAX_POSITIONS
        )),
        (None, Plan::Sample { .. }) => {
            Some("needs a forward search, done in exhaustive runs only".to_string())
        }
    };
    finish(&mut outcome, sink, |c| {
        match c {
        Check::Symmetry if !has_symmetry => Some("the module declares no symmetry".into()),
        Check::UndoMoves if forward_only => Some(
            "the module gives no undo moves (forward-only); the solver finds parents by expanding positions forward"
                .into(),
        ),
        Check::Sizes => sizes_note.clone(),
        _ => None,
    }
    });
    Ok(outcome)
}

/// Runs checks 2-7 on the planned positions; returns per-tier counts.
fn check_positions(probe: &Probe<'_>, plan: Plan, show: bool) -> Vec<TierCounts> {
    let tiers = &probe.tiers.tiers;
    let counts: Vec<TierCounts> = tiers.iter().map(|_| TierCounts::default()).collect();
    let total: u64 = tiers.iter().map(|n| plan.count(n.size)).sum();
    log::info!(
        "checking {} positions in {} tiers ({})",
        gamesman_host::engine::numbers::count(total),
        tiers.len(),
        match plan {
            Plan::Exhaustive => "exhaustive".to_string(),
            Plan::Sample { per_tier, seed } =>
                format!("sample of {per_tier} per tier, seed {seed}"),
        }
    );
    let progress = Progress::new("checking", Some(total), show);
    // Tier by tier, each in parallel: a tier's batches are made as they are needed.
    for (node, count) in tiers.iter().zip(&counts) {
        plan.select(node.tier, node.size).par_batches(|batch| {
            let mut legal = 0;
            batch.for_each(|i| {
                if check_position(probe, TierPosition::new(node.tier, i)) == Checked::Legal {
                    legal += 1;
                }
            });
            count.checked.fetch_add(batch.len(), Ordering::Relaxed);
            count.legal.fetch_add(legal, Ordering::Relaxed);
            progress.inc(batch.len());
        });
    }
    progress.finish();
    counts
}

fn tier_reports(
    tiers: &TierMap,
    counts: &[TierCounts],
    reach: Option<&Reach>,
    cycles: &[Option<bool>],
) -> Vec<TierReport> {
    tiers
        .tiers
        .iter()
        .enumerate()
        .map(|(rank, n)| {
            let reachable = reach.map(|r| r.per_tier[rank]);
            TierReport {
                tier: n.tier.0,
                name: n.name.clone(),
                size: n.size,
                checked: counts[rank].checked.load(Ordering::Relaxed),
                legal: counts[rank].legal.load(Ordering::Relaxed),
                reachable,
                density: reachable.map(|r| {
                    if n.size == 0 {
                        0.0
                    } else {
                        r as f64 / n.size as f64
                    }
                }),
                loopy: n.loopy,
                cycles: cycles[rank],
                level: n.level,
                children: n.children.iter().map(|t| t.0).collect(),
            }
        })
        .collect()
}

/// Fills in the checks and the error totals; `skipped` gives a note for each check
/// that did not run.
fn finish(outcome: &mut Outcome, sink: FindingSink, skipped: impl Fn(Check) -> Option<String>) {
    outcome.checks = sink
        .finish()
        .into_iter()
        .map(|found| {
            let note = skipped(found.check);
            CheckReport::new(found, note)
        })
        .collect();
    let s = &mut outcome.summary;
    s.errors = outcome.checks.iter().map(|c| c.errors).sum();
    s.warnings = outcome.checks.iter().map(|c| c.warnings).sum();
    s.ok = s.errors == 0;
}

fn properties(game: &GameHandle) -> Properties {
    let p = game.properties();
    Properties {
        players: p.players,
        is_tier_game: p.is_tier_game,
        supports_winby: p.supports_winby,
        go_again: p.go_again,
        has_symmetry: p.has_symmetry,
        max_moves: p.max_moves,
        max_undo_moves: p.max_undo_moves,
        max_tier_children: p.max_tier_children,
        undo_moves: game.has_undo_moves(),
        turn_free: game.turn_free(),
    }
}
