//! `host solve`: solves the variant into the chosen database and prints a summary,
//! as text or as one JSON object. The initial position is shown as the module writes
//! it (as `info` shows it), its record looked up under its canonical form.

use super::{game_key, DbChoice};
use crate::engine::ask::query::remoteness_of;
use crate::engine::db::{self, LockWait};
use crate::engine::game::GameHandle;
use crate::engine::numbers::{count, rate_over, seconds};
use crate::engine::outcome::{describe, value_name};
use crate::engine::solver::{self, SolveOptions, SolveReport};
use crate::report::progress;
use serde::Serialize;

/// What `solve` was asked to do.
#[derive(Clone, Debug, Default)]
pub struct SolveArgs {
    /// The solver's options (force, parents, memory check, verification).
    pub options: SolveOptions,
    /// Whether to wait for another solve writing the same database.
    pub wait: LockWait,
    /// Solve only the positions reachable from the initial position.
    pub reachable: bool,
    /// Print the summary as JSON.
    pub json: bool,
    /// Print the memory plan instead of solving.
    pub plan: bool,
    /// With `plan`: positions per CPU-second, to estimate the plan's CPU.
    pub rate: Option<f64>,
}

/// The initial position in a summary.
#[derive(Clone, Debug, Serialize)]
pub struct InitialSummary {
    /// Its text, as the module writes the initial position.
    pub position: String,
    /// Its tier.
    pub tier: u64,
    /// The tier's name.
    pub tier_name: String,
    /// Its value's name (`outcome::value_name`).
    pub value: &'static str,
    /// Its remoteness (none for draws and unsolved positions).
    pub remoteness: Option<u32>,
    /// Its WinBy, from player one's view, for WinBy games.
    pub winby: Option<i64>,
}

/// What marking found in a reachable-only solve.
#[derive(Clone, Debug, Serialize)]
pub struct ReachableSummary {
    /// Positions that can occur from the initial position (the ones solved and stored).
    pub positions_reachable: u64,
    /// Positions in all tiers, reachable or not.
    pub positions_in_tiers: u64,
    /// Time spent marking.
    pub marking_seconds: f64,
}

/// The JSON summary of a solve.
#[derive(Clone, Debug, Serialize)]
pub struct SolveSummary {
    /// The module.
    pub game: String,
    /// The variant.
    pub variant: String,
    /// Where the tiers are stored.
    pub database: String,
    /// Tiers reachable from the initial tier.
    pub tiers: usize,
    /// Tiers solved in this run.
    pub tiers_solved: usize,
    /// Tiers kept from an earlier run.
    pub tiers_reused: usize,
    /// Positions solved in this run.
    pub positions_solved: u64,
    /// Of them, those the solver held and stored (the canonical ones, where the module
    /// numbers them first).
    pub positions_stored: u64,
    /// Positions in all tiers.
    pub positions_total: u64,
    /// Wall time of this run.
    pub seconds: f64,
    /// CPU time (user + system, every thread) of the solving process(es) in this run.
    pub cpu_seconds: f64,
    /// Worker threads the tiers were solved on.
    pub threads: usize,
    /// For a partial solve (`--endgame`, `--tier`): which tiers it covers; the
    /// initial position is then "unsolved" unless its tier is among them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partial: Option<String>,
    /// For a reachable-only solve: what the marking found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reachable: Option<ReachableSummary>,
    /// The initial position and its record.
    pub initial: InitialSummary,
    /// The memory budget the tiers were planned against, in bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget_bytes: Option<u64>,
    /// Each tier solved in this run: its way of solving, the estimated and the
    /// measured peak, its wall time and the CPU time of its group.
    pub memory: Vec<solver::TierMemory>,
}

