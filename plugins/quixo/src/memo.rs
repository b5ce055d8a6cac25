//! A per-thread note of the positions `children` and `parents` just returned, all
//! already canonical, so that the adapter's `canonical_position` call on each of them
//! costs a comparison instead of an unrank, eight symmetries and a rank.
//!
//! The plugin adapter canonicalizes every child and parent a module returns, one call
//! each, in the order returned. We produce them canonical anyway (the symmetries are
//! cheap on bitboards before ranking), so `canonical_position` first checks whether its
//! argument is the next noted position. A miss (another caller, another order) falls
//! back to the full computation, so the note can only save work, never change a
//! result. This file must not know the game.

use gamesman_plugin_api::TierPosition;
use std::cell::RefCell;

/// The most positions noted at once (the most moves or undo moves of any variant).
const CAPACITY: usize = 64;

struct Note {
    items: [TierPosition; CAPACITY],
    len: usize,
    next: usize,
}

thread_local! {
    static NOTE: RefCell<Note> = const {
        RefCell::new(Note {
            items: [TierPosition::new(gamesman_plugin_api::Tier(0), 0); CAPACITY],
            len: 0,
            next: 0,
        })
    };
}

/// Notes `items` (canonical positions just returned), replacing the previous note.
#[inline]
pub fn note(items: &[TierPosition]) {
    NOTE.with(|n| {
        let mut n = n.borrow_mut();
        let len = items.len().min(CAPACITY);
        n.items[..len].copy_from_slice(&items[..len]);
        n.len = len;
        n.next = 0;
    });
}

/// Whether `p` is the next noted position (consuming it): then it is canonical.
#[inline]
pub fn is_next(p: TierPosition) -> bool {
    NOTE.with(|n| {
        let mut n = n.borrow_mut();
        if n.next < n.len && n.items[n.next] == p {
            n.next += 1;
            true
        } else {
            false
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamesman_plugin_api::Tier;

    #[test]
    fn positions_are_consumed_in_order() {
        let a = TierPosition::new(Tier(3), 10);
        let b = TierPosition::new(Tier(3), 12);
        note(&[a, b]);
        assert!(!is_next(b));
        assert!(is_next(a));
        assert!(is_next(b));
        assert!(!is_next(b));
        note(&[]);
        assert!(!is_next(a));
    }
}
