//! `/uni/`: a GamesmanUni build (its `dist/` directory, built with the API base
//! `/api/` and Vite's base `/uni/`) served on the same origin as the API, so that
//! `http://HOST:PORT/uni/` plays every served game in GamesmanUni.
//!
//! Held to the rule of `/db/`: a file is served only when its canonical path (every
//! symbolic link resolved) lies inside the build directory and no part of it below
//! the directory starts with a dot, and it is a regular file. So a link inside the
//! build pointing out of it (`passwd.txt -> /etc/passwd`), a dotfile (`.env`,
//! `.git/`), a FIFO or a device answer 404, and so does an `index.html` linked out.
//! Any other path under `/uni/` that names nothing answers the build's `index.html`,
//! because GamesmanUni's router uses HTML5 history (`/uni/games/quixo/variants/4x4`
//! is a page of the app, not a file). A directory named without its slash redirects
//! to `/uni/NAME/`, keeping the prefix. This file serves bytes; it must not know the
//! API.

use axum::body::Body;
use axum::extract::{Path as UrlPath, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use std::path::{Component, Path, PathBuf};
use tower::ServiceExt;
use tower_http::services::ServeFile;

/// Why a directory is not a GamesmanUni build.
#[derive(Debug, thiserror::Error)]
pub enum UniError {
    /// Not a directory.
    #[error("--gamesmanuni {0}: not a directory; give GamesmanUni's built dist/ directory (see the README on building it for host serve)")]
    NotDir(String),
    /// No `index.html` in it.
    #[error("--gamesmanuni {0}: there is no index.html in it; give GamesmanUni's dist/ directory after `npx vite build`, not its source tree")]
    NoIndex(String),
    /// Its `index.html` is a link out of it, or not a regular file.
    #[error("--gamesmanuni {0}: its index.html is not a regular file inside the directory (a symbolic link out of it is not served); copy the file in")]
    IndexOutside(String),
}

/// Checks that `dir` looks like a GamesmanUni build, and gives it back absolute.
pub fn check_dir(dir: &Path) -> Result<PathBuf, UniError> {
    let shown = dir.display().to_string();
    let dir = std::fs::canonicalize(dir).map_err(|_| UniError::NotDir(shown.clone()))?;
    if !dir.is_dir() {
        return Err(UniError::NotDir(shown));
    }
    if !dir.join("index.html").exists() {
        return Err(UniError::NoIndex(shown));
    }
    match resolve(&dir, &["index.html"]) {
        Found::File(_) => Ok(dir),
        _ => Err(UniError::IndexOutside(shown)),
    }
}

/// The `/uni/` routes over the build in `dir`.
pub fn routes<S: Clone + Send + Sync + 'static>(dir: &Path) -> Router<S> {
    let root = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    Router::new()
        .route("/uni", get(|| async { Redirect::permanent("/uni/") }))
        .route("/uni/", get(app_root).with_state(root.clone()))
        .route("/uni/{*path}", get(file).with_state(root))
}

/// What a path under the build names.
#[derive(Debug, PartialEq, Eq)]
enum Found {
    /// A regular file inside the build, by its canonical path.
    File(PathBuf),
    /// A directory inside the build, by its canonical path.
    Dir(PathBuf),
    /// Nothing of that name: a page of the app.
    Nothing,
    /// Something not served: outside the build, a dotfile, a dangling link, a FIFO.
    Refused,
}

/// Where the URL path's `parts` lead under `root` (canonical), by the rule above.
fn resolve(root: &Path, parts: &[&str]) -> Found {
    if parts
        .iter()
        .any(|p| p.is_empty() || p.starts_with('.') || p.contains(['\\', '\0']))
    {
        return Found::Refused;
    }
    let asked: PathBuf = parts.iter().fold(root.to_path_buf(), |p, s| p.join(s));
    let canonical = match std::fs::canonicalize(&asked) {
        Ok(c) => c,
        Err(e) => {
            // A link to nothing is not a page of the app: it names something refused.
            if std::fs::symlink_metadata(&asked).is_ok() {
                return Found::Refused;
            }
            return match e.kind() {
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory => Found::Nothing,
                _ => Found::Refused,
            };
        }
    };
    let Ok(inside) = canonical.strip_prefix(root) else {
        return Found::Refused;
    };
    let hidden = inside.components().any(|c| match c {
        Component::Normal(s) => s.to_string_lossy().starts_with('.'),
        _ => true,
    });
    if hidden {
        return Found::Refused;
    }
    match std::fs::metadata(&canonical) {
        Ok(m) if m.is_file() => Found::File(canonical),
        Ok(m) if m.is_dir() => Found::Dir(canonical),
        _ => Found::Refused,
    }
}

