//! Numbering a tier's positions densely, and the boards' symmetry classes.
//!
//! A position of tier (hand, board) with `x` and `o` pieces on a board of `n` points is
//! numbered as Malom numbers its sectors: X's point set is first mapped by a symmetry
//! to the representative of its orbit (the smallest mask of the orbit), and the index
//! is that orbit's number among the `f(x)` orbits of `x`-sets, times the number of
//! `o`-subsets of the other `n - x` points, plus the rank of O's (mapped) set among
//! those (colex order). A tier then has `f(x) C(n - x, o)` boards, about a sixteenth of
//! `C(n, x) C(n - x, o)`. Where either side may be to move, O to move adds the tier's
//! board count once more (`index = turn * boards + board`).
//!
//! Several indices stand for one position when X's representative has symmetries of
//! its own (its stabilizer): the canonical one is the smallest index among the images
//! of O's set under them. Every symmetry keeps the side to move.
//!
//! A tier's numbers by orbit come first (its canonical prefix, all the solver sizes
//! arrays and files by); after them every board is numbered as it stands (`full_rank`,
//! X's set and then O's in colex order), so that a move never turns the board a person
//! sees. The module (`lib`) joins the two.
//!
//! The orbits of each size of X's set are enumerated once, when first needed, into a
//! table indexed by the set's colex rank (4 bytes a set: 9 MB for nine men's morris).
//!
//! This file must not hold rules of play.

use crate::board::Geometry;
use crate::masks::Masks;
use crate::rules::Counts;
use gamesman_plugin_api::rank::{binomial, unrank_combination};
use std::cell::Cell;
use std::sync::OnceLock;

/// The rank of the set `m` among the subsets of its size, in colex order.
#[inline]
pub fn rank_set(m: u32) -> u64 {
    Masks::new().rank(m)
}

/// The set of `k` points of `0..n` with rank `r`.
pub fn unrank_set(r: u64, n: usize, k: usize) -> u32 {
    let mut cells = [0usize; 32];
    unrank_combination(r, n, &mut cells[..k]);
    cells[..k].iter().fold(0, |m, &c| m | 1 << c)
}

thread_local! {
    /// The last set `unrank_next` gave on this thread: (rank, size, set).
    static LAST: Cell<(u64, usize, u32)> = const { Cell::new((u64::MAX, 0, 0)) };
}

/// `unrank_set(r, n, k)`, stepping from the last set this thread asked for when `r`
/// follows it: a solver's scan asks for a tier's numbers in order, and the next set
/// in colex order is the next larger mask of as many points (Gosper's hack), where
/// unranking searches the binomials afresh.
#[inline]
fn unrank_next(r: u64, n: usize, k: usize) -> u32 {
    LAST.with(|last| {
        let (lr, lk, m) = last.get();
        let set = if lk == k && r == lr.wrapping_add(1) && m != 0 {
            let c = m & m.wrapping_neg();
            let up = m + c;
            (((up ^ m) >> 2) / c) | up
        } else if lk == k && r == lr {
            m
        } else {
            unrank_set(r, n, k)
        };
        last.set((r, k, set));
        set
    })
}

/// `m`'s points renumbered among the points not in `taken` (a bit extract).
#[inline]
fn compress(m: u32, taken: u32) -> u32 {
    Masks::new().compress(m, taken)
}

/// The points not in `taken`, the `i`-th of them for each bit `i` of `m` (a bit
/// deposit).
#[inline]
fn expand(m: u32, taken: u32) -> u32 {
    Masks::new().expand(m, taken)
}

/// The orbits of the `k`-point sets of a board under its symmetries.
pub struct Orbits {
    /// Each orbit's representative (its smallest mask), by orbit number.
    pub reps: Vec<u32>,
    /// The symmetries other than the identity that fix each representative (bit `s`
    /// for symmetry `s`), by orbit number: most fix none, so most boards have one
    /// number.
    stabilizers: Vec<u16>,
    /// For each set, by colex rank: its orbit's number `<< 4`, and a symmetry taking
    /// it to the representative.
    of_set: Vec<u32>,
}

