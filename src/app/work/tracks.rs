//! Level-of-detail data of one trace, built once per trace on a worker ([`Tracks`]):
//! what the timeline rows read, whatever the settings. [`RowShares`] (time over the
//! target's budget per range) depends on the target alone and is built with the
//! figures.

use framescope_core::analysis::FrameTimeSource;
use framescope_core::analysis::percentile_unsorted;
use framescope_core::lod::{Budget, BudgetShares, SeriesIndex};
use framescope_core::model::{ColumnKind, Trace};
use framescope_core::presentation::{Stack, latency_stack};
use framescope_core::presentation::{column_unit, telemetry_axis_in};

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
    /// Its unit (°C, W, MHz, %, …): the file's declaration, else its name's; or "".
    pub unit: &'static str,
    /// The row's vertical axis: bottom and top values (round numbers around min and
    /// max, at least a tenth of the values' size apart, so that 75 → 76 °C is no cliff).
    pub axis: (f64, f64),
}

/// Level-of-detail data of one trace: what the timeline rows read.
pub struct Tracks {
    /// Frame times.
    pub frame_time: SeriesIndex,
    /// The index of the display intervals (the trace's `display_ms`, NaN for dropped
    /// frames), when the trace has them.
    pub display: Option<SeriesIndex>,
    /// A GPU duration column (name, column index) and its index.
    pub gpu: Option<(String, usize, SeriesIndex)>,
    /// Latency stages from the capture's own columns.
    pub latency: Option<Stack>,
    /// Telemetry columns with varying values (every one, up to
    /// [`MAX_TELEMETRY_ROWS`]; which are shown is the user's choice, `row_choice`).
    pub telemetry: Vec<TelemetryTrack>,
    /// The capture's own PC latency column (FrameView / PresentMon `MsPCLatency`,
    /// NVIDIA App `Average PC Latency`), named "PC latency", when it varies.
    pub pc_latency: Option<TelemetryTrack>,
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
    /// CPU busy, GPU busy and the limiter of each frame (`metrics.md` §13), when the
    /// trace has the columns.
    pub limiter: Option<super::limiter_track::LimiterTrack>,
    /// The signed animation error, when the trace has it.
    pub animation: Option<super::limiter_track::AnimationTrack>,
}

const GPU_KINDS: [ColumnKind; 3] = [ColumnKind::GpuTime, ColumnKind::GpuBusy, ColumnKind::GpuActive];
/// Telemetry columns given a track at most (a file may hold thousands of columns).
pub const MAX_TELEMETRY_ROWS: usize = 128;

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
        let display = f.display_ms.iter().any(|v| v.is_finite()).then(|| SeriesIndex::new(&f.display_ms));
        let gpu =
            gpu_column(trace).map(|i| (f.columns[i].name.clone(), i, SeriesIndex::new(&f.columns[i].values)));
        let telemetry = f
            .columns
            .iter()
            .enumerate()
            .filter(|(_, c)| c.kind == ColumnKind::Telemetry)
            .filter_map(|(i, c)| TelemetryTrack::of(trace, i, c.name.clone(), column_unit(trace, &c.name)))
            .take(MAX_TELEMETRY_ROWS)
            .collect();
        let pc_latency = f
            .columns
            .iter()
            .position(|c| c.kind == ColumnKind::PcLatency)
            .and_then(|i| TelemetryTrack::of(trace, i, "PC latency".to_owned(), "ms"));
        let scale_ms = body_scale(&f.frame_time_ms);
        let display_scale_ms = if display.is_some() { body_scale(&f.display_ms) } else { scale_ms };
        let latency = latency_stack(trace);
        Self {
            frame_time: SeriesIndex::new(&f.frame_time_ms),
            display,
            gpu,
            latency,
            telemetry,
            pc_latency,
            dropped: (0..trace.len() as u32).filter(|&i| f.is_dropped(i as usize)).collect(),
            scale_ms,
            display_scale_ms,
            generated: framescope_core::analysis::has_generated_frames(trace),
            auto_source: FrameTimeSource::Auto.resolve(trace),
            limiter: super::limiter_track::LimiterTrack::new(trace),
            animation: super::limiter_track::AnimationTrack::new(trace),
        }
    }
}

impl TelemetryTrack {
    /// The track of column `i` of `trace`, named `name` with `unit`; `None` when its
    /// values do not vary (a flat line says nothing).
    #[must_use]
    pub fn of(trace: &Trace, i: usize, name: String, unit: &'static str) -> Option<Self> {
        let c = &trace.frames.columns[i];
        let (lo, hi) = c
            .values
            .iter()
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
        (hi > lo).then(|| Self {
            name,
            column: i,
            index: SeriesIndex::new(&c.values),
            min: lo,
            max: hi,
            unit,
            axis: telemetry_axis_in(lo, hi, unit),
        })
    }
}

/// p99 · 1.6 of the finite positive values (at least 1 ms).
fn body_scale(values: &[f64]) -> f64 {
    let body = values.iter().copied().filter(|v| v.is_finite() && *v > 0.0);
    framescope_core::presentation::body_scale_ms(percentile_unsorted(body, 0.99))
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
