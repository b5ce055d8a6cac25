//! Memory: what solving a tier's own arrays needs at its peak, what the machine has
//! (the planner in `plan` picks each tier's way of solving from these);
//! and the allocation of the big per-tier arrays with `try_reserve`, so running out
//! while solving ends with a message naming the tier instead of an abort.
//!
//! The model follows the solver's arrays byte for byte (see `TierNeed`); when the
//! solver grows a new per-tier structure, count it here (`extra_bytes` is the place
//! for one the model does not know). This file must not solve or store anything.

use super::parents::ParentMode;
use super::SolveError;
use crate::engine::game::GameHandle;
use crate::engine::tier::TierNode;
use gamesman_plugin_api::Tier;
use rayon::prelude::*;

/// How the memory check runs.
#[derive(Clone, Debug, Default)]
pub struct MemoryCheck {
    /// Bytes the solve may use, instead of what the machine reports available.
    pub limit: Option<u64>,
    /// Solve even when the estimate exceeds what is available.
    pub ignore: bool,
    /// Whether tiers are solved through a reverse graph (set by the solver from
    /// `SolveOptions::parents` and the module).
    pub reverse_graph: bool,
    /// One way of solving for every tier instead of the fastest that fits
    /// (`--solve-mode`).
    pub forced: Option<super::plan::SolveMode>,
    /// Bytes the module's own caches keep at most (`GameHandle::memory_budget`),
    /// counted in every tier's estimate.
    pub module_bytes: u64,
}

/// Why memory stopped a solve.
#[derive(Debug, thiserror::Error)]
pub enum MemoryError {
    /// The estimate exceeds what is available: nothing was solved.
    #[error(
        "solving tier {tier} ({name}) needs about {} at its peak, {mode} ({}), but {} is available ({}); \
         free memory, or pass --memory-limit SIZE to say how much the solve may use, or \
         --ignore-memory-check to solve anyway",
        bytes(need.total()), need.breakdown(), bytes(*available), from
    )]
    TooLittle {
        /// The leanest way of solving it that was considered, in words.
        mode: String,
        /// The tier with the largest need.
        tier: Tier,
        /// Its name.
        name: String,
        /// Its need.
        need: Box<TierNeed>,
        /// Bytes available.
        available: u64,
        /// Where that figure comes from.
        from: String,
    },
    /// An allocation failed while solving: the tiers stored so far are kept.
    #[error(
        "out of memory solving tier {tier} ({name}): {} for its {what} could not be allocated \
         (its own arrays need about {} in all, its child tiers more); the tiers solved \
         before it are stored, and a new run resumes from them",
        bytes(*requested), bytes(*estimate)
    )]
    Allocation {
        /// The tier being solved.
        tier: Tier,
        /// Its name.
        name: String,
        /// The array that could not be allocated.
        what: &'static str,
        /// Its size in bytes.
        requested: u64,
        /// The model's estimate of the tier's whole need.
        estimate: u64,
    },
}

/// Bytes as people read them (`1.50 GiB`).
pub fn bytes(b: u64) -> String {
    const UNITS: [&str; 7] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut x = b as f64;
    let mut u = 0;
    while x >= 1024.0 && u + 1 < UNITS.len() {
        x /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} bytes")
    } else {
        format!("{x:.2} {}", UNITS[u])
    }
}

/// Parses a size for `--memory-limit`: a number of bytes with an optional unit (K, M,
/// G, T, binary, with or without `iB`/`B`): `512M`, `8G`, `1.5GiB`, `1000000`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => {
            return Err(format!(
                "{} is not a size: use a number with K, M, G or T (for example 8G)",
                crate::engine::messages::quote(text)
            ))
        }
    };
    let n: f64 = num.parse().map_err(|_| {
        format!(
            "{} is not a size: use a number with K, M, G or T (for example 8G)",
            crate::engine::messages::quote(text)
        )
    })?;
    let b = n * (1u64 << shift) as f64;
    if !(b >= 1.0 && b < u64::MAX as f64) {
        return Err(format!(
            "{} is not a usable size",
            crate::engine::messages::quote(text)
        ));
    }
    Ok(b as u64)
}

