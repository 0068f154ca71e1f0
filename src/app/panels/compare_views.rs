//! Views of a comparison besides the stacked timelines: a bar chart of the runs' key
//! figures (CapFrameX style: per run its average, 1 % low and 0.1 % low FPS as
//! horizontal bars on one scale, sortable, compact enough for many runs) and an
//! overlay that draws every run's frame times on one row (each run's typical present
//! interval per pixel column, in its colour, on the aligned time axis). The view
//! chosen is saved in the settings (`compare_view`).

use super::Model;
use super::legend_names::legend_names;
use crate::app::session::AppCommand;
use crate::app::theme;
use eframe::egui::{self, Color32, FontId, Rect, Sense, Stroke, pos2, vec2};
use framescope_core::report::Run;

pub use crate::app::compare_view::CompareView;

/// The bar chart's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortBy {
    /// As the runs are listed (baseline first).
    #[default]
    Listed,
    /// Highest average FPS first.
    Average,
    /// Highest 1 % low first.
    Low1,
    /// Highest 0.1 % low first.
    Low01,
}

/// The overlay's margin for the axis values.
const AXIS_MARGIN: f32 = 48.0;

/// The figures each run's bars show (registry names, `section.name`).
const BARS: [&str; 3] = ["summary.avg_fps", "summary.low_1pct_fps", "summary.low_0_1pct_fps"];

/// A bar's figure: its registry name and its value in `run` (NaN when it lacks it).
fn bar(qualified: &str, run: Option<&Run>) -> (&'static str, f64) {
    let f = framescope_core::figures::figure(qualified);
    let v = f.zip(run).and_then(|(f, r)| (f.value)(r));
    (f.map_or("", |f| f.title), v.unwrap_or(f64::NAN))
}

/// The switch between the views (while comparing): the view chosen now, and the
/// command that saves a new choice.
pub fn view_switch(ui: &mut egui::Ui, m: &Model<'_>) -> (CompareView, Option<AppCommand>) {
    let mut view = m.persisted.compare_view;
    ui.horizontal(|ui| {
        ui.label("Show the runs as");
        ui.selectable_value(&mut view, CompareView::Timelines, "Timelines");
        ui.selectable_value(&mut view, CompareView::Bars, "Bar chart")
            .on_hover_text("Average, 1% low and 0.1% low FPS of every run on one scale, sortable");
        ui.selectable_value(&mut view, CompareView::Overlay, "Overlay")
            .on_hover_text("Every run's frame times on one row, in the runs' colours");
    });
    let changed = (view != m.persisted.compare_view).then_some(AppCommand::CompareView(view));
    (view, changed)
}

/// One run's bars: legend name, colour, the three figures.
struct Entry {
    name: String,
    colour: Color32,
    values: [f64; 3],
}

/// The bar chart of the compared runs' key figures, sorted as chosen.
pub fn bars_ui(ui: &mut egui::Ui, m: &Model<'_>) -> Rect {
    let top = ui.cursor().min;
    let id = ui.make_persistent_id("compare_bars_sort");
    let mut sort: SortBy = ui.data(|d| d.get_temp(id)).unwrap_or_default();
    ui.horizontal(|ui| {
        ui.label("Sort by");
        ui.selectable_value(&mut sort, SortBy::Listed, "run");
        for (choice, q) in [SortBy::Average, SortBy::Low1, SortBy::Low01].into_iter().zip(BARS) {
            ui.selectable_value(&mut sort, choice, bar(q, None).0);
        }
    });
    ui.data_mut(|d| d.insert_temp(id, sort));
    let mut entries = entries(m);
    sort_entries(&mut entries, sort);
    if entries.is_empty() {
        ui.weak("The runs' figures are still being computed");
        return Rect::from_min_max(top, ui.min_rect().max);
    }
    let max = entries.iter().flat_map(|e| e.values).filter(|v| v.is_finite()).fold(0.0, f64::max).max(1.0);
    for e in &entries {
        entry_ui(ui, e, max);
    }
    bars_key(ui);
    Rect::from_min_max(top, ui.min_rect().max)
}

/// The shown runs with figures, listed order.
fn entries(m: &Model<'_>) -> Vec<Entry> {
    m.session
        .shown_runs()
        .into_iter()
        .enumerate()
        .filter_map(|(slot, run)| {
            let analyzed = run.analyzed()?;
            analyzed.run.summary.as_ref()?;
            Some(Entry {
                name: format!("{}: {}", slot + 1, crate::app::session::short_name(&run.label)),
                colour: m.run_colour(slot, run.id),
                values: BARS.map(|q| bar(q, Some(&analyzed.run)).1),
            })
        })
        .collect()
}

