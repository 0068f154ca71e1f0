#!/usr/bin/env python3
"""Independent test oracle for framescope's PresentMon-family CSV analysis.

Written from the project spec only (shared/spec/metrics.md sections 1-6, 9, 10,
shared/spec/cli-report.md and shared/spec/formats.md sections 1-5), never from the Rust
sources. Python 3.11 standard library only.

Usage:
    python3 tests/oracle/pm_oracle.py [--frame-time presents|display|auto] [--report] FILE...
        print one JSON document per file (stdout); skipped rows are listed on stderr.
    python3 tests/oracle/pm_oracle.py --write-goldens [--report]
        regenerate tests/golden/<file stem>.<source>.json for every covered capture.
    python3 tests/oracle/pm_oracle.py --check-goldens
        regenerate every golden into a temporary folder and compare it byte for byte
        with tests/golden/ (only this script's own files); exit 1 on any difference.
    python3 tests/oracle/pm_oracle.py --self-test
        check the rules on small hand-made cases.

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

import goldens  # tests/oracle/goldens.py, beside this script

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT_ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
GOLDEN_DIR = os.path.join(PROJECT_ROOT, "tests", "golden")
TRACES_DIR = os.environ.get(
    "FRAMESCOPE_TRACES",
    os.path.normpath(os.path.join(PROJECT_ROOT, "..", "shared", "real-traces")),
)

# Folders whose CSVs are all covered (FrameView_Summary* excluded: not a per-frame log).
# capframex/ holds one CSV (covered) and a JSON capture (sampled_oracle.py's).
GOLDEN_FOLDERS = ["presentmon-1x", "presentmon-2x", "frameview", "ocat", "capframex"]

# The sources a golden is written for: the two series and `auto`, which resolves per trace.
SOURCES = ("presents", "display", "auto")

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

# cli-report.md `latency`, in the order the golden writes them. The four PCL figures
# need a marker log (--pcl) and are always null here.
LATENCY_KEYS = [
    "pcl_ms", "i2fs_ms", "fs2p_ms", "p2d_ms",
    "pc_latency_column_mean_ms", "pc_latency_min_ms", "pc_latency_max_ms",
    "display_latency_mean_ms", "click_to_photon_mean_ms", "all_input_to_photon_mean_ms",
    "render_present_latency_mean_ms", "animation_error_mean_abs_ms",
    "animation_error_p99_abs_ms", "animation_error_over_1ms_fraction",
]
# metrics.md section 13: the limiter keys, in the golden's order.
LIMITER_KEYS = [
    "main", "gpu_time_fraction", "cpu_time_fraction", "neither_time_fraction",
    "classified_frames", "gpu_busy_mean_ms", "cpu_busy_mean_ms", "gpu_busy_share",
]
ANIMATION_ERROR_LIMIT = 1e6  # |MsAnimationError| at or above this is garbage (cli-report.md)
# metrics.md section 1: a frame time of 1e6 ms or more skips its row; a cell of any other
# duration column (display interval, actions, latency) of that magnitude is missing.
IMPLAUSIBLE_MS = 1e6


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


def parse_duration(cell):
    """parse_num for a duration cell: None also when |v| >= IMPLAUSIBLE_MS (an unsigned
    overflow such as 1.8e15 some writers put in a cell)."""
    v = parse_num(cell)
    return None if v is None or abs(v) >= IMPLAUSIBLE_MS else v


def naive_sum(values):
    """Left-to-right float summation (no compensation), as a plain loop would do."""
    s = 0.0
    for v in values:
        s += v
    return s


def mean_or_none(values):
    """Plain mean (left-to-right sum / count), None for no value."""
    values = list(values)
    if not values:
        return None
    return naive_sum(values) / len(values)


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
    with open(path, "rb") as fh:
        raw = fh.read()
    return split_capture(raw.decode("utf-8"))


def split_capture(text):
    """Return (comment_count, header_line_no, header, rows) where rows are
    (physical line number, [trimmed cells]). Line numbers are 1-based file lines."""
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


def detect_layout(cols):
    """The column layout that decides the dropped rule and the display interval
    (independent of the writer: a pmcap file has the 2.1 or the 2.4 layout).
      dropped-column  a `Dropped` column (1.x, FrameView, OCAT, CapFrameX CSV)
      2.4             `MsBetweenPresents` without `Dropped` (2.4+ default, API writer)
      2.1             `FrameTime` (2.1-2.3, 2.4+ --v2_metrics, 2.3-era pmcap)
      2.0             `CPUBusy` + `CPUWait` only (v2.0.0)"""
    if "dropped" in cols:
        return "dropped-column"
    if "msbetweenpresents" in cols:
        return "2.4"
    if "frametime" in cols:
        return "2.1"
    if "cpubusy" in cols and "cpuwait" in cols:
        return "2.0"
    raise OracleError("no frame-time column")


def is_generated(cell):
    """metrics.md section 1: a FrameType other than Application (any case); empty and
    NA are not frame types."""
    if cell is None:
        return False
    s = cell.strip()
    return s != "" and s.upper() != "NA" and s.lower() != "application"


def frame_kind(cell):
    """'application', 'generated' or None (no FrameType / empty / NA)."""
    if cell is None:
        return None
    if cell.strip().lower() == "application":
        return "application"
    return "generated" if is_generated(cell) else None


class Frame:
    __slots__ = ("line", "ft", "disp", "dropped", "kind", "actions", "lat")

    def __init__(self, line, ft, disp, dropped, actions=(), kind=None, lat=None):
        self.line = line
        self.ft = ft        # present frame time, None when missing / <= 0
        self.disp = disp    # display interval, None when missing (incl. dropped frames)
        self.dropped = dropped
        self.kind = kind    # 'application', 'generated' or None
        # values of the file's action columns (analysis["actions"] order), None = missing
        self.actions = actions
        # raw latency cells of this frame: dict name -> float or None (see LATENCY_CELLS)
        self.lat = lat if lat is not None else {}


class Trace:
    def __init__(self, application, pid, swap_chain, first_line):
        self.application = application
        self.process_id = pid
        self.swap_chain = swap_chain
        self.first_line = first_line
        self.frames = []  # the trace's frames (metrics.md section 1, rule 1), file order


# Latency cells read per frame: name -> column names (first one the header has).
LATENCY_CELLS = {
    "until_displayed": ("MsUntilDisplayed",),
    "display_latency": ("DisplayLatency",),
    "cpu_busy": ("CPUBusy",),
    "pc_latency": ("MsPCLatency",),
    "click_to_photon": ("MsClickToPhotonLatency", "ClickToPhotonLatency"),
    "all_input_to_photon": ("MsAllInputToPhotonLatency", "AllInputToPhotonLatency"),
    "render_present": ("MsRenderPresentLatency",),
    "animation_error": ("MsAnimationError", "AnimationError"),
    # metrics.md section 13 (the limiter): CPU busy, CPU wait, GPU busy, either spelling.
    "lim_cpu_busy": ("MsCPUBusy", "CPUBusy"),
    "lim_cpu_wait": ("MsCPUWait", "CPUWait"),
    "lim_gpu_busy": ("MsGPUBusy", "GPUBusy"),
}


def analyse_file(path):
    return analyse_text(read_capture(path))


def analyse_csv_text(text):
    """analyse_file on an in-memory CSV (self-test)."""
    return analyse_text(split_capture(text))


def analyse_text(parsed):
    """Parse a capture; return dict with format, traces (only keys with at least one
    frame), the action columns and the list of skipped rows (line, reason)."""
    n_comments, header_line, header, rows = parsed
    cols = {}
    for i, name in enumerate(header):
        cols.setdefault(name.lower(), i)
    fmt = detect_format(n_comments, cols)
    layout = detect_layout(cols)

    def col(*names):
        for n in names:
            if n.lower() in cols:
                return cols[n.lower()]
        return None

    for need in ("application", "processid", "swapchainaddress"):
        if need not in cols:
            raise OracleError("missing column %s" % need)
    i_app, i_pid, i_sc = cols["application"], cols["processid"], cols["swapchainaddress"]

    # Present frame time (metrics.md section 1).
    i_ft2 = None
    if layout in ("dropped-column", "2.4"):
        i_ft, ft_source = col("MsBetweenPresents"), "MsBetweenPresents"
    elif layout == "2.1":
        i_ft, ft_source = col("FrameTime"), "FrameTime"
    else:
        i_ft, i_ft2, ft_source = col("CPUBusy"), col("CPUWait"), "CPUBusy+CPUWait"
    if i_ft is None:
        raise OracleError("no frame-time column")

    # Display interval: MsBetweenDisplayChange of the frame itself, or in the 2.0-2.3
    # layouts the DisplayedTime of the previous displayed frame of the trace.
    i_mbdc = col("MsBetweenDisplayChange")
    i_dtime = col("DisplayedTime")
    if i_mbdc is not None:
        disp_rule, i_disp = "own", i_mbdc
    elif i_dtime is not None:
        disp_rule, i_disp = "shift", i_dtime
    else:
        disp_rule, i_disp = "none", None

    # Dropped rule (metrics.md section 1; the project decisions in README.md).
    if layout == "dropped-column":
        drop_rule, i_drop = "one", cols["dropped"]
    elif layout == "2.0":
        i_drop = col("DisplayedTime", "DisplayLatency")
        drop_rule = "zero" if i_drop is not None else "never"
    elif layout == "2.1":
        i_drop = col("DisplayLatency", "DisplayedTime")
        drop_rule = "missing" if i_drop is not None else "never"
    else:  # 2.4
        i_drop = col("MsUntilDisplayed", "MsBetweenDisplayChange")
        drop_rule = "missing" if i_drop is not None else "never"

    i_ftype = col("FrameType")
    actions = action_columns(header)
    lat_cols = {name: col(*names) for name, names in LATENCY_CELLS.items()}
    # display_latency_mean_ms: MsUntilDisplayed, else (2.0-2.3) DisplayLatency - CPUBusy.
    if lat_cols["until_displayed"] is not None:
        dl_rule = "until"
    elif lat_cols["display_latency"] is not None and lat_cols["cpu_busy"] is not None:
        dl_rule = "diff"
    else:
        dl_rule = "none"

    ncols = len(header)
    if fmt == "ocat":
        min_fields, max_fields = cols["motherboard"], None
    else:
        min_fields, max_fields = ncols, ncols

    traces = []
    by_key = {}
    # Per trace: DisplayedTime of its previous displayed frame ("shift" rule); the
    # first displayed frame of a trace has no display interval.
    prev_dtime = {}
    skipped = []
    for line_no, cells in rows:
        nf = len(cells)
        if nf < min_fields:
            skipped.append((line_no, "truncated row: %d fields, header has %d" % (nf, ncols)))
            continue
        if max_fields is not None and nf > max_fields:
            skipped.append((line_no, "overlong row: %d fields, header has %d" % (nf, ncols)))
            continue

        def cell(idx):
            return cells[idx] if idx is not None and idx < nf else None

        def num(idx):
            return parse_num(cell(idx))

        def dur(idx):
            return parse_duration(cell(idx))

        app = cells[i_app]
        try:
            pid = int(cells[i_pid])
        except ValueError:
            skipped.append((line_no, "ProcessID %r is not an integer" % cells[i_pid]))
            continue
        sc = normalise_swap_chain(cells[i_sc])
        key = (app, pid, sc)

        ft = num(i_ft)
        if i_ft2 is not None:
            ft2 = num(i_ft2)
            ft = None if (ft is None or ft2 is None) else ft + ft2
        if ft is not None and not ft > 0:
            ft = None
        implausible = ft is not None and ft >= IMPLAUSIBLE_MS

        if drop_rule == "one":
            dropped = num(i_drop) == 1.0
        elif drop_rule == "zero":
            dropped = num(i_drop) == 0.0
        elif drop_rule == "missing":
            dropped = num(i_drop) is None
        else:
            dropped = False

        # Traces are listed in order of their key's first well-formed row; a key with
        # no frame is dropped from the list at the end.
        tr = by_key.get(key)
        if tr is None:
            tr = Trace(app, pid, sc, line_no)
            by_key[key] = tr
            traces.append(tr)

        if implausible:
            skipped.append((line_no, "implausible frame time (%s) %r: 1e6 ms or more" % (ft_source, ft)))
            continue
        if ft is None and dropped:
            raw = cell(i_ft) if i_ft2 is None else "%s+%s" % (cell(i_ft), cell(i_ft2))
            skipped.append((line_no, "dropped and frame time (%s) missing or <= 0: %r"
                            % (ft_source, raw)))
            continue

        disp = None
        if not dropped:
            if disp_rule == "own":
                disp = dur(i_disp)
            elif disp_rule == "shift":
                disp = prev_dtime.get(key)
                prev_dtime[key] = dur(i_disp)

        lat = {name: dur(idx) for name, idx in lat_cols.items()}
        if dl_rule == "until":
            lat["display"] = lat["until_displayed"]
        elif dl_rule == "diff" and lat["display_latency"] is not None \
                and lat["cpu_busy"] is not None:
            lat["display"] = lat["display_latency"] - lat["cpu_busy"]
        else:
            lat["display"] = None

        kind = frame_kind(cell(i_ftype)) if i_ftype is not None else None
        acts = tuple(action_value(cells, idx, dropped and name.lower() in DISPLAY_ACTIONS)
                     for name, idx in actions)
        # Lead's decision (metrics.md section 6 leaves it open): a generated frame does no
        # CPU or GPU work of its own; PresentMon writes 0 there, which is no value.
        if kind == "generated":
            acts = tuple(None if v == 0.0 else v for v in acts)
        tr.frames.append(Frame(line_no, ft, disp, dropped, acts, kind, lat))

    no_frame = [tr for tr in traces if not tr.frames]
    traces = [tr for tr in traces if tr.frames]
    return {
        "format": fmt,
        "layout": layout,
        "no_frame_traces": no_frame,
        "header_line": header_line,
        "traces": traces,
        "skipped": skipped,
        "actions": [name for name, _ in actions],
        "latency_columns": {name: idx is not None for name, idx in lat_cols.items()},
        "display_latency_rule": dl_rule,
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
    return parse_duration(cells[idx])


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
    """entries: list of (application, presents-series frame count). Index of the
    default trace."""
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


# --------------------------------------------------------------------------------------
# Series, latency and frame types (metrics.md section 1, cli-report.md `latency`)


def presents_series(frames):
    """The trace's frames with a present frame time > 0, with their frame times."""
    series = [f for f in frames if f.ft is not None]
    return series, [f.ft for f in series]


