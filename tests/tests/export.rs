//! `host export` read back: exports of mtttier (both variants), quixo 3x3 and mothello
//! 4x4 in Parquet, SQLite and CSV, read with the parquet, rusqlite and csv crates, agree
//! with `query` on every position (the host's own `query --json` for a sample, the
//! library's query report, which is what it prints, for the rest) and with `analyze`'s
//! counts; `--moves` agrees with query's ranked moves; `--all-positions` and
//! `--reachable` count what analyze counts; a failed or killed export leaves nothing
//! under the final name.

use arrow_array::{
    Array, Int64Array, RecordBatch, StringArray, UInt32Array, UInt64Array, UInt8Array,
};
use e2e_tests::run::run_host;
use e2e_tests::workspace::{host_binary, plugin};
use gamesman_host::engine::db::{self, Database, GameKey};
use gamesman_host::{engine::ask::query, engine::load::loader, GameHandle};
use gamesman_plugin_api::{Tier, TierPosition};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// One position row as read back.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    tier: u64,
    idx: u64,
    position: String,
    turn: u8,
    value: String,
    remoteness: Option<u32>,
    winby: Option<i64>,
}

/// One move row as read back.
#[derive(Clone, Debug, PartialEq)]
struct MoveRow {
    tier: u64,
    idx: u64,
    rank: u32,
    mv: String,
    child: String,
    value: String,
    remoteness: Option<u32>,
    winby: Option<i64>,
    move_value: String,
}

fn col<'a, T: 'static>(b: &'a RecordBatch, name: &str) -> &'a T {
    b.column_by_name(name)
        .unwrap_or_else(|| panic!("column {name}"))
        .as_any()
        .downcast_ref::<T>()
        .unwrap_or_else(|| panic!("column {name} has another type"))
}

fn opt_u32(a: &UInt32Array, i: usize) -> Option<u32> {
    (!a.is_null(i)).then(|| a.value(i))
}

fn opt_i64(b: &RecordBatch, i: usize) -> Option<i64> {
    let a = b.column_by_name("winby")?;
    let a = a
        .as_any()
        .downcast_ref::<Int64Array>()
        .expect("winby is Int64");
    (!a.is_null(i)).then(|| a.value(i))
}

fn batches(path: &Path) -> Vec<RecordBatch> {
    let f = std::fs::File::open(path).unwrap();
    ParquetRecordBatchReaderBuilder::try_new(f)
        .unwrap()
        .build()
        .unwrap()
        .map(|b| b.unwrap())
        .collect()
}

fn parquet_rows(path: &Path) -> Vec<Row> {
    let mut rows = Vec::new();
    for b in batches(path) {
        let (t, x, p, u, v, r) = (
            col::<UInt64Array>(&b, "tier"),
            col::<UInt64Array>(&b, "idx"),
            col::<StringArray>(&b, "position"),
            col::<UInt8Array>(&b, "turn"),
            col::<StringArray>(&b, "value"),
            col::<UInt32Array>(&b, "remoteness"),
        );
        for i in 0..b.num_rows() {
            rows.push(Row {
                tier: t.value(i),
                idx: x.value(i),
                position: p.value(i).to_string(),
                turn: u.value(i),
                value: v.value(i).to_string(),
                remoteness: opt_u32(r, i),
                winby: opt_i64(&b, i),
            });
        }
    }
    rows
}

fn parquet_moves(path: &Path) -> Vec<MoveRow> {
    let mut rows = Vec::new();
    for b in batches(path) {
        for i in 0..b.num_rows() {
            rows.push(MoveRow {
                tier: col::<UInt64Array>(&b, "tier").value(i),
                idx: col::<UInt64Array>(&b, "idx").value(i),
                rank: col::<UInt32Array>(&b, "rank").value(i),
                mv: col::<StringArray>(&b, "move").value(i).to_string(),
                child: col::<StringArray>(&b, "child").value(i).to_string(),
                value: col::<StringArray>(&b, "value").value(i).to_string(),
                remoteness: opt_u32(col::<UInt32Array>(&b, "remoteness"), i),
                winby: opt_i64(&b, i),
                move_value: col::<StringArray>(&b, "move_value").value(i).to_string(),
            });
        }
    }
    rows
}

fn sqlite_rows(path: &Path, winby: bool) -> Vec<Row> {
    let conn = rusqlite::Connection::open(path).unwrap();
    let w = if winby { "winby" } else { "NULL" };
    let mut st = conn
        .prepare(&format!(
            "SELECT tier, idx, position, turn, value, remoteness, {w} FROM positions ORDER BY rowid"
        ))
        .unwrap();
    let rows = st
        .query_map([], |r| {
            Ok(Row {
                tier: r.get::<_, i64>(0)? as u64,
                idx: r.get::<_, i64>(1)? as u64,
                position: r.get(2)?,
                turn: r.get(3)?,
                value: r.get(4)?,
                remoteness: r.get(5)?,
                winby: r.get(6)?,
            })
        })
        .unwrap();
    rows.map(|r| r.unwrap()).collect()
}

fn sqlite_moves(path: &Path, winby: bool) -> Vec<MoveRow> {
    let conn = rusqlite::Connection::open(path).unwrap();
    let w = if winby { "winby" } else { "NULL" };
    let mut st = conn
        .prepare(&format!(
            "SELECT tier, idx, rank, move, child, value, remoteness, {w}, move_value FROM moves ORDER BY rowid"
        ))
        .unwrap();
    let rows = st
        .query_map([], |r| {
            Ok(MoveRow {
                tier: r.get::<_, i64>(0)? as u64,
                idx: r.get::<_, i64>(1)? as u64,
                rank: r.get(2)?,
                mv: r.get(3)?,
                child: r.get(4)?,
                value: r.get(5)?,
                remoteness: r.get(6)?,
                winby: r.get(7)?,
                move_value: r.get(8)?,
            })
        })
        .unwrap();
    rows.map(|r| r.unwrap()).collect()
}

fn csv_records(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            header
                .iter()
                .cloned()
                .zip(rec.iter().map(str::to_string))
                .collect()
        })
        .collect()
}

