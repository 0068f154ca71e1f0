//! Hostile inputs cost bounded memory: the real binary's peak RSS stays within
//! 100 MiB + 2 × the file's size (issue 10), it exits with a result or a clear message,
//! never panics and never hangs. The files are generated here.
//!
//! Peak RSS is read from the child's `/proc/<pid>/status` (`VmHWM`, the high-water
//! mark, polled until it exits) on Linux; elsewhere (the Windows build under Wine
//! included) the test only checks the outcome.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::TempDir;
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const MIB: u64 = 1 << 20;

/// What one run of the binary did.
struct Outcome {
    status: Option<i32>,
    stdout: String,
    stderr: String,
    peak_rss: Option<u64>,
    elapsed: Duration,
}

/// The child's peak RSS so far, from `/proc` (Linux only: a Windows build run under
/// Wine would read `/proc/<Windows pid>`, some other Linux process).
#[cfg(target_os = "linux")]
fn vm_hwm(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// No `/proc` to read: the test checks the outcome only.
#[cfg(not(target_os = "linux"))]
fn vm_hwm(_pid: u32) -> Option<u64> {
    None
}

/// Runs `framescope ARGS`, polling its peak RSS; kills it after `limit` (a hang).
fn run(args: &[&std::ffi::OsStr], limit: Duration) -> Outcome {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_framescope"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start framescope");
    let pid = child.id();
    // Drain the pipes on threads so a large report cannot block the child.
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out_thread = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut s);
        s
    });
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut err, &mut s);
        s
    });
    let mut peak: Option<u64> = None;
    let status = loop {
        if let Some(hwm) = vm_hwm(pid) {
            peak = Some(peak.map_or(hwm, |p| p.max(hwm)));
        }
        match child.try_wait().expect("wait for framescope") {
            Some(status) => break status.code(),
            None if started.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("framescope {args:?}: no result within {limit:?} (hang?)");
            }
            None => std::thread::sleep(Duration::from_millis(2)),
        }
    };
    Outcome {
        status,
        stdout: out_thread.join().unwrap_or_default(),
        stderr: err_thread.join().unwrap_or_default(),
        peak_rss: peak,
        elapsed: started.elapsed(),
    }
}

/// Runs `framescope report --json FILE [EXTRA…]` and checks the memory bound and that
/// the process ended cleanly (0 or 1, a message when 1, never a panic). Returns the
/// outcome and the bound for the summary line.
fn check(name: &str, file: &Path, extra: &[&std::ffi::OsStr], charged: u64) -> (Outcome, u64) {
    let mut args: Vec<&std::ffi::OsStr> = vec!["report".as_ref(), "--json".as_ref()];
    args.extend_from_slice(extra);
    args.push(file.as_os_str());
    check_run(name, &args, charged)
}

/// Runs `framescope ARGS` and checks as [`check`] does.
fn check_run(name: &str, args: &[&std::ffi::OsStr], charged: u64) -> (Outcome, u64) {
    let o = run(args, Duration::from_mins(10));
    let bound = 100 * MIB + 2 * charged;
    assert!(
        !o.stderr.contains("panicked"),
        "{name}: framescope panicked:\n{}",
        o.stderr.chars().take(2000).collect::<String>()
    );
    assert!(matches!(o.status, Some(0 | 1)), "{name}: exit status {:?}\n{}", o.status, o.stderr);
    if o.status == Some(1) {
        assert!(!o.stderr.trim().is_empty(), "{name}: failed without a message");
    }
    if let Some(peak) = o.peak_rss {
        assert!(
            peak <= bound,
            "{name}: peak RSS {} MiB exceeds 100 MiB + 2 × {} MiB = {} MiB",
            peak / MIB,
            charged / MIB,
            bound / MIB
        );
    }
    (o, bound)
}

fn summary(name: &str, size: u64, o: &Outcome, bound: u64) {
    let peak = o.peak_rss.map_or_else(|| "n/a".to_owned(), |p| format!("{} MiB", p / MIB));
    println!(
        "{name}: {} MiB, exit {:?}, peak RSS {peak} (bound {} MiB), {:.1} s",
        size / MIB,
        o.status,
        bound / MIB,
        o.elapsed.as_secs_f64()
    );
}

