"""framescope.frames: a row per frame (per sample for sampled logs), whose flags count
what the report counts, on every real capture; the CLI's `frames` file holds the same
table."""

from __future__ import annotations

import duckdb
import polars as pl
import pytest

import framescope
from conftest import CAPTURES, REAL_TRACES, REPO, capture_ids, cli, needs_real


def trues(df: pl.DataFrame, column: str) -> int:
    return int(df[column].fill_null(False).sum())


@needs_real
@pytest.mark.parametrize("path", CAPTURES, ids=capture_ids(CAPTURES))
def test_frames_count_what_the_report_counts(path):
    (run,) = framescope.report([str(path)])["runs"]
    if "error" in run:
        # A file the report cannot read (a FrameView summary file) raises the same message.
        with pytest.raises(framescope.FramescopeError) as raised:
            framescope.frames(str(path))
        assert str(raised.value) == run["error"]["message"]
        return
    df = framescope.frames(str(path))
    # Each frame's limiter class (metrics.md §13) counts the report's classified frames.
    classified = df["limiter"].drop_nulls()
    if run["limiter"] is None:
        assert classified.len() == 0
    else:
        assert classified.len() == run["limiter"]["classified_frames"]
        assert set(classified.unique().to_list()) <= {"gpu", "cpu", "neither"}
    if run["sampled"]:
        # A sample stands for rate · Δt / 1000 frames; the report's frames is round(W),
        # half to even (Python's round).
        assert df.height == run["samples"]
        assert round(df["weight"].sum()) == run["frames"]
        assert df["stutter"].null_count() == df.height, "no per-frame flags for samples"
        return
    assert trues(df, "analysed") == run["frames"]
    assert df.height >= run["frames"]
    if run["dropped_frames"] is not None:
        assert trues(df, "dropped") == run["dropped_frames"]
    stutters = run["stutters"]
    if stutters is None:
        return
    assert trues(df, "stutter") == stutters["count"]
    flagged = df.filter(pl.col("stutter").fill_null(False))["series_index"].to_list()
    assert flagged == stutters["frames"]
    assert trues(df, "oscillating") == run["osc"]["oscillating_frames"]
    for action, frames in run["health"]["spikes"].items():
        assert trues(df, f"spike.{action}") == len(frames), action
    spiked = set().union(*[set(f) for f in run["health"]["spikes"].values()])
    assert trues(df, "spike") == len(spiked)
    # The frame times the analysis used sum to the report's T.
    assert df["analysed_frame_time_ms"].sum() == pytest.approx(run["duration_ms"], rel=1e-12)


@needs_real
def test_frames_of_a_frame_generation_capture_keep_every_frame():
    path = REAL_TRACES / "presentmon-2x" / "pm-v2.5x_auxgold_test_case_10_Naraka_XeSS-FG.csv"
    (run,) = framescope.report([str(path)])["runs"]
    df = framescope.frames(str(path))
    assert run["frame_time"] == "display"
    assert df.filter(pl.col("generated"))["frame_type"].unique().to_list() == ["Intel XeSS-FG"]
    # Dropped frames are rows, not in the analysed (display) series.
    assert df.filter(pl.col("dropped") & pl.col("analysed")).height == 0
    assert df.height > run["frames"]


@needs_real
def test_the_cli_frames_file_is_the_same_table(tmp_path):
    path = REAL_TRACES / "frameview" / "FrameView_AlanWake2_DLSSQuality_run1_2024_04_16T234455_Log.csv"
    out = tmp_path / "frames.parquet"
    cli("frames", str(path), "-o", str(out), check_codes=(0,))
    df = framescope.frames(str(path))
    assert pl.read_parquet(out).equals(df, null_equal=True)
    from_duck = duckdb.sql(f"SELECT * FROM read_parquet('{out}')").pl()
    assert from_duck.columns == df.columns
    assert from_duck.equals(df, null_equal=True)
    # The CSV form has the same rows and values.
    csv = pl.read_csv(cli("frames", str(path)).stdout, infer_schema_length=None)
    assert csv.height == df.height
    assert csv["frame_time_ms"].to_list() == df["frame_time_ms"].to_list()
    assert csv["stutter"].to_list() == df["stutter"].to_list()
    # pandas works too (through pyarrow).
    pdf = df.to_pandas()
    assert len(pdf) == df.height and int(pdf["stutter"].sum()) == trues(df, "stutter")


def test_trim_applies_to_frames_as_to_the_report():
    sample = str(REPO / "sample-traces" / "synthetic-run-a.csv")
    whole = framescope.frames(sample)
    cut = framescope.frames(sample, trim_start=2.0, trim_end=1.0)
    (run,) = framescope.report([sample], trim_start=2.0, trim_end=1.0)["runs"]
    assert trues(cut, "analysed") == run["frames"] < whole.height
    # Only frames that start at least 2 s after the first one are left.
    assert cut["time_ms"].min() >= whole["time_ms"].min() + 2000.0
    assert trues(cut, "stutter") == run["stutters"]["count"]


SAMPLE = str(REPO / "sample-traces" / "synthetic-run-a.csv")
MULTI = str(REPO / "sample-traces" / "pm-1.x_GhostReconBreakpoint_dwm_firefox_multiproc_qpc.csv")


def test_frames_columns_builds_only_those_in_the_tables_order():
    capture = framescope.open(SAMPLE)
    full = capture.frames()
    two = capture.frames(columns=["frame_time_ms", "swap_chain"])
    assert two.columns == ["swap_chain", "frame_time_ms"]
    assert two.equals(full.select("swap_chain", "frame_time_ms"))
    analysed = capture.frames(columns=["frame_time_ms"], analysed_only=True)
    assert analysed.columns == ["frame_time_ms"]
    assert analysed.equals(full.filter(pl.col("analysed")).select("frame_time_ms"))
    # No columns: the rows' count crosses too, but polars 1.10 drops it (0 × 0).
    assert capture.frames(columns=[]).width == 0
    with pytest.raises(framescope.OptionError, match='columns: the table has no column "nope"') as e:
        capture.frames(columns=["nope"])
    assert e.value.option == "columns"


@pytest.mark.parametrize("path,trace", [(SAMPLE, "default"), (MULTI, "all")], ids=["one-trace", "all-traces"])
def test_scan_frames_is_frames_with_the_query_pushed_down(path, trace):
    full = framescope.open(path, trace=trace).frames()
    assert full["run"].n_unique() > 1 or trace == "default"
    lazy = framescope.scan_frames(path, trace=trace)
    assert lazy.collect_schema() == full.schema
    assert lazy.collect().equals(full)
    # The trace columns, inserted after `run`, and a capture column, alone.
    picked = ["process_id", "application", "frame_time_ms"]
    assert lazy.select(picked).collect().equals(full.select(picked))
    # A filter on a column the query does not return, and a row limit.
    got = lazy.filter(pl.col("analysed") & (pl.col("frame_time_ms") > 10)).select("frame_time_ms").collect()
    assert got.equals(full.filter(pl.col("analysed") & (pl.col("frame_time_ms") > 10)).select("frame_time_ms"))
    assert lazy.head(7).collect().equals(full.head(7))
    assert framescope.scan_frames(path, trace=trace, analysed_only=True).select(pl.len()).collect().item() \
        == full["analysed"].sum()


def test_scan_frames_reads_the_file_when_called():
    with pytest.raises(framescope.CaptureNotFoundError):
        framescope.scan_frames(str(REPO / "sample-traces" / "no-such-file.csv"))
    with pytest.raises(framescope.OptionError):
        framescope.scan_frames(SAMPLE, stutter_threshold="50")
