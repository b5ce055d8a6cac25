//! Every position reachable from the initial position, for `analyze --every-position`
//! on games with symmetry: a forward search over the classes of the module's
//! `reach_canonical` (the symmetries that keep the player to move and reachability;
//! none for a module that does not say, and then every position is searched), tier by
//! tier, parents first, loopy tiers round by round.
//!
//! Why not the canonical search (`reach`) weighted by orbit sizes: a symmetry that also
//! swaps the player to move (Quixo's colour swap) maps a reachable position to one
//! that may be unreachable (X moves first, so a board with no X cube and X to move
//! never occurs), and weighting a canonical position by its whole orbit counted those.
//! Here a class is reached only when one of its own positions is, and every member of
//! it then is, with the same player to move.
//!
//! A position's children are its moves' results (`do_move`), none for a primitive, as
//! the solver expands it. This file knows nothing of values or databases.

use crate::engine::game::GameHandle;
use crate::engine::reach::{Bitset, ReachError, Reachable};
use crate::engine::tier::TierGraph;
use gamesman_plugin_api::{Tier, TierPosition, Value};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

/// Positions expanded per parallel task.
const CHUNK: usize = 256;

/// The reachable classes of `reach_canonical`, per tier: each marked index is a
/// class's representative, standing for `reach_orbit_size` positions.
pub fn search(game: &GameHandle, graph: &TierGraph) -> Result<Reachable, ReachError> {
    let start = game.reach_canonical(game.initial_position()?)?;
    let first = graph
        .get(start.tier)
        .ok_or(ReachError::OutsideGraph(start))?;
    if start.position >= first.size {
        return Err(ReachError::PastTierSize(start, first.size));
    }
    let mut open: HashMap<Tier, Bitset> = HashMap::new();
    open.insert(start.tier, Bitset::new(first.size));
    open[&start.tier].insert(start.position);
    let mut tiers = HashMap::with_capacity(graph.order.len());
    // Children first in `order`, so backwards every tier comes after its parents.
    for node in graph.order.iter().rev() {
        let Some(own) = open.remove(&node.tier) else {
            tiers.insert(
                node.tier,
                Arc::new(crate::engine::marks::Marks::empty(node.size)),
            );
            continue;
        };
        for &c in &node.children {
            open.entry(c)
                .or_insert_with(|| Bitset::new(graph.get(c).map_or(0, |n| n.size)));
        }
        let kids: Vec<(Tier, &Bitset)> = node
            .children
            .iter()
            .map(|c| (*c, &open[c]))
            .chain(std::iter::once((node.tier, &own)))
            .collect();
        let mut frontier: Vec<u64> = own.iter().collect();
        while !frontier.is_empty() {
            let fresh: Vec<Vec<u64>> = frontier
                .par_chunks(CHUNK)
                .map(|chunk| -> Result<Vec<u64>, ReachError> {
                    let mut fresh = Vec::new();
                    for &i in chunk {
                        let p = TierPosition::new(node.tier, i);
                        if game.primitive(p)? != Value::UNDECIDED {
                            continue;
                        }
                        for m in game.moves(p)? {
                            let child = game.reach_canonical(game.do_move(p, m)?)?;
                            let Some(&(_, bits)) = kids.iter().find(|k| k.0 == child.tier) else {
                                return Err(if graph.contains(child.tier) {
                                    ReachError::UndeclaredTier(child, node.tier)
                                } else {
                                    ReachError::OutsideGraph(child)
                                });
                            };
                            if child.position >= bits.len() {
                                return Err(ReachError::PastTierSize(child, bits.len()));
                            }
                            if bits.insert(child.position) && child.tier == node.tier {
                                fresh.push(child.position);
                            }
                        }
                    }
                    Ok(fresh)
                })
                .collect::<Result<_, _>>()?;
            frontier = fresh.concat();
        }
        drop(kids);
        tiers.insert(node.tier, Arc::new(own.into_marks()));
    }
    Ok(Reachable { tiers })
}
