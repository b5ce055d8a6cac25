//! `host analyze` on mtttier: reachable and legal counts by value and by remoteness
//! against an independent brute-force enumeration of boards with their minimax
//! values (5478 boards; 765 up to symmetry), per tier and in total; the largest
//! remoteness; the plots. Against `memory:` and a `file:` database.

mod harness;

use harness::{canonical, host, host_module, reachable, solved_file_db, Board, Minimax, V};
use serde_json::Value as Json;
use std::collections::{BTreeMap, HashSet};

/// Counts by value, by (remoteness, value), and per tier by value.
#[derive(Default, Debug, PartialEq, Eq)]
struct Expected {
    total: u64,
    by_value: BTreeMap<&'static str, u64>,
    by_remoteness: BTreeMap<u32, [u64; 3]>,
    tiers: BTreeMap<u64, (u64, BTreeMap<&'static str, u64>)>,
}

fn expected(boards: &HashSet<Board>) -> Expected {
    let mut mm = Minimax::new();
    let mut e = Expected::default();
    for b in boards {
        let (v, r) = mm.solve(b);
        e.total += 1;
        *e.by_value.entry(v.name()).or_default() += 1;
        let slot = match v {
            V::Win => 0,
            V::Lose => 1,
            V::Tie => 2,
        };
        e.by_remoteness.entry(r).or_default()[slot] += 1;
        let tier = 9 - b.iter().filter(|&&c| c != 0).count() as u64;
        let t = e.tiers.entry(tier).or_default();
        t.0 += 1;
        *t.1.entry(v.name()).or_default() += 1;
    }
    e
}

fn by_value(j: &Json) -> BTreeMap<&'static str, u64> {
    ["win", "lose", "tie", "draw", "unsolved"]
        .into_iter()
        .map(|k| (k, j[k].as_u64().unwrap()))
        .filter(|&(_, n)| n > 0)
        .collect()
}

fn check_counts(counts: &Json, e: &Expected, what: &str) {
    assert_eq!(counts["total"], e.total, "{what} total");
    assert_eq!(by_value(&counts["by_value"]), e.by_value, "{what} by value");
    let rows: BTreeMap<u32, [u64; 3]> = counts["by_remoteness"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["remoteness"].as_u64().unwrap() as u32,
                [
                    r["win"].as_u64().unwrap(),
                    r["lose"].as_u64().unwrap(),
                    r["tie"].as_u64().unwrap(),
                ],
            )
        })
        .collect();
    assert_eq!(rows, e.by_remoteness, "{what} by remoteness");
}

fn check(j: &Json, boards: &HashSet<Board>) {
    let e = expected(boards);
    check_counts(&j["reachable"]["counts"], &e, "reachable");
    // Every legal tic-tac-toe board is reachable, so the stored records agree.
    check_counts(&j["legal"]["counts"], &e, "legal");
    assert_eq!(j["unsolved_tiers"].as_array().unwrap().len(), 0);
    for t in j["tiers"].as_array().unwrap() {
        let tier = t["tier"].as_u64().unwrap();
        let (n, values) = &e.tiers[&tier];
        assert_eq!(t["reachable"]["total"], *n, "tier {tier}");
        assert_eq!(
            &by_value(&t["reachable"]["by_value"]),
            values,
            "tier {tier}"
        );
        assert_eq!(t["solved"], true);
    }
    let deepest = e.by_remoteness.keys().max().copied().unwrap();
    for section in ["reachable", "legal"] {
        let m = &j[section]["max_remoteness"];
        assert_eq!(m["remoteness"], deepest, "{section}");
        // Only the empty board needs nine more moves.
        assert_eq!(m["position"], "---------", "{section}");
        assert_eq!(m["value"], "tie", "{section}");
        assert_eq!(m["tier"], 9, "{section}");
    }
}

fn analyze_json(variant: &str, db: &str) -> Json {
    let run = host(&["--variant", variant, "analyze", "--db", db, "--json"], "");
    assert!(run.success, "analyze failed: {}", run.stderr);
    serde_json::from_str(&run.stdout).expect("analyze --json prints one JSON object")
}

