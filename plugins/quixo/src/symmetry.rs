//! The eight symmetries of the square (rotations and reflections) on bitboards, and the
//! canonical board of a symmetry class.
//!
//! Quixo's rules commute with every symmetry of the square (the border, the lines and
//! the pushes all map onto themselves), so symmetric positions have the same value.
//! The canonical board of a class is the image with the smallest key: on 4x4 `(o, x)`,
//! compared as `o` first; on other sizes `(blanks, o)`, the blank cells first (as a
//! bitmask), so that a board whose blank pattern is not the smallest of its pattern's
//! images is never canonical, and a board whose pattern no symmetry fixes always is
//! (`pattern` numbers 5x5 tiers from that). Any fixed order works, and these need no
//! ranking. 4x4 boards are transformed with byte tables on `x | o << 16`; other sizes
//! with byte tables per cell mask. This file must not rank boards or know tiers and turns.

use crate::board::Board;

/// The symmetries of one board size.
#[derive(Clone, Debug)]
pub struct Symmetries {
    side: usize,
    /// `maps[k][cell]`: where symmetry `k` sends `cell` (identity first).
    maps: Vec<Vec<u8>>,
    /// 4x4 only: `bytes[k - 1][half][byte]`, the image under symmetry `k` of the cells
    /// of one byte (`half` 0: cells 0..8, 1: cells 8..16) of a 16-bit board.
    bytes: Vec<[[u16; 256]; 2]>,
    /// Other sizes: `wide[k - 1][chunk][byte]`, the image under symmetry `k` of the
    /// cells `8 * chunk..8 * chunk + 8` of a board (four chunks cover 25 cells).
    wide: Vec<[[u32; 256]; 4]>,
    /// Other sizes: `few[b - 1][cells]`, for a blank pattern of `b` in `1..=FEW_BLANKS`
    /// cells (indexed by `few_index`), the symmetries (bit `k`, identity 0) taking it
    /// to its smallest image: the only ones whose image of `o` can be canonical.
    few: Vec<Vec<u8>>,
    /// The cycles of each symmetry's permutation of the cells, as their lengths.
    cycles: Vec<Vec<usize>>,
    /// Every cell.
    full: u32,
}

/// Blank patterns of at most this many cells find their canonical symmetries in a
/// table (`Symmetries::few`; 25, 625 and 15,625 entries on 5x5).
const FEW_BLANKS: usize = 3;

/// The place of a pattern of at most `FEW_BLANKS` cells in its table: its cells, lowest
/// first, as digits in base `cells`.
#[inline(always)]
fn few_index(mut blank: u32, cells: usize) -> usize {
    let (mut index, mut scale) = (0usize, 1usize);
    while blank != 0 {
        index += blank.trailing_zeros() as usize * scale;
        scale *= cells;
        blank &= blank - 1;
    }
    index
}

/// Swaps the bits of `v` selected by `mask` with those `shift` places above them.
#[cfg(test)]
fn delta_swap(v: u32, mask: u32, shift: u32) -> u32 {
    let t = ((v >> shift) ^ v) & mask;
    v ^ t ^ (t << shift)
}

/// Reverses the order of the four columns in each row of both 16-bit halves.
#[cfg(test)]
fn mirror_columns(v: u32) -> u32 {
    let v = delta_swap(v, 0x5555_5555, 1);
    delta_swap(v, 0x3333_3333, 2)
}

/// Reverses the order of the four rows of both 16-bit halves.
#[cfg(test)]
fn mirror_rows(v: u32) -> u32 {
    let v = delta_swap(v, 0x0f0f_0f0f, 4);
    delta_swap(v, 0x00ff_00ff, 8)
}

/// Transposes both 16-bit halves (cell `(r, c)` to `(c, r)`): first inside each 2x2
/// block, then the two off-diagonal blocks.
#[cfg(test)]
fn transpose(v: u32) -> u32 {
    let v = delta_swap(v, 0x0a0a_0a0a, 3);
    delta_swap(v, 0x00cc_00cc, 6)
}

