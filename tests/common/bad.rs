//! Helpers of the bad-input tests (`bad_input`, `not_captures`, `hostile_sizes`,
//! `odd_csv`, `mangled_captures`): PresentMon 1.x rows and captures, loading bytes,
//! the warnings of a capture, running the binary, and a time limit that turns a hang
//! into a failure.

use super::{Run, framescope};
use framescope_core::ingest::{LoadError, LoadOptions, load_bytes};
use framescope_core::model::{Capture, Warning};
use serde_json::Value;
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// The PresentMon 1.2–1.6 header (15 columns).
pub use super::PM1_HEADER as HEADER;

/// A valid row for `HEADER`, number `i`, with the given frame-time cell.
pub fn row(i: usize, frame_time: &str) -> String {
    format!(
        "game.exe,100,0x00000000000000AA,DXGI,0,0,0,Hardware: Independent Flip,0,{:.3},{frame_time},16.0,0.5,2.0,5.0",
        0.016 * (i + 1) as f64
    )
}

/// A row for `HEADER` of a frame that was never displayed (`Dropped` 1): with an
/// unusable frame time it is a frame of neither series, so it is skipped. (A displayed
/// frame without a present interval is kept for the display series, `metrics.md` §1.)
pub fn dropped_row(i: usize, frame_time: &str) -> String {
    row(i, frame_time).replacen(",Hardware: Independent Flip,0,", ",Hardware: Independent Flip,1,", 1)
}

/// A minimal valid capture: header and `n` rows, each line ending in `\n`.
pub fn capture_text(n: usize) -> String {
    let mut s = format!("{HEADER}\n");
    for i in 0..n {
        s.push_str(&row(i, "16.0"));
        s.push('\n');
    }
    s
}

/// Runs `f` on another thread and fails when it panics or takes longer than `limit`
/// (a hang must fail the test, not stall the suite).
pub fn within<T: Send + 'static>(limit: Duration, what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(limit) {
        Ok(v) => v,
        Err(RecvTimeoutError::Timeout) => panic!("{what}: no result within {limit:?} (hang?)"),
        Err(RecvTimeoutError::Disconnected) => panic!("{what}: the load panicked"),
    }
}

/// Loads bytes in memory under a made-up name.
pub fn load(name: &str, bytes: &[u8]) -> Result<Capture, LoadError> {
    load_bytes(Path::new(name), bytes, LoadOptions::default())
}

/// Every warning of a capture: the file's and every trace's.
pub fn all_warnings(c: &Capture) -> Vec<&Warning> {
    c.warnings.iter().chain(c.traces.iter().flat_map(|t| &t.warnings)).collect()
}

/// Lines named by the warnings, sorted.
pub fn warning_lines(c: &Capture) -> Vec<u64> {
    let mut lines: Vec<u64> = all_warnings(c).iter().filter_map(|w| w.line).collect();
    lines.sort_unstable();
    lines
}

pub fn warning_at(c: &Capture, line: u64) -> &Warning {
    all_warnings(c)
        .into_iter()
        .find(|w| w.line == Some(line))
        .unwrap_or_else(|| panic!("no warning at line {line}: {:?}", all_warnings(c)))
}

/// Total frames over every trace.
pub fn total_frames(c: &Capture) -> usize {
    c.traces.iter().map(framescope_core::model::Trace::len).sum()
}

/// Runs `framescope report --json ARGS` and parses stdout.
pub fn report(args: &[&std::ffi::OsStr]) -> (Run, Value) {
    let mut all: Vec<&std::ffi::OsStr> = vec!["report".as_ref(), "--json".as_ref()];
    all.extend_from_slice(args);
    let run = framescope(&all);
    let doc = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}\nstderr: {}", run.stdout, run.stderr));
    (run, doc)
}

pub fn no_panic_text(run: &Run) {
    assert!(!run.stderr.contains("panicked"), "the binary panicked: {}", run.stderr);
}

/// How the operating system says a file does not exist: "No such file or directory"
/// on Unix, "The system cannot find the file specified." on Windows ("File not found."
/// under Wine).
pub const NOT_FOUND: &[&str] = &["no such file", "cannot find the file", "file not found"];

/// Asserts that run `index` of a report failed for `path`: its `file` is the path, and
/// its error message names the file and holds one of `words` (what was expected).
pub fn assert_failed_run(run: &Run, doc: &Value, index: usize, path: &Path, words: &[&str]) {
    let shown = path.display().to_string();
    let r = &doc["runs"][index];
    assert_eq!(r["file"], shown.as_str(), "run {index}: {r}");
    let message =
        r["error"]["message"].as_str().unwrap_or_else(|| panic!("run {index} has no error message: {r}"));
    assert!(message.contains(&shown), "message names the file: {message}");
    // The words must be in the message itself, not in the file name it quotes.
    let lower = message.replace(&shown, "").to_lowercase();
    assert!(words.iter().any(|w| lower.contains(w)), "message says what was expected ({words:?}): {message}");
    assert!(r["error"]["line"].is_null() || r["error"]["line"].is_u64(), "line is a number or null: {r}");
    assert!(r.get("frames").is_none(), "a failed run has no figures: {r}");
    assert!(run.stderr.contains(&shown), "stderr names the file: {}", run.stderr);
    no_panic_text(run);
}