/// A 4 MB file naming 4096 traces over 1000 columns (most cells empty, every tenth
/// a number, so the columns are numeric).
fn many_traces_many_columns() -> Vec<u8> {
    let mut s = String::from("Application,ProcessID,MsBetweenPresents");
    for c in 0..997 {
        let _ = write!(s, ",Col{c}");
    }
    s.push('\n');
    for pid in 0..4096 {
        let _ = write!(s, "game.exe,{pid},16.6");
        for c in 0..997 {
            s.push(',');
            if c % 10 == 0 {
                s.push('7');
            }
        }
        s.push('\n');
    }
    s.into_bytes()
}

/// A 38 MB PresentMon capture whose rows carry 20 000 extra, empty columns.
fn empty_extra_columns() -> Vec<u8> {
    let mut header =
        String::from("Application,ProcessID,SwapChainAddress,MsBetweenPresents,MsBetweenDisplayChange");
    for c in 0..20_000 {
        let _ = write!(header, ",Extra{c}");
    }
    let empty = ",".repeat(20_000);
    let mut s = header;
    s.push('\n');
    let mut i = 0;
    while s.len() < 38_000_000 {
        let _ = writeln!(s, "game.exe,42,0x1A,{:.4},{:.4}{empty}", 16.0 + f64::from(i % 7), 16.0);
        i += 1;
    }
    s.into_bytes()
}

