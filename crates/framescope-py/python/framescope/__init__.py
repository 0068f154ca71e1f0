"""framescope for Python: game frame-timing captures analysed exactly as the
``framescope`` command line does (the same Rust code, called in-process).

* :func:`report` — the ``framescope report --json`` document, as dicts and lists;
* :func:`compare` — the ``framescope compare --json`` document (two runs, or two sets);
* :func:`frames` — the per-frame table of a capture, a polars DataFrame;
* :func:`batch` — a row per run over many files (``report --format csv``'s columns,
  typed), a polars DataFrame; a file that fails is a row with ``error.message``;
* :func:`captures` — the capture files of folders, as the command line finds them.

Every function reads the files on Rust threads with the GIL released. Paths may be
files or folders (walked for ``*.csv``, ``*.json``, ``*.hml`` and their ``.gz``);
an ``.etl`` is reported as what it holds, as on the command line. ``.to_pandas()`` on
a DataFrame needs pandas and pyarrow (``pip install 'framescope[pandas]'``).
"""

from __future__ import annotations

import io
import json
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import polars as pl

from ._framescope import FramescopeError, __version__, run_columns
from . import _framescope as _native

__all__ = ["FramescopeError", "__version__", "batch", "captures", "compare", "frames", "history", "report", "RUN_COLUMNS"]

#: A path, or a list of paths (files or folders).
Paths = Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]]

#: The columns of :func:`batch`'s table, in order (``report --format csv``'s header).
RUN_COLUMNS: List[str] = run_columns()


def _paths(paths: Paths) -> List[str]:
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    return [os.fspath(p) for p in paths]


def _options(
    target_fps: float,
    stutter_threshold: float,
    stutter_floor_ms: float,
    refresh_hz: Optional[float],
    frame_time: str,
    trace: Union[str, int],
    trim_start: float,
    trim_end: float,
    column: Union[None, str, Tuple[str, str]],
    unit: str,
    qpc_frequency: Optional[float],
    workers: Optional[int],
) -> Dict[str, Any]:
    if isinstance(column, tuple):
        column = f"{column[0]}={column[1]}"
    return {
        "target_fps": float(target_fps),
        "stutter_threshold": float(stutter_threshold),
        "stutter_floor_ms": float(stutter_floor_ms),
        "refresh_hz": None if refresh_hz is None else float(refresh_hz),
        "frame_time": frame_time,
        "trace": str(trace),
        "trim_start": float(trim_start),
        "trim_end": float(trim_end),
        "column": column,
        "unit": unit,
        "qpc_frequency": None if qpc_frequency is None else float(qpc_frequency),
        "workers": workers,
    }


def _raise_failed(runs: List[Dict[str, Any]]) -> None:
    for run in runs:
        if run.get("error"):
            raise FramescopeError(run["error"]["message"])


def captures(paths: Paths) -> List[str]:
    """The capture files ``paths`` stand for, in the order the command line reads them:
    a folder is walked for ``*.csv``, ``*.json``, ``*.hml`` and their ``.gz`` (sorted by
    path, hidden entries skipped; a folder that cannot be read is kept, and reading it
    fails), a file is kept as given. Useful to split a folder into tasks."""
    return _native.captures(_paths(paths))


def report(
    paths: Paths,
    *,
    target_fps: float = 60.0,
    stutter_threshold: float = 0.2,
    stutter_floor_ms: float = 4.0,
    refresh_hz: Optional[float] = None,
    frame_time: str = "auto",
    trace: Union[str, int] = "default",
    trim_start: float = 0.0,
    trim_end: float = 0.0,
    column: Union[None, str, Tuple[str, str]] = None,
    unit: str = "ms",
    qpc_frequency: Optional[float] = None,
    workers: Optional[int] = None,
    errors: str = "include",
) -> Dict[str, Any]:
    """The ``framescope report --json`` document of the captures at ``paths``.

    The options are the command line's (``--target-fps``, ``--stutter-threshold`` as a
    fraction, ``--stutter-floor-ms``, ``--refresh-hz``, ``--frame-time``
    auto|presents|display, ``--trace`` default|all|PID|APP|PID:SWAPCHAIN,
    ``--trim-start``/``--trim-end`` in seconds, ``--column`` ``"frame-time=NAME"`` or
    ``("timestamp", NAME)`` with ``--unit`` for CSVs of no known format,
    ``--qpc-frequency``). ``workers`` files are read at once (default: one per core).

    A file that cannot be read is a run ``{"file": ..., "error": {"message", "line"}}``
    as in the command line's document; with ``errors="raise"`` it raises
    :class:`FramescopeError` instead. Bad options raise ``ValueError``.
    """
    opts = _options(target_fps, stutter_threshold, stutter_floor_ms, refresh_hz, frame_time, trace,
                    trim_start, trim_end, column, unit, qpc_frequency, workers)
    doc = json.loads(_native.report_json(_paths(paths), opts))
    if errors == "raise":
        _raise_failed(doc["runs"])
    elif errors != "include":
        raise ValueError(f"errors={errors!r}: use 'include' or 'raise'")
    return doc


