//! Solving a whole game: tiers in the order of the tier DAG (children first), each
//! level's tiers at once, every finished tier stored before its parents start.
//!
//! A run first checks what the database already holds: valid tiers are kept, corrupt
//! or truncated ones are reported and solved again, and the solve resumes at the first
//! tier without a valid file. Child tiers are loaded once, sorted by remoteness once,
//! shared by every parent that needs them, and dropped when no unsolved parent is left. This file decides
//! order and storage; the per-tier algorithm lives in `retrograde` and `winby`.
//! Front ends that schedule tiers themselves (the MPI driver) use its pieces:
//! `pending_tiers`, `solve_and_store` (one tier, children read from the database)
//! and `report`; every path stores a tier through `solve_and_store_with`.

pub mod by_children;
pub mod children;
pub mod compact;
pub mod counters;
pub mod frontier;
mod levels;
pub mod memory;
pub mod onebyte;
pub mod parents;
pub mod plan;
pub mod reachable;
pub mod retrograde;
pub mod runs;
mod scan;
pub mod seeds;
pub mod verify;
pub mod winby;

use crate::engine::db::{Database, DbError, TierMeta, TierStatus};
use crate::engine::game::{GameHandle, ModuleError};
use crate::engine::record::{Record, TierRecords};
use crate::engine::tier::{TierGraph, TierGraphError, TierNode};
use children::{streamed, ChildCache, ChildTier};
use frontier::ChildFrontier;
use gamesman_plugin_api::{Tier, TierPosition};
use plan::SolveMode;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Why a solve failed.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The module failed or returned something impossible.
    #[error(transparent)]
    Module(#[from] ModuleError),
    /// The tier graph is not a DAG (or the module failed describing it).
    #[error(transparent)]
    Graph(#[from] TierGraphError),
    /// Reading or writing the database failed.
    #[error(transparent)]
    Db(#[from] DbError),
    /// A remoteness too large for the record format.
    #[error("tier {0} has a remoteness above {max}, the most a record holds", max = crate::engine::record::MAX_REMOTENESS)]
    RemotenessOverflow(Tier),
    /// A WinBy that does not fit the stored 32 bits.
    #[error("the module's WinBy {winby} at position {position} does not fit in 32 bits")]
    WinByOverflow {
        /// The position.
        position: TierPosition,
        /// Its margin.
        winby: i64,
    },
    /// The solve does not fit in memory, or an allocation failed.
    #[error(transparent)]
    Memory(#[from] memory::MemoryError),
    /// The module gave a parent index past the tier's canonical prefix.
    #[error("tier {tier}: the module gave parent index {index}, past the {prefix} canonical positions it numbers first (canonical_prefix); a bug in the module's numbering")]
    PastPrefix {
        /// The tier.
        tier: Tier,
        /// The index given.
        index: u64,
        /// The tier's canonical prefix.
        prefix: u64,
    },
    /// The module gave a position more children than its `max_moves` allows for.
    #[error("the module gave position {position} {children} children, but says a position has at most {max_moves} moves (max_moves); a bug in the module")]
    TooManyChildren {
        /// The position.
        position: TierPosition,
        /// Its children.
        children: u32,
        /// The module's `max_moves`.
        max_moves: u32,
    },
    /// A child in a tier the solver did not load for the tier being solved.
    #[error("tier {tier}: a position leads to tier {child}, which is not among the child tiers loaded for it")]
    UnknownChildTier {
        /// The tier being solved.
        tier: Tier,
        /// The child's tier.
        child: Tier,
    },
    /// A tier too large to hold in memory on this platform.
    #[error("tier {0} has {1} positions, more than this machine can address")]
    TooLarge(Tier, u64),
    /// A forward-only tier whose reverse graph does not fit its 32-bit indices.
    #[error("tier {tier} is too large for a reverse graph: {what}; give the module undo moves (generate_undo_moves_to_tier, undo_move) to solve it")]
    GraphTooLarge {
        /// The tier.
        tier: Tier,
        /// What overflowed.
        what: String,
    },
    /// Undo moves were asked for, but the module gives none.
    #[error("module '{0}' gives no undo moves (it is forward-only); solve it with --parents auto or forward")]
    NoUndoMoves(String),
    /// A solved tier's records do not follow from its children: nothing was stored.
    #[error(transparent)]
    Verify(#[from] verify::VerifyError),
    /// `--tier` named no tier of the game.
    #[error("the game has no tier named '{name}' (tiers are named as `info` and `query` show them, e.g. {like})")]
    NoSuchTier {
        /// The name given.
        name: String,
        /// Some names of real tiers.
        like: String,
    },
}

/// How to report a solve as it goes.
pub trait SolveProgress: Sync {
    /// The solve starts: the graph, and how many positions must be solved.
    fn start(&self, graph: &TierGraph, to_solve: u64);
    /// A stored tier is valid and kept.
    fn reused(&self, node: &TierNode);
    /// A stored tier is unusable and will be solved again.
    fn corrupt(&self, node: &TierNode, reason: &str);
    /// A tier starts.
    fn tier_started(&self, node: &TierNode);
    /// Positions of a tier were scanned.
    fn advance(&self, node: &TierNode, positions: u64);
    /// What a tier's solve is doing now (building a reverse graph, its size). Default:
    /// nothing shown.
    fn note(&self, _node: &TierNode, _what: &str) {}
    /// A tier is solved and stored.
    fn tier_finished(&self, node: &TierNode, took: Duration);
    /// The solve is over.
    fn finish(&self);
}

/// A progress reporter that says nothing.
pub struct Silent;

impl SolveProgress for Silent {
    fn start(&self, _: &TierGraph, _: u64) {}
    fn reused(&self, _: &TierNode) {}
    fn corrupt(&self, _: &TierNode, _: &str) {}
    fn tier_started(&self, _: &TierNode) {}
    fn advance(&self, _: &TierNode, _: u64) {}
    fn tier_finished(&self, _: &TierNode, _: Duration) {}
    fn finish(&self) {}
}

/// Options of a solve.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// Forget what the database holds and solve every tier again.
    pub force: bool,
    /// Where parents come from: undo moves, or a reverse graph built forward.
    pub parents: parents::ParentMode,
    /// Whether and against what the estimated memory need is checked.
    pub memory: memory::MemoryCheck,
    /// How much of each solved tier to check before storing it (default: a sample).
    pub verify: verify::VerifyMode,
    /// The seed of the sample's choice of positions.
    pub seed: u64,
    /// Which tiers to solve: all below the initial tier, or a closed part of them.
    pub scope: Scope,
}

/// Which tiers a solve covers. Every scope is closed under tier children, so its
/// tiers are solved exactly as in a whole solve.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Scope {
    /// Every tier reachable from the initial tier.
    #[default]
    Whole,
    /// The tiers within this many steps of the game's end (`TierGraph::endgame`).
    Endgame(usize),
    /// The named tier and every tier below it.
    Tier(String),
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Scope::Whole => write!(f, "every tier"),
            Scope::Endgame(k) => write!(f, "the endgame of {k} steps (--endgame {k})"),
            Scope::Tier(t) => write!(f, "tier {t} and the tiers below it (--tier {t})"),
        }
    }
}

