//! Hostile sizes (a 50 MB line, a 20 MB quote that never closes, a million rows, an
//! endless device file) finish quickly or are refused, and a load stops when cancelled
//! or when the disk fails midway.
//!
//! Bad input is normal input: a truncated, malformed, huge or hostile file must give a
//! clear message that names the file and the line, never a panic or a hang, and input
//! files are never written to. Helpers: `common::bad`.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::TempDir;
#[allow(clippy::wildcard_imports)]
use common::bad::*;
use framescope_core::ingest::{LoadErrorKind, LoadOptions, Progress};
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------
// 3. Hostile sizes and weird but valid CSV.
// ---------------------------------------------------------------------------------

#[test]
fn a_50_mb_line_without_newline_is_refused_quickly_naming_line_1() {
    let limit = Duration::from_secs(20);
    let err = within(limit, "50 MB line", || {
        let bytes = vec![b'a'; 50 << 20];
        load("huge_line.csv", &bytes).map(|c| total_frames(&c))
    })
    .expect_err("a 50 MB line is not a header");
    assert_eq!(err.line, Some(1), "{err}");
    assert!(matches!(err.kind, LoadErrorKind::NotACapture(_)), "{err}");
    assert!(err.to_string().starts_with("huge_line.csv:1:"), "{err}");

    // Through the binary, from a file: exit 1, the message names file and line.
    let dir = TempDir::new("huge_line");
    let mut bytes = vec![b'x'; 50 << 20];
    bytes[10] = b',';
    let path = dir.file("huge_line.csv", &bytes);
    drop(bytes);
    let started = Instant::now();
    let (run, doc) = report(&[path.as_os_str()]);
    assert!(started.elapsed() < limit, "took {:?}", started.elapsed());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_failed_run(&run, &doc, 0, &path, &["csv frame log"]);
    assert_eq!(doc["runs"][0]["error"]["line"], 1);
    assert!(run.stderr.contains(&format!("{}:1:", path.display())), "{}", run.stderr);
}

#[test]
fn a_huge_data_row_after_good_rows_becomes_a_warning() {
    // Header, two good rows, then 30 MB of one field with no newline.
    let c = within(Duration::from_secs(40), "huge row", || {
        let mut bytes = capture_text(2).into_bytes();
        bytes.resize(bytes.len() + (30 << 20), b'7');
        load("huge_row.csv", &bytes)
    })
    .expect("the two good rows load");
    assert_eq!(total_frames(&c), 2);
    assert_eq!(warning_lines(&c), vec![4]);
}

#[test]
fn a_quote_that_never_closes_is_a_warning_or_an_error_never_a_hang() {
    let limit = Duration::from_secs(40);
    // After good rows: the rows before it are kept, the open quote is a warning.
    let c = within(limit, "open quote after rows", || {
        let mut bytes = capture_text(2).into_bytes();
        bytes.extend_from_slice(b"game.exe,100,\"");
        bytes.resize(bytes.len() + (20 << 20), b'x');
        bytes.extend_from_slice(b"\nmore,text\n");
        load("open_quote.csv", &bytes)
    })
    .expect("the two good rows load");
    assert_eq!(total_frames(&c), 2);
    assert_eq!(warning_lines(&c), vec![4], "{:?}", all_warnings(&c));

    // Right after the header: no frames at all, an error naming the file and line 2.
    let err = within(limit, "open quote after header", || {
        let mut bytes = format!("{HEADER}\n\"").into_bytes();
        bytes.resize(bytes.len() + (20 << 20), b'y');
        load("open_quote2.csv", &bytes).map(|c| total_frames(&c))
    })
    .expect_err("no usable row");
    assert!(matches!(err.kind, LoadErrorKind::NoFrames(_)), "{err}");
    assert_eq!(err.line, Some(2), "{err}");
    assert!(err.to_string().starts_with("open_quote2.csv:2:"), "{err}");
}