fn opt<T: std::str::FromStr>(m: &BTreeMap<String, String>, k: &str) -> Option<T> {
    m.get(k)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().ok().unwrap())
}

fn csv_rows(path: &Path) -> Vec<Row> {
    csv_records(path)
        .iter()
        .map(|m| Row {
            tier: m["tier"].parse().unwrap(),
            idx: m["idx"].parse().unwrap(),
            position: m["position"].clone(),
            turn: m["turn"].parse().unwrap(),
            value: m["value"].clone(),
            remoteness: opt(m, "remoteness"),
            winby: opt(m, "winby"),
        })
        .collect()
}

fn csv_moves(path: &Path) -> Vec<MoveRow> {
    csv_records(path)
        .iter()
        .map(|m| MoveRow {
            tier: m["tier"].parse().unwrap(),
            idx: m["idx"].parse().unwrap(),
            rank: m["rank"].parse().unwrap(),
            mv: m["move"].clone(),
            child: m["child"].clone(),
            value: m["value"].clone(),
            remoteness: opt(m, "remoteness"),
            winby: opt(m, "winby"),
            move_value: m["move_value"].clone(),
        })
        .collect()
}

/// A solved variant in a temporary database, with the host binary's paths.
struct Solved {
    dir: tempfile::TempDir,
    name: &'static str,
    variant: &'static str,
    game: GameHandle,
    db: Arc<dyn Database>,
}

impl Solved {
    fn new(name: &'static str, variant: &'static str) -> Solved {
        Solved::solved_with(name, variant, &[])
    }

    /// Solved with `solve` and `flags` (`--reachable`: a reachable-only database).
    fn solved_with(name: &'static str, variant: &'static str, flags: &[&str]) -> Solved {
        let dir = tempfile::tempdir().unwrap();
        let game = loader::load_path(&plugin(name))
            .unwrap()
            .open(Some(variant))
            .unwrap();
        let resource = format!("file:{}", dir.path().join("db").display());
        let db = db::open(&resource, &GameKey::of(&game)).unwrap();
        let s = Solved {
            dir,
            name,
            variant,
            game,
            db,
        };
        let mut solve = vec!["solve"];
        solve.extend_from_slice(flags);
        s.host(&solve).assert_success();
        s
    }

    fn resource(&self) -> String {
        format!("file:{}", self.dir.path().join("db").display())
    }

    fn host(&self, args: &[&str]) -> e2e_tests::run::RunOutput {
        let lib = plugin(self.name);
        let resource = self.resource();
        let mut all = vec!["--plugin", lib.to_str().unwrap(), "--variant", self.variant];
        all.extend_from_slice(&args[..1]);
        all.extend_from_slice(&["--db", &resource]);
        all.extend_from_slice(&args[1..]);
        run_host(&host_binary(), &all)
    }

