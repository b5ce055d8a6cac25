//! The WinBy pass: after a tier's values are known, every decided position gets its
//! margin from player one's view (the WinBy seed). Primitives take the module's
//! `win_by`; other positions the maximum over their decided children when player one
//! moves and the minimum when player two moves, so a child with the parent's WinBy is
//! always a best move.
//!
//! Children in child tiers are folded first: through the tier's reverse graph where it
//! holds their moves (each child read once, in order), else from the module's
//! children of every position. A position is finished once all its decided children
//! in the same tier are; values flow upward through the tier's parents (undo moves or
//! the graph) like the retrograde pass. Positions on a cycle of
//! decided positions (possible only in loopy tiers) cannot be ordered; they take the
//! extreme over the children that did finish, and are counted in the log. This file
//! must not change values or remoteness.

use super::ctx::{TierCtx, PARENT_CHUNK};
use super::parents::{for_each_parents, ParentBuffers, ParentSource, ReverseGraph};
use super::state::TierState;
use crate::engine::record::value_of;
use crate::engine::solver::base::SolveError;
use crate::engine::solver::input::ChildTier;
use gamesman_plugin_api::{Tier, TierPosition, Value};
use rayon::prelude::*;
use std::sync::atomic::{AtomicI32, AtomicU32, Ordering::*};

/// Positions per module call; parents go through `for_each_parents`, whose chunks hold
/// at most `PARENT_CHUNK`.
const CHUNK: usize = PARENT_CHUNK;
/// `pending` of a position finished by a wave of the loopy pass.
const FINISHED_IN_WAVE: u32 = u32::MAX;

fn decided(v: Value) -> bool {
    v == Value::WIN || v == Value::LOSE || v == Value::TIE
}

