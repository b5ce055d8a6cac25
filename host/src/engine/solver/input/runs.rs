//! Level runs: a solved child tier's decided positions grouped by value and
//! remoteness, spilled to a scratch file so that a parent tier can be solved without
//! the child tier in memory. One pass over the stored tier, block by block, writes a
//! run per (remoteness, value) as delta-coded varints in segments of at most
//! `SEGMENT_BYTES`; the solver then reads the runs of one level at a time. The file is
//! removed from its directory as soon as it is made, so it is gone with its last
//! handle and a killed solve leaves nothing behind.
//!
//! This file only orders positions of a stored tier; it never changes a record.

use crate::engine::db::{Database, DbError, TierMeta};
use crate::engine::record::{remoteness_of, value_of};
use gamesman_plugin_api::{Tier, Value};
use rayon::prelude::*;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The values a run holds, in the order of their slots.
pub const VALUES: [Value; 3] = [Value::WIN, Value::LOSE, Value::TIE];

/// A run's bytes are written out once they reach this many (one segment).
pub const SEGMENT_BYTES: usize = 1 << 16;

/// Positions encoded by one task while spilling.
const PIECE: usize = 1 << 16;

/// Memory the runs of one child tier hold while it is spilled and read, beyond the
/// index of its segments: write buffers of every run and the file's buffer.
pub const SPILL_BYTES: u64 = 24 << 20;

/// Bytes of the segment index per position of a child tier (at most), for estimates.
pub fn index_bytes(positions: u64) -> u64 {
    // About 1.1 bytes a decided position, a 24-byte entry per 64 KiB segment, plus
    // the partly filled last segment of every run.
    positions / 2048 + (1 << 16)
}

fn slot(v: Value) -> Option<usize> {
    VALUES.iter().position(|&x| x == v)
}

/// One stretch of a run in the file.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Segment {
    pub(crate) offset: u64,
    pub(crate) len: u32,
    pub(crate) count: u32,
    /// The index the first delta counts from.
    pub(crate) base: u64,
}

/// A run being written: its bytes since the last segment.
#[derive(Default)]
struct Pending {
    bytes: Vec<u8>,
    count: u32,
    base: u64,
    last: u64,
}

/// A child tier's decided positions by (remoteness, value), in a scratch file.
pub struct LevelRuns {
    /// The child tier.
    pub tier: Tier,
    file: File,
    path: PathBuf,
    /// Segments of run `r * 3 + slot`, in index order.
    runs: Vec<Vec<Segment>>,
    wl_levels: u32,
    tie_levels: u32,
    /// Bytes written.
    pub bytes: u64,
}

