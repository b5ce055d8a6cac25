//! What the server offers: every game module given (or found), every variant of each,
//! opened once at startup with its read-only database and AutoGUI board.
//!
//! A variant that cannot be opened is left out with a warning; one without a database
//! is listed as unsolved and answers `unsolved`. This file opens and describes; it
//! must not answer requests or know HTTP.

use super::cache::{Budget, CachedDb};
use crate::engine::ask::analyze::Analysis;
use crate::engine::db::{self, Database, GameKey};
use crate::engine::game::GameHandle;
use crate::engine::load::loader::Module;
use gamesman_plugin_api::autogui::Board;
use gamesman_plugin_api::TierPosition;
use std::collections::HashSet;
use std::sync::Arc;

/// Why the catalog could not be built.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// No module to serve.
    #[error("no game modules to serve: pass --plugin NAME_OR_PATH (any number of times), or build the bundled modules next to the host binary")]
    Empty,
    /// The same module twice.
    #[error("module '{0}' is given twice (from {1} and {2})")]
    Duplicate(String, String, String),
    /// The database resource cannot be served.
    #[error("serve reads solved databases from files or from another server: give --db file:DIRECTORY or http://HOST:PORT/PATH (not '{0}')")]
    Resource(String),
}

/// How far a variant's database goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The initial position's tier is stored (so, with the solver's order, all of it).
    Solved,
    /// Some tiers are stored, not the initial position's.
    Partial,
    /// Nothing is stored: every position answers `unsolved`.
    Unsolved,
}

impl Status {
    /// `solved`, `partial` or `unsolved`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Partial => "partial",
            Status::Unsolved => "unsolved",
        }
    }
}

/// A variant's analysis, computed on first request.
pub struct AnalysisOut {
    /// The counts, as `analyze --json` prints them.
    pub analysis: Analysis,
    /// The histogram as SVG.
    pub svg: String,
}

/// One variant being served.
pub struct VariantEntry {
    /// Its name.
    pub id: String,
    /// The module's line about it.
    pub description: String,
    /// The game.
    pub game: GameHandle,
    /// Its database, read-only and cached.
    pub db: Arc<dyn Database>,
    /// The AutoGUI board, if the module draws one.
    pub board: Option<Board>,
    /// GamesmanUni's `imageAutoGUIData`, if the module gives one (checked).
    pub image: Option<serde_json::Value>,
    /// The initial position.
    pub start: TierPosition,
    /// The analysis, once computed (or the error it ended with).
    pub analysis: tokio::sync::OnceCell<Result<Arc<AnalysisOut>, String>>,
}

impl VariantEntry {
    /// How far the database goes, looked at now (a solve may have added tiers).
    pub fn status(&self) -> Status {
        match self.db.has_tier(self.start.tier) {
            Ok(true) => Status::Solved,
            _ => match self.db.stored_tiers() {
                Ok(t) if !t.is_empty() => Status::Partial,
                _ => Status::Unsolved,
            },
        }
    }
}

/// One game module being served.
pub struct GameEntry {
    /// The module's name (`mtttier`), its id in URLs.
    pub id: String,
    /// A display name.
    pub name: String,
    /// The module's paragraph about the game.
    pub description: String,
    /// Its authors.
    pub authors: String,
    /// Its variants, the default first.
    pub variants: Vec<Arc<VariantEntry>>,
}

impl GameEntry {
    /// The variant named `id`.
    pub fn variant(&self, id: &str) -> Option<&Arc<VariantEntry>> {
        self.variants.iter().find(|v| v.id == id)
    }

    /// Players of the default variant (1 for puzzles).
    pub fn players(&self) -> u8 {
        self.variants
            .first()
            .map_or(2, |v| v.game.properties().players)
    }
}

/// Everything served.
pub struct Catalog {
    /// The games, in the order given (or by name when found).
    pub games: Vec<Arc<GameEntry>>,
    /// The database resource, for messages.
    pub resource: String,
}

impl Catalog {
    /// Opens every variant of every module, with databases under `resource` (a
    /// directory, or an `http:` database keeping what it fetches in `cache`).
    pub fn open(
        modules: &[Module],
        resource: &str,
        cache: Option<&str>,
        budget: Arc<Budget>,
    ) -> Result<Catalog, CatalogError> {
        if !matches!(
            crate::engine::db::parse_resource(resource),
            Ok(crate::engine::db::Resource::Dir(_) | crate::engine::db::Resource::Http(_))
        ) {
            return Err(CatalogError::Resource(resource.to_string()));
        }
        if modules.is_empty() {
            return Err(CatalogError::Empty);
        }
        let mut seen: Vec<&Module> = Vec::new();
        let mut games = Vec::new();
        for m in modules {
            if let Some(first) = seen.iter().find(|s| s.name() == m.name()) {
                return Err(CatalogError::Duplicate(
                    m.name().to_string(),
                    first.path.display().to_string(),
                    m.path.display().to_string(),
                ));
            }
            seen.push(m);
            games.push(Arc::new(open_game(m, resource, cache, &budget)));
        }
        Ok(Catalog {
            games,
            resource: resource.to_string(),
        })
    }

