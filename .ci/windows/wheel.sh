# Sourced by .ci/windows.sh after .ci/windows/toolchain.sh (it uses $target, $cargo_win
# and $target_dir): builds the Python package's Windows wheel with maturin, cross from
# Linux (abi3, so no Windows Python is needed: PyO3 0.30 links python3.dll by raw-dylib),
# in the Cargo profile `python` a user's wheel gets, and checks it with
# python/check_wheel.py: its cp39-abi3-win_amd64 tag, its metadata and licence file, the
# .pyd at most 15 MiB, exporting PyInit__framescope and importing only python3.dll and
# DLLs every Windows has.
#
# Not imported under Wine: no Windows CPython can be had from the registries this
# project's machines reach (docs/decisions.md, "The Windows wheel").
wheel_started=$SECONDS
echo "== windows: the Python wheel (maturin, $target, profile python)"
wheel_venv="$target_dir/wheel-venv"
[ -x "$wheel_venv/bin/maturin" ] || python3 -m venv "$wheel_venv"
"$wheel_venv/bin/python" -m pip install --quiet --disable-pip-version-check maturin==1.16.0
# maturin runs `cargo` from PATH: put the toolchain's own first (Debian's when rustup has
# no standard library for the target; its -Z flags follow as cargo options).
cargo_bin="$target_dir/wheel-cargo-bin"
mkdir -p "$cargo_bin"
ln -sf "$(command -v "${cargo_win[0]}")" "$cargo_bin/cargo"
wheel_out="$target_dir/wheels-win"
rm -rf "$wheel_out"
(cd crates/framescope-py && PATH="$cargo_bin:$PATH" CARGO_TARGET_DIR="$target_dir" \
    "$wheel_venv/bin/maturin" build --locked --target "$target" --profile python \
    "${cargo_win[@]:1}" --out "$wheel_out" --quiet)
python3 python/check_wheel.py "$wheel_out"/framescope-*-cp39-abi3-win_amd64.whl \
    --platform win_amd64 --stripped --objdump x86_64-w64-mingw32-objdump
echo "the Windows wheel took $((SECONDS - wheel_started)) s"
