#!/usr/bin/env python3
"""Independent test oracle for framescope's sampled logs and CapFrameX capture JSON.

Written from the project spec only (shared/spec/metrics.md sections 1-6 and 10,
shared/spec/cli-report.md, shared/spec/formats.md sections 3, 5 and 8), never from the
Rust sources. Python 3 standard library only. The per-frame figures of metrics.md
sections 2-6 (summary, pacing, stutters, OSC, health) are imported from pm_oracle.py,
the PresentMon-family oracle, which implements them from the same spec.

Covers:
  * sampled logs (metrics.md section 10): NVIDIA App statistics CSV (nvidia-app/*.csv),
    MSI Afterburner logs (msi-afterburner/*.hml, *.csv), MangoHud CSV (mangohud/*.csv;
    a MangoHud log that is not sampled is analysed per frame);
  * CapFrameX capture JSON (capframex/*.json), per frame.

Usage:
    python3 tests/oracle/sampled_oracle.py [--frame-time auto|presents|display] FILE...
        print one JSON document per file (stdout); skipped rows are listed on stderr.
    python3 tests/oracle/sampled_oracle.py --write-goldens [--report]
        regenerate tests/golden/<file stem>.<source>.json for every covered capture.
    python3 tests/oracle/sampled_oracle.py --check-goldens
        regenerate into a temporary folder and compare byte for byte with tests/golden
        (this oracle's files only); exit 1 on any difference.
    python3 tests/oracle/sampled_oracle.py --self-test
        check the rules on small hand-made cases; exit 1 on failure.

Environment: FRAMESCOPE_TRACES overrides the capture folder
(default: <project root>/../shared/real-traces).
"""

import csv
import datetime
import importlib.util
import json
import math
import os
import re
import sys

import goldens  # tests/oracle/goldens.py, beside this script

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT_ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
GOLDEN_DIR = os.path.join(PROJECT_ROOT, "tests", "golden")
TRACES_DIR = os.environ.get(
    "FRAMESCOPE_TRACES",
    os.path.normpath(os.path.join(PROJECT_ROOT, "..", "shared", "real-traces")),
)


