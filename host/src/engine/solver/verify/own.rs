//! The records a tier's check reads (`Own`): the tier's records in memory, or read
//! back through a block cache from where they were written (a tier solved one byte a
//! position, staged before it is put in place). It only reads records; it imports
//! nothing of the solver.

use crate::engine::db::{DbError, RecordSource};
use crate::engine::record::{pack, Record, TierRecords};

/// The records under check: in memory, or read back from where they were written
/// (a tier solved one byte a position, staged before it is put in place).
#[derive(Clone, Copy)]
pub enum Own<'a> {
    /// A whole tier's records.
    Memory(&'a TierRecords),
    /// Records read through a block cache, and whether they have WinBy.
    Source(&'a dyn RecordSource, bool),
}

impl<'a> From<&'a TierRecords> for Own<'a> {
    fn from(r: &'a TierRecords) -> Self {
        Own::Memory(r)
    }
}

impl<'a> Own<'a> {
    pub(super) fn len(&self) -> usize {
        match self {
            Own::Memory(r) => r.len(),
            Own::Source(s, _) => s.positions() as usize,
        }
    }

    pub(super) fn has_winby(&self) -> bool {
        match self {
            Own::Memory(r) => r.winby.is_some(),
            Own::Source(_, winby) => *winby,
        }
    }

    pub(super) fn packed(&self, i: u64) -> Result<u16, DbError> {
        match self {
            Own::Memory(r) => Ok(r.packed(i)),
            Own::Source(s, _) => s.record(i).map(|r| pack(r.value, r.remoteness)),
        }
    }

    /// The stored WinBy of position `i` (0 without WinBy).
    pub(super) fn winby(&self, i: u64) -> i32 {
        match self {
            Own::Memory(r) => r.winby.as_ref().map_or(0, |w| w[i as usize]),
            // A stored margin is kept only for decided values (`record::decode`).
            Own::Source(s, _) => s
                .record(i)
                .ok()
                .and_then(|r| r.winby)
                .map_or(0, |w| w as i32),
        }
    }

    pub(super) fn get(&self, i: u64) -> Record {
        match self {
            Own::Memory(r) => r.get(i),
            Own::Source(s, _) => s.record(i).unwrap_or(Record::UNSOLVED),
        }
    }

    pub(super) fn source(&self) -> &'a dyn RecordSource {
        match *self {
            Own::Memory(r) => r,
            Own::Source(s, _) => s,
        }
    }
}
