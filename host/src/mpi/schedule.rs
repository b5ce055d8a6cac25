//! The manager's ready queue over the tier DAG: which unsolved tiers have every child
//! solved, and which of them to hand out next.
//!
//! Among ready tiers the one heading the heaviest chain of work still waiting on it
//! (its own size plus the heaviest chain through its unsolved parents) goes first, so
//! the long chains that bound the run's length start as early as possible; ties go to
//! the solve order. Pure bookkeeping: no MPI, no files, no solving.

use crate::engine::tier::TierNode;
use gamesman_plugin_api::Tier;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

/// What the manager did wrong with the queue (a bug, never a user error).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ScheduleError {
    /// A tier reported solved that was never handed out, or was handed out twice.
    #[error("tier {0} was reported solved but was not being solved")]
    NotOutstanding(Tier),
}

/// Unsolved tiers, their unsolved children, and the ready queue.
#[derive(Debug)]
pub struct Schedule {
    /// Index in the solve order of every tier to solve.
    position: HashMap<Tier, usize>,
    /// Unsolved children left per tier to solve.
    pending_children: HashMap<Tier, usize>,
    /// Tiers to solve that list each tier as a child.
    parents: HashMap<Tier, Vec<Tier>>,
    /// Heaviest chain of work (positions) from each tier up through its parents.
    weight: HashMap<Tier, u128>,
    ready: BinaryHeap<(u128, Reverse<usize>, Tier)>,
    /// Handed out and not yet reported solved.
    outstanding: HashSet<Tier>,
    left: usize,
}

impl Schedule {
    /// The schedule of the tiers in `todo`, from a graph's nodes in solve order
    /// (children before parents, as `TierGraph::order`). Tiers not in `todo` count
    /// as solved.
    pub fn new(order: &[TierNode], todo: &HashSet<Tier>) -> Schedule {
        let mut position = HashMap::new();
        let mut pending_children = HashMap::new();
        let mut parents: HashMap<Tier, Vec<Tier>> = HashMap::new();
        for (i, n) in order
            .iter()
            .enumerate()
            .filter(|(_, n)| todo.contains(&n.tier))
        {
            position.insert(n.tier, i);
            let unsolved: Vec<Tier> = n
                .children
                .iter()
                .copied()
                .filter(|c| todo.contains(c))
                .collect();
            for &c in &unsolved {
                parents.entry(c).or_default().push(n.tier);
            }
            pending_children.insert(n.tier, unsolved.len());
        }
        // Parents come after their children in the order, so walking it backwards
        // meets every parent's weight before its children need it.
        let mut weight: HashMap<Tier, u128> = HashMap::new();
        for n in order.iter().rev().filter(|n| todo.contains(&n.tier)) {
            let above = parents
                .get(&n.tier)
                .map(|ps| ps.iter().map(|p| weight[p]).max().unwrap_or(0))
                .unwrap_or(0);
            weight.insert(n.tier, above + n.size as u128);
        }
        let mut s = Schedule {
            left: position.len(),
            position,
            pending_children,
            parents,
            weight,
            ready: BinaryHeap::new(),
            outstanding: HashSet::new(),
        };
        let ready: Vec<Tier> = s
            .pending_children
            .iter()
            .filter(|(_, &k)| k == 0)
            .map(|(&t, _)| t)
            .collect();
        for t in ready {
            s.push_ready(t);
        }
        s
    }

    fn push_ready(&mut self, t: Tier) {
        self.ready
            .push((self.weight[&t], Reverse(self.position[&t]), t));
    }

    /// The next tier to hand out (all its children solved), if any is ready now.
    pub fn take_ready(&mut self) -> Option<Tier> {
        let (_, _, t) = self.ready.pop()?;
        self.outstanding.insert(t);
        Some(t)
    }

    /// Records that a handed-out tier is solved; its parents may become ready.
    pub fn solved(&mut self, tier: Tier) -> Result<(), ScheduleError> {
        if !self.outstanding.remove(&tier) {
            return Err(ScheduleError::NotOutstanding(tier));
        }
        self.left -= 1;
        for p in self.parents.get(&tier).cloned().unwrap_or_default() {
            let k = self
                .pending_children
                .get_mut(&p)
                .expect("parents are tiers to solve");
            *k -= 1;
            if *k == 0 {
                self.push_ready(p);
            }
        }
        Ok(())
    }

