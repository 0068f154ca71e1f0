//! The timeline: one time axis with a ruler and rows stacked like Nsight's frame view
//! — frame durations coloured against the target, GPU and display durations, the
//! stutter row with oscillating stretches, frame health, latency stages, telemetry —
//! with VSYNC markers, hover values, a time selection and a selected frame.
//!
//! Zoomed out, a pixel column stands for many frames: its bar is the typical frame,
//! its whisker the slowest, its colour the share of its time over the target ([`lod`]);
//! the mark rows (stutters, health, dropped frames, oscillation) are drawn by density.
//! Fully zoomed in, every frame is its own bar.
//!
//! The timeline only reads; user actions come back as [`Command`]s that the app
//! applies in one place.

pub mod events;
pub use framescope_core::lod;
mod rows;
pub mod view;

use super::theme;
use super::work::{Analyzed, TelemetryTrack, Tracks};
use eframe::egui::{self, FontId, Key, Rect, Sense, Stroke, pos2, vec2};
use framescope_core::analysis::FrameTimeSource;
use framescope_core::model::Trace;
use lod::{Budget, BudgetShares, SeriesIndex};
pub use rows::fps_text;
use std::sync::{Arc, Mutex};
pub use view::TimeView;

/// Width of the label column on the left (row names, and the vertical axes' values
/// against its right edge).
pub const LABEL_WIDTH: f32 = 170.0;
/// The part of the label column the axes' values take.
const AXIS_WIDTH: f32 = 44.0;
const RULER_HEIGHT: f32 = 22.0;

/// What the user asked for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Command {
    /// Show this time range.
    View(TimeView),
    /// Select a time range (ms), or clear the selection.
    Select(Option<(f64, f64)>),
    /// Select a frame, or clear.
    SelectFrame(Option<usize>),
    /// Zoom to the selection.
    ZoomToSelection,
    /// Show the whole trace.
    ResetView,
    /// Show or hide the keyboard help.
    ToggleHelp,
    /// The pointer is over the timeline at this time (ms), for the linked cursor.
    Cursor(f64),
    /// A trim edge was dragged to this time (ms): the start trim's edge when `start`,
    /// else the end trim's.
    Trim {
        /// Which edge.
        start: bool,
        /// Where it is now.
        at_ms: f64,
    },
}

/// The trim on the timeline (`metrics.md` §1): the trace's span and the part kept, on
/// its own time axis (ms); outside the kept part is shaded, and its edges can be
/// dragged.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrimEdges {
    /// The start of the first frame.
    pub first_ms: f64,
    /// The end of the last frame.
    pub last_ms: f64,
    /// The kept part starts here (`first_ms` when nothing is trimmed at the start).
    pub from_ms: f64,
    /// The kept part ends here.
    pub to_ms: f64,
}

impl TrimEdges {
    /// The edges of `trim` on `trace`.
    #[must_use]
    pub fn of(trace: &Trace, trim: framescope_core::analysis::Trim) -> Option<Self> {
        let f = &trace.frames;
        let first_ms = *f.start_ms.first()?;
        let last_ms = first_ms + framescope_core::analysis::Trim::span_s(trace) * 1000.0;
        Some(Self {
            first_ms,
            last_ms,
            from_ms: (first_ms + trim.start_s.max(0.0) * 1000.0).min(last_ms),
            to_ms: (last_ms - trim.end_s.max(0.0) * 1000.0).max(first_ms),
        })
    }
}

/// What the timeline draws.
pub struct Input<'a> {
    /// The trace.
    pub trace: &'a Trace,
    /// Its LOD data.
    pub tracks: &'a Tracks,
    /// The figures, when ready.
    pub analyzed: Option<&'a Analyzed>,
    /// The frame-time source the figures are computed on (`Presents` or `Display`):
    /// the frame row draws that series, the row below it the other one.
    pub source: FrameTimeSource,
    /// Target rate.
    pub target_fps: f64,
    /// Visible range.
    pub view: TimeView,
    /// Selected time range.
    pub selection: Option<(f64, f64)>,
    /// Selected frame.
    pub selected_frame: Option<usize>,
    /// A time (ms) to mark with a vertical line: the pointer's, linked across compared runs.
    pub cursor_ms: Option<f64>,
    /// Leave out the telemetry rows (compared runs stack several timelines).
    pub compact: bool,
    /// Vertical scales shared by compared runs; `None`: the run's own.
    pub scales: Option<Scales>,
    /// The trim, shaded and draggable.
    pub trim: Option<TrimEdges>,
}

/// The vertical scales (ms) of the frame-duration and latency rows, shared by compared
/// runs so that equal heights mean equal times.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Scales {
    /// Present intervals (and the GPU row).
    pub presents_ms: f64,
    /// Display intervals.
    pub display_ms: f64,
    /// The latency row's stacks.
    pub latency_ms: f64,
}

impl Scales {
    /// The scales of one run's rows.
    #[must_use]
    pub fn of(tracks: &Tracks, analyzed: Option<&Analyzed>) -> Self {
        let latency = analyzed.and_then(|a| a.pcl.as_ref()).or(tracks.latency.as_ref());
        Self {
            presents_ms: tracks.scale_ms,
            display_ms: tracks.display_scale_ms,
            latency_ms: latency.map_or(0.0, |s| s.scale_ms),
        }
    }

