//! The solver's rules read forward: the record a position must have, given the
//! records of its distinct children. Verification compares a tier's records with this.
//!
//! Value and remoteness (the rules of `retrograde`): a child lost for the player who
//! moves there wins, at one more than the smallest such remoteness; a position whose
//! children are all won for the player who moves there loses, at one more than the
//! largest; otherwise a tie child ties, at one more than the smallest tie; otherwise it
//! is a draw (remoteness 0). WinBy (the rules of `winby`): the extreme (maximum for
//! player one, minimum for player two) over the decided children; a position that may
//! lie on a cycle of decided positions of a loopy tier may instead take the extreme over
//! part of them, so only bounds are checked there. This file is pure: it calls no
//! module and knows no tiers or databases.

use gamesman_plugin_api::Value;

/// One distinct child of a position, with its record, as its parent sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Child {
    /// The child's value, from the view of the player to move at the child.
    pub value: Value,
    /// The child's remoteness.
    pub remoteness: u32,
    /// The child's WinBy (player one's view), for WinBy games.
    pub winby: i64,
    /// Whether the parent's mover also moves at the child (a puzzle, a go-again move):
    /// the child's value then counts for the parent as it is, otherwise inverted.
    pub same_mover: bool,
    /// Whether the child lies in the parent's own tier.
    pub in_tier: bool,
    /// Whether the child is the parent itself (a move that changes nothing visible):
    /// such a position never finishes in the WinBy pass, so its own margin does not
    /// count for it.
    pub itself: bool,
}

impl Child {
    /// The child's value from the view of the parent's mover.
    pub fn value_for_parent(&self) -> Value {
        if self.same_mover {
            self.value
        } else {
            self.value.invert()
        }
    }
}

/// What the children of a position say its record must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Derived {
    /// The value.
    pub value: Value,
    /// The remoteness.
    pub remoteness: u32,
    /// The child that decides it: the quickest win, the slowest loss, the quickest tie,
    /// or a child that keeps a draw from being a loss.
    pub witness: usize,
}

/// Whether a value is decided (win, lose or tie), as the WinBy pass counts it.
pub fn decided(v: Value) -> bool {
    v == Value::WIN || v == Value::LOSE || v == Value::TIE
}

/// The record `children` (at least one, every one solved) call for.
pub fn derive(children: &[Child]) -> Derived {
    debug_assert!(!children.is_empty());
    let mut best_win: Option<(u32, usize)> = None;
    let mut best_tie: Option<(u32, usize)> = None;
    let mut slowest_loss: Option<(u32, usize)> = None;
    let mut not_lost: Option<usize> = None;
    for (k, c) in children.iter().enumerate() {
        let v = c.value_for_parent();
        let r = c.remoteness;
        if v == Value::WIN {
            if best_win.is_none_or(|(b, _)| r < b) {
                best_win = Some((r, k));
            }
        } else if v == Value::LOSE {
            if slowest_loss.is_none_or(|(b, _)| r > b) {
                slowest_loss = Some((r, k));
            }
        } else if v == Value::TIE {
            if best_tie.is_none_or(|(b, _)| r < b) {
                best_tie = Some((r, k));
            }
        } else if not_lost.is_none() {
            not_lost = Some(k);
        }
    }
    let make = |value, (r, k): (u32, usize)| Derived {
        value,
        remoteness: r + 1,
        witness: k,
    };
    if let Some(w) = best_win {
        make(Value::WIN, w)
    } else if let Some(t) = best_tie {
        make(Value::TIE, t)
    } else if let Some(k) = not_lost {
        Derived {
            value: Value::DRAW,
            remoteness: 0,
            witness: k,
        }
    } else {
        make(Value::LOSE, slowest_loss.expect("at least one child"))
    }
}

/// A margin as the WinBy pass folds it (kept off the `i32` extremes, which it uses
/// as "nothing folded yet").
fn folded(w: i64) -> i64 {
    w.clamp(i32::MIN as i64 + 1, i32::MAX as i64 - 1)
}

