//! Our own board page: HTML, CSS and JavaScript embedded in the binary (no Node
//! toolchain, nothing read from disk at run time), served at `/` and `/static/`.
//!
//! Only the files named here exist: a request for any other path, `..` and encoded
//! slashes included, is a 404 JSON error, so no request can reach the file system.
//! This file serves bytes; the page's behaviour lives in `static/app.js` and
//! `static/draw.js`.

use super::error::ApiError;
use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

const INDEX: &str = include_str!("static/index.html");
const APP_JS: &str = include_str!("static/app.js");
const DRAW_JS: &str = include_str!("static/draw.js");
const STYLE_CSS: &str = include_str!("static/style.css");

/// The page's files: name under `/static/`, content type, content.
const FILES: [(&str, &str, &str); 3] = [
    ("app.js", "text/javascript; charset=utf-8", APP_JS),
    ("draw.js", "text/javascript; charset=utf-8", DRAW_JS),
    ("style.css", "text/css; charset=utf-8", STYLE_CSS),
];

/// Scripts and styles only from this server; inline styles for SVG attributes.
const POLICY: &str = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// The page's routes.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(index))
        .route("/index.html", get(index))
        .route("/static/{file}", get(file))
}

fn with_headers(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CONTENT_SECURITY_POLICY, POLICY),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

async fn index() -> Response {
    with_headers("text/html; charset=utf-8", INDEX)
}

async fn file(name: Result<Path<String>, axum::extract::rejection::PathRejection>) -> Response {
    let name = name.map(|Path(n)| n).unwrap_or_default();
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some(&(_, content_type, body)) => with_headers(content_type, body),
        None => ApiError::NotFound(format!(
            "no file '{}' here: the page's files are {}",
            name.chars().take(80).collect::<String>(),
            FILES.map(|f| format!("/static/{}", f.0)).join(", ")
        ))
        .into_response(),
    }
}