impl Symmetries {
    /// The symmetries of a `side` x `side` board.
    pub fn new(side: usize) -> Symmetries {
        let n = side;
        let mut maps = Vec::with_capacity(8);
        // (r, c) -> each of the 8 images; the first four keep or swap rows and columns,
        // the last four transpose as well.
        for k in 0..8 {
            let map = (0..n * n)
                .map(|cell| {
                    let (mut r, mut c) = (cell / n, cell % n);
                    if k & 1 == 1 {
                        c = n - 1 - c;
                    }
                    if k & 2 == 2 {
                        r = n - 1 - r;
                    }
                    if k & 4 == 4 {
                        std::mem::swap(&mut r, &mut c);
                    }
                    (r * n + c) as u8
                })
                .collect();
            maps.push(map);
        }
        let cycles = maps
            .iter()
            .map(|map: &Vec<u8>| {
                let mut seen = vec![false; n * n];
                let mut lengths = Vec::new();
                for start in 0..n * n {
                    let (mut c, mut len) = (start, 0);
                    while !seen[c] {
                        seen[c] = true;
                        c = map[c] as usize;
                        len += 1;
                    }
                    if len > 0 {
                        lengths.push(len);
                    }
                }
                lengths
            })
            .collect();
        let mut sym = Symmetries {
            side,
            maps,
            bytes: Vec::new(),
            wide: Vec::new(),
            few: Vec::new(),
            cycles,
            full: ((1u64 << (n * n)) - 1) as u32,
        };
        if side == 4 {
            sym.bytes = (1..8)
                .map(|k| {
                    let mut t = [[0u16; 256]; 2];
                    for (half, table) in t.iter_mut().enumerate() {
                        for (byte, slot) in table.iter_mut().enumerate() {
                            let bits = (byte as u32) << (8 * half);
                            *slot = sym.image(Board { x: bits, o: 0 }, k).x as u16;
                        }
                    }
                    t
                })
                .collect();
        } else {
            sym.wide = (1..8)
                .map(|k| {
                    let mut t = [[0u32; 256]; 4];
                    for (chunk, table) in t.iter_mut().enumerate() {
                        for (byte, slot) in table.iter_mut().enumerate() {
                            let bits = ((byte as u64) << (8 * chunk)) as u32;
                            let bits = bits & ((1u64 << (n * n)) - 1) as u32;
                            *slot = sym.image(Board { x: bits, o: 0 }, k).x;
                        }
                    }
                    t
                })
                .collect();
            sym.few = (1..=FEW_BLANKS).map(|b| sym.few_table(b)).collect();
        }
        sym
    }

    /// `few[b - 1]`: for every set of `b` cells, the symmetries taking it to its
    /// smallest image (0 at the indices `few_index` gives no set: digits not rising).
    fn few_table(&self, b: usize) -> Vec<u8> {
        let cells = self.side * self.side;
        (0..cells.pow(b as u32))
            .map(|index| {
                let digits = (0..b).map(|d| index / cells.pow(d as u32) % cells);
                let rising = digits
                    .clone()
                    .zip(digits.clone().skip(1))
                    .all(|(a, c)| a < c);
                if !rising {
                    return 0;
                }
                let blank = digits.fold(0u32, |m, c| m | 1 << c);
                let images: Vec<u32> = (0..8)
                    .map(|k| self.image(Board { x: blank, o: 0 }, k).x)
                    .collect();
                let least = *images.iter().min().expect("eight images");
                (0..8)
                    .filter(|&k| images[k] == least)
                    .fold(0u8, |m, k| m | 1 << k)
            })
            .collect()
    }

    /// The number of classes (canonical boards) among the boards with `x` X and `o`
    /// O cubes, by Burnside's lemma: the mean over the eight symmetries of the boards
    /// each one fixes (a fixed board gives every cell of a cycle one symbol).
    pub fn classes(&self, x: usize, o: usize) -> u64 {
        let fixed: u128 = self
            .cycles
            .iter()
            .map(|lengths| {
                // ways[a][b]: colourings of the cycles so far with a X and b O cells.
                let mut ways = vec![vec![0u128; o + 1]; x + 1];
                ways[0][0] = 1;
                for &len in lengths {
                    let mut next = vec![vec![0u128; o + 1]; x + 1];
                    for a in 0..=x {
                        for b in 0..=o {
                            let w = ways[a][b];
                            if w == 0 {
                                continue;
                            }
                            next[a][b] += w;
                            if a + len <= x {
                                next[a + len][b] += w;
                            }
                            if b + len <= o {
                                next[a][b + len] += w;
                            }
                        }
                    }
                    ways = next;
                }
                ways[x][o]
            })
            .sum();
        (fixed / 8) as u64
    }

