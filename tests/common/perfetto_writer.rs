//! A small protobuf writer for Perfetto FrameTimeline fixtures, from the field numbers
//! of google/perfetto's public protos (`trace.proto`: `packet = 1`;
//! `trace_packet.proto`: `timestamp = 8`, `frame_timeline_event = 76`,
//! `compressed_packets = 50`; `android/frame_timeline_event.proto`: the events 1–5 and
//! their fields), written here independently of framescope's reader.

/// A varint.
pub fn varint(mut v: u64, out: &mut Vec<u8>) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// Field `n` holding the number `v` (wire type 0).
pub fn num(n: u64, v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    varint(n << 3, &mut out);
    varint(v, &mut out);
    out
}

/// Field `n` holding `bytes` (wire type 2).
pub fn bytes(n: u64, bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    varint((n << 3) | 2, &mut out);
    varint(bytes.len() as u64, &mut out);
    out.extend_from_slice(bytes);
    out
}

/// A `TracePacket` at `ts` holding `FrameTimelineEvent` `event`, as a `Trace.packet`.
pub fn packet(ts: u64, event: &[u8]) -> Vec<u8> {
    let mut p = num(8, ts);
    p.extend(num(10, 7)); // trusted_packet_sequence_id: passed over
    p.extend(bytes(76, event));
    bytes(1, &p)
}

/// A `Trace.packet` the reader has no use for (a track event of junk bytes).
pub fn other_packet(ts: u64) -> Vec<u8> {
    let mut p = num(8, ts);
    p.extend(bytes(11, &[0x08, 0x01, 0x12, 0x00]));
    bytes(1, &p)
}

/// A packet of `compressed_packets` (never opened by the reader).
pub fn compressed_packet() -> Vec<u8> {
    bytes(1, &bytes(50, &[0x78, 0x9c, 0x03, 0x00]))
}

/// `ExpectedSurfaceFrameStart` (event 3).
pub fn expected_start(cookie: u64, token: u64, layer: &str) -> Vec<u8> {
    let mut m = num(1, cookie);
    m.extend(num(2, token));
    m.extend(num(3, token + 1000));
    m.extend(num(4, 4321));
    m.extend(bytes(5, layer.as_bytes()));
    bytes(3, &m)
}

/// `ActualSurfaceFrameStart` (event 4) with its present type and jank bitmask.
pub fn actual_start(cookie: u64, token: u64, layer: &str, present_type: u64, jank: u64) -> Vec<u8> {
    let mut m = num(1, cookie);
    m.extend(num(2, token));
    m.extend(num(3, token + 1000));
    m.extend(num(4, 4321));
    m.extend(bytes(5, layer.as_bytes()));
    m.extend(num(6, present_type));
    m.extend(num(7, 1));
    m.extend(num(8, 0));
    m.extend(num(9, jank));
    m.extend(num(10, 1));
    m.extend(num(11, 1));
    bytes(4, &m)
}

/// `ActualDisplayFrameStart` (event 2): SurfaceFlinger's own frame, not read.
pub fn display_start(cookie: u64, token: u64) -> Vec<u8> {
    let mut m = num(1, cookie);
    m.extend(num(2, token));
    m.extend(num(3, 1));
    m.extend(num(4, 1));
    bytes(2, &m)
}

/// `FrameEnd` (event 5).
pub fn frame_end(cookie: u64) -> Vec<u8> {
    bytes(5, &num(1, cookie))
}
