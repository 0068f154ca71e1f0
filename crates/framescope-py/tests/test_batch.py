"""framescope.batch and `report --format parquet`: a row per run with the JSON's values
and types, read back through polars and DuckDB; a corrupt file is an error row, never
an exception."""

from __future__ import annotations

import shutil
from typing import Any, Dict

import duckdb
import polars as pl
import pytest

import framescope
from conftest import CAPTURES, cli, cli_json, needs_real


def expected_cell(run: Dict[str, Any], column: str) -> Any:
    """The value the runs table must hold for a run of the JSON report."""
    if "error" not in run:
        if column == "warnings":
            return len(run["warnings"])
        if column == "present_modes":
            return "; ".join(run["present_modes"])
        if column == "health.spikes":
            spikes = (run.get("health") or {}).get("spikes")
            return None if run.get("health") is None else "; ".join(f"{k}={len(v)}" for k, v in spikes.items())
    value: Any = run
    for key in column.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value


def assert_table_equals_json(table: pl.DataFrame, runs: list) -> None:
    assert table.columns == framescope.RUN_COLUMNS
    assert table.height == len(runs)
    for row, run in zip(table.iter_rows(named=True), runs):
        for column in framescope.RUN_COLUMNS:
            want, got = expected_cell(run, column), row[column]
            assert got == want, f"{run['file']}: {column}: {got!r} != {want!r}"
            if want is not None:
                # Same kind: whole numbers stay whole, flags stay booleans.
                assert type(got) is type(want), f"{column}: {type(got)} vs {type(want)}"


@needs_real
def test_report_parquet_equals_the_json_through_polars_and_duckdb(tmp_path):
    paths = [str(p) for p in CAPTURES]
    out = tmp_path / "runs.parquet"
    # Exit 1: the FrameView summary file among them is an error row.
    cli("report", "--format", "parquet", "-o", str(out), *paths, check_codes=(1,))
    runs = cli_json("report", "--json", *paths)["runs"]
    assert_table_equals_json(pl.read_parquet(out), runs)
    assert_table_equals_json(duckdb.sql(f"SELECT * FROM read_parquet('{out}')").pl(), runs)
    # pandas through pyarrow reads the same rows.
    assert len(pl.read_parquet(out).to_pandas()) == len(runs)
    # framescope.batch gives the same table in memory.
    assert pl.read_parquet(out).equals(framescope.batch(paths), null_equal=True)


@needs_real
def test_a_batch_with_a_corrupt_file_keeps_every_other_row(tmp_path):
    picked = CAPTURES[:: max(1, len(CAPTURES) // 6)][:6]
    for p in picked:
        shutil.copy(p, tmp_path / p.name)
    (tmp_path / "zz-corrupt.csv").write_bytes(b"\x00\xff\xfe garbage\n\x01\x02,\x03\n" * 50)
    (tmp_path / "aa-truncated.csv").write_text("Application,ProcessID,MsBetweenPresents\n")
    table = framescope.batch(str(tmp_path), workers=2)
    good = framescope.batch([str(tmp_path / p.name) for p in picked])
    errors = table.filter(pl.col("error.message").is_not_null())
    assert sorted(errors["file"].to_list()) == [str(tmp_path / "aa-truncated.csv"), str(tmp_path / "zz-corrupt.csv")]
    for message, file in zip(errors["error.message"], errors["file"]):
        assert file.rsplit("/", 1)[1] in message
    assert errors["summary.avg_fps"].null_count() == 2
    rest = table.filter(pl.col("error.message").is_null()).sort("file")
    assert rest.equals(good.sort("file"), null_equal=True)
    # The CLI's CSV over the same folder has the same rows (it exits 1 for the bad files).
    csv = pl.read_csv(cli("report", "--format", "csv", str(tmp_path)).stdout, infer_schema=False)
    assert csv["file"].to_list() == table["file"].to_list()


def test_batch_workers_must_be_positive(tmp_path):
    with pytest.raises(ValueError):
        framescope.batch(str(tmp_path), workers=0)
