//! Counts over a solved game: positions by value and by remoteness, per tier and in
//! total, for every legal position the database holds and for the positions reachable
//! from the initial position; the largest remoteness with an example position. Text
//! tables for people, a serializable report for JSON.
//!
//! Games with symmetry store only canonical positions, so both counts are of
//! canonical positions there, unless `every_position` counts every position exactly:
//! the legal ones of each tier's whole hash and the reachable ones of a forward search
//! (`reach_every`), both by the classes of the module's `reach_canonical` (symmetries
//! that keep the player to move and reachability), each weighed by its class's size
//! and read from the record of its canonical form; a two-player module that gives
//! `orbit_by_turn` has its legal ones counted from the stored canonical positions
//! alone, each under both players to move, in one pass over the tier. Weighing a
//! canonical position by its whole orbit (`orbit_size`) counted unreachable
//! colour-swapped images and put them under the wrong player to move. Counts are also split by the player to move
//! (`by_turn`), each position under its own. A partial database (`solve
//! --endgame`, `--tier`) is counted over the tiers it holds; the forward search from
//! the initial position runs only when the initial tier is stored. A reachable-only database (`solve --reachable`) holds
//! reachable positions alone: its "legal" counts are of the positions it holds, which
//! are the reachable ones, and its own marks say which positions those are. This file
//! reads tiers and counts; it must not solve or draw (the plot lives in `plot`).

use crate::engine::db::{self, Coverage, Database, DbError, ReachableTier, RecordSource};
use crate::engine::game::{GameHandle, ModuleError};
use crate::engine::marks::Marks;
use crate::engine::outcome::value_name;
use crate::engine::reach::{self, ReachError};
use crate::engine::solver::{full_meta_of, meta_of};
use crate::engine::tier::{TierGraph, TierGraphError};
use gamesman_plugin_api::{Tier, TierPosition, Value};
use rayon::prelude::*;
use serde::Serialize;

mod orbits;
mod tally;
mod text;
use orbits::Sums;
use tally::{add_counts, Tally};
pub use text::text;

/// Why an analysis failed.
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeError {
    /// The module failed.
    #[error(transparent)]
    Module(#[from] ModuleError),
    /// The tier graph could not be built.
    #[error(transparent)]
    Graph(#[from] TierGraphError),
    /// The forward search failed.
    #[error(transparent)]
    Reach(#[from] ReachError),
    /// Reading the database failed.
    #[error(transparent)]
    Db(#[from] DbError),
}

/// Decoded records kept per large tier read through a cache.
const READ_CACHE: u64 = 64 << 20;

/// Positions per value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ValueCounts {
    /// Wins for the player to move.
    pub win: u64,
    /// Losses for the player to move.
    pub lose: u64,
    /// Ties.
    pub tie: u64,
    /// Draws (loopy games).
    pub draw: u64,
    /// Positions of tiers the database does not hold.
    pub unsolved: u64,
}

/// Decided positions with one remoteness.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RemotenessRow {
    /// The remoteness.
    pub remoteness: u32,
    /// Wins at it.
    pub win: u64,
    /// Losses at it.
    pub lose: u64,
    /// Ties at it.
    pub tie: u64,
}

/// Decided positions with one WinBy margin.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MarginRow {
    /// The margin as stored: player one's result minus player two's with perfect
    /// play (positive when player one ends ahead).
    pub margin: i64,
    /// Positions with it.
    pub positions: u64,
}

/// Counts of the positions of one set with one player to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TurnCounts {
    /// Positions counted.
    pub total: u64,
    /// By value, for the player to move.
    pub by_value: ValueCounts,
}

/// Counts of one set of positions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Positions counted.
    pub total: u64,
    /// By value.
    pub by_value: ValueCounts,
    /// By the player to move: index 0 for the first player, 1 for the second, each
    /// position under its own (legal positions of a full database, and reachable
    /// ones with `--every-position`; empty for turn-free games and otherwise).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_turn: Vec<TurnCounts>,
    /// Wins, losses and ties by remoteness (draws have none), remoteness ascending.
    pub by_remoteness: Vec<RemotenessRow>,
    /// For WinBy games: decided positions by margin, margin ascending (absent for
    /// other games).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_margin: Vec<MarginRow>,
}

