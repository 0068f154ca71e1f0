//! Perfetto traces with Android's FrameTimeline (`metrics.md` §16): a protobuf
//! `perfetto.protos.Trace`, of which only the messages framescope needs are decoded,
//! from their documented field numbers (google/perfetto `protos/perfetto/trace/`
//! `trace.proto`, `trace_packet.proto`, `android/frame_timeline_event.proto`):
//!
//! * `Trace { repeated TracePacket packet = 1; }`
//! * `TracePacket { optional uint64 timestamp = 8; FrameTimelineEvent
//!   frame_timeline_event = 76; }` (every other field is passed over)
//! * `FrameTimelineEvent { oneof event { ExpectedDisplayFrameStart = 1;
//!   ActualDisplayFrameStart = 2; ExpectedSurfaceFrameStart = 3;
//!   ActualSurfaceFrameStart = 4; FrameEnd = 5; } }`
//! * `ExpectedSurfaceFrameStart { int64 cookie = 1; int64 token = 2; int64
//!   display_frame_token = 3; int32 pid = 4; string layer_name = 5; }`
//! * `ActualSurfaceFrameStart { …the same 1–5…; PresentType present_type = 6; bool
//!   on_time_finish = 7; bool gpu_composition = 8; int32 jank_type = 9 (a bitmask);
//!   PredictionType prediction_type = 10; bool is_buffer = 11; }`
//! * `FrameEnd { int64 cookie = 1; }`: the slice a start opened ends at this packet's
//!   timestamp.
//!
//! One trace per layer (`layer_name`): its surface frames in order of their actual
//! end (the frame reaching the screen); frame time = the interval between consecutive
//! actual ends (as for SurfaceFlinger); a frame's lateness against its expected
//! timeline (same token and layer) is a column; each jank type of Android's bitmask
//! (App Deadline Missed, Buffer Stuffing, …) is a frame-health mark. Frames with
//! `present_type` DROPPED (4) never reached the screen: counted, not frames.
//! SurfaceFlinger's own display frames (fields 1 and 2) are not read. Packets that are
//! compressed (`compressed_packets`, field 50) are not opened: a warning counts them.

use super::{LoadError, LoadErrorKind, Progress};
use crate::model::{Capture, Column, ColumnKind, FileInfo, Format, Frames, Lines, Trace, TraceMeta, Warning};
use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

/// A packet larger than this is no FrameTimeline trace's (Perfetto writes packets of
/// at most a few hundred KiB): an error, not an allocation.
const MAX_PACKET: u64 = 64 << 20;
/// Layers kept at most: more is no real trace.
const MAX_LAYERS: usize = 4096;
/// Android's jank types, by bit (`FrameTimelineEvent.JankType`).
pub const JANK_TYPES: [(i64, &str); 10] = [
    (2, "SurfaceFlinger Scheduling"),
    (4, "Prediction Error"),
    (8, "Display HAL"),
    (16, "SurfaceFlinger CPU Deadline Missed"),
    (32, "SurfaceFlinger GPU Deadline Missed"),
    (64, "App Deadline Missed"),
    (128, "Buffer Stuffing"),
    (256, "Unknown Jank"),
    (512, "SurfaceFlinger Stuffing"),
    (1024, "Dropped Frame"),
];
/// `PresentType.PRESENT_DROPPED`.
const PRESENT_DROPPED: u64 = 4;

/// One protobuf field's value.
#[derive(Debug, Clone, Copy)]
enum Value<'a> {
    Varint(u64),
    Bytes(&'a [u8]),
    Fixed,
}

/// A varint at the start of `buf`: its value and length.
fn varint(buf: &[u8]) -> Option<(u64, usize)> {
    let mut v = 0u64;
    for (i, &b) in buf.iter().enumerate().take(10) {
        v |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Some((v, i + 1));
        }
    }
    None
}

