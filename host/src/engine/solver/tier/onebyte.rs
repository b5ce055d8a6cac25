//! The one-byte way of solving a tier: each position's counter and value share one
//! byte (`counters::ByteCell`), and the remoteness, which that byte has no room for,
//! is written out as the levels are passed: the positions decided at each level, in
//! index order, delta-coded into a scratch file. When the tier is stored its records
//! are assembled block by block from the cells and these runs (`Assembler`), so the
//! whole tier never exists as 16-bit records in memory.
//!
//! The scratch file is removed from its directory as soon as it is made (gone with the
//! solve, even a killed one). This file must not decide values; it only remembers when
//! each position was decided.

use super::counters::ByteCell;
use crate::engine::db::DbError;
use crate::engine::record::{pack, value_of};
use crate::engine::solver::input::frontier::Bits;
use crate::engine::solver::input::runs::{get_varint, put_varint, scratch_file, Segment};
use rayon::prelude::*;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;

/// Whether `game` can be solved one byte a position: no WinBy (whose pass needs
/// every record), at most `BYTE_MOVES` moves a position.
pub fn serves(game: &crate::engine::game::GameHandle) -> bool {
    let p = game.properties();
    !p.supports_winby && p.max_moves <= super::counters::BYTE_MOVES
}

/// Bitmap words encoded by one task; each non-empty piece becomes one segment.
const PIECE_WORDS: usize = 1 << 10;

/// Memory the log and its assembly take beyond their segment tables: the write
/// buffer, and one segment's bytes per level while assembling. For estimates.
pub const LOG_BYTES: u64 = 8 << 20;

/// Bytes of segment table per position of the tier, at most, for estimates: a
/// 24-byte entry per non-empty piece of a level, and levels rarely exceed a few
/// hundred.
pub fn table_bytes(positions: u64) -> u64 {
    positions / 256
}

/// The positions of a tier decided at each remoteness, in a scratch file.
pub struct RemotenessLog {
    file: File,
    path: PathBuf,
    /// Runs in the order written: a remoteness and its segments in index order.
    runs: Vec<(u32, Vec<Segment>)>,
    /// Bytes written.
    bytes: u64,
}

impl RemotenessLog {
    /// An empty log in a scratch file in `dir` (the system's temporary directory when
    /// `None`).
    pub fn new(dir: Option<&Path>) -> Result<Self, DbError> {
        let (file, path) = scratch_file(dir)?;
        Ok(RemotenessLog {
            file,
            path,
            runs: Vec::new(),
            bytes: 0,
        })
    }

    /// Bytes written to the scratch file so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Writes the positions marked in `bits` as decided at remoteness `r` (level 0
    /// needs no run: a position in no run has remoteness 0).
    pub fn record(&mut self, bits: &Bits, r: u32) -> Result<(), DbError> {
        let pieces: Vec<(u64, Vec<u8>, u32)> = bits
            .words()
            .par_chunks(PIECE_WORDS)
            .enumerate()
            .filter_map(|(k, words)| {
                let base = (k * PIECE_WORDS * 64) as u64;
                let mut bytes = Vec::new();
                let (mut last, mut count) = (base, 0u32);
                for (w, word) in words.iter().enumerate() {
                    let mut word = word.load(Relaxed);
                    while word != 0 {
                        let i = base + (w * 64) as u64 + word.trailing_zeros() as u64;
                        put_varint(&mut bytes, i - last);
                        last = i;
                        count += 1;
                        word &= word - 1;
                    }
                }
                (count > 0).then_some((base, bytes, count))
            })
            .collect();
        if pieces.is_empty() {
            return Ok(());
        }
        let path = self.path.clone();
        let io_err = |source| DbError::Io {
            op: "writing the scratch file",
            path: path.clone(),
            source,
        };
        let mut out = BufWriter::with_capacity(1 << 20, &self.file);
        let mut segments = Vec::with_capacity(pieces.len());
        for (base, bytes, count) in pieces {
            out.write_all(&bytes).map_err(io_err)?;
            segments.push(Segment {
                offset: self.bytes,
                len: bytes.len() as u32,
                count,
                base,
            });
            self.bytes += bytes.len() as u64;
        }
        out.flush().map_err(io_err)?;
        self.runs.push((r, segments));
        Ok(())
    }

    /// Reads the runs back in index order, for the records of `cells`.
    pub fn assembler<'a>(&'a self, cells: &'a [ByteCell]) -> Assembler<'a> {
        Assembler {
            log: self,
            cells,
            cursors: self
                .runs
                .iter()
                .map(|(r, segments)| Cursor {
                    r: *r,
                    segments,
                    seg: 0,
                    raw: Vec::new(),
                    at: 0,
                    left: 0,
                    next: None,
                })
                .collect(),
        }
    }
}

