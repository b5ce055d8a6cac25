//! The solver's per-tier calls, as front ends that schedule tiers themselves (the MPI
//! driver) use them: `pending_tiers`, then `solve_and_store` tier by tier with the
//! children read back from the database, then `report`. The files must be
//! byte-identical to `solve`'s, and a tier whose children are not stored must fail
//! with an error naming the missing file. Runs without MPI.

use gamesman_host::engine::db::{self, Database, GameKey};
use gamesman_host::engine::solver::{self, Silent, SolveOptions};
use gamesman_host::engine::tier::TierGraph;
use gamesman_host::GameHandle;
use mtttier::MttTier;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::time::Instant;

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir.join("mtttier_regular_tierdb"))
        .expect("the tier directory")
        .map(|e| {
            let e = e.expect("an entry");
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).expect("a tier file"),
            )
        })
        .collect()
}

fn open(game: &GameHandle, dir: &Path) -> std::sync::Arc<dyn Database> {
    let key = GameKey {
        game: game.module_name().to_string(),
        variant: game.variant().to_string(),
        winby: game.supports_winby(),
        numbering: 0,
    };
    db::open(&format!("file:{}", dir.display()), &key).expect("a file database")
}

#[test]
fn tier_by_tier_from_the_database_matches_a_whole_solve() {
    let game = GameHandle::from_static::<MttTier>("regular").unwrap();
    let options = SolveOptions::default();

    let whole = tempfile::tempdir().unwrap();
    let expected =
        solver::solve(&game, open(&game, whole.path()).as_ref(), &options, &Silent).unwrap();

    let work = tempfile::tempdir().unwrap();
    let db = open(&game, work.path());
    let started = Instant::now();
    let graph = TierGraph::discover(&game).unwrap();
    let todo = solver::pending_tiers(&graph, db.as_ref(), &options, &Silent).unwrap();
    let all: HashSet<_> = graph.order.iter().map(|n| n.tier).collect();
    assert_eq!(todo, all, "an empty database holds nothing");
    assert_eq!(todo.len(), 10);
    for node in &graph.order {
        let records = solver::solve_and_store(&game, db.as_ref(), &graph, node, &options, &Silent)
            .unwrap()
            .records
            .expect("solved whole: the records are returned");
        assert_eq!(records.len() as u64, node.size);
    }
    assert_eq!(files(work.path()), files(whole.path()));
    let report = solver::report(&game, db.as_ref(), &graph, &todo, started).unwrap();
    assert_eq!(report.tiers_solved, 10);
    assert_eq!(report.positions_solved, expected.positions_solved);
    assert_eq!(report.initial_record, expected.initial_record);
    assert!(
        solver::pending_tiers(&graph, db.as_ref(), &options, &Silent)
            .unwrap()
            .is_empty(),
        "every tier is stored and valid now"
    );
}

#[test]
fn a_tier_whose_children_are_not_stored_fails_naming_the_file() {
    let game = GameHandle::from_static::<MttTier>("regular").unwrap();
    let work = tempfile::tempdir().unwrap();
    let db = open(&game, work.path());
    let graph = TierGraph::discover(&game).unwrap();
    let root = graph.order.last().expect("a root tier");
    assert!(!root.children.is_empty());
    let e = solver::solve_and_store(
        &game,
        db.as_ref(),
        &graph,
        root,
        &SolveOptions::default(),
        &Silent,
    )
    .unwrap_err()
    .to_string();
    let child = format!("tier_{}.gz", root.children[0].0);
    assert!(e.contains(&child), "{e}");
    assert!(
        !work
            .path()
            .join("mtttier_regular_tierdb")
            .join(format!("tier_{}.gz", root.tier.0))
            .exists(),
        "nothing is stored for the failed tier"
    );
}
