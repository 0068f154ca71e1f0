//! Generic per-frame CSVs (`formats.md` §11): any CSV with a header row whose
//! frame-time column (or per-frame timestamp column) the user names, and the layouts
//! known without a mapping — FRAPS `frametimes.csv` (a running clock in ms), the Unity
//! Profile Analyzer's *Single Frame Times* export, the Vulkan frame-time layer and a
//! game benchmark's `frame, fps, time` export (a running clock in seconds, guessed:
//! its run says so, and a `--column` mapping replaces the guess).
//! `;`-separated files with decimal commas are read too.
//!
//! A timestamp column gives one frame fewer than it has rows: frame `i`'s time is
//! `t_i − t_k`, `k` the last row kept before it; the first row starts the clock. A row
//! skipped (no timestamp, one that goes back, a 0 or implausible interval) does not
//! move the clock. Every other column with numbers is telemetry,
//! except frame-number columns.

use super::builder::SkipReason;
use super::engine_rows::{RowFormat, no_frames, read_frames};
pub use super::generic_extra::{ExtraColumn, ExtraRole, unit_from_name};
use super::table::{Accumulator, ColumnSpec, Head, meta_for, number};
use super::values::Cell;
use super::{LoadError, LoadErrorKind, Progress};
pub use crate::model::TimeUnit;
use crate::model::{Capture, ColumnKind, FileInfo, Format, Warning, WarningKind};
use serde::{Deserialize, Serialize};
use std::io::Read;
use std::path::Path;

/// What the named column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MappedRole {
    /// Each row's frame time.
    FrameTime,
    /// Each row's timestamp: frame times are the differences.
    Timestamp,
}

/// The user's mapping of a generic CSV: which column, what it holds, its unit.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ColumnMapping {
    /// Frame times or timestamps.
    pub role: MappedRole,
    /// The column's header name (matched trimmed, any case).
    pub column: String,
    /// Its unit.
    pub unit: TimeUnit,
    /// Further columns named with a role (GPU time, CPU time, PC latency, telemetry).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<ExtraColumn>,
}

impl ColumnMapping {
    /// A mapping of the frame-time (or timestamp) column alone.
    #[must_use]
    pub fn new(role: MappedRole, column: &str, unit: TimeUnit) -> Self {
        Self { role, column: column.to_owned(), unit, extra: Vec::new() }
    }
}

/// The generic layouts known without a mapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KnownLayout {
    /// FRAPS `Frame, Time (ms)`: a running clock in ms.
    Fraps,
    /// Unity Profile Analyzer *Single Frame Times*.
    ProfileAnalyzer,
    /// google/vulkan-performance-layers frame-time layer.
    VulkanLayer,
    /// A game's built-in benchmark export, `frame, fps, time` (Metro Exodus and the
    /// like): `time` a running clock in seconds, guessed from the header (a warning
    /// says so, [`WarningKind::GuessedTimeColumn`]).
    GameBenchmark,
}

impl KnownLayout {
    /// The mapping the layout stands for.
    #[must_use]
    pub fn mapping(self) -> ColumnMapping {
        let (role, column, unit) = match self {
            Self::Fraps => (MappedRole::Timestamp, "Time (ms)", TimeUnit::Millis),
            Self::ProfileAnalyzer => (MappedRole::FrameTime, "Frame Time (ms)", TimeUnit::Millis),
            Self::VulkanLayer => (MappedRole::FrameTime, "Frame Time (ns)", TimeUnit::Nanos),
            Self::GameBenchmark => (MappedRole::Timestamp, "time", TimeUnit::Seconds),
        };
        ColumnMapping { role, column: column.to_owned(), unit, extra: Vec::new() }
    }

    fn label(self) -> &'static str {
        match self {
            Self::Fraps => "FRAPS frametimes",
            Self::ProfileAnalyzer => "Unity Profile Analyzer frame times",
            Self::VulkanLayer => "Vulkan frame-time layer",
            Self::GameBenchmark => "game benchmark (frame, fps, time)",
        }
    }
}

/// Frame-number columns: no telemetry.
fn is_frame_number(name: &str) -> bool {
    let n: String = name.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_ascii_lowercase();
    matches!(
        n.as_str(),
        "frame" | "frameindex" | "frameoffset" | "framenumber" | "frameno" | "frameid" | "index"
    )
}

