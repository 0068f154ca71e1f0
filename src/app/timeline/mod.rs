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
//! Each kind of row is a `row::TimelineRow` in its own file (`frame_row.rs`,
//! `gpu_row.rs`, `display_row.rs`, `stutter_row.rs`, `health_row.rs`,
//! `latency_row.rs`, `telemetry_row.rs`), listed in `row::rows_of`: it prepares a
//! `draw::DrawList` (plain data, from the per-column values of the column cache,
//! `cache.rs`) and paints it. This file lays the rows out under the ruler; `hover.rs`
//! and `input.rs` answer the pointer and the keys, `overlays.rs` and `events.rs` draw
//! over the rows.
//!
//! The timeline only reads; user actions come back as [`Command`]s (the session's
//! [`TimelineCommand`](crate::app::session::TimelineCommand)) that the app applies in
//! one place.

mod animation_row;
mod cache;
mod cpu_gpu_row;
mod display_row;
mod draw;
mod duration;
pub mod events;
mod frame_row;
mod gpu_row;
mod health_row;
mod hover;
mod input;
mod latency_row;
mod shade;
pub use framescope_core::lod;
mod overlays;
mod pc_latency_row;
mod resize;
mod row;
mod rows_menu;
mod stutter_row;
mod telemetry_row;
mod text;

use super::theme;
use super::work::{Analyzed, Tracks};
/// What the timeline asks for, and the visible time range: the session's types (it
/// keeps the view and applies the commands); the timeline only draws them.
pub use crate::app::session::{TimeView, TimelineCommand as Command};
pub use cache::RunId;
use eframe::egui::{self, FontId, Painter, Rect, Sense, Stroke, pos2, vec2};
use framescope_core::analysis::FrameTimeSource;
use framescope_core::lod::ColumnCache;
use framescope_core::model::Trace;
pub use input::HELP;
use row::{HoverAt, RowContext, RowPainter, Rows};
pub use text::{fps_text, round_up};

/// Width of the label column on the left (row names, and the vertical axes' values
/// against its right edge).
pub const LABEL_WIDTH: f32 = 170.0;
/// The part of the label column the axes' values take.
const AXIS_WIDTH: f32 = 44.0;
const RULER_HEIGHT: f32 = 22.0;
/// The least a row's own height is squeezed to share a short panel (a telemetry row
/// keeps its name and top value; a user's row height is kept as it is).
pub const MIN_HEIGHT_SCALE: f32 = 0.5;

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
    /// The run drawn (the column cache is kept per run, trace and generation).
    pub run: RunId,
    /// The trace drawn: its index among the run's traces.
    pub trace_index: usize,
    /// The generation of the run's analysis drawn: changes whenever its figures and
    /// marks change (a new analysis taken in).
    pub generation: u64,
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
    /// The telemetry rows shown, top to bottom: indices into `tracks.telemetry` (the
    /// user's choice for the capture's format, `row_choice`).
    pub telemetry_rows: &'a [usize],
    /// Vertical scales shared by compared runs; `None`: the run's own.
    pub scales: Option<Scales>,
    /// The trim, shaded and draggable.
    pub trim: Option<TrimEdges>,
    /// Every row's height times this (at least [`MIN_HEIGHT_SCALE`]): the rows share the
    /// height the window has for them instead of leaving it empty or running below it.
    pub height_scale: f32,
    /// The rows the user resized, with their heights (points; not stretched).
    pub row_heights: &'a [(crate::app::row_choice::RowKey, f32)],
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

/// Where the track is and what it shows: what maps times and pixel columns to x.
#[derive(Debug, Clone, Copy)]
pub struct Track {
    /// The visible time range.
    pub view: TimeView,
    /// Where pixel column 0 starts: the track's left edge, or up to a pixel left of it
    /// (the columns sit on a grid of the view's time per pixel).
    pub column_left: f32,
    /// The track's left edge (where the view's start is).
    pub left: f32,
    /// The track's width.
    pub width: f32,
}

