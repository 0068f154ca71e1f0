//! Analysis: pure computations over a trace, as `metrics.md` defines them.
//!
//! Nothing here reads files or draws: a [`Trace`] and [`Settings`] go in, figures
//! come out. Heavy passes run on rayon.

mod band;
pub(crate) mod conventions;
pub(crate) mod efficiency;
pub(crate) mod framegen;
pub(crate) mod half_steps;
pub(crate) mod health;
pub(crate) mod high_percentile;
pub(crate) mod latency;
pub(crate) mod limiter;
pub(crate) mod live;
pub(crate) mod pacing;
pub(crate) mod pcl;
pub(crate) mod rolling;
pub(crate) mod sampled;
mod strands;
pub(crate) mod stutter;
pub(crate) mod summary;
pub(crate) mod telemetry;
pub(crate) mod tool_figures;
pub(crate) mod trim;
pub(crate) mod vsync;

pub use framegen::records_frame_types;
pub use high_percentile::percentile_unsorted;
pub use limiter::{ANIMATION_ERROR_LIMIT_MS, BusyColumns, Class};
pub use live::{Running, Throttle};
pub use vsync::VsyncSource;

pub use conventions::Conventions;
pub use efficiency::Efficiency;
pub use framegen::FrameTypes;
pub use health::{Action, Candidates, Health, Positions};
pub use latency::Latency;
pub use limiter::Limiter;
pub use pacing::{Pacing, SlowTimeCurve};
pub use pcl::PclLatency;
pub use rolling::{HighWindows, Rolling, RollingStats};
pub use sampled::SampledRun;
pub use stutter::{Oscillation, Stutters};
pub use summary::{Summary, percentile};
pub use telemetry::{Telemetry, TelemetryStats};
pub use tool_figures::ToolFigures;
pub use trim::{Trim, TrimError};
pub use vsync::Vsync;

use crate::model::Trace;

/// Which interval is "the frame time" (`metrics.md` §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FrameTimeSource {
    /// `Display` for a trace with generated frames and display data, else `Presents`
    /// ([`FrameTimeSource::resolve`]).
    #[default]
    Auto,
    /// Present-to-present (`MsBetweenPresents`): every frame with a present interval.
    Presents,
    /// Between display changes (`MsBetweenDisplayChange`): displayed frames only.
    Display,
}

impl FrameTimeSource {
    /// The name used in reports and on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Presents => "presents",
            Self::Display => "display",
        }
    }

    /// The source analysis uses for `trace`: `Auto` becomes `Display` when the trace
    /// has generated frames and display data, else `Presents` (`metrics.md` §1) —
    /// unless no frame has a present interval while some has a display interval (an
    /// OCAT capture whose `MsBetweenPresents` are all 0): then `Display`, the only
    /// series with frames (issue 34; the run's warnings say so). A
    /// sampled log (§10) has only its samples' rates: always `Presents`.
    #[must_use]
    pub fn resolve(self, trace: &Trace) -> Self {
        match self {
            _ if trace.is_sampled() => Self::Presents,
            Self::Auto if wants_display(trace) => Self::Display,
            Self::Auto => Self::Presents,
            other => other,
        }
    }

    /// The one source for a comparison (`metrics.md` §9): `Auto` becomes `Display`
    /// when any run has generated frames (or no present interval at all, as
    /// [`FrameTimeSource::resolve`] falls back) and every run has display data.
    #[must_use]
    pub fn resolve_for<'a>(self, traces: impl IntoIterator<Item = &'a Trace> + Clone) -> Self {
        match self {
            Self::Auto => {
                let any_generated = traces
                    .clone()
                    .into_iter()
                    .any(|t| has_generated_frames(t) || (!t.is_sampled() && !has_present_data(t)));
                let all_display = traces.into_iter().all(has_display_data);
                if any_generated && all_display { Self::Display } else { Self::Presents }
            }
            other => other,
        }
    }
}

/// True when some frame of the trace was made by frame generation.
#[must_use]
pub fn has_generated_frames(trace: &Trace) -> bool {
    trace.frames.frame_type.iter().any(|t| t.is_generated())
}

/// True when some frame of the trace has a display interval.
#[must_use]
pub fn has_display_data(trace: &Trace) -> bool {
    let f = &trace.frames;
    f.display_ms.iter().enumerate().any(|(i, &d)| !f.is_dropped(i) && d > 0.0)
}

/// True when some frame of the trace has a present interval (a presents series frame).
#[must_use]
pub fn has_present_data(trace: &Trace) -> bool {
    trace.frames.frame_time_ms.iter().any(|&v| v > 0.0)
}