    /// The larger of two scales, row by row.
    #[must_use]
    pub fn max(self, other: Self) -> Self {
        Self {
            presents_ms: self.presents_ms.max(other.presents_ms),
            display_ms: self.display_ms.max(other.display_ms),
            latency_ms: self.latency_ms.max(other.latency_ms),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row {
    /// The analysed series: present or display intervals.
    FrameTime,
    Gpu,
    /// Display intervals, when the frame row shows present intervals.
    Display,
    /// Present intervals, when the frame row shows display intervals.
    Presents,
    Stutters,
    Health,
    Latency,
    Telemetry(usize),
}

/// Height of one lane of the health row, and of its header.
const LANE: f32 = 12.0;
const HEALTH_HEADER: f32 = 16.0;

fn rows_of(input: &Input<'_>) -> Vec<(Row, f32)> {
    let t = input.tracks;
    let mut rows = vec![(Row::FrameTime, 110.0)];
    if t.gpu.is_some() {
        rows.push((Row::Gpu, 60.0));
    }
    if displays(input) {
        rows.push((Row::Presents, 60.0));
    } else if t.display.is_some() {
        rows.push((Row::Display, 60.0));
    }
    rows.push((Row::Stutters, 26.0));
    let lanes = input.analyzed.map_or(0, |a| a.marks.spikes.len());
    if lanes > 0 {
        rows.push((Row::Health, HEALTH_HEADER + LANE * lanes as f32 + 4.0));
    }
    if latency_stack(input).is_some() {
        rows.push((Row::Latency, 80.0));
    }
    if !input.compact {
        rows.extend((0..t.telemetry.len()).map(|i| (Row::Telemetry(i), 52.0)));
    }
    rows
}

/// True when the frame row draws display intervals.
fn displays(input: &Input<'_>) -> bool {
    input.source == FrameTimeSource::Display && input.tracks.display.is_some()
}

/// Total height the timeline wants.
#[must_use]
pub fn desired_height(input: &Input<'_>) -> f32 {
    RULER_HEIGHT + rows_of(input).iter().map(|(_, h)| h).sum::<f32>()
}

/// The frame rows' scales (present and display intervals): the shared ones while
/// comparing, else the run's own, tall enough that the target line stays in view.
fn scales(input: &Input<'_>, budget: Budget) -> (f64, f64) {
    let t = input.tracks;
    let (p, d) = input.scales.map_or((t.scale_ms, t.display_scale_ms), |s| (s.presents_ms, s.display_ms));
    (round_up(p.max(budget.budget_ms * 1.5)), round_up(d.max(budget.budget_ms * 1.5)))
}

/// `v` rounded up to a round number (about an eighth of it), for an axis top.
fn round_up(v: f64) -> f64 {
    let step = framescope_core::presentation::axes::nice_step(v / 8.0);
    (v / step).ceil() * step
}

/// One duration row's series: its cache key, values, LOD, shares and scale.
struct Series<'a> {
    key: (u8, usize),
    values: &'a [f64],
    index: &'a SeriesIndex,
    shares: Option<&'a BudgetShares>,
    scale: f64,
    /// What one value is, for hover text ("present interval").
    what: &'static str,
}

/// The series a duration row draws.
fn series_of<'a>(input: &Input<'a>, row: Row, budget: Budget) -> Option<Series<'a>> {
    let (t, f) = (input.tracks, &input.trace.frames);
    let (scale, display_scale) = scales(input, budget);
    let shares = input.analyzed.map(|a| a.shares.as_ref()).filter(|s| s.budget == budget);
    let presents = || Series {
        key: (0, 0),
        values: &f.frame_time_ms,
        index: &t.frame_time,
        shares: shares.map(|s| &s.presents),
        scale,
        what: "present interval",
    };
    let display = || {
        t.display.as_ref().map(|(values, index)| Series {
            key: (2, 0),
            values,
            index,
            shares: shares.and_then(|s| s.display.as_ref()),
            scale: display_scale,
            what: "display interval",
        })
    };
    match row {
        Row::FrameTime if displays(input) => display(),
        Row::FrameTime | Row::Presents => Some(presents()),
        Row::Display => display(),
        Row::Gpu => t.gpu.as_ref().map(|(_, col, index)| Series {
            key: (1, 0),
            values: &f.columns[*col].values,
            index,
            shares: shares.and_then(|s| s.gpu.as_ref()),
            scale,
            what: "GPU time",
        }),
        _ => None,
    }
}

