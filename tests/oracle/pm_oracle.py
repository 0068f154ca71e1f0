#!/usr/bin/env python3
"""Independent test oracle for framescope's PresentMon-family CSV analysis.

Written from the project spec only (shared/spec/metrics.md sections 1-6 and
shared/spec/formats.md sections 1-5), never from the Rust sources. Python 3.11
standard library only.

Usage:
    python3 tests/oracle/pm_oracle.py [--frame-time presents|display] [--report] FILE...
        print one JSON document per file (stdout); skipped rows are listed on stderr.
    python3 tests/oracle/pm_oracle.py --write-goldens [--report]
        regenerate tests/golden/<file stem>.<source>.json for every covered capture.
    python3 tests/oracle/pm_oracle.py --self-test
        check the section 3-6 figures on small hand-made cases.

Environment: FRAMESCOPE_TRACES overrides the capture folder
(default: <project root>/../shared/real-traces).
"""

import csv
import io
import json
import bisect
import math
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT_ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
GOLDEN_DIR = os.path.join(PROJECT_ROOT, "tests", "golden")
TRACES_DIR = os.environ.get(
    "FRAMESCOPE_TRACES",
    os.path.normpath(os.path.join(PROJECT_ROOT, "..", "shared", "real-traces")),
)

# Folders whose CSVs are all covered (FrameView_Summary* excluded: not a per-frame log),
# plus single files.
GOLDEN_FOLDERS = ["presentmon-1x", "presentmon-2x", "frameview", "ocat"]
GOLDEN_EXTRA = ["capframex/capframex-legacy-csv_ResidentEvil2_with_header.csv"]

SOURCES = ("presents", "display")

# A decimal number as PresentMon-family writers print it. Anything else
# (NA, N/A, empty, words, inf, nan) is "missing".
_NUM_RE = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")

TELEMETRY_COLUMNS = {
    "gpupower", "gpuvoltage", "gpufrequency", "gputemperature", "gpuutilization",
    "cpuutilization", "cpupower", "cputemperature", "cpufrequency",
}


# Default analysis settings (metrics.md sections 3-6).
TARGET_FPS = 60
STUTTER_THRESHOLD = 0.2
STUTTER_FLOOR_MS = 4.0
WINDOW_HALF = 9          # 19-frame window: 9 before, the frame itself, 9 after
OSC_RATIO = 1.2

# SuperTuxKart computeStableFPS limits: (S below, E below), float32 in the comparison.
STABLE_LIMITS = {
    "steady_fps": (0.01, 0.001),
    "mostly_steady_fps": (0.12, 0.02),
    "typical_fps": (0.5, 0.1),
}

# Frame-health action columns (metrics.md section 6), matched case-insensitively and
# reported in header order under the header's spelling.
ACTION_COLUMNS = [
    "MsCPUBusy", "CPUBusy", "MsCPUWait", "CPUWait", "MsGPULatency", "GPULatency",
    "MsGPUBusy", "GPUBusy", "MsGPUWait", "GPUWait", "MsInPresentAPI",
    "MsRenderPresentLatency", "MsUntilRenderComplete", "MsUntilDisplayed",
    "DisplayLatency", "msGPUActive",
]
# Display values: missing on a dropped frame (1.x and FrameView write 0 there).
DISPLAY_ACTIONS = {"msuntildisplayed", "displaylatency"}


class OracleError(Exception):
    pass


def parse_num(cell):
    """Finite float or None (missing). Cell is already trimmed."""
    if cell is None:
        return None
    if not _NUM_RE.fullmatch(cell):
        return None
    v = float(cell)
    if not math.isfinite(v):
        return None
    return v


def naive_sum(values):
    """Left-to-right float summation (no compensation), as a plain loop would do."""
    s = 0.0
    for v in values:
        s += v
    return s


def normalise_swap_chain(cell):
    s = cell.strip()
    if s[:2].lower() == "0x":
        s = s[2:]
    try:
        return "0x%X" % int(s, 16)
    except ValueError:
        raise OracleError("SwapChainAddress %r is not a hex number" % cell)