impl Track {
    /// The x of time `t_ms`.
    #[must_use]
    pub fn x(&self, t_ms: f64) -> f32 {
        self.view.x_of(t_ms, self.left, self.width)
    }
}

/// Total height the timeline wants.
#[must_use]
pub fn desired_height(input: &Input<'_>) -> f32 {
    RULER_HEIGHT + resize::heights(&row::rows_of(&RowContext::new(input)), input).iter().sum::<f32>()
}

/// How much the rows the user did not resize are stretched or squeezed (`least` to
/// `most`) so that the timeline fills `room` points; rows that keep their keys in the
/// label column are not squeezed (`resize::squeezes`).
#[must_use]
pub fn fill_scale(input: &Input<'_>, room: f32, (least, most): (f32, f32)) -> f32 {
    let rows = row::rows_of(&RowContext::new(input));
    let resized =
        |r: &dyn row::TimelineRow| input.row_heights.iter().find(|(k, _)| *k == r.key()).map(|(_, h)| *h);
    let scale = |keep: &dyn Fn(&dyn row::TimelineRow) -> bool| {
        let fixed: f32 = rows
            .iter()
            .filter_map(|r| resized(r.as_ref()).or_else(|| keep(r.as_ref()).then(|| r.height())))
            .sum();
        let shared: f32 = rows
            .iter()
            .filter(|r| resized(r.as_ref()).is_none() && !keep(r.as_ref()))
            .map(|r| r.height())
            .sum();
        (room - RULER_HEIGHT - fixed) / shared.max(1.0)
    };
    let s = scale(&|_| false);
    let s = if s < 1.0 { scale(&|r| !resize::squeezes(r)).min(1.0) } else { s };
    s.clamp(least.max(MIN_HEIGHT_SCALE), most.max(least))
}

/// Draws the timeline in the available width and returns the user's commands.
pub fn timeline_ui(ui: &mut egui::Ui, input: &Input<'_>) -> Vec<Command> {
    let ctx = RowContext::new(input);
    let rows = row::rows_of(&ctx);
    let heights = resize::heights(&rows, input);
    let size = vec2(ui.available_width(), RULER_HEIGHT + heights.iter().sum::<f32>());
    let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Timeline"));
    let track_rect = Rect::from_min_max(pos2(rect.left() + LABEL_WIDTH, rect.top()), rect.max);
    let width = track_rect.width().max(1.0);
    let shared = cache::shared(ui, response.id);
    let mut cache = shared.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let column_left =
        track_rect.left() + cache::start_frame(&mut cache, input, width, std::time::Instant::now());
    let track = Track { view: input.view, column_left, left: track_rect.left(), width };
    if ui.is_rect_visible(rect) {
        paint(&ui.painter_at(rect), &ctx, (&rows, &heights), &mut cache, &track, rect);
    }
    if !cache.settled() {
        // Values carried over from the previous zoom: refine them on the next frame.
        ui.ctx().request_repaint();
    }
    // The frames under the pointer's pixel column, for the hover.
    let column = response.hover_pos().map_or(0..0, |pos| {
        let c = ((pos.x - column_left).floor().max(0.0) as usize).min(cache.columns.len().saturating_sub(1));
        cache::column(&cache, input, width, c)
    });
    drop(cache);
    let mut commands = input::interact(ui, &response, input, track_rect);
    commands.extend(resize::edges(ui, &response, &ctx, (&rows, &heights), rect));
    // The row under height `y`, and its top.
    let row_at = |y: f32| {
        let mut top = rect.top() + RULER_HEIGHT;
        for (k, &h) in heights.iter().enumerate() {
            if y >= top && y < top + h {
                return Some((k, top));
            }
            top += h;
        }
        None
    };
    commands.extend(rows_menu::context_menu(ui, &response, input, |y| {
        row_at(y).map(|(k, _)| (rows[k].title(&ctx), rows[k].telemetry_index()))
    }));
    if let Some(pos) = response.hover_pos().filter(|p| p.x < track_rect.left())
        && let Some((k, _)) = row_at(pos.y)
    {
        hover::label(&response, &ctx, rows[k].as_ref());
    }
    if let Some(pos) = response.hover_pos().filter(|p| track_rect.contains(*p)) {
        let t = input.view.time_at(pos.x, track_rect.left(), width);
        commands.push(Command::Cursor(t));
        let hit = row_at(pos.y);
        let at =
            HoverAt { frame: frame_at(input.trace, t), column, y: hit.map_or(0.0, |(_, top)| pos.y - top) };
        hover::track(&response, &ctx, hit.map(|(k, _)| rows[k].as_ref()), &at);
        if let Some(i) = at.frame
            && response.clicked()
        {
            commands.push(Command::SelectFrame(Some(i)));
        }
    }
    commands
}

