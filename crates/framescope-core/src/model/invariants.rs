//! The model's invariants, checked: what every loader promises about a [`Capture`] and
//! its [`Trace`]s, whatever the file held. Ingest checks its result in debug builds
//! (a broken invariant is a loader bug, never the file's fault); the tests check
//! mangled real captures with it.

use super::{Capture, Format, Trace, Warning};

/// A broken invariant of the trace model: a bug in the loader that built the trace.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InvariantError {
    /// A capture without a trace (a load that finds no frame is an error instead).
    #[error("the capture holds no trace")]
    NoTrace,
    /// A trace of the capture breaks an invariant.
    #[error("trace {index}: {error}")]
    InTrace {
        /// The trace's index in the capture.
        index: usize,
        /// What it breaks.
        error: Box<InvariantError>,
    },
    /// A trace without a frame.
    #[error("the trace holds no frame")]
    Empty,
    /// A frame time that is not finite and > 0 (0 only for a displayed frame).
    #[error("frame {frame}: frame time {value}")]
    FrameTime {
        /// The frame.
        frame: usize,
        /// Its frame time.
        value: f64,
    },
    /// A per-frame column whose length is not the frame count (nor 0, where a column
    /// may be absent).
    #[error("{column} has {len} values for {frames} frames")]
    Length {
        /// The column.
        column: String,
        /// Its length.
        len: usize,
        /// The frame count.
        frames: usize,
    },
    /// A sample interval that is not finite and > 0.
    #[error("sample {frame}: interval {value} is not finite and > 0")]
    SampleInterval {
        /// The sample.
        frame: usize,
        /// Its interval.
        value: f64,
    },
    /// A sample of a sampled log without a rate (frame time ≤ 0).
    #[error("sample {frame}: a sample without a rate")]
    SampleRate {
        /// The sample.
        frame: usize,
    },
    /// A present-mode index outside the trace's list of modes.
    #[error("frame {frame}: present mode index {index} out of range ({modes} modes)")]
    PresentMode {
        /// The frame.
        frame: usize,
        /// Its index.
        index: u16,
        /// How many modes the trace lists.
        modes: usize,
    },
    /// Frame lines that do not ascend, or a line below the first a frame can be on.
    #[error("frame {frame}: line {line} after line {previous} (lines ascend from {first})")]
    Line {
        /// The frame.
        frame: usize,
        /// Its line.
        line: u64,
        /// The line of the frame before it (0 for the first frame).
        previous: u64,
        /// The first line a frame can be on.
        first: u64,
    },
    /// A start time that is not finite.
    #[error("frame {frame}: start time {value}")]
    StartTime {
        /// The frame.
        frame: usize,
        /// Its start time.
        value: f64,
    },
    /// A start time more than a millisecond before the one of the frame before it.
    #[error("frame {frame}: start time {value} ms goes back from {previous} ms")]
    TimeOrder {
        /// The frame.
        frame: usize,
        /// Its start time.
        value: f64,
        /// The start time of the frame before it.
        previous: f64,
    },
    /// A warning that names line 0 (lines count from 1).
    #[error("a warning names line 0: {message}")]
    WarningLine {
        /// The warning's message.
        message: String,
    },
    /// An event that belongs to no kept frame, or out of frame order.
    #[error("event {index} belongs to frame {frame} of {frames}")]
    Event {
        /// The event's index.
        index: usize,
        /// Its frame.
        frame: usize,
        /// The frame count.
        frames: usize,
    },
    /// A value of a sampled MangoHud log's own frame-time column that is not > 0.
    #[error("logged frame time {index} is {value}, not > 0")]
    LoggedFrameTime {
        /// Its index.
        index: usize,
        /// The value.
        value: f64,
    },
    /// A value of a MangoHud 0.6.x log's own `fps` column that is not finite.
    #[error("logged fps {index} is {value}, not a number")]
    LoggedFps {
        /// Its index.
        index: usize,
        /// The value.
        value: f64,
    },
}

impl Capture {
    /// Checks the model's invariants ([`Trace::validate`] on every trace, at least one
    /// trace, no warning on line 0, and text captures' frames below their header: line
    /// 2 or later). The first broken one is the error.
    pub fn validate(&self) -> Result<(), InvariantError> {
        if self.traces.is_empty() {
            return Err(InvariantError::NoTrace);
        }
        check_warnings(&self.warnings)?;
        // A CapFrameX JSON frame's line is its 1-based place in the run's arrays.
        let first = if self.info.format == Format::CapFrameXJson { 1 } else { 2 };
        for (index, trace) in self.traces.iter().enumerate() {
            let in_trace = |error| InvariantError::InTrace { index, error: Box::new(error) };
            trace.validate().map_err(in_trace)?;
            if let Some(line) = trace.frames.line.first().filter(|&l| l < first) {
                return Err(in_trace(InvariantError::Line { frame: 0, line, previous: 0, first }));
            }
        }
        Ok(())
    }
}

