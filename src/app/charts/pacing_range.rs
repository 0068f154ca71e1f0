//! The slow-time chart's x range (issue 20 item 10): its curves run to where S(F)
//! reaches 100 % for every frame, which a few very short intervals (generated frames,
//! a stray present) push to 1000 FPS, squashing the body of the curves into the left
//! edge. By default the axis ends at twice the fastest run's median frame rate (past
//! it S is nearly 100 %), at least 1.25 × the target; a check box shows the whole range.

use super::plots::Run;
use crate::app::work::chart_data::MAX_FPS;

/// The x axis end of the whole range: where S(F) is 100 % for every run, a little past
/// the target, at most [`MAX_FPS`].
pub(super) fn whole_max(runs: &[Run<'_>], target: Option<f64>) -> f64 {
    let fps_view_max = runs.iter().map(|r| r.data.fps_view_max).fold(0.0, f64::max);
    target.map_or(fps_view_max, |f| fps_view_max.max(1.25 * f)).min(MAX_FPS)
}

/// The clipped x axis end: 2 × the highest median frame rate of the runs (1000 / P50),
/// at least 1.25 × the target, rounded up to a round number — `None` when the whole
/// range ends there anyway.
pub(super) fn clipped_max(runs: &[Run<'_>], target: Option<f64>) -> Option<f64> {
    let median_fps = runs
        .iter()
        .filter_map(|r| r.data.percentile_at(50.0))
        .filter(|ms| *ms > 0.0)
        .map(|ms| 1000.0 / ms)
        .fold(0.0, f64::max);
    if median_fps <= 0.0 {
        return None;
    }
    let max = crate::app::timeline::round_up((2.0 * median_fps).max(target.map_or(0.0, |f| 1.25 * f)));
    (max < whole_max(runs, target)).then_some(max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::work::chart_data::fixtures::prepared;
    use eframe::egui::Color32;

    fn run(data: &super::super::ChartData) -> Run<'_> {
        Run { name: "a", color: Color32::WHITE, data }
    }

    #[test]
    fn a_few_tiny_intervals_no_longer_stretch_the_axis_to_1000_fps() {
        // 16.7 ms frames (60 FPS) with one 0.5 ms interval every 200: the fastest
        // 0.1 % is 0.5 ms, so the whole range runs to 1.5 × 2000 → 1000 FPS.
        let ft: Vec<f64> = (0..10_000).map(|i| if i % 200 == 3 { 0.5 } else { 16.7 }).collect();
        let data = prepared(&ft);
        let runs = [run(&data)];
        assert!((whole_max(&runs, Some(60.0)) - 1000.0).abs() < 1e-9);
        // Median 16.7 ms: 2 × 59.88 FPS = 119.76 → rounded up to a step of 20: 120 FPS.
        assert_eq!(clipped_max(&runs, Some(60.0)), Some(120.0));
        // A 144 FPS target keeps its line in view: 1.25 × 144 = 180, rounded up to a
        // step of 50 (180 / 8 = 22.5): 200 FPS.
        assert_eq!(clipped_max(&runs, Some(144.0)), Some(200.0));
    }

    #[test]
    fn a_range_that_ends_near_the_body_is_not_clipped() {
        // 10 ms frames all alike: the whole range ends at 1.5 × 100 = 150 FPS, under
        // 2 × 100 = 200: nothing to cut.
        let data = prepared(&[10.0; 1000]);
        assert_eq!(clipped_max(&[run(&data)], Some(60.0)), None);
        assert_eq!(clipped_max(&[], Some(60.0)), None);
    }
}
