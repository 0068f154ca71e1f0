//! CapFrameX on Linux: the CSV its Vulkan layer's sessions are
//! saved as, `MsBetweenPresents,MsUntilRenderComplete,MsUntilDisplayed,MsActualPresent`
//! (every value `%.2f` ms), and the JSON metadata file of the same name beside it.
//!
//! Quirks (from CapFrameX's `capframex-linux` `SessionIO`, no public capture found):
//! * `MsBetweenPresents` is the CPU-side present interval: the frame time.
//! * `MsActualPresent` is the interval between this frame's actual present time and
//!   the previous one's, as `VK_EXT_present_timing` reports it: the display interval
//!   (`metrics.md` §1, the `display` source).
//! * Where the driver gave no present timing the layer writes `0.00` in
//!   `MsUntilRenderComplete`, `MsUntilDisplayed` and `MsActualPresent`: a placeholder,
//!   read as missing, never as 0 ms. A capture whose `MsActualPresent` is 0 throughout
//!   has no display data at all (a note says so).
//! * No `Dropped` column: whether a frame was dropped is unknown.
//! * The sidecar `NAME.json` (camelCase: `game`, `gpu`, `resolution`, `timingMode`,
//!   `startTime`/`endTime` in Unix seconds, `durationSeconds`, `frameCount`) becomes
//!   the capture's system info; a missing or unreadable one is no error.

use super::builder::SkipReason;
use super::engine_rows::{RowFormat, no_frames, read_frames};
use super::table::{Accumulator, ColumnSpec, Head, meta_for, number};
use super::values::Cell;
use super::{LoadError, LoadErrorKind, Progress};
use crate::model::{Capture, ColumnKind, FileInfo, Format, Warning};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The frame-time column.
pub const FRAME_TIME: &str = "MsBetweenPresents";
/// The display-interval column that tells this layout from PresentMon's.
pub const ACTUAL_PRESENT: &str = "MsActualPresent";
/// A metadata file is a few hundred bytes; more than this is not one.
const MAX_SIDECAR_BYTES: u64 = 64 * 1024;
/// The sidecar's keys, in the order they become system info.
const SIDECAR_KEYS: [&str; 8] =
    ["game", "gpu", "resolution", "timingMode", "startTime", "endTime", "durationSeconds", "frameCount"];

/// True for the header CapFrameX's Linux layer writes (any case, any order, extra
/// columns allowed), without PresentMon's identity columns.
#[must_use]
pub fn sniff(lower: &[String], presentmon: bool) -> bool {
    let has = |n: &str| lower.iter().any(|h| h.eq_ignore_ascii_case(n));
    !presentmon && has(FRAME_TIME) && has(ACTUAL_PRESENT)
}

/// The state of the rows while they are read.
struct LinuxRows {
    ft: usize,
    actual: usize,
    decimal_comma: bool,
    /// Per kept frame: the display interval, NaN for a placeholder 0.
    display: Vec<f64>,
}

impl RowFormat for LinuxRows {
    fn frame(&mut self, acc: &mut Accumulator, rec: &csv::ByteRecord, line: u64) -> Result<(), SkipReason> {
        let ft = acc.frame_time(rec.get(self.ft), 1.0)?;
        acc.push(rec, ft, f64::NAN, line);
        let display = match rec.get(self.actual).map(|c| number(c, self.decimal_comma)) {
            Some(Cell::Number(v)) if v > 0.0 && super::overflow::plausible_duration(v) => v,
            _ => f64::NAN,
        };
        self.display.push(display);
        Ok(())
    }
}

/// The columns beside the frame time: the two latency columns (a 0 is a placeholder)
/// and any other column as the header names it.
fn column_specs(head: &Head, ft: usize, actual: usize) -> Vec<ColumnSpec> {
    let mut specs = Vec::new();
    for (pos, name) in head.header.iter().enumerate() {
        if pos == ft || pos == actual || name.is_empty() || head.find(name) != Some(pos) {
            continue;
        }
        let kind = ColumnKind::from_header(name);
        let zero_missing = matches!(kind, ColumnKind::UntilRenderComplete | ColumnKind::UntilDisplayed);
        specs.push(ColumnSpec { pos, name: name.clone(), kind, scale: 1.0, zero_missing });
    }
    specs
}

