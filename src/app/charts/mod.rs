//! Distribution charts of frame-time series: frame time by percentile, the
//! SuperTuxKart slow-time and excess-time curves against target FPS (spec §3), and a
//! frame-time histogram — for one run ([`charts_ui`]) or several runs overlaid
//! ([`charts_overlay_ui`]).
//!
//! All heavy work (one sort of the series, the curve samples, the bins) happens once in
//! [`ChartData::new`], off the UI thread. Drawing only reads the few hundred prepared
//! items per run each frame, however long the series is; the overlay re-bins every run
//! onto a common grid with two binary searches per bin in the sorted frame times.
//!
//! `work::chart_data` prepares (egui-free, built by the background work); [`plots`]
//! draws each of the three plots; this module stacks them.

mod animation;
mod pacing_range;
mod plots;

pub use crate::app::work::ChartData;

use super::theme::FRAME_COLOR;
use eframe::egui;
use plots::{Look, Run, histogram_plot, pacing_plot, percentile_plot};

const MIN_PLOT_HEIGHT: f32 = 120.0;
/// Plot height when the surrounding `Ui` is unbounded and shows no clip rect either.
const FALLBACK_PLOT_HEIGHT: f32 = 240.0;

/// Draws the three charts stacked vertically in the available space: the frame-time
/// percentile curve, the slow-time and excess-time curves against target FPS with the
/// user's target marked, and a frame-time histogram with the target frame time marked.
pub fn charts_ui(ui: &mut egui::Ui, data: &ChartData, target_fps: f64) {
    draw_charts(ui, &[Run { name: "", color: FRAME_COLOR, data }], Look::Single, target_fps);
}

/// [`charts_ui`] with a fourth chart under them, animation error against frame time
/// (`points`: frame time, animation error), the four sharing the height.
pub fn charts_with_animation_ui(ui: &mut egui::Ui, data: &ChartData, target_fps: f64, points: &[[f64; 2]]) {
    let height = plot_height_of(ui, 4.0);
    let runs = [Run { name: "", color: FRAME_COLOR, data }];
    draw_charts_at(ui, &runs, Look::Single, target_fps, height);
    animation::animation_error_plot(ui, points, height);
}

/// Draws the same three charts with several runs overlaid, one colour per run (the
/// colour is given), each series named after its run in the legend.
///
/// Slow time S is drawn solid and excess time E dashed; the histograms are filled step
/// lines on one bin grid spanning all runs, with each run's frames past the grid as a
/// bar beside the others one empty bin to the right. Runs without frames are left out.
pub fn charts_overlay_ui(ui: &mut egui::Ui, runs: &[(&str, egui::Color32, &ChartData)], target_fps: f64) {
    let runs: Vec<Run<'_>> = runs
        .iter()
        .filter(|(_, _, data)| !data.is_empty())
        .map(|&(name, color, data)| Run { name, color, data })
        .collect();
    draw_charts(ui, &runs, Look::Overlay, target_fps);
}

