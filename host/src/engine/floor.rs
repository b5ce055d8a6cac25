//! The floor of a module: the calls into it that any solver of the unchanged module
//! must make, made alone and timed, tier by tier. A solve's CPU divided by this floor
//! says how much the solver adds to what the module itself costs.
//!
//! For every tier it makes, on the worker pool:
//! - the scan: every stored index asked whether it is legal and canonical, with the
//!   value and child count of each canonical position (`scan_batch`; under a
//!   canonical prefix only the prefix, as the solver does);
//! - the children of every position the scan left undecided (`children_batch`), and
//!   where the module offers it, the same through the fused call
//!   (`scan_children_batch`, which replaces the scan);
//! - where the module gives undo moves, the parents of every canonical position in
//!   each parent tier (`parents_batch`): a retrograde solver's other way to its edges.
//!
//! The floor of a tier is the cheapest complete way: scan plus children, the fused
//! scan, or scan plus parents. CPU is the process's (user + system, every thread).
//! This file must not solve, store or compare values; it only counts and times.

use crate::engine::clock::process_cpu;
use crate::engine::game::{GameHandle, ModuleError};
use crate::engine::tier::{TierGraph, TierNode};
use gamesman_plugin_api::ffi::ScanRecord;
use gamesman_plugin_api::{Tier, TierPosition, Value};
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// Indices per scan call (as the solver's scan).
const SCAN_CHUNK: u64 = 2048;
/// Positions per children, fused or parents call.
const BATCH: usize = 64;

/// What went wrong while measuring a floor.
#[derive(Debug, thiserror::Error)]
pub enum FloorError {
    /// A module call failed or answered out of its contract.
    #[error(transparent)]
    Module(#[from] ModuleError),
    /// The module's answers disagree with each other.
    #[error("{0}")]
    Inconsistent(String),
}

/// The floor of one tier.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TierFloor {
    /// The tier.
    pub tier: u64,
    /// Its name.
    pub name: String,
    /// Indices scanned (its stored size).
    pub indices: u64,
    /// Legal canonical positions.
    pub canonical: u64,
    /// Of them, the primitive ones and those without moves.
    pub decided: u64,
    /// Positions whose children are needed (neither primitive nor without moves).
    pub expanded: u64,
    /// Distinct canonical children of the expanded positions, in all.
    pub children: u64,
    /// Parents found through undo moves, in every parent tier (none without undo moves).
    pub parents: Option<u64>,
    /// CPU of the scan, in seconds.
    pub scan_cpu_s: f64,
    /// CPU of the children calls.
    pub children_cpu_s: f64,
    /// CPU of the fused scan with children, where the module offers it.
    pub fused_cpu_s: Option<f64>,
    /// CPU of the parents calls, where the module gives undo moves.
    pub parents_cpu_s: Option<f64>,
    /// The cheapest complete way: min(scan + children, fused, scan + parents).
    pub floor_cpu_s: f64,
    /// Wall time of all the tier's passes.
    pub wall_s: f64,
}

/// The floor of a set of tiers.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Floor {
    /// Each tier, children first.
    pub tiers: Vec<TierFloor>,
    /// Sum of the tiers' floors, in CPU seconds.
    pub floor_cpu_s: f64,
    /// Legal canonical positions in all.
    pub canonical: u64,
    /// Expanded positions in all.
    pub expanded: u64,
    /// Children in all.
    pub children: u64,
}

/// Measures the floor of every tier of `graph`; `each` sees every tier as it is done.
pub fn measure(
    game: &GameHandle,
    graph: &TierGraph,
    mut each: impl FnMut(&TierFloor),
) -> Result<Floor, FloorError> {
    let mut floor = Floor::default();
    for node in &graph.order {
        let mut parent_tiers = graph.parents(node.tier);
        if node.loopy {
            parent_tiers.push(node.tier);
        }
        let t = measure_tier(game, node, &parent_tiers)?;
        each(&t);
        floor.floor_cpu_s += t.floor_cpu_s;
        floor.canonical += t.canonical;
        floor.expanded += t.expanded;
        floor.children += t.children;
        floor.tiers.push(t);
    }
    Ok(floor)
}

