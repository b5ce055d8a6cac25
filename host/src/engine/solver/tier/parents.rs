//! Where the solver finds a position's parents in the tier being solved: the module's
//! undo moves (`parents_batch`), or, for a forward-only module, a reverse graph the
//! solver builds itself by expanding the tier's positions forward.
//!
//! The reverse graph is compact (CSR: per child tier an offset per child position and
//! one `u32` parent index per move), built in parallel in two passes (count, then
//! fill) over one expansion of the tier by the module's `children_batch`: the first
//! pass keeps each position's children for the second when memory allows, else the
//! second expands the tier again. The graph lives only while its tier is solved. It
//! holds exactly the parents the undo-move path gives: legal, canonical, non-primitive
//! positions of the tier with the child among their distinct canonical children. This
//! file must not decide values; it only answers "who are the parents of this child".

use super::ctx::TierCtx;
use super::kept::{encode, undeclared, Code, Expanded, Kids, PART_SHIFT, POSITION_MASK};
pub use super::need::graph_bytes;
use super::prefetch::{beyond_cache, prefetch};
pub use super::recipe::ParentMode;
use crate::engine::game::GameHandle;
use crate::engine::solver::base::SolveError;
use crate::engine::tier::TierNode;
use gamesman_plugin_api::{Tier, TierPosition};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Positions per `children_batch` call while building the graph.
const CHUNK: usize = 512;

/// How the solver gets parents.
pub enum ParentSource {
    /// The module's undo moves, through `parents_batch`.
    UndoMoves,
    /// A reverse graph built by expanding the tier forward.
    Graph(ReverseGraph),
}

/// The parents of every position in the tier's child tiers (and the tier itself when
/// loopy), as indices into the tier being solved.
pub struct ReverseGraph {
    parts: Vec<Part>,
    /// Whether it is larger than the last-level cache (`beyond_cache`): then the
    /// level passes ask for its lines ahead.
    beyond_cache: bool,
}

struct Part {
    child: Tier,
    /// `offsets[c]..offsets[c + 1]` indexes `parents` for child position `c`, one of
    /// the tier's stored positions (one offset more than those).
    offsets: Vec<AtomicU32>,
    parents: Vec<AtomicU32>,
}

impl Part {
    /// Stored positions of the child tier: the only ones ever sent to their parents.
    fn positions(&self) -> u64 {
        self.offsets.len().saturating_sub(1) as u64
    }

    /// The counter of child position `c` while the graph is built (`None` past the
    /// tier's stored positions: such a move is not held).
    #[inline]
    fn offset(&self, c: u64) -> Option<&AtomicU32> {
        (c < self.positions()).then(|| &self.offsets[c as usize])
    }
}

impl ReverseGraph {
    /// Builds the graph of `tier` by expanding each position in `inner` (the tier's
    /// undecided positions with moves) forward. `child_tiers` are the tiers its moves
    /// may lead to (the tier itself included when loopy), with their sizes.
    /// `moves` says where the children come from (see `Moves`).
    pub fn build(
        game: &GameHandle,
        node: &TierNode,
        inner: &(dyn Fn(u64) -> bool + Sync),
        child_tiers: &[(Tier, u64)],
        moves: Moves,
    ) -> Result<ReverseGraph, SolveError> {
        Self::build_in(&TierCtx::new(game, node), inner, child_tiers, moves)
    }