/// The tiers `scope` covers, children first.
pub fn graph_of(game: &GameHandle, scope: &Scope) -> Result<TierGraph, SolveError> {
    let whole = TierGraph::discover(game)?;
    Ok(match scope {
        Scope::Whole => whole,
        Scope::Endgame(k) => whole.endgame(*k),
        Scope::Tier(name) => match whole.below(name) {
            Some(g) => g,
            None => {
                return Err(SolveError::NoSuchTier {
                    name: name.clone(),
                    like: whole.names_like(name, 8).join(", "),
                })
            }
        },
    })
}

/// What a solve did.
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// Tiers reachable from the initial tier.
    pub tiers: usize,
    /// Tiers solved in this run.
    pub tiers_solved: usize,
    /// Tiers kept from an earlier run.
    pub tiers_reused: usize,
    /// Positions (tier sizes) solved in this run.
    pub positions_solved: u64,
    /// Of them, the positions the solver held and stored: the canonical ones of a
    /// module that numbers them first (`canonical_prefix`), else all.
    pub positions_stored: u64,
    /// Positions in all tiers.
    pub positions_total: u64,
    /// Wall time of this run.
    pub elapsed: Duration,
    /// The initial position (canonical).
    pub initial: TierPosition,
    /// Its record.
    pub initial_record: Record,
    /// The budget planned against, in bytes (when known).
    pub budget: Option<u64>,
    /// How each tier solved in this run was solved, and its memory.
    pub memory: Vec<TierMemory>,
}

