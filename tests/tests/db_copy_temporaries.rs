//! A killed `db copy` leaves its temporary tier file behind (issue 52, F7): the next
//! `db copy` into the same database removes it, as the next `export` into a directory
//! removes a killed export's temporaries and the next `solve` a killed solve's; a
//! temporary whose writer still runs is left alone.

use e2e_tests::run::run_host;
use e2e_tests::workspace::host_binary;

const DIR: &str = "mtttier_regular_tierdb";

#[test]
fn the_next_copy_reclaims_a_killed_copys_temporaries_and_only_those() {
    let host = host_binary();
    let src = tempfile::tempdir().unwrap();
    let dst = tempfile::tempdir().unwrap();
    let (from, to) = (
        format!("file:{}", src.path().display()),
        format!("file:{}", dst.path().display()),
    );
    run_host(&host, &["--plugin", "mtttier", "solve", "--db", &from]).assert_success();
    let dir = dst.path().join(DIR);
    std::fs::create_dir_all(&dir).unwrap();
    // What a copy killed while writing tier 3 leaves: its process is gone (a process id
    // past any pid_max), and one of a writer that still runs (this test).
    let dead = dir.join("tier_3.gz.4194305000.tmp");
    let live = dir.join(format!("tier_4.gz.{}.tmp", std::process::id()));
    std::fs::write(&dead, b"half a tier").unwrap();
    std::fs::write(&live, b"being written").unwrap();
    let r = run_host(&host, &["--plugin", "mtttier", "db", "copy", &from, &to]);
    r.assert_success();
    assert!(r.stdout.contains("copied 10 tiers"), "{}", r.describe());
    assert!(!dead.exists(), "the killed copy's temporary is reclaimed");
    assert!(live.exists(), "a running writer's temporary is kept");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        [live.file_name().unwrap().to_string_lossy().to_string()]
    );
}