    /// `build` in the context of the tier's solve.
    pub fn build_in(
        ctx: &TierCtx<'_>,
        inner: &(dyn Fn(u64) -> bool + Sync),
        child_tiers: &[(Tier, u64)],
        moves: Moves,
    ) -> Result<ReverseGraph, SolveError> {
        let (game, node) = (ctx.game, ctx.node);
        // Only the stored positions are expanded: a module that numbers its canonical
        // positions first stores just those, and the solver's state covers no more.
        let (tier, tier_size) = (node.tier, node.stored);
        if tier_size > u32::MAX as u64 {
            return Err(SolveError::GraphTooLarge {
                tier,
                what: format!("{tier_size} positions (a parent index must fit 32 bits)"),
            });
        }
        let n = tier_size as usize;
        let mut parts: Vec<Part> = Vec::with_capacity(child_tiers.len());
        for &(child, size) in child_tiers {
            let len = usize::try_from(size + 1).map_err(|_| SolveError::TooLarge(child, size))?;
            parts.push(Part {
                child,
                offsets: ctx.filled("reverse graph offsets", len, || AtomicU32::new(0))?,
                parents: Vec::new(),
            });
        }

        // Pass 1: count each child's parents (keeping the children when asked to).
        let count = |code: u64| {
            if let Some(o) = parts[(code >> PART_SHIFT) as usize].offset(code & POSITION_MASK) {
                o.fetch_add(1, Relaxed);
            }
        };
        let keep = !matches!(moves, Moves::Twice);
        let kept = match moves {
            Moves::Given(kept) => kept,
            Moves::Keep => expand(game, tier, n, inner, &|list, kids, counts| {
                let mut e = Expanded::new(child_tiers);
                e.reserve(ctx, list.len(), kids.len())?;
                let mut at = 0usize;
                for (&p, &m) in list.iter().zip(counts) {
                    e.push(game, tier, p, &kids[at..at + m as usize], child_tiers)?;
                    at += m as usize;
                }
                Ok(e)
            })?,
            Moves::Twice => expand(game, tier, n, inner, &|_, kids, _| {
                for c in kids {
                    count(encode(c, child_tiers).ok_or_else(|| undeclared(game, tier, *c))?);
                }
                Ok(Expanded::default())
            })?,
        };
        // The offsets and the graph larger than the cache: the passes ask for their
        // lines ahead (`AHEAD`).
        let kept_moves: u64 = kept.iter().map(|e| e.moves() as u64).sum();
        let offsets: u64 = parts.iter().map(|p| p.offsets.len() as u64).sum();
        let warm = beyond_cache(4 * (kept_moves + offsets));
        if keep {
            by_owner(&parts, |share| {
                for e in &kept {
                    match &e.kids {
                        Kids::Codes(k) => count_owned(share, k, warm),
                        Kids::Positions(k) => count_owned(share, k, warm),
                    }
                }
                Ok(())
            })?;
        }
        // Inclusive prefix sums: offsets[c] becomes the end of c's run; the fill pass
        // counts each back down to the run's start.
        for part in &mut parts {
            let mut total: u64 = 0;
            for o in part.offsets.iter_mut() {
                total += *o.get_mut() as u64;
                *o.get_mut() = u32::try_from(total).map_err(|_| SolveError::GraphTooLarge {
                    tier,
                    what: format!("more than {} moves into tier {}", u32::MAX, part.child),
                })?;
            }
            part.parents = ctx.filled("reverse graph", total as usize, || AtomicU32::new(0))?;
        }
        // Pass 2: fill, from the kept children or by expanding the tier again.
        let place = |p: u64, k: usize, position: u64| -> Result<(), SolveError> {
            let part = &parts[k];
            // A child past its tier's stored positions has no record and is never
            // sent: it has no offset (the count pass skipped it too).
            let Some(offset) = part.offset(position) else {
                return Ok(());
            };
            let slot = offset.fetch_sub(1, Relaxed);
            // A module whose children differ between two identical calls would
            // underflow here; report it instead of writing out of place.
            let Some(slot) = slot.checked_sub(1) else {
                return Err(unstable(game, tier, p));
            };
            part.parents[slot as usize].store(p as u32, Relaxed);
            Ok(())
        };
        if keep {
            by_owner(&parts, |share| {
                for e in &kept {
                    let filled = match &e.kids {
                        Kids::Codes(k) => fill_owned(share, e, k, warm),
                        Kids::Positions(k) => fill_owned(share, e, k, warm),
                    };
                    filled.map_err(|p| unstable(game, tier, p as u64))?;
                }
                Ok(())
            })?;
            drop(kept);
        } else {
            drop(kept);
            expand(game, tier, n, inner, &|list, kids, counts| {
                let mut at = 0usize;
                for (&p, &m) in list.iter().zip(counts) {
                    for c in &kids[at..at + m as usize] {
                        let code =
                            encode(c, child_tiers).ok_or_else(|| undeclared(game, tier, *c))?;
                        place(p, (code >> PART_SHIFT) as usize, code & POSITION_MASK)?;
                    }
                    at += m as usize;
                }
                Ok(Expanded::default())
            })?;
        }
        // Every run must be exactly filled: offsets[c] is now c's start, which must be
        // the previous run's end.
        for part in &parts {
            let ok = part
                .offsets
                .par_windows(2)
                .all(|w| w[0].load(Relaxed) <= w[1].load(Relaxed))
                && part.offsets.first().is_none_or(|o| o.load(Relaxed) == 0);
            if !ok {
                return Err(unstable(game, tier, 0));
            }
        }
        let mut graph = ReverseGraph {
            parts,
            beyond_cache: false,
        };
        graph.beyond_cache = beyond_cache(graph.bytes());
        Ok(graph)
    }