/// The frame-time column a user most likely means, for the window's *Map columns*
/// step: a column named like a frame time (`frame time`, `frametime`, `ms`, …) with
/// positive numbers, else one named like a timestamp, else the first numeric column
/// whose values look like frame times (median 1–1000 in some unit). `samples[k]` are
/// the first rows' cells of column `k`.
#[must_use]
pub fn suggest(header: &[String], samples: &[Vec<String>], decimal_comma: bool) -> Option<ColumnMapping> {
    let numbers = |k: usize| -> Vec<f64> {
        samples
            .get(k)
            .map(|cells| {
                cells
                    .iter()
                    .filter_map(|c| match number(c.as_bytes(), decimal_comma) {
                        Cell::Number(v) => Some(v),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let squash = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_ascii_lowercase();
    let frame_words =
        ["frametime", "frame_time", "frametimes", "bildzeit", "msbetweenpresents", "deltatime", "dt"];
    for (k, name) in header.iter().enumerate() {
        let s = squash(name);
        let looks = frame_words.iter().any(|w| s.starts_with(&squash(w)))
            || (s.starts_with("frame") && (s.ends_with("ms") || s.ends_with("us") || s.ends_with("ns")));
        if looks && numbers(k).iter().any(|v| *v > 0.0) {
            return Some(ColumnMapping {
                role: MappedRole::FrameTime,
                column: name.clone(),
                unit: unit_from_name(name),
                extra: Vec::new(),
            });
        }
    }
    for (k, name) in header.iter().enumerate() {
        let s = squash(name);
        let looks = ["time", "timestamp", "elapsed", "zeit", "clock"].iter().any(|w| s.starts_with(w));
        let v = numbers(k);
        if looks && v.len() >= 2 && v.windows(2).all(|w| w[1] >= w[0]) {
            return Some(ColumnMapping {
                role: MappedRole::Timestamp,
                column: name.clone(),
                unit: unit_from_name(name),
                extra: Vec::new(),
            });
        }
    }
    header.iter().enumerate().find_map(|(k, name)| {
        let mut v = numbers(k);
        v.sort_by(f64::total_cmp);
        let median = *v.get(v.len() / 2)?;
        let unit = unit_from_name(name);
        let ms = median * unit.to_ms();
        (!is_frame_number(name) && v.first().is_some_and(|x| *x > 0.0) && (1.0..=1000.0).contains(&ms)).then(
            || ColumnMapping { role: MappedRole::FrameTime, column: name.clone(), unit, extra: Vec::new() },
        )
    })
}

/// The mapped column's index, or an error that names the header's columns.
fn find_column(path: &Path, head: &Head, column: &str) -> Result<usize, LoadError> {
    head.find(column).ok_or_else(|| {
        LoadError::new(
            path,
            Some(head.header_line),
            LoadErrorKind::UnknownColumns(Box::new(super::UnknownColumns {
                message: format!(
                    "no column named '{}'; the header's columns are: {}",
                    column,
                    list_columns(&head.header)
                ),
                columns: head.header.clone(),
                decimal_comma: head.decimal_comma(),
                samples: Vec::new(),
            })),
        )
    })
}

/// Every column but `used` ones, frame numbers and repeats: telemetry and the like.
fn telemetry_specs(head: &Head, used: &[Option<usize>]) -> Vec<ColumnSpec> {
    head.header
        .iter()
        .enumerate()
        .filter(|&(pos, name)| {
            !used.contains(&Some(pos))
                && !name.is_empty()
                && !is_frame_number(name)
                && !head.header[..pos].iter().any(|h| h.eq_ignore_ascii_case(name))
        })
        .map(|(pos, name)| ColumnSpec {
            pos,
            name: name.clone(),
            kind: ColumnKind::from_header(name),
            scale: 1.0,
            zero_missing: false,
        })
        .collect()
}

/// The frame times (ms) `mapping` gives on the first rows of an unknown CSV
/// ([`super::UnknownColumns::samples`]): for the *Map columns* step's preview.
#[must_use]
pub fn preview(unknown: &super::UnknownColumns, mapping: &ColumnMapping) -> Vec<f64> {
    let Some(k) = unknown.columns.iter().position(|c| c.trim().eq_ignore_ascii_case(mapping.column.trim()))
    else {
        return Vec::new();
    };
    let values: Vec<Option<f64>> = unknown
        .samples
        .get(k)
        .map(|cells| {
            cells
                .iter()
                .map(|c| match number(c.as_bytes(), unknown.decimal_comma) {
                    Cell::Number(v) => Some(v * mapping.unit.to_ms()),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    match mapping.role {
        MappedRole::FrameTime => values.into_iter().flatten().filter(|v| *v > 0.0).collect(),
        MappedRole::Timestamp => {
            let stamps: Vec<f64> = values.into_iter().flatten().collect();
            stamps.windows(2).map(|w| w[1] - w[0]).filter(|v| *v > 0.0).collect()
        }
    }
}

/// The state of a generic CSV's rows while they are read.
struct GenericRows {
    role: MappedRole,
    /// The mapped column.
    index: usize,
    /// The mapped unit in ms.
    scale: f64,
    /// The Profile Analyzer's own time-axis column.
    axis: Option<usize>,
    decimal_comma: bool,
    /// Timestamps: the clock's first value and the previous row's.
    clock: Option<(f64, f64)>,
    /// The Profile Analyzer's own time axis per kept frame (NaN where a row has none).
    axis_ms: Vec<f64>,
}

impl RowFormat for GenericRows {
    fn frame(&mut self, acc: &mut Accumulator, rec: &csv::ByteRecord, line: u64) -> Result<(), SkipReason> {
        match self.role {
            MappedRole::FrameTime => {
                let ft = acc.frame_time(rec.get(self.index), self.scale)?;
                let start = acc.start_ms.last().zip(acc.frame_time_ms.last()).map_or(0.0, |(s, f)| s + f);
                acc.push(rec, ft, start, line);
                if let Some(a) = self.axis {
                    self.axis_ms.push(match rec.get(a).map(|c| number(c, self.decimal_comma)) {
                        Some(Cell::Number(v)) => v,
                        _ => f64::NAN,
                    });
                }
                Ok(())
            }
            MappedRole::Timestamp => {
                let t = match rec.get(self.index).map_or(Cell::Missing, |c| number(c, self.decimal_comma)) {
                    Cell::Number(t) => t,
                    Cell::Missing => return Err(SkipReason::MissingFrameTime),
                    Cell::Invalid => return Err(SkipReason::InvalidFrameTime),
                };
                let Some((t0, prev)) = self.clock else {
                    self.clock = Some((t, t));
                    return Ok(());
                };
                // Only a kept row moves the clock: a skipped one (a 0 cell in a running
                // clock, a timestamp that goes back) never becomes the time base.
                if t < prev {
                    return Err(SkipReason::BackwardsTimestamp);
                }
                let ft = super::table::check_frame_time((t - prev) * self.scale)?;
                self.clock = Some((t0, t));
                acc.push(rec, ft, (prev - t0) * self.scale, line);
                Ok(())
            }
        }
    }
}

/// The file's description: the known layout's name, or the mapping as options.
fn file_info(
    path: &Path,
    head: &Head,
    mapping: &ColumnMapping,
    known: Option<KnownLayout>,
    index: usize,
) -> FileInfo {
    let role = match mapping.role {
        MappedRole::FrameTime => "frame-time",
        MappedRole::Timestamp => "timestamp",
    };
    let format_version = match known {
        Some(k) => k.label().to_owned(),
        None => format!(
            "--column {role}={} --unit {}{}",
            head.header[index],
            mapping.unit.name(),
            super::generic_extra::describe(&mapping.extra)
        ),
    };
    let mut system = Vec::new();
    if head.decimal_comma() {
        system.push(("separator".to_owned(), "; with decimal commas".to_owned()));
    }
    FileInfo {
        path: path.to_path_buf(),
        format: Format::Generic,
        format_version,
        system,
        dropped_known: false,
        target_fps: None,
    }
}

/// Reads a generic CSV whose head was read already, with the user's mapping or a
/// known layout's.
pub(super) fn load<R: Read>(
    path: &Path,
    head: &Head,
    reader: R,
    mapping: &ColumnMapping,
    known: Option<KnownLayout>,
    progress: &Progress,
) -> Result<Capture, LoadError> {
    let index = find_column(path, head, &mapping.column)?;
    for e in &mapping.extra {
        find_column(path, head, &e.column)?;
    }
    let scale = mapping.unit.to_ms();
    let axis = (known == Some(KnownLayout::ProfileAnalyzer))
        .then(|| head.find("Time from first frame (ms)"))
        .flatten();
    let mut specs = telemetry_specs(head, &[Some(index), axis]);
    super::generic_extra::apply(&mut specs, &mapping.extra);
    let mut acc = Accumulator::new(specs, head.decimal_comma());
    let mut state = GenericRows {
        role: mapping.role,
        index,
        scale,
        axis,
        decimal_comma: head.decimal_comma(),
        clock: None,
        axis_ms: Vec::new(),
    };
    read_frames(path, head, reader, &mut acc, progress, &mut state)?;
    let axis_ms = state.axis_ms;
    if acc.frame_time_ms.is_empty() {
        let what = match mapping.role {
            MappedRole::FrameTime => format!("no row has a {} above 0", head.header[index]),
            MappedRole::Timestamp => {
                format!("{} never advances (a timestamp column needs two rows)", head.header[index])
            }
        };
        return Err(no_frames(path, &acc, what));
    }
    if axis.is_some() && axis_ms.iter().all(|v| v.is_finite()) {
        let a0 = axis_ms.first().copied().unwrap_or(0.0);
        for (s, a) in acc.start_ms.iter_mut().zip(&axis_ms) {
            *s = a - a0;
        }
    }
    let trace = acc.finish(meta_for(path));
    let info = file_info(path, head, mapping, known, index);
    let mut warnings = Vec::new();
    if known == Some(KnownLayout::GameBenchmark) {
        warnings.push(guessed_time_column(&head.header[index], mapping.unit));
    }
    if known.is_none()
        && let Some(w) = implausible_unit(&trace.frames.frame_time_ms, mapping.unit)
    {
        warnings.push(w);
    }
    Ok(Capture { info, traces: vec![trace], warnings })
}

/// Says that no `--column` was given and the frame times are the steps of a running
/// clock framescope guessed from the header (a game benchmark's `time`, in `unit`).
fn guessed_time_column(column: &str, unit: TimeUnit) -> Warning {
    Warning::note(format!(
        "the time column was guessed: no --column given, so the frame times are the steps of the running \
         clock '{column}' (--unit {}), as a game benchmark's frame, fps, time export writes it; give \
         --column frame-time=NAME or timestamp=NAME with --unit to read another column",
        unit.name()
    ))
    .with_kind(WarningKind::GuessedTimeColumn { column: column.to_owned(), unit: unit.name() })
}

/// A warning when the mapped frame times read in `unit` have a median of a second or
/// more (under 1 FPS), the mark of a column in a smaller unit than the one given
/// (`--unit` defaults to ms): the figures stand, the message says how to read it right.
fn implausible_unit(frame_time_ms: &[f64], unit: TimeUnit) -> Option<Warning> {
    // The middle value by selection (no sort): a threshold, not a figure.
    let mut times: Vec<f64> = frame_time_ms.iter().copied().filter(|v| *v > 0.0).collect();
    if times.is_empty() {
        return None;
    }
    let mid = times.len() / 2;
    let median = *times.select_nth_unstable_by(mid, f64::total_cmp).1;
    (median >= 1000.0).then(|| {
        Warning::file(format!(
            "the frame times read in {} have a median of {median:.0} ms (under 1 FPS); if the column holds \
             microseconds or nanoseconds, give --unit us or --unit ns",
            unit.name()
        ))
    })
}

/// The header's names for a message: quoted, at most 40.
#[must_use]
pub fn list_columns(header: &[String]) -> String {
    let mut names: Vec<String> = header.iter().take(40).map(|h| format!("'{h}'")).collect();
    if header.len() > 40 {
        names.push(format!("… ({} in all)", header.len()));
    }
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use crate::ingest::{ColumnMapping, LoadOptions, MappedRole, TimeUnit, load_bytes};
    use std::path::Path;

    /// FRAPS' running clock with a `0` cell (line 4) and a timestamp that goes back
    /// (line 6): both rows are skipped with a warning at their line and neither becomes
    /// the time base, so every frame is 10 ms (issue 34).
    #[test]
    fn a_skipped_timestamp_never_becomes_the_time_base() {
        let text = "Frame, Time (ms)\n1, 0.0\n2, 10.0\n3, 0\n4, 20.0\n5, 15.0\n6, 30.0\n";
        let cap = load_bytes(Path::new("g frametimes.csv"), text.as_bytes(), LoadOptions::default()).unwrap();
        let t = &cap.traces[0];
        assert_eq!(t.frames.frame_time_ms, [10.0, 10.0, 10.0]);
        assert_eq!(t.frames.start_ms, [0.0, 10.0, 20.0]);
        let lines: Vec<(Option<u64>, &str)> =
            t.warnings.iter().chain(&cap.warnings).map(|w| (w.line, w.message.as_str())).collect();
        assert_eq!(
            lines,
            [
                (Some(4), "timestamp goes back (before the last kept row's); row skipped"),
                (Some(6), "timestamp goes back (before the last kept row's); row skipped"),
            ]
        );
        // A mapped timestamp column in seconds: the same rule, and a repeated timestamp
        // (a 0 interval) is skipped without moving the clock either.
        let mapping = ColumnMapping::new(MappedRole::Timestamp, "t", TimeUnit::Seconds);
        let opts = LoadOptions { mapping: Some(mapping), ..LoadOptions::default() };
        let text = "t,x\n1.0,1\n1.02,2\n1.02,3\n1.01,4\n1.04,5\n";
        let cap = load_bytes(Path::new("log.csv"), text.as_bytes(), opts).unwrap();
        let ft: Vec<f64> =
            cap.traces[0].frames.frame_time_ms.iter().map(|v| (v * 1e6).round() / 1e6).collect();
        assert_eq!(ft, [20.0, 20.0]);
    }
}