/// A position with the largest remoteness.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Example {
    /// Its remoteness.
    pub remoteness: u32,
    /// Its value.
    pub value: &'static str,
    /// Its tier.
    pub tier: u64,
    /// The position in the module's text form.
    pub position: String,
}

/// Counts of one set of positions and its example of the largest remoteness.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Section {
    /// The counts over all tiers.
    pub counts: Counts,
    /// A position with the largest remoteness (none when nothing is decided).
    pub max_remoteness: Option<Example>,
}

/// The counts of one tier.
#[derive(Clone, Debug, Serialize)]
pub struct TierCounts {
    /// The tier.
    pub tier: u64,
    /// Its name.
    pub name: String,
    /// Its hash size.
    pub size: u64,
    /// Whether the database holds it.
    pub solved: bool,
    /// Its legal (solved) positions.
    pub legal: Counts,
    /// Its positions reachable from the initial position.
    pub reachable: Counts,
}

/// A whole analysis.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// The module.
    pub game: String,
    /// The variant.
    pub variant: String,
    /// 1 for a puzzle (win counts solvable positions; lose, tie and draw unsolvable).
    pub players: u8,
    /// Whether records carry WinBy (then counts have `by_margin`).
    pub winby: bool,
    /// The database read.
    pub database: String,
    /// Whether only canonical positions are counted (games with symmetry, without
    /// `--every-position`).
    pub canonical_only: bool,
    /// Whether the forward search from the initial position ran (not when the initial
    /// tier is unsolved: then `reachable` counts nothing).
    pub reachable_searched: bool,
    /// Whether the database is reachable-only (`solve --reachable`): it holds only the
    /// positions reachable from the start, so `legal` counts those.
    pub reachable_only: bool,
    /// Tiers reachable from the initial tier that the database does not hold.
    pub unsolved_tiers: Vec<u64>,
    /// Every legal position the database holds.
    pub legal: Section,
    /// The positions reachable from the initial position.
    pub reachable: Section,
    /// Per tier, the initial tier first.
    pub tiers: Vec<TierCounts>,
}

/// How each counted position of a tier of a full database is weighed and split.
#[derive(Clone, Copy)]
struct Weigh<'a> {
    game: &'a GameHandle,
    tier: Tier,
    /// `--every-position`: positions are the representatives of `reach_canonical`'s
    /// classes (every member with the same player to move), each weighed by its
    /// class's size and read from the record of its canonical form; otherwise the
    /// stored canonical positions, once each.
    orbits: bool,
    /// Split by the player to move (not for turn-free positions, whose turn is not
    /// part of the position).
    turns: bool,
    /// Split the reachable positions by the player to move too (`--every-position`).
    reach_turns: bool,
}

/// What one counted position stands for.
struct Weighed {
    /// How many positions.
    weight: u64,
    /// Their player to move (none for turn-free positions).
    turn: Option<u8>,
    /// The index of the record that holds their value.
    record: u64,
}

impl Weigh<'_> {
    /// What position `i` of the tier stands for.
    fn of(&self, i: u64) -> Result<Weighed, ModuleError> {
        let p = TierPosition::new(self.tier, i);
        let (weight, record) = if self.orbits {
            (
                self.game.reach_orbit_size(p)?,
                self.game.canonical(p)?.position,
            )
        } else {
            (1, i)
        };
        let turn = if self.turns {
            Some(self.game.turn(p)?.0)
        } else {
            None
        };
        Ok(Weighed {
            weight,
            turn,
            record,
        })
    }
}