#[test]
fn hostile_files_load_or_fail_within_the_memory_bound() {
    let dir = TempDir::new("corpus");
    let mut lines = Vec::new();

    // 1. 4096 traces × 1000 columns in 4 MB.
    let bytes = many_traces_many_columns();
    let size = bytes.len() as u64;
    let path = dir.file("traces.csv", &bytes);
    drop(bytes);
    let (o, bound) = check("4096 traces × 1000 columns", &path, &["--trace".as_ref(), "all".as_ref()], size);
    assert_eq!(o.status, Some(0), "{}", o.stderr);
    assert!(o.stdout.contains("left out to stay within memory"), "the bound is said");
    summary("4096 traces × 1000 columns", size, &o, bound);
    lines.push(o.stdout.len());

    // 2. 38 MB PresentMon capture with 20 000 empty extra columns.
    let bytes = empty_extra_columns();
    let size = bytes.len() as u64;
    let path = dir.file("empty_columns.csv", &bytes);
    drop(bytes);
    let (o, bound) = check("20 000 empty columns", &path, &[], size);
    assert_eq!(o.status, Some(0), "{}", o.stderr);
    summary("20 000 empty columns", size, &o, bound);

    // 3. A 38 MB PCL marker log of blank lines, given with a small capture: refused
    // with a message, the capture still reported.
    let blank = vec![b'\n'; 38_000_000];
    let size = blank.len() as u64;
    let log = dir.file("blank.log", &blank);
    drop(blank);
    let capture = dir.file(
        "small.csv",
        b"Application,ProcessID,MsBetweenPresents\ngame.exe,1,16.6\ngame.exe,1,16.7\ngame.exe,1,16.8\n",
    );
    let (o, bound) = check("38 MB blank marker log", &capture, &["--pcl".as_ref(), log.as_os_str()], size);
    assert_eq!(o.status, Some(1), "an unreadable marker log fails the run");
    assert!(o.stderr.contains("not a PCL Stats marker log"), "{}", o.stderr);
    summary("38 MB blank marker log", size, &o, bound);

    // 4. A PCL marker log of 38 MB of bad lines after a valid header: grouped into one
    // warning, not one per line copied into the run.
    let mut bad = String::from("# PCLStats Event Log\n1.0, 0, SIMULATION_START, 1, 1000000\n");
    while bad.len() < 38_000_000 {
        bad.push_str("garbage line\n");
    }
    let size = bad.len() as u64;
    let log = dir.file("bad.log", bad.as_bytes());
    drop(bad);
    let (o, bound) = check("38 MB of bad marker lines", &capture, &["--pcl".as_ref(), log.as_os_str()], size);
    assert!(o.stdout.matches("not marker lines").count() <= 1, "grouped");
    summary("38 MB of bad marker lines", size, &o, bound);

    // 5. One 30 MB row without a line end, then a valid row: read through.
    let mut one_row = b"Application,ProcessID,MsBetweenPresents\n".to_vec();
    one_row.extend(std::iter::repeat_n(b'9', 30_000_000));
    one_row.extend_from_slice(b"\ngame.exe,1,16.6\n");
    let size = one_row.len() as u64;
    let path = dir.file("long_row.csv", &one_row);
    drop(one_row);
    let (o, bound) = check("30 MB row", &path, &[], size);
    summary("30 MB row", size, &o, bound);

    // 6. A quoted capture (the csv_core path) whose every row names a new present mode.
    let mut s = String::from("Application,ProcessID,PresentMode,MsBetweenPresents\n");
    let mut i = 0u64;
    while s.len() < 10_000_000 {
        let _ = writeln!(s, "\"game.exe\",1,\"mode {i}\",16.6");
        i += 1;
    }
    let size = s.len() as u64;
    let path = dir.file("modes.csv", s.as_bytes());
    drop(s);
    let (o, bound) = check("a present mode per row", &path, &[], size);
    assert_eq!(o.status, Some(0), "{}", o.stderr);
    summary("a present mode per row", size, &o, bound);

    // 7. A dense capture: 2 M frames of 4 bytes each (a one-column frame-time log).
    // Every frame is kept and analysed, and a frame costs more than its 4 bytes, so
    // an input this dense is charged per frame: 100 MiB + 2 × 48 bytes a frame
    // (docs/decisions.md, "Bounded memory"); 116 MiB are used (168 before issue 34).
    let mut dense = String::from("MsBetweenPresents\n");
    let rows = 2_000_000u64;
    for k in 0..rows {
        dense.push_str(["7.5\n", "8.1\n", "6.9\n", "9.0\n"][(k % 4) as usize]);
    }
    let size = dense.len() as u64;
    let path = dir.file("dense.csv", dense.as_bytes());
    drop(dense);
    let (o, bound) = check("2 M frames of 4 bytes", &path, &[], size.max(48 * rows));
    assert_eq!(o.status, Some(0), "{}", o.stderr);
    assert!(o.stdout.contains("\"frames\": 2000000"), "every frame is kept");
    summary("2 M frames of 4 bytes", size, &o, bound);
    assert!(!lines.is_empty());
}

