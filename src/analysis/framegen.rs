//! Frame-generation awareness: with PresentMon's `FrameType` (XeSS-FG, AFMF), the
//! application's own frames and the generated ones are reported apart as well as
//! together. Each kind's frame time is the interval between consecutive frames of
//! that kind (the "base" rate of the application), in the chosen source.

use super::{FrameTimeSource, Summary};
use crate::model::Trace;
use serde::Serialize;

/// Figures of one kind of frame.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct KindFigures {
    /// Intervals between consecutive frames of this kind.
    pub frames: usize,
    /// Their summary.
    pub summary: Option<Summary>,
}

/// Application and generated frames apart.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FrameTypes {
    /// Frames the application rendered.
    pub application: KindFigures,
    /// Frames made by frame generation.
    pub generated: KindFigures,
}

impl FrameTypes {
    /// The split, or `None` when the trace has no generated frame.
    #[must_use]
    pub fn of(trace: &Trace, source: FrameTimeSource) -> Option<Self> {
        let types = &trace.frames.frame_type;
        if types.len() != trace.len() || !types.iter().any(|t| t.is_generated()) {
            return None;
        }
        let kind = |generated: bool| {
            let ft = kind_intervals(trace, source, generated);
            KindFigures { frames: ft.len(), summary: Summary::of(&ft) }
        };
        Some(Self { application: kind(false), generated: kind(true) })
    }
}

/// Intervals between consecutive frames of one kind: the sum of the frame times
/// (present or display intervals) from one frame of the kind to the next. The first
/// frame of the kind has no predecessor and gives no interval.
fn kind_intervals(trace: &Trace, source: FrameTimeSource, generated: bool) -> Vec<f64> {
    let f = &trace.frames;
    let mut out = Vec::new();
    let mut acc = 0.0;
    let mut seen = false;
    for i in 0..trace.len() {
        let step = match source {
            FrameTimeSource::Presents => f.frame_time_ms[i],
            FrameTimeSource::Display if !f.dropped[i] && f.display_ms[i] > 0.0 => f.display_ms[i],
            FrameTimeSource::Display => continue,
        };
        acc += step;
        if f.frame_type[i].is_generated() == generated {
            if seen {
                out.push(acc);
            }
            seen = true;
            acc = 0.0;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{FrameType, Frames, TraceMeta};

    /// A G A G A with every present 5 ms apart: application frames are 10 ms apart
    /// (two intervals), generated frames 10 ms apart (one interval).
    #[test]
    fn each_kind_runs_from_one_of_its_frames_to_the_next() {
        let (a, g) = (FrameType::Application, FrameType::IntelXessFg);
        let trace = Trace {
            meta: TraceMeta {
                application: "x".into(),
                process_id: None,
                swap_chain: None,
                runtime: None,
                present_modes: vec![],
            },
            frames: Frames {
                frame_time_ms: vec![5.0; 5],
                display_ms: vec![5.0; 5],
                dropped: vec![false; 5],
                frame_type: vec![a, g, a, g, a],
                ..Frames::default()
            },
            warnings: vec![],
        };
        let split = FrameTypes::of(&trace, FrameTimeSource::Presents).unwrap_or_else(|| unreachable!());
        assert_eq!(split.application.frames, 2);
        assert_eq!(split.generated.frames, 1);
        assert!((split.application.summary.map_or(0.0, |s| s.avg_fps) - 100.0).abs() < 1e-9);
        let mut plain = trace.clone();
        plain.frames.frame_type = vec![a; 5];
        assert!(FrameTypes::of(&plain, FrameTimeSource::Presents).is_none());
    }
}
