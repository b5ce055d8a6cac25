//! The `/api/` routes: GamesmanUni's calls (game list, game, variant, positions,
//! instructions) and ours (the computer's move, analysis counts and picture).
//!
//! Every handler checks its inputs, then runs the module and database calls on a
//! blocking thread (a slow module or a tier read from disk never stalls the server's
//! event loop) and answers JSON; every failure is an `ApiError`. This file routes and
//! validates; what an answer holds is `answer`'s business.

use super::answer::{self, Mode};
use super::catalog::{AnalysisOut, Catalog, GameEntry, VariantEntry};
use super::error::{self, ApiError, ApiResult};
use crate::engine::ask::query;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use std::collections::HashMap;
use std::sync::Arc;

/// The longest position text accepted, in bytes: far more than any game's position
/// (a Whirly level's map, a FEN), far less than what would cost the server anything.
pub const MAX_POSITION_BYTES: usize = 4096;

type Params = Result<Query<HashMap<String, String>>, QueryRejection>;

/// The API's routes, each with and without its trailing slash.
pub fn routes() -> Router<Arc<Catalog>> {
    let mut r = Router::new();
    let both: [(&str, axum::routing::MethodRouter<Arc<Catalog>>); 8] = [
        ("/api", get(games)),
        ("/api/{game}", get(game)),
        ("/api/{game}/{variant}", get(variant)),
        ("/api/{game}/{variant}/positions", get(positions)),
        ("/api/{game}/{variant}/instructions", get(instructions)),
        ("/api/{game}/{variant}/computer", get(computer)),
        ("/api/{game}/{variant}/analysis", get(analysis)),
        ("/api/{game}/{variant}/analysis/plot.svg", get(plot)),
    ];
    for (path, handler) in both {
        if !path.ends_with(".svg") {
            r = r.route(&format!("{path}/"), handler.clone());
        }
        r = r.route(path, handler);
    }
    r
}

fn lookup_game<'c>(c: &'c Catalog, id: &str) -> ApiResult<&'c Arc<GameEntry>> {
    c.game(id).ok_or_else(|| {
        let known: Vec<&str> = c.games.iter().map(|g| g.id.as_str()).collect();
        ApiError::NotFound(format!(
            "no game '{}' here; games: {}",
            clip(id),
            known.join(", ")
        ))
    })
}

fn lookup_variant(
    c: &Catalog,
    game: &str,
    variant: &str,
) -> ApiResult<(Arc<GameEntry>, Arc<VariantEntry>)> {
    let g = lookup_game(c, game)?;
    let v = g.variant(variant).ok_or_else(|| {
        let known: Vec<&str> = g.variants.iter().map(|v| v.id.as_str()).collect();
        ApiError::NotFound(format!(
            "{} has no variant '{}'; variants: {}",
            g.id,
            clip(variant),
            known.join(", ")
        ))
    })?;
    Ok((g.clone(), v.clone()))
}

/// At most 80 characters of something a client sent, for messages.
fn clip(s: &str) -> String {
    if s.chars().count() <= 80 {
        s.to_string()
    } else {
        format!("{}...", s.chars().take(80).collect::<String>())
    }
}

fn path_of<T>(p: Result<Path<T>, PathRejection>) -> ApiResult<T> {
    p.map(|Path(t)| t)
        .map_err(|e| ApiError::BadRequest(format!("bad path: {}", e.body_text())))
}

fn params_of(q: Params) -> ApiResult<HashMap<String, String>> {
    q.map(|Query(m)| m)
        .map_err(|e| ApiError::BadRequest(format!("bad query string: {}", e.body_text())))
}

/// Blocking work that ran past its deadline and has not returned yet.
static OVERRUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
/// How many of those may tie up blocking threads before new work is refused (the
/// runtime has 64).
const MAX_OVERRUN: usize = 48;

