//! Point sets of at most 24 points (a `u32` mask) ranked, compressed and expanded a
//! byte at a time through small tables, where the plain loops visit every point.
//!
//! Numbering a child costs a Mills solve most of its time: X's set is ranked to find
//! its orbit, and O's set is renumbered among the points X leaves empty (`compress`,
//! a bit extract) and ranked. Three table reads per step replace up to 24 loop turns,
//! and the tables (64 KiB each for compress and expand, 75 KiB of partial ranks) stay
//! in the second-level cache. The results are exactly the loops' (`tests` compares
//! them on every set of the 16-point board and samples of the 24-point one).
//!
//! Where the processor has BMI2 (checked once, at run time: the plugin is built for the
//! baseline x86-64), `compress` and `expand` are its single PEXT and PDEP instructions
//! and bit counts its POPCNT, where the tables take three reads from the second-level
//! cache.
//!
//! This file must not know boards or rules: only sets of points `0..24`.

use gamesman_plugin_api::rank::binomial;
use std::sync::OnceLock;

/// The most points a set may have: three bytes.
pub const MAX_POINTS: usize = 24;

/// The tables, built once per process.
struct Tables {
    /// `compress[set << 8 | taken]`: the bits of byte `set` renumbered among the bits
    /// of byte `taken` that are clear.
    compress: Vec<u8>,
    /// `expand[bits << 8 | taken]`: the low bits of `bits` placed, in order, on the
    /// clear bits of byte `taken`.
    expand: Vec<u8>,
    /// `rank[(byte * 256 + set) * 25 + before]`: the part of a colex rank that byte
    /// number `byte` with bits `set` adds when `before` points lie in lower bytes.
    rank: Vec<u32>,
    /// `ones[byte]`: how many bits `byte` has. The baseline x86-64 target has no
    /// POPCNT instruction, and `count_ones` there is a dozen instructions.
    ones: [u8; 256],
    /// Whether the processor has BMI2 and POPCNT (`bits`).
    bmi2: bool,
}

/// Whether this processor runs the instructions of `bits`.
fn has_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| build(has_bmi2()))
}

/// The tables, with the instructions of `bits` used or not.
fn build(bmi2: bool) -> Tables {
    let mut compress = vec![0u8; 1 << 16];
    let mut expand = vec![0u8; 1 << 16];
    for taken in 0..256u32 {
        for set in 0..256u32 {
            let (mut c, mut e, mut free) = (0u32, 0u32, 0);
            for p in 0..8 {
                if taken >> p & 1 == 1 {
                    continue;
                }
                c |= (set >> p & 1) << free;
                e |= (set >> free & 1) << p;
                free += 1;
            }
            compress[(set << 8 | taken) as usize] = c as u8;
            expand[(set << 8 | taken) as usize] = e as u8;
        }
    }
    let mut rank = vec![0u32; 3 * 256 * (MAX_POINTS + 1)];
    for byte in 0..3 {
        for set in 0..256usize {
            for before in 0..=MAX_POINTS {
                let mut sum = 0u64;
                let mut k = before;
                for b in 0..8 {
                    if set >> b & 1 == 1 {
                        k += 1;
                        sum += binomial(8 * byte + b, k);
                    }
                }
                // Only reachable entries (k <= 24 points in all) must be exact;
                // the others are never read, and saturate.
                rank[(byte * 256 + set) * (MAX_POINTS + 1) + before] =
                    sum.min(u32::MAX as u64) as u32;
            }
        }
    }
    let mut ones = [0u8; 256];
    for (byte, n) in ones.iter_mut().enumerate() {
        *n = byte.count_ones() as u8;
    }
    Tables {
        compress,
        expand,
        rank,
        ones,
        bmi2,
    }
}

/// The BMI2 and POPCNT instructions, for processors that have them (`Tables::bmi2`).
#[cfg(target_arch = "x86_64")]
mod bits {
    use std::arch::asm;

    /// PEXT: the bits of `a` where `mask` is set, packed low.
    #[inline]
    pub fn pext(a: u32, mask: u32) -> u32 {
        let out: u32;
        // SAFETY: called only where `Tables::bmi2` found the instruction; it reads and
        // writes registers only.
        unsafe {
            asm!("pext {0:e}, {1:e}, {2:e}", out(reg) out, in(reg) a, in(reg) mask,
                options(pure, nomem, nostack, preserves_flags));
        }
        out
    }

    /// PDEP: the low bits of `a` placed, in order, on the set bits of `mask`.
    #[inline]
    pub fn pdep(a: u32, mask: u32) -> u32 {
        let out: u32;
        // SAFETY: as `pext`.
        unsafe {
            asm!("pdep {0:e}, {1:e}, {2:e}", out(reg) out, in(reg) a, in(reg) mask,
                options(pure, nomem, nostack, preserves_flags));
        }
        out
    }

    /// POPCNT: how many bits `a` has.
    #[inline]
    pub fn popcnt(a: u32) -> u32 {
        let out: u32;
        // SAFETY: as `pext` (POPCNT is checked with BMI2); it sets flags.
        unsafe {
            asm!("popcnt {0:e}, {1:e}", out(reg) out, in(reg) a, options(pure, nomem, nostack));
        }
        out
    }
}