/// The engine and generic readers (`formats.md` §7, §10, §11) under the same bound: an
/// Unreal capture of 20 000 stat columns whose rows hold 2 000 empty cells each (the
/// column cap drops the telemetry, with a warning), a generic CSV with one 30 MB row
/// read through a `--column` mapping, and an unknown CSV of 20 000 columns (its error
/// previews only the first columns).
#[test]
fn engine_and_generic_files_stay_within_the_memory_bound() {
    let dir = TempDir::new("engine_corpus");

    let mut s = String::from("EVENTS,FrameTime,GameThreadTime");
    for c in 0..20_000 {
        let _ = write!(s, ",Stat{c}");
    }
    s.push('\n');
    let empty = ",".repeat(2_000);
    let mut i = 0u64;
    while s.len() < 38_000_000 {
        let _ = writeln!(
            s,
            "{},{:.4},8.0000{empty}",
            if i.is_multiple_of(1000) { "Tick" } else { "" },
            16.0 + (i % 5) as f64
        );
        i += 1;
    }
    let size = s.len() as u64;
    let path = dir.file("wide_unreal.csv", s.as_bytes());
    drop(s);
    let (o, bound) = check("Unreal, 20 000 stat columns", &path, &[], size);
    assert_eq!(o.status, Some(0), "{}", o.stderr);
    assert!(o.stdout.contains("\"unreal-csv\""), "read as Unreal");
    assert!(o.stdout.contains("left out to stay"), "the cap is said");
    summary("Unreal, 20 000 stat columns", size, &o, bound);

    let mut one_row = b"a,b\n".to_vec();
    one_row.extend(std::iter::repeat_n(b'9', 30_000_000));
    one_row.extend_from_slice(b"\n1,16\n2,17\n");
    let size = one_row.len() as u64;
    let path = dir.file("long_generic_row.csv", &one_row);
    drop(one_row);
    let (o, bound) = check("30 MB generic row", &path, &["--column".as_ref(), "frame-time=b".as_ref()], size);
    summary("30 MB generic row", size, &o, bound);

    let mut s = (0..20_000).map(|c| format!("name{c}")).collect::<Vec<_>>().join(",");
    s.push('\n');
    for _ in 0..200 {
        s.push_str(&"1.5,".repeat(19_999));
        s.push_str("1.5\n");
    }
    let size = s.len() as u64;
    let path = dir.file("wide_unknown.csv", s.as_bytes());
    drop(s);
    let (o, bound) = check("unknown CSV, 20 000 columns", &path, &[], size);
    assert_eq!(o.status, Some(1), "an unknown CSV needs a mapping");
    assert!(
        o.stderr.contains("--column frame-time=NAME"),
        "{}",
        o.stderr.chars().take(500).collect::<String>()
    );
    summary("unknown CSV, 20 000 columns", size, &o, bound);
}

/// A file whose header and first rows are `top`, then one row of 60 M commas, then
/// `tail` (issue 18: the engine and generic readers kept such a row's 60 M fields,
/// ~17 bytes each, before skipping it: 977 MiB for a 60 MB file).
fn with_comma_row(top: &str, tail: &str) -> Vec<u8> {
    let mut bytes = top.as_bytes().to_vec();
    bytes.resize(bytes.len() + 60_000_000, b',');
    bytes.push(b'\n');
    bytes.extend_from_slice(tail.as_bytes());
    bytes
}

/// A row of 60 M commas in a FRAPS frame-times file, an Unreal CSV profiler capture
/// and an unknown CSV (its error path previews the first rows) is read through and
/// skipped within 100 MiB + 2 × the file, the rows around it kept.
#[test]
fn a_row_of_millions_of_commas_is_read_through_within_the_memory_bound() {
    let dir = TempDir::new("comma_rows");

    // FRAPS: cumulative times 0, 16, 33, (comma row), 50 → frame times 16, 17, 17.
    let bytes = with_comma_row("Frame, Time (ms)\n1, 0.000\n2, 16.000\n3, 33.000\n", "4, 50.000\n");
    let size = bytes.len() as u64;
    let path = dir.file("fraps_commas.csv", &bytes);
    drop(bytes);
    let (o, bound) = check("FRAPS, a 60 MB row of commas", &path, &[], size);
    assert_eq!(o.status, Some(0), "{}", o.stderr);
    assert!(o.stdout.contains("\"frames\": 3"), "the rows around it are kept");
    assert!(
        o.stdout.contains("line 5: row is too long") || o.stdout.contains("\"line\": 5"),
        "skipped at line 5"
    );
    assert!(o.stdout.contains("over 1 MiB or 100 000 fields"), "{}", o.stdout);
    summary("FRAPS, a 60 MB row of commas", size, &o, bound);

    // Unreal: three frames of 16 ms, the comma row between the second and third.
    let bytes = with_comma_row("EVENTS,FrameTime,GameThreadTime\n,16.0,8.0\n,16.0,8.0\n", ",16.0,8.0\n");
    let size = bytes.len() as u64;
    let path = dir.file("unreal_commas.csv", &bytes);
    drop(bytes);
    let (o, bound) = check("Unreal, a 60 MB row of commas", &path, &[], size);
    assert_eq!(o.status, Some(0), "{}", o.stderr);
    assert!(o.stdout.contains("\"unreal-csv\"") && o.stdout.contains("\"frames\": 3"), "{}", o.stdout);
    assert!(o.stdout.contains("over 1 MiB or 100 000 fields"), "{}", o.stdout);
    summary("Unreal, a 60 MB row of commas", size, &o, bound);

    // An unknown CSV: refused with the mapping message, within the bound too.
    let bytes = with_comma_row("alpha,beta\n1,2\n", "3,4\n");
    let size = bytes.len() as u64;
    let path = dir.file("unknown_commas.csv", &bytes);
    drop(bytes);
    let (o, bound) = check("unknown CSV, a 60 MB row of commas", &path, &[], size);
    assert_eq!(o.status, Some(1), "an unknown CSV needs a mapping");
    assert!(o.stderr.contains("--column frame-time=NAME"), "{}", o.stderr);
    summary("unknown CSV, a 60 MB row of commas", size, &o, bound);
}

