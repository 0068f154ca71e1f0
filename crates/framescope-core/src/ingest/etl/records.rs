//! The records of an ETW buffer: every header kind a trace can hold (Geoff Chappell's
//! "ETW" notes: `SYSTEM_TRACE_HEADER`, `PERFINFO_TRACE_HEADER`, `EVENT_TRACE_HEADER`,
//! `EVENT_INSTANCE_GUID_HEADER`, `EVENT_HEADER`, the WPP message header), told apart by
//! the header-type byte of their first 32 bits, each 8-byte aligned in its buffer.
//! A record is parsed only as far as its kind, provider, time and payload; extended
//! data items are split out only for `EVENT_HEADER` records.

use std::fmt;

/// A GUID as stored (little-endian `Data1`–`Data3`, then 8 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Guid(pub [u8; 16]);

impl Guid {
    /// Reads a GUID at `at`, when 16 bytes are there.
    #[must_use]
    pub fn at(bytes: &[u8], at: usize) -> Option<Self> {
        bytes.get(at..at + 16).and_then(|b| b.try_into().ok()).map(Self)
    }

    /// A GUID from its Windows text parts (`{d1-d2-d3-d4[0..2]-d4[2..8]}`).
    #[must_use]
    pub const fn from_parts(d1: u32, d2: u16, d3: u16, d4: [u8; 8]) -> Self {
        let a = d1.to_le_bytes();
        let b = d2.to_le_bytes();
        let c = d3.to_le_bytes();
        Self([
            a[0], a[1], a[2], a[3], b[0], b[1], c[0], c[1], d4[0], d4[1], d4[2], d4[3], d4[4], d4[5], d4[6],
            d4[7],
        ])
    }
}

impl fmt::Display for Guid {
    /// Windows form: `{0D216F06-82A6-4D49-BC4F-8F38AE56EFAB}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = &self.0;
        let d1 = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let d2 = u16::from_le_bytes([b[4], b[5]]);
        let d3 = u16::from_le_bytes([b[6], b[7]]);
        write!(f, "{{{d1:08X}-{d2:04X}-{d3:04X}-{:02X}{:02X}-", b[8], b[9])?;
        b[10..].iter().try_for_each(|x| write!(f, "{x:02X}"))?;
        write!(f, "}}")
    }
}

/// The header kind of a record (`TRACE_HEADER_TYPE_*`, 32- and 64-bit alike).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RecordKind {
    /// `SYSTEM_TRACE_HEADER` (kernel events, the log-file header).
    System,
    /// The compact system header (no CPU times).
    Compact,
    /// `PERFINFO_TRACE_HEADER` (kernel events with a time only).
    PerfInfo,
    /// `EVENT_TRACE_HEADER`: classic (MOF) events with a provider GUID.
    Full,
    /// `EVENT_INSTANCE_GUID_HEADER`: classic events with instance ids.
    Instance,
    /// `EVENT_HEADER`: manifest and TraceLogging events.
    Event,
    /// A WPP (`TraceMessage`) record.
    Message,
    /// Timed, error or WNODE headers, which are counted but not read.
    Other,
}

impl RecordKind {
    /// The short name the report uses.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::System => "system",
            Self::Compact => "compact",
            Self::PerfInfo => "perfinfo",
            Self::Full => "full",
            Self::Instance => "instance",
            Self::Event => "event",
            Self::Message => "message",
            Self::Other => "other",
        }
    }
}

/// `EVENT_DESCRIPTOR` of an `EVENT_HEADER` record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Descriptor {
    /// Event id.
    pub id: u16,
    /// Event version.
    pub version: u8,
    /// Channel (11 marks TraceLogging).
    pub channel: u8,
    /// Level.
    pub level: u8,
    /// Opcode.
    pub opcode: u8,
    /// Task.
    pub task: u16,
    /// Keywords.
    pub keywords: u64,
}

