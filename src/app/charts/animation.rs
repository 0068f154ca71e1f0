//! Animation error against frame time (`metrics.md` §13; Gamers Nexus's view): one dot
//! per frame (at most `SCATTER_POINTS`, spread evenly), with the ±1 ms lines past
//! which the error reads as judder.

use super::super::theme;
use eframe::egui;
use egui_plot::{HLine, Plot, PlotPoints, Points};

/// Draws the chart of `points` (frame time, animation error), `height` tall.
pub(super) fn animation_error_plot(ui: &mut egui::Ui, points: &[[f64; 2]], height: f32) {
    ui.strong("Animation error by frame time");
    Plot::new("charts_animation_error")
        .height(height)
        .allow_scroll(false)
        .x_axis_label("frame time (ms)")
        .y_axis_label("animation error (ms)")
        .include_y(-1.5)
        .include_y(1.5)
        .include_x(0.0)
        .show(ui, |p| {
            let dots =
                PlotPoints::Owned(points.iter().map(|&[x, y]| egui_plot::PlotPoint::new(x, y)).collect());
            p.points(Points::new("frames", dots).color(theme::ANIMATION_ERROR).radius(1.2));
            for y in [-1.0, 1.0] {
                p.hline(HLine::new("±1 ms", y).color(theme::GUIDE_COLOR));
            }
        });
    ui.label(
        egui::RichText::new(
            "dots: frames (frame time, animation error); grey: ±1 ms, beyond which motion judders",
        )
        .small()
        .weak(),
    );
}
