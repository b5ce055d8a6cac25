//! Display names (plugin-api 0.1.9, issue 52): a module's `Game::DISPLAY_NAME` is the
//! name `serve`'s game list, GamesmanUni's variant data and `host info` show; a module
//! without one keeps the name cut from its description. The modules are plugin-api's
//! examples (built by `cargo test` and `cargo build --release --examples`): Three
//! Men's Morris gives a display name, the subtraction game does not.

use e2e_tests::run::run_host;
use e2e_tests::serve::{resource, Server};
use e2e_tests::workspace::{artifact_dir, host_binary};
use std::path::PathBuf;

fn example(name: &str) -> String {
    let lib: PathBuf = artifact_dir().join(format!("examples/lib{name}.so"));
    assert!(
        lib.is_file(),
        "build first: cargo build --release --workspace --examples (looked for {})",
        lib.display()
    );
    lib.display().to_string()
}

#[test]
fn info_shows_the_display_name_or_the_cut_description() {
    let morris = example("morris3");
    let r = run_host(&host_binary(), &["--plugin", &morris, "info"]);
    r.assert_success();
    assert!(
        r.stdout.contains("\nname:       Three Men's Morris\n"),
        "{}",
        r.describe()
    );
    let r = run_host(&host_binary(), &["--plugin", &morris, "info", "--json"]);
    r.assert_success();
    let json: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(json["display_name"], "Three Men's Morris", "{json}");
    assert_eq!(json["name"], "morris3", "{json}");
    // No DISPLAY_NAME: the description up to its colon, as before 0.1.9.
    let sub = example("subtraction");
    let r = run_host(&host_binary(), &["--plugin", &sub, "info", "--json"]);
    r.assert_success();
    let json: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(json["display_name"], "The subtraction game", "{json}");
}

#[test]
fn serve_and_gamesmanuni_show_the_display_name() {
    let dir = tempfile::tempdir().unwrap();
    let (morris, sub) = (example("morris3"), example("subtraction"));
    let server = Server::start(&host_binary(), &[&morris, &sub, "mtttier"], &resource(&dir));
    let list = server.get("/api/").json();
    let names: Vec<(&str, &str)> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["id"].as_str().unwrap(), g["name"].as_str().unwrap()))
        .collect();
    assert_eq!(
        names,
        [
            ("morris3", "Three Men's Morris"),
            ("subtraction", "The subtraction game"),
            ("mtttier", "Tic-Tac-Toe"),
        ],
        "{list}"
    );
    let variant = server.get("/api/morris3/regular/").json();
    assert_eq!(variant["gameName"], "Three Men's Morris", "{variant}");
}
