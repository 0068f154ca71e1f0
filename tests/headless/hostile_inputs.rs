//! Hostile input found by mutation fuzzing (issue 18): captures whose every frame time
//! is 0, control characters in a file's text, named pipes, UTF-16 and gzip captures,
//! JSON after much whitespace, unreadable folders, CapFrameX arrays of different
//! lengths, and the note beside a short capture's lows. Each test here failed on the
//! binary before the fix.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::{PM1_HEADER, TempDir, framescope};

/// PresentMon 1.x, 2.4 and OCAT captures whose frame times and display intervals are
/// all 0 hold no frame of either series: not a run (`metrics.md` §1), so exit 1 with a
/// message naming the file, as MangoHud, FRAPS and CapFrameX files in that state do.
/// (Before: "frames 0 … no figures" and exit 0.)
#[test]
fn captures_whose_frame_times_are_all_zero_fail() {
    let dir = TempDir::new("all_zero");
    let pm1_row = "game.exe,1,0x1,DXGI,0,0,0,Hardware: Legacy Flip,0,0.5,0.000,0.000,0.1,0.1,0.1";
    let pm24_header = "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,\
AllowsTearing,PresentMode,FrameType,TimeInQPC,MsBetweenSimulationStart,MsBetweenPresents,MsBetweenDisplayChange,\
MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed";
    let pm24_row =
        "game.exe,1,0x1,DXGI,1,0,0,Hardware: Legacy Flip,Application,2076674276,NA,0.0000,0.0000,0.1,0.1,1.0";
    let ocat_header = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,\
PresentMode,WasBatched,DwmNotified,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,\
MsUntilRenderComplete,MsUntilDisplayed,Motherboard,OS,Processor";
    let ocat_row = "game.exe,1,0x1,DXGI,0,0,1,Hardware Composed: Independent Flip,0,0,0,0.012,0,0,0.192,1.0,1.0,mb,os,cpu";
    for (name, header, row) in [
        ("pm1.csv", PM1_HEADER, pm1_row),
        ("pm24.csv", pm24_header, pm24_row),
        ("ocat.csv", ocat_header, ocat_row),
    ] {
        let path = dir.file(name, format!("{header}\n{row}\n{row}\n{row}\n").as_bytes());
        for format in ["table", "json"] {
            let run = framescope(["report".as_ref(), "--format".as_ref(), format.as_ref(), path.as_os_str()]);
            assert_eq!(run.code, 1, "{name} ({format}): {}{}", run.stdout, run.stderr);
            assert!(
                run.stderr
                    .contains(&format!("{name}:2: no frames: none of its 3 rows has a usable frame time")),
                "{name}: {}",
                run.stderr
            );
        }
    }
}

/// `report --json FILE`'s runs with their `file` left out (to compare one capture's
/// figures saved in another encoding).
fn runs_without_file(path: &std::path::Path) -> Vec<serde_json::Value> {
    let (code, doc) = common::report_json([path]);
    assert_eq!(code, 0, "{}: {doc}", path.display());
    let mut runs = doc["runs"].as_array().cloned().unwrap_or_default();
    for r in &mut runs {
        r.as_object_mut().map(|o| o.remove("file"));
    }
    runs
}

/// A real PresentMon 1.x capture saved as UTF-16 (LE without a byte-order mark, BE
/// with one) and gzip-compressed (with UTF-16 inside too) gives the figures of the
/// UTF-8 file, every one. (Before: "binary data (NUL bytes)", exit 1.)
#[test]
fn utf16_and_gzip_captures_read_as_their_text() {
    use std::io::Write as _;
    let dir = TempDir::new("encodings");
    let original = common::repo_file("sample-traces/pm-1.x_csgo_d3d9_dropped.csv");
    let text = std::fs::read_to_string(&original).expect("sample");
    let text = text.trim_start_matches('\u{feff}');
    let utf16 = |big_endian: bool, bom: bool| -> Vec<u8> {
        let units = bom.then_some(0xFEFF_u16).into_iter().chain(text.encode_utf16());
        units.flat_map(|u| if big_endian { u.to_be_bytes() } else { u.to_le_bytes() }).collect()
    };
    let gzip = |bytes: &[u8]| -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(bytes).expect("compress");
        gz.finish().expect("compress")
    };
    let expected = runs_without_file(&original);
    assert_eq!(expected[0]["frames"], 4265, "the sample as the goldens have it");
    for (name, bytes) in [
        ("utf16le.csv", utf16(false, false)),
        ("utf16be_bom.csv", utf16(true, true)),
        ("utf16le_bom.csv", utf16(false, true)),
        ("capture.csv.gz", gzip(text.as_bytes())),
        ("utf16.csv.gz", gzip(&utf16(false, true))),
    ] {
        let path = dir.file(name, &bytes);
        assert_eq!(runs_without_file(&path), expected, "{name}");
    }
    // A damaged archive is named as one.
    let mut broken = gzip(text.as_bytes());
    broken.truncate(broken.len() / 2);
    let path = dir.file("broken.csv.gz", &broken);
    let run = framescope(["report".as_ref(), path.as_os_str()]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains(
            "broken.csv.gz: cannot read the file: the file is gzip-compressed and the archive is damaged"
        ),
        "{}",
        run.stderr
    );
}

