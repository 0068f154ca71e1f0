"""The data API: open → Capture, typed reports, options checked as the command line
checks them (before any work), exceptions that fit Python, Arrow tables with integer
columns and snake_case names, progress and KeyboardInterrupt."""

from __future__ import annotations

import _thread
import subprocess
import sys
import threading
import time
from pathlib import Path

import polars as pl
import pyarrow as pa
import pytest

import framescope
from conftest import CAPTURES, REAL_TRACES, REPO, cli_json, needs_real

SAMPLE = str(REPO / "sample-traces" / "synthetic-run-a.csv")


def test_a_capture_and_its_report_are_typed_objects_with_the_clis_values():
    capture = framescope.open(SAMPLE)
    assert capture.format == "presentmon-2.4"
    assert [t.application for t in capture.traces] == ["SceneBench.exe"]
    assert capture.traces[0].reported and capture.traces[0].rows == 6280
    report = capture.analyze()
    (want,) = cli_json("report", "--json", SAMPLE)["runs"]
    assert report.run.frames == want["frames"] and type(report.run.frames) is int
    assert report.summary.avg_fps == want["summary"]["avg_fps"]
    assert report.stutters.count == want["stutters"]["count"] and type(report.stutters.count) is int
    assert report.run.run.frames == want["frames"]
    assert report.to_dict()["runs"][0] == want
    assert isinstance(report.summary, framescope.Figures)
    # Another setting, same capture: the figures change as the command line's do.
    strict = capture.analyze(target_fps=120, stutter_threshold="10%")
    (want10,) = cli_json("report", "--json", "--target-fps", "120", "--stutter-threshold", "10%", SAMPLE)["runs"]
    assert strict.run.to_dict() == want10


def test_the_stub_lists_every_figure_of_the_registry():
    from framescope import _figures_stub
    stub = (Path(framescope.__file__).parent / "__init__.pyi").read_text()
    begin, end = stub.index("# BEGIN figures"), stub.index("# END figures")
    assert stub[begin:end + len("# END figures\n")] == _figures_stub.stub()


def test_dir_lists_the_api_only():
    names = set(dir(framescope))
    assert {"open", "Capture", "Report", "FramescopeError", "frames", "batch"} <= names
    assert not names & {"Any", "Dict", "json", "os", "pl", "io"}


@pytest.mark.parametrize("option,value,message", [
    ("stutter_threshold", "50", "stutter_threshold: 50 is a fraction of 1 or more"),
    ("target_fps", 0, "target_fps: must be greater than 0, got 0"),
    ("frame_time", "gpu", "frame_time: 'gpu' is not a frame-time source"),
    ("max_skipped", 2, "max_skipped: 2.0 is more than 1 (100 %)"),
    ("extra_column", "gpu-time=x", "extra_column: goes with column"),
    ("trim_start", "x", "trim_start: 'x' is not a number"),
    ("unit", "hours", "unit: 'hours' is not one of s, ms, us, ns"),
])
def test_bad_options_are_refused_before_any_work_naming_the_option(option, value, message):
    # The file does not exist: the option is refused first.
    for call in (lambda: framescope.report("missing.csv", **{option: value}),
                 lambda: framescope.open("missing.csv", **{option: value}) if option in
                 ("max_skipped", "extra_column", "trim_start", "unit") else framescope.frames("missing.csv", **{option: value})):
        with pytest.raises(framescope.OptionError) as raised:
            call()
        assert str(raised.value).startswith(message), str(raised.value)
        assert raised.value.option == option and isinstance(raised.value, ValueError)
    with pytest.raises(framescope.OptionError, match="errors"):
        framescope.report("missing.csv", errors="bogus")
    with pytest.raises(TypeError):
        framescope.report(SAMPLE, bogus=1)


def test_percent_thresholds_work_as_on_the_command_line():
    a = framescope.report(SAMPLE, stutter_threshold="20%")
    assert a.run.to_dict() == framescope.report(SAMPLE, stutter_threshold=0.2).run.to_dict()


