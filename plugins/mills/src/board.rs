//! The Mills boards: their points, names, lines (mills), adjacency and symmetries.
//!
//! Points are numbered row by row from the top left, as printed; each has a name of a
//! column letter and a row number counted from the bottom (`a1` is the bottom-left
//! corner, `a7` the top-left of the 24-point board), the standard notation. A board is
//! drawn as paths: a piece slides between consecutive points of a path, and any three
//! consecutive points of a path are a mill (the 16-point board's four connectors have
//! two points, so they join the squares without making mills).
//!
//! Symmetries permute points and keep lines and adjacency: the square's eight, and on
//! the 16- and 24-point boards the same eight after swapping the inner and outer rings
//! (16 in all). They act on bit masks through byte tables.
//!
//! This file holds geometry only: no rules of play, no numbering of positions.

/// The boards the variants are played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Two squares with connectors (five and six men's morris).
    Sixteen,
    /// The 16-point board with a centre point on two cross lines of five (seven men's).
    Seventeen,
    /// Three squares with connectors (nine men's morris, Lasker).
    TwentyFour,
    /// The 24-point board with the corners' diagonals (Morabaraba).
    TwentyFourDiagonals,
}

const NAMES_16: &str = "a5 c5 e5 b4 c4 d4 a3 b3 d3 e3 b2 c2 d2 a1 c1 e1";
const NAMES_17: &str = "a5 c5 e5 b4 c4 d4 a3 b3 c3 d3 e3 b2 c2 d2 a1 c1 e1";
const NAMES_24: &str = "a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1";

const PATHS_16: &[&[usize]] = &[
    &[0, 1, 2],
    &[2, 9, 15],
    &[13, 14, 15],
    &[0, 6, 13],
    &[3, 4, 5],
    &[5, 8, 12],
    &[10, 11, 12],
    &[3, 7, 10],
    &[1, 4],
    &[6, 7],
    &[8, 9],
    &[11, 14],
];
const PATHS_17: &[&[usize]] = &[
    &[0, 1, 2],
    &[2, 10, 16],
    &[14, 15, 16],
    &[0, 6, 14],
    &[3, 4, 5],
    &[5, 9, 13],
    &[11, 12, 13],
    &[3, 7, 11],
    &[1, 4, 8, 12, 15],
    &[6, 7, 8, 9, 10],
];
const PATHS_24: &[&[usize]] = &[
    &[0, 1, 2],
    &[2, 14, 23],
    &[21, 22, 23],
    &[0, 9, 21],
    &[3, 4, 5],
    &[5, 13, 20],
    &[18, 19, 20],
    &[3, 10, 18],
    &[6, 7, 8],
    &[8, 12, 17],
    &[15, 16, 17],
    &[6, 11, 15],
    &[1, 4, 7],
    &[12, 13, 14],
    &[16, 19, 22],
    &[9, 10, 11],
];
const DIAGONALS_24: &[&[usize]] = &[&[0, 3, 6], &[2, 5, 8], &[17, 20, 23], &[15, 18, 21]];

/// One of the square's symmetries on grid coordinates: (x, y, side - 1) to (x, y).
type SquareMap = fn(usize, usize, usize) -> (usize, usize);

/// One board: see the file comment.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Which board.
    pub kind: Kind,
    /// The number of points.
    pub n: usize,
    /// The side of the square grid the points lie on (5 or 7).
    pub side: usize,
    /// Each point's (column, row), row 0 at the bottom.
    pub coords: Vec<(usize, usize)>,
    /// The drawn paths (slides along them, mills of three consecutive points).
    pub paths: Vec<Vec<usize>>,
    /// Every mill, as a mask of its three points.
    pub lines: Vec<u32>,
    /// For each point, the mills through it (masks of all three points).
    pub lines_through: Vec<Vec<u32>>,
    /// For each point, the mask of its neighbours.
    pub adjacent: Vec<u32>,
    /// The mask of every point.
    pub all: u32,
    /// Each symmetry as a permutation: point `i` goes to `perms[s][i]`.
    pub perms: Vec<Vec<usize>>,
    /// Each symmetry as byte tables over masks: three bytes cover every board's points
    /// (at most `masks::MAX_POINTS`, 24), so a mask maps in three loads.
    tables: Vec<[[u32; 256]; 3]>,
}