    fn json(&self, args: &[&str]) -> Json {
        let out = self.host(args);
        out.assert_success();
        serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.describe()))
    }

    /// Exports with `extra` flags in `format` to `file` (under the temporary
    /// directory); returns the path.
    fn export(&self, file: &str, extra: &[&str]) -> std::path::PathBuf {
        let out = self.dir.path().join(file);
        let mut args = vec!["export", "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        self.host(&args).assert_success();
        out
    }

    /// The library's query report of a row's position (what `query --json` prints).
    fn report(&self, tier: u64, idx: u64) -> query::QueryReport {
        let p = TierPosition::new(Tier(tier), idx);
        let ranking = query::query(&self.game, self.db.as_ref(), p).unwrap();
        query::report(&self.game, &ranking).unwrap()
    }
}

/// Every `step`th row agrees with query (and a few with the real `query --json`).
fn agree_with_query(s: &Solved, rows: &[Row], step: usize) {
    let mut checked = 0;
    for (k, row) in rows.iter().enumerate().step_by(step) {
        let r = s.report(row.tier, row.idx);
        let got = (&row.position, row.value.as_str(), row.remoteness, row.winby);
        assert_eq!(
            got,
            (&r.position, r.value, r.remoteness, r.winby),
            "{row:?}"
        );
        let p = TierPosition::new(Tier(row.tier), row.idx);
        assert_eq!(row.turn, s.game.turn(p).unwrap().0, "{row:?}");
        if k % (step * 400) == 0 {
            let j = s.json(&["query", "--json", &row.position]);
            assert_eq!(j["value"], row.value.as_str(), "{row:?}");
            assert_eq!(
                j["remoteness"],
                serde_json::json!(row.remoteness),
                "{row:?}"
            );
            assert_eq!(j["winby"], serde_json::json!(row.winby), "{row:?}");
        }
        checked += 1;
    }
    assert!(checked > 0);
}

/// Positions counted by value.
fn by_value(rows: &[Row]) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for r in rows {
        *m.entry(r.value.clone()).or_default() += 1;
    }
    m
}

/// `analyze --json`'s counts by value of a section (legal or reachable).
fn analyzed(s: &Solved, section: &str) -> BTreeMap<String, u64> {
    let a = s.json(&["analyze", "--json"]);
    let players = a["players"].as_u64().unwrap();
    let v = &a[section]["counts"]["by_value"];
    let mut m = BTreeMap::new();
    for (k, name) in [
        ("win", "win"),
        ("lose", "lose"),
        ("tie", "tie"),
        ("draw", "draw"),
    ] {
        let name = match (players, name) {
            (1, "win") => "solvable",
            (1, _) => "unsolvable",
            _ => name,
        };
        let n = v[k].as_u64().unwrap();
        if n > 0 {
            *m.entry(name.to_string()).or_default() += n;
        }
    }
    m
}

/// All three formats (exported with `extra` flags) hold the same rows, which agree
/// with query and with analyze's `section` counts.
fn formats_agree(s: &Solved, step: usize, extra: &[&str], section: &str) -> Vec<Row> {
    let winby = s.game.supports_winby();
    let pq = parquet_rows(&s.export("all.parquet", extra));
    let sq = sqlite_rows(&s.export("all.sqlite", extra), winby);
    let cs = csv_rows(&s.export("all.csv", extra));
    assert_eq!(pq, sq, "parquet and sqlite");
    assert_eq!(pq, cs, "parquet and csv");
    assert_eq!(
        by_value(&pq),
        analyzed(s, section),
        "{} {}",
        s.name,
        s.variant
    );
    agree_with_query(s, &pq, step);
    pq
}

/// `formats_agree` for every legal position, and the reachable ones count as analyze
/// counts them.
fn check_formats(s: &Solved, step: usize) -> Vec<Row> {
    let pq = formats_agree(s, step, &[], "legal");
    let reach = parquet_rows(&s.export("reach.parquet", &["--reachable"]));
    assert_eq!(by_value(&reach), analyzed(s, "reachable"));
    pq
}

