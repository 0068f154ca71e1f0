//! Distribution charts of one frame-time series: frame time by percentile, the
//! SuperTuxKart slow-time and excess-time curves against target FPS (spec §3), and a
//! frame-time histogram.
//!
//! All heavy work (one sort of the series, the curve samples, the bins) happens once in
//! [`ChartData::new`], off the UI thread. [`charts_ui`] only reads the few hundred
//! prepared items each frame, however long the series is.

use crate::analysis::{SlowTimeCurve, percentile};
use eframe::egui;
use egui::{Align2, Color32};
use egui_plot::{
    Bar, BarChart, HLine, HoverPosition, Legend, Line, LineStyle, Plot, PlotPoint, PlotPoints, Text, VLine,
};

/// Frame-time colour, shared with the timeline.
const FRAME_COLOR: Color32 = Color32::from_rgb(90, 170, 255);
/// The user's target, shared with the timeline.
const TARGET_COLOR: Color32 = Color32::from_rgb(230, 160, 40);
const SLOW_COLOR: Color32 = Color32::from_rgb(230, 90, 90);
const EXCESS_COLOR: Color32 = Color32::from_rgb(170, 120, 235);
const OVERFLOW_COLOR: Color32 = Color32::from_rgb(235, 70, 150);
const GUIDE_COLOR: Color32 = Color32::from_gray(130);

/// SuperTuxKart limits (spec §3) as `(S, E)` in percent: steady, mostly steady, typical.
const LIMITS: [(f64, f64); 3] = [(1.0, 0.1), (12.0, 2.0), (50.0, 10.0)];
/// Highest target rate on the pacing chart, as in the headline scan.
const MAX_FPS: f64 = 1000.0;
/// Most regular histogram bins; the automatic width keeps 60–120 of them.
const MAX_BINS: f64 = 120.0;
const MIN_PLOT_HEIGHT: f32 = 120.0;
/// Plot height when the surrounding `Ui` is unbounded and shows no clip rect either.
const FALLBACK_PLOT_HEIGHT: f32 = 240.0;

/// Chart data prepared once per analysed series, off the UI thread; drawing only reads it.
#[derive(Debug, Clone)]
pub struct ChartData {
    /// `(percentile in %, frame time in ms)`, percentile ascending, ending at 100 %.
    percentile_ms: Vec<PlotPoint>,
    /// `(F, 100 · S(F))` on [`fps_grid`].
    slow_pct: Vec<PlotPoint>,
    /// `(F, 100 · E(F))` on [`fps_grid`].
    excess_pct: Vec<PlotPoint>,
    /// Right end of the pacing chart before the user's target widens it.
    fps_view_max: f64,
    histogram: Histogram,
}

/// Frame counts in equal bins from `start_ms`, plus the frames past the last bin.
#[derive(Debug, Clone, Default)]
struct Histogram {
    start_ms: f64,
    bin_ms: f64,
    counts: Vec<u64>,
    overflow: u64,
}

impl ChartData {
    /// Prepares every chart from a frame-time series (ms, all finite and > 0) and its
    /// slow-time curve (None when the series is empty).
    #[must_use]
    pub fn new(frame_time_ms: &[f64], curve: Option<&SlowTimeCurve>) -> Self {
        let mut sorted = frame_time_ms.to_vec();
        sorted.sort_unstable_by(f64::total_cmp);
        let percentile_ms = if sorted.is_empty() {
            Vec::new()
        } else {
            percentile_grid()
                .map(|k| PlotPoint::new(f64::from(k) / 1e4, percentile(&sorted, f64::from(k) / 1e6)))
                .collect()
        };
        let (slow_pct, excess_pct) = curve
            .map(|c| {
                fps_grid()
                    .map(|f| {
                        let (s, e) = c.at(f);
                        (PlotPoint::new(f, 100.0 * s), PlotPoint::new(f, 100.0 * e))
                    })
                    .unzip()
            })
            .unwrap_or_default();
        // 1.5 × the rate of the fastest 0.1 % of frames: past it S(F) is 100 %. The
        // 0.1th percentile, not the minimum, so one stray tiny interval cannot squash
        // the interesting range into the left edge.
        let fastest_ms = percentile(&sorted, 0.001);
        let fps_view_max =
            if fastest_ms > 0.0 { (1.5 * 1000.0 / fastest_ms).clamp(10.0, MAX_FPS) } else { MAX_FPS };
        Self { percentile_ms, slow_pct, excess_pct, fps_view_max, histogram: Histogram::new(&sorted) }
    }

