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
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(message) = &self {
            log::warn!("request failed: {message}");
        }
        let status = self.status();
        let mut response = (
            status,
            Json(serde_json::json!({ "error": self.to_string() })),
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

/// The answer of every API handler.
pub type ApiResult<T> = Result<T, ApiError>;
