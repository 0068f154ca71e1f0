"""Shared fixtures: the repository, the real captures beside it and the command-line
binary the package's results are compared with.

* ``FRAMESCOPE_BIN`` — the ``framescope`` binary (default:
  ``$CARGO_TARGET_DIR/debug/framescope``, else ``target/debug/framescope``);
* ``FRAMESCOPE_SHARED`` — the shared folder (default ``../shared`` beside the
  repository), as for the Rust tests; ``FRAMESCOPE_REQUIRE_SHARED=1`` — a missing
  ``real-traces`` in it fails the run instead of skipping the tests that read it.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List

import pytest

REPO = Path(__file__).resolve().parents[3]
REAL_TRACES = Path(os.environ.get("FRAMESCOPE_SHARED", REPO.parent / "shared")) / "real-traces"
CAPTURE_EXTENSIONS = {".csv", ".json", ".hml"}


def real_captures() -> List[Path]:
    """Every capture under real-traces but the etl folder, sorted."""
    if not REAL_TRACES.is_dir():
        if os.environ.get("FRAMESCOPE_REQUIRE_SHARED") == "1":
            raise RuntimeError(f"{REAL_TRACES} is missing and FRAMESCOPE_REQUIRE_SHARED=1")
        return []
    found = [
        p for p in REAL_TRACES.rglob("*")
        if p.is_file() and p.suffix.lower() in CAPTURE_EXTENSIONS
        and "etl" not in p.relative_to(REAL_TRACES).parts
        and not any(part.startswith(".") for part in p.relative_to(REAL_TRACES).parts)
    ]
    return sorted(found)


def binary() -> Path:
    given = os.environ.get("FRAMESCOPE_BIN")
    if given:
        return Path(given)
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    return target / "debug" / "framescope"


def cli(*args: str, check_codes=(0, 1)) -> subprocess.CompletedProcess:
    """Runs the framescope binary; its exit status must be one of ``check_codes``."""
    exe = binary()
    if not exe.is_file():
        pytest.fail(f"the framescope binary is missing: {exe} (set FRAMESCOPE_BIN or build it)")
    done = subprocess.run([str(exe), *args], capture_output=True, timeout=600)
    assert done.returncode in check_codes, done.stderr.decode(errors="replace")
    return done


def cli_json(*args: str, check_codes=(0, 1)) -> Dict[str, Any]:
    return json.loads(cli(*args, check_codes=check_codes).stdout)


CAPTURES = real_captures()


def etl_captures() -> List[Path]:
    """Every .etl under real-traces (reported as what they hold, not as frames), sorted."""
    if not REAL_TRACES.is_dir():
        return []
    return sorted(p for p in REAL_TRACES.rglob("*.etl") if p.is_file())


ETL_CAPTURES = etl_captures()
needs_real = pytest.mark.skipif(not CAPTURES, reason=f"no real captures at {REAL_TRACES}")


def capture_ids(paths: List[Path]) -> List[str]:
    return [str(p.relative_to(REAL_TRACES)) for p in paths]