def display_series(frames):
    """The trace's displayed frames with a display interval > 0, whatever their present
    frame time, with their display intervals."""
    series = [f for f in frames if not f.dropped and f.disp is not None and f.disp > 0]
    return series, [f.disp for f in series]


def resolve_source(frames, source):
    """`auto` is `display` for a trace with at least one generated frame and at least one
    frame with a display interval > 0, else `presents`; other sources stay as asked.
    A trace with no present frame time > 0 but a display interval falls back to
    `display` under `auto` (issue 34: an OCAT capture whose MsBetweenPresents are all 0)."""
    if source != "auto":
        return source
    has_generated = any(f.kind == "generated" for f in frames)
    has_presents = any(f.ft is not None for f in frames)
    has_display = any(not f.dropped and f.disp is not None and f.disp > 0 for f in frames)
    return "display" if (has_generated or not has_presents) and has_display else "presents"


def latency(frames, columns, display_rule):
    """cli-report.md `latency` of one trace over all its frames (any source).
    `columns`: which LATENCY_CELLS the file has; `display_rule`: 'until', 'diff' or
    'none'. Plain left-to-right means; null when the column is absent or no cell
    qualifies."""
    def cells(name, keep):
        if not columns[name]:
            return []
        return [f.lat[name] for f in frames if f.lat[name] is not None and keep(f, f.lat[name])]

    pcl = cells("pc_latency", lambda f, v: True)
    pcl_pos = [v for v in pcl if v > 0]
    # metrics.md section 13: |v| of the plausible cells; p99 by section 2's
    # interpolation, and the share of those cells above 1 ms (strictly).
    anim = sorted(abs(v) for v in cells("animation_error",
                                        lambda f, v: abs(v) < ANIMATION_ERROR_LIMIT))
    # Lead's decision: over displayed frames that are not generated. The 2.0-2.3
    # layouts give generated frames no present of their own (CPUBusy 0, DisplayLatency
    # from the application frame's CPU start), so their present-to-display time is
    # unknown there; leaving them out in every layout keeps one definition.
    display = ([f.lat["display"] for f in frames
                if not f.dropped and f.kind != "generated" and f.lat["display"] is not None]
               if display_rule != "none" else [])
    return {
        "pcl_ms": None,
        "i2fs_ms": None,
        "fs2p_ms": None,
        "p2d_ms": None,
        "pc_latency_column_mean_ms": mean_or_none(pcl),
        "pc_latency_min_ms": min(pcl_pos) if pcl_pos else None,
        "pc_latency_max_ms": max(pcl_pos) if pcl_pos else None,
        "display_latency_mean_ms": mean_or_none(display),
        # 0 = no input on this frame; a dropped frame never reached the screen
        "click_to_photon_mean_ms": mean_or_none(
            cells("click_to_photon", lambda f, v: v != 0 and not f.dropped)),
        "all_input_to_photon_mean_ms": mean_or_none(
            cells("all_input_to_photon", lambda f, v: v > 0 and not f.dropped)),
        "render_present_latency_mean_ms": mean_or_none(
            cells("render_present", lambda f, v: True)),
        "animation_error_mean_abs_ms": mean_or_none(
            abs(v) for v in cells("animation_error",
                                  lambda f, v: abs(v) < ANIMATION_ERROR_LIMIT)),
        "animation_error_p99_abs_ms": percentile(anim, 0.99) if anim else None,
        "animation_error_over_1ms_fraction":
            sum(1 for v in anim if v > 1.0) / len(anim) if anim else None,
    }


