//! Damaged PCL .etl files: truncations, flipped bits and corrupted size fields (buffer
//! sizes, filled lengths, record sizes, extended-item sizes) of hand-built traces, a
//! few thousand from a fixed seed. Every one is read or refused with a message naming
//! the file — never a panic, never a hang — and peak memory stays bounded. With
//! `etl_fuzz/budget.rs` (compressed bombs: .etl and gzip) and `etl_fuzz/fuzz.rs` (a
//! mutation fuzz of .etl, gzip and CapFrameX JSON input that asserts each input's peak
//! memory and time). The tests run one at a time ([`serial`]): each reads this
//! process's peak memory, reset before the work it measures.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

#[path = "etl_fuzz/budget.rs"]
mod budget;
mod common;
#[path = "etl_fuzz/fuzz.rs"]
mod fuzz;
#[path = "etl_fuzz/measure.rs"]
mod measure;

/// The tests of this program run one at a time: each reads the process's peak memory.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    SERIAL.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

use common::TempDir;
use common::etl_writer::{self, Event, Flush, Kind, Session};
use common::mangle::XorShift;
use framescope_core::ingest::load_marker_log;
use framescope_core::testing as etl;
use std::time::{Duration, Instant};

fn originals() -> Vec<Vec<u8>> {
    let events: Vec<Event> = (0..120u64)
        .map(|i| Event {
            ticks: 5000 + i * 1000,
            cpu: (i % 3) as u16,
            pid: 77,
            kind: match i % 4 {
                0 => Kind::Marker { marker: 0, frame: i / 4 },
                1 => Kind::MarkerV2 { marker: 4, frame: i / 4, flags: 0 },
                2 => Kind::Marker { marker: 8, frame: i / 4 },
                _ => Kind::Input,
            },
        })
        .collect();
    let plain = Session {
        cpus: 3,
        per_buffer: 16,
        buffer_size: 8192,
        flush: Flush::Interleaved,
        ..Session::default()
    };
    let packed = Session { compressed: true, freq: 3_579_545, flush: Flush::Reversed, ..plain };
    vec![etl_writer::write(&plain, &events), etl_writer::write(&packed, &events)]
}

/// Offsets of the buffer headers and of the records in the uncompressed file.
fn size_fields(bytes: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 72 <= bytes.len() {
        let size = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        out.extend([at, at + 4, at + 0x30]); // BufferSize, SavedOffset, filled
        let filled = u32::from_le_bytes(bytes[at + 0x30..at + 0x34].try_into().unwrap()) as usize;
        let mut r = at + 72;
        while r + 8 <= at + filled.min(size) {
            out.extend([r, r + 4, r + 80 + 6]); // record size, flags / system size, first ext size
            let len = u16::from_le_bytes([bytes[r], bytes[r + 1]]) as usize;
            let len = if bytes[r + 2] == 0x02 {
                u16::from_le_bytes([bytes[r + 4], bytes[r + 5]]) as usize
            } else {
                len
            };
            r += len.div_ceil(8).max(1) * 8;
        }
        if size < 72 {
            break;
        }
        at += size;
    }
    out
}

fn mutate(original: &[u8], fields: &[usize], rng: &mut XorShift) -> (Vec<u8>, String) {
    let mut b = original.to_vec();
    let what = match rng.below(4) {
        0 => {
            let n = rng.below(b.len());
            b.truncate(n);
            format!("truncated to {n}")
        }
        1 => {
            let flips = 1 + rng.below(8);
            for _ in 0..flips {
                let i = rng.below(b.len());
                b[i] ^= 1 << rng.below(8);
            }
            format!("{flips} bits flipped")
        }
        _ => {
            let at = fields[rng.below(fields.len())];
            let values = [0u32, 1, 7, 71, 72, 73, 0xFFFF, 0xFFFF_FFFF, 0x7FFF_FFFF, rng.next() as u32];
            let v = values[rng.below(values.len())];
            let end = (at + 4).min(b.len());
            let bytes = v.to_le_bytes();
            b[at..end].copy_from_slice(&bytes[..end - at]);
            format!("size field at {at} set to {v}")
        }
    };
    (b, what)
}

