#!/usr/bin/env python3
"""Writes the licence notices of the packages built into framescope for one target
(standard library only): every package the `framescope` binary depends on for that
platform (normal dependencies, default features), with its licence expression, its
repository and the text of its licence files as published on crates.io.

Usage: licenses.py TARGET OUTPUT (from the repository root; runs `cargo metadata`)."""
import json
import os
import subprocess
import sys

LICENCE_FILES = ("license", "licence", "copying", "notice", "copyright", "authors")
# For a package published without a licence file whose licence allows MIT: the MIT
# licence's text, with the copyright of the authors its manifest names.
MIT = """Permission is hereby granted, free of charge, to any person obtaining a copy of this
software and associated documentation files (the "Software"), to deal in the Software
without restriction, including without limitation the rights to use, copy, modify, merge,
publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons
to whom the Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or
substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED,
INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR
PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE
FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
DEALINGS IN THE SOFTWARE."""


def packages_of(target):
    """The packages reachable from `framescope` through normal dependencies."""
    meta = json.loads(subprocess.run(
        ["cargo", "metadata", "--locked", "--format-version", "1", "--filter-platform", target],
        check=True, capture_output=True, text=True).stdout)
    by_id = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    root = next(p["id"] for p in meta["packages"] if p["name"] == "framescope" and p["source"] is None)
    seen, todo = set(), [root]
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        for dep in nodes[pid]["deps"]:
            if any(k["kind"] is None for k in dep["dep_kinds"]):
                todo.append(dep["pkg"])
    return sorted((by_id[i] for i in seen), key=lambda p: (p["name"], p["version"]))


def licence_texts(package):
    """(file name, text) of the licence files beside the package's manifest."""
    folder = os.path.dirname(package["manifest_path"])
    texts = []
    for name in sorted(os.listdir(folder)):
        if name.lower().startswith(LICENCE_FILES) and os.path.isfile(os.path.join(folder, name)):
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                texts.append((name, f.read().strip()))
    return texts


def main():
    target, output = sys.argv[1], sys.argv[2]
    packages = packages_of(target)
    own = [p for p in packages if p["source"] is None]
    others = [p for p in packages if p["source"] is not None]
    lines = [
        "Licences of framescope and of the packages built into it (%s)" % target,
        "",
        "framescope (%s) is licensed under %s." % (", ".join(p["name"] + " " + p["version"] for p in own),
                                                  own[0]["license"] if own else "?"),
        "It includes the following %d packages from crates.io:" % len(others),
        "",
    ]
    lines += ["  %-34s %-12s %s" % (p["name"], p["version"], p.get("license") or "see below") for p in others]
    for p in others:
        lines += ["", "=" * 78, "%s %s  (%s)" % (p["name"], p["version"], p.get("license") or "licence file"),
                  p.get("repository") or "", "=" * 78]
        texts = licence_texts(p)
        if not texts and "MIT" in (p.get("license") or ""):
            authors = ", ".join(p.get("authors") or []) or "the %s authors" % p["name"]
            lines += ["", "(no licence file in the published package; used under MIT)",
                      "Copyright (c) %s" % authors, "", MIT]
        elif not texts:
            lines.append("(no licence file in the published package; licence: %s)" % p.get("license"))
        for name, text in texts:
            lines += ["", "--- %s ---" % name, text]
    with open(output, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    print("%s: %d packages" % (output, len(others)))


if __name__ == "__main__":
    main()
