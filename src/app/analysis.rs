//! The window's analysis, run on worker threads: per-trace level-of-detail data
//! ([`Tracks`], built once per trace) and the figures for the current settings
//! ([`Analyzed`], rebuilt when a threshold or the frame-time source changes).

use super::charts::ChartData;
use framescope_core::analysis::{FrameTimeSource, PclLatency, Prepared, Settings, Trim, percentile};
use framescope_core::ingest::pcl::MarkerLog;
use framescope_core::lod::{Budget, BudgetShares, MedianIndex, SeriesIndex};
use framescope_core::model::{ColumnKind, FileInfo, Trace, Warning};
use framescope_core::report::{self, Run};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};

/// Work running on another thread; the UI polls it.
pub struct Job<T> {
    result: Receiver<T>,
}

impl<T: Send + 'static> Job<T> {
    /// Runs `work` on a new thread and calls `repaint` when it is done.
    pub fn spawn(work: impl FnOnce() -> T + Send + 'static, repaint: impl Fn() + Send + 'static) -> Self {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let _ = tx.send(work());
            repaint();
        });
        Self { result: rx }
    }

    /// `Some(Ok(result))` once done, `Some(Err(..))` when the worker died (a bug, but
    /// the window must say so rather than wait forever), `None` while it runs.
    pub fn poll(&self) -> Option<Result<T, String>> {
        match self.result.try_recv() {
            Ok(v) => Some(Ok(v)),
            Err(std::sync::mpsc::TryRecvError::Empty) => None,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                Some(Err("a background task stopped unexpectedly".into()))
            }
        }
    }
}

/// One stacked segment kind of the latency row.
pub struct Segment {
    /// What it is.
    pub name: &'static str,
    /// Value per frame (ms, NaN = missing).
    pub values: Vec<f64>,
    /// Its typical value per range (the stack of a zoomed-out column).
    pub median: MedianIndex,
}

/// Stacked per-frame segments (latency stages), with what the LOD needs.
pub struct Stack {
    /// The segments, bottom first.
    pub segments: Vec<Segment>,
    /// Sum of the segments per frame (NaN when the frame has none).
    pub total: Vec<f64>,
    /// Index over `total`.
    pub index: SeriesIndex,
    /// A scale that shows the body of the totals (p99 · 1.6).
    pub scale_ms: f64,
    /// What the row is called.
    pub label: &'static str,
}

impl Stack {
    fn new(label: &'static str, segments: Vec<Segment>, total: Vec<f64>) -> Self {
        let mut sorted: Vec<f64> = total.iter().copied().filter(|v| v.is_finite()).collect();
        sorted.sort_unstable_by(f64::total_cmp);
        let scale_ms = (percentile(&sorted, 0.99) * 1.6).max(1.0);
        Self { index: SeriesIndex::new(&total), segments, total, scale_ms, label }
    }
}

/// A telemetry column the timeline draws, with its scale.
pub struct TelemetryTrack {
    /// The column's name as the file writes it.
    pub name: String,
    /// Its index among the trace's columns.
    pub column: usize,
    /// Typical and highest value per range.
    pub index: SeriesIndex,
    /// The smallest and largest value.
    pub min: f64,
    /// See `min`.
    pub max: f64,
    /// The unit its name says (°C, W, MHz, %, …), or "".
    pub unit: &'static str,
    /// The row's vertical axis: bottom and top values (round numbers around min and
    /// max, at least a tenth of the values' size apart, so that 75 → 76 °C is no cliff).
    pub axis: (f64, f64),
}

/// Level-of-detail data of one trace: what the timeline rows read.
pub struct Tracks {
    /// Frame times.
    pub frame_time: SeriesIndex,
    /// Display intervals (NaN for dropped frames) and their index.
    pub display: Option<(Vec<f64>, SeriesIndex)>,
    /// A GPU duration column (name, column index) and its index.
    pub gpu: Option<(String, usize, SeriesIndex)>,
    /// Latency stages from the capture's own columns.
    pub latency: Option<Stack>,
    /// Telemetry columns with varying values.
    pub telemetry: Vec<TelemetryTrack>,
    /// Dropped frames, ascending.
    pub dropped: Vec<u32>,
    /// A frame-time scale that shows the body of the trace (p99 · 1.6); taller
    /// frames are drawn clipped, with a mark, so spikes stay visible.
    pub scale_ms: f64,
    /// The same for the display intervals.
    pub display_scale_ms: f64,
    /// True when some frame was made by frame generation.
    pub generated: bool,
    /// What the `auto` frame-time source is for this trace on its own (what the
    /// timeline draws until the first figures arrive).
    pub auto_source: FrameTimeSource,
}

