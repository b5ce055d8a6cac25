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

use super::children::ChildTier;
use super::counters::{status, ByteCell, Cell, Counters, Status, MERGED_MOVES, NARROW_MOVES};
use super::frontier::{Bits, ChildFrontier, Level};
use super::memory::{filled, reserved};
use super::onebyte::RemotenessLog;
pub use super::parents::{for_each_parents, ParentBuffers};
use super::parents::{
    for_each_parents_warmed, undeclared, Expanded, Moves, ParentMode, ParentSource, ReverseGraph,
};
use super::runs::LevelRuns;
use super::seeds::{Seed, SeedChunk, Seeds};
use super::SolveError;
use crate::engine::game::GameHandle;
use crate::engine::record::{pack, value_of, TierRecords, MAX_REMOTENESS};
use crate::engine::tier::TierNode;
use gamesman_plugin_api::ffi::ScanRecord;
use gamesman_plugin_api::{Player, Tier, TierPosition, Value};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering::*};

/// Positions per scan call into the module (a multiple of 64: a chunk fills whole
/// words of the frontier bitmap).
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

/// How a tier's counters and records are laid out while it is solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cells {
    /// Counters (one or four bytes) beside 16-bit records.
    Separate,
    /// Counter and record in one 16-bit cell (games of at most `MERGED_MOVES` moves).
    Merged,
    /// Counter and value in one byte, the remoteness written out level by level to a
    /// scratch file in the directory given (the system's when `None`); games of at
    /// most `BYTE_MOVES` moves without WinBy. The records are then assembled when the
    /// tier is stored (`onebyte`), not returned.
    Byte(Option<std::path::PathBuf>),
}

impl Cells {
    /// The layout `game` can take of the one asked for (the next richer one when it
    /// cannot take that one).
    fn for_game(&self, game: &GameHandle) -> Cells {
        let p = game.properties();
        match self {
            Cells::Byte(_) if !super::onebyte::serves(game) => Cells::Merged.for_game(game),
            Cells::Merged if p.max_moves > MERGED_MOVES => Cells::Separate,
            other => other.clone(),
        }
    }
}

/// The state of a tier while it is solved.
pub struct TierState {
    /// The tier.
    pub tier: Tier,
    /// Child counters, with the marks of skipped and decided positions.
    counters: Counters,
    /// Packed value and remoteness of decided positions (after the solve: of every
    /// position, kept for the WinBy pass; empty for games without WinBy).
    records: Vec<AtomicU16>,
    /// Player to move per position (kept for go-again games and WinBy).
    pub turns: Vec<AtomicU8>,
    /// Number of distinct children per position, from the scan (kept for WinBy).
    pub children: Vec<AtomicU32>,
    /// The module's WinBy of positions without children (kept for WinBy).
    pub leaf_winby: Vec<std::sync::atomic::AtomicI32>,
    /// Where parents come from (undo moves, or the tier's reverse graph).
    pub parents: ParentSource,
    /// One-byte cells: when each position was decided.
    pub log: Option<RemotenessLog>,
}

impl TierState {
    /// The value of position `i` (`UNDECIDED` until decided).
    pub fn value(&self, i: u64) -> Value {
        value_of(self.packed(i))
    }

    /// The packed record of position `i`.
    pub fn packed(&self, i: u64) -> u16 {
        match &self.counters {
            Counters::Byte(c) => c[i as usize].packed(&self.records, i as usize),
            _ => self.records[i as usize].load(Relaxed),
        }
    }