def limiter(frames, columns):
    """metrics.md section 13 over every frame of the trace (any source). fc = CPU busy +
    CPU wait; a frame with all three cells, fc > 0 and not generated is GPU-limited when
    GPU busy >= 0.9 fc, else CPU-limited when CPU busy >= 0.9 fc, else neither. Fractions
    are sums of fc per class over the sum of all classified fc (left-to-right sums); null
    without the three columns or without a classified frame. main: the largest fraction,
    a tie to the first of gpu, cpu, neither."""
    if not (columns["lim_cpu_busy"] and columns["lim_cpu_wait"] and columns["lim_gpu_busy"]):
        return None
    fc_by = {"gpu": 0.0, "cpu": 0.0, "neither": 0.0}
    n = 0
    gpu_sum = cpu_sum = 0.0
    for f in frames:
        cb, cw, gb = f.lat["lim_cpu_busy"], f.lat["lim_cpu_wait"], f.lat["lim_gpu_busy"]
        if f.kind == "generated" or cb is None or cw is None or gb is None:
            continue
        fc = cb + cw
        if not fc > 0:
            continue
        cls = "gpu" if gb >= 0.9 * fc else "cpu" if cb >= 0.9 * fc else "neither"
        fc_by[cls] += fc
        n += 1
        gpu_sum += gb
        cpu_sum += cb
    total = fc_by["gpu"] + fc_by["cpu"] + fc_by["neither"]
    if n == 0 or not total > 0:
        return None
    frac = {k: v / total for k, v in fc_by.items()}
    main = max(("gpu", "cpu", "neither"), key=lambda k: (frac[k], -("gpu", "cpu", "neither").index(k)))
    return {
        "main": main,
        "gpu_time_fraction": frac["gpu"],
        "cpu_time_fraction": frac["cpu"],
        "neither_time_fraction": frac["neither"],
        "classified_frames": n,
        "gpu_busy_mean_ms": gpu_sum / n,
        "cpu_busy_mean_ms": cpu_sum / n,
        "gpu_busy_share": gpu_sum / total,
    }


