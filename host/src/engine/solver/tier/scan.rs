//! The first pass over a tier: every position is checked (legal, canonical),
//! primitives and positions without moves are decided at once, the rest get a child
//! counter. A fused scan also keeps each expanded position's children for the
//! reverse graph, and a seeded one reads the values of children in child tiers as it
//! goes (`seeds`), for a graph of the moves within the tier or for undo moves. This
//! file must not send values to parents: the level passes do.

use super::counters::Cell;
use super::ctx::{Tick, TierCtx};
use super::kept::{undeclared, Expanded};
use super::seeds::{SeedChunk, Seeds};
use super::state::TierState;
use crate::engine::solver::base::SolveError;
use crate::engine::solver::input::frontier::{Bits, ChildFrontier};
use gamesman_plugin_api::ffi::ScanRecord;
use gamesman_plugin_api::{Tier, TierPosition, Value};
use rayon::prelude::*;
use std::sync::atomic::Ordering::Relaxed;

/// Positions per scan call into the module (a multiple of 64: a chunk fills whole
/// words of the frontier bitmap).
const SCAN_CHUNK: usize = 2048;

/// First pass: legality, primitives, child counters. Marks the positions decided as
/// win or lose at remoteness 0 in `wl` (ties are read back from the records later);
/// returns the number of moves of undecided positions.
pub(super) fn scan<C: Cell>(
    ctx: &TierCtx<'_>,
    state: &TierState,
    counters: &[C],
    wl: &Bits,
    keep: Option<Fused<'_>>,
    tick: Tick<'_>,
) -> Result<Scanned, SolveError> {
    let (game, node) = (ctx.game, ctx.node);
    let n = counters.len();
    let chunks = n.div_ceil(SCAN_CHUNK);
    let max_moves = game.properties().max_moves as usize;
    let room = if keep.is_some() {
        FUSED_BATCH * max_moves
    } else {
        0
    };
    let mut done = (0..chunks)
        .into_par_iter()
        .map_init(
            || {
                (
                    vec![ScanRecord::default(); SCAN_CHUNK],
                    vec![TierPosition::default(); room],
                )
            },
            |(buf, kids), c| -> Result<(u64, Expanded, SeedChunk), SolveError> {
                let first = c * SCAN_CHUNK;
                let len = SCAN_CHUNK.min(n - first);
                let out = &mut buf[..len];
                let mut kept = keep
                    .and_then(|f| f.parts)
                    .map_or_else(Expanded::default, Expanded::new);
                let mut seeds = SeedChunk::default();
                match keep {
                    None => game.scan_batch(node.tier, first as u64, out)?,
                    Some(fused) => {
                        for (b, batch) in out.chunks_mut(FUSED_BATCH).enumerate() {
                            let start = first + b * FUSED_BATCH;
                            let kids = &mut kids[..batch.len() * max_moves];
                            if !game.scan_children_batch(node.tier, start as u64, batch, kids)? {
                                return Err(SolveError::Module(game.bad_output(
                                    "scan_children_batch",
                                    format!("gave no children with its scan from {start}"),
                                )));
                            }
                            let batch = Batch {
                                start: start as u64,
                                records: batch,
                                kids,
                            };
                            batch.keep(ctx, fused, &mut kept, &mut seeds)?;
                        }
                    }
                }
                let mut edges = 0u64;
                for (k, s) in out.iter().enumerate() {
                    let i = first + k;
                    if s.value == ScanRecord::SKIP {
                        counters[i].put(C::SKIP);
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
                            counters[i].put(C::DECIDED);
                            counters[i].settle(&state.records, i, v, 0);
                            if v != Value::TIE {
                                wl.set(i as u64);
                            }
                        }
                        None => {
                            if s.children >= C::DECIDED {
                                return Err(SolveError::TooManyChildren {
                                    position: TierPosition::new(node.tier, i as u64),
                                    children: s.children,
                                    max_moves: game.properties().max_moves,
                                });
                            }
                            counters[i].put(s.children);
                            edges += s.children as u64;
                        }
                    }
                }
                tick(len as u64);
                Ok((edges, kept, seeds))
            },
        )
        .collect::<Result<Vec<_>, SolveError>>()?;
    let edges = done.iter().map(|(e, _, _)| e).sum();
    let seeds = match keep {
        Some(Fused { seeds: Some(_), .. }) => {
            let chunks: Vec<SeedChunk> =
                done.iter_mut().map(|d| std::mem::take(&mut d.2)).collect();
            Some(Seeds::gather(&chunks))
        }
        _ => None,
    };
    let kept = keep
        .and_then(|f| f.parts)
        .map(|_| done.into_iter().map(|(_, k, _)| k).collect());
    Ok(Scanned { edges, kept, seeds })
}