    /// The parents (indices in the solved tier) of position `c` of `child_tier`.
    /// No parents for a position past the tier's stored ones or of a tier the graph does
    /// not hold.
    pub fn parents(&self, child_tier: Tier, c: u64) -> impl Iterator<Item = u64> + '_ {
        let part = self.part(child_tier);
        part.into_iter().flat_map(move |p| p.parents_within(c))
    }

    /// The parents of the stored positions of `child_tier`, if the graph holds that tier.
    pub fn part(&self, child_tier: Tier) -> Option<GraphPart<'_>> {
        self.parts
            .iter()
            .find(|p| p.child == child_tier)
            .map(|part| GraphPart { part })
    }

    /// Edges (moves) held.
    pub fn edges(&self) -> u64 {
        self.parts.iter().map(|p| p.parents.len() as u64).sum()
    }

    /// Whether it is larger than the last-level cache.
    pub fn beyond_cache(&self) -> bool {
        self.beyond_cache
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        self.parts
            .iter()
            .map(|p| 4 * (p.parents.len() + p.offsets.len()) as u64)
            .sum()
    }
}

/// The parents of one child tier's positions in a reverse graph (`ReverseGraph::part`).
#[derive(Clone, Copy)]
pub struct GraphPart<'a> {
    part: &'a Part,
}

impl<'a> GraphPart<'a> {
    /// Stored positions of the child tier (every one has a run, maybe empty).
    pub fn positions(&self) -> u64 {
        self.part.positions()
    }

    /// The parents of child position `c`, none past `positions()`.
    #[inline]
    fn parents_within(&self, c: u64) -> impl Iterator<Item = u64> + 'a {
        let held = (c < self.positions()).then_some(*self);
        held.into_iter().flat_map(move |p| p.parents_of(c))
    }

    /// Asks for the offsets of child position `c`'s run.
    #[inline(always)]
    fn warm_offsets(&self, c: u64) {
        if let Some(o) = self.part.offsets.get(c as usize) {
            prefetch(o);
        }
    }

    /// Asks for the start of child position `c`'s run (its offsets, asked for
    /// before, are read now).
    #[inline(always)]
    fn warm_run(&self, c: u64) {
        if c < self.positions() {
            let lo = self.part.offsets[c as usize].load(Relaxed) as usize;
            if let Some(first) = self.part.parents.get(lo) {
                prefetch(first);
            }
        }
    }

    /// The parents (indices in the solved tier) of child position `c`, below
    /// `positions()`.
    #[inline]
    pub fn parents_of(&self, c: u64) -> impl Iterator<Item = u64> + 'a {
        let o = &self.part.offsets;
        let lo = o[c as usize].load(Relaxed) as usize;
        let hi = o[c as usize + 1].load(Relaxed) as usize;
        self.part.parents[lo..hi]
            .iter()
            .map(|a| a.load(Relaxed) as u64)
    }
}

/// Runs `pass` once per thread over all the kept moves, each run owning a share of
/// every part's child positions (`Share::mine`). An owned offset is read and written
/// by its run alone, so the passes use plain loads and stores where shared counting
/// needed a locked read-modify-write per move, and x86 makes every such instruction a
/// full barrier: the scattered offsets' cache misses were taken one at a time (13 %
/// of a Quixo 4x4 forward solve in the fill's decrement alone). Each run reads every
/// kept move (8 bytes, in order), which costs far less than a miss per move.
fn by_owner(
    parts: &[Part],
    pass: impl Fn(&Share<'_>) -> Result<(), SolveError> + Sync,
) -> Result<(), SolveError> {
    let owners = rayon::current_num_threads().max(1) as u64;
    (0..owners).into_par_iter().try_for_each(|w| {
        let bounds = parts
            .iter()
            .map(|p| {
                let n = p.positions();
                let per = n.div_ceil(owners);
                let lo = (per * w).min(n);
                (lo, per.min(n - lo))
            })
            .collect();
        pass(&Share { parts, bounds })
    })
}

/// One run's share of the graph's child positions (`by_owner`).
struct Share<'a> {
    parts: &'a [Part],
    /// Per part, the offsets `lo..lo + len` this run owns.
    bounds: Vec<(u64, u64)>,
}