/// The next value of a xorshift generator (the same noise on every run).
fn xorshift(x: &mut u32) -> u32 {
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    *x
}

/// A FRAPS `frametimes.csv` of `rows` rows (a running clock in ms, `%.3f`): about 20
/// bytes a row. Frame times are noise between 6 and 20 ms, the worst case for the
/// rolling statistics (nearly every window has a wide spread) and for stutters.
fn fraps_log(rows: u64) -> Vec<u8> {
    let mut s = String::with_capacity(rows as usize * 22);
    s.push_str("Frame, Time (ms)\n");
    let (mut x, mut us) = (12345u32, 0u64);
    for i in 1..=rows {
        let _ = writeln!(s, "{i}, {}.{:03}", us / 1000, us % 1000);
        us += 6000 + u64::from(xorshift(&mut x) % 14_000);
    }
    s.into_bytes()
}

/// A minimal PresentMon capture (`Application,ProcessID,MsBetweenPresents`) of `rows`
/// rows, 20 bytes each, frame times as [`fraps_log`]'s.
fn minimal_presentmon(rows: u64) -> Vec<u8> {
    let mut s = String::with_capacity(rows as usize * 20);
    s.push_str("Application,ProcessID,MsBetweenPresents\n");
    let mut x = 12345u32;
    for _ in 0..rows {
        let ft = 60_000 + xorshift(&mut x) % 140_000;
        let _ = writeln!(s, "game.exe,42,{}.{:04}", ft / 10_000, ft % 10_000);
    }
    s.into_bytes()
}

/// Lines in a file (each ended by a line feed).
fn count_lines(path: &Path) -> u64 {
    let file = std::io::BufReader::new(std::fs::File::open(path).expect("the table"));
    let mut lines = 0;
    for line in std::io::BufRead::split(file, b'\n') {
        line.expect("read the table");
        lines += 1;
    }
    lines
}

/// Rows of a Parquet file, from its footer.
fn parquet_rows(path: &Path) -> i64 {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader =
        SerializedFileReader::new(std::fs::File::open(path).expect("parquet file")).expect("parquet");
    reader.metadata().file_metadata().num_rows()
}

/// `framescope frames FILE -o OUT` as CSV and as Parquet, each within 100 MiB + 2 × the
/// file: a row per frame, written a chunk at a time (issue 34: the whole table was
/// built first, 2 M FRAPS frames took 451 MiB to CSV and 566 MiB to Parquet).
fn frames_within_the_bound(dir: &TempDir, name: &str, path: &Path, frames: u64) {
    let size = std::fs::metadata(path).expect("capture").len();
    for ext in ["csv", "parquet"] {
        let out = dir.0.join(format!("frames.{ext}"));
        let what = format!("{name}, frames to {ext}");
        let (o, bound) =
            check_run(&what, &["frames".as_ref(), path.as_os_str(), "-o".as_ref(), out.as_os_str()], size);
        assert_eq!(o.status, Some(0), "{what}: {}", o.stderr);
        if ext == "csv" {
            assert_eq!(count_lines(&out), frames + 1, "{what}: a header and a row per frame");
        } else {
            assert_eq!(parquet_rows(&out), frames as i64, "{what}");
        }
        summary(&what, size, &o, bound);
        let _ = std::fs::remove_file(&out);
    }
}

