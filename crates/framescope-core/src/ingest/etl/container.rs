//! The .etl container: a file of buffers, each a 72-byte `WMI_BUFFER_HEADER` and its
//! records (Geoff Chappell, "WMI_BUFFER_HEADER"), and the log-file header
//! (`TRACE_LOGFILE_HEADER`, Microsoft's `evntrace.h`) carried by the first record of
//! the first buffer. Buffers are read one at a time (at most [`MAX_BUFFER_BYTES`]),
//! so memory stays near one buffer whatever the file's size. Compressed buffers
//! (`BufferFlag` 0x40) hold Plain LZ77 data after their header (`compression.rs`).
//!
//! The budget: all compressed buffers of a file together expand to at most
//! [`expansion_budget`] bytes — 32 × the file's size, at least 16 MiB. Real traces
//! expand a few times (ETW compresses each buffer on its own); a file past the budget
//! is refused, naming the buffer where it ran out. Every byte decoded counts, a buffer
//! that then fails to decode too, so the budget bounds the time (bytes decoded, records
//! walked) as well as what the readers keep from the records. Problems are counted,
//! the first five kept ([`Problems`]).

use super::compression::{DecodeError, decompress_lz77};
use super::records::{Record, RecordKind};
use std::io::Read;

/// Bytes of a `WMI_BUFFER_HEADER`.
pub const BUFFER_HEADER_LEN: usize = 72;

/// The largest buffer read (ETW's own limit is 16 MiB; this leaves room).
pub const MAX_BUFFER_BYTES: u32 = 64 << 20;

/// A buffer's header, with where it starts in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BufferHeader {
    /// Byte offset of the buffer in the file.
    pub file_offset: u64,
    /// `BufferSize`: bytes the buffer takes in the file (compressed size when compressed).
    pub size: u32,
    /// `SavedOffset`.
    pub saved_offset: u32,
    /// `Offset` (`FilledBytes`): bytes of header and records, uncompressed.
    pub filled: u32,
    /// `SequenceNumber`.
    pub sequence: u64,
    /// `ProcessorIndex`: the CPU whose events the buffer holds.
    pub processor: u16,
    /// `BufferFlag`.
    pub flags: u16,
    /// `BufferType` (4 = the header buffer).
    pub kind: u16,
}

impl BufferHeader {
    /// Reads a header from its 72 bytes.
    #[must_use]
    pub fn parse(b: &[u8; BUFFER_HEADER_LEN], file_offset: u64) -> Self {
        let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        Self {
            file_offset,
            size: u32_at(0x00),
            saved_offset: u32_at(0x04),
            filled: u32_at(0x30),
            sequence: u64::from(u32_at(0x18)) | (u64::from(u32_at(0x1C)) << 32),
            processor: u16_at(0x28),
            flags: u16_at(0x34),
            kind: u16_at(0x36),
        }
    }

    /// True when the records are compressed.
    #[must_use]
    pub fn compressed(&self) -> bool {
        self.flags & 0x40 != 0
    }
}

/// A buffer read from the file: its header and its records' bytes.
#[derive(Debug, Clone)]
pub struct Buffer {
    /// The header.
    pub header: BufferHeader,
    /// The records (`filled − 72` bytes, decompressed).
    pub data: Vec<u8>,
}

/// A problem with a buffer: where (file byte offset) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Byte offset in the file.
    pub offset: u64,
    /// What is wrong, and what was done about it.
    pub message: String,
}

/// Problems met: every one counted, the first [`Problems::KEPT`] kept (a file of
/// 600 000 broken buffers keeps five messages, not 600 000), and the one that ended
/// the reading always kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Problems {
    kept: Vec<Problem>,
    total: u64,
    last: Option<Problem>,
}

impl Problems {
    /// Problems kept in full; the rest are counted.
    pub const KEPT: usize = 5;

