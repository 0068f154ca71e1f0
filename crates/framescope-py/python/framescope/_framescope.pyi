"""Type hints of framescope's native module (``framescope._framescope``). Use the
functions of ``framescope`` itself; these are what they call."""

from typing import Any, Dict, List, Tuple

__version__: str

class FramescopeError(Exception):
    """A capture could not be read or analysed; the message names the file and, where
    one is to blame, the line."""

def report_json(paths: List[str], options: Dict[str, Any]) -> str:
    """The ``report --json`` document of ``paths``, as JSON text."""

def compare_json(
    baseline: List[str],
    other: List[str],
    options: Dict[str, Any],
    fail_if_worse: List[str],
    allow_missing: bool,
    limits: Tuple[float, float],
) -> str:
    """The ``compare --json`` document, as JSON text."""

def frames_parquet(path: str, options: Dict[str, Any]) -> bytes:
    """The per-frame table of one capture, as the bytes of a Parquet file."""

def batch_parquet(paths: List[str], options: Dict[str, Any]) -> bytes:
    """The typed runs table of ``paths``, as the bytes of a Parquet file."""

def run_columns() -> List[str]:
    """The columns of the runs table, in order."""

def captures(paths: List[str]) -> List[str]:
    """The capture files ``paths`` stand for (folders walked), as the command line reads them."""