/// Computes the WinBy of every decided position of the tier.
pub fn winby_pass(
    ctx: &TierCtx<'_>,
    state: &TierState,
    values: &[u16],
    children: &[ChildTier],
) -> Result<Vec<i32>, SolveError> {
    let (game, node) = (ctx.game, ctx.node);
    let n = values.len();
    let winby = ctx.filled("margins", n, || AtomicI32::new(0))?;
    let pending = ctx.filled("pending counts", n, || AtomicU32::new(0))?;
    let maximizes = |i: u64| state.turns[i as usize].load(Relaxed) == 1;
    // `winby` doubles as the accumulator of an unfinished position: it starts at the
    // identity of its player's extreme and `finish` turns an untouched one into 0. No
    // separate accumulator array: at 4 bytes a position this pass is what bounds the
    // largest tier that fits in memory (mothello 4x5).
    let finish = |i: u64| {
        let a = winby[i as usize].load(Acquire);
        if a == i32::MIN || a == i32::MAX {
            winby[i as usize].store(0, Release);
        }
    };
    let fold = |i: u64, w: i64| {
        let w = w.clamp(i32::MIN as i64 + 1, i32::MAX as i64 - 1) as i32;
        if maximizes(i) {
            winby[i as usize].fetch_max(w, AcqRel);
        } else {
            winby[i as usize].fetch_min(w, AcqRel);
        }
    };
    let is_inner = |i: u64| decided(value_of(values[i as usize])) && !state.is_leaf(i);

    // Leaves take the module's margin; inner positions start at their identity.
    winby.par_iter().enumerate().for_each(|(i, w)| {
        if !decided(value_of(values[i])) {
            return;
        }
        let start = if state.is_leaf(i as u64) {
            state.leaf_winby[i].load(Relaxed)
        } else if maximizes(i as u64) {
            i32::MIN
        } else {
            i32::MAX
        };
        w.store(start, Relaxed);
    });
    // Inner positions fold their children in other tiers and count their decided
    // children in this tier: from the reverse graph where it holds every such move
    // (no module call), else from the module's children.
    let pass = Margins {
        values,
        pending: &pending,
        is_inner: &is_inner,
        fold: &fold,
        finish: &finish,
    };
    match whole_graph(state, children, node.loopy) {
        Some(graph) => pass.by_graph(graph, node.tier, children)?,
        None => pass.by_children(ctx, children)?,
    }
    let ranges = n.div_ceil(CHUNK);

    if node.loopy {
        // Finished positions release their parents in this tier, wave after wave. The
        // first wave is every position finished so far (pending 0: leaves and positions
        // without decided children here), found by walking index ranges; a position
        // finished by a wave is marked `FINISHED_IN_WAVE`, so no range walk sees it twice.
        let release = |chunk: &[u64],
                       bufs: &mut ParentBuffers,
                       done: &mut Vec<u64>|
         -> Result<(), SolveError> {
            for_each_parents(
                game,
                state.parents(),
                node.tier,
                chunk,
                bufs,
                |c, parents| {
                    let w = winby[c as usize].load(Acquire) as i64;
                    for &q in parents {
                        if !is_inner(q) {
                            continue;
                        }
                        fold(q, w);
                        let left = pending[q as usize].fetch_update(AcqRel, Acquire, |x| match x {
                            0 | FINISHED_IN_WAVE => None,
                            1 => Some(FINISHED_IN_WAVE),
                            x => Some(x - 1),
                        });
                        if left == Ok(1) {
                            finish(q);
                            done.push(q);
                        }
                    }
                    Ok(())
                },
            )
        };
        let first: Vec<Vec<u64>> = (0..ranges)
            .into_par_iter()
            .map_init(
                || (ParentBuffers::default(), Vec::with_capacity(CHUNK)),
                |(bufs, chunk), r| -> Result<Vec<u64>, SolveError> {
                    let lo = (r * CHUNK) as u64;
                    let hi = ((r + 1) * CHUNK).min(n) as u64;
                    chunk.clear();
                    chunk.extend((lo..hi).filter(|&i| {
                        decided(value_of(values[i as usize]))
                            && pending[i as usize].load(Acquire) == 0
                    }));
                    let mut done = Vec::new();
                    if !chunk.is_empty() {
                        release(chunk, bufs, &mut done)?;
                    }
                    Ok(done)
                },
            )
            .collect::<Result<_, _>>()?;
        let mut wave = first.concat();
        while !wave.is_empty() {
            let next: Vec<Vec<u64>> = wave
                .par_chunks(CHUNK)
                .map_init(
                    ParentBuffers::default,
                    |bufs, chunk| -> Result<Vec<u64>, SolveError> {
                        let mut done = Vec::new();
                        release(chunk, bufs, &mut done)?;
                        Ok(done)
                    },
                )
                .collect::<Result<_, _>>()?;
            wave = next.concat();
        }
        let cyclic: Vec<u64> = (0..n as u64)
            .into_par_iter()
            .filter(|&i| {
                let left = pending[i as usize].load(Relaxed);
                is_inner(i) && left != 0 && left != FINISHED_IN_WAVE
            })
            .collect();
        if !cyclic.is_empty() {
            log::warn!(
                "tier {} ({}): {} positions lie on cycles of decided positions; their WinBy counts only the children outside those cycles",
                node.tier,
                node.name,
                cyclic.len()
            );
            cyclic.par_iter().for_each(|&i| finish(i));
        }
    }
    Ok(winby.into_iter().map(AtomicI32::into_inner).collect())
}

/// The reverse graph of the tier when it holds every move the WinBy pass folds: a
/// part for each child tier and, when the tier is loopy, for the tier itself (a
/// seeded graph holds only the latter). Its parents are the positions the scan left
/// open, which are all the inner ones: the scan decides only positions without
/// children.
fn whole_graph<'a>(
    state: &'a TierState,
    children: &[ChildTier],
    loopy: bool,
) -> Option<&'a ReverseGraph> {
    let ParentSource::Graph(graph) = &state.parents else {
        return None;
    };
    let covered = children.iter().all(|c| graph.part(c.tier()).is_some())
        && (!loopy || graph.part(state.tier).is_some());
    covered.then_some(graph)
}