/// The fields of one message, in order; `Err` at the first malformed one.
fn fields(mut buf: &[u8]) -> impl Iterator<Item = Result<(u64, Value<'_>), &'static str>> {
    std::iter::from_fn(move || {
        if buf.is_empty() {
            return None;
        }
        let step = || -> Result<(u64, Value<'_>, usize), &'static str> {
            let (tag, n) = varint(buf).ok_or("a field tag is cut off")?;
            let rest = &buf[n..];
            let (value, used) = match tag & 7 {
                0 => varint(rest).map(|(v, k)| (Value::Varint(v), k)).ok_or("a number is cut off")?,
                1 => (rest.len() >= 8).then_some((Value::Fixed, 8)).ok_or("a 64-bit field is cut off")?,
                5 => (rest.len() >= 4).then_some((Value::Fixed, 4)).ok_or("a 32-bit field is cut off")?,
                2 => {
                    let (len, k) = varint(rest).ok_or("a length is cut off")?;
                    let len = usize::try_from(len).map_err(|_| "a length is too large")?;
                    let end = k
                        .checked_add(len)
                        .filter(|&e| e <= rest.len())
                        .ok_or("a field runs past its message")?;
                    (Value::Bytes(&rest[k..end]), end)
                }
                _ => return Err("a field of an unknown wire type (not protobuf)"),
            };
            Ok((tag >> 3, value, n + used))
        };
        match step() {
            Ok((field, value, used)) => {
                buf = &buf[used..];
                Some(Ok((field, value)))
            }
            Err(e) => {
                buf = &[];
                Some(Err(e))
            }
        }
    })
}

/// True when `raw` starts like a Perfetto trace: a `packet` field (tag 0x0A) whose
/// whole message is in the buffer and decodes, and a control byte in the first bytes
/// (no text file has one; a trace's varints do).
#[must_use]
pub fn looks_like_perfetto(raw: &[u8]) -> bool {
    let Some((&0x0A, rest)) = raw.split_first() else { return false };
    let Some((len, n)) = varint(rest) else { return false };
    let Some(packet) = usize::try_from(len).ok().and_then(|l| rest.get(n..n.checked_add(l)?)) else {
        return false;
    };
    let control =
        raw.iter().take(256).any(|&b| b < 0x09 || (0x0E..0x20).contains(&b) || b == 0x0B || b == 0x0C);
    control && !packet.is_empty() && fields(packet).all(|f| f.is_ok())
}

/// An `int64` read from a varint (two's complement).
fn int64(v: u64) -> i64 {
    i64::from_ne_bytes(v.to_ne_bytes())
}

/// What a FrameTimeline slice start says.
#[derive(Debug, Default, Clone)]
struct Start {
    cookie: i64,
    token: i64,
    layer: String,
    present_type: u64,
    jank: i64,
}

/// Decodes a surface-frame start (`ExpectedSurfaceFrameStart`, `ActualSurfaceFrameStart`).
fn surface_start(msg: &[u8]) -> Result<Start, &'static str> {
    let mut s = Start::default();
    for f in fields(msg) {
        match f? {
            (1, Value::Varint(v)) => s.cookie = int64(v),
            (2, Value::Varint(v)) => s.token = int64(v),
            (5, Value::Bytes(b)) => s.layer = String::from_utf8_lossy(b).into_owned(),
            (6, Value::Varint(v)) => s.present_type = v,
            (9, Value::Varint(v)) => s.jank = int64(v),
            _ => {}
        }
    }
    Ok(s)
}

/// One surface frame of a layer: the start and end of its actual (and expected) slice.
#[derive(Debug, Clone)]
struct SurfaceFrame {
    token: i64,
    start_ns: u64,
    end_ns: Option<u64>,
    present_type: u64,
    jank: i64,
    /// The packet (1-based) that started it: the "line" of the frame.
    packet: u64,
}

/// Everything read from the trace.
#[derive(Default)]
struct Timeline {
    layers: Vec<String>,
    /// Per layer: its actual surface frames.
    actual: Vec<Vec<SurfaceFrame>>,
    /// Expected slices by (layer, token): start and end.
    expected: HashMap<(usize, i64), (u64, Option<u64>)>,
    /// Open slices by cookie: (layer, actual frame index, or the expected key).
    open: HashMap<i64, Slice>,
    compressed: u64,
}

#[derive(Clone, Copy)]
enum Slice {
    Actual(usize, usize),
    Expected(usize, i64),
}

impl Timeline {
    fn layer(&mut self, name: &str) -> Result<usize, &'static str> {
        if let Some(i) = self.layers.iter().position(|l| l == name) {
            return Ok(i);
        }
        if self.layers.len() >= MAX_LAYERS {
            return Err("more layers than any real trace has");
        }
        self.layers.push(name.to_owned());
        self.actual.push(Vec::new());
        Ok(self.layers.len() - 1)
    }

    /// One `FrameTimelineEvent` at `ts`.
    fn event(&mut self, msg: &[u8], ts: u64, packet: u64) -> Result<(), &'static str> {
        for f in fields(msg) {
            match f? {
                (3, Value::Bytes(b)) => {
                    let s = surface_start(b)?;
                    let layer = self.layer(&s.layer)?;
                    self.expected.insert((layer, s.token), (ts, None));
                    self.open.insert(s.cookie, Slice::Expected(layer, s.token));
                }
                (4, Value::Bytes(b)) => {
                    let s = surface_start(b)?;
                    let layer = self.layer(&s.layer)?;
                    let frames = &mut self.actual[layer];
                    let (token, present_type, jank) = (s.token, s.present_type, s.jank);
                    frames.push(SurfaceFrame {
                        token,
                        start_ns: ts,
                        end_ns: None,
                        present_type,
                        jank,
                        packet,
                    });
                    self.open.insert(s.cookie, Slice::Actual(layer, frames.len() - 1));
                }
                (5, Value::Bytes(b)) => self.end(b, ts)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// A `FrameEnd`: closes the slice its cookie opened.
    fn end(&mut self, msg: &[u8], ts: u64) -> Result<(), &'static str> {
        let mut cookie = None;
        for f in fields(msg) {
            if let (1, Value::Varint(v)) = f? {
                cookie = Some(int64(v));
            }
        }
        match cookie.and_then(|c| self.open.remove(&c)) {
            Some(Slice::Actual(l, i)) => {
                if let Some(f) = self.actual.get_mut(l).and_then(|a| a.get_mut(i)) {
                    f.end_ns = Some(ts);
                }
            }
            Some(Slice::Expected(l, token)) => {
                if let Some(e) = self.expected.get_mut(&(l, token)) {
                    e.1 = Some(ts);
                }
            }
            None => {}
        }
        Ok(())
    }

    /// One `TracePacket`.
    fn packet(&mut self, msg: &[u8], packet: u64) -> Result<(), &'static str> {
        let (mut ts, mut event) = (0u64, None);
        for f in fields(msg) {
            match f? {
                (8, Value::Varint(v)) => ts = v,
                (76, Value::Bytes(b)) => event = Some(b),
                (50, Value::Bytes(_)) => self.compressed += 1,
                _ => {}
            }
        }
        event.map_or(Ok(()), |e| self.event(e, ts, packet))
    }
}