    /// The image of `bits` (a set of cells) under symmetry `k` in `1..8`, from the
    /// byte tables of sizes other than 4x4.
    #[inline(always)]
    pub fn wide_image(&self, bits: u32, k: usize) -> u32 {
        let t = &self.wide[k - 1];
        t[0][(bits & 0xff) as usize]
            | t[1][(bits >> 8 & 0xff) as usize]
            | t[2][(bits >> 16 & 0xff) as usize]
            | t[3][(bits >> 24) as usize]
    }

    /// The image of `b` under symmetry `k` (`0..8`, 0 the identity), cell by cell.
    pub fn image(&self, b: Board, k: usize) -> Board {
        let map = &self.maps[k];
        let move_bits = |mut bits: u32| {
            let mut out = 0;
            while bits != 0 {
                let cell = bits.trailing_zeros() as usize;
                out |= 1 << map[cell];
                bits &= bits - 1;
            }
            out
        };
        Board {
            x: move_bits(b.x),
            o: move_bits(b.o),
        }
    }

    /// The canonical board of `b`'s class: the image with the smallest `(o, x)` on
    /// 4x4, `(blanks, o)` on other sizes.
    #[inline(always)]
    pub fn canonical(&self, b: Board) -> Board {
        if self.side == 4 {
            return self.canonical4(b);
        }
        self.canonical_by_maps(b)
    }

    /// Whether `b` is its class's canonical board. On 4x4 it stops at the first image
    /// smaller than `b`, which for most boards (7 in 8 are not canonical) comes early.
    #[inline(always)]
    pub fn is_canonical(&self, b: Board) -> bool {
        if self.side != 4 {
            // The smallest (blanks, o), i.e. the largest set of occupied cells, then
            // the smallest o: the occupied cells alone decide most boards.
            let occupied = b.x | b.o;
            return (1..8).all(|k| {
                let io = self.wide_image(occupied, k);
                io < occupied || (io == occupied && self.wide_image(b.o, k) >= b.o)
            });
        }
        let own = b.x | b.o << 16;
        let (x, o) = (b.x as usize, b.o as usize);
        self.bytes.iter().all(|t| {
            let ix = t[0][x & 0xff] | t[1][x >> 8];
            let io = t[0][o & 0xff] | t[1][o >> 8];
            ix as u32 | (io as u32) << 16 >= own
        })
    }

    /// Whether some symmetry other than the identity maps `b` to a board that differs
    /// from it only on cells `close` accepts (with `Geometry::within_two_lines`: the
    /// only boards whose children may include two images of one board).
    #[inline(always)]
    pub fn near_image(&self, b: Board, close: impl Fn(u32) -> bool) -> bool {
        (1..8).any(|k| {
            let (ix, io) = if self.side == 4 {
                let t = &self.bytes[k - 1];
                let (x, o) = (b.x as usize, b.o as usize);
                (
                    (t[0][x & 0xff] | t[1][x >> 8]) as u32,
                    (t[0][o & 0xff] | t[1][o >> 8]) as u32,
                )
            } else {
                (self.wide_image(b.x, k), self.wide_image(b.o, k))
            };
            close((ix ^ b.x) | (io ^ b.o))
        })
    }

    /// The number of distinct boards among `b`'s eight images: 8 over the number of
    /// symmetries that fix `b`.
    pub fn orbit(&self, b: Board) -> u64 {
        let fixed = 1
            + (1..8)
                .filter(|&k| {
                    if self.side == 4 {
                        let t = &self.bytes[k - 1];
                        let (x, o) = (b.x as usize, b.o as usize);
                        (t[0][x & 0xff] | t[1][x >> 8]) as u32 == b.x
                            && (t[0][o & 0xff] | t[1][o >> 8]) as u32 == b.o
                    } else {
                        self.wide_image(b.x, k) == b.x && self.wide_image(b.o, k) == b.o
                    }
                })
                .count() as u64;
        8 / fixed
    }

