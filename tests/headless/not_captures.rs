//! Files that are not captures (empty, header only, binary, PNG, JSON, text, unrelated
//! CSV, a folder, a missing path) give exit 1 and a failing run that names the file and
//! says what was expected, and the other files are still reported; input files are left
//! as they were (bytes and modification time); bad arguments give exit 2.
//!
//! Bad input is normal input: a truncated, malformed, huge or hostile file must give a
//! clear message that names the file and the line, never a panic or a hang, and input
//! files are never written to. Helpers: `common::bad`.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

#[allow(clippy::wildcard_imports)]
use common::bad::*;
use common::mangle::XorShift;
use common::{TempDir, framescope};
use framescope_core::ingest::{LoadErrorKind, LoadOptions, Progress, load_file};
use std::path::Path;
use std::time::Duration;

// ---------------------------------------------------------------------------------
// 2. Not a capture: exit 1 and a message naming the file and what was expected.
// ---------------------------------------------------------------------------------

/// Pseudo-random bytes with NULs and high bytes in them.
fn binary_bytes(n: usize) -> Vec<u8> {
    let mut rng = XorShift::new(7);
    let mut v: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
    v[3] = 0;
    v[100] = 0;
    v
}

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82";

/// (file name, content, kind check, words of which the message must hold one)
type NotCaptureCase = (&'static str, Vec<u8>, fn(&LoadErrorKind) -> bool, &'static [&'static str]);

fn not_capture_cases() -> Vec<NotCaptureCase> {
    let not_a_capture = |k: &LoadErrorKind| matches!(k, LoadErrorKind::NotACapture(_));
    let no_frames = |k: &LoadErrorKind| matches!(k, LoadErrorKind::NoFrames(_));
    // A CSV of no known format with numbers in it: the user can name its frame-time
    // column (formats.md §11), and the error says how.
    let unknown = |k: &LoadErrorKind| matches!(k, LoadErrorKind::UnknownColumns(_));
    vec![
        ("header_only.csv", format!("{HEADER}\n").into_bytes(), no_frames, &["no data rows"]),
        ("header_only_no_newline.csv", HEADER.as_bytes().to_vec(), no_frames, &["no data rows"]),
        ("random.bin", binary_bytes(4096), not_a_capture, &["csv frame log"]),
        ("image.png", PNG.to_vec(), not_a_capture, &["csv frame log"]),
        ("data.json", br#"{"a":1}"#.to_vec(), not_a_capture, &["json", "expected"]),
        (
            "notes.txt",
            b"Dear diary,\nToday I ran a benchmark and it was smooth.\n".to_vec(),
            not_a_capture,
            &["expected"],
        ),
        (
            "people.csv",
            b"name,age,city\nalice,30,Paris\nbob,41,Oslo\n".to_vec(),
            unknown,
            &["--column frame-time=name"],
        ),
    ]
}

#[test]
fn files_that_are_not_captures_fail_with_exit_1_naming_the_file_and_what_was_expected() {
    let dir = TempDir::new("not_capture");
    for (name, bytes, kind_ok, words) in not_capture_cases() {
        let path = dir.file(name, &bytes);
        let err = load_file(&path, LoadOptions::default(), &Progress::default()).expect_err(name);
        assert!(kind_ok(&err.kind), "{name}: unexpected kind {:?}", err.kind);
        assert!(err.to_string().contains(&path.display().to_string()), "{name}: {err}");
        let (run, doc) = report(&[path.as_os_str()]);
        assert_eq!(run.code, 1, "{name}: stderr {}", run.stderr);
        assert_eq!(doc["runs"].as_array().map(Vec::len), Some(1), "{name}");
        assert_failed_run(&run, &doc, 0, &path, words);
    }
}

#[test]
fn a_folder_and_a_missing_path_fail_with_exit_1_naming_them() {
    let dir = TempDir::new("folder_missing");
    let folder = dir.0.join("a_folder.csv");
    std::fs::create_dir_all(&folder).unwrap();
    let missing = dir.0.join("does_not_exist.csv");

    let err = load_file(&folder, LoadOptions::default(), &Progress::default()).unwrap_err();
    assert!(matches!(err.kind, LoadErrorKind::NotACapture(_)), "{err:?}");
    let err = load_file(&missing, LoadOptions::default(), &Progress::default()).unwrap_err();
    assert!(matches!(err.kind, LoadErrorKind::Io(_)), "{err:?}");

    let (run, doc) = report(&[folder.as_os_str()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_failed_run(&run, &doc, 0, &folder, &["folder", "directory"]);
    let (run, doc) = report(&[missing.as_os_str()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_failed_run(&run, &doc, 0, &missing, NOT_FOUND);
}

#[test]
fn an_empty_file_fails_naming_the_file_and_what_was_expected() {
    let dir = TempDir::new("empty");
    for (name, bytes) in [("empty.csv", &b""[..]), ("blank.csv", &b"\n\r\n  \n"[..])] {
        let path = dir.file(name, bytes);
        let (run, doc) = report(&[path.as_os_str()]);
        assert_eq!(run.code, 1, "{name}: {}", run.stderr);
        assert_failed_run(&run, &doc, 0, &path, &["empty"]);
        assert_failed_run(&run, &doc, 0, &path, &["expected", "csv"]);
    }
}

#[test]
fn a_bad_file_does_not_stop_the_good_ones_and_runs_keep_argument_order() {
    let dir = TempDir::new("mixed");
    let good = dir.file("good.csv", capture_text(3).as_bytes());
    let bad = dir.file("bad.png", PNG);
    let missing = dir.0.join("missing.csv");

    let (run, doc) = report(&[bad.as_os_str(), good.as_os_str()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let runs = doc["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 2, "{doc}");
    assert_failed_run(&run, &doc, 0, &bad, &["csv frame log"]);
    assert_eq!(runs[1]["file"], good.display().to_string().as_str());
    assert_eq!(runs[1]["frames"], 3, "{}", runs[1]);
    assert!(runs[1].get("error").is_none(), "{}", runs[1]);

    let (run, doc) = report(&[good.as_os_str(), missing.as_os_str(), bad.as_os_str()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let runs = doc["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 3, "{doc}");
    assert_eq!(runs[0]["frames"], 3, "{}", runs[0]);
    assert_failed_run(&run, &doc, 1, &missing, NOT_FOUND);
    assert_failed_run(&run, &doc, 2, &bad, &["csv frame log"]);

    // The table output fails the same way and still names both files.
    let run = framescope(["report".as_ref(), bad.as_os_str(), good.as_os_str()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains(&bad.display().to_string()), "{}", run.stderr);
    assert!(run.stdout.contains("good.csv"), "{}", run.stdout);
    no_panic_text(&run);
}

// ---------------------------------------------------------------------------------
// 5. Input files are never written to.
// ---------------------------------------------------------------------------------

#[test]
fn input_files_are_left_untouched() {
    let tmp = TempDir::new("untouched");
    let mut text = capture_text(5);
    text.push_str("game.exe,100,0xAA,DXGI,0,0\n"); // a warning row too
    let path = tmp.file("capture.csv", text.as_bytes());
    let bad = tmp.file("bad.csv", b"name,age\nx,1\n");
    // Read-only files must load too: nothing may open them for writing.
    for p in [&path, &bad] {
        let mut perms = std::fs::metadata(p).unwrap().permissions();
        perms.set_readonly(true);
        std::fs::set_permissions(p, perms).unwrap();
    }
    let before = |p: &Path| {
        let meta = std::fs::metadata(p).unwrap();
        (meta.modified().unwrap(), meta.len(), std::fs::read(p).unwrap())
    };
    let (path_before, bad_before) = (before(&path), before(&bad));
    // Let a write, if any, land on a later modification time.
    std::thread::sleep(Duration::from_millis(20));
    let (run, doc) = report(&[path.as_os_str(), bad.as_os_str()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(doc["runs"][0]["frames"], 5, "{doc}");
    let run = framescope(["report".as_ref(), path.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    load_file(&path, LoadOptions::default(), &Progress::default()).expect("loads");
    assert!(before(&path) == path_before, "capture.csv changed");
    assert!(before(&bad) == bad_before, "bad.csv changed");
    let names: Vec<_> = std::fs::read_dir(&tmp.0).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 2, "no new file beside the inputs: {names:?}");
}

// ---------------------------------------------------------------------------------
// 6. Bad arguments: exit 2.
// ---------------------------------------------------------------------------------

#[test]
fn bad_arguments_exit_2_with_a_message() {
    let tmp = TempDir::new("args");
    let path = tmp.file("ok.csv", capture_text(3).as_bytes());
    let p = path.to_str().expect("utf-8 temp path");
    let cases: &[(&[&str], &str)] = &[
        (&["report", "--no-such-option", p], "--no-such-option"),
        (&["report", "--target-fps", "0", p], "0"),
        (&["report", "--target-fps", "abc", p], "abc"),
        (&["report", "--target-fps", "inf", p], "inf"),
        (&["report", "--stutter-threshold", "-1", p], "-1"),
        (&["report", "--stutter-threshold=-1", p], "-1"),
        (&["report", "--stutter-threshold", "50", p], "did you mean 50%"),
        (&["report", "--stutter-threshold", "1", p], "did you mean 1%"),
        (&["report", "--stutter-threshold", "-5%", p], "-5"),
        (&["report", "--frame-time", "sideways", p], "sideways"),
        (&["report", "--json"], "FILE"),
        (&["report"], "FILE"),
        (&["report", "--trace", "12:", p], "12:"),
        (&["report", "--qpc-frequency", "0", p], "0"),
    ];
    for (args, mentions) in cases {
        let run = framescope(*args);
        assert_eq!(run.code, 2, "{args:?}: stderr {}", run.stderr);
        assert!(run.stdout.trim().is_empty(), "{args:?}: stdout {}", run.stdout);
        assert!(run.stderr.contains(mentions), "{args:?}: stderr should mention {mentions}: {}", run.stderr);
        no_panic_text(&run);
    }
    // The same file with good arguments is fine: the failures above are the arguments'.
    let run = framescope(["report", "--target-fps", "144", "--trace", "all", p]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // A percentage is the fraction the window shows: 20% is 0.2, 150% is 1.5.
    for (given, want) in [("20%", 0.2), ("0.2", 0.2), ("150%", 1.5), (" 35 %", 0.35)] {
        let (code, doc) = common::report_json(["--stutter-threshold", given, p]);
        assert_eq!(code, 0, "{given}");
        let got = doc["settings"]["stutter_threshold"].as_f64().unwrap_or(f64::NAN);
        assert!((got - want).abs() < 1e-12, "{given}: {got}");
    }
}