fn draw_charts(ui: &mut egui::Ui, runs: &[Run<'_>], look: Look, target_fps: f64) {
    let height = plot_height(ui);
    draw_charts_at(ui, runs, look, target_fps, height);
}

fn draw_charts_at(ui: &mut egui::Ui, runs: &[Run<'_>], look: Look, target_fps: f64, height: f32) {
    if runs.iter().all(|r| r.data.is_empty()) {
        ui.weak("No frames to chart.");
        return;
    }
    let target = Some(target_fps).filter(|f| f.is_finite() && *f > 0.0);
    let id = ui.make_persistent_id("charts_whole_tail");
    let mut whole: bool = ui.data(|d| d.get_temp(id)).unwrap_or(false);
    ui.horizontal(|ui| {
        ui.strong("Frame time by percentile");
        ui.checkbox(&mut whole, "whole tail").on_hover_text(
            "Off: the axis ends a little above the slowest 1 % so the body of the curve is readable, and the \
             tail above is cut (its top value is said under the chart). On: up to the slowest frame.",
        );
    });
    ui.data_mut(|d| d.insert_temp(id, whole));
    let top = if whole { None } else { clipped_top(runs, target) };
    percentile_plot(ui, runs, look, target, height, top);
    if let Some(top) = top {
        let slowest = runs.iter().filter_map(|r| r.data.percentile_at(100.0)).fold(0.0, f64::max);
        ui.weak(format!(
            "Tail cut at {top:.0} ms (slowest frame {slowest:.1} ms): tick \"whole tail\" to see it"
        ));
    }
    let x_max = pacing_title(ui, runs, look, target);
    pacing_plot(ui, runs, look, target, height, x_max);
    ui.strong("Frame-time histogram");
    histogram_plot(ui, runs, look, target, height);
}

/// The slow-time chart's title with its "whole range" check box (shown only when the
/// range is cut); the x axis end to draw.
fn pacing_title(ui: &mut egui::Ui, runs: &[Run<'_>], look: Look, target: Option<f64>) -> f64 {
    let id = ui.make_persistent_id("charts_whole_range");
    let mut whole: bool = ui.data(|d| d.get_temp(id)).unwrap_or(false);
    let clipped = pacing_range::clipped_max(runs, target);
    // Wrapped: the check box must not widen the panel beside the timeline.
    ui.horizontal_wrapped(|ui| {
        ui.strong(match look {
            Look::Single => "Slow time S and excess time E by target FPS (SuperTuxKart)",
            Look::Overlay => "Slow time S (solid) and excess time E (dashed) by target FPS (SuperTuxKart)",
        });
        if let Some(max) = clipped {
            let whole_max = pacing_range::whole_max(runs, target);
            ui.checkbox(&mut whole, "whole range").on_hover_text(format!(
                "Off: the axis ends at {max:.0} FPS, twice the highest median frame rate (past it nearly \
                 every frame is slower than the target), so the body of the curves is readable. On: up to \
                 {whole_max:.0} FPS, where S reaches 100 % (a few very short intervals push it there)."
            ));
        }
    });
    ui.data_mut(|d| d.insert_temp(id, whole));
    match clipped {
        Some(max) if !whole => max,
        _ => pacing_range::whole_max(runs, target),
    }
}

/// The percentile chart's top with the tail cut: 1.5 × the largest P99 of the runs (at
/// least 1.2 × the target frame time, so its line stays in view), rounded up to a
/// round number — `None` when every curve fits under it anyway.
fn clipped_top(runs: &[Run<'_>], target_fps: Option<f64>) -> Option<f64> {
    let p99 = runs.iter().filter_map(|r| r.data.percentile_at(99.0)).fold(0.0, f64::max);
    let slowest = runs.iter().filter_map(|r| r.data.percentile_at(100.0)).fold(0.0, f64::max);
    let budget = target_fps.map_or(0.0, |f| 1200.0 / f);
    let top = crate::app::timeline::round_up((p99 * 1.5).max(budget));
    (p99 > 0.0 && slowest > top).then_some(top)
}

/// A third of the height left for the charts (minus their titles and legends), at
/// least 120 px.
/// Inside a vertical scroll area the `Ui` is unbounded, so the visible height is used.
fn plot_height(ui: &egui::Ui) -> f32 {
    plot_height_of(ui, 3.0)
}

/// [`plot_height`] for `plots` charts (the fourth's title and legend line counted).
fn plot_height_of(ui: &egui::Ui, plots: f32) -> f32 {
    let avail = [ui.available_height(), ui.clip_rect().height()]
        .into_iter()
        .find(|h| h.is_finite())
        .unwrap_or(3.0 * FALLBACK_PLOT_HEIGHT);
    let title = ui.text_style_height(&egui::TextStyle::Body) + 2.0 * ui.spacing().item_spacing.y;
    // Each plot has a title (two lines for the pacing chart's) and a legend under it
    // (two lines in a narrow panel); the histogram a caption.
    let small = ui.text_style_height(&egui::TextStyle::Small) + ui.spacing().item_spacing.y;
    let extra = plots - 3.0;
    ((avail - (4.0 + extra) * title - (7.0 + extra) * small) / plots).max(MIN_PLOT_HEIGHT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::work::chart_data::fixtures::{prepared, series, three_runs};
    use eframe::egui::Color32;

    /// Two passes (the first is egui's sizing pass), in a panel and in a scroll area;
    /// the three plots get at least their minimum height each when there is data.
    fn draw_charts_with(has_data: bool, charts: impl Fn(&mut egui::Ui)) {
        let ctx = egui::Context::default();
        for scrolled in [false, false, true, true] {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(900.0, 700.0))),
                ..Default::default()
            };
            let out = ctx.run_ui(input, |ui| {
                egui::CentralPanel::default().show(ui, |ui| {
                    let rect = if scrolled {
                        egui::ScrollArea::vertical().show(ui, |ui| charts(ui)).content_size
                    } else {
                        ui.scope(|ui| charts(ui)).response.rect.size()
                    };
                    assert!(!has_data || rect.y >= 3.0 * MIN_PLOT_HEIGHT, "{rect:?}");
                });
            });
            assert!(!out.shapes.is_empty());
            out.drop_without_applying_deltas();
        }
    }

    fn draw(data: &ChartData, target_fps: f64) {
        draw_charts_with(!data.is_empty(), |ui| charts_ui(ui, data, target_fps));
    }

    fn draw_overlay(runs: &[(&str, Color32, &ChartData)], target_fps: f64) {
        let has_data = runs.iter().any(|r| !r.2.is_empty());
        draw_charts_with(has_data, |ui| charts_overlay_ui(ui, runs, target_fps));
    }

    #[test]
    fn drawing_does_not_panic() {
        let empty = ChartData::new(&[], None);
        assert!(empty.is_empty() && empty.slow_pct.is_empty() && empty.histogram.counts.is_empty());
        assert!(!prepared(&[16.7]).is_empty());
        draw(&empty, 60.0);
        draw(&prepared(&[16.7]), 60.0);
        draw(&prepared(&[5.0, 5.0, 500.0]), 0.0);
        draw(&prepared(&series(10_000)), 240.0);
    }

    #[test]
    fn drawing_a_million_frames() {
        let data = prepared(&series(1_000_000));
        assert!(data.histogram.counts.len() <= 122 && data.percentile_ms.len() == 461);
        let started = std::time::Instant::now();
        draw(&data, 144.0);
        assert!(started.elapsed().as_secs_f64() < 5.0);
    }

    /// What one frame of charts draws (after egui's sizing pass): every text, and each
    /// stroked path's colour and number of points.
    fn drawn(charts: impl Fn(&mut egui::Ui)) -> (Vec<String>, Vec<(Color32, usize)>) {
        fn walk(shape: &egui::Shape, texts: &mut Vec<String>, paths: &mut Vec<(Color32, usize)>) {
            match shape {
                egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, texts, paths)),
                egui::Shape::Text(t) => texts.push(t.galley.text().to_owned()),
                egui::Shape::Path(p) => {
                    if let egui::epaint::ColorMode::Solid(c) = p.stroke.color {
                        paths.push((c, p.points.len()));
                    }
                }
                _ => {}
            }
        }
        let ctx = egui::Context::default();
        let (mut texts, mut paths) = (Vec::new(), Vec::new());
        for pass in 0..2 {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(900.0, 1400.0))),
                ..Default::default()
            };
            let out = ctx.run_ui(input, |ui| {
                egui::CentralPanel::default().show(ui, |ui| charts(ui));
            });
            if pass == 1 {
                for clipped in &out.shapes {
                    walk(&clipped.shape, &mut texts, &mut paths);
                }
            }
            out.drop_without_applying_deltas();
        }
        (texts, paths)
    }

    /// Three runs overlaid (and an empty one, left out) at 144 FPS: each of the three
    /// charts' legends names the three runs in order, and nothing names the empty one;
    /// each run's colour strokes its percentile curve and its slow-time curve (the
    /// excess-time curve is dashed: segments, not one path), the percentile curves on
    /// one grid (as many points each); the empty run's colour strokes nothing. The
    /// target is 1000 / 144 = 6.94 ms in the percentile and histogram legends.
    #[test]
    fn overlaid_runs_draw_one_curve_and_legend_entry_each() {
        let [a, b, c] = three_runs();
        let (a, b, c) = (prepared(&a), prepared(&b), prepared(&c));
        let empty = ChartData::new(&[], None);
        let red = Color32::from_rgb(230, 80, 80);
        let green = Color32::from_rgb(80, 200, 120);
        let runs = [
            ("run A", FRAME_COLOR, &a),
            ("run B", red, &b),
            ("none", Color32::YELLOW, &empty),
            ("run C", green, &c),
        ];
        let (texts, paths) = drawn(|ui| charts_overlay_ui(ui, &runs, 144.0));
        let named: Vec<&str> =
            texts.iter().map(String::as_str).filter(|t| t.starts_with("run ") || *t == "none").collect();
        assert_eq!(named, ["run A", "run B", "run C"].repeat(3));
        assert_eq!(texts.iter().filter(|t| *t == "target 6.94 ms").count(), 2, "{texts:?}");
        assert!(texts.iter().any(|t| t == "target 144 FPS"));
        let curves = |colour: Color32| -> Vec<usize> {
            paths.iter().filter(|(c, _)| *c == colour).map(|&(_, n)| n).collect()
        };
        let (pa, pb, pc) = (curves(FRAME_COLOR), curves(red), curves(green));
        assert!(pa.len() == 2 && pb.len() == 2 && pc.len() == 2, "{paths:?}");
        assert!(pa[0] == pb[0] && pb[0] == pc[0] && pa[0] >= 100, "percentile curves {pa:?} {pb:?} {pc:?}");
        assert!(curves(Color32::YELLOW).is_empty());
    }

    #[test]
    fn drawing_overlaid_runs_does_not_panic() {
        let [a, b, c] = three_runs();
        let (a, b, c) = (prepared(&a), prepared(&b), prepared(&c));
        let empty = ChartData::new(&[], None);
        let red = Color32::from_rgb(230, 80, 80);
        let green = Color32::from_rgb(80, 200, 120);
        draw_overlay(&[], 60.0);
        draw_overlay(&[("empty", red, &empty)], 60.0);
        draw_overlay(&[("run A", FRAME_COLOR, &a)], 60.0);
        draw_overlay(&[("one frame", FRAME_COLOR, &prepared(&[16.7]))], 0.0);
        draw_overlay(&[("run A", FRAME_COLOR, &a), ("run B", red, &b), ("run C", green, &c)], 144.0);
        // Same names, an empty run among them, no target: the two runs with frames are
        // each in the three legends, and no target is.
        let same = [("x", FRAME_COLOR, &a), ("x", red, &empty), ("x", green, &c)];
        draw_overlay(&same, f64::NAN);
        let (texts, _) = drawn(|ui| charts_overlay_ui(ui, &same, f64::NAN));
        assert_eq!(texts.iter().filter(|t| *t == "x").count(), 6, "{texts:?}");
        assert!(
            !texts.iter().any(|t| t.starts_with("target ") && !t.starts_with("target rate")),
            "{texts:?}"
        );
    }
}

