//! What memory a tier needs, by part (`TierNeed`), and sizes as people read and type
//! them (`bytes`, `parse_size`). A leaf: the tier layer fills the parts of its own
//! arrays, the budget adds the rest. It must import nothing of the solver.

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
    /// The process itself beyond the solver's arrays: binary, module code, what it
    /// held when the plan was made, threads' stacks and buffers.
    pub process: u64,
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
            self.process,
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
            ("the process itself", self.process),
        ];
        parts
            .iter()
            .filter(|(_, b)| *b > 0)
            .map(|(n, b)| format!("{n} {}", bytes(*b)))
            .collect::<Vec<_>>()
            .join(", ")
    }
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
}