/// The plan `solve --plan --json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct PlanSummary {
    /// The largest estimated peak of any tier.
    pub peak_bytes: u64,
    /// The budget planned against.
    pub budget_bytes: Option<u64>,
    /// Where the budget comes from.
    pub budget_source: Option<String>,
    /// Whether every tier fits the budget.
    pub fits: bool,
    /// The positions of every tier of the scope together.
    pub positions: u64,
    /// The rate given with `--rate` (positions per CPU-second).
    pub rate: Option<f64>,
    /// `positions / rate`: the CPU-seconds the solve would take at that rate.
    pub estimated_cpu_s: Option<f64>,
    /// Every tier of the scope, in the order a solve takes them.
    pub tiers: Vec<solver::plan::TierPlan>,
}

/// Builds the summary of `report`.
pub fn summary(
    game: &GameHandle,
    database: String,
    report: &SolveReport,
) -> anyhow::Result<SolveSummary> {
    let start = game.initial_position()?;
    let r = &report.initial_record;
    Ok(SolveSummary {
        game: game.module_name().to_string(),
        variant: game.variant().to_string(),
        database,
        tiers: report.tiers,
        tiers_solved: report.tiers_solved,
        tiers_reused: report.tiers_reused,
        positions_solved: report.positions_solved,
        positions_stored: report.positions_stored,
        positions_total: report.positions_total,
        seconds: report.elapsed.as_secs_f64(),
        cpu_seconds: report.cpu_seconds,
        threads: report.threads,
        partial: None,
        reachable: None,
        budget_bytes: report.budget,
        memory: report.memory.clone(),
        initial: InitialSummary {
            position: game.position_to_text(start)?,
            tier: start.tier.0,
            tier_name: game.tier_name(start.tier)?,
            value: value_name(r.value, game.properties().players),
            remoteness: remoteness_of(r),
            winby: r.winby.filter(|_| game.supports_winby()),
        },
    })
}

/// The summary as text for people.
pub fn text(game: &GameHandle, s: &SolveSummary, report: &SolveReport) -> String {
    let scope = match (&s.reachable, &s.partial) {
        (None, Some(p)) => format!(" {p} only,"),
        (Some(r), _) => format!(
            " reachable-only, {} positions reachable from the start of {} in all tiers (marked in {}),",
            count(r.positions_reachable),
            count(r.positions_in_tiers),
            seconds(std::time::Duration::from_secs_f64(r.marking_seconds))
        ),
        (None, None) => String::new(),
    };
    // A game whose symmetric positions are solved once holds fewer than it solves.
    let held = if s.positions_stored < s.positions_solved {
        format!(
            "canonical positions held: {} ({}/s)\n",
            count(s.positions_stored),
            rate_over(s.positions_stored, report.elapsed)
        )
    } else {
        String::new()
    };
    // How much of the threads' time was work: lost parallel work shows here. Left out
    // of solves under a second, where it is noise (--json always has it).
    let cpu = if s.tiers_solved > 0 && s.seconds >= 1.0 {
        let busy = s.cpu_seconds / (s.seconds * s.threads.max(1) as f64).max(1e-9);
        format!(
            "CPU: {:.2} s on {} thread{} ({:.0}% of their time)\n",
            s.cpu_seconds,
            s.threads,
            if s.threads == 1 { "" } else { "s" },
            100.0 * busy.min(1.0)
        )
    } else {
        String::new()
    };
    format!(
        "solved {} ({}):{scope} {} tiers ({} solved now, {} already stored), {} positions solved in {} ({} positions/s)\n{held}{cpu}stored in {}\ninitial position {}: {}\n",
        s.game,
        s.variant,
        count(s.tiers as u64),
        count(s.tiers_solved as u64),
        count(s.tiers_reused as u64),
        count(s.positions_solved),
        seconds(report.elapsed),
        rate_over(s.positions_solved, report.elapsed),
        s.database,
        s.initial.position,
        describe(
            &report.initial_record,
            game.properties().players,
            game.supports_winby()
        )
    )
}

