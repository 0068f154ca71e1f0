//! Analysis: pure computations over a trace, as `metrics.md` defines them.
//!
//! Nothing here reads files or draws: a [`Trace`] and [`Settings`] go in, figures
//! come out. Heavy passes run on rayon.

pub mod summary;

pub use summary::{Summary, percentile};

use crate::model::Trace;

/// Which interval is "the frame time" (`metrics.md` §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FrameTimeSource {
    /// Present-to-present (`MsBetweenPresents`): every kept frame.
    #[default]
    Presents,
    /// Between display changes (`MsBetweenDisplayChange`): displayed frames only.
    Display,
}

impl FrameTimeSource {
    /// The name used in reports and on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Presents => "presents",
            Self::Display => "display",
        }
    }
}

/// What the user chose; every figure depends on some of these.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Target rate for colouring and pacing figures, frames per second.
    pub target_fps: f64,
    /// Relative stutter threshold (0.2 = 20 % above the local median).
    pub stutter_threshold: f64,
    /// Absolute stutter floor in ms.
    pub stutter_floor_ms: f64,
    /// Frame-time source.
    pub frame_time: FrameTimeSource,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            target_fps: 60.0,
            stutter_threshold: 0.2,
            stutter_floor_ms: 4.0,
            frame_time: FrameTimeSource::Presents,
        }
    }
}

/// The frame times one analysis runs on, with the trace frame each came from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Series {
    /// Frame times in ms, all finite and > 0.
    pub frame_time_ms: Vec<f64>,
    /// Index of each value's frame in the trace.
    pub frame: Vec<u32>,
}

impl Series {
    /// Picks the frame-time series of a trace. With the display source, dropped frames
    /// and frames without a positive display interval are left out.
    #[must_use]
    pub fn of(trace: &Trace, source: FrameTimeSource) -> Self {
        let f = &trace.frames;
        match source {
            FrameTimeSource::Presents => Self {
                frame_time_ms: f.frame_time_ms.clone(),
                frame: (0..f.frame_time_ms.len() as u32).collect(),
            },
            FrameTimeSource::Display => {
                let mut s = Self::default();
                for (i, &d) in f.display_ms.iter().enumerate() {
                    if !f.dropped[i] && d.is_finite() && d > 0.0 {
                        s.frame_time_ms.push(d);
                        s.frame.push(i as u32);
                    }
                }
                s
            }
        }
    }

    /// Number of frames.
    #[must_use]
    pub fn len(&self) -> usize {
        self.frame_time_ms.len()
    }

    /// True when the series is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.frame_time_ms.is_empty()
    }

    /// T: the sum of the frame times.
    #[must_use]
    pub fn total_ms(&self) -> f64 {
        self.frame_time_ms.iter().sum()
    }
}
