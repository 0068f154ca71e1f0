"""framescope.report and framescope.compare give the command line's JSON documents
exactly, on every real capture; errors name the file and line."""

from __future__ import annotations

import json

import pytest

import framescope
import gzip
import shutil

from conftest import CAPTURES, ETL_CAPTURES, REAL_TRACES, capture_ids, cli_json, needs_real


@needs_real
@pytest.mark.parametrize("path", CAPTURES, ids=capture_ids(CAPTURES))
def test_report_equals_the_cli_json(path):
    expected = cli_json("report", "--json", str(path))
    got = framescope.report([str(path)])
    assert got == expected
    # Same types too (1 and 1.0 compare equal in Python): the JSON text is identical.
    assert json.dumps(got, sort_keys=True) == json.dumps(expected, sort_keys=True)


@needs_real
@pytest.mark.parametrize("path", ETL_CAPTURES, ids=capture_ids(ETL_CAPTURES))
def test_an_etl_report_equals_the_cli_json(path):
    # The package and the command line share one pipeline: an .etl is summarised (what
    # it holds, its PCL markers), not failed as an unreadable capture.
    expected = cli_json("report", "--json", str(path))
    got = framescope.report([str(path)])
    assert got == expected
    assert "error" not in got["runs"][0], got["runs"][0]


@needs_real
def test_a_gzip_capture_in_a_folder_is_read_as_the_command_line_reads_it(tmp_path):
    source = REAL_TRACES / "mangohud" / sorted(p.name for p in (REAL_TRACES / "mangohud").glob("*.csv"))[0]
    with open(source, "rb") as plain, gzip.open(tmp_path / (source.name + ".gz"), "wb") as packed:
        shutil.copyfileobj(plain, packed)
    got = framescope.report(str(tmp_path))
    assert got == cli_json("report", "--json", str(tmp_path))
    (run,) = got["runs"]
    assert run["file"].endswith(".csv.gz") and "error" not in run
    assert run["summary"] == framescope.report([str(source)])["runs"][0]["summary"]


@needs_real
def test_options_reach_the_analysis_as_on_the_command_line():
    multi = REAL_TRACES / "presentmon-1x" / "pm-1.x_GhostReconBreakpoint_dwm_firefox_multiproc_qpc.csv"
    fg = REAL_TRACES / "presentmon-2x" / "pm-v2.5x_auxgold_test_case_10_Naraka_XeSS-FG.csv"
    args = ["--target-fps", "144", "--stutter-threshold", "0.3", "--stutter-floor-ms", "2",
            "--trim-start", "1.5", "--trim-end", "0.5", "--trace", "all", "--frame-time", "presents"]
    expected = cli_json("report", "--json", *args, str(multi), str(fg))
    got = framescope.report([str(multi), str(fg)], target_fps=144, stutter_threshold=0.3, stutter_floor_ms=2,
                            trim_start=1.5, trim_end=0.5, trace="all", frame_time="presents")
    assert got == expected
    assert len(got["runs"]) > 2, "--trace all reports every trace of the multi-process capture"
    assert got["settings"]["trim_start_s"] == 1.5


@needs_real
def test_a_folder_is_walked_as_the_command_line_walks_it():
    folder = REAL_TRACES / "mangohud"
    assert framescope.report(str(folder)) == cli_json("report", "--json", str(folder))
    assert framescope.captures(str(folder)) == [r["file"] for r in framescope.report(str(folder))["runs"]]


@needs_real
def test_compare_equals_the_cli_json_for_runs_and_sets():
    fv = sorted((REAL_TRACES / "frameview").glob("FrameView_AlanWake2_*"))
    a, b = str(fv[0]), str(fv[1])
    # The second run is 1.38 % slower: the gate fails (exit 3) and lists it.
    expected = cli_json("compare", "--json", "--fail-if-worse", "avg_fps=1%", a, b, check_codes=(3,))
    got = framescope.compare(a, b, fail_if_worse="avg_fps=1%")
    assert got == expected and got["comparison"] is not None
    assert [r["figure"] for r in got["regressions"]] == ["summary.avg_fps"]
    nv = sorted(str(p) for p in (REAL_TRACES / "nvidia-app").glob("MarvelRivals_*"))
    sets_a, sets_b = [a, b], [nv[0], nv[1]]
    expected = cli_json("compare", "--json", *sets_a, "--vs", *sets_b)
    got = framescope.compare(sets_a, sets_b)
    assert got == expected and {r["set"] for r in got["runs"]} == {"baseline", "other"}


def test_a_bad_file_is_an_error_run_or_an_exception_naming_file_and_line(tmp_path):
    bad = tmp_path / "broken.csv"
    bad.write_text("speed,colour\n1,red\n")
    doc = framescope.report([str(bad)])
    (run,) = doc["runs"]
    assert run["file"] == str(bad) and "broken.csv" in run["error"]["message"]
    with pytest.raises(framescope.FramescopeError, match=r"broken\.csv"):
        framescope.report([str(bad)], errors="raise")
    with pytest.raises(framescope.FramescopeError, match=r"broken\.csv:\d+"):
        framescope.frames(str(bad))


def test_bad_options_are_value_errors(tmp_path):
    for kwargs in [{"target_fps": 0}, {"frame_time": "sideways"}, {"trace": ""}, {"trim_start": -1},
                   {"column": "nonsense"}, {"workers": 0}]:
        with pytest.raises(ValueError):
            framescope.report([str(tmp_path)], **kwargs)
    with pytest.raises(ValueError, match="set"):
        framescope.compare([str(tmp_path)], [str(tmp_path), str(tmp_path)])