    /// Counts a problem; its message is made only when it is kept.
    pub fn push(&mut self, offset: u64, message: impl FnOnce() -> String) {
        self.total += 1;
        if self.kept.len() < Self::KEPT {
            self.kept.push(Problem { offset, message: message() });
        }
    }

    /// The kept problems in file order, then the one that ended the reading.
    pub fn iter(&self) -> impl Iterator<Item = &Problem> {
        self.kept.iter().chain(&self.last)
    }

    /// Every problem met, kept or only counted.
    #[must_use]
    pub fn total(&self) -> u64 {
        self.total + u64::from(self.last.is_some())
    }
}

/// Bytes of compressed buffers a file may expand to: 32 × its size, and at least
/// 16 MiB (any one buffer ETW writes). Real traces expand a few times; a file past
/// this is refused ([`BufferReader::over_budget`]). The budget bounds the work
/// (bytes decoded, records walked) and what the readers keep from those records.
#[must_use]
pub fn expansion_budget(file_len: u64) -> u64 {
    file_len.saturating_mul(EXPANSION_RATIO).max(EXPANSION_FLOOR)
}

/// How many times its size a file's compressed buffers may expand to.
pub const EXPANSION_RATIO: u64 = 32;
/// What any file may expand to, however small.
pub const EXPANSION_FLOOR: u64 = 16 << 20;

/// Reads the buffers of a file in order. A buffer that cannot be decoded is skipped
/// with a [`Problem`]; one whose size cannot be trusted ends the reading (the rest of
/// the file cannot be found), also with a problem. Compressed buffers expand within
/// the file's [`expansion_budget`]; past it the reading ends ([`Self::over_budget`]).
pub struct BufferReader<R> {
    reader: R,
    offset: u64,
    file_len: u64,
    ended: bool,
    /// Bytes compressed buffers expanded to so far (decoded or not).
    expanded: u64,
    /// Problems met so far.
    pub problems: Problems,
    /// Set when the compressed buffers expand past the file's budget: the file is not
    /// to be read (the offset is the buffer's where the budget ran out).
    pub over_budget: Option<Problem>,
}

impl<R: Read> BufferReader<R> {
    /// Reads buffers from `reader`, a file of `file_len` bytes.
    pub fn new(reader: R, file_len: u64) -> Self {
        Self {
            reader,
            offset: 0,
            file_len,
            ended: false,
            expanded: 0,
            problems: Problems::default(),
            over_budget: None,
        }
    }

    fn stop(&mut self, offset: u64, message: String) -> Option<Buffer> {
        self.problems.last = Some(Problem { offset, message });
        self.ended = true;
        None
    }

    /// The next buffer, or `None` at the end of the file (or after a fatal problem).
    pub fn next_buffer(&mut self) -> Option<Buffer> {
        loop {
            if self.ended || self.offset >= self.file_len {
                return None;
            }
            let at = self.offset;
            let mut head = [0u8; BUFFER_HEADER_LEN];
            if let Err(e) = self.reader.read_exact(&mut head) {
                return self.stop(at, format!("the file ends inside a buffer header ({e})"));
            }
            let header = BufferHeader::parse(&head, at);
            let size = header.size;
            if (size as usize) < BUFFER_HEADER_LEN || size > MAX_BUFFER_BYTES {
                return self.stop(
                    at,
                    format!(
                        "a buffer states an impossible size of {size} bytes; the rest of the file is not read"
                    ),
                );
            }
            let body_len = u64::from(size) - BUFFER_HEADER_LEN as u64;
            let mut body = Vec::new();
            let read = (&mut self.reader).take(body_len).read_to_end(&mut body);
            self.offset = at + u64::from(size);
            if let Err(e) = read {
                return self.stop(at, format!("cannot read the buffer: {e}"));
            }
            let truncated = (body.len() as u64) < body_len;
            if truncated {
                let there = body.len() + BUFFER_HEADER_LEN;
                let message = format!(
                    "the file ends inside a buffer of {size} bytes ({there} bytes are there); its complete records are read"
                );
                self.problems.last = Some(Problem { offset: at, message });
                self.ended = true;
            }
            match self.body(header, body, truncated) {
                Some(data) => return Some(Buffer { header, data }),
                None if self.ended => return None,
                None => {}
            }
        }
    }

