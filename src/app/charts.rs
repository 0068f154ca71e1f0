//! Distribution charts of frame-time series: frame time by percentile, the
//! SuperTuxKart slow-time and excess-time curves against target FPS (spec §3), and a
//! frame-time histogram — for one run ([`charts_ui`]) or several runs overlaid
//! ([`charts_overlay_ui`]).
//!
//! All heavy work (one sort of the series, the curve samples, the bins) happens once in
//! [`ChartData::new`], off the UI thread. Drawing only reads the few hundred prepared
//! items per run each frame, however long the series is; the overlay re-bins every run
//! onto a common grid with two binary searches per bin in the sorted frame times.

use crate::analysis::{SlowTimeCurve, percentile};
use eframe::egui;
use egui::{Align2, Color32};
use egui_plot::{
    Bar, BarChart, HLine, HoverPosition, Legend, Line, LineStyle, Plot, PlotPoint, PlotPoints, Text, VLine,
};
use std::borrow::Cow;
use std::sync::Arc;

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
/// Overlay: the dash of the excess-time curves (slow time is solid).
const EXCESS_DASH: LineStyle = LineStyle::Dashed { length: 8.0 };
/// Overlay: opacity of the area under each run's histogram step line.
const HISTOGRAM_FILL_ALPHA: f32 = 0.12;

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
    /// The run's own bins, drawn by [`charts_ui`].
    histogram: Histogram,
    /// The frame times, ascending, for re-binning onto a grid shared with other runs.
    sorted_ms: SortedMs,
}

/// Frame times in ascending order, shared so that cloning [`ChartData`] stays cheap.
#[derive(Clone, Default)]
struct SortedMs(Arc<[f64]>);

impl std::fmt::Debug for SortedMs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SortedMs({} frames)", self.0.len())
    }
}

/// Equal bins of `bin_ms` from `start_ms`: bin `i` holds `[start + i·w, start + (i+1)·w)`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct BinGrid {
    start_ms: f64,
    bin_ms: f64,
    bins: usize,
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
        let histogram = Histogram::new(&sorted);
        let sorted_ms = SortedMs(sorted.into());
        Self { percentile_ms, slow_pct, excess_pct, fps_view_max, histogram, sorted_ms }
    }

    /// True when there is nothing to draw.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.percentile_ms.is_empty()
    }

    /// The fastest frame and the 99.9th percentile (ms): the span the bins cover.
    fn bin_span(&self) -> Option<(f64, f64)> {
        let sorted = &self.sorted_ms.0;
        sorted.first().map(|&min| (min, percentile(sorted, 0.999)))
    }

    /// This run's frames counted on `grid`: O(bins · log frames).
    fn rebin(&self, grid: BinGrid) -> Histogram {
        Histogram::on_grid(&self.sorted_ms.0, grid)
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

impl BinGrid {
    /// Bins of a "nice" width giving 60–120 bins from `min_ms` to `top_ms`, aligned to
    /// multiples of the width (at most 2 · [`MAX_BINS`]).
    fn covering(min_ms: f64, top_ms: f64) -> Self {
        let span = top_ms - min_ms;
        let raw = if span > 0.0 { span / MAX_BINS } else { min_ms / 50.0 };
        let bin_ms = Some(nice_width(raw)).filter(|w| w.is_finite() && *w > 0.0).unwrap_or(1.0);
        let start_ms = (min_ms / bin_ms).floor() * bin_ms;
        let bins = (((top_ms - start_ms) / bin_ms).floor() as usize + 1).min(2 * MAX_BINS as usize);
        Self { start_ms, bin_ms, bins }
    }

    /// One grid for several runs: from the fastest frame of any run to the highest
    /// 99.9th percentile of any; `None` when no run has frames.
    fn shared<'a>(runs: impl IntoIterator<Item = &'a ChartData>) -> Option<Self> {
        let (min, top) = runs
            .into_iter()
            .filter_map(ChartData::bin_span)
            .reduce(|(a_min, a_top), (b_min, b_top)| (a_min.min(b_min), a_top.max(b_top)))?;
        Some(Self::covering(min, top))
    }

    /// Left edge of bin `i` (the right edge of bin `i − 1`).
    fn edge(self, i: usize) -> f64 {
        self.start_ms + i as f64 * self.bin_ms
    }
}