/// One bit per stored index: which are canonical, which need their children.
struct Marks {
    canonical: Vec<AtomicU64>,
    expanded: Vec<AtomicU64>,
}

impl Marks {
    fn new(n: u64) -> Marks {
        let words = n.div_ceil(64) as usize;
        let make = || (0..words).map(|_| AtomicU64::new(0)).collect();
        Marks {
            canonical: make(),
            expanded: make(),
        }
    }

    /// The set indices of `bits`, in order.
    fn list(bits: &[AtomicU64]) -> Vec<u64> {
        let mut out = Vec::new();
        for (w, word) in bits.iter().enumerate() {
            let mut b = word.load(Relaxed);
            while b != 0 {
                out.push(w as u64 * 64 + b.trailing_zeros() as u64);
                b &= b - 1;
            }
        }
        out
    }
}

/// Counts a scan chunk's records into the marks; returns (canonical, decided, expanded).
fn mark(records: &[ScanRecord], first: u64, marks: &Marks) -> (u64, u64, u64) {
    let (mut canonical, mut decided, mut expanded) = (0, 0, 0);
    for (k, r) in records.iter().enumerate() {
        if r.value == ScanRecord::SKIP {
            continue;
        }
        let i = first + k as u64;
        let bit = 1u64 << (i % 64);
        canonical += 1;
        marks.canonical[(i / 64) as usize].fetch_or(bit, Relaxed);
        if r.value != Value::UNDECIDED.0 || r.children == 0 {
            decided += 1;
        } else {
            expanded += 1;
            marks.expanded[(i / 64) as usize].fetch_or(bit, Relaxed);
        }
    }
    (canonical, decided, expanded)
}

fn measure_tier(
    game: &GameHandle,
    node: &TierNode,
    parent_tiers: &[Tier],
) -> Result<TierFloor, FloorError> {
    let wall = Instant::now();
    let n = node.stored;
    let tier = node.tier;
    let max_moves = game.properties().max_moves as usize;
    let marks = Marks::new(n);

    // The scan.
    let cpu = process_cpu();
    let chunks = n.div_ceil(SCAN_CHUNK);
    let (canonical, decided, expanded) = (0..chunks)
        .into_par_iter()
        .map_init(
            || vec![ScanRecord::default(); SCAN_CHUNK as usize],
            |buf, c| -> Result<(u64, u64, u64), FloorError> {
                let first = c * SCAN_CHUNK;
                let out = &mut buf[..SCAN_CHUNK.min(n - first) as usize];
                game.scan_batch(tier, first, out)?;
                Ok(mark(out, first, &marks))
            },
        )
        .try_reduce(|| (0, 0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1, a.2 + b.2)))?;
    let scan_cpu_s = process_cpu() - cpu;

    // The children of every expanded position.
    let expanded_list = Marks::list(&marks.expanded);
    let cpu = process_cpu();
    let children: u64 = expanded_list
        .par_chunks(BATCH)
        .map_init(
            || {
                (
                    vec![TierPosition::default(); BATCH * max_moves],
                    vec![0u32; BATCH],
                )
            },
            |(kids, counts), batch| -> Result<u64, FloorError> {
                let counts = &mut counts[..batch.len()];
                game.children_batch(tier, batch, &mut kids[..batch.len() * max_moves], counts)?;
                Ok(counts.iter().map(|&c| c as u64).sum())
            },
        )
        .try_reduce(|| 0, |a, b| Ok(a + b))?;
    let children_cpu_s = process_cpu() - cpu;
    drop(expanded_list);

    let fused = fused_scan(game, node, max_moves)?;
    if let Some((_, fused_children)) = fused {
        if fused_children != children {
            return Err(FloorError::Inconsistent(format!(
                "tier {} ({}): scan_children_batch gave {fused_children} children, children_batch {children}",
                tier, node.name
            )));
        }
    }

    let parents = if game.has_undo_moves() && !parent_tiers.is_empty() {
        let list = Marks::list(&marks.canonical);
        let cpu = process_cpu();
        let mut found = 0;
        for &p in parent_tiers {
            found += parents_in(game, tier, &list, p)?;
        }
        Some((found, process_cpu() - cpu))
    } else if game.has_undo_moves() {
        // The initial tier, not loopy: nothing sends values above it.
        Some((0, 0.0))
    } else {
        None
    };

    let mut floor_cpu_s = scan_cpu_s + children_cpu_s;
    if let Some((cpu, _)) = fused {
        floor_cpu_s = floor_cpu_s.min(cpu);
    }
    if let Some((_, cpu)) = parents {
        floor_cpu_s = floor_cpu_s.min(scan_cpu_s + cpu);
    }
    Ok(TierFloor {
        tier: tier.0,
        name: node.name.clone(),
        indices: n,
        canonical,
        decided,
        expanded,
        children,
        parents: parents.map(|p| p.0),
        scan_cpu_s,
        children_cpu_s,
        fused_cpu_s: fused.map(|f| f.0),
        parents_cpu_s: parents.map(|p| p.1),
        floor_cpu_s,
        wall_s: wall.elapsed().as_secs_f64(),
    })
}

