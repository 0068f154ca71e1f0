//! Trimming (`metrics.md` §1): leave the loading screen and the last seconds of a
//! benchmark out of a run.

use crate::model::Trace;

/// Seconds left out at the start and at the end of every run.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Trim {
    /// `a`: seconds left out after the start of the first frame.
    pub start_s: f64,
    /// `b`: seconds left out before the end of the last frame.
    pub end_s: f64,
}

impl Trim {
    /// True when nothing is left out.
    #[must_use]
    pub fn is_none(&self) -> bool {
        self.start_s <= 0.0 && self.end_s <= 0.0
    }

    /// The frames of `trace` whose interval starts at or after `t₀ + a` and ends at or
    /// before `t₁ − b` (`t₀` the start of the first frame, `t₁` the end of the last), as
    /// a trace of their own ([`Trace::slice`]: indices count from the first kept frame,
    /// so rolling windows never see a trimmed frame). The trace's warnings are kept.
    ///
    /// A frame's interval is its place on the capture's time axis, `start_ms ..=
    /// start_ms + span` ([`crate::model::Frames::span_ms`]: a sample's interval for a
    /// sampled log), whatever the frame-time source. Start times are in time order
    /// (ingest makes them so), so the kept frames are one range: from the first frame
    /// that starts late enough to the last that ends early enough.
    #[must_use]
    pub fn apply(&self, trace: &Trace) -> Trace {
        let mut out = trace.slice(self.range(trace));
        out.warnings.clone_from(&trace.warnings);
        out
    }

    /// [`Trim::apply`], or the error when no frame is left.
    pub fn cut(&self, trace: &Trace) -> Result<Trace, TrimError> {
        self.kept(trace)?;
        Ok(self.apply(trace))
    }

    /// [`Trim::range`], or the error when it is empty (no frame is left).
    pub fn kept(&self, trace: &Trace) -> Result<std::ops::Range<usize>, TrimError> {
        let range = self.range(trace);
        if range.is_empty() {
            return Err(TrimError::NothingLeft {
                span_s: Self::span_s(trace),
                start_s: self.start_s,
                end_s: self.end_s,
            });
        }
        Ok(range)
    }

    /// The range of frames [`Trim::apply`] keeps (empty when nothing is left).
    #[must_use]
    pub fn range(&self, trace: &Trace) -> std::ops::Range<usize> {
        let f = &trace.frames;
        let spans = f.spans_ms();
        let n = trace.len().min(f.start_ms.len()).min(spans.len());
        if self.is_none() || n == 0 {
            return 0..trace.len();
        }
        let t0 = f.start_ms[0];
        let t1 = f.start_ms[n - 1] + spans[n - 1];
        let (from, to) = (t0 + self.start_s.max(0.0) * 1000.0, t1 - self.end_s.max(0.0) * 1000.0);
        let Some(first) = (0..n).find(|&i| f.start_ms[i] >= from) else { return 0..0 };
        let Some(last) = (first..n).rev().find(|&i| f.start_ms[i] + spans[i] <= to) else { return 0..0 };
        first..last + 1
    }

    /// How long `trace` lasts on its time axis, `t₁ − t₀`, in seconds (for messages).
    #[must_use]
    pub fn span_s(trace: &Trace) -> f64 {
        let f = &trace.frames;
        let n = f.start_ms.len().min(f.spans_ms().len());
        if n == 0 {
            return 0.0;
        }
        (f.start_ms[n - 1] + f.spans_ms()[n - 1] - f.start_ms[0]) / 1000.0
    }
}

/// Why a trim cannot be applied.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum TrimError {
    /// The trim leaves no whole frame of the trace.
    #[error(
        "nothing is left after trimming: the trace spans {span_s:.3} s, and the trim leaves out {start_s} s at \
         the start and {end_s} s at the end"
    )]
    NothingLeft {
        /// How long the trace lasts, `t₁ − t₀`, in seconds ([`Trim::span_s`]).
        span_s: f64,
        /// The seconds left out at the start.
        start_s: f64,
        /// The seconds left out at the end.
        end_s: f64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Frames, TraceMeta};

    /// Ten 10 ms frames starting at 5 ms: frame i spans 5 + 10i ..= 15 + 10i, so
    /// t₀ = 5 and t₁ = 105.
    fn trace() -> Trace {
        Trace {
            meta: TraceMeta::named("a.exe"),
            frames: Frames {
                frame_time_ms: vec![10.0; 10],
                start_ms: (0..10).map(|i| 5.0 + 10.0 * f64::from(i)).collect(),
                line: (2..12).collect(),
                ..Frames::default()
            },
            warnings: vec![crate::model::Warning::file("kept")],
        }
    }

    #[test]
    fn trim_keeps_frames_inside_both_limits() {
        let t = trace();
        let trim = |a: f64, b: f64| Trim { start_s: a / 1000.0, end_s: b / 1000.0 }.range(&t);
        assert_eq!(trim(0.0, 0.0), 0..10);
        // From 5 + 20 = 25: frame 2 starts at 25 (at, kept); to 105 − 30 = 75: frame 6
        // ends at 75 (at, kept), frame 7 at 85.
        assert_eq!(trim(20.0, 30.0), 2..7);
        // 21 ms: frame 2 starts too early.
        assert_eq!(trim(21.0, 0.0), 3..10);
        assert_eq!(trim(60.0, 60.0), 0..0);
        assert_eq!(trim(200.0, 0.0), 0..0);
        let cut = Trim { start_s: 0.02, end_s: 0.03 }.apply(&t);
        assert_eq!(cut.frames.line, vec![4, 5, 6, 7, 8]);
        assert_eq!(cut.warnings.len(), 1);
        assert!((Trim::span_s(&t) - 0.1).abs() < 1e-12);
    }

    /// Nothing left: a typed error carrying the span and the trim, whose message is the
    /// window's. A trim that keeps frames cuts as `apply` does.
    #[test]
    fn a_trim_that_leaves_nothing_is_an_error() {
        let t = trace();
        let trim = Trim { start_s: 0.06, end_s: 0.06 };
        let err = trim.cut(&t).unwrap_err();
        assert_eq!(err, TrimError::NothingLeft { span_s: 0.1, start_s: 0.06, end_s: 0.06 });
        assert_eq!(
            err.to_string(),
            "nothing is left after trimming: the trace spans 0.100 s, and the trim leaves out 0.06 s at the \
             start and 0.06 s at the end"
        );
        assert_eq!(trim.kept(&t), Err(err));
        let keep = Trim { start_s: 0.02, end_s: 0.03 };
        assert_eq!(keep.kept(&t), Ok(2..7));
        assert_eq!(keep.cut(&t), Ok(keep.apply(&t)));
    }

    #[test]
    fn trim_of_samples_uses_their_intervals() {
        let mut t = trace();
        t.frames.frame_time_ms = vec![1.0; 10];
        t.frames.sample_ms = vec![10.0; 10];
        assert_eq!(Trim { start_s: 0.0, end_s: 0.025 }.range(&t), 0..7);
    }
}
