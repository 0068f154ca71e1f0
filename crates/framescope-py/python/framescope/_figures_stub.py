"""The figure classes of ``__init__.pyi``, written from the figure registry:
``python -m framescope._figures_stub`` prints them; a test checks the stub holds them."""

from __future__ import annotations

from typing import Dict, List, Tuple

from . import _framescope as _native


def _class_name(section: str) -> str:
    return "".join(part.capitalize() for part in section.split("_")) + "Figures"


def stub() -> str:
    """The section classes, one typed attribute per registry figure."""
    sections: Dict[str, List[Tuple[str, bool]]] = {}
    for section, name, count in _native.figures():
        sections.setdefault(section, []).append((name, count))
    out = ["# BEGIN figures (python -m framescope._figures_stub)"]
    for section, names in sections.items():
        out.append(f"class {_class_name(section)}(Figures):")
        out.append(f'    """The ``{section}`` figures of a run."""')
        for name, count in names:
            out.append(f"    {name}: Optional[{'int' if count else 'float'}]")
        out.append("")
    out.append("class _RunSections:")
    for section in sections:
        if section != "run":
            out.append(f"    {section}: {_class_name(section)}")
    out.append(f"    run: {_class_name('run')}")
    out.append("# END figures")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(stub(), end="")