def frame_type_intervals(kinds, ft, kind):
    """Intervals between consecutive frames of one kind over a series: walking the
    positions in order, acc += ft[p]; at a frame of the kind, the acc since the previous
    frame of the kind (if any) is one interval, then acc restarts at 0."""
    out = []
    acc = 0.0
    seen = False
    for k, v in zip(kinds, ft):
        acc += v
        if k == kind:
            if seen:
                out.append(acc)
            seen = True
            acc = 0.0
    return out


def frame_types(series, ft):
    """Per-kind (application / generated) interval statistics over the analysed series."""
    kinds = [f.kind for f in series]
    total = naive_sum(ft)
    out = {}
    for kind in ("application", "generated"):
        iv = frame_type_intervals(kinds, ft, kind)
        # Lead's decision: each kind's share of the run's rate, 1000 * count / T, so
        # application + generated = avg_fps; the intervals give the kind's own pacing.
        count = sum(1 for k in kinds if k == kind)
        out[kind] = {"count": count,
                     "fps": 1000.0 * count / total if total > 0 else None,
                     "frames": len(iv), "summary": summary(iv)[1] if iv else None}
    return out


def document(path, analysis, source):
    """The golden of one capture for one source (presents, display or auto).

    The default trace belongs to the file: it is chosen on presents-series frame counts
    whatever the source, so switching the source never switches the trace. A trace whose
    series is empty stays listed with frames 0, a null duration and null figures."""
    out_traces = []
    presents_counts = []
    for tr in analysis["traces"]:
        resolved = resolve_source(tr.frames, source)
        p_series, p_vals = presents_series(tr.frames)
        if resolved == "presents":
            series, vals = p_series, p_vals
        else:
            series, vals = display_series(tr.frames)
        presents_counts.append((tr.application, len(p_vals)))
        total, summ = summary(vals) if vals else (None, None)
        entry = {
            "application": tr.application,
            "process_id": tr.process_id,
            "swap_chain": tr.swap_chain,
            "frame_time": resolved,
            "frames": len(vals),
            "dropped_frames": sum(1 for f in tr.frames if f.dropped),
            "duration_ms": total,
            "summary": summ,
        }
        if vals:
            entry.update(timing_sections(vals, total, analysis["actions"], series))
        else:
            entry.update({"pacing": None, "stutters": None, "osc": None, "health": None})
        entry["latency"] = latency(tr.frames, analysis["latency_columns"],
                                   analysis["display_latency_rule"])
        entry["limiter"] = limiter(tr.frames, analysis["latency_columns"])
        has_generated = any(f.kind == "generated" for f in tr.frames)
        entry["frame_types"] = frame_types(series, vals) if vals and has_generated else None
        out_traces.append(entry)
    return {
        "file": relpath_for(path),
        "format": analysis["format"],
        "sampled": False,
        "frame_time": source,
        "default_trace": default_trace(presents_counts),
        "traces": out_traces,
    }


# --------------------------------------------------------------------------------------
# Self-test (hand cases for sections 1, 3-6, latency and frame types)


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
    """Check the rules on small hand-made cases; return the failure count."""
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

    _self_test_section1(check)
    _self_test_limiter(check)

    print("%d check(s) failed" % len(failures) if failures else "all checks passed")
    return len(failures)


