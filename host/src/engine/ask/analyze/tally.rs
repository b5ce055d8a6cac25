//! A running count of positions for `analyze`: by value, remoteness, margin and
//! player to move, with the deepest position seen, and the sums of finished counts.
//! Sums saturate (class sizes are checked by `orbits`, so they never need to). It
//! counts what it is given; which positions and how much each weighs is
//! `analyze`'s business.

use super::{Counts, MarginRow, RemotenessRow, TurnCounts, ValueCounts};
use gamesman_plugin_api::Value;
use std::collections::BTreeMap;

/// A running count with the first position of the largest remoteness seen.
#[derive(Clone, Default)]
pub(super) struct Tally {
    pub(super) values: ValueCounts,
    /// Values by the player to move (index = player - 1), when asked.
    turns: Vec<ValueCounts>,
    by_remoteness: Vec<[u64; 3]>,
    margins: BTreeMap<i64, u64>,
    /// (remoteness, value, position index)
    pub(super) deepest: Option<(u32, Value, u64)>,
}

impl Tally {
    /// Counts one position `weight` times (its orbit, or 1); `turn` is the player to
    /// move (1-based) when counts by turn are kept.
    pub(super) fn add(
        &mut self,
        v: Value,
        r: u32,
        winby: Option<i64>,
        index: u64,
        weight: u64,
        turn: Option<u8>,
    ) {
        if let Some(p) = turn {
            let k = (p as usize).saturating_sub(1);
            if self.turns.len() <= k {
                self.turns.resize(k + 1, ValueCounts::default());
            }
            bump(&mut self.turns[k], v, weight);
        }
        bump(&mut self.values, v, weight);
        let slot = match v {
            Value::WIN => 0,
            Value::LOSE => 1,
            Value::TIE => 2,
            _ => return,
        };
        if self.by_remoteness.len() <= r as usize {
            self.by_remoteness.resize(r as usize + 1, [0; 3]);
        }
        self.by_remoteness[r as usize][slot] =
            self.by_remoteness[r as usize][slot].saturating_add(weight);
        if let Some(w) = winby {
            let slot = self.margins.entry(w).or_default();
            *slot = slot.saturating_add(weight);
        }
        if self
            .deepest
            .is_none_or(|(d, _, i)| r > d || (r == d && index < i))
        {
            self.deepest = Some((r, v, index));
        }
    }

    pub(super) fn merge(mut self, other: Tally) -> Tally {
        add_values(&mut self.values, &other.values);
        if self.turns.len() < other.turns.len() {
            self.turns.resize(other.turns.len(), ValueCounts::default());
        }
        for (mine, theirs) in self.turns.iter_mut().zip(&other.turns) {
            add_values(mine, theirs);
        }
        if self.by_remoteness.len() < other.by_remoteness.len() {
            self.by_remoteness.resize(other.by_remoteness.len(), [0; 3]);
        }
        for (mine, theirs) in self.by_remoteness.iter_mut().zip(&other.by_remoteness) {
            for k in 0..3 {
                mine[k] = mine[k].saturating_add(theirs[k]);
            }
        }
        for (w, n) in other.margins {
            let slot = self.margins.entry(w).or_default();
            *slot = slot.saturating_add(n);
        }
        self.deepest = match (self.deepest, other.deepest) {
            (Some(x), Some(y)) => Some(if y.0 > x.0 || (y.0 == x.0 && y.2 < x.2) {
                y
            } else {
                x
            }),
            (x, y) => x.or(y),
        };
        self
    }

    pub(super) fn counts(&self) -> Counts {
        let v = self.values;
        Counts {
            total: total_of(&v),
            by_value: v,
            by_turn: self
                .turns
                .iter()
                .map(|t| TurnCounts {
                    total: total_of(t),
                    by_value: *t,
                })
                .collect(),
            by_remoteness: self
                .by_remoteness
                .iter()
                .enumerate()
                .filter(|(_, c)| c.iter().any(|&n| n > 0))
                .map(|(r, c)| RemotenessRow {
                    remoteness: r as u32,
                    win: c[0],
                    lose: c[1],
                    tie: c[2],
                })
                .collect(),
            by_margin: self
                .margins
                .iter()
                .map(|(&margin, &positions)| MarginRow { margin, positions })
                .collect(),
        }
    }
}

/// Adds `weight` positions of value `v` to `c`.
fn bump(c: &mut ValueCounts, v: Value, weight: u64) {
    match v {
        Value::WIN => c.win = c.win.saturating_add(weight),
        Value::LOSE => c.lose = c.lose.saturating_add(weight),
        Value::TIE => c.tie = c.tie.saturating_add(weight),
        Value::DRAW => c.draw = c.draw.saturating_add(weight),
        _ => c.unsolved = c.unsolved.saturating_add(weight),
    }
}

fn add_values(a: &mut ValueCounts, b: &ValueCounts) {
    a.win = a.win.saturating_add(b.win);
    a.lose = a.lose.saturating_add(b.lose);
    a.tie = a.tie.saturating_add(b.tie);
    a.draw = a.draw.saturating_add(b.draw);
    a.unsolved = a.unsolved.saturating_add(b.unsolved);
}

fn total_of(v: &ValueCounts) -> u64 {
    [v.lose, v.tie, v.draw, v.unsolved]
        .iter()
        .fold(v.win, |a, &b| a.saturating_add(b))
}

pub(super) fn add_counts(total: &mut Counts, c: &Counts) {
    total.total = total.total.saturating_add(c.total);
    add_values(&mut total.by_value, &c.by_value);
    if total.by_turn.len() < c.by_turn.len() {
        total.by_turn.resize(c.by_turn.len(), TurnCounts::default());
    }
    for (mine, theirs) in total.by_turn.iter_mut().zip(&c.by_turn) {
        mine.total = mine.total.saturating_add(theirs.total);
        add_values(&mut mine.by_value, &theirs.by_value);
    }
    for row in &c.by_remoteness {
        match total
            .by_remoteness
            .binary_search_by_key(&row.remoteness, |r| r.remoteness)
        {
            Ok(i) => {
                let t = &mut total.by_remoteness[i];
                t.win = t.win.saturating_add(row.win);
                t.lose = t.lose.saturating_add(row.lose);
                t.tie = t.tie.saturating_add(row.tie);
            }
            Err(i) => total.by_remoteness.insert(i, *row),
        }
    }
    for row in &c.by_margin {
        match total
            .by_margin
            .binary_search_by_key(&row.margin, |r| r.margin)
        {
            Ok(i) => {
                total.by_margin[i].positions =
                    total.by_margin[i].positions.saturating_add(row.positions)
            }
            Err(i) => total.by_margin.insert(i, *row),
        }
    }
}
