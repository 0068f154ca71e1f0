"""What a user writes, checked by mypy --strict against the stubs (python/ci.sh)."""

from typing import Optional

import polars as pl

import framescope


def fps(path: str) -> Optional[float]:
    capture = framescope.open(path, trace="default", max_skipped="5%")
    report = capture.analyze(target_fps=60, stutter_threshold="20%", frame_time="display")
    frames: int = report.run.frames
    count: Optional[int] = report.run.stutters.count
    df: pl.DataFrame = capture.frames(analysed_only=True, columns=["frame_time_ms"])
    lazy: pl.LazyFrame = framescope.scan_frames(path, trace="all", target_fps=90, analysed_only=True)
    print(lazy.select("frame_time_ms").collect().height)
    print(frames, count, df.height, capture.format, [t.application for t in capture.traces])
    return report.summary.avg_fps


def fails(path: str) -> None:
    try:
        framescope.report(path, errors="raise")
    except framescope.CaptureNotFoundError as e:
        print(e.path, e.line)