/// Draws the timeline in the available width and returns the user's commands.
pub fn timeline_ui(ui: &mut egui::Ui, input: &Input<'_>) -> Vec<Command> {
    let size = vec2(ui.available_width(), desired_height(input));
    let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Timeline"));
    let track = Rect::from_min_max(pos2(rect.left() + LABEL_WIDTH, rect.top()), rect.max);
    let f = &input.trace.frames;
    let width = track.width().max(1.0);
    let cache_id = response.id.with("columns");
    let cache: Arc<Mutex<lod::ColumnCache>> =
        ui.data_mut(|d| d.get_temp_mut_or_default::<Arc<Mutex<lod::ColumnCache>>>(cache_id).clone());
    let mut cache = cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    // Columns on a global grid of `dt` (see `lod::ColumnCache`): the first is the one
    // holding the view's start, drawn up to a pixel left of the track's edge.
    let dt = input.view.ms_per_px(width);
    let origin = (input.view.start_ms / dt).floor();
    let x_offset = ((origin * dt - input.view.start_ms) / dt) as f32;
    let key = (
        std::ptr::from_ref(input.trace) as usize,
        dt.to_bits(),
        width.to_bits(),
        input.analyzed.map_or(0, |a| std::ptr::from_ref(a) as usize),
    );
    cache.prepare(key, origin as i64, width as usize + 1, |first, n| {
        lod::column_ranges(&f.start_ms, f.spans_ms(), first as f64 * dt, dt, n)
    });
    let columns = cache.columns.clone();
    let frame = rows::Frame {
        trace: input.trace,
        analyzed: input.analyzed,
        budget: Budget::of_fps(input.target_fps),
        view: input.view,
        left: track.left() + x_offset,
        track_left: track.left(),
        width,
        columns,
    };
    if ui.is_rect_visible(rect) {
        paint(&ui.painter_at(rect), input, &frame, &mut cache, rect, track);
    }
    drop(cache);
    let mut commands = interact(ui, &response, input, track);
    let row_at = |y: f32| {
        let mut top = rect.top() + RULER_HEIGHT;
        for (row, h) in rows_of(input) {
            if y >= top && y < top + h {
                return Some((row, top, h));
            }
            top += h;
        }
        None
    };
    // Over the label column: the row's whole label and what its colours mean.
    if let Some(pos) = response.hover_pos().filter(|p| p.x < track.left())
        && let Some((row, _, _)) = row_at(pos.y)
    {
        let mut text = row_title(input, row);
        text.push_str(&row_hint(input, row));
        response.clone().on_hover_text_at_pointer(text);
    }
    if let Some(pos) = response.hover_pos().filter(|p| track.contains(*p)) {
        let t = input.view.time_at(pos.x, track.left(), width);
        commands.push(Command::Cursor(t));
        let c = ((pos.x - frame.left).floor().max(0.0) as usize).min(frame.columns.len().saturating_sub(1));
        let at = frame_at(input.trace, t);
        let row = row_at(pos.y);
        if at.is_some() || row.is_some_and(|(r, _, _)| r != Row::FrameTime) {
            response.clone().on_hover_ui_at_pointer(|ui| hover_ui(ui, input, &frame, row, pos.y, c, at));
        }
        if let Some(i) = at
            && response.clicked()
        {
            commands.push(Command::SelectFrame(Some(i)));
        }
    }
    commands
}

fn paint(
    p: &egui::Painter,
    input: &Input<'_>,
    frame: &rows::Frame<'_>,
    cache: &mut lod::ColumnCache,
    rect: Rect,
    track: Rect,
) {
    let ruler =
        Rect::from_min_max(pos2(track.left(), rect.top()), pos2(rect.right(), rect.top() + RULER_HEIGHT));
    rows::ruler(p, frame, ruler);
    // Columns start up to a pixel left of the track: data never spills on the labels.
    let data = p.with_clip_rect(track.intersect(p.clip_rect()));
    let mut y = rect.top() + RULER_HEIGHT;
    let frames_top = y;
    let mut frames_bottom = y;
    for (k, (row, h)) in rows_of(input).into_iter().enumerate() {
        let band = Rect::from_min_max(pos2(rect.left(), y), pos2(rect.right(), y + h));
        p.rect_filled(band, 0.0, theme::ROW_BACKGROUND[k % 2]);
        // Labels stay inside the label column: at most two lines, cut with "…" (the
        // whole label shows on hover), clear of the axis values on the right.
        let labels =
            p.with_clip_rect(Rect::from_min_max(pos2(rect.left(), y), pos2(track.left() - 1.0, y + h)));
        let axis_room = if has_axis(row) { AXIS_WIDTH } else { 0.0 };
        let left = rect.left() + 6.0;
        let label_bottom =
            draw_label(&labels, &row_label(input, row), pos2(left, y + 3.0), LABEL_WIDTH - 10.0 - axis_room);
        let ctx = RowPaint {
            p: &data,
            labels,
            area: Rect::from_min_max(pos2(track.left(), y + 1.0), pos2(track.right(), y + h - 1.0)),
            left,
            label_bottom,
            frame,
            input,
        };
        if let Some(series) = series_of(input, row, frame.budget) {
            ctx.duration(cache, row, &series);
            frames_bottom = y + h;
        } else {
            match row {
                Row::Stutters => ctx.stutters(cache),
                Row::Health => ctx.health(cache),
                Row::Latency => ctx.latency(cache),
                Row::Telemetry(i) => ctx.telemetry(cache, i),
                _ => {}
            }
        }
        y += h;
    }
    let frame_rows = Rect::from_min_max(pos2(track.left(), frames_top), pos2(track.right(), frames_bottom));
    rows::vsync(p, frame, frame_rows);
    events::paint(&data, frame, Rect::from_min_max(pos2(track.left(), frames_top), pos2(track.right(), y)));
    overlays(p, input, frame, track);
}

/// What painting one row needs: the painters (the label column's clipped), the data
/// area, where labels start and where the row's label ended.
struct RowPaint<'a> {
    p: &'a egui::Painter,
    labels: egui::Painter,
    area: Rect,
    left: f32,
    label_bottom: f32,
    frame: &'a rows::Frame<'a>,
    input: &'a Input<'a>,
}

