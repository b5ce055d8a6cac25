//! The numbering of a 5x5 tier's boards, canonical boards first, from its blank
//! patterns: built in milliseconds from a table per pattern, where `order` walks
//! every board of the tier (seconds per 10^8 boards).
//!
//! A board is ranked by its blank pattern (the set of blank cells, as a colex rank)
//! and then by where its X cubes lie among the other cells (a colex rank too):
//! `rank = pattern * per + placement`. Canonical boards are the images with the
//! smallest `(blanks, o)` (`symmetry`), so a pattern that is not the smallest of its
//! eight images holds no canonical board, and one that is, with no symmetry fixing
//! it, holds only canonical boards. Only the few patterns that a symmetry fixes (and
//! the one pattern of a tier without blanks) need a bit per board, with a count of
//! canonical boards before each word. So:
//!
//! `index = canonical boards in earlier patterns + canonical placements below` for a
//! canonical board, and `count + rank - that` for any other. The bytes kept are a few
//! per pattern (`C(25, blanks)` of them) and a bit per board of the fixed patterns:
//! 0.7 MB for the largest tier without blanks, well under that with 1 to 3 blanks.
//!
//! This file must not know moves, tiers or the plugin API's positions.

use crate::board::Board;
use crate::rank::{first_combination, next_combination};
use crate::symmetry::Symmetries;
use crate::wide::WideTables;
use std::cell::Cell;

/// A pattern that is not the smallest of its images: no canonical board.
const NONE: u8 = 0;
/// The smallest of eight distinct images: every board canonical.
const ALL: u8 = 1;
/// The smallest, fixed by a symmetry: the canonical boards are marked in `bits`.
const SOME: u8 = 2;

/// One blank pattern of a tier, in 8 bytes: the canonical boards in the patterns
/// before it (36 bits: a tier has fewer than 2^36 boards), for `SOME` the first word
/// of its bits (26 bits), and its kind (2 bits).
#[derive(Clone, Copy, Debug, Default)]
struct Pattern(u64);

impl Pattern {
    fn new(before: u64, word: u64, kind: u8) -> Pattern {
        assert!(
            before < 1 << 36 && word < 1 << 26,
            "a pattern of a 5x5 tier"
        );
        Pattern(before | word << 36 | (kind as u64) << 62)
    }

    /// Canonical boards in the patterns before this one.
    #[inline(always)]
    fn before(self) -> u64 {
        self.0 & ((1 << 36) - 1)
    }

    /// `SOME`: the first word of this pattern's bits.
    #[inline(always)]
    fn word(self) -> u64 {
        self.0 >> 36 & ((1 << 26) - 1)
    }

    /// `NONE`, `ALL` or `SOME`.
    #[inline(always)]
    fn kind(self) -> u8 {
        (self.0 >> 62) as u8
    }
}

/// The canonical-first numbering of the boards with `xs` X and `os` O cubes on 25
/// (at most 32) cells.
#[derive(Debug)]
pub struct PatternOrder {
    cells: usize,
    xs: usize,
    blanks: usize,
    /// Every cell.
    full: u32,
    /// Boards per pattern: `C(cells - blanks, xs)`.
    per: u64,
    /// Per pattern, by the colex rank of its blank cells.
    patterns: Vec<Pattern>,
    /// The patterns holding canonical boards, in order.
    with: Vec<u32>,
    /// `SOME` patterns' canonical placements, `words` words each, one after another.
    bits: Vec<u64>,
    /// Canonical boards in `bits` before each word (one more entry at the end).
    ones: Vec<u32>,
    /// `sample[j]`: the word of `bits` holding its canonical board `64 * j`.
    sample: Vec<u32>,
    /// Per pattern (by colex rank), where its boards' canonical forms lie when no
    /// symmetry fixes it: `star << 3 | k`, symmetry `k` taking it to the smallest of
    /// its images, pattern `star`; `FIXED` when a symmetry fixes it.
    to_star: Vec<u32>,
    /// Canonical boards: their indices are `0..count`.
    count: u64,
}