/// A CapFrameX capture JSON of three frames (10, 20, 30 ms).
fn capframex_json(arrays: &str) -> String {
    format!(r#"{{"Info":{{"ProcessName":"game.exe"}},"Runs":[{{"CaptureData":{{{arrays}}}}}]}}"#)
}

/// CapFrameX JSON after 100 000 bytes of white space is still JSON. (Before: "not a
/// CSV frame log": the sniff saw only the first 64 KiB.)
#[test]
fn capframex_json_after_much_white_space_is_json() {
    let dir = TempDir::new("json_space");
    let mut text = " \n\t\r".repeat(25_000);
    text.push_str(&capframex_json(r#""MsBetweenPresents":[10.0,20.0,30.0]"#));
    let path = dir.file("spaced.json", text.as_bytes());
    let (code, doc) = common::report_json([&path]);
    assert_eq!(code, 0, "{doc}");
    let run = &doc["runs"][0];
    assert_eq!(run["format"], "capframex-json");
    // n = 3, T = 60 ms: 1000 · 3 / 60 = 50 FPS.
    assert_eq!(run["frames"], 3);
    assert!((run["summary"]["avg_fps"].as_f64().unwrap() - 50.0).abs() < 1e-9, "{run}");
}

/// Per-frame arrays of different lengths: the frames every array covers are read, and
/// a warning names each array and its length. (Before: silently the frame-time array's
/// length, the others' missing or extra values ignored.)
#[test]
fn capframex_arrays_of_different_lengths_are_named() {
    let dir = TempDir::new("json_lengths");
    // Frame times for 5 frames, times for 3: frames 10, 20, 30 ms are read.
    let text = capframex_json(
        r#""TimeInSeconds":[0.01,0.03,0.06],"MsBetweenPresents":[10.0,20.0,30.0,40.0,50.0],"Dropped":[false,false,false,false,false]"#,
    );
    let path = dir.file("uneven.json", text.as_bytes());
    let (code, doc) = common::report_json([&path]);
    assert_eq!(code, 0, "{doc}");
    let run = &doc["runs"][0];
    assert_eq!(run["frames"], 3, "{run}");
    assert!((run["duration_ms"].as_f64().unwrap() - 60.0).abs() < 1e-9, "{run}");
    let warnings = run["warnings"].to_string();
    assert!(
        warnings.contains("different lengths (MsBetweenPresents 5, TimeInSeconds 3, Dropped 5)")
            && warnings.contains("only the first 3 frames"),
        "{warnings}"
    );
}

/// Makes a named pipe (FIFO) at `path` with `mkfifo`.
#[cfg(unix)]
fn mkfifo(path: &std::path::Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
}

/// A named pipe nobody writes to: `report` and `compare` give up after 10 s with a
/// message naming the pipe (before: blocked in `open` forever; the test's runner would
/// have killed it). One with a writer, and process substitution (`<(cmd)`, an
/// anonymous pipe), read as usual.
#[cfg(unix)]
#[test]
fn named_pipes_never_hang() {
    use std::io::Write as _;
    use std::time::{Duration, Instant};
    let dir = TempDir::new("fifo");
    let lonely = dir.0.join("lonely.csv");
    mkfifo(&lonely);
    let capture = common::repo_file("sample-traces/pm-1.x_csgo_d3d9_dropped.csv");
    let started = Instant::now();
    let (report, compare) = std::thread::scope(|s| {
        let report = s.spawn(|| framescope(["report".as_ref(), lonely.as_os_str()]));
        let compare = s.spawn(|| framescope(["compare".as_ref(), capture.as_os_str(), lonely.as_os_str()]));
        (report.join().unwrap(), compare.join().unwrap())
    });
    assert!(started.elapsed() < Duration::from_secs(40), "gave up after about 10 s");
    for (what, run) in [("report", report), ("compare", compare)] {
        assert_eq!(run.code, 1, "{what}: {}", run.stderr);
        assert!(
            run.stderr.contains(
                "lonely.csv: this is a named pipe (FIFO) and nothing opened it for writing within 10 s"
            ),
            "{what}: {}",
            run.stderr
        );
    }

    // A pipe with a writer: the capture's figures.
    let fed = dir.0.join("fed.csv");
    mkfifo(&fed);
    let bytes = std::fs::read(&capture).unwrap();
    let writer = {
        let fed = fed.clone();
        std::thread::spawn(move || {
            let mut w = std::fs::OpenOptions::new().write(true).open(fed).unwrap();
            w.write_all(&bytes).unwrap();
        })
    };
    let (code, doc) = common::report_json([&fed]);
    writer.join().unwrap();
    assert_eq!((code, doc["runs"][0]["frames"].as_u64()), (0, Some(4265)), "{doc}");

    // Process substitution hands over /dev/fd/N, an anonymous pipe.
    let bin = env!("CARGO_BIN_EXE_framescope");
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("'{bin}' report --json <(cat '{}')", capture.display()))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("\"frames\": 4265"), "{text}");
}

/// This process's user id (from `/proc`), or `None` where there is no `/proc`.
#[cfg(unix)]
fn uid() -> Option<u32> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find(|l| l.starts_with("Uid:"))?.split_whitespace().nth(1)?.parse().ok()
}

