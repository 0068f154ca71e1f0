#!/usr/bin/env python3
"""Load speed and memory of `framescope report --json` against polars, in one run.

    cargo build --release && python3 benches/load_vs_polars.py [--frames 1000000] [--tenfold]
        [--baseline OLD_BINARY] [--runs 5] [--batch 400] [--kinds plain,display] [--no-polars]

(`xvfb-run -a python3 benches/load_vs_polars.py …` gives the window a display on a
headless machine.)

Generates two kinds of capture under target/bench/ (`--kinds`, default both, measured in
one run so their ratios compare): `plain`, a PresentMon 2.4 capture of 30 columns (the
layout of the `ingest_analysis` bench, nearly every column constant), and `display`, one
unlike it (issue 40 item 9): PresentMon 2.4's 32 columns written as it writes them, a
144 Hz refresh grid, 0.5 % of frames dropped at random, stutters and 10 oscillating
stretches. For each it times, each the median of `--runs` runs (peak RSS:
the median too) with the page cache warm, the commands interleaved run by run:

* `cat FILE > /dev/null` (the disk's speed),
* `framescope report --json FILE` (wall time and the child's peak RSS),
* polars `read_csv` of the 6 columns the figures need, plus the same summary figures
  (average FPS, percentiles, 1 % low, the 19-frame rolling median of the stutter rule),
  when polars can be installed with pip (else skipped with a message), and the same
  with every column read (framescope parses every numeric column: its latency, health
  and telemetry figures need them),
* `framescope --screenshot` (the window's first complete picture) when a display is
  available (DISPLAY set), for the 10M run's linearity check,
* with --baseline, the same two commands with an earlier build of framescope, so a
  change is measured against what it replaces in one run (never across runs),
* with --batch N, a folder of N captures cut from the first one (its rows in N
  consecutive slices, each with the header): `framescope report --format csv DIR`
  against `cat DIR/*` (MB/s of each, and the single file's MB/s for comparison).

It prints each figure and the ratios the goals are stated in: polars time / framescope
time (goal ≥ 3), framescope peak RSS / file size (goal ≤ 0.5; the window ≤ 0.9), and with --tenfold the
10M / 1M time ratio (goal ≤ 10). Figures, not a test: the machine is shared, so only
ratios measured in the same run mean anything.
"""

import argparse
import os
import random
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
BIN = os.path.join(ROOT, "target", "release", "framescope")
OUT = os.path.join(ROOT, "target", "bench")

HEADER = ("Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,"
          "AllowsTearing,PresentMode,FrameType,TimeInQPC,MsBetweenSimulationStart,"
          "MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,"
          "MsUntilDisplayed,MsPCLatency,CPUStartQPC,MsBetweenAppStart,MsCPUBusy,MsCPUWait,"
          "MsGPULatency,MsGPUTime,MsGPUBusy,MsGPUWait,MsVideoBusy,MsAnimationError,"
          "AnimationTime,MsFlipDelay,MsAllInputToPhotonLatency")


def generate(path, frames):
    """A deterministic capture: frame times around 7 ms, a spike every 997 frames, a
    dropped frame every 13 (NA display values)."""
    if os.path.exists(path) and os.path.getsize(path) > 0:
        return
    rng = random.Random(12345)
    qpc = 1_000_000_000
    tmp = path + ".part"
    with open(tmp, "w", buffering=1 << 22) as f:
        f.write(HEADER + "\n")
        rows = []
        for i in range(frames):
            jitter = rng.randrange(1000) / 1000.0
            ft = 40.0 + jitter if i % 997 == 0 else 6.5 + jitter
            qpc += int(ft * 10_000)
            dropped = i % 13 == 0
            disp = "NA" if dropped else "%.4f" % ft
            until = "NA" if dropped else "%.4f" % (9.0 + jitter)
            rows.append(
                "game.exe,4242,0x1F741139B80,DXGI,0,512,1,Hardware: Independent Flip,Application,"
                "%d,NA,%.4f,%s,0.8000,1.2000,%s,NA,%d,%.4f,%.4f,1.0000,1.0000,%.4f,%.4f,0.1000,"
                "0.0000,NA,NA,NA,NA\n"
                % (qpc, ft, disp, until, qpc - 20_000, ft, ft - 1.0, ft - 2.0, ft - 2.1))
            if len(rows) == 10_000:
                f.write("".join(rows))
                rows.clear()
        f.write("".join(rows))
    os.replace(tmp, path)


