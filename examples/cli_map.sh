#!/usr/bin/env bash
# The command line as a map task, for engines that run commands (GNU parallel, xargs -P,
# Spark's RDD.pipe, a batch scheduler's array job): every capture under FOLDER is one
# task, `framescope report --format csv --progress never FILE`; the outputs are then
# stacked under one header into OUT.csv (the rows of `framescope report --format csv
# FOLDER`, in the same order for ordinary file names).
#
#   examples/cli_map.sh FOLDER OUT.csv [JOBS]
#
# JOBS tasks run at once (default 2). FRAMESCOPE names the binary (default: framescope
# on PATH). A capture that cannot be read is still a row (with error.message; its task
# exits 1, which is not a failure here); a task that writes nothing at all fails the run.
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 FOLDER OUT.csv [JOBS]" >&2
    exit 2
fi
folder=$1
out=$2
jobs=${3:-2}
bin=${FRAMESCOPE:-framescope}
parts="$(mktemp -d)"
trap 'rm -rf "$parts"' EXIT

list_captures() {
    find "$folder" -xtype f \( -iname '*.csv' -o -iname '*.json' -o -iname '*.hml' \
        -o -iname '*.csv.gz' -o -iname '*.json.gz' -o -iname '*.hml.gz' \) -not -path '*/.*' -print0 |
        LC_ALL=C sort -z
}

# Each task gets a number (so the parts sort back into order) and a path (NUL-separated:
# any file name is safe). Exit 0: reported; 1: a capture failed, its error row written.
list_captures |
    { i=0; while IFS= read -r -d '' f; do i=$((i + 1)); printf '%08d\0%s\0' "$i" "$f"; done; } |
    xargs -0 -n 2 -P "$jobs" sh -c '
        "$1" report --format csv --progress never "$4" >"$2/$3.csv" 2>/dev/null
        [ $? -le 1 ] && [ -s "$2/$3.csv" ]
    ' task "$bin" "$parts" || true

expected=$(list_captures | tr -cd '\0' | wc -c)
got=$(find "$parts" -name '*.csv' -size +0 | wc -l)
if [ "$got" -ne "$expected" ]; then
    echo "error: $got of $expected tasks wrote a table" >&2
    exit 1
fi

first=1
for part in $(find "$parts" -name '*.csv' | LC_ALL=C sort); do
    if [ $first -eq 1 ]; then
        cat "$part"
        first=0
    else
        tail -n +2 "$part"
    fi
done >"$out"
