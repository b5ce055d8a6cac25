//! Frontiers: positions whose values are known, grouped by remoteness, from which
//! values flow to parents. A solved child tier contributes all its decided positions,
//! sorted by remoteness once (counting sort) and shared by every parent tier that
//! needs it (a clone costs two reference counts); the tier being solved adds levels as
//! it decides positions.
//!
//! This file only orders positions; it never changes a value.

use crate::engine::record::{remoteness_of, value_of, TierRecords};
use gamesman_plugin_api::{Tier, Value};
use std::sync::Arc;

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
    wl: Vec<u64>,
    wl_starts: Vec<usize>,
    tie: Vec<u64>,
    tie_starts: Vec<usize>,
}

fn sort_by_remoteness(
    records: &TierRecords,
    keep: impl Fn(Value) -> bool,
) -> (Vec<u64>, Vec<usize>) {
    let mut counts: Vec<usize> = Vec::new();
    for &p in &records.values {
        if keep(value_of(p)) {
            let r = remoteness_of(p) as usize;
            if r >= counts.len() {
                counts.resize(r + 1, 0);
            }
            counts[r] += 1;
        }
    }
    let mut starts = Vec::with_capacity(counts.len() + 1);
    let mut total = 0;
    for c in &counts {
        starts.push(total);
        total += c;
    }
    starts.push(total);
    let mut next = starts.clone();
    let mut order = vec![0u64; total];
    for (i, &p) in records.values.iter().enumerate() {
        if keep(value_of(p)) {
            let r = remoteness_of(p) as usize;
            order[next[r]] = i as u64;
            next[r] += 1;
        }
    }
    (order, starts)
}

fn level<'a>(order: &'a [u64], starts: &[usize], r: u32) -> &'a [u64] {
    let r = r as usize;
    if r + 1 >= starts.len() {
        &[]
    } else {
        &order[starts[r]..starts[r + 1]]
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
    pub fn wins_losses(&self, r: u32) -> &[u64] {
        level(&self.order.wl, &self.order.wl_starts, r)
    }

    /// Tie positions at remoteness `r`.
    pub fn ties(&self, r: u32) -> &[u64] {
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

/// The tier's own frontier: positions decided at each remoteness.
#[derive(Default)]
pub struct OwnFrontier {
    levels: Vec<Vec<u64>>,
}

impl OwnFrontier {
    /// Adds positions decided at remoteness `r`.
    pub fn push(&mut self, r: u32, mut positions: Vec<u64>) {
        let r = r as usize;
        if self.levels.len() <= r {
            self.levels.resize_with(r + 1, Vec::new);
        }
        self.levels[r].append(&mut positions);
    }

    /// Takes the positions at remoteness `r`.
    pub fn take(&mut self, r: u32) -> Vec<u64> {
        self.levels
            .get_mut(r as usize)
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Whether any level at `r` or above holds positions.
    pub fn any_from(&self, r: u32) -> bool {
        self.levels.iter().skip(r as usize).any(|l| !l.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::record::pack;

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
        assert_eq!(f.wins_losses(0), &[1]);
        assert_eq!(f.wins_losses(3), &[0, 5]);
        assert!(f.wins_losses(1).is_empty());
        assert!(f.wins_losses(9).is_empty());
        assert_eq!(f.ties(2), &[2]);
        assert_eq!(f.wl_levels(), 4);
        assert_eq!(f.tie_levels(), 3);
    }
}
