//! `host query`: a position's record and every move ranked best first, optionally a
//! depth-limited search first, as text or as one JSON object (the search result goes
//! into the object as `search`, so `--json` output is always one JSON document).

use super::{open_solved, DbChoice, Invocation};
use crate::engine::ask::query;
use crate::engine::ask::search::{self, SearchError};
use crate::engine::db::DbError;
use crate::engine::game::{GameHandle, ModuleError};
use crate::engine::numbers::count;
use serde::Serialize;

/// What `query` was asked.
#[derive(Clone, Debug, Default)]
pub struct QueryArgs {
    /// The position's text (the initial position when `None`).
    pub position: Option<String>,
    /// Also search this many plies.
    pub depth: Option<u32>,
    /// Print JSON.
    pub json: bool,
}

/// The result of `query --depth`.
#[derive(Clone, Debug, Serialize)]
pub struct SearchSummary {
    /// The depth searched.
    pub depth: u32,
    /// The best move found (none when the position is over).
    pub best: Option<String>,
    /// win or lose when the search proves a forced result, else score.
    pub verdict: &'static str,
    /// Plies to the forced end (forced results only).
    pub plies: Option<i64>,
    /// The score for the player to move (forced results are large).
    pub score: i64,
    /// Positions visited.
    pub positions: u64,
}

/// A search error with its type kept where it is one the exit codes know.
pub fn search_error(e: SearchError) -> anyhow::Error {
    let e = match e.downcast::<ModuleError>() {
        Ok(m) => return (*m).into(),
        Err(e) => e,
    };
    match e.downcast::<DbError>() {
        Ok(d) => (*d).into(),
        Err(e) => anyhow::anyhow!("searching: {e}"),
    }
}

fn searched(
    game: &GameHandle,
    db: &dyn crate::engine::db::Database,
    p: gamesman_plugin_api::TierPosition,
    depth: u32,
) -> anyhow::Result<SearchSummary> {
    let r = search::search(game, Some(db), p, depth).map_err(search_error)?;
    let best = match r.best {
        Some(m) => Some(game.move_to_text(p, m)?),
        None => None,
    };
    let plies = r.plies_to_end();
    Ok(SearchSummary {
        depth,
        best,
        verdict: match plies {
            Some(_) if r.score > 0 => "win",
            Some(_) => "lose",
            None => "score",
        },
        plies,
        score: r.score,
        positions: r.nodes,
    })
}

fn search_text(s: &SearchSummary) -> String {
    let verdict = match (s.verdict, s.plies) {
        ("win", Some(n)) => format!("forced win in {n} plies"),
        ("lose", Some(n)) => format!("forced loss in {n} plies"),
        _ => format!("score {} for the player to move", s.score),
    };
    format!(
        "search to depth {}: best move {}, {verdict} ({} positions)\n",
        s.depth,
        s.best.as_deref().unwrap_or("none"),
        count(s.positions)
    )
}

/// Runs `query` and prints the answer.
pub fn run(
    game: &GameHandle,
    inv: &Invocation,
    choice: &DbChoice,
    args: &QueryArgs,
) -> anyhow::Result<()> {
    // Parse first: a typo should not wait for a solve.
    let p = query::parse_position(game, args.position.as_deref())?;
    let db = open_solved(game, inv, choice, args.depth.is_some())?;
    let search = match args.depth {
        Some(d) => Some(searched(game, db.as_ref(), p, d)?),
        None => None,
    };
    let ranking = query::query(game, db.as_ref(), p)?;
    let solution = query::shortest_solution(game, db.as_ref(), p)?;
    if args.json {
        let mut report = query::report(game, &ranking)?;
        report.solution = solution;
        let mut value = serde_json::to_value(&report)?;
        if let (Some(s), Some(obj)) = (search, value.as_object_mut()) {
            obj.insert("search".into(), serde_json::to_value(s)?);
        }
        outln!("{}", serde_json::to_string_pretty(&value)?)?;
    } else {
        if let Some(s) = &search {
            out!("{}", search_text(s))?;
        }
        out!("{}", query::text(game, &ranking)?)?;
        if let Some(line) = solution {
            outln!(
                "shortest solution ({} moves): {}",
                count(line.len() as u64),
                line.join(" ")
            )?;
        }
    }
    Ok(())
}