#[test]
fn mangled_pcl_etl_files_never_panic_or_hang() {
    const PER_FILE: u64 = 1500;
    let _serial = serial();
    measure::reset_peak();
    let dir = TempDir::new("etl_fuzz");
    let path = dir.0.join("mangled.etl");
    let (mut tried, mut read, mut refused) = (0, 0, 0);
    let mut failures = Vec::new();
    let started = Instant::now();
    for (k, original) in originals().iter().enumerate() {
        let fields = size_fields(original);
        for seed in 0..PER_FILE {
            let mut rng = XorShift::new(seed * 7919 + k as u64 + 1);
            let (bytes, what) = mutate(original, &fields, &mut rng);
            std::fs::write(&path, &bytes).unwrap();
            tried += 1;
            let t = Instant::now();
            let result = std::panic::catch_unwind(|| (load_marker_log(&path, 1e7), etl::summarize(&path)));
            let took = t.elapsed();
            match result {
                Err(_) => failures.push(format!("file {k} seed {seed} ({what}): panicked")),
                Ok((log, summary)) => {
                    for e in [log.as_ref().err(), summary.as_ref().err()].into_iter().flatten() {
                        if !e.to_string().starts_with(&path.display().to_string()) {
                            failures.push(format!(
                                "file {k} seed {seed} ({what}): error does not name the file: {e}"
                            ));
                        }
                    }
                    match log {
                        Ok(log) if log.markers.iter().all(|m| m.time_ms.is_finite()) => read += 1,
                        Ok(_) => failures.push(format!("file {k} seed {seed} ({what}): a non-finite time")),
                        Err(_) => refused += 1,
                    }
                }
            }
            // Under Wine (the Windows run of .ci/windows.sh) the same work takes longer.
            if took > Duration::from_secs(if cfg!(windows) { 6 } else { 2 }) {
                failures.push(format!("file {k} seed {seed} ({what}): took {took:?}"));
            }
        }
    }
    eprintln!("{tried} mangled .etl files in {:?}: {read} read, {refused} refused", started.elapsed());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(read > tried / 4, "most damaged files keep readable markers: {read} of {tried}");
    assert!(refused > 0, "some damage must be refused");
    // 100 MiB + 2 × the file size is the bound; the test process itself stays far below.
    if let Some(peak) = measure::peak_rss() {
        assert!(peak < 100 << 20, "peak memory {} MiB", peak >> 20);
    }
}

/// A damaged file says where: the byte offset of the buffer or record.
#[test]
fn damage_is_reported_with_its_byte_offset() {
    let _serial = serial();
    let dir = TempDir::new("etl_offsets");
    let mut bytes = originals().remove(0);
    // The second data buffer's first record claims 0xFFFF bytes (its buffer is 8 KiB).
    let second = 2 * 8192;
    bytes[second + 72..second + 74].copy_from_slice(&0xFFFFu16.to_le_bytes());
    // The first data buffer's first event has a broken TraceLogging schema: its size
    // (after the 80-byte header, the 40-byte provider-traits item and the schema item's
    // 8-byte header) says 3 bytes.
    let schema = 8192 + 72 + 80 + 40 + 8;
    bytes[schema..schema + 2].copy_from_slice(&3u16.to_le_bytes());
    // And the file is cut inside its last buffer.
    bytes.truncate(bytes.len() - 100);
    let path = dir.file("damaged.etl", &bytes);
    let log = load_marker_log(&path, 1e7).unwrap_or_else(|e| panic!("{e}"));
    let messages: Vec<&str> = log.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with(&format!("byte {}: ", second + 72)) && m.contains("65535 bytes")),
        "{messages:?}"
    );
    assert!(messages.iter().any(|m| m.contains("the file ends inside a buffer")), "{messages:?}");
    assert!(
        messages.iter().any(|m| m.contains("schema cannot be read: the schema states 3 bytes")),
        "{messages:?}"
    );
    // Not an .etl at all: refused, naming the file.
    let junk = dir.file("junk.etl", &[0u8; 200]);
    let e = load_marker_log(&junk, 1e7).map(|_| ()).unwrap_err().to_string();
    assert!(e.starts_with(&junk.display().to_string()), "{e}");
    let e = etl::summarize(&junk).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("not an ETW trace") && e.contains("byte"), "{e}");
}