/// Paints the ruler, every row (its band, label, and what it prepared) and what is
/// drawn over them.
fn paint(
    p: &Painter,
    ctx: &RowContext<'_>,
    (rows, heights): (&Rows<'_>, &[f32]),
    cache: &mut ColumnCache,
    track: &Track,
    rect: Rect,
) {
    let track_rect = Rect::from_min_max(pos2(track.left, rect.top()), rect.max);
    let ruler_rect =
        Rect::from_min_max(pos2(track.left, rect.top()), pos2(rect.right(), rect.top() + RULER_HEIGHT));
    ruler(p, track, ruler_rect);
    // Columns start up to a pixel left of the track: data never spills on the labels.
    let data = p.with_clip_rect(track_rect.intersect(p.clip_rect()));
    let mut y = rect.top() + RULER_HEIGHT;
    let frames_top = y;
    let mut frames_bottom = y;
    for (k, (row, &h)) in rows.iter().zip(heights).enumerate() {
        let band = Rect::from_min_max(pos2(rect.left(), y), pos2(rect.right(), y + h));
        p.rect_filled(band, 0.0, theme::ROW_BACKGROUND[k % 2]);
        let list = row.prepare(ctx, cache);
        // Labels stay inside the label column: at most two lines, cut with "…" (the
        // whole label shows on hover), clear of the axis values on the right.
        let labels =
            p.with_clip_rect(Rect::from_min_max(pos2(rect.left(), y), pos2(track.left - 1.0, y + h)));
        let axis_room = if list.axis.is_some() { AXIS_WIDTH } else { 0.0 };
        let left = rect.left() + 6.0;
        let label_bottom = text::draw_label(
            &labels,
            &row.label(ctx),
            pos2(left, y + 3.0),
            LABEL_WIDTH - 10.0 - axis_room,
            h - 3.0,
        );
        let area = Rect::from_min_max(pos2(track.left, y + 1.0), pos2(track_rect.right(), y + h - 1.0));
        let target = draw::Target { data: &data, labels: &labels, area, column_left: track.column_left };
        row.paint(ctx, &RowPainter { target, left, label_bottom }, &list);
        if row.is_duration() {
            frames_bottom = y + h;
        }
        y += h;
    }
    let frame_rows =
        Rect::from_min_max(pos2(track.left, frames_top), pos2(track_rect.right(), frames_bottom));
    overlays::vsync(p, ctx.analyzed(), track, frame_rows);
    let all_rows = Rect::from_min_max(pos2(track.left, frames_top), pos2(track_rect.right(), y));
    events::paint(&data, &ctx.trace().frames.events, track, all_rows);
    overlays::paint(p, ctx.input, track, track_rect);
}

/// The time ruler: ticks at 1/2/5 steps with labels; a label that would run past the
/// right edge ends at its tick instead, or is left out when that overlaps the one before.
fn ruler(p: &Painter, track: &Track, rect: Rect) {
    let (view, target_px) = (track.view, 110.0);
    let step = ruler_step(view.ms_per_px(track.width) * target_px);
    let mut t = (view.start_ms / step).ceil() * step;
    let end = view.start_ms + view.span_ms;
    // Bounded: far from zero, `t + step` can round back to `t` (absurd timestamps).
    let mut ticks = 0;
    let mut previous_end = f32::NEG_INFINITY;
    while t <= end && ticks < 200 && t + step > t {
        ticks += 1;
        let x = track.x(t);
        p.line_segment([pos2(x, rect.bottom() - 6.0), pos2(x, rect.bottom())], Stroke::new(1.0, theme::GRID));
        let galley = p.layout_no_wrap(time_label(t, step), FontId::monospace(11.0), theme::TEXT);
        let w = galley.size().x;
        let left = if x + 3.0 + w <= rect.right() { x + 3.0 } else { x - 3.0 - w };
        if left > previous_end + 4.0 {
            p.galley(pos2(left, rect.top() + 2.0), galley, theme::TEXT);
            previous_end = left + w;
        }
        t += step;
    }
}

/// Clock steps (ms) of a ruler whose ticks are 30 s or more apart: whole minutes and
/// hours, as a clock reads.
const CLOCK_STEPS: [f64; 9] = [30e3, 60e3, 120e3, 300e3, 600e3, 900e3, 1800e3, 3600e3, 7200e3];

/// The ruler's tick step for ticks at least `raw` ms apart: 1/2/5 steps, clock steps
/// from 30 s on.
#[must_use]
pub fn ruler_step(raw: f64) -> f64 {
    if raw > 20e3
        && let Some(&s) = CLOCK_STEPS.iter().find(|s| **s >= raw)
    {
        return s;
    }
    let magnitude = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * magnitude).find(|s| *s >= raw).unwrap_or(raw)
}

