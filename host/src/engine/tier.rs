//! The tier graph of a game: which tiers are reachable from the initial tier, their
//! sizes and names, a solve order with children first, and the levels of the DAG
//! (tiers on one level have no path between them and can be solved at once).
//!
//! A cycle between distinct tiers is an error that names every tier on it. This file
//! only asks the module about tiers; it never looks at positions.

use crate::engine::game::{GameHandle, ModuleError};
use gamesman_plugin_api::{Tier, BAD_TIER};
use std::collections::HashMap;

/// One tier of the graph.
#[derive(Clone, Debug)]
pub struct TierNode {
    /// The tier.
    pub tier: Tier,
    /// Its readable name (`gTierToString`).
    pub name: String,
    /// Number of positions in its hash.
    pub size: u64,
    /// Number of indices solved and stored: the module's canonical prefix where it
    /// numbers canonical positions first (`GameHandle::canonical_prefix`), else `size`.
    pub stored: u64,
    /// Its child tiers, itself excluded, in the module's order.
    pub children: Vec<Tier>,
    /// Whether it lists itself as a child (positions lead to the same tier).
    pub loopy: bool,
    /// 0 for tiers without children; otherwise one more than the highest child level.
    pub level: usize,
}

/// What is wrong with a tier graph.
#[derive(Debug, thiserror::Error)]
pub enum TierGraphError {
    /// The module failed while describing tiers.
    #[error(transparent)]
    Module(#[from] ModuleError),
    /// A cycle between distinct tiers: no order solves children first.
    #[error("the tier graph has a cycle: {}; tiers must form a DAG (a tier may only list itself)", describe_cycle(.0))]
    Cycle(Vec<(Tier, String)>),
    /// `BAD_TIER` listed as a child.
    #[error("tier_children({0}) lists BAD_TIER; positions of BAD_TIER are never solved and cannot be children")]
    BadTierChild(Tier),
}

fn describe_cycle(c: &[(Tier, String)]) -> String {
    let mut parts: Vec<String> = c.iter().map(|(t, n)| format!("{t} ({n})")).collect();
    if let Some(first) = parts.first().cloned() {
        parts.push(first);
    }
    parts.join(" -> ")
}

/// The tiers reachable from the initial tier, children before parents.
#[derive(Clone, Debug)]
pub struct TierGraph {
    /// Tiers in solve order: every tier after all its children.
    pub order: Vec<TierNode>,
    index: HashMap<Tier, usize>,
}

impl TierGraph {
    /// Discovers the graph from the game's initial tier.
    pub fn discover(game: &GameHandle) -> Result<TierGraph, TierGraphError> {
        let root = game.initial_position()?.tier;
        Self::discover_from(game, root)
    }

    /// Discovers the graph below `root`.
    pub fn discover_from(game: &GameHandle, root: Tier) -> Result<TierGraph, TierGraphError> {
        // Iterative DFS: 0 unseen, 1 on the stack, 2 done. Post-order is a solve order.
        let mut state: HashMap<Tier, u8> = HashMap::new();
        let mut children_of: HashMap<Tier, (Vec<Tier>, bool)> = HashMap::new();
        let mut order: Vec<Tier> = Vec::new();
        let mut stack: Vec<(Tier, usize)> = vec![(root, 0)];
        state.insert(root, 1);
        while let Some(&mut (t, ref mut next)) = stack.last_mut() {
            if let std::collections::hash_map::Entry::Vacant(slot) = children_of.entry(t) {
                let all = game.tier_children(t)?;
                if all.contains(&BAD_TIER) {
                    return Err(TierGraphError::BadTierChild(t));
                }
                let loopy = all.contains(&t);
                let mut kids: Vec<Tier> = Vec::new();
                for c in all {
                    if c != t && !kids.contains(&c) {
                        kids.push(c);
                    }
                }
                slot.insert((kids, loopy));
            }
            let kids = &children_of[&t].0;
            if *next < kids.len() {
                let c = kids[*next];
                *next += 1;
                match state.get(&c).copied().unwrap_or(0) {
                    0 => {
                        state.insert(c, 1);
                        stack.push((c, 0));
                    }
                    1 => {
                        // Back edge: the cycle is the stack from `c` up to `t`.
                        let from = stack.iter().position(|&(s, _)| s == c).unwrap_or(0);
                        let mut cycle = Vec::new();
                        for &(s, _) in &stack[from..] {
                            cycle.push((s, game.tier_name(s)?));
                        }
                        return Err(TierGraphError::Cycle(cycle));
                    }
                    _ => {}
                }
            } else {
                state.insert(t, 2);
                order.push(t);
                stack.pop();
            }
        }
        let mut nodes: Vec<TierNode> = Vec::with_capacity(order.len());
        let mut index: HashMap<Tier, usize> = HashMap::new();
        for t in order {
            let (children, loopy) = children_of.remove(&t).unwrap_or_default();
            let level = children
                .iter()
                .map(|c| nodes[index[c]].level + 1)
                .max()
                .unwrap_or(0);
            index.insert(t, nodes.len());
            nodes.push(TierNode {
                tier: t,
                name: game.tier_name(t)?,
                size: game.tier_size(t)?,
                stored: game.stored_size(t)?,
                children,
                loopy,
                level,
            });
        }
        Ok(TierGraph {
            order: nodes,
            index,
        })
    }