#[test]
fn mtttier_exports_agree_with_query_and_analyze_on_every_position() {
    let s = Solved::new("mtttier", "regular");
    let rows = check_formats(&s, 1);
    // Tic-tac-toe: 5,478 legal positions, the initial one a tie in 9.
    assert_eq!(rows.len(), 5478);
    assert_eq!(
        rows[0],
        Row {
            tier: rows[0].tier,
            idx: rows[0].idx,
            position: "---------".into(),
            turn: 1,
            value: "tie".into(),
            remoteness: Some(9),
            winby: None,
        }
    );
    // Every move of every position, in all three formats, as query ranks them.
    let pm = parquet_moves(
        &s.export("m.parquet", &["--moves"])
            .with_file_name("m.moves.parquet"),
    );
    let winby = s.game.supports_winby();
    let sm = sqlite_moves(&s.export("m.sqlite", &["--moves"]), winby);
    let cm = csv_moves(
        &s.export("m.csv", &["--moves"])
            .with_file_name("m.moves.csv"),
    );
    assert_eq!(pm, sm);
    assert_eq!(pm, cm);
    let mut at = 0;
    for row in &rows {
        let r = s.report(row.tier, row.idx);
        for (k, m) in r.moves.iter().enumerate() {
            let got = &pm[at];
            assert_eq!(
                (got.tier, got.idx, got.rank as usize),
                (row.tier, row.idx, k)
            );
            assert_eq!(
                (
                    &got.mv,
                    &got.child,
                    got.value.as_str(),
                    got.remoteness,
                    got.move_value.as_str()
                ),
                (&m.mv, &m.position, m.value, m.remoteness, m.move_value)
            );
            at += 1;
        }
    }
    assert_eq!(at, pm.len(), "no move rows beyond query's moves");
}

#[test]
fn symmetric_mtttier_exports_canonical_positions_or_all_of_them() {
    let s = Solved::new("mtttier", "symmetric");
    let canonical = check_formats(&s, 1);
    let all = parquet_rows(&s.export("every.parquet", &["--all-positions"]));
    // Tic-tac-toe has 765 positions up to symmetry, 5,478 in all.
    assert_eq!(canonical.len(), 765);
    assert_eq!(all.len(), 5478);
    agree_with_query(&s, &all, 1);
    let reach_all = parquet_rows(&s.export("ra.parquet", &["--all-positions", "--reachable"]));
    assert_eq!(reach_all.len(), 5478);
}

#[test]
fn quixo_3x3_exports_agree_with_query_and_analyze() {
    let s = Solved::new("quixo", "3x3");
    let rows = check_formats(&s, 7);
    // 3x3's canonical positions under the square's 8 symmetries and the colour swap.
    assert_eq!(rows.len(), 2862);
    // Some tiers only, and an interrupted export leaves nothing under the final name.
    let first = rows[0].tier;
    let one = parquet_rows(&s.export("one.parquet", &["--tiers", &first.to_string()]));
    assert_eq!(one.len(), rows.iter().filter(|r| r.tier == first).count());
    let out = s.dir.path().join("killed.sqlite");
    let lib = plugin(s.name);
    let resource = s.resource();
    let mut cmd = e2e_tests::run::host_command(
        &host_binary(),
        &[
            "--plugin",
            lib.to_str().unwrap(),
            "--variant",
            "3x3",
            "export",
            "--db",
            &resource,
            "--moves",
            "--all-positions",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    cmd.stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut child = cmd.spawn().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(150));
    let _ = child.kill();
    let status = child.wait().unwrap();
    if !status.success() {
        assert!(!out.exists(), "a killed export left {}", out.display());
    }
    // A failing export (a tier the game does not have) writes nothing either.
    let bad = s.dir.path().join("bad.csv");
    let r = s.host(&[
        "export",
        "--out",
        bad.to_str().unwrap(),
        "--tiers",
        "999999",
    ]);
    // Not one paragraph: the killed export's temporary, reclaimed, is named first.
    assert_eq!(r.status.code(), Some(2), "{}", r.describe());
    let text = r.stderr;
    assert!(
        text.contains("error: tier 999999 is not a tier of this game"),
        "{text}"
    );
    assert!(!bad.exists());
    let dir_left: Vec<_> = std::fs::read_dir(s.dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.contains("bad.csv") || n.ends_with(".export-tmp"))
        .collect();
    assert!(dir_left.is_empty(), "{dir_left:?}");
}

#[test]
fn mothello_4x4_exports_carry_winby_and_agree_with_query() {
    // 17,006,112 legal positions: a reachable-only database of the 62,789 reachable
    // ones (a full export is the bench's work); exporting it needs no --reachable.
    let s = Solved::solved_with("mothello", "4x4", &["--reachable"]);
    assert!(s.game.supports_winby());
    let rows = formats_agree(&s, 5, &[], "reachable");
    assert_eq!(rows.len(), 62_789);
    // The initial position: white wins by 8 (the README's figure).
    let start = &rows[0];
    assert_eq!(start.value, "lose");
    assert_eq!(start.winby, Some(-8));
    // Unknown formats are refused before any work.
    let r = s.host(&["export", "--out", "x.xlsx"]);
    assert!(r.assert_failure_code(2).contains("cannot tell the format"));
}