/// One record of a buffer, borrowed from it.
#[derive(Debug, Clone, PartialEq)]
pub struct Record<'a> {
    /// The header kind.
    pub kind: RecordKind,
    /// True for the 64-bit form of the header (pointer-size payload fields).
    pub is_64bit: bool,
    /// Offset of the record within the buffer's data (after the buffer header).
    pub offset: usize,
    /// The raw timestamp (clock ticks of the log), when the header has one.
    pub timestamp: Option<u64>,
    /// The provider GUID (`Full`, `Instance`, `Event`, `Message` records).
    pub provider: Option<Guid>,
    /// The kernel event group and type (hook id) of `System`, `Compact`, `PerfInfo`.
    pub hook: Option<(u8, u8)>,
    /// Process id, when the header has one.
    pub process_id: Option<u32>,
    /// The event descriptor of an `Event` record.
    pub descriptor: Option<Descriptor>,
    /// The extended data items of an `Event` record: `(ExtType, data)`.
    pub extended: Vec<(u16, &'a [u8])>,
    /// The payload (MOF data or user data).
    pub payload: &'a [u8],
}

/// Why a record could not be read; the rest of its buffer is skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    /// Offset of the record within the buffer's data.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    b.get(at..at + 2).map(|s| u16::from_le_bytes([s[0], s[1]]))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at + 4).map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    b.get(at..at + 8).and_then(|s| s.try_into().ok()).map(u64::from_le_bytes)
}

/// The records of one buffer's data, in order. Stops at the end, at `0xFFFFFFFF`
/// padding, or at the first record that cannot be read (returned as the error).
pub struct Records<'a> {
    data: &'a [u8],
    pos: usize,
    failed: bool,
}

impl<'a> Records<'a> {
    /// Iterates the records of `data` (a buffer without its 72-byte header).
    #[must_use]
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, pos: 0, failed: false }
    }
}

impl<'a> Iterator for Records<'a> {
    type Item = Result<Record<'a>, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.pos + 4 > self.data.len() || u32_at(self.data, self.pos) == Some(u32::MAX) {
            return None;
        }
        let at = self.pos;
        match parse(&self.data[at..], at) {
            Ok((record, size)) => {
                self.pos = at + size.div_ceil(8) * 8;
                Some(Ok(record))
            }
            Err(message) => {
                self.failed = true;
                Some(Err(RecordError { offset: at, message }))
            }
        }
    }
}

/// The header kind from the first 32 bits, with its fixed header length and where its
/// 16-bit size is.
fn kind_of(b: &[u8]) -> Result<(RecordKind, bool, usize, usize), String> {
    let (ty, flags) = (b[2], b[3]);
    if flags & 0xC0 == 0xC0 {
        let (kind, header, size_at) = match ty {
            0x01 | 0x02 => (RecordKind::System, 32, 4),
            0x03 | 0x04 => (RecordKind::Compact, 24, 4),
            0x10 | 0x11 => (RecordKind::PerfInfo, 16, 4),
            0x0A | 0x14 => (RecordKind::Full, 48, 0),
            0x0B | 0x15 => (RecordKind::Instance, 72, 0),
            0x12 | 0x13 => (RecordKind::Event, 80, 0),
            0x0C..=0x0E => (RecordKind::Other, 4, 0),
            _ => return Err(format!("unknown record header type 0x{ty:02X}")),
        };
        let is_64bit = matches!(ty, 0x02 | 0x04 | 0x11 | 0x13 | 0x14 | 0x15);
        Ok((kind, is_64bit, header, size_at))
    } else if flags & 0xF0 == 0x90 {
        Ok((RecordKind::Message, true, 32, 0))
    } else {
        Err(format!("no record header here (marker 0x{:08X})", u32::from_le_bytes([b[0], b[1], b[2], b[3]])))
    }
}

/// Parses the record at the start of `b`: the record and its size (unaligned).
fn parse(b: &[u8], offset: usize) -> Result<(Record<'_>, usize), String> {
    let (kind, is_64bit, header, size_at) = kind_of(b)?;
    let size = usize::from(u16_at(b, size_at).unwrap_or(0));
    if size < header || size > b.len() {
        return Err(format!(
            "a {} record of {size} bytes does not fit (header {header} bytes, {} bytes left in the buffer)",
            kind.name(),
            b.len()
        ));
    }
    let b = &b[..size];
    let mut r = Record {
        kind,
        is_64bit,
        offset,
        timestamp: None,
        provider: None,
        hook: None,
        process_id: None,
        descriptor: None,
        extended: Vec::new(),
        payload: &b[header..],
    };
    match kind {
        RecordKind::System | RecordKind::Compact => {
            r.hook = Some((b[7], b[6]));
            r.process_id = u32_at(b, 0x0C);
            r.timestamp = u64_at(b, 0x10);
        }
        RecordKind::PerfInfo => {
            r.hook = Some((b[7], b[6]));
            r.timestamp = u64_at(b, 0x08);
        }
        RecordKind::Full | RecordKind::Instance => {
            r.process_id = u32_at(b, 0x0C);
            r.timestamp = u64_at(b, 0x10);
            r.provider = Guid::at(b, 0x18);
        }
        RecordKind::Message => {
            r.provider = Guid::at(b, 0x08);
            r.process_id = u32_at(b, 0x1C);
        }
        RecordKind::Event => event(b, &mut r)?,
        RecordKind::Other => {}
    }
    Ok((r, size))
}