/// Whether blocking threads are held by work past its deadline, so new work is
/// refused (503) rather than queued behind them (where it would wait without end).
pub(crate) fn saturated() -> Option<ApiError> {
    use std::sync::atomic::Ordering;
    (OVERRUN.load(Ordering::Relaxed) >= MAX_OVERRUN).then(|| {
        ApiError::Unavailable(format!(
            "{MAX_OVERRUN} module calls ran past their deadline and have not returned: the server cannot take more work until they do (restart it to recover)"
        ))
    })
}

/// Runs module and database work on a blocking thread, failing the request (503)
/// when it runs past `serve --call-deadline`; the work itself cannot be stopped and
/// runs on (its thread is counted until it returns). Every route that needs a
/// blocking thread (the `/db/` files and listings too) goes through here.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    use std::sync::atomic::Ordering;
    if let Some(busy) = saturated() {
        return Err(busy);
    }
    let deadline = crate::serve::limits().call_deadline;
    let overran = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = overran.clone();
    let task = tokio::task::spawn_blocking(move || {
        let out = work();
        if flag.swap(true, Ordering::AcqRel) {
            OVERRUN.fetch_sub(1, Ordering::Relaxed);
        }
        out
    });
    match tokio::time::timeout(deadline, task).await {
        Ok(joined) => joined.map_err(|e| {
            ApiError::Internal(format!(
                "the request's work failed: {}",
                error::panic_text(e)
            ))
        })?,
        Err(_) => {
            if !overran.swap(true, Ordering::AcqRel) {
                OVERRUN.fetch_add(1, Ordering::Relaxed);
            }
            Err(ApiError::Unavailable(format!(
                "the request's work ran past the deadline of {} s (serve --call-deadline): a module call or a database read is too slow or does not return",
                deadline.as_secs_f64()
            )))
        }
    }
}

/// The position `p` names (the start when absent), checked by the module.
fn parse_position(
    v: &VariantEntry,
    params: &HashMap<String, String>,
) -> ApiResult<gamesman_plugin_api::TierPosition> {
    let Some(text) = params.get("p") else {
        return Ok(v.start);
    };
    if text.len() > MAX_POSITION_BYTES {
        return Err(ApiError::TooLong(format!(
            "the position is {} bytes long; no position of any game is longer than {MAX_POSITION_BYTES}",
            text.len()
        )));
    }
    if text.trim().is_empty() {
        return Err(ApiError::BadRequest(
            "empty position: give ?p= the position's text, or leave p out for the start".into(),
        ));
    }
    match query::parse_position(&v.game, Some(text)) {
        // A position the API gave percent-encoded (`uni_data::url_safe`), encoded once
        // more by the client.
        Err(e) => match super::uni_data::percent_decoded(text) {
            Some(decoded) => {
                query::parse_position(&v.game, Some(&decoded)).map_err(|_| answer::query_error(e))
            }
            None => Err(answer::query_error(e)),
        },
        Ok(p) => Ok(p),
    }
}

async fn games(State(c): State<Arc<Catalog>>) -> Json<serde_json::Value> {
    Json(answer::games(&c))
}

async fn game(
    State(c): State<Arc<Catalog>>,
    p: Result<Path<String>, PathRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let id = path_of(p)?;
    let g = lookup_game(&c, &id)?.clone();
    blocking(move || Ok(Json(answer::game(&g)))).await
}

async fn variant(
    State(c): State<Arc<Catalog>>,
    p: Result<Path<(String, String)>, PathRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let (game, variant) = path_of(p)?;
    let (g, v) = lookup_variant(&c, &game, &variant)?;
    blocking(move || answer::variant(&g, &v).map(Json)).await
}