const GPU_KINDS: [ColumnKind; 3] = [ColumnKind::GpuTime, ColumnKind::GpuBusy, ColumnKind::GpuActive];
const MAX_TELEMETRY_ROWS: usize = 4;

/// The GPU duration column the timeline draws: the first of [`GPU_KINDS`] with a value.
fn gpu_column(trace: &Trace) -> Option<usize> {
    let f = &trace.frames;
    GPU_KINDS
        .iter()
        .find_map(|&k| f.columns.iter().position(|c| c.kind == k && c.values.iter().any(f64::is_finite)))
}

impl Tracks {
    /// Builds the tracks of a trace (O(n)).
    #[must_use]
    pub fn new(trace: &Trace) -> Self {
        let f = &trace.frames;
        let display = f.display_ms.iter().any(|v| v.is_finite()).then(|| {
            let d = f.display_ms.clone();
            let index = SeriesIndex::new(&d);
            (d, index)
        });
        let gpu =
            gpu_column(trace).map(|i| (f.columns[i].name.clone(), i, SeriesIndex::new(&f.columns[i].values)));
        let telemetry = f
            .columns
            .iter()
            .enumerate()
            .filter(|(_, c)| c.kind == ColumnKind::Telemetry)
            .filter_map(|(i, c)| {
                let (lo, hi) = c
                    .values
                    .iter()
                    .filter(|v| v.is_finite())
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
                (hi > lo).then(|| TelemetryTrack {
                    name: c.name.clone(),
                    column: i,
                    index: SeriesIndex::new(&c.values),
                    min: lo,
                    max: hi,
                    unit: telemetry_unit(&c.name),
                    axis: telemetry_axis(lo, hi),
                })
            })
            .take(MAX_TELEMETRY_ROWS)
            .collect();
        let scale_ms = body_scale(&f.frame_time_ms);
        let display_scale_ms = display.as_ref().map_or(scale_ms, |(d, _)| body_scale(d));
        let latency = latency_stack(trace);
        Self {
            frame_time: SeriesIndex::new(&f.frame_time_ms),
            display,
            gpu,
            latency,
            telemetry,
            dropped: (0..trace.len() as u32).filter(|&i| f.dropped[i as usize]).collect(),
            scale_ms,
            display_scale_ms,
            generated: framescope_core::analysis::has_generated_frames(trace),
            auto_source: FrameTimeSource::Auto.resolve(trace),
        }
    }
}

/// The unit a telemetry column's name says, for its axis and hover values.
#[must_use]
pub fn telemetry_unit(name: &str) -> &'static str {
    let n = name.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| n.contains(w));
    if has(&["limited"]) {
        // PresentMon's throttling flags: 0 or 1.
        ""
    } else if has(&["(mb)", "mbytes"]) || n.ends_with("mb") {
        // Unreal's stats end in MB (`MemoryFreeMB`, `PhysicalUsedMB`; formats.md §10).
        "MB"
    } else if ["exclusive/", "inclusive/", "gpu/"].iter().any(|p| n.starts_with(p))
        || n.ends_with("_ms")
        || n.contains("(ms)")
    {
        // Unreal's `Exclusive/…` and `GPU/…` stats are ms; so are `*_ms` / `(ms)` columns.
        "ms"
    } else if n.ends_with("_us") || n.contains("(us)") || n.contains("(µs)") {
        "µs"
    } else if has(&["temperature", "temp", "celsius", "°c"]) {
        "°C"
    } else if has(&["utilization", "util", "load", "usage", "%", "percent"]) {
        "%"
    } else if has(&["power", "watt"]) {
        "W"
    } else if has(&["voltage", "volt"]) {
        "V"
    } else if has(&["frequency", "clock", "clk", "mhz"]) {
        "MHz"
    } else if has(&["fan", "rpm"]) {
        "RPM"
    } else if has(&["bandwidth"]) {
        "B/s"
    } else if has(&["size", "memory", "vram"]) {
        "B"
    } else {
        ""
    }
}