def _self_test_limiter(check):
    """metrics.md section 13 on a hand-made 2.4 capture (the Rust unit test's case).
    fc = busy + wait: 10 GPU (9 >= 9), 10 CPU (9 >= 9), 10 neither, 20 GPU (18 >= 18);
    a generated frame and a frame without GPU busy are unclassified. Sum fc 50: GPU 0.6,
    CPU 0.2, neither 0.2; GPU busy mean 44.98 / 4, CPU 28 / 4 = 7, share 44.98 / 50.
    |animation error| 0.5, 2, 1, 3 (the 1.8e15 cell is garbage): p99 = 2 + 0.97 = 2.97,
    over 1 ms 2 of 4."""
    text = _csv("Application,ProcessID,SwapChainAddress,MsBetweenPresents,MsUntilDisplayed,"
                "MsCPUBusy,MsCPUWait,MsGPUBusy,FrameType,MsAnimationError",
                ["g.exe,1,0x1,10,5,5,5,9,Application,0.5",
                 "g.exe,1,0x1,10,5,9,1,8.99,Application,-2",
                 "g.exe,1,0x1,10,5,4,6,8.99,Application,1",
                 "g.exe,1,0x1,20,5,10,10,18,Application,NA",
                 "g.exe,1,0x1,10,5,5,5,9,Intel XeSS-FG,3",
                 "g.exe,1,0x1,10,5,5,5,NA,Application,-1800000000000000"])
    t = _doc(text, "presents")["traces"][0]
    lim = t["limiter"]
    check("limiter keys", list(lim), LIMITER_KEYS)
    check("limiter: main, classified frames", (lim["main"], lim["classified_frames"]), ("gpu", 4))
    check("limiter: fractions", (lim["gpu_time_fraction"], lim["cpu_time_fraction"],
                                 lim["neither_time_fraction"]), (30 / 50, 10 / 50, 10 / 50))
    check("limiter: busy means and share",
          (lim["gpu_busy_mean_ms"], lim["cpu_busy_mean_ms"], lim["gpu_busy_share"]),
          (naive_sum([9.0, 8.99, 8.99, 18.0]) / 4, 7.0, naive_sum([9.0, 8.99, 8.99, 18.0]) / 50))
    check("animation error p99 |v| and share over 1 ms",
          (round(t["latency"]["animation_error_p99_abs_ms"], 12),
           t["latency"]["animation_error_over_1ms_fraction"]), (2.97, 0.5))
    no = _doc(_csv("Application,ProcessID,SwapChainAddress,MsBetweenPresents,MsCPUBusy,MsGPUBusy",
                   ["g.exe,1,0x1,10,9,9"]), "presents")["traces"][0]
    check("limiter: null without CPU wait", no["limiter"], None)


def _doc(text, source):
    """document() of an in-memory CSV."""
    return document("<self-test>", analyse_csv_text(text), source)


def _csv(header, rows):
    return "\n".join([header] + rows) + "\n"