/// What the WinBy rules say about a position's margin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinByRule {
    /// The extreme over every decided child (0 without one): the margin, unless the
    /// position lies on a cycle of decided positions.
    pub extreme: i64,
    /// The child giving `extreme`, if any.
    pub witness: Option<usize>,
    /// Whether the position may lie on such a cycle: it has a decided child in its own
    /// tier that is not a leaf (a leaf, decided at remoteness 0, is never on a cycle).
    pub maybe_cyclic: bool,
}

/// The WinBy rule for a decided inner position whose player to move maximizes
/// (player one) or minimizes (player two).
pub fn winby_rule(maximizer: bool, children: &[Child]) -> WinByRule {
    let better = |a: i64, b: i64| if maximizer { a > b } else { a < b };
    let mut extreme: Option<(i64, usize)> = None;
    let mut maybe_cyclic = false;
    for (k, c) in children.iter().enumerate() {
        if c.itself {
            maybe_cyclic = true;
            continue;
        }
        if !decided(c.value) {
            continue;
        }
        let w = folded(c.winby);
        if extreme.is_none_or(|(e, _)| better(w, e)) {
            extreme = Some((w, k));
        }
        maybe_cyclic |= c.in_tier && c.remoteness > 0;
    }
    WinByRule {
        extreme: extreme.map_or(0, |(e, _)| e),
        witness: extreme.map(|(_, k)| k),
        maybe_cyclic,
    }
}

