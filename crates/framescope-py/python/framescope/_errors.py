"""framescope's exceptions: every one a :class:`FramescopeError` with ``.path`` and
``.line`` (``None`` where nothing is to blame)."""

from __future__ import annotations

from typing import Optional


class FramescopeError(Exception):
    """A capture could not be read or analysed, or an option was refused; the message
    names the file and, where one is to blame, the line (also in ``.path`` and
    ``.line``)."""

    def __init__(self, message: str, *, path: Optional[str] = None, line: Optional[int] = None) -> None:
        super().__init__(message)
        self.path = path
        self.line = line


class CaptureNotFoundError(FramescopeError, FileNotFoundError):
    """The capture file (or marker log, or history) does not exist."""


class CaptureError(FramescopeError, ValueError):
    """The file is not a capture framescope can read, holds no usable frame, or fails
    ``strict=`` / ``max_skipped=``."""


class OptionError(FramescopeError, ValueError):
    """An option's value was refused, with the command line's message; ``.option``
    names it. Raised before any file is read."""

    def __init__(self, message: str, *, option: str) -> None:
        super().__init__(message)
        self.option = option
