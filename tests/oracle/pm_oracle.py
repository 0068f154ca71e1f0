#!/usr/bin/env python3
"""Independent test oracle for framescope's PresentMon-family CSV analysis.

Written from the project spec only (shared/spec/metrics.md sections 1-2 and
shared/spec/formats.md sections 1-5), never from the Rust sources. Python 3.11
standard library only.

Usage:
    python3 tests/oracle/pm_oracle.py [--frame-time presents|display] [--report] FILE...
        print one JSON document per file (stdout); skipped rows are listed on stderr.
    python3 tests/oracle/pm_oracle.py --write-goldens [--report]
        regenerate tests/golden/<file stem>.<source>.json for every covered capture.

Environment: FRAMESCOPE_TRACES overrides the capture folder
(default: <project root>/../shared/real-traces).
"""

import csv
import io
import json
import math
import os
import re
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
    __slots__ = ("line", "ft", "disp", "dropped")

    def __init__(self, line, ft, disp, dropped):
        self.line = line
        self.ft = ft
        self.disp = disp  # display interval, None when missing (incl. dropped frames)
        self.dropped = dropped


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
        tr.frames.append(Frame(line_no, ft, disp, dropped))

    return {
        "format": fmt,
        "header_line": header_line,
        "traces": traces,
        "skipped": skipped,
    }


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
            vals = [f.ft for f in tr.frames]
        else:
            vals = [f.disp for f in tr.frames
                    if not f.dropped and f.disp is not None and f.disp > 0]
        presents_counts.append((tr.application, len(tr.frames)))
        total, summ = summary(vals) if vals else (0.0, None)
        out_traces.append({
            "application": tr.application,
            "process_id": tr.process_id,
            "swap_chain": tr.swap_chain,
            "frames": len(vals),
            "dropped_frames": dropped,
            "duration_ms": total,
            "summary": summ,
        })
    return {
        "file": relpath_for(path),
        "format": analysis["format"],
        "frame_time": source,
        "default_trace": default_trace(presents_counts),
        "traces": out_traces,
    }


# --------------------------------------------------------------------------------------
# Driver


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
                fh.write(json.dumps(doc, indent=2))
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
        print(json.dumps(document(path, analysis, source), indent=2))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
