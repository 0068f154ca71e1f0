//! Compressed bombs (issue 34, item 3): .etl files whose LZ77 buffers expand to 63 MiB
//! of valid PCL records each, many tiny broken buffers, a time bomb of small records,
//! and a gzip capture of 5 M rows in about a megabyte. Each is refused (or read) within
//! 100 MiB + 2 × its size of this process's peak memory and within a few seconds.

use crate::common::TempDir;
use crate::common::etl_writer::{self, Event, Kind, Session};
use crate::measure::{MIB, Measured, measured};
use framescope_core::ingest::load_marker_log;
use framescope_core::ingest::{LoadOptions, Progress, load_file};
use framescope_core::testing as etl;
use std::path::Path;
use std::time::Duration;

/// One PCL marker record (marker 0 of frame 1).
fn marker_unit() -> Vec<u8> {
    etl_writer::event_record(&Event {
        ticks: 5000,
        cpu: 0,
        pid: 77,
        kind: Kind::Marker { marker: 0, frame: 1 },
    })
}

/// Markers 0, 4 and 8 and an input of one frame.
fn pcl_unit() -> Vec<u8> {
    let kinds = [
        Kind::Marker { marker: 0, frame: 1 },
        Kind::MarkerV2 { marker: 4, frame: 1, flags: 0 },
        Kind::Marker { marker: 8, frame: 1 },
        Kind::Input,
    ];
    kinds
        .iter()
        .enumerate()
        .flat_map(|(i, &kind)| {
            etl_writer::event_record(&Event { ticks: 5000 + i as u64, cpu: 0, pid: 77, kind })
        })
        .collect()
}

/// A compressed .etl of `buffers` buffers, each expanding to `unit` repeated up to
/// `expand` bytes (a whole number of units).
pub fn etl_bomb(unit: &[u8], buffers: usize, expand: usize) -> Vec<u8> {
    let len = expand / unit.len() * unit.len();
    let packed = etl_writer::repeat_lz77(unit, len);
    let session = Session { compressed: true, buffer_size: 1024, ..Session::default() };
    let mut file = etl_writer::header_buffer(&session);
    for k in 0..buffers {
        file.extend(etl_writer::packed_buffer(&packed, 72 + len as u32, k as u64 + 1, 0));
    }
    file
}

/// The bound of the project: 100 MiB + 2 × the input's size.
fn bound(size: usize) -> u64 {
    100 * MIB + 2 * size as u64
}

fn assert_within<T>(what: &str, m: &Measured<T>, size: usize, time: Duration) {
    eprintln!("{what}: {size} bytes, {m}");
    if let Some(peak) = m.peak {
        assert!(peak <= bound(size), "{what}: peak {} MiB over {} MiB", peak / MIB, bound(size) / MIB);
    }
    assert!(m.took <= time, "{what}: took {:?} (at most {time:?})", m.took);
}

/// Reads an .etl as `--pcl` and `report FILE.etl` do; both refuse a bomb naming the
/// file and the budget.
fn read_etl(path: &Path) -> Vec<String> {
    let log = load_marker_log(path, 1e7);
    let summary = etl::summarize(path);
    [log.err(), summary.err()].into_iter().flatten().map(|e| e.to_string()).collect()
}

/// A 7.6 KB file: 20 compressed buffers, each expanding to 63 MiB of valid PCL
/// records (~340 000 events). It cost 285 MiB and more with each buffer; it is refused
/// at its budget (the first 16 MiB expanded) naming the file.
#[test]
fn an_etl_whose_buffers_each_expand_to_63_mib_of_pcl_records_is_refused_within_budget() {
    let _serial = crate::serial();
    let dir = TempDir::new("etl_bomb");
    let bytes = etl_bomb(&marker_unit(), 20, 63 << 20);
    assert!(bytes.len() < 7_700, "{}", bytes.len());
    let path = dir.file("bomb.etl", &bytes);
    let m = measured(|| read_etl(&path));
    assert_within("63 MiB buffers", &m, bytes.len(), Duration::from_secs(10));
    assert_eq!(m.value.len(), 2, "refused by both readers: {:?}", m.value);
    for e in &m.value {
        assert!(e.starts_with(&path.display().to_string()), "names the file: {e}");
        assert!(e.contains("expand to more than"), "says why: {e}");
    }
}

/// 600 000 tiny compressed buffers that cannot be decoded (a match before any output),
/// each stating 64 MiB: the problems are counted, the first few kept, and memory stays
/// near nothing (every problem string was kept: 306 MiB); no buffer's stated size is
/// set aside before it decodes (mapping 64 MiB 600 000 times took 36 s).
#[test]
fn many_tiny_broken_buffers_keep_a_few_problems_and_a_count() {
    const BUFFERS: usize = 600_000;
    let _serial = crate::serial();
    let dir = TempDir::new("etl_broken_buffers");
    let session = Session { compressed: true, buffer_size: 1024, ..Session::default() };
    let mut bytes = etl_writer::header_buffer(&session);
    // One flag word saying "match", then a match reaching before the output.
    let broken = etl_writer::packed_buffer(&[0, 0, 0, 0x80, 0x08, 0x00, 0, 0], 64 << 20, 1, 0);
    bytes.reserve(broken.len() * BUFFERS);
    (0..BUFFERS).for_each(|_| bytes.extend_from_slice(&broken));
    let path = dir.file("broken.etl", &bytes);
    let size = bytes.len();
    drop(bytes);
    let m = measured(|| (load_marker_log(&path, 1e7).map(|_| ()), etl::summarize(&path).map(|s| s.warnings)));
    assert_within("600 000 broken buffers", &m, size, Duration::from_secs(10));
    let (log, summary) = m.value;
    let log = log.unwrap_err().to_string();
    assert!(log.contains("no PCL Stats markers"), "{log}");
    let warnings = summary.unwrap_or_else(|e| panic!("{e}"));
    assert!(warnings.len() <= 6, "a few problems and a count: {warnings:?}");
    assert!(warnings.iter().any(|w| w.message.contains("599995 more problems")), "{warnings:?}");
    assert!(warnings[0].message.contains("cannot be decoded"), "{warnings:?}");
}