fn wants_display(trace: &Trace) -> bool {
    (has_generated_frames(trace) || !has_present_data(trace)) && has_display_data(trace)
}

/// What the user chose; every figure depends on some of these.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Target rate for colouring and pacing figures, frames per second.
    pub target_fps: f64,
    /// Relative stutter threshold (0.2 = 20 % above the local median).
    pub stutter_threshold: f64,
    /// Absolute stutter floor in ms.
    pub stutter_floor_ms: f64,
    /// The display's refresh rate when the user sets it (VSYNC markers); detected
    /// from the capture otherwise.
    pub refresh_hz: Option<f64>,
    /// Frame-time source.
    pub frame_time: FrameTimeSource,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            target_fps: 60.0,
            stutter_threshold: 0.2,
            stutter_floor_ms: 4.0,
            refresh_hz: None,
            frame_time: FrameTimeSource::Auto,
        }
    }
}

/// The frame times one analysis runs on, with the trace frame each came from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Series {
    /// Frame times in ms, all finite and > 0.
    pub frame_time_ms: Vec<f64>,
    /// Index of each value's frame in the trace.
    pub frame: Vec<u32>,
}

impl Series {
    /// Picks the frame-time series of a trace. With the presents source, frames
    /// without a present interval (generated frames of the 2.1–2.3 layouts) are left
    /// out; with the display source, dropped frames and frames without a positive
    /// display interval. `Auto` is resolved first.
    #[must_use]
    pub fn of(trace: &Trace, source: FrameTimeSource) -> Self {
        let mut s = Self::picked(trace, source);
        if s.frame.is_empty() {
            s.frame = (0..s.len() as u32).collect();
        }
        s
    }

    /// [`Series::of`], its vectors exactly as long as the series, and without a
    /// `frame` list when the series keeps every frame of the trace (what [`Prepared`]
    /// holds: a long capture's list would be 4 bytes a frame saying "every frame").
    fn picked(trace: &Trace, source: FrameTimeSource) -> Self {
        let f = &trace.frames;
        let display = source.resolve(trace) == FrameTimeSource::Display;
        let values = if display { &f.display_ms } else { &f.frame_time_ms };
        let keep = |i: usize, v: f64| {
            if display {
                !f.dropped.get(i).copied().unwrap_or(false) && v.is_finite() && v > 0.0
            } else {
                v > 0.0
            }
        };
        let kept = values.iter().enumerate().filter(|&(i, &v)| keep(i, v)).count();
        let mut s = Self { frame_time_ms: Vec::with_capacity(kept), frame: Vec::new() };
        if kept == trace.len() && kept == values.len() {
            s.frame_time_ms.extend_from_slice(values);
            return s;
        }
        s.frame.reserve_exact(kept);
        for (i, &v) in values.iter().enumerate() {
            if keep(i, v) {
                s.frame_time_ms.push(v);
                s.frame.push(i as u32);
            }
        }
        s
    }

    /// Number of frames.
    #[must_use]
    pub fn len(&self) -> usize {
        self.frame_time_ms.len()
    }

    /// The trace frame of series position `k`. A series that keeps every frame of its
    /// trace may hold no `frame` list at all ([`Prepared`] drops it to save memory):
    /// position and frame are then the same.
    #[must_use]
    pub fn frame_of(&self, k: usize) -> Option<u32> {
        if self.frame.is_empty() { (k < self.len()).then_some(k as u32) } else { self.frame.get(k).copied() }
    }

    /// True when the series is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.frame_time_ms.is_empty()
    }

    /// T: the sum of the frame times.
    #[must_use]
    pub fn total_ms(&self) -> f64 {
        self.frame_time_ms.iter().sum()
    }
}

