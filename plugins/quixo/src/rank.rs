//! Dense ranking of the boards of one tier (fixed numbers of X and O cubes) onto
//! `0..multinomial`, fast enough for the solver's inner loops.
//!
//! Boards of up to 16 cells are split in a low half (cells 0..8) and a high half (the
//! rest, at most 8 cells). Each half is a base-3 number (blank 0, X 1, O 2, the highest
//! cell most significant) read from two byte tables; its rank among the halves with the
//! same counts comes from one more table. A tier's boards are grouped by the counts of
//! the low half, so
//!
//! `rank = offset[low counts] + rank(high half) * count(low halves) + rank(low half)`,
//!
//! a handful of L1-resident lookups and no loop. Because a shorter half is a base-3
//! number whose top digits are blank (the smallest digit), the ranks of a half do not
//! depend on its length, and one set of tables serves 9 (3x3) and 16 (4x4) cells.
//! Larger boards (5x5) rank with byte tables too (`wide`), to the plugin-api
//! `Ranker`'s numbers.
//!
//! This file must not know about moves, turns or the plugin API's positions.

use crate::board::Board;
use crate::wide::{Wide, WideTables};

/// Cells in the low half.
const HALF: usize = 8;
/// Base-3 codes of one half: `3^8`.
const CODES: usize = 6561;
/// Keys of (X count, O count) of a half: `x + 9 * o`.
const KEYS: usize = 81;

/// The tables every tier of a variant shares.
#[derive(Debug)]
pub struct Tables {
    /// `x_code[byte]`: base-3 code of X cubes in 8 cells, plus `count << 16`.
    x_code: [u32; 256],
    /// `o_code[byte]`: twice the base-3 code of O cubes, plus `9 * count << 16`.
    o_code: [u32; 256],
    /// Rank of a half's code among the codes with the same counts.
    local: Vec<u16>,
    /// Codes of each count key in increasing order, as `x byte | o byte << 8`.
    halves: Vec<u16>,
    /// Where each count key's codes start in `halves`.
    halves_start: [u16; KEYS + 1],
    /// The tables of boards of more than 16 cells.
    wide: WideTables,
}

impl Tables {
    /// Builds the tables (a few microseconds).
    pub fn new() -> Tables {
        let tern = |b: usize| -> u32 {
            (0..8u32)
                .filter(|&i| b >> i & 1 == 1)
                .map(|i| 3u32.pow(i))
                .sum()
        };
        let mut x_code = [0u32; 256];
        let mut o_code = [0u32; 256];
        for b in 0..256 {
            let n = (b as u32).count_ones();
            x_code[b] = tern(b) | n << 16;
            o_code[b] = (2 * tern(b)) | ((9 * n) << 16);
        }
        // Group the codes by count key, each group in increasing code order.
        let mut per_key: Vec<Vec<u16>> = vec![Vec::new(); KEYS];
        let mut local = vec![0u16; CODES];
        for (code, slot) in local.iter_mut().enumerate() {
            let (mut xb, mut ob, mut rest) = (0u16, 0u16, code);
            for i in 0..8 {
                match rest % 3 {
                    1 => xb |= 1 << i,
                    2 => ob |= 1 << i,
                    _ => {}
                }
                rest /= 3;
            }
            let key = xb.count_ones() as usize + 9 * ob.count_ones() as usize;
            *slot = per_key[key].len() as u16;
            per_key[key].push(xb | ob << 8);
        }
        let mut halves = Vec::with_capacity(CODES);
        let mut halves_start = [0u16; KEYS + 1];
        for (k, codes) in per_key.iter().enumerate() {
            halves_start[k] = halves.len() as u16;
            halves.extend_from_slice(codes);
        }
        halves_start[KEYS] = halves.len() as u16;
        Tables {
            x_code,
            o_code,
            local,
            halves,
            halves_start,
            wide: WideTables::new(),
        }
    }

    /// The tables of boards of more than 16 cells.
    pub fn wide(&self) -> &WideTables {
        &self.wide
    }

