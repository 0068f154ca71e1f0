//! The three distribution plots — frame time by percentile, slow and excess time by
//! target FPS, the frame-time histogram — for one run or several overlaid, drawn from
//! prepared [`ChartData`]. The parent module stacks them.

use super::super::theme::{EXCESS_COLOR, FRAME_COLOR, GUIDE_COLOR, OVERFLOW_COLOR, SLOW_COLOR, TARGET_COLOR};
use super::data::{BinGrid, ChartData, Histogram, MAX_FPS};
use eframe::egui;
use egui::{Align2, Color32};
use egui_plot::{
    Bar, BarChart, HLine, HoverPosition, Legend, Line, LineStyle, Plot, PlotPoint, PlotPoints, Text, VLine,
};
use std::borrow::Cow;

/// SuperTuxKart limits (spec §3) as `(S, E)` in percent: steady, mostly steady, typical.
const LIMITS: [(f64, f64); 3] = [(1.0, 0.1), (12.0, 2.0), (50.0, 10.0)];
/// Overlay: the dash of the excess-time curves (slow time is solid).
const EXCESS_DASH: LineStyle = LineStyle::Dashed { length: 8.0 };
/// Overlay: opacity of the area under each run's histogram step line.
const HISTOGRAM_FILL_ALPHA: f32 = 0.12;
/// How the series are named and coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Look {
    /// [`charts_ui`](super::charts_ui): one run, series named after what they show, fixed colours,
    /// histogram as bars.
    Single,
    /// [`charts_overlay_ui`](super::charts_overlay_ui): every series named after its run, in the run's colour;
    /// S solid, E dashed; histograms as filled step lines on a shared grid.
    Overlay,
}

/// One run to draw. In the overlay all of a run's items share one item id, so its
/// legend entry shows, hides and highlights all of them together.
#[derive(Clone, Copy)]
pub(super) struct Run<'a> {
    /// The run's legend name in the overlay.
    pub(super) name: &'a str,
    /// The run's colour in the overlay.
    pub(super) color: Color32,
    /// What to draw.
    pub(super) data: &'a ChartData,
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

/// Frame time by percentile, with the target frame time as a horizontal line.
pub(super) fn percentile_plot(
    ui: &mut egui::Ui,
    runs: &[Run<'_>],
    look: Look,
    target: Option<f64>,
    height: f32,
) {
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

/// S(F) and E(F) against target FPS, with the SuperTuxKart limits as guides and the
/// target FPS as a vertical line.
pub(super) fn pacing_plot(ui: &mut egui::Ui, runs: &[Run<'_>], look: Look, target: Option<f64>, height: f32) {
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

/// The frame-time histogram: bars for one run, filled step lines on a shared grid in
/// the overlay; frames past the grid as a separate bar; the target frame time marked.
pub(super) fn histogram_plot(
    ui: &mut egui::Ui,
    runs: &[Run<'_>],
    look: Look,
    target: Option<f64>,
    height: f32,
) {
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
    use super::super::fixtures::{close, prepared, series};
    use super::*;

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