/// The fused scan (`scan_children_batch`) over the whole tier: its CPU and the
/// children it gave, or `None` when the module does not offer it.
fn fused_scan(
    game: &GameHandle,
    node: &TierNode,
    max_moves: usize,
) -> Result<Option<(f64, u64)>, FloorError> {
    let n = node.stored;
    if n == 0 {
        return Ok(None);
    }
    // Asked once on the first batch: modules before plugin-api 0.1.8 say no.
    let mut probe = vec![ScanRecord::default(); BATCH.min(n as usize)];
    let mut kids = vec![TierPosition::default(); probe.len() * max_moves];
    if !game.scan_children_batch(node.tier, 0, &mut probe, &mut kids)? {
        return Ok(None);
    }
    let cpu = process_cpu();
    let batches = n.div_ceil(BATCH as u64);
    let children = (0..batches)
        .into_par_iter()
        .map_init(
            || {
                (
                    vec![ScanRecord::default(); BATCH],
                    vec![TierPosition::default(); BATCH * max_moves],
                )
            },
            |(recs, kids), b| -> Result<u64, FloorError> {
                let first = b * BATCH as u64;
                let len = (BATCH as u64).min(n - first) as usize;
                let out = &mut recs[..len];
                if !game.scan_children_batch(node.tier, first, out, &mut kids[..len * max_moves])? {
                    return Err(FloorError::Inconsistent(format!(
                        "scan_children_batch gave no children from {}:{first} after giving them before",
                        node.tier
                    )));
                }
                Ok(out
                    .iter()
                    .filter(|r| r.value == Value::UNDECIDED.0)
                    .map(|r| r.children as u64)
                    .sum())
            },
        )
        .try_reduce(|| 0, |a, b| Ok(a + b))?;
    Ok(Some((process_cpu() - cpu, children)))
}

/// Parents in `parent` of every position of `list` (of `tier`), counted.
fn parents_in(
    game: &GameHandle,
    tier: Tier,
    list: &[u64],
    parent: Tier,
) -> Result<u64, FloorError> {
    let room = game.properties().max_undo_moves as usize;
    list.par_chunks(BATCH)
        .map_init(
            || (vec![0u64; BATCH * room], vec![0u32; BATCH]),
            |(parents, counts), batch| -> Result<u64, FloorError> {
                let counts = &mut counts[..batch.len()];
                game.parents_batch(
                    tier,
                    batch,
                    parent,
                    &mut parents[..batch.len() * room],
                    counts,
                )?;
                Ok(counts.iter().map(|&c| c as u64).sum())
            },
        )
        .try_reduce(|| 0, |a, b| Ok(a + b))
}