/// The first part of the WinBy pass: each inner position folds the margins of its
/// decided children in other tiers and counts its decided children in this tier.
struct Margins<'a> {
    values: &'a [u16],
    pending: &'a [AtomicU32],
    is_inner: &'a (dyn Fn(u64) -> bool + Sync),
    fold: &'a (dyn Fn(u64, i64) + Sync),
    finish: &'a (dyn Fn(u64) + Sync),
}

impl Margins<'_> {
    /// From the module's children of each inner position, in ranges of indices (so
    /// the pass allocates nothing per position; nothing is listed).
    fn by_children(&self, ctx: &TierCtx<'_>, children: &[ChildTier]) -> Result<(), SolveError> {
        let (game, node) = (ctx.game, ctx.node);
        let n = self.values.len();
        let cap = game.properties().max_moves as usize;
        (0..n.div_ceil(CHUNK)).into_par_iter().try_for_each_init(
            || {
                (
                    vec![TierPosition::default(); CHUNK * cap],
                    vec![0u32; CHUNK],
                    Vec::with_capacity(CHUNK),
                )
            },
            |(kids, counts, chunk), r| -> Result<(), SolveError> {
                let lo = (r * CHUNK) as u64;
                let hi = ((r + 1) * CHUNK).min(n) as u64;
                chunk.clear();
                chunk.extend((lo..hi).filter(|&i| (self.is_inner)(i)));
                if chunk.is_empty() {
                    return Ok(());
                }
                game.children_batch(node.tier, chunk, kids, counts)?;
                let mut at = 0usize;
                for (k, &p) in chunk.iter().enumerate() {
                    let mut waiting = 0u32;
                    for c in &kids[at..at + counts[k] as usize] {
                        if c.tier == node.tier {
                            if decided(value_of(self.values[c.position as usize])) {
                                waiting += 1;
                            }
                        } else if let Some(cf) = children.iter().find(|cf| cf.tier() == c.tier) {
                            let rec = cf.record(c.position)?;
                            if let (true, Some(w)) = (decided(rec.value), rec.winby) {
                                (self.fold)(p, w);
                            }
                        }
                    }
                    at += counts[k] as usize;
                    self.pending[p as usize].store(waiting, Relaxed);
                    if waiting == 0 {
                        (self.finish)(p);
                    }
                }
                Ok(())
            },
        )
    }

    /// From the tier's reverse graph (`whole_graph`): each decided child sends its
    /// margin, or its count, to its inner parents. The child tiers' records are read
    /// in order, once each, where the children pass read one per move, scattered.
    fn by_graph(
        &self,
        graph: &ReverseGraph,
        tier: Tier,
        children: &[ChildTier],
    ) -> Result<(), SolveError> {
        for cf in children {
            let part = graph
                .part(cf.tier())
                .expect("whole_graph checked every child tier");
            let m = part.positions() as usize;
            (0..m.div_ceil(CHUNK))
                .into_par_iter()
                .try_for_each(|r| -> Result<(), SolveError> {
                    for c in (r * CHUNK) as u64..((r + 1) * CHUNK).min(m) as u64 {
                        let mut parents = part.parents_of(c).peekable();
                        if parents.peek().is_none() {
                            continue;
                        }
                        let rec = cf.record(c)?;
                        let (true, Some(w)) = (decided(rec.value), rec.winby) else {
                            continue;
                        };
                        for q in parents.filter(|&q| (self.is_inner)(q)) {
                            (self.fold)(q, w);
                        }
                    }
                    Ok(())
                })?;
        }
        let n = self.values.len();
        if let Some(part) = graph.part(tier) {
            let m = (part.positions() as usize).min(n);
            (0..m).into_par_iter().for_each(|c| {
                if !decided(value_of(self.values[c])) {
                    return;
                }
                for q in part.parents_of(c as u64).filter(|&q| (self.is_inner)(q)) {
                    self.pending[q as usize].fetch_add(1, Relaxed);
                }
            });
        }
        (0..n as u64).into_par_iter().for_each(|i| {
            if (self.is_inner)(i) && self.pending[i as usize].load(Relaxed) == 0 {
                (self.finish)(i);
            }
        });
        Ok(())
    }
}
