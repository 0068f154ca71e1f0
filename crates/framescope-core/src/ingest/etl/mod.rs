//! ETW trace logs (`.etl`) read in pure Rust, on any OS: the container (buffers and the
//! log-file header, compressed buffers included), every record-header kind, QPC (or
//! other clock) timestamps, and TraceLogging events decoded from their own schema.
//! framescope uses it for NVIDIA PCL Stats markers (`pcl.rs`, `formats.md` §6) and to
//! say what an .etl holds (`summary.rs`). Manifest-based and kernel events are counted
//! but not decoded (that needs their manifests: capture presents with PresentMon).
//!
//! Bad files give a [`LoadError`] naming the file and the byte offset when nothing can
//! be read, else the readable part with warnings (byte offsets again; every problem
//! counted, the first five listed). Memory stays near one buffer (at most 64 MiB) plus
//! what the caller keeps. Compressed buffers expand to at most 32 × the file's size (at
//! least 16 MiB, [`container::expansion_budget`]): a file past that is refused, which
//! bounds the time spent and what is kept from the records.

mod compression;
pub(crate) mod container;
mod pcl;
pub(crate) mod records;
mod summary;
pub(crate) mod tracelogging;

pub use container::{BufferHeader, Clock, LogFileHeader, looks_like_etl};
pub use pcl::load_marker_log;
pub use records::Record;
pub use summary::summarize;

use super::error::{LoadError, LoadErrorKind};
use crate::model::Warning;
use container::{BUFFER_HEADER_LEN, BufferReader, Problem, Problems};
use records::Records;
use std::io::BufReader;
use std::path::Path;

/// What a whole file gave besides the records: its header, clock and problems.
#[derive(Debug, Clone)]
pub struct EtlFile {
    /// The log-file header.
    pub header: LogFileHeader,
    /// The clock the timestamps count in.
    pub clock: Clock,
    /// Buffers read.
    pub buffers: u64,
    /// Of which compressed.
    pub compressed_buffers: u64,
    /// Problems, each with its byte offset.
    pub warnings: Vec<Warning>,
}

/// Reads `path` and calls `visit` with every record, buffer by buffer in file order
/// (the caller merges per-CPU buffers by time when it needs to).
pub fn read(path: &Path, mut visit: impl FnMut(&BufferHeader, &Record<'_>)) -> Result<EtlFile, LoadError> {
    let err = |kind| LoadError::new(path, None, kind);
    let file = std::fs::File::open(path).map_err(|e| err(LoadErrorKind::Io(e)))?;
    let len = file.metadata().map_err(|e| err(LoadErrorKind::Io(e)))?.len();
    let mut reader = BufferReader::new(BufReader::with_capacity(1 << 16, file), len);
    let not_etl = |msg: String| err(LoadErrorKind::NotACapture(msg));
    let over_budget = |p: &Problem| not_etl(format!("byte {}: {}", p.offset, p.message));
    let Some(first) = reader.next_buffer() else {
        if let Some(p) = &reader.over_budget {
            return Err(over_budget(p));
        }
        let why = reader
            .problems
            .iter()
            .next()
            .map_or_else(|| "the file is empty".to_owned(), |p| format!("byte {}: {}", p.offset, p.message));
        return Err(not_etl(format!("not an ETW trace (.etl): {why}")));
    };
    let header = Records::new(&first.data)
        .next()
        .and_then(Result::ok)
        .and_then(|r| LogFileHeader::from_record(&r))
        .ok_or_else(|| not_etl(format!("byte {BUFFER_HEADER_LEN}: not an ETW trace (.etl): the first buffer does not start with the log-file header")))?;
    let clock = header.clock().ok_or_else(|| {
        not_etl(format!("byte {BUFFER_HEADER_LEN}: the log-file header gives no clock rate (PerfFreq 0); the times cannot be read"))
    })?;
    let mut out = EtlFile { header, clock, buffers: 0, compressed_buffers: 0, warnings: Vec::new() };
    let mut bad_records = Capped::default();
    let mut buffer = Some(first);
    while let Some(b) = buffer {
        out.buffers += 1;
        out.compressed_buffers += u64::from(b.header.compressed());
        for r in Records::new(&b.data) {
            match r {
                Ok(r) => visit(&b.header, &r),
                Err(e) => bad_records.push(|| record_problem(&b.header, e.offset, &e.message)),
            }
        }
        buffer = reader.next_buffer();
    }
    if let Some(p) = &reader.over_budget {
        return Err(over_budget(p));
    }
    let problems = reader.problems.iter().map(|p| format!("byte {}: {}", p.offset, p.message));
    let listed: Vec<String> = problems.chain(bad_records.kept).collect();
    out.warnings = grouped(listed, reader.problems.total() + bad_records.total);
    Ok(out)
}

/// Messages counted, the first [`Problems::KEPT`] kept.
#[derive(Default)]
struct Capped {
    kept: Vec<String>,
    total: u64,
}

impl Capped {
    fn push(&mut self, message: impl FnOnce() -> String) {
        self.total += 1;
        if self.kept.len() < Problems::KEPT {
            self.kept.push(message());
        }
    }
}

fn record_problem(buffer: &BufferHeader, offset: usize, message: &str) -> String {
    let at = if buffer.compressed() {
        format!("byte {} (buffer at byte {}, decompressed)", offset + BUFFER_HEADER_LEN, buffer.file_offset)
    } else {
        format!("byte {}", buffer.file_offset + (offset + BUFFER_HEADER_LEN) as u64)
    };
    format!("{at}: {message}; the rest of that buffer is skipped")
}

/// Problems as warnings: each one when few, else the first five and a count of the
/// rest (`total` counts the problems only counted, not kept, too).
fn grouped(messages: Vec<String>, total: u64) -> Vec<Warning> {
    const LIST: usize = 5;
    let mut out: Vec<Warning> = messages.into_iter().take(LIST).map(Warning::file).collect();
    let more = total.saturating_sub(out.len() as u64);
    if more > 0 {
        out.push(Warning::file(format!("{more} more problems of the same kinds")));
    }
    out
}

/// True when the file at `path` starts like an .etl (content, not name).
#[must_use]
pub fn is_etl_file(path: &Path) -> bool {
    use std::io::Read;
    // Only a regular file is sniffed: opening a named pipe would wait for its writer,
    // and reading from one would take bytes the capture reader needs.
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut head = [0u8; BUFFER_HEADER_LEN + 8];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok() && looks_like_etl(&head)
}
