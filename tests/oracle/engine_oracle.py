#!/usr/bin/env python3
"""Independent test oracle for framescope's engine and generic per-frame CSVs.

Written from the project spec only (shared/spec/formats.md sections 7, 10 and 11,
shared/spec/metrics.md sections 1-6 and shared/spec/cli-report.md), never from the Rust
sources. Python 3 standard library only. The section 2-6 figure functions are imported
from pm_oracle.py (read-only), so both oracles compute percentiles, lows, pacing,
stutters, OSC and spikes the same way.

Formats covered:
  * Unity FrameTimingManager: framescope's recorder CSV (optional `# framescope-unity`
    line, `cpuFrameTime` header) and a Profiler-counter CSV (counter names, values in ns).
  * Unreal Engine CSV profiler: the 4.2x-5.x layout (EVENTS first, footer with a repeated
    header and `[HasHeaderRowAtEnd]` metadata) and the 4.17-4.19 layout (EVENTS last).
  * Generic per-frame CSVs: FRAPS frametimes, Unity Profile Analyzer "Single Frame Times",
    the Vulkan frame-time layer, and any CSV with --column frame-time=NAME or
    --column timestamp=NAME and --unit s|ms|us|ns (default ms); `;`-separated files with
    decimal commas.

Usage:
    python3 tests/oracle/engine_oracle.py [--column frame-time=NAME|timestamp=NAME]
                                          [--unit s|ms|us|ns] FILE...
        print one JSON document per file (stdout); skipped rows go to stderr.
    python3 tests/oracle/engine_oracle.py --write-goldens
        regenerate tests/golden/engine/<fixture>.json for every fixture in FIXTURES.
    python3 tests/oracle/engine_oracle.py --check-goldens
        regenerate into a temporary folder and compare byte for byte; exit 1 on any
        difference.
    python3 tests/oracle/engine_oracle.py --self-test
        check the parsing rules on small hand-made cases and every fixture's figures
        against the hand arithmetic (target/engine-notes.md); exit 1 on failure.
"""

import csv
import importlib.util
import json
import math
import os
import re
import sys

import goldens  # tests/oracle/goldens.py, beside this script

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT_ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
FIXTURE_DIR = os.path.join(PROJECT_ROOT, "sample-traces")
GOLDEN_DIR = os.path.join(PROJECT_ROOT, "tests", "golden", "engine")