#[test]
fn a_million_tiny_rows_load() {
    const N: usize = 1_000_000;
    let (frames, last_line, warnings) = within(Duration::from_mins(1), "1M rows", || {
        let mut text = String::with_capacity(20 * N);
        text.push_str("Application,ProcessID,SwapChainAddress,MsBetweenPresents\n");
        for i in 0..N {
            let _ = writeln!(text, "g.exe,1,0x1,{}", 10 + i % 10);
        }
        let c = load("million.csv", text.as_bytes()).expect("1M rows load");
        let t = &c.traces[0];
        (total_frames(&c), t.frames.line.last(), all_warnings(&c).len())
    });
    assert_eq!(frames, N);
    assert_eq!(last_line, Some(N as u64 + 1));
    assert_eq!(warnings, 0);
}

#[cfg(unix)]
#[test]
fn an_endless_device_file_is_refused_without_hanging() {
    let zero = Path::new("/dev/zero");
    if !zero.exists() {
        eprintln!("skipping: /dev/zero not found");
        return;
    }
    let started = Instant::now();
    let (run, doc) = report(&[zero.as_os_str()]);
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_failed_run(&run, &doc, 0, zero, &["csv frame log"]);
    assert_eq!(doc["runs"][0]["error"]["line"], 1);
}

/// An endless capture: a header, then the same row for ever. It fails with an I/O
/// error after `fail_after` bytes when given, and cancels `progress` after
/// `cancel_after` bytes when given (as the window's Cancel button would).
struct Endless {
    header: Vec<u8>,
    row: Vec<u8>,
    sent: usize,
    fail_after: Option<usize>,
    cancel_after: Option<(usize, std::sync::Arc<Progress>)>,
}

impl Endless {
    fn new() -> Self {
        let text = capture_text(1);
        let mut lines = text.lines();
        let header = format!("{}\n", lines.next().unwrap()).into_bytes();
        let row = format!("{}\n", lines.next().unwrap()).into_bytes();
        Self { header, row, sent: 0, fail_after: None, cancel_after: None }
    }
}

impl std::io::Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.fail_after.is_some_and(|n| self.sent >= n) {
            return Err(std::io::Error::other("the disk went away"));
        }
        if let Some((n, p)) = &self.cancel_after
            && self.sent >= *n
        {
            p.cancel();
        }
        let src = if self.sent < self.header.len() { &self.header } else { &self.row };
        let k = buf.len().min(src.len());
        buf[..k].copy_from_slice(&src[..k]);
        // Header and rows are whole: `buf` is at least a row long in practice, and a
        // cut row is just a truncated row.
        self.sent += k;
        Ok(k)
    }
}

#[test]
fn a_load_stops_when_cancelled() {
    let progress = std::sync::Arc::new(Progress::default());
    let mut input = Endless::new();
    input.cancel_after = Some((5 << 20, std::sync::Arc::clone(&progress)));
    let p = std::sync::Arc::clone(&progress);
    let result = within(Duration::from_secs(30), "an endless capture, cancelled", move || {
        framescope_core::ingest::load_reader(Path::new("endless.csv"), input, LoadOptions::default(), &p)
            .map(|c| c.traces.len())
    });
    let e = result.expect_err("a cancelled load is an error");
    assert!(matches!(e.kind, LoadErrorKind::Cancelled), "{e}");
    assert!(e.to_string().starts_with("endless.csv"), "{e}");
}

#[test]
fn a_read_error_midway_is_an_error_naming_the_file() {
    let mut input = Endless::new();
    input.fail_after = Some(3 << 20);
    let result = within(Duration::from_secs(30), "a capture whose disk fails", move || {
        framescope_core::ingest::load_reader(
            Path::new("failing.csv"),
            input,
            LoadOptions::default(),
            &Progress::default(),
        )
        .map(|c| c.traces.len())
    });
    let e = result.expect_err("a failed read is an error");
    assert!(matches!(e.kind, LoadErrorKind::Io(_)), "{e}");
    let text = e.to_string();
    assert!(text.starts_with("failing.csv") && text.contains("the disk went away"), "{text}");
}
