//! Unity FrameTimingManager captures (`formats.md` §7): framescope's recorder CSV
//! (`assets/unity/FramescopeRecorder.cs`: an optional `# framescope-unity` line, then
//! a header with `cpuFrameTime`) and Profiler-counter exports (`CPU Total Frame Time`,
//! values in nanoseconds).
//!
//! Frame time = `cpuFrameTime`; the thread times and `gpuFrameTime` are health actions
//! (a `gpuFrameTime` of 0 means the GPU returned no timing: missing); the latency
//! stages come from the four timestamps; the time axis is `frameStartTimestamp` when
//! every kept frame has one, else the running sum of frame times. No display data.

use super::builder::SkipReason;
use super::engine_rows::{RowFormat, no_frames, read_frames};
use super::table::{Accumulator, ColumnSpec, Head, meta_for};
use super::values::parse_id;
use super::{LoadError, LoadErrorKind, Progress};
use crate::model::{Capture, ColumnKind, FileInfo, Format, MISSING_ID, Warning};
use std::io::Read;
use std::path::Path;

/// The two Unity layouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnityLayout {
    /// framescope's recorder: durations in ms, timestamps in CPU-timer ticks.
    Recorder,
    /// A Profiler-counter CSV: the counters' durations in ns.
    Counters,
}

/// The recorder's frame-time column.
pub const FRAME_TIME: &str = "cpuFrameTime";
/// The Profiler counter holding the frame time.
pub const COUNTER_FRAME_TIME: &str = "CPU Total Frame Time";

/// The recorder's columns, in the order it writes them.
pub const RECORDER_COLUMNS: [&str; 13] = [
    "frame",
    "cpuFrameTime",
    "cpuMainThreadFrameTime",
    "cpuRenderThreadFrameTime",
    "cpuMainThreadPresentWaitTime",
    "gpuFrameTime",
    "frameStartTimestamp",
    "firstSubmitTimestamp",
    "cpuTimePresentCalled",
    "cpuTimeFrameComplete",
    "syncInterval",
    "widthScale",
    "heightScale",
];

/// The recorder's health actions: (name, is the GPU time).
const ACTIONS: [(&str, bool); 4] = [
    ("cpuMainThreadFrameTime", false),
    ("cpuRenderThreadFrameTime", false),
    ("cpuMainThreadPresentWaitTime", false),
    ("gpuFrameTime", true),
];

/// The counters that are health actions: (name, is the GPU time).
const COUNTER_ACTIONS: [(&str, bool); 3] = [
    ("CPU Main Thread Frame Time", false),
    ("CPU Render Thread Frame Time", false),
    ("GPU Frame Time", true),
];

/// The latency stages: (column name, from timestamp, to timestamp).
const STAGES: [(&str, &str, &str); 3] = [
    ("Main thread (frame start → first submit)", "frameStartTimestamp", "firstSubmitTimestamp"),
    ("Render submit (first submit → Present)", "firstSubmitTimestamp", "cpuTimePresentCalled"),
    ("GPU (Present → frame complete)", "cpuTimePresentCalled", "cpuTimeFrameComplete"),
];

/// Without a `cpu_timer_frequency`, the timer of Windows players (`formats.md` §7).
const DEFAULT_TIMER_HZ: f64 = 10_000_000.0;

/// A Profiler counter's column: its name, or its name followed by ` (ns)`.
#[must_use]
pub fn counter_index(head: &Head, counter: &str) -> Option<usize> {
    head.header.iter().position(|h| {
        let h = h.trim();
        h.eq_ignore_ascii_case(counter)
            || (h.len() == counter.len() + 5
                && h.get(..counter.len()).is_some_and(|p| p.eq_ignore_ascii_case(counter))
                && h.get(counter.len()..).is_some_and(|s| s.eq_ignore_ascii_case(" (ns)")))
    })
}

/// The `key=value` facts of the recorder's `# framescope-unity 1,…` line, in order.
fn header_facts(head: &Head) -> Option<Vec<(String, String)>> {
    let line = head
        .meta_lines
        .iter()
        .find(|l| l.get(..16).is_some_and(|p| p.eq_ignore_ascii_case("framescope-unity")))?;
    let mut parts = line.split(',');
    let mut facts = Vec::new();
    if let Some(version) = parts.next().and_then(|p| p.split_whitespace().nth(1)) {
        facts.push(("framescope-unity".to_owned(), version.to_owned()));
    }
    for p in parts {
        if let Some((k, v)) = p.split_once('=') {
            facts.push((k.trim().to_ascii_lowercase(), v.trim().to_owned()));
        }
    }
    Some(facts)
}