def _load_pm_oracle():
    """Import pm_oracle.py from this folder (no bytecode cache written)."""
    sys.dont_write_bytecode = True
    spec = importlib.util.spec_from_file_location("pm_oracle", os.path.join(HERE, "pm_oracle.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


pm = _load_pm_oracle()

# The fixtures of sample-traces/ this oracle writes goldens for, with the CLI mapping
# each one needs (None: a layout framescope knows without --column).
FIXTURES = [
    ("unity-recorder-example.csv", None),
    ("unity-profiler-counters-example.csv", None),
    ("unreal-csvprofile-5x-example.csv", None),
    ("unreal-csvprofile-4.19-example.csv", None),
    ("generic-fraps-frametimes.csv", None),
    ("generic-custom-us.csv", ("frame-time", "frame_us", "us")),
    ("generic-semicolon-decimal-comma.csv", ("timestamp", "Zeit (s)", "s")),
    ("generic-unity-profile-analyzer-frametimes.csv", None),
    ("generic-vulkan-frame-time-layer.csv", None),
]

# Milliseconds per unit (cli-report.md --unit).
UNIT_MS = {"s": 1000.0, "ms": 1.0, "us": 1e-3, "ns": 1e-6}

# formats.md section 7.
UNITY_FRAME_TIME = "cpuframetime"
UNITY_ACTIONS = ["cpumainthreadframetime", "cpurenderthreadframetime",
                 "cpumainthreadpresentwaittime", "gpuframetime"]
UNITY_GPU = "gpuframetime"
UNITY_COUNTER_FRAME_TIME = "cpu total frame time"
UNITY_COUNTER_ACTIONS = ["cpu main thread frame time", "cpu render thread frame time",
                         "gpu frame time"]
UNITY_COUNTER_GPU = "gpu frame time"
UNITY_DEFAULT_TIMER_HZ = 10_000_000
UNITY_STAGES = [("main_thread_ms", "framestarttimestamp", "firstsubmittimestamp"),
                ("render_submit_ms", "firstsubmittimestamp", "cputimepresentcalled"),
                ("gpu_ms", "cputimepresentcalled", "cputimeframecomplete")]

# formats.md section 10.
UNREAL_FRAME_TIME = "frametime"
UNREAL_ACTIONS = ["gamethreadtime", "renderthreadtime", "rhithreadtime", "gputime"]
UNREAL_METADATA_KEYS = ["platform", "engineversion", "cpu", "deviceprofile"]

_DECIMAL_COMMA_RE = re.compile(r"[+-]?\d+,\d+")


class OracleError(Exception):
    pass


# --------------------------------------------------------------------------------------
# Reading


def read_text(path):
    with open(path, "rb") as fh:
        data = fh.read()
    text = data.decode("utf-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def detect_separator(header_line):
    """`;` when the header line has more semicolons than commas (formats.md section 11:
    spreadsheets in many locales), else `,`."""
    return ";" if header_line.count(";") > header_line.count(",") else ","


def split_cells(line, sep):
    cells = next(csv.reader([line], delimiter=sep))
    return [c.strip() for c in cells]


def number(cell, sep):
    """Finite float or None. In a `;`-separated file a decimal comma is a decimal point."""
    if cell is None:
        return None
    c = cell.strip()
    if sep == ";" and _DECIMAL_COMMA_RE.fullmatch(c):
        c = c.replace(",", ".")
    return pm.parse_num(c)


class Table:
    """A CSV as lines: `meta_lines` (leading `#` lines), the header and the data lines,
    each kept with its 1-based file line number."""

    def __init__(self, text):
        self.lines = text.splitlines()
        self.meta_lines = []
        i = 0
        while i < len(self.lines) and (self.lines[i].startswith("#") or not self.lines[i].strip()):
            if self.lines[i].startswith("#"):
                self.meta_lines.append(self.lines[i])
            i += 1
        if i >= len(self.lines):
            raise OracleError("no header row")
        self.header_line_no = i + 1
        self.sep = detect_separator(self.lines[i])
        self.header = split_cells(self.lines[i], self.sep)
        self.lower = [h.lower() for h in self.header]
        self.rows = []  # (line number, cells)
        for j in range(i + 1, len(self.lines)):
            if not self.lines[j].strip():
                continue
            self.rows.append((j + 1, split_cells(self.lines[j], self.sep)))

    def col(self, name_lc, names=None):
        """Index of the first column whose trimmed name matches (case-insensitive)."""
        names = self.lower if names is None else names
        try:
            return names.index(name_lc)
        except ValueError:
            return None


def cell_at(cells, idx):
    if idx is None or idx >= len(cells):
        return None
    return cells[idx]


# --------------------------------------------------------------------------------------
# Format detection


def detect(table):
    """(format, layout) from the header."""
    names = table.lower
    if UNITY_FRAME_TIME in names:
        return "unity", "framescope-recorder"
    if unity_counter_index(names, UNITY_COUNTER_FRAME_TIME) is not None:
        return "unity", "profiler-counters"
    if names and names[0] == "events":
        return "unreal-csv", "4.2x-5.x"
    if names and names[-1] == "events":
        return "unreal-csv", "4.17-4.19"
    # formats.md section 10: in the 4.17-4.19 layout "EVENTS is the last column and present
    # only when an event occurred", so a capture without events has no EVENTS column; its
    # FrameTime with the engine's thread times (and no PresentMon identity columns) still
    # makes it an Unreal capture. (Added after review: the first version called such a file
    # an unmapped generic CSV, which the spec contradicts.)
    if ("frametime" in names and any(t in names for t in ("gamethreadtime", "renderthreadtime", "rhithreadtime"))
            and not ("application" in names and "processid" in names)):
        return "unreal-csv", "4.17-4.19"
    if names == ["frame", "time (ms)"]:
        return "generic", "fraps"
    if "frame time (ms)" in names and "time from first frame (ms)" in names:
        return "generic", "unity-profile-analyzer"
    if "frame time (ns)" in names and "benchmark state" in names:
        return "generic", "vulkan-frame-time-layer"
    return "generic", None


def unity_counter_index(names, counter):
    """A Profiler counter column: the counter's name, or the name followed by ` (ns)`."""
    for k, n in enumerate(names):
        if n == counter or n == counter + " (ns)":
            return k
    return None


# --------------------------------------------------------------------------------------
# Series building. Every reader returns a dict:
#   ft: kept frame times (ms), rows: their file line numbers, skipped: [(line, reason)],
#   actions: [(name as the header writes it, [value or None per kept frame])],
#   starts: frame start times (ms, relative), time_axis: its source, plus extras.


def keep(ft_ms, line_no, skipped):
    """metrics.md section 1: a frame time that is missing, not finite or <= 0 is skipped."""
    if ft_ms is None:
        skipped.append((line_no, "frame time missing"))
        return False
    if not ft_ms > 0:
        skipped.append((line_no, "frame time <= 0"))
        return False
    return True


def running_starts(ft):
    out, t = [], 0.0
    for v in ft:
        out.append(t)
        t += v
    return out


def parse_unity_header(meta_lines):
    """The optional `# framescope-unity 1,key=value,...` line (formats.md section 7)."""
    for line in meta_lines:
        body = line[1:].strip()
        if not body.lower().startswith("framescope-unity"):
            continue
        parts = body.split(",")
        meta = {"version": parts[0].split()[-1] if len(parts[0].split()) > 1 else None}
        for p in parts[1:]:
            if "=" in p:
                k, v = p.split("=", 1)
                meta[k.strip().lower()] = v.strip()
        return meta
    return None


def read_unity(table, layout):
    sep = table.sep
    skipped, ft, rows, cells_kept = [], [], [], []
    if layout == "framescope-recorder":
        ft_idx = table.col(UNITY_FRAME_TIME)
        action_idx = [(table.header[k], k, table.lower[k] == UNITY_GPU)
                      for k in range(len(table.lower)) if table.lower[k] in UNITY_ACTIONS]
        scale = 1.0
    else:
        ft_idx = unity_counter_index(table.lower, UNITY_COUNTER_FRAME_TIME)
        action_idx = []
        for k, n in enumerate(table.lower):
            for c in UNITY_COUNTER_ACTIONS:
                if n == c or n == c + " (ns)":
                    action_idx.append((table.header[k], k, c == UNITY_COUNTER_GPU))
        scale = 1e-6  # Profiler counters hold nanoseconds
    for line_no, cells in table.rows:
        v = number(cell_at(cells, ft_idx), sep)
        v = None if v is None else v * scale
        if keep(v, line_no, skipped):
            ft.append(v)
            rows.append(line_no)
            cells_kept.append(cells)
    actions = []
    for name, k, is_gpu in action_idx:
        vals = []
        for cells in cells_kept:
            a = number(cell_at(cells, k), sep)
            if a is not None:
                a = a * scale
            if is_gpu and a == 0:
                a = None  # gpuFrameTime 0 = the GPU returned no timing: missing
            vals.append(a)
        actions.append((name, vals))

    meta = parse_unity_header(table.meta_lines)
    freq = UNITY_DEFAULT_TIMER_HZ
    if meta and number(meta.get("cpu_timer_frequency"), ",") not in (None, 0.0):
        freq = number(meta.get("cpu_timer_frequency"), ",")
    target = None
    if meta and meta.get("target_fps") is not None:
        t = number(meta["target_fps"], ",")
        target = t if t is not None and t > 0 else None

    # Time axis: frameStartTimestamp when present (every kept frame has one), else the
    # running sum of frame times.
    ts_idx = table.col("framestarttimestamp")
    stamps = [number(cell_at(c, ts_idx), sep) for c in cells_kept] if ts_idx is not None else []
    if ts_idx is not None and stamps and all(s is not None for s in stamps):
        starts = [(s - stamps[0]) * 1000.0 / freq for s in stamps]
        axis = "frameStartTimestamp"
    else:
        starts = running_starts(ft)
        axis = "running sum of frame times"

    stages = None
    if layout == "framescope-recorder":
        stages = {}
        for key, a, b in UNITY_STAGES:
            ia, ib = table.col(a), table.col(b)
            vals = []
            if ia is not None and ib is not None:
                for cells in cells_kept:
                    x, y = number(cell_at(cells, ia), sep), number(cell_at(cells, ib), sep)
                    if x is not None and y is not None and y >= x:
                        vals.append((y - x) * 1000.0 / freq)
            stages[key] = pm.mean_or_none(vals)

    return {
        "ft": ft, "rows": rows, "skipped": skipped, "actions": actions,
        "starts": starts, "time_axis": axis, "target_fps": target,
        "metadata": meta, "events": None, "stages": stages,
        "frame_time_column": table.header[ft_idx] if ft_idx is not None else None,
        "unit": "ms" if layout == "framescope-recorder" else "ns",
    }


def parse_unreal_metadata(cells):
    """`[key],value` pairs of the footer line; keys lower-cased (any case in files)."""
    meta = {}
    k = 0
    while k < len(cells):
        key = cells[k]
        if key.startswith("[") and key.endswith("]"):
            meta[key[1:-1].strip().lower()] = cells[k + 1] if k + 1 < len(cells) else ""
            k += 2
        else:
            k += 1
    return meta


def read_unreal(table, layout):
    sep = table.sep
    names, names_lc = table.header, table.lower
    data = []
    footer_meta = None
    footer_header = None
    k = 0
    while k < len(table.rows):
        line_no, cells = table.rows[k]
        first = cells[0].lower() if cells else ""
        if first == "events" and layout == "4.2x-5.x":
            footer_header = cells
            if k + 1 < len(table.rows) and table.rows[k + 1][1] and \
                    table.rows[k + 1][1][0].lower() == "[hasheaderrowatend]":
                footer_meta = parse_unreal_metadata(table.rows[k + 1][1])
            break
        if first.startswith("[hasheaderrowatend]"):
            footer_meta = parse_unreal_metadata(cells)
            break
        data.append((line_no, cells))
        k += 1
    if footer_header is not None and len(footer_header) > len(names):
        names = footer_header
        names_lc = [n.lower() for n in names]

    ft_idx = table.col(UNREAL_FRAME_TIME, names_lc)
    ev_idx = table.col("events", names_lc)
    action_idx = [(names[j], j) for j in range(len(names_lc)) if names_lc[j] in UNREAL_ACTIONS]
    skipped, ft, rows, cells_kept, events = [], [], [], [], []
    pending = []  # events of skipped rows, attached to the next kept frame
    for line_no, cells in data:
        if len(cells) > len(names):
            skipped.append((line_no, "row has %d fields, header has %d" % (len(cells), len(names))))
            continue
        # Missing trailing cells (a stat that appeared later) are missing values.
        ev_cell = cell_at(cells, ev_idx) or ""
        texts = [t.strip() for t in ev_cell.split(";") if t.strip()]
        v = number(cell_at(cells, ft_idx), sep)
        if keep(v, line_no, skipped):
            for t in pending + texts:
                events.append([len(ft), t])
            pending = []
            ft.append(v)
            rows.append(line_no)
            cells_kept.append(cells)
        else:
            pending.extend(texts)
    actions = [(name, [number(cell_at(c, j), sep) for c in cells_kept]) for name, j in action_idx]

    target = None
    metadata = None
    if footer_meta is not None:
        metadata = {key: footer_meta.get(key) for key in UNREAL_METADATA_KEYS}
        t = number(footer_meta.get("targetframerate"), ",")
        target = t if t is not None and t > 0 else None
    return {
        "ft": ft, "rows": rows, "skipped": skipped, "actions": actions,
        "starts": running_starts(ft), "time_axis": "running sum of frame times",
        "target_fps": target, "metadata": metadata, "events": events, "stages": None,
        "frame_time_column": names[ft_idx] if ft_idx is not None else None, "unit": "ms",
        "columns": len(names),
    }


def read_generic(table, layout, mapping):
    """mapping: (kind, column name, unit) from the CLI, or None for a known layout."""
    sep = table.sep
    if mapping is None:
        if layout == "fraps":
            mapping = ("timestamp", "Time (ms)", "ms")
        elif layout == "unity-profile-analyzer":
            mapping = ("frame-time", "Frame Time (ms)", "ms")
        elif layout == "vulkan-frame-time-layer":
            mapping = ("frame-time", "Frame Time (ns)", "ns")
        else:
            raise OracleError("generic CSV: name the column with --column frame-time=NAME "
                              "or --column timestamp=NAME")
    else:
        layout = "mapped"
    kind, name, unit = mapping
    idx = table.col(name.strip().lower())
    if idx is None:
        raise OracleError("no column %r in the header" % name)
    factor = UNIT_MS[unit]
    skipped, ft, rows, starts = [], [], [], []
    if kind == "frame-time":
        for line_no, cells in table.rows:
            v = number(cell_at(cells, idx), sep)
            v = None if v is None else v * factor
            if keep(v, line_no, skipped):
                ft.append(v)
                rows.append(line_no)
        axis_idx = table.col("time from first frame (ms)") if layout == "unity-profile-analyzer" else None
        if axis_idx is not None:
            kept = set(rows)
            stamps = [number(cell_at(c, axis_idx), sep) for ln, c in table.rows if ln in kept]
            if all(s is not None for s in stamps):
                starts = [s - stamps[0] for s in stamps]
                axis = "Time from first frame (ms)"
        if not starts:
            starts = running_starts(ft)
            axis = "running sum of frame times"
    else:
        # A timestamp column (formats.md section 11): frame i's time is t_i - t_k, k the
        # last row kept before it; the first row starts the clock. A skipped row (no
        # timestamp, one that goes back, a 0 interval) never becomes the time base.
        t0 = prev = None
        for line_no, cells in table.rows:
            t = number(cell_at(cells, idx), sep)
            if t is None:
                skipped.append((line_no, "timestamp missing"))
                continue
            if prev is None:
                t0 = prev = t
                continue
            if t < prev:
                skipped.append((line_no, "timestamp goes back"))
                continue
            v = (t - prev) * factor
            if keep(v, line_no, skipped):
                ft.append(v)
                rows.append(line_no)
                starts.append((prev - t0) * factor)
                prev = t
        axis = "%s column" % table.header[idx]
    return {
        "ft": ft, "rows": rows, "skipped": skipped, "actions": [],
        "starts": starts, "time_axis": axis, "target_fps": None, "metadata": None,
        "events": None, "stages": None, "frame_time_column": table.header[idx],
        "unit": unit, "mapping": "%s=%s" % (kind, name), "layout": layout,
    }


def analyse_text(text, mapping=None):
    table = Table(text)
    fmt, layout = detect(table)
    if fmt == "unity":
        res = read_unity(table, layout)
    elif fmt == "unreal-csv":
        res = read_unreal(table, layout)
    else:
        res = read_generic(table, layout, mapping)
        layout = res["layout"]
    res["format"] = fmt
    res["layout"] = layout
    res["separator"] = table.sep
    return res


def analyse_file(path, mapping=None):
    return analyse_text(read_text(path), mapping)


# --------------------------------------------------------------------------------------
# Document


def document(rel_file, res):
    ft = res["ft"]
    doc = {
        "file": rel_file,
        "format": res["format"],
        "layout": res["layout"],
        "column": res.get("mapping"),
        "unit": res["unit"],
        "frame_time_column": res["frame_time_column"],
        "separator": res["separator"],
        "frames": len(ft),
        "dropped_frames": None,
        "skipped_rows": [[ln, why] for ln, why in res["skipped"]],
    }
    if not ft:
        doc.update({"duration_ms": None, "summary": None, "pacing": None, "stutters": None,
                    "osc": None, "health": None})
    else:
        total, summ = pm.summary(ft)
        roll = pm.rolling(ft)
        doc["duration_ms"] = total
        doc["summary"] = summ
        doc["pacing"] = pm.pacing(ft, total)
        doc["stutters"] = pm.stutters(ft, roll, total)
        doc["osc"] = pm.oscillation(roll)
        doc["health"] = {
            "actions": [name for name, _ in res["actions"]],
            "spikes": {name: pm.action_spikes(vals) for name, vals in res["actions"]},
        }
    doc["time_axis"] = {"source": res["time_axis"], "frame_start_ms": res["starts"]}
    doc["target_fps"] = res["target_fps"]
    doc["events"] = res["events"]
    doc["metadata"] = res["metadata"]
    if res["stages"] is not None:
        doc["unity_stages_mean_ms"] = res["stages"]
    return doc


_NUM_LIST_RE = re.compile(r"\[\n\s*(-?[\d.eE+-]+(?:,\n\s*-?[\d.eE+-]+)*)\n\s*\]")
_PAIR_RE = re.compile(r'\[\n\s*(\d+),\n\s*("(?:[^"\\]|\\.)*")\n\s*\]')


def to_json(doc):
    """json.dumps(indent=2) with lists of plain numbers, and [index, "text"] pairs (events,
    skipped rows), on one line."""
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    text = _PAIR_RE.sub(lambda m: "[%s, %s]" % (m.group(1), m.group(2)), text)
    return _NUM_LIST_RE.sub(lambda m: "[" + re.sub(r",\n\s*", ", ", m.group(1)) + "]", text)


# --------------------------------------------------------------------------------------
# Goldens


def fixture_doc(name, mapping):
    path = os.path.join(FIXTURE_DIR, name)
    return document("sample-traces/" + name, analyse_file(path, mapping))


def write_goldens_to(folder):
    os.makedirs(folder, exist_ok=True)
    written = []
    for name, mapping in FIXTURES:
        out = os.path.splitext(name)[0] + ".json"
        with open(os.path.join(folder, out), "w", encoding="utf-8", newline="\n") as fh:
            fh.write(to_json(fixture_doc(name, mapping)))
            fh.write("\n")
        written.append(out)
    return written


def check_goldens():
    return goldens.check(write_goldens_to, lambda n: n.endswith(".json"), GOLDEN_DIR,
                         "tests/golden/engine",
                         "python3 tests/oracle/engine_oracle.py --write-goldens")


# --------------------------------------------------------------------------------------
# Self-test


# Hand arithmetic of every fixture (target/engine-notes.md): frames, T and the summary.
HAND = {
    "unity-recorder-example.csv": dict(
        frames=40, duration_ms=717.0, avg_fps=40000 / 717, min_fps=20.0, max_fps=62.5,
        p50_ms=17.0, p90_ms=17.0, p95_ms=18.15, p99_ms=46.1, p99_9_ms=49.61,
        low_1pct_fps=20.0, low_0_1pct_fps=20.0, stutters=[12, 27],
        spikes={"cpuMainThreadFrameTime": [12], "cpuRenderThreadFrameTime": [],
                "cpuMainThreadPresentWaitTime": [27], "gpuFrameTime": [27]},
        target_fps=60.0),
    "unity-profiler-counters-example.csv": dict(
        frames=30, duration_ms=330.0, avg_fps=30000 / 330, min_fps=1000 / 30, max_fps=100.0,
        p50_ms=10.0, p90_ms=12.5, p95_ms=12.5, p99_ms=24.925, p99_9_ms=29.4925,
        low_1pct_fps=1000 / 30, low_0_1pct_fps=1000 / 30, stutters=[15],
        spikes={"CPU Main Thread Frame Time": [15], "CPU Render Thread Frame Time": [],
                "GPU Frame Time": []},
        target_fps=None),
    "unreal-csvprofile-5x-example.csv": dict(
        frames=40, duration_ms=684.0, avg_fps=40000 / 684, min_fps=1000 / 48, max_fps=62.5,
        p50_ms=16.0, p90_ms=16.4, p95_ms=20.0, p99_ms=37.08, p99_9_ms=46.908,
        low_1pct_fps=1000 / 48, low_0_1pct_fps=1000 / 48, stutters=[21],
        spikes={"GameThreadTime": [21], "RenderThreadTime": [], "RHIThreadTime": [],
                "GPUTime": [5, 6, 30]},
        target_fps=60.0,
        events=[[0, "LoadMap/Arena_01"], [21, "Gameplay/BossSpawn"], [21, "Audio/MusicChange"],
                [35, "Checkpoint"]]),
    "unreal-csvprofile-4.19-example.csv": dict(
        frames=30, duration_ms=1027.0, avg_fps=30000 / 1027, min_fps=1000 / 66,
        max_fps=1000 / 33, p50_ms=33.0, p90_ms=34.0, p95_ms=34.0, p99_ms=56.72,
        p99_9_ms=65.072, low_1pct_fps=1000 / 66, low_0_1pct_fps=1000 / 66, stutters=[17],
        spikes={"GameThreadTime": [17], "RenderThreadTime": [], "GPUTime": []},
        target_fps=None, events=[[0, "LoadMap"], [17, "Streaming/LevelStreamed"]]),
    "generic-fraps-frametimes.csv": dict(
        frames=30, duration_ms=538.5, avg_fps=30000 / 538.5, min_fps=1000 / 41.5,
        max_fps=1000 / 16.5, p50_ms=16.5, p90_ms=17.0, p95_ms=25.8, p99_ms=39.035,
        p99_9_ms=41.2535, low_1pct_fps=1000 / 41.5, low_0_1pct_fps=1000 / 41.5,
        stutters=[10, 25], spikes={}, target_fps=None),
    "generic-custom-us.csv": dict(
        frames=32, duration_ms=568.0, avg_fps=32000 / 568, min_fps=1000 / 36, max_fps=62.5,
        p50_ms=16.0, p90_ms=20.0, p95_ms=27.2, p99_ms=36.0, p99_9_ms=36.0,
        low_1pct_fps=1000 / 36, low_0_1pct_fps=1000 / 36, stutters=[11, 27], spikes={},
        target_fps=None, skipped_lines=[2, 19]),
    "generic-semicolon-decimal-comma.csv": dict(
        frames=24, duration_ms=437.5, avg_fps=24000 / 437.5, min_fps=1000 / 46.875,
        max_fps=64.0, p50_ms=15.625, p90_ms=26.5625, p95_ms=31.25, p99_ms=43.28125,
        p99_9_ms=46.515625, low_1pct_fps=1000 / 46.875, low_0_1pct_fps=1000 / 46.875,
        stutters=[8, 9, 16], spikes={}, target_fps=None),
    "generic-unity-profile-analyzer-frametimes.csv": dict(
        frames=20, duration_ms=179.0, avg_fps=20000 / 179, min_fps=1000 / 24, max_fps=125.0,
        p50_ms=8.0, p90_ms=9.0, p95_ms=9.75, p99_ms=21.15, p99_9_ms=23.715,
        low_1pct_fps=1000 / 24, low_0_1pct_fps=1000 / 24, stutters=[14], spikes={},
        target_fps=None),
    "generic-vulkan-frame-time-layer.csv": dict(
        frames=30, duration_ms=470.0, avg_fps=30000 / 470, min_fps=25.0, max_fps=80.0,
        p50_ms=12.5, p90_ms=26.5, p95_ms=40.0, p99_ms=40.0, p99_9_ms=40.0,
        low_1pct_fps=25.0, low_0_1pct_fps=25.0, stutters=[0, 1, 2, 20], spikes={},
        target_fps=None),
}


def self_test():
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)

    def close(a, b):
        return a is not None and b is not None and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)

    # Separator and decimal commas.
    check(detect_separator("a;b;c") == ";", "separator ;")
    check(detect_separator("a,b;c,d") == ",", "separator ,")
    check(number("16,5", ";") == 16.5, "decimal comma")
    check(number("16,5", ",") is None, "comma is not a decimal mark in a ,-separated file")
    check(number(" 0,015625 ", ";") == 0.015625, "decimal comma trimmed")

    # Unity: gpuFrameTime 0 is missing; other actions 0 stay 0; header line read.
    unity = ("# framescope-unity 1,cpu_timer_frequency=1000,unity=6000.0.1f1,platform=X,"
             "device=D,target_fps=30,vsync=0\n"
             "CPUFRAMETIME,gpuFrameTime,cpuMainThreadPresentWaitTime,frameStartTimestamp\n"
             "10,0,0,5000\n20,5,0,5010\n0,5,0,5030\n")
    r = analyse_text(unity)
    check(r["format"] == "unity" and r["ft"] == [10.0, 20.0], "unity frames (case-insensitive)")
    check(r["skipped"] == [(5, "frame time <= 0")], "unity skipped row")
    acts = dict(r["actions"])
    check(acts["gpuFrameTime"] == [None, 5.0], "gpu 0 = missing")
    check(acts["cpuMainThreadPresentWaitTime"] == [0.0, 0.0], "present wait 0 is 0")
    check(r["starts"] == [0.0, 10.0] and r["target_fps"] == 30.0, "unity time axis at 1 kHz")
    r = analyse_text("cpuFrameTime\n10\n20\n")
    check(r["starts"] == [0.0, 10.0] and r["time_axis"].startswith("running"), "unity no stamps")
    r = analyse_text("Frame,CPU Total Frame Time (ns),GPU Frame Time (ns)\n1,10000000,0\n")
    check(r["layout"] == "profiler-counters" and r["ft"] == [10.0], "counters in ns")
    check(dict(r["actions"])["GPU Frame Time (ns)"] == [None], "counter gpu 0 = missing")

    # Unreal 5.x: short early rows, events, footer, quoted command line, any-case keys.
    ue = ("EVENTS,FrameTime,GPUTime,Late\n"
          "A/x;B,10.0000\n"
          ",20.0000,5.0000\n"
          "C,,5.0000,1\n"
          ",30.0000,6.0000,1\n"
          "EVENTS,FrameTime,GPUTime,Late\n"
          '[HasHeaderRowAtEnd],1,[PLATFORM],Windows,[targetFrameRate],30,[commandline],'
          '"""a.exe"" -x=""1,2"""\n')
    r = analyse_text(ue)
    check(r["ft"] == [10.0, 20.0, 30.0], "unreal frames")
    check(r["events"] == [[0, "A/x"], [0, "B"], [2, "C"]], "unreal events (skipped row's to next)")
    check(dict(r["actions"])["GPUTime"] == [None, 5.0, 6.0], "unreal short row = missing")
    check(r["target_fps"] == 30.0 and r["metadata"]["platform"] == "Windows", "unreal footer")
    meta = parse_unreal_metadata(split_cells(ue.splitlines()[-1], ","))
    check(meta["commandline"] == '"a.exe" -x="1,2"', "commandline unquoted")
    r = analyse_text("FrameTime,GameThreadTime,EVENTS\n10,5,Go\n20,5,\n")
    check(r["layout"] == "4.17-4.19" and r["events"] == [[0, "Go"]], "unreal 4.19")
    check(r["target_fps"] is None and r["metadata"] is None, "unreal 4.19 has no footer")
    r = analyse_text("FrameTime,GameThreadTime,GPUTime\n10,5,4\n20,5,4\n")
    check(r["format"] == "unreal-csv" and r["layout"] == "4.17-4.19" and r["ft"] == [10.0, 20.0],
          "unreal 4.19 without an EVENTS column (no event in the capture)")
    check(r["events"] == [], "no events column: no events")

    # Generic: timestamp columns give one frame fewer; units; FRAPS header spacing.
    r = analyse_text("Frame, Time (ms)\n1, 0.0\n2, 10.0\n3, 25.0\n")
    check(r["layout"] == "fraps" and r["ft"] == [10.0, 15.0] and r["starts"] == [0.0, 10.0],
          "fraps running clock")
    r = analyse_text("Frame, Time (ms)\n1, 0.0\n2, 10.0\n3, 0\n4, 20.0\n5, 15.0\n6, 30.0\n")
    check(r["ft"] == [10.0, 10.0, 10.0] and r["starts"] == [0.0, 10.0, 20.0]
          and r["skipped"] == [(4, "timestamp goes back"), (6, "timestamp goes back")],
          "a 0 cell or a backwards timestamp is skipped and never the time base")
    r = analyse_text("t;x\n1,5;0\n1,516;0\n1,532;0\n", ("timestamp", "t", "s"))
    check(len(r["ft"]) == 2 and close(r["ft"][0], 16.0), "timestamp in s with decimal comma")
    r = analyse_text("a,b\n1,16000\n2,\n", ("frame-time", "B", "us"))
    check(r["ft"] == [16.0] and r["skipped"] == [(3, "frame time missing")], "µs column")
    try:
        analyse_text("a,b\n1,2\n")
        check(False, "unmapped generic CSV must be refused")
    except OracleError:
        pass

    # Every fixture against the hand arithmetic.
    for name, mapping in FIXTURES:
        doc = fixture_doc(name, mapping)
        hand = HAND[name]
        check(doc["frames"] == hand["frames"], "%s frames" % name)
        check(close(doc["duration_ms"], hand["duration_ms"]), "%s duration" % name)
        for key, val in doc["summary"].items():
            check(close(val, hand[key]), "%s %s: %r vs hand %r" % (name, key, val, hand[key]))
        check(doc["stutters"]["frames"] == hand["stutters"], "%s stutters %r" % (name, doc["stutters"]["frames"]))
        check(doc["health"]["spikes"] == hand["spikes"], "%s spikes %r" % (name, doc["health"]["spikes"]))
        check(doc["target_fps"] == hand["target_fps"], "%s target fps" % name)
        if "events" in hand:
            check(doc["events"] == hand["events"], "%s events %r" % (name, doc["events"]))
        if "skipped_lines" in hand:
            check([ln for ln, _ in doc["skipped_rows"]] == hand["skipped_lines"], "%s skipped" % name)
        else:
            check(doc["skipped_rows"] == [], "%s skipped nothing" % name)
        starts = doc["time_axis"]["frame_start_ms"]
        ft = analyse_file(os.path.join(FIXTURE_DIR, name), mapping)["ft"]
        check(len(starts) == doc["frames"] and starts[0] == 0.0, "%s time axis" % name)
        # Every fixture is contiguous: each frame starts where the previous one ended.
        check(all(close(starts[k] - starts[k - 1], ft[k - 1]) for k in range(1, len(starts))),
              "%s time axis steps" % name)

    for f in failures:
        print("FAIL:", f)
    print("engine_oracle self-test: %d failure(s)" % len(failures))
    return not failures


# --------------------------------------------------------------------------------------


def main(argv):
    mapping_kind = mapping_name = None
    unit = "ms"
    files = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--column", "--unit") and i + 1 < len(argv):
            i += 1
            a = a + "=" + argv[i]
        if a.startswith("--column="):
            spec = a.split("=", 1)[1]
            if "=" not in spec or spec.split("=", 1)[0] not in ("frame-time", "timestamp"):
                sys.exit("--column takes frame-time=NAME or timestamp=NAME")
            mapping_kind, mapping_name = spec.split("=", 1)
        elif a.startswith("--unit="):
            unit = a.split("=", 1)[1]
            if unit not in UNIT_MS:
                sys.exit("--unit takes s, ms, us or ns")
        elif a == "--write-goldens":
            for n in write_goldens_to(GOLDEN_DIR):
                print(os.path.relpath(os.path.join(GOLDEN_DIR, n), PROJECT_ROOT))
            return 0
        elif a == "--check-goldens":
            return 1 if check_goldens() else 0
        elif a == "--self-test":
            return 0 if self_test() else 1
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            files.append(a)
        i += 1
    if not files:
        sys.exit("no input file (see --help)")
    mapping = (mapping_kind, mapping_name, unit) if mapping_kind else None
    status = 0
    for path in files:
        try:
            res = analyse_file(path, mapping)
        except (OracleError, OSError, UnicodeDecodeError) as e:
            sys.stderr.write("%s: error: %s\n" % (path, e))
            status = 1
            continue
        for ln, why in res["skipped"]:
            sys.stderr.write("%s: line %d skipped: %s\n" % (path, ln, why))
        print(to_json(document(path, res)))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
