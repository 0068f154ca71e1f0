//! A minimal ETW trace (.etl) writer for tests: the header buffer with the log-file
//! header, then per-CPU buffers of TraceLogging `EVENT_HEADER` records of the PCL Stats
//! provider (each with its provider-traits and schema extended data items), in a
//! chosen flush order, optionally compressed (Plain LZ77 of literals only). The layout
//! follows the reader's sources (Geoff Chappell's notes, `evntrace.h`,
//! `TraceLoggingProvider.h`), and `etl-parser` reads the uncompressed files.

/// The PCL Stats provider GUID as stored ({0D216F06-82A6-4D49-BC4F-8F38AE56EFAB}).
pub const PCL_GUID: [u8; 16] =
    [0x06, 0x6F, 0x21, 0x0D, 0xA6, 0x82, 0x49, 0x4D, 0xBC, 0x4F, 0x8F, 0x38, 0xAE, 0x56, 0xEF, 0xAB];

/// What an event says.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// `PCLStatsEvent` (Marker, FrameID).
    Marker { marker: u32, frame: u64 },
    /// `PCLStatsEventV2` (Marker, FrameID, Flags).
    MarkerV2 { marker: u32, frame: u64, flags: u32 },
    /// `ReflexStatsEvent`, the legacy name.
    ReflexMarker { marker: u32, frame: u64 },
    /// `PCLStatsInput` (MsgId).
    Input,
    /// `PCLStatsInit`.
    Init,
    /// `PCLStatsShutdown`.
    Shutdown,
}

/// One event: when (clock ticks), on which CPU, from which process.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Event {
    pub ticks: u64,
    pub cpu: u16,
    pub pid: u32,
    pub kind: Kind,
}

/// In which order the buffers reach the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flush {
    /// Every CPU's buffers, CPU 0 first.
    ByCpu,
    /// The reverse of that: the latest CPU's last buffer first.
    Reversed,
    /// Round-robin over CPUs.
    Interleaved,
}

/// The session's shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Session {
    /// QPC ticks per second (`PerfFreq`).
    pub freq: u64,
    /// CPUs (`NumberOfProcessors`).
    pub cpus: u16,
    /// Events per buffer before it is flushed.
    pub per_buffer: usize,
    /// Buffer size in the file (uncompressed buffers).
    pub buffer_size: u32,
    pub flush: Flush,
    pub compressed: bool,
}

impl Default for Session {
    fn default() -> Self {
        Self {
            freq: 10_000_000,
            cpus: 1,
            per_buffer: 64,
            buffer_size: 64 * 1024,
            flush: Flush::ByCpu,
            compressed: false,
        }
    }
}

fn schema(name: &str, fields: &[(&str, u8)]) -> Vec<u8> {
    let mut body = vec![0u8];
    body.extend_from_slice(name.as_bytes());
    body.push(0);
    for (f, t) in fields {
        body.extend_from_slice(f.as_bytes());
        body.extend_from_slice(&[0, *t]);
    }
    let mut m = ((body.len() + 2) as u16).to_le_bytes().to_vec();
    m.extend_from_slice(&body);
    m
}

/// Schema and payload of an event (TlgIn UINT32 = 8, UINT64 = 10).
fn body(kind: Kind) -> (Vec<u8>, Vec<u8>) {
    let marker = |name: &str, m: u32, f: u64, flags: Option<u32>| {
        let mut fields = vec![("Marker", 8), ("FrameID", 10)];
        let mut p = m.to_le_bytes().to_vec();
        p.extend_from_slice(&f.to_le_bytes());
        if let Some(fl) = flags {
            fields.push(("Flags", 8));
            p.extend_from_slice(&fl.to_le_bytes());
        }
        (schema(name, &fields), p)
    };
    match kind {
        Kind::Marker { marker: m, frame } => marker("PCLStatsEvent", m, frame, None),
        Kind::MarkerV2 { marker: m, frame, flags } => marker("PCLStatsEventV2", m, frame, Some(flags)),
        Kind::ReflexMarker { marker: m, frame } => marker("ReflexStatsEvent", m, frame, None),
        Kind::Input => (schema("PCLStatsInput", &[("MsgId", 8)]), 0xC0DEu32.to_le_bytes().to_vec()),
        Kind::Init => (schema("PCLStatsInit", &[]), Vec::new()),
        Kind::Shutdown => (schema("PCLStatsShutdown", &[]), Vec::new()),
    }
}

fn pad8(v: &mut Vec<u8>) {
    while !v.len().is_multiple_of(8) {
        v.push(0);
    }
}