impl Trace {
    /// Checks the trace's invariants: at least one frame; every per-frame column as
    /// long as the frame count (the optional ones empty or as long); frame times
    /// finite and > 0, or 0 for a displayed frame; a sample's interval finite and > 0
    /// and its rate known; present-mode indices within the list; lines ascending from
    /// 1; start times finite and in time order (never back by more than 1 ms); events
    /// on kept frames in frame order; a logged frame time > 0; no warning on line 0.
    /// The first broken one is the error.
    pub fn validate(&self) -> Result<(), InvariantError> {
        if self.is_empty() {
            return Err(InvariantError::Empty);
        }
        self.check_lengths()?;
        self.check_times()?;
        self.check_lines_and_modes()?;
        self.check_events()?;
        check_warnings(&self.warnings)
    }

    /// Every per-frame column as long as the frame count (the optional ones may be empty).
    fn check_lengths(&self) -> Result<(), InvariantError> {
        let f = &self.frames;
        let frames = self.len();
        let length =
            |column: &str, len: usize| InvariantError::Length { column: column.to_owned(), len, frames };
        let required = [("start_ms", f.start_ms.len()), ("line", f.line.len())];
        if let Some(&(column, len)) = required.iter().find(|(_, len)| *len != frames) {
            return Err(length(column, len));
        }
        let optional = [
            ("display_ms", f.display_ms.len()),
            ("dropped", f.dropped.len()),
            ("present_mode", f.present_mode.len()),
            ("frame_type", f.frame_type.len()),
            ("sample_ms", f.sample_ms.len()),
            ("join_id", f.join_id.len()),
        ];
        if let Some(&(column, len)) = optional.iter().find(|(_, len)| *len != 0 && *len != frames) {
            return Err(length(column, len));
        }
        match f.columns.iter().find(|c| c.values.len() != frames) {
            Some(c) => Err(length(&c.name, c.values.len())),
            None => Ok(()),
        }
    }

    /// Frame times, sample intervals, start times and the logged frame times.
    fn check_times(&self) -> Result<(), InvariantError> {
        let f = &self.frames;
        // A frame time of 0 marks a displayed frame without a present interval.
        let bad_time = f
            .frame_time_ms
            .iter()
            .enumerate()
            .position(|(i, &v)| !(v.is_finite() && (v > 0.0 || (v == 0.0 && !f.is_dropped(i)))));
        if let Some(frame) = bad_time {
            return Err(InvariantError::FrameTime { frame, value: f.frame_time_ms[frame] });
        }
        if let Some(frame) = f.sample_ms.iter().position(|v| !(v.is_finite() && *v > 0.0)) {
            return Err(InvariantError::SampleInterval { frame, value: f.sample_ms[frame] });
        }
        if self.is_sampled()
            && let Some(frame) = f.frame_time_ms.iter().position(|v| *v <= 0.0)
        {
            return Err(InvariantError::SampleRate { frame });
        }
        if let Some(frame) = f.start_ms.iter().position(|s| !s.is_finite()) {
            return Err(InvariantError::StartTime { frame, value: f.start_ms[frame] });
        }
        if let Some(k) = f.start_ms.windows(2).position(|w| w[1] < w[0] - 1.0) {
            return Err(InvariantError::TimeOrder {
                frame: k + 1,
                value: f.start_ms[k + 1],
                previous: f.start_ms[k],
            });
        }
        if let Some(index) = f.logged_frame_time_ms.iter().position(|v| v.is_nan() || *v <= 0.0) {
            return Err(InvariantError::LoggedFrameTime { index, value: f.logged_frame_time_ms[index] });
        }
        match f.logged_fps.iter().position(|v| !v.is_finite()) {
            Some(index) => Err(InvariantError::LoggedFps { index, value: f.logged_fps[index] }),
            None => Ok(()),
        }
    }

    /// Lines ascending from 1, present-mode indices within the list.
    fn check_lines_and_modes(&self) -> Result<(), InvariantError> {
        let f = &self.frames;
        let mut previous = 0;
        for (frame, line) in f.line.iter().enumerate() {
            if line <= previous {
                return Err(InvariantError::Line { frame, line, previous, first: 1 });
            }
            previous = line;
        }
        let modes = self.meta.present_modes.len();
        match f.present_mode.iter().position(|&m| usize::from(m) >= modes) {
            Some(frame) => Err(InvariantError::PresentMode { frame, index: f.present_mode[frame], modes }),
            None => Ok(()),
        }
    }

    /// Every event on a kept frame, in frame order.
    fn check_events(&self) -> Result<(), InvariantError> {
        let frames = self.len();
        let mut previous = 0;
        for (index, e) in self.frames.events.iter().enumerate() {
            if e.frame >= frames || e.frame < previous {
                return Err(InvariantError::Event { index, frame: e.frame, frames });
            }
            previous = e.frame;
        }
        Ok(())
    }
}