    /// `canonical` from the byte tables, for the sizes other than 4x4: the image with
    /// the most occupied cells (as a bitmask: the fewest blanks), then the smallest o.
    #[inline(always)]
    fn canonical_by_maps(&self, b: Board) -> Board {
        let occupied = b.x | b.o;
        let blank = self.full & !occupied;
        // One to three blank cells, counted by clearing the lowest (no `count_ones`,
        // which is a dozen instructions on plain x86-64).
        let fewer = |v: u32| v & v.wrapping_sub(1);
        let (b1, b2) = (fewer(blank), fewer(fewer(blank)));
        if blank != 0 && fewer(b2) == 0 {
            let blanks = 1 + (b1 != 0) as usize + (b2 != 0) as usize;
            // The symmetries taking the blank pattern to its smallest image are known
            // from the pattern: only their images of `o` are compared (one for most
            // patterns), where the loop below makes all seven of both.
            let cells = self.side * self.side;
            let mut set = self.few[blanks - 1][few_index(blank, cells)];
            let k = set.trailing_zeros() as usize;
            let least = if k == 0 {
                blank
            } else {
                self.wide_image(blank, k)
            };
            let mut best_o = u32::MAX;
            while set != 0 {
                let k = set.trailing_zeros() as usize;
                set &= set - 1;
                best_o = best_o.min(if k == 0 { b.o } else { self.wide_image(b.o, k) });
            }
            let best_occ = self.full & !least;
            return Board {
                x: best_occ & !best_o,
                o: best_o,
            };
        }
        if occupied == self.full {
            // No blanks: every image has them all occupied, and o decides.
            let mut best_o = b.o;
            for k in 1..8 {
                best_o = best_o.min(self.wide_image(b.o, k));
            }
            return Board {
                x: occupied & !best_o,
                o: best_o,
            };
        }
        let (mut best_occ, mut best_o) = (occupied, b.o);
        for k in 1..8 {
            let iocc = self.wide_image(occupied, k);
            if iocc < best_occ {
                continue;
            }
            let io = self.wide_image(b.o, k);
            if iocc > best_occ || io < best_o {
                (best_occ, best_o) = (iocc, io);
            }
        }
        Board {
            x: best_occ & !best_o,
            o: best_o,
        }
    }
}

impl Symmetries {
    /// `canonical` for 4x4: each image of `x | o << 16` from four byte lookups (7 KB of
    /// tables, L1-resident), about half the work of the word-parallel `canonical4_bits`.
    #[inline(always)]
    fn canonical4(&self, b: Board) -> Board {
        let (x, o) = (b.x as usize, b.o as usize);
        let mut best = b.x | b.o << 16;
        for t in &self.bytes {
            let ix = t[0][x & 0xff] | t[1][x >> 8];
            let io = t[0][o & 0xff] | t[1][o >> 8];
            best = best.min(ix as u32 | (io as u32) << 16);
        }
        Board {
            x: best & 0xffff,
            o: best >> 16,
        }
    }
}

