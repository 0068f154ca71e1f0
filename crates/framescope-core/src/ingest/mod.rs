//! Ingest: from a file to a typed [`Capture`].
//!
//! Format detection looks at content, never at the file name. Every PresentMon-family
//! CSV (PresentMon 1.x–2.x console, the PresentMon GUI's `pmcap` files, FrameView,
//! OCAT, CapFrameX CSV) goes through one reader driven by the header names
//! (`layout`), one row at a time, so memory stays near the size of the kept columns.
//! CapFrameX JSON and the sampled logs (NVIDIA App, MSI Afterburner) have their own
//! readers.
//!
//! Bad rows become [`Warning`](crate::model::Warning)s with their line number and the
//! load goes on; a file that is not a capture gives a [`LoadError`] naming the file and
//! what was expected. Input files are only ever opened for reading.

mod afterburner;
pub(crate) mod android;
mod builder;
mod capframex_json;
pub(crate) mod capframex_linux;
mod capframex_sensors;
mod capframex_sensors_legacy;
mod csv_capture;
mod decode;
mod detect;
mod engine_rows;
mod error;
pub(crate) mod etl;
pub(crate) mod generic;
mod generic_extra;
pub(crate) mod layout;
pub mod live;
mod mangohud;
mod mangohud_summary;
mod nvidia_app;
pub(crate) mod open;
mod overflow;
pub(crate) mod ovr_metrics;
pub(crate) mod pcl;
mod perfetto;
mod preamble;
mod progress;
pub(crate) mod pyrofling;
mod records;
mod sampled;
mod sessions;
pub(crate) mod table;
pub(crate) mod unity;
pub(crate) mod unreal;
pub(crate) mod values;
pub(crate) mod xrframetools;

pub use generic::{preview, suggest, unit_from_name};
pub use layout::{Signature, detect, signature};
pub use pcl::{MarkerLog, load_marker_log, parse_marker_log};

use detect::OtherCsv;
pub use error::{LoadError, LoadErrorKind, UnknownColumns};
pub use generic::{ColumnMapping, ExtraColumn, ExtraRole, MappedRole, TimeUnit};
use progress::Counting;
pub use progress::{Preview, Progress};

use crate::model::Capture;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::sync::atomic::Ordering;

/// Settings that change how a file is read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LoadOptions {
    /// Frequency of QPC timestamps (`TimeInQPC`, `CPUStartQPC`), in Hz, when the user
    /// states it: then it is used as given. Never written in the files; when `None`,
    /// [`DEFAULT_QPC_HZ`] is assumed and a clock that clearly runs at another rate is
    /// measured instead (with a warning).
    pub qpc_frequency_hz: Option<f64>,
    /// The column to read from a CSV of no known format (`--column`, the window's *Map
    /// columns* step; `formats.md` §11). Files of a known format ignore it (with a
    /// warning).
    pub mapping: Option<ColumnMapping>,
    /// Load only what the figures read (`framescope report`): a PresentMon-family CSV's
    /// columns no figure reads ([`crate::model::Column::read_by_figures`]) are checked
    /// for the warnings but not kept. Off for the window, the frames table and the
    /// HTML report, which show every column.
    pub figures_only: bool,
}

/// The QPC frequency of almost every Windows 10+ machine.
pub const DEFAULT_QPC_HZ: f64 = 10_000_000.0;

impl LoadOptions {
    /// The QPC frequency to read timestamps with.
    #[must_use]
    pub fn qpc_hz(&self) -> f64 {
        self.qpc_frequency_hz.unwrap_or(DEFAULT_QPC_HZ)
    }
}

/// Loads a capture file.
pub fn load_file(path: &Path, opts: LoadOptions, progress: &Progress) -> Result<Capture, LoadError> {
    let io_err = |e| LoadError::new(path, None, LoadErrorKind::Io(e));
    let file = open::open_input(path)?;
    let meta = file.metadata().map_err(io_err)?;
    if meta.is_file() {
        progress.total_bytes.store(meta.len(), Ordering::Relaxed);
    }
    load_reader(path, file, opts, progress)
}