/// No warning names line 0.
fn check_warnings(warnings: &[Warning]) -> Result<(), InvariantError> {
    match warnings.iter().find(|w| w.line == Some(0)) {
        Some(w) => Err(InvariantError::WarningLine { message: w.message.clone() }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Event, FileInfo, Frames, TraceMeta};

    /// Three displayed 10 ms frames on lines 2–4, one present mode.
    fn trace() -> Trace {
        Trace {
            meta: TraceMeta {
                application: "a.exe".into(),
                process_id: None,
                swap_chain: None,
                runtime: None,
                present_modes: vec!["Hardware: Independent Flip".into()],
            },
            frames: Frames {
                frame_time_ms: vec![10.0; 3],
                start_ms: vec![0.0, 10.0, 20.0],
                display_ms: vec![10.0; 3],
                dropped: vec![false; 3],
                present_mode: vec![0; 3],
                line: vec![2, 3, 4].into(),
                ..Frames::default()
            },
            warnings: vec![Warning::at(3, "a note")],
        }
    }

    fn capture(format: Format, traces: Vec<Trace>) -> Capture {
        Capture {
            info: FileInfo {
                path: "x.csv".into(),
                format,
                format_version: String::new(),
                system: vec![],
                dropped_known: true,
                target_fps: None,
            },
            traces,
            warnings: vec![],
        }
    }

    #[test]
    fn a_well_formed_trace_passes() {
        assert_eq!(trace().validate(), Ok(()));
        assert_eq!(capture(Format::PresentMon1, vec![trace()]).validate(), Ok(()));
        // A displayed frame without a present interval (0) is allowed; a dropped one not.
        let mut t = trace();
        t.frames.frame_time_ms[1] = 0.0;
        assert_eq!(t.validate(), Ok(()));
        t.frames.dropped[1] = true;
        assert_eq!(t.validate(), Err(InvariantError::FrameTime { frame: 1, value: 0.0 }));
    }

    /// Each invariant, broken once: the error says which and where.
    #[test]
    fn each_broken_invariant_is_named() {
        let broken = |f: fn(&mut Trace)| {
            let mut t = trace();
            f(&mut t);
            t.validate().unwrap_err().to_string()
        };
        assert_eq!(broken(|t| t.frames = Frames::default()), "the trace holds no frame");
        assert_eq!(broken(|t| t.frames.frame_time_ms[2] = f64::NAN), "frame 2: frame time NaN");
        assert_eq!(broken(|t| t.frames.line = vec![2, 3].into()), "line has 2 values for 3 frames");
        assert_eq!(broken(|t| t.frames.join_id = vec![1]), "join_id has 1 values for 3 frames");
        assert_eq!(
            broken(|t| t.frames.sample_ms = vec![5.0, -1.0, 5.0]),
            "sample 1: interval -1 is not finite and > 0"
        );
        assert_eq!(
            broken(|t| t.frames.present_mode[0] = 1),
            "frame 0: present mode index 1 out of range (1 modes)"
        );
        assert_eq!(
            broken(|t| t.frames.line = vec![2, 3, 3].into()),
            "frame 2: line 3 after line 3 (lines ascend from 1)"
        );
        assert_eq!(broken(|t| t.frames.start_ms[1] = f64::INFINITY), "frame 1: start time inf");
        assert_eq!(broken(|t| t.frames.start_ms[2] = 8.5), "frame 2: start time 8.5 ms goes back from 10 ms");
        assert_eq!(broken(|t| t.warnings.push(Warning::at(0, "x"))), "a warning names line 0: x");
        let event = |frame| Event { frame, time_ms: 0.0, label: "load".into() };
        assert_eq!(
            broken(|t| t.frames.events = vec![Event { frame: 3, time_ms: 0.0, label: String::new() }]),
            "event 0 belongs to frame 3 of 3"
        );
        let mut t = trace();
        t.frames.events = vec![event(2), event(1)];
        assert_eq!(t.validate(), Err(InvariantError::Event { index: 1, frame: 1, frames: 3 }));
        assert_eq!(
            broken(|t| t.frames.logged_frame_time_ms = vec![0.0]),
            "logged frame time 0 is 0, not > 0"
        );
        assert_eq!(
            broken(|t| t.frames.logged_fps = vec![0.0, f64::NAN]),
            "logged fps 1 is NaN, not a number"
        );
        // Back by at most 1 ms is in order (timestamps' rounding).
        let mut t = trace();
        t.frames.start_ms[2] = 9.0;
        assert_eq!(t.validate(), Ok(()));
    }

    /// A capture: at least one trace; a text capture's frames below the header line;
    /// a trace's error names the trace.
    #[test]
    fn a_capture_checks_its_traces_and_their_lines() {
        assert_eq!(capture(Format::PresentMon1, vec![]).validate(), Err(InvariantError::NoTrace));
        let mut on_header = trace();
        on_header.frames.line = vec![1, 2, 3].into();
        assert_eq!(on_header.validate(), Ok(()));
        let err = capture(Format::PresentMon1, vec![trace(), on_header.clone()]).validate().unwrap_err();
        assert_eq!(err.to_string(), "trace 1: frame 0: line 1 after line 0 (lines ascend from 2)");
        assert_eq!(capture(Format::CapFrameXJson, vec![on_header]).validate(), Ok(()));
        let mut c = capture(Format::PresentMon1, vec![trace()]);
        c.warnings.push(Warning::at(0, "file"));
        assert!(c.validate().is_err());
    }
}