def _self_test_section1(check):
    """Section 1 rules (frames, dropped, display interval, sources), latency and frame
    types on small hand-made files."""
    # 2.1-2.3 layout with frame generation. Trace 1 (pid 1) rows, in order:
    #   A app  FrameTime 10, displayed, DisplayedTime 16 -> first displayed: no interval
    #   B gen  FrameTime 0,  displayed, DisplayedTime 8  -> interval 16 (A's), no present time
    #   C app  FrameTime 10, DisplayLatency NA           -> dropped
    #   D app  FrameTime 10, displayed, DisplayedTime NA -> interval 8 (B's); not dropped
    #   E gen  FrameTime 0,  displayed, DisplayedTime 9  -> no interval (D's is NA)
    #   F app  FrameTime 10, displayed, DisplayedTime 7  -> interval 9 (E's)
    #   G app  FrameTime 0,  DisplayLatency NA           -> dropped, no present time: not a frame
    # Trace 2 (pid 2) rows interleave; their DisplayedTime must not leak into trace 1.
    h21 = ("Application,ProcessID,SwapChainAddress,FrameType,FrameTime,CPUBusy,CPUWait,"
           "DisplayLatency,DisplayedTime,AnimationError,AllInputToPhotonLatency,"
           "ClickToPhotonLatency")
    rows21 = [
        "g.exe,1,0x10,Application,10,4,6,20,16,1,NA,0",
        "o.exe,2,0x20,Application,5,1,4,9,100,NA,NA,NA",
        "g.exe,1,0x10,Intel XeSS-FG,0,0,0,21,8,-3,12,12",
        "g.exe,1,0x10,Application,10,4,6,NA,NA,NA,NA,30",
        "o.exe,2,0x20,Application,5,1,4,9,200,NA,NA,NA",
        "g.exe,1,0x10,Application,10,5,5,22,NA,2000000,-1,NA",
        "g.exe,1,0x10,Intel XeSS-FG,0,0,0,23,9,NA,NA,NA",
        "g.exe,1,0x10,Application,10,6,4,24,7,NA,NA,NA",
        "g.exe,1,0x10,Application,0,0,0,NA,NA,NA,NA,NA",
    ]
    text = _csv(h21, rows21)
    an = analyse_csv_text(text)
    t1 = an["traces"][0]
    check("2.1: layout", an["layout"], "2.1")
    check("2.1: frames of trace 1 (FrameTime-0 generated kept, dropped 0 not)",
          len(t1.frames), 6)
    check("2.1: one row skipped (dropped with FrameTime 0)",
          [ln for ln, _ in an["skipped"]], [10])
    check("2.1: dropped = DisplayLatency NA (DisplayedTime NA alone is not)",
          [f.dropped for f in t1.frames], [False, False, True, False, False, False])
    check("2.1: display interval = previous displayed frame's DisplayedTime",
          [f.disp for f in t1.frames], [None, 16.0, None, 8.0, None, 9.0])
    check("2.1: second trace's shift is its own",
          [f.disp for f in an["traces"][1].frames], [None, 100.0])
    pres = _doc(text, "presents")["traces"][0]
    disp = _doc(text, "display")["traces"][0]
    auto = _doc(text, "auto")
    check("presents series: frames with FrameTime > 0 (generated ones left out)",
          (pres["frame_time"], pres["frames"], pres["duration_ms"]), ("presents", 4, 40.0))
    check("display series: generated FrameTime-0 frame kept, whatever its present time",
          (disp["frame_time"], disp["frames"], disp["duration_ms"]), ("display", 3, 33.0))
    check("dropped_frames is the same under every source",
          (pres["dropped_frames"], disp["dropped_frames"], auto["traces"][0]["dropped_frames"]),
          (1, 1, 1))
    check("auto: generated frames + display data -> display",
          auto["traces"][0]["frame_time"], "display")
    check("auto: no generated frame -> presents", auto["traces"][1]["frame_time"], "presents")
    check("golden top level: sampled false, frame_time as asked",
          (auto["sampled"], auto["frame_time"]), (False, "auto"))
    # display series B(gen, 16), D(app, 8), F(app, 9): one application interval, 9 ms
    check("frame_types under display: application intervals D -> F = [9]",
          (disp["frame_types"]["application"]["frames"],
           disp["frame_types"]["application"]["summary"]["p50_ms"]), (1, 9.0))
    check("frame_types under display: generated intervals",
          disp["frame_types"]["generated"]["frames"], 0)
    check("frame_types under presents: no generated frame in the series",
          (pres["frame_types"]["application"]["frames"], pres["frame_types"]["generated"]),
          (3, {"count": 0, "fps": 0.0, "frames": 0, "summary": None}))
    # Presents series A C D F = 4 application frames in 40 ms: 100 FPS, their share.
    check("frame_types: application share of the rate, 1000 * count / T",
          (pres["frame_types"]["application"]["count"], pres["frame_types"]["application"]["fps"]),
          (4, 100.0))
    check("frame_types null for a trace without generated frames",
          auto["traces"][1]["frame_types"], None)
    lat = pres["latency"]
    # Displayed application frames A, D, F (the generated B and E are left out).
    check("latency: DisplayLatency - CPUBusy over displayed application frames (2.1 layout)",
          lat["display_latency_mean_ms"], naive_sum([20 - 4.0, 22 - 5.0, 24 - 6.0]) / 3)
    check("latency: click-to-photon leaves out 0 and dropped frames",
          lat["click_to_photon_mean_ms"], 12.0)
    check("latency: all-input-to-photon keeps cells > 0 on displayed frames",
          lat["all_input_to_photon_mean_ms"], 12.0)
    check("latency: |AnimationError| mean leaves out |v| >= 1e6",
          lat["animation_error_mean_abs_ms"], 2.0)
    check("latency: columns the file lacks are null",
          (lat["pc_latency_column_mean_ms"], lat["pc_latency_min_ms"],
           lat["render_present_latency_mean_ms"], lat["pcl_ms"]), (None, None, None, None))
    check("latency: same under every source", disp["latency"], lat)
    check("latency keys", list(lat), LATENCY_KEYS)

    # Overflow cells (metrics.md section 1): a frame time of 1e6 ms or more skips its row
    # (line 4: 2.5e6; line 6: 1.8e15); a display interval or MsUntilDisplayed cell of that
    # size (line 7) is missing. Presents 10, 20, 30, 40; display 10, 20, 30 (line 7's is
    # missing); display latency mean of 5, 5, 5 (line 7's 1.8e15 left out) = 5.
    h1 = ("Application,ProcessID,SwapChainAddress,Dropped,MsBetweenPresents,"
          "MsBetweenDisplayChange,MsUntilDisplayed")
    rows1 = ["g.exe,1,0x1,0,10,10,5", "g.exe,1,0x1,0,20,20,5", "g.exe,1,0x1,0,2500000,16,5",
             "g.exe,1,0x1,0,30,30,5", "g.exe,1,0x1,0,1844674407370950.750,16,5",
             "g.exe,1,0x1,0,40,1844674407370950.750,1844674407370940.5"]
    over = analyse_csv_text(_csv(h1, rows1))
    check("overflow: frame times of 1e6 ms or more skip their rows (lines 4, 6)",
          [line for line, _ in over["skipped"]], [4, 6])
    opres, odisp = _doc(_csv(h1, rows1), "presents"), _doc(_csv(h1, rows1), "display")
    check("overflow: presents series", opres["traces"][0]["duration_ms"], 100.0)
    check("overflow: an overflow display interval is missing", odisp["traces"][0]["frames"], 3)
    check("overflow: an overflow latency cell is missing",
          opres["traces"][0]["latency"]["display_latency_mean_ms"], 5.0)

    # frame_types interval walk on a bare series.
    kinds = ["application", "generated", "generated", "application", None, "application",
             "generated"]
    ft = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
    check("frame-type intervals: application", frame_type_intervals(kinds, ft, "application"),
          [9.0, 11.0])
    check("frame-type intervals: generated", frame_type_intervals(kinds, ft, "generated"),
          [3.0, 22.0])
    check("generated = FrameType not empty/NA/Application (any case)",
          [is_generated(c) for c in ["Intel XeSS-FG", "AMD_AFMF", "application", "NA", "", " "]],
          [True, True, False, False, False, False])

    # auto: no present interval on any row (OCAT writing MsBetweenPresents 0) but display
    # intervals -> display (issue 34).
    text = _csv("Application,ProcessID,SwapChainAddress,Dropped,MsBetweenPresents,MsBetweenDisplayChange",
                ["g.exe,1,0x1,0,0,10", "g.exe,1,0x1,0,0,20", "g.exe,1,0x1,0,0,10"])
    zero = _doc(text, "auto")["traces"][0]
    check("auto: no present interval but display intervals -> display",
          (zero["frame_time"], zero["frames"], zero["duration_ms"]), ("display", 3, 40.0))
    check("presents: no present interval -> no frames",
          _doc(text, "presents")["traces"][0]["frames"], 0)
    # auto: generated frames but no display interval -> presents.
    text = _csv("Application,ProcessID,SwapChainAddress,FrameType,FrameTime,CPUBusy,CPUWait,"
                "DisplayLatency,DisplayedTime",
                ["g.exe,1,0x1,Application,10,1,9,5,NA", "g.exe,1,0x1,Intel XeSS-FG,3,1,2,5,NA"])
    check("auto: generated frames without display interval -> presents",
          _doc(text, "auto")["traces"][0]["frame_time"], "presents")
    # 2.1 layout without DisplayLatency: DisplayedTime NA means dropped.
    text = _csv("Application,ProcessID,SwapChainAddress,FrameTime,DisplayedTime",
                ["g.exe,1,0x1,10,NA", "g.exe,1,0x1,10,5"])
    check("2.1 without DisplayLatency: DisplayedTime NA -> dropped",
          [f.dropped for f in analyse_csv_text(text)["traces"][0].frames], [True, False])

    # 2.0 layout: frame time CPUBusy + CPUWait, dropped when DisplayedTime is exactly 0,
    # display interval shifted as in 2.1-2.3.
    text = _csv("Application,ProcessID,SwapChainAddress,CPUBusy,CPUWait,DisplayLatency,"
                "DisplayedTime,ClickToPhotonLatency",
                ["a.exe,1,0x0000000000000001,4,6,20,16,0",
                 "a.exe,1,0x0000000000000001,4,6,0,0.000000,0",
                 "a.exe,1,0x0000000000000001,3,7,25,17,40",
                 "a.exe,1,0x0000000000000001,5,5,30,NA,0",
                 "a.exe,1,0x0000000000000001,5,5,30,18,0"])
    an = analyse_csv_text(text)
    fr = an["traces"][0].frames
    check("2.0: layout, frame time CPUBusy + CPUWait",
          (an["layout"], [f.ft for f in fr]), ("2.0", [10.0] * 5))
    check("2.0: dropped when DisplayedTime is exactly 0 (NA is not)",
          [f.dropped for f in fr], [False, True, False, False, False])
    check("2.0: display interval shifted", [f.disp for f in fr], [None, None, 16.0, 17.0, None])
    lat = _doc(text, "display")["traces"][0]["latency"]
    check("2.0: display latency DisplayLatency - CPUBusy over displayed frames",
          lat["display_latency_mean_ms"], naive_sum([16.0, 22.0, 25.0, 25.0]) / 4)
    check("2.0: click-to-photon 0 = no input", lat["click_to_photon_mean_ms"], 40.0)
    text = _csv("Application,ProcessID,SwapChainAddress,CPUBusy,CPUWait,DisplayLatency",
                ["a.exe,1,0x1,4,6,0", "a.exe,1,0x1,4,6,12"])
    check("2.0 without DisplayedTime: dropped when DisplayLatency is 0",
          [f.dropped for f in analyse_csv_text(text)["traces"][0].frames], [True, False])

    # Dropped column: only 1 means dropped; display interval MsBetweenDisplayChange.
    text = _csv("Application,ProcessID,SwapChainAddress,Dropped,MsBetweenPresents,"
                "MsBetweenDisplayChange,MsUntilDisplayed",
                ["a.exe,1,0x1,0,10,16,5", "a.exe,1,0x1,1,10,0,0", "a.exe,1,0x1,2,10,17,6",
                 "a.exe,1,0x1,NA,10,18,7", "a.exe,1,0x1,1.0,10,0,0", "a.exe,1,0x1,0,0,19,8",
                 "a.exe,1,0x1,1,0,0,0"])
    an = analyse_csv_text(text)
    fr = an["traces"][0].frames
    check("Dropped column: 1 (or 1.0) dropped; 0, 2, NA not",
          [f.dropped for f in fr], [False, True, False, False, True, False])
    check("Dropped column: display interval = own MsBetweenDisplayChange",
          [f.disp for f in fr], [16.0, None, 17.0, 18.0, None, 19.0])
    d = _doc(text, "display")["traces"][0]
    p = _doc(text, "presents")["traces"][0]
    check("displayed frame with MsBetweenPresents 0 is a frame of the display series",
          (p["frames"], d["frames"], d["dropped_frames"]), (5, 4, 2))
    check("Dropped column: display latency MsUntilDisplayed over displayed frames",
          d["latency"]["display_latency_mean_ms"], naive_sum([5.0, 6.0, 7.0, 8.0]) / 4)

    # 2.4+ default layout: dropped when MsUntilDisplayed is NA; latency columns.
    h24 = ("Application,ProcessID,SwapChainAddress,FrameType,MsBetweenPresents,"
           "MsBetweenDisplayChange,MsRenderPresentLatency,MsUntilDisplayed,MsPCLatency,"
           "MsAnimationError,MsAllInputToPhotonLatency,MsClickToPhotonLatency")
    text = _csv(h24, [
        "a.exe,1,0x1,Application,10,12,-0.5,4,NA,-1800000000000000.0,0,NA",
        "a.exe,1,0x1,Application,10,NA,1.5,NA,30,1,50,50",
        "a.exe,1,0x1,Application,10,NA,2.0,6,0,-3,20,20",
        "a.exe,1,0x1,Application,10,8,NA,8,40,NA,NA,NA",
    ])
    an = analyse_csv_text(text)
    fr = an["traces"][0].frames
    check("2.4: dropped when MsUntilDisplayed is NA (MsBetweenDisplayChange NA alone is not)",
          [f.dropped for f in fr], [False, True, False, False])
    lat = _doc(text, "presents")["traces"][0]["latency"]
    check("2.4: latency figures", lat, {
        "pcl_ms": None, "i2fs_ms": None, "fs2p_ms": None, "p2d_ms": None,
        "pc_latency_column_mean_ms": (30.0 + 0.0 + 40.0) / 3,
        "pc_latency_min_ms": 30.0, "pc_latency_max_ms": 40.0,
        "display_latency_mean_ms": (4.0 + 6.0 + 8.0) / 3,
        "click_to_photon_mean_ms": 20.0,
        "all_input_to_photon_mean_ms": 20.0,
        "render_present_latency_mean_ms": (-0.5 + 1.5 + 2.0) / 3,
        "animation_error_mean_abs_ms": 2.0,
        # |v| 1 and 3: p99 = 1 + 0.99 * 2 = 2.98; only 3 is above 1 ms
        "animation_error_p99_abs_ms": 2.98,
        "animation_error_over_1ms_fraction": 0.5,
    })
    text = _csv("Application,ProcessID,SwapChainAddress,MsBetweenPresents,MsBetweenDisplayChange",
                ["a.exe,1,0x1,10,NA", "a.exe,1,0x1,10,5"])
    check("2.4 without MsUntilDisplayed: MsBetweenDisplayChange NA -> dropped",
          [f.dropped for f in analyse_csv_text(text)["traces"][0].frames], [True, False])

    # A trace whose display series is empty stays listed with null figures; the default
    # trace is chosen on presents counts, ignoring dwm.exe.
    text = _csv("Application,ProcessID,SwapChainAddress,Dropped,MsBetweenPresents,"
                "MsBetweenDisplayChange,MsUntilDisplayed",
                ["dwm.exe,9,0x1,0,10,10,1", "dwm.exe,9,0x1,0,10,10,1", "dwm.exe,9,0x1,0,10,10,1",
                 "b.exe,2,0x1,1,10,0,0", "b.exe,2,0x1,1,10,0,0", "c.exe,3,0x1,0,10,10,2"])
    doc = _doc(text, "display")
    b = doc["traces"][1]
    check("empty display series: listed, frames 0, duration null",
          (b["application"], b["frames"], b["duration_ms"], b["dropped_frames"]),
          ("b.exe", 0, None, 2))
    check("empty display series: null sections",
          [b[k] for k in ("summary", "pacing", "stutters", "osc", "health", "frame_types")],
          [None] * 6)
    check("empty display series: latency still an object", list(b["latency"]), LATENCY_KEYS)
    check("default trace: most presents frames, dwm.exe ignored",
          doc["default_trace"], 1)


