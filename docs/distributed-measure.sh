#!/usr/bin/env bash
# Measures a distributed solve: wall time of the whole mpirun job and, per rank, the
# peak resident memory (/usr/bin/time -v through a wrapper). Used for the figures in
# docs/book/src/design/distributed.md. Usage:
#   docs/distributed-measure.sh RANKS THREADS PLUGIN VARIANT [REPEATS]
# Needs target/release/host-mpi (cargo build --release -p host --features mpi --bin host-mpi).
set -euo pipefail
ranks=$1 threads=$2 plugin=$3 variant=$4 repeats=${5:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
host="$root/target/release/host-mpi"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/wrap.sh" <<'WRAP'
#!/bin/sh
# One rank under /usr/bin/time -v, its report named by the rank.
exec /usr/bin/time -v -o "$MEASURE_DIR/rank${OMPI_COMM_WORLD_RANK:-0}.time" "$@"
WRAP
chmod +x "$work/wrap.sh"
export OMPI_MCA_btl_vader_single_copy_mechanism=none
for i in $(seq 1 "$repeats"); do
    rm -rf "$work/db" "$work"/rank*.time
    start=$(date +%s.%N)
    MEASURE_DIR="$work" mpirun --allow-run-as-root --oversubscribe -x MEASURE_DIR -np "$ranks" \
        "$work/wrap.sh" "$host" --plugin "$plugin" --variant "$variant" \
        solve --threads "$threads" --db "file:$work/db" >"$work/out" 2>"$work/err"
    end=$(date +%s.%N)
    line="run $i: ranks $ranks x $threads threads: wall $(awk "BEGIN {printf \"%.1f\", $end - $start}") s;"
    for f in $(ls "$work"/rank*.time | sort -V); do
        r=$(basename "$f" .time)
        kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$f")
        cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$f")
        line="$line $r peak $((kb / 1024)) MB cpu ${cpu}s;"
    done
    echo "$line"
    grep "^solved" "$work/out" || { cat "$work/err" | tail -5; exit 1; }
done