/// Where one run is read.
struct Cursor<'a> {
    r: u32,
    segments: &'a [Segment],
    /// The next segment to load.
    seg: usize,
    /// The loaded segment's bytes and where its next varint starts.
    raw: Vec<u8>,
    at: usize,
    /// Positions of the loaded segment not yet decoded.
    left: u32,
    /// The next position of the run not yet given out.
    next: Option<u64>,
}

impl Cursor<'_> {
    /// Moves `next` to the run's next position (`None` past its end).
    fn advance(&mut self, file: &File, path: &Path) -> Result<(), DbError> {
        let corrupt = |reason: &str| DbError::Corrupt {
            path: path.to_path_buf(),
            reason: reason.into(),
        };
        if self.left == 0 {
            let Some(s) = self.segments.get(self.seg) else {
                self.next = None;
                return Ok(());
            };
            self.seg += 1;
            self.raw.resize(s.len as usize, 0);
            file.read_exact_at(&mut self.raw, s.offset)
                .map_err(|source| DbError::Io {
                    op: "reading the scratch file",
                    path: path.to_path_buf(),
                    source,
                })?;
            self.at = 0;
            self.left = s.count;
            self.next = Some(s.base);
        }
        let (d, len) = get_varint(&self.raw[self.at..])
            .ok_or_else(|| corrupt("a remoteness run is cut short"))?;
        self.at += len;
        self.left -= 1;
        // The first delta of a segment counts from its base; the rest from the last.
        self.next = Some(self.next.expect("set with the segment") + d);
        Ok(())
    }
}

/// The records of a one-byte tier, assembled in increasing blocks.
pub struct Assembler<'a> {
    log: &'a RemotenessLog,
    cells: &'a [ByteCell],
    cursors: Vec<Cursor<'a>>,
}

impl Assembler<'_> {
    /// Writes the packed records of positions `first..first + out.len()`; blocks must
    /// come in increasing order without gaps or overlaps.
    pub fn fill(&mut self, first: u64, out: &mut [u16]) -> Result<(), DbError> {
        let end = first + out.len() as u64;
        for (k, o) in out.iter_mut().enumerate() {
            let raw = self.cells[first as usize + k].raw();
            *o = pack(ByteCell::value_of_code(raw), 0);
        }
        let (file, path) = (&self.log.file, self.log.path.as_path());
        for c in &mut self.cursors {
            if c.next.is_none() && c.seg == 0 {
                c.advance(file, path)?;
            }
            while let Some(i) = c.next.filter(|&i| i < end) {
                if i < first {
                    return Err(DbError::Corrupt {
                        path: path.to_path_buf(),
                        reason: "a remoteness run goes backwards".into(),
                    });
                }
                let slot = &mut out[(i - first) as usize];
                *slot = pack(value_of(*slot), c.r);
                c.advance(file, path)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::solver::tier::counters::Cell;
    use gamesman_plugin_api::Value;
    use std::sync::atomic::AtomicU64;

    #[test]
    fn records_come_back_with_the_level_each_position_was_decided_at() {
        let n = 3 * PIECE_WORDS * 64 + 123;
        let level = |i: usize| ((i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 59) as u32;
        let values = [Value::WIN, Value::LOSE, Value::TIE, Value::DRAW];
        let cells: Vec<ByteCell> = (0..n)
            .map(|i| {
                let c = ByteCell::zero();
                if i % 7 == 3 {
                    c.put(ByteCell::SKIP);
                } else {
                    c.put(ByteCell::DECIDED);
                    c.settle(&[], i, values[i % 4], 0);
                }
                c
            })
            .collect();
        let mut log = RemotenessLog::new(None).unwrap();
        let mut bits =
            Bits::from_words((0..Bits::words_for(n)).map(|_| AtomicU64::new(0)).collect());
        for r in 1..32 {
            bits.clear();
            for i in (0..n).filter(|&i| level(i) == r && i % 7 != 3 && i % 4 != 3) {
                bits.set(i as u64);
            }
            log.record(&bits, r).unwrap();
        }
        let mut asm = log.assembler(&cells);
        let mut got = Vec::new();
        for first in (0..n).step_by(10_000) {
            let mut out = vec![0u16; 10_000.min(n - first)];
            asm.fill(first as u64, &mut out).unwrap();
            got.extend(out);
        }
        for (i, &g) in got.iter().enumerate() {
            let want = if i % 7 == 3 {
                0
            } else if i % 4 == 3 {
                pack(Value::DRAW, 0)
            } else {
                pack(values[i % 4], level(i))
            };
            assert_eq!(g, want, "position {i}");
        }
    }
}
