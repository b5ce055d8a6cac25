//! Solving one tier: the retrograde loopy solver of the Tier Gamesman seed.
//!
//! 1. Scan: every position of the tier is checked (legal, canonical), primitives and
//!    positions without moves are decided at once, the rest get a child counter.
//! 2. Win/lose: frontier levels in increasing remoteness, seeded by the solved child
//!    tiers and the tier's own decided positions; values flow to parents through undo
//!    moves (no parent pointers). A parent with a child that is a loss for the player
//!    moving there wins at once (so wins take the shortest path); a parent whose
//!    counter of children reaches zero loses (at the level of its longest child).
//! 3. Ties flow the same way after wins and losses; what is still undecided is a draw.
//!
//! When a move leaves the same player to move (go-again moves, every move of a puzzle)
//! the child's value is not inverted. Levels are processed in parallel with atomic
//! counters; results do not depend on the thread count. This file must not touch
//! databases or presentation.

use super::frontier::{ChildFrontier, OwnFrontier};
use super::memory::{filled, reserved};
use super::parents::{ParentMode, ParentSource, ReverseGraph};
use super::SolveError;
use crate::engine::game::GameHandle;
use crate::engine::record::{pack, value_of, TierRecords, MAX_REMOTENESS};
use crate::engine::tier::TierNode;
use gamesman_plugin_api::ffi::ScanRecord;
use gamesman_plugin_api::{Player, Tier, TierPosition, Value};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU8, Ordering::*};

/// Counter of a position the solver skips (illegal or not canonical).
const SKIP: u32 = u32::MAX;
/// Counter of a decided position.
const DECIDED: u32 = u32::MAX - 1;
/// Positions per scan call into the module.
const SCAN_CHUNK: usize = 2048;
/// Frontier positions per parents call into the module.
pub const PARENT_CHUNK: usize = 512;

/// How values flow from a child to a parent.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Two players alternate on every move: always invert.
    Alternate,
    /// A puzzle: never invert.
    Puzzle,
    /// Go-again moves: invert only when the player to move changes.
    ByTurn,
}

impl Flow {
    /// The flow a game's properties call for.
    pub fn of(game: &GameHandle) -> Flow {
        let p = game.properties();
        if p.players == 1 {
            Flow::Puzzle
        } else if p.go_again {
            Flow::ByTurn
        } else {
            Flow::Alternate
        }
    }
}

/// The state of a tier while it is solved.
pub struct TierState {
    /// The tier.
    pub tier: Tier,
    /// Child counters, `SKIP` or `DECIDED`.
    counters: Vec<AtomicU32>,
    /// Packed value and remoteness of decided positions.
    records: Vec<AtomicU16>,
    /// Player to move per position (kept for go-again games and WinBy).
    pub turns: Vec<AtomicU8>,
    /// Number of distinct children per position, from the scan (kept for WinBy).
    pub children: Vec<AtomicU32>,
    /// The module's WinBy of positions without children (kept for WinBy).
    pub leaf_winby: Vec<std::sync::atomic::AtomicI32>,
    /// Where parents come from (undo moves, or the tier's reverse graph).
    pub parents: ParentSource,
}

impl TierState {
    /// The value of position `i` (`UNDECIDED` until decided).
    pub fn value(&self, i: u64) -> Value {
        value_of(self.records[i as usize].load(Relaxed))
    }

    /// The packed record of position `i`.
    pub fn packed(&self, i: u64) -> u16 {
        self.records[i as usize].load(Relaxed)
    }

    /// Whether position `i` has no children (primitive or moveless) and is not skipped.
    pub fn is_leaf(&self, i: u64) -> bool {
        self.children[i as usize].load(Relaxed) == 0
    }
}

/// Called with the number of positions scanned, for progress.
pub type Tick<'a> = &'a (dyn Fn(u64) + Sync);

/// Called with a short note on what the tier's solve is doing (for the progress line).
pub type Note<'a> = &'a (dyn Fn(&str) + Sync);

