//! Questions about one position: its record and every move ranked best first, as the
//! fixed JSON object of issue 4 for programs and as text for people (the same move
//! table is `ps` in the player).
//!
//! This file turns rankings into reports; it must not solve, and it reads positions
//! only through the module's own `text_to_position`.

use crate::engine::ask::ranking::{RankError, Ranking};
use crate::engine::db::Database;
use crate::engine::game::{GameHandle, ModuleError};
use crate::engine::outcome::{describe, value_name};
use crate::engine::record::Record;
use gamesman_plugin_api::{TierPosition, Value};
use serde::Serialize;
use std::fmt::Write as _;

/// Why a query failed.
#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    /// The module rejected the position text; its message says why.
    #[error("{} is not a position of this game: {}", crate::engine::messages::quote(.text), crate::engine::messages::tame(.message, .text))]
    BadPosition {
        /// What was given.
        text: String,
        /// The module's message.
        message: String,
    },
    /// The module failed.
    #[error(transparent)]
    Module(#[from] ModuleError),
    /// Looking up records failed.
    #[error(transparent)]
    Rank(#[from] RankError),
}

/// A position's answer, in the JSON shape issue 4 fixes.
#[derive(Clone, Debug, Serialize)]
pub struct QueryReport {
    /// The position in the module's text form.
    pub position: String,
    /// Its tier.
    pub tier: u64,
    /// The tier's name.
    pub tier_name: String,
    /// win, lose, tie, draw or unsolved, for the player to move (for puzzles
    /// solvable, unsolvable or unsolved), as the text says it (`outcome::value_name`).
    pub value: &'static str,
    /// Moves to the end with perfect play (null when unsolved or a draw).
    pub remoteness: Option<u32>,
    /// The stored WinBy, from player one's view (null where the game has none).
    pub winby: Option<i64>,
    /// Every legal move, best first.
    pub moves: Vec<MoveReport>,
    /// For a solvable puzzle: the moves of a shortest solution (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<Vec<String>>,
    /// Whether the position can occur in a game from the initial position: present
    /// only for a reachable-only database (`solve --reachable`), which holds records
    /// of reachable positions alone; `false` says why the value is "unsolved".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reachable: Option<bool>,
}

/// One move of a `QueryReport`.
#[derive(Clone, Debug, Serialize)]
pub struct MoveReport {
    /// The move in the module's text form.
    #[serde(rename = "move")]
    pub mv: String,
    /// The position it leads to.
    pub position: String,
    /// That position's value, for the player to move there.
    pub value: &'static str,
    /// That position's remoteness.
    pub remoteness: Option<u32>,
    /// That position's WinBy, from player one's view.
    pub winby: Option<i64>,
    /// What the move achieves for the player making it.
    pub move_value: &'static str,
}

/// The remoteness a report shows: none for draws and unsolved positions.
pub fn remoteness_of(r: &Record) -> Option<u32> {
    // A draw's stored remoteness means nothing; unsolved positions have none.
    match r.value {
        Value::WIN | Value::LOSE | Value::TIE => Some(r.remoteness),
        _ => None,
    }
}

/// Parses `text` (the initial position when `None`) with the module, refusing
/// positions its `is_legal` says cannot occur (they have no record).
pub fn parse_position(game: &GameHandle, text: Option<&str>) -> Result<TierPosition, QueryError> {
    let Some(t) = text else {
        return Ok(game.initial_position()?);
    };
    let bad = |message: String| QueryError::BadPosition {
        text: t.to_string(),
        message,
    };
    let p = game.text_to_position(t)?.map_err(bad)?;
    if !game.is_legal(p)? {
        return Err(bad(
            "the module says this position cannot occur in a game".into()
        ));
    }
    Ok(p)
}

/// Ranks the moves of `p`. Moves are ordered by WinBy where the game stores it, as
/// the player's default.
pub fn query(game: &GameHandle, db: &dyn Database, p: TierPosition) -> Result<Ranking, QueryError> {
    Ok(Ranking::of(game, db, p, true)?)
}

/// The JSON report of a ranking.
pub fn report(game: &GameHandle, ranking: &Ranking) -> Result<QueryReport, QueryError> {
    let p = ranking.position;
    let players = game.properties().players;
    let moves = ranking
        .moves
        .iter()
        .map(|m| {
            Ok(MoveReport {
                mv: m.text.clone(),
                position: game.position_to_text(m.child)?,
                value: value_name(m.record.value, players),
                remoteness: remoteness_of(&m.record),
                winby: m.record.winby,
                move_value: value_name(m.move_value, players),
            })
        })
        .collect::<Result<Vec<_>, ModuleError>>()?;
    Ok(QueryReport {
        position: game.position_to_text(p)?,
        tier: p.tier.0,
        tier_name: game.tier_name(p.tier)?,
        value: value_name(ranking.record.value, players),
        remoteness: remoteness_of(&ranking.record),
        winby: ranking.record.winby,
        moves,
        solution: None,
        reachable: ranking.reachable,
    })
}

/// For a puzzle position the database says is solvable in N: the N moves of a shortest
/// solution, following at each step a move to a position solvable in one move fewer.
/// `None` for two-player games and positions that are not solvable.
pub fn shortest_solution(
    game: &GameHandle,
    db: &dyn Database,
    p: TierPosition,
) -> Result<Option<Vec<String>>, QueryError> {
    if game.properties().players != 1 {
        return Ok(None);
    }
    let record = crate::engine::ask::ranking::lookup(game, db, p)?;
    if record.value != Value::WIN {
        return Ok(None);
    }
    let mut line = Vec::with_capacity(record.remoteness as usize);
    let (mut at, mut left) = (p, record.remoteness);
    while left > 0 {
        let ranking = Ranking::of(game, db, at, false)?;
        let Some(step) = ranking
            .moves
            .iter()
            .find(|m| m.record.value == Value::WIN && m.record.remoteness + 1 == left)
        else {
            // A consistent database always has such a move; say so rather than loop.
            return Err(QueryError::Rank(RankError::Inconsistent(format!(
                "no move from {} leads one step closer to the solution",
                game.position_to_text(at)?
            ))));
        };
        line.push(step.text.clone());
        at = step.child;
        left -= 1;
    }
    Ok(Some(line))
}

/// The moves of a ranking as a table for people: move, result for the mover,
/// remoteness, margin (WinBy games), and the position reached.
pub fn moves_table(game: &GameHandle, ranking: &Ranking) -> Result<String, ModuleError> {
    let players = game.properties().players;
    let winby = game.supports_winby();
    let mut out = String::new();
    if ranking.moves.is_empty() {
        out.push_str("No legal moves: the game is over.\n");
        return Ok(out);
    }
    let _ = writeln!(
        out,
        "Moves for {}, best first (by {}):",
        if game.turn_free() {
            "the player to move".to_string()
        } else {
            ranking.mover.to_string()
        },
        if ranking.winby_mode {
            "WinBy"
        } else {
            "remoteness"
        }
    );
    let mut rows = vec![vec![
        "move".to_string(),
        "value for mover".to_string(),
        "remoteness after".to_string(),
    ]];
    if winby {
        rows[0].push("margin".into());
    }
    rows[0].push("position".into());
    for m in &ranking.moves {
        let mut row = vec![
            m.text.clone(),
            value_name(m.move_value, players).to_string(),
            remoteness_of(&m.record).map_or("-".into(), |r| r.to_string()),
        ];
        if winby {
            // The margin from the mover's side, as the prediction line reads it.
            row.push(ranking.margin(m).map_or("-".into(), |w| format!("{w:+}")));
        }
        row.push(game.position_to_text(m.child)?);
        rows.push(row);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        let _ = writeln!(out, "  {}", cells.join("  ").trim_end());
    }
    Ok(out)
}

/// A ranking as text for people: the position, its value, and the move table.
pub fn text(game: &GameHandle, ranking: &Ranking) -> Result<String, ModuleError> {
    let p = ranking.position;
    let players = game.properties().players;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "position {}  (tier {} \"{}\", index {})",
        game.position_to_text(p)?,
        p.tier,
        game.tier_name(p.tier)?,
        p.position
    );
    out.push_str(&game.board_to_text(p)?);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    let value = if ranking.record.is_solved() {
        describe(&ranking.record, players, ranking.winby_mode)
    } else if ranking.reachable == Some(false) {
        "cannot occur from the start: this position is not reachable from the initial position, and the database is reachable-only (`solve --reachable`), so it holds no value for it".into()
    } else {
        "unsolved (its tier is not in the database)".into()
    };
    // Turn-free positions do not tell the host whose turn it is (`turn` is for display
    // only): say so rather than name a player.
    let mover = if game.turn_free() {
        "The player to move".to_string()
    } else {
        format!("{} to move", ranking.mover)
    };
    if ranking.is_over() {
        let _ = writeln!(out, "{mover}: {value}; the game is over here.");
    } else {
        let _ = writeln!(out, "{mover}: {value}");
        out.push_str(&moves_table(game, ranking)?);
    }
    Ok(out)
}