/// Everything about a trace that does not depend on the user's target or thresholds:
/// computed once per (trace, frame-time source), in parallel, then asked for figures
/// as settings change.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The source the series was taken with (`Auto` resolved for the trace).
    pub source: FrameTimeSource,
    /// The analysed series. When it keeps every frame of the trace, its `frame` list
    /// is empty (read positions with [`Series::frame_of`]).
    pub series: Series,
    /// Summary figures (`None` when the series is empty).
    pub summary: Option<Summary>,
    /// The 19-frame rolling statistics of the series (median, IQR, ratio flags and
    /// their P90s).
    pub rolling: RollingStats,
    /// Action columns over the series: the frames above their rolling median, with
    /// value and median (what re-flagging at any threshold needs).
    pub actions: Vec<health::Candidates>,
    /// The refresh grid detected from the display intervals (`None` when none is
    /// found); a refresh rate the user sets replaces it.
    vsync: Option<Vsync>,
    /// Application and generated frames apart.
    pub frame_types: Option<FrameTypes>,
    /// Each popular tool's figures.
    pub conventions: Option<Conventions>,
    /// Steady / Mostly Steady / Typical FPS.
    headline: Option<(u32, u32, u32)>,
    curve: Option<SlowTimeCurve>,
    /// Latency from the capture's own columns.
    pub latency: Latency,
    /// What limits the frame rate (`metrics.md` §13); `None` without the columns.
    pub limiter: Option<Limiter>,
    /// A sampled log's run figures (`metrics.md` §10; `summary` is then weighted, and
    /// the per-frame figures are `None`); `None` for a per-frame trace.
    pub sampled: Option<SampledRun>,
    /// True for a sampled log, even one without a usable sample.
    sampled_trace: bool,
    /// Under the presents source, for a format that cannot mark generated frames:
    /// the share of neighbouring present intervals that alternate the way frame
    /// generation makes them, when they do ([``framegen::alternation`).
    pub alternation: Option<f64>,
}

/// The figures that depend on settings.
#[derive(Debug, Clone, PartialEq)]
pub struct Figures {
    /// `metrics.md` §3.
    pub pacing: Option<Pacing>,
    /// `metrics.md` §4.
    pub stutters: Option<Stutters>,
    /// `metrics.md` §5.
    pub osc: Option<Oscillation>,
    /// `metrics.md` §6.
    pub health: Option<Health>,
}

impl Prepared {
    /// Prepares a trace for analysis with one frame-time source, for figures at any
    /// settings (the window re-flags as thresholds move).
    #[must_use]
    pub fn new(trace: &Trace, source: FrameTimeSource) -> Self {
        Self::prepare(trace, source, None)
    }

    /// Prepares a trace for the figures at `settings` only (a report): the action
    /// columns keep just the frames that spike at its threshold and floor, not every
    /// frame above its rolling median, and the rolling statistics just the windows
    /// that oscillate at its floor (a bit each), not every high window with its IQR,
    /// which a long capture's report would hold for nothing. [`Prepared::figures`] at
    /// `settings` equals that of [`Prepared::new`].
    #[must_use]
    pub fn for_settings(trace: &Trace, settings: &Settings) -> Self {
        let rule = (settings.stutter_threshold, settings.stutter_floor_ms.max(0.0));
        Self::prepare(trace, settings.frame_time, Some(rule))
    }

    fn prepare(trace: &Trace, source: FrameTimeSource, spike_rule: Option<(f64, f64)>) -> Self {
        if trace.is_sampled() {
            return Self::sampled(trace);
        }
        let source = source.resolve(trace);
        // No list that says "every frame" (read positions with `frame_of`).
        let series = Series::picked(trace, source);
        // Two strands side by side (`strands`): the sorted series' figures, and the
        // columns' figures, which hold next to no working memory.
        let (sorted, columns) = rayon::join(
            || strands::SortedFigures::of(&series.frame_time_ms, spike_rule.map(|(_, floor)| floor)),
            || strands::ColumnFigures::of(trace, &series, spike_rule),
        );
        let strands::SortedFigures { summary, headline, mut conventions, rolling, curve } = sorted;
        let strands::ColumnFigures { vsync, limiter, actions, frame_types, latency } = columns;
        if let Some(cfx) = conventions.as_mut().and_then(|c| c.capframex.as_mut()) {
            cfx.gpu_active_deviation_pct = limiter.map(|l| l.gpu_active_deviation_pct());
        }
        let alternation = (source == FrameTimeSource::Presents && !framegen::records_frame_types(trace))
            .then(|| framegen::alternation(&series.frame_time_ms))
            .flatten();
        Self {
            source,
            series,
            summary,
            rolling,
            actions,
            vsync,
            frame_types,
            conventions,
            headline,
            curve,
            latency,
            limiter,
            sampled: None,
            sampled_trace: false,
            alternation,
        }
    }

    /// The refresh grid: the user's rate when set (`metrics.md` §8), else the one
    /// detected when the analysis was prepared.
    #[must_use]
    pub fn vsync(&self, trace: &Trace, user_hz: Option<f64>) -> Option<Vsync> {
        match user_hz.filter(|h| h.is_finite() && *h > 0.0) {
            Some(hz) => Vsync::of(trace, Some(hz)),
            None => self.vsync,
        }
    }