/// A telemetry row's axis: round bounds around `[lo, hi]` that are at least a tenth of
/// the values' size apart (so that 75 → 76 °C is a small step, not a cliff), from 0
/// when the values are near it.
#[must_use]
pub fn telemetry_axis(lo: f64, hi: f64) -> (f64, f64) {
    let size = lo.abs().max(hi.abs());
    let span = (hi - lo).max(0.1 * size).max(1e-9);
    let centre = f64::midpoint(lo, hi);
    let (mut a, mut b) = (centre - span * 0.6, centre + span * 0.6);
    a = a.min(lo);
    b = b.max(hi);
    if lo >= 0.0 && a < 0.0 {
        a = 0.0;
    }
    if lo >= 0.0 && a < 0.25 * b {
        a = 0.0;
    }
    let step = nice_step((b - a) / 2.0);
    ((a / step).floor() * step, (b / step).ceil() * step)
}

/// The smallest step of the form {1, 2, 5} · 10^k not below `raw`.
#[must_use]
pub fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let decade = 10_f64.powi(raw.log10().floor() as i32);
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * decade)
        .find(|&w| w >= raw * 0.999_999)
        .unwrap_or(10.0 * decade)
}

/// p99 · 1.6 of the finite positive values (at least 1 ms).
fn body_scale(values: &[f64]) -> f64 {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite() && *v > 0.0).collect();
    sorted.sort_unstable_by(f64::total_cmp);
    (percentile(&sorted, 0.99) * 1.6).max(1.0)
}

fn segment(name: &'static str, values: Vec<f64>) -> Segment {
    Segment { name, median: MedianIndex::new(&values), values }
}

/// CPU work until Present(), Present() to GPU done, GPU done to display — from
/// whichever of the capture's columns say so.
fn latency_stack(trace: &Trace) -> Option<Stack> {
    if let Some(stack) = engine_stack(trace) {
        return Some(stack);
    }
    let col = |kinds: &[ColumnKind]| kinds.iter().find_map(|&k| trace.column(k)).map(|c| &c.values);
    let cpu = col(&[ColumnKind::CpuBusy]);
    let render = col(&[ColumnKind::RenderPresentLatency, ColumnKind::UntilRenderComplete]);
    let until = col(&[ColumnKind::UntilDisplayed]);
    let display_latency = col(&[ColumnKind::DisplayLatency]);
    if until.is_none() && display_latency.is_none() {
        return None;
    }
    let n = trace.len();
    let at = |c: Option<&framescope_core::model::Values>, i: usize| {
        c.map_or(0.0, |v| if v.at(i).is_finite() { v.at(i) } else { 0.0 })
    };
    let mut segments = [
        ("CPU until Present", vec![f64::NAN; n]),
        ("Present to GPU done", vec![f64::NAN; n]),
        ("GPU done to display", vec![f64::NAN; n]),
    ];
    let mut total = vec![f64::NAN; n];
    for (i, sum) in total.iter_mut().enumerate() {
        let (c, r) = (at(cpu, i), at(render, i));
        let to_display = match (until.map(|u| u.at(i)), display_latency.map(|d| d.at(i))) {
            (Some(u), _) if u.is_finite() => u - r,
            (_, Some(d)) if d.is_finite() => d - c - r,
            _ => continue,
        };
        let parts = [c, r, to_display.max(0.0)];
        for (seg, v) in segments.iter_mut().zip(parts) {
            seg.1[i] = v;
        }
        *sum = parts.iter().sum();
    }
    let segments = segments.into_iter().map(|(name, values)| segment(name, values)).collect();
    Some(Stack::new("Latency\nCPU · GPU · display", segments, total))
}

