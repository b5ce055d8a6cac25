"""The Python package under hostile input (issue 40): bad paths (modules, databases,
export destinations, files to read), unsolved and partly solved games, a database a
solve is writing (its writer lock held), and broken or panicking modules. Every
failure must be a ``gamesman.GamesmanError`` carrying the host's message, never a
hang, a ``PanicException`` or a crash of the interpreter.

The modules are found on GAMESMAN_PLUGIN_PATH, by default the workspace's
target/release (build it first: ``cargo build --release --workspace``).
"""

import fcntl
import os
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
RELEASE = ROOT / "target" / "release"
os.environ.setdefault("GAMESMAN_PLUGIN_PATH", str(RELEASE))

import gamesman  # noqa: E402

DIR = "mtttier_regular_tierdb"


@pytest.fixture()
def solved(tmp_path):
    """A file database holding all of tic-tac-toe; (game, resource, tier directory)."""
    g = gamesman.open("mtttier")
    res = f"file:{tmp_path / 'db'}"
    assert g.solve(res)["positions_solved"] == 6046
    return g, res, tmp_path / "db" / DIR


def test_bad_module_paths(tmp_path):
    text = tmp_path / "libfake.so"
    text.write_text("not a library")
    cases = [
        (str(tmp_path), "is a directory, not a game module"),
        (str(text), "libfake.so"),
        (str(tmp_path / "missing.so"), "no such file"),
        (str(RELEASE / "libfixture_not_a_module.so"), "libfixture_not_a_module.so"),
    ]
    for path, message in cases:
        with pytest.raises(gamesman.GamesmanError, match=message):
            gamesman.open(path)
        with pytest.raises(gamesman.GamesmanError):
            gamesman.variants(path)


def test_bad_database_paths(tmp_path):
    g = gamesman.open("mtttier")
    afile = tmp_path / "afile"
    afile.write_text("x")
    # A regular file where the database directory should be: solving cannot create it.
    with pytest.raises(gamesman.GamesmanError, match="afile"):
        g.solve(f"file:{afile}")
    with pytest.raises(gamesman.GamesmanError, match="Solve it first"):
        g.query(db=f"file:{afile}")
    # Nothing listens on port 9 of the loopback: a clear error, not a hang.
    started = time.monotonic()
    with pytest.raises(gamesman.GamesmanError):
        g.query(db="http://127.0.0.1:9/db")
    assert time.monotonic() - started < 60


def test_export_destinations_that_are_not_regular_files(solved, tmp_path):
    g, res, _ = solved
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    sock_path = tmp_path / "sock.csv"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(sock_path))
    link = tmp_path / "null.csv"
    link.symlink_to("/dev/null")
    for out, kind in [(fifo, "a FIFO"), (sock_path, "a socket"), (link, "a symbolic link")]:
        with pytest.raises(gamesman.GamesmanError, match=f"exists and is {kind}"):
            g.export(str(out), db=res)
    sock.close()
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and os.path.islink(link)
    with pytest.raises(gamesman.GamesmanError, match="does not exist"):
        g.export(str(tmp_path / "no" / "such" / "x.csv"), db=res)
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".export-tmp")]


def test_reading_files_that_are_not_exports(tmp_path):
    fifo = tmp_path / "pipe.parquet"
    os.mkfifo(fifo)
    # A FIFO is refused before pandas or pyarrow opens it (which would block for
    # ever): in a child interpreter, so that a hang fails the test instead.
    script = r"""
import sys, gamesman
for read in (gamesman.read, gamesman.read_arrow):
    for path in sys.argv[1:]:
        try:
            read(path)
            print("read", path)
        except gamesman.GamesmanError as e:
            print("GamesmanError:", e)
"""
    paths = [str(fifo), str(tmp_path), str(tmp_path / "missing.csv")]
    r = subprocess.run([sys.executable, "-c", script, *paths], capture_output=True, text=True,
                       timeout=60)
    lines = r.stdout.splitlines()
    assert r.returncode == 0 and len(lines) == 6, (r.stdout, r.stderr)
    assert all(line.startswith("GamesmanError:") for line in lines), lines
    assert f"GamesmanError: {fifo} is not a regular file" in lines[0]


