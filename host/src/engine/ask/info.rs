//! `host info`: a module's metadata and the opened variant's properties, and with
//! `--db` what a database holds for the variant (full or reachable-only, how many
//! tiers), as text or JSON. Presentation only.

use crate::engine::db::{Coverage, Database, DbError};
use crate::engine::game::{GameHandle, ModuleResult};
use crate::engine::load::loader::{host_api_version, Module};
use crate::engine::numbers::count;
use crate::engine::tier::{TierGraph, TierGraphError};
use serde_json::json;

/// The game's name for people: the module's display name (plugin-api 0.1.9), else
/// its description up to the first colon when that is short ("Quixo: on a turn ..."
/// gives "Quixo"), else the module's name.
pub fn display_name(module: &Module, game: Option<&GameHandle>) -> String {
    game.and_then(GameHandle::display_name)
        .unwrap_or_else(|| name_from_description(module.name(), module.info.description.as_str()))
}

/// The name cut from a description (the fallback of `display_name`).
pub fn name_from_description(name: &str, description: &str) -> String {
    match description.split_once(':') {
        Some((head, _)) if !head.is_empty() && head.len() <= 40 && !head.contains('.') => {
            head.to_string()
        }
        _ => name.to_string(),
    }
}

/// The metadata as a JSON value.
pub fn info_json(module: &Module, game: &GameHandle) -> ModuleResult<serde_json::Value> {
    let p = game.properties();
    let init = game.initial_position()?;
    let variants: Vec<_> = module
        .info
        .variants
        .iter()
        .enumerate()
        .map(|(i, v)| json!({"name": v.name.as_str(), "description": v.description.as_str(), "default": i == 0}))
        .collect();
    Ok(json!({
        "name": module.name(),
        "display_name": display_name(module, Some(game)),
        "authors": module.info.authors.as_str(),
        "description": module.info.description.as_str(),
        "file": module.path.display().to_string(),
        "api_version": module.info.api_version.as_str(),
        "host_api_version": host_api_version(),
        "abi_version": gamesman_plugin_api::ffi::ABI_VERSION,
        "variants": variants,
        "variant": game.variant(),
        "properties": {
            "players": p.players,
            "tier_game": p.is_tier_game,
            "winby": p.supports_winby,
            "go_again": p.go_again,
            "symmetry": p.has_symmetry,
            "score": p.has_score,
            "max_moves": p.max_moves,
            "max_undo_moves": p.max_undo_moves,
            "max_tier_children": p.max_tier_children,
            "turn_free": game.turn_free(),
        },
        "initial_position": {
            "tier": init.tier.0,
            "tier_name": game.tier_name(init.tier)?,
            "index": init.position,
            "text": game.position_to_text(init)?,
        },
    }))
}

/// The metadata as text for people.
pub fn info_text(module: &Module, game: &GameHandle) -> ModuleResult<String> {
    let p = game.properties();
    let init = game.initial_position()?;
    let yes = |b: bool| if b { "yes" } else { "no" };
    let mut s = String::new();
    s.push_str(&format!("{}: {}\n", module.name(), module.info.description));
    s.push_str(&format!(
        "name:       {}\n",
        display_name(module, Some(game))
    ));
    s.push_str(&format!("authors:    {}\n", module.info.authors));
    s.push_str(&format!("file:       {}\n", module.path.display()));
    s.push_str(&format!(
        "plugin-api: {} (host {}, ABI generation {})\n",
        module.info.api_version,
        host_api_version(),
        gamesman_plugin_api::ffi::ABI_VERSION
    ));
    s.push_str("variants:\n");
    let width = module
        .info
        .variants
        .iter()
        .map(|v| v.name.len())
        .max()
        .unwrap_or(0);
    for (i, v) in module.info.variants.iter().enumerate() {
        let mark = if v.name.as_str() == game.variant() {
            "*"
        } else {
            " "
        };
        let default = if i == 0 { " (default)" } else { "" };
        s.push_str(&format!(
            "  {mark} {:width$}  {}{default}\n",
            v.name, v.description
        ));
    }
    s.push_str(&format!("variant {}:\n", game.variant()));
    s.push_str(&format!(
        "  players: {}, tier game: {}, WinBy: {}, symmetry: {}, go-again: {}, search score: {}\n",
        p.players,
        yes(p.is_tier_game),
        yes(p.supports_winby),
        yes(p.has_symmetry),
        yes(p.go_again),
        yes(p.has_score)
    ));
    if game.turn_free() {
        s.push_str("  turn-free: positions do not record whose turn it is (either player may be to move; values are the mover's)\n");
    }
    s.push_str(&format!(
        "  initial position: {} (tier {} \"{}\", index {})\n",
        game.position_to_text(init)?,
        init.tier,
        game.tier_name(init.tier)?,
        init.position
    ));
    Ok(s)
}