/// An engine's latency stages from its timestamps (Unity: main thread, render submit,
/// GPU; `formats.md` §7), in the capture's order; a frame's total is the sum of its
/// stages when it has all of them.
fn engine_stack(trace: &Trace) -> Option<Stack> {
    const NAMES: [&str; 3] = ["Main thread", "Render submit", "GPU"];
    let stages: Vec<&framescope_core::model::Column> =
        trace.frames.columns.iter().filter(|c| c.kind == ColumnKind::LatencyStage).take(3).collect();
    if stages.is_empty() || stages.iter().all(|c| c.values.all_missing()) {
        return None;
    }
    let n = trace.len();
    let total = (0..n)
        .map(|i| {
            let parts: Vec<f64> = stages.iter().map(|c| c.values.at(i)).collect();
            if parts.iter().all(|v| v.is_finite()) { parts.iter().sum() } else { f64::NAN }
        })
        .collect();
    let segments =
        stages.iter().zip(NAMES).map(|(c, name)| segment(name, c.values.iter().collect())).collect();
    Some(Stack::new("Latency\nmain · submit · GPU", segments, total))
}

/// The PC-latency breakdown of a marker log per capture frame: I2FS (on the frame
/// whose simulation start ended it), FS2P and P2D.
fn pcl_stack(trace: &Trace, pcl: &PclLatency) -> Option<Stack> {
    let n = trace.len();
    let mut seg = [vec![f64::NAN; n], vec![f64::NAN; n], vec![f64::NAN; n]];
    let mut by_id = std::collections::HashMap::new();
    for f in &pcl.frames {
        if let Some(i) = f.trace_frame {
            by_id.insert(f.frame_id, i);
            seg[1][i] = f.fs2p_ms.unwrap_or(f64::NAN);
            seg[2][i] = f.p2d_ms.unwrap_or(f64::NAN);
        }
    }
    for (v, id) in pcl.i2fs_ms.iter().zip(&pcl.i2fs_frame_ids) {
        if let Some(&i) = by_id.get(id) {
            seg[0][i] = *v;
        }
    }
    let total: Vec<f64> = (0..n)
        .map(|i| {
            let parts = [seg[0][i], seg[1][i], seg[2][i]];
            if parts.iter().all(|v| v.is_nan()) {
                f64::NAN
            } else {
                parts.iter().filter(|v| v.is_finite()).sum()
            }
        })
        .collect();
    if total.iter().all(|v| v.is_nan()) {
        return None;
    }
    let [i2fs, fs2p, p2d] = seg;
    let segments = vec![segment("I2FS", i2fs), segment("FS2P", fs2p), segment("P2D", p2d)];
    Some(Stack::new("PC latency\nI2FS · FS2P · P2D", segments, total))
}

/// Per-frame marks of the figures, in trace frame indices (ascending).
#[derive(Default)]
pub struct Marks {
    /// Stutter frames.
    pub stutters: Vec<u32>,
    /// The stutter frames outside oscillating stretches, and those inside them
    /// (possible false positives, `metrics.md` §5): `stutters` split in two.
    pub stutters_by_osc: (Vec<u32>, Vec<u32>),
    /// Runs of oscillating frames, `[first, last]`.
    pub oscillating: Vec<(u32, u32)>,
    /// Frames in `oscillating[..j]` for every j ([`framescope_core::lod::run_prefix`]).
    pub oscillating_prefix: Vec<u64>,
    /// Per action, its spike frames.
    pub spikes: Vec<(String, Vec<u32>)>,
}

/// Everything the window shows for one trace and one set of settings.
pub struct Analyzed {
    /// The settings the figures were computed with.
    pub settings: Settings,
    /// The trim the figures were computed with.
    pub trim: Trim,
    /// The frames the trim keeps, in the whole trace's indices.
    pub kept: std::ops::Range<usize>,
    /// The figures, exactly as `framescope report` prints them.
    pub run: Run,
    /// Settings-independent analysis, kept to recompute figures quickly.
    pub prepared: Arc<Prepared>,
    /// Per-frame marks for the timeline.
    pub marks: Marks,
    /// The charts (settings-independent: shared while the prepared analysis is).
    pub charts: Arc<ChartData>,
    /// The PC-latency breakdown, when a PCL marker log is attached.
    pub pcl: Option<Stack>,
    /// The marker log version the figures were computed with.
    pub markers_version: u32,
    /// Time over the target budget per range, for the frame-duration rows.
    pub shares: Arc<RowShares>,
}

