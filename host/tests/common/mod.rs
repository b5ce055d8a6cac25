//! Test fixtures for the solver: small games given as explicit graphs, and an
//! independent naive solver to check the real one against.
//!
//! A `GraphGame` is a list of nodes (tier, player to move, primitive value, WinBy,
//! edges); moves are edges, undo moves are reversed edges, and a tier's positions are
//! its nodes in order. Graphs are registered by name and chosen as the variant, so the
//! host runs them through the same adapter as a plugin. Nothing here may call the
//! host's solver.

#![allow(dead_code)]

use gamesman_plugin_api::{
    Game, List, Move, Player, Properties, Tier, TierPosition, UndoMove, Value, VariantInfo,
};
use std::collections::HashMap;
use std::sync::Mutex;

/// One node of a graph game.
#[derive(Clone, Debug)]
pub struct Node {
    /// Its tier.
    pub tier: u64,
    /// Player to move (1 or 2).
    pub turn: u8,
    /// Primitive value (UNDECIDED for inner nodes).
    pub prim: Value,
    /// WinBy of a primitive, from player one's view.
    pub winby: i64,
    /// Children (node ids).
    pub edges: Vec<usize>,
}

/// A game given as a graph.
#[derive(Clone, Debug)]
pub struct Graph {
    /// The nodes; node 0 is the initial position.
    pub nodes: Vec<Node>,
    /// 1 for a puzzle.
    pub players: u8,
    /// Whether WinBy is reported.
    pub winby: bool,
    /// Whether moves may keep the same player.
    pub go_again: bool,
}

static REGISTRY: Mutex<Option<HashMap<String, Graph>>> = Mutex::new(None);

/// Registers a graph under a variant name.
pub fn register(name: &str, g: Graph) {
    REGISTRY
        .lock()
        .unwrap()
        .get_or_insert_with(HashMap::new)
        .insert(name.to_string(), g);
}

/// The game object.
pub struct GraphGame {
    g: Graph,
    /// node id -> (tier, index)
    pos: Vec<TierPosition>,
    /// tier -> node ids
    tiers: HashMap<u64, Vec<usize>>,
    max_moves: u32,
    max_undo: u32,
}

impl GraphGame {
    fn node(&self, p: TierPosition) -> usize {
        self.tiers[&p.tier.0][p.position as usize]
    }
}

impl Game for GraphGame {
    const NAME: &'static str = "graph";
    const AUTHORS: &'static str = "tests";
    const DESCRIPTION: &'static str = "a game given as an explicit graph";

    fn variants() -> Vec<VariantInfo> {
        vec![VariantInfo::new("none", "register a graph first")]
    }

    fn new(variant: &str) -> Result<Self, String> {
        let g = REGISTRY
            .lock()
            .unwrap()
            .as_ref()
            .and_then(|m| m.get(variant).cloned())
            .ok_or_else(|| format!("no graph '{variant}'"))?;
        let mut tiers: HashMap<u64, Vec<usize>> = HashMap::new();
        let mut pos = Vec::new();
        for (i, n) in g.nodes.iter().enumerate() {
            let list = tiers.entry(n.tier).or_default();
            pos.push(TierPosition::new(Tier(n.tier), list.len() as u64));
            list.push(i);
        }
        let mut indeg = vec![0u32; g.nodes.len()];
        for n in &g.nodes {
            for &e in &n.edges {
                indeg[e] += 1;
            }
        }
        let max_moves = g
            .nodes
            .iter()
            .map(|n| n.edges.len() as u32)
            .max()
            .unwrap_or(1);
        let max_undo = indeg.into_iter().max().unwrap_or(1);
        Ok(GraphGame {
            g,
            pos,
            tiers,
            max_moves,
            max_undo,
        })
    }

    fn properties(&self) -> Properties {
        Properties {
            players: self.g.players,
            is_tier_game: true,
            supports_winby: self.g.winby,
            go_again: self.g.go_again,
            max_moves: self.max_moves.max(1),
            max_undo_moves: self.max_undo.max(1),
            max_tier_children: 64,
            ..Properties::default()
        }
    }

    fn initial_position(&self) -> TierPosition {
        self.pos[0]
    }

    fn primitive(&self, p: TierPosition) -> Value {
        self.g.nodes[self.node(p)].prim
    }

    fn generate_moves(&self, p: TierPosition, moves: &mut List<'_, Move>) {
        for &e in &self.g.nodes[self.node(p)].edges {
            moves.push(Move(e as u64));
        }
    }

    fn do_move(&self, _p: TierPosition, m: Move) -> TierPosition {
        self.pos[m.0 as usize]
    }

