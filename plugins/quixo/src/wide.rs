//! Ranking boards of more than 16 cells (5x5) with byte tables: the same numbers as
//! the plugin-api `Ranker` (the X cubes' cells as a colex combination of all cells,
//! times the number of places for the O cubes, plus the O cubes' places among the
//! cells left free as a colex combination), about ten table lookups instead of a loop
//! over every cell and kind.
//!
//! A colex rank is a sum of binomials, one per set bit, that depends on the bit's cell
//! and on how many set bits come before it: per byte of the board and count of bits
//! below that byte, one table gives the byte's share. The O cubes' places among the
//! free cells come from a byte-wise `pext` (and go back with a byte-wise `pdep`),
//! tables rather than the BMI2 instructions, which are slow on some of the CPUs this
//! runs on. This file must not know moves, tiers or the plugin API's positions.

/// Cells a board may have here (bits of a `u32` board).
const MAX: usize = 32;

/// The tables every wide ranker shares (about 240 KB).
#[derive(Debug)]
pub struct WideTables {
    /// `colex[(chunk * (MAX + 1) + below) * 256 + byte]`: the colex share of the set
    /// bits of `byte` at cells `8 * chunk..`, with `below` set bits before them.
    colex: Vec<u32>,
    /// `pext[free * 256 + bits]`: the bits of `bits` on the set bits of `free`, packed.
    pext: Vec<u8>,
    /// `pdep[free * 256 + bits]`: the low bits of `bits` placed on the set bits of
    /// `free`.
    pdep: Vec<u8>,
    /// `ones[byte]`: the set bits of `byte` (the builds target plain x86-64, where
    /// `count_ones` is a dozen instructions rather than one).
    ones: [u8; 256],
    /// `binomial[n][k]` for `n, k <= MAX`.
    binomial: Vec<[u64; MAX + 1]>,
    /// `by_k[k][n]`: `binomial(n, k)`, a row per `k` for `colex_unrank`'s scans.
    by_k: Box<[[u64; MAX + 1]; MAX + 1]>,
}

impl WideTables {
    /// Builds the tables (well under a millisecond).
    pub fn new() -> WideTables {
        let mut binomial = vec![[0u64; MAX + 1]; MAX + 1];
        for n in 0..=MAX {
            binomial[n][0] = 1;
            for k in 1..=n {
                binomial[n][k] =
                    binomial[n - 1][k - 1] + if k < n { binomial[n - 1][k] } else { 0 };
            }
        }
        let mut by_k = Box::new([[0u64; MAX + 1]; MAX + 1]);
        for (n, row) in binomial.iter().enumerate() {
            for (k, &value) in row.iter().enumerate() {
                by_k[k][n] = value;
            }
        }
        let mut colex = vec![0u32; 4 * (MAX + 1) * 256];
        for chunk in 0..4 {
            for below in 0..=MAX {
                for byte in 0..256usize {
                    let mut sum = 0u64;
                    let mut seen = below;
                    for bit in 0..8 {
                        if byte >> bit & 1 == 1 {
                            seen += 1;
                            if seen <= MAX {
                                sum += binomial[8 * chunk + bit][seen];
                            }
                        }
                    }
                    colex[(chunk * (MAX + 1) + below) * 256 + byte] =
                        u32::try_from(sum).unwrap_or(u32::MAX);
                }
            }
        }
        let mut pext = vec![0u8; 256 * 256];
        let mut pdep = vec![0u8; 256 * 256];
        for free in 0..256usize {
            for bits in 0..256usize {
                let (mut packed, mut placed, mut k) = (0u8, 0u8, 0);
                for cell in 0..8 {
                    if free >> cell & 1 == 1 {
                        if bits >> cell & 1 == 1 {
                            packed |= 1 << k;
                        }
                        if bits >> k & 1 == 1 {
                            placed |= 1 << cell;
                        }
                        k += 1;
                    }
                }
                pext[free * 256 + bits] = packed;
                pdep[free * 256 + bits] = placed;
            }
        }
        let mut ones = [0u8; 256];
        for (byte, n) in ones.iter_mut().enumerate() {
            *n = byte.count_ones() as u8;
        }
        WideTables {
            ones,
            colex,
            pext,
            pdep,
            binomial,
            by_k,
        }
    }

    /// `binomial(n, k)`.
    #[inline(always)]
    pub fn binomial(&self, n: usize, k: usize) -> u64 {
        if k > n {
            0
        } else {
            self.binomial[n][k]
        }
    }

