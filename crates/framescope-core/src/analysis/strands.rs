//! The two strands of [`super::Prepared`]'s work, run side by side with `rayon::join`:
//! the figures of the sorted series (the sort, summary, headline rates, every tool's
//! conventions and the slow-time curve, with the rolling statistics beside them:
//! parallel inside, with the large buffers), and the figures read from the trace's own
//! columns (refresh grid, limiter, action candidates, then frame types and latency:
//! mostly one thread each). The second strand fills the cores the first leaves idle.
//! It holds no copy of a column (the refresh grid reads the display column twice), so
//! running it beside the first adds next to nothing to the peak memory; only a
//! generated capture's per-kind intervals and the sorted animation errors take room,
//! and they come last, when the first strand is mostly done.

use super::{Conventions, RollingStats, Series, SlowTimeCurve, Summary, Vsync, health, pacing};
use super::{FrameTypes, Latency, Limiter, health::Candidates};
use crate::model::Trace;
use rayon::slice::ParallelSliceMut;

/// The figures computed from the sorted series (and the rolling statistics, which
/// share its working memory budget).
pub(super) struct SortedFigures {
    /// Summary figures (`None` when the series is empty).
    pub(super) summary: Option<Summary>,
    /// Steady / Mostly Steady / Typical FPS.
    pub(super) headline: Option<(u32, u32, u32)>,
    /// Each popular tool's figures (the CapFrameX GPU deviation not yet set).
    pub(super) conventions: Option<Conventions>,
    /// The 19-frame rolling statistics of the series.
    pub(super) rolling: RollingStats,
    /// The slow-time curve (it keeps the sorted copy).
    pub(super) curve: Option<SlowTimeCurve>,
}

impl SortedFigures {
    /// One sort serves the summary, the pacing figures, the slow-time curve and every
    /// tool's conventions. The copy is sorted where the curve keeps it (one allocation,
    /// never copied again). The rolling statistics, which need no sort, run beside
    /// these steps from the start (their working memory is the medians they keep,
    /// and the sort works in place).
    /// With `floor`, the rolling statistics keep only the windows that oscillate at it
    /// ([`RollingStats::of_at`]: a report at one setting).
    pub(super) fn of(ft: &[f64], floor: Option<f64>) -> Self {
        let (sorted, rolling) = rayon::join(
            || {
                let mut sorted: std::sync::Arc<[f64]> = ft.iter().copied().collect();
                std::sync::Arc::make_mut(&mut sorted).par_sort_unstable_by(f64::total_cmp);
                let total: f64 = ft.iter().sum();
                let summary = Summary::from_sorted(&sorted, total);
                let headline = pacing::headline_fps_sorted(&sorted);
                let conventions = Conventions::of_sorted_total(ft, &sorted, total);
                (summary, headline, conventions, SlowTimeCurve::from_sorted_shared(sorted, total))
            },
            || RollingStats::of_at(ft, floor),
        );
        let (summary, headline, conventions, curve) = sorted;
        Self { summary, headline, conventions, rolling, curve }
    }
}

/// The figures read from the trace's columns rather than from the sorted series.
pub(super) struct ColumnFigures {
    /// The refresh grid detected from the display intervals.
    pub(super) vsync: Option<Vsync>,
    /// What limits the frame rate.
    pub(super) limiter: Option<Limiter>,
    /// Action columns over the series ([`health::candidates`]).
    pub(super) actions: Vec<Candidates>,
    /// Application and generated frames apart.
    pub(super) frame_types: Option<FrameTypes>,
    /// Latency from the capture's own columns.
    pub(super) latency: Latency,
}

impl ColumnFigures {
    /// The refresh grid, the limiter, the action candidates, the frame types and the
    /// latency of `trace` over `series`, one after another (the candidates run their
    /// columns in parallel). The frame types and the latency come last: the one
    /// working memory here (a generated capture's per-kind intervals, the sorted
    /// animation errors) is then held while the other strand is mostly done.
    pub(super) fn of(trace: &Trace, series: &Series, spike_rule: Option<(f64, f64)>) -> Self {
        let vsync = Vsync::of(trace, None);
        let limiter = Limiter::of(trace);
        let actions = health::candidates(trace, series, spike_rule);
        let frame_types = FrameTypes::of(trace, series);
        let latency = Latency::from_columns(trace);
        Self { vsync, limiter, actions, frame_types, latency }
    }
}