    fn turn(&self, p: TierPosition) -> Player {
        Player(self.g.nodes[self.node(p)].turn)
    }

    fn board_to_text(&self, p: TierPosition) -> String {
        format!("node {}", self.node(p))
    }

    fn move_to_text(&self, _p: TierPosition, m: Move) -> String {
        format!("n{}", m.0)
    }

    fn tier_children(&self, tier: Tier, children: &mut List<'_, Tier>) {
        let mut seen: Vec<u64> = Vec::new();
        for &i in &self.tiers[&tier.0] {
            for &e in &self.g.nodes[i].edges {
                let t = self.g.nodes[e].tier;
                if !seen.contains(&t) {
                    seen.push(t);
                }
            }
        }
        seen.sort();
        for t in seen {
            children.push(Tier(t));
        }
    }

    fn tier_size(&self, tier: Tier) -> u64 {
        self.tiers.get(&tier.0).map_or(0, |l| l.len() as u64)
    }

    fn generate_undo_moves_to_tier(
        &self,
        p: TierPosition,
        tier: Tier,
        undo: &mut List<'_, UndoMove>,
    ) {
        let me = self.node(p);
        for (i, n) in self.g.nodes.iter().enumerate() {
            if n.tier == tier.0 && n.prim == Value::UNDECIDED && n.edges.contains(&me) {
                undo.push(UndoMove(i as u64));
            }
        }
    }

    fn undo_move(&self, _p: TierPosition, u: UndoMove) -> TierPosition {
        self.pos[u.0 as usize]
    }

    fn win_by(&self, p: TierPosition) -> i64 {
        self.g.nodes[self.node(p)].winby
    }
}

/// What the naive solver computes per node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    pub value: Value,
    pub remoteness: u32,
}

/// An independent solver: level by level over the whole graph, no tiers, no undo moves.
/// A node wins at level k if a child is (from its mover's view) a loss decided at k-1
/// and it was not decided before; loses at k if every child is a win decided before k
/// and one at k-1; ties likewise after all wins and losses; the rest are draws.
pub fn naive_solve(g: &Graph) -> Vec<Solved> {
    let n = g.nodes.len();
    let mut out: Vec<Option<Solved>> = vec![None; n];
    let view = |parent: usize, child: usize, v: Value| -> Value {
        // Without go-again every move hands the turn over, whatever `turn` says.
        if g.players == 1 || (g.go_again && g.nodes[parent].turn == g.nodes[child].turn) {
            v
        } else {
            v.invert()
        }
    };
    for (i, node) in g.nodes.iter().enumerate() {
        if node.prim != Value::UNDECIDED {
            out[i] = Some(Solved {
                value: node.prim,
                remoteness: 0,
            });
        } else if node.edges.is_empty() {
            out[i] = Some(Solved {
                value: Value::LOSE,
                remoteness: 0,
            });
        }
    }
    let mut k = 1;
    loop {
        let mut changed = false;
        let snapshot = out.clone();
        for i in 0..n {
            if snapshot[i].is_some() {
                continue;
            }
            let kids = &g.nodes[i].edges;
            let win_now = kids.iter().any(|&c| {
                matches!(snapshot[c], Some(s) if s.remoteness == k - 1 && view(i, c, s.value) == Value::WIN)
            });
            let all_lose = kids
                .iter()
                .all(|&c| matches!(snapshot[c], Some(s) if view(i, c, s.value) == Value::LOSE));
            let max_r = kids
                .iter()
                .filter_map(|&c| snapshot[c])
                .map(|s| s.remoteness)
                .max();
            if win_now {
                out[i] = Some(Solved {
                    value: Value::WIN,
                    remoteness: k,
                });
                changed = true;
            } else if all_lose && max_r == Some(k - 1) {
                out[i] = Some(Solved {
                    value: Value::LOSE,
                    remoteness: k,
                });
                changed = true;
            }
        }
        let pending = out.iter().enumerate().any(|(i, s)| {
            s.is_none()
                && g.nodes[i]
                    .edges
                    .iter()
                    .any(|&c| matches!(out[c], Some(x) if x.remoteness >= k))
        });
        if !changed && !pending {
            break;
        }
        k += 1;
    }
    // Ties among what is left, by level.
    let mut k = 1;
    loop {
        let snapshot = out.clone();
        let mut changed = false;
        for i in 0..n {
            if snapshot[i].is_some() {
                continue;
            }
            if g.nodes[i].edges.iter().any(|&c| {
                matches!(snapshot[c], Some(s) if s.value == Value::TIE && s.remoteness == k - 1)
            }) {
                out[i] = Some(Solved { value: Value::TIE, remoteness: k });
                changed = true;
            }
        }
        let more = out
            .iter()
            .any(|s| matches!(s, Some(x) if x.value == Value::TIE && x.remoteness >= k));
        if !changed && !more {
            break;
        }
        k += 1;
    }
    out.into_iter()
        .map(|s| {
            s.unwrap_or(Solved {
                value: Value::DRAW,
                remoteness: 0,
            })
        })
        .collect()
}