/// How one tier was solved and the memory it took.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TierMemory {
    /// The tier's name.
    pub name: String,
    /// Its way of solving (`plan::SolveMode::name`).
    pub mode: String,
    /// The planner's estimate of the peak while it was solved.
    pub estimated_bytes: u64,
    /// The process's resident high-water mark once it was solved (since the solve
    /// started: the peak of this tier or of one before it), where the system tells it.
    pub measured_bytes: Option<u64>,
}

/// The metadata the database stores for a tier of a full database: its stored
/// indices (the canonical prefix where the module numbers canonical positions first).
pub fn meta_of(node: &TierNode) -> TierMeta {
    TierMeta {
        tier: node.tier,
        name: node.name.clone(),
        size: node.stored,
    }
}

/// The metadata of a tier of a reachable-only database, which marks positions over
/// the tier's whole hash.
pub fn full_meta_of(node: &TierNode) -> TierMeta {
    TierMeta {
        tier: node.tier,
        name: node.name.clone(),
        size: node.size,
    }
}

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
    let plan = plan::plan(
        game,
        &graph,
        &|t| todo.contains(&t),
        rayon::current_num_threads(),
        BIG_TIER,
        &memory,
    );
    plan::log_plan(&plan);
    plan.check(&memory)?;
    progress.start(&graph, to_solve);

    // How many unsolved parents still need each tier's records.
    let mut waiting: HashMap<Tier, usize> = HashMap::new();
    for n in graph.order.iter().filter(|n| todo.contains(&n.tier)) {
        for c in &n.children {
            *waiting.entry(*c).or_default() += 1;
        }
    }
    let mut cache = ChildCache {
        db,
        graph: &graph,
        loaded: HashMap::new(),
        streamed: HashMap::new(),
        waiting,
    };

    let mut measured = Vec::new();
    for level in graph.levels() {
        let nodes: Vec<&TierNode> = level
            .iter()
            .filter_map(|t| graph.get(*t))
            .filter(|n| todo.contains(&n.tier))
            .collect();
        // Small tiers of a level are solved side by side; a large tier gets every
        // thread to itself, so memory stays near one tier plus its children.
        let (big, small): (Vec<&TierNode>, Vec<&TierNode>) =
            nodes.into_iter().partition(|n| n.stored >= BIG_TIER);
        let mut groups: Vec<Vec<&TierNode>> = Vec::new();
        if !small.is_empty() {
            groups.push(small);
        }
        groups.extend(big.into_iter().map(|n| vec![n]));
        for group in groups {
            let mut modes: Vec<SolveMode> = group.iter().map(|n| plan.mode_of(n.tier)).collect();
            loop {
                match solve_group(game, db, &group, &modes, &mut cache, options, progress) {
                    // Out of memory with a leaner way left: the tier is tried again
                    // that way (nothing of it was stored).
                    Err(SolveError::Memory(e @ memory::MemoryError::Allocation { .. }))
                        if group.len() == 1 && modes[0].leaner_for(game).is_some() =>
                    {
                        let leaner = modes[0].leaner_for(game).expect("checked");
                        log::warn!("{e}; solving it again {leaner}");
                        modes[0] = leaner;
                    }
                    other => break other?,
                }
            }
            let peak = plan::peak_rss();
            for (n, m) in group.iter().zip(&modes) {
                measured.push(TierMemory {
                    name: n.name.clone(),
                    mode: m.name().to_string(),
                    estimated_bytes: plan.peak_of(n.tier),
                    measured_bytes: peak,
                });
            }
        }
    }
    progress.finish();
    let mut report = report(game, db, &graph, &todo, started)?;
    report.budget = plan.budget.map(|b| b.bytes);
    report.memory = measured;
    Ok(report)
}

