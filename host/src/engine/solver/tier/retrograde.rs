//! Solving one tier: the retrograde loopy solver of the Tier Gamesman seed.
//!
//! 1. Scan: every position of the tier is checked (legal, canonical), primitives and
//!    positions without moves are decided at once, the rest get a child counter.
//! 2. Win/lose: frontier levels in increasing remoteness, seeded by the solved child
//!    tiers and the tier's own decided positions; values flow to parents through undo
//!    moves or a reverse graph (`parents`), or, from child tiers whose values the
//!    scan read, as seeds (`seeds`). A parent with a child that is a loss for the player
//!    moving there wins at once (so wins take the shortest path); a parent whose
//!    counter of children reaches zero loses (at the level of its longest child).
//! 3. Ties flow the same way after wins and losses; what is still undecided is a draw.
//!
//! When a move leaves the same player to move (go-again moves, every move of a puzzle)
//! the child's value is not inverted. Levels are processed in parallel with atomic
//! counters; results do not depend on the thread count. The scan is in `scan`, the
//! level passes in `levels`; this file sets up a tier's state and runs them. It must
//! not touch databases or presentation.

use super::counters::{status, ByteCell, Cell, Counters, Status};
use super::ctx::{Note, Tick, TierCtx};
use super::levels::Levels;
use super::need::graph_bytes;
use super::onebyte::RemotenessLog;
use super::parents::{Moves, ParentSource, ReverseGraph};
use super::recipe::{GraphMoves, Layout, Parents, Retrograde};
use super::scan::{scan, Fused, Scanned};
use super::state::TierState;
use crate::engine::record::{pack, TierRecords};
use crate::engine::solver::base::SolveError;
use crate::engine::solver::input::frontier::{Bits, ChildFrontier};
use crate::engine::solver::input::ChildTier;
use gamesman_plugin_api::{Tier, Value};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering::*};

/// Solves one tier retrograde as `recipe` says (`Recipe::choose`). `children` are the
/// solved child tiers (without the tier itself).
pub fn solve_tier(
    ctx: &TierCtx<'_>,
    children: &[ChildTier],
    recipe: &Retrograde,
    tick: Tick<'_>,
    note: Note<'_>,
) -> Result<(TierRecords, TierState), SolveError> {
    let node = ctx.node;
    let (flow, winby) = (recipe.flow, recipe.winby);
    let n =
        usize::try_from(node.stored).map_err(|_| SolveError::TooLarge(node.tier, node.stored))?;
    let counters = match &recipe.layout {
        Layout::Byte(_) => Counters::Byte(ctx.filled("one-byte cells", n, ByteCell::zero)?),
        Layout::Merged => Counters::Merged,
        Layout::Narrow => Counters::Narrow(ctx.filled("child counters", n, AtomicU8::zero)?),
        Layout::Wide => Counters::Wide(ctx.filled("child counters", n, AtomicU32::zero)?),
    };
    let state = TierState {
        tier: node.tier,
        records: if matches!(counters, Counters::Byte(_)) {
            Vec::new()
        } else {
            ctx.filled("records", n, || AtomicU16::new(0))?
        },
        counters,
        turns: if recipe.keep_turns {
            ctx.filled("turns", n, || AtomicU8::new(0))?
        } else {
            Vec::new()
        },
        children: if winby {
            ctx.filled("children counts", n, || AtomicU32::new(0))?
        } else {
            Vec::new()
        },
        leaf_winby: if winby {
            ctx.filled("leaf margins", n, || std::sync::atomic::AtomicI32::new(0))?
        } else {
            Vec::new()
        },
        parents: ParentSource::UndoMoves,
        log: match &recipe.layout {
            Layout::Byte(dir) => Some(RemotenessLog::new(dir.as_deref())?),
            _ => None,
        },
    };
    // The frontier: positions decided at the level being sent on, and at the next.
    let words = Bits::words_for(n);
    let mut now = Bits::from_words(ctx.filled("frontier", words, || AtomicU64::new(0))?);
    let mut next = Bits::from_words(ctx.filled("frontier", words, || AtomicU64::new(0))?);

    let fronts: Vec<&ChildFrontier> = children
        .iter()
        .filter_map(|c| match c {
            ChildTier::Whole(f) => Some(f),
            ChildTier::Streamed(_) => None,
        })
        .collect();
    let fused = match &recipe.parents {
        Parents::Graph {
            parts,
            seeded,
            moves: GraphMoves::Scanned,
        } => Some(Fused {
            parts: Some(parts.as_slice()),
            seeds: seeded.then_some(fronts.as_slice()),
        }),
        Parents::UndoMoves { seeded: true } => Some(Fused {
            parts: None,
            seeds: Some(fronts.as_slice()),
        }),
        _ => None,
    };
    let Scanned {
        edges,
        kept: given,
        seeds,
    } = match &state.counters {
        Counters::Narrow(c) => scan(ctx, &state, c, &now, fused, tick)?,
        Counters::Wide(c) => scan(ctx, &state, c, &now, fused, tick)?,
        Counters::Merged => scan(ctx, &state, &state.records, &now, fused, tick)?,
        Counters::Byte(c) => scan(ctx, &state, c, &now, fused, tick)?,
    };
    let edges = match &given {
        // The graph holds the kept moves only (those within the tier when seeded).
        Some(kept) => kept.iter().map(|e| e.moves() as u64).sum(),
        None => edges,
    };
    let mut state = state;
    if let Parents::Graph { parts, moves, .. } = &recipe.parents {
        let moves = match (given, *moves) {
            (Some(kept), _) => Moves::Given(kept),
            (None, GraphMoves::KeptWithin(room)) => {
                let child_positions: u64 = parts.iter().map(|&(_, s)| s + 1).sum();
                let need =
                    graph_bytes(edges, child_positions).saturating_add(edges.saturating_mul(8));
                if need <= room {
                    Moves::Keep
                } else {
                    Moves::Twice
                }
            }
            (None, _) => Moves::Keep,
        };
        state.parents = ParentSource::Graph(build_graph(ctx, &state, edges, parts, moves, note)?);
    }

    // Wins and losses level by level, then ties once every win and loss is known.
    let mut log = state.log.take();
    let mut levels = Levels {
        ctx,
        state: &state,
        log: log.as_mut(),
        flow,
        children,
        seeds: seeds.as_ref(),
        now: &mut now,
        next: &mut next,
    };
    match &state.counters {
        Counters::Narrow(c) => levels.both_phases(c)?,
        Counters::Wide(c) => levels.both_phases(c)?,
        Counters::Merged => levels.both_phases(&state.records)?,
        Counters::Byte(c) => levels.both_phases(c)?,
    }
    drop((now, next, seeds));
    state.log = log;
    if let Counters::Byte(c) = &state.counters {
        // Whatever is still undecided never resolves: a draw. The records are
        // assembled from the cells and the log when the tier is stored.
        c.par_iter().for_each(ByteCell::finish);
        return Ok((
            TierRecords {
                values: Vec::new(),
                winby: None,
            },
            state,
        ));
    }

    // Whatever is still undecided never resolves: a draw.
    let counters = std::mem::replace(&mut state.counters, Counters::Narrow(Vec::new()));
    match &counters {
        Counters::Narrow(c) => finish(&state.records, c),
        Counters::Wide(c) => finish(&state.records, c),
        Counters::Merged => finish(&state.records, &state.records),
        Counters::Byte(_) => unreachable!("returned above"),
    }
    drop(counters);
    let values: Vec<u16> = if winby {
        // The WinBy pass reads the final values from the state; it gets its own copy.
        let mut v = ctx.reserved("finished values", n)?;
        v.par_extend(state.records.par_iter().map(|r| r.load(Relaxed)));
        v
    } else {
        // Converted in place (an atomic and its value have the same layout).
        std::mem::take(&mut state.records)
            .into_iter()
            .map(AtomicU16::into_inner)
            .collect()
    };
    Ok((
        TierRecords {
            values,
            winby: None,
        },
        state,
    ))
}

