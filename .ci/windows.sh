#!/usr/bin/env bash
# Windows: cross-builds framescope.exe for x86_64-pc-windows-gnu, builds every test as
# a Windows program and runs it under Wine (the real captures in ../shared mandatory,
# as on Linux), takes a screenshot of the window under Wine + Xvfb and checks it, and
# builds and checks the Python package's Windows wheel (.ci/windows/wheel.sh).
# Called by .ci/run; runs on its own too (bash .ci/windows.sh). Debian/Ubuntu, as root
# or via sudo for the packages.
# The toolchain: .ci/windows/toolchain.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

target_dir="${CARGO_TARGET_DIR:-target}"
mkdir -p "$target_dir"
target_dir="$(cd "$target_dir" && pwd)"
export CARGO_TERM_COLOR=never
export FRAMESCOPE_REQUIRE_SHARED=1
export CARGO_INCREMENTAL=0
started=$SECONDS

echo "== windows: toolchain and packages (MinGW-w64, Wine, Xvfb)"
# shellcheck source=windows/toolchain.sh
source .ci/windows/toolchain.sh
install wine64 xvfb xauth
wine=/usr/lib/wine/wine64
[ -x "$wine" ] || wine="$(command -v wine64)"

echo "== windows: cargo clippy for $target (-D warnings: the Windows-only code)"
"${cargo_win[@]}" clippy --locked --workspace --all-targets --target "$target" -- -D warnings

echo "== windows: build the tests and framescope.exe ($target, debug)"
build_started=$SECONDS
list="$target_dir/windows-tests.txt"
"${cargo_win[@]}" test --locked --no-run --target "$target" --message-format=json-render-diagnostics \
    | python3 -c '
import json, os, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["profile"]["test"] and m.get("executable"):
        print(os.path.dirname(m["manifest_path"]) + "\t" + m["executable"])
' >"$list"
exe="$target_dir/$target/debug/framescope.exe"
[ -f "$exe" ] || { echo "error: $exe was not built" >&2; exit 1; }
echo "built $(wc -l <"$list") test programs and framescope.exe in $((SECONDS - build_started)) s"

echo "== windows: Wine prefix"
export WINEPREFIX="$target_dir/wine-prefix" WINEDEBUG=-all WINEARCH=win64
# No Mono or Gecko install prompt; the stand-in bcryptprimitives.dll (ProcessPrng, which
# Rust's std imports and Wine 8 lacks) is preferred to any built-in one.
export WINEDLLOVERRIDES="mscoree=;mshtml=;bcryptprimitives=n"
if [ ! -f "$WINEPREFIX/system.reg" ]; then
    "$wine" wineboot --init </dev/null >/dev/null 2>&1 || true
    "${wine%64}server64" -w 2>/dev/null || wineserver -w 2>/dev/null || true
fi
dll="$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
x86_64-w64-mingw32-gcc -O2 -shared -o "$dll" .ci/windows/processprng.c .ci/windows/processprng.def -ladvapi32
"$wine" cmd /c ver </dev/null 2>/dev/null | tr -d '\r' | grep -v '^$' || true

echo "== windows: every test under Wine"
tests_started=$SECONDS
failed=()
while IFS=$'\t' read -r dir test_exe; do
    name="$(basename "$test_exe")"
    log="$target_dir/windows-test-${name%.exe}.log"
    # As `cargo test` runs them: from the package's folder, its manifest dir set.
    # One program holds all the window tests (tests/window), another the rest: 40 min each
    # at most (the whole Windows step took 7-10 min).
    run_test() { (cd "$dir" && CARGO_MANIFEST_DIR="$dir" timeout 2400 "$wine" "$test_exe" </dev/null >"$log" 2>&1); }
    ok=0
    run_test && ok=1
    # Wine itself (not the program) sometimes fails on a busy machine: it cannot start a
    # child process (`Os { code: 1359, .. "Internal error." }` from CreateProcess, seen
    # once in 56 programs), or the program loses its wineserver before any test ran
    # (`wine client error:0: recvmsg: Connection reset by peer` and nothing else, seen
    # twice in a 0-test program). Only those failures are run again, once, and said.
    wine_failed() {
        grep -a -q 'code: 1359' "$log" \
            || { grep -a -q '^wine client error' "$log" && ! grep -a -q '^test result' "$log"; }
    }
    if [ "$ok" -eq 0 ] && wine_failed; then
        why="$(grep -a -o -m1 -E 'code: 1359|wine client error.*' "$log" | tr -d '\r')"
        echo "again  $name: Wine failed, not the tests ($why); running it once more"
        run_test && ok=1
    fi
    if [ "$ok" -eq 1 ]; then
        summary="$(grep -a '^test result' "$log" | tr -d '\r' | tail -1)"
        echo "ok     $name: $summary"
    else
        echo "FAILED $name (log: $log)"
        grep -a -E '^(test .* FAILED|failures:|---- )' "$log" | tr -d '\r' | head -40 || true
        failed+=("$name")
    fi
done <"$list"
echo "tests under Wine took $((SECONDS - tests_started)) s"
if [ ${#failed[@]} -gt 0 ]; then
    echo "error: ${#failed[@]} test program(s) failed under Wine: ${failed[*]}" >&2
    exit 1
fi

echo "== windows: framescope.exe report, exit status and redirected output"
out="$(cd sample-traces && "$wine" "$exe" report synthetic-run-a.csv --format json </dev/null 2>/dev/null | tr -d '\r')"
grep -q '"frames"' <<<"$out" || { echo "error: report printed no JSON: ${out:0:300}" >&2; exit 1; }
status=0
"$wine" "$exe" report no-such-file.csv </dev/null >/dev/null 2>&1 || status=$?
[ "$status" -eq 1 ] || { echo "error: a missing file gave exit status $status, expected 1" >&2; exit 1; }

echo "== windows: the window under Wine + Xvfb (--screenshot)"
png="$target_dir/windows-window.png"
rm -f "$png"
# A wineserver started without a display keeps none: end it so the window finds Xvfb's.
"${wine%64}server64" -k 2>/dev/null || wineserver -k 2>/dev/null || true
xvfb-run -a -s "-screen 0 1400x900x24" \
    timeout 300 "$wine" "$exe" --screenshot "$png" --convention frameview </dev/null >/dev/null 2>&1 || true
"${wine%64}server64" -k 2>/dev/null || wineserver -k 2>/dev/null || true
[ -f "$png" ] || { echo "error: the Windows window saved no screenshot" >&2; exit 1; }
python3 .ci/windows/check_png.py "$png" 1400 900

# The Python package's Windows wheel, cross-built in this target folder (measured: 5.6
# CPU-minutes, 486 s at a load of 5-6 on this 2-core machine; the release build of the
# dependencies is not shared with the debug tests above).
# shellcheck source=windows/wheel.sh
source .ci/windows/wheel.sh

echo "windows step: $((SECONDS - started)) s in all"
