//! `/db/`: the served database directory itself, read-only, so `http://HOST:PORT/db`
//! names the same layout `file:DIR` does and other hosts read it as an `http:`
//! database. Tier files are static files with HTTP Range (tower-http's `ServeDir`,
//! which refuses paths outside the root); a database directory (`/db/NAME_tierdb/`)
//! answers a plain index of its tier files. Nothing else under the root is listed.
//!
//! This file serves bytes; it must not open the databases or write anything.

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
    // ServeDir resolves the path under `root` (no `..`, no absolute paths) and
    // answers Range and HEAD requests.
    let (mut parts, body) = req.into_parts();
    let Ok(uri) = format!("/{path}").parse() else {
        return (StatusCode::BAD_REQUEST, "not a path\n").into_response();
    };
    parts.uri = uri;
    let served = ServeDir::new(root)
        .append_index_html_on_directories(false)
        .oneshot(Request::from_parts(parts, body))
        .await;
    match served {
        Ok(r) => r.map(Body::new),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, format!("{e}\n")).into_response(),
    }
}

/// The tier files of one database directory, as links (what an `http:` database
/// reads to know which tiers are stored).
async fn index(root: &std::path::Path, dir: &str) -> Response {
    let plain = !dir.is_empty()
        && dir.ends_with("_tierdb")
        && !dir.contains(['/', '\\'])
        && dir != ".."
        && dir != ".";
    if !plain {
        return listing_refused();
    }
    let path = root.join(dir);
    let names = tokio::task::spawn_blocking(move || -> std::io::Result<Vec<String>> {
        let mut names: Vec<String> = std::fs::read_dir(path)?
            .flatten()
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| {
                n.strip_prefix("tier_")
                    .and_then(|s| s.strip_suffix(".gz"))
                    .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
            })
            .collect();
        names.sort();
        Ok(names)
    })
    .await;
    match names {
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