/// `to_star` of a pattern that some symmetry fixes.
const FIXED: u32 = u32::MAX;

impl PatternOrder {
    /// Numbers the boards with `xs` X and `os` O cubes on `cells` cells.
    pub fn new(t: &WideTables, s: &Symmetries, cells: usize, xs: usize, os: usize) -> Self {
        assert!(xs + os <= cells && cells <= 25);
        let blanks = cells - xs - os;
        let full = ((1u64 << cells) - 1) as u32;
        let per = t.binomial(cells - blanks, xs);
        let words = per.div_ceil(64) as usize;
        let npatterns = t.binomial(cells, blanks) as usize;
        let mut patterns = Vec::with_capacity(npatterns);
        let mut to_star = Vec::with_capacity(npatterns);
        let (mut with, mut bits): (Vec<u32>, Vec<u64>) = (Vec::new(), Vec::new());
        let mut count = 0u64;
        let mut blank = first_combination(blanks as u32);
        for p in 0..npatterns {
            // The smallest image, and the first symmetry giving it.
            let (mut star, mut via, mut fixed) = (blank, 0, false);
            for k in 1..8 {
                let image = s.wide_image(blank, k);
                fixed |= image == blank;
                if image < star {
                    (star, via) = (image, k);
                }
            }
            to_star.push(if fixed {
                FIXED
            } else {
                let star = u32::try_from(t.colex_rank(star)).expect("patterns of 25 cells");
                assert!(star < 1 << 29, "a pattern rank of a 5x5 tier");
                star << 3 | via as u32
            });
            let mut kind = ALL;
            // The symmetries fixing the pattern.
            let mut fixing = [0usize; 7];
            let mut nfixing = 0;
            for k in 1..8 {
                let image = s.wide_image(blank, k);
                if image < blank {
                    kind = NONE;
                    break;
                }
                if image == blank {
                    kind = SOME;
                    fixing[nfixing] = k;
                    nfixing += 1;
                }
            }
            let before = count;
            let mut word = 0;
            match kind {
                ALL => count += per,
                SOME => {
                    word = bits.len() as u64;
                    let start = bits.len();
                    bits.resize(start + words, 0);
                    let occupied = full & !blank;
                    let mut c = first_combination(xs as u32);
                    for j in 0..per as usize {
                        // Every other symmetry moves the pattern to a larger one, so
                        // the board is canonical when no fixing one makes o smaller
                        // (`Symmetries::is_canonical`, checked in the tests).
                        let o = occupied & !t.deposit(c, occupied);
                        if fixing[..nfixing].iter().all(|&k| s.wide_image(o, k) >= o) {
                            bits[start + j / 64] |= 1 << (j % 64);
                            count += 1;
                        }
                        c = next_combination(c, (cells - blanks) as u32).unwrap_or(0);
                    }
                }
                _ => {}
            }
            if kind != NONE {
                with.push(p as u32);
            }
            patterns.push(Pattern::new(before, word, kind));
            blank = next_combination(blank, cells as u32).unwrap_or(0);
        }
        let mut ones = Vec::with_capacity(bits.len() + 1);
        let mut sample = Vec::new();
        let mut seen = 0u64;
        for (w, word) in bits.iter().enumerate() {
            ones.push(u32::try_from(seen).expect("canonical bits of a tier"));
            let n = word.count_ones() as u64;
            while (sample.len() as u64) * 64 < seen + n {
                sample.push(w as u32);
            }
            seen += n;
        }
        ones.push(seen as u32);
        PatternOrder {
            cells,
            xs,
            blanks,
            full,
            per,
            patterns,
            with,
            bits,
            ones,
            sample,
            to_star,
            count,
        }
    }