# --------------------------------------------------------------------------------------
# Driver


_INT_LIST_RE = re.compile(r"\[\n\s*(-?\d+(?:,\n\s*-?\d+)*)\n\s*\]")


def to_json(doc):
    """json.dumps(doc, indent=2), except that lists of integers (frame indices) are
    written on one line to keep the goldens small and diffable."""
    text = json.dumps(doc, indent=2)
    return _INT_LIST_RE.sub(lambda m: "[" + re.sub(r",\n\s*", ", ", m.group(1)) + "]", text)


def golden_inputs():
    """Every capture this oracle covers: the CSVs of GOLDEN_FOLDERS except
    FrameView_Summary* (not a per-frame log)."""
    files = []
    for folder in GOLDEN_FOLDERS:
        d = os.path.join(TRACES_DIR, folder)
        for name in sorted(os.listdir(d)):
            if not name.lower().endswith(".csv"):
                continue
            if name.startswith("FrameView_Summary"):
                continue
            files.append(os.path.join(d, name))
    return files


def golden_stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def report(path, analysis, stream):
    sk = analysis["skipped"]
    stream.write("%s: format=%s layout=%s header line %d, %d skipped row(s)\n"
                 % (relpath_for(path), analysis["format"], analysis["layout"],
                    analysis["header_line"], len(sk)))
    for line_no, why in sk:
        stream.write("  line %d: %s\n" % (line_no, why))
    for tr in analysis["no_frame_traces"]:
        stream.write("  trace %s/%d/%s has no frame (not listed)\n"
                     % (tr.application, tr.process_id, tr.swap_chain))