    /// True when there is nothing to draw.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.percentile_ms.is_empty()
    }
}

/// Percentiles sampled, in millionths (0..=1_000_000): steps of 1 % up to 90, then ten
/// times finer for each further "nine", down to 0.0001 % above 99.99 (461 points).
fn percentile_grid() -> impl Iterator<Item = u32> {
    const RUNS: [(u32, u32, usize); 5] = [
        (0, 900_000, 10_000),
        (900_000, 990_000, 1_000),
        (990_000, 999_000, 100),
        (999_000, 999_900, 10),
        (999_900, 1_000_001, 1),
    ];
    RUNS.into_iter().flat_map(|(first, end, step)| (first..end).step_by(step))
}

/// Target rates sampled for S(F) and E(F): every integer to 240 (so the usual targets
/// are exact), every 2nd to 500, every 5th to 1000 (470 points).
fn fps_grid() -> impl Iterator<Item = f64> {
    (1..=240_u32).chain((242..=500).step_by(2)).chain((505..=1000).step_by(5)).map(f64::from)
}

/// Smallest width of the form {1, 2, 2.5, 5} · 10^k that is at least `raw`.
fn nice_width(raw: f64) -> f64 {
    let decade = 10_f64.powi(raw.log10().floor() as i32);
    [1.0, 2.0, 2.5, 5.0].into_iter().map(|m| m * decade).find(|&w| w >= raw).unwrap_or(10.0 * decade)
}

impl Histogram {
    /// Bins of a "nice" width giving 60–120 bins from the fastest frame to the 99.9th
    /// percentile, aligned to multiples of the width; slower frames go to `overflow`.
    fn new(sorted: &[f64]) -> Self {
        let Some(&min) = sorted.first() else { return Self::default() };
        let top = percentile(sorted, 0.999);
        let span = top - min;
        let raw = if span > 0.0 { span / MAX_BINS } else { min / 50.0 };
        let bin_ms = Some(nice_width(raw)).filter(|w| w.is_finite() && *w > 0.0).unwrap_or(1.0);
        let start_ms = (min / bin_ms).floor() * bin_ms;
        let bins = (((top - start_ms) / bin_ms).floor() as usize + 1).min(2 * MAX_BINS as usize);
        let mut counts = vec![0_u64; bins];
        let mut overflow = 0;
        for &v in sorted {
            // A negative rounding slip saturates to bin 0.
            match counts.get_mut(((v - start_ms) / bin_ms).floor() as usize) {
                Some(c) => *c += 1,
                None => overflow += 1,
            }
        }
        Self { start_ms, bin_ms, counts, overflow }
    }

    /// Upper edge of the last regular bin: the overflow bin holds frames at or past it.
    fn end_ms(&self) -> f64 {
        self.start_ms + self.counts.len() as f64 * self.bin_ms
    }
}

