//! Frontiers: positions whose values are known, grouped by remoteness, from which
//! values flow to parents. A solved child tier contributes all its decided positions,
//! sorted by remoteness once (counting sort, 4-byte indices when the tier's indices
//! fit 32 bits) and shared by every parent tier that needs it (a clone costs two
//! reference counts); the tier being solved marks the positions it decides at a level
//! in a bitmap (one bit a position, two bitmaps: the level being sent on and the next).
//!
//! This file only orders and marks positions; it never changes a value.

use crate::engine::record::{remoteness_of, value_of, TierRecords};
use gamesman_plugin_api::{Tier, Value};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// Positions of one tier: 4-byte indices when every index of the tier fits them.
pub enum Indices {
    /// Indices below 2^32.
    Narrow(Vec<u32>),
    /// Any index.
    Wide(Vec<u64>),
}

/// A run of positions of one tier (a level of a child frontier).
#[derive(Clone, Copy)]
pub enum Level<'a> {
    /// Indices below 2^32.
    Narrow(&'a [u32]),
    /// Any index.
    Wide(&'a [u64]),
}

impl Level<'_> {
    /// Number of positions.
    pub fn len(&self) -> usize {
        match self {
            Level::Narrow(s) => s.len(),
            Level::Wide(s) => s.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The positions as 8-byte indices, for tests and small callers.
    pub fn to_vec(&self) -> Vec<u64> {
        match self {
            Level::Narrow(s) => s.iter().map(|&i| i as u64).collect(),
            Level::Wide(s) => s.to_vec(),
        }
    }
}

/// A solved child tier's decided positions, by remoteness: win/lose and tie separately.
#[derive(Clone)]
pub struct ChildFrontier {
    /// The child tier.
    pub tier: Tier,
    /// Its records.
    pub records: Arc<TierRecords>,
    order: Arc<Order>,
}

/// The positions of a child tier sorted by remoteness.
struct Order {
    wl: Indices,
    wl_starts: Vec<usize>,
    tie: Indices,
    tie_starts: Vec<usize>,
}

/// Counting sort of `(level, item)` pairs by level, walking `pairs` twice (counts,
/// then places): the items in level order, and the start of each level with one more
/// entry, the end of the last (`level_range` reads a level back).
pub(crate) fn sort_by_level<T: Copy + Default>(
    pairs: impl Iterator<Item = (usize, T)> + Clone,
) -> (Vec<T>, Vec<usize>) {
    let mut counts: Vec<usize> = Vec::new();
    for (r, _) in pairs.clone() {
        if r >= counts.len() {
            counts.resize(r + 1, 0);
        }
        counts[r] += 1;
    }
    let mut starts = Vec::with_capacity(counts.len() + 1);
    let mut total = 0;
    for c in &counts {
        starts.push(total);
        total += c;
    }
    starts.push(total);
    let mut next = starts.clone();
    let mut order = vec![T::default(); total];
    for (r, item) in pairs {
        order[next[r]] = item;
        next[r] += 1;
    }
    (order, starts)
}

/// The range of level `r` in the order `sort_by_level` gave `starts` for (empty past
/// the last level).
pub(crate) fn level_range(starts: &[usize], r: u32) -> std::ops::Range<usize> {
    let r = r as usize;
    if r + 1 >= starts.len() {
        0..0
    } else {
        starts[r]..starts[r + 1]
    }
}

/// The positions `keep` accepts, sorted by remoteness.
fn sort_by_remoteness(
    records: &TierRecords,
    keep: impl Fn(Value) -> bool,
) -> (Indices, Vec<usize>) {
    let kept = || {
        records
            .values
            .iter()
            .enumerate()
            .filter(|&(_, &p)| keep(value_of(p)))
            .map(|(i, &p)| (remoteness_of(p) as usize, i))
    };
    if records.values.len() as u64 <= 1 << 32 {
        let (o, s) = sort_by_level(kept().map(|(r, i)| (r, i as u32)));
        (Indices::Narrow(o), s)
    } else {
        let (o, s) = sort_by_level(kept().map(|(r, i)| (r, i as u64)));
        (Indices::Wide(o), s)
    }
}

fn level<'a>(order: &'a Indices, starts: &[usize], r: u32) -> Level<'a> {
    let range = level_range(starts, r);
    match order {
        Indices::Narrow(v) => Level::Narrow(&v[range]),
        Indices::Wide(v) => Level::Wide(&v[range]),
    }
}

impl ChildFrontier {
    /// Sorts a solved child tier's decided positions by remoteness.
    pub fn new(tier: Tier, records: Arc<TierRecords>) -> Self {
        let (wl, wl_starts) = sort_by_remoteness(&records, |v| v == Value::WIN || v == Value::LOSE);
        let (tie, tie_starts) = sort_by_remoteness(&records, |v| v == Value::TIE);
        ChildFrontier {
            tier,
            records,
            order: Arc::new(Order {
                wl,
                wl_starts,
                tie,
                tie_starts,
            }),
        }
    }

    /// Win and lose positions at remoteness `r`.
    pub fn wins_losses(&self, r: u32) -> Level<'_> {
        level(&self.order.wl, &self.order.wl_starts, r)
    }

    /// Tie positions at remoteness `r`.
    pub fn ties(&self, r: u32) -> Level<'_> {
        level(&self.order.tie, &self.order.tie_starts, r)
    }

    /// One more than the largest remoteness of a win or loss (0 if none).
    pub fn wl_levels(&self) -> u32 {
        (self.order.wl_starts.len() - 1) as u32
    }

    /// One more than the largest remoteness of a tie (0 if none).
    pub fn tie_levels(&self) -> u32 {
        (self.order.tie_starts.len() - 1) as u32
    }
}