/// `Symmetries::canonical` for 4x4 with bit tricks on `x | o << 16` (the smallest
/// packed word is the smallest `(o, x)`): three mirrors and four transposes, no table
/// and no branch. Kept as the reference the table path is tested against.
#[cfg(test)]
fn canonical4_bits(b: Board) -> Board {
    let a = b.x | b.o << 16;
    let h = mirror_columns(a);
    let v = mirror_rows(a);
    let hv = mirror_rows(h);
    let best = a
        .min(h)
        .min(v)
        .min(hv)
        .min(transpose(a))
        .min(transpose(h))
        .min(transpose(v))
        .min(transpose(hv));
    Board {
        x: best & 0xffff,
        o: best >> 16,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;
    use crate::board::Side;
    use crate::moves::{for_each_child, status};

    fn random_board(seed: &mut u64, cells: usize) -> Board {
        let mut b = Board::default();
        for i in 0..cells {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            match *seed >> 61 {
                0..=2 => {}
                3..=5 => b.x |= 1 << i,
                _ => b.o |= 1 << i,
            }
        }
        b
    }

    #[test]
    fn the_fast_4x4_path_matches_the_cell_maps() {
        let s = Symmetries::new(4);
        let mut seed = 7;
        for _ in 0..2000 {
            let b = random_board(&mut seed, 16);
            let slow = (0..8)
                .map(|k| s.image(b, k))
                .min_by_key(|i| (i.o, i.x))
                .unwrap();
            assert_eq!(canonical4_bits(b), slow);
            assert_eq!(s.canonical4(b), slow);
            // Every image has the same canonical board, and only that one is canonical.
            for k in 0..8 {
                let i = s.image(b, k);
                assert_eq!(s.canonical(i), slow);
                assert_eq!(s.is_canonical(i), i == slow);
            }
        }
        // A rotation by a quarter turn, checked by hand: a4 (top-left) goes to d4.
        let b = Board { x: 1, o: 0 };
        let images: Vec<u32> = (0..8).map(|k| s.image(b, k).x).collect();
        assert_eq!(images.iter().filter(|&&x| x == 1 << 3).count(), 2);
        assert_eq!(
            s.canonical(Board { x: 1 << 15, o: 0 }),
            Board { x: 1, o: 0 }
        );
    }

    #[test]
    fn the_table_paths_match_the_cell_maps_and_burnside_counts_classes() {
        for side in [3, 5] {
            let s = Symmetries::new(side);
            let mut seed = 11;
            for _ in 0..2000 {
                let b = random_board(&mut seed, side * side);
                let slow = (0..8)
                    .map(|k| s.image(b, k))
                    .min_by_key(|i| (!(i.x | i.o), i.o))
                    .unwrap();
                assert_eq!(s.canonical(b), slow);
                // The same board without blanks (X on them): o alone decides.
                let full = Board {
                    x: ((1u64 << (side * side)) - 1) as u32 & !b.o,
                    o: b.o,
                };
                let slow_full = (0..8)
                    .map(|k| s.image(full, k))
                    .min_by_key(|i| i.o)
                    .unwrap();
                assert_eq!(s.canonical(full), slow_full);
                let mut images: Vec<Board> = (0..8).map(|k| s.image(b, k)).collect();
                for &i in &images {
                    assert_eq!(s.is_canonical(i), i == slow);
                }
                images.sort();
                images.dedup();
                assert_eq!(s.orbit(b), images.len() as u64);
            }
        }
        // Burnside against a count of canonical boards, on every 3x3 tier and on
        // 4x4 tiers.
        for side in [3, 4] {
            let s = Symmetries::new(side);
            let cells = side * side;
            let mut counts = std::collections::HashMap::new();
            for code in 0..3u64.pow(cells as u32) {
                let (mut b, mut rest) = (Board::default(), code);
                for i in 0..cells {
                    match rest % 3 {
                        1 => b.x |= 1 << i,
                        2 => b.o |= 1 << i,
                        _ => {}
                    }
                    rest /= 3;
                }
                if s.is_canonical(b) {
                    *counts
                        .entry((b.x.count_ones() as usize, b.o.count_ones() as usize))
                        .or_insert(0u64) += 1;
                }
            }
            for ((x, o), n) in counts {
                assert_eq!(s.classes(x, o), n, "{side}x{side} ({x}, {o})");
            }
        }
        // 5x5: the empty board and the one-cube boards (corner, edge, inner classes).
        let s = Symmetries::new(5);
        assert_eq!(s.classes(0, 0), 1);
        assert_eq!(s.classes(1, 0), 6);
    }

    #[test]
    fn boards_with_few_blanks_take_the_pattern_table_to_the_canonical_board() {
        for side in [3, 5] {
            let s = Symmetries::new(side);
            let cells = side * side;
            let full = ((1u64 << cells) - 1) as u32;
            let mut seed = 5u64;
            let mut next = || {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (seed >> 33) as u32
            };
            for round in 0..20_000 {
                // One to four blank cells (four takes the loop), O on random others.
                let mut blank = 0u32;
                for _ in 0..=round % 4 {
                    blank |= 1 << (next() as usize % cells);
                }
                let o = next() & full & !blank;
                let b = Board {
                    x: full & !blank & !o,
                    o,
                };
                let slow = (0..8)
                    .map(|k| s.image(b, k))
                    .min_by_key(|i| (!(i.x | i.o), i.o))
                    .unwrap();
                assert_eq!(s.canonical(b), slow, "{side}x{side}: {b:?}");
            }
            // Every single blank cell, O on none and on every other cell: the cells on
            // an axis of symmetry have two or more smallest images.
            for c in 0..cells {
                for o in [0, full & !(1 << c)] {
                    let b = Board {
                        x: full & !(1 << c) & !o,
                        o,
                    };
                    let slow = (0..8)
                        .map(|k| s.image(b, k))
                        .min_by_key(|i| (!(i.x | i.o), i.o))
                        .unwrap();
                    assert_eq!(s.canonical(b), slow);
                }
            }
        }
    }

    #[test]
    fn children_that_are_images_of_each_other_come_from_boards_near_an_image() {
        // Two lines hold a cross, two rows, two columns; not three scattered cells.
        let g = Geometry::new(5);
        assert!(g.within_two_lines(0b11111 | 0b11111 << 10));
        assert!(g.within_two_lines(0b11111 << 5 | 1 << 2 | 1 << 12 | 1 << 22));
        assert!(!g.within_two_lines(1 | 1 << 6 | 1 << 12));
        assert!(!g.within_two_lines(1 | 1 << 7 | 1 << 14 | 1 << 24));
        for side in [3, 4, 5] {
            let g = Geometry::new(side);
            let s = Symmetries::new(side);
            let mut seed = 17 + side as u64;
            let (mut near, mut pairs) = (0, 0);
            for round in 0..4000 {
                let mut b = random_board(&mut seed, g.cells);
                if round % 2 == 0 {
                    // Half of them made symmetric but for a cell or two.
                    let k = 1 + round % 7;
                    let i = s.image(b, k);
                    b = Board {
                        x: (b.x | i.x) & !(b.o | i.o),
                        o: b.o | i.o,
                    };
                    b.x ^= b.x & (1 << (round % g.cells));
                }
                let is_near = s.near_image(b, |d| g.within_two_lines(d));
                near += is_near as u32;
                let mut kids: Vec<Board> = Vec::new();
                for_each_child(&g, b, Side::X, |_, c, _| kids.push(c));
                for (a, &c1) in kids.iter().enumerate() {
                    for &c2 in &kids[a + 1..] {
                        if c1 != c2 && s.canonical(c1) == s.canonical(c2) {
                            pairs += 1;
                            assert!(is_near, "{side}x{side}: {b:?} has children {c1:?}, {c2:?}");
                        }
                    }
                }
            }
            // Both kinds occur; on 4x4 and 5x5 most boards are not near an image (on
            // 3x3 two lines cover most of the board).
            assert!(pairs > 0 && near > 0, "{side}: {pairs} {near}");
            assert!(
                side == 3 || near < 3000,
                "{side}: {near} of 4000 near an image"
            );
        }
    }

    #[test]
    fn rules_commute_with_symmetries() {
        for side in [3, 4, 5] {
            let g = Geometry::new(side);
            let s = Symmetries::new(side);
            let mut seed = side as u64;
            for _ in 0..200 {
                let b = random_board(&mut seed, g.cells);
                for k in 0..8 {
                    let i = s.image(b, k);
                    assert_eq!(status(&g, b, Side::X), status(&g, i, Side::X));
                    // The images of b's children are exactly i's children.
                    let mut kids: Vec<Board> = Vec::new();
                    for_each_child(&g, b, Side::O, |_, c, _| kids.push(s.image(c, k)));
                    let mut theirs: Vec<Board> = Vec::new();
                    for_each_child(&g, i, Side::O, |_, c, _| theirs.push(c));
                    kids.sort();
                    theirs.sort();
                    assert_eq!(kids, theirs);
                }
            }
        }
    }
}