/// The `EVENT_HEADER` fields and extended data items of an event record.
fn event<'a>(b: &'a [u8], r: &mut Record<'a>) -> Result<(), String> {
    let flags = u16_at(b, 0x04).unwrap_or(0);
    r.process_id = u32_at(b, 0x0C);
    r.timestamp = u64_at(b, 0x10);
    r.provider = Guid::at(b, 0x18);
    r.descriptor = Some(Descriptor {
        id: u16_at(b, 0x28).unwrap_or(0),
        version: b[0x2A],
        channel: b[0x2B],
        level: b[0x2C],
        opcode: b[0x2D],
        task: u16_at(b, 0x2E).unwrap_or(0),
        keywords: u64_at(b, 0x30).unwrap_or(0),
    });
    let mut pos = 80;
    if flags & 0x0001 != 0 {
        // EVENT_HEADER_EXTENDED_DATA_ITEM: Reserved1, ExtType, Linkage (bit 0: another
        // item follows), DataSize; then the data, padded to 8 bytes.
        loop {
            let (Some(ext_type), Some(linkage), Some(len)) =
                (u16_at(b, pos + 2), u16_at(b, pos + 4), u16_at(b, pos + 6))
            else {
                return Err(format!("an extended data item at byte {pos} of the event runs past it"));
            };
            let data = b.get(pos + 8..pos + 8 + usize::from(len)).ok_or_else(|| {
                format!("an extended data item of {len} bytes at byte {pos} of the event runs past it")
            })?;
            r.extended.push((ext_type, data));
            pos = (pos + 8 + usize::from(len)).div_ceil(8) * 8;
            if linkage & 1 == 0 {
                break;
            }
        }
    }
    r.payload = b.get(pos..).unwrap_or_default();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guid_text() {
        let g =
            Guid::from_parts(0x0D21_6F06, 0x82A6, 0x4D49, [0xBC, 0x4F, 0x8F, 0x38, 0xAE, 0x56, 0xEF, 0xAB]);
        assert_eq!(g.to_string(), "{0D216F06-82A6-4D49-BC4F-8F38AE56EFAB}");
        assert_eq!(Guid::at(&g.0, 0), Some(g));
    }

    #[test]
    fn perfinfo_then_padding_then_nothing() {
        // A 24-byte perfinfo record (group 0x14, type 0x0A, time 7, 8 payload bytes),
        // aligned to 24, then 0xFFFFFFFF padding.
        let mut b = vec![2, 0, 0x11, 0xC0, 24, 0, 0x0A, 0x14];
        b.extend_from_slice(&7u64.to_le_bytes());
        b.extend_from_slice(&[1; 8]);
        b.extend_from_slice(&[0xFF; 8]);
        let recs: Vec<_> = Records::new(&b).collect();
        assert_eq!(recs.len(), 1);
        let r = recs[0].clone().unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(
            (r.kind, r.hook, r.timestamp, r.payload.len()),
            (RecordKind::PerfInfo, Some((0x14, 0x0A)), Some(7), 8)
        );
    }

    #[test]
    fn a_record_past_the_end_is_an_error() {
        let b = vec![2, 0, 0x11, 0xC0, 200, 0, 0x0A, 0x14, 0, 0, 0, 0, 0, 0, 0, 0];
        let recs: Vec<_> = Records::new(&b).collect();
        assert_eq!(recs.len(), 1);
        assert!(recs[0].as_ref().is_err_and(|e| e.offset == 0 && e.message.contains("200 bytes")));
    }
}
