//! PCL Stats marker logs (`formats.md` §6 and §9): the Display Commander text log and
//! framescope's plain marker CSV, and (through `etl`) an ETW trace holding the PCL
//! Stats events. All become a [`MarkerLog`]: timestamped markers with their FrameID,
//! and the PCLStatsInput pings when the log has them.

use super::error::{LoadError, LoadErrorKind};
use super::values::parse_or_nan;
use crate::model::Warning;
use std::io::BufReader;
use std::path::Path;

pub use crate::model::markers::{Marker, MarkerLog, MarkerLogFormat};

/// Reads a marker log, detecting its kind from its content: an .etl (its own clock
/// rate is used), else text by its first lines. Lines are read one at a time and never
/// kept: memory grows with the markers, not with the file (a log of blank lines costs
/// nothing).
pub fn load_marker_log(path: &Path, qpc_frequency_hz: f64) -> Result<MarkerLog, LoadError> {
    if super::etl::is_etl_file(path) {
        return super::etl::load_marker_log(path);
    }
    let err = |line, kind| LoadError::new(path, line, kind);
    let file = super::open::open_input(path)?;
    let mut reader = BufReader::new(file);
    let mut parser = Parser::new(qpc_frequency_hz);
    let mut buf = Vec::new();
    let mut line_no = 0u64;
    loop {
        buf.clear();
        line_no += 1;
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
        parser.line(line_no, text.trim_end_matches(['\r', '\n']).trim_start_matches('\u{feff}'));
        if parser.is_unknown_kind() {
            return Err(not_a_marker_log(path));
        }
    }
    parser.finish(path)
}

/// Parses the lines of a marker log.
pub fn parse_marker_log(
    path: &Path,
    lines: &[String],
    qpc_frequency_hz: f64,
) -> Result<MarkerLog, LoadError> {
    let mut parser = Parser::new(qpc_frequency_hz);
    for (i, line) in lines.iter().enumerate() {
        parser.line(i as u64 + 1, line);
        if parser.is_unknown_kind() {
            return Err(not_a_marker_log(path));
        }
    }
    parser.finish(path)
}

fn not_a_marker_log(path: &Path) -> LoadError {
    let msg = "not a PCL Stats marker log: expected a Display Commander log ('# PCLStats Event Log') \
               or a CSV with the columns timestamp_ns (or qpc), event, marker_id, frame_id"
        .to_owned();
    LoadError::new(path, Some(1), LoadErrorKind::NotACapture(msg))
}

/// Bad lines of one kind: how many, and the first few (listed one by one when few,
/// else one warning that counts them), as the capture reader groups skipped rows.
#[derive(Debug, Default)]
struct BadLines {
    count: u64,
    first: Vec<u64>,
}

impl BadLines {
    const LIST: usize = 5;

    fn add(&mut self, line: u64) {
        self.count += 1;
        if self.first.len() < Self::LIST {
            self.first.push(line);
        }
    }

    fn warnings(&self, one: &str, many: &str, out: &mut Vec<Warning>) {
        if self.count <= Self::LIST as u64 {
            out.extend(self.first.iter().map(|&l| Warning::at(l, one)));
        } else if let Some(&line) = self.first.first() {
            let list: Vec<String> = self.first.iter().map(u64::to_string).collect();
            out.push(Warning::at(
                line,
                format!("{} lines {many} (lines {}, …)", self.count, list.join(", ")),
            ));
        }
    }
}

/// The kind of log, known from its first non-blank line.
enum Kind {
    Unknown,
    NotALog,
    /// `Timestamp(ms), MarkerID, MarkerName, FrameID, TimestampNS` lines; `#` lines
    /// are comments. The log is appended across sessions: only the last is used.
    DisplayCommander {
        sessions: u32,
        in_header: bool,
    },
    /// `timestamp_ns,event,marker_id,frame_id` (or a `qpc` column in ticks).
    PlainCsv {
        time_col: Option<usize>,
        ms_per_unit: f64,
        cols: [Option<usize>; 3],
    },
}

/// A marker log read line by line.
struct Parser {
    qpc_frequency_hz: f64,
    kind: Kind,
    markers: Vec<Marker>,
    inputs: Vec<f64>,
    not_marker: BadLines,
    no_time: BadLines,
    no_ids: BadLines,
}

impl Parser {
    fn new(qpc_frequency_hz: f64) -> Self {
        Self {
            qpc_frequency_hz,
            kind: Kind::Unknown,
            markers: Vec::new(),
            inputs: Vec::new(),
            not_marker: BadLines::default(),
            no_time: BadLines::default(),
            no_ids: BadLines::default(),
        }
    }

    fn is_unknown_kind(&self) -> bool {
        matches!(self.kind, Kind::NotALog)
    }

