//! The three distribution plots — frame time by percentile, slow and excess time by
//! target FPS, the frame-time histogram — for one run or several overlaid, drawn from
//! prepared [`ChartData`]. The parent module stacks them.

use super::super::theme::{EXCESS_COLOR, FRAME_COLOR, GUIDE_COLOR, OVERFLOW_COLOR, SLOW_COLOR, TARGET_COLOR};
use crate::app::work::chart_data::{BinGrid, ChartData, Histogram, Point};
use eframe::egui;
use egui::{Align2, Color32};
use egui_plot::{
    Bar, BarChart, HLine, HoverPosition, Line, LineStyle, Plot, PlotPoint, PlotPoints, Text, VLine,
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
    fn line<'p>(&self, look: Look, single_name: &str, single_color: Color32, points: &[Point]) -> Line<'p> {
        let points = plot_points(points);
        let line = match look {
            Look::Single => Line::new(single_name, points).color(single_color),
            Look::Overlay => Line::new(self.name, points).id(("run", self.name)).color(self.color),
        };
        line.width(1.5)
    }
}

/// A curve's points as egui_plot takes them (a few hundred per curve: copying them
/// each frame costs nothing to speak of, and keeps the chart data egui-free).
fn plot_points(points: &[Point]) -> PlotPoints<'static> {
    PlotPoints::Owned(points.iter().map(|p| PlotPoint::new(p.x, p.y)).collect())
}

/// What the three plots share: fixed height, no scroll capture (so the panel around
/// them scrolls), axis titles with units, a vertical cursor line only (hover reads the
/// curves at the cursor's x, not its height). Their legends are drawn under them
/// ([`legend_row`]), never over the curves. The overlay plots have their own ids (zoom
/// is remembered apart from the one-run plots).
fn base_plot<'a>(
    id_salt: &str,
    look: Look,
    height: f32,
    x: impl Into<egui::WidgetText>,
    y: impl Into<egui::WidgetText>,
) -> Plot<'a> {
    let plot = match look {
        Look::Single => Plot::new(id_salt),
        Look::Overlay => Plot::new(("overlay", id_salt)),
    };
    plot.height(height)
        .allow_scroll(false)
        .show_y(false)
        .x_axis_label(x)
        .y_axis_label(y)
        .include_y(0.0)
        .x_grid_spacer(|input| label_marks(&input, 90.0))
        .y_grid_spacer(|input| label_marks(&input, 40.0))
}

/// How a legend entry's sample is drawn.
#[derive(Clone, Copy)]
pub(super) enum Mark {
    /// A solid line.
    Line,
    /// A dashed line.
    Dashed,
    /// A filled box (bars).
    Box,
}

/// A legend under a plot: one entry per series, wrapped, so it never covers a curve.
pub(super) fn legend_row(ui: &mut egui::Ui, entries: &[(Color32, Mark, String)]) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 10.0;
        for (colour, mark, text) in entries {
            legend_entry(ui, *colour, *mark, text);
        }
    });
}

/// A legend entry: a sample of the series' mark and its name, as one widget (a line
/// break never parts them).
fn legend_entry(ui: &mut egui::Ui, colour: Color32, mark: Mark, text: &str) {
    let font = egui::TextStyle::Small.resolve(ui.style());
    let galley = ui.painter().layout_no_wrap(text.to_owned(), font, ui.visuals().text_color());
    let size = egui::vec2(20.0 + galley.size().x, galley.size().y.max(10.0));
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, text));
    let p = ui.painter();
    let y = rect.center().y;
    let stroke = egui::Stroke::new(2.0, colour);
    match mark {
        Mark::Line => {
            p.line_segment([egui::pos2(rect.left(), y), egui::pos2(rect.left() + 16.0, y)], stroke);
        }
        Mark::Dashed => {
            for k in 0..3 {
                let x = rect.left() + k as f32 * 6.0;
                p.line_segment([egui::pos2(x, y), egui::pos2(x + 3.5, y)], stroke);
            }
        }
        Mark::Box => {
            let r = egui::Rect::from_min_size(egui::pos2(rect.left() + 3.0, y - 4.0), egui::vec2(10.0, 8.0));
            p.rect_filled(r, 1.0, colour);
        }
    }
    let text_colour = ui.visuals().text_color();
    p.galley(egui::pos2(rect.left() + 20.0, rect.top()), galley, text_colour);
}

