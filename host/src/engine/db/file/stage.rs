//! A tier file written from records given block by block (`Database::stage_tier`):
//! blocks are filled in order, encoded a batch at a time in parallel and spooled to an
//! unlinked scratch file; the header (which needs every block's checksum) then the
//! spooled blocks and the index go to the tier's temporary file, which is read back
//! through a bounded block cache before `commit` renames it into place. The bytes are
//! those `encode_tier` writes for the same records.
//!
//! This file only writes and stages; what the records mean is not its concern.

use super::codec;
use super::format::{block_member, frame, Member, Shape, BLOCK_POSITIONS, FORMAT_VERSION};
use super::{io, lock, FileDb, TierReader};
use crate::engine::db::{DbResult, FillBlock, LockWait, RecordSource, StagedTier, TierMeta};
use rayon::prelude::*;
use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

/// Decoded records the staged tier's reader keeps (in whole blocks).
const READ_CACHE: u64 = 32 << 20;

/// A tier file written under its temporary name, not yet in place.
pub(super) struct StagedFile<'a> {
    db: &'a FileDb,
    tier: gamesman_plugin_api::Tier,
    tmp: PathBuf,
    reader: TierReader,
    committed: bool,
}

/// Writes `meta`'s tier from `fill` under its temporary name, and opens it.
pub(super) fn stage<'a>(
    db: &'a FileDb,
    meta: &TierMeta,
    fill: FillBlock<'_>,
) -> DbResult<StagedFile<'a>> {
    db.refuse_remote()?;
    db.lock_for_writing(LockWait::Wait)?;
    let tmp = db
        .dir
        .join(lock::temporary_name(&format!("tier_{}.gz", meta.tier.0)));
    let written = write(db, meta, fill, &tmp);
    let reader = written.and_then(|()| Ok(TierReader::open(&tmp)?.with_cache_bytes(READ_CACHE)));
    match reader {
        Ok(reader) => Ok(StagedFile {
            db,
            tier: meta.tier,
            tmp,
            reader,
            committed: false,
        }),
        Err(e) => {
            // Our own half-written file: nobody else would know to remove it.
            let _ = fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// The file itself: blocks spooled, then header, blocks and index.
fn write(db: &FileDb, meta: &TierMeta, fill: FillBlock<'_>, tmp: &std::path::Path) -> DbResult<()> {
    let spool_path = db
        .dir
        .join(lock::temporary_name(&format!("tier_{}.spool", meta.tier.0)));
    let mut spool = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&spool_path)
        .map_err(io("creating", &spool_path))?;
    // Gone from the directory at once: a killed solve leaves nothing of it.
    fs::remove_file(&spool_path).map_err(io("removing", &spool_path))?;
    let n = meta.size;
    let blocks = n.div_ceil(BLOCK_POSITIONS);
    let batch = (2 * rayon::current_num_threads()).max(2) as u64;
    let mut sums: Vec<(u64, u32, u64)> = Vec::with_capacity(blocks as usize);
    {
        let mut out = BufWriter::with_capacity(1 << 20, &mut spool);
        let mut values: Vec<Vec<u16>> = Vec::new();
        let mut b = 0;
        while b < blocks {
            let take = batch.min(blocks - b);
            values.resize_with(take as usize, Vec::new);
            for (k, v) in values.iter_mut().enumerate() {
                let first = (b + k as u64) * BLOCK_POSITIONS;
                v.resize((BLOCK_POSITIONS.min(n - first)) as usize, 0);
                fill(first, v)?;
            }
            let members: Vec<Member> = values
                .par_iter()
                .map(|v| block_member(v, None, codec::encode))
                .collect();
            for (m, crc, len) in members {
                out.write_all(&m).map_err(io("writing", &spool_path))?;
                sums.push((m.len() as u64, crc, len));
            }
            b += take;
        }
        out.flush().map_err(io("writing", &spool_path))?;
    }
    let shape = Shape {
        positions: n,
        winby: false,
        format: FORMAT_VERSION,
        block: BLOCK_POSITIONS,
    };
    let (head, index) = frame(&db.key, meta, &shape, &sums);
    let mut f = File::create(tmp).map_err(io("creating", tmp))?;
    f.write_all(&head).map_err(io("writing", tmp))?;
    spool
        .seek(SeekFrom::Start(0))
        .map_err(io("reading", &spool_path))?;
    let body: u64 = sums.iter().map(|s| s.0).sum();
    let copied = std::io::copy(&mut (&spool).take(body), &mut f).map_err(io("writing", tmp))?;
    if copied != body {
        return Err(super::corrupt(tmp, "the spooled blocks came back short"));
    }
    f.write_all(&index).map_err(io("writing", tmp))?;
    f.sync_all().map_err(io("syncing", tmp))
}

impl StagedTier for StagedFile<'_> {
    fn records(&self) -> &dyn RecordSource {
        &self.reader
    }

    fn commit(mut self: Box<Self>) -> DbResult<()> {
        self.committed = true;
        self.db.put_in_place(self.tier, &self.tmp)
    }
}

impl Drop for StagedFile<'_> {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}