impl Geometry {
    /// The geometry of `kind`.
    pub fn new(kind: Kind) -> Geometry {
        let (names, mut paths, side, ring_swap): (&str, Vec<&[usize]>, usize, bool) = match kind {
            Kind::Sixteen => (NAMES_16, PATHS_16.to_vec(), 5, true),
            Kind::Seventeen => (NAMES_17, PATHS_17.to_vec(), 5, false),
            Kind::TwentyFour => (NAMES_24, PATHS_24.to_vec(), 7, true),
            Kind::TwentyFourDiagonals => (NAMES_24, PATHS_24.to_vec(), 7, true),
        };
        if kind == Kind::TwentyFourDiagonals {
            paths.extend_from_slice(DIAGONALS_24);
        }
        let coords: Vec<(usize, usize)> = names
            .split(' ')
            .map(|s| {
                let b = s.as_bytes();
                ((b[0] - b'a') as usize, (b[1] - b'1') as usize)
            })
            .collect();
        let n = coords.len();
        assert!(
            n <= crate::masks::MAX_POINTS,
            "masks and symmetry tables hold 24 points"
        );
        let mut lines = Vec::new();
        let mut adjacent = vec![0u32; n];
        for p in &paths {
            for w in p.windows(2) {
                adjacent[w[0]] |= 1 << w[1];
                adjacent[w[1]] |= 1 << w[0];
            }
            for w in p.windows(3) {
                lines.push(w.iter().fold(0u32, |m, &i| m | 1 << i));
            }
        }
        let lines_through = (0..n)
            .map(|i| lines.iter().copied().filter(|l| l >> i & 1 == 1).collect())
            .collect();
        let at = |x: usize, y: usize| coords.iter().position(|&c| c == (x, y));
        let s = side - 1;
        let squares: [SquareMap; 8] = [
            |x, y, _| (x, y),
            |x, y, s| (s - x, y),
            |x, y, s| (x, s - y),
            |x, y, s| (s - x, s - y),
            |x, y, _| (y, x),
            |x, y, s| (s - y, x),
            |x, y, s| (y, s - x),
            |x, y, s| (s - y, s - x),
        ];
        // Swapping the rings: the outer ring's offsets from the centre scaled down to
        // the inner ring's, and back; the middle ring (24 points) stays.
        let c = s / 2;
        let swap = |(x, y): (usize, usize)| -> (usize, usize) {
            let (dx, dy) = (x as i64 - c as i64, y as i64 - c as i64);
            let norm = dx.abs().max(dy.abs());
            let (dx, dy) = if norm == c as i64 {
                (dx / c as i64, dy / c as i64)
            } else if norm == 1 {
                (dx * c as i64, dy * c as i64)
            } else {
                (dx, dy)
            };
            ((dx + c as i64) as usize, (dy + c as i64) as usize)
        };
        let mut perms = Vec::new();
        for ring in [false, true] {
            if ring && !ring_swap {
                continue;
            }
            for f in squares {
                let perm: Vec<usize> = (0..n)
                    .map(|i| {
                        let (x, y) = if ring { swap(coords[i]) } else { coords[i] };
                        let (x, y) = f(x, y, s);
                        at(x, y).expect("a symmetry maps points to points")
                    })
                    .collect();
                perms.push(perm);
            }
        }
        let tables = perms
            .iter()
            .map(|perm| {
                let mut t = [[0u32; 256]; 3];
                for (k, table) in t.iter_mut().enumerate() {
                    for (byte, out) in table.iter_mut().enumerate() {
                        for bit in 0..8 {
                            let i = k * 8 + bit;
                            if byte >> bit & 1 == 1 && i < n {
                                *out |= 1 << perm[i];
                            }
                        }
                    }
                }
                t
            })
            .collect();
        Geometry {
            kind,
            n,
            side,
            coords,
            paths: paths.iter().map(|p| p.to_vec()).collect(),
            lines,
            lines_through,
            adjacent,
            all: ((1u64 << n) - 1) as u32,
            perms,
            tables,
        }
    }