/// Sorts highest first by the chosen figure (a missing value last); `Listed` keeps
/// the order.
fn sort_entries(entries: &mut [Entry], sort: SortBy) {
    let k = match sort {
        SortBy::Listed => return,
        SortBy::Average => 0,
        SortBy::Low1 => 1,
        SortBy::Low01 => 2,
    };
    let key = |e: &Entry| if e.values[k].is_finite() { e.values[k] } else { f64::NEG_INFINITY };
    entries.sort_by(|a, b| key(b).total_cmp(&key(a)));
}

/// One run: its name, then a bar per figure with its value, on a scale to `max`.
fn entry_ui(ui: &mut egui::Ui, e: &Entry, max: f64) {
    ui.add(egui::Label::new(egui::RichText::new(&e.name).color(e.colour)).truncate());
    let width = ui.available_width().max(120.0);
    let (rect, response) = ui.allocate_exact_size(vec2(width, 3.0 * 15.0), Sense::hover());
    // What the bars say, for screen readers (and the tests).
    let said: Vec<String> =
        BARS.iter().zip(e.values).map(|(q, v)| format!("{} {v:.1}", bar(q, None).0)).collect();
    let said = format!("{}: {}", e.name, said.join(", "));
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, said.clone()));
    let p = ui.painter_at(rect);
    let label_w = 92.0;
    let font = FontId::proportional(11.0);
    for (k, (q, v)) in BARS.iter().zip(e.values).enumerate() {
        let name = bar(q, None).0;
        let y = rect.top() + 15.0 * k as f32;
        p.text(pos2(rect.left(), y + 7.0), egui::Align2::LEFT_CENTER, name, font.clone(), theme::AXIS_TEXT);
        let room = (rect.width() - label_w - 70.0).max(10.0);
        let w = if v.is_finite() { (v / max) as f32 * room } else { 0.0 };
        let bar = Rect::from_min_size(pos2(rect.left() + label_w, y + 2.0), vec2(w.max(1.0), 11.0));
        p.rect_filled(bar, 1.0, e.colour.gamma_multiply(1.0 - 0.25 * k as f32));
        let text = if v.is_finite() { format!("{v:.1}") } else { "–".to_owned() };
        p.text(pos2(bar.right() + 4.0, y + 7.0), egui::Align2::LEFT_CENTER, text, font.clone(), theme::TEXT);
    }
    ui.add_space(4.0);
}

fn bars_key(ui: &mut egui::Ui) {
    ui.weak("Bars: each run's average, 1% low and 0.1% low FPS on one scale (longer is better).");
}

/// The overlay's legend: each shown run's name in its colour.
fn overlay_legend(ui: &mut egui::Ui, m: &Model<'_>) {
    let shown = m.session.shown_runs();
    let labels: Vec<String> = shown.iter().map(|r| r.label.clone()).collect();
    let names = legend_names(&labels);
    ui.horizontal_wrapped(|ui| {
        for ((slot, run), name) in shown.iter().enumerate().zip(&names) {
            // One line per entry (never parted from its mark): wraps go between entries.
            let text = egui::RichText::new(format!("— {name}")).color(m.run_colour(slot, run.id));
            ui.add(egui::Label::new(text).extend());
        }
    });
}

/// The time axis under `rect`, of `view`.
fn time_axis(p: &egui::Painter, rect: Rect, view: crate::app::timeline::TimeView, font: &FontId) {
    for (dx, text) in time_ticks(view.start_ms, view.span_ms, rect.width()) {
        let x = rect.left() + dx;
        p.line_segment([pos2(x, rect.bottom()), pos2(x, rect.bottom() + 4.0)], Stroke::new(1.0, theme::GRID));
        p.text(pos2(x, rect.bottom() + 5.0), egui::Align2::CENTER_TOP, text, font.clone(), theme::AXIS_TEXT);
    }
}

/// Room under the overlay for its time axis.
const TIME_AXIS_HEIGHT: f32 = 16.0;

/// The ticks of a time axis over `width` points showing `span_ms` from `start_ms`:
/// each tick's offset from the left and its label (the timelines' ruler steps and
/// labels, about 110 points apart).
#[must_use]
pub fn time_ticks(start_ms: f64, span_ms: f64, width: f32) -> Vec<(f32, String)> {
    let width = width.max(1.0);
    if span_ms.is_nan() || span_ms <= 0.0 || !start_ms.is_finite() {
        return Vec::new();
    }
    let step = crate::app::timeline::ruler_step(span_ms / f64::from(width) * 110.0);
    let first = (start_ms / step).ceil();
    (0..200)
        .map(|k| (first + f64::from(k)) * step)
        .take_while(|t| *t <= start_ms + span_ms)
        .map(|t| (((t - start_ms) / span_ms) as f32 * width, crate::app::timeline::time_label(t, step)))
        .collect()
}

