//! Copying tiers from one database to another (`host db copy`, the seed's transfer).
//! A full tier without WinBy is streamed: the source's blocks are read in order on one
//! thread and written into the destination's staged tier on another, a few blocks in
//! flight, so a copy never holds a whole tier (issue 39). It must not put in place a
//! tier whose source failed any check: the staged tier is committed only after the
//! source's whole-file checksum was verified.

use super::{Coverage, Database, DbError, DbResult, TierMeta};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

/// Source blocks in flight between the reader and the writer.
const IN_FLIGHT: usize = 2;

/// Copies every tier in `tiers` that `src` holds into `dst`; returns how many tiers
/// were copied. `winby`: the game stores WinBy, whose tiers are copied whole.
pub fn transfer(
    src: &dyn Database,
    dst: &dyn Database,
    tiers: &[TierMeta],
    winby: bool,
) -> DbResult<usize> {
    let stored = src.stored_tiers()?;
    let mut copied = 0;
    for meta in tiers.iter().filter(|m| stored.contains(&m.tier)) {
        let coverage = src.stored_tier(meta.tier)?.map(|s| s.coverage);
        if coverage == Some(Coverage::ReachableOnly) {
            // Reachable-only tiers hold only their reachable positions' records.
            let t = src.load_reachable_tier(meta)?;
            dst.store_reachable_tier(meta, &t.marks, &t.records)?;
        } else if winby {
            let records = src.load_tier(meta)?;
            dst.store_tier(meta, &records)?;
        } else {
            stream(src, dst, meta)?;
        }
        copied += 1;
    }
    Ok(copied)
}

/// One full tier, block by block: `src.for_each_block` feeds `dst.stage_tier`.
fn stream(src: &dyn Database, dst: &dyn Database, meta: &TierMeta) -> DbResult<()> {
    let (tx, rx) = mpsc::sync_channel::<(u64, Vec<u16>)>(IN_FLIGHT);
    // Set when the reader stops only because the writer did: the writer's error is
    // then the one to report.
    let writer_gone = AtomicBool::new(false);
    let gone = &writer_gone;
    std::thread::scope(|s| {
        // `tx` moves in: when the reader ends, for any reason, the writer's next
        // receive ends too instead of waiting for ever.
        let reader = s.spawn(move || {
            src.for_each_block(meta, &mut |first, block| {
                tx.send((first, block.to_vec())).map_err(|_| {
                    gone.store(true, Ordering::Relaxed);
                    DbError::Unsupported("the copy's writer stopped".into())
                })
            })
        });
        let mut feed = Feed {
            rx,
            block: Vec::new(),
            first: 0,
            at: 0,
        };
        let staged = dst.stage_tier(meta, &mut |first, out| feed.fill(first, out));
        // Unblocks the reader if the writer stopped early.
        drop(feed);
        let read = reader.join().unwrap_or_else(|_| {
            Err(DbError::Unsupported(format!(
                "reading tier {} to copy it panicked",
                meta.name
            )))
        });
        // The source's own error first (a short feed is only its consequence), else
        // the writer's. A staged tier dropped without commit leaves nothing behind.
        match (read, staged) {
            (Ok(()), Ok(staged)) => staged.commit(),
            (Err(_), Err(w)) if writer_gone.load(Ordering::Relaxed) => Err(w),
            (Err(e), _) => Err(e),
            (Ok(()), Err(w)) => Err(w),
        }
    })
}

/// The writer's end: source blocks cut into the destination's blocks.
struct Feed {
    rx: mpsc::Receiver<(u64, Vec<u16>)>,
    /// The source block being used, its first position and how much is used.
    block: Vec<u16>,
    first: u64,
    at: usize,
}

