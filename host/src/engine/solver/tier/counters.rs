//! Child counters of the tier being solved: per position, how many children are not
//! yet known to be wins for the player moving there, or a mark that the position is
//! skipped (illegal or not canonical) or decided. One byte a position when the game
//! has at most `NARROW_MOVES` moves in any position, four bytes otherwise.
//!
//! This file only holds counters; it never decides a value.

use crate::engine::record::{pack, MAX_REMOTENESS};
use gamesman_plugin_api::Value;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU8, Ordering::*};

/// The most moves a game may have for one-byte counters (254 and 255 are the marks).
pub const NARROW_MOVES: u32 = 253;

/// One counter: an atomic cell with two marks above every count.
pub trait Cell: Sync + Send {
    /// The mark of a skipped position.
    const SKIP: u32;
    /// The mark of a decided position (every count is below it).
    const DECIDED: u32;
    /// A counter of zero.
    fn zero() -> Self;
    /// Its value.
    fn get(&self) -> u32;
    /// Sets it (`v` at most `SKIP`).
    fn put(&self, v: u32);
    /// Compare and exchange (weak), as `AtomicU32::compare_exchange_weak`.
    fn cas(&self, cur: u32, new: u32) -> Result<u32, u32>;
    /// Stores the record of position `i`, just marked decided, as value `v` at
    /// remoteness `r`: in `records`, or (one-byte cells) in the cell itself, whose
    /// remoteness the solver writes out by level.
    #[inline]
    fn settle(&self, records: &[AtomicU16], i: usize, v: Value, r: u32) {
        records[i].store(pack(v, r), Relaxed);
    }
    /// The packed record of decided position `i` as far as this cell knows it (one-byte
    /// cells know the value only: remoteness 0).
    #[inline]
    fn packed(&self, records: &[AtomicU16], i: usize) -> u16 {
        records[i].load(Relaxed)
    }
}

impl Cell for AtomicU8 {
    const SKIP: u32 = u8::MAX as u32;
    const DECIDED: u32 = u8::MAX as u32 - 1;
    fn zero() -> Self {
        AtomicU8::new(0)
    }
    #[inline]
    fn get(&self) -> u32 {
        self.load(Relaxed) as u32
    }
    #[inline]
    fn put(&self, v: u32) {
        self.store(v as u8, Relaxed)
    }
    #[inline]
    fn cas(&self, cur: u32, new: u32) -> Result<u32, u32> {
        self.compare_exchange_weak(cur as u8, new as u8, AcqRel, Relaxed)
            .map(u32::from)
            .map_err(u32::from)
    }
}

impl Cell for AtomicU32 {
    const SKIP: u32 = u32::MAX;
    const DECIDED: u32 = u32::MAX - 1;
    fn zero() -> Self {
        AtomicU32::new(0)
    }
    #[inline]
    fn get(&self) -> u32 {
        self.load(Relaxed)
    }
    #[inline]
    fn put(&self, v: u32) {
        self.store(v, Relaxed)
    }
    #[inline]
    fn cas(&self, cur: u32, new: u32) -> Result<u32, u32> {
        self.compare_exchange_weak(cur, new, AcqRel, Relaxed)
    }
}

/// The most moves a game may have for counters merged into records (two 13-bit
/// codes above every count are the marks).
pub const MERGED_MOVES: u32 = MAX_REMOTENESS - 2;

/// What a merged cell holds from the moment it is marked decided until the solver
/// stores the record (the next store of the same thread): any decided value.
const PLACEHOLDER: u16 = 1 << 13;

/// The logical counter of a merged cell's raw bits.
#[inline]
fn merged(raw: u16) -> u32 {
    if raw >> 13 == 0 {
        raw as u32
    } else {
        <AtomicU16 as Cell>::DECIDED
    }
}

/// A record and counter in one cell: while the value bits are `UNDECIDED` (0), the
/// low 13 bits count children (or are `SKIP`); a decided position's cell is its
/// packed record, which the solver stores right after marking it decided.
impl Cell for AtomicU16 {
    const SKIP: u32 = MAX_REMOTENESS;
    const DECIDED: u32 = MAX_REMOTENESS - 1;
    fn zero() -> Self {
        AtomicU16::new(0)
    }
    #[inline]
    fn get(&self) -> u32 {
        merged(self.load(Relaxed))
    }
    #[inline]
    fn put(&self, v: u32) {
        self.store(raw_of(v), Relaxed)
    }
    #[inline]
    fn cas(&self, cur: u32, new: u32) -> Result<u32, u32> {
        self.compare_exchange_weak(raw_of(cur), raw_of(new), AcqRel, Relaxed)
            .map(merged)
            .map_err(merged)
    }
}

/// The raw bits of a logical merged counter.
#[inline]
fn raw_of(v: u32) -> u16 {
    if v == <AtomicU16 as Cell>::DECIDED {
        PLACEHOLDER
    } else {
        v as u16
    }
}

/// The most moves a game may have for one-byte cells (the codes from 250 up are
/// the marks and the decided values).
pub const BYTE_MOVES: u32 = 249;

/// One byte holding a counter or a decided value (no remoteness: the solver writes
/// the remoteness of each level out, `onebyte`). Raw codes: counts below 250, 250 a
/// position just marked decided (its value follows in the same thread), 251 win, 252
/// lose, 253 tie, 254 draw, 255 skipped.
#[repr(transparent)]
pub struct ByteCell(AtomicU8);

const BYTE_PLACEHOLDER: u8 = 250;
const BYTE_SKIP: u8 = 255;

