#!/usr/bin/env python3
"""Independent test oracle for framescope's `conventions` and `telemetry` report sections.

`conventions` (shared/spec/metrics.md section 11) gives, for the analysed series of a run,
each popular tool's own figures computed the way that tool computes them: CapFrameX,
NVIDIA FrameView, Intel PresentMon (the capture app's stats file) and MangoHud (its
summary file). `telemetry` (shared/spec/cli-report.md) gives every telemetry column's
mean, min and max over the run.

The formulas are written from metrics.md section 11 alone (each tool's own source is cited
beside its formula; it was read to check the spec, never copied). Parsing, traces, frames
and the analysed series come from the two other oracles, imported read-only:
pm_oracle.py (PresentMon-family CSVs) and sampled_oracle.py (sampled logs, CapFrameX JSON).
Python 3 standard library only.

Usage:
    python3 tests/oracle/conventions_oracle.py [--frame-time auto|presents|display] FILE...
        print one JSON document per file (stdout).
    python3 tests/oracle/conventions_oracle.py --write-goldens
        regenerate tests/golden/conventions/<file stem>.<source>.json for every capture the
        other two oracles cover (39 captures, 117 files).
    python3 tests/oracle/conventions_oracle.py --check-goldens
        regenerate into a temporary folder and compare byte for byte with
        tests/golden/conventions/; exit 1 on any missing, extra or differing file.
    python3 tests/oracle/conventions_oracle.py --self-test
        hand-computed small series for every formula; exit 1 on failure.

Environment: FRAMESCOPE_TRACES overrides the capture folder
(default: <project root>/../shared/real-traces).
"""

import importlib.util
import math
import json
import os
import shutil
import struct
import sys
import tempfile

import goldens  # tests/oracle/goldens.py, beside this script

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT_ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
GOLDEN_DIR = os.path.join(PROJECT_ROOT, "tests", "golden", "conventions")


def _load(name):
    """Import a sibling oracle read-only (fresh on every run, no bytecode cache)."""
    sys.dont_write_bytecode = True
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


so = _load("sampled_oracle")   # sampled logs and CapFrameX JSON
pm = so.pm                     # the PresentMon-family oracle sampled_oracle itself loaded

SOURCES = ("presents", "display", "auto")
naive_sum = pm.naive_sum


# ======================================================================================
# Formulas (metrics.md section 11). `ft` is the analysed series (ms, all > 0), in series
# order; sums are plain left-to-right float additions in that order unless said otherwise.


def _fps(ft):
    return [1000.0 / v for v in ft]


# --- CapFrameX --------------------------------------------------------------------------
# CXWorld/CapFrameX source/CapFrameX.Statistics.NetStandard/FrametimeStatisticProvider.cs
# (GetFpsMetricValue, GetPQuantileSequence, GetPercentageHighAverageSequence,
# GetPercentageHighIntegralSequence, GetStutteringTimePercentage, GetLowFPSTimePercentage,
# GetMovingAverage) and SampleBasedMovingAverage.cs; quantiles are MathNet.Numerics
# Statistics.Quantile = ArrayStatistics.QuantileInplace. Defaults from
# AppConfiguration: StutteringFactor 2.5, StutteringThreshold 25 FPS.

CX_STUTTER_FACTOR = 2.5
CX_LOW_FPS_THRESHOLD = 25.0
CX_SPIKE_RATIO = 3.0


def r8_quantile(values, tau):
    """MathNet QuantileInplace (R-8): sort ascending a_1..a_n; h = (n + 1/3)*tau + 1/3
    (evaluated in double in that order, as MathNet does); a_1 when h < 1, a_n when h >= n,
    else a_floor(h) + (h - floor(h)) * (a_floor(h)+1 - a_floor(h))."""
    a = sorted(values)
    n = len(a)
    h = (n + 1.0 / 3.0) * tau + 1.0 / 3.0
    hf = int(h)            # h > 0, so int() is floor
    if hf <= 0 or tau == 0.0:
        return a[0]
    if hf >= n or tau == 1.0:
        return a[-1]
    lo = a[hf - 1]          # a_hf (1-based)
    hi = a[hf]              # a_hf+1
    return lo + (h - hf) * (hi - lo)


def cx_low_average(ft, tau):
    """1000 / mean{ft_i : ft_i >= Q(ft, tau)} (the 'x% low average')."""
    q = r8_quantile(ft, tau)
    tail = [v for v in ft if v >= q]      # series order, as LINQ Where keeps it
    return 1000.0 / (naive_sum(tail) / len(tail))


def cx_low_integral(ft, share):
    """Sort ft descending, add them up until the running sum reaches share * sum(ft)
    (>=); 1000 / the frame time where it does. `share` is 0.01 or 0.001 as the spec
    writes it (CapFrameX itself computes T * (1 - (1 - share)), which is a few ulps
    more; see the self-test)."""
    d = sorted(ft, reverse=True)
    target = share * naive_sum(ft)
    run = 0.0
    at = 0
    for i, v in enumerate(d):
        run += v
        at = i
        if run >= target:
            break
    return 1000.0 / d[at]


def cx_window(ft):
    """Moving-average window s = round(sqrt(mean ft) * 10), half to even
    (Convert.ToInt32 on a double rounds half to even; so does Python's round)."""
    return round(math.sqrt(naive_sum(ft) / len(ft)) * 10.0)


def cx_moving_average(ft, s=None):
    """Per frame i: mean of the s frames ending at i (fewer at the start; at least the
    frame itself, as the source loop adds before it tests the count), where a frame more
    than 3x its predecessor (its raw predecessor, ft[j] > ft[j-1] * 3) counts as that
    predecessor's value. Summed from i backwards, as the source loop does."""
    if s is None:
        s = cx_window(ft)
    out = []
    for i in range(len(ft)):
        j = i
        acc = 0.0
        count = 0
        while j >= 0:
            v = ft[j]
            if j > 0 and v > ft[j - 1] * CX_SPIKE_RATIO:
                v = ft[j - 1]
            acc += v
            count += 1
            if count >= s:
                break
            j -= 1
        out.append(acc / count)
    return out


def cx_stutter_fractions(ft):
    """(stuttering_time_fraction, low_fps_time_fraction): frame i stutters when
    ft_i > 2.5 * average_i; a low-FPS frame does not stutter and has 1000/ft_i < 25.
    Fractions of sum(ft) (CapFrameX prints them x100 as percentages)."""
    avg = cx_moving_average(ft)
    stutter = 0.0
    low = 0.0
    for v, a in zip(ft, avg):
        if v > CX_STUTTER_FACTOR * a:
            stutter += v
        elif 1000.0 / v < CX_LOW_FPS_THRESHOLD:
            low += v
    total = naive_sum(ft)
    return stutter / total, low / total


def capframex(ft, limiter=None):
    """limiter: pm_oracle.limiter of the trace (metrics.md section 13), for CapFrameX's
    GPU active deviation round(|1 - gpu_busy_share| * 100), half to even as C#'s
    Math.Round; null without one."""
    n = len(ft)
    fps = _fps(ft)
    stutter, low = cx_stutter_fractions(ft)
    return {
        "average_fps": 1000.0 * n / naive_sum(ft),
        "max_fps": max(fps),
        "min_fps": min(fps),
        "p99_fps": r8_quantile(fps, 0.99),
        "p95_fps": r8_quantile(fps, 0.95),
        "median_fps": r8_quantile(fps, 0.5),
        "p5_fps": r8_quantile(fps, 0.05),
        "p1_fps": r8_quantile(fps, 0.01),
        "p0_2_fps": r8_quantile(fps, 0.002),
        "p0_1_fps": r8_quantile(fps, 0.001),
        "low_1pct_avg_fps": cx_low_average(ft, 0.99),
        "low_0_1pct_avg_fps": cx_low_average(ft, 0.999),
        "low_1pct_integral_fps": cx_low_integral(ft, 0.01),
        "low_0_1pct_integral_fps": cx_low_integral(ft, 0.001),
        "stuttering_time_fraction": stutter,
        "low_fps_time_fraction": low,
        "gpu_active_deviation_pct": float(round(abs(1.0 - limiter["gpu_busy_share"]) * 100.0))
        if limiter else None,
    }