impl Feed {
    /// Writes positions `first..first + out.len()` into `out`.
    fn fill(&mut self, first: u64, out: &mut [u16]) -> DbResult<()> {
        let mut done = 0;
        while done < out.len() {
            if self.at == self.block.len() {
                let next = self.first + self.block.len() as u64;
                let (f, block) = self
                    .rx
                    .recv()
                    .map_err(|_| DbError::Unsupported("the source tier ended early".into()))?;
                if f != next {
                    return Err(DbError::Unsupported(format!(
                        "the source gave block {f} where {next} was due"
                    )));
                }
                (self.block, self.first, self.at) = (block, f, 0);
            }
            let want = first + done as u64;
            if self.first + self.at as u64 != want {
                return Err(DbError::Unsupported(format!(
                    "the destination asked for position {want} out of order"
                )));
            }
            let take = (out.len() - done).min(self.block.len() - self.at);
            out[done..done + take].copy_from_slice(&self.block[self.at..self.at + take]);
            (done, self.at) = (done + take, self.at + take);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::db::file::{FileDb, BLOCK_POSITIONS};
    use crate::engine::db::memory::MemoryDb;
    use crate::engine::db::{GameKey, TierStatus};
    use crate::engine::record::{pack, TierRecords};
    use gamesman_plugin_api::{Tier, Value};
    use std::fs;

    fn key() -> GameKey {
        GameKey {
            game: "g".into(),
            variant: "v".into(),
            winby: false,
            numbering: 0,
        }
    }

    fn tier(n: u64) -> (TierMeta, TierRecords) {
        let meta = TierMeta {
            tier: Tier(3),
            name: "three".into(),
            size: n,
        };
        let values = (0..n)
            .map(|i| pack(Value((i % 5) as u8), ((i * 7) % 251) as u32))
            .collect();
        (
            meta,
            TierRecords {
                values,
                winby: None,
            },
        )
    }

    /// Names in `dir`, sorted.
    fn names(dir: &std::path::Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_streamed_copy_is_the_same_file_as_a_whole_store() {
        let (a, b, c) = (
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
        );
        let src = FileDb::open(a.path().into(), key()).unwrap();
        let streamed = FileDb::open(b.path().into(), key()).unwrap();
        let whole = FileDb::open(c.path().into(), key()).unwrap();
        // Three blocks and a bit, so the feed crosses block boundaries.
        let (meta, records) = tier(3 * BLOCK_POSITIONS + 4321);
        src.store_tier(&meta, &records).unwrap();
        whole.store_tier(&meta, &records).unwrap();
        assert_eq!(
            transfer(&src, &streamed, std::slice::from_ref(&meta), false).unwrap(),
            1
        );
        assert_eq!(streamed.verify_tier(&meta).unwrap(), TierStatus::Valid);
        let file = |db: &FileDb| fs::read(db.tier_path(meta.tier)).unwrap();
        assert!(file(&streamed) == file(&whole), "streamed copy differs");
        // Nothing but the tier (and the lock) is left in the destination.
        assert_eq!(names(b.path()), names(c.path()));
        // Into memory too, through the default staging.
        let mem = MemoryDb::new(key());
        transfer(&src, &mem, std::slice::from_ref(&meta), false).unwrap();
        assert_eq!(*mem.load_tier(&meta).unwrap(), records);
    }

    #[test]
    fn a_corrupt_source_block_copies_nothing() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let src = FileDb::open(a.path().into(), key()).unwrap();
        let dst = FileDb::open(b.path().into(), key()).unwrap();
        let (meta, records) = tier(2 * BLOCK_POSITIONS + 99);
        src.store_tier(&meta, &records).unwrap();
        let path = src.tier_path(meta.tier);
        let mut bytes = fs::read(&path).unwrap();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 0x55;
        fs::write(&path, bytes).unwrap();
        let err = transfer(&src, &dst, std::slice::from_ref(&meta), false).unwrap_err();
        assert!(matches!(err, DbError::Corrupt { .. }), "{err}");
        assert!(dst.stored_tiers().unwrap().is_empty());
        let dir = dst.tier_path(meta.tier).parent().unwrap().to_path_buf();
        let left: Vec<String> = names(&dir)
            .into_iter()
            .filter(|n| !n.ends_with(".lock"))
            .collect();
        assert!(left.is_empty(), "the copy left {left:?} behind");
    }

    #[test]
    fn a_destination_that_cannot_be_written_names_its_own_error() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let src = FileDb::open(a.path().into(), key()).unwrap();
        let dst = FileDb::open(b.path().into(), key()).unwrap();
        // Enough blocks that the reader is still sending when the writer fails.
        let (meta, records) = tier(6 * BLOCK_POSITIONS);
        src.store_tier(&meta, &records).unwrap();
        // A file where the destination's directory should be.
        let dir = dst.tier_path(meta.tier).parent().unwrap().to_path_buf();
        fs::write(&dir, b"not a directory").unwrap();
        let err = transfer(&src, &dst, std::slice::from_ref(&meta), false).unwrap_err();
        assert!(!err.to_string().contains("writer stopped"), "{err}");
        assert!(err.to_string().contains("g_v_tierdb"), "{err}");
    }
}
