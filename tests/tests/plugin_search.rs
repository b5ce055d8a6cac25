//! End-to-end: modules found by name (issue 24 item 2 and the install story of item 3).
//!
//! A bare `--plugin NAME` is looked for in `GAMESMAN_PLUGIN_PATH`, then the user's
//! plugin directory (`$XDG_DATA_HOME/gamesman/plugins`), then next to the host; `host
//! install-plugin` puts a module where the second finds it; `host list` shows every
//! module found, where, and its variants. Each test works in its own temporary
//! directories and a copy of the host where it must not see the built modules.

use e2e_tests::run::{host_command, run, RunOutput, DEFAULT_TIMEOUT};
use e2e_tests::workspace::{artifact_dir, host_binary, plugin};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Runs `host` with `args` and extra environment variables.
fn host_env(host: &Path, args: &[&str], env: &[(&str, &Path)]) -> RunOutput {
    let mut cmd = host_command(host, args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    run(cmd, DEFAULT_TIMEOUT)
}

/// A copy of the host binary alone in a fresh directory, so nothing is found beside it.
fn lonely_host(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let host = bin.join("host");
    std::fs::copy(host_binary(), &host).unwrap();
    host
}

/// The `file` that `info --json` reports.
fn info_file(r: &RunOutput) -> String {
    r.assert_success();
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    v["file"].as_str().unwrap().to_string()
}

fn copy_module(name: &str, to_dir: &Path) -> PathBuf {
    std::fs::create_dir_all(to_dir).unwrap();
    let to = to_dir.join(format!("lib{name}.so"));
    std::fs::copy(plugin(name), &to).unwrap();
    to.canonicalize().unwrap()
}

#[test]
fn a_copied_host_finds_plugins_through_the_plugin_path() {
    let tmp = tempfile::tempdir().unwrap();
    let host = lonely_host(tmp.path());
    let data = tmp.path().join("data");
    let args = ["--plugin", "mtttier", "info", "--json"];
    // Alone, the copy finds nothing by name.
    let r = host_env(&host, &args, &[("XDG_DATA_HOME", &data)]);
    let e = r.assert_json_failure("module", 3);
    assert!(e.contains("no game module named 'mtttier'"), "{e}");
    // With the build directory on the path (after a directory that does not exist).
    let path = std::env::join_paths([tmp.path().join("nowhere"), artifact_dir()]).unwrap();
    let r = host_env(
        &host,
        &args,
        &[
            ("XDG_DATA_HOME", &data),
            ("GAMESMAN_PLUGIN_PATH", Path::new(&path)),
        ],
    );
    assert_eq!(
        info_file(&r),
        plugin("mtttier")
            .canonicalize()
            .unwrap()
            .display()
            .to_string()
    );
}

#[test]
fn the_plugin_path_comes_first_then_the_user_directory_then_the_host() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let user_copy = copy_module("mtttier", &data.join("gamesman/plugins"));
    let path_copy = copy_module("mtttier", &tmp.path().join("mine"));
    let host = host_binary();
    let args = ["--plugin", "mtttier", "info", "--json"];
    let mine = tmp.path().join("mine");
    let both = [
        ("XDG_DATA_HOME", data.as_path()),
        ("GAMESMAN_PLUGIN_PATH", &mine),
    ];
    assert_eq!(
        info_file(&host_env(&host, &args, &both)),
        path_copy.display().to_string()
    );
    let user_only = [("XDG_DATA_HOME", data.as_path())];
    assert_eq!(
        info_file(&host_env(&host, &args, &user_only)),
        user_copy.display().to_string()
    );
    std::fs::remove_file(&user_copy).unwrap();
    assert_eq!(
        info_file(&host_env(&host, &args, &user_only)),
        plugin("mtttier")
            .canonicalize()
            .unwrap()
            .display()
            .to_string()
    );
}

