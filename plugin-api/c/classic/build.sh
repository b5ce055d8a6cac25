#!/bin/sh
# build.sh: builds one GamesmanClassic module, unchanged, into a gamesman module.
#
#     plugin-api/c/classic/build.sh MODULE.c OUT.so      (or MODULE.cc, a C++ module)
#
# MODULE.c is the module's one source file (Classic's src/mttt.c, say), OUT.so the
# library to write; then `host --plugin OUT.so ...` as for any module. It runs the
# command the Classic guide gives,
#
#     cc -O2 -shared -fPIC -DNO_GRAPHICS -I LAYER MODULE.c LAYER/*.c -o OUT.so
#
# (with -lstdc++ after the layer for a .cc module), and, where the layer has image
# data for the module (autogui/MODULE.json, named after the source file), copies it
# beside the library as OUT.so.autogui.json, so `host serve --gamesmanuni` draws the
# module on its board: one command builds a servable game.
#
# The sidecar is written only after the library built, and never through what is
# already at OUT.so.autogui.json: that path is removed first, so a symbolic link
# there is replaced, not followed. Paths may hold any character: none is put into a
# program or split on spaces, and MODULE is made absolute, so it is never read as a
# compiler option. Environment: CC (default cc), CFLAGS (added after the layer's).
# Exit status: the compiler's, 1 when the sidecar cannot be written, or 2 with a
# message for bad arguments.
set -eu

if [ "$#" -ne 2 ]; then
    echo "usage: $0 MODULE.c|MODULE.cc OUT.so   (MODULE: a GamesmanClassic module's source file)" >&2
    exit 2
fi
source=$1
out=$2
layer=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)

case $source in
    *.cc) stem=$(basename -- "$source" .cc) ;;
    *.c) stem=$(basename -- "$source" .c) ;;
    *)
        echo "$0: MODULE '$source' must be a .c or .cc source file" >&2
        exit 2
        ;;
esac
if [ ! -f "$source" ]; then
    echo "$0: MODULE '$source' is not a file" >&2
    exit 2
fi
if [ -d "$out" ]; then
    echo "$0: OUT '$out' is a directory; name the library to write (libNAME.so)" >&2
    exit 2
fi
# Absolute, so a module named -x... is a file to the compiler, not an option.
source=$(CDPATH= cd -- "$(dirname -- "$source")" && pwd)/$(basename -- "$source")

cxx=""
case $source in
    *.cc) cxx="-lstdc++" ;;
esac

# shellcheck disable=SC2086 # word splitting of CC, CFLAGS and -lstdc++ is intended
${CC:-cc} -O2 -shared -fPIC -DNO_GRAPHICS -I "$layer" "$source" "$layer"/*.c $cxx \
    ${CFLAGS:-} -o "$out"

sidecar=$out.autogui.json
if [ -f "$layer/autogui/$stem.json" ]; then
    if ! rm -f -- "$sidecar" || ! cp -- "$layer/autogui/$stem.json" "$sidecar"; then
        echo "$0: built $out, but cannot write its image data to $sidecar" >&2
        exit 1
    fi
fi