/// [`BudgetShares`] of every series a frame-duration row draws, for the budget of the
/// figures' target (they depend on nothing else, so a new analysis with the same
/// target reuses them).
pub struct RowShares {
    /// The budget.
    pub budget: Budget,
    /// Present intervals.
    pub presents: BudgetShares,
    /// Display intervals, when the trace has them.
    pub display: Option<BudgetShares>,
    /// The GPU column the timeline draws, when there is one.
    pub gpu: Option<BudgetShares>,
}

impl RowShares {
    /// The shares of `trace`'s series against `budget` (O(n)).
    #[must_use]
    pub fn new(trace: &Trace, budget: Budget) -> Self {
        let f = &trace.frames;
        let display =
            f.display_ms.iter().any(|v| v.is_finite()).then(|| BudgetShares::new(&f.display_ms, budget));
        let gpu = gpu_column(trace).map(|i| BudgetShares::new(&f.columns[i].values, budget));
        Self { budget, presents: BudgetShares::new(&f.frame_time_ms, budget), display, gpu }
    }
}

/// What identifies a file to the report.
pub struct Source<'a> {
    /// Display name.
    pub name: &'a str,
    /// Format and system facts.
    pub info: &'a FileInfo,
    /// File-level warnings.
    pub warnings: &'a [Warning],
}

/// Analyses a trace trimmed by `trim` (`metrics.md` §1: every figure, mark and chart
/// is of the kept frames; the timeline still draws the whole trace, so the marks are
/// given in the whole trace's frame indices and the budget shares cover it all);
/// reuses `prepared` and its charts (made earlier for the same trace and trim) when it
/// was made for the source `settings` resolve to: a slider move then costs the
/// settings-dependent figures alone (no sort, no copy of the series). A trim that
/// leaves no frame is an error, in words.
pub fn analyze(
    source: &Source<'_>,
    trace: &Trace,
    settings: Settings,
    trim: Trim,
    prepared: Option<(Arc<Prepared>, Arc<ChartData>)>,
    shares: Option<Arc<RowShares>>,
    markers: Option<(u32, &MarkerLog)>,
) -> Result<Analyzed, String> {
    let range = trim.range(trace);
    if range.is_empty() {
        return Err(format!(
            "nothing is left after trimming: the trace spans {:.3} s, and the trim leaves out {} s at the \
             start and {} s at the end",
            Trim::span_s(trace),
            trim.start_s,
            trim.end_s
        ));
    }
    let cut;
    let kept: &Trace = if range.len() == trace.len() {
        trace
    } else {
        cut = trim.apply(trace);
        &cut
    };
    let offset = range.start as u32;
    let budget = Budget::of_fps(settings.target_fps);
    let shares =
        shares.filter(|s| s.budget == budget).unwrap_or_else(|| Arc::new(RowShares::new(trace, budget)));
    let wanted = settings.frame_time.resolve(kept);
    let (prepared, charts) = match prepared.filter(|(p, _)| p.source == wanted) {
        Some((p, c)) => (p, Some(c)),
        None => (Arc::new(Prepared::new(kept, settings.frame_time)), None),
    };
    let log = markers.map(|(_, log)| log);
    let run =
        report::run_prepared(source.name, source.info, source.warnings, kept, &settings, log, &prepared);
    // The timeline's PC-latency row covers the whole trace.
    let pcl = log.and_then(|log| pcl_stack(trace, &PclLatency::of(log, trace)));
    let series = &prepared.series;
    let to_trace = |positions: &[usize]| -> Vec<u32> {
        positions.iter().filter_map(|&k| series.frame_of(k)).map(|i| i + offset).collect()
    };
    let mut marks = Marks::default();
    if let Some(s) = &run.stutters {
        marks.stutters = to_trace(&s.frames);
    }
    if let Some(h) = &run.health {
        marks.spikes = h.spikes.iter().map(|(name, list)| (name.clone(), to_trace(list))).collect();
    }
    if let Some(o) = &run.osc {
        marks.oscillating = runs_in(&o.oscillating, |k| series.frame_of(k).unwrap_or(k as u32) + offset);
    }
    marks.stutters_by_osc = split_by_runs(&marks.stutters, &marks.oscillating);
    marks.oscillating_prefix = framescope_core::lod::run_prefix(&marks.oscillating);
    // A sampled log's entries are averages over intervals, not frame times: charting
    // them as frames would mislead (metrics.md §10).
    let charts = charts.unwrap_or_else(|| {
        let charted: &[f64] = if prepared.is_sampled() { &[] } else { &prepared.series.frame_time_ms };
        Arc::new(match prepared.curve() {
            Some(curve) if !prepared.is_sampled() => ChartData::from_curve(curve),
            _ => ChartData::new(charted, framescope_core::analysis::SlowTimeCurve::new(charted).as_ref()),
        })
    });
    Ok(Analyzed {
        settings,
        trim,
        kept: range,
        run,
        prepared,
        marks,
        charts,
        pcl,
        markers_version: markers.map_or(0, |(v, _)| v),
        shares,
    })
}