/// Reads the packets of `reader` one at a time (each at most [`MAX_PACKET`] bytes).
fn read_packets(path: &Path, reader: &mut dyn Read, progress: &Progress) -> Result<Timeline, LoadError> {
    let bad = |packet: u64, why: &str| {
        let msg = format!("not a readable Perfetto trace: packet {packet}: {why}");
        LoadError::new(path, None, LoadErrorKind::NotACapture(msg))
    };
    let io = |e| LoadError::new(path, None, LoadErrorKind::Io(e));
    let mut t = Timeline::default();
    let mut buf = Vec::new();
    for packet in 1u64.. {
        if packet.is_multiple_of(8192) && progress.is_cancelled() {
            return Err(LoadError::new(path, None, LoadErrorKind::Cancelled));
        }
        let mut head = [0u8; 1];
        if reader.read(&mut head).map_err(io)? == 0 {
            break;
        }
        let len = read_varint(reader).map_err(io)?.ok_or_else(|| bad(packet, "its length is cut off"))?;
        if head[0] & 7 != 2 || len > MAX_PACKET {
            return Err(bad(packet, "not a length-delimited field of a sane size"));
        }
        buf.clear();
        let got = reader.take(len).read_to_end(&mut buf).map_err(io)?;
        if got as u64 != len {
            return Err(bad(packet, "the file ends inside it (truncated)"));
        }
        if head[0] == 0x0A {
            t.packet(&buf, packet).map_err(|e| bad(packet, e))?;
        }
    }
    Ok(t)
}

/// A varint from a reader: `None` when the input ends inside it or it is too long.
fn read_varint(reader: &mut dyn Read) -> std::io::Result<Option<u64>> {
    let mut v = 0u64;
    for i in 0..10 {
        let mut b = [0u8; 1];
        if reader.read(&mut b)? == 0 {
            return Ok(None);
        }
        v |= u64::from(b[0] & 0x7f) << (7 * i);
        if b[0] & 0x80 == 0 {
            return Ok(Some(v));
        }
    }
    Ok(None)
}

