"""Solved games as data: the gamesman-rs host from Python.

Open a game module by name (looked up on GAMESMAN_PLUGIN_PATH, the user plugin
directory) or by the path of its library file, solve it into a database, query
positions, and read the solved positions into pandas or pyarrow.

    >>> import gamesman
    >>> g = gamesman.open("mtttier")
    >>> g.solve("memory:")["value"]
    'tie'
    >>> g.dataframe("memory:").value.value_counts()

Errors of the host are raised as ``gamesman.GamesmanError`` with the host's message.
This file is a thin layer over ``gamesman._native`` (the Rust host): it turns JSON
answers into dicts and export files into data frames; it must not reimplement rules.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import tempfile
from typing import Any, Dict, List, Optional, Sequence

from . import _native
from ._native import GamesmanError

__all__ = [
    "Game",
    "GamesmanError",
    "modules",
    "open",
    "read",
    "read_arrow",
    "variants",
]


def modules() -> Dict[str, str]:
    """The game modules on the plugin search path: name -> library file."""
    return dict(_native.modules())


def variants(plugin: str) -> List[str]:
    """The variants of a module (a name or a path), default first."""
    return list(_native.variants(plugin))


def open(plugin: str, variant: Optional[str] = None) -> "Game":  # noqa: A001
    """Opens a module (a name or the path of its library file) at a variant
    (default: the module's first)."""
    return Game(_native.open(plugin, variant))


class Game:
    """One variant of a game module. ``db`` arguments are resource strings as on the
    command line (``file:DIR``, a directory, ``http://HOST:PORT/PATH``, ``memory:``);
    the default is ``$GAMESMAN_DB``, else the per-user data directory. A ``memory:``
    database lives as long as this object."""

    def __init__(self, native: Any):
        self._g = native

    @property
    def name(self) -> str:
        """The module's name."""
        return self._g.name

    @property
    def variant(self) -> str:
        """The variant opened."""
        return self._g.variant

    @property
    def variants(self) -> List[str]:
        """The module's variants, default first."""
        return list(self._g.variants)

    def solve(self, db: Optional[str] = None, force: bool = False, wait: bool = True) -> Dict[str, Any]:
        """Solves the variant into ``db``; returns the counts and the initial
        position's value, remoteness and WinBy. When another process is solving into
        the same database, waits for it, or with ``wait=False`` raises
        ``GamesmanError`` at once (as ``host solve --no-wait``)."""
        return json.loads(self._g.solve(db, force, wait))

    def query(self, position: Optional[str] = None, db: Optional[str] = None) -> Dict[str, Any]:
        """A position's value, remoteness, WinBy and every move ranked best first, as
        ``host query --json`` prints it (the initial position by default)."""
        return json.loads(self._g.query(position, db))

    def analyze(self, db: Optional[str] = None) -> Dict[str, Any]:
        """Counts by value and remoteness, as ``host analyze --json`` prints them."""
        return json.loads(self._g.analyze(db))

    def export(
        self,
        out: str,
        db: Optional[str] = None,
        format: Optional[str] = None,  # noqa: A002
        moves: bool = False,
        reachable: bool = False,
        tiers: Optional[Sequence[int]] = None,
        all_positions: bool = False,
    ) -> Dict[str, Any]:
        """Writes the solved positions to ``out`` as ``host export`` does (format
        from ``format`` or the file's extension); returns what was written."""
        return json.loads(
            self._g.export(
                os.fspath(out),
                db,
                format,
                moves,
                reachable,
                None if tiers is None else list(tiers),
                all_positions,
            )
        )

    def arrow(self, db: Optional[str] = None, moves: bool = False, **options: Any):
        """The solved positions as a pyarrow Table (with ``moves``, a pair of tables:
        positions and moves)."""
        import pyarrow.parquet as pq

        with tempfile.TemporaryDirectory(prefix="gamesman-") as tmp:
            path = os.path.join(tmp, "positions.parquet")
            report = self.export(path, db=db, format="parquet", moves=moves, **options)
            positions = pq.read_table(path)
            if moves:
                return positions, pq.read_table(report["moves_path"])
            return positions

    def dataframe(self, db: Optional[str] = None, moves: bool = False, **options: Any):
        """The solved positions as a pandas DataFrame (with ``moves``, a pair of
        frames: positions and moves). Options as for ``export``."""
        tables = self.arrow(db, moves=moves, **options)
        if moves:
            return tables[0].to_pandas(), tables[1].to_pandas()
        return tables.to_pandas()

    def __repr__(self) -> str:
        return repr(self._g)


def _export_file(path: Any) -> str:
    """The path of an export file to read, which must be a regular file: a FIFO would
    block the reader forever and a device could be endless."""
    path = os.fspath(path)
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        raise GamesmanError(f"cannot read the export file {path}: {e.strerror}") from None
    if not stat.S_ISREG(mode):
        raise GamesmanError(f"{path} is not a regular file: give a file that Game.export or host export wrote")
    return path


def _format_of(path: str, format: Optional[str]) -> str:  # noqa: A002
    if format:
        return format.lower()
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    return {"parquet": "parquet", "pq": "parquet", "sqlite": "sqlite", "sqlite3": "sqlite",
            "db": "sqlite", "csv": "csv"}.get(ext, ext)


def read_arrow(path: str, table: str = "positions", format: Optional[str] = None):  # noqa: A002
    """An export file as a pyarrow Table (``table``: positions or moves, for SQLite)."""
    import pyarrow as pa
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq

    path = _export_file(path)
    kind = _format_of(path, format)
    if kind == "parquet":
        return pq.read_table(path)
    if kind == "csv":
        return pcsv.read_csv(path)
    if kind == "sqlite":
        return pa.Table.from_pandas(read(path, table=table, format="sqlite"), preserve_index=False)
    raise GamesmanError(f"cannot tell the format of {path}: pass format='parquet', 'sqlite' or 'csv'")


def read(path: str, table: str = "positions", format: Optional[str] = None):  # noqa: A002
    """An export file (Parquet, SQLite or CSV) as a pandas DataFrame; for SQLite,
    ``table`` picks positions, moves or meta."""
    import pandas as pd

    path = _export_file(path)
    kind = _format_of(path, format)
    if kind == "sqlite":
        if table not in ("positions", "moves", "meta"):
            raise GamesmanError(f"no table {table!r} in an export: use positions, moves or meta")
        with sqlite3.connect(f"file:{os.fspath(path)}?mode=ro", uri=True) as conn:
            return pd.read_sql_query(f"SELECT * FROM {table}", conn)
    if kind == "csv":
        return pd.read_csv(path, keep_default_na=False, na_values=[""])
    return read_arrow(path, format=kind).to_pandas()
