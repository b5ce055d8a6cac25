//! What a database stores for each position: value, remoteness, and (for WinBy games)
//! the margin; and the compact in-memory form of a whole tier of them.
//!
//! A record packs value (3 bits) and remoteness (13 bits) into a `u16`; WinBy is kept
//! in a parallel `i32` array only for games that support it. This file knows nothing of
//! files or solving.

use gamesman_plugin_api::Value;

/// The largest remoteness a record can hold.
pub const MAX_REMOTENESS: u32 = (1 << 13) - 1;

/// One solved (or unsolved) position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Value from the view of the player to move; `UNDECIDED` means not solved.
    pub value: Value,
    /// Moves to the end with perfect play (shortest win, longest loss); 0 for draws.
    pub remoteness: u32,
    /// The margin from player one's view, where the game supports WinBy.
    pub winby: Option<i64>,
}

impl Record {
    /// The record of a position nobody solved.
    pub const UNSOLVED: Record = Record {
        value: Value::UNDECIDED,
        remoteness: 0,
        winby: None,
    };

    /// Whether the position has a value.
    pub fn is_solved(&self) -> bool {
        self.value != Value::UNDECIDED
    }
}

/// Packs a value and a remoteness (at most `MAX_REMOTENESS`) into 16 bits.
#[inline]
pub const fn pack(value: Value, remoteness: u32) -> u16 {
    ((value.0 as u16) << 13) | (remoteness as u16 & MAX_REMOTENESS as u16)
}

/// The value of a packed record.
#[inline]
pub const fn value_of(packed: u16) -> Value {
    Value((packed >> 13) as u8)
}

/// The remoteness of a packed record.
#[inline]
pub const fn remoteness_of(packed: u16) -> u32 {
    (packed & MAX_REMOTENESS as u16) as u32
}

/// The record of a packed value and remoteness and its stored WinBy (if the tier has
/// WinBy); the margin is kept only for decided values.
#[inline]
pub fn decode(packed: u16, winby: Option<i32>) -> Record {
    let value = value_of(packed);
    let decided = value == Value::WIN || value == Value::LOSE || value == Value::TIE;
    Record {
        value,
        remoteness: remoteness_of(packed),
        winby: winby.filter(|_| decided).map(i64::from),
    }
}

/// Every record of one tier, indexed by position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TierRecords {
    /// Packed value and remoteness per position.
    pub values: Vec<u16>,
    /// WinBy per position, for games that support it (0 where undefined).
    pub winby: Option<Vec<i32>>,
}

impl TierRecords {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the tier has no positions.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The record of position `i`.
    #[inline]
    pub fn get(&self, i: u64) -> Record {
        decode(
            self.values[i as usize],
            self.winby.as_ref().map(|w| w[i as usize]),
        )
    }

    /// The packed value and remoteness of position `i`.
    #[inline]
    pub fn packed(&self, i: u64) -> u16 {
        self.values[i as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        for v in [
            Value::UNDECIDED,
            Value::WIN,
            Value::LOSE,
            Value::TIE,
            Value::DRAW,
        ] {
            for r in [0, 1, 9, 4000, MAX_REMOTENESS] {
                let p = pack(v, r);
                assert_eq!(value_of(p), v);
                assert_eq!(remoteness_of(p), r);
            }
        }
    }

    #[test]
    fn winby_only_for_decided_values() {
        let t = TierRecords {
            values: vec![
                pack(Value::WIN, 3),
                pack(Value::DRAW, 0),
                pack(Value::UNDECIDED, 0),
            ],
            winby: Some(vec![-7, 0, 0]),
        };
        assert_eq!(t.get(0).winby, Some(-7));
        assert_eq!(t.get(1).winby, None);
        assert_eq!(t.get(2), Record::UNSOLVED);
    }
}
