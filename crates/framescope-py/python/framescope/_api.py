"""The package's functions and objects (re-exported by ``framescope``)."""

from __future__ import annotations

import json
import os
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Type, Union

import polars as pl
from polars.io.plugins import register_io_source

from . import _framescope as _native
from ._figures_stub import _class_name
from ._errors import CaptureError, CaptureNotFoundError, FramescopeError, OptionError

PathLike = Union[str, "os.PathLike[str]"]
Paths = Union[PathLike, Sequence[PathLike]]
Progress = Union[None, bool, Callable[[int, int], Any]]

_ENUMS = {
    "frame_time": ("auto", "presents", "display"),
    "unit": ("s", "ms", "us", "ns"),
    "errors": ("include", "raise"),
}


# --- options -------------------------------------------------------------------------

def _paths(paths: Paths) -> List[str]:
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    return [os.fspath(p) for p in paths]


def _number(option: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise OptionError(f"{option}: {value!r} is not a number", option=option)
    try:
        return float(value)
    except ValueError:
        raise OptionError(f"{option}: '{value}' is not a number", option=option) from None


def _fraction_text(option: str, value: Any) -> str:
    """A fraction as the command line takes it: ``0.2`` or ``"20%"``."""
    if isinstance(value, str):
        return value
    return repr(_number(option, value))


_KNOWN = {
    "target_fps", "stutter_threshold", "stutter_floor_ms", "refresh_hz", "frame_time", "trace", "trim_start",
    "trim_end", "column", "extra_column", "unit", "qpc_frequency", "workers", "strict", "max_skipped", "pcl",
}


def _options(**kw: Any) -> Dict[str, Any]:
    """Every option of a call as the native module takes them (checked there)."""
    unknown = sorted(set(kw) - _KNOWN)
    if unknown:
        raise TypeError(f"unexpected keyword argument {unknown[0]!r}")
    for name, allowed in _ENUMS.items():
        if name in kw and kw[name] not in allowed and not (name == "frame_time" and isinstance(kw[name], str)):
            raise OptionError(f"{name}: {kw[name]!r} is not one of {', '.join(allowed)}", option=name)
    column = kw.get("column")
    if isinstance(column, tuple):
        column = f"{column[0]}={column[1]}"
    extra = kw.get("extra_column")
    extra_list = [extra] if isinstance(extra, str) else list(extra or [])
    workers = kw.get("workers")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 0):
        raise OptionError(f"workers: {workers!r} is not a whole number of 1 or more", option="workers")
    optional = lambda name: None if kw.get(name) is None else _number(name, kw[name])  # noqa: E731
    pcl = kw.get("pcl")
    return {
        "target_fps": _number("target_fps", kw.get("target_fps", 60.0)),
        "stutter_threshold": _fraction_text("stutter_threshold", kw.get("stutter_threshold", 0.2)),
        "stutter_floor_ms": _number("stutter_floor_ms", kw.get("stutter_floor_ms", 4.0)),
        "refresh_hz": optional("refresh_hz"),
        "frame_time": str(kw.get("frame_time", "auto")),
        "trace": str(kw.get("trace", "default")),
        "trim_start": _number("trim_start", kw.get("trim_start", 0.0)),
        "trim_end": _number("trim_end", kw.get("trim_end", 0.0)),
        "column": column,
        "extra_column": extra_list,
        "unit": str(kw.get("unit", "ms")),
        "qpc_frequency": optional("qpc_frequency"),
        "workers": workers,
        "strict": bool(kw.get("strict", False)),
        "max_skipped": None if kw.get("max_skipped") is None else _fraction_text("max_skipped", kw["max_skipped"]),
        "pcl": None if pcl is None else os.fspath(pcl),
    }