def compare(
    baseline: Paths,
    other: Paths,
    *,
    fail_if_worse: Union[None, str, Sequence[str]] = None,
    allow_missing: bool = False,
    outlier_limit: float = 0.05,
    noise_band: float = 0.01,
    target_fps: float = 60.0,
    stutter_threshold: float = 0.2,
    stutter_floor_ms: float = 4.0,
    refresh_hz: Optional[float] = None,
    frame_time: str = "auto",
    trace: Union[str, int] = "default",
    trim_start: float = 0.0,
    trim_end: float = 0.0,
    column: Union[None, str, Tuple[str, str]] = None,
    unit: str = "ms",
    qpc_frequency: Optional[float] = None,
    workers: Optional[int] = None,
) -> Dict[str, Any]:
    """The ``framescope compare --json`` document: ``other`` against ``baseline``.

    One file per side compares two runs (``comparison`` holds every figure with its
    delta and verdict); two or more files per side (or folders) compare two sets of
    runs (``compare A1 A2 --vs B1 B2``: set means, 95 % intervals, outliers beyond
    ``outlier_limit``). Two runs' changes below ``noise_band`` (a fraction, as
    ``compare --noise-band``) are noise: ``better`` is null. ``fail_if_worse`` is the regression gate's SPEC
    (``"avg_fps=3%,stutters.count=2"``): its findings are in ``regressions``. The other
    options are :func:`report`'s. A file that fails leaves ``comparison`` null.
    """
    opts = _options(target_fps, stutter_threshold, stutter_floor_ms, refresh_hz, frame_time, trace,
                    trim_start, trim_end, column, unit, qpc_frequency, workers)
    gates = [fail_if_worse] if isinstance(fail_if_worse, str) else list(fail_if_worse or [])
    text = _native.compare_json(_paths(baseline), _paths(other), opts, gates, bool(allow_missing),
                                (float(outlier_limit), float(noise_band)))
    return json.loads(text)


def frames(
    path: Union[str, "os.PathLike[str]"],
    *,
    target_fps: float = 60.0,
    stutter_threshold: float = 0.2,
    stutter_floor_ms: float = 4.0,
    refresh_hz: Optional[float] = None,
    frame_time: str = "auto",
    trace: Union[str, int] = "default",
    trim_start: float = 0.0,
    trim_end: float = 0.0,
    column: Union[None, str, Tuple[str, str]] = None,
    unit: str = "ms",
    qpc_frequency: Optional[float] = None,
) -> pl.DataFrame:
    """The per-frame table of one capture (``framescope frames FILE``), a polars
    DataFrame: a row per kept frame of the reported trace (per sample for a sampled
    log, with its ``weight``).

    Columns: ``run``, ``frame``, ``line``, ``time_ms``, ``frame_time_ms``,
    ``display_ms``, ``dropped``, ``frame_type``, ``generated``, ``present_mode``,
    ``analysed`` (in the analysed series, which the report's ``frames`` counts),
    ``series_index`` (the index ``stutters.frames`` and ``health.spikes`` use),
    ``analysed_frame_time_ms``, ``rolling_median_ms``, ``stutter``, ``oscillating``,
    ``spike``, ``spike.<action>`` per health action, ``limiter`` (the frame's class:
    ``gpu``, ``cpu`` or ``neither``; null when unclassified), ``weight``, ``sample_ms``, then
    every latency and telemetry column of the capture under its header name. A value
    that does not apply is null. Raises :class:`FramescopeError` (naming the file and
    line) when the file cannot be read.
    """
    opts = _options(target_fps, stutter_threshold, stutter_floor_ms, refresh_hz, frame_time, trace,
                    trim_start, trim_end, column, unit, qpc_frequency, None)
    data = _native.frames_parquet(os.fspath(path), opts)
    return pl.read_parquet(io.BytesIO(data))


def batch(
    paths: Paths,
    *,
    workers: Optional[int] = None,
    target_fps: float = 60.0,
    stutter_threshold: float = 0.2,
    stutter_floor_ms: float = 4.0,
    refresh_hz: Optional[float] = None,
    frame_time: str = "auto",
    trace: Union[str, int] = "default",
    trim_start: float = 0.0,
    trim_end: float = 0.0,
    column: Union[None, str, Tuple[str, str]] = None,
    unit: str = "ms",
    qpc_frequency: Optional[float] = None,
) -> pl.DataFrame:
    """A row per run of the captures at ``paths``: the columns of
    ``framescope report --format csv`` (:data:`RUN_COLUMNS`), typed (text, Int64,
    Float64, Boolean), with the values of the JSON report.

    The files are read and analysed on ``workers`` Rust threads (default: one per core)
    with the GIL released. A file that cannot be read never raises: it is a row with its
    ``file``, ``error.message`` and ``error.line`` and every figure null.
    """
    opts = _options(target_fps, stutter_threshold, stutter_floor_ms, refresh_hz, frame_time, trace,
                    trim_start, trim_end, column, unit, qpc_frequency, workers)
    data = _native.batch_parquet(_paths(paths), opts)
    return pl.read_parquet(io.BytesIO(data))


def history(db: Union[str, "os.PathLike[str]"]) -> pl.DataFrame:
    """A row per run stored in the history ``db`` (a SQLite file written by
    ``framescope history add``), as ``framescope history export`` writes it: ``build``,
    ``scene``, ``commit``, ``branch``, ``time``, ``added``, ``file``, ``content_hash``,
    ``application``, ``format``, ``frames``, then every figure by ``section.name``.

    Raises :class:`FramescopeError` when ``db`` does not exist or is not a history.
    """
    return pl.read_parquet(io.BytesIO(_native.history_parquet(os.fspath(db))))
