//! Runs that grow: a live capture (`--follow`, `-`, the watched folder) hands its run
//! the capture so far again and again ([`AppCommand::Grew`](super::AppCommand)); the run
//! stays the same (id, label, trace, trim, comparison) and its work is redone for the
//! new capture. With *Follow live* on, a shown run that grows keeps its newest frames
//! in view: a view that showed the whole run is fitted again, a zoomed one moves so its
//! right edge is the run's end (like a profiler's live view).

use super::Session;
use framescope_core::model::Capture;

impl Session {
    /// The newest run named `name` takes `capture` (ignored when no such run is open:
    /// it was closed).
    pub(super) fn grow(&mut self, name: &str, capture: Capture) {
        let Some(i) = self.runs.iter().rposition(|r| r.name == name) else { return };
        let shown = self.shown().contains(&i);
        let whole_before = self.aligned_span(i).is_some_and(|(a, b)| {
            self.view.start_ms <= a + 1e-9 && self.view.start_ms + self.view.span_ms >= b - 1e-9
        });
        self.runs[i].grow(capture);
        if !(shown && self.follow_live) {
            return;
        }
        let Some((first, end)) = self.aligned_span(i) else { return };
        if whole_before || self.view.span_ms >= end - first {
            self.view_fitted = false;
        } else {
            self.view.start_ms = end - self.view.span_ms;
        }
    }

    /// Run `i`'s first frame's start and last frame's end on the aligned axis.
    fn aligned_span(&self, i: usize) -> Option<(f64, f64)> {
        let run = self.runs.get(i)?;
        let f = &run.shown_trace().frames;
        let first = *f.start_ms.first()?;
        let end = f.start_ms.last()? + f.frame_time_ms.last().copied().unwrap_or(0.0).max(0.0);
        let shift = self.shift(i);
        Some((first - shift, end - shift))
    }

    /// True when *Follow live* keeps the newest frames of a growing run in view.
    #[must_use]
    pub fn follows_live(&self) -> bool {
        self.follow_live
    }

    /// True when a run has grown since it opened (a live capture).
    #[must_use]
    pub fn has_live_run(&self) -> bool {
        self.runs.iter().any(|r| r.revision() > 0)
    }
}