    fn line(&mut self, line_no: u64, line: &str) {
        let t = line.trim();
        if matches!(self.kind, Kind::Unknown) {
            if t.is_empty() {
                return;
            }
            self.kind = if t.starts_with('#') {
                Kind::DisplayCommander { sessions: 0, in_header: false }
            } else if t.to_ascii_lowercase().contains("event") {
                let header: Vec<String> = line.split(',').map(|s| s.trim().to_ascii_lowercase()).collect();
                let col = |name: &str| header.iter().position(|h| h == name);
                let (time_col, ms_per_unit) = match (col("timestamp_ns"), col("qpc")) {
                    (Some(i), _) => (Some(i), 1e-6),
                    (None, Some(i)) => (Some(i), 1000.0 / self.qpc_frequency_hz),
                    (None, None) => (None, 1.0),
                };
                let cols = [col("event"), col("marker_id"), col("frame_id")];
                // The header is no marker line.
                self.kind = Kind::PlainCsv { time_col, ms_per_unit, cols };
                return;
            } else {
                Kind::NotALog
            };
        }
        match &mut self.kind {
            Kind::Unknown | Kind::NotALog => {}
            Kind::DisplayCommander { sessions, in_header } => {
                if t.starts_with('#') {
                    if !*in_header && t.contains("PCLStats Event Log") {
                        *sessions += 1;
                        self.markers.clear();
                    }
                    *in_header = true;
                    return;
                }
                *in_header = false;
                if t.is_empty() {
                    return;
                }
                let mut f = t.split(',').map(str::trim);
                let (ms, marker, _, frame, ns) = (f.next(), f.next(), f.next(), f.next(), f.next());
                let ns = ns.map_or(f64::NAN, |v| parse_or_nan(v.as_bytes()));
                let ms = ms.map_or(f64::NAN, |v| parse_or_nan(v.as_bytes()));
                let time_ms = if ns.is_finite() { ns / 1e6 } else { ms };
                match (marker.and_then(|v| v.parse::<u32>().ok()), frame.and_then(|v| v.parse::<u64>().ok()))
                {
                    (Some(marker), Some(frame_id)) if time_ms.is_finite() => {
                        self.markers.push(Marker { time_ms, marker, frame_id });
                    }
                    _ => self.not_marker.add(line_no),
                }
            }
            Kind::PlainCsv { time_col, ms_per_unit, cols } => {
                if t.is_empty() {
                    return;
                }
                let (time_col, ms_per_unit, [event_col, marker_col, frame_col]) =
                    (*time_col, *ms_per_unit, *cols);
                let field = |c: Option<usize>| c.and_then(|c| line.split(',').nth(c)).map_or("", str::trim);
                let time_ms = parse_or_nan(field(time_col).as_bytes()) * ms_per_unit;
                let event = field(event_col);
                if !time_ms.is_finite() {
                    self.no_time.add(line_no);
                } else if event.eq_ignore_ascii_case("PCLStatsInput") {
                    self.inputs.push(time_ms);
                } else if event.starts_with("PCLStatsEvent") {
                    match (field(marker_col).parse::<u32>(), field(frame_col).parse::<u64>()) {
                        (Ok(marker), Ok(frame_id)) => self.markers.push(Marker { time_ms, marker, frame_id }),
                        _ => self.no_ids.add(line_no),
                    }
                }
            }
        }
    }

    fn finish(mut self, path: &Path) -> Result<MarkerLog, LoadError> {
        let mut warnings = Vec::new();
        let log = match self.kind {
            Kind::Unknown | Kind::NotALog => return Err(not_a_marker_log(path)),
            Kind::DisplayCommander { sessions, .. } => {
                self.not_marker.warnings(
                    "not a marker line; skipped",
                    "are not marker lines; skipped",
                    &mut warnings,
                );
                if sessions > 1 {
                    warnings.push(Warning::file(format!(
                        "the log holds {sessions} sessions; the last one is used"
                    )));
                }
                MarkerLog {
                    format: MarkerLogFormat::DisplayCommander,
                    markers: self.markers,
                    inputs_ms: None,
                    warnings,
                }
            }
            Kind::PlainCsv { .. } => {
                self.no_time.warnings(
                    "no usable timestamp; skipped",
                    "have no usable timestamp; skipped",
                    &mut warnings,
                );
                self.no_ids.warnings(
                    "marker without a marker_id and frame_id; skipped",
                    "are markers without a marker_id and frame_id; skipped",
                    &mut warnings,
                );
                warnings.sort_by_key(|w| w.line);
                self.inputs.sort_by(f64::total_cmp);
                MarkerLog {
                    format: MarkerLogFormat::PlainCsv,
                    markers: self.markers,
                    inputs_ms: Some(self.inputs),
                    warnings,
                }
            }
        };
        if log.markers.is_empty() {
            let msg = "the marker log holds no PCLStatsEvent markers".to_owned();
            return Err(LoadError::new(path, None, LoadErrorKind::NoFrames(msg)));
        }
        Ok(log)
    }
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