/// Draws the three charts stacked vertically in the available space: the frame-time
/// percentile curve, the slow-time and excess-time curves against target FPS with the
/// user's target marked, and a frame-time histogram with the target frame time marked.
pub fn charts_ui(ui: &mut egui::Ui, data: &ChartData, target_fps: f64) {
    if data.is_empty() {
        ui.weak("No frames to chart.");
        return;
    }
    let target = Some(target_fps).filter(|f| f.is_finite() && *f > 0.0);
    let height = plot_height(ui);
    ui.strong("Frame time by percentile");
    percentile_plot(ui, data, target, height);
    ui.strong("Slow time S and excess time E by target FPS (SuperTuxKart)");
    pacing_plot(ui, data, target, height);
    ui.strong("Frame-time histogram");
    histogram_plot(ui, &data.histogram, target, height);
}

/// A third of the height left for the charts (minus their titles), at least 120 px.
/// Inside a vertical scroll area the `Ui` is unbounded, so the visible height is used.
fn plot_height(ui: &egui::Ui) -> f32 {
    let avail = [ui.available_height(), ui.clip_rect().height()]
        .into_iter()
        .find(|h| h.is_finite())
        .unwrap_or(3.0 * FALLBACK_PLOT_HEIGHT);
    let title = ui.text_style_height(&egui::TextStyle::Body) + 2.0 * ui.spacing().item_spacing.y;
    ((avail - 3.0 * title) / 3.0).max(MIN_PLOT_HEIGHT)
}

/// What the three plots share: fixed height, no scroll capture (so the panel around
/// them scrolls), a legend, and axis titles with units.
fn base_plot<'a>(
    id_salt: &str,
    height: f32,
    x: impl Into<egui::WidgetText>,
    y: impl Into<egui::WidgetText>,
) -> Plot<'a> {
    Plot::new(id_salt)
        .height(height)
        .allow_scroll(false)
        .legend(Legend::default())
        .x_axis_label(x)
        .y_axis_label(y)
        .include_y(0.0)
}

fn percentile_plot(ui: &mut egui::Ui, data: &ChartData, target: Option<f64>, height: f32) {
    base_plot("charts_percentile", height, "percentile of frames (%)", "frame time (ms)")
        .include_x(0.0)
        .include_x(100.0)
        .label_formatter(|pos| {
            let (HoverPosition::NearDataPoint { position, .. } | HoverPosition::Elsewhere { position }) =
                *pos;
            Some(format!("P{:.4}: {:.2} ms", position.x, position.y))
        })
        .show(ui, move |p| {
            p.line(
                Line::new("frame time", PlotPoints::Borrowed(&data.percentile_ms))
                    .color(FRAME_COLOR)
                    .width(1.5),
            );
            if let Some(fps) = target {
                let budget = 1000.0 / fps;
                let name = format!("target {budget:.2} ms ({fps} FPS)");
                p.hline(HLine::new(name, budget).id("target").color(TARGET_COLOR));
            }
        });
}

fn pacing_plot(ui: &mut egui::Ui, data: &ChartData, target: Option<f64>, height: f32) {
    // Show the curves up to where S(F) is 100 %, or a little past the target.
    let view_max = target.map_or(data.fps_view_max, |f| data.fps_view_max.max(1.25 * f)).min(MAX_FPS);
    let end = data.slow_pct.partition_point(|p| p.x <= view_max);
    let (slow, excess) = (&data.slow_pct[..end], &data.excess_pct[..end.min(data.excess_pct.len())]);
    base_plot("charts_pacing", height, "target rate F (FPS)", "share of run time (%)")
        .include_x(0.0)
        .include_y(100.0)
        .label_formatter(|pos| {
            Some(match *pos {
                HoverPosition::NearDataPoint { plot_name, position, .. } => {
                    format!("{plot_name}\n{:.0} FPS: {:.3} %", position.x, position.y)
                }
                HoverPosition::Elsewhere { position } => {
                    format!("{:.0} FPS: {:.3} %", position.x, position.y)
                }
            })
        })
        .show(ui, move |p| {
            for (i, (s, e)) in LIMITS.into_iter().enumerate() {
                let name = "limits: steady, mostly steady, typical";
                let dashed = LineStyle::Dashed { length: 6.0 };
                p.hline(HLine::new(name, s).id(("limit_s", i)).color(GUIDE_COLOR).width(0.5).style(dashed));
                let dotted = LineStyle::Dotted { spacing: 4.0 };
                p.hline(HLine::new(name, e).id(("limit_e", i)).color(GUIDE_COLOR).width(0.5).style(dotted));
            }
            p.line(Line::new("slow time S(F)", PlotPoints::Borrowed(slow)).color(SLOW_COLOR).width(1.5));
            p.line(
                Line::new("excess time E(F)", PlotPoints::Borrowed(excess)).color(EXCESS_COLOR).width(1.5),
            );
            if let Some(fps) = target {
                p.vline(VLine::new(format!("target {fps} FPS"), fps).id("target").color(TARGET_COLOR));
                p.text(
                    Text::new("", PlotPoint::new(fps, 100.0), format!(" {fps} FPS"))
                        .id("target_label")
                        .color(TARGET_COLOR)
                        .anchor(Align2::LEFT_TOP),
                );
            }
        });
}