/// The memory options of a solve, with whether tiers go through a reverse graph.
pub fn memory_check(game: &GameHandle, options: &SolveOptions) -> memory::MemoryCheck {
    let reverse_graph = options.parents.uses_graph(game);
    let mut check = memory::MemoryCheck {
        reverse_graph,
        ..options.memory.clone()
    };
    // The module's own caches get a share of the budget, and count in every estimate.
    if let Some(budget) = plan::budget(&check) {
        let share = plan::module_share(budget.bytes);
        check.module_bytes = match game.memory_budget(share) {
            Ok(kept) => kept,
            Err(e) => {
                log::warn!("the module's memory budget could not be set ({e}); its own caches are not counted");
                0
            }
        };
        if check.module_bytes > 0 {
            log::info!(
                "the module keeps at most {} of its own (of {} offered)",
                memory::bytes(check.module_bytes),
                memory::bytes(share)
            );
        }
    }
    check
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
        initial,
        initial_record,
        budget: None,
        memory: Vec::new(),
    })
}

/// Tiers at least this large are solved one at a time and not kept in memory for
/// their parents (they are read back from the database when a parent needs them).
pub const BIG_TIER: u64 = 1 << 20;

/// Solves `nodes` (independent tiers) side by side, each in its way, and stores them.
fn solve_group(
    game: &GameHandle,
    db: &dyn Database,
    nodes: &[&TierNode],
    modes: &[SolveMode],
    cache: &mut ChildCache<'_>,
    options: &SolveOptions,
    progress: &dyn SolveProgress,
) -> Result<(), SolveError> {
    let mut inputs: Vec<Vec<ChildTier>> = Vec::with_capacity(nodes.len());
    for (n, &m) in nodes.iter().zip(modes) {
        let kids = n
            .children
            .iter()
            .map(|&c| cache.get(c, m))
            .collect::<Result<Vec<_>, SolveError>>()?;
        inputs.push(kids);
    }
    let solved: Vec<Option<TierRecords>> = nodes
        .par_iter()
        .zip(inputs.into_par_iter())
        .zip(modes.par_iter())
        .map(|((node, kids), &mode)| {
            solve_and_store_with(game, db, node, kids, mode, options, progress)
        })
        .collect::<Result<_, _>>()?;
    for n in nodes {
        for &c in &n.children {
            cache.release(c);
        }
    }
    for (n, records) in nodes.iter().zip(solved) {
        if let Some(records) = records {
            cache.offer(n.tier, records);
        }
    }
    Ok(())
}

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
    let mut mode = plan.mode_of(node.tier);
    loop {
        let kids = node
            .children
            .iter()
            .map(|&c| {
                let child = graph.get(c).expect("a node's children are in its graph");
                Ok(match mode {
                    SolveMode::Whole => {
                        ChildTier::Whole(ChildFrontier::new(c, db.load_tier(&meta_of(child))?))
                    }
                    SolveMode::Streamed | SolveMode::Compact | SolveMode::Byte => {
                        ChildTier::Streamed(Arc::new(streamed(db, child)?))
                    }
                })
            })
            .collect::<Result<Vec<_>, SolveError>>()?;
        match solve_and_store_with(game, db, node, kids, mode, options, progress) {
            Err(SolveError::Memory(e @ memory::MemoryError::Allocation { .. }))
                if mode.leaner_for(game).is_some() =>
            {
                mode = mode.leaner_for(game).expect("checked");
                log::warn!("{e}; solving it again {mode}");
            }
            other => {
                return other.map(|records| SolvedTier {
                    records,
                    memory: TierMemory {
                        name: node.name.clone(),
                        mode: mode.name().to_string(),
                        estimated_bytes: plan.peak_of(node.tier),
                        measured_bytes: plan::peak_rss(),
                    },
                    budget: plan.budget.as_ref().map(|b| b.bytes),
                })
            }
        }
    }
}

