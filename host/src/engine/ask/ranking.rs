//! Every legal move of a position with what it achieves for the player making it,
//! ordered best first, and the perfect player's choice among them. Shared by `play`
//! (its `ps`, `hint` and the computer's moves) and `query`.
//!
//! Order: winning moves (shortest first), ties, draws, losing moves (longest first),
//! unsolved moves last; in WinBy mode a larger margin for the mover comes first within
//! each value. This file reads records; it must not print, solve or choose at random.

use crate::engine::db::{Database, DbError};
use crate::engine::game::{GameHandle, ModuleError};
use crate::engine::outcome::margin_for;
use crate::engine::record::Record;
use gamesman_plugin_api::{Move, Player, TierPosition, Value};
use std::cmp::Reverse;

/// Why a position's moves could not be ranked.
#[derive(Debug, thiserror::Error)]
pub enum RankError {
    /// The module failed.
    #[error(transparent)]
    Module(#[from] ModuleError),
    /// The database failed.
    #[error(transparent)]
    Db(#[from] DbError),
    /// The records contradict each other (a damaged or mismatched database).
    #[error("the database is inconsistent: {0}")]
    Inconsistent(String),
}

/// The stored record of `p`, looked up under its canonical form; `Record::UNSOLVED`
/// when its tier is not stored.
pub fn lookup(game: &GameHandle, db: &dyn Database, p: TierPosition) -> Result<Record, RankError> {
    // Games with symmetry store only canonical positions: any other index would read
    // the record of an unsolved (skipped) position.
    let c = game.canonical(p)?;
    Ok(db.lookup(c)?.unwrap_or(Record::UNSOLVED))
}

/// One legal move and what it leads to.
#[derive(Clone, Debug)]
pub struct RankedMove {
    /// The move in the module's encoding.
    pub mv: Move,
    /// The move in the module's text form.
    pub text: String,
    /// The position it leads to, as played (not canonicalized).
    pub child: TierPosition,
    /// The child's record, from the view of the player to move at the child.
    pub record: Record,
    /// What the move achieves for the player making it.
    pub move_value: Value,
    /// Whether the player to move at the child is the one who made the move.
    pub same_player: bool,
}

/// A position, its record, and its moves best first.
#[derive(Clone, Debug)]
pub struct Ranking {
    /// The position.
    pub position: TierPosition,
    /// Whose turn it is.
    pub mover: Player,
    /// Its record, from the mover's view.
    pub record: Record,
    /// The module's primitive value (`UNDECIDED` while the game goes on).
    pub primitive: Value,
    /// Whether the order (and the perfect choice) uses WinBy.
    pub winby_mode: bool,
    /// The legal moves, best first; empty at the end of a game.
    pub moves: Vec<RankedMove>,
    /// Whether the position can occur from the initial position, where the database
    /// knows (a reachable-only database); `None` otherwise.
    pub reachable: Option<bool>,
}

/// Ranking key, smaller is better: value class, then the margin, then remoteness.
type Key = (u8, Reverse<i64>, i64);

impl Ranking {
    /// Looks up `p` and every move from it. `winby_mode` orders by margin first where
    /// the game stores WinBy.
    pub fn of(
        game: &GameHandle,
        db: &dyn Database,
        p: TierPosition,
        winby_mode: bool,
    ) -> Result<Ranking, RankError> {
        let winby_mode = winby_mode && game.supports_winby();
        let mover = game.turn(p)?;
        let record = lookup(game, db, p)?;
        let reachable = db.reachable(game.canonical(p)?)?;
        let primitive = game.primitive(p)?;
        let players = game.properties().players;
        // As the solver sees it: only a go-again move may keep the player to move.
        let go_again = game.properties().go_again;
        let mut moves = Vec::new();
        // A primitive position ends the game even when the module would list moves.
        if primitive == Value::UNDECIDED {
            for mv in game.moves(p)? {
                let child = game.do_move(p, mv)?;
                let record = lookup(game, db, child)?;
                let same_player = players == 1 || (go_again && game.turn(child)? == mover);
                let move_value = if same_player {
                    record.value
                } else {
                    record.value.invert()
                };
                moves.push(RankedMove {
                    mv,
                    text: game.move_to_text(p, mv)?,
                    child,
                    record,
                    move_value,
                    same_player,
                });
            }
        }
        let mut ranking = Ranking {
            position: p,
            mover,
            record,
            primitive,
            winby_mode,
            moves,
            reachable,
        };
        // Stable: equally good moves keep the module's order.
        let keys: Vec<Key> = ranking.moves.iter().map(|m| ranking.key(m)).collect();
        let mut order: Vec<usize> = (0..keys.len()).collect();
        order.sort_by_key(|&i| keys[i]);
        ranking.moves = order
            .into_iter()
            .map(|i| ranking.moves[i].clone())
            .collect();
        Ok(ranking)
    }

    /// The mover's margin after `m` (WinBy games with a decided child only).
    pub fn margin(&self, m: &RankedMove) -> Option<i64> {
        m.record.winby.map(|w| margin_for(w, self.mover))
    }

    /// Why the position has no record, in words (for an unsolved position).
    pub fn unsolved_reason(&self) -> String {
        if self.reachable == Some(false) {
            "it cannot occur in a game from the initial position, and the database is reachable-only (`solve --reachable`)".into()
        } else {
            format!("tier {} is not in the database", self.position.tier)
        }
    }

    /// Whether the game is over at this position (a primitive, or no legal move).
    pub fn is_over(&self) -> bool {
        self.primitive != Value::UNDECIDED || self.moves.is_empty()
    }

    fn key(&self, m: &RankedMove) -> Key {
        let class = match m.move_value {
            Value::WIN => 0,
            Value::TIE => 1,
            Value::DRAW => 2,
            Value::LOSE => 3,
            _ => 4,
        };
        let margin = if self.winby_mode {
            self.margin(m).unwrap_or(0)
        } else {
            0
        };
        let r = m.record.remoteness as i64;
        let remoteness = match m.move_value {
            Value::WIN | Value::TIE => r,
            // Longest loss first: gives the opponent the most chances to go wrong.
            Value::LOSE => -r,
            _ => 0,
        };
        (class, Reverse(margin), remoteness)
    }

    /// The moves as good as the best one (in this ranking's mode).
    pub fn best(&self) -> Vec<&RankedMove> {
        let Some(first) = self.moves.first() else {
            return Vec::new();
        };
        let k = self.key(first);
        self.moves.iter().filter(|m| self.key(m) == k).collect()
    }

    /// The moves a perfect player chooses from (at random): every legal move when the
    /// position is unsolved; in WinBy mode the moves to a child with the position's own
    /// WinBy and a value that agrees with the position's (the WinBy seed's
    /// GetWinByMove), the quickest of them by remoteness; otherwise `best`.
    pub fn perfect_choices(&self) -> Vec<&RankedMove> {
        if !self.record.is_solved() || self.moves.iter().all(|m| !m.record.is_solved()) {
            return self.moves.iter().collect();
        }
        if self.winby_mode {
            if let Some(w) = self.record.winby {
                let same: Vec<&RankedMove> = self
                    .moves
                    .iter()
                    .filter(|m| m.move_value == self.record.value && m.record.winby == Some(w))
                    .collect();
                // All of them share the value and the margin, so the key now only
                // compares remoteness: shortest win, longest loss.
                if let Some(k) = same.iter().map(|m| self.key(m)).min() {
                    return same.into_iter().filter(|m| self.key(m) == k).collect();
                }
                // No child carries the parent's WinBy (a module whose margins disagree
                // with its values): fall back on the ordinary best moves.
            }
        }
        self.best()
    }

    /// "False hope" (a future goal of the WinBy seed: win, but by as little as
    /// possible): among the winning moves, those whose margin for the mover is the
    /// smallest, the quickest of them by remoteness. Where no winning move carries a
    /// margin (a lost or drawn position, a game without WinBy, an unsolved position) it
    /// is `perfect_choices`.
    pub fn false_hope_choices(&self) -> Vec<&RankedMove> {
        let wins: Vec<(&RankedMove, i64)> = self
            .moves
            .iter()
            .filter(|m| m.move_value == Value::WIN)
            .filter_map(|m| self.margin(m).map(|w| (m, w)))
            .collect();
        let Some(smallest) = wins.iter().map(|&(_, w)| w).min() else {
            return self.perfect_choices();
        };
        let quickest = wins
            .iter()
            .filter(|&&(_, w)| w == smallest)
            .map(|(m, _)| m.record.remoteness)
            .min();
        wins.into_iter()
            .filter(|&(m, w)| w == smallest && Some(m.record.remoteness) == quickest)
            .map(|(m, _)| m)
            .collect()
    }
}