/// Counts the solved records of a tier of a full database, split by the player to
/// move. With `--every-position`, every legal position of the tier's whole hash is
/// counted under its own player to move (a symmetry may swap it), by class.
fn legal_tally(
    records: &dyn RecordSource,
    size: u64,
    weigh: Weigh<'_>,
) -> Result<Tally, AnalyzeError> {
    if weigh.orbits && weigh.turns && weigh.game.properties().players == 2 {
        if let Some(t) = orbit_tally(records, size, weigh)? {
            return Ok(t);
        }
    }
    let range = if weigh.orbits {
        size
    } else {
        records.positions()
    };
    let (t, sums) = (0..range)
        .into_par_iter()
        .try_fold(
            || (Tally::default(), Sums::default()),
            |(mut t, mut sums), i| {
                if weigh.orbits {
                    let p = TierPosition::new(weigh.tier, i);
                    if !weigh.game.is_legal(p)? {
                        return Ok((t, sums));
                    }
                    sums.legal();
                    if weigh.game.reach_canonical(p)? != p {
                        return Ok((t, sums));
                    }
                }
                let w = weigh.of(i)?;
                if weigh.orbits {
                    let p = TierPosition::new(weigh.tier, i);
                    orbits::check_class(weigh.game, "reach_orbit_size", p, size, w.weight, None)?;
                    sums.class(w.weight);
                }
                let r = record_at(records, w.record, weigh.tier)?;
                if r.is_solved() {
                    t.add(r.value, r.remoteness, r.winby, i, w.weight, w.turn);
                }
                Ok::<_, AnalyzeError>((t, sums))
            },
        )
        .try_reduce(
            || (Tally::default(), Sums::default()),
            |a, b| Ok((a.0.merge(b.0), a.1.merge(b.1))),
        )?;
    if weigh.orbits {
        // Every index was walked: the classes must cover the legal positions exactly.
        let legal = sums.legal_seen();
        orbits::check_tier(
            weigh.game,
            "reach_orbit_size",
            weigh.tier,
            size,
            sums,
            Some(legal),
        )?;
    }
    Ok(t)
}

/// `legal_tally` of `--every-position` from the stored canonical positions alone,
/// each counted under both players to move by the module's `orbit_by_turn`: one pass
/// over the tier's records in index order (block by block through the cache), where
/// visiting every index of the tier's hash costs module calls for the 8 or 16 times as
/// many non-canonical ones. `None` when the module does not give `orbit_by_turn`.
fn orbit_tally(
    records: &dyn RecordSource,
    size: u64,
    weigh: Weigh<'_>,
) -> Result<Option<Tally>, AnalyzeError> {
    use std::sync::atomic::{AtomicBool, Ordering};
    // A tier stored by its canonical prefix holds canonical positions alone;
    // otherwise the solved ones are, and each is asked.
    let prefix = records.positions() < size;
    let unanswered = AtomicBool::new(false);
    let (t, sums) = (0..records.positions())
        .into_par_iter()
        .try_fold(
            || (Tally::default(), Sums::default()),
            |(mut t, mut sums), i| {
                if unanswered.load(Ordering::Relaxed) {
                    return Ok((t, sums));
                }
                let r = records.record(i)?;
                let p = TierPosition::new(weigh.tier, i);
                if !r.is_solved() || (!prefix && weigh.game.canonical(p)? != p) {
                    return Ok((t, sums));
                }
                let orbit = weigh.game.orbit_size(p)?;
                let Some(by_turn) = weigh.game.orbit_by_turn(p, orbit)? else {
                    unanswered.store(true, Ordering::Relaxed);
                    return Ok((t, sums));
                };
                let turn = weigh.game.turn(p)?.0;
                orbits::check_class(
                    weigh.game,
                    "orbit_size",
                    p,
                    size,
                    orbit,
                    Some((by_turn, turn)),
                )?;
                sums.class(orbit);
                for (turn, n) in (1u8..).zip(by_turn) {
                    if n > 0 {
                        t.add(r.value, r.remoteness, r.winby, i, n, Some(turn));
                    }
                }
                Ok::<_, AnalyzeError>((t, sums))
            },
        )
        .try_reduce(
            || (Tally::default(), Sums::default()),
            |a, b| Ok((a.0.merge(b.0), a.1.merge(b.1))),
        )?;
    if unanswered.load(Ordering::Relaxed) {
        return Ok(None);
    }
    // The sum against the tier's legal positions, counted where the tier is small.
    let legal = if size <= orbits::EXACT_LIMIT {
        Some(orbits::count_legal(weigh.game, weigh.tier, size)?)
    } else {
        None
    };
    orbits::check_tier(weigh.game, "orbit_size", weigh.tier, size, sums, legal)?;
    Ok(Some(t))
}