    /// A sampled log (`metrics.md` §10): the weighted summary and run figures, the
    /// samples' frame times as the series; no pacing, stutters, oscillation or health.
    fn sampled(trace: &Trace) -> Self {
        let series = Series::of(trace, FrameTimeSource::Presents);
        let figures = sampled::summary(&trace.frames.frame_time_ms, &trace.frames.sample_ms);
        Self {
            source: FrameTimeSource::Presents,
            series,
            summary: figures.map(|f| f.1),
            rolling: RollingStats::default(),
            actions: Vec::new(),
            vsync: None,
            frame_types: None,
            conventions: None,
            headline: None,
            curve: None,
            latency: sampled::latency(trace),
            limiter: None,
            sampled: figures.map(|f| f.0),
            sampled_trace: true,
            alternation: None,
        }
    }

    /// True for a sampled log's analysis (`metrics.md` §10).
    #[must_use]
    pub fn is_sampled(&self) -> bool {
        self.sampled_trace
    }

    /// The settings-dependent figures; all `None` when the series is empty or the
    /// trace is a sampled log (they need per-frame times).
    #[must_use]
    pub fn figures(&self, settings: &Settings) -> Figures {
        if self.series.is_empty() || self.sampled_trace {
            return Figures { pacing: None, stutters: None, osc: None, health: None };
        }
        let pacing = match (self.headline, &self.curve) {
            (Some((steady_fps, mostly_steady_fps, typical_fps)), Some(curve)) => {
                let (slow_time_fraction, excess_time_fraction) = curve.at(settings.target_fps);
                Some(Pacing {
                    steady_fps,
                    mostly_steady_fps,
                    typical_fps,
                    slow_time_fraction,
                    excess_time_fraction,
                })
            }
            _ => None,
        };
        let (threshold, floor) = (settings.stutter_threshold, settings.stutter_floor_ms);
        let stutters =
            Stutters::with_median(&self.series.frame_time_ms, &self.rolling.median, threshold, floor);
        let health = Health::of_candidates(&self.actions, &stutters.frames, threshold, floor);
        Figures {
            pacing,
            osc: Oscillation::from_stats(&self.rolling, floor),
            stutters: Some(stutters),
            health: Some(health),
        }
    }

    /// The slow-time curve (it holds the series sorted ascending).
    #[must_use]
    pub fn curve(&self) -> Option<&SlowTimeCurve> {
        self.curve.as_ref()
    }

    /// The slow-time curve alone, for callers that keep it after the rest is dropped.
    #[must_use]
    pub fn into_curve(self) -> Option<SlowTimeCurve> {
        self.curve
    }

    /// The slow-time and excess-time curves over a grid of target rates, for charts.
    #[must_use]
    pub fn slow_time_curve(&self, rates_fps: &[f64]) -> Vec<(f64, f64, f64)> {
        self.curve.as_ref().map_or_else(Vec::new, |c| {
            c.sums();
            rates_fps
                .iter()
                .map(|&f| {
                    let (s, e) = c.at(f);
                    (f, s, e)
                })
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Frames, TraceMeta};

    fn trace(frame_time_ms: Vec<f64>, display_ms: Vec<f64>) -> Trace {
        let n = frame_time_ms.len();
        Trace {
            meta: TraceMeta::named("g"),
            frames: Frames { frame_time_ms, display_ms, dropped: vec![false; n], ..Frames::default() },
            warnings: vec![],
        }
    }

    /// A capture whose present intervals are all 0 but whose display intervals hold
    /// frames (issue 34): `auto` falls back to display; `presents` stays
    /// presents (an empty series). With one present interval, `auto` is `presents`.
    #[test]
    fn auto_falls_back_to_display_when_no_frame_has_a_present_interval() {
        let zero = trace(vec![0.0; 3], vec![10.0, 20.0, 10.0]);
        assert_eq!(FrameTimeSource::Auto.resolve(&zero), FrameTimeSource::Display);
        assert_eq!(Series::of(&zero, FrameTimeSource::Auto).frame_time_ms, [10.0, 20.0, 10.0]);
        assert_eq!(FrameTimeSource::Presents.resolve(&zero), FrameTimeSource::Presents);
        assert!(Series::of(&zero, FrameTimeSource::Presents).is_empty());
        let one = trace(vec![0.0, 16.0, 0.0], vec![10.0, 20.0, 10.0]);
        assert_eq!(FrameTimeSource::Auto.resolve(&one), FrameTimeSource::Presents);
        // A comparison falls back the same way when every run has display data.
        assert_eq!(FrameTimeSource::Auto.resolve_for([&zero, &one]), FrameTimeSource::Display);
        let neither = trace(vec![0.0; 2], vec![0.0; 2]);
        assert_eq!(FrameTimeSource::Auto.resolve(&neither), FrameTimeSource::Presents);
    }
}
