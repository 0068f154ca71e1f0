//! The frame-time chart: frame time against time, with the target drawn.

use crate::model::Trace;
use eframe::egui;
use egui_plot::{HLine, Line, Plot, PlotPoints};

/// Most points drawn; longer traces are bucketed keeping each bucket's maximum, so a
/// stutter is never averaged away.
const MAX_POINTS: usize = 8000;

/// Draws the frame times of a trace.
pub fn frame_times_ui(ui: &mut egui::Ui, trace: &Trace, target_fps: f64) {
    let f = &trace.frames;
    let points = max_buckets(&f.start_ms, &f.frame_time_ms, MAX_POINTS);
    let budget = 1000.0 / target_fps;
    Plot::new("frame_times").x_axis_label("time (s)").y_axis_label("frame time (ms)").show(ui, |p| {
        p.line(
            Line::new("frame time", PlotPoints::from(points)).color(egui::Color32::from_rgb(90, 170, 255)),
        );
        p.hline(
            HLine::new(format!("target {target_fps} FPS"), budget)
                .color(egui::Color32::from_rgb(230, 160, 40)),
        );
    });
}

/// Splits the frames into at most `max` buckets of consecutive frames and keeps the
/// slowest frame of each, as `[seconds, ms]` points.
fn max_buckets(start_ms: &[f64], frame_time_ms: &[f64], max: usize) -> Vec<[f64; 2]> {
    let n = frame_time_ms.len();
    let per = n.div_ceil(max.max(1)).max(1);
    (0..n)
        .step_by(per)
        .map(|first| {
            let last = (first + per).min(n);
            let worst =
                (first..last).max_by(|&a, &b| frame_time_ms[a].total_cmp(&frame_time_ms[b])).unwrap_or(first);
            [start_ms[worst] / 1000.0, frame_time_ms[worst]]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_keep_the_spike() {
        let start: Vec<f64> = (0..1000).map(|i| f64::from(i) * 10.0).collect();
        let mut ft = vec![10.0; 1000];
        ft[537] = 95.0;
        let pts = max_buckets(&start, &ft, 10);
        assert_eq!(pts.len(), 10);
        assert!(pts.iter().any(|p| (p[1] - 95.0).abs() < 1e-12 && (p[0] - 5.37).abs() < 1e-9));
        assert_eq!(max_buckets(&start[..3], &ft[..3], 10).len(), 3);
    }
}