# --- FrameView --------------------------------------------------------------------------
# NVIDIA FrameView is closed source; metrics.md section 11 defines these from its
# FrameView_Summary.csv, reproduced on a real capture (see the README of this folder).
# floor(p * n) is taken in exact integer arithmetic (n // 100 etc.).

FV_PERCENTS = [("fps_10pct", 10, 100), ("fps_5pct", 5, 100), ("fps_1pct", 1, 100),
               ("fps_0_1pct", 1, 1000)]


def fv_k(n, num, den):
    """floor(num/den * n) + 1, exactly."""
    return n * num // den + 1


def frameview(ft):
    n = len(ft)
    d = sorted(ft, reverse=True)            # slowest first

    def low(k):
        return 1000.0 * k / naive_sum(d[:k])

    out = {
        "average_fps": 1000.0 * n / naive_sum(ft),
        "low_1pct_fps": low(fv_k(n, 1, 100)),
        "low_0_1pct_fps": low(fv_k(n, 1, 1000)),
    }
    for key, num, den in FV_PERCENTS:
        out[key] = 1000.0 / d[fv_k(n, num, den) - 1]   # the k-th slowest, 1-based
    return out


# --- PresentMon -------------------------------------------------------------------------
# GameTechDev/PresentMon IntelPresentMon/Core/source/pmon/RawFrameDataWriter.cpp
# (WriteStats_: Average FPS = 1/mean, Minimum FPS = 1/max, "1st Percentile FPS" =
# 1/GetPercentile(.99), "5th Percentile FPS" = 1/GetPercentile(.95), Maximum FPS = 1/min)
# and StatisticsTracker.cpp (GetPercentile: index (n-1)*p, linear between the two ranks).
# The source works in seconds (ms / 1000, then 1 / x) and weights v[lo]*(1-w) + v[hi]*w;
# metrics.md writes 1000 / x and the section 2 form a + w*(b - a): the same figure up to
# the last bits.


def linear_percentile(sorted_vals, p):
    """metrics.md section 2: h = (n-1)*p, a[floor h] + (h - floor h)*(a[floor h+1] - a[floor h])."""
    n = len(sorted_vals)
    h = (n - 1) * p
    lo = int(math.floor(h))
    if lo + 1 >= n:
        return sorted_vals[n - 1]
    a = sorted_vals[lo]
    return a + (h - lo) * (sorted_vals[lo + 1] - a)


def presentmon(ft):
    s = sorted(ft)
    return {
        "average_fps": 1000.0 / (naive_sum(ft) / len(ft)),
        "p1_fps": 1000.0 / linear_percentile(s, 0.99),
        "p5_fps": 1000.0 / linear_percentile(s, 0.95),
        "min_fps": 1000.0 / s[-1],
        "max_fps": 1000.0 / s[0],
    }


# --- MangoHud ---------------------------------------------------------------------------
# flightlessmango/MangoHud src/logging.cpp (writeSummary, 0.8: "0.1% Min FPS",
# "1% Min FPS", "97% Percentile FPS", "Average FPS" = 1000 / (sum frametime / n)) and
# src/fps_metrics.h (fpsMetrics::calculate: frame times sorted descending,
# idx = val * n - 1 converted to an unsigned integer, value 1000 / sorted[idx]).
# metrics.md: m(v) = 1000 / d[max(0, trunc(v*n - 1))], here in exact integer arithmetic
# (v = num/den). MangoHud does it in float32, which picks one rank more for v = 0.97 from
# n = 135167 frames on (self-test); no capture here is that long.

MH_METRICS = [("low_1pct_fps", 1, 100), ("low_0_1pct_fps", 1, 1000), ("p97_fps", 97, 100)]


def mh_index(n, num, den):
    """max(0, trunc(num/den * n - 1)), exactly. v*n - 1 > -1 always, so trunc is 0 below 0."""
    x = n * num - den          # (v*n - 1) * den
    return x // den if x > 0 else 0


def mangohud(ft):
    n = len(ft)
    d = sorted(ft, reverse=True)
    out = {"average_fps": 1000.0 / (naive_sum(ft) / n)}
    for key, num, den in MH_METRICS:
        out[key] = 1000.0 / d[mh_index(n, num, den)]
    return out


# MangoHud 0.6.x (metrics.md section 11; writeSummary of 0.6.8 sorts the log's rows by
# `fps`): logs whose frametime is in microseconds are summarised on the logged `fps`
# column, every row: a = fps ascending, the 0.1 % and 1 % "min" are the means of the
# lowest ceil(p*n), 97 % is a[floor(0.97*(n-1))], the average the plain mean.


