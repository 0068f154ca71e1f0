//! What the session keeps of the timelines' state, egui-free: the visible time range
//! ([`TimeView`]: two numbers, start and span, in f64 milliseconds; zoom keeps the time
//! under the cursor fixed, every change goes through its methods) and what a timeline
//! asks of the session ([`TimelineCommand`]). The timeline widget draws these and
//! imports them from here; the session never names the widget.

use crate::app::row_choice::{RowAction, RowKey};

/// The smallest span the view zooms in to (10 µs).
const MIN_SPAN_MS: f64 = 0.01;

/// What part of the time axis is visible.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeView {
    /// Time at the left edge, ms.
    pub start_ms: f64,
    /// Visible span, ms.
    pub span_ms: f64,
}

impl Default for TimeView {
    fn default() -> Self {
        Self { start_ms: 0.0, span_ms: 1000.0 }
    }
}

impl TimeView {
    /// The view that shows `[start, end]` whole.
    #[must_use]
    pub fn fit(start_ms: f64, end_ms: f64) -> Self {
        let span = (end_ms - start_ms).clamp(MIN_SPAN_MS, 1e12);
        let start_ms = if start_ms.is_finite() { start_ms } else { 0.0 };
        Self { start_ms: start_ms - span * 0.01, span_ms: span * 1.02 }
    }

    /// Time at horizontal position `x` of a track `[left, left + width]`.
    #[must_use]
    pub fn time_at(&self, x: f32, left: f32, width: f32) -> f64 {
        self.start_ms + f64::from(x - left) / f64::from(width.max(1.0)) * self.span_ms
    }

    /// Horizontal position of time `t` on a track `[left, left + width]`.
    #[must_use]
    pub fn x_of(&self, t_ms: f64, left: f32, width: f32) -> f32 {
        left + ((t_ms - self.start_ms) / self.span_ms * f64::from(width)) as f32
    }

    /// Milliseconds per pixel on a track of `width`.
    #[must_use]
    pub fn ms_per_px(&self, width: f32) -> f64 {
        self.span_ms / f64::from(width.max(1.0))
    }

    /// Zooms by `factor` (< 1 zooms in) keeping `around_ms` where it is.
    pub fn zoom(&mut self, factor: f64, around_ms: f64) {
        let factor = if factor.is_finite() && factor > 0.0 { factor } else { 1.0 };
        let span = (self.span_ms * factor).clamp(MIN_SPAN_MS, 1e12);
        let frac = (around_ms - self.start_ms) / self.span_ms;
        self.start_ms = around_ms - frac * span;
        self.span_ms = span;
    }

    /// Moves the view by `delta_ms`.
    pub fn pan(&mut self, delta_ms: f64) {
        if delta_ms.is_finite() {
            self.start_ms += delta_ms;
        }
    }

    /// The view that shows a moment at `at_ms` (a frame's start, an event): centred on
    /// it, keeping the zoom `span_ms` when it shows less than 2 s, else 2 s around it.
    #[must_use]
    pub fn around(at_ms: f64, span_ms: f64) -> Self {
        let span = if span_ms > 0.0 && span_ms < 2000.0 { span_ms } else { 2000.0 };
        Self { start_ms: at_ms - span / 2.0, span_ms: span }
    }
}

/// What a run's timeline asks for (in that run's own time; the session turns it into
/// aligned time, [`AppCommand::Timeline`](super::AppCommand::Timeline)).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimelineCommand {
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
    /// Show or hide the keyboard help (the shell's, not the session's).
    ToggleHelp,
    /// The pointer is over the timeline at this time (ms), for the linked cursor.
    Cursor(f64),
    /// Show, hide or move a telemetry row (its index in the tracks' telemetry): from
    /// the right-click menu on a row.
    Row {
        /// The telemetry track.
        track: usize,
        /// What to do.
        action: RowAction,
    },
    /// A row's bottom edge was dragged to give it this height (points), or
    /// double-clicked to give it back the shared height (`None`).
    RowHeight {
        /// The row.
        row: RowKey,
        /// Its height.
        height: Option<f32>,
    },
    /// A trim edge was dragged to this time (ms): the start trim's edge when `start`,
    /// else the end trim's.
    Trim {
        /// Which edge.
        start: bool,
        /// Where it is now.
        at_ms: f64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zoom_keeps_the_point_under_the_cursor() {
        let mut v = TimeView { start_ms: 0.0, span_ms: 1000.0 };
        let before = v.x_of(250.0, 0.0, 500.0);
        v.zoom(0.5, 250.0);
        assert!((v.x_of(250.0, 0.0, 500.0) - before).abs() < 1e-3);
        assert!((v.span_ms - 500.0).abs() < 1e-9);
        v.zoom(1e-9, 250.0);
        assert!(v.span_ms >= MIN_SPAN_MS);
        assert!((v.time_at(125.0, 0.0, 500.0) - (v.start_ms + v.span_ms / 4.0)).abs() < 1e-9);
    }

    #[test]
    fn the_view_around_a_moment_keeps_a_close_zoom() {
        assert_eq!(TimeView::around(5000.0, 500.0), TimeView { start_ms: 4750.0, span_ms: 500.0 });
        assert_eq!(TimeView::around(5000.0, 60_000.0), TimeView { start_ms: 4000.0, span_ms: 2000.0 });
    }
}
