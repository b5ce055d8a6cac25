//! `host serve`: solved games in a web browser. One long-running process serves every
//! variant of the given modules from their databases (read-only) as a JSON API in
//! GamesmanUni's shapes under `/api/`, our own board page at `/`, and the database
//! files themselves under `/db/` (for `http:` databases on other machines).
//!
//! The HTTP stack is axum on tokio (HTTP/1), with tower-http for CORS. The server is
//! one more front end beside play, query and analyze: it calls the same library
//! functions (`query`, `ranking`, `analyze`, `plot`) and never the solver's internals.
//! Files: `catalog` (what is served), `cache` (tiers in memory), `answer` (the JSON),
//! `api` and `page` (routes), `files` (the database files under `/db/`), `uni`
//! (a GamesmanUni build under `/uni/`, and what GamesmanUni needs of the answers),
//! `error`, `shutdown`, and the page in `static/`.

pub mod answer;
pub mod api;
pub mod cache;
pub mod catalog;
pub mod conn;
pub mod error;
pub mod files;
pub mod page;
pub mod shutdown;
pub mod uni;
pub mod uni_data;

use axum::http::{Method, Uri};
use axum::Router;
use catalog::Catalog;
use error::ApiError;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tower_http::cors::{Any, CorsLayer};

/// The default address: loopback only.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// How long requests under way may take to finish after the signal to stop.
const GRACE: Duration = Duration::from_secs(10);

/// How to serve.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Where to listen (`127.0.0.1:8080`, `localhost:8080`; port 0 picks a free port).
    pub addr: String,
    /// Connections and their timeouts.
    pub conn: conn::ConnLimits,
    /// What one request may cost.
    pub limits: Limits,
    /// A GamesmanUni build (checked by `uni::check_dir`) to serve under `/uni/`.
    pub gamesmanuni: Option<std::path::PathBuf>,
}

/// What one request may cost (`serve --call-deadline`, `--analysis-limit`).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The longest a request's module and database work may run before the request
    /// fails (the work itself cannot be stopped: see the README's Reliability section).
    pub call_deadline: Duration,
    /// The most positions a variant may have for `/analysis` to be computed.
    pub analysis_positions: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            call_deadline: Duration::from_secs(30),
            analysis_positions: 200_000_000,
        }
    }
}

static LIMITS: std::sync::OnceLock<Limits> = std::sync::OnceLock::new();

/// The limits this process serves with (the defaults until `run` sets them).
pub fn limits() -> Limits {
    *LIMITS.get_or_init(Limits::default)
}

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The catalog could not be built.
    #[error(transparent)]
    Catalog(#[from] catalog::CatalogError),
    /// The address is not one.
    #[error("'{0}' is not an address to listen on: give HOST:PORT, e.g. 127.0.0.1:8080 (or 0.0.0.0:8080 to be reachable from other machines)")]
    Address(String),
    /// Listening failed.
    #[error("cannot listen on {addr}: {source} (choose another --addr)")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The async runtime or the server failed.
    #[error("the server failed: {0}")]
    Runtime(std::io::Error),
}

/// The whole application: API (with CORS for GET, which GamesmanUni needs), page,
/// database files, JSON errors for everything else.
pub fn app(catalog: Arc<Catalog>) -> Router {
    app_with(catalog, None)
}

/// The application, with a GamesmanUni build under `/uni/` when `uni` is given.
pub fn app_with(catalog: Arc<Catalog>, uni: Option<&std::path::Path>) -> Router {
    let cors = CorsLayer::new().allow_origin(Any).allow_methods([
        Method::GET,
        Method::HEAD,
        Method::OPTIONS,
    ]);
    let mut routes = api::routes().merge(page::routes());
    if let Ok(crate::engine::db::Resource::Dir(root)) =
        crate::engine::db::parse_resource(&catalog.resource)
    {
        routes = routes.merge(files::routes(root));
    }
    if let Some(dir) = uni {
        routes = routes.merge(uni::routes(dir));
    }
    routes
        .fallback(not_found)
        .method_not_allowed_fallback(not_allowed)
        .layer(cors)
        .layer(axum::middleware::map_response_with_state((), api_only_cors))
        .with_state(catalog)
}