/// Whether `stored` obeys the WinBy rules for a decided inner position. Off cycles the
/// margin is exactly the extreme over the decided children. On a cycle the WinBy pass
/// takes the extreme over the children that finished: children in other tiers always
/// count, children in the tier only when they are not on a cycle themselves, and with
/// nothing counted the margin is 0. So a margin on a cycle is the extreme over some set
/// holding every decided child of another tier: no better than the extreme over all,
/// no worse than the extreme over the other tiers' children, and one of the children's
/// margins (or 0 when no decided child lies in another tier).
pub fn winby_allowed(maximizer: bool, children: &[Child], rule: &WinByRule, stored: i64) -> bool {
    if stored == rule.extreme {
        return true;
    }
    if !rule.maybe_cyclic {
        return false;
    }
    let at_least = |a: i64, b: i64| if maximizer { a >= b } else { a <= b };
    let decided_kids = || children.iter().filter(|c| decided(c.value) && !c.itself);
    let outside = decided_kids()
        .filter(|c| !c.in_tier)
        .map(|c| folded(c.winby))
        .reduce(|a, b| if at_least(a, b) { a } else { b });
    match outside {
        None if stored == 0 => true,
        _ => {
            at_least(rule.extreme, stored)
                && outside.is_none_or(|o| at_least(stored, o))
                && decided_kids().any(|c| folded(c.winby) == stored)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kid(value: Value, remoteness: u32) -> Child {
        Child {
            value,
            remoteness,
            winby: 0,
            same_mover: false,
            in_tier: false,
            itself: false,
        }
    }

    fn rec(d: Derived) -> (Value, u32, usize) {
        (d.value, d.remoteness, d.witness)
    }

    #[test]
    fn wins_take_the_quickest_lost_child() {
        let kids = [
            kid(Value::WIN, 0),
            kid(Value::LOSE, 6),
            kid(Value::TIE, 1),
            kid(Value::LOSE, 2),
            kid(Value::DRAW, 0),
        ];
        assert_eq!(rec(derive(&kids)), (Value::WIN, 3, 3));
    }

    #[test]
    fn losses_take_the_slowest_won_child() {
        let kids = [kid(Value::WIN, 1), kid(Value::WIN, 7), kid(Value::WIN, 3)];
        assert_eq!(rec(derive(&kids)), (Value::LOSE, 8, 1));
    }

    #[test]
    fn ties_come_after_wins_and_losses_and_draws_last() {
        let kids = [kid(Value::WIN, 1), kid(Value::TIE, 5), kid(Value::TIE, 2)];
        assert_eq!(rec(derive(&kids)), (Value::TIE, 3, 2));
        // A draw child keeps the position from losing; without a tie it is a draw.
        let kids = [kid(Value::WIN, 1), kid(Value::DRAW, 0)];
        assert_eq!(rec(derive(&kids)), (Value::DRAW, 0, 1));
        // A tie beats a draw.
        let kids = [kid(Value::DRAW, 0), kid(Value::TIE, 4)];
        assert_eq!(rec(derive(&kids)), (Value::TIE, 5, 1));
    }

    #[test]
    fn the_same_mover_keeps_the_value() {
        let mut a = kid(Value::WIN, 2);
        a.same_mover = true;
        let b = kid(Value::WIN, 0);
        assert_eq!(rec(derive(&[a, b])), (Value::WIN, 3, 0));
        let mut c = kid(Value::LOSE, 4);
        c.same_mover = true;
        assert_eq!(rec(derive(&[c, b])), (Value::LOSE, 5, 0));
    }

    fn wkid(value: Value, remoteness: u32, winby: i64, in_tier: bool) -> Child {
        Child {
            value,
            remoteness,
            winby,
            same_mover: false,
            in_tier,
            itself: false,
        }
    }

    #[test]
    fn winby_is_the_extreme_over_decided_children() {
        let kids = [
            wkid(Value::LOSE, 1, 3, false),
            wkid(Value::WIN, 1, -5, false),
            wkid(Value::DRAW, 0, 99, false),
            wkid(Value::TIE, 2, 0, true),
        ];
        let max = winby_rule(true, &kids);
        assert_eq!(
            (max.extreme, max.witness, max.maybe_cyclic),
            (3, Some(0), true)
        );
        let min = winby_rule(false, &kids);
        assert_eq!((min.extreme, min.witness), (-5, Some(1)));
        // Children only in other tiers or leaves of the tier: exact.
        let kids = [wkid(Value::LOSE, 1, 3, false), wkid(Value::WIN, 0, 9, true)];
        let r = winby_rule(true, &kids);
        assert_eq!((r.extreme, r.maybe_cyclic), (9, false));
        assert!(winby_allowed(true, &kids, &r, 9));
        assert!(!winby_allowed(true, &kids, &r, 3));
        // No decided child: 0.
        let r = winby_rule(false, &[wkid(Value::DRAW, 0, 4, false)]);
        assert_eq!((r.extreme, r.witness), (0, None));
    }

    #[test]
    fn on_a_possible_cycle_only_bounds_are_checked() {
        // Player one; another tier's child at 2, tier children at 5 and -1 (inner).
        let kids = [
            wkid(Value::WIN, 1, 2, false),
            wkid(Value::LOSE, 3, 5, true),
            wkid(Value::LOSE, 4, -1, true),
        ];
        let r = winby_rule(true, &kids);
        assert_eq!(r.extreme, 5);
        assert!(winby_allowed(true, &kids, &r, 5));
        // Only the other tier's child finished.
        assert!(winby_allowed(true, &kids, &r, 2));
        // Below the other tier's child, above everything, or no child's margin: wrong.
        assert!(!winby_allowed(true, &kids, &r, -1));
        assert!(!winby_allowed(true, &kids, &r, 6));
        assert!(!winby_allowed(true, &kids, &r, 3));
        assert!(!winby_allowed(true, &kids, &r, 0));
        // Without a child in another tier, nothing finished gives 0.
        let kids = [
            wkid(Value::LOSE, 3, 5, true),
            wkid(Value::LOSE, 4, -1, true),
        ];
        let r = winby_rule(true, &kids);
        assert!(winby_allowed(true, &kids, &r, 0));
        assert!(winby_allowed(true, &kids, &r, -1));
        assert!(!winby_allowed(true, &kids, &r, 1));
    }

    #[test]
    fn a_position_that_is_its_own_child_lies_on_a_cycle() {
        // Player one at a decided position with a move back to itself (margin 7 now)
        // and a child in another tier at 2: its margin is 2, never its own.
        let mut me = wkid(Value::WIN, 3, 7, true);
        me.itself = true;
        let kids = [me, wkid(Value::WIN, 1, 2, false)];
        let r = winby_rule(true, &kids);
        assert_eq!((r.extreme, r.maybe_cyclic), (2, true));
        assert!(winby_allowed(true, &kids, &r, 2));
        assert!(!winby_allowed(true, &kids, &r, 7));
    }
}