/// A 23 KB-style file of 70 buffers, each expanding to 63 MiB of small (perfinfo)
/// records no reader keeps: 4.3 GB to decompress and 190 M records to walk (39 s). The
/// budget bounds the bytes expanded, so the time too.
#[test]
fn an_etl_of_many_expanding_buffers_is_refused_in_bounded_time() {
    let _serial = crate::serial();
    let dir = TempDir::new("etl_time_bomb");
    // A 24-byte perfinfo record (group 0x14, type 0x0A) and its padding to 24.
    let mut unit = vec![2, 0, 0x11, 0xC0, 24, 0, 0x0A, 0x14];
    unit.extend_from_slice(&7u64.to_le_bytes());
    unit.extend_from_slice(&[1; 8]);
    let bytes = etl_bomb(&unit, 70, 63 << 20);
    assert!(bytes.len() < 23_000, "{}", bytes.len());
    let path = dir.file("slow.etl", &bytes);
    let m = measured(|| read_etl(&path));
    assert_within("70 buffers of 63 MiB", &m, bytes.len(), Duration::from_secs(10));
    assert_eq!(m.value.len(), 2, "refused by both readers: {:?}", m.value);
    assert!(m.value.iter().all(|e| e.contains("expand to more than")), "{:?}", m.value);
}

/// A legitimate compressed trace (buffers that expand a few times) is read whole.
#[test]
fn a_compressed_trace_within_its_budget_is_read() {
    let _serial = crate::serial();
    let dir = TempDir::new("etl_small_bomb");
    // One buffer of 4 MiB of PCL records from a 600-byte file: over 32 × the file, but
    // within the 16 MiB every file may expand to.
    let unit = pcl_unit();
    let bytes = etl_bomb(&unit, 1, 4 << 20);
    let path = dir.file("fine.etl", &bytes);
    let m = measured(|| load_marker_log(&path, 1e7));
    assert_within("one 4 MiB buffer", &m, bytes.len(), Duration::from_secs(10));
    let log = m.value.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(log.markers.len(), (4 << 20) / unit.len() * 3);
}

/// PresentMon rows, `n` of them, with frame times cycling over a short period.
pub fn presentmon_rows(n: usize) -> String {
    use std::fmt::Write as _;
    let mut s = String::with_capacity(n * 72);
    for i in 0..n {
        let ft = [16.61, 16.72, 16.58, 17.03, 16.49, 16.66, 16.7][i % 7];
        let _ = writeln!(s, "game.exe,4242,0x0000021F3A5C1E70,DXGI,1,0,0,{ft},{ft},0.125,{ft}");
    }
    s
}

pub const PRESENTMON_HEADER: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,\
Dropped,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilDisplayed\n";

pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write as _;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// A gzip capture of 5 M PresentMon rows (~340 MB of text) in about a megabyte: the
/// header's member, then one member of 50 000 rows a hundred times. It peaked at
/// 372 MiB (every row kept); it is refused once its text passes 32 × the archive,
/// naming the file.
#[test]
fn a_gzip_capture_of_5_m_rows_in_a_megabyte_is_refused_within_budget() {
    let _serial = crate::serial();
    let dir = TempDir::new("gzip_bomb");
    let mut bytes = gzip(PRESENTMON_HEADER.as_bytes());
    let member = gzip(presentmon_rows(50_000).as_bytes());
    (0..100).for_each(|_| bytes.extend_from_slice(&member));
    let path = dir.file("bomb.csv.gz", &bytes);
    let m =
        measured(|| load_file(&path, LoadOptions::default(), &Progress::default()).map(|c| c.traces.len()));
    assert_within("5 M rows in gzip", &m, bytes.len(), Duration::from_secs(30));
    let e = m.value.map(|_| ()).unwrap_err().to_string();
    assert!(e.starts_with(&path.display().to_string()), "names the file: {e}");
    assert!(e.contains("expands to more than"), "says why: {e}");
}

/// A gzip capture of 20 MB (more than any file may expand to) that compresses 18 ×
/// (more than real ones do) is read.
#[test]
fn a_gzip_capture_compressing_eighteen_times_is_read() {
    use std::fmt::Write as _;
    let _serial = crate::serial();
    let dir = TempDir::new("gzip_fine");
    let mut rng = crate::common::mangle::XorShift::new(34);
    let mut text = PRESENTMON_HEADER.to_owned();
    for _ in 0..300_000 {
        let ft = 16.0 + rng.below(300) as f64 / 100.0;
        let _ = writeln!(text, "game.exe,4242,0x0000021F3A5C1E70,DXGI,1,0,0,{ft:.2},{ft:.2},0.125,{ft:.2}");
    }
    let bytes = gzip(text.as_bytes());
    let ratio = text.len() as f64 / bytes.len() as f64;
    assert!((15.0..25.0).contains(&ratio), "{ratio}");
    let path = dir.file("fine.csv.gz", &bytes);
    drop(text);
    let m = measured(|| load_file(&path, LoadOptions::default(), &Progress::default()));
    eprintln!("a gzip capture compressed {ratio:.1} ×: {m}");
    let c = m.value.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.traces[0].frames.frame_time_ms.len(), 300_000);
}