/// Runs the binary as a user whom file permissions stop: itself when not root, else
/// user 65534 (nobody) through `setpriv`; `None` (the test skips) when neither works.
#[cfg(unix)]
fn framescope_unprivileged(args: &[&std::ffi::OsStr]) -> Option<common::Run> {
    let bin = env!("CARGO_BIN_EXE_framescope");
    let mut cmd = if uid()? == 0 {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", bin]);
        c
    } else {
        std::process::Command::new(bin)
    };
    let out = cmd.args(args).output().ok()?;
    let run = common::Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    // setpriv missing or refused, or the binary out of that user's reach.
    (!run.stderr.starts_with("setpriv:") && run.code != 126 && run.code != 127).then_some(run)
}

/// A folder that cannot be read says "permission denied", not "holds no capture
/// file"; an unreadable subfolder of a walked folder is a failed input (exit 1, the
/// others reported), not silently skipped with exit 0. As root the binary is run as
/// user nobody; the message itself is tested without privileges in `cli::inputs`.
#[cfg(unix)]
#[test]
fn unreadable_folders_are_failed_inputs() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("locked");
    let capture = std::fs::read(common::repo_file("sample-traces/pm-1.x_csgo_d3d9_dropped.csv")).unwrap();
    let walked = dir.0.join("walked");
    let locked = walked.join("locked");
    std::fs::create_dir_all(&locked).unwrap();
    std::fs::write(walked.join("a.csv"), &capture).unwrap();
    std::fs::write(locked.join("b.csv"), &capture).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let run_whole = framescope_unprivileged(&["report".as_ref(), "--json".as_ref(), walked.as_os_str()]);
    let run_locked = framescope_unprivileged(&["report".as_ref(), locked.as_os_str()]);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (Some(whole), Some(alone)) = (run_whole, run_locked) else {
        eprintln!("skipping: cannot run framescope as a user whom permissions stop (no setpriv?)");
        return;
    };
    let doc: serde_json::Value = serde_json::from_str(&whole.stdout).expect("JSON");
    assert_eq!(whole.code, 1, "{}", whole.stderr);
    assert_eq!(doc["runs"][0]["frames"], 4265, "a.csv is still reported");
    let locked_name = locked.display().to_string();
    assert_eq!(doc["runs"][1]["file"], locked_name.as_str());
    let message = "cannot read this folder (permission denied); its captures were not read";
    assert!(doc["runs"][1]["error"]["message"].as_str().is_some_and(|m| m.contains(message)), "{doc}");
    assert!(whole.stderr.contains(&format!("{locked_name}: {message}")), "{}", whole.stderr);
    assert_eq!(alone.code, 1);
    assert!(
        alone.stderr.contains(message) && !alone.stderr.contains("holds no capture file"),
        "{}",
        alone.stderr
    );
}

/// True when `s` holds a control character other than a line end or tab (what a
/// terminal would act on), or a C1 control.
fn has_raw_controls(s: &str) -> bool {
    s.chars().any(|c| c.is_control() && c != '\n' && c != '\t' && c != '\r')
}

