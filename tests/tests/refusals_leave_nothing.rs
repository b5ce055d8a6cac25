//! The smaller points of issue 52: a refused solve leaves no empty database directory
//! behind (nor the parents it made for it); `solve --plan` exits 5 (solve), as the
//! solve would, when a tier does not fit the budget in any way, with the plan still
//! shown (with `--json`, in the error's one object); `analyze` of a partial database
//! names the tiers it lacks as tiers ("tier 9 (...)"), never a bare number that reads
//! as a count ("unsolved tiers: 0"). Drives the `chain` fixture's `huge` variant (its
//! top tier of 2^40 positions fits no budget here) and mtttier.

use e2e_tests::run::{run_host, RunOutput};
use e2e_tests::workspace::{host_binary, plugin};
use serde_json::Value;

fn host(args: &[&str]) -> RunOutput {
    run_host(&host_binary(), args)
}

fn chain(args: &[&str]) -> RunOutput {
    let p = plugin("fixture_chain").display().to_string();
    let mut all = vec!["--plugin", p.as_str(), "--variant", "huge"];
    all.extend_from_slice(args);
    host(&all)
}

#[test]
fn a_refused_solve_leaves_no_directory_it_made() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("new/db");
    let resource = format!("file:{}", root.display());
    let r = chain(&["solve", "--db", &resource]);
    assert_eq!(r.status.code(), Some(5), "{}", r.describe());
    assert!(r.stderr.contains("needs about"), "{}", r.describe());
    assert!(
        !tmp.path().join("new").exists(),
        "the refused solve left {:?}",
        std::fs::read_dir(tmp.path())
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect::<Vec<_>>()
    );
    // A directory that was there stays, with what it holds.
    let kept = tmp.path().join("kept");
    std::fs::create_dir(&kept).unwrap();
    std::fs::write(kept.join("notes.txt"), "mine").unwrap();
    let resource = format!("file:{}", kept.display());
    assert_eq!(chain(&["solve", "--db", &resource]).status.code(), Some(5));
    let left: Vec<String> = std::fs::read_dir(&kept)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    assert_eq!(left, ["notes.txt"]);
}

#[test]
fn a_plan_that_does_not_fit_exits_5_and_still_shows_the_plan() {
    let r = chain(&["solve", "--plan"]);
    assert_eq!(r.status.code(), Some(5), "{}", r.describe());
    assert!(
        r.stdout.contains("does not fit") && r.stdout.starts_with("plan for chain"),
        "the plan on stdout:\n{}",
        r.describe()
    );
    assert!(
        r.stderr
            .contains("error: 1 of 30 tiers do not fit the budget"),
        "{}",
        r.describe()
    );
    let r = chain(&["solve", "--plan", "--json"]);
    assert_eq!(r.status.code(), Some(5), "{}", r.describe());
    let j: Value = serde_json::from_str(r.stdout.trim()).expect("one JSON object");
    assert_eq!(j["kind"], "solve");
    assert_eq!(j["exit_code"], 5);
    assert_eq!(j["fits"], false);
    assert_eq!(j["tiers"].as_array().map(Vec::len), Some(30));
    assert!(j["error"].as_str().unwrap().contains("do not fit"), "{j:#}");
    // A plan that fits is still success.
    let r = host(&["--plugin", "mtttier", "solve", "--plan", "--json"]);
    r.assert_success();
    let j: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(j["fits"], true);
}

#[test]
fn analyze_names_the_tiers_a_partial_database_lacks() {
    let tmp = tempfile::tempdir().unwrap();
    let resource = format!("file:{}", tmp.path().display());
    let p = ["--plugin", "mtttier"];
    let solve: Vec<&str> = p
        .iter()
        .copied()
        .chain(["solve", "--endgame", "1", "--db", &resource])
        .collect();
    host(&solve).assert_success();
    let analyze: Vec<&str> = p
        .iter()
        .copied()
        .chain(["analyze", "--db", &resource])
        .collect();
    let r = host(&analyze);
    r.assert_success();
    let line = r
        .stdout
        .lines()
        .find(|l| l.contains("not in the database"))
        .unwrap_or_else(|| panic!("no line for the missing tiers:\n{}", r.stdout));
    assert!(
        line.starts_with("8 of 10 tiers not in the database (unsolved): tier 9 ("),
        "{line}"
    );
    assert!(line.contains(", tier 2 ("), "{line}");
    assert!(
        !line.contains("tier 1 (") && !line.contains("tier 0 ("),
        "{line}"
    );
}
