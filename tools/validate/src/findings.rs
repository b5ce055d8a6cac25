//! The checks the validator runs and the findings they report.
//!
//! A finding says which check failed, where (tier number and name, position index and
//! text, the move), what the module did and what was expected. Findings are collected
//! from many threads into a bounded sink that keeps, per check, the first few in a
//! fixed order (tier, then index), so a report is the same on every run however the
//! work was scheduled, and memory stays bounded however broken a module is. This file
//! must not call into a module or format whole reports.

use serde::Serialize;
use std::collections::BinaryHeap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// One of the validator's checks, numbered as in the issue that specifies them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Check {
    /// 1: the reachable tier graph is a DAG apart from self-loops.
    TierGraph,
    /// 2: children lie in declared tiers, inside the tier's range, and are legal.
    Children,
    /// 3: undo moves and moves agree, both ways.
    UndoMoves,
    /// 4: primitive values and WinBy are consistent.
    Primitive,
    /// 5: position and move text forms round-trip.
    Text,
    /// 6: whose turn it is changes on every move (unless go-again, a puzzle, or
    /// turn-free positions).
    Turn,
    /// 7: the symmetry hook stays in the tier and keeps the position's shape.
    Symmetry,
    /// 8: reachable positions per tier against the tier sizes (a report).
    Sizes,
}

impl Check {
    /// Every check, in order.
    pub const ALL: [Check; 8] = [
        Check::TierGraph,
        Check::Children,
        Check::UndoMoves,
        Check::Primitive,
        Check::Text,
        Check::Turn,
        Check::Symmetry,
        Check::Sizes,
    ];

    /// The check's number (1-8).
    pub fn number(self) -> u8 {
        self as u8 + 1
    }

    /// The check's short stable name, used in reports, JSON and tests.
    pub fn name(self) -> &'static str {
        match self {
            Check::TierGraph => "tier-graph",
            Check::Children => "children",
            Check::UndoMoves => "undo-moves",
            Check::Primitive => "primitive",
            Check::Text => "text-round-trip",
            Check::Turn => "turn",
            Check::Symmetry => "symmetry",
            Check::Sizes => "sizes",
        }
    }

    /// One line saying what the check verifies.
    pub fn title(self) -> &'static str {
        match self {
            Check::TierGraph => "the tier graph reachable from the initial tier is a DAG apart from self-loops",
            Check::Children => "every child of a legal position lies in a declared child tier (its own only if loopy), below that tier's size, and is legal; the children fast path agrees",
            Check::UndoMoves => "undo moves lead to legal, non-primitive parents in the asked tier that have the position as a child, every child lists its parent, and the parents fast path agrees",
            Check::Primitive => "primitive values are consistent with having moves, and WinBy's sign with the value for player one",
            Check::Text => "position text and move text parse back to the same position and move",
            Check::Turn => "whose turn it is changes on every move unless the module declares go-again, is a puzzle, or declares turn-free positions (then only that it answers and needs no turn)",
            Check::Symmetry => "the canonical position lies in the same tier and has the same value and number of children",
            Check::Sizes => "positions reachable from the initial position per tier, against the tier sizes (density of the hash)",
        }
    }

    fn slot(self) -> usize {
        self as usize
    }
}

impl Serialize for Check {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// How bad a finding is: errors fail validation, warnings are shown but do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The module is wrong; solving it would give wrong results.
    Error,
    /// Suspicious but allowed by the API (for example a non-primitive dead end).
    Warning,
}

/// A tier as a finding names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TierRef {
    /// The tier number.
    pub number: u64,
    /// The module's name for it.
    pub name: String,
}

/// A position as a finding names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionRef {
    /// Its index in its tier.
    pub index: u64,
    /// The module's text for it (or why there is none).
    pub text: String,
}

/// A move as a finding names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveRef {
    /// The module's encoding of the move.
    pub number: u64,
    /// The module's text for it (`None` when `move_to_text` failed).
    pub text: Option<String>,
}

/// Where a finding was made, for ordering: tier rank, position index, then a sequence
/// number within the position (0 for the position itself, then per move or undo move).
pub type FindingKey = (u64, u64, u64);

/// One thing found wrong (or suspicious) in a module.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// The check that found it.
    pub check: Check,
    /// Error or warning.
    pub severity: Severity,
    /// The tier, when the finding is about a tier or a position.
    pub tier: Option<TierRef>,
    /// The position, when the finding is about one.
    pub position: Option<PositionRef>,
    /// The move, when the finding is about one.
    #[serde(rename = "move")]
    pub mv: Option<MoveRef>,
    /// What the module did.
    pub problem: String,
    /// What was expected instead.
    pub expected: String,
    /// Ordering key (not part of the report).
    #[serde(skip)]
    pub key: FindingKey,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut place = Vec::new();
        if let Some(t) = &self.tier {
            place.push(format!("tier {} ({})", t.number, t.name));
        }
        if let Some(p) = &self.position {
            place.push(format!("position {} ({})", p.index, p.text));
        }
        match &self.mv {
            Some(MoveRef {
                text: Some(text), ..
            }) => place.push(format!("move \"{text}\"")),
            Some(MoveRef { number, .. }) => place.push(format!("move #{number}")),
            None => {}
        }
        if self.severity == Severity::Warning {
            write!(f, "warning: ")?;
        }
        if !place.is_empty() {
            write!(f, "{}: ", place.join(", "))?;
        }
        write!(f, "{}", self.problem)?;
        if !self.expected.is_empty() {
            write!(f, "; expected {}", self.expected)?;
        }
        Ok(())
    }
}