/// Turns counters into final records: skipped positions 0, open ones draws.
fn finish<C: Cell>(records: &[AtomicU16], counters: &[C]) {
    records
        .par_iter()
        .zip(counters.par_iter())
        .for_each(|(rec, c)| match status(c) {
            Status::Skip => rec.store(0, Relaxed),
            Status::Decided => {}
            Status::Open(_) => rec.store(pack(Value::DRAW, 0), Relaxed),
        });
}

/// Builds the tier's reverse graph from its undecided positions (`edges` of them in
/// all, counted by the scan) into `child_tiers` (`graph_tiers`), with the moves
/// found as `moves` says, logging what it costs.
fn build_graph(
    ctx: &TierCtx<'_>,
    state: &TierState,
    edges: u64,
    child_tiers: &[(Tier, u64)],
    moves: Moves,
    note: Note<'_>,
) -> Result<ReverseGraph, SolveError> {
    let node = ctx.node;
    let child_positions: u64 = child_tiers.iter().map(|&(_, s)| s + 1).sum();
    let estimate = graph_bytes(edges, child_positions);
    // Tiny graphs are not worth a line each; the debug log has every one.
    if estimate >= 1 << 20 {
        note(&format!(
            "building the reverse graph: {} moves, about {} MB",
            crate::engine::numbers::count(edges),
            estimate.div_ceil(1 << 20)
        ));
    }
    let inner = |i: u64| {
        matches!(
            state.counters.status(&state.records, i as usize),
            Status::Open(_)
        )
    };
    let how = match &moves {
        Moves::Given(_) => "from the scan's expansion",
        Moves::Keep => "from one expansion",
        Moves::Twice => "from two expansions",
    };
    let graph = ReverseGraph::build_in(ctx, &inner, child_tiers, moves)?;
    log::debug!(
        "tier {}: reverse graph built, {} moves, {} bytes, {}",
        node.tier,
        graph.edges(),
        graph.bytes(),
        how
    );
    Ok(graph)
}