    /// The colex rank of the set bits of `m` among all sets of as many cells.
    #[inline(always)]
    pub fn colex_rank(&self, m: u32) -> u64 {
        let row = |chunk: usize, below: u32, byte: u32| {
            self.colex[(chunk * (MAX + 1) + below as usize) * 256 + byte as usize] as u64
        };
        let (b0, b1, b2, b3) = (m & 0xff, m >> 8 & 0xff, m >> 16 & 0xff, m >> 24);
        let ones = |byte: u32| self.ones[byte as usize] as u32;
        let p1 = ones(b0);
        let p2 = p1 + ones(b1);
        let p3 = p2 + ones(b2);
        row(0, 0, b0) + row(1, p1, b1) + row(2, p2, b2) + row(3, p3, b3)
    }

    /// The set of `k` cells among `0..n` of colex rank `r`.
    #[inline(always)]
    pub fn colex_unrank(&self, mut r: u64, k: usize, n: usize) -> u32 {
        let mut m = 0u32;
        let mut c = n;
        for j in (1..=k).rev() {
            // The largest cell c below the last with binomial(c, j) <= r.
            let row = &self.by_k[j];
            c -= 1;
            while row[c] > r {
                c -= 1;
            }
            m |= 1 << c;
            r -= row[c];
        }
        m
    }

    /// The bits of `bits` on the set bits of `free`, packed low (`pext`).
    #[inline(always)]
    pub fn extract(&self, bits: u32, free: u32) -> u32 {
        let mut out = 0u32;
        let mut at = 0u32;
        for chunk in 0..4 {
            let f = (free >> (8 * chunk)) & 0xff;
            let b = (bits >> (8 * chunk)) & 0xff;
            out |= (self.pext[(f * 256 + b) as usize] as u32) << at;
            at += f.count_ones();
        }
        out
    }

    /// The low bits of `bits` placed on the set bits of `free` (`pdep`).
    #[inline(always)]
    pub fn deposit(&self, mut bits: u32, free: u32) -> u32 {
        let mut out = 0u32;
        for chunk in 0..4 {
            let f = (free >> (8 * chunk)) & 0xff;
            out |= (self.pdep[(f * 256 + (bits & 0xff)) as usize] as u32) << (8 * chunk);
            bits >>= f.count_ones();
        }
        out
    }
}

impl Default for WideTables {
    fn default() -> Self {
        WideTables::new()
    }
}

/// The ranking of the boards of `cells` cells with `xs` X and `os` O cubes.
#[derive(Clone, Copy, Debug)]
pub struct Wide {
    cells: usize,
    xs: usize,
    os: usize,
    /// The places for the O cubes: `binomial(cells - xs, os)`.
    radix: u64,
}

impl Wide {
    /// The ranking of one tier.
    pub fn new(t: &WideTables, cells: usize, xs: usize, os: usize) -> Wide {
        assert!(cells <= 25 && xs + os <= cells);
        Wide {
            cells,
            xs,
            os,
            radix: t.binomial(cells - xs, os),
        }
    }

    /// The rank of the board with X cubes on `x` and O cubes on `o`.
    #[inline(always)]
    pub fn rank(&self, t: &WideTables, x: u32, o: u32) -> u64 {
        let all = ((1u64 << self.cells) - 1) as u32;
        t.colex_rank(x) * self.radix + t.colex_rank(t.extract(o, all & !x))
    }

    /// The board `(x, o)` of rank `r`.
    #[inline(always)]
    pub fn unrank(&self, t: &WideTables, r: u64) -> (u32, u32) {
        let all = ((1u64 << self.cells) - 1) as u32;
        let x = t.colex_unrank(r / self.radix, self.xs, self.cells);
        let packed = t.colex_unrank(r % self.radix, self.os, self.cells - self.xs);
        (x, t.deposit(packed, all & !x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamesman_plugin_api::rank::Ranker;

    #[test]
    fn the_same_ranks_as_the_generic_ranker() {
        let t = WideTables::new();
        let mut seed = 5u64;
        for (xs, os) in [
            (0, 0),
            (1, 0),
            (0, 1),
            (12, 12),
            (11, 11),
            (20, 5),
            (5, 20),
            (25, 0),
            (3, 7),
        ] {
            let w = Wide::new(&t, 25, xs, os);
            let g = Ranker::new(25, &[xs, os]).unwrap();
            assert_eq!(w.radix * t.binomial(25, xs), g.size());
            for _ in 0..2000 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let r = (seed >> 11) % g.size();
                let mut cells = [0u8; 25];
                g.unrank(r, &mut cells);
                let (mut x, mut o) = (0u32, 0u32);
                for (i, &c) in cells.iter().enumerate() {
                    match c {
                        1 => x |= 1 << i,
                        2 => o |= 1 << i,
                        _ => {}
                    }
                }
                assert_eq!(w.rank(&t, x, o), r, "({xs}, {os})");
                assert_eq!(w.unrank(&t, r), (x, o), "({xs}, {os})");
            }
        }
    }
}
