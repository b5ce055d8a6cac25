//! The marked positions of one tier (those a reachable-only solve keeps), as an
//! immutable set with rank (a position's index among the marked ones, its "compact"
//! index) and select (the position of a compact index).
//!
//! Sparse sets are kept as a sorted list with a bucket directory (rank is a short
//! binary search inside one bucket), dense ones as a bitset with a rank directory and
//! select samples; whichever takes fewer bytes. The choice depends only on the tier
//! size and the number of members, so equal sets have equal representations. This file
//! knows nothing of games, values or files.

use rayon::prelude::*;

/// Bitset words per rank-directory entry.
const WORDS_PER_RANK: usize = 8;
/// Members per select sample of a bitset.
const SELECT_SAMPLE: u64 = 64;
/// Members per bucket of a list, on average.
const MEMBERS_PER_BUCKET: u64 = 4;

/// A set of positions `0..size` of one tier.
#[derive(Clone)]
pub struct Marks {
    size: u64,
    count: u64,
    repr: Repr,
}

#[derive(Clone)]
enum Repr {
    /// Sorted members; `starts[b]` is the number of members below `b << shift`.
    List {
        members: Vec<u64>,
        shift: u32,
        starts: Vec<u64>,
    },
    /// One bit per position; `ranks[j]` counts the members in the words before
    /// `j * WORDS_PER_RANK`; `samples[s]` is the word holding member `s * SELECT_SAMPLE`.
    Bits {
        words: Vec<u64>,
        ranks: Vec<u64>,
        samples: Vec<u64>,
    },
}

impl std::fmt::Debug for Marks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Marks({} of {}, {})",
            self.count,
            self.size,
            match self.repr {
                Repr::List { .. } => "list",
                Repr::Bits { .. } => "bits",
            }
        )
    }
}

impl PartialEq for Marks {
    fn eq(&self, other: &Marks) -> bool {
        self.size == other.size && self.count == other.count && self.iter().eq(other.iter())
    }
}

impl Eq for Marks {}

/// Whether `count` members of `0..size` take fewer bytes as a list than as a bitset.
fn prefer_list(size: u64, count: u64) -> bool {
    // List: 8 bytes a member plus its bucket share; bitset: an eighth of a byte a
    // position plus its directory (an eighth more) and samples.
    let list = count.saturating_mul(8) + count.div_ceil(MEMBERS_PER_BUCKET) * 8;
    let bits = size.div_ceil(8) + size.div_ceil(64) + count.div_ceil(SELECT_SAMPLE) * 8;
    list < bits
}

impl Marks {
    /// No marked position in a tier of `size` positions.
    pub fn empty(size: u64) -> Marks {
        Marks::from_sorted(size, Vec::new())
    }

    /// The set of `members`, which must be strictly increasing and below `size`.
    pub fn from_sorted(size: u64, members: Vec<u64>) -> Marks {
        debug_assert!(members.windows(2).all(|w| w[0] < w[1]));
        debug_assert!(members.last().is_none_or(|&m| m < size));
        let count = members.len() as u64;
        if prefer_list(size, count) {
            Marks::list(size, members)
        } else {
            let mut words = vec![0u64; size.div_ceil(64) as usize];
            for &m in &members {
                words[(m / 64) as usize] |= 1 << (m % 64);
            }
            Marks::bits(size, words)
        }
    }

    /// The set whose bit `i` is set in `words` (positions `0..size`; bits at or past
    /// `size` must be clear).
    pub fn from_words(size: u64, words: Vec<u64>) -> Marks {
        debug_assert_eq!(words.len() as u64, size.div_ceil(64));
        let count: u64 = words.par_iter().map(|w| w.count_ones() as u64).sum();
        if prefer_list(size, count) {
            let members: Vec<u64> = words
                .par_iter()
                .enumerate()
                .flat_map_iter(|(wi, &w)| bits_of(w).map(move |b| wi as u64 * 64 + b))
                .collect();
            Marks::list(size, members)
        } else {
            Marks::bits(size, words)
        }
    }