/// The columns kept beside the frame time: the actions and every other column, in
/// header order (the frame column, the frame time and the timestamps have roles of
/// their own).
fn column_specs(
    head: &Head,
    layout: UnityLayout,
    ft_index: usize,
    stamps: &[Option<usize>],
    scale: f64,
) -> Vec<ColumnSpec> {
    let mut specs = Vec::new();
    for (pos, name) in head.header.iter().enumerate() {
        if pos == ft_index
            || stamps.contains(&Some(pos))
            || name.is_empty()
            || name.eq_ignore_ascii_case("frame")
        {
            continue;
        }
        if head.header[..pos].iter().any(|h| h.eq_ignore_ascii_case(name)) {
            continue;
        }
        let action = match layout {
            UnityLayout::Recorder => {
                ACTIONS.iter().find(|(a, _)| a.eq_ignore_ascii_case(name)).map(|&(_, gpu)| gpu)
            }
            UnityLayout::Counters => {
                COUNTER_ACTIONS.iter().find(|(a, _)| counter_index(head, a) == Some(pos)).map(|&(_, gpu)| gpu)
            }
        };
        let spec = match action {
            Some(gpu) => ColumnSpec {
                pos,
                name: name.clone(),
                kind: if gpu { ColumnKind::EngineGpu } else { ColumnKind::EngineThread },
                scale,
                zero_missing: gpu,
            },
            None => ColumnSpec {
                pos,
                name: name.clone(),
                kind: ColumnKind::from_header(name),
                scale: 1.0,
                zero_missing: false,
            },
        };
        specs.push(spec);
    }
    specs
}

/// The warning for a recorder header that lacks some of the recorder's columns.
fn missing_recorder_columns(head: &Head) -> Option<Warning> {
    let missing: Vec<&str> = RECORDER_COLUMNS.iter().copied().filter(|c| head.find(c).is_none()).collect();
    (!missing.is_empty()).then(|| {
        Warning::at(
            head.header_line,
            format!(
                "read as a Unity FrameTimingManager capture (it has cpuFrameTime), but the header lacks the \
                 recorder's {}; figures that need them are left out",
                missing.join(", ")
            ),
        )
    })
}

/// The latency stages of every kept frame from its four timestamps (ticks): a stage
/// whose end is before its start, or without both ends, is missing.
fn stage_columns(ticks: &[[u64; 4]], timer_hz: f64) -> Vec<crate::model::Column> {
    STAGES
        .iter()
        .enumerate()
        .map(|(k, (name, _, _))| {
            let values = ticks
                .iter()
                .map(|t| {
                    let (a, b) = (t[k], t[k + 1]);
                    if a == MISSING_ID || b == MISSING_ID || b < a {
                        f64::NAN
                    } else {
                        ticks_ms(a, b, timer_hz)
                    }
                })
                .collect();
            crate::model::Column { name: (*name).to_owned(), kind: ColumnKind::LatencyStage, values }
        })
        .collect()
}

/// `to − from` ticks in ms (exact integers subtracted first).
fn ticks_ms(from: u64, to: u64, timer_hz: f64) -> f64 {
    if to >= from {
        (to - from) as f64 * 1000.0 / timer_hz
    } else {
        -((from - to) as f64) * 1000.0 / timer_hz
    }
}

/// The state of a Unity capture's rows while they are read.
struct UnityRows<'a> {
    ft_index: usize,
    /// The frame-time column's unit in ms.
    scale: f64,
    /// The four timestamp columns, where there are.
    stamps: &'a [Option<usize>],
    /// Per kept frame: the four timestamps (ticks, exact integers).
    ticks: Vec<[u64; 4]>,
}

impl RowFormat for UnityRows<'_> {
    fn frame(&mut self, acc: &mut Accumulator, rec: &csv::ByteRecord, line: u64) -> Result<(), SkipReason> {
        let ft = acc.frame_time(rec.get(self.ft_index), self.scale)?;
        acc.push(rec, ft, f64::NAN, line);
        let stamps = self.stamps;
        self.ticks.push(
            [0, 1, 2, 3].map(|k| {
                stamps.get(k).copied().flatten().and_then(|i| rec.get(i)).map_or(MISSING_ID, parse_id)
            }),
        );
        Ok(())
    }
}

