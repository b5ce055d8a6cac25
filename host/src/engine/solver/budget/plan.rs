//! The memory budget: for every tier the fastest way of solving it whose estimated
//! peak fits (`SolveMode`, from holding child tiers whole to streaming them from
//! scratch files), the plan a solve follows and `solve --plan` prints, and the
//! refusal, with its figures, when even the leanest way does not fit. Also the
//! measured peak (the process's resident high-water mark; never reset, so that
//! `getrusage` and `time -v` still see the whole run's).
//!
//! The estimates come from `memory` (the solver's arrays byte for byte); this file
//! only chooses, and must not solve or store anything.

use super::memory::{order_bytes, record_bytes, MemoryCheck};
use super::system::{self, cgroup_room};
use crate::engine::game::GameHandle;
use crate::engine::solver::base::need::{SLACK_DIVISOR, SLACK_FIXED};
use crate::engine::solver::base::{bytes, MemoryError, TierNeed};
use crate::engine::solver::input::{runs, Shape, VERIFY_CACHE};
use crate::engine::solver::schedule::{Schedule, Waiting};
use crate::engine::solver::tier::need::own_need;
use crate::engine::solver::tier::onebyte;
use crate::engine::solver::tier::recipe::SolveMode;
use crate::engine::tier::{TierGraph, TierNode};
use gamesman_plugin_api::Tier;
use std::collections::HashSet;

/// The default budget is this share of the machine's memory, in percent.
pub const DEFAULT_SHARE: u64 = 90;

/// The share of a budget of `bytes` offered to the module's own caches: a sixteenth,
/// at most 512 MiB.
pub fn module_share(bytes: u64) -> u64 {
    (bytes / 16).min(512 << 20)
}

/// How much memory a solve may use, and where the figure comes from.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Bytes.
    pub bytes: u64,
    /// Where the figure comes from, for messages.
    pub source: String,
}

/// The budget: `--memory-limit`, else `DEFAULT_SHARE` % of the machine's memory
/// (`MemTotal`); lowered to a cgroup's room or the address-space room (`ulimit -v`)
/// when either is smaller, since past them the process is killed or its allocations
/// fail whatever was asked (`None` when no figure is known). Both rooms are of the
/// whole process: what it holds now counts in the plan's `process` part, not twice.
pub fn budget(options: &MemoryCheck) -> Option<Budget> {
    let mut best = match options.limit {
        Some(limit) => Budget {
            bytes: limit,
            source: "--memory-limit".into(),
        },
        None => Budget {
            bytes: system::total()? / 100 * DEFAULT_SHARE,
            source: format!("{DEFAULT_SHARE}% of MemTotal in /proc/meminfo"),
        },
    };
    let own = system::resident().unwrap_or(0);
    for (room, source) in [cgroup_room(), system::address_space_room()]
        .into_iter()
        .flatten()
    {
        let room = room.saturating_add(own);
        if room < best.bytes {
            best = Budget {
                bytes: room,
                source,
            };
        }
    }
    Some(best)
}

/// One tier's way of solving and the estimated peak of the process while it is
/// solved (with the other tiers of its group, for small tiers solved side by side).
#[derive(Clone, Debug, serde::Serialize)]
pub struct TierPlan {
    /// The tier.
    #[serde(skip)]
    pub tier: Tier,
    /// Its name.
    pub name: String,
    /// The positions it solves and stores (its canonical prefix where the module
    /// numbers canonical positions first).
    pub positions: u64,
    /// Its way of solving.
    #[serde(serialize_with = "mode_name")]
    pub mode: SolveMode,
    /// The estimated peak while it is solved.
    pub peak_bytes: u64,
    /// Whether that fits the budget.
    pub fits: bool,
    /// What the budget leaves the tier beyond the group's estimated peak, shared
    /// among the tiers of the group solved at once (0 without a budget or a fit).
    #[serde(skip)]
    pub room: u64,
    /// The parts of the group's need.
    #[serde(skip)]
    pub need: TierNeed,
}