def _progress(progress: Progress, what: str) -> Optional[Callable[[int, int], Any]]:
    """``progress=True``: a tqdm bar when tqdm is installed (else nothing); a callable
    is called as ``progress(done, total)``."""
    if progress is None or progress is False:
        return None
    if callable(progress):
        return progress
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    bar: List[Any] = []

    def tick(done: int, total: int) -> None:
        if not bar:
            bar.append(tqdm(total=total, desc=what, unit="file"))
        bar[0].update(done - bar[0].n)
        if done >= total:
            bar[0].close()

    return tick


# --- documents as objects ------------------------------------------------------------

class Record(dict):  # type: ignore[type-arg]
    """A JSON object of a document: a dict (``run["summary"]``), whose keys are also
    attributes (``run.summary.avg_fps``). ``to_dict()`` gives plain dicts and lists."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__} has no {name!r}") from None

    def to_dict(self) -> Dict[str, Any]:
        """The object as the JSON document writes it (plain dicts and lists)."""
        result: Dict[str, Any] = json.loads(json.dumps(self))
        return result


class Warning_(Record):
    """A problem with a capture: ``message`` and ``line`` (``None`` for the whole file)."""


class Figures(Record):
    """A section of a run's figures (``summary``, ``pacing``, …); each figure of the
    registry is an attribute (``None`` when the run lacks it)."""

    _names: Tuple[str, ...] = ()

    def __getattr__(self, name: str) -> Any:
        if name in self._names:
            return self.get(name)
        return super().__getattr__(name)


def _section_classes() -> Dict[str, Type[Figures]]:
    names: Dict[str, List[str]] = {}
    for section, name, _count in _native.figures():
        names.setdefault(section, []).append(name)
    return {s: type(_class_name(s), (Figures,), {"_names": tuple(n), "__module__": "framescope"})
            for s, n in names.items()}


SECTIONS: Dict[str, Type[Figures]] = _section_classes()
_CONVENTIONS = ("capframex", "frameview", "presentmon", "mangohud")


class Run(Record):
    """A run of a report: a trace of a file analysed (or a file that failed:
    ``error`` set, every figure missing). Its figures are attributes by section
    (``run.summary.avg_fps``, ``run.stutters.count``; counts are ints); a section the
    run lacks gives every figure as None."""

    def __init__(self, doc: Dict[str, Any]) -> None:
        super().__init__(doc)
        for section, cls in SECTIONS.items():
            if isinstance(self.get(section), dict):
                self[section] = cls(self[section])
        conventions = self.get("conventions")
        if isinstance(conventions, dict):
            self["conventions"] = Record({k: SECTIONS[k](v) if k in SECTIONS and isinstance(v, dict) else v
                                          for k, v in conventions.items()})
        if isinstance(self.get("warnings"), list):
            self["warnings"] = [Warning_(w) for w in self["warnings"]]

    def __getattr__(self, name: str) -> Any:
        if name == "run" and "run" in SECTIONS:
            return SECTIONS["run"]({k: self.get(k) for k in SECTIONS["run"]._names})
        if name in _CONVENTIONS:
            conventions = self.get("conventions")
            found = conventions.get(name) if isinstance(conventions, dict) else None
            return found if found is not None else SECTIONS[name]({})
        if name in SECTIONS and self.get(name) is None:
            # A section the run lacks (a failed file; frame_types without generated
            # frames): its figures are all None (`run["section"]` is None as in the JSON).
            return SECTIONS[name]({})
        if name == "error" and name not in self:
            return None
        return super().__getattr__(name)

    @property
    def failed(self) -> bool:
        """True for a file that could not be read or analysed."""
        return "error" in self


class Report(Record):
    """A ``report --json`` document: ``settings`` and ``runs`` (:class:`Run`). The
    figures of a one-run report are also the report's attributes
    (``report.summary.avg_fps`` is ``report.runs[0].summary.avg_fps``)."""

    def __init__(self, doc: Dict[str, Any]) -> None:
        super().__init__(doc)
        self["runs"] = [Run(r) for r in doc.get("runs", [])]

    def __getattr__(self, name: str) -> Any:
        if name in self:
            return self[name]
        runs = self["runs"]
        if len(runs) != 1:
            raise AttributeError(f"{name!r}: this report has {len(runs)} runs; pick one of report.runs")
        return getattr(runs[0], name)

    @property
    def run(self) -> Run:
        """The report's only run (an error when it has several)."""
        runs: List[Run] = self["runs"]
        if len(runs) != 1:
            raise ValueError(f"this report has {len(runs)} runs; pick one of report.runs")
        return runs[0]


