//! One tier, solved and stored: the per-tier step every solve path takes (the whole
//! game's run, the MPI worker), so whatever a tier goes through before it is stored
//! applies to all of them. The tier's way is decided by `Recipe::choose`, it is solved
//! by the tier layer, checked against its children (`verify`) and written atomically.
//! This file must not choose ways (the plan and `Recipe::choose` do).

use super::options::{memory_check, SolveOptions, TierMemory};
use super::progress::SolveProgress;
use crate::engine::abort_report::WorkingOn;
use crate::engine::clock::Stopwatch;
use crate::engine::db::Database;
use crate::engine::game::GameHandle;
use crate::engine::record::TierRecords;
use crate::engine::solver::base::{MemoryError, SolveError};
use crate::engine::solver::budget::{plan, system};
use crate::engine::solver::input::{self, meta_of, ChildTier};
use crate::engine::solver::schedule::BIG_TIER;
use crate::engine::solver::tier::parents::ParentMode;
use crate::engine::solver::tier::recipe::{Recipe, SolveMode};
use crate::engine::solver::tier::{self, Note, Solved, Tick, TierCtx};
use crate::engine::solver::verify::{self, Own, Selection};
use crate::engine::tier::{TierGraph, TierNode};
use std::time::Instant;

/// A tier `solve_and_store` solved and stored.
#[derive(Debug)]
pub struct SolvedTier {
    /// Its records (`None` when it was solved one byte a position: those are never
    /// whole in memory).
    pub records: Option<TierRecords>,
    /// How it was solved and the memory it took.
    pub memory: TierMemory,
    /// The budget it was planned against, in bytes (when known).
    pub budget: Option<u64>,
}

/// Runs `attempt` with `modes` (one a tier); a single tier whose allocation failed
/// (nothing of it was stored) is tried again the next way leaner `game` serves, for as
/// long as there is one. `modes` ends as the ways last tried.
pub fn leaner_on_oom<T>(
    game: &GameHandle,
    modes: &mut [SolveMode],
    mut attempt: impl FnMut(&[SolveMode]) -> Result<T, SolveError>,
) -> Result<T, SolveError> {
    loop {
        match attempt(modes) {
            Err(SolveError::Memory(e @ MemoryError::Allocation { .. }))
                if modes.len() == 1 && modes[0].leaner_for(game).is_some() =>
            {
                let leaner = modes[0].leaner_for(game).expect("checked");
                log::warn!("{e}; solving it again {leaner}");
                modes[0] = leaner;
            }
            other => return other,
        }
    }
}

/// Solves one tier whose child tiers are already stored in `db`, reading them from it
/// in the fastest way the memory budget allows (whole, else streamed; one way leaner
/// again when an allocation fails), and stores it atomically. This is the unit of
/// work a distributed worker does: no records need to be in memory beforehand.
pub fn solve_and_store(
    game: &GameHandle,
    db: &dyn Database,
    graph: &TierGraph,
    node: &TierNode,
    options: &SolveOptions,
    progress: &dyn SolveProgress,
) -> Result<SolvedTier, SolveError> {
    // Named if the process aborts from here on (reading the children included).
    let _working = WorkingOn::tier(&node.name);
    let memory = memory_check(game, options);
    let plan = plan::plan(
        game,
        graph,
        &|t| t == node.tier,
        rayon::current_num_threads(),
        BIG_TIER,
        &memory,
    );
    plan.check(&memory)?;
    let mut mode = [plan.mode_of(node.tier)];
    let watch = Stopwatch::start();
    let resident = system::ResidentWatch::start();
    let records = leaner_on_oom(game, &mut mode, |mode| {
        let kids = node
            .children
            .iter()
            .map(|&c| {
                let child = graph.get(c).expect("a node's children are in its graph");
                input::read(db, child, mode[0].child_shape())
            })
            .collect::<Result<Vec<_>, SolveError>>()?;
        let room = plan.room_of(node.tier);
        solve_and_store_with(game, db, node, kids, mode[0], room, options, progress)
    })?;
    // A worker solves tier after tier: the last one's freed arrays must not stay
    // resident under the next one's peak.
    system::return_free_memory();
    let (cpu, wall) = watch.read();
    let own_peak = resident.finish();
    Ok(SolvedTier {
        records,
        memory: TierMemory {
            name: node.name.clone(),
            mode: mode[0].name().to_string(),
            estimated_bytes: plan.peak_of(node.tier),
            measured_bytes: system::peak_rss(),
            group_peak_bytes: own_peak,
            wall_seconds: wall,
            cpu_seconds: cpu,
            group_tiers: 1,
            group_wall_seconds: wall,
        },
        budget: plan.budget.as_ref().map(|b| b.bytes),
    })
}