/// What one tier needs at its solve's peak, by part, in bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TierNeed {
    /// Packed value and remoteness while solving (2 B a position), and the finished
    /// values beside them in the WinBy pass (2 B more).
    pub records: u64,
    /// Child counters (1 B a position for games of at most 253 moves a position, else
    /// 4 B; freed before the WinBy pass).
    pub counters: u64,
    /// Player to move (1 B a position, for go-again games and WinBy).
    pub turns: u64,
    /// WinBy: children counts and leaf margins from the scan, then margins and
    /// pending counts in the WinBy pass (4 B each a position).
    pub winby: u64,
    /// Positions waiting to pass their value on: two bitmaps (the level being sent
    /// on and the next), 1 bit a position each.
    pub frontier: u64,
    /// Solved child tiers: their records and their frontier orders (4 B a decided
    /// position of a tier of at most 2^32 indices, else 8 B; counted for every position).
    pub children: u64,
    /// Other tiers kept in memory for parents still to come.
    pub cached: u64,
    /// What the model does not know in detail (`extra_bytes`).
    pub extra: u64,
    /// The module's own caches, as much as it says it keeps (`memory_budget`).
    pub module: u64,
    /// Working copies (frontier levels being gathered, a tier being read or encoded),
    /// thread stacks and the allocator's own overhead: `SLACK_FIXED` plus
    /// 1/`SLACK_DIVISOR` of the rest. Measured peaks (mothello 4x4: 193 MiB against
    /// 137 MiB counted; 4x5: 9.9 GiB against 9.4 GiB) lie within it.
    pub slack: u64,
}

/// The fixed part of `TierNeed::slack`.
pub const SLACK_FIXED: u64 = 64 << 20;
/// The proportional part of `TierNeed::slack` is the rest divided by this.
pub const SLACK_DIVISOR: u64 = 10;

impl TierNeed {
    /// Every part added up.
    pub fn total(&self) -> u64 {
        // Saturating: a tier of 2^62 positions must say "more than any machine has",
        // not wrap around to a small figure.
        [
            self.records,
            self.counters,
            self.turns,
            self.winby,
            self.frontier,
            self.children,
            self.cached,
            self.extra,
            self.module,
            self.slack,
        ]
        .iter()
        .fold(0u64, |a, &b| a.saturating_add(b))
    }