    fn list(size: u64, members: Vec<u64>) -> Marks {
        let count = members.len() as u64;
        // Buckets of 2^shift positions, about MEMBERS_PER_BUCKET members each.
        let per_bucket = (size / count.div_ceil(MEMBERS_PER_BUCKET).max(1)).max(1);
        let shift = (63 - per_bucket.leading_zeros()).min(62);
        let buckets = (size >> shift) as usize + 1;
        let mut starts = vec![0u64; buckets + 1];
        for &m in &members {
            starts[(m >> shift) as usize + 1] += 1;
        }
        for b in 1..starts.len() {
            starts[b] += starts[b - 1];
        }
        Marks {
            size,
            count,
            repr: Repr::List {
                members,
                shift,
                starts,
            },
        }
    }

    fn bits(size: u64, words: Vec<u64>) -> Marks {
        let mut ranks = Vec::with_capacity(words.len() / WORDS_PER_RANK + 2);
        let mut samples = Vec::new();
        let mut total = 0u64;
        for (wi, &w) in words.iter().enumerate() {
            if wi % WORDS_PER_RANK == 0 {
                ranks.push(total);
            }
            let c = w.count_ones() as u64;
            // Members total..total + c lie in this word.
            let mut next = total.div_ceil(SELECT_SAMPLE) * SELECT_SAMPLE;
            while next < total + c {
                samples.push(wi as u64);
                next += SELECT_SAMPLE;
            }
            total += c;
        }
        ranks.push(total);
        Marks {
            size,
            count: total,
            repr: Repr::Bits {
                words,
                ranks,
                samples,
            },
        }
    }

    /// Positions in the tier (marked or not).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Marked positions.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Whether the set is kept as a bitset (else as a sorted list).
    pub fn is_bitset(&self) -> bool {
        matches!(self.repr, Repr::Bits { .. })
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        match &self.repr {
            Repr::List {
                members, starts, ..
            } => 8 * (members.len() + starts.len()) as u64,
            Repr::Bits {
                words,
                ranks,
                samples,
            } => 8 * (words.len() + ranks.len() + samples.len()) as u64,
        }
    }

    /// Whether position `i` is marked.
    pub fn contains(&self, i: u64) -> bool {
        self.rank(i).is_some()
    }

    /// The compact index of position `i`: how many marked positions lie below it;
    /// `None` when `i` is not marked (or past the tier).
    #[inline]
    pub fn rank(&self, i: u64) -> Option<u64> {
        if i >= self.size {
            return None;
        }
        match &self.repr {
            Repr::List {
                members,
                shift,
                starts,
            } => {
                let b = (i >> shift) as usize;
                let (lo, hi) = (starts[b] as usize, starts[b + 1] as usize);
                members[lo..hi]
                    .binary_search(&i)
                    .ok()
                    .map(|k| (lo + k) as u64)
            }
            Repr::Bits { words, ranks, .. } => {
                let wi = (i / 64) as usize;
                let bit = 1u64 << (i % 64);
                let w = words[wi];
                if w & bit == 0 {
                    return None;
                }
                let base = wi / WORDS_PER_RANK * WORDS_PER_RANK;
                let before: u64 = words[base..wi].iter().map(|w| w.count_ones() as u64).sum();
                Some(ranks[wi / WORDS_PER_RANK] + before + (w & (bit - 1)).count_ones() as u64)
            }
        }
    }

    /// The position with compact index `k` (which must be below `count`).
    #[inline]
    pub fn select(&self, k: u64) -> u64 {
        assert!(k < self.count, "compact index {k} of {}", self.count);
        match &self.repr {
            Repr::List { members, .. } => members[k as usize],
            Repr::Bits {
                words,
                ranks,
                samples,
            } => {
                let mut wi = samples[(k / SELECT_SAMPLE) as usize] as usize;
                let base = wi / WORDS_PER_RANK * WORDS_PER_RANK;
                let mut seen = ranks[wi / WORDS_PER_RANK]
                    + words[base..wi]
                        .iter()
                        .map(|w| w.count_ones() as u64)
                        .sum::<u64>();
                loop {
                    let c = words[wi].count_ones() as u64;
                    if seen + c > k {
                        let b = bits_of(words[wi])
                            .nth((k - seen) as usize)
                            .expect("the word holds the member");
                        return wi as u64 * 64 + b;
                    }
                    seen += c;
                    wi += 1;
                }
            }
        }
    }