/// Solves one tier from its children's records (in memory, sorted by remoteness, or
/// streamed) in `mode` and stores it atomically: the per-tier step every solve path
/// takes. Returns its records, unless it was solved one byte a position
/// (`SolveMode::Byte`): then they are assembled block by block into the file, checked
/// from there, and never whole in memory. `room` is what the plan leaves the tier
/// beyond its estimated need (`SolvePlan::room_of`), which a faster way may take.
#[allow(clippy::too_many_arguments)]
pub fn solve_and_store_with(
    game: &GameHandle,
    db: &dyn Database,
    node: &TierNode,
    children: Vec<ChildTier>,
    mode: SolveMode,
    room: u64,
    options: &SolveOptions,
    progress: &dyn SolveProgress,
) -> Result<Option<TierRecords>, SolveError> {
    let t0 = Instant::now();
    progress.tier_started(node);
    let recipe = Recipe::choose(game, node, &children, mode, options.parents, room, || {
        db.scratch_dir()
    })?;
    log::debug!("tier {} ({}): {recipe:?}", node.tier, node.name);
    let solved = tier::solve(
        &TierCtx::new(game, node),
        &children,
        &recipe,
        &|k| progress.advance(node, k),
        &|what| progress.note(node, what),
    )?;
    // Checked against its children before it is stored, on every solve path; records
    // read through a block cache (a streamed child tier, a staged one-byte tier) are
    // sampled in runs of neighbours.
    let mut selection = Selection::of(options.verify, options.seed);
    let streamed = children.iter().any(|c| matches!(c, ChildTier::Streamed(_)));
    let records = match solved {
        Solved::OneByte(state) => {
            let (cells, log) = state.one_byte().expect("solved one byte a position");
            let mut assembler = log.assembler(cells);
            let staged =
                db.stage_tier(&meta_of(node), &mut |first, out| assembler.fill(first, out))?;
            drop(assembler);
            drop(state);
            selection = selection.map(Selection::in_runs);
            let own = Own::Source(staged.records(), false);
            verify::check_solved_tier(game, node, own, &children, selection)?;
            drop(children);
            staged.commit()?;
            None
        }
        Solved::Records(records) => {
            if streamed {
                selection = selection.map(Selection::in_runs);
            }
            verify::check_solved_tier(game, node, (&records).into(), &children, selection)?;
            drop(children);
            db.store_tier(&meta_of(node), &records)?;
            Some(records)
        }
    };
    progress.tier_finished(node, t0.elapsed());
    Ok(records)
}

/// Solves one tier from its solved children: values, then WinBy where supported;
/// counters merged into the records when `merged`. Stores nothing.
pub fn solve_one(
    game: &GameHandle,
    node: &TierNode,
    children: &[ChildTier],
    mode: ParentMode,
    merged: bool,
    tick: Tick<'_>,
    note: Note<'_>,
) -> Result<TierRecords, SolveError> {
    let way = if merged {
        SolveMode::Compact
    } else {
        SolveMode::Whole
    };
    let recipe = Recipe::choose(game, node, children, way, mode, 0, || None)?;
    match tier::solve(&TierCtx::new(game, node), children, &recipe, tick, note)? {
        Solved::Records(records) => Ok(records),
        Solved::OneByte(_) => unreachable!("only SolveMode::Byte solves one byte a position"),
    }
}
