"""framescope for Python: game frame-timing captures analysed exactly as the
``framescope`` command line does (the same Rust code, called in-process).

The data API:

* :func:`open` — a capture file read once (:class:`Capture`): ``.traces``,
  ``.format``, ``.system``, ``.warnings``; ``.frames()`` a polars DataFrame (a row per
  frame, snake_case columns); ``.analyze()`` a :class:`Report` whose figures are
  attributes (``report.summary.avg_fps``);
* :func:`scan_frames` — ``.frames()`` as a polars LazyFrame that builds only the
  columns a query uses;
* :func:`compare` — two runs or two sets compared (:class:`Comparison`);
* :func:`batch` — a row per run over many files, a polars DataFrame;
* :func:`history` — the runs of a history database.

:func:`report` and :func:`frames` give the command line's documents and tables as
they are (``report --json``, ``framescope frames``). Every call reads files on Rust
threads with the GIL released, stops on KeyboardInterrupt and takes ``progress=``
(a callable ``progress(done, total)``, or ``True`` for a tqdm bar) where it reads
many files. Bad options raise :class:`OptionError` before any file is read.
"""

from ._api import (
    RUN_COLUMNS,
    Capture,
    CaptureError,
    CaptureNotFoundError,
    Comparison,
    Figures,
    FramescopeError,
    OptionError,
    Record,
    Report,
    Run,
    Trace,
    Warning_,
    __all__,
    __version__,
    batch,
    captures,
    compare,
    frames,
    history,
    open,
    report,
    scan_frames,
    snake_case,
)


def __dir__() -> "list[str]":
    return sorted(__all__)
