//! The run layer: solving a whole game. Tiers in the order of the one `Schedule`
//! (children first, each level's small tiers side by side, a large tier alone), each
//! group in the ways the plan chose, every finished tier checked and stored before its
//! parents start; a tier whose allocation fails is solved again one way leaner.
//!
//! A run first checks what the database already holds: valid tiers are kept, corrupt
//! or truncated ones are reported and solved again, and the solve resumes at the first
//! tier without a valid file. Child tiers are loaded once, sorted by remoteness once,
//! shared by every parent that needs them, and dropped when no unsolved parent is left
//! (`cache`). Front ends that schedule tiers themselves (the MPI driver) use its
//! pieces: `pending_tiers`, `store::solve_and_store` (one tier, children read from the
//! database) and `report`; every path stores a tier through `store::solve_and_store_with`.
//! `reachable` runs a reachable-only solve over the game's `marked_view`.
//!
//! The top layer: it may import every layer below; nothing in the solver imports it
//! but the facade (`solver/mod.rs`).

mod cache;
pub mod marked_view;
pub mod options;
pub mod progress;
pub mod reachable;
pub mod store;

pub use options::{
    full_meta_of, graph_of, memory_check, Scope, SolveOptions, SolveReport, TierMemory,
};

use crate::engine::abort_report::WorkingOn;
use crate::engine::clock::{process_cpu, Stopwatch};
use crate::engine::db::{Database, TierStatus};
use crate::engine::game::GameHandle;
use crate::engine::record::{Record, TierRecords};
use crate::engine::solver::base::SolveError;
use crate::engine::solver::budget::{plan, system};
use crate::engine::solver::input::meta_of;
use crate::engine::solver::input::ChildTier;
use crate::engine::solver::schedule::{Schedule, Waiting, BIG_TIER};
use crate::engine::solver::tier::recipe::SolveMode;
use crate::engine::tier::{TierGraph, TierNode};
use cache::ChildCache;
use gamesman_plugin_api::Tier;
use progress::SolveProgress;
use rayon::prelude::*;
use std::collections::HashSet;
use std::time::Instant;
use store::{leaner_on_oom, solve_and_store_with};

/// Solves every tier of `options.scope` (by default every tier reachable from the
/// initial tier) that `db` does not already hold.
pub fn solve(
    game: &GameHandle,
    db: &dyn Database,
    options: &SolveOptions,
    progress: &dyn SolveProgress,
) -> Result<SolveReport, SolveError> {
    let started = Instant::now();
    let graph = graph_of(game, &options.scope)?;
    let todo = pending_tiers(&graph, db, options, progress)?;
    let to_solve: u64 = graph
        .order
        .iter()
        .filter(|n| todo.contains(&n.tier))
        .map(|n| n.stored)
        .sum();
    let memory = memory_check(game, options);
    let is_todo = |t| todo.contains(&t);
    let plan = plan::plan(
        game,
        &graph,
        &is_todo,
        rayon::current_num_threads(),
        BIG_TIER,
        &memory,
    );
    plan::log_plan(&plan);
    plan.check(&memory)?;
    progress.start(&graph, to_solve);

    let mut cache = ChildCache::new(db, &graph, Waiting::new(&graph, &is_todo, BIG_TIER));
    let mut measured = Vec::new();
    let cpu_at_start = process_cpu();
    for group in Schedule::new(&graph, &is_todo, BIG_TIER).groups {
        let mut modes: Vec<SolveMode> = group.iter().map(|n| plan.mode_of(n.tier)).collect();
        let rooms: Vec<u64> = group.iter().map(|n| plan.room_of(n.tier)).collect();
        let watch = Stopwatch::start();
        let resident = system::ResidentWatch::start();
        let walls = leaner_on_oom(game, &mut modes, |modes| {
            solve_group(
                game, db, &group, modes, &rooms, &mut cache, options, progress,
            )
        })?;
        system::return_free_memory();
        let (cpu, wall) = watch.read();
        // Read before the high-water mark, which is then at least as high.
        let own_peak = resident.finish();
        let peak = system::peak_rss();
        for ((n, m), own_wall) in group.iter().zip(&modes).zip(walls) {
            let tier = TierMemory {
                name: n.name.clone(),
                mode: m.name().to_string(),
                estimated_bytes: plan.peak_of(n.tier),
                measured_bytes: peak,
                group_peak_bytes: own_peak,
                wall_seconds: own_wall,
                cpu_seconds: cpu,
                group_tiers: group.len(),
                group_wall_seconds: wall,
            };
            progress.measured(n, &tier.figures());
            measured.push(tier);
        }
    }
    progress.finish();
    let mut report = report(game, db, &graph, &todo, started)?;
    report.cpu_seconds = process_cpu() - cpu_at_start;
    report.budget = plan.budget.map(|b| b.bytes);
    report.memory = measured;
    Ok(report)
}