#[test]
fn installed_plugins_are_found_by_name_from_anywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let host = lonely_host(tmp.path());
    let data = tmp.path().join("data");
    let env = [("XDG_DATA_HOME", data.as_path())];
    let built = plugin("mtttier");
    let installed = data.join("gamesman/plugins/libmtttier.so");
    let r = host_env(&host, &["install-plugin", built.to_str().unwrap()], &env);
    r.assert_success();
    assert!(
        r.stdout.contains(&format!(
            "installed mtttier (2 variants) to {}",
            installed.display()
        )),
        "{}",
        r.describe()
    );
    assert_eq!(
        std::fs::read(&installed).unwrap(),
        std::fs::read(&built).unwrap()
    );
    let r = host_env(&host, &["--plugin", "mtttier", "info", "--json"], &env);
    assert_eq!(
        info_file(&r),
        installed.canonicalize().unwrap().display().to_string()
    );
    // Installing again needs --force (a usage error without it); nothing changes.
    let again = host_env(&host, &["install-plugin", built.to_str().unwrap()], &env);
    let e = again.assert_failure_code(2);
    assert!(
        e.contains("already installed") && e.contains("--force"),
        "{e}"
    );
    host_env(
        &host,
        &["install-plugin", "--force", built.to_str().unwrap()],
        &env,
    )
    .assert_success();
    // The file is named after the module's own name, so --plugin finds it by that name.
    let fixture = plugin("fixture_broken_none");
    host_env(&host, &["install-plugin", fixture.to_str().unwrap()], &env).assert_success();
    assert!(data.join("gamesman/plugins/libtakeaway.so").is_file());
    // Only game modules are installed.
    let text = tmp.path().join("libnotes.so");
    std::fs::write(&text, "not a library\n").unwrap();
    let e =
        host_env(&host, &["install-plugin", text.to_str().unwrap()], &env).assert_failure_code(3);
    assert!(e.contains("is not a shared library"), "{e}");
    assert!(!data.join("gamesman/plugins/libnotes.so").exists());
}

#[test]
fn list_shows_every_module_where_and_its_variants() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let mine = tmp.path().join("mine");
    let copy = copy_module("mtttier", &mine);
    let env = [
        ("XDG_DATA_HOME", data.as_path()),
        ("GAMESMAN_PLUGIN_PATH", mine.as_path()),
    ];
    let r = host_env(&host_binary(), &["list", "--json"], &env);
    r.assert_success();
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let dirs: Vec<(&str, &str, bool)> = v["search_path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["dir"].as_str().unwrap(),
                d["origin"].as_str().unwrap(),
                d["exists"].as_bool().unwrap(),
            )
        })
        .collect();
    let user = data.join("gamesman/plugins");
    let art = artifact_dir();
    assert_eq!(
        dirs,
        vec![
            (mine.to_str().unwrap(), "plugin_path", true),
            (user.to_str().unwrap(), "user_dir", false),
            (art.to_str().unwrap(), "beside_host", true),
        ]
    );
    let modules = v["modules"].as_array().unwrap();
    let named =
        |name: &str| -> Vec<&Value> { modules.iter().filter(|m| m["name"] == name).collect() };
    let mttt = named("mtttier");
    assert_eq!(mttt.len(), 2, "{}", r.stdout);
    assert_eq!(mttt[0]["path"], copy.display().to_string());
    assert_eq!(mttt[0]["origin"], "plugin_path");
    assert_eq!(mttt[0]["shadowed_by"], Value::Null);
    assert_eq!(
        mttt[0]["variants"],
        serde_json::json!(["regular", "symmetric"])
    );
    assert_eq!(mttt[1]["origin"], "beside_host");
    assert_eq!(mttt[1]["shadowed_by"], copy.display().to_string());
    // Every bundled module is listed with its variants.
    for (name, first) in [
        ("quixo", "4x4"),
        ("whirly", "tiny-push"),
        ("mothello", "4x4"),
        ("miceblocks", "base5"),
        ("chess", "KQK"),
    ] {
        let m = named(name);
        assert_eq!(m.len(), 1, "{name}");
        assert_eq!(m[0]["variants"][0], first, "{name}");
        assert_eq!(m[0]["error"], Value::Null, "{name}");
    }
    // A file that does not load is listed with the reason.
    let bad = named("fixture_abi_mismatch");
    assert!(
        bad[0]["error"].as_str().unwrap().contains("0.0.5"),
        "{:?}",
        bad
    );
    // The text form names the same.
    let t = host_env(&host_binary(), &["list"], &env);
    t.assert_success();
    assert!(
        t.stdout
            .contains(&format!("  1. {}  (GAMESMAN_PLUGIN_PATH)", mine.display())),
        "{}",
        t.stdout
    );
    assert!(
        t.stdout.contains("(user plugin directory; does not exist)"),
        "{}",
        t.stdout
    );
    assert!(
        t.stdout.contains("variants: regular (default), symmetric"),
        "{}",
        t.stdout
    );
    assert!(
        t.stdout.contains(&format!(
            "shadowed: --plugin mtttier finds {}",
            copy.display()
        )),
        "{}",
        t.stdout
    );
}