fn refused() -> Response {
    (
        StatusCode::NOT_FOUND,
        "not served: /uni/ serves the files of the GamesmanUni build only\n",
    )
        .into_response()
}

async fn app_root(State(root): State<PathBuf>, req: Request) -> Response {
    serve(root, String::new(), req).await
}

async fn file(
    State(root): State<PathBuf>,
    UrlPath(path): UrlPath<String>,
    req: Request,
) -> Response {
    serve(root, path, req).await
}

/// Answers `/uni/{path}` (`path` decoded, without the prefix).
async fn serve(root: PathBuf, path: String, req: Request) -> Response {
    let dir_asked = path.is_empty() || path.ends_with('/');
    let lookup_root = root.clone();
    let lookup_path = path.clone();
    let found = tokio::task::spawn_blocking(move || {
        let trimmed = lookup_path.trim_end_matches('/');
        let parts: Vec<&str> = if trimmed.is_empty() {
            Vec::new()
        } else {
            trimmed.split('/').collect()
        };
        let found = resolve(&lookup_root, &parts);
        // A directory's own index.html, when it is asked with its slash.
        let found = match found {
            Found::Dir(d) if dir_asked => match resolve(&d, &["index.html"]) {
                Found::File(f) if f.starts_with(&lookup_root) => Found::File(f),
                Found::Nothing => Found::Nothing,
                _ => Found::Refused,
            },
            other => other,
        };
        // A page of the app: the build's index.html, under the same rule.
        let app = resolve(&lookup_root, &["index.html"]);
        (found, app)
    })
    .await;
    let Ok((found, app)) = found else {
        return refused();
    };
    let target = match found {
        Found::File(f) => f,
        Found::Dir(_) => {
            // Keeps the prefix (and the query) that a nested static service dropped.
            let mut to = format!("{}/", req.uri().path());
            if let Some(q) = req.uri().query() {
                to.push('?');
                to.push_str(q);
            }
            return Redirect::permanent(&to).into_response();
        }
        Found::Refused => return refused(),
        Found::Nothing => match app {
            Found::File(f) => f,
            _ => {
                log::warn!(
                    "GamesmanUni's index.html is no longer a regular file inside the build directory: /uni/{path} is refused"
                );
                return refused();
            }
        },
    };
    match ServeFile::new(target).oneshot(req).await {
        Ok(r) => r.map(Body::new),
        Err(e) => {
            log::warn!("serving /uni/{path} failed: {e}");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                "the file could not be read\n",
            )
                .into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_inside_the_build_are_found() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "s").unwrap();
        let build = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(build.path()).unwrap();
        std::fs::write(root.join("index.html"), "<html>").unwrap();
        std::fs::create_dir(root.join("assets")).unwrap();
        std::fs::write(root.join("assets/app.js"), "js").unwrap();
        std::fs::write(root.join(".env"), "KEY=1").unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), root.join("out.txt")).unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("outdir")).unwrap();
        std::os::unix::fs::symlink(root.join(".env"), root.join("env.txt")).unwrap();
        std::os::unix::fs::symlink(root.join("assets/app.js"), root.join("same.js")).unwrap();
        std::os::unix::fs::symlink(root.join("none"), root.join("dangling")).unwrap();
        assert_eq!(
            resolve(&root, &["assets", "app.js"]),
            Found::File(root.join("assets/app.js"))
        );
        // A link that stays inside is followed to its target.
        assert_eq!(
            resolve(&root, &["same.js"]),
            Found::File(root.join("assets/app.js"))
        );
        assert_eq!(resolve(&root, &["assets"]), Found::Dir(root.join("assets")));
        assert_eq!(resolve(&root, &["games", "quixo"]), Found::Nothing);
        assert_eq!(resolve(&root, &["index.html", "x"]), Found::Nothing);
        for parts in [
            &[".env"][..],
            &["env.txt"],
            &["out.txt"],
            &["outdir", "secret"],
            &["dangling"],
            &[".."],
            &["assets", "..", "..", "etc"],
            &["a", "", "b"],
        ] {
            assert_eq!(resolve(&root, parts), Found::Refused, "{parts:?}");
        }
        assert!(check_dir(&root).is_ok());
        std::fs::remove_file(root.join("index.html")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), root.join("index.html")).unwrap();
        assert!(matches!(check_dir(&root), Err(UniError::IndexOutside(_))));
    }
}
