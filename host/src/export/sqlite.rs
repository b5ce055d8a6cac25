//! The SQLite writer of an export: one database file with the tables `positions`,
//! `moves` (with moves) and `meta` (the export's facts as key, value), each chunk
//! inserted in one transaction through prepared statements. The indexes (positions by
//! tier and index, and by text; moves by their position) are built once at the end,
//! which is faster than keeping them during the inserts. The file is a temporary one
//! until the export renames it, so the journal is off while writing. This file writes
//! rows; it must not choose them.

use super::{ExportError, ExportMeta, MoveRow, PositionRow, Sink};
use rusqlite::{params, Connection};
use std::path::{Path, PathBuf};

/// The tables' definitions, as documented in the README.
pub fn schema_sql(winby: bool, moves: bool) -> String {
    let w = if winby { ",\n  winby INTEGER" } else { "" };
    let mut sql = format!(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n\
         CREATE TABLE positions (\n  tier INTEGER NOT NULL,\n  idx INTEGER NOT NULL,\n  \
         position TEXT NOT NULL,\n  turn INTEGER NOT NULL,\n  value TEXT NOT NULL,\n  \
         remoteness INTEGER{w}\n);\n"
    );
    if moves {
        sql.push_str(&format!(
            "CREATE TABLE moves (\n  tier INTEGER NOT NULL,\n  idx INTEGER NOT NULL,\n  \
             rank INTEGER NOT NULL,\n  move TEXT NOT NULL,\n  child TEXT NOT NULL,\n  \
             value TEXT NOT NULL,\n  remoteness INTEGER{w},\n  move_value TEXT NOT NULL\n);\n"
        ));
    }
    sql
}

/// The indexes, built after the rows are in.
pub fn index_sql(moves: bool) -> &'static str {
    if moves {
        "CREATE UNIQUE INDEX positions_by_index ON positions (tier, idx);\n\
         CREATE INDEX positions_by_text ON positions (position);\n\
         CREATE INDEX moves_by_position ON moves (tier, idx, rank);\n"
    } else {
        "CREATE UNIQUE INDEX positions_by_index ON positions (tier, idx);\n\
         CREATE INDEX positions_by_text ON positions (position);\n"
    }
}

/// Writes an export's SQLite file.
pub(super) struct SqliteSink {
    conn: Connection,
    path: PathBuf,
    winby: bool,
    moves: bool,
}

impl SqliteSink {
    /// Creates the database file at `path` with its tables and facts.
    pub(super) fn create(
        path: &Path,
        moves: bool,
        meta: &ExportMeta,
    ) -> Result<SqliteSink, ExportError> {
        let fail = |e: rusqlite::Error| ExportError::write(path, e);
        let conn = Connection::open(path).map_err(fail)?;
        conn.execute_batch("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
            .map_err(fail)?;
        conn.execute_batch(&schema_sql(meta.winby, moves))
            .map_err(fail)?;
        for (k, v) in &meta.pairs {
            conn.execute(
                "INSERT INTO meta (key, value) VALUES (?1, ?2)",
                params![k, v],
            )
            .map_err(fail)?;
        }
        Ok(SqliteSink {
            conn,
            path: path.to_path_buf(),
            winby: meta.winby,
            moves,
        })
    }

    fn fail(&self, e: rusqlite::Error) -> ExportError {
        ExportError::write(&self.path, e)
    }
}

/// Inserts `rows` with the statement `sql` in one transaction, `bind` executing it for
/// each row; every SQLite error names the file.
fn insert<T>(
    conn: &mut Connection,
    path: &Path,
    sql: &str,
    rows: &[T],
    bind: impl Fn(&mut rusqlite::CachedStatement<'_>, &T) -> rusqlite::Result<usize>,
) -> Result<(), ExportError> {
    let fail = |e| ExportError::write(path, e);
    let tx = conn.transaction().map_err(fail)?;
    {
        let mut st = tx.prepare_cached(sql).map_err(fail)?;
        for r in rows {
            bind(&mut st, r).map_err(fail)?;
        }
    }
    tx.commit().map_err(fail)
}

impl Sink for SqliteSink {
    fn positions(&mut self, rows: &[PositionRow]) -> Result<(), ExportError> {
        let winby = self.winby;
        let sql = if winby {
            "INSERT INTO positions VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
        } else {
            "INSERT INTO positions VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
        };
        insert(&mut self.conn, &self.path, sql, rows, |st, r| {
            let (tier, idx) = (r.tier as i64, r.idx as i64);
            if winby {
                st.execute(params![
                    tier,
                    idx,
                    r.position,
                    r.turn,
                    r.value,
                    r.remoteness,
                    r.winby
                ])
            } else {
                st.execute(params![
                    tier,
                    idx,
                    r.position,
                    r.turn,
                    r.value,
                    r.remoteness
                ])
            }
        })
    }

    fn moves(&mut self, rows: &[MoveRow]) -> Result<(), ExportError> {
        if !self.moves {
            return Ok(());
        }
        let winby = self.winby;
        let sql = if winby {
            "INSERT INTO moves VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
        } else {
            "INSERT INTO moves VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
        };
        insert(&mut self.conn, &self.path, sql, rows, |st, r| {
            let (tier, idx) = (r.tier as i64, r.idx as i64);
            if winby {
                st.execute(params![
                    tier,
                    idx,
                    r.rank,
                    r.mv,
                    r.child,
                    r.value,
                    r.remoteness,
                    r.winby,
                    r.move_value
                ])
            } else {
                st.execute(params![
                    tier,
                    idx,
                    r.rank,
                    r.mv,
                    r.child,
                    r.value,
                    r.remoteness,
                    r.move_value
                ])
            }
        })
    }

    fn finish(self: Box<Self>) -> Result<(), ExportError> {
        self.conn
            .execute_batch(index_sql(self.moves))
            .map_err(|e| self.fail(e))?;
        let path = self.path.clone();
        self.conn
            .close()
            .map_err(|(_, e)| ExportError::write(&path, e))
    }
}
