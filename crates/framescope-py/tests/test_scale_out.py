"""The scale-out examples: examples/dask_batch.py on a 2-worker LocalCluster, and
examples/cli_map.sh (the CLI as a map task with xargs -P), each give the table
`framescope report --format csv` gives over the same folder."""

from __future__ import annotations

import importlib.util
import os
import subprocess

import polars as pl

import framescope
from conftest import CAPTURES, REAL_TRACES, REPO, binary, cli, needs_real

EXAMPLES = REPO / "examples"


def load_example():
    spec = importlib.util.spec_from_file_location("dask_batch", EXAMPLES / "dask_batch.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def folder_of_captures(tmp_path):
    """The real captures (not the etl folder) as links in one folder tree, with a
    corrupt file among them."""
    root = tmp_path / "captures"
    for p in CAPTURES:
        link = root / p.relative_to(REAL_TRACES)
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(p)
    (root / "corrupt.csv").write_bytes(b"\x00\xffnot a capture\n")
    return root


def cli_csv(folder) -> pl.DataFrame:
    """`report --format csv FOLDER`, every cell as text."""
    return pl.read_csv(cli("report", "--format", "csv", "--progress", "never", str(folder)).stdout,
                       infer_schema=False)


def assert_same_rows(typed: pl.DataFrame, text: pl.DataFrame) -> None:
    """The typed table's values equal the CSV's cells, read with the column's type."""
    typed, text = typed.sort("file"), text.sort("file")
    assert typed.columns == text.columns == framescope.RUN_COLUMNS
    assert typed.height == text.height
    for column in typed.columns:
        dtype = typed.schema[column]
        if dtype == pl.String:
            # A CSV cannot tell an empty text ("no health actions") from a null.
            typed = typed.with_columns(pl.col(column).replace("", None))
        if dtype == pl.Boolean:
            cells = text[column].replace_strict({"true": True, "false": False}, default=None,
                                                return_dtype=pl.Boolean)
        else:
            cells = text[column].cast(dtype)
        assert typed[column].equals(cells, null_equal=True) or typed[column].to_list() == cells.to_list(), column


@needs_real
def test_dask_example_on_a_two_worker_local_cluster_equals_the_cli_csv(tmp_path):
    folder = folder_of_captures(tmp_path)
    out = tmp_path / "runs.parquet"
    table = load_example().run(str(folder), str(out), workers=2)
    written = pl.read_parquet(out)
    assert written.equals(table, null_equal=True)
    assert written["file"].to_list() == framescope.captures(str(folder)), "in the order the CLI lists them"
    text = cli_csv(folder)
    assert_same_rows(written, text)
    # The corrupt file (and the FrameView summary file among the captures) are error rows.
    errors = written.filter(pl.col("error.message").is_not_null())["file"].to_list()
    assert str(folder / "corrupt.csv") in errors
    assert errors == text.filter(pl.col("error.message").is_not_null())["file"].to_list()


@needs_real
def test_cli_map_example_equals_the_cli_csv(tmp_path):
    folder = folder_of_captures(tmp_path)
    out = tmp_path / "runs.csv"
    env = dict(os.environ, FRAMESCOPE=str(binary()))
    subprocess.run(["bash", str(EXAMPLES / "cli_map.sh"), str(folder), str(out), "2"], check=True, env=env,
                   timeout=600)
    mapped = pl.read_csv(out, infer_schema=False)
    whole = cli_csv(folder)
    assert mapped.sort("file").equals(whole.sort("file"), null_equal=True)
