//! PCL Stats marker logs (`formats.md` §6 and §9): the Display Commander text log and
//! framescope's plain marker CSV. Both become a [`MarkerLog`]: timestamped markers
//! with their FrameID, and the PCLStatsInput pings when the log has them.

use super::error::{LoadError, LoadErrorKind};
use super::values::parse_or_nan;
use crate::model::Warning;
use std::io::BufReader;
use std::path::Path;

/// PCL Stats marker ids (`NV_LATENCY_MARKER_TYPE`).
pub mod marker {
    /// Start of the frame's simulation.
    pub const SIMULATION_START: u32 = 0;
    /// Start of render submission.
    pub const RENDERSUBMIT_START: u32 = 2;
    /// Start of Present().
    pub const PRESENT_START: u32 = 4;
    /// The frame that sampled a latency ping.
    pub const PC_LATENCY_PING: u32 = 8;
}

/// Which kind of marker log it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkerLogFormat {
    /// `DisplayCommander_PCLStats.log`: markers only, no input events.
    DisplayCommander,
    /// `timestamp_ns,event,marker_id,frame_id` (or `qpc,...`).
    PlainCsv,
}

/// One marker event.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Marker {
    /// Time in ms on the log's own clock.
    pub time_ms: f64,
    /// Marker id.
    pub marker: u32,
    /// The app's FrameID.
    pub frame_id: u64,
}

/// A loaded marker log.
#[derive(Debug, Clone)]
pub struct MarkerLog {
    /// The kind of log.
    pub format: MarkerLogFormat,
    /// Markers in file order.
    pub markers: Vec<Marker>,
    /// Times (ms) of PCLStatsInput events; `None` when the format cannot hold them.
    pub inputs_ms: Option<Vec<f64>>,
    /// Problems found while reading.
    pub warnings: Vec<Warning>,
}

/// Reads a marker log, detecting its kind from its first lines.
pub fn load_marker_log(path: &Path, qpc_frequency_hz: f64) -> Result<MarkerLog, LoadError> {
    let err = |line, kind| LoadError::new(path, line, kind);
    let file = std::fs::File::open(path).map_err(|e| err(None, LoadErrorKind::Io(e)))?;
    let mut reader = BufReader::new(file);
    let mut lines = Vec::new();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let line_no = lines.len() as u64 + 1;
        let n = super::preamble::read_line_capped(&mut reader, &mut buf)
            .map_err(|e| err(Some(line_no), LoadErrorKind::Io(e)))?;
        if n == 0 {
            break;
        }
        if buf.len() > super::preamble::MAX_PREAMBLE_LINE_BYTES || buf.contains(&0) {
            let msg = "not a PCL Stats marker log (binary data or an overlong line)".to_owned();
            return Err(err(Some(line_no), LoadErrorKind::NotACapture(msg)));
        }
        let text = String::from_utf8_lossy(&buf);
        lines.push(text.trim_end_matches(['\r', '\n']).trim_start_matches('\u{feff}').to_owned());
    }
    parse_marker_log(path, &lines, qpc_frequency_hz)
}

/// Parses the lines of a marker log.
pub fn parse_marker_log(
    path: &Path,
    lines: &[String],
    qpc_frequency_hz: f64,
) -> Result<MarkerLog, LoadError> {
    let first = lines.iter().map(|l| l.trim()).find(|l| !l.is_empty()).unwrap_or("");
    let log = if first.starts_with('#') {
        display_commander(lines)
    } else if first.to_ascii_lowercase().contains("event") {
        plain_csv(lines, qpc_frequency_hz)
    } else {
        let msg = "not a PCL Stats marker log: expected a Display Commander log ('# PCLStats Event Log') \
                   or a CSV with the columns timestamp_ns (or qpc), event, marker_id, frame_id"
            .to_owned();
        return Err(LoadError::new(path, Some(1), LoadErrorKind::NotACapture(msg)));
    };
    if log.markers.is_empty() {
        let msg = "the marker log holds no PCLStatsEvent markers".to_owned();
        return Err(LoadError::new(path, None, LoadErrorKind::NoFrames(msg)));
    }
    Ok(log)
}