    /// The non-zero parts, for a message.
    pub fn breakdown(&self) -> String {
        let parts = [
            ("records", self.records),
            ("child counters", self.counters),
            ("turns", self.turns),
            ("WinBy arrays", self.winby),
            ("frontier", self.frontier),
            ("child tiers", self.children),
            ("tiers kept for later", self.cached),
            ("other", self.extra),
            ("the module's caches", self.module),
            ("working copies and allocator", self.slack),
        ];
        parts
            .iter()
            .filter(|(_, b)| *b > 0)
            .map(|(n, b)| format!("{n} {}", bytes(*b)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Moves per position assumed for a reverse graph before the scan counts them.
const ASSUMED_MOVES: u64 = 16;

/// Extra bytes a tier needs beyond the arrays this model counts: the reverse graph
/// of a tier solved without undo moves (4 B per move, assumed at most `ASSUMED_MOVES`
/// a position, and 4 B per position of its child tiers), and the moves its first pass
/// keeps for the second while it is built (8 B per move). The exact figure is known
/// once the tier is scanned; the graph's allocations are checked then too.
pub fn extra_bytes(game: &GameHandle, node: &TierNode, reverse_graph: bool) -> u64 {
    if !reverse_graph {
        return 0;
    }
    let moves = (game.properties().max_moves as u64).min(ASSUMED_MOVES);
    let children: u64 = node
        .children
        .iter()
        .map(|&c| game.tier_size(c).unwrap_or(0))
        .fold(0u64, u64::saturating_add)
        .saturating_add(if node.loopy { node.size } else { 0 });
    let edges = node.size.saturating_mul(moves);
    super::parents::graph_bytes(edges, children).saturating_add(edges.saturating_mul(8))
}

/// Bytes of a child frontier's order per position of a tier of `stored` indices.
pub(super) fn order_bytes(stored: u64) -> u64 {
    if stored <= 1 << 32 {
        4
    } else {
        8
    }
}

/// Bytes a stored record of this game takes in memory (value and remoteness, WinBy).
pub(super) fn record_bytes(winby: bool) -> u64 {
    if winby {
        6
    } else {
        2
    }
}

/// The need of solving `node` alone (its own arrays), without its children: the
/// larger of the solver's two passes.
pub(super) fn own_need(game: &GameHandle, node: &TierNode, reverse_graph: bool) -> TierNeed {
    let n = node.stored;
    let p = game.properties();
    let winby = p.supports_winby;
    let keep_turns = winby || (p.go_again && p.players > 1);
    let turns = if keep_turns { n } else { 0 };
    let extra = extra_bytes(game, node, reverse_graph);
    // The retrograde pass: counters, packed records, turns, the WinBy pass's scan
    // arrays (children counts, leaf margins) and the frontier's two bitmaps. The
    // records become the finished values in place (a game with WinBy copies them,
    // after the counters and bitmaps are freed: the WinBy pass below counts that).
    let retrograde = TierNeed {
        records: n.saturating_mul(2),
        counters: n.saturating_mul(super::counters::Counters::width(p.max_moves)),
        turns,
        winby: if winby { n.saturating_mul(8) } else { 0 },
        frontier: super::frontier::bits_bytes(n).saturating_mul(2),
        extra,
        ..TierNeed::default()
    };
    // The WinBy pass: counters gone, values beside the records, margins and pending
    // counts added. Storing holds the records and the encoded file (the raw bytes at
    // most twice over), less than either pass.
    let winby_pass = TierNeed {
        records: n.saturating_mul(4),
        turns,
        winby: n.saturating_mul(16),
        extra,
        ..TierNeed::default()
    };
    if winby && winby_pass.total() > retrograde.total() {
        winby_pass
    } else {
        retrograde
    }
}

/// Memory this process may still use, in bytes, and where the figure comes from:
/// `MemAvailable` of /proc/meminfo, lowered by a cgroup's limit when one is set.
pub fn available() -> Option<(u64, String)> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse::<u64>()
        .ok()?;
    let mut best = (kib * 1024, "MemAvailable in /proc/meminfo".to_string());
    if let Some((room, source)) = cgroup_room() {
        if room < best.0 {
            best = (room, source);
        }
    }
    Some(best)
}

fn read_u64(path: &str) -> Option<u64> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// A cgroup's limit less what it uses (page cache that can be dropped not counted).
pub(super) fn cgroup_room() -> Option<(u64, String)> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let mut candidates = Vec::new();
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        if controllers.is_empty() {
            candidates.push((format!("/sys/fs/cgroup{path}"), 2));
        } else if controllers.split(',').any(|c| c == "memory") {
            candidates.push((format!("/sys/fs/cgroup/memory{path}"), 1));
        }
    }
    // Inside a container the group's own directory is the mount's root.
    candidates.push(("/sys/fs/cgroup".into(), 2));
    candidates.push(("/sys/fs/cgroup/memory".into(), 1));
    for (dir, version) in candidates {
        let (limit, usage, stat, inactive) = if version == 2 {
            let limit = std::fs::read_to_string(format!("{dir}/memory.max")).ok()?;
            if limit.trim() == "max" {
                continue;
            }
            let Ok(limit) = limit.trim().parse::<u64>() else {
                continue;
            };
            (
                limit,
                read_u64(&format!("{dir}/memory.current")),
                format!("{dir}/memory.stat"),
                "inactive_file",
            )
        } else {
            let Some(limit) = read_u64(&format!("{dir}/memory.limit_in_bytes")) else {
                continue;
            };
            // No limit reads as a huge number.
            if limit >= 1 << 60 {
                continue;
            }
            (
                limit,
                read_u64(&format!("{dir}/memory.usage_in_bytes")),
                format!("{dir}/memory.stat"),
                "total_inactive_file",
            )
        };
        let cache = std::fs::read_to_string(&stat)
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix(inactive)?.trim().parse::<u64>().ok())
            })
            .unwrap_or(0);
        let used = usage.unwrap_or(0).saturating_sub(cache);
        return Some((
            limit.saturating_sub(used),
            format!("the memory limit of cgroup {dir}"),
        ));
    }
    None
}

