//! Latency figures that come straight from a capture's own columns (`metrics.md` §7,
//! last paragraphs; `cli-report.md` `latency`). PCL marker logs add I2FS/FS2P/P2D.

use crate::model::{ColumnKind, Trace};
use serde::Serialize;

/// The `latency` section of a run.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Latency {
    /// `mean(I2FS) + mean(FS2P) + mean(P2D)` from a PCL marker log.
    pub pcl_ms: Option<f64>,
    /// Mean input to simulation start (PCL marker log).
    pub i2fs_ms: Option<f64>,
    /// Mean simulation start to present (PCL marker log).
    pub fs2p_ms: Option<f64>,
    /// Mean present to display (PCL marker log joined to the capture).
    pub p2d_ms: Option<f64>,
    /// Mean of the capture's `MsPCLatency` cells.
    pub pc_latency_column_mean_ms: Option<f64>,
    /// Smallest `MsPCLatency` cell above 0.
    pub pc_latency_min_ms: Option<f64>,
    /// Largest `MsPCLatency` cell above 0.
    pub pc_latency_max_ms: Option<f64>,
    /// Mean present-to-display time over displayed application frames:
    /// `MsUntilDisplayed`, or in the 2.0–2.3 layouts `DisplayLatency − CPUBusy` (their
    /// `DisplayLatency` starts at the frame's CPU start), so both layouts of one capture
    /// give the same figure. Generated frames are left out: the 2.0–2.3 layouts give
    /// them no present of their own (CPUBusy 0, DisplayLatency from the application
    /// frame's start), so their present-to-display time is not known there.
    pub display_latency_mean_ms: Option<f64>,
    /// Mean of the capture's click-to-photon cells.
    pub click_to_photon_mean_ms: Option<f64>,
    /// Mean `MsRenderPresentLatency` (present to GPU completion).
    pub render_present_latency_mean_ms: Option<f64>,
    /// Mean of the all-input-to-photon cells above 0.
    pub all_input_to_photon_mean_ms: Option<f64>,
    /// Mean |`MsAnimationError`| over cells below 10⁶ ms in size (some captures hold
    /// garbage such as −1.8·10¹⁵).
    pub animation_error_mean_abs_ms: Option<f64>,
    /// Mean synthetic input to `vkQueuePresentKHR` (a latency-measurement log, pyrofling).
    pub input_to_present_mean_ms: Option<f64>,
    /// Mean `vkQueuePresentKHR` to GPU idle (the same log).
    pub present_to_gpu_idle_mean_ms: Option<f64>,
    /// Mean GPU idle to present complete (the same log).
    pub gpu_idle_to_display_mean_ms: Option<f64>,
    /// Mean synthetic input to present complete: the felt latency (the same log).
    pub input_to_display_mean_ms: Option<f64>,
    /// Mean |animation error| over every displayed frame, generated ones included,
    /// spread as PresentMon #669 defines it (`framegen::spread_animation_error`);
    /// only for traces with generated frames.
    pub animation_error_displayed_mean_abs_ms: Option<f64>,
    /// The 99th percentile of |`MsAnimationError`| over the same cells (`metrics.md` §13).
    pub animation_error_p99_abs_ms: Option<f64>,
    /// Share of the frames with an animation error whose |v| is above 1 ms (§13).
    pub animation_error_over_1ms_fraction: Option<f64>,
}

use super::limiter::ANIMATION_ERROR_LIMIT_MS;