#[cfg(test)]
mod tail_tests {
    use super::*;
    use crate::app::work::chart_data::fixtures::{prepared, series};

    #[test]
    fn the_tail_is_cut_above_the_body() {
        // 15.5–20.45 ms with 80 ms hitches (1 in 997, so P99 is in the body, ≈ 20.4 ms):
        // the top is 1.5 × P99 ≈ 30.6 ms rounded up, well under the 80 ms tail.
        let data = prepared(&series(10_000));
        let runs = [Run { name: "a", color: FRAME_COLOR, data: &data }];
        let top = clipped_top(&runs, Some(60.0)).expect("a cut");
        assert!((30.6..=40.0).contains(&top), "{top}");
        // 1000 FPS's 1 ms budget changes nothing; 20 FPS's 60 ms (× 1.2 = 60 ms)
        // raises the top to keep the target line in view.
        assert_eq!(clipped_top(&runs, Some(1000.0)), Some(top));
        assert!(clipped_top(&runs, Some(20.0)).is_some_and(|t| t >= 60.0));
        // Nothing above the cut: no cut.
        let flat = prepared(&[10.0; 500]);
        assert_eq!(clipped_top(&[Run { name: "b", color: FRAME_COLOR, data: &flat }], Some(60.0)), None);
    }
}
