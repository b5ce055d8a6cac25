//! Tests of `file:` databases: round trips, lookups, corruption, determinism, and
//! files of format 1 written by older hosts. They must write only under temporary
//! directories of their own.

use super::*;
use crate::engine::record::pack;
use gamesman_plugin_api::Value;
use std::io::Read;

fn key(winby: bool) -> GameKey {
    GameKey {
        game: "g".into(),
        variant: "v".into(),
        winby,
        numbering: 0,
    }
}

fn sample(n: usize, winby: bool) -> TierRecords {
    TierRecords {
        values: (0..n)
            .map(|i| pack(Value((i % 5) as u8), (i % 300) as u32))
            .collect(),
        winby: winby.then(|| (0..n).map(|i| (i as i32 % 41) - 20).collect()),
    }
}

/// Every gzip member of a tier file, decompressed one after another (what zcat prints).
fn unzipped(bytes: &[u8]) -> Vec<u8> {
    let mut all = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .read_to_end(&mut all)
        .unwrap();
    all
}

/// `bytes` with one byte in the middle (inside a block) flipped.
fn flipped_in_the_middle(bytes: &[u8]) -> Vec<u8> {
    let mut bad = bytes.to_vec();
    let mid = bad.len() / 2;
    bad[mid] ^= 0x55;
    bad
}

/// Whether `db` finds tier `meta` unusable.
fn is_corrupt(db: &FileDb, meta: &TierMeta) -> bool {
    matches!(db.verify_tier(meta).unwrap(), TierStatus::Corrupt(_))
}

#[test]
fn round_trip_lookup_and_zcat_readable() {
    let dir = tempfile::tempdir().unwrap();
    for winby in [false, true] {
        let db = FileDb::open(dir.path().to_path_buf(), key(winby)).unwrap();
        let n = 3 * BLOCK_POSITIONS as usize + 17;
        let recs = sample(n, winby);
        let meta = TierMeta {
            tier: Tier(7),
            name: "seven".into(),
            size: n as u64,
        };
        db.store_tier(&meta, &recs).unwrap();
        assert_eq!(db.verify_tier(&meta).unwrap(), TierStatus::Valid);
        assert_eq!(*db.load_tier(&meta).unwrap(), recs);
        for i in [0u64, 1, 32767, 32768, 70000, n as u64 - 1] {
            let got = db.lookup(TierPosition::new(Tier(7), i)).unwrap().unwrap();
            assert_eq!(got, recs.get(i), "record {i}");
        }
        assert!(db.lookup(TierPosition::new(Tier(8), 0)).unwrap().is_none());
        // All members concatenated decompress with a multi-member reader (zcat).
        let bytes = fs::read(db.tier_path(Tier(7))).unwrap();
        let all = unzipped(&bytes);
        assert!(
            all.starts_with(b"gamesman tier database\nformat: 3\ngame: g\nvariant: v\ntier: 7\n")
        );
        db.clear().unwrap();
    }
}

#[test]
fn corruption_and_truncation_are_detected() {
    let dir = tempfile::tempdir().unwrap();
    let db = FileDb::open(dir.path().to_path_buf(), key(false)).unwrap();
    let n = 2 * BLOCK_POSITIONS as usize;
    let meta = TierMeta {
        tier: Tier(1),
        name: "one".into(),
        size: n as u64,
    };
    db.store_tier(&meta, &sample(n, false)).unwrap();
    let path = db.tier_path(Tier(1));
    let good = fs::read(&path).unwrap();
    fs::write(&path, flipped_in_the_middle(&good)).unwrap();
    assert!(is_corrupt(&db, &meta));
    // Truncate.
    fs::write(&path, &good[..good.len() - 10]).unwrap();
    assert!(is_corrupt(&db, &meta));
    fs::write(&path, &good[..5]).unwrap();
    assert!(is_corrupt(&db, &meta));
    // Wrong size expected.
    fs::write(&path, &good).unwrap();
    let other = TierMeta {
        size: 5,
        ..meta.clone()
    };
    assert!(is_corrupt(&db, &other));
    assert_eq!(db.verify_tier(&meta).unwrap(), TierStatus::Valid);
}

#[test]
fn encoding_is_deterministic() {
    let recs = sample(100_000, true);
    let meta = TierMeta {
        tier: Tier(3),
        name: "t".into(),
        size: 100_000,
    };
    assert_eq!(
        encode_tier(&key(true), &meta, &recs),
        encode_tier(&key(true), &meta, &recs)
    );
}