/// Every shown run's frame times on one row: per pixel column, the typical present
/// interval of each run (its colour), on the comparison's aligned time axis and one
/// ms scale, with the time axis under it; values above the scale are drawn at the top
/// with a mark.
pub fn overlay_ui(ui: &mut egui::Ui, m: &Model<'_>) -> Rect {
    let s = m.session;
    let shown = s.shown_runs();
    let height = (ui.available_height() - 60.0).clamp(160.0, 420.0);
    let (whole, response) = ui.allocate_exact_size(vec2(ui.available_width(), height), Sense::hover());
    response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Overlay of the runs' frame times")
    });
    // The axis values in a margin on the left, the lines right of it.
    // The time axis (the aligned one the timelines share) under the lines.
    let rect = Rect::from_min_max(
        pos2(whole.left() + AXIS_MARGIN, whole.top() + 6.0),
        whole.max - vec2(0.0, 6.0 + TIME_AXIS_HEIGHT),
    );
    let p = ui.painter_at(whole);
    p.rect_filled(rect, 0.0, theme::ROW_BACKGROUND[0]);
    let scale = shown
        .iter()
        .filter_map(|r| r.tracks().map(|t| t.scale_ms))
        .fold(1.0, f64::max)
        .max(1500.0 / m.persisted.target_fps.max(1.0));
    let scale = crate::app::timeline::round_up(scale);
    let y_of = |v: f64| rect.bottom() - ((v / scale).min(1.0) as f32) * (rect.height() - 4.0);
    let budget = 1000.0 / m.persisted.target_fps.max(1.0);
    p.hline(rect.x_range(), y_of(budget), Stroke::new(1.0, theme::TARGET_LINE.gamma_multiply(0.6)));
    let font = FontId::proportional(10.0);
    for v in [0.0, scale / 2.0, scale] {
        p.hline(rect.x_range(), y_of(v), Stroke::new(1.0, theme::AXIS_GRID));
        p.text(
            pos2(rect.left() - 4.0, y_of(v)),
            egui::Align2::RIGHT_CENTER,
            format!("{v:.0} ms"),
            font.clone(),
            theme::AXIS_TEXT,
        );
    }
    let mut scratch = Vec::new();
    for (slot, run) in shown.iter().enumerate() {
        let Some(tracks) = run.tracks() else { continue };
        let f = &run.shown_trace().frames;
        let view = s.view_of(run.id);
        let mut points = Vec::new();
        let mut marks = Vec::new();
        let columns = rect.width().max(1.0) as usize;
        for c in 0..columns {
            let (a, b) = (
                view.time_at(rect.left() + c as f32, rect.left(), rect.width()),
                view.time_at(rect.left() + c as f32 + 1.0, rect.left(), rect.width()),
            );
            let range = f.start_ms.partition_point(|&t| t < a)..f.start_ms.partition_point(|&t| t < b);
            if range.is_empty() {
                continue;
            }
            let v = tracks.frame_time.median.typical(&f.frame_time_ms, range, &mut scratch);
            if v.is_finite() {
                let x = rect.left() + c as f32 + 0.5;
                points.push(pos2(x, y_of(v)));
                if v > scale {
                    marks.push(x);
                }
            }
        }
        let colour = m.run_colour(slot, run.id);
        p.add(egui::Shape::line(points, Stroke::new(1.2, colour)));
        for x in marks {
            p.line_segment([pos2(x, rect.top()), pos2(x, rect.top() + 5.0)], Stroke::new(2.0, colour));
        }
    }
    time_axis(&p, rect, s.aligned_view(), &font);
    overlay_legend(ui, m);
    ui.weak("Each run's typical present interval per pixel column, on the aligned time axis; a mark at the top: above the scale.");
    whole
}

#[cfg(test)]
mod tests {
    use super::time_ticks;

    /// 30 s over 660 points: ticks about 110 points (5 s) apart — 0, 5, … 30 s.
    #[test]
    fn the_overlay_s_time_axis_has_the_ruler_s_ticks() {
        let ticks = time_ticks(0.0, 30_000.0, 660.0);
        let labels: Vec<&str> = ticks.iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(labels, ["0 s", "5 s", "10 s", "15 s", "20 s", "25 s", "30 s"]);
        assert!((ticks[1].0 - 110.0).abs() < 1e-3);
        assert!(time_ticks(0.0, 0.0, 660.0).is_empty());
    }
}