impl Share<'_> {
    /// The offset of a kept move's child (`encode`) when this run owns it.
    #[inline]
    fn mine(&self, code: u64) -> Option<&AtomicU32> {
        let k = (code >> PART_SHIFT) as usize;
        let position = code & POSITION_MASK;
        let (lo, len) = self.bounds[k];
        (position.wrapping_sub(lo) < len).then(|| &self.parts[k].offsets[position as usize])
    }

    /// Asks for the offset of a move ahead, when this run owns it.
    #[inline(always)]
    fn warm_offset<K: Code>(&self, ahead: Option<&K>) {
        if let Some(o) = ahead.and_then(|k| self.mine(k.code())) {
            prefetch(o);
        }
    }

    /// Asks for the parent slot a move ahead will fill, when this run owns it (its
    /// offset, asked for earlier, is read now; a hint only, so an offset another move
    /// changes before then costs nothing but the hint).
    #[inline(always)]
    fn warm_slot<K: Code>(&self, ahead: Option<&K>) {
        let cell = ahead.map(|k| k.code()).and_then(|code| {
            let slot = (self.mine(code)?.load(Relaxed) as usize).checked_sub(1)?;
            self.parts[(code >> PART_SHIFT) as usize].parents.get(slot)
        });
        if let Some(cell) = cell {
            prefetch(cell);
        }
    }
}

/// Moves ahead whose offsets the count and fill passes ask for (and, half as far,
/// the fill's parent slots): the offsets and the graph are larger than the caches,
/// so each is a miss, and asked for ahead the misses overlap.
const AHEAD: usize = 16;

/// The count pass over one chunk's kept moves: each owned child's offset goes up by
/// one a move (`warm`: asking for offsets ahead).
fn count_owned<K: Code>(share: &Share<'_>, kids: &[K], warm: bool) {
    for (j, &k) in kids.iter().enumerate() {
        if warm {
            share.warm_offset(kids.get(j + AHEAD));
        }
        if let Some(o) = share.mine(k.code()) {
            o.store(o.load(Relaxed).wrapping_add(1), Relaxed);
        }
    }
}

/// The fill pass over one chunk's kept moves (`e`, its children `kids`): each owned
/// child's offset goes down by one and the parent is written there. An offset already
/// at its run's start (a module whose children changed between the passes) is
/// returned as the parent that found it (`warm`: asking for offsets and slots ahead).
fn fill_owned<K: Code>(share: &Share<'_>, e: &Expanded, kids: &[K], warm: bool) -> Result<(), u32> {
    let mut j = 0usize;
    for (&p, &m) in e.parents.iter().zip(&e.counts) {
        for &k in &kids[j..j + m as usize] {
            if warm {
                share.warm_offset(kids.get(j + AHEAD));
                share.warm_slot(kids.get(j + AHEAD / 2));
            }
            j += 1;
            let code = k.code();
            let Some(o) = share.mine(code) else { continue };
            let slot = o.load(Relaxed).checked_sub(1).ok_or(p)?;
            o.store(slot, Relaxed);
            let part = &share.parts[(code >> PART_SHIFT) as usize];
            part.parents[slot as usize].store(p, Relaxed);
        }
    }
    Ok(())
}

/// Receives a chunk's expanded positions, their children one after the other, and
/// how many each has; returns what the chunk keeps.
type ChunkVisitor<'a> =
    dyn Fn(&[u64], &[TierPosition], &[u32]) -> Result<Expanded, SolveError> + Sync + 'a;

/// Where a reverse graph's two passes (count, then fill) get the tier's children.
pub enum Moves {
    /// Each pass expands the tier (`children_batch`): the least memory.
    Twice,
    /// The first pass expands it and keeps the children for the second (8 bytes a
    /// move while the graph is built).
    Keep,
    /// The scan expanded it already (`scan_children_batch`), and kept them.
    Given(Vec<Expanded>),
}