impl Orbits {
    /// The orbits of `k`-sets on `geo`.
    pub fn new(geo: &Geometry, k: usize) -> Orbits {
        let total = binomial(geo.n, k) as usize;
        let mut of_set = Vec::with_capacity(total);
        let mut reps = Vec::new();
        let mut stabilizers = Vec::new();
        // Colex order of k-sets is the numeric order of their masks (Gosper's hack).
        let mut m: u32 = if k == 0 { 0 } else { (1u32 << k) - 1 };
        for _ in 0..total {
            let (mut best, mut by) = (m, 0);
            for s in 1..geo.symmetries() {
                let img = geo.map(s, m);
                if img < best {
                    best = img;
                    by = s;
                }
            }
            let id = if best == m {
                reps.push(m);
                stabilizers.push(
                    (1..geo.symmetries())
                        .filter(|&s| geo.map(s, m) == m)
                        .fold(0u16, |acc, s| acc | 1 << s),
                );
                reps.len() - 1
            } else {
                (of_set[rank_set(best) as usize] >> 4) as usize
            };
            of_set.push((id as u32) << 4 | by as u32);
            if m == 0 {
                break;
            }
            let c = m & m.wrapping_neg();
            let r = m + c;
            m = (((r ^ m) >> 2) / c) | r;
        }
        Orbits {
            reps,
            stabilizers,
            of_set,
        }
    }

    /// The orbit of set `m` and a symmetry taking `m` to its representative.
    #[inline]
    pub fn of(&self, m: u32) -> (usize, usize) {
        let e = self.of_set[rank_set(m) as usize];
        ((e >> 4) as usize, (e & 15) as usize)
    }
}

/// The number of orbits of `k`-point sets under `geo`'s symmetries, by Burnside's
/// lemma (the average number of sets each symmetry fixes: unions of its cycles), so
/// that tier sizes are known without building the tables.
pub fn orbit_count(geo: &Geometry, k: usize) -> u64 {
    let mut total = 0u64;
    for perm in &geo.perms {
        // The lengths of the permutation's cycles.
        let mut seen = vec![false; geo.n];
        let mut ways = vec![0u64; k + 1];
        ways[0] = 1;
        for start in 0..geo.n {
            if seen[start] {
                continue;
            }
            let mut len = 0;
            let mut i = start;
            while !seen[i] {
                seen[i] = true;
                i = perm[i];
                len += 1;
            }
            for j in (len..=k).rev() {
                ways[j] += ways[j - len];
            }
        }
        total += ways[k];
    }
    total / geo.perms.len() as u64
}

/// Orbit tables of one board, one per size of X's set, built when first needed.
pub struct OrbitTables {
    tables: Vec<OnceLock<Orbits>>,
}

