//! `host verify` on mtttier databases (issue 22 item 2): a database as `solve` left it
//! passes with a summary; a missing tier, a tier file of another variant, a valid file
//! holding another variant's records, and one record changed by hand each make it exit
//! non-zero naming what is wrong. Wrong-but-valid files are written through the
//! database API, so their checksums are right and only the records give them away.

mod harness;

use gamesman_host::engine::db::{self, GameKey};
use gamesman_host::engine::record::pack;
use gamesman_host::engine::solver::meta_of;
use gamesman_host::engine::tier::TierGraph;
use gamesman_host::GameHandle;
use gamesman_plugin_api::{Tier, TierPosition, Value};
use harness::{host, solved_file_db};
use mtttier::MttTier;
use std::path::Path;

fn key(variant: &str) -> GameKey {
    GameKey {
        game: "mtttier".into(),
        variant: variant.into(),
        winby: false,
        numbering: 0,
    }
}

fn verify(resource: &str) -> harness::Run {
    host(&["verify", "--db", resource], "")
}

fn tier_file(root: &Path, variant: &str, tier: u64) -> std::path::PathBuf {
    root.join(format!("mtttier_{variant}_tierdb/tier_{tier}.gz"))
}

#[test]
fn a_solved_database_passes() {
    let dir = tempfile::tempdir().unwrap();
    let res = solved_file_db(dir.path(), "regular");
    let run = verify(&res);
    assert!(run.success, "{}", run.stderr);
    // Every legal board and every illegal index: the whole hash of every tier.
    let game = GameHandle::from_static::<MttTier>("regular").unwrap();
    let total = TierGraph::discover(&game).unwrap().total_positions();
    assert!(
        run.stdout.starts_with(&format!(
            "verified mtttier (regular) in file:{}/mtttier_regular_tierdb: 10 tiers, {} positions, every record follows from its children",
            dir.path().display(),
            gamesman_host::engine::numbers::count(total)
        )),
        "{}",
        run.stdout
    );
    // The symmetric variant stores records only for canonical boards; they pass too.
    let sym = solved_file_db(dir.path(), "symmetric");
    let run = host(&["--variant", "symmetric", "verify", "--db", &sym], "");
    assert!(run.success, "{}", run.stderr);
}

#[test]
fn a_missing_or_foreign_tier_file_fails() {
    let dir = tempfile::tempdir().unwrap();
    let res = solved_file_db(dir.path(), "regular");
    solved_file_db(dir.path(), "symmetric");
    let five = tier_file(dir.path(), "regular", 5);
    let original = std::fs::read(&five).unwrap();

    std::fs::remove_file(&five).unwrap();
    let run = verify(&res);
    assert!(!run.success);
    assert!(
        run.stderr.contains("error: tier 5 (") && run.stderr.contains("is not stored in"),
        "{}",
        run.stderr
    );

    // The other variant's file for the same tier: its header gives it away.
    std::fs::copy(tier_file(dir.path(), "symmetric", 5), &five).unwrap();
    let run = verify(&res);
    assert!(!run.success);
    assert!(
        run.stderr
            .contains("belongs to another game, variant or tier")
            || run.stderr.contains("it belongs to mtttier symmetric"),
        "{}",
        run.stderr
    );

    std::fs::write(&five, original).unwrap();
    assert!(verify(&res).success);
}

#[test]
fn another_variants_records_in_a_valid_file_fail() {
    let dir = tempfile::tempdir().unwrap();
    let res = solved_file_db(dir.path(), "regular");
    solved_file_db(dir.path(), "symmetric");
    let game = GameHandle::from_static::<MttTier>("regular").unwrap();
    let graph = TierGraph::discover(&game).unwrap();
    let meta = meta_of(graph.get(Tier(6)).unwrap());
    // The symmetric variant leaves non-canonical boards without a record; stored as
    // the regular variant's tier 6 (same size), the file is valid but wrong.
    let sym = db::open(&res, &key("symmetric")).unwrap();
    let records = sym.load_tier(&meta).unwrap();
    let first_gap = (0..records.len() as u64)
        .find(|&i| {
            let p = TierPosition::new(Tier(6), i);
            records.get(i).value == Value::UNDECIDED && game.is_legal(p).unwrap()
        })
        .expect("the symmetric variant skips some legal boards");
    let regular = db::open(&res, &key("regular")).unwrap();
    regular.store_tier(&meta, &records).unwrap();

    let run = verify(&res);
    assert!(!run.success);
    let text = game
        .position_to_text(TierPosition::new(Tier(6), first_gap))
        .unwrap();
    assert!(
        run.stderr.contains(&format!(
            "verification failed in tier 6 ({}) at position {text}: the record is unsolved, but",
            meta.name
        )),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("solve again with --force"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_record_changed_by_hand_fails() {
    let dir = tempfile::tempdir().unwrap();
    let res = solved_file_db(dir.path(), "regular");
    let game = GameHandle::from_static::<MttTier>("regular").unwrap();
    let graph = TierGraph::discover(&game).unwrap();
    let meta = meta_of(graph.get(Tier(4)).unwrap());
    let database = db::open(&res, &key("regular")).unwrap();
    let mut records = database.load_tier(&meta).unwrap().as_ref().clone();
    // The last win of tier 4 becomes a loss at the same remoteness.
    let i = (0..records.len())
        .rev()
        .find(|&i| records.get(i as u64).value == Value::WIN)
        .expect("tier 4 has wins");
    let r = records.get(i as u64).remoteness;
    records.values[i] = pack(Value::LOSE, r);
    database.store_tier(&meta, &records).unwrap();

    let run = verify(&res);
    assert!(!run.success);
    let text = game
        .position_to_text(TierPosition::new(Tier(4), i as u64))
        .unwrap();
    let err = run.stderr.trim();
    assert!(
        err.starts_with(&format!(
            "error: verification failed in tier 4 ({}) at position {text}: the record is lose in {r}, but its move",
            meta.name
        )),
        "{err}"
    );
    assert!(err.contains(&format!("so it must be win in {r}")), "{err}");
    assert!(
        err.contains("validate --plugin mtttier --variant regular"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one paragraph: {err}");
}