    /// The records' bytes of a buffer: decompressed, or cut to the filled length.
    fn body(&mut self, header: BufferHeader, mut body: Vec<u8>, truncated: bool) -> Option<Vec<u8>> {
        let at = header.file_offset;
        let filled = (header.filled as usize).saturating_sub(BUFFER_HEADER_LEN);
        if header.compressed() {
            if header.filled > MAX_BUFFER_BYTES {
                self.problems.push(at, || {
                    format!("a compressed buffer states {} filled bytes; skipped", header.filled)
                });
                return None;
            }
            let budget = expansion_budget(self.file_len);
            let left = usize::try_from(budget.saturating_sub(self.expanded)).unwrap_or(usize::MAX);
            let mut data = Vec::new();
            let decoded = decompress_lz77(&body, filled.min(left), &mut data);
            self.expanded += data.len() as u64;
            return match decoded {
                Ok(()) => Some(data),
                Err(DecodeError::TooLong) if filled > left => {
                    let message = format!(
                        "the compressed buffers expand to more than {} MiB ({EXPANSION_RATIO} × the file's {} bytes, at \
                         least {} MiB), far more than a real trace's; the file is refused as damaged or built to \
                         exhaust memory",
                        budget >> 20,
                        self.file_len,
                        EXPANSION_FLOOR >> 20
                    );
                    self.over_budget = Some(Problem { offset: at, message });
                    self.ended = true;
                    None
                }
                Err(e) => {
                    self.problems.push(at, || format!("a compressed buffer cannot be decoded: {e}; skipped"));
                    None
                }
            };
        }
        if filled > body.len() && !truncated {
            self.problems.push(at, || {
                format!(
                    "a buffer states {} filled bytes but is {} bytes long; read up to its end",
                    header.filled, header.size
                )
            });
        }
        body.truncate(filled);
        Some(body)
    }
}

/// How the log's timestamps count (`TRACE_LOGFILE_HEADER.ReservedFlags`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Clock {
    /// 1 = QPC, 2 = system time (100 ns), 3 = CPU cycles.
    pub kind: u32,
    /// Ticks per second.
    pub hz: f64,
}

impl Clock {
    /// Milliseconds of `ticks`: `ticks × (1000 / hz)`, the same product the marker CSV
    /// reader forms for a `qpc` column, so one clock gives bit-identical times.
    #[must_use]
    pub fn ms(&self, ticks: u64) -> f64 {
        ticks as f64 * (1000.0 / self.hz)
    }

    /// The clock's name for the report.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self.kind {
            2 => "system time",
            3 => "CPU cycles",
            _ => "QPC",
        }
    }
}

/// The log-file header: what the session was and how its clock counts.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LogFileHeader {
    /// `BufferSize` of the session.
    pub buffer_size: u32,
    /// `NumberOfProcessors`.
    pub processors: u32,
    /// `LogFileMode` (0x04000000 = compressed).
    pub log_file_mode: u32,
    /// `BuffersWritten`.
    pub buffers_written: u32,
    /// `PointerSize` of the recording machine.
    pub pointer_size: u32,
    /// `EventsLost`.
    pub events_lost: u32,
    /// `CpuSpeedInMHz`.
    pub cpu_mhz: u32,
    /// `PerfFreq`: QPC ticks per second.
    pub perf_freq: u64,
    /// `StartTime` (FILETIME).
    pub start_time: u64,
    /// `EndTime` (FILETIME).
    pub end_time: u64,
    /// `ReservedFlags`: the clock type.
    pub clock_type: u32,
    /// `BuffersLost`.
    pub buffers_lost: u32,
    /// The session's name (after the fixed fields).
    pub logger_name: String,
}