def test_exceptions_fit_python(tmp_path):
    with pytest.raises(FileNotFoundError) as raised:
        framescope.open(tmp_path / "nope.csv")
    assert isinstance(raised.value, framescope.CaptureNotFoundError)
    assert raised.value.path == str(tmp_path / "nope.csv") and raised.value.line is None
    with pytest.raises(framescope.CaptureNotFoundError):
        framescope.report(tmp_path / "nope.csv", errors="raise")
    bad = tmp_path / "bad.csv"
    bad.write_text("Application,ProcessID,MsBetweenPresents\n")
    for call in (lambda: framescope.open(bad), lambda: framescope.frames(bad),
                 lambda: framescope.report(bad, errors="raise")):
        with pytest.raises(framescope.CaptureError) as raised:
            call()
        assert isinstance(raised.value, ValueError) and raised.value.path == str(bad)
    # A folder: the same exception from frames and report.
    (tmp_path / "empty").mkdir()
    for call in (lambda: framescope.frames(tmp_path / "empty"),
                 lambda: framescope.report(tmp_path / "empty", errors="raise")):
        with pytest.raises(framescope.CaptureError):
            call()


def test_a_bad_line_is_named(tmp_path):
    bad = tmp_path / "bad-line.csv"
    lines = ["Application,ProcessID,SwapChainAddress,TimeInSeconds,MsBetweenPresents"]
    lines += [f"a.exe,1,0x1,{i / 100:.2f},10" for i in range(5)] + ["a.exe,1,0x1,0.05,10,1,2,3,4"]
    bad.write_text("\n".join(lines) + "\n")
    capture = framescope.open(bad)
    (warning,) = [w for w in capture.traces[0].warnings + capture.warnings if w.line]
    assert warning.line == 7
    with pytest.raises(framescope.CaptureError) as raised:
        framescope.open(bad, strict=True)
    assert raised.value.path == str(bad) and "--strict" in str(raised.value)
    framescope.open(bad, max_skipped="20%")  # 1 of 6 rows
    with pytest.raises(framescope.CaptureError, match="max-skipped"):
        framescope.open(bad, max_skipped="10%")


def test_frames_cross_as_arrow_with_integers_and_snake_case_names():
    capture = framescope.open(SAMPLE)
    df = capture.frames()
    cli = framescope.frames(SAMPLE)
    assert df.height == cli.height
    for name in ["SyncInterval", "PresentFlags", "AllowsTearing"]:
        snake = framescope.snake_case(name)
        assert df.schema[snake] == pl.Int64
        assert df[snake].to_list() == [None if v is None else int(v) for v in cli[name].to_list()]
    assert all(c == framescope.snake_case(c) for c in df.columns)
    # The name as written is kept in the Arrow field's metadata.
    table = pa.table(capture._native.frames(framescope._api._options(), "snake"))
    assert table.schema.field("ms_in_present_api").metadata == {b"framescope.name": b"MsInPresentAPI"}
    assert df["application"].unique().to_list() == ["SceneBench.exe"]
    assert df["frame_time_ms"].to_list() == cli["frame_time_ms"].to_list()


@needs_real
def test_trace_all_names_each_rows_application():
    path = REAL_TRACES / "presentmon-2x" / "pm-v2.5x_auxgold_test_case_10_Naraka_XeSS-FG.csv"
    capture = framescope.open(path, trace="all")
    df = capture.frames()
    reported = [t for t in capture.traces if t.reported]
    got = df.group_by("run", maintain_order=True).agg(pl.col("application").first(), pl.len())
    assert got["application"].to_list() == [t.application for t in reported]
    assert got["len"].to_list() == [t.rows for t in reported]


@needs_real
def test_the_analysed_frames_are_the_reports():
    path = REAL_TRACES / "presentmon-2x" / "pm-v2.5x_auxgold_test_case_10_Naraka_XeSS-FG.csv"
    capture = framescope.open(path)
    report = capture.analyze()
    every = capture.frames()
    analysed = capture.frames(analysed_only=True)
    assert analysed.height == report.run.frames < every.height
    fps = 1000 * analysed.height / analysed["analysed_frame_time_ms"].sum()
    assert fps == pytest.approx(report.summary.avg_fps, rel=1e-9)


def test_batch_in_snake_case_keeps_the_values():
    cli_names = framescope.batch(str(REPO / "sample-traces"))
    snake = framescope.batch(str(REPO / "sample-traces"), naming="snake")
    assert snake.columns == [framescope.snake_case(c) for c in cli_names.columns]
    assert snake.rename(dict(zip(snake.columns, cli_names.columns))).equals(cli_names, null_equal=True)


