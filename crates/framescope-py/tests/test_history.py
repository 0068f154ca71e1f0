"""framescope.history: a row per stored run of a history, equal to what
`framescope history export --format csv` writes (issue 37)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import framescope
from conftest import REPO, cli

SAMPLES = [
    REPO / "sample-traces" / "pm-v2.4plus_gold_test_case_5_default_pcl.csv",
    REPO / "sample-traces" / "pm-v2.0.0_gold_test_case_0_qpc.csv",
]


def test_history_rows_equal_the_export(tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    cli("history", "add", str(db), "--build", "1", "--commit", "abc", str(SAMPLES[0]), check_codes=(0,))
    cli("history", "add", str(db), "--build", "2", "--time", "2026-11-29T06:30:00Z", str(SAMPLES[1]),
        check_codes=(0,))
    df = framescope.history(db)
    assert df.height == 2
    assert df["build"].to_list() == ["1", "2"]
    assert df["commit"].to_list() == ["abc", None]
    assert df["time"].to_list() == [None, "2026-11-29T06:30:00Z"]
    assert df.schema["summary.avg_fps"] == pl.Float64 and df.schema["frames"] == pl.Int64
    csv = tmp_path / "h.csv"
    cli("history", "export", str(db), "--format", "csv", "-o", str(csv), check_codes=(0,))
    exported = pl.read_csv(csv, infer_schema_length=0)
    assert exported.columns == df.columns
    for col in ("summary.avg_fps", "summary.p99_ms"):
        assert [float(v) for v in exported[col].to_list()] == df[col].to_list()


def test_a_missing_history_raises(tmp_path: Path) -> None:
    with pytest.raises(framescope.FramescopeError, match="no such history"):
        framescope.history(tmp_path / "none.db")