impl RowPaint<'_> {
    /// A frame-duration row: axis, bars, the target line; the kinds of frames under
    /// the frame row of a capture with generated frames; dropped frames under display
    /// intervals.
    fn duration(&self, cache: &mut lod::ColumnCache, row: Row, series: &Series<'_>) {
        let (p, area, frame, t) = (self.p, self.area, self.frame, self.input.tracks);
        let stats = cache.stats(series.key, series.index, series.values, series.shares);
        let generated = row == Row::FrameTime && t.generated;
        rows::axis(p, &self.labels, area, (0.0, series.scale), "ms");
        rows::duration_bars(p, frame, area, series.values, stats, series.scale, generated);
        if row == Row::FrameTime {
            rows::target_line(p, frame, area, series.scale, self.input.target_fps);
        } else {
            let ty = rows::y_of(area, frame.budget.budget_ms, series.scale);
            let stroke = Stroke::new(1.0, theme::TARGET_LINE.gamma_multiply(0.6));
            p.line_segment([pos2(area.left(), ty), pos2(area.right(), ty)], stroke);
        }
        if generated {
            let font = FontId::proportional(10.0);
            let at = pos2(self.left, self.label_bottom + 3.0);
            let w = rows::key_entry(&self.labels, at, theme::WITHIN_BUDGET, "application", &font);
            let light = theme::generated(theme::WITHIN_BUDGET);
            rows::key_entry(&self.labels, at + vec2(w + 6.0, 0.0), light, "generated", &font);
        }
        // Dropped frames under whichever row draws display intervals.
        if (row == Row::FrameTime && displays(self.input)) || row == Row::Display {
            let marks = Rect::from_min_max(pos2(area.left(), area.bottom() - 5.0), area.max);
            rows::density_marks(p, frame, marks, cache.counts(&t.dropped), theme::DROPPED);
        }
    }

    fn stutters(&self, cache: &mut lod::ColumnCache) {
        let (p, area, frame) = (self.p, self.area, self.frame);
        let Some(a) = self.input.analyzed else { return };
        let covered = cache.covered(&a.marks.oscillating, &a.marks.oscillating_prefix);
        rows::density_shade(p, frame, area, covered, theme::OSCILLATING);
        // Stutters inside oscillating stretches may be false positives (metrics.md
        // §5): faint and short, under the others.
        let (clear, oscillating) = &a.marks.stutters_by_osc;
        let low = Rect::from_min_max(pos2(area.left(), area.center().y), area.max);
        rows::density_ticks(p, frame, low, cache.counts(oscillating), theme::STUTTER_IN_OSC);
        rows::density_ticks(p, frame, area, cache.counts(clear), theme::STUTTER);
    }

    fn health(&self, cache: &mut lod::ColumnCache) {
        let (p, area, frame) = (self.p, self.area, self.frame);
        let Some(a) = self.input.analyzed else { return };
        for (lane, (name, spikes)) in a.marks.spikes.iter().enumerate() {
            let top = area.top() + HEALTH_HEADER + LANE * lane as f32;
            let lane_rect = Rect::from_min_max(pos2(area.left(), top), pos2(area.right(), top + LANE - 2.0));
            rows::density_ticks(p, frame, lane_rect, cache.counts(spikes), theme::SPIKE);
            let clip = Rect::from_min_max(pos2(self.left, top - 1.0), pos2(area.left() - 2.0, top + LANE));
            draw_line(
                &self.labels.with_clip_rect(clip),
                name,
                pos2(self.left + 8.0, top - 1.0),
                LABEL_WIDTH - 20.0,
                10.0,
            );
        }
    }

    fn latency(&self, cache: &mut lod::ColumnCache) {
        let (p, area, frame) = (self.p, self.area, self.frame);
        let Some(stack) = latency_stack(self.input) else { return };
        let kind = if self.input.analyzed.is_some_and(|a| a.pcl.is_some()) { 4 } else { 3 };
        let typicals: Vec<Vec<f64>> = stack
            .segments
            .iter()
            .enumerate()
            .map(|(k, seg)| cache.typicals((kind + 4, k), &seg.median, &seg.values).to_vec())
            .collect();
        let refs: Vec<&[f64]> = typicals.iter().map(Vec::as_slice).collect();
        let totals = cache.stats((kind, 0), &stack.index, &stack.total, None);
        let scale = round_up(self.input.scales.map_or(stack.scale_ms, |s| s.latency_ms.max(stack.scale_ms)));
        rows::axis(p, &self.labels, area, (0.0, scale), "ms");
        rows::latency(p, frame, area, stack, totals, &refs, scale);
        // The colour key, in the label column.
        let font = FontId::proportional(10.0);
        for (k, seg) in stack.segments.iter().enumerate() {
            let at = pos2(self.left, self.label_bottom + 2.0 + 13.0 * k as f32);
            rows::key_entry(&self.labels, at, theme::STAGES[k % theme::STAGES.len()], seg.name, &font);
        }
    }

    fn telemetry(&self, cache: &mut lod::ColumnCache, i: usize) {
        let (p, area, frame) = (self.p, self.area, self.frame);
        let tt = &self.input.tracks.telemetry[i];
        let values = &self.input.trace.frames.columns[tt.column].values;
        let stats = cache.stats((5, i), &tt.index, values, None);
        rows::axis(p, &self.labels, area, tt.axis, tt.unit);
        rows::telemetry(p, frame, area, values, stats, tt.axis);
        let (lo, hi) = (rows::number_text(tt.min), rows::number_text(tt.max));
        let range = format!("{lo} – {hi}{}", unit_suffix(tt.unit));
        let at = pos2(self.left, self.label_bottom + 1.0);
        draw_line(&self.labels, &range, at, LABEL_WIDTH - 12.0 - AXIS_WIDTH, 10.0);
    }
}