#[test]
fn regular_counts_in_memory() {
    let boards = reachable();
    assert_eq!(boards.len(), 5478, "the brute force itself");
    let j = analyze_json("regular", "memory:");
    assert_eq!(j["reachable"]["counts"]["total"], 5478);
    check(&j, &boards);
}

#[test]
fn regular_counts_from_files() {
    let dir = tempfile::tempdir().unwrap();
    let db = solved_file_db(dir.path(), "regular");
    check(&analyze_json("regular", &db), &reachable());
}

#[test]
fn symmetric_counts_canonical_positions() {
    let boards: HashSet<Board> = reachable().iter().map(canonical).collect();
    assert_eq!(boards.len(), 765, "the brute force itself");
    let j = analyze_json("symmetric", "memory:");
    assert_eq!(j["canonical_only"], true);
    let e = expected(&boards);
    check_counts(&j["reachable"]["counts"], &e, "reachable");
    check_counts(&j["legal"]["counts"], &e, "legal");
}

#[test]
fn unsolved_tiers_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let db = solved_file_db(dir.path(), "regular");
    std::fs::remove_file(dir.path().join("mtttier_regular_tierdb/tier_0.gz")).unwrap();
    let j = analyze_json("regular", &db);
    assert_eq!(j["unsolved_tiers"], serde_json::json!([0]));
    let e = expected(&reachable());
    let full = e.tiers[&0].0;
    assert_eq!(j["reachable"]["counts"]["total"], 5478);
    assert_eq!(j["reachable"]["counts"]["by_value"]["unsolved"], full);
    assert_eq!(j["legal"]["counts"]["total"], 5478 - full);
}

#[test]
fn text_tables_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("h.svg");
    let png = dir.path().join("h.png");
    for path in [&svg, &png] {
        let p = path.to_str().unwrap();
        let run = host(&["analyze", "--db", "memory:", "--plot", p], "");
        assert!(run.success, "{}", run.stderr);
        assert!(run
            .stdout
            .contains("Reachable from the initial position: 5,478 positions"));
        assert!(run
            .stdout
            .contains("All legal positions in the database: 5,478 positions"));
        assert!(run
            .stdout
            .contains("largest remoteness: 9 (tie), for example --------- (tier 9)"));
    }
    let s = std::fs::read_to_string(&svg).unwrap();
    assert!(
        s.contains("<svg") && s.contains("remoteness"),
        "an SVG with labels"
    );
    let p = std::fs::read(&png).unwrap();
    assert_eq!(&p[..8], b"\x89PNG\r\n\x1a\n", "a PNG file");
    let run = host(&["analyze", "--db", "memory:", "--plot", "h.gif"], "");
    assert!(!run.success);
    assert!(run.stderr.contains(".svg or .png"), "{}", run.stderr);
}

/// The texts of an SVG's `<text>` elements, in order.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..];
            Some(body[..body.find("</text>")?].trim().to_string())
        })
        .collect()
}

fn plot_svg(module: Option<&str>, args: &[&str]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("p.svg");
    let mut all = vec![
        "analyze",
        "--db",
        "memory:",
        "--plot",
        svg.to_str().unwrap(),
    ];
    all.extend_from_slice(args);
    let run = match module {
        Some(m) => host_module(m, &all),
        None => host(&all, ""),
    };
    assert!(run.success, "{}", run.stderr);
    (std::fs::read_to_string(&svg).unwrap(), run.stdout)
}

#[test]
fn plots_show_draws_as_their_own_series() {
    // whirly's two-colours level: 589 solvable positions and 993 that never reach a
    // solution (draws), counted on the same page as a bar of their own.
    let (svg, _) = plot_svg(Some("whirly"), &["--variant", "two-colours", "--json"]);
    let texts = svg_texts(&svg);
    for label in ["solvable", "unsolvable (never ends)", "never ends"] {
        assert!(texts.iter().any(|t| t == label), "{label} in {texts:?}");
    }
    // mtttier has no draws: no draw bar, and ties are a series of their own.
    let (svg, _) = plot_svg(None, &[]);
    let texts = svg_texts(&svg);
    for label in ["win", "lose", "tie"] {
        assert!(texts.iter().any(|t| t == label), "{label} in {texts:?}");
    }
    assert!(!texts.iter().any(|t| t == "draw"), "{texts:?}");
}