fn mode_name<S: serde::Serializer>(m: &SolveMode, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(m.name())
}

/// Every tier's way of solving, in the order they are solved.
#[derive(Clone, Debug)]
pub struct SolvePlan {
    /// The tiers.
    pub tiers: Vec<TierPlan>,
    /// The budget planned against.
    pub budget: Option<Budget>,
}

impl SolvePlan {
    /// The largest estimated peak.
    pub fn peak(&self) -> u64 {
        self.tiers.iter().map(|t| t.peak_bytes).max().unwrap_or(0)
    }

    /// The way tier `t` is solved (whole when it is not planned).
    pub fn mode_of(&self, t: Tier) -> SolveMode {
        self.tiers
            .iter()
            .find(|p| p.tier == t)
            .map_or(SolveMode::Whole, |p| p.mode)
    }

    /// What the budget leaves tier `t` beyond its estimated need (0 when not planned).
    pub fn room_of(&self, t: Tier) -> u64 {
        self.tiers
            .iter()
            .find(|p| p.tier == t)
            .map_or(0, |p| p.room)
    }

    /// The estimated peak of tier `t`'s group.
    pub fn peak_of(&self, t: Tier) -> u64 {
        self.tiers
            .iter()
            .find(|p| p.tier == t)
            .map_or(0, |p| p.peak_bytes)
    }

    /// The refusal of a plan with a tier that does not fit even in its leanest way
    /// (the tier with the largest need); `Ok` with `--ignore-memory-check`.
    pub fn check(&self, options: &MemoryCheck) -> Result<(), MemoryError> {
        let (Some(budget), false) = (&self.budget, options.ignore) else {
            return Ok(());
        };
        let Some(worst) = self
            .tiers
            .iter()
            .filter(|t| !t.fits)
            .max_by_key(|t| t.peak_bytes)
        else {
            return Ok(());
        };
        Err(MemoryError::TooLittle {
            mode: if options.forced.is_some() {
                format!("solved {} (--solve-mode)", worst.mode)
            } else {
                format!("even solved {}, the leanest way", worst.mode)
            },
            tier: worst.tier,
            name: worst.name.clone(),
            need: Box::new(worst.need.clone()),
            available: budget.bytes,
            from: budget.source.clone(),
        })
    }
}

/// A tier's own arrays in `mode`: merged counters take nothing of their own.
fn mode_need(game: &GameHandle, node: &TierNode, mode: SolveMode, reverse_graph: bool) -> TierNeed {
    let mut need = own_need(game, node, reverse_graph);
    match mode {
        SolveMode::Compact => need.counters = 0,
        SolveMode::Byte => {
            // One byte a position for counter and value, no records; the remoteness
            // log's tables and buffers (the staged file's reader comes after the cells
            // are freed, and takes less).
            need.records = 0;
            need.counters = node.stored;
            need.extra = need
                .extra
                .saturating_add(onebyte::LOG_BYTES)
                .saturating_add(onebyte::table_bytes(node.stored));
        }
        SolveMode::Whole | SolveMode::Streamed => {}
    }
    need
}

/// What one tier's children take in memory in `mode` (beyond the records of child
/// tiers held whole, which parents of a group share).
fn children_need(graph: &TierGraph, node: &TierNode, mode: SolveMode) -> u64 {
    let size = |t: &Tier| graph.get(*t).map_or(0, |n| n.stored);
    let sum = |f: &dyn Fn(u64) -> u64| {
        node.children
            .iter()
            .map(|c| f(size(c)))
            .fold(0u64, u64::saturating_add)
    };
    match mode.child_shape() {
        Shape::Whole => sum(&|s| s.saturating_mul(order_bytes(s))),
        Shape::Streamed if node.children.is_empty() => 0,
        Shape::Streamed => runs::SPILL_BYTES.saturating_add(sum(&|s| {
            runs::index_bytes(s).saturating_add(VERIFY_CACHE.min(s.saturating_mul(2)))
        })),
    }
}

