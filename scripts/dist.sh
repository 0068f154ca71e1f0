#!/usr/bin/env bash
# Downloadable builds: release builds for Linux and Windows (x86_64), each stripped of
# its debug info (kept beside the archives as a separate symbols file, linked by
# .gnu_debuglink), packed with the README, framescope's LICENSE and the licence notices of
# every bundled package:
#   dist/framescope-VERSION-linux-x86_64.tar.gz
#   dist/framescope-VERSION-windows-x86_64.zip
#   dist/SHA256SUMS
#   dist/symbols/framescope-VERSION-{linux,windows}-x86_64.debug (not for download)
# Usage: bash scripts/dist.sh (Debian/Ubuntu; the Windows toolchain as in .ci/windows.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
target_dir="${CARGO_TARGET_DIR:-target}"
version="$(cargo metadata --locked --no-deps --format-version 1 \
    | python3 -c 'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "framescope"))')"
dist="$PWD/dist"
rm -rf "$dist"
mkdir -p "$dist/symbols"
staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT

# shellcheck source=../.ci/windows/toolchain.sh
source .ci/windows/toolchain.sh
install zip

# pack OS BINARY OBJCOPY RUST_TARGET: strips BINARY into the staging folder with the README and the
# licences, and keeps its debug info as dist/symbols/NAME.debug.
pack() {
    local os="$1" binary="$2" objcopy="$3" rust_target="$4"
    local name="framescope-$version-$os-x86_64"
    local folder="$staging/$name" file
    file="$(basename "$binary")"
    mkdir -p "$folder"
    "$objcopy" --only-keep-debug "$binary" "$dist/symbols/$name.debug"
    "$objcopy" --strip-all --add-gnu-debuglink="$dist/symbols/$name.debug" "$binary" "$folder/$file"
    cp README.md "$folder/README.md"
    cp LICENSE "$folder/LICENSE"
    python3 scripts/licenses.py "$rust_target" "$folder/THIRD-PARTY-LICENSES.txt" >/dev/null
    echo "$name: $(du -h "$folder/$file" | cut -f1) stripped ($(du -h "$binary" | cut -f1) built)"
}

echo "== release build: Linux"
cargo build --locked --release
pack linux "$target_dir/release/framescope" objcopy x86_64-unknown-linux-gnu
(cd "$staging" && tar --owner=0 --group=0 -czf "$dist/framescope-$version-linux-x86_64.tar.gz" \
    "framescope-$version-linux-x86_64")

echo "== release build: Windows"
"${cargo_win[@]}" build --locked --release --target "$target"
pack windows "$target_dir/$target/release/framescope.exe" x86_64-w64-mingw32-objcopy "$target"
# Windows users read text files in Notepad: CRLF line ends for the text files.
for text in README.md LICENSE THIRD-PARTY-LICENSES.txt; do
    sed -i 's/\r\?$/\r/' "$staging/framescope-$version-windows-x86_64/$text"
done
(cd "$staging" && zip -q -r -9 -X "$dist/framescope-$version-windows-x86_64.zip" \
    "framescope-$version-windows-x86_64")

(cd "$dist" && sha256sum ./*.tar.gz ./*.zip | sed 's| \./| |' >SHA256SUMS && cat SHA256SUMS)
ls -l "$dist"
