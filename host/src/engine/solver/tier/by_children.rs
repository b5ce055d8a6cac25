//! Solving a tier that is not loopy by one pass over its positions: no position of
//! such a tier leads into the tier itself (it does not list itself among its child
//! tiers), so every child is already solved, and each position's value follows from
//! its children's records alone. No parents, no undo moves, no reverse graph, no child
//! counters: what GamesmanOne does for its immediate-transition tiers.
//!
//! The values are exactly those of the retrograde pass (`retrograde`), which sends
//! child values up level by level: a position wins at one more than its nearest child
//! lost for the player moving there; failing that it loses at one more than its
//! farthest child when every child is won for that player; failing that it ties at
//! one more than its nearest tied child; the rest are draws. Positions without moves
//! that are not primitive lose at 0. Children that are skipped positions (record 0)
//! or draws never decide a position, as in the retrograde pass.
//!
//! Used when every child tier is held whole (records in memory), the game has no WinBy
//! (its pass needs the retrograde state) and moves alternate between the players or
//! never do (a puzzle); otherwise the retrograde pass solves the tier. A module that
//! gives the scan with children (`scan_children_batch`) answers a batch of positions
//! in one call; others are asked position by position. This file must not touch
//! databases or presentation.

use super::ctx::{Tick, TierCtx};
use super::recipe::Flow;
use crate::engine::game::GameHandle;
use crate::engine::record::{pack, remoteness_of, value_of, TierRecords, MAX_REMOTENESS};
use crate::engine::solver::base::SolveError;
use crate::engine::solver::input::ChildTier;
use crate::engine::tier::TierNode;
use gamesman_plugin_api::ffi::ScanRecord;
use gamesman_plugin_api::{Tier, TierPosition, Value};
use rayon::prelude::*;

/// Positions per piece of parallel work.
const CHUNK: usize = 2048;
/// Positions per children call into the module (its buffer holds `max_moves` children
/// per position).
const BATCH: usize = 64;

/// The records of `node` solved from its `children` in one pass (`Recipe::ByChildren`:
/// a tier that is not loopy, every child tier whole, no WinBy, no go-again moves);
/// `fused`: the module gives leaf values and children in one call.
pub fn solve(
    ctx: &TierCtx<'_>,
    children: &[ChildTier],
    fused: bool,
    tick: Tick<'_>,
) -> Result<TierRecords, SolveError> {
    let (game, node) = (ctx.game, ctx.node);
    let flow = Flow::of(game);
    debug_assert!(!node.loopy && !game.supports_winby() && flow != Flow::ByTurn);
    let mut tiers: Vec<(Tier, &TierRecords)> = Vec::with_capacity(children.len());
    for c in children {
        match c {
            ChildTier::Whole(f) => tiers.push((f.tier, f.records.as_ref())),
            ChildTier::Streamed(_) => unreachable!("Recipe::choose reads every child whole"),
        }
    }
    let n =
        usize::try_from(node.stored).map_err(|_| SolveError::TooLarge(node.tier, node.stored))?;
    let mut values = ctx.filled("records", n, || 0u16)?;
    let pass = Pass {
        game,
        node,
        tiers: &tiers,
        flow,
        max_moves: game.properties().max_moves as usize,
        // One call a batch gives each position's leaf value and children where the
        // module can (`scan_children_batch`), instead of four calls a position and a
        // children call.
        fused,
    };
    values.par_chunks_mut(CHUNK).enumerate().try_for_each_init(
        Scratch::default,
        |scratch, (c, out)| {
            pass.chunk((c * CHUNK) as u64, out, scratch)?;
            tick(out.len() as u64);
            Ok::<(), SolveError>(())
        },
    )?;
    Ok(TierRecords {
        values,
        winby: None,
    })
}

/// Buffers of one thread.
#[derive(Default)]
struct Scratch {
    /// Undecided positions of the batch, as indices into the tier.
    open: Vec<u64>,
    /// Their children, `max_moves` per position.
    children: Vec<TierPosition>,
    /// How many children each has.
    counts: Vec<u32>,
    /// The batch's scan records (`scan_children_batch`).
    scanned: Vec<ScanRecord>,
}

/// What every chunk of the pass shares.
struct Pass<'a> {
    game: &'a GameHandle,
    node: &'a TierNode,
    tiers: &'a [(Tier, &'a TierRecords)],
    flow: Flow,
    max_moves: usize,
    /// Whether the module gives leaf values and children in one call.
    fused: bool,
}

