//! Issue 34, items 5 and 6: one bad timestamp cell never becomes the time base; a
//! PresentMon-family capture whose present intervals are all 0 falls back to its
//! display intervals under `--frame-time auto` (and fails under `presents`); the
//! follow of a truncated file restarts its idle clock; `--follow -` with a huge
//! unterminated line stays linear and bounded.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common::{self, TempDir, close, report_json};
use std::fmt::Write as _;

/// A FRAPS log of 1002 rows 16.5 ms apart whose row 501 (line 502) holds `0`: that row
/// is skipped with a warning naming line 502, and the next frame is measured from the
/// row before it (33 ms), never from the 0 (which gave 40 FPS, a 1 % low of 1 FPS and
/// 24.9 s). 1000 frames: 999 of 16.5 ms and one of 33 ms, T = 1001 · 16.5 ms.
#[test]
fn a_fraps_zero_cell_is_skipped_and_never_the_time_base() {
    let dir = TempDir::new("issue34_fraps_zero");
    let mut text = String::from("Frame, Time (ms)\n");
    for i in 0..1002_u32 {
        let t = if i == 500 { 0.0 } else { f64::from(i) * 16.5 };
        writeln!(text, "{}, {t:.3}", i + 1).unwrap();
    }
    let file = dir.file("game 2024-01-01 12-00-00-00 frametimes.csv", text.as_bytes());
    let (code, doc) = report_json([&file]);
    assert_eq!(code, 0, "{doc}");
    let run = &doc["runs"][0];
    assert_eq!(run["frames"], 1000);
    assert!(close(run["duration_ms"].as_f64().unwrap(), 1001.0 * 16.5), "{}", run["duration_ms"]);
    let s = &run["summary"];
    assert!(close(s["avg_fps"].as_f64().unwrap(), 1000.0 * 1000.0 / (1001.0 * 16.5)), "{s}");
    // The 10 slowest frames: the 33 ms one and nine of 16.5 ms.
    assert!(close(s["low_1pct_fps"].as_f64().unwrap(), 1000.0 * 10.0 / (33.0 + 9.0 * 16.5)), "{s}");
    assert!(close(s["min_fps"].as_f64().unwrap(), 1000.0 / 33.0), "{s}");
    let warnings = run["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0]["line"], 502);
    assert!(warnings[0]["message"].as_str().unwrap().contains("goes back"), "{warnings:?}");
}

/// A `--column timestamp=` log whose line 5 goes back (40 → 30 ms): skipped with a
/// warning naming line 5, and the next frame is 60 − 40 ms, not 60 − 30.
#[test]
fn a_backwards_timestamp_is_skipped_warned_with_its_line_and_never_the_time_base() {
    let dir = TempDir::new("issue34_backwards");
    let file = dir.file("log.csv", b"stamp,gpu\n0,1\n20,2\n40,3\n30,4\n60,5\n80,6\n");
    let (code, doc) = report_json([file.as_os_str(), "--column".as_ref(), "timestamp=stamp".as_ref()]);
    assert_eq!(code, 0, "{doc}");
    let run = &doc["runs"][0];
    assert_eq!(run["frames"], 4);
    assert!(close(run["duration_ms"].as_f64().unwrap(), 80.0));
    assert!(close(run["summary"]["p99_9_ms"].as_f64().unwrap(), 20.0), "{}", run["summary"]);
    assert!(close(run["summary"]["avg_fps"].as_f64().unwrap(), 50.0));
    let warnings = run["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0]["line"], 5);
    assert!(warnings[0]["message"].as_str().unwrap().contains("timestamp goes back"), "{warnings:?}");
    // The table says it too.
    let table = common::framescope([
        "report".as_ref(),
        "--column".as_ref(),
        "timestamp=stamp".as_ref(),
        file.as_os_str(),
    ]);
    assert!(table.stdout.contains("line 5: timestamp goes back"), "{}", table.stdout);
}

/// The header of the real OCAT capture (`ocat/OCAT-MetroExodus…csv`).
const OCAT_HEADER: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,\
AllowsTearing,PresentMode,WasBatched,DwmNotified,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,\
MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed,Motherboard,OS,Processor,System RAM,Base Driver Version,\
Driver Package,GPU #,GPU,GPU Core Clock (MHz),GPU Memory Clock (MHz),GPU Memory (MB),Comment";

/// An OCAT capture of 10 frames whose `MsBetweenPresents` are all 0 while
/// `MsBetweenDisplayChange` holds 10, 10, 10, 10, 20, 10, 10, 10, 10, 10 ms (the system
/// columns on the first row only, as OCAT writes them).
fn ocat_without_present_intervals(dir: &TempDir) -> std::path::PathBuf {
    let display = [10, 10, 10, 10, 20, 10, 10, 10, 10, 10];
    let mut text = format!("{OCAT_HEADER}\n");
    let mut t = 0.0;
    for (i, d) in display.iter().enumerate() {
        t += f64::from(*d) / 1000.0;
        let system = if i == 0 { ",mb,\"Windows 10\",cpu,16 GB,1.0,1.0,0,gpu,1500,7000,8192," } else { "" };
        writeln!(
            text,
            "Game.exe,100,0x0000000000001000,DXGI,1,0,0,Hardware: Independent Flip,0,0,0,{t:.6},0.000,{d}.000,\
             0.100,1.000,2.000{system}"
        )
        .unwrap();
    }
    dir.file("OCAT-Game.exe-2024-01-01T000000.csv", text.as_bytes())
}

/// Under `--frame-time auto` (the default) an OCAT capture without present intervals
/// is analysed on its display intervals, and the run says so (`frame_time` "display",
/// a warning); before, it printed "frames 0 … no figures" and exited 0. By hand
/// (`metrics.md` §2): n = 10, T = 110 ms, avg 1000 · 10 / 110; p50 10 ms; p99 at
/// h = 9 · 0.99 = 8.91: 10 + 0.91 · 10 = 19.1 ms; 1 % low k = 1: 1000 / 20 = 50;
/// min 50, max 100; frame 4 (20 ms over a median of 10) is the one stutter.
#[test]
fn ocat_without_present_intervals_falls_back_to_display_under_auto() {
    let dir = TempDir::new("issue34_ocat_auto");
    let file = ocat_without_present_intervals(&dir);
    let (code, doc) = report_json([&file]);
    assert_eq!(code, 0, "{doc}");
    let run = &doc["runs"][0];
    assert_eq!(run["format"], "ocat");
    assert_eq!(run["frame_time"], "display");
    assert_eq!(doc["settings"]["frame_time"], "auto");
    assert_eq!(run["frames"], 10);
    assert_eq!(run["dropped_frames"], 0);
    assert!(close(run["duration_ms"].as_f64().unwrap(), 110.0));
    let s = &run["summary"];
    let f = |k: &str| s[k].as_f64().unwrap();
    assert!(close(f("avg_fps"), 10_000.0 / 110.0), "{s}");
    assert!(close(f("p50_ms"), 10.0), "{s}");
    assert!((f("p99_ms") - 19.1).abs() < 1e-9, "{s}");
    assert!(close(f("low_1pct_fps"), 50.0) && close(f("low_0_1pct_fps"), 50.0), "{s}");
    assert!(close(f("min_fps"), 50.0) && close(f("max_fps"), 100.0), "{s}");
    assert_eq!(run["stutters"]["frames"], serde_json::json!([4]));
    let said = run["warnings"].as_array().unwrap().iter().any(|w| {
        let m = w["message"].as_str().unwrap();
        m.contains("no frame has a present interval") && m.contains("falls back to display")
    });
    assert!(said, "{}", run["warnings"]);
    // The table says so too.
    let table = common::framescope(["report".as_ref(), file.as_os_str()]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(
        table.stdout.contains("frames 10 ") && table.stdout.contains("frame time: display"),
        "{}",
        table.stdout
    );
    assert!(table.stdout.contains("falls back to display"), "{}", table.stdout);
}

/// `--frame-time presents` on that capture: no frame has a present interval, so the
/// file holds no frames under it — exit 1 (`cli-report.md`), a failed run whose message
/// names the display series that has them, in JSON and as a table.
#[test]
fn ocat_without_present_intervals_fails_under_presents() {
    let dir = TempDir::new("issue34_ocat_presents");
    let file = ocat_without_present_intervals(&dir);
    let (code, doc) = report_json([file.as_os_str(), "--frame-time".as_ref(), "presents".as_ref()]);
    assert_eq!(code, 1, "{doc}");
    let msg = doc["runs"][0]["error"]["message"].as_str().unwrap();
    assert!(msg.contains("no frames under --frame-time presents"), "{msg}");
    assert!(msg.contains("display series holds 10 frames"), "{msg}");
    let table = common::framescope([
        "report".as_ref(),
        "--frame-time".as_ref(),
        "presents".as_ref(),
        file.as_os_str(),
    ]);
    assert_eq!(table.code, 1);
    assert!(table.stderr.contains("no frames under --frame-time presents"), "{}", table.stderr);
    // `display` reads the 10 frames.
    let (code, doc) = report_json([file.as_os_str(), "--frame-time".as_ref(), "display".as_ref()]);
    assert_eq!((code, &doc["runs"][0]["frames"]), (0, &serde_json::json!(10)));
}

/// A PresentMon 1.x capture of `n` frames of `ms` each.
fn pm1_capture(n: usize, ms: f64) -> String {
    let mut text = format!("{}\n", common::PM1_HEADER);
    for i in 0..n {
        let t = (i + 1) as f64 * ms / 1000.0;
        writeln!(
            text,
            "game.exe,1,0x1,DXGI,0,0,0,Hardware: Legacy Flip,0,{t:.6},{ms:.3},{ms:.3},0.1,0.1,0.1"
        )
        .unwrap();
    }
    text
}

/// `report --follow FILE --stop-after-idle 3`: a capture is written at once, the file is
/// truncated 2 s later and a new capture written 2 s after that (4 s after the last
/// growth, 2 s after the truncation). The truncation restarts the idle clock, so the
/// new capture is read and reported; before, the follow ended 3 s after the first
/// capture's growth on the empty file ("nothing was read", exit 1).
#[test]
fn a_truncation_restarts_the_idle_clock_of_a_follow() {
    let dir = TempDir::new("issue34_follow_truncate");
    let live = dir.0.join("live.csv");
    let (first, second) = (pm1_capture(50, 10.0), pm1_capture(30, 20.0));
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_framescope"))
        .args(["report", "--follow", "--stop-after-idle", "3", "--json"])
        .arg(&live)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    std::fs::write(&live, &first).unwrap();
    std::thread::sleep(std::time::Duration::from_secs(2));
    std::fs::OpenOptions::new().write(true).truncate(true).open(&live).unwrap();
    std::thread::sleep(std::time::Duration::from_secs(2));
    let mut f = std::fs::OpenOptions::new().append(true).open(&live).unwrap();
    std::io::Write::write_all(&mut f, second.as_bytes()).unwrap();
    drop(f);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("was truncated: read again from its start"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["runs"][0]["frames"], 30, "{stderr}");
    assert!(close(doc["runs"][0]["summary"]["avg_fps"].as_f64().unwrap(), 50.0));
}

/// The peak resident memory of a running process, in KiB (Linux: `VmHWM`).
#[cfg(target_os = "linux")]
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// `report --follow -` fed a PresentMon 1.x header, 10 rows and then a 192 MiB row that
/// never ends (issue 34): each byte is looked at once and the row is cut as it comes, so
/// the process never holds it (peak memory well under its size; before, the pending
/// line was kept whole and rescanned on every read: quadratic time, 2× its size in
/// memory). The report is the batch reader's for the same bytes: 10 frames and the row
/// skipped as too long at its line (12).
#[cfg(target_os = "linux")]
#[test]
fn follow_stdin_with_a_huge_unterminated_line_is_linear_and_bounded() {
    use std::io::Write as _;
    let dir = TempDir::new("issue34_follow_long_line");
    let mut head = pm1_capture(10, 10.0).into_bytes();
    let block = b"bbbbbbb,".repeat(1 << 17); // 1 MiB
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_framescope"))
        .args(["report", "--follow", "-", "--json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let started = std::time::Instant::now();
    stdin.write_all(&head).unwrap();
    for _ in 0..192 {
        stdin.write_all(&block).unwrap();
    }
    stdin.flush().unwrap();
    // The reader has taken all but what the pipe and its channel hold.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let peak = peak_kib(pid);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let elapsed = started.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(peak < 96 * 1024, "peak memory {peak} KiB for a 192 MiB line");
    eprintln!("192 MiB line: {elapsed:?}, peak {peak} KiB");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let run = &doc["runs"][0];
    assert_eq!(run["frames"], 10);
    // The batch reader on the same bytes says the same.
    for _ in 0..192 {
        head.extend_from_slice(&block);
    }
    let file = dir.file("long.csv", &head);
    drop(head);
    let (code, batch) = report_json([&file]);
    assert_eq!(code, 0);
    assert_eq!(run["warnings"], batch["runs"][0]["warnings"]);
    let too_long = run["warnings"].as_array().unwrap().iter().any(|w| {
        w["line"] == 12 && w["message"].as_str().unwrap().starts_with("row is too long to be a frame")
    });
    assert!(too_long, "{}", run["warnings"]);
}

/// `report --follow -` fed 64 MiB without a line end and no header: refused with the
/// batch reader's message for such a file (exit 1), in bounded memory.
#[cfg(target_os = "linux")]
#[test]
fn follow_stdin_of_one_huge_line_gets_the_batch_readers_message() {
    use std::io::Write as _;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_framescope"))
        .args(["report", "--follow", "-", "--json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let block = vec![b'a'; 1 << 20];
    for _ in 0..64 {
        stdin.write_all(&block).unwrap();
    }
    stdin.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let peak = peak_kib(pid);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(peak < 48 * 1024, "peak memory {peak} KiB for a 64 MiB line");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let msg = doc["runs"][0]["error"]["message"].as_str().unwrap();
    assert_eq!(msg, "<stdin>:1: not a CSV frame log (line is longer than 256 KiB)");
}
