//! Issue 38: the Linux and Android capture formats, each on a fixture under
//! `tests/fixtures/i38/` whose figures are worked by hand here from the spec
//! (`metrics.md` §1, §7, §16) and the writers' layouts (`docs/decisions.md`, "Issue 38:
//! Linux and Android formats").
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::{TempDir, repo_file, report_json};
use serde_json::Value;

/// `v` is a number within 1e-9 of `want`.
fn near(v: &Value, want: f64) -> bool {
    v.as_f64().is_some_and(|x| (x - want).abs() < 1e-9)
}

/// The fixture `name` under `tests/fixtures/i38/`.
fn fixture(name: &str) -> std::path::PathBuf {
    repo_file(&format!("tests/fixtures/i38/{name}"))
}

/// The HTML page of `file` holds `words` (the normal pipeline, `--html`).
fn html_has(file: &std::path::Path, words: &[&str]) {
    let stem = file.file_stem().unwrap_or_default().to_string_lossy();
    let dir = TempDir::new(&format!("i38-html-{stem}"));
    let out = dir.0.join("page.html");
    let run = common::framescope(["report".as_ref(), file.as_os_str(), "--html".as_ref(), out.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let page = std::fs::read_to_string(&out).unwrap();
    for w in words {
        assert!(page.contains(w), "{w} not in the page of {}", file.display());
    }
}

/// CapFrameX on Linux: 5 frames of MsBetweenPresents 16, 17, 15, 18, 16 ms — T = 82
/// ms, 5000 / 82 = 60.976 FPS, sorted 15, 16, 16, 17, 18: p50 16, p90 17 + 0.6 × 1 =
/// 17.6. The first row's 0.00 in MsUntilDisplayed and MsActualPresent are placeholders
/// (no present timing yet): present to display is the mean of 9, 8, 10, 9 = 9 ms (not
/// 7.2 ms with a 0 in it); under the display source the series is MsActualPresent 16.67,
/// 16.67, 16.66, 16.67 — 4 frames in 66.67 ms, 4000 / 66.67 FPS. The sidecar JSON is the
/// system info and its `game` names the trace.
#[test]
fn capframex_linux_csv_with_its_sidecar() {
    let file = fixture("capframex-linux_vkcube_20260112_201500.csv");
    let (code, doc) = report_json([file.as_os_str()]);
    assert_eq!(code, 0);
    let run = &doc["runs"][0];
    assert_eq!(run["format"], "capframex-linux");
    assert_eq!(run["application"], "vkcube");
    assert_eq!(run["frames"], 5);
    assert!(run["dropped_frames"].is_null());
    assert!(near(&run["duration_ms"], 82.0));
    assert!(near(&run["summary"]["avg_fps"], 5000.0 / 82.0));
    assert!(near(&run["summary"]["p50_ms"], 16.0) && near(&run["summary"]["p90_ms"], 17.6));
    assert!(near(&run["latency"]["display_latency_mean_ms"], 9.0));
    assert_eq!(run["system"]["gpu"], "AMD Radeon RX 7800 XT (RADV NAVI32)");
    assert_eq!(run["system"]["timingMode"], "VK_EXT_present_timing");
    assert_eq!(run["system"]["frameCount"], "5");

    let (_, display) = report_json([file.as_os_str(), "--frame-time".as_ref(), "display".as_ref()]);
    let run = &display["runs"][0];
    assert_eq!((&run["frame_time"], &run["frames"]), (&Value::from("display"), &Value::from(4)));
    assert!((run["duration_ms"].as_f64().unwrap() - 66.67).abs() < 1e-9);
    assert!((run["summary"]["avg_fps"].as_f64().unwrap() - 4000.0 / 66.67).abs() < 1e-9);

    // The table never prints a placeholder 0 as a latency; the page names the format.
    let table = common::framescope(["report".as_ref(), file.as_os_str()]).stdout;
    assert!(table.contains("present to display mean 9.00 ms"), "{table}");
    html_has(&file, &["capframex-linux", "vkcube"]);
    // A folder walk reads the CSV once and the sidecar with it, not as a capture.
    let (code, doc) = report_json([fixture("").as_os_str()]);
    assert_eq!(code, 0, "{doc}");
    let files: Vec<&str> =
        doc["runs"].as_array().unwrap().iter().filter_map(|r| r["file"].as_str()).collect();
    let json = |f: &&str| std::path::Path::new(f).extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
    assert!(!files.iter().any(json), "{files:?}");
}

/// Without present timing the layer writes 0.00 in the three timing columns of every
/// row: no display data (a note says so), no present-to-display figure, and the frame
/// times stand; a sidecar that is no JSON object is left out with a warning.
#[test]
fn capframex_linux_without_present_timing() {
    let dir = TempDir::new("i38-cx-zero");
    let csv = dir.file(
        "g.csv",
        b"MsBetweenPresents,MsUntilRenderComplete,MsUntilDisplayed,MsActualPresent\n10.00,0.00,0.00,0.00\n\
          20.00,0.00,0.00,0.00\n",
    );
    dir.file("g.json", b"[1, 2]");
    let (code, doc) = report_json([csv.as_os_str()]);
    assert_eq!(code, 0);
    let run = &doc["runs"][0];
    assert!(near(&run["summary"]["avg_fps"], 2000.0 / 30.0));
    assert!(run["latency"]["display_latency_mean_ms"].is_null());
    let messages: Vec<&str> =
        run["warnings"].as_array().unwrap().iter().filter_map(|w| w["message"].as_str()).collect();
    assert!(messages.iter().any(|m| m.contains("no display data")), "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("g.json")), "{messages:?}");
}

/// pyrofling's latency-measurement log: rows (present id, then stimulus, queue present,
/// queue done, present complete in s) 1000 @ 10.046, 1040 @ 10.546, 1100 @ 11.346,
/// 1120 @ 11.746, and one DEBUG line. The first row opens the clock; the samples are
/// 40 presents in 500 ms (12.5 ms), 60 in 800 ms (13.333 ms), 20 in 400 ms (20 ms):
/// T = 1700 ms, ≈120 frames, 120 / 1.7 = 70.588 FPS. Stages of the three sample rows
/// (ms): input → present 20, 30, 10 (mean 20); present → GPU idle 12, 16, 12 (13.333);
/// GPU idle → FirstPixelOut 14, 0, 24 (12.667); input → display 46 each (46). They are
/// compared like every other latency figure.
#[test]
fn pyrofling_latency_log() {
    let file = fixture("latency-measurement-vkcube-2026-07-01-10-32-00.csv");
    let (code, doc) = report_json([file.as_os_str()]);
    assert_eq!(code, 0);
    let run = &doc["runs"][0];
    assert_eq!(run["format"], "pyrofling");
    assert_eq!(
        (&run["sampled"], &run["samples"], &run["frames"]),
        (&Value::Bool(true), &Value::from(3), &Value::from(120))
    );
    let close = |v: &Value, want: f64| v.as_f64().is_some_and(|x| (x - want).abs() < 1e-6);
    assert!(close(&run["duration_ms"], 1700.0));
    assert!(close(&run["summary"]["avg_fps"], 120.0 / 1.7));
    assert!(close(&run["summary"]["min_fps"], 50.0) && close(&run["summary"]["max_fps"], 80.0));
    let l = &run["latency"];
    assert!(close(&l["input_to_present_mean_ms"], 20.0));
    assert!(close(&l["present_to_gpu_idle_mean_ms"], 40.0 / 3.0));
    assert!(close(&l["gpu_idle_to_display_mean_ms"], 38.0 / 3.0));
    assert!(close(&l["input_to_display_mean_ms"], 46.0));
    assert_eq!(run["system"]["present stage"], "FirstPixelOut");
    let table = common::framescope(["report".as_ref(), file.as_os_str()]).stdout;
    assert!(table.contains("input to display mean 46.00 ms   input to present mean 20.00 ms"), "{table}");
    html_has(&file, &["pyrofling", "Input to display mean"]);

    // The last row 10 ms later on screen: input → display 46, 46, 56 = 49.333, worse.
    let dir = TempDir::new("i38-pyro-compare");
    let text = std::fs::read_to_string(&file).unwrap().replace("11.746000", "11.756000");
    let later = dir.file("later.csv", text.as_bytes());
    let out = common::framescope(["compare".as_ref(), file.as_os_str(), later.as_os_str()]).stdout;
    let line = out.lines().find(|l| l.contains("latency.input_to_display_mean_ms")).unwrap_or_default();
    assert!(line.contains("+3.333") && line.ends_with("worse"), "{out}");
}

/// A latency log whose present ids or times never advance has no frame rate: a clear
/// error naming the file, never a panic.
#[test]
fn pyrofling_log_without_two_usable_rows_is_an_error() {
    let dir = TempDir::new("i38-pyro-bad");
    let one = dir.file("one.csv", b"id,stimulus,queuepresent,queuedone,Dequeued\n5,1.0,1.1,1.2,1.3\nx,y\n");
    let run = common::framescope(["report".as_ref(), one.as_os_str()]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("one.csv") && run.stderr.contains("no frame rate"), "{}", run.stderr);
}

/// SurfaceFlinger `--latency`: period 16 666 666 ns; rows (desired, actual, ready)
/// `0 0 0` and an INT64_MAX actual present are pending (skipped, counted); the actual
/// presents 1.000000000, 1.016666666, 1.050000000, 1.066666666 s give frames of
/// 16.666_666, 33.333_334, 16.666_666 ms — T = 66.666_666 ms, 3000 / T = 45.0000004 FPS;
/// the refresh grid is the stated period (60.0000024 Hz, source `capture`), not detected.
#[test]
fn android_surfaceflinger_latency_dump() {
    let file = fixture("android-surfaceflinger-latency-SurfaceView.txt");
    let (code, doc) = report_json([file.as_os_str()]);
    assert_eq!(code, 0);
    let run = &doc["runs"][0];
    assert_eq!(run["format"], "android-surfaceflinger");
    assert_eq!(run["frames"], 3);
    let close = |v: &Value, want: f64| v.as_f64().is_some_and(|x| (x - want).abs() < 1e-9);
    assert!(close(&run["duration_ms"], 66.666_666));
    assert!(close(&run["summary"]["avg_fps"], 3000.0 / 66.666_666));
    assert!(close(&run["summary"]["min_fps"], 1000.0 / 33.333_334));
    assert_eq!(run["vsync"]["source"], "capture");
    assert!(close(&run["vsync"]["period_ms"], 16.666_666));
    let w = &run["warnings"][0];
    assert_eq!(w["line"], 2);
    assert!(w["message"].as_str().unwrap().starts_with("2 rows not presented yet"), "{w}");
    // The display series is the same intervals.
    let (_, display) = report_json([file.as_os_str(), "--frame-time".as_ref(), "display".as_ref()]);
    assert_eq!(display["runs"][0]["summary"], run["summary"]);
    html_has(&file, &["android-surfaceflinger"]);
}

/// gfxinfo framestats, saved as UTF-16 LE with a BOM (the same text as UTF-16 BE and as
/// UTF-8 reads the same): two windows, two traces. Window 1 (old header): the Flags 1
/// row is skipped; IntendedVsync 1.016666666, 1.033333333, 1.050000000, 1.083333333 s
/// give frames 16.666667, 16.666667, 33.333333 ms (T = 66.666_667 ms, 45 FPS); their
/// durations FrameCompleted − IntendedVsync are 20, 8, 8 ms, so the first frame is
/// janky (20 > 16.67 ms) — a frame-health mark at position 0. Window 2 (Android 12+
/// header, columns found by name): 2 frames of 16.666667 ms, none janky. The dump's own
/// summary is kept as it wrote it, apart from the figures.
#[test]
fn android_gfxinfo_framestats_dump() {
    let file = fixture("android-gfxinfo-framestats-utf16le.txt");
    let (code, doc) = report_json([file.as_os_str(), "--trace".as_ref(), "all".as_ref()]);
    assert_eq!(code, 0);
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    let close = |v: &Value, want: f64| v.as_f64().is_some_and(|x| (x - want).abs() < 1e-6);
    let (a, b) = (&runs[0], &runs[1]);
    assert_eq!(a["format"], "android-gfxinfo");
    assert!(a["application"].as_str().unwrap().starts_with("com.example.game/com.example.game.MainActivity"));
    assert_eq!(a["frames"], 3);
    assert!(close(&a["duration_ms"], 66.666_667) && close(&a["summary"]["avg_fps"], 45.0));
    let jank = "Janky (duration over 16.67 ms)";
    assert_eq!(a["health"]["spikes"][jank], serde_json::json!([0]));
    assert_eq!(a["system"]["gfxinfo's own: Janky frames"], "12 (5.00%)");
    assert_eq!(a["system"]["package"], "com.example.game");
    assert_eq!(b["frames"], 2);
    assert!(close(&b["summary"]["avg_fps"], 60.0));
    assert!(b["health"]["spikes"].get(jank).is_none_or(|s| s.as_array().is_some_and(Vec::is_empty)));

    let bytes = std::fs::read(&file).unwrap();
    let units: Vec<u16> = bytes[2..].chunks(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
    let text = String::from_utf16(&units).unwrap();
    let dir = TempDir::new("i38-gfxinfo");
    let utf8 = dir.file("utf8.txt", text.as_bytes());
    let mut be = vec![0xFE, 0xFF];
    be.extend(units.iter().flat_map(|u| u.to_be_bytes()));
    let be = dir.file("be.txt", &be);
    for other in [utf8, be] {
        let (_, d) = report_json([other.as_os_str(), "--trace".as_ref(), "all".as_ref()]);
        for (x, y) in d["runs"].as_array().unwrap().iter().zip(runs) {
            assert_eq!((&x["summary"], &x["health"]), (&y["summary"], &y["health"]), "{}", other.display());
        }
    }
    html_has(&file, &["android-gfxinfo", "Janky frames"]);
}

/// Android dumps that hold no frames are clear errors naming the file, never panics.
#[test]
fn android_dumps_without_frames_are_errors() {
    let dir = TempDir::new("i38-android-bad");
    let sf = dir.file("sf.txt", b"16666666\n0\t0\t0\n0\t0\t0\n");
    let gfx =
        dir.file("gfx.txt", b"** Graphics info for pid 1 [p] **\n---PROFILEDATA---\nFlags,Vsync\n0,1\n");
    for (f, words) in [(sf, "fewer than two presented frames"), (gfx, "IntendedVsync")] {
        let run = common::framescope(["report".as_ref(), f.as_os_str()]);
        assert_eq!(run.code, 1);
        assert!(
            run.stderr.contains(f.file_name().unwrap().to_str().unwrap()) && run.stderr.contains(words),
            "{}",
            run.stderr
        );
    }
}