/// A vector of `n` values made by `f`, in parallel, its memory reserved with
/// `try_reserve` so that running out is an error naming the tier and the array.
pub fn filled<T: Send>(
    game: &GameHandle,
    node: &TierNode,
    what: &'static str,
    n: usize,
    f: impl Fn() -> T + Sync + Send,
) -> Result<Vec<T>, SolveError> {
    let mut v = reserved(game, node, what, n)?;
    v.par_extend((0..n).into_par_iter().map(|_| f()));
    Ok(v)
}

/// Room for `additional` more values in `v`, or the error naming the tier and array.
pub fn grow<T>(
    game: &GameHandle,
    node: &TierNode,
    what: &'static str,
    v: &mut Vec<T>,
    additional: usize,
) -> Result<(), SolveError> {
    v.try_reserve(additional)
        .map_err(|_| allocation::<T>(game, node, what, additional))?;
    Ok(())
}

/// An empty vector with room for `n` values, or the error naming the tier and array.
pub fn reserved<T>(
    game: &GameHandle,
    node: &TierNode,
    what: &'static str,
    n: usize,
) -> Result<Vec<T>, SolveError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| allocation::<T>(game, node, what, n))?;
    Ok(v)
}

/// The error of `n` values of `T` for the tier's `what` that could not be allocated.
fn allocation<T>(game: &GameHandle, node: &TierNode, what: &'static str, n: usize) -> MemoryError {
    MemoryError::Allocation {
        tier: node.tier,
        name: node.name.clone(),
        what,
        requested: (n as u64).saturating_mul(std::mem::size_of::<T>() as u64),
        estimate: own_need(game, node, ParentMode::Auto.uses_graph(game)).total(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needs_saturate_instead_of_wrapping() {
        // Quixo 5x5-sized parts once summed to "1.60 EiB at its peak (records 16.00 EiB)".
        let need = TierNeed {
            records: u64::MAX / 2,
            counters: u64::MAX / 2,
            frontier: u64::MAX / 4,
            ..TierNeed::default()
        };
        assert_eq!(need.total(), u64::MAX);
        assert!(need.total() >= need.records);
        assert_eq!(super::super::parents::graph_bytes(u64::MAX, 1), u64::MAX);
    }

    #[test]
    fn sizes_parse_with_binary_units() {
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("8G"), Ok(8 << 30));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size(" 2 tb "), Ok(2 << 40));
        assert!(parse_size("lots")
            .unwrap_err()
            .contains("'lots' is not a size"));
        assert!(parse_size("8X").is_err());
        assert!(parse_size("0").is_err());
        assert!(parse_size("").is_err());
    }

    #[test]
    fn bytes_read_like_people_write_them() {
        assert_eq!(bytes(512), "512 bytes");
        assert_eq!(bytes(3 << 29), "1.50 GiB");
        assert_eq!(bytes(10 << 20), "10.00 MiB");
    }

    #[test]
    fn this_machine_reports_available_memory() {
        let (b, source) = available().expect("Linux reports MemAvailable");
        assert!(b > 0, "{source}");
    }

    #[test]
    fn an_impossible_allocation_is_an_error_naming_the_tier() {
        let node = TierNode {
            tier: Tier(7),
            name: "seven".into(),
            size: 1 << 60,
            stored: 1 << 60,
            children: Vec::new(),
            loopy: false,
            level: 0,
        };
        let game = GameHandle::from_static::<mtttier::MttTier>("").unwrap();
        // 2^60 counters of 4 bytes: 4 EiB, more than any address space holds.
        let e = reserved::<u32>(&game, &node, "child counters", 1 << 60).unwrap_err();
        let text = e.to_string();
        assert!(
            text.starts_with("out of memory solving tier 7 (seven): 4.00 EiB for its child counters could not be allocated"),
            "{text}"
        );
        assert!(
            text.contains("the tiers solved before it are stored"),
            "{text}"
        );
    }
}