impl Histogram {
    /// Bins of a "nice" width giving 60–120 bins from the fastest frame to the 99.9th
    /// percentile, aligned to multiples of the width; slower frames go to `overflow`.
    fn new(sorted: &[f64]) -> Self {
        let Some(&min) = sorted.first() else { return Self::default() };
        Self::on_grid(sorted, BinGrid::covering(min, percentile(sorted, 0.999)))
    }

    /// Counts ascending `sorted` on `grid` by binary search of each bin edge, so every
    /// frame is counted once: frames below the grid go to the first bin (a rounding
    /// slip), frames at or past its end to `overflow`.
    fn on_grid(sorted: &[f64], grid: BinGrid) -> Self {
        let mut counts = Vec::with_capacity(grid.bins);
        let mut below = 0;
        for i in 1..=grid.bins {
            let edge = grid.edge(i);
            let upto = below + sorted[below..].partition_point(|&v| v < edge);
            counts.push((upto - below) as u64);
            below = upto;
        }
        let overflow = (sorted.len() - below) as u64;
        Self { start_ms: grid.start_ms, bin_ms: grid.bin_ms, counts, overflow }
    }

    /// Upper edge of the last regular bin: the overflow bin holds frames at or past it.
    fn end_ms(&self) -> f64 {
        self.start_ms + self.counts.len() as f64 * self.bin_ms
    }

    /// Outline of the bins from the first to the last non-empty one, down to 0 at both
    /// ends: `(e₀, 0)`, then `(left, n)` at odd and `(right, n)` at even indices.
    fn step_points(&self) -> Vec<PlotPoint> {
        let first = self.counts.iter().position(|&c| c > 0);
        let last = self.counts.iter().rposition(|&c| c > 0);
        let (Some(first), Some(last)) = (first, last) else { return Vec::new() };
        let edge = |i: usize| self.start_ms + i as f64 * self.bin_ms;
        let mut points = Vec::with_capacity(2 * (last - first) + 4);
        points.push(PlotPoint::new(edge(first), 0.0));
        for (i, &c) in self.counts.iter().enumerate().take(last + 1).skip(first) {
            points.push(PlotPoint::new(edge(i), c as f64));
            points.push(PlotPoint::new(edge(i + 1), c as f64));
        }
        points.push(PlotPoint::new(edge(last + 1), 0.0));
        points
    }
}

/// How the series are named and coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Look {
    /// [`charts_ui`]: one run, series named after what they show, fixed colours,
    /// histogram as bars.
    Single,
    /// [`charts_overlay_ui`]: every series named after its run, in the run's colour;
    /// S solid, E dashed; histograms as filled step lines on a shared grid.
    Overlay,
}

/// One run to draw. In the overlay all of a run's items share one item id, so its
/// legend entry shows, hides and highlights all of them together.
#[derive(Clone, Copy)]
struct Run<'a> {
    name: &'a str,
    color: Color32,
    data: &'a ChartData,
}

impl Run<'_> {
    /// A curve of this run: in the overlay named after the run and in its colour, else
    /// named `single_name` in `single_color`.
    fn line<'p>(
        &self,
        look: Look,
        single_name: &str,
        single_color: Color32,
        points: &'p [PlotPoint],
    ) -> Line<'p> {
        let points = PlotPoints::Borrowed(points);
        let line = match look {
            Look::Single => Line::new(single_name, points).color(single_color),
            Look::Overlay => Line::new(self.name, points).id(("run", self.name)).color(self.color),
        };
        line.width(1.5)
    }
}

/// Draws the three charts stacked vertically in the available space: the frame-time
/// percentile curve, the slow-time and excess-time curves against target FPS with the
/// user's target marked, and a frame-time histogram with the target frame time marked.
pub fn charts_ui(ui: &mut egui::Ui, data: &ChartData, target_fps: f64) {
    draw_charts(ui, &[Run { name: "", color: FRAME_COLOR, data }], Look::Single, target_fps);
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
    if runs.iter().all(|r| r.data.is_empty()) {
        ui.weak("No frames to chart.");
        return;
    }
    let target = Some(target_fps).filter(|f| f.is_finite() && *f > 0.0);
    let height = plot_height(ui);
    ui.strong("Frame time by percentile");
    percentile_plot(ui, runs, look, target, height);
    ui.strong(match look {
        Look::Single => "Slow time S and excess time E by target FPS (SuperTuxKart)",
        Look::Overlay => "Slow time S (solid) and excess time E (dashed) by target FPS (SuperTuxKart)",
    });
    pacing_plot(ui, runs, look, target, height);
    ui.strong("Frame-time histogram");
    histogram_plot(ui, runs, look, target, height);
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
/// them scrolls), a legend, and axis titles with units. The overlay plots have their
/// own ids (zoom and hidden runs are remembered apart from the one-run plots) and list
/// the runs in the order given.
fn base_plot<'a>(
    id_salt: &str,
    look: Look,
    height: f32,
    x: impl Into<egui::WidgetText>,
    y: impl Into<egui::WidgetText>,
) -> Plot<'a> {
    let (plot, legend) = match look {
        Look::Single => (Plot::new(id_salt), Legend::default()),
        Look::Overlay => (Plot::new(("overlay", id_salt)), Legend::default().follow_insertion_order(true)),
    };
    plot.height(height).allow_scroll(false).legend(legend).x_axis_label(x).y_axis_label(y).include_y(0.0)
}