    /// `x_code + o_code` of one half: its base-3 code and, above bit 16, its count key.
    #[inline(always)]
    fn half(&self, x: u32, o: u32) -> u32 {
        self.x_code[(x & 0xff) as usize] + self.o_code[(o & 0xff) as usize]
    }
}

impl Default for Tables {
    fn default() -> Self {
        Tables::new()
    }
}

/// One block of a tier: the boards whose low half has one pair of counts.
#[derive(Clone, Copy, Debug, Default)]
struct Block {
    /// Rank of the block's first board.
    start: u32,
    /// Number of low halves with these counts (the weight of the high half's rank).
    low_count: u32,
    /// `floor(2^40 / low_count) + 1`: dividing a rank within the block (below 2^23)
    /// by `low_count` is a multiply and a shift, exact for such ranks.
    reciprocal: u64,
    /// Where the low halves of these counts start in `Tables::halves`.
    low_base: u16,
    /// Where the high halves of the remaining counts start in `Tables::halves`.
    high_base: u16,
}

#[derive(Clone, Debug)]
enum Method {
    /// Boards of at most 16 cells: the split described at the top of the file.
    Split {
        /// Blocks by the low half's count key (unused keys hold zeros).
        blocks: Box<[Block; KEYS]>,
        /// The non-empty blocks by increasing start, for unranking.
        order: Vec<Block>,
        /// `first[r >> shift]`: the index in `order` of the block holding rank
        /// `r >> shift << shift`; the block of `r` is at most a few steps further.
        first: Vec<u8>,
        /// See `first`.
        shift: u32,
    },
    /// Larger boards: the generic multinomial numbering, from byte tables.
    Wide(Wide),
}

/// Ranks the boards with `xs` X and `os` O cubes.
#[derive(Clone, Debug)]
pub struct TierRanker {
    xs: u32,
    os: u32,
    cells: usize,
    size: u64,
    method: Method,
}

/// The number of ways to place `x` X and `o` O cubes on `cells` cells.
pub fn multinomial(cells: usize, x: usize, o: usize) -> u64 {
    use gamesman_plugin_api::rank::binomial;
    if x + o > cells {
        return 0;
    }
    binomial(cells, x) * binomial(cells - x, o)
}

impl TierRanker {
    /// A ranker for `xs` X and `os` O cubes on `cells` cells (`xs + os <= cells <= 25`).
    pub fn new(t: &Tables, cells: usize, xs: usize, os: usize) -> TierRanker {
        assert!(xs + os <= cells && cells <= 32);
        let size = multinomial(cells, xs, os);
        let method = if cells <= 2 * HALF {
            let (lo, hi) = (cells.min(HALF), cells.saturating_sub(HALF));
            let mut blocks = Box::new([Block::default(); KEYS]);
            let mut order = Vec::new();
            let mut start = 0u64;
            for key in 0..KEYS {
                let (cx, co) = (key % 9, key / 9);
                if cx > xs || co > os || cx + co > lo || (xs - cx) + (os - co) > hi {
                    continue;
                }
                let low_count = multinomial(lo, cx, co);
                let high_count = multinomial(hi, xs - cx, os - co);
                let high_key = (xs - cx) + 9 * (os - co);
                let block = Block {
                    start: start as u32,
                    low_count: low_count as u32,
                    reciprocal: (1u64 << 40) / low_count + 1,
                    low_base: t.halves_start[key],
                    high_base: t.halves_start[high_key],
                };
                blocks[key] = block;
                order.push(block);
                start += low_count * high_count;
            }
            assert_eq!(start, size, "blocks cover the tier");
            // The reciprocal division is exact below 2^23 (checked in the tests).
            assert!(size < 1 << 23);
            // About four buckets per block keeps the forward search short.
            let mut shift = 0;
            while (size >> shift) > 4 * order.len() as u64 {
                shift += 1;
            }
            let first = (0..=(size.max(1) - 1) >> shift)
                .map(|bucket| {
                    let r = (bucket << shift) as u32;
                    (order.partition_point(|b| b.start <= r) - 1) as u8
                })
                .collect();
            Method::Split {
                blocks,
                order,
                first,
                shift,
            }
        } else {
            Method::Wide(Wide::new(&t.wide, cells, xs, os))
        };
        TierRanker {
            xs: xs as u32,
            os: os as u32,
            cells,
            size,
            method,
        }
    }

