#!/usr/bin/env bash
# The export bench: solves Quixo 4x4 (once, into $BENCH_DB, default /tmp/export-bench-q44)
# and exports it to Parquet, SQLite and CSV, canonical positions only, reporting for each
# format the wall time, the peak resident memory (GNU time's maximum RSS), the bytes
# written and the bytes per position. Needs target/release/host and libquixo.so
# (`cargo build --release -p host -p quixo`) and /usr/bin/time. Extra arguments go to
# every export (for example --moves, --reachable, --tiers 0,1).
set -euo pipefail
cd "$(dirname "$0")/../.."
host=target/release/host
db=${BENCH_DB:-/tmp/export-bench-q44}
out=$(mktemp -d /tmp/export-bench.XXXXXX)
trap 'rm -rf "$out"' EXIT
if [ ! -d "$db/quixo_4x4_tierdb" ]; then
    echo "solving quixo 4x4 into file:$db first"
    "$host" --plugin quixo --variant 4x4 solve --db "file:$db" >/dev/null
fi
printf '%-8s %10s %12s %16s %12s %10s\n' format seconds "peak MiB" bytes positions bytes/pos
for format in parquet sqlite csv; do
    file="$out/q44.$format"
    /usr/bin/time -f '%e %M' -o "$out/time" "$host" --plugin quixo --variant 4x4 export \
        --db "file:$db" --out "$file" --json "$@" >"$out/report" 2>/dev/null
    read -r secs kib <"$out/time"
    positions=$(grep '"positions"' "$out/report" | tr -dc 0-9)
    bytes=$(grep '"bytes"' "$out/report" | tr -dc 0-9)
    printf '%-8s %10s %12d %16d %12d %10.2f\n' "$format" "$secs" $((kib / 1024)) "$bytes" \
        "$positions" "$(echo "$bytes / $positions" | bc -l)"
    rm -f "$out"/q44.*
done
