"""Checks a built framescope wheel as a user's installer and a package index would see it.

    python3 python/check_wheel.py WHEEL [--stripped] [--platform manylinux|win_amd64]
                                  [--objdump OBJDUMP]

Standard library only (python/ci.sh runs it for the Linux wheel, .ci/windows/wheel.sh for
the Windows one). It asserts:

* the file name's tags: one abi3 wheel for CPython 3.9 and later (`cp39-abi3`), for the
  platform asked (a `manylinux_2_NN_x86_64` tag, or `win_amd64`), and the same tag in the
  WHEEL file;
* the metadata a package index shows: summary, README as Markdown, the licence as an SPDX
  expression and its file (`License-File: LICENSE`, the repository's LICENSE text in
  `.dist-info/licenses/`), classifiers, the polars lower bound;
* every file of the wheel listed in RECORD;
* the extension module: its size (at most 15 MiB when `--stripped`), its entry point
  `PyInit__framescope` exported, and the shared libraries it needs, read with objdump: on
  Windows only `python3.dll` (the stable ABI's DLL, never a `python3X.dll`) and DLLs every
  Windows has (no MinGW runtime: libgcc, libstdc++, libwinpthread); on Linux no libpython
  and nothing beyond the C library's (what manylinux allows).
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MAX_EXTENSION = 15 * 2**20
INIT = "PyInit__framescope"

# DLLs that every 64-bit Windows since 7 has (system32 and the API sets); a MinGW build of
# Rust's standard library imports from these. Anything else must not be needed.
WINDOWS_SYSTEM_DLLS = {
    "kernel32.dll", "ntdll.dll", "advapi32.dll", "userenv.dll", "ws2_32.dll",
    "bcrypt.dll", "bcryptprimitives.dll", "msvcrt.dll", "user32.dll", "shell32.dll",
    "ole32.dll", "oleaut32.dll", "secur32.dll", "crypt32.dll", "api-ms-win-core-synch-l1-2-0.dll",
}
# The libraries the manylinux policies allow an extension to need (PEP 600: glibc's own
# and libgcc_s).
LINUX_ALLOWED = {
    "libc.so.6", "libm.so.6", "libgcc_s.so.1", "ld-linux-x86-64.so.2", "libpthread.so.0",
    "libdl.so.2", "librt.so.1",
}
NEEDED_METADATA = (
    "Name: framescope",
    "Summary: ",
    "Requires-Python: >=3.9",
    "Requires-Dist: polars>=1.10",
    "License-Expression: MIT",
    "License-File: LICENSE",
    "Classifier: Typing :: Typed",
    "Classifier: Operating System :: Microsoft :: Windows",
    "Description-Content-Type: text/markdown",
    "five-minute tour",
)


def fail(message: str) -> None:
    sys.exit(f"check_wheel: {message}")


def check_name(wheel: Path, platform: str) -> str:
    m = re.fullmatch(r"framescope-[0-9][^-]*-(cp39)-(abi3)-([a-z0-9_]+)\.whl", wheel.name)
    if not m:
        fail(f"{wheel.name} is not a cp39-abi3 wheel of framescope")
    plat = m.group(3)
    if platform == "manylinux" and not re.fullmatch(r"manylinux_2_[0-9]+_x86_64", plat):
        fail(f"{wheel.name}: platform tag {plat}, expected manylinux_2_NN_x86_64")
    if platform == "win_amd64" and plat != "win_amd64":
        fail(f"{wheel.name}: platform tag {plat}, expected win_amd64")
    return f"cp39-abi3-{plat}"


def check_dist_info(z: zipfile.ZipFile, tag: str) -> None:
    names = z.namelist()
    info = next((n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA")), None)
    if info is None:
        fail("no .dist-info/METADATA")
    wheel_file = z.read(f"{info}/WHEEL").decode()
    if f"Tag: {tag}" not in wheel_file or "Root-Is-Purelib: false" not in wheel_file:
        fail(f"WHEEL does not say Tag: {tag} / Root-Is-Purelib: false:\n{wheel_file}")
    meta = z.read(f"{info}/METADATA").decode()
    for needed in NEEDED_METADATA:
        if needed not in meta:
            fail(f"METADATA lacks {needed!r}")
    licence = f"{info}/licenses/LICENSE"
    if licence not in names:
        fail(f"the licence file {licence} is not in the wheel")
    if z.read(licence) != (REPO / "LICENSE").read_bytes():
        fail(f"{licence} is not the repository's LICENSE")
    record = {row[0] for row in csv.reader(io.StringIO(z.read(f"{info}/RECORD").decode())) if row}
    unlisted = [n for n in names if n not in record and not n.endswith("/")]
    if unlisted:
        fail(f"files missing from RECORD: {unlisted}")


def objdump(tool: str, path: Path, flag: str) -> str:
    return subprocess.run([tool, flag, str(path)], check=True, capture_output=True, text=True).stdout


def check_pyd(tool: str, pyd: Path) -> list[str]:
    dump = objdump(tool, pyd, "-p")
    dlls = sorted({d.lower() for d in re.findall(r"DLL Name: (\S+)", dump)})
    if "python3.dll" not in dlls:
        fail(f"the .pyd does not import python3.dll (it imports {dlls})")
    versioned = [d for d in dlls if re.fullmatch(r"python3\d+\.dll", d)]
    if versioned:
        fail(f"the .pyd imports {versioned}: not the stable ABI")
    other = [d for d in dlls if d != "python3.dll" and d not in WINDOWS_SYSTEM_DLLS]
    if other:
        fail(f"the .pyd needs DLLs Windows does not have: {other}")
    export_table = dump.split("[Ordinal/Name Pointer] Table", 1)[-1]
    if not re.search(rf"\]\s+{INIT}\b", export_table):
        fail(f"the .pyd does not export {INIT}")
    return dlls


def check_so(tool: str, so: Path) -> list[str]:
    needed = sorted(re.findall(r"NEEDED\s+(\S+)", objdump(tool, so, "-p")))
    other = [n for n in needed if n not in LINUX_ALLOWED]
    if other:
        fail(f"the extension needs libraries manylinux does not allow: {other}")
    if not re.search(rf"\s{INIT}$", objdump(tool, so, "-T"), re.M):
        fail(f"the extension does not export {INIT}")
    return needed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("wheel", type=Path)
    ap.add_argument("--stripped", action="store_true", help="the extension must be <= 15 MiB")
    ap.add_argument("--platform", choices=["manylinux", "win_amd64", "any"], default="any")
    ap.add_argument("--objdump", default="objdump")
    args = ap.parse_args()

    tag = check_name(args.wheel, args.platform)
    with zipfile.ZipFile(args.wheel) as z:
        check_dist_info(z, tag)
        ext = [i for i in z.infolist() if re.fullmatch(r"framescope/_framescope\.(abi3\.so|pyd)", i.filename)]
        if len(ext) != 1:
            fail(f"expected one extension module framescope/_framescope.{{abi3.so,pyd}}, found {ext}")
        size = ext[0].file_size
        if args.stripped and size > MAX_EXTENSION:
            fail(f"the extension is {size / 2**20:.1f} MiB, over 15 MiB")
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(z.extract(ext[0], tmp))
            libs = check_pyd(args.objdump, path) if path.suffix == ".pyd" else check_so(args.objdump, path)
    print(f"{args.wheel.name}: extension {size / 2**20:.1f} MiB, exports {INIT}, needs {', '.join(libs)}; "
          f"metadata and licence file complete")


if __name__ == "__main__":
    main()