/// " unit", or nothing.
fn unit_suffix(unit: &str) -> String {
    if unit.is_empty() { String::new() } else { format!(" {unit}") }
}

/// True for the rows with a vertical axis.
fn has_axis(row: Row) -> bool {
    matches!(row, Row::FrameTime | Row::Gpu | Row::Display | Row::Presents | Row::Latency | Row::Telemetry(_))
}

/// A row label: wrapped in `width`, at most two lines, cut with "…". Returns its bottom.
fn draw_label(p: &egui::Painter, text: &str, at: egui::Pos2, width: f32) -> f32 {
    let mut job =
        egui::text::LayoutJob::simple(text.to_owned(), FontId::proportional(12.0), theme::TEXT, width);
    job.wrap.max_rows = 2;
    let galley = p.layout_job(job);
    let bottom = at.y + galley.size().y;
    p.galley(at, galley, theme::TEXT);
    bottom
}

/// One line of small text, cut with "…" to `width`.
fn draw_line(p: &egui::Painter, text: &str, at: egui::Pos2, width: f32, size: f32) {
    let mut job =
        egui::text::LayoutJob::simple(text.to_owned(), FontId::proportional(size), theme::TEXT, width);
    job.wrap.max_rows = 1;
    job.wrap.break_anywhere = true;
    p.galley(at, p.layout_job(job), theme::TEXT);
}

fn overlays(p: &egui::Painter, input: &Input<'_>, frame: &rows::Frame<'_>, track: Rect) {
    let width = frame.width;
    if let Some(t) = input.trim {
        let x = |ms: f64| input.view.x_of(ms, track.left(), width).clamp(track.left(), track.right());
        let top = track.top() + RULER_HEIGHT;
        for (a, b, edge) in [(t.first_ms, t.from_ms, t.from_ms), (t.to_ms, t.last_ms, t.to_ms)] {
            if b > a {
                let (x0, x1) = (x(a), x(b));
                if x1 > x0 {
                    p.rect_filled(
                        Rect::from_min_max(pos2(x0, top), pos2(x1, track.bottom())),
                        0.0,
                        theme::TRIMMED,
                    );
                }
                let xe = input.view.x_of(edge, track.left(), width);
                if xe >= track.left() && xe <= track.right() {
                    p.line_segment(
                        [pos2(xe, top), pos2(xe, track.bottom())],
                        Stroke::new(2.0, theme::TRIM_EDGE),
                    );
                    // A grip in the ruler.
                    p.rect_filled(
                        Rect::from_center_size(
                            pos2(xe, track.top() + RULER_HEIGHT / 2.0),
                            vec2(6.0, RULER_HEIGHT - 6.0),
                        ),
                        2.0,
                        theme::TRIM_EDGE,
                    );
                }
            }
        }
    }
    if let Some((a, b)) = input.selection {
        let x0 = input.view.x_of(a.min(b), track.left(), width).max(track.left());
        let x1 = input.view.x_of(a.max(b), track.left(), width).min(track.right());
        if x1 > x0 {
            p.rect_filled(
                Rect::from_min_max(pos2(x0, track.top()), pos2(x1, track.bottom())),
                0.0,
                theme::SELECTION,
            );
        }
    }
    if let Some(t) = input.cursor_ms {
        let x = input.view.x_of(t, track.left(), width);
        if x >= track.left() && x <= track.right() {
            p.line_segment([pos2(x, track.top()), pos2(x, track.bottom())], Stroke::new(1.0, theme::CURSOR));
        }
    }
    if let Some(i) = input.selected_frame.filter(|&i| i < input.trace.len()) {
        let f = &input.trace.frames;
        let x0 = input.view.x_of(f.start_ms[i], track.left(), width);
        let x1 = input.view.x_of(f.start_ms[i] + f.span_ms(i), track.left(), width).max(x0 + 2.0);
        let r = Rect::from_min_max(pos2(x0, track.top() + RULER_HEIGHT), pos2(x1, track.bottom()));
        p.rect_stroke(r, 0.0, Stroke::new(1.5, theme::SELECTED_FRAME), egui::StrokeKind::Outside);
    }
}

/// The label drawn in the label column (short: the axis and the hover say the rest).
fn row_label(input: &Input<'_>, row: Row) -> String {
    let t = input.tracks;
    match row {
        Row::FrameTime => format!("Frame time\n{}", if displays(input) { "display" } else { "presents" }),
        Row::Gpu => t.gpu.as_ref().map_or_else(String::new, |(n, _, _)| format!("GPU\n{n}")),
        Row::Display => "Display\ndropped marked".to_owned(),
        Row::Presents => "Presents\nnot analysed".to_owned(),
        Row::Stutters if input.trace.is_sampled() => "Stutters: sampled log".to_owned(),
        Row::Stutters => {
            let osc = input.analyzed.and_then(|a| a.run.osc.as_ref()).is_some_and(|o| o.flag);
            if osc { "Stutters · OSC".to_owned() } else { "Stutters".to_owned() }
        }
        Row::Health => "Health: spikes".to_owned(),
        Row::Latency => {
            latency_stack(input).map_or_else(String::new, |s| s.label.lines().next().unwrap_or("").to_owned())
        }
        Row::Telemetry(i) => t.telemetry[i].name.clone(),
    }
}

