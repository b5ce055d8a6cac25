"""Tests of the Python package `gamesman`: opening modules, solving, querying, errors
carrying the host's messages, and exports read back with pyarrow, sqlite3 and the csv
module agreeing with query and analyze on every position of tic-tac-toe (mtttier).

The modules are found on GAMESMAN_PLUGIN_PATH, by default the workspace's
target/release (build it first: `cargo build --release -p host -p mtttier`).
"""

import csv
import json
import os
import sqlite3
import subprocess
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest

ROOT = Path(__file__).resolve().parents[3]
RELEASE = ROOT / "target" / "release"
os.environ.setdefault("GAMESMAN_PLUGIN_PATH", str(RELEASE))

import gamesman  # noqa: E402

# Tic-tac-toe: 5,478 legal positions (765 up to symmetry); the start is a tie in 9.
COUNTS = {"win": 2836, "lose": 1574, "tie": 1068}


@pytest.fixture(scope="module")
def ttt():
    g = gamesman.open("mtttier")
    report = g.solve("memory:")
    assert report["value"] == "tie" and report["remoteness"] == 9
    return g


def test_modules_and_variants():
    assert gamesman.variants("mtttier") == ["regular", "symmetric"]
    assert "mtttier" in gamesman.modules()
    g = gamesman.open(str(RELEASE / "libmtttier.so"), "symmetric")
    assert (g.name, g.variant) == ("mtttier", "symmetric")
    assert g.variants == ["regular", "symmetric"]


def test_errors_carry_the_hosts_messages(ttt, tmp_path):
    with pytest.raises(gamesman.GamesmanError, match="no game module named 'no_such_game'"):
        gamesman.open("no_such_game")
    with pytest.raises(gamesman.GamesmanError, match="variant"):
        gamesman.open("mtttier", "huge")
    with pytest.raises(gamesman.GamesmanError, match="is not a position of this game"):
        ttt.query("XXXX", db="memory:")
    with pytest.raises(gamesman.GamesmanError, match="Solve it first"):
        ttt.query(db=f"file:{tmp_path}/empty")
    with pytest.raises(gamesman.GamesmanError, match="unknown database resource"):
        ttt.query(db="memroy:")
    with pytest.raises(gamesman.GamesmanError, match="cannot tell the format"):
        ttt.export(str(tmp_path / "x.xlsx"), db="memory:")
    assert not list(tmp_path.glob("x.xlsx*"))


def test_query_ranks_moves(ttt):
    q = ttt.query("XX-OO----", db="memory:")
    assert (q["value"], q["remoteness"], q["winby"]) == ("win", 1, None)
    best = q["moves"][0]
    assert (best["move"], best["position"], best["move_value"]) == ("3", "XXXOO----", "win")
    assert [m["move_value"] for m in q["moves"]][-1] in ("lose", "tie", "win")
    start = ttt.query(db="memory:")
    assert len(start["moves"]) == 9 and all(m["move_value"] == "tie" for m in start["moves"])


def test_dataframe_counts_match_analyze(ttt):
    df = ttt.dataframe("memory:")
    assert len(df) == 5478
    assert df.value.value_counts().to_dict() == COUNTS
    legal = ttt.analyze("memory:")["legal"]["counts"]["by_value"]
    assert {k: legal[k] for k in COUNTS} == COUNTS
    positions, moves = ttt.dataframe("memory:", moves=True)
    assert len(positions) == 5478
    assert len(moves) == 16167
    assert set(moves.columns) >= {"tier", "idx", "rank", "move", "child", "value", "move_value"}


def _check_rows(ttt, rows):
    """Every row agrees with query, and the counts with analyze."""
    assert len(rows) == 5478
    for r in rows:
        q = ttt.query(r["position"], db="memory:")
        rem = r["remoteness"]
        assert (r["value"], None if rem in (None, "") else int(rem)) == (q["value"], q["remoteness"]), r
        assert int(r["tier"]) == q["tier"]
    assert Counter(r["value"] for r in rows) == COUNTS


def test_parquet_read_with_pyarrow(ttt, tmp_path):
    out = tmp_path / "t.parquet"
    report = ttt.export(str(out), db="memory:")
    assert report["positions"] == 5478 and report["bytes"] == out.stat().st_size
    table = pq.read_table(out)
    assert table.schema.field("tier").type == "uint64"
    assert table.schema.field("remoteness").type == "uint32"
    meta = pq.read_metadata(out).metadata
    assert meta[b"gamesman.game"] == b"mtttier"
    _check_rows(ttt, table.to_pylist())


def test_sqlite_read_with_sqlite3(ttt, tmp_path):
    out = tmp_path / "t.sqlite"
    ttt.export(str(out), db="memory:", moves=True)
    conn = sqlite3.connect(out)
    conn.row_factory = sqlite3.Row
    rows = [dict(r) for r in conn.execute("SELECT * FROM positions")]
    _check_rows(ttt, rows)
    indexes = {r[1] for r in conn.execute("PRAGMA index_list(positions)")}
    assert {"positions_by_index", "positions_by_text"} <= indexes
    plan = " ".join(str(tuple(r)) for r in conn.execute(
        "EXPLAIN QUERY PLAN SELECT value FROM positions WHERE position = 'X--------'"))
    assert "positions_by_text" in plan
    best = conn.execute(
        "SELECT move, move_value FROM moves m JOIN positions p USING (tier, idx) "
        "WHERE p.position = 'XX-OO----' AND rank = 0").fetchone()
    assert tuple(best) == ("3", "win")
    assert dict(conn.execute("SELECT key, value FROM meta").fetchall())["variant"] == "regular"


def test_csv_read_with_csv_module(ttt, tmp_path):
    out = tmp_path / "t.csv"
    report = ttt.export(str(out), db="memory:", moves=True)
    with open(out, newline="") as f:
        _check_rows(ttt, list(csv.DictReader(f)))
    with open(report["moves_path"], newline="") as f:
        assert sum(1 for _ in csv.DictReader(f)) == 16167


def test_read_gives_one_frame_for_every_format(ttt, tmp_path):
    frames = []
    for ext in ("parquet", "sqlite", "csv"):
        out = tmp_path / f"r.{ext}"
        ttt.export(str(out), db="memory:")
        df = gamesman.read(str(out))
        frames.append(df.sort_values(["tier", "idx"]).reset_index(drop=True))
    for df in frames[1:]:
        assert df.position.tolist() == frames[0].position.tolist()
        assert df.value.tolist() == frames[0].value.tolist()
        assert [int(x) for x in df.remoteness] == [int(x) for x in frames[0].remoteness]


def test_host_binary_agrees(ttt, tmp_path):
    host = RELEASE / "host"
    if not host.exists():
        pytest.fail(f"{host} is missing: build it with cargo build --release -p host")
    db = f"file:{tmp_path}/db"
    assert ttt.solve(db)["positions_solved"] == 6046
    env = dict(os.environ, GAMESMAN_PLUGIN_PATH=str(RELEASE))
    for position in ("---------", "XX-OO----", "XOXOXO---"):
        out = subprocess.run([str(host), "--plugin", "mtttier", "query", "--db", db, "--json",
                              position], capture_output=True, text=True, env=env, timeout=60,
                             check=True)
        assert json.loads(out.stdout) == ttt.query(position, db=db)
