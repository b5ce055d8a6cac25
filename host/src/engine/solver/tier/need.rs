//! What one tier's own arrays need at its solve's peak, part by part (`own_need`):
//! the model of the arrays the tier layer allocates, kept beside them so that a new
//! per-tier structure is counted where it is made. The budget adds the child tiers,
//! the tiers kept for later and the slack. This file must not allocate or solve; it
//! imports only `base` and its sibling files' sizes.

use super::counters::Counters;
use crate::engine::game::GameHandle;
use crate::engine::solver::base::TierNeed;
use crate::engine::solver::input::frontier::bits_bytes;
use crate::engine::tier::TierNode;
use gamesman_plugin_api::Tier;

/// The memory a reverse graph needs: 4 bytes per edge plus 4 per child position.
pub fn graph_bytes(edges: u64, child_positions: u64) -> u64 {
    edges
        .saturating_mul(4)
        .saturating_add(child_positions.saturating_mul(4))
}

/// The most a position's seeds take: a win/lose seed and a tie seed, each 12 bytes in
/// the scan's chunks (twice that while they grow) and 8 once gathered by level.
pub const SEED_BYTES: u64 = 2 * (2 * 12 + 8);

/// Whether a reverse graph's kept moves into `child_tiers` (its parts, with their
/// stored sizes) are plain 4-byte positions rather than 8-byte codes: one part, whose
/// positions fit 32 bits.
pub fn kept_as_positions(child_tiers: &[(Tier, u64)]) -> bool {
    matches!(child_tiers, [(_, size)] if *size <= u32::MAX as u64 + 1)
}

/// The most a tier solved through a reverse graph built from the scan's kept moves
/// needs beyond the arrays the plan counts for a tier solved by undo moves: every move
/// of every position counted, 8 B kept (4 B in a graph of the tier's own moves, as
/// `kept_as_positions` says) and 4 B in the graph, 8 B a kept position,
/// and 4 B an offset for each position the graph holds parents of. Seeded, those are
/// the tier's own, and each position's seeds are added; otherwise every child tier's
/// too.
pub fn scanned_graph_bytes(game: &GameHandle, node: &TierNode, seeded: bool) -> u64 {
    let edges = node
        .stored
        .saturating_mul(game.properties().max_moves as u64);
    let (held, seeds) = if seeded {
        (node.stored.saturating_add(1), SEED_BYTES)
    } else {
        // One offset more for each tier held.
        let tiers = node.children.len() as u64 + node.loopy as u64;
        (child_positions(game, node).saturating_add(tiers), 0)
    };
    let kept = if seeded && kept_as_positions(&[(node.tier, node.stored)]) {
        4
    } else {
        8
    };
    graph_bytes(edges, held)
        .saturating_add(edges.saturating_mul(kept))
        .saturating_add(node.stored.saturating_mul(8 + seeds))
}

/// The positions a reverse graph of `node` holds parents of: its child tiers', and
/// its own when loopy.
fn child_positions(game: &GameHandle, node: &TierNode) -> u64 {
    node.children
        .iter()
        .map(|&c| game.stored_size(c).unwrap_or(0))
        .fold(0u64, u64::saturating_add)
        .saturating_add(if node.loopy { node.stored } else { 0 })
}

/// Moves per position assumed for a reverse graph before the scan counts them.
const ASSUMED_MOVES: u64 = 16;

/// Extra bytes a tier needs beyond the arrays this model counts: the reverse graph
/// of a tier solved without undo moves (4 B per move, assumed at most `ASSUMED_MOVES`
/// a position, and 4 B per position of its child tiers), and the moves its first pass
/// keeps for the second while it is built (8 B per move). The exact figure is known
/// once the tier is scanned; the graph's allocations are checked then too.
pub fn extra_bytes(game: &GameHandle, node: &TierNode, reverse_graph: bool) -> u64 {
    if !reverse_graph {
        return 0;
    }
    let moves = (game.properties().max_moves as u64).min(ASSUMED_MOVES);
    let children = child_positions(game, node);
    let edges = node.size.saturating_mul(moves);
    graph_bytes(edges, children).saturating_add(edges.saturating_mul(8))
}

/// The need of solving `node` alone (its own arrays), without its children: the
/// larger of the solver's two passes.
pub fn own_need(game: &GameHandle, node: &TierNode, reverse_graph: bool) -> TierNeed {
    let n = node.stored;
    let p = game.properties();
    let winby = p.supports_winby;
    let keep_turns = winby || (p.go_again && p.players > 1);
    let turns = if keep_turns { n } else { 0 };
    let extra = extra_bytes(game, node, reverse_graph);
    // The retrograde pass: counters, packed records, turns, the WinBy pass's scan
    // arrays (children counts, leaf margins) and the frontier's two bitmaps. The
    // records become the finished values in place (a game with WinBy copies them,
    // after the counters and bitmaps are freed: the WinBy pass below counts that).
    let retrograde = TierNeed {
        records: n.saturating_mul(2),
        counters: n.saturating_mul(Counters::width(p.max_moves)),
        turns,
        winby: if winby { n.saturating_mul(8) } else { 0 },
        frontier: bits_bytes(n).saturating_mul(2),
        extra,
        ..TierNeed::default()
    };
    // The WinBy pass: counters gone, values beside the records, margins and pending
    // counts added. Storing holds the records and the encoded file (the raw bytes at
    // most twice over), less than either pass.
    let winby_pass = TierNeed {
        records: n.saturating_mul(4),
        turns,
        winby: n.saturating_mul(16),
        extra,
        ..TierNeed::default()
    };
    if winby && winby_pass.total() > retrograde.total() {
        winby_pass
    } else {
        retrograde
    }
}