/// A row's whole name, shown on hover over its label.
fn row_title(input: &Input<'_>, row: Row) -> String {
    match row {
        Row::FrameTime => {
            let source = if displays(input) { "display" } else { "presents" };
            format!("Frame time: {source} (target {:.2} ms)", 1000.0 / input.target_fps)
        }
        Row::Display => "Display intervals (dropped frames marked)".to_owned(),
        Row::Presents => "Presents (not analysed)".to_owned(),
        Row::Latency => latency_stack(input).map_or_else(String::new, |s| s.label.replace('\n', ": ")),
        Row::Telemetry(i) => {
            let tt = &input.tracks.telemetry[i];
            format!(
                "{}{}",
                tt.name,
                if tt.unit.is_empty() { String::new() } else { format!(" ({})", tt.unit) }
            )
        }
        _ => row_label(input, row).replace('\n', " "),
    }
}

/// What a row's marks and colours mean, after its title on hover.
fn row_hint(input: &Input<'_>, row: Row) -> String {
    let bars = "\nEach pixel column: the bar is its typical (median) frame, coloured by the share of its \
                time over the target (green: within the target frame time or 0.5 % over it; orange: over; \
                red: over twice); the faint whisker and its mark reach the column's slowest frame. \
                Zoomed in far enough, each frame is its own bar.";
    let mut text = match row {
        Row::FrameTime | Row::Gpu | Row::Display | Row::Presents => bars.to_owned(),
        Row::Stutters => "\nRed ticks: stutters (Nsight's rule), taller where more of a column's frames \
                          stutter. Shaded: oscillating stretches, darker where more frames oscillate; faint \
                          short ticks: stutters inside them, possibly false positives."
            .to_owned(),
        Row::Health => {
            "\nOne lane per per-frame action: a tick where it spiked (the stutter rule applied to \
                        that action), taller where it spiked on more of a column's frames."
                .to_owned()
        }
        Row::Latency => "\nThe stages of the column's typical frame, stacked (colours as in the key); the \
                         faint whisker reaches its slowest total."
            .to_owned(),
        Row::Telemetry(i) => {
            let tt = &input.tracks.telemetry[i];
            format!(
                "\nLine: the typical (median) value per pixel column; faint whisker: the highest. Axis \
                 {} to {}{}; values {} to {}.",
                rows::number_text(tt.axis.0),
                rows::number_text(tt.axis.1),
                unit_suffix(tt.unit),
                rows::number_text(tt.min),
                rows::number_text(tt.max),
            )
        }
    };
    match row {
        Row::FrameTime if input.tracks.generated => {
            text.push_str(
                "\nLighter bars: generated frames (frame generation); full colour: frames the game rendered.",
            );
        }
        Row::FrameTime if displays(input) => text.push_str("\nMagenta marks at the bottom: dropped frames."),
        Row::Display => text.push_str("\nMagenta marks at the bottom: dropped frames."),
        Row::Presents => text.push_str("\nPresent-to-present intervals; the figures use display intervals."),
        _ => {}
    }
    text
}

/// The latency stack the row shows: the PCL breakdown when a marker log is attached,
/// else the capture's own stages.
fn latency_stack<'a>(input: &Input<'a>) -> Option<&'a framescope_core::presentation::stages::Stack> {
    input.analyzed.and_then(|a| a.pcl.as_ref()).or(input.tracks.latency.as_ref())
}

/// "3.142 ms (318.3 FPS)", or "none".
fn interval_text(ms: f64) -> String {
    if ms.is_finite() && ms > 0.0 {
        format!("{ms:.3} ms ({:.1} FPS)", 1000.0 / ms)
    } else {
        "none".to_owned()
    }
}

/// A value with its unit.
fn value_text(v: f64, unit: &str) -> String {
    if v.is_finite() { format!("{}{}", rows::number_text(v), unit_suffix(unit)) } else { "—".to_owned() }
}

