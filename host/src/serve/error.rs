//! Errors of the web server as GamesmanUni expects them: a JSON object with an
//! `error` key, here with an HTTP status that says whose fault it is (4xx: the
//! request; 5xx: a module or database failed).
//!
//! This file only turns errors into responses; it must not decide what is an error.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// Why a request was not answered.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// No such game, variant, file or route (404).
    #[error("{0}")]
    NotFound(String),
    /// The request is malformed: a bad position, a bad parameter (400).
    #[error("{0}")]
    BadRequest(String),
    /// The position text is longer than any position of any game (414).
    #[error("{0}")]
    TooLong(String),
    /// Only GET (and CORS preflights) are served (405).
    #[error("{0}")]
    MethodNotAllowed(String),
    /// The position is fine but the request cannot be done there: a computer move at
    /// the end of a game (409).
    #[error("{0}")]
    Conflict(String),
    /// A module or the database failed (500); the message names which and why.
    #[error("{0}")]
    Internal(String),
    /// The work did not finish in time, or the server is saturated (503).
    #[error("{0}")]
    Unavailable(String),
}

impl ApiError {
    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::TooLong(_) => StatusCode::URI_TOO_LONG,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(message) | ApiError::Unavailable(message) = &self {
            log::warn!("request failed: {message}");
        }
        let status = self.status();
        let mut response = (
            status,
            Json(serde_json::json!({ "error": redact_paths(&self.to_string()) })),
        )
            .into_response();
        if status == StatusCode::METHOD_NOT_ALLOWED {
            response.headers_mut().insert(
                axum::http::header::ALLOW,
                axum::http::HeaderValue::from_static("GET, HEAD, OPTIONS"),
            );
        }
        response
    }
}

/// `text` with every absolute path shortened to its last component (`…/tier_3.gz`):
/// answers never show where the server keeps its files.
pub fn redact_paths(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('/') {
        let (before, from) = rest.split_at(i);
        out.push_str(before);
        // A path starts after a space, a quote, a bracket or `file:`; a URL's
        // slashes (`http://`) and a fraction (`1/2`) are not paths.
        let starts = before.is_empty()
            || before.ends_with([' ', '\'', '"', '(', '[', '=', '\n'])
            || before.ends_with("file:");
        let len = from
            .find(|c: char| c.is_whitespace() || "'\"),;]".contains(c))
            .unwrap_or(from.len());
        let path = &from[..len];
        if starts && path.len() > 1 && !path.starts_with("//") && path[1..].contains('/') {
            let last = path
                .trim_end_matches(['/', '.', ':'])
                .rsplit('/')
                .next()
                .unwrap_or("");
            out.push_str("…/");
            out.push_str(last);
            out.push_str(&path[path.trim_end_matches(['/', '.', ':']).len()..]);
        } else {
            out.push_str(path);
        }
        rest = &from[len..];
        if len == 0 {
            out.push('/');
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    out
}

/// What a panicked blocking task said (never a path of the server's sources).
pub fn panic_text(e: tokio::task::JoinError) -> String {
    match e.try_into_panic() {
        Ok(p) => {
            let text = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic".into());
            format!("it panicked: {text}")
        }
        Err(e) => e.to_string(),
    }
}

/// The answer of every API handler.
pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::redact_paths;

    #[test]
    fn answers_keep_no_server_path() {
        assert_eq!(
            redact_paths("tier file /srv/db/mtttier_regular_tierdb/tier_3.gz is unusable: x"),
            "tier file …/tier_3.gz is unusable: x"
        );
        assert_eq!(
            redact_paths("reading file:/home/me/db: denied (see 'http://h:1/db/x')"),
            "reading file:…/db: denied (see 'http://h:1/db/x')"
        );
        assert_eq!(redact_paths("1/2 of /x and /"), "1/2 of /x and /");
    }
}
