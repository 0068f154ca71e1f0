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
    /// it was closed); it is shown once its tracks and figures are built.
    pub(super) fn grow(&mut self, name: &str, capture: Capture) {
        if let Some(run) = self.runs.iter_mut().rev().find(|r| r.name == name) {
            run.grow(capture);
        }
    }

    /// After runs took in a new capture: with *Follow live* on, a shown run that grew
    /// keeps its newest frames in view.
    pub(super) fn follow_growth(&mut self) {
        let shown = self.shown();
        for i in 0..self.runs.len() {
            let Some((a, b)) = self.runs[i].take_grew_from() else { continue };
            if !(shown.contains(&self.runs[i].id) && self.follow_live) {
                continue;
            }
            let Some((first, end)) = self.runs[i].own_span() else { continue };
            let shift = self.runs[i].shift_ms();
            let (v0, v1) = (self.view.start_ms + shift, self.view.start_ms + self.view.span_ms + shift);
            let whole_before = v0 <= a + 1e-9 && v1 >= b - 1e-9;
            if whole_before || self.view.span_ms >= end - first {
                self.view_fitted = false;
            } else {
                self.view.start_ms = end - shift - self.view.span_ms;
            }
        }
        self.fit_if_needed();
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::super::{AppCommand, Loaded, Session};
    use crate::app::settings::Persisted;
    use crate::app::work::Spawner;
    use framescope_core::ingest::{LoadOptions, load_bytes};
    use framescope_core::model::Capture;
    use std::fmt::Write as _;
    use std::path::Path;

    /// `n` frames of 10 ms.
    fn capture(n: usize) -> Capture {
        let mut text = String::from("Application,ProcessID,SwapChainAddress,MsBetweenPresents\n");
        for _ in 0..n {
            writeln!(text, "game.exe,1,0x1,10").unwrap();
        }
        load_bytes(Path::new("live.csv"), text.as_bytes(), LoadOptions::default()).unwrap()
    }

    fn grow(s: &mut Session, p: &mut Persisted, n: usize) {
        s.apply(AppCommand::Grew { name: "live.csv".into(), capture: Box::new(capture(n)) }, p);
        s.sync_work(p);
    }

    /// A run opened with 100 frames grows to 250, then starts over at 40: one run all
    /// along (same id), its figures follow each capture (100, 250, 40 frames: every
    /// frame 10 ms, so 100 FPS); with the whole run in view, the view is fitted again
    /// (0–2.5 s); zoomed in to 0.5 s, it moves so its right edge is the run's end.
    #[test]
    fn a_growing_run_stays_one_run_and_its_figures_follow() {
        let (mut s, mut p) = (Session::new(Spawner::inline()), Persisted::default());
        let loaded = Loaded {
            load: None,
            name: "live.csv".into(),
            path: None,
            capture: capture(100),
            from_watch: true,
        };
        s.apply(AppCommand::Opened(Box::new(loaded)), &mut p);
        s.sync_work(&p);
        let id = s.runs()[0].id;
        assert_eq!(s.runs()[0].analyzed().unwrap().run.frames, 100);
        assert!(!s.has_live_run());
        grow(&mut s, &mut p, 250);
        assert_eq!(s.runs().len(), 1);
        assert_eq!(s.runs()[0].id, id);
        assert!(s.has_live_run());
        let run = &s.runs()[0].analyzed().unwrap().run;
        assert_eq!(run.frames, 250);
        assert_eq!(run.summary.as_ref().map(|x| x.avg_fps), Some(100.0));
        assert!(s.is_idle(&p));
        // Fitted to the whole run: frames start at 0, 10, …, 2490 ms; it ends at 2500.
        let v = s.aligned_view();
        assert!(v.start_ms <= 0.0 && v.start_ms + v.span_ms >= 2500.0, "{v:?}");
        // Zoomed in to 500 ms at the start: the next growth moves the view to the end.
        s.view = super::super::TimeView { start_ms: 0.0, span_ms: 500.0 };
        grow(&mut s, &mut p, 300);
        let v = s.aligned_view();
        assert!((v.start_ms - 2500.0).abs() < 1e-9 && (v.span_ms - 500.0).abs() < 1e-9, "{v:?}");
        // Follow live off: the view stays.
        s.apply(AppCommand::FollowLive(false), &mut p);
        grow(&mut s, &mut p, 350);
        assert!((s.aligned_view().start_ms - 2500.0).abs() < 1e-9);
        // Started over (truncated): still the same run, with the new capture's figures.
        // Until its tracks and figures are built, the run shows the old capture whole
        // (drawing the old tracks over a shorter capture would index past its end).
        s.apply(AppCommand::Grew { name: "live.csv".into(), capture: Box::new(capture(40)) }, &mut p);
        assert_eq!(s.runs()[0].shown_trace().frames.frame_time_ms.len(), 350);
        assert_eq!(s.runs()[0].analyzed().unwrap().run.frames, 350);
        assert!(!s.is_idle(&p));
        s.sync_work(&p);
        assert_eq!((s.runs().len(), s.runs()[0].id), (1, id));
        assert_eq!(s.runs()[0].analyzed().unwrap().run.frames, 40);
        // A capture for a run that is not open (it was closed) changes nothing.
        s.apply(AppCommand::Grew { name: "other.csv".into(), capture: Box::new(capture(5)) }, &mut p);
        assert_eq!(s.runs().len(), 1);
    }
}