/// Solves one tier. `children` are the solved child tiers (without the tier itself).
pub fn solve_tier(
    game: &GameHandle,
    node: &TierNode,
    children: &[ChildFrontier],
    mode: ParentMode,
    tick: Tick<'_>,
    note: Note<'_>,
) -> Result<(TierRecords, TierState), SolveError> {
    let flow = Flow::of(game);
    let winby = game.supports_winby();
    let keep_turns = winby || flow == Flow::ByTurn;
    let n =
        usize::try_from(node.stored).map_err(|_| SolveError::TooLarge(node.tier, node.stored))?;
    let state = TierState {
        tier: node.tier,
        counters: filled(game, node, "child counters", n, || AtomicU32::new(0))?,
        records: filled(game, node, "records", n, || AtomicU16::new(0))?,
        turns: if keep_turns {
            filled(game, node, "turns", n, || AtomicU8::new(0))?
        } else {
            Vec::new()
        },
        children: if winby {
            filled(game, node, "children counts", n, || AtomicU32::new(0))?
        } else {
            Vec::new()
        },
        leaf_winby: if winby {
            filled(game, node, "leaf margins", n, || {
                std::sync::atomic::AtomicI32::new(0)
            })?
        } else {
            Vec::new()
        },
        parents: ParentSource::UndoMoves,
    };

    let mut wl = OwnFrontier::default();
    let mut ties = OwnFrontier::default();
    let (decided_wl, decided_tie, edges) = scan(game, node, &state, tick)?;
    wl.push(0, decided_wl);
    ties.push(0, decided_tie);
    let mut state = state;
    if use_graph(game, mode)? {
        state.parents = ParentSource::Graph(build_graph(game, node, &state, edges, note)?);
    }

    // Wins and losses level by level, then ties once every win and loss is known.
    run_levels(game, node, &state, flow, children, &mut wl, Phase::WinLose)?;
    run_levels(game, node, &state, flow, children, &mut ties, Phase::Tie)?;

    // Whatever is still undecided never resolves: a draw.
    let mut values: Vec<u16> = reserved(game, node, "finished values", n)?;
    values.par_extend(
        state
            .counters
            .par_iter()
            .zip(state.records.par_iter())
            .map(|(c, rec)| match c.load(Relaxed) {
                SKIP => 0,
                DECIDED => rec.load(Relaxed),
                _ => pack(Value::DRAW, 0),
            }),
    );
    // Keep the final values visible to the WinBy pass; the counters are done with, and
    // freeing them now leaves that pass 4 bytes a position more room.
    values
        .par_iter()
        .zip(state.records.par_iter())
        .for_each(|(&v, rec)| rec.store(v, Relaxed));
    state.counters = Vec::new();
    Ok((
        TierRecords {
            values,
            winby: None,
        },
        state,
    ))
}

/// First pass: legality, primitives, child counters. Returns the positions decided as
/// win or lose, and as tie, at remoteness 0.
fn scan(
    game: &GameHandle,
    node: &TierNode,
    state: &TierState,
    tick: Tick<'_>,
) -> Result<(Vec<u64>, Vec<u64>, u64), SolveError> {
    let n = state.counters.len();
    let chunks = n.div_ceil(SCAN_CHUNK);
    let parts: Vec<(Vec<u64>, Vec<u64>, u64)> = (0..chunks)
        .into_par_iter()
        .map_init(
            || vec![ScanRecord::default(); SCAN_CHUNK],
            |buf, c| -> Result<(Vec<u64>, Vec<u64>, u64), SolveError> {
                let first = c * SCAN_CHUNK;
                let len = SCAN_CHUNK.min(n - first);
                let out = &mut buf[..len];
                game.scan_batch(node.tier, first as u64, out)?;
                let mut wl = Vec::new();
                let mut tie = Vec::new();
                let mut edges = 0u64;
                for (k, s) in out.iter().enumerate() {
                    let i = first + k;
                    if s.value == ScanRecord::SKIP {
                        state.counters[i].store(SKIP, Relaxed);
                        continue;
                    }
                    if !state.turns.is_empty() {
                        state.turns[i].store(s.turn, Relaxed);
                    }
                    if !state.children.is_empty() {
                        state.children[i].store(s.children, Relaxed);
                        let w = i32::try_from(s.winby).map_err(|_| SolveError::WinByOverflow {
                            position: TierPosition::new(node.tier, i as u64),
                            winby: s.winby,
                        })?;
                        state.leaf_winby[i].store(w, Relaxed);
                    }
                    let v = Value(s.value);
                    let decided = if v != Value::UNDECIDED {
                        Some(v)
                    } else if s.children == 0 {
                        // No moves and not primitive: the player to move loses.
                        Some(Value::LOSE)
                    } else {
                        None
                    };
                    match decided {
                        Some(v) => {
                            state.counters[i].store(DECIDED, Relaxed);
                            state.records[i].store(pack(v, 0), Relaxed);
                            if v == Value::TIE {
                                tie.push(i as u64);
                            } else {
                                wl.push(i as u64);
                            }
                        }
                        None => {
                            state.counters[i].store(s.children, Relaxed);
                            edges += s.children as u64;
                        }
                    }
                }
                tick(len as u64);
                Ok((wl, tie, edges))
            },
        )
        .collect::<Result<_, _>>()?;
    let mut wl = Vec::new();
    let mut tie = Vec::new();
    let mut edges = 0;
    for (a, b, e) in parts {
        wl.extend(a);
        tie.extend(b);
        edges += e;
    }
    Ok((wl, tie, edges))
}

