#!/usr/bin/env bash
# The Python package's tests (crates/framescope-py): a fresh virtual environment under
# the Cargo target folder, the package built and installed from the repository with the
# README's one command, then pytest (tests compare against the debug `framescope`
# binary, built here if missing). Needs python3 with venv and pip, and the package
# registries (PyPI for maturin, polars, pandas, pyarrow, duckdb, dask).
#
#   python/ci.sh            # from anywhere; honours CARGO_TARGET_DIR
#
# FRAMESCOPE_REQUIRE_SHARED=1 makes a missing ../shared/real-traces a failure.
# FRAMESCOPE_PY_PROFILE (default dev; `python` is the stripped release build a wheel gets) is the Cargo profile the package is built with:
# dev reuses what `cargo test` already compiled (a release build of PyO3, arrow and
# parquet costs about 280 CPU-seconds more); release is what a user's `pip install` gets.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
venv="$CARGO_TARGET_DIR/pyvenv-ci"

echo "== python: fresh venv at $venv"
start=$(date +%s)
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    maturin==1.16.0 pytest==9.2.0 polars==2.1.0 pandas==3.1.1 pyarrow==26.0.1 duckdb==2.0.1 \
    dask==2026.8.0 distributed==2026.8.0 mypy==2.4.1 pyright==1.1.414 tqdm

profile="${FRAMESCOPE_PY_PROFILE:-dev}"
echo "== python: pip install ./crates/framescope-py (the README's command; Cargo profile $profile)"
rm -rf "$CARGO_TARGET_DIR/wheels-ci"
(cd "$repo" && MATURIN_PEP517_ARGS="--profile $profile --locked" \
    "$venv/bin/python" -m pip wheel --quiet --disable-pip-version-check --no-deps \
    -w "$CARGO_TARGET_DIR/wheels-ci" ./crates/framescope-py)
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$CARGO_TARGET_DIR"/wheels-ci/framescope-*.whl
"$venv/bin/python" -c "import framescope; print('framescope', framescope.__version__)"

echo "== python: the wheel (python/check_wheel.py: manylinux abi3 tag, metadata, licence file, libraries; stripped under the python profile)"
stripped=()
[ "$profile" = python ] && stripped=(--stripped)
python3 "$repo/python/check_wheel.py" "$CARGO_TARGET_DIR"/wheels-ci/framescope-*.whl --platform manylinux \
    ${stripped[@]+"${stripped[@]}"}

echo "== python: the CLI binary the tests compare with"
cargo build --locked --quiet --manifest-path "$repo/Cargo.toml" --bin framescope
export FRAMESCOPE_BIN="$CARGO_TARGET_DIR/debug/framescope"

echo "== python: mypy --strict on the stubs and a user's script"
cd "$repo/crates/framescope-py"
"$venv/bin/python" -m mypy --strict python/framescope/__init__.pyi tests/typing/use_api.py
echo "== python: pyright on the same (it fetches its engine from the npm registry)"
"$venv/bin/pyright" --pythonpath "$venv/bin/python" python/framescope/__init__.pyi tests/typing/use_api.py

echo "== python: pytest"
"$venv/bin/python" -m pytest -q -p no:cacheprovider tests

# The declared lower bounds (pyproject.toml): polars 1.10 (the Arrow PyCapsule import),
# pandas 2.0 / pyarrow 15 (the `pandas` extra), with the package built above: the whole
# suite, the command line's Parquet files read by polars, pyarrow and DuckDB included.
echo "== python: minimum versions"
min="$CARGO_TARGET_DIR/pyvenv-min"
rm -rf "$min"
python3 -m venv "$min"
"$min/bin/python" -m pip install --quiet --disable-pip-version-check \
    polars==1.10.0 "numpy<2" pandas==2.0.3 pyarrow==15.0.2 pytest==9.2.0 duckdb==2.0.1 dask==2024.12.1 \
    distributed==2024.12.1 tqdm==4.60.0
"$min/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps "$(ls "$CARGO_TARGET_DIR"/wheels-ci/framescope-*.whl)"
"$min/bin/python" -m pytest -q -p no:cacheprovider tests -k "not stubs_refuse"
echo "python tests took $(( $(date +%s) - start )) s"