fn meta(tier: u64, n: usize) -> TierMeta {
    TierMeta {
        tier: Tier(tier),
        name: format!("tier {tier}"),
        size: n as u64,
    }
}

#[test]
fn format_1_files_written_by_older_hosts_still_read() {
    let dir = tempfile::tempdir().unwrap();
    for winby in [false, true] {
        let db = FileDb::open(dir.path().to_path_buf(), key(winby)).unwrap();
        let n = 2 * 32768 + 5;
        let recs = sample(n, winby);
        let meta = meta(2, n);
        let bytes = format::encode_tier_v1(&key(winby), &meta, &recs);
        fs::create_dir_all(db.dir()).unwrap();
        let path = db.tier_path(Tier(2));
        fs::write(&path, &bytes).unwrap();
        let all = unzipped(&bytes);
        assert!(all.starts_with(b"gamesman tier database\nformat: 1\n"));
        assert_eq!(db.verify_tier(&meta).unwrap(), TierStatus::Valid);
        assert_eq!(*db.load_tier(&meta).unwrap(), recs);
        for i in [0u64, 32767, 32768, 65535, n as u64 - 1] {
            let got = db.lookup(TierPosition::new(Tier(2), i)).unwrap().unwrap();
            assert_eq!(got, recs.get(i), "record {i}");
        }
        // Damage is found in format 1 as well.
        fs::write(&path, flipped_in_the_middle(&bytes)).unwrap();
        assert!(is_corrupt(&db, &meta));
        // Storing again writes the current format, which reads the same.
        db.store_tier(&meta, &recs).unwrap();
        let all = unzipped(&fs::read(&path).unwrap());
        assert!(all.starts_with(b"gamesman tier database\nformat: 3\n"));
        assert_eq!(*db.load_tier(&meta).unwrap(), recs);
    }
}

#[test]
fn damage_to_any_block_fails_its_lookups() {
    let dir = tempfile::tempdir().unwrap();
    let n = 3 * BLOCK_POSITIONS as usize + 1000;
    let recs = TierRecords {
        values: (0..n)
            .map(|i| match i % 7 {
                0 | 1 => 0,
                k => pack(Value::WIN, (k + i / 5000 % 3) as u32),
            })
            .collect(),
        winby: None,
    };
    let meta = meta(4, n);
    let db = FileDb::open(dir.path().to_path_buf(), key(false)).unwrap();
    db.store_tier(&meta, &recs).unwrap();
    let path = db.tier_path(Tier(4));
    let good = fs::read(&path).unwrap();
    for b in 0..4u64 {
        let start = (b * BLOCK_POSITIONS) as usize;
        let end = (start + BLOCK_POSITIONS as usize).min(n);
        let member = codec::encode(&recs.values[start..end], None);
        let at = good
            .windows(member.len())
            .position(|w| w == &member[..])
            .expect("the block's member in the file");
        let mut bad = good.clone();
        let mid = at + member.len() / 2;
        bad[mid..mid + 4].iter_mut().for_each(|b| *b ^= 0xff);
        fs::write(&path, &bad).unwrap();
        let fresh = FileDb::open(dir.path().to_path_buf(), key(false)).unwrap();
        let err = fresh
            .lookup(TierPosition::new(Tier(4), start as u64 + 3))
            .unwrap_err();
        assert!(matches!(err, DbError::Corrupt { .. }), "block {b}: {err}");
        // Other blocks still answer.
        let other = ((b + 1) % 4) * BLOCK_POSITIONS;
        assert_eq!(
            fresh.lookup(TierPosition::new(Tier(4), other)).unwrap(),
            Some(recs.get(other))
        );
        assert!(matches!(
            fresh.verify_tier(&meta).unwrap(),
            TierStatus::Corrupt(_)
        ));
    }
}