/// One `EVENT_HEADER` (64-bit) record with its two extended data items, padded to 8.
pub fn event_record(e: &Event) -> Vec<u8> {
    let (meta, payload) = body(e.kind);
    let mut traits = Vec::new();
    let name = b"PCLStatsTraceLoggingProvider\0";
    traits.extend_from_slice(&((name.len() + 2) as u16).to_le_bytes());
    traits.extend_from_slice(name);
    let mut ext = Vec::new();
    for (i, (ty, data)) in [(12u16, &traits), (11u16, &meta)].iter().enumerate() {
        ext.extend_from_slice(&0u16.to_le_bytes());
        ext.extend_from_slice(&ty.to_le_bytes());
        ext.extend_from_slice(&u16::from(i == 0).to_le_bytes()); // linkage: another follows
        ext.extend_from_slice(&(data.len() as u16).to_le_bytes());
        ext.extend_from_slice(data);
        pad8(&mut ext);
    }
    let size = 80 + ext.len() + payload.len();
    let mut r = Vec::with_capacity(size + 8);
    r.extend_from_slice(&(size as u16).to_le_bytes());
    r.extend_from_slice(&[0x13, 0xC0]);
    r.extend_from_slice(&(0x0001u16 | 0x0040).to_le_bytes()); // extended info, 64-bit header
    r.extend_from_slice(&0u16.to_le_bytes());
    r.extend_from_slice(&(e.pid + 1).to_le_bytes()); // thread
    r.extend_from_slice(&e.pid.to_le_bytes());
    r.extend_from_slice(&e.ticks.to_le_bytes());
    r.extend_from_slice(&PCL_GUID);
    // EVENT_DESCRIPTOR: id 0, version 0, channel 11 (TraceLogging), level 5, opcode 0, task 0, keywords 0.
    r.extend_from_slice(&[0, 0, 0, 11, 5, 0, 0, 0]);
    r.extend_from_slice(&0u64.to_le_bytes());
    r.extend_from_slice(&0u64.to_le_bytes()); // processor time
    r.extend_from_slice(&[0; 16]); // activity id
    r.extend_from_slice(&ext);
    r.extend_from_slice(&payload);
    pad8(&mut r);
    r
}

/// A 72-byte buffer header.
fn buffer_header(size: u32, filled: u32, seq: u64, cpu: u16, flags: u16, kind: u16) -> Vec<u8> {
    let mut h = vec![0u8; 72];
    h[0..4].copy_from_slice(&size.to_le_bytes());
    h[4..8].copy_from_slice(&filled.to_le_bytes()); // SavedOffset (etl-parser reads it)
    h[8..12].copy_from_slice(&filled.to_le_bytes());
    h[0x18..0x20].copy_from_slice(&seq.to_le_bytes());
    h[0x20..0x28].copy_from_slice(&1u64.to_le_bytes()); // clock type
    h[0x28..0x2A].copy_from_slice(&cpu.to_le_bytes());
    h[0x2C..0x30].copy_from_slice(&3u32.to_le_bytes());
    h[0x30..0x34].copy_from_slice(&filled.to_le_bytes());
    h[0x34..0x36].copy_from_slice(&flags.to_le_bytes());
    h[0x36..0x38].copy_from_slice(&kind.to_le_bytes());
    h
}

/// The system record holding a 64-bit `TRACE_LOGFILE_HEADER`.
fn logfile_record(s: &Session, buffers: u32, first_ticks: u64) -> Vec<u8> {
    let mut p = vec![0u8; 0x118];
    let put32 = |p: &mut Vec<u8>, at: usize, v: u32| p[at..at + 4].copy_from_slice(&v.to_le_bytes());
    let put64 = |p: &mut Vec<u8>, at: usize, v: u64| p[at..at + 8].copy_from_slice(&v.to_le_bytes());
    put32(&mut p, 0, s.buffer_size);
    put32(&mut p, 0x04, 0x0A00_0005);
    put32(&mut p, 0x0C, u32::from(s.cpus));
    put32(&mut p, 0x20, if s.compressed { 0x0400_0001 } else { 1 });
    put32(&mut p, 0x24, buffers);
    put32(&mut p, 0x2C, 8);
    put32(&mut p, 0x34, 3000);
    put64(&mut p, 0x100, s.freq);
    put64(&mut p, 0x108, 133_000_000_000_000_000);
    put32(&mut p, 0x110, 1); // QPC clock
    for name in ["pcl", "C:\\pcl.etl"] {
        p.extend(name.encode_utf16().chain([0]).flat_map(u16::to_le_bytes));
    }
    let size = 32 + p.len();
    let mut r = vec![2, 0, 0x02, 0xC0];
    r.extend_from_slice(&(size as u16).to_le_bytes());
    r.extend_from_slice(&[0, 0]); // type 0, group 0: the EventTrace header
    r.extend_from_slice(&[0; 8]); // thread, process
    r.extend_from_slice(&first_ticks.to_le_bytes());
    r.extend_from_slice(&[0; 8]);
    r.extend_from_slice(&p);
    pad8(&mut r);
    r
}