#[test]
fn winby_games_get_a_chart_of_margins() {
    let (svg, out) = plot_svg(Some("miceblocks"), &["--variant", "base3", "--json"]);
    let j: Json = serde_json::from_str(&out).unwrap();
    // Margins of decided positions add up to the decided positions.
    for section in ["reachable", "legal"] {
        let c = &j[section]["counts"];
        let decided: u64 = ["win", "lose", "tie"]
            .iter()
            .map(|k| c["by_value"][*k].as_u64().unwrap())
            .sum();
        let rows = c["by_margin"].as_array().unwrap();
        let margins: u64 = rows.iter().map(|r| r["positions"].as_u64().unwrap()).sum();
        assert_eq!(margins, decided, "{section}");
        assert!(rows.len() >= 2, "{section}: {rows:?}");
    }
    let texts = svg_texts(&svg);
    assert!(
        texts.iter().any(|t| t.ends_with("by WinBy margin")),
        "{texts:?}"
    );
    // Base 3 reachable: player 2 ahead by 3, or even.
    for label in ["player 2 ahead", "even", "-3", "0"] {
        assert!(texts.iter().any(|t| t == label), "{label} in {texts:?}");
    }
    assert!(
        svg.contains(r#"height="1200""#),
        "two charts, one above the other"
    );
    // A game without WinBy has no margins and one chart.
    let (svg, out) = plot_svg(None, &["--json"]);
    assert!(!out.contains("by_margin"));
    assert!(svg.contains(r#"height="600""#));
}

#[test]
fn the_log_scale_labels_powers_of_ten() {
    let numbers = |svg: &str| -> Vec<String> {
        svg_texts(svg)
            .into_iter()
            .filter(|t| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == ','))
            .collect()
    };
    let (linear, _) = plot_svg(None, &[]);
    let (log, _) = plot_svg(None, &["--log-scale"]);
    let (linear, log) = (numbers(&linear), numbers(&log));
    for power in ["1", "10", "100", "1,000"] {
        assert!(log.contains(&power.to_string()), "{power} in {log:?}");
    }
    assert!(linear.contains(&"0".to_string()), "{linear:?}");
    assert!(!linear.contains(&"10".to_string()) || !linear.contains(&"1".to_string()));
    // --log-scale only means something with --plot.
    let run = host(&["analyze", "--db", "memory:", "--log-scale"], "");
    assert!(!run.success);
}

#[test]
fn a_bad_plot_path_is_refused_before_any_work() {
    // The database is empty, so any work would end in "no database" (exit 4): the plot
    // path must be refused first, plainly.
    let dir = tempfile::tempdir().unwrap();
    let db = format!("file:{}", dir.path().display());
    let missing = dir.path().join("no/such/dir/h.svg");
    let run = host(
        &["analyze", "--db", &db, "--plot", missing.to_str().unwrap()],
        "",
    );
    assert!(!run.success);
    let want = format!(
        "error: cannot plot to {}: the directory {} does not exist\n",
        missing.display(),
        missing.parent().unwrap().display()
    );
    assert_eq!(run.stderr, want);
    let run = host(
        &[
            "analyze",
            "--db",
            &db,
            "--plot",
            dir.path().to_str().unwrap(),
        ],
        "",
    );
    assert!(run.stderr.contains(".svg or .png"), "{}", run.stderr);
    let as_dir = dir.path().join("d.png");
    std::fs::create_dir(&as_dir).unwrap();
    let run = host(
        &["analyze", "--db", &db, "--plot", as_dir.to_str().unwrap()],
        "",
    );
    assert_eq!(
        run.stderr,
        format!(
            "error: cannot plot to {}: it is a directory\n",
            as_dir.display()
        )
    );
}