HEADER_2X = ("Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,"
             "AllowsTearing,PresentMode,FrameType,TimeInQPC,MsBetweenSimulationStart,"
             "MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,"
             "MsUntilDisplayed,MsPCLatency,CPUStartQPC,MsBetweenAppStart,MsCPUBusy,MsCPUWait,"
             "MsGPULatency,MsGPUTime,MsGPUBusy,MsGPUWait,MsVideoBusy,MsAnimationError,"
             "AnimationTime,MsFlipDelay,MsAllInputToPhotonLatency,MsClickToPhotonLatency,"
             "MsInstrumentedLatency")

TICKS_PER_MS = 10_000  # a 10 MHz QPC, as on Windows
VBLANK_TICKS = 10_000_000 / 144  # a 144 Hz display


def generate_display(path, frames):
    """A deterministic capture unlike `generate`'s (issue 40 item 9): PresentMon 2.4's 32
    columns written as it writes them (four columns with 14 decimals), frames shown on
    a 144 Hz display's refresh grid (VSYNC on, a frame waits for the next refresh),
    0.5 % of frames dropped at random (NA display cells), a 25–60 ms stutter about
    every 1000 frames, and 10 oscillating stretches of 2000 frames (5 and 14 ms frames
    in turn). Times are whole QPC ticks, as PresentMon's are."""
    if os.path.exists(path) and os.path.getsize(path) > 0:
        return
    rng = random.Random(54321)
    stretch = 2000
    starts = [(k * 2 + 1) * frames // 20 for k in range(10)]
    qpc = 1_000_000_000
    shown = qpc  # when the last displayed frame reached the screen
    anim_start = qpc
    tmp = path + ".part"
    with open(tmp, "w", buffering=1 << 22) as f:
        f.write(HEADER_2X + "\n")
        rows = []
        for i in range(frames):
            ticks = 60_000 + rng.randrange(20_000)  # 6–8 ms
            if any(s <= i < s + stretch for s in starts):
                ticks = (50_000 if i % 2 else 140_000) + rng.randrange(2_000)
            elif rng.random() < 0.001:
                ticks = 250_000 + rng.randrange(350_000)
            start = qpc
            qpc += ticks
            busy = ticks - 2_000 - rng.randrange(3_000)
            gpu = ticks - 8_000 - rng.randrange(6_000)
            in_api = 3_000 + rng.randrange(8_000)
            render = 9_000 + rng.randrange(20_000)
            ready = qpc + render
            vblank = int(-(-max(ready, shown + 1) // VBLANK_TICKS) * VBLANK_TICKS)
            if rng.random() < 0.005:
                disp = until = "NA"
                anim_err = "NA"
            else:
                disp = "%.14f" % ((vblank - shown) / TICKS_PER_MS)
                until = "%.4f" % ((vblank - qpc) / TICKS_PER_MS)
                anim_err = "%.4f" % ((vblank - shown - ticks) / TICKS_PER_MS)
                shown = vblank
            rows.append(
                "game.exe,4242,0x1F741139B80,DXGI,1,0,0,Hardware: Independent Flip,Application,"
                "%d,NA,%.14f,%s,%.14f,%.14f,%s,NA,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,0.0000,"
                "%s,%.4f,NA,NA,NA,NA\n"
                % (qpc, ticks / TICKS_PER_MS, disp, in_api / TICKS_PER_MS, render / TICKS_PER_MS,
                   until, start, ticks / TICKS_PER_MS, busy / TICKS_PER_MS,
                   (ticks - busy) / TICKS_PER_MS, 0.5 + rng.randrange(5_000) / TICKS_PER_MS,
                   gpu / TICKS_PER_MS, (gpu - 1_000) / TICKS_PER_MS,
                   (ticks - gpu + 1_000) / TICKS_PER_MS, anim_err,
                   (start - anim_start) / TICKS_PER_MS))
            if len(rows) == 10_000:
                f.write("".join(rows))
                rows.clear()
        f.write("".join(rows))
    os.replace(tmp, path)


def run(cmd, stdout=subprocess.DEVNULL, env=None):
    """Wall seconds and peak RSS (MiB) of one child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise RuntimeError("%s exited with %d" % (" ".join(cmd), status))
    return wall, usage.ru_maxrss / 1024.0


def median(values):
    v = sorted(values)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2


def best_of(n, cmd, **kw):
    """The median wall time and median peak RSS of `n` runs (the name is historical)."""
    runs = [run(cmd, **kw) for _ in range(n)]
    return median([r[0] for r in runs]), median([r[1] for r in runs])


def interleaved(n, cmds, **kw):
    """Like `best_of` for several commands, run in turn (one of each per round), so a
    busy moment of the machine hits them all alike. Returns {name: (wall, rss)}."""
    runs = {name: [] for name in cmds}
    for _ in range(n):
        for name, cmd in cmds.items():
            runs[name].append(run(cmd, **kw))
    return {name: (median([r[0] for r in rs]), median([r[1] for r in rs])) for name, rs in runs.items()}


def make_batch(path, count):
    """A folder of `count` captures: the rows of `path` in `count` consecutive slices,
    each with the header."""
    folder = os.path.join(OUT, "batch-%d-%s" % (count, os.path.basename(path)[:-4]))
    if os.path.isdir(folder) and len(os.listdir(folder)) == count:
        return folder
    os.makedirs(folder, exist_ok=True)
    with open(path) as f:
        header = f.readline()
        rows = f.readlines()
    per = -(-len(rows) // count)
    for k in range(count):
        with open(os.path.join(folder, "capture-%03d.csv" % k), "w") as out:
            out.write(header)
            out.writelines(rows[k * per:(k + 1) * per])
    return folder


def measure_batch(folder, baseline, runs):
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder))
    size_mb = sum(os.path.getsize(f) for f in files) / 1e6
    cmds = {"cat": ["cat"] + files, "framescope": [BIN, "report", "--format", "csv", folder]}
    if baseline:
        cmds["baseline"] = [baseline, "report", "--format", "csv", folder]
    res = interleaved(runs, cmds)
    print("\nbatch: %d captures, %.0f MB" % (len(files), size_mb))
    for name, (wall, rss) in res.items():
        print("  %-28s %8.2f s  %7.0f MB/s  peak RSS %6.0f MiB" % (name, wall, size_mb / wall, rss))
    return res


POLARS_SCRIPT = r"""
import sys, polars as pl
df = pl.read_csv(sys.argv[1], columns=["Application", "ProcessID", "SwapChainAddress",
                 "MsBetweenPresents", "MsBetweenDisplayChange", "MsUntilDisplayed"],
                 null_values=["NA"])
ft = df["MsBetweenPresents"]
n = ft.len(); total = ft.sum()
s = ft.sort(descending=True)
k = max(1, n // 100)
figures = {
    "avg_fps": 1000 * n / total,
    "p50": ft.quantile(0.5, "linear"), "p90": ft.quantile(0.9, "linear"),
    "p95": ft.quantile(0.95, "linear"), "p99": ft.quantile(0.99, "linear"),
    "p99_9": ft.quantile(0.999, "linear"),
    "low_1pct": 1000 * k / s.head(k).sum(),
    "stutters": int(((ft - ft.rolling_median(19, center=True, min_samples=1)) > 4).sum()),
}
print(figures)
"""

# The same figures with every column read (framescope parses every numeric column:
# its report has latency, health and telemetry figures from them): how much of the
# gap is the number of columns read.
POLARS_ALL_SCRIPT = POLARS_SCRIPT.replace(
    'columns=["Application", "ProcessID", "SwapChainAddress",\n'
    '                 "MsBetweenPresents", "MsBetweenDisplayChange", "MsUntilDisplayed"],\n', "")
assert POLARS_ALL_SCRIPT != POLARS_SCRIPT


def polars_python():
    """A python that has polars, installing it with pip into target/bench/venv if
    needed; None when that is not possible."""
    try:
        import polars  # noqa: F401
        return sys.executable
    except ImportError:
        pass
    venv = os.path.join(OUT, "venv")
    py = os.path.join(venv, "bin", "python3")
    if not os.path.exists(py):
        if subprocess.run([sys.executable, "-m", "venv", venv]).returncode != 0:
            return None
    if subprocess.run([py, "-c", "import polars"], stderr=subprocess.DEVNULL).returncode == 0:
        return py
    print("installing polars with pip into %s …" % venv, flush=True)
    ok = subprocess.run([py, "-m", "pip", "install", "-q", "polars"]).returncode == 0
    return py if ok else None


def measure(path, polars_py, screenshot, baseline, runs):
    size_mib = os.path.getsize(path) / (1 << 20)
    res = {"size_mib": size_mib}
    res["cat"] = best_of(runs, ["cat", path])[0]
    bins = [("", BIN)] + ([("base_", baseline)] if baseline else [])
    cmds = {prefix + "framescope": [binary, "report", "--json", path] for prefix, binary in bins}
    if polars_py:
        script = os.path.join(OUT, "polars_figures.py")
        with open(script, "w") as f:
            f.write(POLARS_SCRIPT)
        script_all = os.path.join(OUT, "polars_figures_all_columns.py")
        with open(script_all, "w") as f:
            f.write(POLARS_ALL_SCRIPT)
        cmds["polars"] = [polars_py, script, path]
        cmds["polars_all"] = [polars_py, script_all, path]
    for name, (wall, rss) in interleaved(runs, cmds).items():
        res[name], res[name + "_rss"] = wall, rss
    if screenshot:
        png = os.path.join(OUT, "shot.png")
        env = dict(os.environ, FRAMESCOPE_CONFIG_DIR=os.path.join(OUT, "config"))
        for prefix, binary in bins:
            res[prefix + "window"], res[prefix + "window_rss"] = best_of(
                1, [binary, "--screenshot", png, path], env=env)
    return res


def show(frames, r, polars_tried):
    print("\n%d frames, %.0f MiB" % (frames, r["size_mib"]))
    print("  %-28s %8.2f s" % ("cat", r["cat"]))
    print("  %-28s %8.2f s  peak RSS %6.0f MiB = %.2f × the file"
          % ("framescope report --json", r["framescope"], r["framescope_rss"],
             r["framescope_rss"] / r["size_mib"]))
    if "polars" in r:
        print("  %-28s %8.2f s  peak RSS %6.0f MiB" % ("polars read_csv + figures", r["polars"],
                                                       r["polars_rss"]))
        print("  polars / framescope time: %.2f (goal ≥ 3)" % (r["polars"] / r["framescope"]))
        print("  %-28s %8.2f s  peak RSS %6.0f MiB" % ("polars, every column", r["polars_all"],
                                                       r["polars_all_rss"]))
        print("  polars every column / framescope time: %.2f" % (r["polars_all"] / r["framescope"]))
    elif polars_tried:
        print("  polars: skipped (pip could not install it here)")
    if "window" in r:
        print("  %-28s %8.2f s  peak RSS %6.0f MiB = %.2f × the file"
              % ("window first picture", r["window"], r["window_rss"], r["window_rss"] / r["size_mib"]))
    if "base_framescope" in r:
        print("  %-28s %8.2f s  peak RSS %6.0f MiB = %.2f × the file"
              % ("baseline report --json", r["base_framescope"], r["base_framescope_rss"],
                 r["base_framescope_rss"] / r["size_mib"]))
        print("  baseline / framescope time: %.2f" % (r["base_framescope"] / r["framescope"]))
        if "polars" in r:
            print("  polars / baseline time: %.2f" % (r["polars"] / r["base_framescope"]))
    if "base_window" in r:
        print("  %-28s %8.2f s  peak RSS %6.0f MiB = %.2f × the file"
              % ("baseline window", r["base_window"], r["base_window_rss"],
                 r["base_window_rss"] / r["size_mib"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=1_000_000)
    ap.add_argument("--tenfold", action="store_true", help="also 10× the frames, for linearity")
    ap.add_argument("--baseline", help="an earlier framescope binary to time beside this one")
    ap.add_argument("--runs", type=int, default=5, help="the median of this many runs")
    ap.add_argument("--batch", type=int, default=0, help="also a folder of this many captures")
    ap.add_argument("--bin", help="the framescope binary (default: target/release)")
    ap.add_argument("--kinds", default="plain,display",
                    help="the captures to generate and measure: plain, display (default both)")
    ap.add_argument("--no-polars", action="store_true", help="framescope only (memory figures)")
    args = ap.parse_args()
    global BIN
    BIN = args.bin or BIN
    if not os.path.exists(BIN):
        sys.exit("build first: cargo build --release (no %s)" % BIN)
    os.makedirs(OUT, exist_ok=True)
    polars_py = None if args.no_polars else polars_python()
    screenshot = bool(os.environ.get("DISPLAY"))
    sizes = [args.frames] + ([args.frames * 10] if args.tenfold else [])
    kinds = [k for k in args.kinds.split(",") if k]
    if not kinds or any(k not in KINDS for k in kinds):
        sys.exit("--kinds: a comma-separated list of %s" % ", ".join(KINDS))
    for kind in kinds:
        measure_kind(kind, sizes, args, polars_py, screenshot)


# The captures the benchmark generates: `plain`, the original one (every column but
# the frame times nearly constant, a dropped frame every 13), and `display` (issue 40
# item 9): PresentMon 2.4 as it writes, a 144 Hz refresh grid, random drops, stutters
# and oscillating stretches. Both are measured in one run so their ratios compare.
KINDS = {"plain": ("capture-%d.csv", generate),
         "display": ("capture-display-%d.csv", generate_display)}


def measure_kind(kind, sizes, args, polars_py, screenshot):
    name, make = KINDS[kind]
    results = {}
    for frames in sizes:
        path = os.path.join(OUT, name % frames)
        print("\n[%s] generating %s …" % (kind, path), flush=True)
        make(path, frames)
        results[frames] = measure(path, polars_py if frames == args.frames else None, screenshot,
                                  args.baseline, args.runs if frames == args.frames else 1)
        print("[%s]" % kind, end="")
        show(frames, results[frames], frames == args.frames and not args.no_polars)
        if args.batch and frames == args.frames:
            r = results[frames]
            print("  single file: framescope %.0f MB/s, cat %.0f MB/s"
                  % (os.path.getsize(path) / 1e6 / r["framescope"], os.path.getsize(path) / 1e6 / r["cat"]))
            measure_batch(make_batch(path, args.batch), args.baseline, args.runs)
    if args.tenfold:
        a, b = results[sizes[0]], results[sizes[1]]
        print("\n10× frames: report %.1f × the time (goal ≤ 10)" % (b["framescope"] / a["framescope"]))
        if "window" in a and "window" in b:
            print("            window %.1f × the time (goal ≤ 10–12)" % (b["window"] / a["window"]))
        if "base_framescope" in a and "base_framescope" in b:
            print("  baseline: report %.1f × the time" % (b["base_framescope"] / a["base_framescope"]))
        if "base_window" in a and "base_window" in b:
            print("  baseline: window %.1f × the time" % (b["base_window"] / a["base_window"]))


if __name__ == "__main__":
    main()
