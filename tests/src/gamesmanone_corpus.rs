//! GamesmanOne's own games as a test corpus: the games its CMake lists build (v1.3.0,
//! and pull request 27's Mills), what each does here (`tests/gamesmanone/expectations.tsv`),
//! GamesmanOne's own results (`tests/gamesmanone/oracle.tsv`, see the README there), and
//! checking one game: build it with `plugin-api/c/gamesmanone/build.sh`, `host info`,
//! `validate`, then for each oracle row `host solve` and `host analyze`, compared with
//! GamesmanOne's start value and remoteness and its canonical counts (by value and by
//! remoteness; and, for games without symmetry, its count of all positions).
//!
//! GamesmanOne's sources are read from `../shared/gamesmanone` at test time and never
//! copied into the repository. This file must not know any game's results.

use crate::classic_corpus::read_tsv;
use crate::run::{host_command, run_bounded, RunOutput};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The one documented command: `build.sh SRC GAME OUT.so`.
pub const BUILD_SCRIPT: &str = "plugin-api/c/gamesmanone/build.sh";

/// Where GamesmanOne's game sources are: `../shared/gamesmanone` beside the workspace.
pub fn corpus_dir(workspace: &Path) -> PathBuf {
    workspace
        .parent()
        .expect("the workspace has a parent")
        .join("shared/gamesmanone")
}

/// The game folders a GamesmanOne `games/CMakeLists.txt` builds (`add_subdirectory(x)`).
pub fn cmake_games(cmake: &str) -> Vec<String> {
    cmake
        .lines()
        .filter_map(|l| l.trim().strip_prefix("add_subdirectory("))
        .filter_map(|rest| rest.split(')').next())
        .map(|name| name.trim().to_string())
        .collect()
}

/// What a game is expected to do here (a row of `expectations.tsv`).
#[derive(Debug, Clone)]
pub struct Expectation {
    /// The game's folder under `src/games/`.
    pub game: String,
    /// `v1.3.0` or `pr27-mills`: the folder of `../shared/gamesmanone` it comes from.
    pub source: String,
    /// `ok` or `fail`.
    pub build: String,
    /// `pass`, `sample N` or `skip`.
    pub validate: String,
    /// `equal`, or `none` (no oracle row).
    pub solve: String,
    /// Why.
    pub note: String,
}

/// The expectations, in file order.
pub fn read_expectations(text: &str) -> Vec<Expectation> {
    read_tsv(text)
        .into_iter()
        .map(|r| Expectation {
            game: r["game"].clone(),
            source: r["source"].clone(),
            build: r["build"].clone(),
            validate: r["validate"].clone(),
            solve: r["solve"].clone(),
            note: r.get("note").cloned().unwrap_or_default(),
        })
        .collect()
}

/// One variant as GamesmanOne solved it (a row of `oracle.tsv`).
#[derive(Debug, Clone)]
pub struct OracleRow {
    /// The variant id (GamesmanOne's, and the layer's variant name).
    pub variant: String,
    /// `win`, `lose`, `tie` or `draw`.
    pub value: String,
    /// The start's remoteness (`inf` for a draw).
    pub remoteness: String,
    /// All reachable positions: total, win, lose, tie, draw.
    pub all: [u64; 5],
    /// Reachable canonical positions: total, win, lose, tie, draw.
    pub canonical: [u64; 5],
    /// Canonical positions by remoteness: `R:WIN/LOSE/TIE` ascending.
    pub by_remoteness: String,
    /// GamesmanOne's CPU seconds for the solve on one thread.
    pub cpu: f64,
}

fn counts(row: &HashMap<String, String>, prefix: &str) -> Result<[u64; 5], String> {
    let mut out = [0; 5];
    for (slot, key) in out.iter_mut().zip(["total", "win", "lose", "tie", "draw"]) {
        let k = format!("{prefix}_{key}");
        *slot = row
            .get(&k)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("oracle.tsv: no number in {k}"))?;
    }
    Ok(out)
}