/// `Timestamp(ms), MarkerID, MarkerName, FrameID, TimestampNS` lines; `#` lines are
/// comments. The log is appended across sessions: only the last session is used.
fn display_commander(lines: &[String]) -> MarkerLog {
    let mut markers = Vec::new();
    let mut warnings = Vec::new();
    let mut sessions = 0;
    let mut in_header = false;
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if t.starts_with('#') {
            if !in_header && t.contains("PCLStats Event Log") {
                sessions += 1;
                markers.clear();
            }
            in_header = true;
            continue;
        }
        in_header = false;
        if t.is_empty() {
            continue;
        }
        let f: Vec<&str> = t.split(',').map(str::trim).collect();
        let ns = f.get(4).map_or(f64::NAN, |v| parse_or_nan(v.as_bytes()));
        let ms = f.first().map_or(f64::NAN, |v| parse_or_nan(v.as_bytes()));
        let time_ms = if ns.is_finite() { ns / 1e6 } else { ms };
        match (f.get(1).and_then(|v| v.parse::<u32>().ok()), f.get(3).and_then(|v| v.parse::<u64>().ok())) {
            (Some(marker), Some(frame_id)) if time_ms.is_finite() => {
                markers.push(Marker { time_ms, marker, frame_id });
            }
            _ => warnings.push(Warning::at(i as u64 + 1, "not a marker line; skipped")),
        }
    }
    if sessions > 1 {
        warnings.push(Warning::file(format!("the log holds {sessions} sessions; the last one is used")));
    }
    MarkerLog { format: MarkerLogFormat::DisplayCommander, markers, inputs_ms: None, warnings }
}

/// `timestamp_ns,event,marker_id,frame_id` (or a `qpc` column in ticks).
fn plain_csv(lines: &[String], qpc_frequency_hz: f64) -> MarkerLog {
    let mut markers = Vec::new();
    let mut inputs = Vec::new();
    let mut warnings = Vec::new();
    let mut rows = lines.iter().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let header: Vec<String> = rows
        .next()
        .map(|(_, h)| h.split(',').map(|s| s.trim().to_ascii_lowercase()).collect())
        .unwrap_or_default();
    let col = |name: &str| header.iter().position(|h| h == name);
    let (time_col, ms_per_unit) = match (col("timestamp_ns"), col("qpc")) {
        (Some(i), _) => (Some(i), 1e-6),
        (None, Some(i)) => (Some(i), 1000.0 / qpc_frequency_hz),
        (None, None) => (None, 1.0),
    };
    let (event_col, marker_col, frame_col) = (col("event"), col("marker_id"), col("frame_id"));
    for (i, line) in rows {
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        let get = |c: Option<usize>| c.and_then(|c| f.get(c)).copied().unwrap_or("");
        let time_ms = parse_or_nan(get(time_col).as_bytes()) * ms_per_unit;
        let event = get(event_col);
        let line_no = i as u64 + 1;
        if !time_ms.is_finite() {
            warnings.push(Warning::at(line_no, "no usable timestamp; skipped"));
        } else if event.eq_ignore_ascii_case("PCLStatsInput") {
            inputs.push(time_ms);
        } else if event.starts_with("PCLStatsEvent") {
            match (get(marker_col).parse::<u32>(), get(frame_col).parse::<u64>()) {
                (Ok(marker), Ok(frame_id)) => markers.push(Marker { time_ms, marker, frame_id }),
                _ => warnings.push(Warning::at(line_no, "marker without a marker_id and frame_id; skipped")),
            }
        }
    }
    inputs.sort_by(f64::total_cmp);
    MarkerLog { format: MarkerLogFormat::PlainCsv, markers, inputs_ms: Some(inputs), warnings }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn display_commander_keeps_the_last_session() {
        let text = "# PCLStats Event Log\n# Format: x\n#\n1.000000, 0, SIMULATION_START, 7, 1000000\n\
                    # PCLStats Event Log\n# Format: x\n2.500000, 0, SIMULATION_START, 1, 2500000\n\
                    2.600000, 4, PRESENT_START, 1, 2600000\ngarbage\n# Logging stopped\n";
        let log = parse_marker_log(Path::new("dc.log"), &lines(text), 1e7).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(log.format, MarkerLogFormat::DisplayCommander);
        assert_eq!(log.markers.len(), 2);
        assert_eq!(log.markers[1], Marker { time_ms: 2.6, marker: 4, frame_id: 1 });
        assert!(log.inputs_ms.is_none());
        assert_eq!(log.warnings.len(), 2); // the garbage line and the sessions note
    }

    #[test]
    fn plain_csv_with_qpc_ticks() {
        let text = "qpc,event,marker_id,frame_id\n100000,PCLStatsEvent,0,5\n130000,PCLStatsInput,,\n";
        let log = parse_marker_log(Path::new("m.csv"), &lines(text), 1e7).unwrap_or_else(|e| panic!("{e}"));
        assert!((log.markers[0].time_ms - 10.0).abs() < 1e-12);
        assert_eq!(log.inputs_ms, Some(vec![13.0]));
        assert!(parse_marker_log(Path::new("x"), &lines("a,b\n1,2"), 1e7).is_err());
    }
}
