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

use super::children::ChildTier;
use super::counters::{status, ByteCell, Cell, Counters, Status, MERGED_MOVES, NARROW_MOVES};
use super::frontier::{Bits, ChildFrontier};
use super::levels::Levels;
use super::memory::{filled, reserved};
use super::onebyte::RemotenessLog;
pub use super::parents::{for_each_parents, ParentBuffers};
use super::parents::{Moves, ParentMode, ParentSource, ReverseGraph};
use super::scan::{scan, Fused, Scanned};
use super::SolveError;
use crate::engine::game::GameHandle;
use crate::engine::record::{pack, value_of, TierRecords};
use crate::engine::tier::TierNode;
use gamesman_plugin_api::{Tier, Value};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering::*};

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
    pub(super) records: Vec<AtomicU16>,
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
    // module can give both at once (`scan_children_batch`). In a two-player game
    // without WinBy, the values of the children in child tiers are then read as the
    // scan expands each position (`seeds`), and the graph holds only the tier's moves
    // within itself. A module that asks for it (`prefers_forward`) is solved so even
    // though it gives undo moves, when all of this holds; otherwise by its parents.
    let fronts: Vec<&ChildFrontier> = children
        .iter()
        .filter_map(|c| match c {
            ChildTier::Whole(f) => Some(f),
            ChildTier::Streamed(_) => None,
        })
        .collect();
    let whole = fronts.len() == children.len()
        && matches!(state.counters, Counters::Narrow(_) | Counters::Wide(_));
    let fusable = whole && game.scan_children_batch(node.tier, 0, &mut [], &mut [])?;
    let seedable = fusable && flow == Flow::Alternate && !winby && node.stored <= u32::MAX as u64;
    let graph = use_graph(game, mode, seedable)?;
    let seeded = graph && seedable;
    let parts = match (graph, seeded) {
        (false, _) => None,
        (true, false) => Some(graph_tiers(game, node)?),
        (true, true) if node.loopy => Some(vec![(node.tier, node.size)]),
        (true, true) => Some(Vec::new()),
    };
    let fused = match &parts {
        Some(p) if fusable => Some(Fused {
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

/// Whether this tier is solved through a reverse graph: as `ParentMode::uses_graph`
/// says, except that a module with undo moves that prefers its children is solved
/// by them only where the scan can read the child tiers' values (`seedable`).
fn use_graph(game: &GameHandle, mode: ParentMode, seedable: bool) -> Result<bool, SolveError> {
    match mode {
        ParentMode::UndoMoves if !game.has_undo_moves() => {
            Err(SolveError::NoUndoMoves(game.module_name().to_string()))
        }
        ParentMode::Auto if game.has_undo_moves() => Ok(game.prefers_forward() && seedable),
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