fn percentile_plot(ui: &mut egui::Ui, runs: &[Run<'_>], look: Look, target: Option<f64>, height: f32) {
    base_plot("charts_percentile", look, height, "percentile of frames (%)", "frame time (ms)")
        .include_x(0.0)
        .include_x(100.0)
        .label_formatter(move |pos| {
            Some(match *pos {
                HoverPosition::NearDataPoint { plot_name, position, .. } if look == Look::Overlay => {
                    format!("{plot_name}\nP{:.4}: {:.2} ms", position.x, position.y)
                }
                HoverPosition::NearDataPoint { position, .. } | HoverPosition::Elsewhere { position } => {
                    format!("P{:.4}: {:.2} ms", position.x, position.y)
                }
            })
        })
        .show(ui, move |p| {
            for run in runs {
                p.line(run.line(look, "frame time", FRAME_COLOR, &run.data.percentile_ms));
            }
            if let Some(fps) = target {
                let budget = 1000.0 / fps;
                let name = format!("target {budget:.2} ms ({fps} FPS)");
                p.hline(HLine::new(name, budget).id("target").color(TARGET_COLOR));
            }
        });
}

/// The hover text of a pacing curve point. In the overlay S and E of a run share its
/// name, so the point's value tells which curve it is on.
fn pacing_label(runs: &[Run<'_>], look: Look, plot_name: &str, position: PlotPoint, index: usize) -> String {
    let value = format!("{:.0} FPS: {:.3} %", position.x, position.y);
    let run = runs.iter().find(|r| look == Look::Overlay && r.name == plot_name);
    let Some(run) = run else { return format!("{plot_name}\n{value}") };
    let on = |curve: &[PlotPoint]| curve.get(index).is_some_and(|p| p.y.total_cmp(&position.y).is_eq());
    let curve = match (on(&run.data.slow_pct), on(&run.data.excess_pct)) {
        (true, true) => "S = E",
        (true, false) => "S",
        _ => "E",
    };
    format!("{plot_name}: {curve}\n{value}")
}

fn pacing_plot(ui: &mut egui::Ui, runs: &[Run<'_>], look: Look, target: Option<f64>, height: f32) {
    // Show the curves up to where S(F) is 100 % for every run, or a little past the target.
    let fps_view_max = runs.iter().map(|r| r.data.fps_view_max).fold(0.0, f64::max);
    let view_max = target.map_or(fps_view_max, |f| fps_view_max.max(1.25 * f)).min(MAX_FPS);
    base_plot("charts_pacing", look, height, "target rate F (FPS)", "share of run time (%)")
        .include_x(0.0)
        .include_y(100.0)
        .label_formatter(move |pos| {
            Some(match *pos {
                HoverPosition::NearDataPoint { plot_name, position, index } => {
                    pacing_label(runs, look, plot_name, position, index)
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
            for run in runs {
                let d = run.data;
                let end = d.slow_pct.partition_point(|p| p.x <= view_max);
                let (slow, excess) = (&d.slow_pct[..end], &d.excess_pct[..end.min(d.excess_pct.len())]);
                p.line(run.line(look, "slow time S(F)", SLOW_COLOR, slow));
                let excess = run.line(look, "excess time E(F)", EXCESS_COLOR, excess);
                p.line(if look == Look::Overlay { excess.style(EXCESS_DASH) } else { excess });
            }
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

/// The one-run histogram: a bar per non-empty bin.
fn histogram_bars(h: &Histogram) -> BarChart {
    let w = h.bin_ms;
    let bars: Vec<Bar> = h
        .counts
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c > 0)
        .map(|(i, &c)| Bar::new(h.start_ms + (i as f64 + 0.5) * w, c as f64).width(w))
        .collect();
    BarChart::new("frames", bars).color(FRAME_COLOR).element_formatter(Box::new(move |bar, _| {
        format!("{:.2}–{:.2} ms: {} frames", bar.argument - w / 2.0, bar.argument + w / 2.0, bar.value)
    }))
}

/// The frames past the last bin as one bar in the slot one empty bin right of the
/// regular bins (so it does not read as one of them). In the overlay the runs' bars
/// share that slot side by side, run `i` of `n` in the `i`-th part.
fn overflow_bar(run: &Run<'_>, h: &Histogram, look: Look, i: usize, n: usize) -> BarChart {
    let (w, edge) = (h.bin_ms, h.end_ms());
    let part = w / n as f64;
    let bar = Bar::new(edge + w + (i as f64 + 0.5) * part, h.overflow as f64).width(part);
    match look {
        Look::Single => BarChart::new(format!("≥ {edge:.1} ms ({} frames)", h.overflow), vec![bar])
            .id("overflow")
            .color(OVERFLOW_COLOR)
            .element_formatter(Box::new(move |bar, _| format!("≥ {edge:.2} ms: {} frames", bar.value))),
        Look::Overlay => {
            let name = run.name.to_owned();
            BarChart::new(run.name, vec![bar]).id(("run", run.name)).color(run.color).element_formatter(
                Box::new(move |bar, _| format!("{name}\n≥ {edge:.2} ms: {} frames", bar.value)),
            )
        }
    }
}

fn histogram_plot(ui: &mut egui::Ui, runs: &[Run<'_>], look: Look, target: Option<f64>, height: f32) {
    let hists: Vec<Cow<'_, Histogram>> = match look {
        Look::Single => runs.iter().map(|r| Cow::Borrowed(&r.data.histogram)).collect(),
        Look::Overlay => match BinGrid::shared(runs.iter().map(|r| r.data)) {
            Some(grid) => runs.iter().map(|r| Cow::Owned(r.data.rebin(grid))).collect(),
            None => Vec::new(),
        },
    };
    let Some(first) = hists.first() else { return };
    let (w, edge) = (first.bin_ms, first.end_ms());
    let width = (w * 1e6).round() / 1e6;
    let x_title = if look == Look::Overlay && hists.iter().any(|h| h.overflow > 0) {
        format!("frame time (ms), bins of {width} ms; bars on the right: frames ≥ {edge:.1} ms")
    } else {
        format!("frame time (ms), bins of {width} ms")
    };
    base_plot("charts_histogram", look, height, x_title, "frames")
        .label_formatter(move |pos| {
            Some(match *pos {
                // Step-line vertices: the left edge of a bin at odd indices, the right
                // edge at even ones; the ends down to 0 are no bin.
                HoverPosition::NearDataPoint { plot_name, position, index }
                    if look == Look::Overlay && position.y >= 0.5 =>
                {
                    let lo = if index % 2 == 1 { position.x } else { position.x - w };
                    format!("{plot_name}\n{lo:.2}–{:.2} ms: {} frames", lo + w, position.y)
                }
                HoverPosition::NearDataPoint { position, .. } | HoverPosition::Elsewhere { position } => {
                    format!("{:.2} ms", position.x)
                }
            })
        })
        .show(ui, move |p| {
            for (i, (run, h)) in runs.iter().zip(&hists).enumerate() {
                match look {
                    Look::Single => p.bar_chart(histogram_bars(h)),
                    Look::Overlay => p.line(
                        Line::new(run.name, PlotPoints::Owned(h.step_points()))
                            .id(("run", run.name))
                            .color(run.color)
                            .width(1.5)
                            // Bands would join the steps' vertical edges with slopes.
                            .allow_band(false)
                            .fill(0.0)
                            .fill_alpha(HISTOGRAM_FILL_ALPHA),
                    ),
                }
                if h.overflow > 0 {
                    p.bar_chart(overflow_bar(run, h, look, i, hists.len()));
                }
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

    /// Three runs over different ranges: a 60 FPS-ish one, a faster one, a slower one
    /// with long hitches.
    fn three_runs() -> [Vec<f64>; 3] {
        let fast: Vec<f64> = (0..7_000).map(|i| 6.0 + f64::from((i * 31) % 50) * 0.04).collect();
        let slow: Vec<f64> = (0..3_000)
            .map(|i| if i % 1000 == 7 { 250.0 } else { 28.0 + f64::from((i * 13) % 70) * 0.1 })
            .collect();
        [series(10_000), fast, slow]
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
        // Same names, an empty run among them, no target.
        draw_overlay(&[("x", FRAME_COLOR, &a), ("x", red, &empty), ("x", green, &c)], f64::NAN);
    }

    #[test]
    fn rebinning_onto_a_shared_grid_counts_every_frame() {
        let runs = three_runs();
        let data: Vec<ChartData> = runs.iter().map(|ft| prepared(ft)).collect();
        let grid = BinGrid::shared(&data).unwrap_or_else(|| unreachable!());
        assert!(grid.bin_ms > 0.0 && (1..=2 * MAX_BINS as usize).contains(&grid.bins), "{grid:?}");
        for (ft, d) in runs.iter().zip(&data) {
            let h = d.rebin(grid);
            assert_eq!(h.counts.len(), grid.bins);
            assert_eq!(h.counts.iter().sum::<u64>() + h.overflow, ft.len() as u64);
            // Every bin holds exactly the frames in [left, right); the last bin ends the grid.
            let min = ft.iter().copied().fold(f64::INFINITY, f64::min);
            assert!(grid.start_ms <= min);
            for (i, &c) in h.counts.iter().enumerate() {
                let (lo, hi) = (grid.edge(i), grid.edge(i + 1));
                let want = ft.iter().filter(|&&v| (i == 0 || v >= lo) && v < hi).count() as u64;
                assert_eq!(c, want, "bin {i} [{lo}, {hi})");
            }
            assert_eq!(h.overflow, ft.iter().filter(|&&v| v >= h.end_ms()).count() as u64);
        }
        // The grid spans the fastest 6 ms run to the slow run's 99.9th percentile; the
        // three 250 ms hitches of the slow run (0.1 %) lie past it.
        assert!(
            grid.start_ms <= 6.0 && grid.edge(grid.bins) > 34.9 && grid.edge(grid.bins) < 250.0,
            "{grid:?}"
        );
        assert_eq!(data[2].rebin(grid).overflow, 3);
        // One run on its own grid: the same bins as its one-run histogram.
        let own = BinGrid::shared([&data[0]]).unwrap_or_else(|| unreachable!());
        let (h, rebinned) = (&data[0].histogram, data[0].rebin(own));
        assert_eq!((&h.counts, h.overflow), (&rebinned.counts, rebinned.overflow));
        assert!(BinGrid::shared([&ChartData::new(&[], None)]).is_none());
    }

    #[test]
    fn step_line_outlines_the_bins() {
        let h = Histogram { start_ms: 10.0, bin_ms: 0.5, counts: vec![0, 3, 0, 5, 0, 0], overflow: 2 };
        let xy: Vec<(f64, f64)> = h.step_points().iter().map(|p| (p.x, p.y)).collect();
        let want = [
            (10.5, 0.0),
            (10.5, 3.0),
            (11.0, 3.0),
            (11.0, 0.0),
            (11.5, 0.0),
            (11.5, 5.0),
            (12.0, 5.0),
            (12.0, 0.0),
        ];
        assert_eq!(xy.len(), want.len());
        assert!(xy.iter().zip(want).all(|(a, b)| close(a.0, b.0) && close(a.1, b.1)), "{xy:?}");
        assert!(Histogram { counts: vec![0, 0], ..h }.step_points().is_empty());
    }

    #[test]
    fn pacing_hover_names_the_curve() {
        let ft = series(10_000);
        let data = prepared(&ft);
        let runs = [Run { name: "A", color: FRAME_COLOR, data: &data }];
        let at = |curve: &[PlotPoint], f: f64| {
            let i = curve.iter().position(|p| close(p.x, f)).unwrap_or_else(|| unreachable!());
            (curve[i], i)
        };
        let (s, i) = at(&data.slow_pct, 60.0);
        let (e, j) = at(&data.excess_pct, 60.0);
        assert!(s.y > e.y && e.y > 0.0, "S {} E {}", s.y, e.y);
        assert!(pacing_label(&runs, Look::Overlay, "A", s, i).starts_with("A: S\n60 FPS"));
        assert!(pacing_label(&runs, Look::Overlay, "A", e, j).starts_with("A: E\n60 FPS"));
        let (zero, k) = at(&data.slow_pct, 10.0);
        assert!(pacing_label(&runs, Look::Overlay, "A", zero, k).starts_with("A: S = E\n"));
        assert!(
            pacing_label(&runs, Look::Single, "slow time S(F)", s, i).starts_with("slow time S(F)\n60 FPS")
        );
    }
}