    /// The number of boards: ranks are exactly `0..size`.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The number of cells of the board.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// Calls `f` with every board of the tier in rank order (rank 0 first). On 5x5 the
    /// boards are walked, not unranked: the X cubes' cells in increasing order of their
    /// bitmask (the colex order of their combination), and for each, the O cubes'
    /// places among the cells left free in the same order.
    pub fn for_each_in_order(&self, t: &Tables, mut f: impl FnMut(Board)) {
        match &self.method {
            Method::Split { .. } => {
                for r in 0..self.size {
                    f(self.unrank(t, r));
                }
            }
            Method::Wide(_) => {
                let (xs, os, cells) = (self.xs, self.os, self.cells as u32);
                let all = ((1u64 << cells) - 1) as u32;
                let free_cells = cells - xs;
                let mut x = first_combination(xs);
                loop {
                    let free = all & !x;
                    let mut c = first_combination(os);
                    loop {
                        f(Board {
                            x,
                            o: deposit(c, free),
                        });
                        match next_combination(c, free_cells) {
                            Some(n) => c = n,
                            None => break,
                        }
                    }
                    match next_combination(x, cells) {
                        Some(n) => x = n,
                        None => break,
                    }
                }
            }
        }
    }

    /// The rank of `b`, which must have this ranker's counts (checked in debug builds).
    #[inline(always)]
    pub fn rank(&self, t: &Tables, b: Board) -> u64 {
        debug_assert_eq!((b.x.count_ones(), b.o.count_ones()), (self.xs, self.os));
        match &self.method {
            Method::Split { blocks, .. } => {
                let low = t.half(b.x, b.o);
                let high = t.half(b.x >> 8, b.o >> 8);
                let block = blocks[(low >> 16) as usize];
                let r = block.start
                    + t.local[(high & 0xffff) as usize] as u32 * block.low_count
                    + t.local[(low & 0xffff) as usize] as u32;
                r as u64
            }
            Method::Wide(w) => w.rank(&t.wide, b.x, b.o),
        }
    }

    /// The board of rank `r` (below `size`).
    #[inline]
    pub fn unrank(&self, t: &Tables, r: u64) -> Board {
        debug_assert!(r < self.size);
        match &self.method {
            Method::Split {
                order,
                first,
                shift,
                ..
            } => {
                let r = r as u32;
                let mut at = first[(r >> shift) as usize] as usize;
                while at + 1 < order.len() && order[at + 1].start <= r {
                    at += 1;
                }
                let block = order[at];
                let rest = r - block.start;
                let high_rank = ((rest as u64 * block.reciprocal) >> 40) as u32;
                let low_rank = rest - high_rank * block.low_count;
                let low = t.halves[block.low_base as usize + low_rank as usize] as u32;
                let high = t.halves[block.high_base as usize + high_rank as usize] as u32;
                Board {
                    x: (low & 0xff) | (high & 0xff) << 8,
                    o: (low >> 8) | (high >> 8) << 8,
                }
            }
            Method::Wide(w) => {
                let (x, o) = w.unrank(&t.wide, r);
                Board { x, o }
            }
        }
    }
}

/// The smallest bitmask with `k` bits set.
pub(crate) fn first_combination(k: u32) -> u32 {
    ((1u64 << k) - 1) as u32
}

/// The next larger bitmask with as many bits set as `c`, within `bits` bits (Gosper's
/// hack), or `None` after the last.
#[inline(always)]
pub(crate) fn next_combination(c: u32, bits: u32) -> Option<u32> {
    if c == 0 {
        return None;
    }
    let c = c as u64;
    let low = c & c.wrapping_neg();
    let ripple = c + low;
    let next = (((ripple ^ c) >> 2) / low) | ripple;
    (next < 1u64 << bits).then_some(next as u32)
}