impl Latency {
    /// The figures a capture's own columns give, over every frame of the trace
    /// (whatever the frame-time source: latency does not depend on it).
    #[must_use]
    pub fn from_columns(trace: &Trace) -> Self {
        let f = &trace.frames;
        // Columns are read in place (compact ones are never expanded).
        let values = |kind: ColumnKind| trace.column(kind).map(|c| &c.values);
        let mean_of = |kind: ColumnKind| values(kind).and_then(|v| mean_where_iter(v.iter(), |_, _| true));
        let positive =
            |kind: ColumnKind| values(kind).and_then(|v| mean_where_iter(v.iter(), |_, x| x > 0.0));
        let pcl = values(ColumnKind::PcLatency);
        let pcl_extreme =
            |pick: fn(f64, f64) -> f64| pcl.and_then(|v| v.iter().filter(|&x| x > 0.0).reduce(pick));
        let displayed = |i: usize| {
            !f.dropped.get(i).copied().unwrap_or(false)
                && !f.frame_type.get(i).is_some_and(|t| t.is_generated())
        };
        let display_latency = match (values(ColumnKind::UntilDisplayed), values(ColumnKind::DisplayLatency)) {
            (Some(until), _) => mean_where_iter(until.iter(), |i, _| displayed(i)),
            (None, Some(latency)) => values(ColumnKind::CpuBusy).and_then(|busy| {
                let diff = latency.iter().zip(busy.iter()).map(|(l, b)| l - b);
                mean_where_iter(diff, |i, _| displayed(i))
            }),
            (None, None) => None,
        };
        let animation = super::limiter::animation_error(trace);
        Self {
            animation_error_p99_abs_ms: animation.map(|a| a.0),
            animation_error_over_1ms_fraction: animation.map(|a| a.1),
            pc_latency_column_mean_ms: mean_of(ColumnKind::PcLatency),
            pc_latency_min_ms: pcl_extreme(f64::min),
            pc_latency_max_ms: pcl_extreme(f64::max),
            display_latency_mean_ms: display_latency,
            click_to_photon_mean_ms: mean_of(ColumnKind::ClickToPhoton),
            render_present_latency_mean_ms: mean_of(ColumnKind::RenderPresentLatency),
            all_input_to_photon_mean_ms: positive(ColumnKind::AllInputToPhoton),
            animation_error_displayed_mean_abs_ms: spread_mean_abs(trace),
            input_to_present_mean_ms: mean_of(ColumnKind::InputToPresent),
            present_to_gpu_idle_mean_ms: mean_of(ColumnKind::PresentToGpuIdle),
            gpu_idle_to_display_mean_ms: mean_of(ColumnKind::GpuIdleToDisplay),
            input_to_display_mean_ms: mean_of(ColumnKind::InputToDisplay),
            animation_error_mean_abs_ms: values(ColumnKind::AnimationError)
                .and_then(|v| mean_where_iter(v.iter().map(f64::abs), |_, x| x < ANIMATION_ERROR_LIMIT_MS)),
            ..Self::default()
        }
    }
}

#[cfg(test)]
/// The per-frame latency stages a capture's own columns give, in pipeline order —
/// what the timeline's latency row stacks. PresentMon 2.x: CPU busy, CPU wait, GPU
/// latency, GPU busy, GPU wait, display latency, input to photon; 1.x: time in
/// Present(), until render complete, until displayed.
pub const STAGE_KINDS: [ColumnKind; 12] = [
    ColumnKind::CpuBusy,
    ColumnKind::CpuWait,
    ColumnKind::GpuLatency,
    ColumnKind::GpuBusy,
    ColumnKind::GpuWait,
    ColumnKind::DisplayLatency,
    ColumnKind::InPresentApi,
    ColumnKind::UntilRenderComplete,
    ColumnKind::UntilDisplayed,
    ColumnKind::ClickToPhoton,
    ColumnKind::AllInputToPhoton,
    ColumnKind::PcLatency,
];

/// Mean |error| of [`super::framegen::spread_animation_error`] over cells below 10⁶ ms,
/// for a trace with generated frames.
fn spread_mean_abs(trace: &Trace) -> Option<f64> {
    if !super::has_generated_frames(trace) {
        return None;
    }
    let errors = super::framegen::spread_animation_error(trace);
    mean_where_iter(errors.iter().map(|(_, e)| e.abs()), |_, x| x < ANIMATION_ERROR_LIMIT_MS)
}

/// Mean of the present values that pass `keep(index, value)`; `None` when there are none.
#[cfg(test)]
fn mean_where(values: &[f64], keep: impl Fn(usize, f64) -> bool) -> Option<f64> {
    mean_where_iter(values.iter().copied(), keep)
}

/// [`mean_where`] over values as they are read.
fn mean_where_iter(values: impl Iterator<Item = f64>, keep: impl Fn(usize, f64) -> bool) -> Option<f64> {
    let (sum, n) = values
        .enumerate()
        .filter(|&(i, v)| !v.is_nan() && keep(i, v))
        .fold((0.0, 0usize), |(s, n), (_, v)| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_come_in_pipeline_order() {
        let csv = "Application,ProcessID,SwapChainAddress,MsBetweenPresents,MsUntilDisplayed,MsGPUBusy,MsCPUBusy\n\
                   g.exe,1,0x1,10,5,3,2\n";
        let c = crate::ingest::load_bytes(
            std::path::Path::new("s.csv"),
            csv.as_bytes(),
            crate::ingest::LoadOptions::default(),
        );
        let trace = c.unwrap_or_else(|e| panic!("{e}")).traces.remove(0);
        let names: Vec<&str> =
            STAGE_KINDS.iter().filter_map(|&kind| trace.column(kind)).map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["MsCPUBusy", "MsGPUBusy", "MsUntilDisplayed"]);
    }

    #[test]
    fn means_skip_missing_and_dropped() {
        assert_eq!(mean_where(&[1.0, f64::NAN, 3.0], |_, _| true), Some(2.0));
        assert_eq!(mean_where(&[1.0, 5.0, 3.0], |i, _| i != 1), Some(2.0));
        assert_eq!(mean_where(&[f64::NAN], |_, _| true), None);
    }
}
