#!/bin/sh
# Regenerates the game IDs in this folder with Simon Tatham's Bridges (Debian: sgt-puzzles,
# which installs /usr/games/sgt-bridges).  Each file holds the IDs of one parameter string,
# one ID per line; lines starting with '#' are comments.  Tatham's generator makes puzzles with
# exactly one solution under their own rules (mK: at most K bridges per pair; L: no loops).
set -eu
BRIDGES=${BRIDGES:-/usr/games/sgt-bridges}
for spec in "7x7i30e10m1d2 3" "10x10i30e10m1d2 2" "15x15i30e10m1d2 2" \
            "7x7i30e10m2d2 3" "10x10i30e10m2d2 2" "15x15i30e10m2d2 2" "25x25i30e10m2d2 1" \
            "7x7i30e10m3d2 3" "10x10i30e10m3d2 2" "15x15i30e10m3d2 2" \
            "7x7i30e10m4d2 3" "10x10i30e10m4d2 2" "15x15i30e10m4d2 2" \
            "7x7i30e10m1Ld2 2" "15x15i30e10m1Ld2 2" \
            "7x7i30e10m2Ld2 3" "15x15i30e10m2Ld2 2" "20x20i30e10m2Ld2 1" \
            "7x7i30e10m3Ld2 2" "15x15i30e10m3Ld2 2" \
            "7x7i30e10m4Ld2 2" "15x15i30e10m4Ld2 2"; do
    set -- $spec
    {
        echo "# $BRIDGES --generate $2 $1"
        "$BRIDGES" --generate "$2" "$1" 2>/dev/null
    } > "$1.txt"
done
