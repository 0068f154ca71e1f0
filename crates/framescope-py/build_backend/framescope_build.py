"""The package's PEP 517 build backend: maturin's, but a wheel built by pip (``pip install
./crates/framescope-py``, ``pip wheel``) gets the platform tag a package index accepts.

maturin's own backend passes ``--compatibility off`` when none is given, which tags every
wheel ``linux_x86_64`` and overrides ``[tool.maturin] compatibility`` in pyproject.toml.
Here ``--compatibility pypi`` is passed instead: maturin audits the extension and tags
the wheel with the oldest ``manylinux_2_NN`` (or ``musllinux``) policy its symbols allow.
A ``--compatibility`` given in ``MATURIN_PEP517_ARGS`` or pip's
``--config-settings maturin.build-args=...`` is kept. Everything else is maturin's.
"""

from __future__ import annotations

import os
import shlex
from typing import Any, Mapping, Optional

import maturin
from maturin import (  # noqa: F401  (the PEP 517 hooks, re-exported as they are)
    build_editable,
    build_sdist,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)


def _tagged(config_settings: Optional[Mapping[str, Any]]) -> dict:
    settings = dict(config_settings or {})
    given = settings.get("maturin.build-args", settings.get("build-args"))
    if given is None:
        args = shlex.split(os.environ.get("MATURIN_PEP517_ARGS", ""))
    elif isinstance(given, str):
        args = shlex.split(given)
    else:
        args = list(given)
    if not any(a in ("--compatibility", "--manylinux") or a.startswith("--compatibility=") for a in args):
        args = ["--compatibility", "pypi", *args]
    settings.pop("build-args", None)
    settings["maturin.build-args"] = shlex.join(args)
    return settings


def build_wheel(wheel_directory: str, config_settings: Optional[Mapping[str, Any]] = None,
                metadata_directory: Optional[str] = None) -> str:
    return maturin.build_wheel(wheel_directory, _tagged(config_settings), metadata_directory)