/// Plain LZ77 ([MS-XCA] §2.3) of literals only: a zero flag word before every 32 bytes.
pub fn literal_lz77(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / 8 + 4);
    for chunk in data.chunks(32) {
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(chunk);
    }
    out
}

fn buffer(s: &Session, records: &[u8], seq: u64, cpu: u16, kind: u16) -> Vec<u8> {
    let filled = 72 + records.len() as u32;
    if s.compressed && kind != 4 {
        let packed = literal_lz77(records);
        let mut b = buffer_header(72 + packed.len() as u32, filled, seq, cpu, 0x40, kind);
        b.extend_from_slice(&packed);
        return b;
    }
    assert!(filled <= s.buffer_size, "a buffer of {filled} bytes does not fit {}", s.buffer_size);
    let mut b = buffer_header(s.buffer_size, filled, seq, cpu, 0, kind);
    b.extend_from_slice(records);
    b.resize(s.buffer_size as usize, 0);
    b
}

/// The whole file.
pub fn write(s: &Session, events: &[Event]) -> Vec<u8> {
    let mut per_cpu: Vec<Vec<Vec<u8>>> = vec![Vec::new(); usize::from(s.cpus)];
    for cpu in 0..s.cpus {
        let mine: Vec<&Event> = events.iter().filter(|e| e.cpu == cpu).collect();
        for chunk in mine.chunks(s.per_buffer.max(1)) {
            per_cpu[usize::from(cpu)].push(chunk.iter().flat_map(|e| event_record(e)).collect());
        }
    }
    let mut order: Vec<(u16, usize)> = Vec::new();
    match s.flush {
        Flush::ByCpu | Flush::Reversed => {
            for (cpu, bufs) in per_cpu.iter().enumerate() {
                order.extend((0..bufs.len()).map(|i| (cpu as u16, i)));
            }
            if s.flush == Flush::Reversed {
                order.reverse();
            }
        }
        Flush::Interleaved => {
            let most = per_cpu.iter().map(Vec::len).max().unwrap_or(0);
            for i in 0..most {
                order.extend((0..s.cpus).filter(|&c| i < per_cpu[usize::from(c)].len()).map(|c| (c, i)));
            }
        }
    }
    let first = events.iter().map(|e| e.ticks).min().unwrap_or(0);
    let mut out = buffer(s, &logfile_record(s, order.len() as u32 + 1, first), 0, 0, 4);
    for (seq, (cpu, i)) in order.into_iter().enumerate() {
        out.extend(buffer(s, &per_cpu[usize::from(cpu)][i], seq as u64 + 1, cpu, 0));
    }
    out
}

/// Plain LZ77 that repeats `unit` (at most 8 KiB) until `len` bytes (at least
/// `unit.len() + 25`): `unit` as literals, then one match reaching back `unit.len()`
/// bytes with a 32-bit length ([MS-XCA] §2.4.4) — a few bytes more than `unit`, for
/// any `len`.
pub fn repeat_lz77(unit: &[u8], len: usize) -> Vec<u8> {
    assert!((1..=8192).contains(&unit.len()) && len >= unit.len() + 25, "unit {} len {len}", unit.len());
    let mut matched = ((unit.len() as u16 - 1) << 3 | 7).to_le_bytes().to_vec();
    matched.extend_from_slice(&[0x0F, 0xFF, 0, 0]);
    matched.extend_from_slice(&(u32::try_from(len - unit.len() - 3).expect("a 32-bit length")).to_le_bytes());
    // Items in groups of 32, each group after its flag word (bit 31 first; 1 = match).
    let items: Vec<&[u8]> = unit.chunks(1).chain([&matched[..]]).collect();
    let mut out = Vec::new();
    for group in items.chunks(32) {
        let mut flags = 0u32;
        for (i, item) in group.iter().enumerate() {
            if item.len() > 1 {
                flags |= 1 << (31 - i);
            }
        }
        // The bits after the last item say "match": the stream ends there.
        flags |= (1u32 << (32 - group.len())).wrapping_sub(1) * u32::from(group.len() < 32);
        out.extend_from_slice(&flags.to_le_bytes());
        for item in group {
            out.extend_from_slice(item);
        }
    }
    out
}

/// The header buffer of a session (the log-file header alone).
pub fn header_buffer(s: &Session) -> Vec<u8> {
    buffer(s, &logfile_record(s, 1, 0), 0, 0, 4)
}

/// A compressed buffer holding `packed` (Plain LZ77) whose header states `filled`
/// bytes of header and records once decompressed.
pub fn packed_buffer(packed: &[u8], filled: u32, seq: u64, cpu: u16) -> Vec<u8> {
    let mut b = buffer_header(72 + packed.len() as u32, filled, seq, cpu, 0x40, 0);
    b.extend_from_slice(packed);
    b
}