pub(crate) fn put_varint(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push((x as u8) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// The varint at the start of `b` and its length.
pub(crate) fn get_varint(b: &[u8]) -> Option<(u64, usize)> {
    let mut x = 0u64;
    for (k, &byte) in b.iter().enumerate().take(10) {
        x |= ((byte & 0x7f) as u64) << (7 * k);
        if byte < 0x80 {
            return Some((x, k + 1));
        }
    }
    None
}

/// The runs of `values` (positions `base..`), each with its count and last index.
fn encode(base: u64, values: &[u16]) -> Vec<Pending> {
    let mut runs: Vec<Pending> = Vec::new();
    for (k, &p) in values.iter().enumerate() {
        let Some(s) = slot(value_of(p)) else { continue };
        let key = remoteness_of(p) as usize * 3 + s;
        if key >= runs.len() {
            runs.resize_with(key + 1, Pending::default);
        }
        let run = &mut runs[key];
        let i = base + k as u64;
        if run.count == 0 {
            run.base = base;
            run.last = base;
        }
        put_varint(&mut run.bytes, i - run.last);
        run.last = i;
        run.count += 1;
    }
    runs
}

static SCRATCH: AtomicU64 = AtomicU64::new(0);

/// A new scratch file in `dir` (the system's temporary directory when `None`),
/// already removed from the directory.
pub(crate) fn scratch_file(dir: Option<&Path>) -> Result<(File, PathBuf), DbError> {
    let dir = dir.map_or_else(std::env::temp_dir, Path::to_path_buf);
    let path = dir.join(format!(
        ".level-runs-{}-{}.tmp",
        std::process::id(),
        SCRATCH.fetch_add(1, Relaxed)
    ));
    let io = |op| {
        let path = path.clone();
        move |source| DbError::Io { op, path, source }
    };
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(io("creating the scratch file"))?;
    std::fs::remove_file(&path).map_err(io("removing the scratch file"))?;
    Ok((file, path))
}

impl LevelRuns {
    /// Spills the stored tier `meta` of `db` into runs in a scratch file in `dir`.
    pub fn spill(db: &dyn Database, meta: &TierMeta, dir: Option<&Path>) -> Result<Self, DbError> {
        let (file, path) = scratch_file(dir)?;
        let io_err = |source| DbError::Io {
            op: "writing the scratch file",
            path: path.clone(),
            source,
        };
        let mut out = BufWriter::with_capacity(1 << 20, &file);
        let mut pending: Vec<Pending> = Vec::new();
        let mut runs: Vec<Vec<Segment>> = Vec::new();
        let mut offset = 0u64;
        let mut flush = |run: &mut Pending,
                         segments: &mut Vec<Segment>,
                         out: &mut BufWriter<&File>|
         -> Result<(), DbError> {
            out.write_all(&run.bytes).map_err(io_err)?;
            segments.push(Segment {
                offset,
                len: run.bytes.len() as u32,
                count: run.count,
                base: run.base,
            });
            offset += run.bytes.len() as u64;
            run.bytes.clear();
            run.count = 0;
            Ok(())
        };
        db.for_each_block(meta, &mut |first, values| {
            let pieces: Vec<Vec<Pending>> = values
                .par_chunks(PIECE)
                .enumerate()
                .map(|(k, c)| encode(first + (k * PIECE) as u64, c))
                .collect();
            for piece in pieces {
                if piece.len() > pending.len() {
                    pending.resize_with(piece.len(), Pending::default);
                    runs.resize_with(piece.len(), Vec::new);
                }
                for (key, p) in piece.into_iter().enumerate() {
                    if p.count == 0 {
                        continue;
                    }
                    let run = &mut pending[key];
                    if run.count == 0 {
                        run.base = p.base;
                        run.bytes.extend_from_slice(&p.bytes);
                    } else {
                        // The piece's first delta counts from its own base: recount
                        // it from the run's last index.
                        let (d, len) = get_varint(&p.bytes).expect("a varint just written");
                        put_varint(&mut run.bytes, p.base + d - run.last);
                        run.bytes.extend_from_slice(&p.bytes[len..]);
                    }
                    run.count += p.count;
                    run.last = p.last;
                    if run.bytes.len() >= SEGMENT_BYTES {
                        flush(run, &mut runs[key], &mut out)?;
                    }
                }
            }
            Ok(())
        })?;
        for (key, run) in pending.iter_mut().enumerate() {
            if run.count > 0 {
                flush(run, &mut runs[key], &mut out)?;
            }
        }
        out.flush().map_err(io_err)?;
        drop(out);
        let levels = |s: usize| {
            (0..runs.len())
                .filter(|k| k % 3 == s && !runs[*k].is_empty())
                .map(|k| (k / 3) as u32 + 1)
                .max()
                .unwrap_or(0)
        };
        let (wl_levels, tie_levels) = (levels(0).max(levels(1)), levels(2));
        Ok(LevelRuns {
            tier: meta.tier,
            file,
            path,
            runs,
            wl_levels,
            tie_levels,
            bytes: offset,
        })
    }

    /// One more than the largest remoteness of a win or loss (0 if none).
    pub fn wl_levels(&self) -> u32 {
        self.wl_levels
    }

    /// One more than the largest remoteness of a tie (0 if none).
    pub fn tie_levels(&self) -> u32 {
        self.tie_levels
    }

    /// Calls `f` with the positions of value `v` at remoteness `r`, in index order, a
    /// segment at a time (`buf` holds them).
    pub fn for_each_segment<E: From<DbError>>(
        &self,
        v: Value,
        r: u32,
        buf: &mut Vec<u64>,
        mut f: impl FnMut(&[u64]) -> Result<(), E>,
    ) -> Result<(), E> {
        let Some(s) = slot(v) else { return Ok(()) };
        let Some(segments) = self.runs.get(r as usize * 3 + s) else {
            return Ok(());
        };
        let mut raw = Vec::new();
        for seg in segments {
            raw.resize(seg.len as usize, 0);
            self.file
                .read_exact_at(&mut raw, seg.offset)
                .map_err(|source| DbError::Io {
                    op: "reading the scratch file",
                    path: self.path.clone(),
                    source,
                })?;
            buf.clear();
            let mut at = 0;
            let mut i = seg.base;
            while at < raw.len() {
                let (d, len) = get_varint(&raw[at..]).ok_or_else(|| DbError::Corrupt {
                    path: self.path.clone(),
                    reason: "a level run is cut short".into(),
                })?;
                i += d;
                buf.push(i);
                at += len;
            }
            if buf.len() != seg.count as usize {
                return Err(DbError::Corrupt {
                    path: self.path.clone(),
                    reason: "a level run has the wrong number of positions".into(),
                }
                .into());
            }
            f(buf)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::db::memory::MemoryDb;
    use crate::engine::record::{pack, TierRecords};
    use std::sync::Arc;

    #[test]
    fn runs_give_back_every_decided_position_by_value_and_remoteness() {
        // Enough positions for several pieces and segments; values from a hash.
        let n = 3 * PIECE + 77;
        let values: Vec<u16> = (0..n as u64)
            .map(|i| {
                let h = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
                let v = [
                    Value::WIN,
                    Value::LOSE,
                    Value::TIE,
                    Value::DRAW,
                    Value::UNDECIDED,
                ][(h % 5) as usize];
                let r = if v == Value::DRAW || v == Value::UNDECIDED {
                    0
                } else {
                    ((h / 5) % 7) as u32
                };
                pack(v, r)
            })
            .collect();
        let recs = Arc::new(TierRecords {
            values: values.clone(),
            winby: None,
        });
        let meta = TierMeta {
            tier: Tier(3),
            name: "3".into(),
            size: n as u64,
        };
        let db = MemoryDb::new(crate::engine::db::GameKey {
            game: "g".into(),
            variant: "v".into(),
            winby: false,
            numbering: 0,
        });
        db.store_tier(&meta, &recs).unwrap();
        let runs = LevelRuns::spill(&db, &meta, None).unwrap();
        assert_eq!(runs.wl_levels(), 7);
        assert_eq!(runs.tie_levels(), 7);
        let mut buf = Vec::new();
        for v in VALUES {
            for r in 0..8 {
                let mut got = Vec::new();
                runs.for_each_segment(v, r, &mut buf, |s| -> Result<(), DbError> {
                    got.extend_from_slice(s);
                    Ok(())
                })
                .unwrap();
                let want: Vec<u64> = (0..n as u64)
                    .filter(|&i| values[i as usize] == pack(v, r))
                    .collect();
                assert_eq!(got, want, "{v:?} at {r}");
            }
        }
    }
}