    /// Blank cells of every board of the tier.
    #[inline(always)]
    pub fn blanks(&self) -> usize {
        self.blanks
    }

    /// How many boards are canonical: their indices are `0..count`.
    #[inline(always)]
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The bytes this numbering keeps.
    pub fn bytes(&self) -> usize {
        self.patterns.len() * 8
            + self.with.len() * 4
            + self.bits.len() * 8
            + self.ones.len() * 4
            + self.sample.len() * 4
            + self.to_star.len() * 4
    }

    /// Canonical boards of pattern `p` with a placement below `j`.
    #[inline(always)]
    fn canonical_below(&self, p: Pattern, j: u64) -> u64 {
        p.before()
            + match p.kind() {
                ALL => j,
                SOME => {
                    let w = p.word() as usize + (j >> 6) as usize;
                    let low = self.bits[w] & ((1u64 << (j & 63)) - 1);
                    (self.ones[w] - self.ones[p.word() as usize]) as u64 + low.count_ones() as u64
                }
                _ => 0,
            }
    }

    /// The index of board `b` (of this numbering's counts), which is canonical or not
    /// as `canonical` says.
    #[inline(always)]
    pub fn index(&self, t: &WideTables, b: Board, canonical: bool) -> u64 {
        let blank = self.full & !(b.x | b.o);
        let p = self.pattern_of(t, blank);
        let j = t.colex_rank(self.placed_of(t, blank, b.x));
        let below = self.canonical_below(self.patterns[p as usize], j);
        if canonical {
            below
        } else {
            self.count + p * self.per + j - below
        }
    }

    /// The rank of blank pattern `blank` (of this numbering's blanks).
    #[inline(always)]
    fn pattern_of(&self, t: &WideTables, blank: u32) -> u64 {
        match self.blanks {
            0 => 0,
            1 => blank.trailing_zeros() as u64,
            _ => t.colex_rank(blank),
        }
    }

    /// The X cubes' places `x` among the cells other than `blank`, as `index` ranks
    /// them.
    #[inline(always)]
    fn placed_of(&self, t: &WideTables, blank: u32, x: u32) -> u32 {
        match self.blanks {
            0 => x,
            1..=FEW => squeeze(x, blank),
            _ => t.extract(x, self.full & !blank),
        }
    }

    /// The index of the canonical form of board `b` (of this numbering's counts, any
    /// of its images), found from its blank pattern when no symmetry fixes that: the
    /// symmetry taking the pattern to its smallest image takes the board to its
    /// canonical form, whose pattern holds only canonical boards. `None` when a
    /// symmetry fixes the pattern (the boards without blanks, and a few others): then
    /// the images keeping the pattern must be compared (`Symmetries::canonical`).
    #[inline(always)]
    pub fn canonical_index(&self, t: &WideTables, s: &Symmetries, b: Board) -> Option<u64> {
        if self.blanks == 0 {
            return None;
        }
        let blank = self.full & !(b.x | b.o);
        let e = self.to_star[self.pattern_of(t, blank) as usize];
        if e == FIXED {
            return None;
        }
        let (star, k) = ((e >> 3) as u64, (e & 7) as usize);
        let (blank, x) = if k == 0 {
            (blank, b.x)
        } else {
            (s.wide_image(blank, k), s.wide_image(b.x, k))
        };
        let placed = self.placed_of(t, blank, x);
        debug_assert_eq!(self.patterns[star as usize].kind(), ALL);
        Some(self.patterns[star as usize].before() + t.colex_rank(placed))
    }

    /// The X cubes' places of placement `j` (a colex rank): stepped forward from the
    /// last one this thread unranked when that is a little below it (the solver walks
    /// a tier's positions in order), else unranked.
    #[inline(always)]
    fn placed(&self, t: &WideTables, j: u64) -> u32 {
        // The boards of equal counts are numbered the same, whichever numbering this is.
        let key = (self.cells * 64 + self.xs) as u32;
        LAST.with(|last| {
            let (k, lj, lc) = last.get();
            let placed = if k == key && lj <= j && j - lj <= STEPS {
                let mut c = lc;
                for _ in lj..j {
                    c = successor(c);
                }
                c
            } else {
                t.colex_unrank(j, self.xs, self.cells - self.blanks)
            };
            last.set((key, j, placed));
            placed
        })
    }

