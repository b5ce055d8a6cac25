#!/usr/bin/env bash
# The memory bench of issue 52 (F8): the whole process's peak resident set stays within
# `--memory-limit` for every limit the plan accepts. Solves Quixo 5x5's endgames under
# each limit (default: the 2-blank endgame at 320M, 1G and 2G, on two threads) into a
# scratch database and prints, per run, the plan's estimated peak, the measured maximum
# resident set (`/usr/bin/time -v`), the limit and whether the peak is within it. Exits
# 1 when any peak is past its limit. Minutes per run on two cores.
#
# Usage: tests/benches/memory_peaks.sh [HOST [PLUGIN_DIR]]
#   ENDGAME=K (default 2), LIMITS="320M 1G 2G", THREADS=2
# Needs GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/../.."
host=$(realpath "${1:-target/release/host}")
plugins=$(realpath "${2:-$(dirname "$host")}")
endgame=${ENDGAME:-2}
threads=${THREADS:-2}
scratch=$(mktemp -d /tmp/memory-peaks.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
bad=0
for limit in ${LIMITS:-320M 1G 2G}; do
    args=(--plugin "$plugins/libquixo.so" --variant 5x5 solve --endgame "$endgame"
        --threads "$threads" --memory-limit "$limit")
    planned=$("$host" "${args[@]}" --plan --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["peak_bytes"])')
    rm -rf "$scratch/db"
    /usr/bin/time -v -o "$scratch/time" "$host" "${args[@]}" --db "file:$scratch/db" \
        >/dev/null 2>"$scratch/err" || { cat "$scratch/err" >&2; exit 2; }
    kib=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$scratch/time")
    cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$scratch/time")
    limit_bytes=$(python3 -c "
import sys; t=sys.argv[1]; u={'K':10,'M':20,'G':30,'T':40}
print(int(float(t[:-1])*(1<<u[t[-1]])) if t[-1] in u else int(t))" "$limit")
    peak=$((kib * 1024))
    verdict=within
    if [ "$peak" -gt "$limit_bytes" ]; then verdict=PAST; bad=1; fi
    printf 'endgame %s, %s threads, --memory-limit %s: planned %d MiB, peak %d MiB (%s), %s CPU-s\n' \
        "$endgame" "$threads" "$limit" $((planned >> 20)) $((peak >> 20)) "$verdict" "$cpu"
done
exit $bad