    /// One-byte cells and their remoteness log, after the solve (`None` otherwise).
    pub fn one_byte(&self) -> Option<(&[ByteCell], &RemotenessLog)> {
        match (&self.counters, &self.log) {
            (Counters::Byte(c), Some(log)) => Some((c, log)),
            _ => None,
        }
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
    children: &[ChildTier],
    mode: ParentMode,
    cells: &Cells,
    tick: Tick<'_>,
    note: Note<'_>,
) -> Result<(TierRecords, TierState), SolveError> {
    let flow = Flow::of(game);
    let winby = game.supports_winby();
    let keep_turns = winby || flow == Flow::ByTurn;
    let n =
        usize::try_from(node.stored).map_err(|_| SolveError::TooLarge(node.tier, node.stored))?;
    // Counters merged into the records save a byte (or four) a position; each
    // update is then one compare-and-swap on one cell.
    let cells = cells.for_game(game);
    let counters = if let Cells::Byte(_) = cells {
        Counters::Byte(filled(game, node, "one-byte cells", n, ByteCell::zero)?)
    } else if cells == Cells::Merged {
        Counters::Merged
    } else if game.properties().max_moves <= NARROW_MOVES {
        Counters::Narrow(filled(game, node, "child counters", n, AtomicU8::zero)?)
    } else {
        Counters::Wide(filled(game, node, "child counters", n, AtomicU32::zero)?)
    };
    let state = TierState {
        tier: node.tier,
        records: if matches!(counters, Counters::Byte(_)) {
            Vec::new()
        } else {
            filled(game, node, "records", n, || AtomicU16::new(0))?
        },
        counters,
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
        log: match &cells {
            Cells::Byte(dir) => Some(RemotenessLog::new(dir.as_deref())?),
            _ => None,
        },
    };
    // The frontier: positions decided at the level being sent on, and at the next.
    let words = Bits::words_for(n);
    let mut now = Bits::from_words(filled(game, node, "frontier", words, || AtomicU64::new(0))?);
    let mut next = Bits::from_words(filled(game, node, "frontier", words, || AtomicU64::new(0))?);

    // A tier solved through a reverse graph the fastest way (separate counters, every
    // child tier whole in memory) keeps the scan's expansion for the graph, when the
    // module can give both at once (`scan_children_batch`).
    let graph = use_graph(game, mode)?;
    let fronts: Vec<&ChildFrontier> = children
        .iter()
        .filter_map(|c| match c {
            ChildTier::Whole(f) => Some(f),
            ChildTier::Streamed(_) => None,
        })
        .collect();
    let whole = fronts.len() == children.len()
        && matches!(state.counters, Counters::Narrow(_) | Counters::Wide(_));
    let fused = graph && whole && game.scan_children_batch(node.tier, 0, &mut [], &mut [])?;
    // With the scan's children and every child tier in memory, the values of the
    // children in child tiers are read as the scan expands each position (`seeds`):
    // the graph then holds only the tier's moves within itself.
    let seeded = fused && flow == Flow::Alternate && !winby && node.stored <= u32::MAX as u64;
    let parts = match (graph, seeded) {
        (false, _) => None,
        (true, false) => Some(graph_tiers(game, node)?),
        (true, true) if node.loopy => Some(vec![(node.tier, node.size)]),
        (true, true) => Some(Vec::new()),
    };
    let fused = match &parts {
        Some(p) if fused => Some(Fused {
            parts: p.as_slice(),
            seeds: if seeded {
                Some(fronts.as_slice())
            } else {
                None
            },
        }),
        _ => None,
    };
    let Scanned {
        edges,
        kept: given,
        seeds,
    } = match &state.counters {
        Counters::Narrow(c) => scan(game, node, &state, c, &now, fused, tick)?,
        Counters::Wide(c) => scan(game, node, &state, c, &now, fused, tick)?,
        Counters::Merged => scan(game, node, &state, &state.records, &now, fused, tick)?,
        Counters::Byte(c) => scan(game, node, &state, c, &now, fused, tick)?,
    };
    let edges = match &given {
        // The graph holds the kept moves only (those within the tier when seeded).
        Some(kept) => kept.iter().map(|e| e.moves() as u64).sum(),
        None => edges,
    };
    let mut state = state;
    if let Some(parts) = parts {
        let moves = match given {
            Some(kept) => Moves::Given(kept),
            None => {
                // Keeping the first pass's moves (8 bytes each) saves expanding the
                // tier a second time. It is done when the plan left room: the tier is
                // solved the fastest way, or graph and moves together stay within what
                // the plan counted for the graph (`memory::extra_bytes`). An allocation
                // that fails still ends in a leaner way, as any other array's would.
                let child_positions: u64 = parts.iter().map(|&(_, s)| s + 1).sum();
                let need = super::parents::graph_bytes(edges, child_positions)
                    .saturating_add(edges.saturating_mul(8));
                if whole || need <= super::memory::extra_bytes(game, node, true) {
                    Moves::Keep
                } else {
                    Moves::Twice
                }
            }
        };
        state.parents =
            ParentSource::Graph(build_graph(game, node, &state, edges, &parts, moves, note)?);
    }

    // Wins and losses level by level, then ties once every win and loss is known.
    let mut log = state.log.take();
    let mut levels = Levels {
        game,
        node,
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
        let mut v = reserved(game, node, "finished values", n)?;
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

/// First pass: legality, primitives, child counters. Marks the positions decided as
/// win or lose at remoteness 0 in `wl` (ties are read back from the records later);
/// returns the number of moves of undecided positions.
fn scan<C: Cell>(
    game: &GameHandle,
    node: &TierNode,
    state: &TierState,
    counters: &[C],
    wl: &Bits,
    keep: Option<Fused<'_>>,
    tick: Tick<'_>,
) -> Result<Scanned, SolveError> {
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
                    Vec::with_capacity(max_moves),
                )
            },
            |(buf, kids, own), c| -> Result<(u64, Expanded, SeedChunk), SolveError> {
                let first = c * SCAN_CHUNK;
                let len = SCAN_CHUNK.min(n - first);
                let out = &mut buf[..len];
                let mut kept = Expanded::default();
                let mut seeds = SeedChunk::default();
                match keep {
                    None => game.scan_batch(node.tier, first as u64, out)?,
                    Some(Fused {
                        parts,
                        seeds: fronts,
                    }) => {
                        for (b, batch) in out.chunks_mut(FUSED_BATCH).enumerate() {
                            let start = first + b * FUSED_BATCH;
                            let kids = &mut kids[..batch.len() * max_moves];
                            if !game.scan_children_batch(node.tier, start as u64, batch, kids)? {
                                return Err(SolveError::Module(game.bad_output(
                                    "scan_children_batch",
                                    format!("gave no children with its scan from {start}"),
                                )));
                            }
                            let open = batch.iter().filter(|s| open_record(s));
                            let moves: usize = open.clone().map(|s| s.children as usize).sum();
                            kept.reserve(game, node, open.count(), moves)?;
                            let mut at = 0usize;
                            for (k, s) in batch.iter().enumerate() {
                                if open_record(s) {
                                    let m = s.children as usize;
                                    let p = (start + k) as u64;
                                    let mine = &kids[at..at + m];
                                    at += m;
                                    let Some(fronts) = fronts else {
                                        kept.push(game, node.tier, p, mine, parts)?;
                                        continue;
                                    };
                                    let tier = node.tier;
                                    own.clear();
                                    own.extend(mine.iter().filter(|c| c.tier == tier));
                                    kept.push(game, tier, p, own, parts)?;
                                    let other = mine.iter().filter(|c| c.tier != tier).copied();
                                    seeds
                                        .add(p as u32, other, fronts)
                                        .map_err(|c| undeclared(game, tier, c))?;
                                }
                            }
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
    let kept = keep.map(|_| done.into_iter().map(|(_, k, _)| k).collect());
    Ok(Scanned { edges, kept, seeds })
}

/// What the scan found besides the records: the moves of undecided positions, and
/// with a fused scan the children it kept and the child tiers' values it read.
struct Scanned {
    edges: u64,
    kept: Option<Vec<Expanded>>,
    seeds: Option<Seeds>,
}

/// A scan that keeps each position's children: moves into `parts` are kept for the
/// reverse graph; with `seeds`, only moves within the tier are, and the values of
/// children in these (whole) child tiers are read at once.
#[derive(Clone, Copy)]
struct Fused<'a> {
    parts: &'a [(Tier, u64)],
    seeds: Option<&'a [&'a ChildFrontier]>,
}

/// Positions per `scan_children_batch` call (its buffer holds `max_moves` children
/// a position).
const FUSED_BATCH: usize = 64;

/// Whether a scanned position is expanded: not skipped, not primitive, with moves.
fn open_record(s: &ScanRecord) -> bool {
    s.value == Value::UNDECIDED.0 && s.children > 0
}

/// Whether this solve builds a reverse graph instead of calling undo moves.
fn use_graph(game: &GameHandle, mode: ParentMode) -> Result<bool, SolveError> {
    match mode {
        ParentMode::UndoMoves if !game.has_undo_moves() => {
            Err(SolveError::NoUndoMoves(game.module_name().to_string()))
        }
        _ => Ok(mode.uses_graph(game)),
    }
}

/// The tiers a reverse graph of `node` holds parents for: its child tiers, and itself
/// when loopy (last), with their sizes.
fn graph_tiers(game: &GameHandle, node: &TierNode) -> Result<Vec<(Tier, u64)>, SolveError> {
    let mut child_tiers = Vec::with_capacity(node.children.len() + 1);
    for &c in &node.children {
        child_tiers.push((c, game.tier_size(c)?));
    }
    if node.loopy {
        child_tiers.push((node.tier, node.size));
    }
    Ok(child_tiers)
}

/// Builds the tier's reverse graph from its undecided positions (`edges` of them in
/// all, counted by the scan) into `child_tiers` (`graph_tiers`), with the moves
/// found as `moves` says, logging what it costs.
fn build_graph(
    game: &GameHandle,
    node: &TierNode,
    state: &TierState,
    edges: u64,
    child_tiers: &[(Tier, u64)],
    moves: Moves,
    note: Note<'_>,
) -> Result<ReverseGraph, SolveError> {
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
    let graph = ReverseGraph::build(game, node, &inner, child_tiers, moves)?;
    log::debug!(
        "tier {}: reverse graph built, {} moves, {} bytes, {}",
        node.tier,
        graph.edges(),
        graph.bytes(),
        how
    );
    Ok(graph)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    WinLose,
    Tie,
}

/// What the level passes of one tier share.
struct Levels<'a, 'b> {
    game: &'a GameHandle,
    node: &'a TierNode,
    state: &'a TierState,
    /// One-byte cells: where each level's newly decided positions are written.
    log: Option<&'b mut RemotenessLog>,
    flow: Flow,
    children: &'a [ChildTier],
    /// The child tiers' values read by the scan, sent instead of `children` when read.
    seeds: Option<&'a Seeds>,
    /// Positions of the tier decided at the level being sent on.
    now: &'b mut Bits,
    /// Positions of the tier decided at the next level.
    next: &'b mut Bits,
}

impl Levels<'_, '_> {
    /// Wins and losses (from the scan's marks in `now`), then ties (from the records
    /// of positions the scan decided as ties).
    fn both_phases<C: Cell>(&mut self, counters: &[C]) -> Result<(), SolveError> {
        self.run(counters, Phase::WinLose)?;
        self.now.clear();
        let tie0 = pack(Value::TIE, 0);
        let records = &self.state.records;
        self.now
            .fill(counters.len(), |i| counters[i].packed(records, i) == tie0);
        self.run(counters, Phase::Tie)
    }

    /// Processes one phase's frontier in increasing remoteness: at each level the
    /// child tiers' positions and (in a loopy tier) the tier's own decided positions
    /// send their values to their parents; parents decided by it form the next level.
    fn run<C: Cell>(&mut self, counters: &[C], phase: Phase) -> Result<(), SolveError> {
        let child_levels = match (self.seeds, phase) {
            (Some(s), Phase::WinLose) => s.wl_levels(),
            (Some(s), Phase::Tie) => s.tie_levels(),
            (None, _) => self
                .children
                .iter()
                .map(|cf| match phase {
                    Phase::WinLose => cf.wl_levels(),
                    Phase::Tie => cf.tie_levels(),
                })
                .max()
                .unwrap_or(0),
        };
        let loopy = self.node.loopy;
        let mut own = loopy && self.now.any();
        let mut r = 0u32;
        while r < child_levels || own {
            let send = Send {
                game: self.game,
                state: self.state,
                counters,
                flow: self.flow,
                r,
                phase,
                next: self.next,
            };
            if let Some(s) = self.seeds {
                send.seeds(match phase {
                    Phase::WinLose => s.wins_losses(r),
                    Phase::Tie => s.ties(r),
                });
            }
            for child in self.children.iter().filter(|_| self.seeds.is_none()) {
                match child {
                    ChildTier::Whole(cf) => {
                        let level = match phase {
                            Phase::WinLose => cf.wins_losses(r),
                            Phase::Tie => cf.ties(r),
                        };
                        send.level(cf.tier, level, |i| cf.records.packed(i))?;
                    }
                    ChildTier::Streamed(s) => send.runs(&s.runs)?,
                }
            }
            if own {
                let records = &self.state.records;
                send.bits(self.now, |i| {
                    counters[i as usize].packed(records, i as usize)
                })?;
            }
            let more = self.next.any();
            if more {
                if let Some(log) = self.log.as_mut() {
                    log.record(self.next, r + 1)?;
                }
            }
            if more && r + 1 > MAX_REMOTENESS {
                return Err(SolveError::RemotenessOverflow(self.node.tier));
            }
            own = loopy && more;
            // The level just sent on is done with: its bitmap takes the next level.
            std::mem::swap(self.now, self.next);
            self.next.clear();
            r += 1;
        }
        Ok(())
    }
}

/// Sends values of positions at remoteness `r` to their parents in the tier being
/// solved, marking the parents decided by it (at `r + 1`) in `next`.
struct Send<'a, C> {
    game: &'a GameHandle,
    state: &'a TierState,
    counters: &'a [C],
    flow: Flow,
    r: u32,
    phase: Phase,
    next: &'a Bits,
}

impl<C: Cell> Send<'_, C> {
    /// A level of a child tier (or of any tier, given as a list).
    // Generic rather than `dyn`: `packed_of` runs once per child position, and
    // inlined it is a load.
    fn level(
        &self,
        child_tier: Tier,
        positions: Level<'_>,
        packed_of: impl Fn(u64) -> u16 + Sync,
    ) -> Result<(), SolveError> {
        match positions {
            Level::Wide(s) => s
                .par_chunks(PARENT_CHUNK)
                .try_for_each_init(ParentBuffers::default, |bufs, chunk| {
                    self.chunk(child_tier, chunk, bufs, &packed_of)
                }),
            Level::Narrow(s) => s.par_chunks(PARENT_CHUNK).try_for_each_init(
                || (ParentBuffers::default(), Vec::with_capacity(PARENT_CHUNK)),
                |(bufs, wide), chunk| {
                    wide.clear();
                    wide.extend(chunk.iter().map(|&i| i as u64));
                    self.chunk(child_tier, wide, bufs, &packed_of)
                },
            ),
        }
    }

    /// A level of a streamed child tier: its wins and losses (or ties) at `r`, read
    /// from its runs a segment at a time. Within a level the updates commute, so
    /// sending wins before losses decides every parent as the sorted level does.
    fn runs(&self, runs: &LevelRuns) -> Result<(), SolveError> {
        let values: &[Value] = match self.phase {
            Phase::WinLose => &[Value::WIN, Value::LOSE],
            Phase::Tie => &[Value::TIE],
        };
        let mut buf = Vec::new();
        for &v in values {
            let packed = pack(v, self.r);
            runs.for_each_segment(v, self.r, &mut buf, |positions| {
                positions
                    .par_chunks(PARENT_CHUNK)
                    .try_for_each_init(ParentBuffers::default, |bufs, chunk| {
                        self.chunk(runs.tier, chunk, bufs, &|_| packed)
                    })
            })?;
        }
        Ok(())
    }

    /// Seeds of the child tiers' values at this level (`seeds`).
    fn seeds(&self, seeds: &[Seed]) {
        let records = &self.state.records;
        seeds.par_chunks(PARENT_CHUNK).for_each(|chunk| {
            for s in chunk {
                let p = s.position as u64;
                let decided = match self.phase {
                    Phase::Tie => update(
                        self.counters,
                        records,
                        p,
                        Value::TIE,
                        self.r + 1,
                        self.phase,
                    ),
                    Phase::WinLose if s.losing_moves == 0 => update(
                        self.counters,
                        records,
                        p,
                        Value::WIN,
                        self.r + 1,
                        self.phase,
                    ),
                    Phase::WinLose => lower(self.counters, records, p, s.losing_moves, self.r + 1),
                };
                if decided {
                    self.next.set(p);
                }
            }
        });
    }

    /// The tier's own positions marked in `bits`.
    fn bits(&self, bits: &Bits, packed_of: impl Fn(u64) -> u16 + Sync) -> Result<(), SolveError> {
        bits.for_each_block(ParentBuffers::default, |bufs, positions| {
            for chunk in positions.chunks(PARENT_CHUNK) {
                self.chunk(self.state.tier, chunk, bufs, &packed_of)?;
            }
            Ok(())
        })
    }

    /// At most `PARENT_CHUNK` positions of `child_tier`.
    fn chunk(
        &self,
        child_tier: Tier,
        chunk: &[u64],
        bufs: &mut ParentBuffers,
        packed_of: &impl Fn(u64) -> u16,
    ) -> Result<(), SolveError> {
        let (state, counters, flow) = (self.state, self.counters, self.flow);
        // The counters of a tier larger than the caches are a miss each, and the
        // atomic update below waits for its line: ask for the whole chunk's first, so
        // the misses overlap (a 512-child chunk has a few thousand parents, well
        // within the second-level cache).
        let warm = |parents: &[u64]| {
            for &p in parents {
                if let Some(cell) = counters.get(p as usize) {
                    prefetch(cell);
                }
            }
        };
        for_each_parents_warmed(
            self.game,
            state,
            child_tier,
            chunk,
            bufs,
            warm,
            |c, found| {
                if found.is_empty() {
                    return Ok(());
                }
                let child_value = value_of(packed_of(c));
                let child_turn = if flow == Flow::ByTurn {
                    Some(turn_of(self.game, state, child_tier, c)?)
                } else {
                    None
                };
                for &p in found {
                    if p as usize >= counters.len() {
                        return Err(SolveError::PastPrefix {
                            tier: state.tier,
                            index: p,
                            prefix: counters.len() as u64,
                        });
                    }
                    let v = match flow {
                        Flow::Alternate => child_value.invert(),
                        Flow::Puzzle => child_value,
                        Flow::ByTurn => {
                            if Some(Player(state.turns[p as usize].load(Relaxed))) == child_turn {
                                child_value
                            } else {
                                child_value.invert()
                            }
                        }
                    };
                    if update(counters, &state.records, p, v, self.r + 1, self.phase) {
                        self.next.set(p);
                    }
                }
                Ok(())
            },
        )
    }
}

/// Asks the CPU to bring `slot`'s cache line in: a hint, which never faults (nothing
/// on targets other than x86-64).
#[inline(always)]
fn prefetch<T>(slot: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch only hints at a cache line; `slot` is a valid reference.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T1};
        _mm_prefetch::<_MM_HINT_T1>((slot as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = slot;
}

fn turn_of(game: &GameHandle, state: &TierState, tier: Tier, i: u64) -> Result<Player, SolveError> {
    if tier == state.tier {
        Ok(Player(state.turns[i as usize].load(Relaxed)))
    } else {
        Ok(game.turn(TierPosition::new(tier, i))?)
    }
}

/// Lowers parent `p`'s counter by `k` children that win for their mover, all known
/// by remoteness `r - 1`; returns whether this decided `p` (a loss at `r`).
#[inline]
fn lower<C: Cell>(counters: &[C], records: &[AtomicU16], p: u64, k: u32, r: u32) -> bool {
    let counter = &counters[p as usize];
    let mut cur = counter.get();
    loop {
        if cur >= C::DECIDED {
            return false;
        }
        // The counter started at the number of children, and each is counted once.
        debug_assert!(cur >= k);
        let new = if cur <= k { C::DECIDED } else { cur - k };
        match counter.cas(cur, new) {
            Ok(_) => {
                if new == C::DECIDED {
                    counter.settle(records, p as usize, Value::LOSE, r);
                    return true;
                }
                return false;
            }
            Err(actual) => cur = actual,
        }
    }
}

/// Applies a child's value `v` (from the parent's mover's view) to parent `p`; returns
/// whether this decided `p` (at remoteness `r`).
#[inline]
fn update<C: Cell>(
    counters: &[C],
    records: &[AtomicU16],
    p: u64,
    v: Value,
    r: u32,
    phase: Phase,
) -> bool {
    let counter = &counters[p as usize];
    let mut cur = counter.get();
    loop {
        if cur >= C::DECIDED {
            return false;
        }
        let (new, decided_as) = match phase {
            Phase::Tie => (C::DECIDED, Value::TIE),
            Phase::WinLose if v == Value::WIN => (C::DECIDED, Value::WIN),
            Phase::WinLose if v == Value::LOSE => {
                if cur == 1 {
                    (C::DECIDED, Value::LOSE)
                } else {
                    (cur - 1, Value::UNDECIDED)
                }
            }
            Phase::WinLose => return false,
        };
        match counter.cas(cur, new) {
            Ok(_) => {
                if new == C::DECIDED {
                    counter.settle(records, p as usize, decided_as, r);
                    return true;
                }
                return false;
            }
            Err(actual) => cur = actual,
        }
    }
}
