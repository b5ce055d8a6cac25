//! The CSV writer of an export: a header line, then one line per row, missing values
//! (remoteness of a draw, WinBy where there is none) as empty fields; moves in a second
//! file. The export's facts are not written (CSV has no place for them). This file
//! writes rows; it must not choose them.

use super::{ExportError, ExportMeta, MoveRow, PositionRow, Sink};
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

type Writer = csv::Writer<BufWriter<File>>;

fn open(path: &Path, header: &[&str]) -> Result<Writer, ExportError> {
    let file = File::create(path).map_err(|e| ExportError::write(path, e))?;
    let mut w = csv::Writer::from_writer(BufWriter::with_capacity(1 << 20, file));
    w.write_record(header)
        .map_err(|e| ExportError::write(path, e))?;
    Ok(w)
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// Writes an export's CSV files.
pub(super) struct CsvSink {
    positions: Writer,
    path: PathBuf,
    moves: Option<(Writer, PathBuf)>,
    winby: bool,
}

impl CsvSink {
    /// Creates the positions file at `path` and the moves file at `moves`.
    pub(super) fn create(
        path: &Path,
        moves: Option<&Path>,
        meta: &ExportMeta,
    ) -> Result<CsvSink, ExportError> {
        let mut header = vec!["tier", "idx", "position", "turn", "value", "remoteness"];
        if meta.winby {
            header.push("winby");
        }
        let mut mheader = vec![
            "tier",
            "idx",
            "rank",
            "move",
            "child",
            "value",
            "remoteness",
        ];
        if meta.winby {
            mheader.push("winby");
        }
        mheader.push("move_value");
        Ok(CsvSink {
            positions: open(path, &header)?,
            path: path.to_path_buf(),
            moves: moves
                .map(|m| Ok::<_, ExportError>((open(m, &mheader)?, m.to_path_buf())))
                .transpose()?,
            winby: meta.winby,
        })
    }
}

impl Sink for CsvSink {
    fn positions(&mut self, rows: &[PositionRow]) -> Result<(), ExportError> {
        for r in rows {
            let mut rec = vec![
                r.tier.to_string(),
                r.idx.to_string(),
                r.position.clone(),
                r.turn.to_string(),
                r.value.to_string(),
                opt(r.remoteness),
            ];
            if self.winby {
                rec.push(opt(r.winby));
            }
            self.positions
                .write_record(&rec)
                .map_err(|e| ExportError::write(&self.path, e))?;
        }
        Ok(())
    }

    fn moves(&mut self, rows: &[MoveRow]) -> Result<(), ExportError> {
        let Some((w, path)) = self.moves.as_mut() else {
            return Ok(());
        };
        for r in rows {
            let mut rec = vec![
                r.tier.to_string(),
                r.idx.to_string(),
                r.rank.to_string(),
                r.mv.clone(),
                r.child.clone(),
                r.value.to_string(),
                opt(r.remoteness),
            ];
            if self.winby {
                rec.push(opt(r.winby));
            }
            rec.push(r.move_value.to_string());
            w.write_record(&rec)
                .map_err(|e| ExportError::write(path, e))?;
        }
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<(), ExportError> {
        let this = *self;
        let mut p = this.positions;
        p.flush().map_err(|e| ExportError::write(&this.path, e))?;
        if let Some((mut w, path)) = this.moves {
            w.flush().map_err(|e| ExportError::write(&path, e))?;
        }
        Ok(())
    }
}