/// Loads a capture from any reader (an embedded sample, a test's bytes); `path` names
/// it in messages. gzip and UTF-16 are undone while reading (`decode`); a gzip input's
/// text may be at most 32 × its size (`progress`'s total bytes when set, else the bytes
/// read so far), or 16 MiB (`decode`'s budget).
pub fn load_reader<'a, R: Read + Send + 'a>(
    path: &Path,
    reader: R,
    opts: LoadOptions,
    progress: &'a Progress,
) -> Result<Capture, LoadError> {
    let io_err = |e| LoadError::new(path, None, LoadErrorKind::Io(e));
    let counting = Counting { inner: reader, progress };
    let size = progress.total_bytes.load(Ordering::Relaxed);
    let charge = decode::Charge::default();
    let text = decode::text(BufReader::with_capacity(1 << 16, counting), size, &charge).map_err(io_err)?;
    let mut capture = load_text(path, text, opts, progress, &charge).map_err(|e| match &e.kind {
        // A gzip input past its budget: refused for what it is, not as a read failure.
        LoadErrorKind::Io(io) => match decode::over_budget(io) {
            Some(message) => LoadError::new(path, None, LoadErrorKind::NotACapture(message.to_owned())),
            None => e,
        },
        _ => e,
    })?;
    // Whatever the format, the timeline gets finite start times in time order.
    capture.traces.iter_mut().for_each(crate::model::Trace::ensure_time_order);
    // Every loader ends here: in a debug build a broken model invariant is a loader bug.
    if cfg!(debug_assertions)
        && let Err(e) = capture.validate()
    {
        panic!("{}: the loaded capture breaks the trace model: {e}", path.display());
    }
    Ok(capture)
}

/// Loads a capture from its text: the first entry of [`detect::TEXT_FORMATS`] that
/// knows its first bytes reads it (CapFrameX JSON, the sampled logs, else a CSV).
/// `charge` is told when the text is JSON (a gzip input's budget charges it more).
fn load_text(
    path: &Path,
    mut reader: decode::Text<'_>,
    opts: LoadOptions,
    progress: &Progress,
    charge: &decode::Charge,
) -> Result<Capture, LoadError> {
    let head = reader.fill_buf().map_err(|e| LoadError::new(path, None, LoadErrorKind::Io(e)))?;
    let format = detect::text_format(head);
    if format.skips_bom && head.starts_with(b"\xEF\xBB\xBF") {
        reader.consume(3);
    }
    (format.read)(detect::Input { path, reader, opts, progress, charge })
}

/// Rows read from an unknown CSV to show (and to guess its frame-time column from).
const SAMPLE_ROWS: usize = 20;
/// Columns of an unknown CSV whose first values are kept.
const SAMPLE_COLUMNS: usize = 512;

/// A CSV: the engine and generic formats by their header's signature
/// ([`layout::signature`]), the PresentMon family (and MangoHud) by `csv_capture`, a
/// CSV of no known format with the user's mapping, else an error that names its
/// columns and says how to map them.
fn load_csv<R: BufRead + Send>(
    path: &Path,
    mut reader: R,
    opts: LoadOptions,
    progress: &Progress,
) -> Result<Capture, LoadError> {
    use layout::Signature;
    let LoadOptions { qpc_frequency_hz, mapping, figures_only } = opts;
    let opts = LoadOptions { qpc_frequency_hz, mapping: None, figures_only };
    let (raw, head) =
        table::peek_head(&mut reader).map_err(|e| LoadError::new(path, None, LoadErrorKind::Io(e)))?;
    let replay = |reader: R| BufReader::with_capacity(1 << 16, std::io::Cursor::new(raw).chain(reader));
    let Some(head) = head else {
        return csv_capture::load(path, replay(reader), &opts, progress);
    };
    let mapping_ignored = |mut c: Capture| {
        if let Some(m) = &mapping {
            c.warnings.push(crate::model::Warning::file(format!(
                "--column {}={} is for CSVs of no known format; this file is read as {} ({})",
                match m.role {
                    MappedRole::FrameTime => "frame-time",
                    MappedRole::Timestamp => "timestamp",
                },
                m.column,
                c.info.format,
                c.info.format_version
            )));
        }
        c
    };
    match layout::signature(&head.header, head.sep) {
        Signature::Unity(l) => unity::load(path, &head, reader, l, progress).map(mapping_ignored),
        Signature::Unreal(l) => unreal::load(path, &head, reader, l, progress).map(mapping_ignored),
        Signature::Pyrofling => pyrofling::load(path, &head, reader, progress).map(mapping_ignored),
        Signature::XrFrameTools => xrframetools::load(path, &head, reader, progress).map(mapping_ignored),
        Signature::OvrMetrics => ovr_metrics::load(path, &head, reader, progress).map(mapping_ignored),
        Signature::CapFrameXLinux => {
            capframex_linux::load(path, &head, reader, progress).map(mapping_ignored)
        }
        Signature::Known(k) => match (&mapping, k) {
            // A game benchmark's time column is a guess: the user's mapping wins.
            (Some(m), generic::KnownLayout::GameBenchmark) => {
                generic::load(path, &head, reader, m, None, progress)
            }
            _ => generic::load(path, &head, reader, &k.mapping(), Some(k), progress).map(mapping_ignored),
        },
        Signature::Other => {
            let presentmon = detect::presentmon_fit(&head);
            match detect::other_csv(&head.header, &presentmon, mapping.as_ref()) {
                OtherCsv::PresentMonFamily { lacks_identity } => {
                    let mut c = csv_capture::load(path, replay(reader), &opts, progress)?;
                    if lacks_identity && c.info.format != crate::model::Format::MangoHud {
                        c.warnings.push(lacks_identity_warning(head.header_line, &c));
                    }
                    Ok(mapping_ignored(c))
                }
                OtherCsv::Mapped(m) => generic::load(path, &head, reader, m, None, progress),
                OtherCsv::Unknown => Err(unknown_columns(path, &head, reader, presentmon.err().flatten())),
            }
        }
    }
}