impl LogFileHeader {
    /// Reads the header from the first record of the first buffer: a system record of
    /// group 0, type 0 (`EventTrace` header). `None` when it is not one.
    #[must_use]
    pub fn from_record(r: &Record<'_>) -> Option<Self> {
        if !matches!(r.kind, RecordKind::System | RecordKind::Compact) || r.hook != Some((0, 0)) {
            return None;
        }
        let b = r.payload;
        // Two string pointers before the time-zone block: 8 bytes each on 64-bit.
        let p = if r.is_64bit { 8 } else { 0 };
        let fixed = 0x110 + p;
        let u32_at = |i: usize| b.get(i..i + 4).map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]));
        let u64_at = |i: usize| b.get(i..i + 8).and_then(|s| s.try_into().ok()).map(u64::from_le_bytes);
        let name: Vec<u16> = b
            .get(fixed..)
            .unwrap_or_default()
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .take_while(|&c| c != 0)
            .collect();
        Some(Self {
            buffer_size: u32_at(0)?,
            processors: u32_at(0x0C)?,
            end_time: u64_at(0x10)?,
            log_file_mode: u32_at(0x20)?,
            buffers_written: u32_at(0x24)?,
            pointer_size: u32_at(0x2C)?,
            events_lost: u32_at(0x30)?,
            cpu_mhz: u32_at(0x34)?,
            perf_freq: u64_at(0xF8 + p)?,
            start_time: u64_at(0x100 + p)?,
            clock_type: u32_at(0x108 + p)?,
            buffers_lost: u32_at(0x10C + p)?,
            logger_name: String::from_utf16_lossy(&name),
        })
    }

    /// The clock the records' timestamps count in; `None` when the header's rate is 0.
    #[must_use]
    pub fn clock(&self) -> Option<Clock> {
        let hz = match self.clock_type {
            2 => 1e7,
            3 => f64::from(self.cpu_mhz) * 1e6,
            _ => self.perf_freq as f64,
        };
        (hz > 0.0 && hz.is_finite()).then_some(Clock { kind: self.clock_type, hz })
    }
}