/// Issue 34, `frames`: a 2 M-row FRAPS log's table, as CSV and as Parquet, within the
/// bound (it took 2.5 and 3.1 times the bound before).
#[test]
fn frames_tables_are_written_within_the_memory_bound() {
    let dir = TempDir::new("frames_memory");
    let rows = 2_000_000;
    let bytes = fraps_log(rows);
    let path = dir.file("fraps.csv", &bytes);
    drop(bytes);
    // A running clock gives one frame fewer than it has rows.
    frames_within_the_bound(&dir, "2 M FRAPS rows", &path, rows - 1);
}

/// Issue 34, short rows: a FRAPS log of 4 M rows of about 20 bytes is reported within
/// 100 MiB + 2 × the file (no display list or dropped flags where the capture has no
/// display data, the frame lists grown by a quarter, the rolling statistics a bit a
/// window; 280 MiB against 264 before).
#[test]
fn a_fraps_log_of_short_rows_reports_within_the_memory_bound() {
    let dir = TempDir::new("short_fraps_rows");
    let rows = 4_000_000;
    let bytes = fraps_log(rows);
    let size = bytes.len() as u64;
    let path = dir.file("fraps.csv", &bytes);
    drop(bytes);
    let (o, bound) = check("4 M FRAPS rows", &path, &[], size);
    assert_eq!(o.status, Some(0), "{}", o.stderr);
    assert!(o.stdout.contains(&format!("\"frames\": {}", rows - 1)), "every frame is kept");
    summary("4 M FRAPS rows", size, &o, bound);
}

/// Issue 34, short rows: a minimal PresentMon capture (`Application,ProcessID,
/// MsBetweenPresents`, 3 M rows of 20 bytes) is reported within 100 MiB + 2 × the file
/// (225 MiB against 212 before).
#[test]
fn a_minimal_presentmon_capture_reports_within_the_memory_bound() {
    let dir = TempDir::new("short_presentmon_rows");
    let rows = 3_000_000;
    let bytes = minimal_presentmon(rows);
    let size = bytes.len() as u64;
    let path = dir.file("minimal.csv", &bytes);
    drop(bytes);
    let (o, bound) = check("3 M minimal PresentMon rows", &path, &[], size);
    assert_eq!(o.status, Some(0), "{}", o.stderr);
    assert!(o.stdout.contains(&format!("\"frames\": {rows}")), "every frame is kept");
    summary("3 M minimal PresentMon rows", size, &o, bound);
}

/// Issue 34 at 10 M rows (minutes in a debug build: run with `cargo test --release
/// --test headless -- --ignored ten_million`): `report` and `frames` (CSV, Parquet) of
/// a 10 M-row FRAPS log and `report` of a 10 M-row minimal PresentMon capture.
#[test]
#[ignore = "10 M rows: minutes in a debug build; run in release"]
fn ten_million_short_rows_within_the_memory_bound() {
    let dir = TempDir::new("ten_million");
    let rows = 10_000_000;
    let bytes = fraps_log(rows);
    let size = bytes.len() as u64;
    let path = dir.file("fraps.csv", &bytes);
    drop(bytes);
    let (o, bound) = check("10 M FRAPS rows", &path, &[], size);
    assert_eq!(o.status, Some(0), "{}", o.stderr);
    summary("10 M FRAPS rows", size, &o, bound);
    frames_within_the_bound(&dir, "10 M FRAPS rows", &path, rows - 1);
    let _ = std::fs::remove_file(&path);

    let bytes = minimal_presentmon(rows);
    let size = bytes.len() as u64;
    let path = dir.file("minimal.csv", &bytes);
    drop(bytes);
    let (o, bound) = check("10 M minimal PresentMon rows", &path, &[], size);
    assert_eq!(o.status, Some(0), "{}", o.stderr);
    summary("10 M minimal PresentMon rows", size, &o, bound);
    frames_within_the_bound(&dir, "10 M minimal PresentMon rows", &path, rows);
}
