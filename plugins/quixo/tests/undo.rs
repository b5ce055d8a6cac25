//! Moves and undo moves against each other: every child's undo moves lead back to its
//! parent, every undo move leads to a non-primitive parent that has the position as a
//! child, and the `children`/`parents` fast paths give exactly what the slow paths
//! give. Exhaustive on 3x3 (every edge of the game graph both ways), sampled in many
//! tiers of 4x4 and 5x5. Also checks that the dense ranking round-trips.

use gamesman_plugin_api::{Game, List, Move, Tier, TierPosition, UndoMove, Value};
use quixo::Quixo;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

fn raw_children(g: &Quixo, p: TierPosition) -> BTreeSet<TierPosition> {
    let mut buf = vec![Move::default(); g.properties().max_moves as usize];
    let mut l = List::new(&mut buf);
    g.generate_moves(p, &mut l);
    l.as_slice().iter().map(|&m| g.do_move(p, m)).collect()
}

fn raw_parents(g: &Quixo, c: TierPosition, tier: Tier) -> BTreeSet<TierPosition> {
    let mut buf = vec![UndoMove::default(); g.properties().max_undo_moves as usize];
    let mut l = List::new(&mut buf);
    g.generate_undo_moves_to_tier(c, tier, &mut l);
    assert!(!l.overflowed());
    l.as_slice().iter().map(|&u| g.undo_move(c, u)).collect()
}

fn fast_children(g: &Quixo, p: TierPosition) -> BTreeSet<TierPosition> {
    let mut buf = vec![TierPosition::default(); g.properties().max_moves as usize];
    let mut l = List::new(&mut buf);
    assert!(g.children(p, &mut l));
    l.as_slice().to_vec().into_iter().collect()
}

fn fast_parents(g: &Quixo, c: TierPosition, tier: Tier) -> BTreeSet<TierPosition> {
    let mut buf = vec![TierPosition::default(); g.properties().max_undo_moves as usize];
    let mut l = List::new(&mut buf);
    assert!(g.parents(c, tier, &mut l));
    l.as_slice().to_vec().into_iter().collect()
}

fn canonical(g: &Quixo, s: &BTreeSet<TierPosition>) -> BTreeSet<TierPosition> {
    s.iter().map(|&p| g.canonical_position(p)).collect()
}

/// `(tier, its child tiers)` for every tier of the variant.
fn tier_graph(g: &Quixo) -> Vec<(Tier, Vec<Tier>)> {
    (0..(26 * 26))
        .map(Tier)
        .filter(|&t| g.tier_size(t) > 0)
        .map(|t| {
            let mut buf = vec![Tier::default(); 3];
            let mut l = List::new(&mut buf);
            g.tier_children(t, &mut l);
            (t, l.as_slice().to_vec())
        })
        .collect()
}

/// Checks one position both ways; returns (distinct children, distinct parents found).
fn check(g: &Quixo, graph: &[(Tier, Vec<Tier>)], p: TierPosition) -> (usize, usize) {
    let size = g.tier_size(p.tier);
    assert!(p.position < size);
    // Ranking round-trips through the text form.
    assert_eq!(g.text_to_position(&g.position_to_text(p)).unwrap(), p);
    let mut kids = 0;
    if g.primitive(p) == Value::UNDECIDED {
        let children = raw_children(g, p);
        assert!(!children.is_empty());
        for &c in &children {
            assert!(c.position < g.tier_size(c.tier));
            assert_ne!(g.turn(c), g.turn(p));
            assert!(
                raw_parents(g, c, p.tier).contains(&p),
                "{} -> {}: the undo moves of the child miss the parent",
                g.position_to_text(p),
                g.position_to_text(c)
            );
        }
        assert_eq!(canonical(g, &children), fast_children(g, p));
        kids = children.len();
    }
    let mut parents = 0;
    // Every tier that declares p's tier a child; the tiers with one cube fewer of the
    // player to move have no undo moves to p, which the fast path must agree with.
    for t in graph
        .iter()
        .filter(|(_, kids)| kids.contains(&p.tier))
        .map(|(t, _)| *t)
    {
        let found = raw_parents(g, p, t);
        for &q in &found {
            assert_eq!(q.tier, t);
            assert_eq!(g.primitive(q), Value::UNDECIDED, "a primitive parent");
            assert!(
                raw_children(g, q).contains(&p),
                "{} <- {}: an undo move leads to a position without this child",
                g.position_to_text(p),
                g.position_to_text(q)
            );
        }
        assert_eq!(canonical(g, &found), fast_parents(g, p, t));
        parents += found.len();
    }
    (kids, parents)
}

#[test]
fn every_3x3_edge_is_undone_and_redone() {
    let g = Quixo::new_for_tests("3x3");
    let graph = tier_graph(&g);
    let (mut edges_down, mut edges_up) = (0, 0);
    let mut positions = 0;
    for x in 0..=9u64 {
        for o in 0..=9 - x {
            let t = Tier(x * 10 + o);
            for i in 0..g.tier_size(t) {
                let (down, up) = check(&g, &graph, TierPosition::new(t, i));
                edges_down += down;
                edges_up += up;
                positions += 1;
            }
        }
    }
    assert_eq!(positions, 39_366);
    // Every (parent, child) edge was found from both ends.
    assert_eq!(edges_down, edges_up);
    assert!(edges_down > 100_000);
}

fn sample(variant: &str, per_tier: usize, seed: u64) {
    let mut g = Quixo::new_for_tests(variant);
    let graph = tier_graph(&g);
    let cells = g.geometry().cells as u64;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut checked = 0;
    for x in 0..=cells {
        for o in 0..=cells - x {
            // Every tier on 4x4; every third one on 5x5 to keep the test short, and of
            // those with 7 to 13 blanks (whose numberings, and their parent tiers', take
            // up to 1 s each to build) only the ones without X cubes.
            let blanks = cells - x - o;
            if cells > 16 && ((x + o) % 3 != 0 || ((7..=13).contains(&blanks) && x > 0)) {
                continue;
            }
            let t = Tier(x * (cells + 1) + o);
            let size = g.tier_size(t);
            // (x, o) with x > o is no tier number: those boards live in {o, x}.
            assert_eq!(size > 0, x <= o);
            if size == 0 {
                continue;
            }
            // A new game per 5x5 tier: the numberings of the middle tiers (up to 5.2 M
            // blank patterns) are dropped with it.
            if cells > 16 {
                g = Quixo::new_for_tests(variant);
            }
            for _ in 0..per_tier {
                check(&g, &graph, TierPosition::new(t, rng.gen_range(0..size)));
                checked += 1;
            }
        }
    }
    assert!(checked > 100);
}

#[test]
fn sampled_4x4_positions_in_every_tier() {
    sample("4x4", 40, 4);
}

#[test]
fn sampled_5x5_positions() {
    sample("5x5", 6, 5);
}