    /// The board of pattern `p` with placement `j`.
    #[inline(always)]
    fn board(&self, t: &WideTables, p: u64, j: u64) -> Board {
        let placed = self.placed(t, j);
        let (blank, x) = match self.blanks {
            0 => (0, placed),
            1 => (1 << p, spread(placed, 1 << p)),
            2..=FEW => {
                let blank = t.colex_unrank(p, self.blanks, self.cells);
                (blank, spread(placed, blank))
            }
            _ => {
                let blank = t.colex_unrank(p, self.blanks, self.cells);
                (blank, t.deposit(placed, self.full & !blank))
            }
        };
        let occupied = self.full & !blank;
        Board {
            x,
            o: occupied & !x,
        }
    }

    /// The board of index `i` (below the tier's size).
    #[inline(always)]
    pub fn unindex(&self, t: &WideTables, i: u64) -> Board {
        if i >= self.count {
            return self.other(t, i - self.count);
        }
        let at = self
            .with
            .partition_point(|&p| self.patterns[p as usize].before() <= i)
            - 1;
        let p = self.with[at] as u64;
        let pattern = self.patterns[p as usize];
        let local = i - pattern.before();
        let j = match pattern.kind() {
            ALL => local,
            _ => {
                // The canonical bit number `g` of `bits`, from the word of the 64th
                // one before it, forward to its word.
                let g = self.ones[pattern.word() as usize] as u64 + local;
                let mut w = self.sample[(g >> 6) as usize] as usize;
                while self.ones[w + 1] as u64 <= g {
                    w += 1;
                }
                let bit = select(self.bits[w], (g - self.ones[w] as u64) as u32);
                (w - pattern.word() as usize) as u64 * 64 + bit as u64
            }
        };
        self.board(t, p, j)
    }