/// Runs `solve` and prints its summary. `api_version` is the plugin-api the module was
/// built against (ranks of a distributed solve compare it).
pub fn run(
    game: &GameHandle,
    api_version: &str,
    choice: &DbChoice,
    args: &SolveArgs,
) -> anyhow::Result<()> {
    if args.plan {
        return print_plan(game, args);
    }
    #[cfg(feature = "mpi")]
    if crate::mpi::launched() {
        if args.reachable {
            return Err(super::CliError::Usage(
                "solve --reachable runs in one process; drop --reachable under mpirun, or run host without mpirun".into(),
            )
            .into());
        }
        return match crate::mpi::solve(game, api_version, &choice.resource, &args.options)? {
            crate::mpi::RankOutcome::Manager(report) => print(game, choice, &report, None, args),
            crate::mpi::RankOutcome::Worker => Ok(()),
        };
    }
    #[cfg(not(feature = "mpi"))]
    if let Some(n) = crate::mpi::launcher_tasks().filter(|&n| n > 1) {
        let _ = api_version;
        return Err(super::CliError::Usage(format!(
            "this host was started as one of {n} processes (by mpirun or srun), but it is built without MPI, so each copy would solve everything into the same directory: build host-mpi (cargo build --release -p host --features mpi --bin host-mpi) and start that, or run host as one process"
        ))
        .into());
    }
    // A tier name that names nothing is refused before anything is opened.
    if let solver::Scope::Tier(_) = &args.options.scope {
        solver::graph_of(game, &args.options.scope)?;
    }
    // The directories this solve creates: removed again if it is refused or fails
    // before storing anything, so a refused solve leaves no empty database behind.
    let fresh = super::fresh_dirs::missing(&choice.resource, &game_key(game));
    let solved = solve_into(game, choice, args);
    if solved.is_err() {
        super::fresh_dirs::remove_empty(&fresh);
    }
    let (report, reachable) = solved?;
    print(game, choice, &report, reachable, args)
}

/// Opens the database as its only writer and solves into it.
fn solve_into(
    game: &GameHandle,
    choice: &DbChoice,
    args: &SolveArgs,
) -> anyhow::Result<(SolveReport, Option<ReachableSummary>)> {
    // The only writer, and a writable place, before any work.
    let db = db::open_for_writing(&choice.resource, &game_key(game), args.wait)?;
    let n = rayon::current_num_threads();
    log::info!(
        "solving {} ({}) into {} with {n} thread{}, verifying each tier: {}",
        game.module_name(),
        game.variant(),
        db.describe(),
        if n == 1 { "" } else { "s" },
        args.options.verify
    );
    let progress = progress::for_stderr();
    let (report, reachable) = if args.reachable {
        let r = solver::reachable::solve_reachable(
            game,
            db.as_ref(),
            &args.options,
            progress.as_ref(),
        )?;
        let found = ReachableSummary {
            positions_reachable: r.reachable,
            positions_in_tiers: r.positions_in_tiers,
            marking_seconds: r.marking.as_secs_f64(),
        };
        (r.solve, Some(found))
    } else {
        let r = solver::solve(game, db.as_ref(), &args.options, progress.as_ref())?;
        (r, None)
    };
    Ok((report, reachable))
}

/// Prints the summary of a finished solve.
fn print(
    game: &GameHandle,
    choice: &DbChoice,
    report: &SolveReport,
    reachable: Option<ReachableSummary>,
    args: &SolveArgs,
) -> anyhow::Result<()> {
    let db = db::open(&choice.resource, &game_key(game))?;
    let mut s = summary(game, db.describe(), report)?;
    s.reachable = reachable;
    if args.options.scope != solver::Scope::Whole {
        s.partial = Some(args.options.scope.to_string());
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&s)?)?;
    } else {
        out!("{}", text(game, &s, report))?;
    }
    Ok(())
}

