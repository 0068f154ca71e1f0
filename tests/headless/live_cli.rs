//! `framescope report --follow` (issue 19) on the real binary: a file written while it
//! is followed (by a writer thread, in chunks cut inside rows, with pauses), standard
//! input fed in chunks, a file truncated and rewritten, and Ctrl-C. The running lines
//! go to stderr, one a second, the last one carrying the final frame count; the final
//! report equals `report --json` of the finished file.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use serde_json::Value;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// A real PresentMon 1.x capture: 1171 frames of Far Cry New Dawn.
fn capture() -> Option<(PathBuf, Vec<u8>)> {
    let path = common::repo_file("../shared/real-traces/presentmon-1x/pm-1.x_FarCryNewDawn.csv");
    if !path.exists() {
        assert!(std::env::var_os("FRAMESCOPE_REQUIRE_SHARED").is_none(), "missing {}", path.display());
        return None;
    }
    let bytes = std::fs::read(&path).unwrap();
    Some((path, bytes))
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("framescope-live-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// `bytes` in `n` chunks, each cut 17 bytes past an n-th (inside a row).
fn chunks(bytes: &[u8], n: usize) -> Vec<&[u8]> {
    let mut cuts: Vec<usize> = (1..n).map(|k| bytes.len() * k / n + 17).collect();
    cuts.push(bytes.len());
    let mut from = 0;
    cuts.into_iter()
        .map(|to| {
            let c = &bytes[from..to];
            from = to;
            c
        })
        .collect()
}

/// The first run of `report --json FILE`.
fn finished(path: &Path) -> Value {
    let (code, doc) = common::report_json([path]);
    assert_eq!(code, 0, "{doc}");
    doc["runs"][0].clone()
}

/// The figures that must be the finished file's.
fn same_figures(got: &Value, want: &Value) {
    for key in [
        "frames",
        "dropped_frames",
        "duration_ms",
        "summary",
        "pacing",
        "stutters",
        "osc",
        "health",
        "latency",
    ] {
        assert_eq!(got[key], want[key], "{key}");
    }
}

/// The running lines of stderr.
fn running_lines(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.starts_with("[follow ")).collect()
}

/// The frame count of a running line.
fn frames_of(line: &str) -> u64 {
    let rest = line.split("frames ").nth(1).unwrap();
    rest.split_whitespace().next().unwrap().parse().unwrap()
}

/// A writer thread writes the capture in 5 chunks 700 ms apart (one pause of 2 s,
/// shorter than the --stop-after-idle of 3 s):
/// stderr has running lines whose frame counts rise from below the whole to the whole,
/// the last (`[follow end]`) carrying the final count, 1171; stdout is the finished
/// file's report.
#[test]
fn report_follow_prints_running_lines_while_the_file_grows() {
    let Some((path, bytes)) = capture() else { return };
    let live = temp("grow.csv");
    let writer = {
        let (live, bytes) = (live.clone(), bytes.clone());
        std::thread::spawn(move || {
            let mut f = std::fs::File::create(&live).unwrap();
            for (k, c) in chunks(&bytes, 5).into_iter().enumerate() {
                f.write_all(c).unwrap();
                f.flush().unwrap();
                std::thread::sleep(Duration::from_millis(if k == 1 { 2000 } else { 700 }));
            }
        })
    };
    let run = common::framescope([
        "report".as_ref(),
        "--follow".as_ref(),
        "--stop-after-idle".as_ref(),
        "3".as_ref(),
        "--json".as_ref(),
        live.as_os_str(),
    ]);
    writer.join().unwrap();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = running_lines(&run.stderr);
    eprintln!("{}", lines.join("\n"));
    let counts: Vec<u64> = lines.iter().map(|l| frames_of(l)).collect();
    assert!(lines.len() >= 5, "a line a second: {lines:?}");
    assert!(counts[0] < 1171 && counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
    assert!(lines.last().unwrap().starts_with("[follow end] frames 1171 "), "{lines:?}");
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    same_figures(&doc["runs"][0], &finished(&path));
    let _ = std::fs::remove_file(&live);
}

/// Standard input fed in 6 chunks with pauses, then closed: the follow ends at its
/// end, with the finished file's figures.
#[test]
fn report_follow_reads_standard_input_in_chunks() {
    let Some((path, bytes)) = capture() else { return };
    let mut child = Command::new(env!("CARGO_BIN_EXE_framescope"))
        .args(["report", "--follow", "-", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for c in chunks(&bytes, 6) {
        stdin.write_all(c).unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(Duration::from_millis(600));
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let lines = running_lines(&stderr);
    assert!(lines.len() >= 3, "{lines:?}");
    assert!(lines.last().unwrap().starts_with("[follow end] frames 1171 "), "{lines:?}");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["runs"][0]["file"], "-");
    same_figures(&doc["runs"][0], &finished(&path));
}

/// The file is written whole, then truncated and rewritten with the header and 600 rows:
/// a note says it started over, and the report is that of the 600 rows.
#[test]
fn report_follow_starts_over_when_the_file_is_truncated_and_rewritten() {
    let Some((_, bytes)) = capture() else { return };
    let live = temp("rewrite.csv");
    let part = temp("rewrite-part.txt");
    let end = bytes.iter().enumerate().filter(|(_, b)| **b == b'\n').nth(600).unwrap().0 + 1;
    std::fs::write(&part, &bytes[..end]).unwrap();
    let writer = {
        let (live, bytes) = (live.clone(), bytes.clone());
        std::thread::spawn(move || {
            std::fs::write(&live, &bytes).unwrap();
            std::thread::sleep(Duration::from_millis(1500));
            let mut f = std::fs::OpenOptions::new().write(true).truncate(true).open(&live).unwrap();
            std::thread::sleep(Duration::from_millis(300));
            f.write_all(&bytes[..end]).unwrap();
        })
    };
    let run = common::framescope([
        "report".as_ref(),
        "--follow".as_ref(),
        "--stop-after-idle".as_ref(),
        "2.5".as_ref(),
        "--json".as_ref(),
        live.as_os_str(),
    ]);
    writer.join().unwrap();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("was truncated: read again from its start"), "{}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let want = finished(&part);
    assert_eq!(want["frames"], 600);
    same_figures(&doc["runs"][0], &want);
    let _ = std::fs::remove_file(&live);
    let _ = std::fs::remove_file(&part);
}

/// Ctrl-C (SIGINT) ends the follow of a file that never stops: exit 0, the last
/// running line and the table of what was read.
#[cfg(unix)]
#[test]
fn ctrl_c_ends_the_follow_with_the_final_table() {
    let Some((_, bytes)) = capture() else { return };
    let live = temp("sigint.csv");
    std::fs::write(&live, &bytes).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_framescope"))
        .args(["report".as_ref(), "--follow".as_ref(), live.as_os_str()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(running_lines(&stderr).last().unwrap().starts_with("[follow end] frames 1171 "), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("1171"), "{stdout}");
    let _ = std::fs::remove_file(&live);
}

/// A capture of ten traces (PresentMon 2.0, every process: `dwm.exe` has 197 frames,
/// the default trace, `Presenter.exe`, 18), written in 4 chunks: the running lines
/// count the frames of the trace the report picks, never another's — every count is
/// at most 18, and the last is 18 (they once counted `dwm.exe`'s 197).
#[test]
fn running_lines_count_the_reported_trace_of_a_capture_of_many_processes() {
    let path = common::repo_file("sample-traces/pm-v2.0.0_gold_test_case_0_qpc.csv");
    let bytes = std::fs::read(&path).unwrap();
    let live = temp("many.csv");
    let writer = {
        let (live, bytes) = (live.clone(), bytes.clone());
        std::thread::spawn(move || {
            let mut f = std::fs::File::create(&live).unwrap();
            for c in chunks(&bytes, 4) {
                f.write_all(c).unwrap();
                f.flush().unwrap();
                std::thread::sleep(Duration::from_millis(1200));
            }
        })
    };
    let run = common::framescope([
        "report".as_ref(),
        "--follow".as_ref(),
        "--stop-after-idle".as_ref(),
        "2".as_ref(),
        "--json".as_ref(),
        live.as_os_str(),
    ]);
    writer.join().unwrap();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = running_lines(&run.stderr);
    assert_eq!(finished(&path)["frames"], 18);
    assert!(lines.len() >= 3, "{lines:?}");
    assert!(lines.iter().all(|l| frames_of(l) <= 18), "{lines:?}");
    assert!(lines.last().unwrap().starts_with("[follow end] frames 18 "), "{lines:?}");
    let _ = std::fs::remove_file(&live);
}