/// The oracle's rows by game folder.
pub fn read_oracle(text: &str) -> Result<HashMap<String, Vec<OracleRow>>, String> {
    let mut out: HashMap<String, Vec<OracleRow>> = HashMap::new();
    for row in read_tsv(text) {
        out.entry(row["game"].clone()).or_default().push(OracleRow {
            variant: row["variant"].clone(),
            value: row["value"].clone(),
            remoteness: row["remoteness"].clone(),
            all: counts(&row, "all")?,
            canonical: counts(&row, "canonical")?,
            by_remoteness: row
                .get("canonical_by_remoteness")
                .cloned()
                .unwrap_or_default(),
            cpu: row
                .get("solve_cpu_s")
                .and_then(|v| v.parse().ok())
                .unwrap_or(0.0),
        });
    }
    Ok(out)
}

/// The binaries and directories a game's check uses.
pub struct Tools<'a> {
    /// `host`.
    pub host: &'a Path,
    /// `validate`.
    pub validate: &'a Path,
    /// The workspace root (where `build.sh` lies).
    pub workspace: &'a Path,
    /// `../shared/gamesmanone`.
    pub corpus: &'a Path,
    /// Where each game gets a directory of its own.
    pub work: &'a Path,
    /// Oracle rows whose GamesmanOne solve took more CPU seconds than this are skipped.
    pub max_oracle_cpu: f64,
    /// Bounds of building, validating, and each solve or analyze.
    pub bounds: [Duration; 3],
}

fn step(cmd: Command, bound: Duration, what: &str) -> Result<RunOutput, String> {
    let r = run_bounded(cmd, bound).map_err(|e| {
        format!(
            "{what} did not finish in {bound:?}: {}",
            e.lines().next().unwrap_or("")
        )
    })?;
    if !r.status.success() {
        return Err(format!("{what} failed:\n{}", r.describe()));
    }
    Ok(r)
}

fn json(r: &RunOutput, what: &str) -> Result<Json, String> {
    serde_json::from_str(&r.stdout)
        .map_err(|e| format!("{what} printed no JSON ({e}):\n{}", r.describe()))
}

/// Builds, loads, validates and solves one game as its expectation says; returns what
/// differed (empty: as expected) and the number of oracle rows compared.
pub fn check_game(
    e: &Expectation,
    oracle: &[OracleRow],
    tools: &Tools<'_>,
) -> (Vec<String>, usize, usize) {
    match run_game(e, oracle, tools) {
        Ok(r) => r,
        Err(msg) => (vec![format!("{}: {msg}", e.game)], 0, 0),
    }
}

fn run_game(
    e: &Expectation,
    oracle: &[OracleRow],
    tools: &Tools<'_>,
) -> Result<(Vec<String>, usize, usize), String> {
    let [build_bound, validate_bound, solve_bound] = tools.bounds;
    let mut problems = Vec::new();
    let dir = tools.work.join(&e.game);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|err| format!("cannot make {}: {err}", dir.display()))?;
    let lib = dir.join(format!("lib{}.so", e.game));
    let src = tools.corpus.join(&e.source).join("src");
    let mut cmd = Command::new("sh");
    cmd.arg(tools.workspace.join(BUILD_SCRIPT))
        .arg(&src)
        .arg(&e.game)
        .arg(&lib)
        .current_dir(&dir);
    let built = run_bounded(cmd, build_bound).map_err(|err| format!("building: {err}"))?;
    if e.build == "fail" {
        if built.status.success() {
            problems.push(format!(
                "{}: builds, but expectations.tsv says it does not ({})",
                e.game, e.note
            ));
        }
        return Ok((problems, 0, 0));
    }
    if !built.status.success() {
        return Err(format!("build.sh failed:\n{}", built.describe()));
    }
    let plugin = lib.display().to_string();
    let host = |args: &[&str]| {
        let mut all = vec!["--plugin", plugin.as_str()];
        all.extend_from_slice(args);
        let mut c = host_command(tools.host, &all);
        c.current_dir(&dir);
        c
    };
    let info = json(
        &step(host(&["info", "--json"]), build_bound, "host info")?,
        "host info",
    )?;
    let symmetric = info["properties"]["symmetry"] == true;
    if e.validate != "skip" {
        let mut v = Command::new(tools.validate);
        v.args(["--plugin", &plugin, "--json", "--threads", "1"])
            .current_dir(&dir);
        if let Some(n) = e.validate.strip_prefix("sample ") {
            v.args(["--sample", n.trim()]);
        }
        let r = run_bounded(v, validate_bound).map_err(|err| format!("validate: {err}"))?;
        let j = json(&r, "validate")?;
        if j["summary"]["ok"] != true || j["summary"]["errors"] != 0 {
            problems.push(format!("{}: validate found errors:\n{}", e.game, r.stdout));
        }
    }
    // The layer asks to be solved by its children (GAMESMAN_FLAG_SOLVE_FORWARD); a
    // variant that gives parents is solved by them too, so both ways meet the oracle.
    // (The module's capacity says whether the game has parents at all; a variant
    // without them, such as one with immediate-transition tiers, says it is
    // forward-only, and is solved one way.)
    let ways: &[&str] = if info["properties"]["max_undo_moves"].as_u64() > Some(0) {
        &["auto", "undo-moves"]
    } else {
        &["auto"]
    };
    let (mut compared, mut by_parents) = (0, 0);
    for row in oracle.iter().filter(|r| r.cpu <= tools.max_oracle_cpu) {
        for &way in ways {
            let name = format!("db{}-{way}", row.variant);
            let db = format!("file:{}", dir.join(&name).display());
            let v = row.variant.as_str();
            let args = [
                "--variant",
                v,
                "solve",
                "--db",
                &db,
                "--json",
                "--threads",
                "1",
                "--parents",
                way,
            ];
            let s = match step(host(&args), solve_bound, "solve") {
                Err(msg) if way == "undo-moves" && msg.contains(FORWARD_ONLY) => continue,
                r => json(&r?, "solve")?,
            };
            if way == "undo-moves" {
                by_parents += 1;
            }
            let a = step(
                host(&["--variant", v, "analyze", "--db", &db, "--json"]),
                solve_bound,
                "analyze",
            )?;
            let game = format!("{} (--parents {way})", e.game);
            problems.extend(compare(&game, row, &s, &json(&a, "analyze")?, symmetric));
            let _ = std::fs::remove_dir_all(dir.join(&name));
        }
        compared += 1;
    }
    Ok((problems, compared, by_parents))
}