/// The warning for a PresentMon-family read of a header without `Application` and
/// `ProcessID`.
fn lacks_identity_warning(header_line: u64, c: &Capture) -> crate::model::Warning {
    crate::model::Warning::at(
        header_line,
        format!(
            "read as {} ({}) from its frame-time column, but the header lacks Application and ProcessID, which \
             every PresentMon-family writer has; if this is another tool's log, name its columns with --column",
            c.info.format, c.info.format_version
        ),
    )
}

/// The error for a CSV of no known format: with the first rows' cells when some of
/// them are numbers (something to map), else the PresentMon reader's error.
fn unknown_columns<R: std::io::Read>(
    path: &Path,
    head: &table::Head,
    reader: R,
    presentmon: Option<layout::DetectError>,
) -> LoadError {
    let mut rows = table::Rows::new(path, reader, head);
    let mut rec = csv::ByteRecord::new();
    // The first columns' values only: a header of thousands of columns is listed by
    // name, but previewing every one would cost rows × columns strings.
    let mut samples: Vec<Vec<String>> = vec![Vec::new(); head.header.len().min(SAMPLE_COLUMNS)];
    let mut numeric = false;
    for _ in 0..SAMPLE_ROWS {
        let Ok(Some(_)) = rows.next(&mut rec) else { break };
        for (k, column) in samples.iter_mut().enumerate() {
            let cell = rec.get(k).unwrap_or_default();
            numeric |= matches!(table::number(cell, head.decimal_comma()), values::Cell::Number(_));
            column.push(String::from_utf8_lossy(cell).chars().take(64).collect());
        }
    }
    let line = Some(head.header_line);
    // `formats.md` §11 reads CSVs *with a header row*: a first line of numbers is data.
    let header_of_numbers = head
        .header
        .iter()
        .all(|h| matches!(table::number(h.as_bytes(), head.decimal_comma()), values::Cell::Number(_)));
    if header_of_numbers {
        let msg = format!(
            "not a frame-timing capture: its first line holds numbers ({}), not column names; a CSV needs a \
             header row naming its columns",
            generic::list_columns(&head.header)
        );
        return LoadError::new(path, line, LoadErrorKind::NotACapture(msg));
    }
    if !numeric {
        let msg = presentmon.map_or_else(
            || {
                format!(
                    "not a frame-timing capture: expected a CSV with a header and rows of numbers; its columns \
                     are: {}",
                    generic::list_columns(&head.header)
                )
            },
            |e| e.to_string(),
        );
        return LoadError::new(path, line, LoadErrorKind::NotACapture(msg));
    }
    let message = format!(
        "not a frame-timing capture of a known format (expected a PresentMon, FrameView, OCAT, CapFrameX, \
         MangoHud, Unity or Unreal CSV header); its columns are: {}. Name the frame-time column with \
         --column frame-time=NAME (or per-frame timestamps with --column timestamp=NAME) and its unit with \
         --unit s|ms|us|ns",
        generic::list_columns(&head.header)
    );
    let unknown = UnknownColumns {
        message,
        columns: head.header.clone(),
        decimal_comma: head.decimal_comma(),
        samples,
    };
    LoadError::new(path, line, LoadErrorKind::UnknownColumns(Box::new(unknown)))
}

/// Loads a capture held in memory.
pub fn load_bytes(path: &Path, bytes: &[u8], opts: LoadOptions) -> Result<Capture, LoadError> {
    let progress = Progress::default();
    progress.total_bytes.store(bytes.len() as u64, Ordering::Relaxed);
    load_reader(path, bytes, opts, &progress)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 3000 frames: buckets double from 1 to 4 frames (750 buckets), each holding the
    /// slowest of its frames.
    #[test]
    fn the_load_preview_stays_small() {
        let mut p = Preview::default();
        for i in 0..3000u32 {
            p.add(if i == 2001 { 50.0 } else { f64::from(i % 7) });
        }
        assert_eq!(p.frames, 3000);
        assert_eq!(p.bucket_frames, 4);
        assert_eq!(p.slowest_ms.len(), 750);
        assert!((p.slowest_ms[500] - 50.0).abs() < f32::EPSILON, "frames 2000..2004");
        assert!((p.slowest_ms[0] - 3.0).abs() < f32::EPSILON, "frames 0..4 are 0, 1, 2, 3");
        assert!((p.mean_ms(0) - 1.5).abs() < 1e-12);
        let mut q = Preview::default();
        (0..5).for_each(|i| q.add(f64::from(i)));
        assert!((q.mean_ms(4) - 4.0).abs() < 1e-12, "the last bucket may be partial");
    }
}