/// Reads a Perfetto trace's FrameTimeline: one trace per layer.
pub(super) fn load(
    path: &Path,
    mut reader: super::decode::Text<'_>,
    progress: &Progress,
) -> Result<Capture, LoadError> {
    let t = read_packets(path, &mut reader, progress)?;
    let mut traces = Vec::new();
    let mut dropped_total = 0usize;
    for (index, (layer, frames)) in t.layers.iter().zip(&t.actual).enumerate() {
        let (trace, dropped) = layer_trace(layer, frames, &t.expected, index);
        dropped_total += dropped;
        traces.extend(trace);
    }
    if traces.is_empty() {
        let msg =
            "no layer with two displayed surface frames in its FrameTimeline (record the trace with the \
                   android.surfaceflinger.frametimeline data source)"
                .to_owned();
        return Err(LoadError::new(path, None, LoadErrorKind::NoFrames(msg)));
    }
    let mut warnings = Vec::new();
    if t.compressed > 0 {
        warnings.push(Warning::file(format!(
            "{} compressed packets were not opened (record without compression to read their frames)",
            t.compressed
        )));
    }
    if dropped_total > 0 {
        warnings.push(Warning::note(format!(
            "{dropped_total} surface frames were dropped (never presented): counted, not frames"
        )));
    }
    let info = FileInfo {
        path: path.to_path_buf(),
        format: Format::Perfetto,
        format_version: "Perfetto FrameTimeline".into(),
        system: Vec::new(),
        dropped_known: false,
        target_fps: None,
    };
    Ok(Capture { info, traces, warnings })
}

/// A layer's trace (`None` without two displayed frames) and its dropped frames.
fn layer_trace(
    layer: &str,
    frames: &[SurfaceFrame],
    expected: &HashMap<(usize, i64), (u64, Option<u64>)>,
    index: usize,
) -> (Option<Trace>, usize) {
    let dropped = frames.iter().filter(|f| f.present_type == PRESENT_DROPPED).count();
    let mut shown: Vec<(&SurfaceFrame, u64)> = frames
        .iter()
        .filter(|f| f.present_type != PRESENT_DROPPED)
        .filter_map(|f| f.end_ns.map(|e| (f, e)))
        .collect();
    shown.sort_by_key(|&(f, e)| (e, f.packet));
    let mut out = Frames::default();
    let mut lines = Lines::default();
    let mut late = Vec::new();
    let mut duration = Vec::new();
    let mut marks: Vec<Vec<f64>> = vec![Vec::new(); JANK_TYPES.len()];
    for pair in shown.windows(2) {
        let [(_, prev), (f, end)] = pair else { continue };
        if end <= prev {
            continue;
        }
        let ft = (end - prev) as f64 / 1e6;
        out.frame_time_ms.push(ft);
        out.display_ms.push(ft);
        out.start_ms.push((prev - shown[0].1) as f64 / 1e6);
        lines.push(f.packet);
        let exp_end = expected.get(&(index, f.token)).and_then(|e| e.1);
        late.push(exp_end.map_or(f64::NAN, |x| (*end as f64 - x as f64) / 1e6));
        duration.push(end.checked_sub(f.start_ns).map_or(f64::NAN, |d| d as f64 / 1e6));
        for (m, (bit, _)) in marks.iter_mut().zip(JANK_TYPES) {
            m.push(if f.jank & bit != 0 { ft } else { f64::NAN });
        }
    }
    if out.frame_time_ms.is_empty() {
        return (None, dropped);
    }
    out.line = lines;
    out.columns.push(Column {
        name: "Actual duration (actual start → end)".into(),
        kind: ColumnKind::FrameDuration,
        values: duration.into(),
    });
    out.columns.push(Column {
        name: "Lateness (actual end − expected end)".into(),
        kind: ColumnKind::Other,
        values: late.into(),
    });
    for (m, (_, name)) in marks.into_iter().zip(JANK_TYPES) {
        if m.iter().any(|v| v.is_finite()) {
            out.columns.push(Column { name: name.to_owned(), kind: ColumnKind::FrameMark, values: m.into() });
        }
    }
    (Some(Trace { meta: TraceMeta::named(layer), frames: out, warnings: Vec::new() }), dropped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_and_fields() {
        assert_eq!(varint(&[0x96, 0x01]), Some((150, 2)));
        assert_eq!(varint(&[0x96]), None);
        let msg = [0x08, 0x96, 0x01, 0x12, 0x02, b'h', b'i'];
        let got: Vec<_> = fields(&msg).collect();
        assert!(matches!(got[0], Ok((1, Value::Varint(150)))));
        assert!(matches!(got[1], Ok((2, Value::Bytes(b"hi")))));
        assert!(fields(&[0x12, 0x05, b'h']).any(|f| f.is_err()));
        assert!(fields(&[0x0B]).any(|f| f.is_err()));
        assert_eq!(int64(u64::MAX), -1);
    }

    #[test]
    fn text_is_no_perfetto_trace() {
        assert!(!looks_like_perfetto(b"\nApplication,ProcessID\n"));
        assert!(!looks_like_perfetto(b"16666666\n"));
        assert!(looks_like_perfetto(&[0x0A, 0x02, 0x50, 0x01]));
    }
}