/// Reads a CapFrameX Linux CSV whose head was read already.
pub(super) fn load<R: Read>(
    path: &Path,
    head: &Head,
    reader: R,
    progress: &Progress,
) -> Result<Capture, LoadError> {
    let missing = |what: &str| {
        LoadError::new(path, Some(head.header_line), LoadErrorKind::NotACapture(format!("no {what} column")))
    };
    let ft = head.find(FRAME_TIME).ok_or_else(|| missing(FRAME_TIME))?;
    let actual = head.find(ACTUAL_PRESENT).ok_or_else(|| missing(ACTUAL_PRESENT))?;
    let mut acc = Accumulator::new(column_specs(head, ft, actual), head.decimal_comma());
    let mut state = LinuxRows { ft, actual, decimal_comma: head.decimal_comma(), display: Vec::new() };
    read_frames(path, head, reader, &mut acc, progress, &mut state)?;
    if acc.frame_time_ms.is_empty() {
        return Err(no_frames(path, &acc, format!("no row has a {FRAME_TIME} above 0")));
    }
    let mut t = 0.0;
    for (s, ft) in acc.start_ms.iter_mut().zip(&acc.frame_time_ms) {
        *s = t;
        t += ft;
    }
    let mut warnings = Vec::new();
    let mut trace = acc.finish(meta_for(path));
    if state.display.iter().any(|d| !d.is_nan()) {
        trace.frames.display_ms = state.display;
    } else {
        warnings.push(Warning::note(format!(
            "{ACTUAL_PRESENT} is 0 on every row (the driver gave the layer no present timing): the capture has \
             no display data"
        )));
    }
    let (system, sidecar_warning) = read_sidecar(path);
    warnings.extend(sidecar_warning);
    // The sidecar's game names the trace (the file name is the game's and a time).
    if let Some((_, game)) = system.iter().find(|(k, _)| k == "game") {
        trace.meta.application.clone_from(game);
    }
    let info = FileInfo {
        path: path.to_path_buf(),
        format: Format::CapFrameXLinux,
        format_version: "Linux Vulkan layer CSV".into(),
        system,
        dropped_known: false,
        target_fps: None,
    };
    Ok(Capture { info, traces: vec![trace], warnings })
}

/// `Game_20260112_201500.csv` → `Game_20260112_201500.json` (`None` for a path that
/// does not end in `.csv`: a gzip, stdin).
fn sidecar_path(csv: &Path) -> Option<PathBuf> {
    let ext = csv.extension()?.to_str()?;
    ext.eq_ignore_ascii_case("csv").then(|| csv.with_extension("json"))
}

/// The sidecar's facts as system info, in [`SIDECAR_KEYS`] order; a warning when the
/// file is there but is no JSON object.
fn read_sidecar(csv: &Path) -> (Vec<(String, String)>, Option<Warning>) {
    let Some(path) = sidecar_path(csv) else { return (Vec::new(), None) };
    let Ok(file) = std::fs::File::open(&path) else { return (Vec::new(), None) };
    let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let mut text = String::new();
    let read = file.take(MAX_SIDECAR_BYTES).read_to_string(&mut text);
    let parsed = read.ok().and_then(|_| serde_json::from_str::<serde_json::Value>(&text).ok());
    let Some(serde_json::Value::Object(map)) = parsed else {
        let w =
            Warning::file(format!("{name} beside the capture is not CapFrameX's JSON metadata: left out"));
        return (Vec::new(), Some(w));
    };
    (sidecar_facts(&map), None)
}

/// The known keys of a sidecar object (any case) with a value that is text or a number.
fn sidecar_facts(map: &serde_json::Map<String, serde_json::Value>) -> Vec<(String, String)> {
    let mut system = Vec::new();
    for key in SIDECAR_KEYS {
        let value = map.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v);
        let text = match value {
            Some(serde_json::Value::String(s)) if !s.trim().is_empty() => s.trim().to_owned(),
            Some(serde_json::Value::Number(n)) => n.to_string(),
            _ => continue,
        };
        system.push((key.to_owned(), text));
    }
    system
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_is_known_by_its_actual_present_column() {
        let lower = |h: &str| h.split(',').map(str::to_ascii_lowercase).collect::<Vec<_>>();
        let h = lower("MsBetweenPresents,MsUntilRenderComplete,MsUntilDisplayed,MsActualPresent");
        assert!(sniff(&h, false));
        assert!(!sniff(&h, true));
        assert!(!sniff(&lower("MsBetweenPresents,MsUntilDisplayed"), false));
    }

    #[test]
    fn sidecar_facts_keep_text_and_numbers_in_order() {
        let v: serde_json::Value = serde_json::from_str(
            r#"{"frameCount":3,"Game":"vkcube","gpu":"","timingMode":"present_timing","x":[1]}"#,
        )
        .unwrap_or_default();
        let facts = v.as_object().map(sidecar_facts).unwrap_or_default();
        let want = [("game", "vkcube"), ("timingMode", "present_timing"), ("frameCount", "3")];
        let want: Vec<(String, String)> =
            want.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        assert_eq!(facts, want);
        assert_eq!(sidecar_path(Path::new("/d/a.csv")), Some(PathBuf::from("/d/a.json")));
        assert_eq!(sidecar_path(Path::new("/d/a.csv.gz")), None);
    }
}