/// Naive WinBy for graphs without cycles among decided nodes: max over decided children
/// when player one moves, min when player two moves.
pub fn naive_winby(g: &Graph, solved: &[Solved]) -> Vec<Option<i64>> {
    fn go(g: &Graph, s: &[Solved], i: usize, memo: &mut Vec<Option<Option<i64>>>) -> Option<i64> {
        if let Some(v) = memo[i] {
            return v;
        }
        let decided = |v: Value| v == Value::WIN || v == Value::LOSE || v == Value::TIE;
        let r = if !decided(s[i].value) {
            None
        } else if g.nodes[i].edges.is_empty() || g.nodes[i].prim != Value::UNDECIDED {
            Some(g.nodes[i].winby)
        } else {
            let vals: Vec<i64> = g.nodes[i]
                .edges
                .iter()
                .filter(|&&c| decided(s[c].value))
                .filter_map(|&c| go(g, s, c, memo))
                .collect();
            if g.nodes[i].turn == 1 {
                vals.into_iter().max()
            } else {
                vals.into_iter().min()
            }
            .or(Some(0))
        };
        memo[i] = Some(r);
        r
    }
    let mut memo = vec![None; g.nodes.len()];
    (0..g.nodes.len())
        .map(|i| go(g, solved, i, &mut memo))
        .collect()
}

/// A small deterministic pseudo-random generator (xorshift), so tests need no crate.
pub struct Rng(pub u64);

impl Rng {
    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Naive WinBy by the solver's rules, cycles included: leaves take their margin; a
/// decided inner node "finishes" once every decided child in its own tier has, and then
/// takes the extreme (max for player one, min for player two) over all its decided
/// children; a decided node that never finishes (it lies on, or waits for, a cycle of
/// decided nodes) takes the extreme over its decided children in other tiers and those
/// in its tier that finished, or 0 without any. Tiers are numbered so that moves go to
/// the same or a lower tier. Also returns which nodes never finished.
pub fn naive_winby_loopy(g: &Graph, s: &[Solved]) -> (Vec<Option<i64>>, Vec<bool>) {
    let n = g.nodes.len();
    let decided = |i: usize| matches!(s[i].value, Value::WIN | Value::LOSE | Value::TIE);
    let leaf = |i: usize| g.nodes[i].prim != Value::UNDECIDED || g.nodes[i].edges.is_empty();
    let mut w: Vec<Option<i64>> = vec![None; n];
    let mut finished = vec![false; n];
    let extreme = |i: usize, vals: Vec<i64>| -> i64 {
        if g.nodes[i].turn == 1 {
            vals.into_iter().max()
        } else {
            vals.into_iter().min()
        }
        .unwrap_or(0)
    };
    let mut tiers: Vec<u64> = g.nodes.iter().map(|x| x.tier).collect();
    tiers.sort();
    tiers.dedup();
    for t in tiers {
        let members: Vec<usize> = (0..n)
            .filter(|&i| g.nodes[i].tier == t && decided(i))
            .collect();
        // Waves: whatever has every decided same-tier child finished finishes next.
        loop {
            let ready: Vec<usize> = members
                .iter()
                .copied()
                .filter(|&i| !finished[i])
                .filter(|&i| {
                    leaf(i)
                        || g.nodes[i]
                            .edges
                            .iter()
                            .all(|&c| g.nodes[c].tier != t || !decided(c) || finished[c])
                })
                .collect();
            if ready.is_empty() {
                break;
            }
            for &i in &ready {
                w[i] = Some(if leaf(i) {
                    g.nodes[i].winby
                } else {
                    let vals = g.nodes[i]
                        .edges
                        .iter()
                        .filter(|&&c| decided(c))
                        .map(|&c| w[c].expect("finished children have a margin"))
                        .collect();
                    extreme(i, vals)
                });
                finished[i] = true;
            }
        }
        for &i in members.iter().filter(|&&i| !finished[i]) {
            let vals = g.nodes[i]
                .edges
                .iter()
                .filter(|&&c| decided(c) && (g.nodes[c].tier != t || finished[c]))
                .map(|&c| w[c].expect("finished children have a margin"))
                .collect();
            w[i] = Some(extreme(i, vals));
        }
    }
    let cyclic = (0..n).map(|i| decided(i) && !finished[i]).collect();
    (w, cyclic)
}