/// The raw code of a decided value in a one-byte cell.
#[inline]
fn byte_code(v: Value) -> u8 {
    match v {
        Value::WIN => 251,
        Value::LOSE => 252,
        Value::TIE => 253,
        _ => 254,
    }
}

impl ByteCell {
    /// The value a raw code stands for (`UNDECIDED` for counts and skipped ones).
    #[inline]
    pub fn value_of_code(raw: u8) -> Value {
        match raw {
            251 => Value::WIN,
            252 => Value::LOSE,
            253 => Value::TIE,
            254 => Value::DRAW,
            _ => Value::UNDECIDED,
        }
    }

    /// The raw code.
    #[inline]
    pub fn raw(&self) -> u8 {
        self.0.load(Relaxed)
    }

    /// Marks an open position a draw (what is undecided at the end never resolves).
    #[inline]
    pub fn finish(&self) {
        if matches!(status(self), Status::Open(_)) {
            self.0.store(254, Relaxed);
        }
    }
}

impl Cell for ByteCell {
    const SKIP: u32 = BYTE_SKIP as u32;
    const DECIDED: u32 = BYTE_PLACEHOLDER as u32;
    fn zero() -> Self {
        ByteCell(AtomicU8::new(0))
    }
    #[inline]
    fn get(&self) -> u32 {
        match self.0.load(Relaxed) {
            BYTE_SKIP => Self::SKIP,
            raw if raw >= BYTE_PLACEHOLDER => Self::DECIDED,
            raw => raw as u32,
        }
    }
    #[inline]
    fn put(&self, v: u32) {
        self.0.store(v as u8, Relaxed)
    }
    #[inline]
    fn cas(&self, cur: u32, new: u32) -> Result<u32, u32> {
        // Only counts and the placeholder are ever compared: a decided cell reads as
        // DECIDED, which the solver never swaps.
        let logical = |raw: u8| match raw {
            BYTE_SKIP => Self::SKIP,
            r if r >= BYTE_PLACEHOLDER => Self::DECIDED,
            r => r as u32,
        };
        self.0
            .compare_exchange_weak(cur as u8, new as u8, AcqRel, Relaxed)
            .map(logical)
            .map_err(logical)
    }
    #[inline]
    fn settle(&self, _: &[AtomicU16], _: usize, v: Value, _: u32) {
        self.0.store(byte_code(v), Relaxed);
    }
    #[inline]
    fn packed(&self, _: &[AtomicU16], _: usize) -> u16 {
        pack(Self::value_of_code(self.0.load(Relaxed)), 0)
    }
}

/// The counters of a tier, one or four bytes each, or merged into its records.
pub enum Counters {
    /// One byte a position.
    Narrow(Vec<AtomicU8>),
    /// Four bytes a position.
    Wide(Vec<AtomicU32>),
    /// In the records (`Cell for AtomicU16`).
    Merged,
    /// One byte a position holding counter and value; no records (`ByteCell`).
    Byte(Vec<ByteCell>),
}

/// What a counter says about its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Illegal or not canonical.
    Skip,
    /// Its value is known.
    Decided,
    /// Still undecided, with this many children left.
    Open(u32),
}

/// What counter `c` says about its position.
#[inline]
pub fn status<C: Cell>(c: &C) -> Status {
    match c.get() {
        v if v == C::SKIP => Status::Skip,
        v if v == C::DECIDED => Status::Decided,
        v => Status::Open(v),
    }
}

impl Counters {
    /// Bytes a counter takes for a game with at most `max_moves` moves a position.
    pub fn width(max_moves: u32) -> u64 {
        if max_moves <= NARROW_MOVES {
            1
        } else {
            4
        }
    }

    /// What position `i`'s counter says (`records`: the cells of merged counters).
    #[inline]
    pub fn status(&self, records: &[AtomicU16], i: usize) -> Status {
        match self {
            Counters::Narrow(v) => status(&v[i]),
            Counters::Wide(v) => status(&v[i]),
            Counters::Merged => status(&records[i]),
            Counters::Byte(v) => status(&v[i]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_sit_above_every_count() {
        let c = AtomicU8::zero();
        c.put(NARROW_MOVES);
        assert_eq!(status(&c), Status::Open(NARROW_MOVES));
        c.put(AtomicU8::DECIDED);
        assert_eq!(status(&c), Status::Decided);
        c.put(AtomicU8::SKIP);
        assert_eq!(status(&c), Status::Skip);
        let w = AtomicU32::zero();
        w.put(300);
        assert_eq!(status(&w), Status::Open(300));
        assert_eq!(Counters::width(44), 1);
        assert_eq!(Counters::width(254), 4);
    }

    #[test]
    fn a_merged_cell_counts_until_its_record_is_stored() {
        use crate::engine::record::pack;
        use gamesman_plugin_api::Value;
        let c = AtomicU16::zero();
        c.put(MERGED_MOVES);
        assert_eq!(status(&c), Status::Open(MERGED_MOVES));
        assert_eq!(c.cas(MERGED_MOVES, 3), Ok(MERGED_MOVES));
        assert_eq!(status(&c), Status::Open(3));
        c.put(AtomicU16::SKIP);
        assert_eq!(status(&c), Status::Skip);
        assert_eq!(c.load(Relaxed), 0x1fff);
        c.put(1);
        while c.cas(1, AtomicU16::DECIDED).is_err() {}
        assert_eq!(status(&c), Status::Decided);
        // Every decided record reads as decided, whatever its remoteness.
        for v in [Value::WIN, Value::LOSE, Value::TIE, Value::DRAW] {
            c.store(pack(v, MAX_REMOTENESS), Relaxed);
            assert_eq!(status(&c), Status::Decided);
            assert!(c.cas(1, 0).is_err());
        }
    }
}