/// Prints the memory plan of every tier of the scope (as a solve into an empty
/// database would take them), without opening the database or solving anything.
fn print_plan(game: &GameHandle, args: &SolveArgs) -> anyhow::Result<()> {
    let threads = rayon::current_num_threads();
    let graph = solver::graph_of(game, &args.options.scope)?;
    let memory = solver::memory_check(game, &args.options);
    let plan = solver::plan::plan(game, &graph, &|_| true, threads, solver::BIG_TIER, &memory);
    let positions = plan
        .tiers
        .iter()
        .map(|t| t.positions)
        .fold(0u64, u64::saturating_add);
    let s = PlanSummary {
        positions,
        rate: args.rate,
        estimated_cpu_s: args.rate.map(|r| positions as f64 / r),
        peak_bytes: plan.peak(),
        budget_bytes: plan.budget.as_ref().map(|b| b.bytes),
        budget_source: plan.budget.as_ref().map(|b| b.source.clone()),
        fits: plan.tiers.iter().all(|t| t.fits),
        tiers: plan.tiers.clone(),
    };
    let over: Vec<String> = s
        .tiers
        .iter()
        .filter(|t| !t.fits)
        .map(|t| t.name.clone())
        .collect();
    if args.json {
        if over.is_empty() {
            outln!("{}", serde_json::to_string_pretty(&s)?)?;
            return Ok(());
        }
        // One JSON object: the error's, carrying the plan.
        return Err(PlanDoesNotFit {
            over,
            tiers: s.tiers.len(),
            plan: Some(serde_json::to_value(&s)?),
        }
        .into());
    }
    let b = solver::memory::bytes;
    let mut text = format!(
        "plan for {} ({}), {}: {} tiers, {} positions, {} threads, peak about {}{}\n",
        game.module_name(),
        game.variant(),
        args.options.scope,
        count(s.tiers.len() as u64),
        count(s.positions),
        threads,
        b(s.peak_bytes),
        plan.budget.as_ref().map_or(String::new(), |x| format!(
            ", budget {} ({})",
            b(x.bytes),
            x.source
        ))
    );
    let width = s.tiers.iter().map(|t| t.name.len()).max().unwrap_or(0);
    let digits = count(s.tiers.iter().map(|t| t.positions).max().unwrap_or(0)).len();
    for t in &s.tiers {
        text.push_str(&format!(
            "  {:width$}  {:>digits$}  {:8}  {:>12}{}\n",
            t.name,
            count(t.positions),
            t.mode.name(),
            b(t.peak_bytes),
            if t.fits { "" } else { "  does not fit" }
        ));
    }
    if let (Some(rate), Some(cpu)) = (s.rate, s.estimated_cpu_s) {
        text.push_str(&format!(
            "estimated CPU: about {:.1} CPU-hours ({} positions at {} per CPU-second, --rate); \
             about {:.1} hours of wall time on {} threads if they stay busy\n",
            cpu / 3600.0,
            count(s.positions),
            count(rate.round() as u64),
            cpu / 3600.0 / threads as f64,
            threads,
        ));
    }
    out!("{text}")?;
    if !over.is_empty() {
        return Err(PlanDoesNotFit {
            over,
            tiers: s.tiers.len(),
            plan: None,
        }
        .into());
    }
    Ok(())
}

/// `solve --plan` found tiers that do not fit the budget in any way (exit 5, as the
/// solve itself would end).
#[derive(Debug, thiserror::Error)]
#[error("{} of {tiers} tiers do not fit the budget even in the leanest way: {}; a solve would be refused (raise --memory-limit, or solve on a larger machine)", over.len(), over.join(", "))]
pub struct PlanDoesNotFit {
    /// The tiers that do not fit.
    pub over: Vec<String>,
    /// Tiers in the plan.
    pub tiers: usize,
    /// With `--json`, the plan, carried in the error's JSON object.
    pub plan: Option<serde_json::Value>,
}
