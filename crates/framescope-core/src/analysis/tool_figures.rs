//! The capturing tool's own figures in a sampled log (`metrics.md` §10): RTSS's
//! benchmark columns in an Afterburner log (`Framerate Avg`, `Framerate 1% Low`,
//! `Framerate 0.1% Low`, `Framerate Min`, `Framerate Max`) and the NVIDIA App's
//! `FPS 1(%) Low`. The tool computed them from every frame, which the samples cannot:
//! a low of samples is a low of `Δt`-second averages. Each is the value in the
//! session's last sample that has a number (> 0).

use crate::model::{Column, Trace};
use serde::Serialize;

/// A session's figures as the capturing tool wrote them (FPS); `None` (the JSON's
/// `null`) for a log without such columns or without a value of this session.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ToolFigures {
    /// `rtss` (through Afterburner) or `nvidia-app`.
    pub tool: &'static str,
    /// The tool's average FPS.
    pub avg_fps: Option<f64>,
    /// The tool's 1 % low, from every frame.
    pub low_1pct_fps: Option<f64>,
    /// The tool's 0.1 % low.
    pub low_0_1pct_fps: Option<f64>,
    /// The tool's minimum.
    pub min_fps: Option<f64>,
    /// The tool's maximum.
    pub max_fps: Option<f64>,
}

/// RTSS's benchmark columns: average, 1 % low, 0.1 % low, min, max.
const RTSS: [&str; 5] =
    ["Framerate Avg", "Framerate 1% Low", "Framerate 0.1% Low", "Framerate Min", "Framerate Max"];

/// The NVIDIA App's one column, its 1 % low.
const NVIDIA_APP_LOW: &str = "FPS 1(%) Low";

/// The tool's figures of a sampled trace (one logging session); `None` for a
/// per-frame trace, a log without the columns, or a session where none has a value.
#[must_use]
pub fn of(trace: &Trace) -> Option<ToolFigures> {
    if !trace.is_sampled() {
        return None;
    }
    let figures = if RTSS.iter().any(|name| trace.column_named(name).is_some()) {
        // RTSS keeps its last benchmark's figures until a new one starts: a value that
        // never changes during the session is not this session's.
        let value = |name: &str| trace.column_named(name).and_then(|c| last_value(trace, c, true));
        ToolFigures {
            tool: "rtss",
            avg_fps: value(RTSS[0]),
            low_1pct_fps: value(RTSS[1]),
            low_0_1pct_fps: value(RTSS[2]),
            min_fps: value(RTSS[3]),
            max_fps: value(RTSS[4]),
        }
    } else {
        let column = trace.column_named(NVIDIA_APP_LOW)?;
        ToolFigures {
            tool: "nvidia-app",
            avg_fps: None,
            low_1pct_fps: last_value(trace, column, false),
            low_0_1pct_fps: None,
            min_fps: None,
            max_fps: None,
        }
    };
    let values =
        [figures.avg_fps, figures.low_1pct_fps, figures.low_0_1pct_fps, figures.min_fps, figures.max_fps];
    values.iter().any(Option::is_some).then_some(figures)
}

/// The value of `column` in the trace's last sample with a number > 0; with
/// `must_change`, `None` when every sample holds the same cell (missing ones too).
fn last_value(trace: &Trace, column: &Column, must_change: bool) -> Option<f64> {
    let cell = |i: usize| column.values.get(i).filter(|v| v.is_finite() && *v > 0.0);
    if must_change {
        let first = cell(0);
        if (1..trace.len()).all(|i| cell(i) == first) {
            return None;
        }
    }
    (0..trace.len()).rev().find_map(cell)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ColumnKind, Frames, TraceMeta};

    fn sampled(columns: Vec<(&str, Vec<f64>)>) -> Trace {
        let n = columns.first().map_or(0, |c| c.1.len());
        Trace {
            meta: TraceMeta::named("session 1"),
            frames: Frames {
                frame_time_ms: vec![10.0; n],
                sample_ms: vec![1000.0; n],
                columns: columns
                    .into_iter()
                    .map(|(name, v)| Column {
                        name: name.into(),
                        kind: ColumnKind::Telemetry,
                        values: v.into(),
                    })
                    .collect(),
                ..Frames::default()
            },
            warnings: vec![],
        }
    }

    /// RTSS: the last number of the session (39.1 after 41.0, before a trailing N/A);
    /// the 0.1 % low held at 30 from the previous benchmark is not this session's; Avg
    /// missing everywhere is null; no Min/Max column is null.
    #[test]
    fn rtss_figures_are_the_sessions_last_changing_values() {
        let nan = f64::NAN;
        let t = sampled(vec![
            ("Framerate", vec![60.0, 61.0, 59.0, 58.0]),
            ("Framerate 1% Low", vec![nan, 41.0, 39.1, nan]),
            ("Framerate 0.1% Low", vec![30.0, 30.0, 30.0, 30.0]),
            ("Framerate Avg", vec![nan; 4]),
        ]);
        let f = of(&t).unwrap();
        assert_eq!(f.tool, "rtss");
        assert_eq!(f.low_1pct_fps, Some(39.1));
        assert_eq!((f.low_0_1pct_fps, f.avg_fps, f.min_fps), (None, None, None));
        // Only the never-changing value: nothing of this session's.
        assert_eq!(of(&sampled(vec![("Framerate 1% Low", vec![30.0, 30.0])])), None);
    }

    /// The NVIDIA App's `FPS 1(%) Low` is a running figure: its last value > 0.
    #[test]
    fn nvidia_app_low_is_the_last_value() {
        let f = of(&sampled(vec![("FPS 1(%) Low", vec![47.2, 47.2, 35.3, 0.0])])).unwrap();
        assert_eq!((f.tool, f.low_1pct_fps, f.avg_fps), ("nvidia-app", Some(35.3), None));
        assert_eq!(of(&sampled(vec![("GPU usage", vec![1.0])])), None);
    }
}
