"""Issue 38's formats through the Python package: every fixture under
``tests/fixtures/i38`` opens with ``framescope.open`` and gives the command line's
figures, its format name and its frames (sampled logs: one row per sample)."""

from __future__ import annotations

import pytest

import framescope
from conftest import REPO, cli_json

FIXTURES = sorted(
    p for p in (REPO / "tests" / "fixtures" / "i38").iterdir()
    if p.is_file() and not p.name.endswith(".json")
)


@pytest.mark.parametrize("path", FIXTURES, ids=[p.name for p in FIXTURES])
def test_each_new_format_gives_the_clis_figures(path):
    capture = framescope.open(str(path))
    report = capture.analyze()
    (want,) = cli_json("report", "--json", str(path))["runs"]
    assert capture.format == want["format"]
    assert report.run.frames == want["frames"]
    assert report.summary.avg_fps == want["summary"]["avg_fps"]
    assert report.to_dict()["runs"][0] == want
    frames = capture.frames()
    assert frames.height >= (want["samples"] or want["frames"])


def test_the_vr_logs_name_their_headsets_rate():
    xr = framescope.open(str(REPO / "tests/fixtures/i38/DCS 2026-03-14 20-15-00 UTC.csv"))
    assert xr.format == "xrframetools"
    assert xr.system["headset refresh (from Display XrTime)"] == "90.00 Hz (11.111 ms)"
    ovr = framescope.open(str(REPO / "tests/fixtures/i38/com.example.game_20260814_101500.csv"))
    assert ovr.format == "ovr-metrics" and ovr.system["display refresh rate"] == "72 Hz"
    assert ovr.analyze().run.sampled is True