/// Control characters in a file's text (application and column names: ESC [2J clears
/// the screen, OSC sets the title, U+009B is an 8-bit CSI, a newline fakes a line)
/// reach the terminal escaped: in the table, the CSV and the messages on stderr. The
/// JSON keeps the exact strings (serde escapes C0; DEL and C1 are escaped too). (Before:
/// printed raw.)
#[test]
fn control_characters_from_a_file_are_escaped() {
    let dir = TempDir::new("controls");
    let app = "game\u{1b}[2J\u{1b}]0;pwned\u{7}\u{9b}1m\u{7f}";
    let row =
        |ft: &str| format!("\"{app}\",1,0x1,DXGI,0,0,0,Hardware: Legacy Flip,0,0.5,{ft},16.0,0.1,0.1,0.1,7");
    let text = format!(
        "{PM1_HEADER},\"Temp\u{1b}[31m\"\n{}\n{}\n{}\n",
        row("16.0"),
        row("17.0"),
        row("not a number\u{1b}[H")
    );
    let capture = dir.file("hostile.csv", text.as_bytes());
    let escaped_app = "game\\x1b[2J\\x1b]0;pwned\\x07\\u{9b}1m\\x7f";

    let table = framescope(["report".as_ref(), capture.as_os_str()]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(!has_raw_controls(&table.stdout), "table: {:?}", table.stdout);
    assert!(table.stdout.contains(escaped_app), "{}", table.stdout);

    let csv = framescope(["report".as_ref(), "--format".as_ref(), "csv".as_ref(), capture.as_os_str()]);
    assert_eq!(csv.code, 0, "{}", csv.stderr);
    assert!(!has_raw_controls(&csv.stdout) && csv.stdout.contains(escaped_app), "csv: {:?}", csv.stdout);

    let json = framescope(["report".as_ref(), "--json".as_ref(), capture.as_os_str()]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    assert!(!has_raw_controls(&json.stdout), "json: {:?}", json.stdout);
    assert!(
        json.stdout.contains("game\\u001b[2J") && json.stdout.contains("\\u009b1m\\u007f"),
        "{}",
        json.stdout
    );
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(doc["runs"][0]["application"], app, "the JSON keeps the exact name");

    // An unknown CSV: its column names are in the error on stderr (and the table).
    let unknown = dir.file("unknown.csv", b"frame\x1b[2J,\"ms\nfake: PASS\"\n1,2\n");
    let run = framescope(["report".as_ref(), unknown.as_os_str()]);
    assert_eq!(run.code, 1);
    assert!(!has_raw_controls(&run.stderr) && run.stderr.contains("frame\\x1b[2J"), "{:?}", run.stderr);
    assert!(!has_raw_controls(&run.stdout), "{:?}", run.stdout);

    // A CapFrameX name with a line end cannot add a line to the table.
    let json_capture = dir.file(
        "fake_line.json",
        br#"{"Info":{"ProcessName":"game\n  gate: PASS\r"},"Runs":[{"CaptureData":{"MsBetweenPresents":[10.0,20.0]}}]}"#,
    );
    let run = framescope(["report".as_ref(), json_capture.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("  game\\x0a  gate: PASS\\x0d"), "{}", run.stdout);
    assert!(!run.stdout.lines().any(|l| l.starts_with("  gate")), "{}", run.stdout);
}

/// A capture of fewer than 100 frames takes its 1 % and 0.1 % lows from one frame
/// (k = max(1, ⌊n/100⌋) = 1): the table says so beside them; the JSON figures are
/// unchanged. 99 frames of 10 ms and one of 50 ms → 1 % low = 0.1 % low = 1000 / 50 =
/// 20 FPS either way; at 100 frames (k = 1 is exactly 1 %) no note.
#[test]
fn a_short_capture_says_its_lows_are_one_frame() {
    let dir = TempDir::new("short");
    let capture = |n: usize| {
        let mut s = "Application,ProcessID,SwapChainAddress,MsBetweenPresents\n".to_owned();
        for i in 0..n {
            s.push_str(if i == 10 { "g.exe,1,0x1,50\n" } else { "g.exe,1,0x1,10\n" });
        }
        s
    };
    let note = "(lows: one frame each, fewer than 100 frames)";
    for (n, noted) in [(50, true), (99, true), (100, false)] {
        let path = dir.file(&format!("short{n}.csv"), capture(n).as_bytes());
        let run = framescope(["report".as_ref(), path.as_os_str()]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let fps = run.stdout.lines().find(|l| l.trim_start().starts_with("FPS")).unwrap_or_default();
        assert!(fps.contains("1% low    20.00   0.1% low    20.00"), "{fps}");
        assert_eq!(fps.ends_with(note), noted, "{n} frames: {fps}");
        let (_, doc) = common::report_json([&path]);
        assert_eq!(doc["runs"][0]["summary"]["low_1pct_fps"], 20.0, "the JSON figure stays");
        assert!(!doc.to_string().contains("one frame each"), "no note in the JSON");
    }
}