    /// The name of point `i` (`a1`).
    pub fn name(&self, i: usize) -> String {
        let (x, y) = self.coords[i];
        format!("{}{}", (b'a' + x as u8) as char, y + 1)
    }

    /// The point named `s` (case-insensitive), if the board has it.
    pub fn point(&self, s: &str) -> Option<usize> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let x = b[0].to_ascii_lowercase().checked_sub(b'a')? as usize;
        let y = b[1].checked_sub(b'1')? as usize;
        self.coords.iter().position(|&c| c == (x, y))
    }

    /// The number of symmetries.
    pub fn symmetries(&self) -> usize {
        self.perms.len()
    }

    /// The image of mask `m` (of this board's points) under symmetry `s`.
    #[inline]
    pub fn map(&self, s: usize, m: u32) -> u32 {
        debug_assert!(m & !self.all == 0);
        let t = &self.tables[s];
        t[0][(m & 0xff) as usize] | t[1][(m >> 8 & 0xff) as usize] | t[2][(m >> 16) as usize]
    }

    /// The symmetries other than the identity (symmetry 0) that map mask `m` to itself,
    /// bit `s` for symmetry `s`: none for most sets.
    #[inline]
    pub fn fixing(&self, m: u32) -> u32 {
        (1..self.symmetries())
            .filter(|&s| self.map(s, m) == m)
            .fold(0, |set, s| set | 1 << s)
    }

    /// The mask of the points of `pattern` that lie in a mill of `pattern`.
    #[inline]
    pub fn in_mills(&self, pattern: u32) -> u32 {
        self.lines
            .iter()
            .filter(|&&l| l & pattern == l)
            .fold(0, |m, &l| m | l)
    }

    /// Whether point `p` of `pattern` lies in a mill of `pattern`.
    #[inline]
    pub fn in_mill_at(&self, pattern: u32, p: usize) -> bool {
        self.lines_through[p].iter().any(|&l| l & !pattern == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_have_their_points_mills_and_symmetries() {
        for (kind, n, mills, syms, edges) in [
            (Kind::Sixteen, 16, 8, 16, 20),
            (Kind::Seventeen, 17, 14, 8, 24),
            (Kind::TwentyFour, 24, 16, 16, 32),
            (Kind::TwentyFourDiagonals, 24, 20, 16, 40),
        ] {
            let g = Geometry::new(kind);
            assert_eq!(g.n, n);
            assert_eq!(g.lines.len(), mills, "{kind:?}");
            assert_eq!(g.symmetries(), syms, "{kind:?}");
            assert!(
                (0..n).all(|i| g.perms[0][i] == i),
                "{kind:?}: 0 is the identity"
            );
            let e: u32 = g.adjacent.iter().map(|a| a.count_ones()).sum();
            assert_eq!(e, 2 * edges, "{kind:?}");
            let mut lines = g.lines.clone();
            lines.sort_unstable();
            for s in 0..g.symmetries() {
                let mut img: Vec<u32> = g.lines.iter().map(|&l| g.map(s, l)).collect();
                img.sort_unstable();
                assert_eq!(img, lines, "{kind:?} symmetry {s} keeps the mills");
                for i in 0..n {
                    let j = g.perms[s][i];
                    assert_eq!(g.map(s, g.adjacent[i]), g.adjacent[j], "{kind:?} {s} {i}");
                }
            }
            for i in 0..n {
                assert_eq!(g.point(&g.name(i)), Some(i));
            }
        }
        let g = Geometry::new(Kind::TwentyFour);
        assert_eq!(g.name(0), "a7");
        assert_eq!(g.name(23), "g1");
        assert_eq!(g.point("D4"), None);
        assert_eq!(g.point("a"), None);
        // The ring swap pairs a7 with c5 and d7 with d5.
        assert!(g.perms.iter().any(|p| p[0] == 6 && p[1] == 7));
    }
}