fn histogram_plot(ui: &mut egui::Ui, h: &Histogram, target: Option<f64>, height: f32) {
    let w = h.bin_ms;
    let bars: Vec<Bar> = h
        .counts
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c > 0)
        .map(|(i, &c)| Bar::new(h.start_ms + (i as f64 + 0.5) * w, c as f64).width(w))
        .collect();
    let frames =
        BarChart::new("frames", bars).color(FRAME_COLOR).element_formatter(Box::new(move |bar, _| {
            format!("{:.2}–{:.2} ms: {} frames", bar.argument - w / 2.0, bar.argument + w / 2.0, bar.value)
        }));
    let overflow = (h.overflow > 0).then(|| {
        let edge = h.end_ms();
        // One empty bin apart from the regular bins, so it does not read as one of them.
        let bar = Bar::new(edge + 1.5 * w, h.overflow as f64).width(w);
        BarChart::new(format!("≥ {edge:.1} ms ({} frames)", h.overflow), vec![bar])
            .id("overflow")
            .color(OVERFLOW_COLOR)
            .element_formatter(Box::new(move |bar, _| format!("≥ {edge:.2} ms: {} frames", bar.value)))
    });
    let x_title = format!("frame time (ms), bins of {} ms", (w * 1e6).round() / 1e6);
    base_plot("charts_histogram", height, x_title, "frames")
        .label_formatter(|pos| {
            let (HoverPosition::NearDataPoint { position, .. } | HoverPosition::Elsewhere { position }) =
                *pos;
            Some(format!("{:.2} ms", position.x))
        })
        .show(ui, move |p| {
            p.bar_chart(frames);
            if let Some(chart) = overflow {
                p.bar_chart(chart);
            }
            if let Some(fps) = target {
                let budget = 1000.0 / fps;
                let name = format!("target {budget:.2} ms ({fps} FPS)");
                p.vline(VLine::new(name, budget).id("target").color(TARGET_COLOR));
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 60 FPS-ish run: 15.5–20.45 ms with an 80 ms hitch every 997 frames.
    fn series(n: usize) -> Vec<f64> {
        (0..n).map(|i| if i % 997 == 500 { 80.0 } else { 15.5 + ((i * 7919) % 100) as f64 * 0.05 }).collect()
    }

    fn prepared(ft: &[f64]) -> ChartData {
        ChartData::new(ft, SlowTimeCurve::new(ft).as_ref())
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn histogram_counts_every_frame() {
        for ft in [series(10_000), vec![16.7; 50], vec![3.0], vec![1.0, 1000.0]] {
            let h = prepared(&ft).histogram;
            let total: u64 = h.counts.iter().sum::<u64>() + h.overflow;
            assert_eq!(total, ft.len() as u64);
            assert!(h.counts.len() <= 2 * MAX_BINS as usize && h.bin_ms > 0.0);
        }
        let h = prepared(&series(10_000)).histogram;
        assert!((60..=122).contains(&h.counts.len()), "{} bins", h.counts.len());
        assert_eq!(h.overflow, 10, "the ten 80 ms hitches lie past the 99.9th percentile");
        assert!(h.end_ms() <= 80.0);
        // All frames alike: one bin, nothing past it.
        let h = prepared(&[16.7; 50]).histogram;
        assert_eq!((h.counts.iter().filter(|&&c| c > 0).count(), h.overflow), (1, 0));
        for (raw, want) in [(0.03, 0.05), (1.0, 1.0), (1.01, 2.0), (2.2, 2.5), (3.0, 5.0), (7.0, 10.0)] {
            assert!(close(nice_width(raw), want), "{raw} -> {}", nice_width(raw));
        }
    }

    #[test]
    fn percentile_curve_rises_to_the_slowest_frame() {
        let ft = series(10_000);
        let data = prepared(&ft);
        let pts = &data.percentile_ms;
        assert_eq!(pts.len(), 461);
        assert!(pts.windows(2).all(|w| w[0].x < w[1].x && w[0].y <= w[1].y));
        let (first, last) = (pts[0], pts[pts.len() - 1]);
        assert!(close(first.x, 0.0) && close(first.y, 15.5));
        assert!(close(last.x, 100.0) && last.y.total_cmp(&80.0).is_eq());
        let mut sorted = ft.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        let p99 = pts.iter().find(|p| close(p.x, 99.0)).map(|p| p.y);
        assert_eq!(p99.map(f64::to_bits), Some(percentile(&sorted, 0.99).to_bits()));
    }

    #[test]
    fn pacing_curves_follow_the_slow_time_curve() {
        let ft = series(10_000);
        let curve = SlowTimeCurve::new(&ft).unwrap_or_else(|| unreachable!());
        let data = ChartData::new(&ft, Some(&curve));
        assert_eq!((data.slow_pct.len(), data.excess_pct.len()), (470, 470));
        for (s, e) in data.slow_pct.iter().zip(&data.excess_pct) {
            assert!(s.x.total_cmp(&e.x).is_eq());
            let (want_s, want_e) = curve.at(s.x);
            assert!(close(s.y, 100.0 * want_s) && close(e.y, 100.0 * want_e), "at {} FPS", s.x);
        }
        let at = |f: f64| data.slow_pct.iter().find(|p| close(p.x, f)).map(|p| p.y);
        assert!(at(60.0).is_some() && at(144.0).is_some() && at(1000.0).is_some());
        // Fastest 0.1 % ≈ 15.5 ms: the view ends near 1.5 · 64.5 FPS, where S is 100 %.
        assert!((90.0..=100.0).contains(&data.fps_view_max), "{}", data.fps_view_max);
        assert!(close(data.slow_pct.iter().rfind(|p| p.x <= data.fps_view_max).map_or(0.0, |p| p.y), 100.0));
    }

    /// Two passes (the first is egui's sizing pass), in a panel and in a scroll area;
    /// the three plots get at least their minimum height each.
    fn draw(data: &ChartData, target_fps: f64) {
        let ctx = egui::Context::default();
        for scrolled in [false, false, true, true] {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(900.0, 700.0))),
                ..Default::default()
            };
            let out = ctx.run_ui(input, |ui| {
                egui::CentralPanel::default().show(ui, |ui| {
                    let rect = if scrolled {
                        egui::ScrollArea::vertical()
                            .show(ui, |ui| charts_ui(ui, data, target_fps))
                            .content_size
                    } else {
                        ui.scope(|ui| charts_ui(ui, data, target_fps)).response.rect.size()
                    };
                    assert!(data.is_empty() || rect.y >= 3.0 * MIN_PLOT_HEIGHT, "{rect:?}");
                });
            });
            assert!(!out.shapes.is_empty());
            out.drop_without_applying_deltas();
        }
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
}