/// The need of solving `group` side by side in `modes` on `threads` threads, with the
/// tiers of `loaded` held for later parents; and the index of the tier needing most.
#[allow(clippy::too_many_arguments)]
fn group_need(
    game: &GameHandle,
    graph: &TierGraph,
    group: &[&TierNode],
    modes: &[SolveMode],
    loaded: &HashSet<Tier>,
    threads: usize,
    reverse_graph: bool,
    module_bytes: u64,
    process_bytes: u64,
) -> (TierNeed, usize) {
    let raw = record_bytes(game.supports_winby());
    let size = |t: &Tier| graph.get(*t).map_or(0, |n| n.stored);
    let mut work: Vec<(u64, usize, TierNeed)> = group
        .iter()
        .zip(modes)
        .enumerate()
        .map(|(k, (n, &m))| {
            let mut need = mode_need(game, n, m, reverse_graph);
            need.children = children_need(graph, n, m);
            (need.total(), k, need)
        })
        .collect();
    work.sort_by_key(|w| std::cmp::Reverse(w.0));
    let mut need = TierNeed::default();
    for (_, _, w) in work.iter().take(threads.max(1)) {
        need.records = need.records.saturating_add(w.records);
        need.counters = need.counters.saturating_add(w.counters);
        need.turns = need.turns.saturating_add(w.turns);
        need.winby = need.winby.saturating_add(w.winby);
        need.frontier = need.frontier.saturating_add(w.frontier);
        need.children = need.children.saturating_add(w.children);
        need.extra = need.extra.saturating_add(w.extra);
    }
    let whole: HashSet<Tier> = whole_children(group, modes);
    let sum = |it: &mut dyn Iterator<Item = u64>| it.fold(0u64, u64::saturating_add);
    need.children = need
        .children
        .saturating_add(raw.saturating_mul(sum(&mut whole.iter().map(size))));
    need.cached = raw.saturating_mul(sum(&mut loaded
        .iter()
        .filter(|t| !whole.contains(t))
        .map(size)));
    need.module = module_bytes;
    need.slack = SLACK_FIXED.saturating_add(need.total() / SLACK_DIVISOR);
    need.process = process_bytes;
    (need, work.first().map_or(0, |w| w.1))
}

/// The child tiers the tiers of `group` solved whole read whole.
fn whole_children(group: &[&TierNode], modes: &[SolveMode]) -> HashSet<Tier> {
    group
        .iter()
        .zip(modes)
        .filter(|(_, &m)| m.child_shape() == Shape::Whole)
        .flat_map(|(n, _)| n.children.iter().copied())
        .collect()
}