/// Takes the CORS headers off every answer outside `/api/`: GamesmanUni reads the
/// API from other origins; the page and the database files are not for other sites'
/// scripts.
async fn api_only_cors(
    axum::extract::State(()): axum::extract::State<()>,
    uri: Uri,
    mut response: axum::response::Response,
) -> axum::response::Response {
    if !(uri.path() == "/api" || uri.path().starts_with("/api/")) {
        let h = response.headers_mut();
        let names: Vec<_> = h
            .keys()
            .filter(|k| k.as_str().starts_with("access-control-"))
            .cloned()
            .collect();
        for n in names {
            h.remove(n);
        }
    }
    response
}

async fn not_found(uri: Uri) -> ApiError {
    let path: String = uri.path().chars().take(80).collect();
    ApiError::NotFound(format!(
        "nothing at {path}: the page is at /, the API under /api/ (GET /api/ lists the games)"
    ))
}

async fn not_allowed(method: Method) -> ApiError {
    ApiError::MethodNotAllowed(format!(
        "{method} is not served: everything here is read with GET"
    ))
}

/// Serves `catalog` until Ctrl-C or SIGTERM. Prints the address it listens on (with
/// the port chosen, for port 0) on stdout once it accepts connections.
pub fn run(catalog: Catalog, options: &ServeOptions) -> Result<(), ServeError> {
    let _ = LIMITS.set(options.limits);
    // HOST:PORT with a name (`localhost:8080`) too; the first address it resolves to.
    let addr: SocketAddr = match options.addr.parse() {
        Ok(a) => a,
        Err(_) => std::net::ToSocketAddrs::to_socket_addrs(options.addr.as_str())
            .ok()
            .and_then(|mut a| a.next())
            .ok_or_else(|| ServeError::Address(options.addr.clone()))?,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(64)
        .thread_name("serve")
        .build()
        .map_err(ServeError::Runtime)?;
    let catalog = Arc::new(catalog);
    let result = runtime.block_on(serve(
        catalog,
        addr,
        options.conn,
        options.gamesmanuni.clone(),
    ));
    // Work still running on blocking threads (a long analysis) is not waited for.
    runtime.shutdown_timeout(Duration::from_millis(100));
    result
}

async fn serve(
    catalog: Arc<Catalog>,
    addr: SocketAddr,
    limits: conn::ConnLimits,
    uni: Option<std::path::PathBuf>,
) -> Result<(), ServeError> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| ServeError::Listen { addr, source })?;
    let local = listener.local_addr().map_err(ServeError::Runtime)?;
    if !local.ip().is_loopback() {
        log::warn!(
            "listening on {local}: every machine that can reach this one can use the server"
        );
    }
    log::info!(
        "serving {} games ({} variants) from {}",
        catalog.games.len(),
        catalog.variant_count(),
        catalog.resource
    );
    // Before the first answer: a signal from then on stops the server gracefully.
    let signals = shutdown::listen();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = conn::serve(listener, app_with(catalog, uni.as_deref()), limits, async {
        let _ = stopped.await;
    });
    let mut server = tokio::spawn(server);
    println!("listening on http://{local}/ (Ctrl-C stops)");
    if uni.is_some() {
        println!("GamesmanUni at http://{local}/uni/");
    }
    let _ = std::io::stdout().flush();
    tokio::select! {
        () = signals.wait() => {}
        // The server only ends by itself when it fails.
        ended = &mut server => return finished(ended),
    }
    let _ = stop.send(());
    match tokio::time::timeout(GRACE, server).await {
        Ok(ended) => finished(ended),
        Err(_) => {
            log::warn!(
                "requests still under way after {} s: stopping anyway",
                GRACE.as_secs()
            );
            Ok(())
        }
    }
}

fn finished(ended: Result<std::io::Result<()>, tokio::task::JoinError>) -> Result<(), ServeError> {
    match ended {
        Ok(Ok(())) => {
            log::info!("stopped");
            Ok(())
        }
        Ok(Err(e)) => Err(ServeError::Runtime(e)),
        Err(e) => Err(ServeError::Runtime(std::io::Error::other(e))),
    }
}