async fn positions(
    State(c): State<Arc<Catalog>>,
    p: Result<Path<(String, String)>, PathRejection>,
    q: Params,
) -> ApiResult<Json<answer::PositionAnswer>> {
    let (game, variant) = path_of(p)?;
    let params = params_of(q)?;
    let (_, v) = lookup_variant(&c, &game, &variant)?;
    blocking(move || {
        let at = parse_position(&v, &params)?;
        answer::position(&v, at).map(Json)
    })
    .await
}

async fn instructions(
    State(c): State<Arc<Catalog>>,
    p: Result<Path<(String, String)>, PathRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let (game, variant) = path_of(p)?;
    let (g, v) = lookup_variant(&c, &game, &variant)?;
    Ok(Json(answer::instructions(&g, &v)))
}

async fn computer(
    State(c): State<Arc<Catalog>>,
    p: Result<Path<(String, String)>, PathRejection>,
    q: Params,
) -> ApiResult<Json<serde_json::Value>> {
    let (game, variant) = path_of(p)?;
    let params = params_of(q)?;
    let (_, v) = lookup_variant(&c, &game, &variant)?;
    let mode = match params.get("mode").map(String::as_str) {
        None => Mode::Remoteness,
        Some(m) => Mode::parse(m).ok_or_else(|| {
            ApiError::BadRequest(format!(
                "unknown mode '{}': use remoteness, winby or falsehope",
                clip(m)
            ))
        })?,
    };
    blocking(move || {
        let at = parse_position(&v, &params)?;
        answer::computer(&v, at, mode).map(Json)
    })
    .await
}

/// The mark of an analysis refused for its size (a 409, not a failure).
const TOO_BIG: &str = "too big: ";

/// The variant's analysis, computed once (concurrent requests wait for the same run).
async fn analysed(v: &Arc<VariantEntry>) -> ApiResult<Arc<AnalysisOut>> {
    let result = v
        .analysis
        .get_or_init(|| {
            let v = v.clone();
            async move {
                let limit = crate::serve::limits().analysis_positions;
                let run = tokio::task::spawn_blocking(move || {
                    let graph = crate::engine::tier::TierGraph::discover(&v.game).map_err(|e| e.to_string())?;
                    let positions: u64 = graph.order.iter().map(|n| n.size).fold(0, u64::saturating_add);
                    if positions > limit {
                        return Err(format!(
                            "{TOO_BIG}{} ({}) has {positions} positions, more than this server analyses ({limit}, serve --analysis-limit)",
                            v.game.module_name(),
                            v.game.variant()
                        ));
                    }
                    let mut analysis = crate::engine::ask::analyze::analyze(&v.game, v.db.as_ref())
                        .map_err(|e| e.to_string())?;
                    // Where the server keeps its files is not the client's business.
                    analysis.database = error::redact_paths(&analysis.database);
                    let svg = crate::report::plot::svg(&analysis, &Default::default())
                        .map_err(|e| e.to_string())?;
                    Ok(Arc::new(AnalysisOut { analysis, svg }))
                })
                .await;
                run.unwrap_or_else(|e| Err(format!("the analysis failed: {}", error::panic_text(e))))
            }
        })
        .await;
    result.clone().map_err(|e| match e.strip_prefix(TOO_BIG) {
        Some(why) => ApiError::Conflict(why.to_string()),
        None => ApiError::Internal(e),
    })
}

async fn analysis(
    State(c): State<Arc<Catalog>>,
    p: Result<Path<(String, String)>, PathRejection>,
) -> ApiResult<Response> {
    let (game, variant) = path_of(p)?;
    let (_, v) = lookup_variant(&c, &game, &variant)?;
    let out = analysed(&v).await?;
    Ok(Json(&out.analysis).into_response())
}

async fn plot(
    State(c): State<Arc<Catalog>>,
    p: Result<Path<(String, String)>, PathRejection>,
) -> ApiResult<Response> {
    let (game, variant) = path_of(p)?;
    let (_, v) = lookup_variant(&c, &game, &variant)?;
    let out = analysed(&v).await?;
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], out.svg.clone()).into_response())
}