/// Stand-ins where there is no x86-64: never called (`Tables::bmi2` is false).
#[cfg(not(target_arch = "x86_64"))]
mod bits {
    pub fn pext(_: u32, _: u32) -> u32 {
        unreachable!("BMI2 is x86-64's")
    }
    pub fn pdep(_: u32, _: u32) -> u32 {
        unreachable!("BMI2 is x86-64's")
    }
    pub fn popcnt(_: u32) -> u32 {
        unreachable!("POPCNT is x86-64's")
    }
}

/// The points `0..24`.
const ALL: u32 = (1 << MAX_POINTS) - 1;

/// A handle on the tables: fetched once per call that uses them many times.
#[derive(Clone, Copy)]
pub struct Masks(&'static Tables);

impl Default for Masks {
    fn default() -> Self {
        Masks::new()
    }
}

impl Masks {
    /// The tables (built on first use).
    pub fn new() -> Masks {
        Masks(tables())
    }

    /// The rank of set `m` (points below 24) among the sets of its size, in colex
    /// order: the sum over its points `p_1 < p_2 < ...` of `C(p_i, i)`.
    #[inline]
    pub fn rank(self, m: u32) -> u64 {
        debug_assert!(m >> MAX_POINTS == 0);
        let r = &self.0.rank;
        let (b0, b1, b2) = (
            (m & 0xff) as usize,
            (m >> 8 & 0xff) as usize,
            (m >> 16) as usize,
        );
        let (c0, c1) = if self.0.bmi2 {
            let c0 = bits::popcnt(m & 0xff) as usize;
            (c0, bits::popcnt(m & 0xffff) as usize)
        } else {
            let c0 = self.0.ones[b0] as usize;
            (c0, c0 + self.0.ones[b1] as usize)
        };
        let w = MAX_POINTS + 1;
        r[b0 * w] as u64 + r[(256 + b1) * w + c0] as u64 + r[(512 + b2) * w + c1] as u64
    }

    /// `m`'s points renumbered among the points not in `taken` (a bit extract, PEXT
    /// of `m` with the complement of `taken`); `m` and `taken` are disjoint.
    #[inline]
    pub fn compress(self, m: u32, taken: u32) -> u32 {
        debug_assert!((m | taken) >> MAX_POINTS == 0);
        if self.0.bmi2 {
            return bits::pext(m, !taken & ALL);
        }
        let c = &self.0.compress;
        let at = |shift: u32| c[((m >> shift & 0xff) << 8 | (taken >> shift & 0xff)) as usize];
        let ones = &self.0.ones;
        let f0 = 8 - ones[(taken & 0xff) as usize] as u32;
        let f1 = 8 - ones[(taken >> 8 & 0xff) as usize] as u32;
        at(0) as u32 | (at(8) as u32) << f0 | (at(16) as u32) << (f0 + f1)
    }

    /// The points not in `taken`, the `i`-th of them for each bit `i` of `m` (a bit
    /// deposit, PDEP of `m` on the complement of `taken`), among points `0..24`.
    #[inline]
    pub fn expand(self, m: u32, taken: u32) -> u32 {
        debug_assert!(taken >> MAX_POINTS == 0);
        if self.0.bmi2 {
            return bits::pdep(m, !taken & ALL);
        }
        let e = &self.0.expand;
        let mut out = 0;
        let mut rest = m;
        for shift in [0u32, 8, 16] {
            let t = taken >> shift & 0xff;
            out |= (e[((rest & 0xff) << 8 | t) as usize] as u32) << shift;
            rest >>= 8 - self.0.ones[t as usize] as u32;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank_by_loop(m: u32) -> u64 {
        (0..32)
            .filter(|p| m >> p & 1 == 1)
            .enumerate()
            .map(|(k, p)| binomial(p, k + 1))
            .sum()
    }

    fn compress_by_loop(m: u32, taken: u32) -> u32 {
        let mut out = 0;
        for p in 0..24 {
            if m >> p & 1 == 1 {
                let below = (taken & ((1u32 << p) - 1)).count_ones();
                out |= 1 << (p - below);
            }
        }
        out
    }

    fn expand_by_loop(m: u32, taken: u32) -> u32 {
        let (mut out, mut i) = (0, 0);
        for p in 0..24 {
            if taken >> p & 1 == 1 {
                continue;
            }
            out |= (m >> i & 1) << p;
            i += 1;
        }
        out
    }

    #[test]
    fn tables_agree_with_the_loops() {
        check(Masks(Box::leak(Box::new(build(false)))));
    }

    #[test]
    fn instructions_agree_with_the_loops() {
        if !has_bmi2() {
            eprintln!("no BMI2 here: the tables' test covers this processor");
            return;
        }
        assert!(Masks::new().0.bmi2);
        check(Masks(Box::leak(Box::new(build(true)))));
    }

    fn check(t: Masks) {
        // Every set of the 16-point board, and a spread of 24-point sets.
        let sets = (0..1u32 << 16).chain((0..1u32 << 24).step_by(977));
        for m in sets {
            assert_eq!(t.rank(m), rank_by_loop(m), "rank {m:#x}");
            // `taken` disjoint from a part of m, and the rest of m compressed.
            let taken = m & 0x5a5a5a;
            let rest = m & !taken;
            assert_eq!(t.compress(rest, taken), compress_by_loop(rest, taken));
            let free = 24 - taken.count_ones();
            let low = (m >> 3) & ((1u32 << free) - 1);
            let e = t.expand(low, taken);
            assert_eq!(e, expand_by_loop(low, taken), "expand {low:#x} {taken:#x}");
            assert_eq!(t.compress(e, taken), low);
        }
    }
}
