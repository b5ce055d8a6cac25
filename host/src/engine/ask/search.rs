//! Depth-limited alpha-beta search (pgChess's `next_move`) for positions the databases
//! do not cover: an unsolved tier, or a game too big to solve. Leaves are scored by the
//! database where it has the position solved, otherwise by the module's optional
//! `score` heuristic (positive for player one; 0 when the module has none).
//!
//! This file only reads the game and a database: it must not solve or write anything.

use crate::engine::db::Database;
use crate::engine::game::GameHandle;
use gamesman_plugin_api::{Move, Player, TierPosition, Value};

/// A won game's score at the root; a win found `n` plies later scores `MATE - n`, so
/// the search prefers the fastest win and the slowest loss.
pub const MATE: i64 = 1 << 40;

/// Scores larger than this in magnitude are forced results, not heuristics.
pub const MATE_BOUND: i64 = MATE - (1 << 20);

/// The outcome of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move found (`None` when the position is over or has no move).
    pub best: Option<Move>,
    /// Its score from the view of the player to move at the root.
    pub score: i64,
    /// Positions visited.
    pub nodes: u64,
}

impl SearchResult {
    /// Plies to the forced end when the score is a forced win or loss.
    pub fn plies_to_end(&self) -> Option<i64> {
        (self.score.abs() > MATE_BOUND).then(|| MATE - self.score.abs())
    }
}

/// Any error of a module call or a database lookup.
pub type SearchError = Box<dyn std::error::Error + Send + Sync>;

struct Searcher<'a> {
    game: &'a GameHandle,
    db: Option<&'a dyn Database>,
    has_score: bool,
    nodes: u64,
}

impl Searcher<'_> {
    /// The database's value of `p` as a score for the player to move, if solved.
    fn stored(&self, p: TierPosition, ply: i64) -> Result<Option<i64>, SearchError> {
        let Some(db) = self.db else { return Ok(None) };
        let Some(r) = db.lookup(self.game.canonical(p)?)? else {
            return Ok(None);
        };
        let rem = r.remoteness as i64;
        Ok(match r.value {
            Value::WIN => Some(MATE - ply - rem),
            Value::LOSE => Some(-(MATE - ply - rem)),
            Value::TIE | Value::DRAW => Some(0),
            _ => None,
        })
    }

    /// The heuristic for the player to move.
    fn heuristic(&self, p: TierPosition) -> Result<i64, SearchError> {
        if !self.has_score {
            return Ok(0);
        }
        let s = self.game.score(p)?;
        Ok(if self.game.turn(p)? == Player::ONE {
            s
        } else {
            -s
        })
    }

    /// Negamax with alpha-beta: the score of `p` for its player to move.
    fn negamax(
        &mut self,
        p: TierPosition,
        depth: u32,
        ply: i64,
        mut alpha: i64,
        beta: i64,
    ) -> Result<(i64, Option<Move>), SearchError> {
        self.nodes += 1;
        match self.game.primitive(p)? {
            Value::WIN => return Ok((MATE - ply, None)),
            Value::LOSE => return Ok((-(MATE - ply), None)),
            Value::TIE | Value::DRAW => return Ok((0, None)),
            _ => {}
        }
        if ply > 0 {
            if let Some(s) = self.stored(p, ply)? {
                return Ok((s, None));
            }
        }
        if depth == 0 {
            return Ok((self.heuristic(p)?, None));
        }
        let moves = self.game.moves(p)?;
        if moves.is_empty() {
            // a position that is not primitive but has no moves is a loss
            return Ok((-(MATE - ply), None));
        }
        let me = self.game.turn(p)?;
        let mut best = (i64::MIN, None);
        for m in moves {
            let child = self.game.do_move(p, m)?;
            let score = if self.game.turn(child)? == me {
                // go-again move: the same player's view, full window
                self.negamax(child, depth - 1, ply + 1, alpha, beta)?.0
            } else {
                -self.negamax(child, depth - 1, ply + 1, -beta, -alpha)?.0
            };
            if score > best.0 {
                best = (score, Some(m));
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        Ok(best)
    }
}

/// Searches `depth` plies from `p`, scoring leaves with `db` where it has them.
pub fn search(
    game: &GameHandle,
    db: Option<&dyn Database>,
    p: TierPosition,
    depth: u32,
) -> Result<SearchResult, SearchError> {
    let mut s = Searcher {
        game,
        db,
        has_score: game.properties().has_score,
        nodes: 0,
    };
    let (score, best) = s.negamax(p, depth, 0, -MATE - 1, MATE + 1)?;
    Ok(SearchResult {
        best,
        score,
        nodes: s.nodes,
    })
}