    /// Tiers not yet reported solved (ready, handed out, or waiting on children).
    pub fn left(&self) -> usize {
        self.left
    }

    /// Tiers ready to hand out now.
    pub fn ready(&self) -> usize {
        self.ready.len()
    }

    /// Tiers handed out and not yet reported solved.
    pub fn outstanding(&self) -> usize {
        self.outstanding.len()
    }

    /// Whether every tier is solved.
    pub fn is_done(&self) -> bool {
        self.left == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(tier: u64, size: u64, children: &[u64]) -> TierNode {
        TierNode {
            tier: Tier(tier),
            name: format!("t{tier}"),
            size,
            stored: size,
            children: children.iter().map(|&c| Tier(c)).collect(),
            loopy: false,
            level: 0,
        }
    }

    fn all(order: &[TierNode]) -> HashSet<Tier> {
        order.iter().map(|n| n.tier).collect()
    }

    /// Leaves 1 (small) and 2 (big); 3 needs both; 4 needs 3; 5 needs only 1.
    fn diamond() -> Vec<TierNode> {
        vec![
            node(1, 10, &[]),
            node(2, 1000, &[]),
            node(3, 5, &[1, 2]),
            node(4, 5, &[3]),
            node(5, 1, &[1]),
        ]
    }

    #[test]
    fn children_come_first_and_heavy_chains_lead() {
        let order = diamond();
        let mut s = Schedule::new(&order, &all(&order));
        assert_eq!((s.left(), s.ready()), (5, 2));
        // Tier 2 heads 1000+5+5, tier 1 heads 10+5+5: tier 2 first.
        assert_eq!(s.take_ready(), Some(Tier(2)));
        assert_eq!(s.take_ready(), Some(Tier(1)));
        assert_eq!(s.take_ready(), None, "nothing else is ready");
        s.solved(Tier(1)).unwrap();
        // 5 needs only 1; 3 still waits for 2.
        assert_eq!(s.take_ready(), Some(Tier(5)));
        assert_eq!(s.take_ready(), None);
        s.solved(Tier(2)).unwrap();
        assert_eq!(s.take_ready(), Some(Tier(3)));
        s.solved(Tier(3)).unwrap();
        s.solved(Tier(5)).unwrap();
        assert_eq!(s.take_ready(), Some(Tier(4)));
        assert!(!s.is_done());
        s.solved(Tier(4)).unwrap();
        assert!(s.is_done());
        assert_eq!((s.left(), s.ready(), s.outstanding()), (0, 0, 0));
    }

    #[test]
    fn stored_tiers_count_as_solved() {
        let order = diamond();
        let todo: HashSet<Tier> = [Tier(3), Tier(4)].into();
        let mut s = Schedule::new(&order, &todo);
        assert_eq!(s.left(), 2);
        assert_eq!(s.take_ready(), Some(Tier(3)));
        assert_eq!(s.take_ready(), None);
        s.solved(Tier(3)).unwrap();
        assert_eq!(s.take_ready(), Some(Tier(4)));
        s.solved(Tier(4)).unwrap();
        assert!(s.is_done());
    }

    #[test]
    fn equal_weights_follow_the_solve_order() {
        let order = vec![node(7, 3, &[]), node(4, 3, &[]), node(9, 3, &[])];
        let mut s = Schedule::new(&order, &all(&order));
        assert_eq!(
            [s.take_ready(), s.take_ready(), s.take_ready()],
            [Some(Tier(7)), Some(Tier(4)), Some(Tier(9))]
        );
    }

    #[test]
    fn a_tier_not_handed_out_cannot_be_solved() {
        let order = diamond();
        let mut s = Schedule::new(&order, &all(&order));
        assert_eq!(
            s.solved(Tier(3)),
            Err(ScheduleError::NotOutstanding(Tier(3)))
        );
        let t = s.take_ready().unwrap();
        s.solved(t).unwrap();
        assert_eq!(s.solved(t), Err(ScheduleError::NotOutstanding(t)));
        assert_eq!(s.left(), 4);
    }

    #[test]
    fn nothing_to_do_is_done() {
        let order = diamond();
        let mut s = Schedule::new(&order, &HashSet::new());
        assert!(s.is_done());
        assert_eq!(s.take_ready(), None);
    }
}