    /// The `k`-th board that is not canonical (play and text only).
    #[inline(never)]
    fn other(&self, t: &WideTables, k: u64) -> Board {
        let others_before = |p: usize| p as u64 * self.per - self.patterns[p].before();
        let (mut lo, mut hi) = (0usize, self.patterns.len());
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if others_before(mid) <= k {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let pattern = self.patterns[lo];
        let mut rest = k - others_before(lo);
        let j = match pattern.kind() {
            SOME => {
                // The last word of the pattern with at most `rest` zeros before it.
                let w0 = pattern.word() as usize;
                let zeros_before =
                    |w: usize| (w - w0) as u64 * 64 - (self.ones[w] - self.ones[w0]) as u64;
                let (mut lo, mut hi) = (w0, w0 + self.per.div_ceil(64) as usize);
                while hi - lo > 1 {
                    let mid = (lo + hi) / 2;
                    if zeros_before(mid) <= rest {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                let w = lo;
                rest -= zeros_before(w);
                let bit = select(!self.bits[w], rest as u32);
                (w - pattern.word() as usize) as u64 * 64 + bit as u64
            }
            _ => rest,
        };
        debug_assert!(j < self.per);
        self.board(t, lo as u64, j)
    }
}

/// Placements stepped forward by `successor` rather than unranked.
const STEPS: u64 = 16;

thread_local! {
    /// The last placement unranked on this thread: `(cells * 64 + xs, colex rank, X
    /// places)`, the key 0 for none.
    static LAST: Cell<(u32, u64, u32)> = const { Cell::new((0, 0, 0)) };
}

/// The next larger set of as many cells as `c` (not empty): Gosper's hack with a shift
/// for its division.
#[inline(always)]
fn successor(c: u32) -> u32 {
    let ripple = c.wrapping_add(c & c.wrapping_neg());
    ripple | ((ripple ^ c) >> 2) >> c.trailing_zeros()
}

/// Patterns of at most this many blanks (the endgame tiers') take the X cubes' places
/// out of the board, and put them back, by shifting around each blank cell rather
/// than with `WideTables`' byte-wise `pext` and `pdep` tables.
const FEW: usize = 4;

/// The bits of `bits` (none on `blank`) with the cells of `blank` taken out, the cells
/// above each moved down one: `pext` on the other cells, for a few blank cells.
#[inline(always)]
fn squeeze(mut bits: u32, mut blank: u32) -> u32 {
    // From the highest blank cell down, so the lower ones keep their places.
    while blank != 0 {
        let c = 31 - blank.leading_zeros();
        let below = (1u32 << c) - 1;
        bits = (bits & below) | (bits >> 1 & !below);
        blank &= below;
    }
    bits
}

/// The low bits of `bits` placed on the cells other than `blank`: a gap opened at
/// each blank cell (`pdep` on the other cells, for a few blank cells).
#[inline(always)]
fn spread(mut bits: u32, mut blank: u32) -> u32 {
    // From the lowest blank cell up, so the higher ones are at their final places.
    while blank != 0 {
        let below = (1u32 << blank.trailing_zeros()) - 1;
        bits = (bits & below) | (bits & !below) << 1;
        blank &= blank - 1;
    }
    bits
}

/// `BYTES.0[byte]`: the set bits of `byte`; `BYTES.1[k][byte]`: the place of its
/// `k`-th set bit (8 where it has no more). The builds target plain x86-64, where
/// `count_ones` is a dozen instructions rather than one.
static BYTES: ([u8; 256], [[u8; 256]; 8]) = byte_tables();

/// Builds `BYTES`.
const fn byte_tables() -> ([u8; 256], [[u8; 256]; 8]) {
    let mut ones = [0u8; 256];
    let mut place = [[8u8; 256]; 8];
    let mut byte = 0;
    while byte < 256 {
        let mut seen = 0;
        let mut bit = 0;
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                place[seen][byte] = bit as u8;
                seen += 1;
            }
            bit += 1;
        }
        ones[byte] = seen as u8;
        byte += 1;
    }
    (ones, place)
}

/// The place of the `k`-th set bit of `word` (which has more than `k`): whole bytes
/// skipped by their counts, then the byte's place from a table.
#[inline(always)]
fn select(mut word: u64, mut k: u32) -> u32 {
    let (ones, place) = &BYTES;
    let mut base = 0;
    loop {
        let byte = (word & 0xff) as usize;
        let n = ones[byte] as u32;
        if k < n {
            return base + place[k as usize][byte] as u32;
        }
        k -= n;
        word >>= 8;
        base += 8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::multinomial;

    #[test]
    fn successor_steps_through_the_colex_order() {
        let t = WideTables::new();
        for k in 1..=6 {
            let mut c = first_combination(k);
            for j in 0..t.binomial(12, k as usize) {
                assert_eq!(c, t.colex_unrank(j, k as usize, 12), "{k} of 12, rank {j}");
                c = successor(c);
            }
        }
    }

    #[test]
    fn squeeze_and_spread_are_the_table_pext_and_pdep() {
        let t = WideTables::new();
        let full = (1u32 << 25) - 1;
        let mut seed = 3u64;
        for _ in 0..20_000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            let r = (seed >> 7) as u32;
            // A few blank cells, and X cubes on some of the others.
            let mut blank = 0u32;
            for k in 0..(r % (FEW as u32 + 1)) {
                blank |= 1 << ((r >> (5 * k + 3)) % 25);
            }
            let x = (seed >> 33) as u32 & full & !blank;
            let occupied = full & !blank;
            assert_eq!(
                squeeze(x, blank),
                t.extract(x, occupied),
                "{x:#x} {blank:#x}"
            );
            let placed = squeeze(x, blank);
            assert_eq!(spread(placed, blank), t.deposit(placed, occupied));
            assert_eq!(spread(placed, blank), x);
        }
    }

    #[test]
    fn select_finds_the_kth_set_bit() {
        let mut seed = 9u64;
        for _ in 0..1000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            let word = seed ^ seed << 17;
            let places: Vec<u32> = (0..64).filter(|&b| word >> b & 1 == 1).collect();
            for (k, &place) in places.iter().enumerate() {
                assert_eq!(select(word, k as u32), place);
            }
        }
    }