/// The hover of the track: the value of the row under the pointer (for the frame
/// there, and for the pixel column when it stands for several frames), then the frame.
fn hover_ui(
    ui: &mut egui::Ui,
    input: &Input<'_>,
    frame: &rows::Frame<'_>,
    row: Option<(Row, f32, f32)>,
    pointer_y: f32,
    c: usize,
    at: Option<usize>,
) {
    let range = frame.columns.get(c).cloned().unwrap_or(0..0);
    let n = range.len();
    let f = &input.trace.frames;
    let here = if f.is_sampled() { "samples" } else { "frames" };
    let mut scratch = Vec::new();
    match row.map(|r| r.0) {
        Some(r) if let Some(s) = series_of(input, r, frame.budget) => {
            if let Some(i) = at {
                let what = s.what;
                let mut first = what.chars();
                let title: String =
                    first.next().map(|c| c.to_ascii_uppercase()).into_iter().chain(first).collect();
                ui.label(format!("{title}: {}", interval_text(s.values[i])));
            }
            if n > 1 {
                let typical = s.index.median.typical(s.values, range.clone(), &mut scratch);
                let slowest = s.index.max.argmax(s.values, range.clone()).map_or(f64::NAN, |k| s.values[k]);
                ui.label(format!(
                    "This pixel column, {n} {here}: typical {typical:.2} ms, slowest {slowest:.2} ms"
                ));
                if let Some((over, far)) = s.shares.and_then(|sh| sh.share(s.values, range.clone())) {
                    ui.label(format!(
                        "{:.1} % of its time over the target, {:.1} % over twice the target",
                        100.0 * over,
                        100.0 * far
                    ));
                }
            }
        }
        Some(Row::Telemetry(k)) => {
            let tt: &TelemetryTrack = &input.tracks.telemetry[k];
            let values = &f.columns[tt.column].values;
            if let Some(i) = at {
                ui.label(format!("{}: {}", tt.name, value_text(values[i], tt.unit)));
            }
            if n > 1 {
                let typical = tt.index.median.typical(values, range.clone(), &mut scratch);
                let highest = tt.index.max.argmax(values, range.clone()).map_or(f64::NAN, |k| values[k]);
                ui.label(format!(
                    "This pixel column, {n} {here}: typical {}, highest {}",
                    value_text(typical, tt.unit),
                    value_text(highest, tt.unit)
                ));
            }
        }
        Some(Row::Latency) => {
            if let (Some(stack), Some(i)) = (latency_stack(input), at) {
                for seg in &stack.segments {
                    ui.label(format!("{}: {}", seg.name, value_text(seg.values[i], "ms")));
                }
                ui.label(format!("total: {}", value_text(stack.total[i], "ms")));
            }
        }
        Some(Row::Stutters) if n > 1 => {
            if let Some(a) = input.analyzed {
                let k = lod::counts(std::slice::from_ref(&range), &a.marks.stutters)[0];
                ui.label(format!("{k} stutters among the {n} {here} under this pixel column"));
            }
        }
        Some(Row::Health) => {
            if let (Some(a), Some((_, top, _))) = (input.analyzed, row) {
                let lane = ((pointer_y - top - 1.0 - HEALTH_HEADER) / LANE).floor();
                if lane >= 0.0
                    && let Some((name, spikes)) = a.marks.spikes.get(lane as usize)
                {
                    let k = lod::counts(std::slice::from_ref(&range), spikes)[0];
                    ui.label(format!("{name} spiked on {k} of the {n} {here} under this pixel column"));
                }
            }
        }
        _ => {}
    }
    if let Some(i) = at {
        ui.separator();
        frame_tooltip(ui, input, i);
    }
}

/// The frame (or sample) whose interval holds time `t`, if any.
#[must_use]
pub fn frame_at(trace: &Trace, t_ms: f64) -> Option<usize> {
    let f = &trace.frames;
    let i = f.start_ms.partition_point(|&s| s <= t_ms).checked_sub(1)?;
    (t_ms <= f.start_ms[i] + f.span_ms(i)).then_some(i)
}

fn frame_tooltip(ui: &mut egui::Ui, input: &Input<'_>, i: usize) {
    let f = &input.trace.frames;
    let ft = f.frame_time_ms[i];
    if f.is_sampled() {
        ui.label(format!("Sample {i}  ·  line {}", f.line[i]));
        ui.label(format!("{:.3} s from {:.3} s", f.span_ms(i) / 1000.0, f.start_ms[i] / 1000.0));
        ui.label(format!("average {:.1} FPS (frame time {ft:.3} ms)", 1000.0 / ft));
        return;
    }
    ui.label(format!("Frame {i}  ·  line {}", f.line[i]));
    ui.label(format!("starts at {:.3} s", f.start_ms[i] / 1000.0));
    if let Some(t) = f.frame_type.get(i).filter(|t| t.is_generated()) {
        ui.label(format!("generated frame ({})", t.name()));
    }
    let interval = |ms: f64| format!("{ms:.3} ms ({:.1} FPS)", 1000.0 / ms);
    let d = f.display_ms[i];
    let (present, display) = (
        if ft > 0.0 { interval(ft) } else { "none".to_owned() },
        if d.is_finite() && d > 0.0 { interval(d) } else { "none".to_owned() },
    );
    if displays(input) {
        ui.label(format!("display interval {display}"));
        ui.label(format!("present interval {present}"));
    } else {
        ui.label(format!("frame time {present}"));
        if d.is_finite() {
            ui.label(format!("display {display}"));
        }
    }
    if f.dropped[i] {
        ui.label("dropped (never displayed)");
    }
    if let Some(a) = input.analyzed {
        let idx = i as u32;
        if a.marks.stutters.binary_search(&idx).is_ok() {
            ui.colored_label(theme::STUTTER, "stutter");
        }
        let spiked: Vec<&str> = a
            .marks
            .spikes
            .iter()
            .filter(|(_, s)| s.binary_search(&idx).is_ok())
            .map(|(n, _)| n.as_str())
            .collect();
        if !spiked.is_empty() {
            ui.label(format!("spiked: {}", spiked.join(", ")));
        }
    }
}

