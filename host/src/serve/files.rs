//! `/db/`: the served database directory itself, read-only, so `http://HOST:PORT/db`
//! names the same layout `file:DIR` does and other hosts read it as an `http:`
//! database. Tier files are static files with HTTP Range (tower-http's `ServeDir`,
//! which refuses paths outside the root); a database directory (`/db/NAME_tierdb/`)
//! answers a plain index of its tier files. Only tier files (`tier_N.gz`) and the
//! signed manifest (`tiers.manifest`) of a `NAME_tierdb/` directory are served, and
//! only when neither the directory nor the file is a symbolic link: no dotfiles,
//! temporaries, locks, job files, plugins or anything else under the root, and nothing
//! outside it. No answer names a server path.
//!
//! Every read runs on a blocking thread within `serve --call-deadline` and is refused
//! (503) once stuck module calls hold those threads, as the API's work is.
//!
//! This file serves bytes; it must not open the databases or write anything.

use super::api::{blocking, saturated};
use super::error::{ApiError, ApiResult};
use axum::body::Body;
use axum::extract::{Path as UrlPath, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::path::PathBuf;
use tower::ServiceExt;
use tower_http::services::ServeDir;

/// The `/db/` routes over the directory `root`.
pub fn routes<S: Clone + Send + Sync + 'static>(root: PathBuf) -> Router<S> {
    Router::new()
        .route("/db", get(|| async { listing_refused() }))
        .route("/db/", get(|| async { listing_refused() }))
        .route("/db/{*path}", get(file).with_state(root))
}

fn listing_refused() -> Response {
    (
        StatusCode::NOT_FOUND,
        "the database directories are not listed here: read /db/GAME_VARIANT_tierdb/\n",
    )
        .into_response()
}

async fn file(
    State(root): State<PathBuf>,
    UrlPath(path): UrlPath<String>,
    req: Request,
) -> Response {
    if let Some(dir) = path.strip_suffix('/') {
        return index(&root, dir).await;
    }
    let published = match path.split_once('/') {
        Some((dir, name)) if plain_dir(dir) && publishable(name) => {
            let (dir_path, file_path) = (root.join(dir), root.join(dir).join(name));
            // On a blocking thread within the call deadline: once stuck module calls
            // hold every blocking thread, this answers 503 instead of waiting.
            match blocking(move || Ok(is_real(&dir_path, true) && is_real(&file_path, false))).await
            {
                Ok(real) => real,
                Err(e) => return e.into_response(),
            }
        }
        _ => false,
    };
    if !published {
        return (
            StatusCode::NOT_FOUND,
            "not published: /db/ serves the tier files and manifest of NAME_tierdb/ directories only\n",
        )
            .into_response();
    }
    // ServeDir resolves the path under `root` (no `..`, no absolute paths) and
    // answers Range and HEAD requests.
    let (mut parts, body) = req.into_parts();
    let Ok(uri) = format!("/{path}").parse() else {
        return (StatusCode::BAD_REQUEST, "not a path\n").into_response();
    };
    parts.uri = uri;
    // ServeDir reads on blocking threads too: refused when they are held, and bounded
    // by the call deadline when they are merely busy.
    if let Some(busy) = saturated() {
        return busy.into_response();
    }
    let deadline = crate::serve::limits().call_deadline;
    let served = tokio::time::timeout(
        deadline,
        ServeDir::new(root)
            .append_index_html_on_directories(false)
            .oneshot(Request::from_parts(parts, body)),
    )
    .await;
    match served {
        Err(_) => ApiError::Unavailable(format!(
            "reading /db/{path} ran past the deadline of {} s (serve --call-deadline): the server's blocking threads are busy",
            deadline.as_secs_f64()
        ))
        .into_response(),
        Ok(Ok(r)) => r.map(Body::new),
        Ok(Err(e)) => {
            log::warn!("serving /db/{path} failed: {e}");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                "the file could not be read\n",
            )
                .into_response()
        }
    }
}

/// Whether `dir` names a database directory right under the root.
fn plain_dir(dir: &str) -> bool {
    dir.len() > "_tierdb".len()
        && dir.ends_with("_tierdb")
        && !dir.starts_with('.')
        && !dir.contains(['/', '\\'])
}

/// Whether a file of that name in a database directory is published.
fn publishable(name: &str) -> bool {
    crate::engine::db::manifest::is_tier_name(name)
        || name == crate::engine::db::manifest::MANIFEST_NAME
}

/// Whether `path` is a directory (`dir`) or a regular file, and not a symbolic link.
fn is_real(path: &std::path::Path, dir: bool) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| {
        let t = m.file_type();
        !t.is_symlink() && if dir { t.is_dir() } else { t.is_file() }
    })
}

/// The published files of the database directory `path`, sorted.
fn list_tier_files(path: &std::path::Path) -> std::io::Result<Vec<String>> {
    if !is_real(path, true) {
        return Err(std::io::ErrorKind::NotFound.into());
    }
    let mut names: Vec<String> = std::fs::read_dir(path)?
        .flatten()
        // Regular files only: `file_type` does not follow a symbolic link.
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| publishable(n))
        .collect();
    names.sort();
    Ok(names)
}

/// The tier files of one database directory, as links (what an `http:` database
/// reads to know which tiers are stored).
async fn index(root: &std::path::Path, dir: &str) -> Response {
    if !plain_dir(dir) {
        return listing_refused();
    }
    let path = root.join(dir);
    // Through `blocking`, as the API's work: a listing used to wait without end for a
    // blocking thread once stuck module calls held them all.
    let names =
        blocking(move || -> ApiResult<std::io::Result<Vec<String>>> { Ok(list_tier_files(&path)) })
            .await;
    match names {
        Err(e) => e.into_response(),
        Ok(Ok(names)) => {
            let mut html = String::from("<!DOCTYPE html>\n<title>tier files</title>\n<ul>\n");
            for n in names {
                html.push_str(&format!("<li><a href=\"{n}\">{n}</a></li>\n"));
            }
            html.push_str("</ul>\n");
            ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
        }
        _ => (
            StatusCode::NOT_FOUND,
            format!("no database directory {dir}\n"),
        )
            .into_response(),
    }
}