def test_unsolved_and_partly_solved_games(solved, tmp_path):
    g, res, tiers = solved
    empty = f"file:{tmp_path / 'empty'}"
    for call in (lambda: g.query(db=empty), lambda: g.analyze(empty),
                 lambda: g.export(str(tmp_path / "e.csv"), db=empty)):
        with pytest.raises(gamesman.GamesmanError, match="Solve it first"):
            call()
    # Tiers 9 (the start) and 5 missing: said, never answered wrongly.
    (tiers / "tier_9.gz").unlink()
    (tiers / "tier_5.gz").unlink()
    g2 = gamesman.open("mtttier")
    start = g2.query(db=res)
    assert start["value"] == "unsolved"
    assert g2.query("X-O------", db=res)["value"] == "win"
    with pytest.raises(gamesman.GamesmanError, match=r"does not hold tier\(s\) 9, 5"):
        g2.export(str(tmp_path / "p.csv"), db=res)
    assert not (tmp_path / "p.csv").exists()


def _hold_writer_lock(tiers):
    """Takes the database directory's writer lock as a solve holds it (flock)."""
    fd = os.open(tiers, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def test_a_database_being_written(solved, tmp_path):
    g, res, tiers = solved
    # A solve under way: some tiers written, the writer's lock held.
    (tiers / "tier_9.gz").unlink()
    fd = _hold_writer_lock(tiers)
    try:
        with pytest.raises(gamesman.GamesmanError, match="another solve is writing"):
            g.solve(res, wait=False)
        # Readers see the truth so far: the start's tier is not there yet.
        assert gamesman.open("mtttier").query(db=res)["value"] == "unsolved"
        with pytest.raises(gamesman.GamesmanError, match="does not hold tier"):
            g.export(str(tmp_path / "w.csv"), db=res)
        # Waiting releases the GIL: this thread runs on while the solve waits.
        result = {}
        waiter = threading.Thread(target=lambda: result.update(g.solve(res)))
        waiter.start()
        time.sleep(1.0)
        assert waiter.is_alive() and not result
    finally:
        os.close(fd)
    waiter.join(120)
    assert not waiter.is_alive()
    assert result["value"] == "tie" and result["tiers_solved"] == 1
    assert gamesman.open("mtttier").query(db=res)["value"] == "tie"


def _fixtures():
    return sorted(p.name[3:-3] for p in RELEASE.glob("libfixture_*.so"))


def test_broken_modules_never_crash_the_interpreter():
    """Every fixture module (panicking, lying, looping, not a module) through open,
    solve, query, analyze and export, each in its own interpreter so that a crash
    shows as one (a signal, or no last line) instead of ending this test session."""
    fixtures = _fixtures()
    assert len(fixtures) >= 20, fixtures
    script = r"""
import os, sys, tempfile, gamesman
try:
    g = gamesman.open(sys.argv[1])
    g.solve("memory:")
    g.query(db="memory:")
    g.analyze("memory:")
    with tempfile.TemporaryDirectory() as d:
        g.export(os.path.join(d, "x.csv"), db="memory:", moves=True)
    print("done: ok")
except gamesman.GamesmanError as e:
    print("done: GamesmanError:", str(e).replace("\n", " "))
"""
    errors = set()
    for name in fixtures:
        r = subprocess.run([sys.executable, "-c", script, str(RELEASE / f"lib{name}.so")],
                           capture_output=True, text=True, timeout=120)
        last = r.stdout.strip().splitlines()[-1:] or [""]
        assert r.returncode == 0 and last[0].startswith("done: "), (name, r.returncode,
                                                                    r.stdout, r.stderr)
        assert "PanicException" not in r.stderr, (name, r.stderr)
        if last[0].startswith("done: GamesmanError"):
            errors.add(name.removeprefix("fixture_"))
    # Faults any solve meets (not a module, a panic, an impossible answer) are the
    # host's messages. Faults only in undo moves are not met by default: a tier with
    # room for a reverse graph is solved from its scan's moves and never asks them.
    must = {"abi_mismatch", "not_a_module", "panicky", "broken_do_move_panics",
            "broken_tier_cycle", "broken_illegal_child", "broken_undeclared_tier",
            "broken_index_out_of_range", "broken_symmetry_tier", "broken_fast_children"}
    assert must <= errors, sorted(must - errors)


def test_a_panicking_module_is_a_gamesman_error():
    g = gamesman.open(str(RELEASE / "libfixture_panicky.so"))
    with pytest.raises(gamesman.GamesmanError, match="panicked in do_move: deliberate failure"):
        g.solve("memory:")
    with pytest.raises(gamesman.GamesmanError, match="failed in position_to_text"):
        g.query(db="memory:")


# The surfaces added since (issue 52 item 6): tier files that are not regular files
# (F2), and the AutoGUI sidecar a C module is loaded with (issue 53), each hostile.

def _run_python(code, *args, timeout=60):
    """`code` in its own interpreter (a hang fails on the timeout, a crash shows as a
    signal), with the package's environment."""
    return subprocess.run([sys.executable, "-c", code, *map(str, args)],
                          capture_output=True, text=True, timeout=timeout)


def test_a_fifo_in_place_of_a_tier_file_is_refused_at_once(solved, tmp_path):
    g, res, tiers = solved
    (tiers / "tier_9.gz").unlink()
    os.mkfifo(tiers / "tier_9.gz")
    code = r"""
import sys, gamesman
g = gamesman.open("mtttier")
db, out = sys.argv[1], sys.argv[2]
for name, call in [("query", lambda: g.query(db=db)), ("analyze", lambda: g.analyze(db)),
                   ("export", lambda: g.export(out, db=db)), ("solve", lambda: g.solve(db))]:
    try:
        call()
        print(name, "no error")
    except gamesman.GamesmanError as e:
        print(name, "error:", str(e).replace("\n", " "))
"""
    r = _run_python(code, res, tmp_path / "out.csv")
    assert r.returncode == 0, (r.stdout, r.stderr)
    lines = r.stdout.strip().splitlines()
    assert [l.split()[0] for l in lines] == ["query", "analyze", "export", "solve"], r.stdout
    for line in lines:
        assert "error:" in line and "FIFO (named pipe), not a regular file" in line, line
    # Still a FIFO: nothing replaced it, and nothing half-written was left.
    assert stat.S_ISFIFO(os.stat(tiers / "tier_9.gz").st_mode)
    assert not (tmp_path / "out.csv").exists()


@pytest.fixture(scope="module")
def c_module(tmp_path_factory):
    """Tic-tac-toe written the Classic way (plugins/c/mttt), built with the Classic
    layer's one command, which puts the layer's image data (its sidecar) beside it."""
    d = tmp_path_factory.mktemp("cmodule")
    lib = d / "libmttt.so"
    subprocess.run(["sh", str(ROOT / "plugin-api/c/classic/build.sh"),
                    str(ROOT / "plugins/c/mttt/mttt.c"), str(lib)],
                   check=True, timeout=300)
    assert Path(f"{lib}.autogui.json").is_file()
    return lib


def _fifo(path, good):
    os.mkfifo(path)


def _link_to_zero(path, good):
    os.symlink("/dev/zero", path)


def _huge(path, good):
    with open(path, "wb") as f:
        f.truncate(64 << 20)


def _garbage(path, good):
    path.write_bytes(b"\xff{not json" * 100)


def _link_out(path, good):
    outside = path.parent.parent / "elsewhere.json"
    outside.write_text(good)
    os.symlink(outside, path)


@pytest.mark.parametrize("make", [_fifo, _link_to_zero, _huge, _garbage, _link_out],
                         ids=lambda f: f.__name__[1:])
def test_a_hostile_sidecar_never_stops_a_c_module_from_opening_and_solving(
        c_module, tmp_path, make):
    good = Path(f"{c_module}.autogui.json").read_text()
    (tmp_path / "x").mkdir()
    lib = tmp_path / "x" / "libmttt.so"
    lib.write_bytes(c_module.read_bytes())
    make(tmp_path / "x" / "libmttt.so.autogui.json", good)
    code = r"""
import sys, gamesman
g = gamesman.open(sys.argv[1])
print("solved:", g.solve("memory:")["value"])
"""
    r = _run_python(code, lib)
    assert r.returncode == 0, (r.stdout, r.stderr)
    # The sidecar refused (the game is then served as text): it opens and solves, as
    # Classic's tic-tac-toe does, a tie; nothing blocks on the FIFO or reads /dev/zero
    # without end.
    assert r.stdout.strip().splitlines()[-1] == "solved: tie", (r.stdout, r.stderr)
