//! The row loop of a PresentMon-family CSV kept open between reads: a capture that
//! is still being written is read a few whole lines at a time (`ingest::live`), each
//! row once, by the same [`RowReader`] a whole-file load uses, so the capture taken at
//! any moment is the one a load of the bytes read so far gives.

use super::super::LoadOptions;
use super::super::error::{LoadError, LoadErrorKind};
use super::super::layout::{self, Layout};
use super::super::mangohud::MangoRows;
use super::super::preamble::{self, Preamble};
use super::super::records::{Records, Row};
use super::rows::RowReader;
use super::{file_info, file_stem};
use crate::model::{Capture, FileInfo, Format, TraceMeta};
use std::path::{Path, PathBuf};

/// The top of a CSV capture read so far: its preamble, its layout, and where its rows
/// begin.
pub struct Head {
    pre: Preamble,
    /// The capture's layout (borrowed by [`LiveRows`]).
    pub layout: Layout,
    /// Bytes of the preamble (the rows start here).
    pub len: usize,
}

/// Reads the preamble of `bytes` (whole lines): `None` while it is incomplete (no
/// header line yet, or no row after it), an error when it is no PresentMon-family CSV.
pub fn head(path: &Path, bytes: &[u8]) -> Option<Result<Head, LoadError>> {
    let other = |what: &str| Some(Err(LoadError::new(path, None, LoadErrorKind::NotACapture(what.into()))));
    if super::super::nvidia_app::sniff(bytes) || super::super::afterburner::sniff(bytes) {
        return other("a sampled log");
    }
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
        return other("a JSON document");
    }
    let mut cursor = std::io::Cursor::new(bytes);
    let pre = match preamble::read_preamble(&mut cursor) {
        Ok(pre) => pre,
        Err(preamble::PreambleError::Empty) => return None,
        Err(e) => {
            let why = match e {
                preamble::PreambleError::NotText(why, _) => why,
                _ => "unreadable".to_owned(),
            };
            return Some(Err(LoadError::new(path, None, LoadErrorKind::NotACapture(why))));
        }
    };
    let len = usize::try_from(cursor.position()).unwrap_or(bytes.len());
    if !bytes[len..].iter().any(|b| !b.is_ascii_whitespace()) {
        return None;
    }
    if !matches!(layout::signature(&pre.header, b','), layout::Signature::Other) {
        return other("an engine or generic CSV");
    }
    Some(match layout::detect(&pre.header, &pre.comments) {
        Ok(layout) => Ok(Head { pre, layout, len }),
        Err(msg) => {
            Err(LoadError::new(path, Some(pre.header_line), LoadErrorKind::NotACapture(msg.to_string())))
        }
    })
}

/// The row loop of one capture, fed whole lines as they arrive.
pub struct LiveRows<'a> {
    rows: RowReader<'a>,
    info: FileInfo,
    /// The line the next bytes start on.
    next_line: u64,
    path: PathBuf,
    row: Row,
}

impl<'a> LiveRows<'a> {
    /// A row loop for the capture whose top is `head` (and whose layout is `layout`,
    /// `head`'s own, borrowed).
    #[must_use]
    pub fn new(path: &Path, head: &Head, layout: &'a Layout) -> Self {
        let pre = &head.pre;
        let info = file_info(path, layout, &pre.comments);
        let mut rows = RowReader::new(layout, file_stem(path));
        if layout.format == Format::MangoHud {
            rows.mango = Some(MangoRows::new(layout, &pre.header, pre.version));
        }
        Self { rows, info, next_line: pre.header_line + 1, path: path.to_path_buf(), row: Row::default() }
    }

    /// Reads `lines` (whole lines, the bytes after those read before).
    pub fn feed(&mut self, lines: &[u8]) {
        let mut records = Records::new(lines, self.next_line);
        while let Ok(Some(line)) = records.next_row(&mut self.row) {
            self.rows.row(&self.row, line, &mut self.info);
            self.rows.count += 1;
        }
        self.next_line += memchr::memchr_iter(b'\n', lines).count() as u64;
    }

    /// Kept frames, in file order, of the trace with the most frames among those
    /// whose writer `keep` accepts (empty when none is).
    #[must_use]
    pub fn frame_times_where(&self, keep: &dyn Fn(&TraceMeta) -> bool) -> &[f64] {
        self.rows
            .builders
            .iter()
            .filter(|b| keep(b.meta()))
            .max_by_key(|b| b.len())
            .map_or(&[], |b| b.frame_times())
    }

    /// The capture as a load of the lines read so far gives it (copies every trace:
    /// its cost grows with the capture, so callers take it at a throttled rate).
    ///
    /// # Errors
    /// As a load: no frames yet.
    pub fn capture(&self, opts: &LoadOptions) -> Result<Capture, LoadError> {
        let mut capture = self.rows.clone().finish(self.info.clone(), opts, &self.path)?;
        capture.traces.iter_mut().for_each(crate::model::Trace::ensure_time_order);
        Ok(capture)
    }
}
