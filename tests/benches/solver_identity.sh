#!/usr/bin/env bash
# The solver identity bench: solves a matrix of games under every `--solve-mode` (and the
# planner's own choice), every `--parents` choice and 1 and 2 threads, each into a fresh
# scratch database, and prints the sha256 of every tier file written; then the
# `solve --plan --json` of Quixo 4x4 and of the whole Quixo 5x5 at 16G, 8G and 4G. Two
# runs (say, before and after a restructuring of host/src/engine/solver) must print the
# same lines: `diff` them. A combination a module refuses (undo moves of a forward-only
# module) prints its refusal instead of hashes, which must match too.
#
# Usage: tests/benches/solver_identity.sh [HOST [PLUGIN_DIR]] > hashes.txt
#   HOST        the host binary (default target/release/host)
#   PLUGIN_DIR  where lib<game>.so are (default: the host binary's directory)
# G1_DIR=DIR adds GamesmanOne's fsvp, mkaooa, Quixo 4x4 and five men's morris through
# the compatibility layer, from DIR/lib{fsvp,kaooa,quixo,mills}.so (as the GamesmanOne
# corpus test builds them under target/release/gamesmanone-corpus/). Every game is also
# solved --reachable (the reachable-only file format) on two threads. ENDGAME=1 adds the
# Quixo 5x5 3-blank endgame at --memory-limit 1G (minutes on two threads).
# SKIP_SLOW=0 runs the combinations skipped by default (see `slow` below); ONLY=REGEX
# solves only the games whose "game variant" matches it (the plans are always printed).
# Needs sha256sum.
set -euo pipefail
cd "$(dirname "$0")/../.."
host=$(realpath "${1:-target/release/host}")
plugins=$(realpath "${2:-$(dirname "$host")}")
scratch=$(mktemp -d /tmp/solver-identity.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

# game variant: the matrix. Quixo 4x4 takes 10-60 s a solve on 2 threads, more on one.
games=(
    "mtttier regular"
    "mtttier symmetric"
    "quixo 3x3"
    "quixo 4x4"
    "mothello 4x4"
    "miceblocks base4"
    "dodgem default"
    "whirly default"
)
# Combinations over 60 s on a shared 2-core machine, skipped unless SKIP_SLOW=0: Quixo
# 4x4 on one thread (each of its ways is still run on two).
slow() {
    local game=$1 variant=$2 mode=$3 parents=$4 threads=$5
    [ "${SKIP_SLOW:-1}" = 0 ] && return 1
    case "$game $variant" in
    "quixo 4x4" | "g1/quixo 1" | "g1/mills 0") [ "$threads" = 1 ] && return 0 ;;
    esac
    return 1
}

# A game's library: a bundled one from PLUGIN_DIR, g1/NAME from G1_DIR.
library() {
    case "$1" in
    g1/*) echo "$G1_DIR/lib${1#g1/}.so" ;;
    *) echo "$plugins/lib$1.so" ;;
    esac
}

solve() {
    local game=$1 variant=$2 mode=$3 parents=$4 threads=$5
    local db="$scratch/db" global=() args=() extra=("${@:6}")
    rm -rf "$db"
    [ "$variant" != default ] && global+=(--variant "$variant")
    [ "$mode" != plan ] && args+=(--solve-mode "$mode")
    local tag="$game $variant mode=$mode parents=$parents threads=$threads${extra[*]:+ ${extra[*]}}"
    if slow "$game" "$variant" "$mode" "$parents" "$threads"; then
        echo "$tag: skipped (over 60 s)"
        return
    fi
    if ! "$host" --plugin "$(library "$game")" "${global[@]}" solve --db "file:$db" \
        --parents "$parents" --threads "$threads" "${args[@]}" "${extra[@]}" \
        >"$scratch/out" 2>"$scratch/err"; then
        echo "$tag: refused: $(grep -v '^\s*$' "$scratch/err" | tail -n 1)"
        return
    fi
    (cd "$db" && find . -type f ! -name '*.lock' ! -name 'lock' -print0 | sort -z |
        xargs -0 sha256sum) | sed "s|^|$tag |"
}

if [ -n "${G1_DIR:-}" ]; then
    games+=("g1/fsvp 6" "g1/kaooa 0" "g1/quixo 1" "g1/mills 0")
fi
for g in "${games[@]}"; do
    read -r game variant <<<"$g"
    [[ -n "${ONLY:-}" && ! "$game $variant" =~ $ONLY ]] && continue
    # Reachable-only databases (their own file format), on two threads.
    solve "$game" "$variant" plan auto 2 --reachable
    for mode in plan whole streamed compact byte; do
        for parents in auto forward undo-moves; do
            for threads in 1 2; do
                solve "$game" "$variant" "$mode" "$parents" "$threads"
            done
        done
    done
done

if [ "${ENDGAME:-0}" = 1 ]; then
    solve quixo 5x5 plan auto 2 --endgame 3 --memory-limit 1G
fi

plan() {
    local variant=$1; shift
    echo "plan quixo $variant $*:"
    "$host" --plugin "$plugins/libquixo.so" --variant "$variant" solve --plan --json \
        --threads 2 "$@" 2>&1
}
plan 4x4
plan 4x4 --memory-limit 1G
for limit in 16G 8G 4G; do
    plan 5x5 --memory-limit "$limit"
done