# --------------------------------------------------------------------------------------
# Reading


def read_capture(path):
    """Return (comment_count, header_line_no, header, rows) where rows are
    (physical line number, [trimmed cells]). Line numbers are 1-based file lines."""
    with open(path, "rb") as fh:
        raw = fh.read()
    text = raw.decode("utf-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)
    n_comments = 0
    while n_comments < len(lines) and lines[n_comments].startswith("//"):
        n_comments += 1
    rest = "".join(lines[n_comments:])
    reader = csv.reader(io.StringIO(rest, newline=""))
    header = None
    header_line = None
    rows = []
    start = 1  # physical line (relative to `rest`) where the next record starts
    for rec in reader:
        line_no = n_comments + start
        start = reader.line_num + 1
        cells = [c.strip() for c in rec]
        if header is None:
            header = cells
            header_line = line_no
            continue
        rows.append((line_no, cells))
    if header is None:
        raise OracleError("no header line")
    return n_comments, header_line, header, rows


def detect_format(n_comments, cols):
    """cols: dict lower-case column name -> index."""
    if n_comments > 0:
        return "capframex-csv"
    if "motherboard" in cols and "processor" in cols:
        return "ocat"
    if "gpu" in cols and "cpu" in cols and "resolution" in cols:
        return "frameview"
    if TELEMETRY_COLUMNS & set(cols):
        return "presentmon-gui"
    if "dropped" in cols:
        return "presentmon-1"
    if "msbetweenpresents" in cols:
        return "presentmon-2.4"
    if "frametime" in cols:
        return "presentmon-2.1"
    if "cpubusy" in cols:
        return "presentmon-2.0"
    raise OracleError("header matches no PresentMon-family layout")


class Frame:
    __slots__ = ("line", "ft", "disp", "dropped", "actions")

    def __init__(self, line, ft, disp, dropped, actions=()):
        self.line = line
        self.ft = ft
        self.disp = disp  # display interval, None when missing (incl. dropped frames)
        self.dropped = dropped
        # values of the file's action columns (analysis["actions"] order), None = missing
        self.actions = actions


class Trace:
    def __init__(self, application, pid, swap_chain, first_line):
        self.application = application
        self.process_id = pid
        self.swap_chain = swap_chain
        self.first_line = first_line
        self.frames = []  # presents-kept frames


def analyse_file(path):
    """Parse a capture; return dict with format, traces (all keys, incl. ones with
    no kept frame), and the list of skipped rows (line, reason)."""
    n_comments, header_line, header, rows = read_capture(path)
    cols = {}
    for i, name in enumerate(header):
        cols.setdefault(name.lower(), i)
    fmt = detect_format(n_comments, cols)

    def col(*names):
        for n in names:
            if n.lower() in cols:
                return cols[n.lower()]
        return None

    for need in ("application", "processid", "swapchainaddress"):
        if need not in cols:
            raise OracleError("missing column %s" % need)
    i_app, i_pid, i_sc = cols["application"], cols["processid"], cols["swapchainaddress"]

    # frame time
    i_ft = col("MsBetweenPresents")
    i_ft2 = None
    ft_source = "MsBetweenPresents"
    if i_ft is None:
        i_ft = col("FrameTime")
        ft_source = "FrameTime"
    if i_ft is None:
        i_ft, i_ft2 = col("CPUBusy"), col("CPUWait")
        ft_source = "CPUBusy+CPUWait"
        if i_ft is None or i_ft2 is None:
            raise OracleError("no frame-time column")

    # display interval
    i_disp = col("MsBetweenDisplayChange", "DisplayedTime")

    # dropped rule
    i_dropped = col("Dropped")
    if i_dropped is not None:
        drop_rule = "column"
        i_drop_disp = None
    elif fmt == "presentmon-2.0":
        drop_rule = "zero"
        i_drop_disp = col("DisplayedTime")
    else:
        drop_rule = "na"
        i_drop_disp = col("MsUntilDisplayed", "DisplayedTime", "MsBetweenDisplayChange")

    actions = action_columns(header)

    ncols = len(header)
    if fmt == "ocat":
        i_mb = cols["motherboard"]
        min_fields, max_fields = i_mb, None
    else:
        min_fields, max_fields = ncols, ncols

    traces = []
    by_key = {}
    skipped = []
    for line_no, cells in rows:
        nf = len(cells)
        if nf < min_fields:
            skipped.append((line_no, "truncated row: %d fields, header has %d" % (nf, ncols)))
            continue
        if max_fields is not None and nf > max_fields:
            skipped.append((line_no, "overlong row: %d fields, header has %d" % (nf, ncols)))
            continue
        app = cells[i_app]
        try:
            pid = int(cells[i_pid])
        except ValueError:
            skipped.append((line_no, "ProcessID %r is not an integer" % cells[i_pid]))
            continue
        sc = normalise_swap_chain(cells[i_sc])
        key = (app, pid, sc)
        tr = by_key.get(key)
        if tr is None:
            tr = Trace(app, pid, sc, line_no)
            by_key[key] = tr
            traces.append(tr)

        ft = parse_num(cells[i_ft])
        if i_ft2 is not None:
            ft2 = parse_num(cells[i_ft2])
            ft = None if (ft is None or ft2 is None) else ft + ft2
        if ft is None or not (ft > 0):
            skipped.append((line_no, "frame time (%s) missing or <= 0: %r"
                            % (ft_source, cells[i_ft] if i_ft2 is None
                               else cells[i_ft] + "+" + cells[i_ft2])))
            continue

        if drop_rule == "column":
            d = parse_num(cells[i_dropped])
            dropped = d is not None and d == 1.0
        elif drop_rule == "zero":
            d = parse_num(cells[i_drop_disp]) if i_drop_disp is not None else None
            dropped = d is not None and d == 0.0
        else:
            dropped = i_drop_disp is not None and parse_num(cells[i_drop_disp]) is None

        disp = None
        if not dropped and i_disp is not None:
            disp = parse_num(cells[i_disp])
        acts = tuple(action_value(cells, idx, dropped and name.lower() in DISPLAY_ACTIONS)
                     for name, idx in actions)
        tr.frames.append(Frame(line_no, ft, disp, dropped, acts))

    return {
        "format": fmt,
        "header_line": header_line,
        "traces": traces,
        "skipped": skipped,
        "actions": [name for name, _ in actions],
    }


def action_columns(header):
    """Frame-health action columns of a header: list of (name as written, index), in
    header order. Case-insensitive match; a repeated column counts once (first wins)."""
    wanted = {c.lower() for c in ACTION_COLUMNS}
    seen = set()
    out = []
    for i, name in enumerate(header):
        key = name.lower()
        if key in wanted and key not in seen:
            seen.add(key)
            out.append((name, i))
    return out


def action_value(cells, idx, force_missing):
    """One action value of a row: finite float, or None when missing (NA, empty, not a
    number, a cell beyond a short OCAT row, or a dropped frame's display value)."""
    if force_missing or idx >= len(cells):
        return None
    return parse_num(cells[idx])


# --------------------------------------------------------------------------------------
# Figures (metrics.md section 2)


def percentile(sorted_vals, p):
    n = len(sorted_vals)
    h = (n - 1) * p
    lo = math.floor(h)
    frac = h - lo
    if lo + 1 >= n:
        return sorted_vals[n - 1]
    a = sorted_vals[lo]
    b = sorted_vals[lo + 1]
    return a + frac * (b - a)


def low_fps(sorted_vals, k):
    slowest = sorted_vals[len(sorted_vals) - k:][::-1]  # slowest first
    return 1000.0 * k / naive_sum(slowest)


def summary(ft):
    n = len(ft)
    total = naive_sum(ft)
    s = sorted(ft)
    return total, {
        "avg_fps": 1000.0 * n / total,
        "min_fps": 1000.0 / s[-1],
        "max_fps": 1000.0 / s[0],
        "p50_ms": percentile(s, 0.5),
        "p90_ms": percentile(s, 0.9),
        "p95_ms": percentile(s, 0.95),
        "p99_ms": percentile(s, 0.99),
        "p99_9_ms": percentile(s, 0.999),
        "low_1pct_fps": low_fps(s, max(1, n // 100)),
        "low_0_1pct_fps": low_fps(s, max(1, n // 1000)),
    }


# --------------------------------------------------------------------------------------
# Pacing (metrics.md section 3, SuperTuxKart Profiler::computeStableFPS)


def f32(x):
    """Round a Python float (or int) to the nearest IEEE float32 value."""
    return struct.unpack("<f", struct.pack("<f", float(x)))[0]


def f32_div(a, b):
    """IEEE float32 division of float32(a) by float32(b). Both operands are rounded to
    float32, divided in float64 and the quotient rounded to float32; with 53 >= 2*24+2
    bits this double rounding is exact, i.e. it equals the float32 division."""
    fa, fb = f32(a), f32(b)
    if fb == 0.0:
        return math.nan if fa == 0.0 else math.inf
    return f32(fa / fb)


def truncate_us(ft_ms):
    """Frame time in whole microseconds, truncating the DECIMAL value: the 1e-6 guard
    keeps 1.005 ms at 1005 us and 16.667 ms at 16667 us despite binary float error."""
    return int(math.floor(ft_ms * 1000.0 + 1e-6))


def stable_fps(ft):
    """The three SuperTuxKart headline figures {name: F} of a frame-time series.

    For every integer F in 1..1000 the budget is 1_000_000 // F us; spent = sum of the
    truncated frames strictly above the budget, waited = sum of their excess over it.
    F passes when float32(spent)/float32(T_us) < float32(S limit) and
    float32(waited)/float32(T_us) < float32(E limit). The figure is the highest passing F,
    0 if none. Integer sums are exact, so a sorted suffix sum is used for speed."""
    us = sorted(u for u in (truncate_us(v) for v in ft) if u > 0)  # 0 us adds nothing
    total = sum(us)
    # suffix[k] = sum(us[k:])
    suffix = [0] * (len(us) + 1)
    for k in range(len(us) - 1, -1, -1):
        suffix[k] = suffix[k + 1] + us[k]
    limits = {name: (f32(a), f32(b)) for name, (a, b) in STABLE_LIMITS.items()}
    best = {name: 0 for name in STABLE_LIMITS}
    for fps in range(1, 1001):
        budget = 1000000 // fps
        k = bisect.bisect_right(us, budget)  # first frame strictly above the budget
        spent = suffix[k]
        waited = spent - (len(us) - k) * budget
        slow = f32_div(spent, total)
        excess = f32_div(waited, total)
        for name, (lim_s, lim_e) in limits.items():
            if slow < lim_s and excess < lim_e:
                best[name] = fps
    return best


def pacing(ft, total):
    """metrics.md section 3: headline figures plus S(60) and E(60) in float64 with the
    real (untruncated) frame times; T = `total` (the series' left-to-right sum)."""
    budget = 1000.0 / TARGET_FPS
    slow = naive_sum(v for v in ft if v > budget)
    excess = naive_sum(v - budget for v in ft if v > budget)
    out = stable_fps(ft)
    out["slow_time_fraction"] = slow / total
    out["excess_time_fraction"] = excess / total
    return out


# --------------------------------------------------------------------------------------
# Rolling 19-frame window (metrics.md sections 4-6)


def window(i, n):
    """Positions of the window centred on i: max(0, i-9) .. min(n-1, i+9), as a range."""
    return range(max(0, i - WINDOW_HALF), min(n - 1, i + WINDOW_HALF) + 1)


def median(sorted_vals):
    """Middle value; the mean of the two middle values for an even count."""
    m = len(sorted_vals)
    if m % 2 == 1:
        return sorted_vals[m // 2]
    return (sorted_vals[m // 2 - 1] + sorted_vals[m // 2]) / 2.0


def rolling(ft):
    """Per-position (median, q1, q3) of the frame-time window; quartiles use the same
    linear percentile as the summary (h = (m-1)*p)."""
    n = len(ft)
    out = []
    for i in range(n):
        w = sorted(ft[j] for j in window(i, n))
        out.append((median(w), percentile(w, 0.25), percentile(w, 0.75)))
    return out


def exceeds(value, med, floor_ms=STUTTER_FLOOR_MS, threshold=STUTTER_THRESHOLD):
    """The Nsight stutter rule, both strict: value - med > floor and (value - med) / med
    > threshold; a median of 0 counts as an infinite relative excess."""
    diff = value - med
    if not diff > floor_ms:
        return False
    return med == 0 or diff / med > threshold


# --------------------------------------------------------------------------------------
# Stutters (section 4), oscillation (section 5), frame health (section 6)


def stutters(ft, roll, total):
    """Stutter frames (ascending series indices), their count and time fraction."""
    frames = [i for i, v in enumerate(ft) if exceeds(v, roll[i][0])]
    return {
        "count": len(frames),
        "time_fraction": naive_sum(ft[i] for i in frames) / total,
        "frames": frames,
    }


def oscillation(roll):
    """OSC flag (P90 of q3-q1 > floor and P90 of q3/q1 > 1.2), the two P90 values and
    the number of oscillating frames (d > floor and r > 1.2 on the frame itself)."""
    d = [q3 - q1 for _, q1, q3 in roll]
    r = [q3 / q1 for _, q1, q3 in roll]
    p90_d = percentile(sorted(d), 0.9)
    p90_r = percentile(sorted(r), 0.9)
    osc_frames = sum(1 for a, b in zip(d, r) if a > STUTTER_FLOOR_MS and b > OSC_RATIO)
    return {
        "flag": p90_d > STUTTER_FLOOR_MS and p90_r > OSC_RATIO,
        "p90_iqr_ms": p90_d,
        "p90_iqr_ratio": p90_r,
        "oscillating_frames": osc_frames,
    }


def action_spikes(values):
    """Ascending positions where one action spikes. `values` is the action's value per
    series position (None = missing). Missing values are left out of each window and
    never spike; a window with no present value has no median (no spike)."""
    n = len(values)
    out = []
    for i, v in enumerate(values):
        if v is None:
            continue
        w = sorted(values[j] for j in window(i, n) if values[j] is not None)
        if exceeds(v, median(w)):
            out.append(i)
    return out


def health(action_names, frames):
    """Frame-health section: the file's action columns and, for each, its spikes over
    the analysed series (`frames` = the series' Frame objects, in series order)."""
    spikes = {}
    for k, name in enumerate(action_names):
        spikes[name] = action_spikes([f.actions[k] for f in frames])
    return {"actions": list(action_names), "spikes": spikes}


def timing_sections(ft, total, action_names, frames):
    """All section 3-6 figures of one non-empty series, as the golden's four keys."""
    roll = rolling(ft)
    return {
        "pacing": pacing(ft, total),
        "stutters": stutters(ft, roll, total),
        "osc": oscillation(roll),
        "health": health(action_names, frames),
    }


def default_trace(entries):
    """entries: list of (application, kept frame count). Index of the default trace."""
    if not entries:
        return None
    candidates = [i for i, (app, _) in enumerate(entries) if app.lower() != "dwm.exe"]
    if not candidates:
        candidates = list(range(len(entries)))
    best = candidates[0]
    for i in candidates[1:]:
        if entries[i][1] > entries[best][1]:
            best = i
    return best


def relpath_for(path):
    ap = os.path.abspath(path)
    root = os.path.abspath(TRACES_DIR)
    if ap.startswith(root + os.sep):
        return os.path.relpath(ap, root).replace(os.sep, "/")
    return path


def document(path, analysis, source):
    # The default trace belongs to the file: it is chosen on presents-kept frame counts
    # whatever the source, so switching the source never switches the trace. A trace
    # with no displayed frame stays listed in the display golden with frames 0 and a
    # null summary.
    out_traces = []
    presents_counts = []
    for tr in analysis["traces"]:
        if not tr.frames:
            continue  # no presents-kept frame: not a run
        dropped = sum(1 for f in tr.frames if f.dropped)
        if source == "presents":
            series = list(tr.frames)
            vals = [f.ft for f in series]
        else:
            series = [f for f in tr.frames
                      if not f.dropped and f.disp is not None and f.disp > 0]
            vals = [f.disp for f in series]
        presents_counts.append((tr.application, len(tr.frames)))
        total, summ = summary(vals) if vals else (None, None)
        entry = {
            "application": tr.application,
            "process_id": tr.process_id,
            "swap_chain": tr.swap_chain,
            "frames": len(vals),
            "dropped_frames": dropped,
            "duration_ms": total,
            "summary": summ,
        }
        if vals:
            entry.update(timing_sections(vals, total, analysis["actions"], series))
        else:
            entry.update({"pacing": None, "stutters": None, "osc": None, "health": None})
        out_traces.append(entry)
    return {
        "file": relpath_for(path),
        "format": analysis["format"],
        "frame_time": source,
        "default_trace": default_trace(presents_counts),
        "traces": out_traces,
    }


# --------------------------------------------------------------------------------------
# Self-test (hand cases for sections 3-6)


def _random_series():
    """Deterministic pseudo-random frame-time series for the cross-check below."""
    import random
    rng = random.Random(1234)
    out = []
    for _ in range(200):
        base = rng.choice([4.0, 8.333, 16.667, 33.333])
        out.append([round(base * rng.uniform(0.7, 2.5), rng.choice([3, 4]))
                    for _ in range(rng.randint(1, 120))])
    return out


def _stable_fps_direct(ft):
    """computeStableFPS written as the plain double loop over F and frames, with the
    float32 steps done through array('f') (a second, independent float32 path)."""
    from array import array

    def to32(x):
        return array("f", [x])[0]

    us = [truncate_us(v) for v in ft]
    total = 0
    for u in us:
        total += u
    best = {}
    for name, (lim_s, lim_e) in STABLE_LIMITS.items():
        best[name] = 0
        for fps in range(1, 1001):
            budget = 1000000 // fps
            spent = waited = 0
            for u in us:
                if u > budget:
                    spent += u
                    waited += u - budget
            slow = to32(to32(spent) / to32(total))
            excess = to32(to32(waited) / to32(total))
            if slow < to32(lim_s) and excess < to32(lim_e):
                best[name] = fps
    return best


def self_test():
    """Check the section 3-6 rules on small hand-made cases; return the failure count."""
    failures = []

    def check(name, got, want):
        ok = got == want
        print("%-58s %s" % (name, "ok" if ok else "FAIL: got %r, want %r" % (got, want)))
        if not ok:
            failures.append(name)

    def series_figures(ft):
        return timing_sections(ft, naive_sum(ft), [], [])

    # Nsight's examples of the stutter rule (floor 4 ms, threshold 0.2).
    check("Nsight: median 10, frame 13 -> not a stutter", exceeds(13.0, 10.0), False)
    check("Nsight: median 60, frame 71 -> not a stutter", exceeds(71.0, 60.0), False)
    check("Nsight: median 60, frame 80 -> stutter", exceeds(80.0, 60.0), True)
    check("strict: median 20, frame 24 (diff exactly 4) -> not", exceeds(24.0, 20.0), False)
    check("strict: median 25, frame 30 (ratio exactly 0.2) -> not", exceeds(30.0, 25.0), False)
    check("median 0, value 5 -> spike (infinite ratio)", exceeds(5.0, 0.0), True)
    ft = [60.0] * 9 + [80.0] + [60.0] * 9
    check("series: 80 among 60s -> stutter at index 9",
          series_figures(ft)["stutters"]["frames"], [9])
    ft = [60.0] * 9 + [71.0] + [60.0] * 9
    check("series: 71 among 60s -> no stutter", series_figures(ft)["stutters"]["count"], 0)
    ft = [10.0] * 30
    ft[0] = 30.0
    st = series_figures(ft)["stutters"]
    check("edge window (10 frames) -> stutter at index 0", st["frames"], [0])
    check("stutter time fraction 30/320", st["time_fraction"], 30.0 / 320.0)

    # Truncation and SuperTuxKart headline figures.
    check("1.005 ms truncates to 1005 us", truncate_us(1.005), 1005)
    check("16.667 ms truncates to 16667 us", truncate_us(16.667), 16667)
    check("0.0004 ms truncates to 0 us", truncate_us(0.0004), 0)
    p = pacing([16.6669] * 100, naive_sum([16.6669] * 100))
    check("16.6669 ms x 100 -> steady/mostly/typical",
          (p["steady_fps"], p["mostly_steady_fps"], p["typical_fps"]), (60, 60, 60))
    p = pacing([16.667] * 100, naive_sum([16.667] * 100))
    check("16.667 ms x 100 -> steady/mostly/typical",
          (p["steady_fps"], p["mostly_steady_fps"], p["typical_fps"]), (59, 59, 59))
    check("16.667 ms x 100 -> S(60) = 1", p["slow_time_fraction"], 1.0)
    ft = [10.0] * 99 + [50.0]
    p = pacing(ft, naive_sum(ft))
    check("99 x 10 ms + 50 ms -> steady/mostly/typical",
          (p["steady_fps"], p["mostly_steady_fps"], p["typical_fps"]), (20, 34, 100))
    check("99 x 10 ms + 50 ms -> S(60) = 50/1040", p["slow_time_fraction"], 50.0 / 1040.0)
    check("99 x 10 ms + 50 ms -> E(60) = (50-1000/60)/1040",
          p["excess_time_fraction"], (50.0 - 1000.0 / 60) / 1040.0)
    check("float32 division 1/3", f32_div(1, 3), struct.unpack("<f", struct.pack("<f", 1 / 3))[0])
    check("stable_fps == direct per-frame loop on 200 random series",
          [stable_fps(x) for x in _random_series()],
          [_stable_fps_direct(x) for x in _random_series()])

    # Window statistics.
    w = sorted(float(v) for v in range(1, 11))
    check("median of 1..10 (even count) = 5.5", median(w), 5.5)
    roll = rolling([float(v) for v in range(1, 31)])
    check("window at 0 = frames 0..9: median 5.5, q1 3.25, q3 7.75", roll[0], (5.5, 3.25, 7.75))
    check("window at 15 = frames 6..24: median 16, q1 11.5, q3 20.5", roll[15], (16.0, 11.5, 20.5))

    # Oscillation: alternating 10/20 ms gives q1 10, q3 20 in every window.
    osc = series_figures([10.0, 20.0] * 20)["osc"]
    check("alternating 10/20 ms -> OSC flag", osc["flag"], True)
    check("alternating 10/20 ms -> P90(d) 10, P90(r) 2", (osc["p90_iqr_ms"], osc["p90_iqr_ratio"]),
          (10.0, 2.0))
    check("alternating 10/20 ms -> every frame oscillates", osc["oscillating_frames"], 40)
    osc = series_figures([10.0, 13.0] * 20)["osc"]
    check("alternating 10/13 ms -> no OSC (d = 3)", (osc["flag"], osc["oscillating_frames"]),
          (False, 0))

    # Frame health: missing values are left out of the window and never spike.
    vals = [1.0] * 9 + [9.0] + [None] * 9
    check("action 9 among 1s (missing after) -> spike at 9", action_spikes(vals), [9])
    vals = [None] * 5 + [2.0] + [None] * 5
    check("single present value -> its own median, no spike", action_spikes(vals), [])
    vals = [0.0] * 5 + [4.5] + [0.0] * 5
    check("median 0, value 4.5 -> spike", action_spikes(vals), [5])
    vals = [0.0] * 5 + [4.0] + [0.0] * 5
    check("median 0, value 4.0 -> no spike (floor strict)", action_spikes(vals), [])
    frames = [Frame(i, 10.0, None, False, (v,)) for i, v in enumerate([1.0, None, 8.0, 1.0])]
    h = health(["MsInPresentAPI"], frames)
    check("health: window [1, 8, 1] -> spike at index 2",
          h, {"actions": ["MsInPresentAPI"], "spikes": {"MsInPresentAPI": [2]}})
    check("action columns: header order, header spelling, first occurrence",
          action_columns(["msInPresentAPI", "Foo", "CPUBusy", "MSINPRESENTAPI", "DisplayLatency"]),
          [("msInPresentAPI", 0), ("CPUBusy", 2), ("DisplayLatency", 4)])
    check("dropped frame's display value is missing",
          action_value(["0.000"], 0, True), None)
    check("NA / empty / short row are missing",
          (action_value(["NA"], 0, False), action_value([""], 0, False),
           action_value([], 0, False)), (None, None, None))

    print("%d check(s) failed" % len(failures) if failures else "all checks passed")
    return len(failures)


# --------------------------------------------------------------------------------------
# Driver


_INT_LIST_RE = re.compile(r"\[\n\s*(-?\d+(?:,\n\s*-?\d+)*)\n\s*\]")


def to_json(doc):
    """json.dumps(doc, indent=2), except that lists of integers (frame indices) are
    written on one line to keep the goldens small and diffable."""
    text = json.dumps(doc, indent=2)
    return _INT_LIST_RE.sub(lambda m: "[" + re.sub(r",\n\s*", ", ", m.group(1)) + "]", text)


def golden_inputs():
    files = []
    for folder in GOLDEN_FOLDERS:
        d = os.path.join(TRACES_DIR, folder)
        for name in sorted(os.listdir(d)):
            if not name.lower().endswith(".csv"):
                continue
            if name.startswith("FrameView_Summary"):
                continue
            files.append(os.path.join(d, name))
    for rel in GOLDEN_EXTRA:
        files.append(os.path.join(TRACES_DIR, rel))
    return files


def report(path, analysis, stream):
    sk = analysis["skipped"]
    stream.write("%s: format=%s header line %d, %d skipped row(s)\n"
                 % (relpath_for(path), analysis["format"], analysis["header_line"], len(sk)))
    for line_no, why in sk:
        stream.write("  line %d: %s\n" % (line_no, why))
    for tr in analysis["traces"]:
        if not tr.frames:
            stream.write("  trace %s/%d/%s has no kept frame (dropped from the list)\n"
                         % (tr.application, tr.process_id, tr.swap_chain))


def write_goldens(verbose):
    os.makedirs(GOLDEN_DIR, exist_ok=True)
    written = []
    for path in golden_inputs():
        analysis = analyse_file(path)
        if verbose:
            report(path, analysis, sys.stderr)
        stem = os.path.splitext(os.path.basename(path))[0]
        for source in SOURCES:
            doc = document(path, analysis, source)
            out = os.path.join(GOLDEN_DIR, "%s.%s.json" % (stem, source))
            with open(out, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(to_json(doc))
                fh.write("\n")
            written.append(out)
    for w in written:
        print(os.path.relpath(w, PROJECT_ROOT))


def main(argv):
    source = "presents"
    files = []
    goldens = False
    verbose = False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--frame-time":
            i += 1
            if i >= len(argv) or argv[i] not in SOURCES:
                sys.exit("--frame-time takes presents or display")
            source = argv[i]
        elif a.startswith("--frame-time="):
            source = a.split("=", 1)[1]
            if source not in SOURCES:
                sys.exit("--frame-time takes presents or display")
        elif a == "--write-goldens":
            goldens = True
        elif a == "--report":
            verbose = True
        elif a == "--self-test":
            return 1 if self_test() else 0
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            files.append(a)
        i += 1
    if goldens:
        write_goldens(verbose)
        return 0
    if not files:
        sys.exit("no input file (see --help)")
    status = 0
    for path in files:
        try:
            analysis = analyse_file(path)
        except (OracleError, OSError, UnicodeDecodeError) as e:
            sys.stderr.write("%s: error: %s\n" % (path, e))
            status = 1
            continue
        report(path, analysis, sys.stderr)
        print(to_json(document(path, analysis, source)))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