    #[test]
    fn the_index_of_a_canonical_form_comes_from_the_blank_pattern() {
        let t = WideTables::new();
        let s = Symmetries::new(5);
        let mut seed = 5u64;
        for (x, o) in [
            (12, 12),
            (11, 12),
            (10, 12),
            (11, 11),
            (3, 4),
            (0, 0),
            (12, 13),
        ] {
            let order = PatternOrder::new(&t, &s, 25, x, o);
            let (mut found, mut fixed) = (0, 0);
            for _ in 0..20_000 {
                // A random board of these counts: a random order of the cells.
                let mut cells: Vec<u32> = (0..25).collect();
                for i in (1..25).rev() {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                    cells.swap(i, (seed >> 33) as usize % (i + 1));
                }
                let mut b = Board::default();
                cells[..x].iter().for_each(|&c| b.x |= 1 << c);
                cells[x..x + o].iter().for_each(|&c| b.o |= 1 << c);
                let want = order.index(&t, s.canonical(b), true);
                match order.canonical_index(&t, &s, b) {
                    Some(i) => {
                        assert_eq!(i, want, "({x}, {o}) {b:?}");
                        found += 1;
                    }
                    None => fixed += 1,
                }
            }
            // Without blanks (and with only blanks) every board takes the long way;
            // from three blanks on,
            // few do (the patterns a symmetry fixes grow rare).
            if x + o == 25 || x + o == 0 {
                assert_eq!(found, 0);
            } else if x + o <= 22 {
                assert!(found > 17_000, "({x}, {o}): {found} found, {fixed} fixed");
            } else {
                assert!(found > 2_000, "({x}, {o}): {found} found, {fixed} fixed");
            }
        }
    }

    #[test]
    fn indices_are_a_permutation_with_canonical_boards_first() {
        let t = WideTables::new();
        for (side, tiers) in [
            (3, vec![(0, 0), (2, 1), (3, 3), (4, 5), (9, 0), (1, 1)]),
            (
                5,
                vec![(0, 0), (1, 0), (2, 1), (3, 3), (20, 4), (12, 13), (11, 12)],
            ),
        ] {
            let s = Symmetries::new(side);
            let cells = side * side;
            for (x, o) in tiers {
                let order = PatternOrder::new(&t, &s, cells, x, o);
                assert_eq!(order.count(), s.classes(x, o), "Burnside, ({x}, {o})");
                let size = multinomial(cells, x, o);
                // Every index on small tiers, a stride through large ones.
                let step = (size / 200_000).max(1);
                let mut seen = std::collections::HashSet::new();
                let mut canonical = 0;
                let mut i = 0;
                while i < size {
                    let b = order.unindex(&t, i);
                    assert_eq!((b.x.count_ones(), b.o.count_ones()), (x as u32, o as u32));
                    assert_eq!(b.x & b.o, 0);
                    let c = s.is_canonical(b);
                    assert_eq!(c, i < order.count(), "index {i} of ({x}, {o})");
                    assert_eq!(order.index(&t, b, c), i, "({x}, {o})");
                    assert!(seen.insert(b));
                    canonical += c as u64;
                    i += step;
                }
                if step == 1 {
                    assert_eq!(canonical, order.count());
                }
            }
        }
    }
}
