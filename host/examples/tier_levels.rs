//! The tier DAG of a game as a distributed solve sees it: per level the tiers and
//! their positions, the largest tier and the memory solving it takes, and the speedup
//! the manager's ready queue (`mpi::schedule`) would reach on N equal nodes if a
//! tier's solve time were proportional to its positions. Numbers for
//! docs/book/src/design/distributed.md; nothing is solved.
//!
//! With `--split POSITIONS` it also models the design of docs/book/src/design/distributed.md for tiers
//! larger than one node: a tier split into index ranges of at most that many
//! positions, solved by several nodes at once, its parents starting when all are done.
//!
//! `cargo run --release -p host --example tier_levels -- PLUGIN VARIANT [NODES...] [--split POSITIONS]`

use gamesman_host::engine::tier::{TierGraph, TierNode};
use gamesman_host::mpi::schedule::Schedule;
use gamesman_plugin_api::Tier;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

/// Bytes a position of the tier being solved takes at the solver's peak, without and
/// with WinBy (see docs/book/src/design/distributed.md: counters 4, records 2, final values 2, own
/// frontier up to 8; WinBy adds turns 1, child counts 4, leaf WinBy 4, WinBy 4,
/// pending 4 and drops the counters before its pass).
const TIER_BYTES: [u64; 2] = [16, 29];
/// Bytes a position of a loaded child tier takes: its records (2, or 6 with WinBy)
/// and its entry in the child frontier (8, for every win, loss or tie).
const CHILD_BYTES: [u64; 2] = [10, 14];

fn main() -> anyhow::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut split: Option<u64> = None;
    if let Some(i) = args.iter().position(|a| a == "--split") {
        anyhow::ensure!(i + 1 < args.len(), "--split needs a number of positions");
        split = Some(args[i + 1].parse()?);
        args.drain(i..i + 2);
    }
    anyhow::ensure!(
        args.len() >= 2,
        "usage: tier_levels PLUGIN VARIANT [NODES...] [--split POSITIONS]"
    );
    let module = gamesman_host::load(&args[0])?;
    let game = module.open(Some(&args[1]))?;
    let nodes: Vec<usize> = if args.len() > 2 {
        args[2..]
            .iter()
            .map(|s| s.parse())
            .collect::<Result<_, _>>()?
    } else {
        vec![1, 2, 8, 64]
    };
    let graph = TierGraph::discover(&game)?;
    let winby = usize::from(game.supports_winby());
    println!(
        "{} {}: {} tiers, {} positions, {} levels",
        game.module_name(),
        game.variant(),
        graph.order.len(),
        graph.total_positions(),
        graph.levels().len()
    );
    println!("| level | tiers | positions | largest tier | its positions |");
    println!("|---:|---:|---:|---|---:|");
    for (l, tiers) in graph.levels().iter().enumerate() {
        let ns: Vec<&TierNode> = tiers.iter().filter_map(|t| graph.get(*t)).collect();
        let big = ns.iter().max_by_key(|n| n.size).expect("a level has tiers");
        println!(
            "| {l} | {} | {} | {} | {} |",
            ns.len(),
            ns.iter().map(|n| n.size).sum::<u64>(),
            big.name,
            big.size
        );
    }
    let peak = graph
        .order
        .iter()
        .map(|n| {
            let kids: u64 = n
                .children
                .iter()
                .filter_map(|c| graph.get(*c))
                .map(|c| c.size)
                .sum();
            (
                n.size * TIER_BYTES[winby] + kids * CHILD_BYTES[winby],
                n,
                kids,
            )
        })
        .max_by_key(|(b, _, _)| *b)
        .expect("a graph has tiers");
    println!(
        "largest memory: tier {} ({}) of {} positions with {} child positions: about {:.1} GB ({} B per position, {} B per child position)",
        peak.1.tier,
        peak.1.name,
        peak.1.size,
        peak.2,
        peak.0 as f64 / 1e9,
        TIER_BYTES[winby],
        CHILD_BYTES[winby]
    );
    let reads: u64 = graph
        .order
        .iter()
        .map(|n| {
            n.children
                .iter()
                .filter_map(|c| graph.get(*c))
                .map(|c| c.size)
                .sum::<u64>()
        })
        .sum();
    println!(
        "child positions read over the whole solve: {reads} ({:.2} per position solved)",
        reads as f64 / graph.total_positions() as f64
    );
    let chain = heaviest_chain(&graph);
    println!(
        "heaviest chain of tiers: {chain} positions, bounding the speedup at {:.1}",
        graph.total_positions() as f64 / chain as f64
    );
    for p in nodes {
        let span = simulate(&graph, p, split.unwrap_or(u64::MAX));
        println!(
            "{p} worker nodes{}: makespan {span} position-times, speedup {:.2}, efficiency {:.0}%",
            split.map_or(String::new(), |s| format!(
                " (tiers split into ranges of at most {s} positions)"
            )),
            graph.total_positions() as f64 / span as f64,
            100.0 * graph.total_positions() as f64 / span as f64 / p as f64
        );
    }
    Ok(())
}

/// The most positions on one path of tiers from a leaf tier to the root.
fn heaviest_chain(graph: &TierGraph) -> u64 {
    let mut best: std::collections::HashMap<Tier, u64> = Default::default();
    for n in &graph.order {
        let below = n.children.iter().map(|c| best[c]).max().unwrap_or(0);
        best.insert(n.tier, below + n.size);
    }
    best.values().copied().max().unwrap_or(0)
}

/// The makespan of the manager's ready queue on `p` workers, a piece of a tier taking
/// as long as it has positions (a node solves one piece at a time; tiers are cut into
/// pieces of at most `split` positions, all of which must finish before a parent can
/// start).
fn simulate(graph: &TierGraph, p: usize, split: u64) -> u64 {
    let todo: HashSet<Tier> = graph.order.iter().map(|n| n.tier).collect();
    let mut schedule = Schedule::new(&graph.order, &todo);
    // Pieces ready to start, in the order their tiers came off the ready queue.
    let mut pieces: std::collections::VecDeque<(Tier, u64)> = Default::default();
    let mut left: std::collections::HashMap<Tier, u64> = Default::default();
    let mut running: BinaryHeap<Reverse<(u64, u64)>> = BinaryHeap::new();
    let mut now = 0u64;
    let mut idle = p;
    while !schedule.is_done() {
        while let Some(t) = schedule.take_ready() {
            let size = graph
                .get(t)
                .expect("scheduled tiers are in the graph")
                .size
                .max(1);
            let k = size.div_ceil(split);
            left.insert(t, k);
            for i in 0..k {
                pieces.push_back((t, split.min(size - i * split)));
            }
        }
        while idle > 0 {
            let Some((t, len)) = pieces.pop_front() else {
                break;
            };
            running.push(Reverse((now + len, t.0)));
            idle -= 1;
        }
        let Reverse((end, t)) = running.pop().expect("work in flight");
        now = end;
        idle += 1;
        let k = left.get_mut(&Tier(t)).expect("a started tier");
        *k -= 1;
        if *k == 0 {
            schedule.solved(Tier(t)).expect("a handed-out tier");
        }
    }
    now
}