    /// The node of `tier`, if reachable.
    pub fn get(&self, tier: Tier) -> Option<&TierNode> {
        self.index.get(&tier).map(|&i| &self.order[i])
    }

    /// Whether `tier` is reachable from the root.
    pub fn contains(&self, tier: Tier) -> bool {
        self.index.contains_key(&tier)
    }

    /// The parents of `tier` within the graph (tiers listing it as a child).
    pub fn parents(&self, tier: Tier) -> Vec<Tier> {
        self.order
            .iter()
            .filter(|n| n.children.contains(&tier))
            .map(|n| n.tier)
            .collect()
    }

    /// Tiers grouped by level, level 0 first: each group can be solved at once.
    pub fn levels(&self) -> Vec<Vec<Tier>> {
        let max = self.order.iter().map(|n| n.level).max().unwrap_or(0);
        let mut out = vec![Vec::new(); if self.order.is_empty() { 0 } else { max + 1 }];
        for n in &self.order {
            out[n.level].push(n.tier);
        }
        out
    }

    /// The tiers within `k` steps of the game's end (a tier's steps: the longest chain
    /// of tier children below it, its `level`), a graph closed under children.
    pub fn endgame(&self, k: usize) -> TierGraph {
        self.subgraph(|n| n.level <= k)
    }

    /// The tier named `name` (as `tier_name` writes it) and every tier below it, or
    /// `None` when no tier of the graph has that name.
    pub fn below(&self, name: &str) -> Option<TierGraph> {
        let root = self.order.iter().find(|n| n.name == name)?.tier;
        let mut keep: std::collections::HashSet<Tier> = [root].into();
        // Children come before parents in `order`: walk it backwards from the root.
        for n in self.order.iter().rev() {
            if keep.contains(&n.tier) {
                keep.extend(n.children.iter().copied());
            }
        }
        Some(self.subgraph(|n| keep.contains(&n.tier)))
    }

    /// The nodes `keep` accepts, in the same order; `keep` must accept every child of
    /// a node it accepts (levels are kept as they are).
    fn subgraph(&self, keep: impl Fn(&TierNode) -> bool) -> TierGraph {
        let order: Vec<TierNode> = self.order.iter().filter(|n| keep(n)).cloned().collect();
        let index = order.iter().enumerate().map(|(i, n)| (n.tier, i)).collect();
        TierGraph { order, index }
    }

    /// The names of the tiers nearest to `name` (for an error message): those that
    /// share its first characters, at most `max`.
    pub fn names_like(&self, name: &str, max: usize) -> Vec<String> {
        let prefix: String = name.chars().take(3).collect();
        let mut like: Vec<String> = self
            .order
            .iter()
            .filter(|n| n.name.starts_with(&prefix))
            .map(|n| n.name.clone())
            .collect();
        if like.is_empty() {
            like = self.order.iter().map(|n| n.name.clone()).collect();
        }
        like.truncate(max);
        like
    }

    /// Total number of stored indices over all tiers (canonical positions where the
    /// module numbers them first).
    pub fn total_stored(&self) -> u64 {
        self.order.iter().map(|n| n.stored).sum()
    }

    /// Total number of positions over all tiers.
    pub fn total_positions(&self) -> u64 {
        self.order.iter().map(|n| n.size).sum()
    }
}