/// What `host solve --parents undo-moves` says of a variant without undo moves.
const FORWARD_ONLY: &str = "gives no undo moves (it is forward-only)";

/// Differences between our solve and analysis of one variant and GamesmanOne's.
pub fn compare(
    game: &str,
    row: &OracleRow,
    solve: &Json,
    analyze: &Json,
    symmetric: bool,
) -> Vec<String> {
    let mut out = Vec::new();
    let at = format!("{game} variant {}", row.variant);
    let value = solve["initial"]["value"].as_str().unwrap_or("?");
    let remoteness = solve["initial"]["remoteness"].to_string();
    if value != row.value || (row.value != "draw" && remoteness != row.remoteness) {
        out.push(format!(
            "{at}: the start is {value} in {remoteness} here, {} in {} in GamesmanOne",
            row.value, row.remoteness
        ));
    }
    // Our reachable positions are canonical ones, counted as GamesmanOne's canonical
    // summary counts them.
    let c = &analyze["reachable"]["counts"];
    let by = &c["by_value"];
    let here = [
        &c["total"],
        &by["win"],
        &by["lose"],
        &by["tie"],
        &by["draw"],
    ]
    .map(|v| v.as_u64().unwrap_or(u64::MAX));
    if here != row.canonical {
        out.push(format!(
            "{at}: reachable canonical positions [total, win, lose, tie, draw] {here:?} here, {:?} in GamesmanOne",
            row.canonical
        ));
    }
    if !symmetric && row.all != row.canonical {
        out.push(format!(
            "{at}: no symmetry here, but GamesmanOne counts {:?} positions of which {:?} canonical",
            row.all, row.canonical
        ));
    }
    let rows: Vec<String> = c["by_remoteness"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|r| {
                    r["win"].as_u64().unwrap_or(0)
                        + r["lose"].as_u64().unwrap_or(0)
                        + r["tie"].as_u64().unwrap_or(0)
                        > 0
                })
                .map(|r| {
                    format!(
                        "{}:{}/{}/{}",
                        r["remoteness"], r["win"], r["lose"], r["tie"]
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let rows = rows.join(" ");
    if rows != row.by_remoteness {
        out.push(format!(
            "{at}: canonical positions by remoteness differ:\n  here:        {rows}\n  GamesmanOne: {}",
            row.by_remoteness
        ));
    }
    out
}