def mangohud_06(fps):
    n = len(fps)
    a = sorted(fps)
    out = {"average_fps": naive_sum(fps) / n}
    for key, per in (("low_1pct_fps", 100), ("low_0_1pct_fps", 1000)):
        k = max(1, -(-n // per))
        out[key] = naive_sum(a[:k]) / k
    out["p97_fps"] = a[(97 * (n - 1)) // 100]
    return {"average_fps": out["average_fps"], "low_1pct_fps": out["low_1pct_fps"],
            "low_0_1pct_fps": out["low_0_1pct_fps"], "p97_fps": out["p97_fps"]}


# MangoHud 0.7.x and 0.8.0-0.8.1 (their writeSummary, read in MangoHud's sources at the
# tags v0.7.0..v0.7.2 and v0.8.0..v0.8.1; docs/decisions.md): the version line decides,
# else the newest column of the header (swap_used/process_rss 0.7.0, cpu_power 0.8.0,
# cpu_mhz 0.8.2).
#   0.7.x: rows sorted by fps ascending; the lows are 1000 / the mean frametime of the
#          first ceil(p*n) rows, 97 % is 1000 / frametime of row floor(0.97*(n-1)), the
#          average 1000 / mean frametime.
#   0.8.0-0.8.1: fps ascending, a[max(0, trunc(p*n - 1))] for p = 0.001, 0.01, 0.97;
#          the average 1000 / mean frametime.
# Rows with both a fps and a frametime > 0 count.


def mangohud_generation(header_lc, version):
    if version is None:
        if "cpu_mhz" in header_lc:
            version = (0, 8, 2)
        elif "cpu_power" in header_lc:
            version = (0, 8, 0)
        elif "swap_used" in header_lc or "process_rss" in header_lc:
            version = (0, 7, 0)
        else:
            version = (0, 6, 0)
    if version < (0, 7, 0):
        return "0.6"
    if version < (0, 8, 0):
        return "0.7"
    if version < (0, 8, 2):
        return "0.8.0"
    return "0.8.2"


def mangohud_07(pairs):
    rows = sorted(pairs, key=lambda r: r[0])
    n = len(rows)
    out = {"average_fps": 1000.0 / (naive_sum([t for _, t in rows]) / n)}
    for key, per in (("low_1pct_fps", 100), ("low_0_1pct_fps", 1000)):
        k = max(1, -(-n // per))
        out[key] = 1000.0 / (naive_sum([t for _, t in rows[:k]]) / k)
    out["p97_fps"] = 1000.0 / rows[(97 * (n - 1)) // 100][1]
    return {k: out[k] for k in ("average_fps", "low_1pct_fps", "low_0_1pct_fps", "p97_fps")}


def mangohud_080(pairs):
    n = len(pairs)
    a = sorted(r for r, _ in pairs)

    def at(p):
        return a[min(n - 1, max(0, math.trunc(p * n - 1)))]
    return {"average_fps": 1000.0 / (naive_sum([t for _, t in pairs]) / n),
            "low_1pct_fps": at(0.01), "low_0_1pct_fps": at(0.001), "p97_fps": at(0.97)}


def mangohud_own(lines):
    """The summary of the MangoHud version that wrote the log when that version
    summarises its rows by fps (0.6, 0.7, 0.8.0-0.8.1); None for 0.8.2 and later."""
    k, version = so.mangohud_header(lines)
    header_lc = [h.lower() for h in so.csv_cells(lines[k])]
    gen = mangohud_generation(header_lc, version)
    if gen == "0.8.2":
        return None
    if gen == "0.6":
        fps06 = mangohud_06_fps(lines)
        return mangohud_06(fps06) if fps06 else None
    pairs = mangohud_fps_rows(lines)
    if not pairs:
        return None
    return mangohud_07(pairs) if gen == "0.7" else mangohud_080(pairs)


def conventions(ft, limiter=None):
    """The four tools' figures of one non-empty series."""
    return {
        "capframex": capframex(ft, limiter),
        "frameview": frameview(ft),
        "presentmon": presentmon(ft),
        "mangohud": mangohud(ft),
    }


# ======================================================================================
# Telemetry (cli-report.md `telemetry`; the rule is documented in README.md)
#
# A column is telemetry when it has at least one numeric cell in the run and is none of:
#   * a PresentMon-family frame column: identity, present flags, times and every
#     per-present metric a PresentMon console / FrameView / OCAT / CapFrameX writer puts
#     in its frame rows (formats.md sections 1-4) -- FRAME_COLUMNS below;
#   * OCAT's system-info columns (filled on the first row only, formats.md section 4);
#   * for a sampled log: its time, PID, rate and latency columns (metrics.md section 10);
#     every other numeric column is telemetry (section 10), MangoHud's and Afterburner's
#     `frametime` included (one frame at the sampling instant, not the rate);
#   * for a per-frame MangoHud log: fps, frametime, elapsed.
# Names are matched trimmed and case-insensitively; a column whose name repeats an earlier
# one (Afterburner's second `Framerate`), or is empty, is left out. Keys keep the header's
# spelling (trimmed), in header order.
# Per-frame captures: plain mean (left-to-right) / min / max over the numeric cells of every
# frame of the trace (dropped ones included, whatever the source: what FrameView's summary
# averages). Sampled logs: over the samples (the rows that close an interval and report a
# rate), mean weighted by the sample's interval dt (sum v*dt / sum dt over the samples whose
# cell is numeric), min / max of those cells. CapFrameX JSON: its per-frame arrays hold
# no telemetry; its sensors (SensorData2, issue 20) are, per frame: a frame presented at
# TimeInSeconds t takes the value of the first sensor sample with MeasureTime >= t (none
# after the last sample), over the frames with MsBetweenPresents > 0; see cx_sensors.

FRAME_COLUMNS = {c.lower() for c in [
    # identity and present description
    "Application", "ProcessID", "SwapChainAddress", "Runtime", "PresentRuntime",
    "SyncInterval", "PresentFlags", "AllowsTearing", "PresentMode", "FrameType",
    "HybridPresent", "VidPnSourceId", "LayerIndex", "Dropped", "WasBatched", "DwmNotified",
    "FlipToken", "FrameId", "PresentId", "AppFrameId", "PCLFrameId",
    # times
    "TimeInSeconds", "TimeInMs", "TimeInQPC", "TimeInDateTime", "QPCTime", "CPUStartTime",
    "CPUStartQPC", "CPUStartQPCTime", "CPUStartDateTime", "CPUStartTimeInMs",
    "CPUStartQPCTimeInMs", "CPUStartTimeInSeconds", "DisplayTimeAbs", "msDisplayTime",
    "AnimationTime",
    # per-present metrics, 1.x / 2.x / FrameView / OCAT spellings
    "MsBetweenPresents", "MsBetweenDisplayChange", "MsInPresentAPI", "MsUntilRenderComplete",
    "MsUntilDisplayed", "MsUntilRenderStart", "MsGPUActive", "MsGPUVideoActive",
    "MsSinceInput", "MsFlipDelay", "MsBetweenSimulationStart", "MsRenderPresentLatency",
    "MsPCLatency", "MsBetweenAppStart", "MsCPUBusy", "MsCPUWait", "MsGPULatency",
    "MsGPUTime", "MsGPUBusy", "MsGPUWait", "MsVideoBusy", "MsAnimationError",
    "MsAllInputToPhotonLatency", "MsClickToPhotonLatency", "MsInstrumentedLatency",
    "MsEstimatedDriverLag", "FrameTime", "CPUBusy", "CPUWait", "GPULatency", "GPUTime",
    "GPUBusy", "GPUWait", "VideoBusy", "DisplayLatency", "DisplayedTime", "AnimationError",
    "ClickToPhotonLatency", "AllInputToPhotonLatency", "InstrumentedLatency",
    "Render Queue Depth",
    # PresentMon's ETW diagnostics
    "EtwBufferFillPct", "EtwBuffersInUse", "EtwTotalBuffers", "EtwEventsLost",
    "EtwBuffersLost", "OverflowedPresents",
    # FrameView / OCAT system description, OCAT frame size
    "GPU", "CPU", "Resolution", "Width", "Height",
    "Motherboard", "OS", "Processor", "System RAM", "Base Driver Version", "Driver Package",
    "GPU #", "GPU Core Clock (MHz)", "GPU Memory Clock (MHz)", "GPU Memory (MB)", "Comment",
]}

NVIDIA_APP_EXCLUDED = {c.lower() for c in [
    so.NV_TIME, "PID", "FPS", so.NV_PCL, so.NV_RENDER]}
MANGOHUD_SAMPLED_EXCLUDED = {"fps", "elapsed"}
MANGOHUD_FRAME_EXCLUDED = {"fps", "frametime", "elapsed"}


def telemetry_columns(header, excluded):
    """(name as written, trimmed; index) of the header's candidate telemetry columns:
    not excluded, not empty, first occurrence of a name (case-insensitive)."""
    seen = set()
    out = []
    for i, raw in enumerate(header):
        name = raw.strip()
        key = name.lower()
        if not name or key in seen:
            continue
        seen.add(key)
        if key in excluded:
            continue
        out.append((name, i))
    return out


def plain_stats(cells_by_column):
    """{name: {mean, min, max}} of each column with at least one numeric value; values
    are lists of floats in file order."""
    out = {}
    for name, vals in cells_by_column:
        if vals:
            out[name] = {"mean": naive_sum(vals) / len(vals), "min": min(vals),
                         "max": max(vals)}
    return out


def weighted_stats(cells_by_column):
    """As plain_stats, for (value, dt) pairs: mean = sum v*dt / sum dt."""
    out = {}
    for name, pairs in cells_by_column:
        if pairs:
            num = 0.0
            den = 0.0
            for v, dt in pairs:
                num += v * dt
                den += dt
            vals = [v for v, _ in pairs]
            out[name] = {"mean": num / den, "min": min(vals), "max": max(vals)}
    return out


def _cell(cells, i):
    return pm.parse_num(cells[i].strip()) if i < len(cells) else None


def pm_telemetry(header, rows_by_line, frames):
    """Per-frame means over the trace's frames (their rows), PresentMon-family CSV."""
    cols = telemetry_columns(header, FRAME_COLUMNS)
    per_col = []
    for name, i in cols:
        vals = []
        for f in frames:
            v = _cell(rows_by_line[f.line], i)
            if v is not None:
                vals.append(v)
        per_col.append((name, vals))
    return plain_stats(per_col)


# ======================================================================================
# Documents


def fv_power(fv, tele):
    """metrics.md section 15: FrameView's summary "GPU NV Power (Watts) (API)", "CPU Package
    Power(Watts)" and "Perf/Watt (F/J) (PCAT)" are plain per-row means of the log's
    `NV Pwr(W) (API)`, `CPU Package Power(W)` and `PCAT Power Total(W)` (the telemetry
    means, which are per row), the last as average FPS / PCAT power; null without them."""
    def mean(name):
        for k, v in tele.items():
            if k.lower() == name.lower():
                return v["mean"]
        return None
    pcat = mean("PCAT Power Total(W)")
    fv["gpu_nv_power_w"] = mean("NV Pwr(W) (API)")
    fv["cpu_package_power_w"] = mean("CPU Package Power(W)")
    fv["perf_per_watt_pcat"] = fv["average_fps"] / pcat if pcat is not None and pcat > 0 else None
    return fv


def _trace_entry(application, process_id, swap_chain, conv, tele):
    if conv is not None and conv.get("frameview") is not None:
        fv_power(conv["frameview"], tele)
    return {"application": application, "process_id": process_id, "swap_chain": swap_chain,
            "conventions": conv, "telemetry": tele}


def pm_document(path, source):
    """PresentMon-family CSV (pm_oracle's captures)."""
    parsed = pm.read_capture(path)
    analysis = pm.analyse_text(parsed)
    _, _, header, rows = parsed
    rows_by_line = dict(rows)
    traces = []
    for tr in analysis["traces"]:
        resolved = pm.resolve_source(tr.frames, source)
        if resolved == "presents":
            _, vals = pm.presents_series(tr.frames)
        else:
            _, vals = pm.display_series(tr.frames)
        lim = pm.limiter(tr.frames, analysis["latency_columns"])
        traces.append(_trace_entry(tr.application, tr.process_id, tr.swap_chain,
                                   conventions(vals, lim) if vals else None,
                                   pm_telemetry(header, rows_by_line, tr.frames)))
    return traces


def sampled_telemetry(kind, lines, samples):
    """Δt-weighted telemetry of a sampled log over its samples. Sample.line is the 1-based
    physical line of the row that closes the sample's interval."""
    if kind == "nvidia-app":
        header = so.csv_cells(lines[0])
        cols = telemetry_columns(header, NVIDIA_APP_EXCLUDED)

        def cells_of(line):
            return so.csv_cells(line)
    elif kind == "afterburner":
        header = None
        for line in lines:
            parts = line.split(",")
            try:
                if int(parts[0].strip()) == 2:
                    header = [c.strip() for c in parts[2:]]
                    break
            except ValueError:
                continue
        i_rate = so.column_index(header, "Framerate")
        rate_name = "framerate" if i_rate is not None else "frametime"
        cols = telemetry_columns(header, {rate_name})

        def cells_of(line):
            return [c.strip() for c in line.split(",")[2:]]
    else:  # mangohud, sampled
        k, _ = so.mangohud_header(lines)
        header = so.csv_cells(lines[k])
        cols = telemetry_columns(header, MANGOHUD_SAMPLED_EXCLUDED)

        def cells_of(line):
            return so.csv_cells(line)
    # Lead's decision: MangoHud's logged `frametime` is reported in ms, the unit framescope
    # reads it in (0.6.0-0.6.8 write microseconds), like every other frame time.
    ft_scale = mangohud_frametime_scale(lines) if kind == "mangohud" else 1.0
    per_col = [(name, []) for name, _ in cols]
    for s in samples:
        cells = cells_of(lines[s.line - 1])
        for (name, i), (_, pairs) in zip(cols, per_col):
            v = _cell(cells, i)
            if v is not None:
                pairs.append((v * ft_scale if name.lower() == "frametime" else v, s.dt))
    return weighted_stats(per_col)


def mangohud_frametime_scale(lines):
    """1e-3 when the log's `frametime` is in microseconds, else 1."""
    k, version = so.mangohud_header(lines)
    header = so.csv_cells(lines[k])
    i_fps = so.column_index(header, "fps")
    i_ft = so.column_index(header, "frametime")
    if i_ft is None:
        return 1.0
    rows = [so.csv_cells(line) for line in lines[k + 1:] if line.strip()]
    fts = [v for v in (so.cell(c, i_ft) for c in rows) if v is not None and v > 0]
    fpss = [r for r in (so.cell(c, i_fps) for c in rows) if r is not None and r > 0]
    unit = so.mangohud_frametime_unit([h.lower() for h in header], version, fts, fpss)
    return 0.001 if unit == "us" else 1.0


def mangohud_data_rows(lines):
    """(header, the cells of every row sampled_oracle reads: enough fields and a usable
    elapsed), in file order."""
    k, _ = so.mangohud_header(lines)
    header = so.csv_cells(lines[k])
    i_el = so.column_index(header, "elapsed")
    rows = []
    for line in lines[k + 1:]:
        if not line.strip():
            continue
        cells = so.csv_cells(line)
        if len(cells) < len(header) or so.cell(cells, i_el) is None:
            continue
        rows.append(cells)
    return header, rows


def mangohud_rows(lines):
    """The logged frametime of every row (ms), as MangoHud's summary sees them: the rows
    sampled_oracle reads (enough fields, a usable elapsed), frametime numeric and > 0,
    in file order, the first row included. Also the per-row cells for per-frame logs.
    Returns (header, [(cells, frametime_ms)]) or (header, None) without a frametime column."""
    k, version = so.mangohud_header(lines)
    header = so.csv_cells(lines[k])
    header_lc = [h.lower() for h in header]
    i_fps = so.column_index(header, "fps")
    i_ft = so.column_index(header, "frametime")
    _, rows = mangohud_data_rows(lines)
    if i_ft is None:
        return header, None
    fts = [so.cell(c, i_ft) for c in rows]
    fpss = [r for r in (so.cell(c, i_fps) for c in rows) if r is not None and r > 0]
    unit = so.mangohud_frametime_unit(header_lc, version,
                                      [v for v in fts if v is not None and v > 0], fpss)
    scale = 0.001 if unit == "us" else 1.0
    return header, [(c, v * scale) for c, v in zip(rows, fts) if v is not None and v > 0]


def mangohud_fps_rows(lines):
    """(fps, frametime ms) of every row mangohud_rows reads with a fps and a frametime
    above 0, in file order."""
    header, rows = mangohud_data_rows(lines)
    i_fps = so.column_index(header, "fps")
    i_ft = so.column_index(header, "frametime")
    if i_fps is None or i_ft is None:
        return []
    scale = mangohud_frametime_scale(lines)
    out = []
    for cells in rows:
        r, t = so.cell(cells, i_fps), so.cell(cells, i_ft)
        if r is not None and math.isfinite(r) and t is not None and t > 0:
            out.append((r, t * scale))
    return out


def mangohud_06_fps(lines):
    """A 0.6.x log's (no column of 0.7.0 or later) logged fps, every row mangohud_rows
    reads with a number there, in file order; None for a later version's log."""
    k, version = so.mangohud_header(lines)
    header = so.csv_cells(lines[k])
    i_fps = so.column_index(header, "fps")
    if i_fps is None or mangohud_generation([h.lower() for h in header], version) != "0.6":
        return None
    _, rows = mangohud_data_rows(lines)
    out = [v for v in (so.cell(cells, i_fps) for cells in rows) if v is not None and math.isfinite(v)]
    return out or None


# LibreHardwareMonitor sensor types: whether the type word is added to the sensor's Name
# to name the column ("GPU Core" + "Clock" -> "GPU Core Clock"; never twice).
CX_TYPE_IN_NAME = {"Voltage", "Current", "Power", "Clock", "Temperature", "Load", "Frequency",
                   "Fan", "Flow", "Control", "Level", "Throughput", "Energy", "Noise"}


def cx_sensors(path, run_no):
    """Telemetry of the run_no-th run with frames of a CapFrameX JSON from SensorData2."""
    with open(path, encoding="utf-8-sig") as fh:
        run = json.load(fh)["Runs"][run_no]
    sd = run.get("SensorData2") or {}
    cd = run["CaptureData"]
    measure = sd.get("MeasureTime", {}).get("Values")
    if not measure:
        return {}
    times = [t for t, ft in zip(cd["TimeInSeconds"], cd["MsBetweenPresents"])
             if ft is not None and ft > 0]

    def sample(t):
        for j, m in enumerate(measure):
            if m >= t:
                return j
        return None
    which = [sample(t) for t in times]
    cols = []
    for key, sensor in sd.items():
        if key in ("MeasureTime", "BetweenMeasureTime"):
            continue
        name, kind, vals = sensor["Name"], sensor["Type"], sensor["Values"]
        if kind in CX_TYPE_IN_NAME and kind.lower() not in name.lower():
            name = name + " " + kind
        cols.append((name, [float(vals[j]) for j in which if j is not None and j < len(vals)]))
    return plain_stats(cols)


def sampled_or_cx_document(path, source):
    analysis = so.analyse(path)
    fmt = analysis["format"]
    stem = os.path.splitext(os.path.basename(path))[0]
    if fmt == "capframex-json":
        traces = []
        for tr in analysis["traces"]:
            used = "presents" if source in ("presents", "auto") else "display"
            if used == "presents":
                vals = [f.ft for f in tr["frames"] if f.ft is not None]
            else:
                vals = [f.disp for f in tr["frames"] if f.disp is not None]
            traces.append(_trace_entry(tr["application"], None, None,
                                       conventions(vals) if vals else None,
                                       cx_sensors(path, len(traces))))
        return traces
    lines = so.split_lines(so.read_text(path))
    if fmt == "mangohud" and not analysis["sampled"]:
        # A per-frame MangoHud log: ordinary per-frame figures over its frames.
        vals = analysis["frames"]
        header, rows = mangohud_rows(lines)
        cols = telemetry_columns(header, MANGOHUD_FRAME_EXCLUDED)
        per_col = []
        for name, i in cols:
            per_col.append((name, [v for v in (_cell(c, i) for c, _ in (rows or []))
                                   if v is not None]))
        conv = conventions(vals) if vals else None
        own = mangohud_own(lines)
        if conv is not None and own:
            conv["mangohud"] = own
        return [_trace_entry(stem, analysis["process_id"], None, conv, plain_stats(per_col))]
    conv = None
    if fmt == "mangohud":
        _, rows = mangohud_rows(lines)
        fts = [ft for _, ft in rows] if rows else []
        own = mangohud_own(lines)
        conv = {"capframex": None, "frameview": None, "presentmon": None,
                "mangohud": own if own else (mangohud(fts) if fts else None)}
    tele = sampled_telemetry(fmt, lines, analysis["samples"])
    return [_trace_entry(stem, analysis["process_id"], None, conv, tele)]


def document(path, source, kind=None):
    """kind: 'pm' or 'sampled' (None: detect; sampled_oracle's detect decides)."""
    if kind is None:
        try:
            so.detect(path, so.read_text(path))
            kind = "sampled"
        except so.OracleError:
            kind = "pm"
    traces = pm_document(path, source) if kind == "pm" else \
        sampled_or_cx_document(path, source)
    return {"file": pm.relpath_for(path), "frame_time": source, "traces": traces}


# ======================================================================================
# Self-test


def f32(x):
    return struct.unpack("<f", struct.pack("<f", float(x)))[0]


def mh_index_float32(n, v):
    """MangoHud's own arithmetic (fps_metrics.h): float val * size_t n - 1 in float32,
    converted to uint64 (truncation; x in (-1, 0) truncates to 0)."""
    x = f32(f32(f32(v) * f32(n)) - 1.0)
    return max(0, int(x))


def self_test():
    failures = []

    def check(name, got, want, tol=0.0):
        if tol:
            ok = got is not None and abs(got - want) <= tol * max(1.0, abs(want))
        else:
            ok = got == want
        print("%-70s %s" % (name, "ok" if ok else "FAIL: got %r, want %r" % (got, want)))
        if not ok:
            failures.append(name)

    # --- R-8 quantile (MathNet ArrayStatistics.QuantileInplace) -------------------------
    a = [5.0, 3.0, 1.0, 4.0, 2.0]                     # sorted: 1 2 3 4 5, n = 5
    # tau 0.5: h = (5 + 1/3)*0.5 + 1/3 = 3 -> a_3 = 3
    check("R8: n=5, tau 0.5 -> h = 3 -> a_3 = 3", r8_quantile(a, 0.5), 3.0, 1e-12)
    # tau 0.01: h = 5.3333*0.01 + 0.3333 = 0.3867 < 1 -> a_1
    check("R8: n=5, tau 0.01 -> h = 0.387 < 1 -> a_1 = 1", r8_quantile(a, 0.01), 1.0)
    # tau 0.99: h = 5.28 + 0.3333 = 5.613 >= n -> a_n
    check("R8: n=5, tau 0.99 -> h = 5.61 >= 5 -> a_5 = 5", r8_quantile(a, 0.99), 5.0)
    # tau 0.3: h = 1.6 + 0.3333 = 1.9333 -> a_1 + 0.9333*(a_2 - a_1) = 1.9333
    check("R8: n=5, tau 0.3 -> 1 + 0.9333*(2 - 1)", r8_quantile(a, 0.3), 1.0 + 14.0 / 15.0,
          1e-12)
    # n = 100, values 1..100, tau 0.99: h = 100.3333*0.99 + 0.3333 = 99.6633
    # -> a_99 + 0.6633*(a_100 - a_99) = 99.6633
    hundred = [float(v) for v in range(1, 101)]
    check("R8: 1..100, tau 0.99 -> 99.6633", r8_quantile(hundred, 0.99),
          (100 + 1 / 3) * 0.99 + 1 / 3, 1e-12)
    check("R8: single value", r8_quantile([7.0], 0.5), 7.0)
    # h exactly 1 (tau = (2/3)/(n + 1/3)): a_1 + 0 -- the first interpolated rank
    check("R8: h = 1 (boundary, n=3 tau 0.2) gives a_1", r8_quantile([1.0, 2.0, 3.0], 0.2), 1.0, 1e-12)

    # --- CapFrameX figures on 9 x 10 ms + 50 ms ----------------------------------------
    ft = [10.0] * 9 + [50.0]
    cx = capframex(ft)
    check("CX: average = 1000*10/140", cx["average_fps"], 10000.0 / 140.0, 1e-12)
    check("CX: max/min fps from the extreme frames", (cx["max_fps"], cx["min_fps"]),
          (100.0, 20.0))
    # fps ascending 20, 100 x 9. median: h = 10.3333*0.5 + 0.3333 = 5.5 -> 100;
    # P1: h = 0.1033 + 0.3333 < 1 -> 20; P5: h = 0.85 < 1 -> 20; P95: 10.15 >= 10 -> 100
    check("CX: median 100, P5 20, P1 20, P95 100",
          (cx["median_fps"], cx["p5_fps"], cx["p1_fps"], cx["p95_fps"]),
          (100.0, 20.0, 20.0, 100.0))
    # Q(ft, 0.99): h = 10.23 + 0.33 >= 10 -> 50; mean{ft >= 50} = 50 -> 20 FPS
    check("CX: 1% low average = 1000/mean{ft >= Q(ft, .99)} = 20",
          cx["low_1pct_avg_fps"], 20.0)
    # integral: 1% of 140 = 1.4, reached by the first (50 ms) frame -> 20 FPS
    check("CX: 1% low integral = 20", cx["low_1pct_integral_fps"], 20.0)
    # 1..100 ms: Q(ft,.99) = 99.6633 -> only the 100 ms frame -> 10 FPS
    check("CX: 1% low average on 1..100 ms = 10",
          capframex(hundred)["low_1pct_avg_fps"], 10.0)
    # integral walk over several frames: [12, 11, 10] + 2270 x 1 ms, T = 2303:
    # 1% = 23.03: 12, 23 (< 23.03), 33 >= -> 10 ms -> 100 FPS; 0.1% = 2.303 -> 12 ms
    ft = [12.0, 11.0, 10.0] + [1.0] * 2270
    check("CX: integral 1% walks to the third frame (10 ms) -> 100",
          cx_low_integral(ft, 0.01), 100.0)
    check("CX: integral 0.1% stops at the first (12 ms) -> 83.33",
          cx_low_integral(ft, 0.001), 1000.0 / 12.0)
    # A tie: [10] + 110 x 9 ms, T = 1000, 1% = 10 is reached exactly by the first frame:
    # spec (1 % of sum) -> 100 FPS. CapFrameX's GetPercentageHighIntegralSequence(seq,
    # 1 - 0.01) computes T * (1 - 0.99) = 10.000000000000009, adds the second frame and
    # prints 1000/9 = 111.1: the oracle follows the spec.
    ft = [10.0] + [9.0] * 110
    check("CX: integral tie (sum == 1% exactly) -> first frame, 100 (spec)",
          cx_low_integral(ft, 0.01), 100.0)
    check("CX: CapFrameX's own 1 - (1 - 0.01) is not 0.01", 1 - (1 - 0.01) == 0.01, False)

    # Window s = round(sqrt(mean)*10), half to even (Convert.ToInt32):
    # mean 1.5625 -> 12.5 -> 12; 0.5625 -> 7.5 -> 8; 3.0625 -> 17.5 -> 18; 2.25 -> 15
    check("CX: window 12.5 -> 12, 7.5 -> 8, 17.5 -> 18, 15 -> 15 (half to even)",
          [cx_window([m]) for m in (1.5625, 0.5625, 3.0625, 2.25)], [12, 8, 18, 15])
    # [2.5]*4 + [1.25]*12: mean 25/16 = 1.5625 -> s = 12; the average at i = 15 covers
    # frames 4..15 = 1.25 (half away from zero, s = 13, would give 17.5/13 = 1.346)
    ma = cx_moving_average([2.5] * 4 + [1.25] * 12)
    check("CX: moving average at 15 = 1.25 (12 frames)", ma[15], 1.25)
    # fewer at the start: at i = 1 the mean of frames 0..1 = 2.5; at i = 5: (2.5*4 + 1.25*2)/6
    check("CX: moving average at the start uses the frames so far",
          (ma[1], ma[5]), (2.5, 12.5 / 6.0))
    # 3x predecessor rule: [10, 10, 10, 35], mean 16.25 -> s = 40. At i = 3, 35 > 3*10
    # counts as 10: average 10, 35 > 25 -> stutter (35/65). Without the rule the average
    # is 65/4 = 16.25 and 35 < 40.6: no stutter. 35 ms = 28.6 FPS: not low FPS.
    st, low = cx_stutter_fractions([10.0, 10.0, 10.0, 35.0])
    check("CX: 3x predecessor rule makes 35 after 10s a stutter (35/65)", st, 35.0 / 65.0)
    check("CX: ... and it is not low-FPS time", low, 0.0)
    # The raw predecessor is compared: [10, 40, 130]: 130 > 3*40 -> counts 40; 40 > 3*10
    # -> counts 10. Averages 10, 10, (10+10+40)/3 = 20 -> 40 > 25 and 130 > 50 both stutter.
    check("CX: chained spikes use raw predecessors",
          cx_moving_average([10.0, 40.0, 130.0]), [10.0, 10.0, 20.0])
    check("CX: chained spikes -> stutter time 170/180",
          cx_stutter_fractions([10.0, 40.0, 130.0])[0], 170.0 / 180.0)
    # Low FPS: 4 x 50 ms (20 FPS), no stutter -> all time is low-FPS time
    check("CX: steady 20 FPS -> stuttering 0, low-FPS 1",
          cx_stutter_fractions([50.0] * 4), (0.0, 1.0))
    # 25 after three 10s (not > 3x 10): mean 13.75 -> s = 37; average at 3 = 55/4 = 13.75,
    # 25 < 2.5*13.75 = 34.4 -> no stutter; 25 ms = 40 FPS -> not low FPS either
    check("CX: 25 ms among 10s is not a stutter", cx_stutter_fractions([10.0] * 3 + [25.0]),
          (0.0, 0.0))

    # --- FrameView ----------------------------------------------------------------------
    # n = 250, ft = 250, 249, ..., 1 ms (the k-th slowest is 251 - k):
    # 1% low: k = floor(2.5) + 1 = 3 -> 3000/(250+249+248); 0.1% low: k = floor(0.25)+1 = 1
    # fps_10pct: floor(25)+1 = 26th slowest = 225 ms; 5%: floor(12.5)+1 = 13th = 238;
    # 1%: 3rd = 248; 0.1%: 1st = 250
    ft = [float(250 - i) for i in range(250)]
    fv = frameview(ft)
    check("FV: 1% low k = floor(0.01n)+1 = 3", fv["low_1pct_fps"], 3000.0 / 747.0, 1e-12)
    check("FV: 0.1% low k = 1", fv["low_0_1pct_fps"], 4.0)
    check("FV: 10/5/1/0.1 % FPS = 1000 / the (floor(pn)+1)-th slowest",
          (fv["fps_10pct"], fv["fps_5pct"], fv["fps_1pct"], fv["fps_0_1pct"]),
          (1000.0 / 225, 1000.0 / 238, 1000.0 / 248, 1000.0 / 250))
    check("FV: k at n = 99, 100, 199, 200 (the +1 even at whole multiples)",
          [fv_k(n, 1, 100) for n in (99, 100, 199, 200)], [1, 2, 2, 3])
    check("FV: floor(p*n) exact (n = 700: 7)", fv_k(700, 1, 100), 8)

    # --- PresentMon ---------------------------------------------------------------------
    # [10, 20, 30, 40]: mean 25 -> 40 FPS; P99: h = 3*0.99 = 2.97 -> 30 + 0.97*10 = 39.7;
    # P95: 2.85 -> 38.5; min 1000/40, max 1000/10
    pmc = presentmon([40.0, 10.0, 30.0, 20.0])
    check("PM: average 1000/mean", pmc["average_fps"], 40.0)
    check("PM: 1st percentile FPS = 1000/P99 = 1000/39.7", pmc["p1_fps"], 1000.0 / 39.7,
          1e-12)
    check("PM: 5th percentile FPS = 1000/P95 = 1000/38.5", pmc["p5_fps"], 1000.0 / 38.5,
          1e-12)
    check("PM: min/max", (pmc["min_fps"], pmc["max_fps"]), (25.0, 100.0))
    check("PM: linear percentile == pm_oracle's section 2 percentile",
          [linear_percentile(hundred, p) for p in (0.5, 0.9, 0.99, 0.999)],
          [pm.percentile(hundred, p) for p in (0.5, 0.9, 0.99, 0.999)])

    # --- MangoHud -----------------------------------------------------------------------
    # n = 298 (as the RX 9070 XT logs): 1%: trunc(2.98 - 1) = 1 -> 2nd slowest;
    # 0.1%: trunc(0.298 - 1) = trunc(-0.702) = 0 -> slowest; 97%: trunc(289.06 - 1) = 288
    ft = [float(i) for i in range(1, 299)]            # 1..298 ms, d[k] = 298 - k
    mh = mangohud(ft)
    check("MH: index trunc(v*n - 1) at n = 298: 1, 0, 288",
          [mh_index(298, a, b) for _, a, b in MH_METRICS], [1, 0, 288])
    check("MH: 1% = 1000/297, 0.1% = 1000/298, 97% = 1000/10",
          (mh["low_1pct_fps"], mh["low_0_1pct_fps"], mh["p97_fps"]),
          (1000.0 / 297, 1000.0 / 298, 100.0))
    check("MH: average = 1000/mean = 1000/149.5", mh["average_fps"], 1000.0 / 149.5, 1e-12)
    check("MH: n = 100: trunc(0) = 0, trunc(-0.9) = 0, trunc(96) = 96",
          [mh_index(100, a, b) for _, a, b in MH_METRICS], [0, 0, 96])
    check("MH: n = 1 -> every index 0", [mh_index(1, a, b) for _, a, b in MH_METRICS],
          [0, 0, 0])
    # MangoHud's float32 arithmetic agrees below 135167 frames, then 0.97 picks one rank more
    check("MH: float32 == exact for 0.01/0.001/0.97 at n = 1..20000",
          all(mh_index_float32(n, v) == mh_index(n, a, b)
              for n in range(1, 20001) for (_, a, b), v in zip(MH_METRICS, (0.01, 0.001, 0.97))),
          True)
    check("MH: n = 135167, 0.97: exact 131110, MangoHud's float32 131111",
          (mh_index(135167, 97, 100), mh_index_float32(135167, 0.97)), (131110, 131111))

    # --- Telemetry: PresentMon-family per-frame means -------------------------------------
    text = pm._csv(
        "Application,GPU,CPU,Resolution,ProcessID,SwapChainAddress,Dropped,TimeInSeconds,"
        "MsBetweenPresents,MsBetweenDisplayChange,MsUntilDisplayed,Render Queue Depth,"
        "GPU0Clk(MHz),GPU1Clk(MHz),CPU Package Temp(C),gpu0clk(mhz)",
        ["g.exe,G,C,R,1,0x1,0,1.0,10,10,5,0.1,2700,NA, 44,1",
         "g.exe,G,C,R,1,0x1,1,1.01,10,0,0,0.2,2800,NA, 46,1",
         "g.exe,G,C,R,1,0x1,0,1.02,10,20,5,0.3,NA,NA, 45,1",
         "h.exe,G,C,R,2,0x1,0,1.03,10,10,5,0.4,100,NA, 10,1"])
    parsed = pm.split_capture(text)
    an = pm.analyse_text(parsed)
    rows_by_line = dict(parsed[3])
    tel = pm_telemetry(parsed[2], rows_by_line, an["traces"][0].frames)
    # Trace g.exe: GPU0Clk 2700, 2800 (dropped frame included), NA left out -> mean 2750;
    # CPU temp " 44", " 46", " 45" (leading space) -> 45; GPU1 all NA -> absent; the
    # repeated name gpu0clk(mhz) and Render Queue Depth (a frame column) are not telemetry.
    check("telemetry: keys = numeric non-frame columns, header order",
          list(tel), ["GPU0Clk(MHz)", "CPU Package Temp(C)"])
    check("telemetry: per-frame mean over every frame incl. dropped, NA left out",
          tel["GPU0Clk(MHz)"], {"mean": 2750.0, "min": 2700.0, "max": 2800.0})
    check("telemetry: leading-space cells are numbers",
          tel["CPU Package Temp(C)"], {"mean": 45.0, "min": 44.0, "max": 46.0})
    check("telemetry: per trace (h.exe's own cells)",
          pm_telemetry(parsed[2], rows_by_line, an["traces"][1].frames)["GPU0Clk(MHz)"],
          {"mean": 100.0, "min": 100.0, "max": 100.0})

    # --- Telemetry: sampled log, Δt-weighted ------------------------------------------------
    # t 0 opens (not a sample); t 0.5 s 100 FPS, CPU 10 %; t 1.5 s 50 FPS, CPU 40 %;
    # t 2 s PID 0 (not a sample), CPU 99 %. Weighted CPU = (10*500 + 40*1000)/1500 = 30.
    # The rate (FPS), PID, time and latency columns are not telemetry; "FPS 1(%) Low" is.
    nv = ("Timestamp (Elapsed time in seconds),PID,FPS,FPS 1(%) Low,Render Latency(MSec),"
          "Average PC Latency(MSec),CPU Utilization(%),GPU2 Utilization(%),\n"
          "0.000,7,70,1,1,1,77,N/A\n0.500,7,100,60,4,20,10,N/A\n1.500,7,50,30,0,30,40,N/A\n"
          "2.000,0,0,0,0,0,99,N/A\n")
    a_nv = so.read_nvidia_app("/nonexistent/case.csv", nv)
    tel = sampled_telemetry("nvidia-app", so.split_lines(nv), a_nv["samples"])
    check("sampled telemetry: keys", list(tel), ["FPS 1(%) Low", "CPU Utilization(%)"])
    check("sampled telemetry: Δt-weighted mean 30, min 10, max 40 (first / PID-0 rows out)",
          tel["CPU Utilization(%)"], {"mean": 30.0, "min": 10.0, "max": 40.0})

    # --- MangoHud log: conventions on the logged frametime (one per row) ------------------
    # 0.6.0 layout (frametime in us), rows every 100 ms -> sampled. Every row's frametime
    # counts, the first included: 20000, 10000, 10000, 10000 us -> 20, 10, 10, 10 ms.
    # mean 12.5 -> 80 FPS; n = 4: 1%: trunc(0.04 - 1) = 0 -> 20 ms -> 50 FPS;
    # 97%: trunc(3.88 - 1) = 2 -> 10 ms -> 100 FPS.
    mh_text = ("os,cpu,gpu,ram,kernel,driver\nLinux,c,g,1,k,d\n"
               "fps,frametime,cpu_load,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,"
               "gpu_mem_clock,gpu_vram_used,ram_used,elapsed\n"
               "50,20000,10,1,1,1,1,1,1,1,100000000\n100,10000,20,1,1,1,1,1,1,1,200000000\n"
               "100,10000,30,1,1,1,1,1,1,1,300000000\n100,10000,60,1,1,1,1,1,1,1,500000000\n")
    lines = so.split_lines(mh_text)
    _, rows = mangohud_rows(lines)
    mh = mangohud([v for _, v in rows])
    check("MangoHud log: frametime us -> ms, every row",
          [v for _, v in rows], [20.0, 10.0, 10.0, 10.0])
    check("MangoHud log: average 80, 1% 50, 0.1% 50, 97% 100",
          (mh["average_fps"], mh["low_1pct_fps"], mh["low_0_1pct_fps"], mh["p97_fps"]),
          (80.0, 50.0, 50.0, 100.0))
    # MangoHud 0.6.x summarises the logged fps instead (metrics.md section 11): 50, 100,
    # 100, 100 -> mean 87.5; ceil(0.04) = 1 lowest -> 50 for both lows; a[floor(0.97*3)]
    # = a[2] = 100.
    fps06 = mangohud_06_fps(lines)
    check("MangoHud 0.6.x log: logged fps, every row", fps06, [50.0, 100.0, 100.0, 100.0])
    m06 = mangohud_06(fps06)
    check("MangoHud 0.6.x: average 87.5, 1% 50, 0.1% 50, 97% 100",
          (m06["average_fps"], m06["low_1pct_fps"], m06["low_0_1pct_fps"], m06["p97_fps"]),
          (87.5, 50.0, 50.0, 100.0))
    # 1500 values 1..1500: ceil(1.5) = 2 -> 1.5; ceil(15) = 15 -> 8; a[1454] = 1455.
    m06 = mangohud_06([float(v) for v in range(1500, 0, -1)])
    check("MangoHud 0.6.x: 1..1500 -> 0.1% 1.5, 1% 8, 97% 1455, avg 750.5",
          (m06["low_0_1pct_fps"], m06["low_1pct_fps"], m06["p97_fps"], m06["average_fps"]),
          (1.5, 8.0, 1455.0, 750.5))
    # 0.7.x and 0.8.0 (docs/decisions.md): (fps, ft) = (60,40) (30,10) (90,20) (45,5)
    # (120,10). 0.7: by fps (30,10) (45,5) (60,40) (90,20) (120,10): ceil(0.05) = 1 row
    # -> 1000/10 = 100 (both lows); row floor(0.97*4) = 3 -> 1000/20 = 50; 1000*5/85.
    # 0.8.0: fps 30 45 60 90 120 -> a[0] = 30 (both lows), a[trunc(4.85 - 1)] = a[3] = 90.
    pairs = [(60.0, 40.0), (30.0, 10.0), (90.0, 20.0), (45.0, 5.0), (120.0, 10.0)]
    m07, m080 = mangohud_07(pairs), mangohud_080(pairs)
    check("MangoHud 0.7.x: 100, 100, 50, 58.82",
          (m07["low_0_1pct_fps"], m07["low_1pct_fps"], m07["p97_fps"], m07["average_fps"]),
          (100.0, 100.0, 50.0, 1000.0 * 5 / 85))
    check("MangoHud 0.8.0: 30, 30, 90, 58.82",
          (m080["low_0_1pct_fps"], m080["low_1pct_fps"], m080["p97_fps"], m080["average_fps"]),
          (30.0, 30.0, 90.0, 1000.0 * 5 / 85))
    check("MangoHud generations by column",
          [mangohud_generation(h, None) for h in (["fps"], ["swap_used"], ["cpu_power"],
                                                   ["cpu_power", "cpu_mhz"])],
          ["0.6", "0.7", "0.8.0", "0.8.2"])
    a_mh = so.read_mangohud("/nonexistent/mh.csv", mh_text)
    check("MangoHud log: sampled", a_mh["sampled"], True)
    tel = sampled_telemetry("mangohud", lines, a_mh["samples"])
    # samples close at rows 2..4 (Δt 100, 100, 200 ms): cpu_load (20*100+30*100+60*200)/400
    check("MangoHud log: telemetry Δt-weighted over samples (cpu_load 42.5)",
          tel["cpu_load"], {"mean": 42.5, "min": 20.0, "max": 60.0})
    # The log writes 10000 (µs, a 0.6.0–0.6.8 log): reported in ms like every frame time.
    check("MangoHud log: sampled frametime is telemetry, in ms",
          tel["frametime"]["max"], 10.0)

    # --- A per-frame MangoHud log (log_interval 0): ordinary per-frame figures ---------------
    # frametime in ms (cpu_mhz column: 0.8.2+, whose summary is of the frame times), rows
    # 10, 10, 30, 10 ms, elapsed steps 10, 30,
    # 10 ms: median step 10 is not > 1.5 x median frame time 10 -> per frame. n = 4, T = 60:
    # every tool's average 66.67; MangoHud 1%: trunc(0.04 - 1) = 0 -> 30 ms -> 33.33;
    # FrameView 1% low k = 1 -> 33.33. Telemetry: plain per-frame mean of cpu_load
    # (10 + 20 + 30 + 40)/4 = 25; fps, frametime, elapsed are not telemetry.
    pf_text = ("os,cpu,gpu,ram,kernel,driver,cpuscheduler\nL,c,g,1,k,d,s\n"
               "fps,frametime,cpu_load,cpu_mhz,elapsed\n"
               "100,10,10,5,10000000\n100,10,20,5,20000000\n33.3,30,30,5,50000000\n"
               "100,10,40,5,60000000\n")
    tmpdir = tempfile.mkdtemp(prefix="conventions_oracle_selftest_")
    try:
        path = os.path.join(tmpdir, "perframe.csv")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(pf_text)
        doc = document(path, "auto", "sampled")
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    t = doc["traces"][0]
    check("per-frame MangoHud: all four tools, average 1000*4/60",
          [round(t["conventions"][k]["average_fps"], 9)
           for k in ("capframex", "frameview", "presentmon", "mangohud")],
          [round(4000.0 / 60.0, 9)] * 4)
    check("per-frame MangoHud: MangoHud 1% and FrameView 1% low = 1000/30",
          (t["conventions"]["mangohud"]["low_1pct_fps"],
           t["conventions"]["frameview"]["low_1pct_fps"]), (1000.0 / 30, 1000.0 / 30))
    check("per-frame MangoHud: telemetry per frame, fps/frametime/elapsed left out",
          (list(t["telemetry"]), t["telemetry"]["cpu_load"]["mean"]),
          (["cpu_load", "cpu_mhz"], 25.0))

    print("%d check(s) failed" % len(failures) if failures else "all checks passed")
    return len(failures)


# ======================================================================================
# Driver


def golden_inputs():
    """(path, kind) of every capture the two other oracles cover."""
    return [(p, "pm") for p in pm.golden_inputs()] + \
        [(p, "sampled") for p in so.golden_inputs()]


def write_goldens_to(folder):
    os.makedirs(folder, exist_ok=True)
    written = []
    for path, kind in golden_inputs():
        stem = os.path.splitext(os.path.basename(path))[0]
        for source in SOURCES:
            name = "%s.%s.json" % (stem, source)
            with open(os.path.join(folder, name), "w", encoding="utf-8", newline="\n") as fh:
                fh.write(pm.to_json(document(path, source, kind)))
                fh.write("\n")
            written.append(name)
    return written


def check_goldens():
    return goldens.check(write_goldens_to, lambda n: n.endswith(".json"), GOLDEN_DIR,
                         "tests/golden/conventions",
                         "python3 tests/oracle/conventions_oracle.py --write-goldens")


def main(argv):
    source = "auto"
    files = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--frame-time":
            i += 1
            if i >= len(argv) or argv[i] not in SOURCES:
                sys.exit("--frame-time takes presents, display or auto")
            source = argv[i]
        elif a.startswith("--frame-time="):
            source = a.split("=", 1)[1]
            if source not in SOURCES:
                sys.exit("--frame-time takes presents, display or auto")
        elif a == "--write-goldens":
            for name in write_goldens_to(GOLDEN_DIR):
                print(os.path.relpath(os.path.join(GOLDEN_DIR, name), PROJECT_ROOT))
            return 0
        elif a == "--check-goldens":
            return 1 if check_goldens() else 0
        elif a == "--self-test":
            return 1 if self_test() else 0
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            files.append(a)
        i += 1
    if not files:
        sys.exit("no input file (see --help)")
    status = 0
    for path in files:
        try:
            print(pm.to_json(document(path, source)))
        except (pm.OracleError, so.OracleError, OSError, UnicodeDecodeError, ValueError) as e:
            sys.stderr.write("%s: error: %s\n" % (path, e))
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
