#!/bin/sh
# build.sh: builds one GamesmanOne game, unchanged, into a gamesman module.
#
#     plugin-api/c/gamesmanone/build.sh SRC GAME OUT.so
#
# SRC is a GamesmanOne `src/` directory (the one holding `games/`), GAME the name of
# the game's folder under SRC/games/ (mttt, mtttier, fsvp, kaooa, quixo, ...), OUT.so
# the library to write; then `host --plugin OUT.so ...` as for any module. Where the
# layer has image data for the game (autogui/GAME.json), it is copied beside the
# library as OUT.so.autogui.json, so `host serve --gamesmanuni` draws it on a board.
#
# What it does: reads the game's source files from the SOURCES list of its
# CMakeLists.txt and its `Game` object's name from the `extern const Game kX;` line of
# its headers, and compiles them with this layer (one_*.c, the core headers under
# core/ first on the include path, then SRC for the game's own `games/...` includes)
# against plugin-api/c/gamesman_plugin.h:
#
#     cc -O3 -flto -std=gnu17 -shared -fPIC -I LAYER -I plugin-api/c -I SRC
#        -DGAMESMANONE_GAME=kX [x86 flags] SOURCES LAYER/one_*.c
#        -Wl,--version-script=LAYER/exports.map -o OUT.so
#
# The library exports only gamesman_module_v1 (exports.map): every other function is
# then local to it, so link-time optimisation calls the layer's core (hashes, hash
# sets) directly and inlines it into the game's code, instead of through the PLT as
# functions another library could replace. On this machine that took the CPU of a
# Quixo 4x4 solve from 58-62 s to 51 s and of five men's morris from 9.5 to 8.3 s.
#
# x86 flags: games that use x86 intrinsics (quixo, mills) get -msse4.1 -mbmi -mbmi2
# -mpopcnt. Environment: CC (default cc), CFLAGS (added after the layer's),
# GAMESMANONE_MAX_MOVES (the most moves a position may have, default 1024 as in
# GamesmanOne v1.3.0; a game with at most 254 may say so for narrower solver
# counters). Exit status: the compiler's, 1 when the sidecar cannot be written, or 2
# with a message for bad arguments.
set -eu

if [ "$#" -ne 3 ]; then
    echo "usage: $0 SRC GAME OUT.so   (SRC: a GamesmanOne src/ directory; GAME: a folder of SRC/games/)" >&2
    exit 2
fi
src=$1
name=$2
out=$3
layer=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
api=$(dirname -- "$layer")
# GAME is one folder name: no slash, no dot-only name (nothing outside SRC/games/).
case $name in
    '' | . | .. | */*)
        echo "$0: GAME must be the name of one folder of SRC/games/, not '$name'" >&2
        exit 2
        ;;
esac
if [ ! -d "$src" ]; then
    echo "$0: SRC '$src' is not a directory" >&2
    exit 2
fi
# Absolute, so no path below can be read as a compiler option (a SRC named -x...).
src=$(CDPATH= cd -- "$src" && pwd)
dir=$src/games/$name
if [ ! -f "$dir/CMakeLists.txt" ]; then
    echo "$0: $dir/CMakeLists.txt not found: GAME must be a folder of SRC/games/ with its CMake list" >&2
    exit 2
fi

# The SOURCES of the game's CMake list (`${CMAKE_CURRENT_SOURCE_DIR}/x.c`), as names
# relative to the game's folder: no path is ever put into a sed program or split on
# spaces. Only plain names ([A-Za-z0-9_./-]) are taken, and none with a `..` part.
relative=$(sed -n '/set(SOURCES/,/)/p' "$dir/CMakeLists.txt" |
    grep -o '{CMAKE_CURRENT_SOURCE_DIR}/[A-Za-z0-9_./-]*\.c' |
    cut -c 28-)
if [ -z "$relative" ]; then
    echo "$0: no SOURCES in $dir/CMakeLists.txt" >&2
    exit 2
fi
object=$(cat "$dir"/*.h | grep -o 'extern const Game k[A-Za-z0-9_]*' | head -n 1 | cut -c 19-)
if [ -z "$object" ]; then
    echo "$0: no 'extern const Game kName;' in $dir/*.h" >&2
    exit 2
fi

# The compiler's arguments, each one word whatever the paths hold: the sources go
# into "$@" (a plain name per line of $relative, never split on anything else).
set --
old_ifs=$IFS
IFS='
'
for f in $relative; do
    case /$f/ in
        */../*)
            IFS=$old_ifs
            echo "$0: SOURCES of $dir/CMakeLists.txt name '$f', outside the game's folder" >&2
            exit 2
            ;;
    esac
    set -- "$@" "$dir/$f"
done
IFS=$old_ifs

x86=""
if cat "$@" "$dir"/*.h | grep -q -E 'x86intrin|immintrin|x86_simd'; then
    x86="-msse4.1 -mbmi -mbmi2 -mpopcnt"
fi

# shellcheck disable=SC2086 # word splitting of CC, CFLAGS and the x86 flags is intended
${CC:-cc} -O3 -flto -std=gnu17 -shared -fPIC -fvisibility=default \
    -I "$layer" -I "$api" -I "$src" \
    -DGAMESMANONE_GAME="$object" -DGAMESMANONE_MAX_MOVES="${GAMESMANONE_MAX_MOVES:-1024}" \
    $x86 ${CFLAGS:-} "$@" "$layer"/one_*.c -Wl,--version-script="$layer/exports.map" -o "$out"

# The game's AutoGUI sidecar (image data for GamesmanUni's boards, see the serving
# guide), when the layer has one: OUT.so.autogui.json beside the library, written once
# the library is built, and never through what is already there (removed first, so a
# symbolic link at that path is replaced, not followed).
sidecar=$out.autogui.json
if [ -f "$layer/autogui/$name.json" ]; then
    if ! rm -f -- "$sidecar" || ! cp -- "$layer/autogui/$name.json" "$sidecar"; then
        echo "$0: built $out, but cannot write its image data to $sidecar" >&2
        exit 1
    fi
fi
