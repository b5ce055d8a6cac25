//! Dense ranking of Othello positions within a tier (the number of discs on the board).
//!
//! The four centre cells are occupied from the start and never emptied, so a board of
//! tier `d` is: the colours of the centre cells (4 bits) and a placement of `d - 4`
//! discs on the other ("outer") cells, `k` of them black. The outer placements are
//! ranked with the plugin-api `Ranker`, one per black count, laid end to end:
//!
//! `index = ((offset[k] + outer_rank) * 16 + centre_bits) * 2 + side`
//!
//! where `side` is 0 when black is to move and 1 when white is. A tier of `d` discs then
//! has `32 * C(outer, d - 4) * 2^(d - 4)` positions, with no gaps.
//!
//! This file must not know the rules: it only maps boards to indices and back.

use crate::board::{Board, Geometry, BLACK, EMPTY, MAX_CELLS, WHITE};
use gamesman_plugin_api::rank::Ranker;

/// The rankers and offsets of one tier.
#[derive(Clone, Debug)]
struct TierRank {
    /// `rankers[k]`: outer placements with `k` black and `d - 4 - k` white discs.
    rankers: Vec<Ranker>,
    /// `offsets[k]`: the outer ranks of placements with fewer than `k` black discs.
    offsets: Vec<u64>,
    /// The number of positions of the tier.
    size: u64,
}

/// Maps (board, side to move) to (tier, index) and back for one board shape.
#[derive(Clone, Debug)]
pub struct Ranking {
    /// The non-centre cells, in board order.
    outer: Vec<usize>,
    /// The centre cells, in board order (bit `i` of the centre bits is `centre[i]`).
    centre: [usize; 4],
    /// `tiers[d]` for `d` discs (empty below 4).
    tiers: Vec<TierRank>,
}

impl Ranking {
    /// The ranking for boards of `geo`'s shape.
    pub fn new(geo: &Geometry) -> Ranking {
        let cells = geo.cells();
        let mut centre = geo.centre;
        centre.sort_unstable();
        let outer: Vec<usize> = (0..cells).filter(|c| !centre.contains(c)).collect();
        let n = outer.len();
        let mut tiers = Vec::with_capacity(cells + 1);
        for d in 0..=cells {
            if d < 4 {
                tiers.push(TierRank {
                    rankers: Vec::new(),
                    offsets: Vec::new(),
                    size: 0,
                });
                continue;
            }
            let placed = d - 4;
            let rankers: Vec<Ranker> = (0..=placed)
                .map(|k| Ranker::new(n, &[k, placed - k]).expect("at most 32 cells"))
                .collect();
            let mut offsets = Vec::with_capacity(rankers.len());
            let mut total = 0u64;
            for r in &rankers {
                offsets.push(total);
                total += r.size();
            }
            tiers.push(TierRank {
                rankers,
                offsets,
                size: total * 32,
            });
        }
        Ranking {
            outer,
            centre,
            tiers,
        }
    }

    /// The number of positions with `discs` discs (0 for tiers that do not exist).
    pub fn tier_size(&self, discs: usize) -> u64 {
        self.tiers.get(discs).map_or(0, |t| t.size)
    }

    /// The index of `b` (whose centre cells must be occupied) with `side` to move
    /// (`BLACK` or `WHITE`), within the tier of its disc count.
    pub fn rank(&self, b: &Board, side: u8) -> u64 {
        let d = b.occupied().count_ones() as usize;
        let t = &self.tiers[d];
        let mut centre_bits = 0u64;
        for (i, &c) in self.centre.iter().enumerate() {
            debug_assert_ne!(b.get(c), EMPTY, "centre cells are always occupied");
            if b.get(c) == WHITE {
                centre_bits |= 1 << i;
            }
        }
        let mut outer = [EMPTY; MAX_CELLS];
        let mut k = 0usize;
        for (i, &c) in self.outer.iter().enumerate() {
            outer[i] = b.get(c);
            k += (outer[i] == BLACK) as usize;
        }
        let r = t.rankers[k].rank(&outer[..self.outer.len()]);
        (((t.offsets[k] + r) << 4 | centre_bits) << 1) | (side == WHITE) as u64
    }

    /// The board and side to move of `index` in the tier of `discs` discs.
    pub fn unrank(&self, discs: usize, index: u64) -> (Board, u8) {
        let t = &self.tiers[discs];
        debug_assert!(index < t.size);
        let side = if index & 1 == 0 { BLACK } else { WHITE };
        let centre_bits = (index >> 1) & 15;
        let outer_index = index >> 5;
        // The last block whose offset is not past the index (few blocks: scan).
        let k = t.offsets.partition_point(|&o| o <= outer_index) - 1;
        let mut outer = [EMPTY; MAX_CELLS];
        let n = self.outer.len();
        t.rankers[k].unrank(outer_index - t.offsets[k], &mut outer[..n]);
        let mut b = Board::default();
        for (i, &c) in self.outer.iter().enumerate() {
            if outer[i] != EMPTY {
                b.set(c, outer[i]);
            }
        }
        for (i, &c) in self.centre.iter().enumerate() {
            b.set(
                c,
                if centre_bits >> i & 1 == 1 {
                    WHITE
                } else {
                    BLACK
                },
            );
        }
        (b, side)
    }
}