impl OrbitTables {
    /// Empty tables for a board of `n` points.
    pub fn new(n: usize) -> OrbitTables {
        OrbitTables {
            tables: (0..=n).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The orbits of `k`-sets.
    pub fn get(&self, geo: &Geometry, k: usize) -> &Orbits {
        self.tables[k].get_or_init(|| Orbits::new(geo, k))
    }
}

/// The boards of a tier numbered by X's orbit (see the file comment).
#[derive(Clone, Copy, Debug)]
pub struct OrbitBoards {
    n: usize,
    x: usize,
    o: usize,
    orbits: u64,
    per_x: u64,
}

impl OrbitBoards {
    /// The boards with the pieces of `c` on `geo`.
    pub fn new(geo: &Geometry, c: Counts) -> OrbitBoards {
        let (x, o) = (c.board[0] as usize, c.board[1] as usize);
        OrbitBoards {
            n: geo.n,
            x,
            o,
            orbits: orbit_count(geo, x),
            per_x: binomial(geo.n - x, o),
        }
    }

    /// How many board numbers.
    pub fn count(&self) -> u64 {
        self.orbits * self.per_x
    }

    /// How many boards in all (`C(n, x) C(n - x, o)`), numbered without symmetry.
    pub fn full_count(&self) -> u64 {
        binomial(self.n, self.x) * self.per_x
    }

    /// The number of a board among all boards (`full_count`).
    #[inline]
    pub fn full_rank(&self, b: [u32; 2]) -> u64 {
        rank_set(b[0]) * self.per_x + rank_set(compress(b[1], b[0]))
    }

    /// The board of a number below `full_count`.
    pub fn full_unrank(&self, r: u64) -> [u32; 2] {
        let xs = unrank_set(r / self.per_x, self.n, self.x);
        let os = unrank_set(r % self.per_x, self.n - self.x, self.o);
        [xs, expand(os, xs)]
    }

    /// Whether X's set of `b` is its orbit's representative (the board then has an
    /// orbit number as it stands, `rank`, with no symmetry applied).
    #[inline]
    pub fn is_rep(&self, geo: &Geometry, t: &OrbitTables, b: [u32; 2]) -> bool {
        let orbits = t.get(geo, self.x);
        orbits.reps[orbits.of(b[0]).0] == b[0]
    }

    /// The number of a board (one of the numbers of its class).
    #[inline]
    pub fn rank(&self, geo: &Geometry, t: &OrbitTables, b: [u32; 2]) -> u64 {
        let orbits = t.get(geo, self.x);
        let (id, s) = orbits.of(b[0]);
        let rep = orbits.reps[id];
        id as u64 * self.per_x + rank_set(compress(geo.map(s, b[1]), rep))
    }

    /// The board of a number below `count`.
    pub fn unrank(&self, geo: &Geometry, t: &OrbitTables, r: u64) -> [u32; 2] {
        let rep = t.get(geo, self.x).reps[(r / self.per_x) as usize];
        let os = unrank_next(r % self.per_x, self.n - self.x, self.o);
        [rep, expand(os, rep)]
    }

    /// Whether board number `r` (below `count`) is its class's canonical number. Every
    /// number is, unless X's representative has symmetries of its own: few orbits do,
    /// so the solver's question of every number costs a table read, not a board.
    #[inline]
    pub fn is_canonical_rank(&self, geo: &Geometry, t: &OrbitTables, r: u64) -> bool {
        let orbits = t.get(geo, self.x);
        let id = (r / self.per_x) as usize;
        let stabilizer = orbits.stabilizers[id];
        if stabilizer == 0 {
            return true;
        }
        let (rep, within) = (orbits.reps[id], r % self.per_x);
        let os = expand(unrank_set(within, self.n - self.x, self.o), rep);
        smallest_image(geo, stabilizer, rep, os) == within
    }

    /// The canonical number of board `b`'s class: the smallest number among the images
    /// of O's set (turned with X's set to its representative) under the symmetries that
    /// fix X's representative.
    #[inline]
    pub fn canonical_of(&self, geo: &Geometry, t: &OrbitTables, b: [u32; 2]) -> u64 {
        self.canonical_with(geo, &self.x_orbit(geo, t, b[0]), b[1])
    }

    /// What the canonical number needs of X's set `xs`: found once and reused for
    /// boards that share X's set (the children of a position where O moves).
    #[inline]
    pub fn x_orbit(&self, geo: &Geometry, t: &OrbitTables, xs: u32) -> XOrbit {
        let orbits = t.get(geo, self.x);
        let (id, symmetry) = orbits.of(xs);
        XOrbit {
            id,
            symmetry,
            rep: orbits.reps[id],
            stabilizer: orbits.stabilizers[id],
        }
    }

    /// The canonical number of the board with X's set of orbit `x` and O's set `os`.
    #[inline]
    pub fn canonical_with(&self, geo: &Geometry, x: &XOrbit, os: u32) -> u64 {
        let os = geo.map(x.symmetry, os);
        x.id as u64 * self.per_x + smallest_image(geo, x.stabilizer, x.rep, os)
    }
}

/// X's set placed in its orbit (`OrbitBoards::x_orbit`).
#[derive(Clone, Copy, Debug)]
pub struct XOrbit {
    id: usize,
    symmetry: usize,
    rep: u32,
    stabilizer: u16,
}

/// The smallest rank among O's set `os` and its images under the symmetries of
/// `stabilizer` (which fix X's representative `rep`), O's points counted among those
/// `rep` leaves empty.
#[inline]
fn smallest_image(geo: &Geometry, stabilizer: u16, rep: u32, os: u32) -> u64 {
    let mut best = rank_set(compress(os, rep));
    let mut rest = stabilizer;
    while rest != 0 {
        let s = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        best = best.min(rank_set(compress(geo.map(s, os), rep)));
    }
    best
}

/// The canonical image of a board under `geo`'s symmetries, and how many distinct
/// images it has.
pub fn canonical(geo: &Geometry, b: [u32; 2]) -> ([u32; 2], u64) {
    let mut best = b;
    let mut images = [0u64; 16];
    for (s, slot) in images.iter_mut().enumerate().take(geo.symmetries()) {
        let img = [geo.map(s, b[0]), geo.map(s, b[1])];
        if (img[0], img[1]) < (best[0], best[1]) {
            best = img;
        }
        *slot = (img[0] as u64) << 32 | img[1] as u64;
    }
    let images = &mut images[..geo.symmetries()];
    images.sort_unstable();
    let distinct = 1 + images.windows(2).filter(|w| w[0] != w[1]).count();
    (best, distinct as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Kind;

    #[test]
    fn orbit_counts_are_maloms() {
        // f(W): orbits of W-sets of the 24-point board under its 16 symmetries, as
        // Malom (Gevay and Danner) give them.
        let g = Geometry::new(Kind::TwentyFour);
        let f = [1, 4, 30, 158, 757, 2830, 8774, 22188, 46879, 82880];
        for k in 10..=12 {
            assert_eq!(orbit_count(&g, k), [124124, 157668, 170854][k - 10]);
        }
        for (k, &want) in f.iter().enumerate() {
            let o = Orbits::new(&g, k);
            assert_eq!(o.reps.len(), want, "f({k})");
            assert_eq!(orbit_count(&g, k), want as u64, "Burnside's f({k})");
            for (id, &rep) in o.reps.iter().enumerate().step_by(97) {
                for s in 0..g.symmetries() {
                    let (i, by) = o.of(g.map(s, rep));
                    assert_eq!(i, id);
                    assert_eq!(g.map(by, g.map(s, rep)), rep);
                }
            }
        }
    }

    /// The canonical number of board number `r`'s class, found the long way: the board
    /// unnumbered, and every symmetry tried for whether it fixes X's representative
    /// (the oracle of `canonical_of`, which uses the stabilizers found once).
    fn canonical_by_number(b: &OrbitBoards, geo: &Geometry, t: &OrbitTables, r: u64) -> u64 {
        let rep = t.get(geo, b.x).reps[(r / b.per_x) as usize];
        let base = r - r % b.per_x;
        let os = expand(unrank_set(r % b.per_x, b.n - b.x, b.o), rep);
        let mut best = r;
        for s in 1..geo.symmetries() {
            if geo.map(s, rep) == rep {
                best = best.min(base + rank_set(compress(geo.map(s, os), rep)));
            }
        }
        best
    }

    #[test]
    fn orbit_boards_number_every_class() {
        let g = Geometry::new(Kind::Sixteen);
        let t = OrbitTables::new(16);
        let c = Counts {
            hand: [0, 0],
            board: [3, 4],
        };
        let b = OrbitBoards::new(&g, c);
        let mut classes = std::collections::HashSet::new();
        for r in 0..b.count() {
            let bits = b.unrank(&g, &t, r);
            assert_eq!(b.rank(&g, &t, bits), r);
            let canon = canonical_by_number(&b, &g, &t, r);
            assert_eq!(b.canonical_of(&g, &t, bits), canon);
            assert!(canon <= r);
            assert_eq!(canonical_by_number(&b, &g, &t, canon), canon);
            assert_eq!(
                canonical(&g, bits).0,
                canonical(&g, b.unrank(&g, &t, canon)).0
            );
            classes.insert(canonical(&g, bits).0);
        }
        let canon = (0..b.count())
            .filter(|&r| canonical_by_number(&b, &g, &t, r) == r)
            .count();
        assert_eq!(canon, classes.len());
    }

    /// Straight from a board, as turned by any symmetry, the canonical number is the
    /// one found by numbering the board first (nine men's board, every fourth orbit of
    /// 4 X pieces, 3 O pieces).
    #[test]
    fn canonical_of_a_board_is_canonical_of_its_number() {
        let g = Geometry::new(Kind::TwentyFour);
        let t = OrbitTables::new(24);
        let b = OrbitBoards::new(
            &g,
            Counts {
                hand: [0, 0],
                board: [4, 3],
            },
        );
        let per_x = binomial(24 - 4, 3);
        let mut symmetric = 0;
        for r in (0..b.count()).step_by(4 * per_x as usize + 3) {
            for r in r..(r + per_x).min(b.count()) {
                let bits = b.unrank(&g, &t, r);
                let canon = canonical_by_number(&b, &g, &t, r);
                symmetric += (canon != r) as u32;
                for s in 0..g.symmetries() {
                    let turned = [g.map(s, bits[0]), g.map(s, bits[1])];
                    assert_eq!(b.canonical_of(&g, &t, turned), canon, "{r} by {s}");
                }
            }
        }
        assert!(symmetric > 0, "some sampled boards have a smaller image");
    }

    /// Stepping from the last set, jumping, asking twice and changing size give what
    /// unranking from nothing gives.
    #[test]
    fn unrank_next_is_unrank_set() {
        let mut asks: Vec<(u64, usize)> = (0..2000).map(|r| (r, 4)).collect();
        asks.extend([
            (7, 4),
            (7, 4),
            (8, 4),
            (5, 3),
            (6, 3),
            (0, 0),
            (0, 0),
            (0, 5),
        ]);
        asks.extend((binomial(20, 6) - 50..binomial(20, 6)).map(|r| (r, 6)));
        for (r, k) in asks {
            assert_eq!(unrank_next(r, 20, k), unrank_set(r, 20, k), "{r} of {k}");
        }
    }

    #[test]
    fn canonical_is_an_image_and_idempotent() {
        let g = Geometry::new(Kind::TwentyFour);
        let b = [0b111, 1 << 9 | 1 << 21];
        let (c, n) = canonical(&g, b);
        assert_eq!(canonical(&g, c).0, c);
        assert!(n >= 1 && 16 % n == 0);
        // A single piece on a corner has 8 images (the outer and inner corners).
        assert_eq!(canonical(&g, [1, 0]).1, 8);
        assert_eq!(canonical(&g, [0, 0]).1, 1);
    }
}