    /// The marked positions in increasing order.
    pub fn iter(&self) -> Box<dyn Iterator<Item = u64> + Send + '_> {
        self.iter_from(0)
    }

    /// The marked positions from compact index `k` on, in increasing order.
    pub fn iter_from(&self, k: u64) -> Box<dyn Iterator<Item = u64> + Send + '_> {
        if k >= self.count {
            return Box::new(std::iter::empty());
        }
        match &self.repr {
            Repr::List { members, .. } => Box::new(members[k as usize..].iter().copied()),
            Repr::Bits { words, .. } => {
                let first = self.select(k);
                let wi = (first / 64) as usize;
                let head = words[wi] & !((1u64 << (first % 64)) - 1);
                Box::new(
                    std::iter::once((wi, head))
                        .chain(
                            words[wi + 1..]
                                .iter()
                                .copied()
                                .enumerate()
                                .map(move |(j, w)| (wi + 1 + j, w)),
                        )
                        .flat_map(|(wi, w)| bits_of(w).map(move |b| wi as u64 * 64 + b)),
                )
            }
        }
    }

    /// Writes the positions of compact indices `k..k + out.len()` into `out`.
    pub fn select_range(&self, k: u64, out: &mut [u64]) {
        for (slot, p) in out.iter_mut().zip(self.iter_from(k)) {
            *slot = p;
        }
    }
}

/// The set bits of `w`, lowest first.
fn bits_of(mut w: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        if w == 0 {
            return None;
        }
        let b = w.trailing_zeros() as u64;
        w &= w - 1;
        Some(b)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic pseudo-random sequence (xorshift).
    fn rng(seed: u64) -> impl FnMut() -> u64 {
        let mut s = seed | 1;
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        }
    }

    fn check(size: u64, members: &[u64]) {
        let m = Marks::from_sorted(size, members.to_vec());
        assert_eq!(m.count(), members.len() as u64);
        assert_eq!(m.iter().collect::<Vec<_>>(), members);
        for (k, &p) in members.iter().enumerate() {
            assert_eq!(m.rank(p), Some(k as u64), "rank of {p} in {m:?}");
            assert_eq!(m.select(k as u64), p, "select {k} in {m:?}");
            if k % 997 == 0 || k + 3 >= members.len() {
                assert_eq!(
                    m.iter_from(k as u64).collect::<Vec<_>>(),
                    &members[k..],
                    "{m:?}"
                );
            }
        }
        // Every unmarked position has no rank.
        let mut next = 0;
        for i in 0..size.min(5000) {
            if members.get(next) == Some(&i) {
                next += 1;
            } else {
                assert_eq!(m.rank(i), None, "{i} in {m:?}");
            }
        }
        assert_eq!(m.rank(size), None);
        // The same set built from words is equal, in the same representation.
        if size > 1 << 24 {
            return;
        }
        let mut words = vec![0u64; size.div_ceil(64) as usize];
        for &p in members {
            words[(p / 64) as usize] |= 1 << (p % 64);
        }
        let w = Marks::from_words(size, words);
        assert_eq!(w, m);
        assert_eq!(w.is_bitset(), m.is_bitset());
    }

    #[test]
    fn sparse_and_dense_sets_rank_and_select() {
        let mut r = rng(42);
        for (size, density) in [
            (0u64, 1u64),
            (1, 1),
            (63, 2),
            (64, 1),
            (65, 3),
            (1000, 1),
            (4096, 2),
            (10_000, 7),
            (100_000, 500),
            (1 << 20, 300),
            (1 << 20, 3),
        ] {
            let members: Vec<u64> = (0..size).filter(|_| r().is_multiple_of(density)).collect();
            check(size, &members);
        }
        check(1 << 40, &[0, 5, 1 << 20, (1 << 40) - 1]);
        check(10, &[]);
    }

    #[test]
    fn representation_follows_density() {
        let sparse = Marks::from_sorted(1 << 20, (0..1000).map(|i| i * 1000).collect());
        assert!(!sparse.is_bitset());
        let dense = Marks::from_sorted(1 << 20, (0..1 << 19).map(|i| i * 2).collect());
        assert!(dense.is_bitset());
        assert!(dense.bytes() < (1 << 20) / 8 * 2);
        assert!(sparse.bytes() < 1000 * 16);
    }
}
