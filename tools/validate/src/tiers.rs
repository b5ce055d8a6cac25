//! Check 1: discovering the tiers reachable from the initial tier, with their names,
//! sizes, declared children and parents, and checking that they form a DAG apart from
//! self-loops.
//!
//! Discovery is lenient: a module that fails while describing a tier gets a finding and
//! the validator goes on with what it learned, so later checks still run. The DAG's
//! levels come from the host's own `TierGraph`, so the validator reports exactly the
//! levels the solver will use. This file asks the module only about tiers, never about
//! positions other than the initial one.

use crate::findings::{Check, Finding, FindingSink, PositionRef, Severity, TierRef};
use gamesman_host::engine::tier::{TierGraph, TierGraphError};
use gamesman_host::GameHandle;
use gamesman_plugin_api::{Tier, TierPosition, BAD_TIER};
use std::collections::{HashMap, VecDeque};

/// More tiers than this are taken to mean `tier_children` never bottoms out.
const MAX_TIERS: usize = 1_000_000;

/// One reachable tier.
#[derive(Clone, Debug)]
pub struct TierInfo {
    /// The tier.
    pub tier: Tier,
    /// The module's name for it.
    pub name: String,
    /// Number of positions in its hash (0 if `tier_size` failed).
    pub size: u64,
    /// Declared child tiers, itself and `BAD_TIER` excluded, in the module's order.
    pub children: Vec<Tier>,
    /// Reachable tiers that declare this one as a child, itself excluded.
    pub parents: Vec<Tier>,
    /// Whether it declares itself as a child.
    pub loopy: bool,
    /// Its level in the DAG (0: no children), when the graph is a DAG.
    pub level: Option<usize>,
}

/// The reachable tiers, in discovery order (breadth first from the initial tier).
#[derive(Clone, Debug)]
pub struct TierMap {
    /// The initial position.
    pub initial: TierPosition,
    /// The tiers, initial tier first.
    pub tiers: Vec<TierInfo>,
    index: HashMap<Tier, usize>,
    /// Tiers grouped by DAG level (level 0 first), when the graph is a DAG.
    pub levels: Option<Vec<Vec<Tier>>>,
    /// A cycle between distinct tiers, when there is one.
    pub cycle: Option<Vec<Tier>>,
}

impl TierMap {
    /// Discovers the tiers reachable from the initial position, reporting problems as
    /// check-1 findings. `None` when there is no usable initial position.
    pub fn discover(game: &GameHandle, sink: &FindingSink) -> Option<TierMap> {
        let initial = match game.initial_position() {
            Ok(p) if p.tier == BAD_TIER => {
                sink.add(tier_finding(
                    None,
                    "the initial position lies in BAD_TIER, which no solver touches".into(),
                    "the initial position in a real tier".into(),
                ));
                return None;
            }
            Ok(p) => p,
            Err(e) => {
                sink.add(tier_finding(
                    None,
                    format!("initial_position failed: {}", e.message),
                    "a position inside its tier's range".into(),
                ));
                return None;
            }
        };
        let mut map = TierMap {
            initial,
            tiers: Vec::new(),
            index: HashMap::new(),
            levels: None,
            cycle: None,
        };
        map.explore(game, sink);
        map.link_parents();
        map.check_dag(game, sink);
        map.check_initial(game, sink);
        Some(map)
    }

    fn explore(&mut self, game: &GameHandle, sink: &FindingSink) {
        let mut queue = VecDeque::from([self.initial.tier]);
        self.index.insert(self.initial.tier, 0);
        while let Some(t) = queue.pop_front() {
            let name = game.tier_name(t).unwrap_or_else(|e| {
                sink.add(tier_finding(
                    Some(tier_ref(t, &t.to_string())),
                    format!("tier_name failed: {}", e.message),
                    "a name for every reachable tier".into(),
                ));
                t.to_string()
            });
            let here = Some(tier_ref(t, &name));
            let size = game.tier_size(t).unwrap_or_else(|e| {
                sink.add(tier_finding(
                    here.clone(),
                    format!("tier_size failed: {}", e.message),
                    "the size of every reachable tier".into(),
                ));
                0
            });
            let declared = game.tier_children(t).unwrap_or_else(|e| {
                sink.add(tier_finding(
                    here.clone(),
                    format!("tier_children failed: {}", e.message),
                    "the child tiers of every reachable tier".into(),
                ));
                Vec::new()
            });
            let mut children = Vec::new();
            let mut loopy = false;
            for c in declared {
                if c == BAD_TIER {
                    sink.add(tier_finding(
                        here.clone(),
                        "tier_children lists BAD_TIER, whose positions are never solved".into(),
                        "only real tiers as children".into(),
                    ));
                } else if c == t {
                    loopy = true;
                } else if !children.contains(&c) {
                    children.push(c);
                }
            }
            for &c in &children {
                if !self.index.contains_key(&c) {
                    if self.index.len() >= MAX_TIERS {
                        sink.add(tier_finding(
                            here.clone(),
                            format!("more than {MAX_TIERS} tiers are reachable; stopped exploring"),
                            "tier_children to bottom out in a finite set of tiers".into(),
                        ));
                        queue.clear();
                        break;
                    }
                    self.index.insert(c, self.index.len());
                    queue.push_back(c);
                }
            }
            self.tiers.push(TierInfo {
                tier: t,
                name,
                size,
                children,
                parents: Vec::new(),
                loopy,
                level: None,
            });
        }
        // Stopping early leaves indexed tiers that were never described.
        self.index.retain(|_, &mut i| i < self.tiers.len());
        for info in &mut self.tiers {
            let index = &self.index;
            info.children.retain(|c| index.contains_key(c));
        }
    }

