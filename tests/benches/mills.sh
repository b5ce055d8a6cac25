#!/usr/bin/env bash
# The Mills bench (issue 51): for each variant given (default: 6mm 7mm), solves it with
# GamesmanOne's pull-request-27 build (../shared/anchors/gamesmanone-pr27-mills, one
# thread) and with our bundled module (`host solve --threads 1`), one after the other
# in the same run, and reports each one's CPU seconds (user + system), wall seconds and
# peak resident memory (GNU time); then checks that our start value and every
# reachable position counted by value and remoteness (`analyze --every-position`)
# equal the first table of GamesmanOne's `analyze`. Needs target/release/host and
# libmills.so (`cargo build --release -p host -p mills`), /usr/bin/time and python3.
# Variants: 5mm (GamesmanOne's 0), 6mm (72), 7mm (144).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
host=$root/target/release/host
anchor=$root/../shared/anchors/gamesmanone-pr27-mills
[ -x "$anchor" ] || { echo "no GamesmanOne build at $anchor" >&2; exit 1; }
work=$(mktemp -d /tmp/mills-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
number() { case $1 in 5mm) echo 0 ;; 6mm) echo 72 ;; 7mm) echo 144 ;; *) echo "no GamesmanOne number for $1" >&2; exit 1 ;; esac; }
timed() { # timed NAME CMD...: runs CMD, appends "NAME cpu wall peak_mib" to $work/times
    local name=$1; shift
    /usr/bin/time -f '%U %S %e %M' -o "$work/t" "$@" >"$work/$name.out" 2>"$work/$name.err"
    read -r u s e m <"$work/t"
    printf '%-22s %10.1f %10.1f %10d\n' "$name" "$(echo "$u + $s" | bc -l)" "$e" $((m / 1024))
}
printf '%-22s %10s %10s %10s\n' solve "CPU s" "wall s" "peak MiB"
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(6mm 7mm)
for v1 in "${variants[@]}"; do
    {
        n=$(number "$v1")
        (cd "$work" && OMP_NUM_THREADS=1 timed "gamesmanone-$v1" "$anchor" --data-path=g solve mills "$n")
        timed "ours-$v1" "$host" --plugin mills --variant "$v1" solve --db "file:$work/db" --threads 1 --json
        (cd "$work" && "$anchor" --data-path=g analyze mills "$n" >"$work/g1-$v1.txt" 2>/dev/null)
        "$host" --plugin mills --variant "$v1" analyze --db "file:$work/db" --every-position --json >"$work/ours-$v1.json"
        python3 - "$work/g1-$v1.txt" "$work/ours-$v1.json" "$work/ours-$v1.out" "$v1" <<'PY'
import json, sys
g1, ours, solve, v = sys.argv[1:5]
text = open(g1).read()
rows, totals = [], None
for line in text[text.index("Summary of all positions"):].splitlines()[2:]:
    f = line.split()
    if f and f[0] == "Totals":
        totals = [int(x) for x in f[1:6]]
        break
    if len(f) == 6 and f[0].isdigit():
        r = [int(x) for x in f[:4]]
        if sum(r[1:]):
            rows.append(r)
c = json.load(open(ours))["reachable"]["counts"]
b = c["by_value"]
here = [b["win"], b["lose"], b["tie"], b["draw"], c["total"]]
mine = sorted([r["remoteness"], r["win"], r["lose"], r["tie"]] for r in c["by_remoteness"]
              if r["win"] + r["lose"] + r["tie"])
start = json.load(open(solve))["initial"]
ok = here == totals and mine == sorted(rows)
print(f"{v}: start {start['value']} in {start.get('remoteness')}; reachable "
      f"[win, lose, tie, draw, total] {here}; GamesmanOne {totals}; by remoteness "
      f"{'equal' if mine == sorted(rows) else 'DIFFERENT'}")
sys.exit(0 if ok else 1)
PY
        rm -rf "$work/g" "$work/db"
    }
done