/// Record `i` of a stored tier, or the error that the module's canonical form lies
/// past what is stored.
fn record_at(
    records: &dyn RecordSource,
    i: u64,
    tier: Tier,
) -> Result<crate::engine::record::Record, AnalyzeError> {
    if i >= records.positions() {
        return Err(AnalyzeError::Db(DbError::OutOfRange(
            TierPosition::new(tier, i),
            records.positions(),
        )));
    }
    Ok(records.record(i)?)
}

fn reachable_tally(
    records: Option<&dyn RecordSource>,
    reached: &Marks,
    size: u64,
    weigh: Weigh<'_>,
) -> Result<Tally, AnalyzeError> {
    let members: Vec<u64> = reached.iter().collect();
    let (t, sums) = members
        .par_iter()
        .try_fold(
            || (Tally::default(), Sums::default()),
            |(mut t, mut sums), &i| {
                let w = weigh.of(i)?;
                if weigh.orbits {
                    let p = TierPosition::new(weigh.tier, i);
                    orbits::check_class(weigh.game, "reach_orbit_size", p, size, w.weight, None)?;
                    sums.class(w.weight);
                }
                let turn = w.turn.filter(|_| weigh.reach_turns);
                match records {
                    Some(recs) => {
                        let r = record_at(recs, w.record, weigh.tier)?;
                        t.add(r.value, r.remoteness, r.winby, i, w.weight, turn);
                    }
                    None => t.add(Value::UNDECIDED, 0, None, i, w.weight, turn),
                }
                Ok::<_, AnalyzeError>((t, sums))
            },
        )
        .try_reduce(
            || (Tally::default(), Sums::default()),
            |a, b| Ok((a.0.merge(b.0), a.1.merge(b.1))),
        )?;
    if weigh.orbits {
        orbits::check_tier(weigh.game, "reach_orbit_size", weigh.tier, size, sums, None)?;
    }
    Ok(t)
}

/// Keeps the deeper of the running example and a tier's deepest position.
fn deeper(
    game: &GameHandle,
    best: Option<Example>,
    tier: Tier,
    deepest: Option<(u32, Value, u64)>,
) -> Result<Option<Example>, ModuleError> {
    let Some((r, v, i)) = deepest else {
        return Ok(best);
    };
    // Tiers come initial tier first, so on equal remoteness the earlier one stays.
    if best.as_ref().is_some_and(|b| b.remoteness >= r) {
        return Ok(best);
    }
    Ok(Some(Example {
        remoteness: r,
        value: value_name(v, game.properties().players),
        tier: tier.0,
        position: game.position_to_text(TierPosition::new(tier, i))?,
    }))
}

/// The tallies of a stored reachable-only tier: its solved positions, and all of them
/// (every one is reachable), with examples as real position indices.
fn held_tallies(t: &ReachableTier, weigh: Weigh<'_>) -> Result<(Tally, Tally), ModuleError> {
    // Both split by the player to move, as a full database's are.
    (0..t.records.len() as u64)
        .into_par_iter()
        .try_fold(
            || (Tally::default(), Tally::default()),
            |(mut legal, mut reachable), k| {
                let r = t.records.get(k);
                let i = t.marks.select(k);
                let turn = weigh.of(i)?.turn;
                if r.is_solved() {
                    legal.add(r.value, r.remoteness, r.winby, i, 1, turn);
                }
                let reach_turn = turn.filter(|_| weigh.reach_turns);
                reachable.add(r.value, r.remoteness, r.winby, i, 1, reach_turn);
                Ok((legal, reachable))
            },
        )
        .try_reduce(
            || (Tally::default(), Tally::default()),
            |a, b| Ok((a.0.merge(b.0), a.1.merge(b.1))),
        )
}

/// What `analyze_with` counts.
#[derive(Clone, Copy, Debug, Default)]
pub struct AnalyzeOptions {
    /// Weight each stored (canonical) position by its orbit size, so the counts are of
    /// every position (`canonical_only: false`).
    pub every_position: bool,
}

/// Counts the positions of every tier reachable from the initial tier.
pub fn analyze(game: &GameHandle, db: &dyn Database) -> Result<Analysis, AnalyzeError> {
    analyze_with(game, db, &AnalyzeOptions::default())
}