    fn link_parents(&mut self) {
        let edges: Vec<(Tier, Tier)> = self
            .tiers
            .iter()
            .flat_map(|n| n.children.iter().map(move |&c| (n.tier, c)))
            .collect();
        for (parent, child) in edges {
            let i = self.index[&child];
            self.tiers[i].parents.push(parent);
        }
    }

    fn check_dag(&mut self, game: &GameHandle, sink: &FindingSink) {
        match TierGraph::discover(game) {
            Ok(graph) => {
                self.levels = Some(graph.levels());
                for info in &mut self.tiers {
                    info.level = graph.get(info.tier).map(|n| n.level);
                }
            }
            Err(TierGraphError::Cycle(cycle)) => {
                let shown: Vec<String> = cycle
                    .iter()
                    .chain(cycle.first())
                    .map(|(t, name)| format!("{t} ({name})"))
                    .collect();
                let first = cycle.first().map(|(t, name)| tier_ref(*t, name));
                sink.add(tier_finding(
                    first,
                    format!("the tier graph has a cycle: {}", shown.join(" -> ")),
                    "a DAG: a tier may list itself as a child, but no tier may lead back to one of its ancestors".into(),
                ));
                self.cycle = Some(cycle.into_iter().map(|(t, _)| t).collect());
            }
            // Module failures and BAD_TIER children were reported during discovery.
            Err(e) => log::debug!("the host's tier graph failed: {e}"),
        }
    }

    fn check_initial(&self, game: &GameHandle, sink: &FindingSink) {
        let p = self.initial;
        let tier = self.get(p.tier).map(|n| tier_ref(n.tier, &n.name));
        match game.is_legal(p) {
            Ok(true) => {}
            Ok(false) => {
                let text = game
                    .position_to_text(p)
                    .unwrap_or_else(|e| format!("(no text: {})", e.message));
                sink.add(Finding {
                    position: Some(PositionRef {
                        index: p.position,
                        text,
                    }),
                    ..tier_finding(
                        tier,
                        "the initial position is illegal (is_legal says false), so the solver would skip it".into(),
                        "the initial position to be legal".into(),
                    )
                });
            }
            Err(e) => sink.add(tier_finding(
                tier,
                format!("is_legal failed on the initial position: {}", e.message),
                "is_legal to answer for the initial position".into(),
            )),
        }
    }

    /// The tier's entry, if reachable.
    pub fn get(&self, t: Tier) -> Option<&TierInfo> {
        self.index.get(&t).map(|&i| &self.tiers[i])
    }

    /// The tier's rank in discovery order, if reachable.
    pub fn rank(&self, t: Tier) -> Option<usize> {
        self.index.get(&t).copied()
    }

    /// The tier's name, or its number when it is not reachable.
    pub fn name(&self, t: Tier) -> String {
        self.get(t)
            .map_or_else(|| t.to_string(), |n| n.name.clone())
    }

    /// Whether a move from `from` may lead to `to`: a declared child tier, or `from`
    /// itself when it is loopy.
    pub fn may_lead(&self, from: Tier, to: Tier) -> bool {
        self.get(from).is_some_and(|n| {
            if from == to {
                n.loopy
            } else {
                n.children.contains(&to)
            }
        })
    }

    /// The tiers a parent of a position in `t` may lie in: its parents, and itself when
    /// it is loopy.
    pub fn parent_tiers(&self, t: Tier) -> Vec<Tier> {
        let Some(n) = self.get(t) else {
            return Vec::new();
        };
        let mut out = n.parents.clone();
        if n.loopy {
            out.push(t);
        }
        out
    }

    /// Total positions over all reachable tiers (saturating).
    pub fn total_positions(&self) -> u64 {
        self.tiers
            .iter()
            .fold(0u64, |acc, n| acc.saturating_add(n.size))
    }

    /// How many tiers are loopy.
    pub fn loopy_count(&self) -> usize {
        self.tiers.iter().filter(|n| n.loopy).count()
    }
}

/// A tier as findings name it.
pub fn tier_ref(t: Tier, name: &str) -> TierRef {
    TierRef {
        number: t.0,
        name: name.to_string(),
    }
}

fn tier_finding(tier: Option<TierRef>, problem: String, expected: String) -> Finding {
    let key = (tier.as_ref().map_or(0, |t| t.number), 0, 0);
    Finding {
        check: Check::TierGraph,
        severity: Severity::Error,
        tier,
        position: None,
        mv: None,
        problem,
        expected,
        key,
    }
}
