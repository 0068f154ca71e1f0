#!/usr/bin/env python3
"""`framescope.open(path).frames()` against `pl.read_csv` of the same capture, in one run.

    python/ci.sh builds a venv; or: pip install ./crates/framescope-py (release wheel)
    target/pyvenv-ci/bin/python benches/frames_vs_polars.py [--frames 1000000] [--runs 3]

Generates the 1M-frame PresentMon capture of `load_vs_polars.py` (target/bench/), then
runs each reader `--runs` times, interleaved, each in a fresh Python process (polars
imported first in both), and prints the median wall time of the call and the median
peak RSS of the process, and the ratios the goal is stated in (issue 39: frames() at
most 1.2× read_csv's time and at most its peak memory). The machine is shared: only
ratios from the same run mean anything.

Also the lazy form on one column, `scan_frames(path).select("frame_time_ms").collect()`
(the projection pushed down: the other columns are never built), against
`frames().select("frame_time_ms")`.
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from load_vs_polars import OUT, generate  # noqa: E402

CHILD = """
import json, resource, sys, time
import polars as pl
import framescope
path = sys.argv[1]
start = time.perf_counter()
if sys.argv[2] == "framescope":
    df = framescope.open(path).frames()
elif sys.argv[2] == "frames_select":
    df = framescope.open(path).frames().select("frame_time_ms")
elif sys.argv[2] == "scan_select":
    df = framescope.scan_frames(path).select("frame_time_ms").collect()
else:
    df = pl.read_csv(path, null_values=["NA"], infer_schema_length=10000)
took = time.perf_counter() - start
print(json.dumps({"s": took, "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "rows": df.height, "columns": df.width}))
"""


def once(path, which):
    out = subprocess.run([sys.executable, "-c", CHILD, path, which], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def median(values):
    v = sorted(values)
    return v[len(v) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, f"capture-{args.frames}.csv")
    generate(path, args.frames)
    size = os.path.getsize(path) / 2**20
    results = {"framescope": [], "polars": [], "frames_select": [], "scan_select": []}
    for _ in range(args.runs):
        for which in results:
            results[which].append(once(path, which))
    print(f"capture: {path} ({size:.0f} MiB, {args.frames} frames); median of {args.runs} fresh processes")
    med = {}
    for which, rs in results.items():
        med[which] = (median([r["s"] for r in rs]), median([r["rss_mib"] for r in rs]))
        r = rs[0]
        print(f"  {which:13s} {med[which][0]:6.2f} s (best {min(x['s'] for x in rs):.2f})  "
              f"peak RSS {med[which][1]:6.0f} MiB  ({r['rows']} rows × {r['columns']} columns)")
    t = med["framescope"][0] / med["polars"][0]
    m = med["framescope"][1] / med["polars"][1]
    print(f"frames() / read_csv: time {t:.2f}× (goal ≤ 1.2), peak RSS {m:.2f}× (goal ≤ 1.0)")
    t = med["scan_select"][0] / med["frames_select"][0]
    m = med["scan_select"][1] / med["frames_select"][1]
    print(f"scan_frames().select(1 column) / frames().select(1 column): time {t:.2f}×, peak RSS {m:.2f}×")


if __name__ == "__main__":
    main()