/// Runs of `true` in a per-series mask, as trace frame ranges.
#[cfg(test)]
fn runs_of(mask: &[bool], frames: &[u32]) -> Vec<(u32, u32)> {
    runs_in(mask, |k| frames[k])
}

/// [`runs_of`] with the trace frame of each position given by `frame`.
fn runs_in(mask: &[bool], frame: impl Fn(usize) -> u32) -> Vec<(u32, u32)> {
    let frames = frame;
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (k, &on) in mask.iter().enumerate() {
        match (on, start) {
            (true, None) => start = Some(k),
            (false, Some(s)) => {
                out.push((frames(s), frames(k - 1)));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((frames(s), frames(mask.len() - 1)));
    }
    out
}

/// Splits ascending `frames` into those outside and those inside the ascending,
/// disjoint `[first, last]` runs.
fn split_by_runs(frames: &[u32], runs: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
    let (mut outside, mut inside) = (Vec::new(), Vec::new());
    let mut k = 0;
    for &i in frames {
        while runs.get(k).is_some_and(|&(_, last)| last < i) {
            k += 1;
        }
        if runs.get(k).is_some_and(|&(first, _)| first <= i) {
            inside.push(i);
        } else {
            outside.push(i);
        }
    }
    (outside, inside)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Unity recorder example's first frame: frame start 50000000000, first submit
    /// +45000 ticks, Present +115000, complete +225000 at 10 MHz: 4.5 + 7 + 11 = 22.5 ms.
    #[test]
    fn unity_stages_make_the_latency_row() {
        let bytes = include_bytes!("../../sample-traces/unity-recorder-example.csv");
        let c = framescope_core::ingest::load_bytes(
            std::path::Path::new("u.csv"),
            bytes,
            framescope_core::ingest::LoadOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let stack = Tracks::new(&c.traces[0]).latency.unwrap_or_else(|| panic!("no latency row"));
        assert_eq!(stack.segments.len(), 3);
        assert!((stack.total[0] - 22.5).abs() < 1e-9, "{}", stack.total[0]);
        assert!((stack.segments[0].values[0] - 4.5).abs() < 1e-9);
    }

    #[test]
    fn engine_stat_units() {
        assert_eq!(telemetry_unit("MemoryFreeMB"), "MB");
        assert_eq!(telemetry_unit("Exclusive/GameThread/Physics"), "ms");
        assert_eq!(telemetry_unit("GPU/BasePass"), "ms");
        assert_eq!(telemetry_unit("cpu_us"), "µs");
        assert_eq!(telemetry_unit("CPUUsage_Process"), "%");
        assert_eq!(telemetry_unit("GPU0Clk(MHz)"), "MHz");
        assert_eq!(telemetry_unit("Memory Used"), "B");
    }

    #[test]
    fn runs_of_a_mask() {
        let frames: Vec<u32> = (10..20).collect();
        let mask = [true, true, false, false, true, false, false, true, true, true];
        assert_eq!(runs_of(&mask, &frames), vec![(10, 11), (14, 14), (17, 19)]);
        assert!(runs_of(&[], &[]).is_empty());
    }

    #[test]
    fn stutters_split_by_oscillating_runs() {
        let runs = [(3, 5), (9, 9), (20, 30)];
        let (outside, inside) = split_by_runs(&[0, 3, 5, 6, 9, 10, 25, 31], &runs);
        assert_eq!(outside, [0, 6, 10, 31]);
        assert_eq!(inside, [3, 5, 9, 25]);
        assert_eq!(split_by_runs(&[1, 2], &[]), (vec![1, 2], vec![]));
    }
}