/// Solves one tier from its children's records (in memory, sorted by remoteness, or
/// streamed) and stores it atomically: the per-tier step every solve path takes, so
/// whatever a tier goes through before it is stored applies to all of them. Returns
/// its records, unless it was solved one byte a position (`SolveMode::Byte`): then
/// they are assembled block by block into the file, checked from there, and never
/// whole in memory.
pub fn solve_and_store_with(
    game: &GameHandle,
    db: &dyn Database,
    node: &TierNode,
    children: Vec<ChildTier>,
    mode: SolveMode,
    options: &SolveOptions,
    progress: &dyn SolveProgress,
) -> Result<Option<TierRecords>, SolveError> {
    let t0 = Instant::now();
    progress.tier_started(node);
    if mode == SolveMode::Byte && onebyte::serves(game) {
        let cells = retrograde::Cells::Byte(db.scratch_dir());
        let (_, state) = retrograde::solve_tier(
            game,
            node,
            &children,
            options.parents,
            &cells,
            &|k| progress.advance(node, k),
            &|what| progress.note(node, what),
        )?;
        let (cells, log) = state.one_byte().expect("solved one byte a position");
        let mut assembler = log.assembler(cells);
        let staged = db.stage_tier(&meta_of(node), &mut |first, out| assembler.fill(first, out))?;
        drop(assembler);
        drop(state);
        let selection =
            verify::Selection::of(options.verify, options.seed).map(verify::Selection::in_runs);
        verify::check_solved_tier(
            game,
            node,
            verify::Own::Source(staged.records(), false),
            &children,
            selection,
        )?;
        drop(children);
        staged.commit()?;
        progress.tier_finished(node, t0.elapsed());
        return Ok(None);
    }
    let records = solve_one(
        game,
        node,
        &children,
        options.parents,
        mode == SolveMode::Compact,
        &|k| progress.advance(node, k),
        &|what| progress.note(node, what),
    )?;
    // Checked against its children before it is stored, on every solve path.
    let mut selection = verify::Selection::of(options.verify, options.seed);
    if children.iter().any(|c| matches!(c, ChildTier::Streamed(_))) {
        // Children read through a block cache: the sample in runs of neighbours.
        selection = selection.map(verify::Selection::in_runs);
    }
    verify::check_solved_tier(game, node, (&records).into(), &children, selection)?;
    drop(children);
    db.store_tier(&meta_of(node), &records)?;
    progress.tier_finished(node, t0.elapsed());
    Ok(Some(records))
}

/// Solves one tier from its solved children: values, then WinBy where supported.
pub fn solve_one(
    game: &GameHandle,
    node: &TierNode,
    children: &[ChildTier],
    mode: parents::ParentMode,
    merged: bool,
    tick: retrograde::Tick<'_>,
    note: retrograde::Note<'_>,
) -> Result<TierRecords, SolveError> {
    // A tier that is not loopy needs no parents: one pass over its positions.
    if let Some(records) = by_children::solve(game, node, children, tick)? {
        return Ok(records);
    }
    let cells = if merged {
        retrograde::Cells::Merged
    } else {
        retrograde::Cells::Separate
    };
    let (mut records, state) =
        retrograde::solve_tier(game, node, children, mode, &cells, tick, note)?;
    if game.supports_winby() {
        records.winby = Some(winby::winby_pass(
            game,
            node,
            &state,
            &records.values,
            children,
        )?);
    }
    Ok(records)
}