#[test]
fn blocks_in_the_wrong_order_fail_the_tier_checksum() {
    let dir = tempfile::tempdir().unwrap();
    let b = BLOCK_POSITIONS as usize;
    // Two blocks of one record each, coded to members of the same length.
    let x = pack(Value::WIN, 1);
    let mx = codec::encode(&vec![x; b], None);
    let (y, my) = (2..4000)
        .map(|r| pack(Value((r % 3 + 1) as u8), r))
        .map(|y| (y, codec::encode(&vec![y; b], None)))
        .find(|(_, my)| my.len() == mx.len())
        .unwrap();
    let recs = TierRecords {
        values: [vec![x; b], vec![y; b]].concat(),
        winby: None,
    };
    let meta = meta(5, 2 * b);
    let db = FileDb::open(dir.path().to_path_buf(), key(false)).unwrap();
    db.store_tier(&meta, &recs).unwrap();
    let path = db.tier_path(Tier(5));
    let mut bytes = fs::read(&path).unwrap();
    let at = bytes.windows(mx.len()).position(|w| w == &mx[..]).unwrap();
    assert_eq!(&bytes[at + mx.len()..at + 2 * mx.len()], &my[..]);
    bytes[at..at + mx.len()].copy_from_slice(&my);
    bytes[at + mx.len()..at + 2 * mx.len()].copy_from_slice(&mx);
    fs::write(&path, &bytes).unwrap();
    // Each block decodes, but the records are not the ones the header's CRC covers.
    let fresh = FileDb::open(dir.path().to_path_buf(), key(false)).unwrap();
    assert_eq!(
        fresh.lookup(TierPosition::new(Tier(5), 0)).unwrap(),
        Some(recs.get(b as u64))
    );
    match fresh.verify_tier(&meta).unwrap() {
        TierStatus::Corrupt(reason) => assert!(reason.contains("checksum"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_unknown_format_version_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = FileDb::open(dir.path().to_path_buf(), key(false)).unwrap();
    let meta = meta(6, 10);
    let recs = sample(10, false);
    let bytes = encode_tier(&key(false), &meta, &recs);
    // The same file claiming format 9: the header member rebuilt with that text, the
    // index's offset in its extra field moved by the change in its length.
    let mut text = Vec::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_end(&mut text)
        .unwrap();
    let old_len = gzip_member(&text, Some(extra_field(0, 0))).len();
    let text = String::from_utf8(text)
        .unwrap()
        .replace("format: 3", "format: 9");
    let new_len = gzip_member(text.as_bytes(), Some(extra_field(0, 0))).len();
    let (at, len) = format::find_extra(&bytes[12..32]).unwrap();
    let moved = at + new_len as u64 - old_len as u64;
    let mut file = gzip_member(text.as_bytes(), Some(extra_field(moved, len)));
    file.extend_from_slice(&bytes[old_len..]);
    fs::create_dir_all(db.dir()).unwrap();
    fs::write(db.tier_path(Tier(6)), &file).unwrap();
    let err = db.lookup(TierPosition::new(Tier(6), 0)).unwrap_err();
    assert!(err.to_string().contains("format version 9"), "{err}");
}

#[test]
fn files_of_another_numbering_are_refused_and_solved_again() {
    // A module that renumbers its positions (index_version 1) must not read files
    // written under its old numbering (0, which older files have without saying).
    let dir = tempfile::tempdir().unwrap();
    let n = 1000;
    let meta = TierMeta {
        tier: Tier(3),
        name: "three".into(),
        size: n as u64,
    };
    let old = FileDb::open(dir.path().to_path_buf(), key(false)).unwrap();
    old.store_tier(&meta, &sample(n, false)).unwrap();
    drop(old);
    let renumbered = GameKey {
        numbering: 1,
        ..key(false)
    };
    let db = FileDb::open(dir.path().to_path_buf(), renumbered.clone()).unwrap();
    match db.verify_tier(&meta).unwrap() {
        TierStatus::Corrupt(why) => assert!(
            why.contains("version 0 of the module's numbering, but the module now uses version 1")
                && why.contains("solve again"),
            "{why}"
        ),
        other => panic!("a file of the old numbering passed as {other:?}"),
    }
    let e = db.lookup(TierPosition::new(Tier(3), 5)).unwrap_err();
    assert!(e.to_string().contains("solve again"), "{e}");
    // Stored again under the new numbering, it reads, and says its numbering.
    db.store_tier(&meta, &sample(n, false)).unwrap();
    assert_eq!(db.verify_tier(&meta).unwrap(), TierStatus::Valid);
    assert_eq!(
        db.lookup(TierPosition::new(Tier(3), 5)).unwrap(),
        Some(sample(n, false).get(5))
    );
    let bytes = fs::read(db.tier_path(Tier(3))).unwrap();
    let all = unzipped(&bytes);
    assert!(all.starts_with(
        b"gamesman tier database\nformat: 3\ngame: g\nvariant: v\nnumbering: 1\ntier: 3\n"
    ));
    // And the old numbering's reader refuses the new file the same way.
    let old = FileDb::open(dir.path().to_path_buf(), key(false)).unwrap();
    assert!(matches!(
        old.verify_tier(&meta).unwrap(),
        TierStatus::Corrupt(_)
    ));
}