def write_goldens_to(out_dir, verbose):
    """Write every golden into out_dir; return the written file names."""
    os.makedirs(out_dir, exist_ok=True)
    written = []
    for path in golden_inputs():
        analysis = analyse_file(path)
        if verbose:
            report(path, analysis, sys.stderr)
        stem = golden_stem(path)
        for source in SOURCES:
            doc = document(path, analysis, source)
            name = "%s.%s.json" % (stem, source)
            with open(os.path.join(out_dir, name), "w", encoding="utf-8", newline="\n") as fh:
                fh.write(to_json(doc))
                fh.write("\n")
            written.append(name)
    return written


def write_goldens(verbose):
    for name in write_goldens_to(GOLDEN_DIR, verbose):
        print(os.path.relpath(os.path.join(GOLDEN_DIR, name), PROJECT_ROOT))


def own_golden(name, stems):
    """True for a tests/golden file this script writes: <stem>.<source>.json with one of
    its capture stems (the sampled logs' goldens belong to sampled_oracle.py)."""
    if not name.endswith(".json"):
        return False
    base = name[:-len(".json")]
    if "." not in base:
        return False
    stem, _source = base.rsplit(".", 1)
    return stem in stems


def check_goldens():
    """Regenerate into a temporary folder and compare with tests/golden byte for byte.
    Returns the number of problems (missing, extra or differing files)."""
    stems = {golden_stem(p) for p in golden_inputs()}
    return goldens.check(lambda d: write_goldens_to(d, False), lambda n: own_golden(n, stems),
                         GOLDEN_DIR, "tests/golden",
                         "python3 tests/oracle/pm_oracle.py --write-goldens")


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
                sys.exit("--frame-time takes presents, display or auto")
            source = argv[i]
        elif a.startswith("--frame-time="):
            source = a.split("=", 1)[1]
            if source not in SOURCES:
                sys.exit("--frame-time takes presents, display or auto")
        elif a == "--write-goldens":
            goldens = True
        elif a == "--check-goldens":
            return 1 if check_goldens() else 0
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