    /// The game named `id`.
    pub fn game(&self, id: &str) -> Option<&Arc<GameEntry>> {
        self.games.iter().find(|g| g.id == id)
    }

    /// Variants served, over all games.
    pub fn variant_count(&self) -> usize {
        self.games.iter().map(|g| g.variants.len()).sum()
    }
}

/// Opens the module's variants, solved ones first: a variant with nothing stored is
/// opened again after them. A module that holds one variant at a time (GamesmanOne's
/// games keep theirs in globals) then serves the variant that was solved (Quixo 3x3),
/// not its default alone; other modules serve every variant, in their order.
fn open_game(m: &Module, resource: &str, cache: Option<&str>, budget: &Arc<Budget>) -> GameEntry {
    let mut opened: Vec<(usize, Arc<VariantEntry>)> = Vec::new();
    let mut later = Vec::new();
    let mut names = HashSet::new();
    for (i, v) in m.info.variants.iter().enumerate() {
        let id = v.name.to_string();
        if !names.insert(id.clone()) {
            continue;
        }
        match open_variant(m, &id, v.description.as_str(), resource, cache, budget) {
            // Closed now (dropped), opened again below.
            Ok(entry) if entry.status() == Status::Unsolved => later.push((i, id)),
            Ok(entry) => opened.push((i, Arc::new(entry))),
            Err(e) => log::warn!("leaving out {} {id}: {e}", m.name()),
        }
    }
    for (i, id) in later {
        let description = m.info.variants[i].description.as_str();
        match open_variant(m, &id, description, resource, cache, budget) {
            Ok(entry) => opened.push((i, Arc::new(entry))),
            Err(e) => log::warn!("leaving out {} {id}: {e}", m.name()),
        }
    }
    opened.sort_by_key(|(i, _)| *i);
    let variants: Vec<Arc<VariantEntry>> = opened.into_iter().map(|(_, v)| v).collect();
    GameEntry {
        id: m.name().to_string(),
        name: crate::engine::ask::info::display_name(m, variants.first().map(|v| &v.game)),
        description: m.info.description.to_string(),
        authors: m.info.authors.to_string(),
        variants,
    }
}

fn open_variant(
    m: &Module,
    id: &str,
    description: &str,
    resource: &str,
    cache: Option<&str>,
    budget: &Arc<Budget>,
) -> anyhow::Result<VariantEntry> {
    let game = m.open(Some(id))?;
    let key = GameKey::of(&game);
    let inner = db::open_cached(resource, cache, &key)?;
    let db: Arc<dyn Database> = Arc::new(CachedDb::new(inner, game.clone(), budget.clone()));
    let board = match game.autogui_board() {
        Ok(b) => b,
        Err(e) => {
            log::warn!("{} {id}: no board drawn ({e})", m.name());
            None
        }
    };
    let image = match game.image_autogui_data() {
        Ok(Some(text)) => match super::uni_data::check_image_data(&text, board.as_ref()) {
            Ok(data) => Some(data),
            Err(why) => {
                log::warn!("{} {id}: its imageAutoGUIData is not sent: {why}", m.name());
                None
            }
        },
        Ok(None) => None,
        Err(e) => {
            log::warn!("{} {id}: no imageAutoGUIData ({e})", m.name());
            None
        }
    };
    Ok(VariantEntry {
        id: id.to_string(),
        description: description.to_string(),
        start: game.initial_position()?,
        game,
        db,
        board,
        image,
        analysis: tokio::sync::OnceCell::new(),
    })
}

#[cfg(test)]
mod tests {
    use crate::engine::ask::info::name_from_description as display_name;

    #[test]
    fn display_names() {
        assert_eq!(display_name("quixo", "Quixo: on a turn..."), "Quixo");
        assert_eq!(
            display_name("mtttier", "Tic-tac-toe: X and O"),
            "Tic-tac-toe"
        );
        assert_eq!(
            display_name(
                "chess",
                "Chess endgames with up to four pieces. No castling: x"
            ),
            "chess"
        );
        assert_eq!(display_name("g", "no colon"), "g");
    }
}