/// The time axis: frameStartTimestamp, when every kept frame has one; else frames one
/// after another, with a warning when the column is there but has gaps.
fn place_frames(
    acc: &mut Accumulator,
    ticks: &[[u64; 4]],
    has_starts: bool,
    timer_hz: f64,
) -> Option<Warning> {
    let starts_known = has_starts && ticks.iter().all(|t| t[0] != MISSING_ID);
    if starts_known {
        let t0 = ticks.first().map_or(0, |t| t[0]);
        for (s, t) in acc.start_ms.iter_mut().zip(ticks) {
            *s = ticks_ms(t0, t[0], timer_hz);
        }
        return None;
    }
    let mut t = 0.0;
    for (s, ft) in acc.start_ms.iter_mut().zip(&acc.frame_time_ms) {
        *s = t;
        t += ft;
    }
    has_starts.then(|| {
        Warning::file(
            "some frames have no frameStartTimestamp: frames are placed one after another on the timeline",
        )
    })
}

/// Reads a Unity capture whose head was read already.
pub(super) fn load<R: Read>(
    path: &Path,
    head: &Head,
    reader: R,
    layout: UnityLayout,
    progress: &Progress,
) -> Result<Capture, LoadError> {
    let err = |line, msg: String| LoadError::new(path, line, LoadErrorKind::NotACapture(msg));
    let (ft_index, scale) = match layout {
        UnityLayout::Recorder => (head.find(FRAME_TIME), 1.0),
        UnityLayout::Counters => (counter_index(head, COUNTER_FRAME_TIME), 1e-6),
    };
    let Some(ft_index) = ft_index else {
        return Err(err(Some(head.header_line), "no cpuFrameTime column".into()));
    };
    let facts = header_facts(head);
    let fact = |key: &str| facts.as_ref()?.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    let mut warnings = Vec::new();
    let timer_hz = match fact("cpu_timer_frequency").map(|v| v.parse::<f64>()) {
        Some(Ok(hz)) if hz.is_finite() && hz > 0.0 => hz,
        Some(_) => {
            warnings.push(Warning::at(1, "cpu_timer_frequency is not a positive number; 10 MHz assumed"));
            DEFAULT_TIMER_HZ
        }
        None => DEFAULT_TIMER_HZ,
    };
    let target_fps =
        fact("target_fps").and_then(|v| v.parse::<f64>().ok()).filter(|v| v.is_finite() && *v > 0.0);

    // Columns: the actions, the other numeric columns (telemetry), in header order; the
    // frame column, the frame time and the timestamps have roles of their own.
    let stamps: Vec<Option<usize>> =
        ["frameStartTimestamp", "firstSubmitTimestamp", "cpuTimePresentCalled", "cpuTimeFrameComplete"]
            .iter()
            .map(|n| if layout == UnityLayout::Recorder { head.find(n) } else { None })
            .collect();
    let specs = column_specs(head, layout, ft_index, &stamps, scale);
    if layout == UnityLayout::Recorder {
        warnings.extend(missing_recorder_columns(head));
    }

    let mut acc = Accumulator::new(specs, head.decimal_comma());
    let mut state = UnityRows { ft_index, scale, stamps: &stamps, ticks: Vec::new() };
    read_frames(path, head, reader, &mut acc, progress, &mut state)?;
    let ticks = state.ticks;
    if acc.frame_time_ms.is_empty() {
        return Err(no_frames(path, &acc, format!("no row has a {} above 0", head.header[ft_index])));
    }

    warnings.extend(place_frames(&mut acc, &ticks, stamps[0].is_some(), timer_hz));
    acc.warnings.extend(warnings);
    let mut trace = acc.finish(meta_for(path));
    if stamps.iter().all(Option::is_some) {
        trace.frames.columns.extend(stage_columns(&ticks, timer_hz));
    }
    let mut system = Vec::new();
    for key in ["unity", "platform", "device", "target_fps", "vsync", "cpu_timer_frequency"] {
        if let Some(v) = fact(key) {
            system.push((key.to_owned(), v));
        }
    }
    let info = FileInfo {
        path: path.to_path_buf(),
        format: Format::Unity,
        format_version: match layout {
            UnityLayout::Recorder if facts.is_some() => "framescope recorder".into(),
            UnityLayout::Recorder => "FrameTimingManager CSV".into(),
            UnityLayout::Counters => "Profiler counters (ns)".into(),
        },
        system,
        dropped_known: false,
        target_fps,
    };
    Ok(Capture { info, traces: vec![trace], warnings: Vec::new() })
}