impl Pass<'_> {
    /// Solves the positions `first ..` into `out` (packed records).
    fn chunk(&self, first: u64, out: &mut [u16], s: &mut Scratch) -> Result<(), SolveError> {
        if s.children.len() < BATCH * self.max_moves {
            s.children
                .resize(BATCH * self.max_moves, TierPosition::default());
            s.counts.resize(BATCH, 0);
        }
        if self.fused && s.scanned.len() < BATCH {
            s.scanned.resize(BATCH, ScanRecord::default());
        }
        for (b, batch) in out.chunks_mut(BATCH).enumerate() {
            let start = first + (b * BATCH) as u64;
            if self.fused {
                self.fused_batch(start, batch, s)?;
                continue;
            }
            s.open.clear();
            for (k, rec) in batch.iter_mut().enumerate() {
                *rec = self.leaf(TierPosition::new(self.node.tier, start + k as u64))?;
                if *rec == OPEN {
                    s.open.push(start + k as u64);
                }
            }
            if s.open.is_empty() {
                continue;
            }
            let room = s.open.len() * self.max_moves;
            self.game.children_batch(
                self.node.tier,
                &s.open,
                &mut s.children[..room],
                &mut s.counts[..s.open.len()],
            )?;
            let mut at = 0usize;
            for (k, &i) in s.open.iter().enumerate() {
                let m = s.counts[k] as usize;
                batch[(i - start) as usize] = self.by_children(&s.children[at..at + m])?;
                at += m;
            }
        }
        Ok(())
    }

    /// Solves `batch` (positions `start ..`) from one `scan_children_batch` call.
    fn fused_batch(
        &self,
        start: u64,
        batch: &mut [u16],
        s: &mut Scratch,
    ) -> Result<(), SolveError> {
        let scanned = &mut s.scanned[..batch.len()];
        let kids = &mut s.children[..batch.len() * self.max_moves];
        if !self
            .game
            .scan_children_batch(self.node.tier, start, scanned, kids)?
        {
            return Err(SolveError::Module(self.game.bad_output(
                "scan_children_batch",
                format!("gave no children with its scan from {start}"),
            )));
        }
        let mut at = 0usize;
        for (rec, r) in batch.iter_mut().zip(scanned.iter()) {
            *rec = if r.value == ScanRecord::SKIP {
                0
            } else if r.value != Value::UNDECIDED.0 {
                pack(Value(r.value), 0)
            } else {
                let m = r.children as usize;
                at += m;
                self.by_children(&kids[at - m..at])?
            };
        }
        Ok(())
    }

    /// The record of a position decided without its children (0 for a skipped one,
    /// the primitive value at remoteness 0), or `OPEN`.
    fn leaf(&self, p: TierPosition) -> Result<u16, SolveError> {
        if !self.game.is_legal(p)? || !self.game.is_canonical(p)? {
            return Ok(0);
        }
        // Asked before the value, as the retrograde scan does: a module's bad turn is
        // found here, and a Classic module's layer tracks the turn its Primitive reads.
        self.game.turn(p)?;
        let v = self.game.primitive(p)?;
        Ok(if v == Value::UNDECIDED {
            OPEN
        } else {
            pack(v, 0)
        })
    }

    /// The record of a position from its distinct canonical children.
    fn by_children(&self, kids: &[TierPosition]) -> Result<u16, SolveError> {
        if kids.is_empty() {
            // No moves and not primitive: the player to move loses.
            return Ok(pack(Value::LOSE, 0));
        }
        let mut win: Option<u32> = None;
        let mut tie: Option<u32> = None;
        let mut lose = 0u32;
        let mut all_lose = true;
        let mut last: Option<(Tier, &TierRecords)> = None;
        for &c in kids {
            let records = match last {
                Some((t, r)) if t == c.tier => r,
                _ => {
                    let r = self.records_of(c.tier)?;
                    last = Some((c.tier, r));
                    r
                }
            };
            if c.position >= records.len() as u64 {
                return Err(SolveError::PastPrefix {
                    tier: c.tier,
                    index: c.position,
                    prefix: records.len() as u64,
                });
            }
            let packed = records.packed(c.position);
            let r = remoteness_of(packed);
            let v = match self.flow {
                Flow::Puzzle => value_of(packed),
                _ => value_of(packed).invert(),
            };
            if v == Value::WIN {
                win = Some(win.map_or(r, |w| w.min(r)));
            } else if v == Value::LOSE {
                lose = lose.max(r);
            } else {
                all_lose = false;
                if v == Value::TIE {
                    tie = Some(tie.map_or(r, |t| t.min(r)));
                }
            }
        }
        let (v, r) = match (win, tie) {
            (Some(r), _) => (Value::WIN, r + 1),
            (None, _) if all_lose => (Value::LOSE, lose + 1),
            (None, Some(r)) => (Value::TIE, r + 1),
            (None, None) => return Ok(pack(Value::DRAW, 0)),
        };
        if r > MAX_REMOTENESS {
            return Err(SolveError::RemotenessOverflow(self.node.tier));
        }
        Ok(pack(v, r))
    }

    /// The records of child tier `t` (the adapter keeps children in declared tiers).
    fn records_of(&self, t: Tier) -> Result<&TierRecords, SolveError> {
        self.tiers
            .iter()
            .find(|&&(tier, _)| tier == t)
            .map(|&(_, r)| r)
            .ok_or(SolveError::UnknownChildTier {
                tier: self.node.tier,
                child: t,
            })
    }
}

/// A marker for "not decided without its children": never a packed record (an
/// undecided value with the largest remoteness).
const OPEN: u16 = u16::MAX;