/// Checks what `db` already holds for every tier of `graph` and returns the tiers
/// still to solve: missing ones and stored ones that are corrupt (reported through
/// `progress`). With `options.force` the database is cleared first (a whole solve) or
/// every tier of `graph` is solved again (a partial one: the other tiers stay); files
/// left by an interrupted write are removed. Every solve path (one process or many)
/// starts here.
pub fn pending_tiers(
    graph: &TierGraph,
    db: &dyn Database,
    options: &SolveOptions,
    progress: &dyn SolveProgress,
) -> Result<HashSet<Tier>, SolveError> {
    let partial_force = options.force && options.scope != Scope::Whole;
    if options.force && !partial_force {
        db.clear()?;
    }
    let removed = db.remove_temporaries()?;
    if removed > 0 {
        log::info!("removed {removed} unfinished tier files left by an interrupted solve");
    }
    let statuses: Vec<TierStatus> = graph
        .order
        .iter()
        .map(|n| db.verify_tier(&meta_of(n)))
        .collect::<Result<_, _>>()?;
    let mut todo = HashSet::new();
    for (node, status) in graph.order.iter().zip(&statuses) {
        if partial_force {
            todo.insert(node.tier);
            continue;
        }
        match status {
            TierStatus::Valid => progress.reused(node),
            TierStatus::Corrupt(reason) => {
                progress.corrupt(node, reason);
                todo.insert(node.tier);
            }
            TierStatus::Missing => {
                todo.insert(node.tier);
            }
        }
    }
    Ok(todo)
}

/// The report of a finished solve that solved the tiers in `solved` (the rest were
/// kept), with the initial position's record read back from `db`.
pub fn report(
    game: &GameHandle,
    db: &dyn Database,
    graph: &TierGraph,
    solved: &HashSet<Tier>,
    started: Instant,
) -> Result<SolveReport, SolveError> {
    let initial = game.canonical(game.initial_position()?)?;
    let initial_record = db.lookup(initial)?.unwrap_or(Record::UNSOLVED);
    let solved_nodes = || graph.order.iter().filter(|n| solved.contains(&n.tier));
    Ok(SolveReport {
        tiers: graph.order.len(),
        tiers_solved: solved.len(),
        tiers_reused: graph.order.len() - solved.len(),
        positions_solved: solved_nodes().map(|n| n.size).sum(),
        positions_stored: solved_nodes().map(|n| n.stored).sum(),
        positions_total: graph.total_positions(),
        elapsed: started.elapsed(),
        cpu_seconds: 0.0,
        threads: rayon::current_num_threads(),
        initial,
        initial_record,
        budget: None,
        memory: Vec::new(),
    })
}

/// Solves `nodes` (independent tiers) side by side, each in its way with the room the
/// plan leaves it, and stores them; returns each tier's wall time in seconds.
#[allow(clippy::too_many_arguments)]
fn solve_group(
    game: &GameHandle,
    db: &dyn Database,
    nodes: &[&TierNode],
    modes: &[SolveMode],
    rooms: &[u64],
    cache: &mut ChildCache<'_>,
    options: &SolveOptions,
    progress: &dyn SolveProgress,
) -> Result<Vec<f64>, SolveError> {
    // Named if the process aborts from here on (reading the children included).
    let _working: Vec<WorkingOn> = nodes.iter().map(|n| WorkingOn::tier(&n.name)).collect();
    let mut inputs: Vec<Vec<ChildTier>> = Vec::with_capacity(nodes.len());
    for (n, &m) in nodes.iter().zip(modes) {
        let kids = n
            .children
            .iter()
            .map(|&c| cache.get(c, m))
            .collect::<Result<Vec<_>, SolveError>>()?;
        inputs.push(kids);
    }
    let solved: Vec<(Option<TierRecords>, f64)> = nodes
        .par_iter()
        .zip(inputs.into_par_iter())
        .zip(modes.par_iter().zip(rooms.par_iter()))
        .map(|((node, kids), (&mode, &room))| {
            let started = Instant::now();
            let records =
                solve_and_store_with(game, db, node, kids, mode, room, options, progress)?;
            Ok((records, started.elapsed().as_secs_f64()))
        })
        .collect::<Result<_, SolveError>>()?;
    for n in nodes {
        for &c in &n.children {
            cache.release(c);
        }
    }
    let mut walls = Vec::with_capacity(nodes.len());
    for (n, (records, wall)) in nodes.iter().zip(solved) {
        if let Some(records) = records {
            cache.offer(n.tier, records);
        }
        walls.push(wall);
    }
    Ok(walls)
}
