#!/usr/bin/env python3
"""Our solve of GamesmanOne's games against GamesmanOne's own, in the same run.

    python3 tests/gamesmanone/bench.py v1.3.0=BINARY [pr27-mills=BINARY] [ROUNDS] [only=LABEL,...]

For each game and variant below (those the layer builds and GamesmanOne solves here in
seconds) and for 1 and 2 threads, it alternates GamesmanOne's `solve` (OMP_NUM_THREADS)
and ours (`host --plugin LIB --variant V solve --db file:DIR --threads N`), each from an
empty scratch directory, ROUNDS times (default 3), and prints the median CPU seconds
(user + system) and the largest peak resident memory of each side, and our CPU over
GamesmanOne's. Libraries are built with plugin-api/c/gamesmanone/build.sh from
../shared/gamesmanone (each game with the binary of its source); the host is target/release/host (build it first:
`cargo build --release -p host`). Figures from different runs are not
comparable on a shared machine; this compares within one run. `only=` keeps the cases
whose label starts with one of the names given (`only=fsvp,mills`).

On one thread it also runs `floor` (tests/gamesmanone/floor.c, built with cc) in the
same rounds: the game calls any solver of the unchanged game must make (every index's
legality and canonical test, every canonical position's primitive value, every
non-primitive one's children), alone. Its CPU over GamesmanOne's is the least ratio
any solver could reach; the last two columns give it.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "gamesmanone")
HOST = os.path.join(ROOT, "target", "release", "host")
# (source, folder, GamesmanOne name, variant id, label)
CASES = [
    ("v1.3.0", "mttt", "mttt", 0, "mttt"),
    ("v1.3.0", "mtttier", "mtttier", 0, "mtttier"),
    ("v1.3.0", "kaooa", "mkaooa", 0, "mkaooa"),
    ("v1.3.0", "fsvp", "fsvp", 10, "fsvp size 50"),
    ("v1.3.0", "quixo", "quixo", 2, "quixo 3x3"),
    ("v1.3.0", "quixo", "quixo", 1, "quixo 4x4"),
    ("pr27-mills", "mills", "mills", 0, "mills 5MM"),
]


def measure(cmd, cwd, env):
    """CPU seconds and peak RSS (MiB) of one child, from wait4."""
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    if status != 0:
        sys.exit(f"{' '.join(cmd)} failed ({status}):\n{err[-2000:]}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main():
    binaries, rounds, only = {}, 3, None
    for arg in sys.argv[1:]:
        if arg.startswith("only="):
            only = tuple(arg[len("only="):].split(","))
        elif "=" in arg:
            source, path = arg.split("=", 1)
            binaries[source] = os.path.abspath(path)
        else:
            rounds = int(arg)
    libs = tempfile.mkdtemp(prefix="g1-bench-libs-")
    floor = os.path.join(libs, "floor")
    subprocess.run(["cc", "-O2", "-I", os.path.join(ROOT, "plugin-api/c"),
                    os.path.join(ROOT, "tests/gamesmanone/floor.c"), "-o", floor, "-ldl"], check=True)
    print("game\tthreads\tGamesmanOne CPU s\tours CPU s\tratio\tGamesmanOne peak MiB\tours peak MiB"
          "\tfloor CPU s\tfloor ratio")
    for source, folder, name, variant, label in CASES:
        if source not in binaries or (only and not label.startswith(only)):
            continue
        binary = binaries[source]
        lib = os.path.join(libs, f"lib{folder}.so")
        if not os.path.exists(lib):
            src = os.path.join(SHARED, source, "src")
            subprocess.run(["sh", os.path.join(ROOT, "plugin-api/c/gamesmanone/build.sh"), src, folder, lib],
                           check=True)
        for threads in (1, 2):
            one, ours, least = [], [], []
            for _ in range(rounds):
                scratch = tempfile.mkdtemp(prefix="g1-bench-")
                env = dict(os.environ, OMP_NUM_THREADS=str(threads))
                one.append(measure([binary, "--data-path=g", "solve", name, str(variant)], scratch, env))
                ours.append(measure([HOST, "--plugin", lib, "--variant", str(variant), "solve", "--db",
                                     "file:db", "--threads", str(threads)], scratch, dict(os.environ)))
                if threads == 1:
                    least.append(measure([floor, lib, str(variant)], scratch, dict(os.environ)))
                shutil.rmtree(scratch, ignore_errors=True)
            a = statistics.median(c for c, _ in one)
            b = statistics.median(c for c, _ in ours)
            ratio = f"{b / a:.2f}" if a > 0 else "-"
            f = statistics.median(c for c, _ in least) if least else None
            floor_cols = f"{f:.2f}\t{f / a:.2f}" if f is not None and a > 0 else "-\t-"
            print(f"{label}\t{threads}\t{a:.2f}\t{b:.2f}\t{ratio}\t{max(m for _, m in one):.0f}\t"
                  f"{max(m for _, m in ours):.0f}\t{floor_cols}", flush=True)
    shutil.rmtree(libs, ignore_errors=True)


if __name__ == "__main__":
    main()