/// Whether this solve builds a reverse graph instead of calling undo moves.
fn use_graph(game: &GameHandle, mode: ParentMode) -> Result<bool, SolveError> {
    match mode {
        ParentMode::Forward => Ok(true),
        ParentMode::Auto => Ok(!game.has_undo_moves()),
        ParentMode::UndoMoves if game.has_undo_moves() => Ok(false),
        ParentMode::UndoMoves => Err(SolveError::NoUndoMoves(game.module_name().to_string())),
    }
}

/// Builds the tier's reverse graph from its undecided positions (`edges` of them in
/// all, counted by the scan), logging what it costs.
fn build_graph(
    game: &GameHandle,
    node: &TierNode,
    state: &TierState,
    edges: u64,
    note: Note<'_>,
) -> Result<ReverseGraph, SolveError> {
    let mut child_tiers = Vec::with_capacity(node.children.len() + 1);
    for &c in &node.children {
        child_tiers.push((c, game.tier_size(c)?));
    }
    if node.loopy {
        child_tiers.push((node.tier, node.size));
    }
    let child_positions: u64 = child_tiers.iter().map(|&(_, s)| s + 1).sum();
    let estimate = super::parents::graph_bytes(edges, child_positions);
    // Tiny graphs are not worth a line each; the debug log has every one.
    if estimate >= 1 << 20 {
        note(&format!(
            "building the reverse graph: {} moves, about {} MB",
            crate::engine::numbers::count(edges),
            estimate.div_ceil(1 << 20)
        ));
    }
    let inner = |i: u64| {
        let c = state.counters[i as usize].load(Relaxed);
        c != SKIP && c != DECIDED
    };
    let graph = ReverseGraph::build(game, node, &inner, &child_tiers)?;
    log::debug!(
        "tier {}: reverse graph built, {} moves, {} bytes",
        node.tier,
        graph.edges(),
        graph.bytes()
    );
    Ok(graph)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    WinLose,
    Tie,
}

/// Processes one phase's frontier in increasing remoteness: at each level the child
/// tiers' positions and (in a loopy tier) the tier's own decided positions send their
/// values to their parents; parents decided by it form the next level.
fn run_levels(
    game: &GameHandle,
    node: &TierNode,
    state: &TierState,
    flow: Flow,
    children: &[ChildFrontier],
    own: &mut OwnFrontier,
    phase: Phase,
) -> Result<(), SolveError> {
    let child_levels = children
        .iter()
        .map(|cf| match phase {
            Phase::WinLose => cf.wl_levels(),
            Phase::Tie => cf.tie_levels(),
        })
        .max()
        .unwrap_or(0);
    let mut r = 0u32;
    while r < child_levels || own.any_from(r) {
        let mut next = Vec::new();
        for cf in children {
            let level = match phase {
                Phase::WinLose => cf.wins_losses(r),
                Phase::Tie => cf.ties(r),
            };
            next.extend(propagate(
                game,
                state,
                flow,
                cf.tier,
                level,
                r,
                phase,
                |i| cf.records.packed(i),
            )?);
        }
        let mine = own.take(r);
        if node.loopy {
            next.extend(propagate(
                game,
                state,
                flow,
                node.tier,
                &mine,
                r,
                phase,
                |i| state.packed(i),
            )?);
        }
        if !next.is_empty() {
            if r + 1 > MAX_REMOTENESS {
                return Err(SolveError::RemotenessOverflow(node.tier));
            }
            own.push(r + 1, next);
        }
        r += 1;
    }
    Ok(())
}