/// `analyze` with options.
pub fn analyze_with(
    game: &GameHandle,
    db: &dyn Database,
    options: &AnalyzeOptions,
) -> Result<Analysis, AnalyzeError> {
    let graph = TierGraph::discover(game)?;
    let stored = db.stored_tiers()?;
    let reachable_only = db::coverage(db)? == Some(Coverage::ReachableOnly);
    // A reachable-only database's positions are counted as stored (no orbits).
    let orbits = options.every_position && game.properties().has_symmetry && !reachable_only;
    // A complete reachable-only database knows what is reachable; otherwise search,
    // but only from a solved start (a partial database of a large game holds its
    // endgame, and the search would walk the whole game).
    let complete = graph.order.iter().all(|n| stored.contains(&n.tier));
    let start_solved = stored.contains(&game.initial_position()?.tier);
    let reached = if (reachable_only && complete) || !start_solved {
        None
    } else if orbits {
        // Exact: classes that keep reachability and the player to move, not whole
        // orbits (a colour swap's image of a reachable position may not be).
        Some(crate::engine::reach_every::search(game, &graph)?)
    } else {
        Some(reach::search(game, &graph, &|_, _| {})?)
    };
    let mut legal = Section::default();
    let mut reachable = Section::default();
    let mut tiers = Vec::new();
    let mut unsolved_tiers = Vec::new();
    for node in graph.order.iter().rev() {
        let empty = Marks::empty(0);
        let searched = reached
            .as_ref()
            .map(|r| r.tier(node.tier).unwrap_or(&empty));
        let solved = stored.contains(&node.tier);
        let weigh = Weigh {
            game,
            tier: node.tier,
            orbits,
            turns: !game.turn_free(),
            reach_turns: options.every_position,
        };
        let (legal_t, reach_t) = if !solved {
            unsolved_tiers.push(node.tier.0);
            let reach_t = match searched {
                Some(all) => reachable_tally(None, all, node.size, weigh)?,
                None => Tally::default(),
            };
            (Tally::default(), reach_t)
        } else if reachable_only {
            let t = db.load_reachable_tier(&full_meta_of(node))?;
            if searched.is_some_and(|s| *s != *t.marks) {
                return Err(AnalyzeError::Db(DbError::Corrupt {
                    path: db.describe().into(),
                    reason: format!(
                        "tier {} holds other positions than those reachable from the start now",
                        node.tier
                    ),
                }));
            }
            held_tallies(&t, weigh)?
        } else {
            // A large tier is read through a block cache, never whole.
            let meta = meta_of(node);
            let records: std::sync::Arc<dyn RecordSource> =
                if node.stored < crate::engine::solver::BIG_TIER {
                    db.load_tier(&meta)?
                } else {
                    db.open_records(&meta, READ_CACHE)?
                };
            let reach_t = match searched {
                Some(all) => reachable_tally(Some(records.as_ref()), all, node.size, weigh)?,
                None => Tally::default(),
            };
            (legal_tally(records.as_ref(), node.size, weigh)?, reach_t)
        };
        let t = TierCounts {
            tier: node.tier.0,
            name: node.name.clone(),
            size: node.size,
            solved,
            legal: legal_t.counts(),
            reachable: reach_t.counts(),
        };
        // Totals over the tiers, checked: only lying class sizes could pass 2^64.
        orbits::total(game, legal.counts.total, t.legal.total)?;
        orbits::total(game, reachable.counts.total, t.reachable.total)?;
        add_counts(&mut legal.counts, &t.legal);
        add_counts(&mut reachable.counts, &t.reachable);
        legal.max_remoteness = deeper(game, legal.max_remoteness, node.tier, legal_t.deepest)?;
        reachable.max_remoteness =
            deeper(game, reachable.max_remoteness, node.tier, reach_t.deepest)?;
        tiers.push(t);
    }
    Ok(Analysis {
        game: game.module_name().to_string(),
        variant: game.variant().to_string(),
        players: game.properties().players,
        winby: game.supports_winby(),
        database: db.describe(),
        canonical_only: game.properties().has_symmetry && !orbits,
        reachable_searched: reached.is_some() || (reachable_only && complete),
        reachable_only,
        unsolved_tiers,
        legal,
        reachable,
        tiers,
    })
}
