//! `/uni/`: a GamesmanUni build (its `dist/` directory, built with the API base
//! `/api/` and Vite's base `/uni/`) served on the same origin as the API, so that
//! `http://HOST:PORT/uni/` plays every served game in GamesmanUni.
//!
//! Files are served as they are (tower-http's `ServeDir`, which refuses paths outside
//! the directory); any other path under `/uni/` answers `index.html`, because
//! GamesmanUni's router uses HTML5 history (`/uni/games/quixo/variants/4x4` is a page
//! of the app, not a file). This file serves bytes; it must not know the API.

use axum::response::Redirect;
use axum::routing::get;
use axum::Router;
use std::path::{Path, PathBuf};
use tower_http::services::{ServeDir, ServeFile};

/// Why a directory is not a GamesmanUni build.
#[derive(Debug, thiserror::Error)]
pub enum UniError {
    /// Not a directory.
    #[error("--gamesmanuni {0}: not a directory; give GamesmanUni's built dist/ directory (see the README on building it for host serve)")]
    NotDir(String),
    /// No `index.html` in it.
    #[error("--gamesmanuni {0}: there is no index.html in it; give GamesmanUni's dist/ directory after `npx vite build`, not its source tree")]
    NoIndex(String),
}

/// Checks that `dir` looks like a GamesmanUni build, and gives it back absolute.
pub fn check_dir(dir: &Path) -> Result<PathBuf, UniError> {
    let shown = dir.display().to_string();
    let dir = std::fs::canonicalize(dir).map_err(|_| UniError::NotDir(shown.clone()))?;
    if !dir.is_dir() {
        return Err(UniError::NotDir(shown));
    }
    if !dir.join("index.html").is_file() {
        return Err(UniError::NoIndex(shown));
    }
    Ok(dir)
}

/// The `/uni/` routes over the build in `dir`.
pub fn routes<S: Clone + Send + Sync + 'static>(dir: &Path) -> Router<S> {
    let files = ServeDir::new(dir)
        .append_index_html_on_directories(true)
        .fallback(ServeFile::new(dir.join("index.html")));
    Router::new()
        .route("/uni", get(|| async { Redirect::permanent("/uni/") }))
        .nest_service("/uni/", files)
}