class Comparison(Record):
    """A ``compare --json`` document: ``runs`` (:class:`Run`: the baseline's, then the
    other's), ``comparison`` (every figure with its delta and verdict), and for two
    runs ``noise_band``, ``regressions`` (the gate's findings) and ``not_comparable``;
    for two sets ``sets`` (set means, 95 % intervals, outliers)."""

    def __init__(self, doc: Dict[str, Any]) -> None:
        super().__init__(doc)
        self["runs"] = [Run(r) for r in doc.get("runs", [])]

    def __getattr__(self, name: str) -> Any:
        if name in ("regressions", "not_comparable") and name not in self:
            return []
        if name in ("sets", "noise_band", "comparison") and name not in self:
            return None
        return super().__getattr__(name)


def _record_hook(d: Dict[str, Any]) -> Record:
    return Record(d)


def _load(text: str) -> Dict[str, Any]:
    doc: Dict[str, Any] = json.loads(text, object_hook=_record_hook)
    return doc


def _raise_failed(runs: List[Run]) -> None:
    for run in runs:
        error = run.get("error")
        if error:
            path = run.get("file")
            cls = CaptureNotFoundError if path and path != "-" and not os.path.exists(path) else CaptureError
            raise cls(error["message"], path=path, line=error.get("line"))


# --- a capture ----------------------------------------------------------------------

class Trace(Record):
    """A trace of a capture (an application's swap chain; a logging session of a
    sampled log): ``index``, ``label``, ``application``, ``process_id``,
    ``swap_chain``, ``runtime``, ``present_modes``, ``rows``, ``sampled``,
    ``reported`` (picked by ``trace=``) and its ``warnings``."""


