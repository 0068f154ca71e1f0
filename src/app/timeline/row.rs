//! The rows of a timeline behind one trait ([`TimelineRow`]): each kind of row lives in
//! its own file (`frame_row.rs`, `gpu_row.rs`, …) and says what it is called, what its
//! colours mean, how tall it is, what it draws ([`TimelineRow::prepare`]: pure, from
//! the data and the cached per-column values to a [`DrawList`]), how that is painted,
//! and what the hover says. [`rows_of`] lists them top to bottom: adding a kind of row
//! is one file and one line there.

use super::super::work::{Analyzed, Tracks};
use super::draw::{self, DrawList};
use super::{Input, text};
use eframe::egui::{Painter, Rect};
use framescope_core::analysis::FrameTimeSource;
use framescope_core::lod::{Budget, ColumnCache};
use framescope_core::model::Trace;
use framescope_core::presentation::Stack;
use std::ops::Range;

/// What every row of one timeline reads to describe and prepare itself: the input
/// and the target's budget. No egui type.
pub struct RowContext<'a> {
    /// What the timeline draws.
    pub input: &'a Input<'a>,
    /// The target frame time and the colours' limits.
    pub budget: Budget,
}

impl<'a> RowContext<'a> {
    /// The context of `input`.
    #[must_use]
    pub fn new(input: &'a Input<'a>) -> Self {
        Self { input, budget: Budget::of_fps(input.target_fps) }
    }

    /// The trace.
    #[must_use]
    pub fn trace(&self) -> &'a Trace {
        self.input.trace
    }

    /// Its LOD data.
    #[must_use]
    pub fn tracks(&self) -> &'a Tracks {
        self.input.tracks
    }

    /// The figures, when ready.
    #[must_use]
    pub fn analyzed(&self) -> Option<&'a Analyzed> {
        self.input.analyzed
    }

    /// True when the frame row draws display intervals.
    #[must_use]
    pub fn displays(&self) -> bool {
        self.input.source == FrameTimeSource::Display && self.input.tracks.display.is_some()
    }

    /// "frames", or "samples" for a sampled log.
    #[must_use]
    pub fn units(&self) -> &'static str {
        if self.input.trace.frames.is_sampled() { "samples" } else { "frames" }
    }

    /// The frame rows' scales (present and display intervals): the shared ones while
    /// comparing, else the run's own, tall enough that the target line stays in view.
    #[must_use]
    pub fn scales(&self) -> (f64, f64) {
        let t = self.input.tracks;
        let (p, d) =
            self.input.scales.map_or((t.scale_ms, t.display_scale_ms), |s| (s.presents_ms, s.display_ms));
        let least = self.budget.budget_ms * 1.5;
        (text::round_up(p.max(least)), text::round_up(d.max(least)))
    }

    /// The latency stack the latency row shows: the PCL breakdown when a marker log is
    /// attached, else the capture's own stages.
    #[must_use]
    pub fn latency_stack(&self) -> Option<&'a Stack> {
        self.input.analyzed.and_then(|a| a.pcl.as_ref()).or(self.input.tracks.latency.as_ref())
    }
}

/// Where the pointer is over a row, for its hover.
pub struct HoverAt {
    /// The frame (or sample) under the pointer, if any.
    pub frame: Option<usize>,
    /// The frames under the pointer's pixel column.
    pub column: Range<usize>,
    /// The pointer's height below the row's top, points.
    pub y: f32,
}

/// Where a row paints: the data painter (clipped to the track), its label cell's
/// painter, the row's data area, where labels start and where its label ended.
pub struct RowPainter<'a> {
    /// Draws in the track and the label cell, and where column 0 is.
    pub target: draw::Target<'a>,
    /// Where labels start.
    pub left: f32,
    /// The bottom of the row's label.
    pub label_bottom: f32,
}

impl RowPainter<'_> {
    /// The row's data area.
    #[must_use]
    pub fn area(&self) -> Rect {
        self.target.area
    }

    /// Draws in the row's label cell.
    #[must_use]
    pub fn labels(&self) -> &Painter {
        self.target.labels
    }
}

/// One kind of timeline row.
pub trait TimelineRow {
    /// Its height, points (before the rows share the panel's height).
    fn height(&self) -> f32;

    /// Which row it is, for the height the user gives it by dragging its edge.
    fn key(&self) -> crate::app::row_choice::RowKey;

    /// The label in the label column: short (the axis and the hover say the rest), at
    /// most two lines.
    fn label(&self, ctx: &RowContext<'_>) -> String;

    /// Its whole name, shown on hover over the label.
    fn title(&self, ctx: &RowContext<'_>) -> String {
        self.label(ctx).replace('\n', " ")
    }

    /// What its marks and colours mean, after its title on hover (starts with a line
    /// break).
    fn hint(&self, ctx: &RowContext<'_>) -> String;

    /// What it draws over the cache's pixel columns (`cache.columns`): plain data,
    /// from the cached per-column values (computed for the columns that came into
    /// view only).
    fn prepare(&self, ctx: &RowContext<'_>, cache: &mut ColumnCache) -> DrawList;

    /// Draws a prepared list; rows that write in their label cell (keys, lanes, ranges)
    /// add that.
    fn paint(&self, _ctx: &RowContext<'_>, p: &RowPainter<'_>, list: &DrawList) {
        draw::paint(&p.target, list);
    }

    /// The lines the hover shows over the row (before the frame's own).
    fn hover(&self, ctx: &RowContext<'_>, at: &HoverAt) -> Vec<String>;

    /// The telemetry track it draws (its index in the tracks' telemetry), for the
    /// right-click menu that hides and moves it.
    fn telemetry_index(&self) -> Option<usize> {
        None
    }

    /// True for the frame-duration rows (VSYNC lines cross them).
    fn is_duration(&self) -> bool {
        false
    }

    /// True when the row's hover is about the frame under the pointer only: none
    /// between frames.
    fn hover_needs_frame(&self) -> bool {
        false
    }
}

/// The rows of one timeline, top to bottom.
pub type Rows<'a> = Vec<Box<dyn TimelineRow + 'a>>;

/// Every row the timeline shows for `ctx`: one line per kind of row, each adding none,
/// one or several.
#[must_use]
pub fn rows_of<'a>(ctx: &RowContext<'a>) -> Rows<'a> {
    let mut rows: Rows<'a> = Vec::new();
    super::frame_row::add(ctx, &mut rows);
    super::gpu_row::add(ctx, &mut rows);
    super::cpu_gpu_row::add(ctx, &mut rows);
    super::display_row::add(ctx, &mut rows);
    super::stutter_row::add(ctx, &mut rows);
    super::health_row::add(ctx, &mut rows);
    super::latency_row::add(ctx, &mut rows);
    super::animation_row::add(ctx, &mut rows);
    super::pc_latency_row::add(ctx, &mut rows);
    super::telemetry_row::add(ctx, &mut rows);
    rows
}