def test_progress_is_reported():
    seen = []
    framescope.batch(str(REPO / "sample-traces"), workers=1, progress=lambda done, total: seen.append((done, total)))
    total = len(framescope.captures(str(REPO / "sample-traces")))
    assert seen[-1] == (total, total)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


@needs_real
def test_keyboard_interrupt_stops_a_batch_within_a_second():
    # 30 passes over the real captures: about 5 s uninterrupted in the release build (3
    # passes took 0.48 s there, finished before the interrupt came, and the late
    # KeyboardInterrupt then stopped pytest itself).
    paths = [str(p) for p in CAPTURES] * 30
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            framescope.batch(paths, workers=1)
    finally:
        timer.cancel()
    assert time.monotonic() - start < 1.5


def test_stubs_refuse_a_wrong_option(tmp_path):
    mypy = pytest.importorskip("mypy.api")
    bad = tmp_path / "bad.py"
    bad.write_text("import framescope\nframescope.open('a.csv').analyze(frame_time='gpu')\n")
    out, _, status = mypy.run(["--strict", str(bad)])
    assert status == 1 and "frame_time" in out, out


def test_the_clis_parquet_reads_in_polars_pyarrow_and_duckdb(tmp_path):
    import duckdb
    import pyarrow.parquet as pq
    from conftest import cli
    out = tmp_path / "frames.parquet"
    cli("frames", SAMPLE, "-o", str(out), check_codes=(0,))
    want = framescope.frames(SAMPLE)
    assert pl.read_parquet(out).equals(want, null_equal=True)
    assert pl.from_arrow(pq.read_table(out)).equals(want, null_equal=True)
    ((rows, total),) = duckdb.sql(f"SELECT count(*), sum(frame_time_ms) FROM read_parquet('{out}')").fetchall()
    assert (rows, total) == (want.height, pytest.approx(want["frame_time_ms"].sum()))
    # Every float column's statistics are in the type-defined order, which readers
    # older than parquet-format 2.11 know (polars before 1.43 refused the file).
    meta = pq.ParquetFile(out).metadata
    assert meta.row_group(0).column(want.columns.index("frame_time_ms")).statistics.has_min_max


def test_a_comparison_is_typed_and_equals_the_clis():
    b = str(REPO / "sample-traces" / "synthetic-run-b.csv")
    cmp = framescope.compare(SAMPLE, b, fail_if_worse="summary.avg_fps=3%")
    want = cli_json("compare", "--json", "--fail-if-worse", "summary.avg_fps=3%", SAMPLE, b, check_codes=(3,))
    assert cmp.to_dict() == want
    assert [r.file for r in cmp.runs] == [SAMPLE, b] and isinstance(cmp.runs[0], framescope.Run)
    assert cmp.sets is None and isinstance(cmp.regressions, list)
    sets = framescope.compare([SAMPLE, SAMPLE], [b, b])
    assert sets.sets is not None and sets.regressions == []


def test_compare_reports_its_progress_and_history_names_in_snake_case(tmp_path):
    b = str(REPO / "sample-traces" / "synthetic-run-b.csv")
    seen = []
    framescope.compare(SAMPLE, b, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(2, 2)]
    from conftest import cli
    db = tmp_path / "h.sqlite"
    cli("history", "add", str(db), SAMPLE, "--build", "b1", check_codes=(0,))
    plain, snake = framescope.history(db), framescope.history(db, naming="snake")
    assert snake.columns == [framescope.snake_case(c) for c in plain.columns]
    assert snake["summary_avg_fps"].to_list() == plain["summary.avg_fps"].to_list()


def test_a_missing_section_gives_none_figures(tmp_path):
    (run,) = framescope.report(tmp_path / "nope.csv").runs
    assert run.failed and run.error.message.startswith(str(tmp_path / "nope.csv"))
    assert "summary" not in run and run.summary.avg_fps is None
    assert type(run.summary).__name__ == "SummaryFigures" and run.capframex.average_fps is None
    ok = framescope.open(SAMPLE).analyze().run
    # No generated frames: the JSON's frame_types is null, its figures None.
    assert ok["frame_types"] is None and ok.frame_types.generated_fps is None
    assert ok.capframex.average_fps == ok["conventions"]["capframex"]["average_fps"] > 0