/// Sends the values of `positions` (of `child_tier`, all at remoteness `r`) to their
/// parents in the tier being solved; returns the parents decided by it (at `r + 1`).
#[allow(clippy::too_many_arguments)]
fn propagate(
    game: &GameHandle,
    state: &TierState,
    flow: Flow,
    child_tier: Tier,
    positions: &[u64],
    r: u32,
    phase: Phase,
    // Generic rather than `dyn`: it runs once per child position, and inlined it is a
    // load.
    packed_of: impl Fn(u64) -> u16 + Sync,
) -> Result<Vec<u64>, SolveError> {
    if positions.is_empty() {
        return Ok(Vec::new());
    }
    let parts: Vec<Vec<u64>> = positions
        .par_chunks(PARENT_CHUNK)
        .map_init(
            ParentBuffers::default,
            |bufs, chunk| -> Result<Vec<u64>, SolveError> {
                let mut decided = Vec::new();
                for_each_parents(game, state, child_tier, chunk, bufs, |c, found| {
                    if found.is_empty() {
                        return Ok(());
                    }
                    let child_value = value_of(packed_of(c));
                    let child_turn = if flow == Flow::ByTurn {
                        Some(turn_of(game, state, child_tier, c)?)
                    } else {
                        None
                    };
                    for &p in found {
                        if p as usize >= state.counters.len() {
                            return Err(SolveError::PastPrefix {
                                tier: state.tier,
                                index: p,
                                prefix: state.counters.len() as u64,
                            });
                        }
                        let v = match flow {
                            Flow::Alternate => child_value.invert(),
                            Flow::Puzzle => child_value,
                            Flow::ByTurn => {
                                if Some(Player(state.turns[p as usize].load(Relaxed))) == child_turn
                                {
                                    child_value
                                } else {
                                    child_value.invert()
                                }
                            }
                        };
                        if update(state, p, v, r + 1, phase) {
                            decided.push(p);
                        }
                    }
                    Ok(())
                })?;
                Ok(decided)
            },
        )
        .collect::<Result<_, _>>()?;
    Ok(parts.concat())
}

/// Scratch buffers of one thread for `for_each_parents`: empty at first; the undo-move
/// path sizes them on its first chunk, and the reverse graph needs only `one`.
#[derive(Default)]
pub struct ParentBuffers {
    parents: Vec<u64>,
    counts: Vec<u32>,
    one: Vec<u64>,
}

/// Calls `f(child, parents)` (generic: it runs once per child) for each child in `chunk` (positions of `child_tier`, at
/// most `PARENT_CHUNK`), with its distinct parents in the tier being solved.
pub fn for_each_parents(
    game: &GameHandle,
    state: &TierState,
    child_tier: Tier,
    chunk: &[u64],
    bufs: &mut ParentBuffers,
    mut f: impl FnMut(u64, &[u64]) -> Result<(), SolveError>,
) -> Result<(), SolveError> {
    match &state.parents {
        ParentSource::UndoMoves => {
            if bufs.parents.is_empty() {
                let cap = game.properties().max_undo_moves as usize;
                bufs.parents = vec![0u64; PARENT_CHUNK * cap];
                bufs.counts = vec![0u32; PARENT_CHUNK];
            }
            game.parents_batch(
                child_tier,
                chunk,
                state.tier,
                &mut bufs.parents,
                &mut bufs.counts,
            )?;
            let mut at = 0usize;
            for (k, &c) in chunk.iter().enumerate() {
                let m = bufs.counts[k] as usize;
                f(c, &bufs.parents[at..at + m])?;
                at += m;
            }
        }
        ParentSource::Graph(g) => {
            for &c in chunk {
                bufs.one.clear();
                bufs.one.extend(g.parents(child_tier, c));
                f(c, &bufs.one)?;
            }
        }
    }
    Ok(())
}

fn turn_of(game: &GameHandle, state: &TierState, tier: Tier, i: u64) -> Result<Player, SolveError> {
    if tier == state.tier {
        Ok(Player(state.turns[i as usize].load(Relaxed)))
    } else {
        Ok(game.turn(TierPosition::new(tier, i))?)
    }
}

/// Applies a child's value `v` (from the parent's mover's view) to parent `p`; returns
/// whether this decided `p` (at remoteness `r`).
#[inline]
fn update(state: &TierState, p: u64, v: Value, r: u32, phase: Phase) -> bool {
    let counter = &state.counters[p as usize];
    let mut cur = counter.load(Relaxed);
    loop {
        if cur >= DECIDED {
            return false;
        }
        let (new, decided_as) = match phase {
            Phase::Tie => (DECIDED, Value::TIE),
            Phase::WinLose if v == Value::WIN => (DECIDED, Value::WIN),
            Phase::WinLose if v == Value::LOSE => {
                if cur == 1 {
                    (DECIDED, Value::LOSE)
                } else {
                    (cur - 1, Value::UNDECIDED)
                }
            }
            Phase::WinLose => return false,
        };
        match counter.compare_exchange_weak(cur, new, AcqRel, Relaxed) {
            Ok(_) => {
                if new == DECIDED {
                    state.records[p as usize].store(pack(decided_as, r), Relaxed);
                    return true;
                }
                return false;
            }
            Err(actual) => cur = actual,
        }
    }
}