/// True when `head` (the file's first bytes) looks like an .etl: a header buffer whose
/// first record is the system record holding the log-file header.
#[must_use]
pub fn looks_like_etl(head: &[u8]) -> bool {
    let Some(b) = head.get(..BUFFER_HEADER_LEN + 8) else { return false };
    let size = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let r = &b[BUFFER_HEADER_LEN..];
    (BUFFER_HEADER_LEN as u32 + 32..=MAX_BUFFER_BYTES).contains(&size)
        && matches!(r[2], 0x01 | 0x02)
        && r[3] == 0xC0
        && r[6] == 0
        && r[7] == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A buffer of `size` bytes (at least its header) whose header states `filled`.
    fn buffer(size: u32, filled: u32) -> Vec<u8> {
        let mut b = vec![0u8; (size as usize).max(BUFFER_HEADER_LEN)];
        b[0..4].copy_from_slice(&size.to_le_bytes());
        b[0x30..0x34].copy_from_slice(&filled.to_le_bytes());
        b
    }

    #[test]
    fn buffers_in_order_then_an_impossible_size_ends_the_reading() {
        let mut file = buffer(128, 100);
        file.extend(buffer(96, 200)); // filled past its end: read to the end, with a problem
        file.extend(buffer(40, 40)); // smaller than a header: nothing after it can be found
        file.extend(buffer(128, 100));
        let mut r = BufferReader::new(&file[..], file.len() as u64);
        let a = r.next_buffer().map(|b| (b.header.file_offset, b.data.len()));
        let b = r.next_buffer().map(|b| (b.header.file_offset, b.data.len()));
        assert_eq!((a, b), (Some((0, 28)), Some((128, 24))));
        assert!(r.next_buffer().is_none());
        let problems: Vec<&Problem> = r.problems.iter().collect();
        let offsets: Vec<u64> = problems.iter().map(|p| p.offset).collect();
        assert_eq!(offsets, [128, 224], "{problems:?}");
        assert!(problems[1].message.contains("impossible size of 40"));
    }

    #[test]
    fn a_file_cut_inside_a_buffer_keeps_what_is_there() {
        let file = buffer(4096, 1000);
        let mut r = BufferReader::new(&file[..500], 500);
        assert_eq!(r.next_buffer().map(|b| b.data.len()), Some(500 - BUFFER_HEADER_LEN));
        assert!(r.next_buffer().is_none());
        let first = r.problems.iter().next().map(|p| p.message.clone()).unwrap_or_default();
        assert!(first.starts_with("the file ends inside a buffer of 4096 bytes"), "{first}");
    }

    #[test]
    fn etl_sniffing() {
        let mut head = buffer(1024, 300);
        head[72..80].copy_from_slice(&[2, 0, 0x02, 0xC0, 0x80, 0x01, 0, 0]);
        assert!(looks_like_etl(&head));
        head[79] = 3; // a system record of another group is not the log-file header
        assert!(!looks_like_etl(&head));
        assert!(!looks_like_etl(b"timestamp_ns,event,marker_id,frame_id\n1,PCLStatsEvent,0,1\n"));
    }

    /// A compressed buffer of `packed` stating `filled` bytes.
    fn packed(packed: &[u8], filled: u32) -> Vec<u8> {
        let mut b = buffer(BUFFER_HEADER_LEN as u32 + packed.len() as u32, filled);
        b[0x34] = 0x40;
        b[BUFFER_HEADER_LEN..].copy_from_slice(packed);
        b
    }

    /// "a" then a match of offset 1 and `len` − 1 bytes (32-bit length field).
    fn run_of_a(len: u32) -> Vec<u8> {
        let mut s = vec![0xFF, 0xFF, 0xFF, 0x7F, b'a', 0x07, 0x00, 0x0F, 0xFF, 0x00, 0x00];
        s.extend_from_slice(&(len - 1 - 3).to_le_bytes());
        s
    }

    #[test]
    fn compressed_buffers_expand_within_the_files_budget() {
        // Each buffer expands to 6 MiB: two fit the 16 MiB a small file may expand to,
        // the third does not and ends the reading.
        let mut file = Vec::new();
        for _ in 0..4 {
            file.extend(packed(&run_of_a(6 << 20), 72 + (6 << 20)));
        }
        let mut r = BufferReader::new(&file[..], file.len() as u64);
        assert_eq!(r.next_buffer().map(|b| b.data.len()), Some(6 << 20));
        assert_eq!(r.next_buffer().map(|b| b.data.len()), Some(6 << 20));
        assert!(r.next_buffer().is_none());
        let over = r.over_budget.clone().unwrap_or_else(|| panic!("over budget"));
        assert_eq!(over.offset, 2 * file.len() as u64 / 4);
        assert!(over.message.contains("expand to more than 16 MiB"), "{}", over.message);
        assert!(r.next_buffer().is_none());
        assert_eq!(expansion_budget(1 << 20), 32 << 20);
    }

    #[test]
    fn problems_are_counted_and_the_first_kept() {
        // 100 buffers that fail to decode (a match before any output), then one whose
        // size ends the reading.
        let mut file = Vec::new();
        for _ in 0..100 {
            file.extend(packed(&[0, 0, 0, 0x80, 0x08, 0x00], 200));
        }
        file.extend(buffer(40, 40));
        let mut r = BufferReader::new(&file[..], file.len() as u64);
        assert!(r.next_buffer().is_none());
        assert_eq!(r.problems.total(), 101);
        let kept: Vec<&Problem> = r.problems.iter().collect();
        assert_eq!(kept.len(), Problems::KEPT + 1);
        assert!(kept[0].message.contains("cannot be decoded"), "{kept:?}");
        assert!(kept[Problems::KEPT].message.contains("impossible size of 40"), "{kept:?}");
    }
}