/// The bits of `c`, lowest first, placed on the set bits of `mask` (a software
/// `pdep`).
#[inline(always)]
fn deposit(mut c: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    while c != 0 && mask != 0 {
        let bit = mask & mask.wrapping_neg();
        if c & 1 == 1 {
            out |= bit;
        }
        c >>= 1;
        mask &= mask - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn boards_are_walked_in_rank_order() {
        let t = Tables::new();
        for (cells, xs, os) in [
            (25, 3, 2),
            (25, 0, 0),
            (25, 25, 0),
            (25, 0, 25),
            (25, 12, 12),
            (16, 5, 4),
            (9, 3, 3),
        ] {
            let r = TierRanker::new(&t, cells, xs, os);
            let mut next = 0u64;
            let limit = 200_000;
            r.for_each_in_order(&t, |b| {
                if next < limit {
                    assert_eq!(r.rank(&t, b), next, "({cells}, {xs}, {os})");
                }
                next += 1;
            });
            assert_eq!(next, r.size(), "({cells}, {xs}, {os})");
        }
    }

    fn round_trip_all(cells: usize, xs: usize, os: usize) {
        let t = Tables::new();
        let r = TierRanker::new(&t, cells, xs, os);
        assert_eq!(r.size(), multinomial(cells, xs, os));
        let mut seen = HashSet::new();
        for i in 0..r.size() {
            let b = r.unrank(&t, i);
            assert_eq!(b.x & b.o, 0);
            assert_eq!(b.x.count_ones() as usize, xs);
            assert_eq!(b.o.count_ones() as usize, os);
            assert!((b.x | b.o) < 1 << cells);
            assert!(seen.insert(b));
            assert_eq!(r.rank(&t, b), i);
        }
    }

    #[test]
    fn reciprocal_division_is_exact() {
        // Every divisor a block can have (counts of 8-cell halves) and every quotient
        // a rank below 2^23 can give, at the edges of each remainder range.
        let mut divisors: Vec<u64> = (0..=8)
            .flat_map(|x| (0..=8 - x).map(move |o| multinomial(8, x, o)))
            .collect();
        divisors.sort_unstable();
        divisors.dedup();
        for d in divisors {
            let m = (1u64 << 40) / d + 1;
            let mut q = 0;
            while q * d < 1 << 23 {
                for n in [q * d, q * d + d - 1] {
                    if n < 1 << 23 {
                        assert_eq!((n * m) >> 40, n / d, "{n} / {d}");
                    }
                }
                q += 1;
            }
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(multinomial(16, 5, 5), 2_018_016);
        assert_eq!(multinomial(9, 3, 2), 1260);
        assert_eq!(multinomial(16, 0, 0), 1);
        assert_eq!(multinomial(4, 3, 2), 0);
        // Every 3^16 board lies in exactly one tier.
        let total: u64 = (0..=16)
            .flat_map(|x| (0..=16 - x).map(move |o| multinomial(16, x, o)))
            .sum();
        assert_eq!(total, 43_046_721);
    }

    #[test]
    fn split_ranks_round_trip_densely() {
        for (x, o) in [(0, 0), (1, 0), (3, 2), (4, 5), (9, 0), (0, 9)] {
            round_trip_all(9, x, o);
        }
        for (x, o) in [(0, 0), (2, 1), (5, 5), (8, 8), (16, 0), (7, 9), (1, 14)] {
            round_trip_all(16, x, o);
        }
    }

    #[test]
    fn generic_ranks_round_trip_on_5x5() {
        round_trip_all(25, 2, 1);
        round_trip_all(25, 23, 1);
        let t = Tables::new();
        let r = TierRanker::new(&t, 25, 8, 8);
        // C(25, 8) * C(17, 8)
        assert_eq!(r.size(), 1_081_575 * 24_310);
        for i in (0..r.size()).step_by(9_999_991) {
            assert_eq!(r.rank(&t, r.unrank(&t, i)), i);
        }
    }
}