/// Heap entry ordered by key (then text), so the heap's top is the finding to drop.
struct Ranked(Finding);

impl Ranked {
    fn order(&self) -> (FindingKey, &str, Severity) {
        (self.0.key, &self.0.problem, self.0.severity)
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.order() == other.order()
    }
}
impl Eq for Ranked {}
impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.order().cmp(&other.order())
    }
}

/// Everything one check found, with the kept findings in order.
#[derive(Clone, Debug)]
pub struct CheckFindings {
    /// The check.
    pub check: Check,
    /// How many errors it found in all.
    pub errors: u64,
    /// How many warnings it found in all.
    pub warnings: u64,
    /// The first findings (at most the sink's cap), in tier and index order.
    pub kept: Vec<Finding>,
}

impl CheckFindings {
    /// Findings found but not kept.
    pub fn omitted(&self) -> u64 {
        self.errors + self.warnings - self.kept.len() as u64
    }
}

/// Collects findings from many threads, keeping the first `cap` per check.
pub struct FindingSink {
    cap: usize,
    kept: Vec<Mutex<BinaryHeap<Ranked>>>,
    errors: Vec<AtomicU64>,
    warnings: Vec<AtomicU64>,
}

impl FindingSink {
    /// A sink keeping at most `cap` findings per check (all are counted).
    pub fn new(cap: usize) -> Self {
        let n = Check::ALL.len();
        FindingSink {
            cap,
            kept: (0..n).map(|_| Mutex::new(BinaryHeap::new())).collect(),
            errors: (0..n).map(|_| AtomicU64::new(0)).collect(),
            warnings: (0..n).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Records a finding.
    pub fn add(&self, f: Finding) {
        let slot = f.check.slot();
        match f.severity {
            Severity::Error => &self.errors[slot],
            Severity::Warning => &self.warnings[slot],
        }
        .fetch_add(1, Ordering::Relaxed);
        if self.cap == 0 {
            return;
        }
        // A poisoned lock only means another thread panicked mid-push; the heap is
        // still a valid heap, so keep using it.
        let mut heap = self.kept[slot].lock().unwrap_or_else(|e| e.into_inner());
        heap.push(Ranked(f));
        if heap.len() > self.cap {
            heap.pop();
        }
    }

    /// The findings of every check, in check order.
    pub fn finish(self) -> Vec<CheckFindings> {
        let FindingSink {
            kept,
            errors,
            warnings,
            ..
        } = self;
        Check::ALL
            .iter()
            .zip(kept)
            .zip(errors.iter().zip(&warnings))
            .map(|((&check, heap), (e, w))| {
                let heap = heap.into_inner().unwrap_or_else(|e| e.into_inner());
                CheckFindings {
                    check,
                    errors: e.load(Ordering::Relaxed),
                    warnings: w.load(Ordering::Relaxed),
                    kept: heap.into_sorted_vec().into_iter().map(|r| r.0).collect(),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(check: Check, index: u64) -> Finding {
        Finding {
            check,
            severity: Severity::Error,
            tier: None,
            position: None,
            mv: None,
            problem: format!("problem at {index}"),
            expected: String::new(),
            key: (0, index, 0),
        }
    }

    #[test]
    fn sink_keeps_the_first_findings_in_order_and_counts_all() {
        let sink = FindingSink::new(3);
        for i in [9, 2, 7, 1, 5, 3] {
            sink.add(finding(Check::Children, i));
        }
        sink.add(finding(Check::Turn, 4));
        let all = sink.finish();
        let children = &all[Check::Children.slot()];
        assert_eq!(children.errors, 6);
        assert_eq!(children.omitted(), 3);
        let kept: Vec<u64> = children.kept.iter().map(|f| f.key.1).collect();
        assert_eq!(kept, vec![1, 2, 3]);
        assert_eq!(all[Check::Turn.slot()].errors, 1);
        assert_eq!(all[Check::TierGraph.slot()].errors, 0);
    }

    #[test]
    fn checks_are_numbered_one_to_eight() {
        let numbers: Vec<u8> = Check::ALL.iter().map(|c| c.number()).collect();
        assert_eq!(numbers, (1..=8).collect::<Vec<u8>>());
    }
}