/// Wheel zooms around the cursor, drag pans, shift-drag (or a drag on the ruler)
/// selects, double-click resets; keys when the pointer is over the timeline.
fn interact(ui: &egui::Ui, response: &egui::Response, input: &Input<'_>, track: Rect) -> Vec<Command> {
    let mut out = Vec::new();
    let width = track.width().max(1.0);
    let mut view = input.view;
    let id = response.id.with("selection_origin");
    let edge_id = response.id.with("trim_edge");
    // A trim edge under the pointer (within 5 px): (is the start edge).
    let edge_at = |x: f32| -> Option<bool> {
        let t = input.trim?;
        let d = |ms: f64| (input.view.x_of(ms, track.left(), width) - x).abs();
        let (ds, de) = (d(t.from_ms), d(t.to_ms));
        (ds.min(de) <= 5.0).then_some(ds <= de)
    };
    if let Some(pos) = response.hover_pos()
        && edge_at(pos.x).is_some()
    {
        ui.ctx().set_cursor_icon(egui::CursorIcon::ResizeHorizontal);
    }
    if response.hovered() {
        let (scroll, zoom, shift) = ui.input(|i| (i.smooth_scroll_delta, i.zoom_delta(), i.modifiers.shift));
        if let Some(pos) = response.hover_pos() {
            let t = view.time_at(pos.x, track.left(), width);
            let wheel = if shift { 0.0 } else { f64::from(scroll.y) };
            let factor = (-wheel * 0.003).exp() / f64::from(zoom);
            if (factor - 1.0).abs() > 1e-6 {
                view.zoom(factor, t);
            }
            let pan_px = if shift { scroll.y + scroll.x } else { scroll.x };
            view.pan(-f64::from(pan_px) * view.ms_per_px(width));
        }
        out.extend(keys(ui, &mut view, width));
    }
    // The drag starts where the button went down, not where egui decided it was a drag.
    if response.drag_started()
        && let Some(pos) = ui.input(|i| i.pointer.press_origin()).or_else(|| response.interact_pointer_pos())
    {
        let edge = edge_at(pos.x).filter(|_| !ui.input(|i| i.modifiers.shift));
        ui.data_mut(|d| d.insert_temp(edge_id, edge));
        let selecting = ui.input(|i| i.modifiers.shift) || pos.y < track.top() + RULER_HEIGHT;
        let origin = (selecting && edge.is_none()).then(|| view.time_at(pos.x, track.left(), width));
        ui.data_mut(|d| d.insert_temp(id, origin));
    }
    let dragged_edge: Option<bool> = ui.data(|d| d.get_temp(edge_id)).flatten();
    if response.dragged()
        && let (Some(start), Some(pos)) = (dragged_edge, response.interact_pointer_pos())
    {
        ui.ctx().set_cursor_icon(egui::CursorIcon::ResizeHorizontal);
        out.push(Command::Trim { start, at_ms: view.time_at(pos.x, track.left(), width) });
    } else if response.dragged() {
        let origin: Option<f64> = ui.data(|d| d.get_temp(id)).flatten();
        match (origin, response.interact_pointer_pos()) {
            (Some(a), Some(pos)) => {
                out.push(Command::Select(Some((a, view.time_at(pos.x, track.left(), width)))));
            }
            _ => view.pan(-f64::from(response.drag_delta().x) * view.ms_per_px(width)),
        }
    }
    if response.double_clicked() {
        out.push(Command::ResetView);
    } else if view != input.view {
        out.push(Command::View(view));
    }
    out
}

fn keys(ui: &egui::Ui, view: &mut TimeView, width: f32) -> Vec<Command> {
    let mut out = Vec::new();
    let centre = view.start_ms + view.span_ms / 2.0;
    ui.input(|i| {
        if i.key_pressed(Key::ArrowLeft) {
            view.pan(-view.span_ms * 0.2);
        }
        if i.key_pressed(Key::ArrowRight) {
            view.pan(view.span_ms * 0.2);
        }
        if i.key_pressed(Key::Plus) || i.key_pressed(Key::Equals) || i.key_pressed(Key::ArrowUp) {
            view.zoom(0.5, centre);
        }
        if i.key_pressed(Key::Minus) || i.key_pressed(Key::ArrowDown) {
            view.zoom(2.0, centre);
        }
        if i.key_pressed(Key::Home) || i.key_pressed(Key::Num0) {
            out.push(Command::ResetView);
        }
        if i.key_pressed(Key::Z) {
            out.push(Command::ZoomToSelection);
        }
        if i.key_pressed(Key::Escape) {
            out.push(Command::Select(None));
            out.push(Command::SelectFrame(None));
        }
        if i.key_pressed(Key::F1) || i.key_pressed(Key::H) {
            out.push(Command::ToggleHelp);
        }
    });
    let _ = width;
    out
}

/// The keyboard and mouse help, as (keys, action) rows (key names in words: the
/// default font has no arrow glyphs).
pub const HELP: [(&str, &str); 12] = [
    ("Mouse wheel", "zoom around the cursor"),
    ("Drag", "pan"),
    ("Shift + drag, or drag on the ruler", "select a time range"),
    ("Click a frame", "frame details"),
    ("Double-click, Home or 0", "show the whole trace"),
    ("Z", "zoom to the selection"),
    ("Left / Right arrow", "pan"),
    ("Shift + wheel", "pan"),
    ("+ / - or Up / Down arrow", "zoom in / out"),
    ("Esc", "clear the selection and the selected frame"),
    ("H or F1", "this help"),
    ("Hover a row's name", "what its colours and marks mean (also the legend above)"),
];