/// Calls `f(positions, children, counts)` for every chunk of the inner positions of
/// `tier`, in parallel, with their distinct canonical children (the module's
/// `children_batch`); returns what each chunk kept, in chunk order.
fn expand(
    game: &GameHandle,
    tier: Tier,
    n: usize,
    inner: &(dyn Fn(u64) -> bool + Sync),
    f: &ChunkVisitor<'_>,
) -> Result<Vec<Expanded>, SolveError> {
    let cap = game.properties().max_moves as usize;
    (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map_init(
            || {
                (
                    Vec::with_capacity(CHUNK),
                    vec![TierPosition::default(); CHUNK * cap],
                    vec![0u32; CHUNK],
                )
            },
            |(list, kids, counts), c| -> Result<Expanded, SolveError> {
                let lo = c * CHUNK;
                let hi = n.min(lo + CHUNK);
                list.clear();
                list.extend((lo as u64..hi as u64).filter(|&i| inner(i)));
                if list.is_empty() {
                    return Ok(Expanded::default());
                }
                game.children_batch(tier, list, kids, counts)?;
                let m: usize = counts[..list.len()].iter().map(|&m| m as usize).sum();
                f(list, &kids[..m], &counts[..list.len()])
            },
        )
        .collect()
}

fn unstable(game: &GameHandle, tier: Tier, p: u64) -> SolveError {
    SolveError::Module(crate::engine::game::ModuleError {
        module: game.module_name().to_string(),
        function: "children_batch",
        kind: gamesman_plugin_api::ffi::CallErrorKind::BAD_OUTPUT,
        message: format!(
            "gave different children for the same positions of tier {tier} in two passes \
             (near index {p}); moves must be a function of the position"
        ),
    })
}

/// Scratch buffers of one thread for `for_each_parents`: empty at first, grown to each
/// chunk's need (the module's answers, or the reverse graph's runs gathered).
#[derive(Default)]
pub struct ParentBuffers {
    parents: Vec<u64>,
    counts: Vec<u32>,
}

/// Calls `f(child, parents)` (generic: it runs once per child) for each child in `chunk` (positions of `child_tier`, at
/// most `PARENT_CHUNK`), with its distinct parents in the tier being solved.
pub fn for_each_parents(
    game: &GameHandle,
    parents: Parents<'_>,
    child_tier: Tier,
    chunk: &[u64],
    bufs: &mut ParentBuffers,
    f: impl FnMut(u64, &[u64]) -> Result<(), SolveError>,
) -> Result<(), SolveError> {
    for_each_parents_warmed(game, parents, child_tier, chunk, bufs, |_| {}, f)
}

/// Where the parents of a child are found, in which tier (the tier being solved).
#[derive(Clone, Copy)]
pub struct Parents<'a> {
    /// Undo moves or the tier's reverse graph.
    pub source: &'a ParentSource,
    /// The tier being solved.
    pub tier: Tier,
}

/// `for_each_parents`, first calling `warm` with every parent of the whole chunk, so
/// the caller can ask for their memory at once.
pub fn for_each_parents_warmed(
    game: &GameHandle,
    parents: Parents<'_>,
    child_tier: Tier,
    chunk: &[u64],
    bufs: &mut ParentBuffers,
    warm: impl Fn(&[u64]),
    mut f: impl FnMut(u64, &[u64]) -> Result<(), SolveError>,
) -> Result<(), SolveError> {
    match parents.source {
        ParentSource::UndoMoves => {
            // Sized by the chunk, not by the largest chunk: buffers are made for each
            // piece of work rayon splits off, and most levels of a tier are small (a
            // buffer for a whole chunk is `PARENT_CHUNK * max_undo_moves` words).
            let need = chunk.len() * game.properties().max_undo_moves as usize;
            if bufs.parents.len() < need {
                bufs.parents.resize(need, 0);
            }
            if bufs.counts.len() < chunk.len() {
                bufs.counts.resize(chunk.len(), 0);
            }
            game.parents_batch(
                child_tier,
                chunk,
                parents.tier,
                &mut bufs.parents[..need],
                &mut bufs.counts[..chunk.len()],
            )?;
            let total: usize = bufs.counts[..chunk.len()].iter().map(|&n| n as usize).sum();
            warm(&bufs.parents[..total.min(bufs.parents.len())]);
            let mut at = 0usize;
            for (k, &c) in chunk.iter().enumerate() {
                let m = bufs.counts[k] as usize;
                f(c, &bufs.parents[at..at + m])?;
                at += m;
            }
        }
        ParentSource::Graph(g) => {
            let Some(part) = g.part(child_tier) else {
                // A tier the graph does not hold: no child has parents here.
                for &c in chunk {
                    f(c, &[])?;
                }
                return Ok(());
            };
            // The chunk's runs gathered first, as the undo-move path gathers the
            // module's answers; in a graph larger than the cache, the offsets asked
            // for, then the runs, then the parents given to `warm`, so each stage's
            // misses overlap.
            let beyond = g.beyond_cache();
            if beyond {
                for &c in chunk {
                    part.warm_offsets(c);
                }
                for &c in chunk {
                    part.warm_run(c);
                }
            }
            bufs.parents.clear();
            bufs.counts.clear();
            for &c in chunk {
                let before = bufs.parents.len();
                bufs.parents.extend(part.parents_within(c));
                bufs.counts.push((bufs.parents.len() - before) as u32);
            }
            if beyond {
                warm(&bufs.parents);
            }
            let mut at = 0usize;
            for (&c, &m) in chunk.iter().zip(&bufs.counts) {
                f(c, &bufs.parents[at..at + m as usize])?;
                at += m as usize;
            }
        }
    }
    Ok(())
}