/// A time label with as many decimals as the tick step needs; from 30 s steps on, a
/// clock: `m:ss`, or `h:mm:ss` from an hour (a 2.3 h capture reads 2:10:00, not
/// 7800 s).
#[must_use]
pub fn time_label(t_ms: f64, step_ms: f64) -> String {
    // A tick at zero may come out as -0.0 from the arithmetic.
    let t_ms = if t_ms.abs() < step_ms * 1e-6 { 0.0 } else { t_ms };
    if step_ms >= 30e3 {
        let s = (t_ms / 1000.0).round();
        let (sign, s) = (if s < 0.0 { "-" } else { "" }, s.abs() as u64);
        let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
        if h > 0 { format!("{sign}{h}:{m:02}:{s:02}") } else { format!("{sign}{m}:{s:02}") }
    } else if step_ms >= 1000.0 {
        format!("{:.0} s", t_ms / 1000.0)
    } else if step_ms >= 1.0 {
        let decimals = if step_ms >= 100.0 {
            1
        } else if step_ms >= 10.0 {
            2
        } else {
            3
        };
        format!("{:.*} s", decimals, t_ms / 1000.0)
    } else {
        format!("{t_ms:.3} ms")
    }
}

/// The frame (or sample) whose interval holds time `t`, if any.
#[must_use]
pub fn frame_at(trace: &Trace, t_ms: f64) -> Option<usize> {
    let f = &trace.frames;
    let i = f.start_ms.partition_point(|&s| s <= t_ms).checked_sub(1)?;
    (t_ms <= f.start_ms[i] + f.span_ms(i)).then_some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_step() {
        assert_eq!(time_label(12_000.0, 5000.0), "12 s");
        assert_eq!(time_label(1500.0, 500.0), "1.5 s");
        assert_eq!(time_label(1520.0, 20.0), "1.52 s");
        assert_eq!(time_label(1.25, 0.5), "1.250 ms");
        assert_eq!(time_label(-1e-9, 5000.0), "0 s");
        // Clock labels from 30 s steps: 2.3 h is 2:18:00.
        assert_eq!(time_label(8_280_000.0, 1_800_000.0), "2:18:00");
        assert_eq!(time_label(90_000.0, 30_000.0), "1:30");
        assert_eq!(time_label(0.0, 60_000.0), "0:00");
        let steps = [ruler_step(110.0 * 8_280_000.0 / 1000.0), ruler_step(15_000.0), ruler_step(25_000.0)];
        // 2.3 h on 1000 px: half hours; below 20 s the 1/2/5 steps.
        assert_eq!(steps.map(|s| s as u64), [1_800_000, 20_000, 30_000]);
    }
}