/// The runs' legend entries, in their colours.
fn run_entries(runs: &[Run<'_>]) -> Vec<(Color32, Mark, String)> {
    runs.iter().map(|r| (r.color, Mark::Line, r.name.to_owned())).collect()
}

/// Frame time by percentile, with the target frame time as a horizontal line; hover
/// reads every run's curve at the cursor's percentile.
pub(super) fn percentile_plot(
    ui: &mut egui::Ui,
    runs: &[Run<'_>],
    look: Look,
    target: Option<f64>,
    height: f32,
    top: Option<f64>,
) {
    let id = if top.is_some() { "charts_percentile_cut" } else { "charts_percentile" };
    let plot = base_plot(id, look, height, "percentile of frames (%)", "frame time (ms)");
    // The tail cut: the axis ends at `top` (the curve above it leaves the plot).
    let plot = match top {
        Some(top) => plot.default_y_bounds(0.0, top),
        None => plot,
    };
    plot.include_x(0.0)
        .include_x(100.0)
        .label_formatter(move |pos| percentile_label(runs, look, hover_x(pos)))
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
    let mut entries = match look {
        Look::Single => vec![(FRAME_COLOR, Mark::Line, "frame time".to_owned())],
        Look::Overlay => run_entries(runs),
    };
    if let Some(fps) = target {
        entries.push((TARGET_COLOR, Mark::Line, format!("target {:.2} ms", 1000.0 / fps)));
    }
    legend_row(ui, &entries);
}

/// The x under the cursor, whatever it is near.
fn hover_x(pos: &HoverPosition<'_>) -> f64 {
    match *pos {
        HoverPosition::NearDataPoint { position, .. } | HoverPosition::Elsewhere { position } => position.x,
    }
}

/// The percentile curves at percentile `x`: "P34.5: 6.02 ms", one line per run.
fn percentile_label(runs: &[Run<'_>], look: Look, x: f64) -> Option<String> {
    let lines: Vec<String> = runs
        .iter()
        .filter_map(|r| {
            let v = r.data.percentile_at(x)?;
            Some(match look {
                Look::Single => format!("{v:.2} ms"),
                Look::Overlay => format!("{}: {v:.2} ms", r.name),
            })
        })
        .collect();
    (!lines.is_empty()).then(|| format!("P{x:.1}\n{}", lines.join("\n")))
}

/// The pacing curves at target rate `x`: S and E of every run.
fn pacing_label(runs: &[Run<'_>], look: Look, x: f64) -> Option<String> {
    let lines: Vec<String> = runs
        .iter()
        .filter_map(|r| {
            let (s, e) = r.data.pacing_at(x)?;
            let values = format!("slow time S {s:.2} %, excess time E {e:.2} %");
            Some(match look {
                Look::Single => values,
                Look::Overlay => format!("{}: {values}", r.name),
            })
        })
        .collect();
    (!lines.is_empty()).then(|| format!("at {x:.0} FPS\n{}", lines.join("\n")))
}

/// S(F) and E(F) against target FPS, with the SuperTuxKart limits as guides and the
/// target FPS as a vertical line; hover reads the curves at the cursor's rate.
/// The x axis runs to `view_max` FPS (see [`super::pacing_range`]).
pub(super) fn pacing_plot(
    ui: &mut egui::Ui,
    runs: &[Run<'_>],
    look: Look,
    target: Option<f64>,
    height: f32,
    view_max: f64,
) {
    base_plot("charts_pacing", look, height, "target rate F (FPS)", "share of run time (%)")
        .include_x(0.0)
        .include_x(view_max)
        .include_y(100.0)
        .label_formatter(move |pos| pacing_label(runs, look, hover_x(pos)))
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
    let mut entries = match look {
        Look::Single => vec![
            (SLOW_COLOR, Mark::Line, "slow time S".to_owned()),
            (EXCESS_COLOR, Mark::Line, "excess time E".to_owned()),
        ],
        Look::Overlay => {
            let mut e = run_entries(runs);
            e.push((GUIDE_COLOR, Mark::Line, "S solid".to_owned()));
            e.push((GUIDE_COLOR, Mark::Dashed, "E dashed".to_owned()));
            e
        }
    };
    entries.push((GUIDE_COLOR, Mark::Dashed, "limits of steady, mostly steady, typical".to_owned()));
    if let Some(fps) = target {
        entries.push((TARGET_COLOR, Mark::Line, format!("target {fps} FPS")));
    }
    legend_row(ui, &entries);
}

/// Grid marks whose major steps are far enough apart on screen for egui_plot to label
/// every one (it leaves out labels closer than 60 points, which left an x axis with a
/// single "0"): round steps of 1, 2 or 5 · 10^k at least `points` apart (90 on the x
/// axis, 40 on the y axis, whose labels are only one line high), with minor
/// lines at a fifth of a step. `base_step_size` is the size of 8 points (the default
/// smallest grid spacing) in plot units.
fn label_marks(input: &egui_plot::GridInput, points: f64) -> Vec<egui_plot::GridMark> {
    let units_per_point = input.base_step_size / 8.0;
    axis_marks(input.bounds, units_per_point * points)
}

/// Round steps of at least `min_step` over `(lo, hi)`, majors and fifths.
fn axis_marks((lo, hi): (f64, f64), min_step: f64) -> Vec<egui_plot::GridMark> {
    if !(min_step.is_finite() && min_step > 0.0 && hi > lo) {
        return Vec::new();
    }
    let decade = 10_f64.powf(min_step.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * decade)
        .find(|&s| s >= min_step)
        .unwrap_or(10.0 * decade);
    let minor = step / 5.0;
    let mut marks = Vec::new();
    let mut k = (lo / minor).floor();
    while k * minor <= hi && marks.len() < 500 {
        let value = k * minor;
        let major = (value / step - (value / step).round()).abs() < 1e-6;
        marks.push(egui_plot::GridMark { value, step_size: if major { step } else { minor } });
        k += 1.0;
    }
    marks
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
    let counts: Vec<(String, Histogram)> =
        runs.iter().zip(&hists).map(|(r, h)| (r.name.to_owned(), h.as_ref().clone())).collect();
    let any_overflow = hists.iter().any(|h| h.overflow > 0);
    base_plot("charts_histogram", look, height, "frame time (ms)", "frames")
        .label_formatter(move |pos| histogram_label(&counts, look, hover_x(pos)))
        .show(ui, |p| {
            for (i, (run, h)) in runs.iter().zip(&hists).enumerate() {
                match look {
                    Look::Single => p.bar_chart(histogram_bars(h)),
                    Look::Overlay => p.line(
                        Line::new(run.name, plot_points(&h.step_points()))
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
    let mut entries = match look {
        Look::Single => vec![(FRAME_COLOR, Mark::Box, "frames".to_owned())],
        Look::Overlay => run_entries(runs),
    };
    if any_overflow {
        let colour = if look == Look::Single { OVERFLOW_COLOR } else { GUIDE_COLOR };
        entries.push((colour, Mark::Box, format!("right: frames ≥ {edge:.1} ms")));
    }
    if let Some(fps) = target {
        entries.push((TARGET_COLOR, Mark::Line, format!("target {:.2} ms", 1000.0 / fps)));
    }
    legend_row(ui, &entries);
    ui.label(egui::RichText::new(format!("bins of {width} ms")).small().weak());
}

/// The bin under frame time `x` in every run: "8.50–9.00 ms: 1234 frames".
fn histogram_label(hists: &[(String, Histogram)], look: Look, x: f64) -> Option<String> {
    let mut head = None;
    let lines: Vec<String> = hists
        .iter()
        .filter_map(|(name, h)| {
            let (lo, hi, n) =
                h.bin_at(x).or_else(|| (x >= h.end_ms()).then(|| (h.end_ms(), f64::INFINITY, h.overflow)))?;
            head.get_or_insert_with(|| {
                if hi.is_finite() { format!("{lo:.2}–{hi:.2} ms") } else { format!("≥ {lo:.2} ms") }
            });
            Some(match look {
                Look::Single => format!("{n} frames"),
                Look::Overlay => format!("{name}: {n} frames"),
            })
        })
        .collect();
    Some(format!("{}\n{}", head?, lines.join("\n")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::work::chart_data::fixtures::{close, prepared, series};

    #[test]
    fn hover_reads_the_curves_at_the_cursor() {
        let ft = series(10_000);
        let data = prepared(&ft);
        let runs = [Run { name: "A", color: FRAME_COLOR, data: &data }];
        // The percentile curve's value, not the cursor's height.
        let at = data.percentile_at(34.5).unwrap_or_default();
        assert_eq!(percentile_label(&runs, Look::Single, 34.5), Some(format!("P34.5\n{at:.2} ms")));
        assert_eq!(percentile_label(&runs, Look::Overlay, 34.5), Some(format!("P34.5\nA: {at:.2} ms")));
        assert_eq!(percentile_label(&runs, Look::Single, 120.0), None);
        let (s, e) = data.pacing_at(60.0).unwrap_or_default();
        assert!(s > e && e > 0.0, "S {s} E {e}");
        let text = pacing_label(&runs, Look::Overlay, 60.0).unwrap_or_default();
        assert_eq!(text, format!("at 60 FPS\nA: slow time S {s:.2} %, excess time E {e:.2} %"));
        let h = data.histogram.clone();
        let x = h.start_ms + 0.5 * h.bin_ms;
        let text = histogram_label(&[("A".to_owned(), h.clone())], Look::Single, x).unwrap_or_default();
        assert!(text.ends_with(&format!("\n{} frames", h.counts[0])), "{text}");
        let past = histogram_label(&[("A".to_owned(), h.clone())], Look::Single, h.end_ms() + 1.0);
        assert_eq!(past, Some(format!("≥ {:.2} ms\n{} frames", h.end_ms(), h.overflow)));
        assert!(close(h.end_ms(), h.start_ms + h.counts.len() as f64 * h.bin_ms));
    }

    #[test]
    fn every_major_tick_is_far_enough_apart_to_be_labelled() {
        // 330 points showing 0–600 FPS: 100 FPS is 55 points (unlabelled), 200 is 110.
        let marks = axis_marks((0.0, 600.0), 600.0 / 330.0 * 90.0);
        let majors: Vec<f64> = marks.iter().filter(|m| m.step_size > 100.0).map(|m| m.value).collect();
        assert_eq!(majors, [0.0, 200.0, 400.0, 600.0]);
        assert!(marks.iter().any(|m| close(m.value, 40.0) && close(m.step_size, 40.0)), "minor lines");
        // A narrow range: 0.1 ms steps.
        let majors =
            axis_marks((8.0, 8.5), 0.5 / 300.0 * 90.0).iter().filter(|m| close(m.step_size, 0.2)).count();
        assert_eq!(majors, 3, "8.0, 8.2, 8.4");
        assert!(axis_marks((1.0, 0.0), 1.0).is_empty());
    }
}