class Capture:
    """A capture file read once (:func:`open`): what it holds, its per-frame table and
    its report under any analysis settings."""

    def __init__(self, native: Any, load: Dict[str, Any]) -> None:
        self._native = native
        self._load = load
        info = json.loads(native.info_json())
        self.path: str = info["path"]
        self.format: str = info["format"]
        self.format_version: str = info["format_version"]
        self.system: Dict[str, str] = dict(info["system"])
        self.warnings: List[Warning_] = [Warning_(w) for w in info["warnings"]]
        self.traces: List[Trace] = [
            Trace({**t, "warnings": [Warning_(w) for w in t["warnings"]]}) for t in info["traces"]
        ]

    def __repr__(self) -> str:
        reported = sum(1 for t in self.traces if t["reported"])
        return f"<framescope.Capture {self.path!r} {self.format} {len(self.traces)} traces ({reported} reported)>"

    def _opts(self, kw: Dict[str, Any]) -> Dict[str, Any]:
        return _options(**{**self._load, **kw})

    def _schema(self, *, target_fps: float = 60.0, stutter_threshold: Union[float, str] = 0.2,
                stutter_floor_ms: float = 4.0, refresh_hz: Optional[float] = None, frame_time: str = "auto",
                analysed_only: bool = False) -> pl.Schema:
        """The columns and types of :meth:`frames`' table, without its rows."""
        opts = self._opts(dict(target_fps=target_fps, stutter_threshold=stutter_threshold,
                               stutter_floor_ms=stutter_floor_ms, refresh_hz=refresh_hz, frame_time=frame_time))
        return _frame(self._native.frames(opts, "snake", None, True)).schema

    def analyze(self, *, target_fps: float = 60.0, stutter_threshold: Union[float, str] = 0.2,
                stutter_floor_ms: float = 4.0, refresh_hz: Optional[float] = None,
                frame_time: str = "auto") -> Report:
        """The report of the reported traces under these settings (the command line's
        ``report`` options)."""
        opts = self._opts(dict(target_fps=target_fps, stutter_threshold=stutter_threshold,
                               stutter_floor_ms=stutter_floor_ms, refresh_hz=refresh_hz, frame_time=frame_time))
        return Report(_load(self._native.report_json(opts)))

    def frames(self, *, target_fps: float = 60.0, stutter_threshold: Union[float, str] = 0.2,
               stutter_floor_ms: float = 4.0, refresh_hz: Optional[float] = None,
               frame_time: str = "auto", analysed_only: bool = False,
               columns: Optional[Sequence[str]] = None) -> pl.DataFrame:
        """The per-frame table of the reported traces (snake_case columns, each field's
        metadata keeping the name as written; whole-number columns as Int64; the
        trace's ``application``, ``process_id`` and ``swap_chain`` on every row).

        Rows are every kept frame of the capture, **not only the frames the report
        counts**: with frame generation or dropped frames the report analyses the
        displayed series. Keep ``analysed`` rows (``analysed_only=True``) to get the
        report's frames: ``1000 * n / df["analysed_frame_time_ms"].sum()`` is then the
        report's ``avg_fps``.

        ``columns`` builds only those columns (in the table's order; the rest are never
        made): what :func:`scan_frames` pushes down.
        """
        opts = self._opts(dict(target_fps=target_fps, stutter_threshold=stutter_threshold,
                               stutter_floor_ms=stutter_floor_ms, refresh_hz=refresh_hz, frame_time=frame_time))
        wanted = None if columns is None else list(columns)
        asked = wanted
        if analysed_only and wanted is not None and "analysed" not in wanted:
            asked = [*wanted, "analysed"]
        df = _frame(self._native.frames(opts, "snake", asked))
        if analysed_only:
            df = df.filter(pl.col("analysed"))
        return df if asked is wanted else df.drop("analysed")


def _frame(stream: Any) -> pl.DataFrame:
    """An Arrow stream as a polars DataFrame (no copy of the numbers)."""
    return pl.DataFrame(stream)


def open(path: PathLike, *, trace: Union[str, int] = "default", trim_start: float = 0.0, trim_end: float = 0.0,
         column: Union[None, str, Tuple[str, str]] = None, extra_column: Union[None, str, Sequence[str]] = None,
         unit: str = "ms", qpc_frequency: Optional[float] = None, pcl: Optional[PathLike] = None,
         strict: bool = False, max_skipped: Union[None, float, str] = None, progress: Progress = None) -> Capture:
    """Reads one capture file (the load options are the command line's)."""
    load = dict(trace=trace, trim_start=trim_start, trim_end=trim_end, column=column, extra_column=extra_column,
                unit=unit, qpc_frequency=qpc_frequency, pcl=pcl, strict=strict, max_skipped=max_skipped)
    native = _native.open_capture(os.fspath(path), _options(**load), _progress(progress, "reading"))
    return Capture(native, load)


_ANALYSIS = ("target_fps", "stutter_threshold", "stutter_floor_ms", "refresh_hz", "frame_time", "analysed_only")


