//! The state of a retrograde tier while it is solved (`TierState`): its counters or
//! cells, records, turns, the WinBy pass's scan arrays, where its parents come from,
//! and the one-byte remoteness log. Read by the scan, the level passes and the WinBy
//! pass; set up by `retrograde`. This file holds state; it decides nothing.

use super::counters::{ByteCell, Cell, Counters};
use super::onebyte::RemotenessLog;
use super::parents::{ParentSource, Parents};
use crate::engine::record::value_of;
use gamesman_plugin_api::{Tier, Value};
use std::sync::atomic::{AtomicI32, AtomicU16, AtomicU32, AtomicU8, Ordering::Relaxed};

/// The state of a tier while it is solved.
pub struct TierState {
    /// The tier.
    pub tier: Tier,
    /// Child counters, with the marks of skipped and decided positions.
    pub(crate) counters: Counters,
    /// Packed value and remoteness of decided positions (after the solve: of every
    /// position, kept for the WinBy pass; empty for games without WinBy).
    pub(crate) records: Vec<AtomicU16>,
    /// Player to move per position (kept for go-again games and WinBy).
    pub turns: Vec<AtomicU8>,
    /// Number of distinct children per position, from the scan (kept for WinBy).
    pub children: Vec<AtomicU32>,
    /// The module's WinBy of positions without children (kept for WinBy).
    pub leaf_winby: Vec<AtomicI32>,
    /// Where parents come from (undo moves, or the tier's reverse graph).
    pub parents: ParentSource,
    /// One-byte cells: when each position was decided.
    pub log: Option<RemotenessLog>,
}

impl TierState {
    /// Where the parents of this tier's children are found.
    pub fn parents(&self) -> Parents<'_> {
        Parents {
            source: &self.parents,
            tier: self.tier,
        }
    }

    /// The value of position `i` (`UNDECIDED` until decided).
    pub fn value(&self, i: u64) -> Value {
        value_of(self.packed(i))
    }

    /// The packed record of position `i`.
    pub fn packed(&self, i: u64) -> u16 {
        match &self.counters {
            Counters::Byte(c) => c[i as usize].packed(&self.records, i as usize),
            _ => self.records[i as usize].load(Relaxed),
        }
    }

    /// One-byte cells and their remoteness log, after the solve (`None` otherwise).
    pub fn one_byte(&self) -> Option<(&[ByteCell], &RemotenessLog)> {
        match (&self.counters, &self.log) {
            (Counters::Byte(c), Some(log)) => Some((c, log)),
            _ => None,
        }
    }

    /// Whether position `i` has no children (primitive or moveless) and is not skipped.
    pub fn is_leaf(&self, i: u64) -> bool {
        self.children[i as usize].load(Relaxed) == 0
    }
}
