//! `host serve --gamesmanuni DIR` holds `/uni/` to the rule of `/db/` (issue 40): only
//! regular files whose canonical path lies inside DIR, no dotfiles, no symbolic link
//! out of DIR (nor an `index.html` linked out, served for the app's own routes), no
//! FIFO (which would hold a request forever); `/uni/sub` redirects to `/uni/sub/`. A
//! stand-in build in a temporary directory (an index page, an asset, a sub-page)
//! stands in for GamesmanUni, whose real build the browser tests serve.

use e2e_tests::run::run_host;
use e2e_tests::serve::{resource, solved, Server};
use e2e_tests::workspace::host_binary;
use std::path::Path;

const INDEX: &str = "<!DOCTYPE html><title>uni stand-in</title>";
const SECRET: &str = "secret outside the build: root:x:0:0";

fn build(dir: &Path, outside: &Path) {
    std::fs::write(dir.join("index.html"), INDEX).unwrap();
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(dir.join("assets/app.js"), "console.log(1)").unwrap();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/index.html"), "sub page").unwrap();
    std::fs::write(dir.join(".env"), "API_KEY=hunter2").unwrap();
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    std::fs::write(dir.join(".git/config"), "[core]").unwrap();
    std::fs::write(outside.join("secret.txt"), SECRET).unwrap();
    std::os::unix::fs::symlink(outside.join("secret.txt"), dir.join("passwd.txt")).unwrap();
    std::os::unix::fs::symlink(outside, dir.join("outdir")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", dir.join("etc.txt")).unwrap();
    std::os::unix::fs::symlink(dir.join(".env"), dir.join("env.txt")).unwrap();
    // A link that stays inside the build is followed.
    std::os::unix::fs::symlink(dir.join("assets/app.js"), dir.join("same.js")).unwrap();
    let ok = std::process::Command::new("mkfifo")
        .arg(dir.join("pipe.js"))
        .status()
        .unwrap();
    assert!(ok.success());
}

#[test]
fn uni_serves_only_regular_files_inside_the_build() {
    let db = solved(&host_binary(), &[("mtttier", "regular")]);
    let uni = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    build(uni.path(), outside.path());
    let server = Server::start_with(
        &host_binary(),
        &["mtttier"],
        &[
            "--db",
            &resource(&db),
            "--gamesmanuni",
            uni.path().to_str().unwrap(),
        ],
    );
    let ok = |path: &str, body: &str| {
        let r = server.get(path);
        assert_eq!(r.status, 200, "{path}: {}", r.text());
        assert_eq!(r.text(), body, "{path}");
    };
    ok("/uni/", INDEX);
    ok("/uni/index.html", INDEX);
    ok("/uni/assets/app.js", "console.log(1)");
    ok("/uni/same.js", "console.log(1)");
    ok("/uni/sub/", "sub page");
    // A page of the app (HTML5 history): the index.
    ok("/uni/games/mtttier/variants/regular", INDEX);
    let js = server.get("/uni/assets/app.js");
    assert!(
        js.header("content-type")
            .is_some_and(|t| t.contains("javascript")),
        "{:?}",
        js.headers
    );
    let r = server.get("/uni");
    assert_eq!(r.status, 308);
    assert_eq!(r.header("location"), Some("/uni/"));
    // A directory without its slash keeps the /uni/ prefix (and the query).
    let r = server.get("/uni/sub?x=1");
    assert!(matches!(r.status, 301 | 308), "{}", r.status);
    assert_eq!(r.header("location"), Some("/uni/sub/?x=1"));
    let r = server.get("/uni/assets");
    assert_eq!(r.header("location"), Some("/uni/assets/"));

    for path in [
        "/uni/.env",
        "/uni/.git/config",
        "/uni/passwd.txt",
        "/uni/etc.txt",
        "/uni/env.txt",
        "/uni/outdir/secret.txt",
        "/uni/pipe.js",
        "/uni/%2eenv",
        "/uni/assets/..%2f.env",
        "/uni/assets/%2e%2e/%2e%2e/etc/passwd",
    ] {
        let r = server.get(path);
        assert_eq!(r.status, 404, "{path}: {}", r.text());
        let t = r.text();
        assert!(
            !t.contains("secret outside") && !t.contains("root:") && !t.contains("hunter2"),
            "{path}: {t}"
        );
    }

    // index.html replaced by a link out while serving: the app's routes are refused,
    // not answered with the linked file.
    std::fs::remove_file(uni.path().join("index.html")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("secret.txt"),
        uni.path().join("index.html"),
    )
    .unwrap();
    for path in ["/uni/", "/uni/index.html", "/uni/games/mtttier"] {
        let r = server.get(path);
        assert_eq!(r.status, 404, "{path}: {}", r.text());
        assert!(!r.text().contains("secret outside"), "{path}");
    }
    drop(server);

    // And a build whose index.html links out is refused at start.
    let r = run_host(
        &host_binary(),
        &[
            "--plugin",
            "mtttier",
            "serve",
            "--db",
            &resource(&db),
            "--gamesmanuni",
            uni.path().to_str().unwrap(),
            "--addr",
            "127.0.0.1:0",
        ],
    );
    let e = r.assert_failure_code(2);
    assert!(
        e.contains("its index.html is not a regular file inside the directory"),
        "{e}"
    );
}