/// What the scan found besides the records: the moves of undecided positions, and
/// with a fused scan the children it kept and the child tiers' values it read.
pub(super) struct Scanned {
    /// Moves of the undecided positions.
    pub edges: u64,
    /// The children kept for the reverse graph (a fused scan).
    pub kept: Option<Vec<Expanded>>,
    /// The child tiers' values read (a seeded scan).
    pub seeds: Option<Seeds>,
}

/// A scan that expands each position: moves into `parts` are kept for the reverse
/// graph; with `seeds`, only moves within the tier are, and the values of children
/// in these (whole) child tiers are read at once. Without `parts` nothing is kept
/// (the tier's own parents come from undo moves).
#[derive(Clone, Copy)]
pub(super) struct Fused<'a> {
    /// The tiers the graph holds, with their sizes, if a graph is built.
    pub parts: Option<&'a [(Tier, u64)]>,
    /// The whole child tiers whose values are read (seeded), if so.
    pub seeds: Option<&'a [&'a ChildFrontier]>,
}

/// One `scan_children_batch` call's records, from position `start`, and the children
/// of its expanded positions one list after another.
struct Batch<'a> {
    start: u64,
    records: &'a [ScanRecord],
    kids: &'a [TierPosition],
}

impl Batch<'_> {
    /// Keeps the expanded positions' children for the graph in `kept`; seeded, only
    /// those within the tier, and the values of the others folded into `seeds`.
    fn keep(
        &self,
        ctx: &TierCtx<'_>,
        fused: Fused<'_>,
        kept: &mut Expanded,
        seeds: &mut SeedChunk,
    ) -> Result<(), SolveError> {
        let (game, tier) = (ctx.game, ctx.node.tier);
        let open = self.records.iter().filter(|s| open_record(s));
        let total: usize = open.clone().map(|s| s.children as usize).sum();
        let kids = &self.kids[..total];
        // Room for exactly what is kept: seeded, the moves within the tier only, and
        // at most one seed a phase for each expanded position.
        if fused.parts.is_some() {
            let moves = match fused.seeds {
                Some(_) => kids.iter().filter(|c| c.tier == tier).count(),
                None => total,
            };
            kept.reserve(ctx, open.clone().count(), moves)?;
        }
        if fused.seeds.is_some() {
            seeds.reserve(ctx, open.count())?;
        }
        let mut at = 0usize;
        for (k, s) in self.records.iter().enumerate() {
            if !open_record(s) {
                continue;
            }
            let mine = &kids[at..at + s.children as usize];
            at += mine.len();
            let p = self.start + k as u64;
            if let Some(parts) = fused.parts {
                match fused.seeds {
                    Some(_) => {
                        let within = mine.iter().filter(|c| c.tier == tier);
                        kept.push(game, tier, p, within, parts)?
                    }
                    None => kept.push(game, tier, p, mine, parts)?,
                }
            }
            if let Some(fronts) = fused.seeds {
                let other = mine.iter().filter(|c| c.tier != tier).copied();
                seeds
                    .add(p as u32, other, fronts)
                    .map_err(|c| undeclared(game, tier, c))?;
            }
        }
        Ok(())
    }
}

/// Positions per `scan_children_batch` call (its buffer holds `max_moves` children
/// a position).
const FUSED_BATCH: usize = 64;

/// Whether a scanned position is expanded: not skipped, not primitive, with moves.
fn open_record(s: &ScanRecord) -> bool {
    s.value == Value::UNDECIDED.0 && s.children > 0
}