/// Plans the tiers `todo` accepts, in the solver's order (`Schedule`: levels; small
/// tiers of a level side by side on `threads` threads, large ones alone; solved tiers
/// below `big_tier` kept for parents still to come): each group starts with every tier
/// solved whole and makes its largest tier one way leaner until the group fits the
/// budget or every tier is at its leanest (then its tiers are marked as not fitting).
pub fn plan(
    game: &GameHandle,
    graph: &TierGraph,
    todo: &dyn Fn(Tier) -> bool,
    threads: usize,
    big_tier: u64,
    options: &MemoryCheck,
) -> SolvePlan {
    let budget = budget(options);
    let limit = budget.as_ref().map_or(u64::MAX, |b| b.bytes);
    let mut waiting = Waiting::new(graph, todo, big_tier);
    let mut loaded: HashSet<Tier> = HashSet::new();
    let mut tiers = Vec::new();
    for group in Schedule::new(graph, todo, big_tier).groups {
        // A way forced on a game it cannot serve gives the next that can.
        let forced = options.forced.map(|m| m.nearest_for(game));
        let mut modes = vec![forced.unwrap_or(SolveMode::Whole); group.len()];
        let need = |modes: &[SolveMode]| {
            group_need(
                game,
                graph,
                &group,
                modes,
                &loaded,
                threads,
                options.reverse_graph,
                options.module_bytes,
                options.process_bytes,
            )
        };
        let (mut got, _) = need(&modes);
        // The smallest estimate seen: when no way fits, the plan keeps it, so it never
        // moves a tier to a "leaner" way it estimates larger than the one it leaves.
        let mut smallest = (got.total(), modes.clone(), got.clone());
        while got.total() > limit && options.forced.is_none() {
            // The tier with the largest need of those that can go leaner.
            let Some(k) = (0..group.len())
                .filter(|&k| modes[k].leaner_for(game).is_some())
                .max_by_key(|&k| {
                    mode_need(game, group[k], modes[k], options.reverse_graph)
                        .total()
                        .saturating_add(children_need(graph, group[k], modes[k]))
                })
            else {
                break;
            };
            modes[k] = modes[k].leaner_for(game).expect("filtered");
            got = need(&modes).0;
            if got.total() < smallest.0 {
                smallest = (got.total(), modes.clone(), got.clone());
            }
        }
        if got.total() > limit && smallest.0 < got.total() {
            (_, modes, got) = smallest;
        }
        let fits = got.total() <= limit;
        // Without a figure for the machine's memory nothing is left over.
        let room = match (&budget, fits) {
            (Some(b), true) => (b.bytes - got.total()) / threads.clamp(1, group.len()) as u64,
            _ => 0,
        };
        for (n, &m) in group.iter().zip(&modes) {
            tiers.push(TierPlan {
                tier: n.tier,
                name: n.name.clone(),
                positions: n.stored,
                mode: m,
                peak_bytes: got.total(),
                fits,
                room,
                need: got.clone(),
            });
        }
        // As the driver's `ChildCache`: children read whole are held until their last
        // parent is solved, and a solved small tier with records is kept for its own.
        loaded.extend(whole_children(&group, &modes));
        for n in &group {
            for c in &n.children {
                if waiting.release(*c) {
                    loaded.remove(c);
                }
            }
        }
        for (n, &m) in group.iter().zip(&modes) {
            if m != SolveMode::Byte && waiting.keeps(n.tier, n.stored) {
                loaded.insert(n.tier);
            }
        }
    }
    SolvePlan { tiers, budget }
}

/// Logs a plan: the peak, and each tier not solved whole.
pub fn log_plan(plan: &SolvePlan) {
    let Some(top) = plan.tiers.iter().max_by_key(|t| t.peak_bytes) else {
        return;
    };
    log::info!(
        "estimated peak memory: {} (solving tier {} ({}) {}: {}){}",
        bytes(top.peak_bytes),
        top.tier,
        top.name,
        top.mode,
        top.need.breakdown(),
        plan.budget.as_ref().map_or(String::new(), |b| format!(
            "; budget {} ({})",
            bytes(b.bytes),
            b.source
        ))
    );
    for t in plan.tiers.iter().filter(|t| t.mode != SolveMode::Whole) {
        log::info!(
            "tier {} ({}): solved {}, about {} at its peak",
            t.tier,
            t.name,
            t.mode,
            bytes(t.peak_bytes)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_print_and_step_down() {
        for m in SolveMode::ALL {
            assert_eq!(m.name().parse::<SolveMode>(), Ok(m));
        }
        assert!("fast"
            .parse::<SolveMode>()
            .unwrap_err()
            .contains("use whole, streamed, compact or byte"));
        assert_eq!(SolveMode::Whole.leaner(), Some(SolveMode::Streamed));
        assert_eq!(SolveMode::Streamed.leaner(), Some(SolveMode::Compact));
        assert_eq!(SolveMode::Compact.leaner(), Some(SolveMode::Byte));
        assert_eq!(SolveMode::Byte.leaner(), None);
    }
}