def scan_frames(path: PathLike, **options: Any) -> pl.LazyFrame:
    """:meth:`Capture.frames` as a polars LazyFrame: the capture is read now (bad
    options and files raise here), the table is made at ``collect()`` with only the
    columns the query uses (projection pushed down: the others are never built), then
    its filter and row limit. Takes :func:`open`'s and :meth:`Capture.frames`'s
    options."""
    analysis = {k: options.pop(k) for k in _ANALYSIS if k in options}
    capture = open(path, **options)
    schema = capture._schema(**analysis)

    def source(with_columns: Optional[List[str]], predicate: Optional[pl.Expr], n_rows: Optional[int],
               batch_size: Optional[int]) -> Iterator[pl.DataFrame]:
        needed = None
        if with_columns is not None:
            # The filter's columns too (a filter on a column the query does not return).
            used = predicate.meta.root_names() if predicate is not None else []
            needed = [*with_columns, *(c for c in used if c not in with_columns)]
        df = capture.frames(columns=needed, **analysis)
        if predicate is not None:
            df = df.filter(predicate)
        if with_columns is not None:
            df = df.select(with_columns)
        yield df if n_rows is None else df.head(n_rows)

    return register_io_source(source, schema=dict(schema))


# --- the original functions ----------------------------------------------------------

def captures(paths: Paths) -> List[str]:
    """The capture files ``paths`` stand for, in the order the command line reads them."""
    result: List[str] = _native.captures(_paths(paths))
    return result


def report(paths: Paths, *, errors: str = "include", progress: Progress = None, **options: Any) -> Report:
    """The ``framescope report --json`` document of the captures at ``paths``, as a
    :class:`Report` (a dict too)."""
    if errors not in _ENUMS["errors"]:
        raise OptionError(f"errors: {errors!r} is not one of include, raise", option="errors")
    text = _native.report_json(_paths(paths), _options(**options), _progress(progress, "report"))
    doc = Report(_load(text))
    if errors == "raise":
        _raise_failed(doc["runs"])
    return doc


def compare(baseline: Paths, other: Paths, *, fail_if_worse: Union[None, str, Sequence[str]] = None,
            allow_missing: bool = False, outlier_limit: Union[float, str] = 0.05,
            noise_band: Union[float, str] = 0.01, progress: Progress = None, **options: Any) -> Comparison:
    """The ``framescope compare --json`` document: ``other`` against ``baseline``."""
    gates = [fail_if_worse] if isinstance(fail_if_worse, str) else list(fail_if_worse or [])
    limits = (_fraction_text("outlier_limit", outlier_limit), _fraction_text("noise_band", noise_band))
    text = _native.compare_json(_paths(baseline), _paths(other), _options(**options), gates, bool(allow_missing),
                                limits, _progress(progress, "compare"))
    return Comparison(_load(text))


def frames(path: PathLike, **options: Any) -> pl.DataFrame:
    """The per-frame table of one capture as ``framescope frames FILE`` writes it (the
    command line's column names and types)."""
    opts = _options(**options)
    native = _native.open_capture(os.fspath(path), opts, None)
    return _frame(native.frames(opts, "cli"))


def batch(paths: Paths, *, naming: str = "cli", progress: Progress = None, **options: Any) -> pl.DataFrame:
    """A row per run of the captures at ``paths`` (``report --format csv``'s columns,
    typed; ``naming="snake"``: snake_case names). A file that fails is a row with its
    ``error.message``, never an exception."""
    stream = _native.batch(_paths(paths), _options(**options), naming, _progress(progress, "batch"))
    return _frame(stream)


def history(db: PathLike, *, naming: str = "cli") -> pl.DataFrame:
    """A row per run stored in the history ``db`` (as ``framescope history export``)."""
    return _frame(_native.history(os.fspath(db), naming))


def snake_case(name: str) -> str:
    """A column name as the data API writes it (``MsBetweenPresents`` →
    ``ms_between_presents``)."""
    result: str = _native.snake_case(name)
    return result


RUN_COLUMNS: List[str] = _native.run_columns()
__version__: str = _native.__version__

__all__ = [
    "Capture", "CaptureError", "CaptureNotFoundError", "Comparison", "Figures", "FramescopeError", "OptionError",
    "RUN_COLUMNS", "Record", "Report", "Run", "Trace", "Warning_", "__version__", "batch", "captures", "compare",
    "frames", "history", "open", "report", "scan_frames", "snake_case",
]