def _load_pm_oracle():
    """Import pm_oracle.py from this folder (read fresh on every run, no bytecode cache)."""
    sys.dont_write_bytecode = True
    spec = importlib.util.spec_from_file_location("pm_oracle", os.path.join(HERE, "pm_oracle.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


pm = _load_pm_oracle()

# Folders covered by --write-goldens, and which file names in them.
GOLDEN_SETS = [
    ("nvidia-app", (".csv",)),
    ("msi-afterburner", (".hml", ".csv")),
    ("mangohud", (".csv",)),
    ("capframex", (".json",)),
]

SOURCES = ("presents", "display", "auto")

# The 12 latency keys of the report (cli-report.md), in pm_oracle's golden order.
LATENCY_KEYS = list(pm.LATENCY_KEYS)
ANIMATION_ERROR_LIMIT = 1e6  # |AnimationError| at or above this is garbage (cli-report.md)

# Weighted percentiles of a sampled log: (report key, p).
PERCENTILES = [("p50_ms", 0.5), ("p90_ms", 0.9), ("p95_ms", 0.95), ("p99_ms", 0.99),
               ("p99_9_ms", 0.999)]

# MangoHud: a log is sampled when median(elapsed step) > SAMPLED_RATIO * median(frame time).
SAMPLED_RATIO = 1.5

# Frame-health action arrays of a CapFrameX JSON: metrics.md section 6's PresentMon list,
# matched case-insensitively against the CaptureData keys.
ACTION_NAMES = {n.lower() for n in pm.ACTION_COLUMNS}
DISPLAY_ACTIONS = pm.DISPLAY_ACTIONS

parse_num = pm.parse_num
naive_sum = pm.naive_sum


class OracleError(Exception):
    pass


def empty_latency():
    return {k: None for k in LATENCY_KEYS}


# --------------------------------------------------------------------------------------
# Reading helpers


def read_text(path):
    with open(path, "rb") as fh:
        raw = fh.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def split_lines(text):
    """Physical lines without their terminators (CRLF, CR, LF; missing final newline ok)."""
    return [a or b for a, b in re.findall(r"([^\r\n]*)(?:\r\n|\r|\n)|([^\r\n]+)$", text)]


def csv_cells(line):
    """Trimmed cells of one CSV line (quoted fields allowed)."""
    rec = next(csv.reader([line]), [])
    return [c.strip() for c in rec]


def column_index(header, name):
    """Index of the first header cell equal to `name` (trimmed, case-insensitive)."""
    want = name.lower()
    for i, h in enumerate(header):
        if h.strip().lower() == want:
            return i
    return None


def cell(cells, idx):
    if idx is None or idx >= len(cells):
        return None
    return parse_num(cells[idx])


# --------------------------------------------------------------------------------------
# Sampled-log figures (metrics.md section 10)


class Row:
    """One row of a sampled log that has a usable time.
    t: the row's time in the log's own unit (NVIDIA App s, MangoHud ns; unused for
    Afterburner, whose intervals are the polling period);
    rate: r (FPS) or None when the row is not a sample (missing, <= 0, PID 0);
    extra: dict of per-row latency cells (None = missing)."""
    __slots__ = ("line", "t", "rate", "extra")

    def __init__(self, line, t, rate, extra=None):
        self.line = line
        self.t = t
        self.rate = rate
        self.extra = extra or {}


class Sample:
    __slots__ = ("line", "rate", "dt", "w", "ft", "extra")

    def __init__(self, line, rate, dt, extra):
        self.line = line
        self.rate = rate
        self.dt = dt                       # interval it closes, ms
        self.w = rate * dt / 1000.0        # frames it stands for
        self.ft = 1000.0 / rate            # their frame time, ms
        self.extra = extra


def samples_from_rows(rows, to_ms=None, period_ms=None):
    """Turn the log's rows into samples. The first row opens the log and is not a
    sample. Every later row ends the interval of the row before it: Δt = (t_i - t_(i-1))
    * to_ms (the difference is taken in the log's unit, then scaled), or `period_ms` for
    Afterburner. A row with no rate is not a sample but still ends the interval. A row
    whose Δt <= 0 (a repeated or backward timestamp) is not a sample either (it would
    carry no time and no frames); the next interval starts at its time.
    Returns (samples, notes) where notes lists (line, why) for rows that are not samples."""
    samples = []
    notes = []
    prev_t = None
    for k, row in enumerate(rows):
        if k == 0:
            prev_t = row.t
            notes.append((row.line, "first row opens the log (not a sample)"))
            continue
        if period_ms is not None:
            dt = period_ms
        else:
            dt = (row.t - prev_t) * to_ms
            prev_t = row.t
        if row.rate is None:
            notes.append((row.line, "no rate (missing, <= 0 or PID 0): not a sample, "
                                    "ends the interval"))
            continue
        if not dt > 0:
            notes.append((row.line, "interval %r ms <= 0: not a sample" % dt))
            continue
        samples.append(Sample(row.line, row.rate, dt, row.extra))
    return samples, notes


def weighted_percentile(asc, p, total_w):
    """ft of the first sample (ascending ft) at which the running weight reaches p*W.
    If rounding keeps the running sum below p*W to the end, the last (slowest) sample."""
    target = p * total_w
    run = 0.0
    for s in asc:
        run += s.w
        if run >= target:
            return s.ft
    return asc[-1].ft


def weighted_low(desc, k_frames):
    """Slowest samples first until their weight reaches K (the last one in part):
    1000*K / sum(taken weight * ft)."""
    taken = 0.0
    spent = 0.0
    for s in desc:
        part = min(s.w, k_frames - taken)
        spent += part * s.ft
        taken += part
        if taken >= k_frames:
            break
    return 1000.0 * k_frames / spent


def sampled_summary(samples):
    """(frames, duration_ms, summary) of a sampled log; summary None when no sample."""
    if not samples:
        return 0, None, None
    total_w = naive_sum(s.w for s in samples)
    duration = naive_sum(s.dt for s in samples)
    rate_time = naive_sum(s.rate * s.dt for s in samples)
    asc = sorted(samples, key=lambda s: s.ft)                  # stable: file order in ties
    desc = sorted(samples, key=lambda s: s.ft, reverse=True)   # stable as well
    summ = {
        "avg_fps": rate_time / duration,
        "min_fps": min(s.rate for s in samples),
        "max_fps": max(s.rate for s in samples),
    }
    for key, p in PERCENTILES:
        summ[key] = weighted_percentile(asc, p, total_w)
    summ["low_1pct_fps"] = weighted_low(desc, total_w / 100.0)
    summ["low_0_1pct_fps"] = weighted_low(desc, total_w / 1000.0)
    # frames = round(W): Python's round() is half-to-even (W is never exactly x.5 here).
    return round(total_w), duration, summ


def dt_weighted_mean(samples, key):
    """Δt-weighted mean of a latency cell over samples where it is a number > 0, and the
    min / max of those cells; (None, None, None) when there is none."""
    num = 0.0
    den = 0.0
    vals = []
    for s in samples:
        v = s.extra.get(key)
        if v is None or not v > 0:
            continue
        num += v * s.dt
        den += s.dt
        vals.append(v)
    if not vals:
        return None, None, None
    return num / den, min(vals), max(vals)


def boundary_margins(samples):
    """Diagnostics for --report: the smallest relative distance of a percentile's
    running weight to p*W at the decision, and how far W is from a .5 frame."""
    if not samples:
        return None
    total_w = naive_sum(s.w for s in samples)
    asc = sorted(samples, key=lambda s: s.ft)
    out = {}
    for key, p in PERCENTILES:
        target = p * total_w
        run = 0.0
        best = math.inf
        for s in asc:
            before = run
            run += s.w
            best = min(best, abs(before - target), abs(run - target))
            if run >= target:
                break
        out[key] = best / total_w
    out["W"] = total_w
    out["W_frac_from_half"] = abs((total_w - math.floor(total_w)) - 0.5)
    return out


# --------------------------------------------------------------------------------------
# NVIDIA App statistics CSV (formats.md section 8)

NV_TIME = "Timestamp (Elapsed time in seconds)"
NV_PCL = "Average PC Latency(MSec)"
NV_RENDER = "Render Latency(MSec)"


def read_nvidia_app(path, text):
    lines = split_lines(text)
    if not lines:
        raise OracleError("empty file")
    header = csv_cells(lines[0])  # a trailing comma gives a last empty name: ignored
    i_t = column_index(header, NV_TIME)
    i_pid = column_index(header, "PID")
    i_fps = column_index(header, "FPS")
    i_pcl = column_index(header, NV_PCL)
    i_rl = column_index(header, NV_RENDER)
    if i_t is None or i_fps is None:
        raise OracleError("NVIDIA App log without %r or FPS column" % NV_TIME)
    rows = []
    skipped = []
    pid = None
    for n, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        cells = csv_cells(line)
        t = cell(cells, i_t)
        if t is None:
            skipped.append((n, "no usable timestamp (%d fields): not a row" % len(cells)))
            continue
        row_pid = None
        if i_pid is not None and i_pid < len(cells):
            try:
                row_pid = int(cells[i_pid])
            except ValueError:
                row_pid = None
        if pid is None and row_pid:
            pid = row_pid
        r = cell(cells, i_fps)
        if r is None or not r > 0 or row_pid == 0:
            r = None
        extra = {"pcl": cell(cells, i_pcl), "render": cell(cells, i_rl)}
        rows.append(Row(n, t, r, extra))
    samples, notes = samples_from_rows(rows, to_ms=1000.0)
    pcl_mean, pcl_min, pcl_max = dt_weighted_mean(samples, "pcl")
    rl_mean, _, _ = dt_weighted_mean(samples, "render")
    lat = empty_latency()
    lat["pc_latency_column_mean_ms"] = pcl_mean
    lat["pc_latency_min_ms"] = pcl_min
    lat["pc_latency_max_ms"] = pcl_max
    lat["render_present_latency_mean_ms"] = rl_mean
    return {
        "format": "nvidia-app",
        "sampled": True,
        "process_id": pid,
        "samples": samples,
        "latency": lat,
        "skipped": skipped + notes,
        "rows": len(rows),
    }


# --------------------------------------------------------------------------------------
# MSI Afterburner log (.hml, or the same saved as .csv; formats.md section 8)

_AB_TIME = re.compile(r"(\d{1,2})[-./](\d{1,2})[-./](\d{4})\s+(\d{1,2}):(\d{2}):(\d{2})$")


def ab_time(s):
    """Seconds (naive local clock) of 'dd-mm-yyyy HH:MM:SS', or None."""
    m = _AB_TIME.fullmatch(s.strip())
    if not m:
        return None
    d, mo, y, hh, mm, ss = (int(x) for x in m.groups())
    try:
        dt = datetime.datetime(y, mo, d, hh, mm, ss)
    except ValueError:
        return None
    return (dt - datetime.datetime(1970, 1, 1)).total_seconds()


def read_afterburner(path, text):
    lines = split_lines(text)
    names = None
    i_rate = i_ft = None
    rows = []          # (line, seconds, rate or None)
    skipped = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        cells = line.split(",")
        try:
            kind = int(cells[0].strip())
        except ValueError:
            skipped.append((n, "no line-type prefix"))
            continue
        if kind == 2:
            # column names: cells after the prefix and the timestamp (space padded)
            names = [c.strip() for c in cells[2:]]
            i_rate = column_index(names, "Framerate")
            i_ft = column_index(names, "Frametime")
            continue
        if kind != 80:
            continue
        if names is None:
            skipped.append((n, "data row before the column-name line"))
            continue
        t = ab_time(cells[1]) if len(cells) > 1 else None
        if t is None:
            skipped.append((n, "no usable timestamp: not a row"))
            continue
        vals = [c.strip() for c in cells[2:]]
        if i_rate is not None:
            r = cell(vals, i_rate)
        elif i_ft is not None:
            ft = cell(vals, i_ft)
            r = 1000.0 / ft if ft is not None and ft > 0 else None
        else:
            raise OracleError("Afterburner log without Framerate or Frametime column")
        if r is not None and not r > 0:
            r = None
        rows.append((n, t, r))
    if names is None:
        raise OracleError("no Afterburner column-name (02) line")
    period = None
    if len(rows) >= 2:
        period = (rows[-1][1] - rows[0][1]) * 1000.0 / (len(rows) - 1)
    srows = [Row(n, None, r) for n, _, r in rows]
    if period is None:
        samples, notes = [], [(rows[0][0], "only row: opens the log")] if rows else []
    else:
        samples, notes = samples_from_rows(srows, period_ms=period)
    return {
        "format": "afterburner",
        "sampled": True,
        "process_id": None,
        "samples": samples,
        "latency": empty_latency(),
        "skipped": skipped + notes,
        "rows": len(rows),
        "period_ms": period,
    }


# --------------------------------------------------------------------------------------
# MangoHud CSV (formats.md section 5)

_VERSION_RE = re.compile(r"v?(\d+)\.(\d+)\.(\d+)")


def mangohud_header(lines):
    """(index of the frame-metrics header line, MangoHud version tuple or None)."""
    version = None
    for k, line in enumerate(lines):
        cells = [c.lower() for c in csv_cells(line)]
        if "fps" in cells and "elapsed" in cells:
            return k, version
        m = _VERSION_RE.match(line.strip())
        if m and version is None and "," not in line:
            version = tuple(int(x) for x in m.groups())
    raise OracleError("no MangoHud header line (fps ... elapsed)")


def median(vals):
    s = sorted(vals)
    return pm.median(s)


def mangohud_frametime_unit(header_lc, version, fts, fpss):
    """'us' or 'ms' for the frametime column. frametime is microseconds up to 0.6.8 and
    milliseconds from 0.6.9 (formats.md section 5). In order: the version line
    (log_versioning); a column added after 0.6.9 (swap_used, process_rss: 0.7.0;
    cpu_power: 0.8.0; cpu_mhz: 0.8.2) means ms; otherwise compare the median frametime
    with the median 1000/fps: ms when their ratio is nearer 1 than 1000 (log scale);
    with no fps, us when the median exceeds 1000."""
    if version is not None:
        return "us" if version < (0, 6, 9) else "ms"
    if {"swap_used", "process_rss", "cpu_power", "cpu_mhz"} & set(header_lc):
        return "ms"
    if not fts:
        return "ms"
    m_ft = median(fts)
    if fpss:
        ref = median([1000.0 / r for r in fpss])
        ratio = m_ft / ref
        return "us" if abs(math.log10(ratio) - 3) < abs(math.log10(ratio)) else "ms"
    return "us" if m_ft > 1000 else "ms"


def read_mangohud(path, text):
    lines = split_lines(text)
    k, version = mangohud_header(lines)
    header = csv_cells(lines[k])
    header_lc = [h.lower() for h in header]
    i_fps = column_index(header, "fps")
    i_ft = column_index(header, "frametime")
    i_el = column_index(header, "elapsed")
    rows = []     # (line, elapsed ns, fps or None, frametime raw or None)
    skipped = []
    for n, line in enumerate(lines[k + 1:], start=k + 2):
        if not line.strip():
            continue
        cells = csv_cells(line)
        if len(cells) < len(header):
            skipped.append((n, "truncated row: %d fields, header has %d: not a row"
                            % (len(cells), len(header))))
            continue
        el = cell(cells, i_el)
        if el is None:
            skipped.append((n, "no usable elapsed: not a row"))
            continue
        r = cell(cells, i_fps)
        if r is not None and not r > 0:
            r = None
        ft = cell(cells, i_ft)
        rows.append((n, el, r, ft))
    fts_raw = [ft for _, _, _, ft in rows if ft is not None and ft > 0]
    fpss = [r for _, _, r, _ in rows if r is not None]
    unit = None
    if i_ft is not None:
        unit = mangohud_frametime_unit(header_lc, version, fts_raw, fpss)
        scale = 0.001 if unit == "us" else 1.0
        fts_ms = [v * scale for v in fts_raw]
    else:
        # 0.5.x has no frametime column: each row's frame time is 1000/fps.
        scale = None
        fts_ms = [1000.0 / r for r in fpss]
    steps = [(rows[j][1] - rows[j - 1][1]) / 1e6 for j in range(1, len(rows))]
    med_step = median(steps) if steps else None
    med_ft = median(fts_ms) if fts_ms else None
    sampled = (med_step is not None and med_ft is not None
               and med_step > SAMPLED_RATIO * med_ft)
    info = {
        "format": "mangohud",
        "sampled": sampled,
        "process_id": None,
        "latency": empty_latency(),
        "rows": len(rows),
        "frametime_unit": unit,
        "median_step_ms": med_step,
        "median_frametime_ms": med_ft,
    }
    if sampled:
        samples, notes = samples_from_rows([Row(n, el, r) for n, el, r, _ in rows],
                                           to_ms=1e-6)
        info["samples"] = samples
        info["skipped"] = skipped + notes
        return info
    # Per-frame log: frame time = frametime (ms), ordinary section 2-5 figures.
    frames = []
    for n, el, r, ft in rows:
        v = None
        if i_ft is not None:
            v = ft * scale if ft is not None else None
        elif r is not None:
            v = 1000.0 / r
        if v is None or not v > 0:
            skipped.append((n, "frame time missing or <= 0: skipped"))
            continue
        frames.append(v)
    info["frames"] = frames
    info["skipped"] = skipped
    return info


# --------------------------------------------------------------------------------------
# CapFrameX capture JSON (formats.md section 3a), per frame


class CxFrame:
    """One entry of a run. ft: MsBetweenPresents (None unless finite > 0); disp: the
    display interval (None when missing, <= 0 or dropped); actions: values of the
    file's action arrays (None = missing)."""
    __slots__ = ("index", "ft", "disp", "dropped", "actions", "until_displayed",
                 "pc_latency", "animation_error")

    def __init__(self, index):
        self.index = index


def _num(arr, i):
    """Finite number at arr[i] (bools are not numbers), else None."""
    if arr is None or not isinstance(arr, list) or i >= len(arr):
        return None
    v = arr[i]
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    v = float(v)
    return v if math.isfinite(v) else None


def _ci_get(d, name):
    """Case-insensitive key lookup; first matching key in the object's order."""
    if not isinstance(d, dict):
        return None
    for k, v in d.items():
        if k.lower() == name.lower():
            return v
    return None


def read_capframex_json(path, text):
    doc = json.loads(text)
    info = _ci_get(doc, "Info") or {}
    app = _ci_get(info, "ProcessName") or _ci_get(info, "GameName") or \
        os.path.splitext(os.path.basename(path))[0]
    runs = _ci_get(doc, "Runs") or []
    traces = []
    skipped = []
    for run_no, run in enumerate(runs):
        cd = _ci_get(run, "CaptureData")
        if not isinstance(cd, dict):
            skipped.append((run_no, "run without CaptureData: not a run"))
            continue
        mbp = _ci_get(cd, "MsBetweenPresents")
        mbd = _ci_get(cd, "MsBetweenDisplayChange")
        dropped_arr = _ci_get(cd, "Dropped")
        dropped_known = isinstance(dropped_arr, list)
        # action arrays: CaptureData keys in the object's order, spelled as written
        actions = []
        seen = set()
        for k, v in cd.items():
            if k.lower() in ACTION_NAMES and k.lower() not in seen and isinstance(v, list):
                seen.add(k.lower())
                actions.append(k)
        n = max(len(mbp) if isinstance(mbp, list) else 0,
                len(mbd) if isinstance(mbd, list) else 0)
        udisp = _ci_get(cd, "MsUntilDisplayed")
        pcl = _ci_get(cd, "PcLatency")
        anim = _ci_get(cd, "AnimationError")
        frames = []
        for i in range(n):
            f = CxFrame(i)
            ft = _num(mbp, i)
            f.ft = ft if ft is not None and ft > 0 else None
            dropped = False
            if dropped_known:
                dv = dropped_arr[i] if i < len(dropped_arr) else None
                dropped = dv is True or (not isinstance(dv, bool) and _num(dropped_arr, i) == 1.0)
            f.dropped = dropped
            disp = None if dropped else _num(mbd, i)
            f.disp = disp if disp is not None and disp > 0 else None
            if f.ft is None and f.disp is None:
                skipped.append((i, "run %d entry %d: no frame time > 0 and not displayed"
                                % (run_no, i)))
                continue
            f.actions = tuple(
                None if (dropped and name.lower() in DISPLAY_ACTIONS)
                else _num(cd[name], i) for name in actions)
            f.until_displayed = None if dropped else _num(udisp, i)
            f.pc_latency = _num(pcl, i)
            f.animation_error = _num(anim, i)
            frames.append(f)
        if not frames:
            skipped.append((run_no, "run %d has no frame: not a run" % run_no))
            continue
        traces.append({
            "application": app,
            "frames": frames,
            "dropped_known": dropped_known,
            "actions": actions,
            "has": {"pcl": isinstance(pcl, list), "anim": isinstance(anim, list),
                    "udisp": isinstance(udisp, list)},
        })
    return {"format": "capframex-json", "sampled": False, "traces": traces,
            "skipped": skipped}


def _mean(vals):
    return naive_sum(vals) / len(vals) if vals else None


def cx_latency(tr):
    """Latency keys a CapFrameX JSON can fill (cli-report.md), over all frames of the
    run, whatever the source, plain left-to-right means:
      display_latency_mean_ms      mean MsUntilDisplayed of displayed (not dropped) frames;
      pc_latency_column_mean_ms    mean of the numeric PcLatency cells;
      pc_latency_min_ms / max_ms   extremes of the PcLatency cells > 0;
      animation_error_mean_abs_ms  mean |AnimationError| over cells with |v| < 1e6.
    Everything else null (MsUntilRenderComplete is not MsRenderPresentLatency; the JSON
    has no click-to-photon or all-input-to-photon array; PCL figures need --pcl)."""
    lat = empty_latency()
    fr = tr["frames"]
    if tr["has"]["udisp"]:
        lat["display_latency_mean_ms"] = _mean(
            [f.until_displayed for f in fr if not f.dropped and f.until_displayed is not None])
    if tr["has"]["pcl"]:
        v = [f.pc_latency for f in fr if f.pc_latency is not None]
        pos = [x for x in v if x > 0]
        lat["pc_latency_column_mean_ms"] = _mean(v)
        lat["pc_latency_min_ms"] = min(pos) if pos else None
        lat["pc_latency_max_ms"] = max(pos) if pos else None
    if tr["has"]["anim"]:
        anim = sorted(abs(f.animation_error) for f in fr
                      if f.animation_error is not None
                      and abs(f.animation_error) < ANIMATION_ERROR_LIMIT)
        lat["animation_error_mean_abs_ms"] = _mean(
            [abs(f.animation_error) for f in fr
             if f.animation_error is not None and abs(f.animation_error) < ANIMATION_ERROR_LIMIT])
        # metrics.md section 13: p99 of |v| (section 2's interpolation), share above 1 ms.
        lat["animation_error_p99_abs_ms"] = pm.percentile(anim, 0.99) if anim else None
        lat["animation_error_over_1ms_fraction"] = (
            sum(1 for v in anim if v > 1.0) / len(anim) if anim else None)
    return lat


# --------------------------------------------------------------------------------------
# Documents


def detect(path, text):
    s = text.lstrip()
    if s.startswith("{"):
        return "capframex-json"
    first = s.split("\n", 1)[0]
    if re.match(r"0{1,2}\s*,", first) and "hardware monitoring log" in first.lower():
        return "afterburner"
    if NV_TIME.lower() in first.lower():
        return "nvidia-app"
    for line in split_lines(text)[:20]:
        cells = [c.lower() for c in csv_cells(line)]
        if "fps" in cells and "elapsed" in cells:
            return "mangohud"
    raise OracleError("not a sampled log or CapFrameX JSON this oracle knows")


def analyse(path):
    text = read_text(path)
    kind = detect(path, text)
    if kind == "capframex-json":
        return read_capframex_json(path, text)
    if kind == "afterburner":
        return read_afterburner(path, text)
    if kind == "nvidia-app":
        return read_nvidia_app(path, text)
    return read_mangohud(path, text)


def _null_sections(entry):
    for k in ("pacing", "stutters", "osc", "health"):
        entry[k] = None


def document(path, analysis, source):
    stem = os.path.splitext(os.path.basename(path))[0]
    doc = {
        "file": pm.relpath_for(path),
        "format": analysis["format"],
        "sampled": analysis["sampled"],
        "frame_time": source,
    }
    if analysis["format"] == "capframex-json":
        traces = []
        counts = []
        for tr in analysis["traces"]:
            fr = tr["frames"]
            # CapFrameX JSON has no FrameType: auto resolves to presents.
            used = "presents" if source in ("presents", "auto") else "display"
            if used == "presents":
                series = [f for f in fr if f.ft is not None]
                vals = [f.ft for f in series]
            else:
                series = [f for f in fr if f.disp is not None]
                vals = [f.disp for f in series]
            counts.append((tr["application"], sum(1 for f in fr if f.ft is not None)))
            entry = {
                "application": tr["application"],
                "process_id": None,
                "swap_chain": None,
                "frame_time": used,
                "frames": len(vals),
                "dropped_frames": (sum(1 for f in fr if f.dropped)
                                   if tr["dropped_known"] else None),
            }
            if vals:
                total, summ = pm.summary(vals)
                entry["duration_ms"] = total
                entry["summary"] = summ
                entry.update(pm.timing_sections(vals, total, tr["actions"], series))
            else:
                entry["duration_ms"] = None
                entry["summary"] = None
                _null_sections(entry)
            entry["latency"] = cx_latency(tr)
            entry["frame_types"] = None
            traces.append(entry)
        doc["default_trace"] = pm.default_trace(counts)
        doc["traces"] = traces
        return doc

    entry = {
        "application": stem,
        "process_id": analysis["process_id"],
        "swap_chain": None,
        "frame_time": "presents",
    }
    if analysis["sampled"]:
        frames, duration, summ = sampled_summary(analysis["samples"])
        entry.update({"frames": frames, "dropped_frames": None, "duration_ms": duration,
                      "summary": summ})
        _null_sections(entry)
    else:
        # Per-frame MangoHud: no display data, so every source analyses the frame times.
        vals = analysis["frames"]
        entry.update({"frames": len(vals), "dropped_frames": None})
        if vals:
            total, summ = pm.summary(vals)
            entry["duration_ms"] = total
            entry["summary"] = summ
            entry.update(pm.timing_sections(vals, total, [], []))
        else:
            entry["duration_ms"] = None
            entry["summary"] = None
            _null_sections(entry)
    entry["latency"] = analysis["latency"]
    entry["frame_types"] = None
    doc["default_trace"] = 0
    doc["traces"] = [entry]
    return doc


to_json = pm.to_json


# --------------------------------------------------------------------------------------
# Self-test


def self_test():
    failures = []

    def check(name, got, want, tol=None):
        if tol is None:
            ok = got == want
        else:
            ok = got is not None and abs(got - want) <= tol * max(1.0, abs(want))
        print("%-66s %s" % (name, "ok" if ok else "FAIL: got %r, want %r" % (got, want)))
        if not ok:
            failures.append(name)

    def run_text(kind, text, name="case"):
        path = "/nonexistent/%s" % name
        reader = {"nvidia-app": read_nvidia_app, "afterburner": read_afterburner,
                  "mangohud": read_mangohud, "capframex-json": read_capframex_json}[kind]
        a = reader(path, text)
        return a, document(path, a, "presents")

    nv_head = ("Timestamp (Elapsed time in seconds),PID,FPS,FPS 1(%) Low,"
               "Render Latency(MSec),Average PC Latency(MSec),CPU Utilization(%),\n")

    # 1. Two samples of different Δt.
    #    t 0 opens; t 0.5 s, 100 FPS -> Δt 500, w = 100*500/1000 = 50 frames of 10 ms;
    #    t 1.5 s, 50 FPS -> Δt 1000, w = 50 frames of 20 ms. W = 100, duration 1500,
    #    avg = (100*500 + 50*1000)/1500 = 66.666..., min 50, max 100.
    #    p50: p*W = 50, running weight ascending ft: 50 (10 ms) reaches -> 10 ms; p90 -> 20.
    #    low 1%: K = 1, slowest sample (20 ms) in part: 1000*1/(1*20) = 50.
    #    PC latency 20 (Δt 500) and 30 (Δt 1000): Δt-weighted (20*500+30*1000)/1500 = 26.67.
    #    Render latency 4 and 0 (0 = none): mean 4.
    a, d = run_text("nvidia-app", nv_head +
                    "0.000,42,70,0,1,1,10\n0.500,42,100,0,4,20,10\n1.500,42,50,0,0,30,10\n")
    t = d["traces"][0]
    s = t["summary"]
    check("two samples: frames = round(W) = 100", t["frames"], 100)
    check("two samples: duration 1500 ms", t["duration_ms"], 1500.0)
    check("two samples: avg_fps = 100000/1500", s["avg_fps"], 100000.0 / 1500, 1e-12)
    check("two samples: min/max fps", (s["min_fps"], s["max_fps"]), (50.0, 100.0))
    check("two samples: p50 10 ms, p90 20 ms", (s["p50_ms"], s["p90_ms"]), (10.0, 20.0))
    check("two samples: low_1pct = 50", s["low_1pct_fps"], 50.0, 1e-12)
    check("two samples: process_id = first non-zero PID", t["process_id"], 42)
    check("two samples: PC latency Δt-weighted mean 26.67, min 20, max 30",
          (round(t["latency"]["pc_latency_column_mean_ms"], 9),
           t["latency"]["pc_latency_min_ms"], t["latency"]["pc_latency_max_ms"]),
          (round(80.0 / 3, 9), 20.0, 30.0))
    check("two samples: render latency (cells > 0 only) = 4",
          t["latency"]["render_present_latency_mean_ms"], 4.0)

    # 2. A PID-0 row ends an interval. t 0 opens; t 1 s, 60 FPS -> Δt 1000, w 60;
    #    t 2 s, PID 0, FPS 0: not a sample, ends the interval; t 2.5 s, 120 FPS ->
    #    Δt 500 (not 1500), w 60. W 120, duration 1500, avg (60000 + 60000)/1500 = 80.
    #    A PID-0 row with FPS > 0 is not a sample either (t 3 s, Δt 500 lost).
    #    A row without timestamp (spreadsheet summary ",,99,...") is not a row at all.
    a, d = run_text("nvidia-app", nv_head +
                    "0,7,60,0,0,0,1\n1,7,60,0,0,0,1\n2,0,0,0,0,0,1\n2.5,7,120,0,0,0,1\n"
                    "3,0,500,0,0,0,1\n,,99,,,,\n")
    t = d["traces"][0]
    check("PID 0 row: duration 1000 + 500 = 1500", t["duration_ms"], 1500.0)
    check("PID 0 row: frames 120, avg 80", (t["frames"], t["summary"]["avg_fps"]), (120, 80.0))
    check("PID 0 row: max_fps 120 (500-FPS PID-0 row ignored)", t["summary"]["max_fps"], 120.0)
    check("summary row without timestamp skipped", a["rows"], 5)
    check("latency of zeros / absent -> null",
          (t["latency"]["pc_latency_column_mean_ms"],
           t["latency"]["render_present_latency_mean_ms"]), (None, None))

    # 3. Δt <= 0: t 0 opens; t 1 s 100 FPS (Δt 1000, w 100); t 1 s again 10 FPS
    #    (Δt 0: not a sample, so min_fps stays 100); t 1.5 s 100 FPS (Δt 500, w 50).
    a, d = run_text("nvidia-app", nv_head +
                    "0,1,100,0,0,0,0\n1,1,100,0,0,0,0\n1,1,10,0,0,0,0\n1.5,1,100,0,0,0,0\n")
    t = d["traces"][0]
    check("repeated timestamp: not a sample (duration 1500, min 100, frames 150)",
          (t["duration_ms"], t["summary"]["min_fps"], t["frames"]), (1500.0, 100.0, 150))

    # 4. Weighted percentiles and lows with a partial sample:
    #    (ft 10, w 100), (ft 20, w 5), (ft 40, w 1): W 106.
    #    p90: 95.4 -> reached at ft 10; p95: 100.7 -> ft 20; p99: 104.94 -> ft 20;
    #    p99.9: 105.894 -> ft 40. low 1%: K 1.06 = 1 (ft 40) + 0.06 (ft 20):
    #    1000*1.06/(40 + 1.2) = 25.728...; low 0.1%: K 0.106 inside ft 40 -> 25.
    ss = [Sample(1, 100.0, 1000.0, {}), Sample(2, 50.0, 100.0, {}), Sample(3, 25.0, 40.0, {})]
    fr, dur, s = sampled_summary(ss)
    check("weights: W = 106 -> frames 106, duration 1140", (fr, dur), (106, 1140.0))
    check("weighted p50/p90/p95/p99/p99.9",
          (s["p50_ms"], s["p90_ms"], s["p95_ms"], s["p99_ms"], s["p99_9_ms"]),
          (10.0, 10.0, 20.0, 20.0, 40.0))
    check("weighted low_1pct = 1060/41.2", s["low_1pct_fps"], 1060.0 / 41.2, 1e-12)
    check("weighted low_0_1pct = 25 (one sample in part)", s["low_0_1pct_fps"], 25.0, 1e-12)
    check("avg = (100*1000 + 50*100 + 25*40)/1140", s["avg_fps"], 106000.0 / 1140, 1e-12)
    check("frames = round(W) half to even: round(2.5) = 2, round(3.5) = 4",
          (round(2.5), round(3.5)), (2, 4))

    # 5. Afterburner polling period: 5 timed data rows 10:00:00, :00, :01, :01, :02 ->
    #    P = (2 s)/(5-1) = 500 ms; one more row without timestamp is not a row. The first
    #    row opens the log; the N/A row is not a sample but counts in rows-1.
    #    Samples: 100, 200, 50 FPS, each Δt 500 -> w 50, 100, 25; W 175, duration 1500,
    #    avg (100+200+50)/3 = 116.67. First Framerate column wins over the second.
    ab = ("00, 01-02-2024 10:00:00, Hardware monitoring log v1.6 \n"
          "01, 01-02-2024 10:00:00, GPU\n"
          "02, 01-02-2024 10:00:00, Power ,Framerate ,Frametime ,Framerate \n"
          "03, 01-02-2024 10:00:00, 0 ,W ,0.000 ,300.000 \n"
          "80, 01-02-2024 10:00:00, 1 ,90 ,11.1 ,1 \n"
          "80, 01-02-2024 10:00:00, 1 ,100 ,10 ,1 \n"
          "80, 01-02-2024 10:00:01, 1 ,N/A ,0 ,1 \n"
          "80, 01-02-2024 10:00:01, 1 ,200 ,5 ,1 \n"
          "80, , 1 ,300 ,5 ,1 \n"
          "80, 01-02-2024 10:00:02, 1 ,50 ,20 ,1 \n")
    a, d = run_text("afterburner", ab)
    t = d["traces"][0]
    check("Afterburner: polling period (2 s)/(5-1) = 500 ms", a["period_ms"], 500.0)
    check("Afterburner: duration 3 x 500, frames 175",
          (t["duration_ms"], t["frames"]), (1500.0, 175))
    check("Afterburner: avg = mean rate 350/3", t["summary"]["avg_fps"], 350.0 / 3, 1e-12)
    ab2 = ab.replace("Power ,Framerate ,Frametime ,Framerate", "Power ,FPS ,Frametime ,X")
    a, d = run_text("afterburner", ab2)
    check("Afterburner without Framerate: rate 1000/Frametime (min 50, max 200)",
          (d["traces"][0]["summary"]["min_fps"], d["traces"][0]["summary"]["max_fps"]),
          (50.0, 200.0))
    ab1 = re.sub(r"(?m)^0(\d),", r"\1,", ab)  # one-digit prefixes, as in RE3's .csv
    a1, d1 = run_text("afterburner", ab1)
    check("Afterburner: 1-digit prefixes read the same",
          d1["traces"][0]["summary"], run_text("afterburner", ab)[1]["traces"][0]["summary"])

    # 6. MangoHud sampled detection. Rows every 100 ms (elapsed ns), frametime 16700 us
    #    (0.6.0 layout: no version line, no post-0.6.9 column; 16700 vs 1000/60 = 16.67 ms
    #    -> ratio ~1000 -> us). Median step 100 > 1.5 * 16.7 -> sampled; samples 60 FPS x
    #    100 ms -> w 6 each. Three rows -> 2 samples -> W 12, duration 200.
    mh = ("os,cpu,gpu,ram,kernel,driver\nLinux,cpu,gpu,1,k,d\n"
          "fps,frametime,cpu_load,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,gpu_mem_clock,"
          "gpu_vram_used,ram_used,elapsed\n"
          "60,16700,1,1,1,1,1,1,1,1,300000\n60,16700,1,1,1,1,1,1,1,1,100300000\n"
          "60,16700,1,1,1,1,1,1,1,1,200300000\n")
    a, d = run_text("mangohud", mh)
    check("MangoHud 0.6.0: frametime in us", a["frametime_unit"], "us")
    check("MangoHud: 100 ms rows, 16.7 ms frames -> sampled", a["sampled"], True)
    check("MangoHud sampled: frames 12, duration 200",
          (d["traces"][0]["frames"], d["traces"][0]["duration_ms"]), (12, 200.0))
    # Per-frame: 0.8 layout (cpu_power -> ms); elapsed steps 10, 10, 30 ms (median 10),
    # frametimes 10, 10, 10, 30 (median 10) -> 10 > 15 is false -> per frame; frames are
    # every row's frametime: 4 frames, T 60 ms, avg 1000*4/60.
    mh2 = ("v1\n0.8.1\n---------------------SYSTEM INFO---------------------\n"
           "os,cpu,gpu,ram,kernel,driver,cpuscheduler\nL,c,g,1,k,,p\n"
           "--------------------FRAME METRICS--------------------\n"
           "fps,frametime,cpu_load,cpu_power,elapsed\n"
           "100,10,1,1,0\n100,10,1,1,10000000\n100,10,1,1,20000000\n33,30,1,1,50000000\n")
    a, d = run_text("mangohud", mh2)
    check("MangoHud with versioning preamble: version line -> ms", a["frametime_unit"], "ms")
    check("MangoHud: steps ~ frame times -> not sampled (per frame)", a["sampled"], False)
    t = d["traces"][0]
    check("MangoHud per-frame: 4 frames, T 60, avg 66.67",
          (t["frames"], t["duration_ms"], round(t["summary"]["avg_fps"], 9)),
          (4, 60.0, round(4000.0 / 60, 9)))
    check("MangoHud per-frame: sampled false, pacing present",
          (d["sampled"], t["pacing"] is not None), (False, True))

    # 7. CapFrameX JSON: 5 entries; entry 2 dropped (display value 0 -> missing),
    #    entry 4 has MsBetweenPresents 0 but is displayed (a frame of the display series).
    #    presents: 10, 20, 10, 10 -> 4 frames, T 50; display: 16, 16, 16, 32 -> T 80.
    cx = json.dumps({"Info": {"ProcessName": "game.exe"}, "Runs": [{"CaptureData": {
        "MsBetweenPresents": [10, 20, 10, 10, 0],
        "MsInPresentAPI": [1, 1, 1, 1, 1],
        "MsBetweenDisplayChange": [16, 16, 0, 16, 32],
        "MsUntilDisplayed": [5, 7, 0, 9, 11],
        "Dropped": [False, False, True, False, False],
        "PcLatency": None}}]})
    a = read_capframex_json("/x/c.json", cx)
    d = document("/x/c.json", a, "presents")
    t = d["traces"][0]
    check("CapFrameX presents: 4 frames, T 50, 1 dropped",
          (t["frames"], t["duration_ms"], t["dropped_frames"]), (4, 50.0, 1))
    check("CapFrameX actions: MsInPresentAPI, MsUntilDisplayed",
          t["health"]["actions"], ["MsInPresentAPI", "MsUntilDisplayed"])
    check("CapFrameX display latency: mean of displayed (5+7+9+11)/4 = 8",
          t["latency"]["display_latency_mean_ms"], 8.0)
    d = document("/x/c.json", a, "display")
    t = d["traces"][0]
    check("CapFrameX display: 4 frames, T 80", (t["frames"], t["duration_ms"]), (4, 80.0))
    d = document("/x/c.json", a, "auto")
    check("CapFrameX auto -> presents", d["traces"][0]["frame_time"], "presents")
    check("CapFrameX: no PcLatency / AnimationError array -> null",
          (t["latency"]["pc_latency_column_mean_ms"], t["latency"]["animation_error_mean_abs_ms"],
           t["latency"]["render_present_latency_mean_ms"]), (None, None, None))
    # PcLatency [20, 0, 30, 40, 10]: mean of the numeric cells 100/5 = 20, min/max of
    # the cells > 0: 10 and 40. AnimationError [1, -3, 2e15 (garbage), 2, null]:
    # mean |v| over |v| < 1e6 = (1 + 3 + 2)/3 = 2.
    cx3 = json.loads(cx)
    cx3["Runs"][0]["CaptureData"]["PcLatency"] = [20, 0, 30, 40, 10]
    cx3["Runs"][0]["CaptureData"]["AnimationError"] = [1, -3, 2e15, 2, None]
    a = read_capframex_json("/x/c.json", json.dumps(cx3))
    lat = document("/x/c.json", a, "presents")["traces"][0]["latency"]
    check("CapFrameX PcLatency: mean 20, min 10, max 40; |AnimationError| mean 2",
          (lat["pc_latency_column_mean_ms"], lat["pc_latency_min_ms"], lat["pc_latency_max_ms"],
           lat["animation_error_mean_abs_ms"]), (20.0, 10.0, 40.0, 2.0))
    check("latency keys: the 14 of cli-report.md", list(lat), LATENCY_KEYS)
    cx2 = cx.replace('"Dropped": [false, false, true, false, false], ', "")
    a = read_capframex_json("/x/c.json", cx2)
    t = document("/x/c.json", a, "presents")["traces"][0]
    check("CapFrameX without Dropped: dropped_frames null", t["dropped_frames"], None)

    print("%d check(s) failed" % len(failures) if failures else "all checks passed")
    return len(failures)


# --------------------------------------------------------------------------------------
# Driver


def golden_inputs():
    files = []
    for folder, exts in GOLDEN_SETS:
        d = os.path.join(TRACES_DIR, folder)
        for name in sorted(os.listdir(d)):
            if name.lower().endswith(exts):
                files.append(os.path.join(d, name))
    return files


def report(path, analysis, stream):
    sk = analysis["skipped"]
    extra = ""
    if analysis["format"] == "mangohud":
        extra = " frametime unit %s, median step %.3f ms, median frame time %.3f ms" % (
            analysis["frametime_unit"], analysis["median_step_ms"] or 0,
            analysis["median_frametime_ms"] or 0)
    if analysis.get("period_ms") is not None:
        extra += " polling period %r ms" % analysis["period_ms"]
    stream.write("%s: format=%s sampled=%s%s, %d note(s)\n"
                 % (pm.relpath_for(path), analysis["format"], analysis["sampled"], extra,
                    len(sk)))
    for where, why in sk:
        stream.write("  %s %s: %s\n" % ("entry" if analysis["format"] == "capframex-json"
                                        else "line", where, why))
    if analysis.get("samples") is not None:
        m = boundary_margins(analysis["samples"])
        if m:
            stream.write("  %d samples, W = %r; closest percentile decision %.3g of W; "
                         "W is %.3f from a .5\n"
                         % (len(analysis["samples"]), m["W"],
                            min(v for k, v in m.items() if k.startswith("p")),
                            m["W_frac_from_half"]))


def write_goldens_to(folder, verbose):
    os.makedirs(folder, exist_ok=True)
    written = []
    for path in golden_inputs():
        analysis = analyse(path)
        if verbose:
            report(path, analysis, sys.stderr)
        stem = os.path.splitext(os.path.basename(path))[0]
        for source in SOURCES:
            doc = document(path, analysis, source)
            out = os.path.join(folder, "%s.%s.json" % (stem, source))
            with open(out, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(to_json(doc))
                fh.write("\n")
            written.append(out)
    return written


def check_goldens():
    """Regenerate into a temporary folder and compare with tests/golden byte for byte,
    for this script's files only (<stem>.<source>.json of the captures it covers).
    Returns the number of problems (missing, extra or differing files)."""
    stems = {os.path.splitext(os.path.basename(p))[0] for p in golden_inputs()}

    def own(name):
        base, ext = os.path.splitext(name)
        return ext == ".json" and "." in base and base.rsplit(".", 1)[0] in stems

    return goldens.check(lambda d: write_goldens_to(d, False), own, GOLDEN_DIR, "tests/golden",
                         "python3 tests/oracle/sampled_oracle.py --write-goldens")


def main(argv):
    source = "auto"
    files = []
    mode = None
    verbose = False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--frame-time":
            i += 1
            if i >= len(argv) or argv[i] not in SOURCES:
                sys.exit("--frame-time takes auto, presents or display")
            source = argv[i]
        elif a.startswith("--frame-time="):
            source = a.split("=", 1)[1]
            if source not in SOURCES:
                sys.exit("--frame-time takes auto, presents or display")
        elif a in ("--write-goldens", "--check-goldens", "--self-test"):
            mode = a
        elif a == "--report":
            verbose = True
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            files.append(a)
        i += 1
    if mode == "--self-test":
        return 1 if self_test() else 0
    if mode == "--write-goldens":
        for w in write_goldens_to(GOLDEN_DIR, verbose):
            print(os.path.relpath(w, PROJECT_ROOT))
        return 0
    if mode == "--check-goldens":
        return 1 if check_goldens() else 0
    if not files:
        sys.exit("no input file (see --help)")
    status = 0
    for path in files:
        try:
            analysis = analyse(path)
        except (OracleError, OSError, ValueError) as e:
            sys.stderr.write("%s: error: %s\n" % (path, e))
            status = 1
            continue
        report(path, analysis, sys.stderr)
        print(to_json(document(path, analysis, source)))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