/// What a database holds for the variant: its kind and how much of the tier graph.
#[derive(Clone, Debug, serde::Serialize)]
pub struct DatabaseInfo {
    /// The database (`file:./data/mtttier_regular_tierdb`).
    pub resource: String,
    /// `full`, `reachable-only`, or null when nothing is stored.
    pub coverage: Option<Coverage>,
    /// Tiers reachable from the initial tier.
    pub tiers: usize,
    /// Of those, the tiers stored.
    pub tiers_stored: usize,
    /// Of those, the tiers whose files cannot be read (solved again by the next solve).
    pub tiers_damaged: usize,
    /// Positions in the stored tiers.
    pub positions: u64,
    /// Positions with a record in the stored tiers (the reachable ones for a
    /// reachable-only database).
    pub positions_held: u64,
}

/// Why the database summary failed.
#[derive(Debug, thiserror::Error)]
pub enum InfoError {
    /// The tier graph could not be built.
    #[error(transparent)]
    Graph(#[from] TierGraphError),
    /// The database failed.
    #[error(transparent)]
    Db(#[from] DbError),
}

/// Summarizes what `db` holds for the tiers of `game`, from the tier files' headers.
pub fn database_info(game: &GameHandle, db: &dyn Database) -> Result<DatabaseInfo, InfoError> {
    let graph = TierGraph::discover(game)?;
    let mut info = DatabaseInfo {
        resource: db.describe(),
        coverage: crate::engine::db::coverage(db)?,
        tiers: graph.order.len(),
        tiers_stored: 0,
        tiers_damaged: 0,
        positions: 0,
        positions_held: 0,
    };
    for node in &graph.order {
        match db.stored_tier(node.tier) {
            Ok(Some(s)) => {
                info.tiers_stored += 1;
                info.positions += s.positions;
                info.positions_held += s.held;
            }
            Ok(None) => {}
            Err(DbError::Corrupt { .. }) => info.tiers_damaged += 1,
            Err(e) => return Err(e.into()),
        }
    }
    Ok(info)
}

/// The database summary as one line for people.
pub fn database_text(d: &DatabaseInfo) -> String {
    let what = match d.coverage {
        None => return format!("database {}: nothing stored\n", d.resource),
        Some(Coverage::Full) => format!(
            "full solve, {} of {} tiers stored, {} positions",
            count(d.tiers_stored as u64),
            count(d.tiers as u64),
            count(d.positions)
        ),
        Some(Coverage::ReachableOnly) => format!(
            "reachable-only (solve --reachable), {} of {} tiers stored, {} positions reachable from the start of {} in those tiers",
            count(d.tiers_stored as u64),
            count(d.tiers as u64),
            count(d.positions_held),
            count(d.positions)
        ),
    };
    let partial = if d.tiers_stored + d.tiers_damaged < d.tiers {
        " (partial, e.g. solve --endgame or --tier: positions of the other tiers are not solved)"
    } else {
        ""
    };
    let damaged = match d.tiers_damaged {
        0 => partial.to_string(),
        n => format!("{partial} ({n} more damaged: solve again to replace them)"),
    };
    format!("database {}: {what}{damaged}\n", d.resource)
}
