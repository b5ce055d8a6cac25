#!/usr/bin/env python3
"""Regenerates oracle.tsv: GamesmanOne's own results for the games and variants the
compatibility layer builds and that GamesmanOne solves here in seconds.

    python3 tests/gamesmanone/make_oracle.py v1.3.0=BINARY@COMMIT pr27-mills=BINARY@COMMIT \
        > tests/gamesmanone/oracle.tsv

Each argument names a source (a folder of ../shared/gamesmanone), a GamesmanOne
headless binary built from that source's commit (v1.3.0: 1969986; pull request 27:
4629961), and the commit; each binary runs from a scratch directory with one thread. For each row it runs `solve` and `analyze`, and
reads the start's value and remoteness with `getstart` + `query` where the game has a
complete UWAPI, else from the record of the start in the solved database
(`<game>_<variant>.adb.xz`: uint16 records, value = record >> 12 in GamesmanOne's
enum, remoteness = record & 0xFFF), at the start's index in the game's own hash (the
games read that way number their positions themselves, without the generic hash).
See README.md beside this file. Must not: depend on this project's code.
"""
import json
import lzma
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile

# (folder under src/games, GamesmanOne name, variant ids, how to read the start)
# start: "query", or ("record", function of the variant id giving the start's index).
FSVP_SIZES = [4, 5, 6, 7, 8, 9, 10, 11, 12, 20, 50, 60, 70, 80, 90, 100]
ROWS = [
    # v1.3.0
    ("mttt", "mttt", [0], ("record", lambda v: 0)),  # the empty board, base-3 hash
    ("mtttier", "mtttier", [0], "query"),
    ("kaooa", "mkaooa", [0], "query"),
    # FsvpGetInitialPosition: index 0 for an even size, 1 for an odd one.
    ("fsvp", "fsvp", list(range(11)), ("record", lambda v: FSVP_SIZES[v] % 2)),
    ("quixo", "quixo", [2, 1], "query"),  # 3x3, 4x4 (4x4: ~40 s)
    # pull request 27
    ("mills", "mills", [0], "query"),  # five men's morris
]
SOURCE = {"mills": "pr27-mills"}
VALUES = ["undecided", "lose", "draw", "tie", "win"]


def run(binary, scratch, args):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([binary, "--data-path=g"] + args, cwd=scratch, env=env,
                       capture_output=True, text=True, errors="replace",
                       timeout=3600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if r.returncode != 0:
        sys.exit(f"{' '.join(args)} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}")
    return r.stdout, cpu


def totals(text, title):
    block = text[text.index(title):]
    m = re.search(r"Totals\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)", block)
    win, lose, tie, draw, total = (int(x) for x in m.groups())
    return {"total": total, "win": win, "lose": lose, "tie": tie, "draw": draw}


def by_remoteness(text, title):
    """The table's rows with a finite remoteness and a position, ascending, as
    "R:WIN/LOSE/TIE" joined by spaces (draws are the Inf row, in the totals)."""
    block = text[text.index(title):text.index("Totals", text.index(title))]
    rows = []
    for m in re.finditer(r"^\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$", block, re.M):
        r, win, lose, tie, _draw, total = m.groups()
        if int(total) > 0:
            rows.append((int(r), f"{r}:{win}/{lose}/{tie}"))
    return " ".join(text for _, text in sorted(rows))


def main():
    binaries = {}
    for arg in sys.argv[1:]:
        source, rest = arg.split("=", 1)
        path, commit = rest.rsplit("@", 1)
        binaries[source] = (os.path.abspath(path), commit)
    cols = ["game", "source", "commit", "name", "variant", "value", "remoteness", "all_total", "all_win",
            "all_lose", "all_tie", "all_draw", "canonical_total", "canonical_win",
            "canonical_lose", "canonical_tie", "canonical_draw", "hash_size", "start_from",
            "solve_cpu_s", "canonical_by_remoteness"]
    print("# GamesmanOne's `BINARY --data-path=g solve|analyze NAME VARIANT` (and getstart, query)"
          " with OMP_NUM_THREADS=1, per source at its commit; made by make_oracle.py")
    print("\t".join(cols))
    for folder, name, variant_ids, start in ROWS:
        source = SOURCE.get(folder, "v1.3.0")
        if source not in binaries:
            continue
        binary, commit = binaries[source]
        for v in variant_ids:
            scratch = tempfile.mkdtemp(prefix="g1-oracle-")
            try:
                _, cpu = run(binary, scratch, ["solve", name, str(v)])
                text, _ = run(binary, scratch, ["analyze", name, str(v)])
                every = totals(text, "Summary of all positions")
                canon = totals(text, "Summary of canonical positions")
                hash_size = re.search(r"Hash space: (\d+)", text).group(1)
                if start == "query":
                    out, _ = run(binary, scratch, ["getstart", name, str(v)])
                    # mtttier's formal position lacks its terminating NUL in v1.3.0:
                    # what follows the board is garbage, cut at the first non-ASCII.
                    pos = re.match(r"[ -~]*", json.loads(out)["position"]).group(0)
                    out, _ = run(binary, scratch, ["query", "--", name, str(v), pos])
                    q = json.loads(out)
                    value, remoteness = q["positionValue"], q["remoteness"]
                    how = "query"
                else:
                    index = start[1](v)
                    path = os.path.join(scratch, "g", name, str(v), "arraydb",
                                        f"{name}_{v}.adb.xz")
                    data = lzma.open(path).read()
                    record = int.from_bytes(data[2 * index:2 * index + 2], "little")
                    value, remoteness = VALUES[record >> 12], record & 0xFFF
                    how = f"record {index}"
                if value == "draw":
                    remoteness = "inf"
                row = [folder, source, commit, name, str(v), value, str(remoteness)]
                row += [str(every[k]) for k in ("total", "win", "lose", "tie", "draw")]
                row += [str(canon[k]) for k in ("total", "win", "lose", "tie", "draw")]
                row += [hash_size, how, f"{cpu:.2f}",
                        by_remoteness(text, "Summary of canonical positions")]
                print("\t".join(row), flush=True)
            finally:
                shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