/// Positions per block of a bitmap handed to one task.
pub const BLOCK_BITS: usize = 4096;

/// Bitmaps of fewer words than this are cleared and tested on the calling thread
/// (a parallel pass over them costs more than it saves, at every level).
const PARALLEL_WORDS: usize = 1 << 14;

/// One bit per position of the tier being solved: the positions decided at a level.
pub struct Bits {
    words: Vec<AtomicU64>,
}

/// Bytes of a bitmap over `n` positions (what `Bits::new` allocates).
pub fn bits_bytes(n: u64) -> u64 {
    n.div_ceil(64).saturating_mul(8)
}

impl Bits {
    /// A bitmap of `words` (from `memory::filled`, all zero).
    pub fn from_words(words: Vec<AtomicU64>) -> Self {
        Bits { words }
    }

    /// The words, 64 positions each (bit `b` of word `k` is position `64 k + b`).
    pub fn words(&self) -> &[AtomicU64] {
        &self.words
    }

    /// Words needed for `n` positions.
    pub fn words_for(n: usize) -> usize {
        n.div_ceil(64)
    }

    /// Marks position `i`.
    #[inline]
    pub fn set(&self, i: u64) {
        self.words[(i / 64) as usize].fetch_or(1 << (i % 64), Relaxed);
    }

    /// `set` by the only thread touching these marks: a plain load and store instead of
    /// a locked read-modify-write.
    #[inline]
    pub fn set_alone(&self, i: u64) {
        let w = &self.words[(i / 64) as usize];
        w.store(w.load(Relaxed) | 1 << (i % 64), Relaxed);
    }

    /// Unmarks every position.
    pub fn clear(&mut self) {
        if self.words.len() < PARALLEL_WORDS {
            self.words.iter_mut().for_each(|w| *w.get_mut() = 0);
        } else {
            self.words.par_iter_mut().for_each(|w| *w.get_mut() = 0);
        }
    }

    /// Marks the positions below `n` that `marked` accepts (in parallel, word by word).
    pub fn fill(&mut self, n: usize, marked: impl Fn(usize) -> bool + Sync) {
        self.words.par_iter_mut().enumerate().for_each(|(k, w)| {
            let mut word = 0u64;
            for b in 0..64 {
                let i = k * 64 + b;
                if i < n && marked(i) {
                    word |= 1 << b;
                }
            }
            *w.get_mut() |= word;
        });
    }

    /// Whether any position is marked.
    pub fn any(&self) -> bool {
        if self.words.len() < PARALLEL_WORDS {
            self.words.iter().any(|w| w.load(Relaxed) != 0)
        } else {
            self.words.par_iter().any(|w| w.load(Relaxed) != 0)
        }
    }

    /// The marked positions, in blocks of `BLOCK_BITS` positions (in parallel): calls
    /// `f(state, positions)` with each non-empty block's marked positions in order.
    pub fn for_each_block<S, E: Send>(
        &self,
        init: impl Fn() -> S + Sync + Send,
        f: impl Fn(&mut S, &[u64]) -> Result<(), E> + Sync + Send,
    ) -> Result<(), E> {
        self.words
            .par_chunks(BLOCK_BITS / 64)
            .enumerate()
            .try_for_each_init(
                || (init(), Vec::with_capacity(BLOCK_BITS)),
                |(state, buf), (b, words)| {
                    buf.clear();
                    for (k, w) in words.iter().enumerate() {
                        let mut w = w.load(Relaxed);
                        let base = ((b * BLOCK_BITS / 64 + k) * 64) as u64;
                        while w != 0 {
                            buf.push(base + w.trailing_zeros() as u64);
                            w &= w - 1;
                        }
                    }
                    if buf.is_empty() {
                        Ok(())
                    } else {
                        f(state, buf)
                    }
                },
            )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::record::pack;
    use std::sync::Mutex;

    #[test]
    fn child_frontier_groups_by_remoteness() {
        let recs = TierRecords {
            values: vec![
                pack(Value::WIN, 3),
                pack(Value::LOSE, 0),
                pack(Value::TIE, 2),
                pack(Value::DRAW, 0),
                pack(Value::UNDECIDED, 0),
                pack(Value::LOSE, 3),
            ],
            winby: None,
        };
        let f = ChildFrontier::new(Tier(1), Arc::new(recs));
        assert_eq!(f.wins_losses(0).to_vec(), &[1]);
        assert_eq!(f.wins_losses(3).to_vec(), &[0, 5]);
        assert!(f.wins_losses(1).is_empty());
        assert!(f.wins_losses(9).is_empty());
        assert_eq!(f.ties(2).to_vec(), &[2]);
        assert_eq!(f.wl_levels(), 4);
        assert_eq!(f.tie_levels(), 3);
    }

    #[test]
    fn bits_give_back_what_was_marked_in_blocks() {
        let n = 3 * BLOCK_BITS + 5;
        let mut bits =
            Bits::from_words((0..Bits::words_for(n)).map(|_| AtomicU64::new(0)).collect());
        assert!(!bits.any());
        let marked = [0u64, 63, 64, 4095, 4096, (3 * BLOCK_BITS + 4) as u64];
        for &i in &marked {
            bits.set(i);
        }
        assert!(bits.any());
        let seen = Mutex::new(Vec::new());
        bits.for_each_block(
            || (),
            |_, ps| -> Result<(), ()> {
                assert!(ps.windows(2).all(|w| w[0] < w[1]));
                seen.lock().unwrap().extend_from_slice(ps);
                Ok(())
            },
        )
        .unwrap();
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        assert_eq!(seen, marked);
        bits.clear();
        assert!(!bits.any());
        assert_eq!(bits_bytes(n as u64), 8 * Bits::words_for(n) as u64);
    }
}
