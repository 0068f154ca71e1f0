//! Issue 38: the Linux and Android capture formats, each on a fixture under
//! `tests/fixtures/i38/` whose figures are worked by hand here from the spec
//! (`metrics.md` §1, §7, §16) and the writers' layouts (`docs/decisions.md`, "Issue 38:
//! Linux and Android formats").
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::{TempDir, repo_file, report_json};
use serde_json::Value;
use std::fmt::Write as _;

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
    // Every other fixture is walked: the Android dumps (`.txt`, known by their first
    // lines, UTF-16 too) and the Perfetto trace among them.
    let formats: std::collections::BTreeSet<&str> =
        doc["runs"].as_array().unwrap().iter().filter_map(|r| r["format"].as_str()).collect();
    for f in
        ["android-surfaceflinger", "android-gfxinfo", "perfetto", "xrframetools", "ovr-metrics", "pyrofling"]
    {
        assert!(formats.contains(f), "{f} not walked: {formats:?}");
    }
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

/// The Perfetto fixture, built with the test-side protobuf writer: layer A has five
/// displayed surface frames ending at 1 000 000 000, 1 016 666 667, 1 050 000 000,
/// 1 066 666 667 and 1 083 333 333 ns (each 10 ms after its actual start), their
/// expected ends 1 016 666 667 (token 101), 1 033 333 333, 1 050 000 000,
/// 1 066 666 667 (tokens 102–104), token 102 App Deadline Missed (64), token 103
/// Buffer Stuffing (128), and one dropped frame (present type 4); layer B two frames.
/// Beside them: SurfaceFlinger's own display frame, a packet of another kind and a
/// compressed packet.
fn perfetto_trace() -> Vec<u8> {
    use common::perfetto_writer::{
        actual_start, compressed_packet, display_start, expected_start, frame_end, other_packet, packet,
    };
    const A: &str = "SurfaceView[com.example.game]#0";
    const B: &str = "com.example.game/com.example.game.MainActivity#1";
    let ends: [u64; 5] = [1_000_000_000, 1_016_666_667, 1_050_000_000, 1_066_666_667, 1_083_333_333];
    let expected: [u64; 5] = [990_000_000, 1_016_666_667, 1_033_333_333, 1_050_000_000, 1_066_666_667];
    let jank = [1, 1, 64, 128, 1];
    let mut events: Vec<(u64, Vec<u8>)> = Vec::new();
    for (k, ((&end, &exp), &j)) in ends.iter().zip(&expected).zip(&jank).enumerate() {
        let (token, cookie) = (100 + k as u64, 10 * k as u64);
        events.push((exp - 12_000_000, expected_start(cookie + 1, token, A)));
        events.push((exp, frame_end(cookie + 1)));
        events.push((end - 10_000_000, actual_start(cookie + 2, token, A, if j == 1 { 1 } else { 2 }, j)));
        events.push((end, frame_end(cookie + 2)));
    }
    events.push((1_070_000_000, actual_start(90, 105, A, 4, 1024)));
    events.push((1_075_000_000, frame_end(90)));
    for (k, end) in [2_000_000_000u64, 2_016_666_667].into_iter().enumerate() {
        events.push((end - 5_000_000, actual_start(200 + k as u64, 300 + k as u64, B, 1, 1)));
        events.push((end, frame_end(200 + k as u64)));
    }
    events.push((1_001_000_000, display_start(500, 9000)));
    events.push((1_002_000_000, frame_end(500)));
    events.sort_by_key(|e| e.0);
    let mut trace = other_packet(1);
    for (ts, e) in &events {
        trace.extend(packet(*ts, e));
    }
    trace.extend(compressed_packet());
    trace
}

/// Layer A: frames of 16.666667, 33.333333, 16.666667, 16.666666 ms (T = 83.333333
/// ms, 4000 / T = 48.0000002 FPS); lateness against the expected ends 0, 16.666667,
/// 16.666667, 16.666666 ms; actual durations 10 ms; App Deadline Missed marks frame 1
/// and Buffer Stuffing frame 2 (frame-health spikes); the dropped frame is counted.
/// Layer B: one frame of 16.666667 ms.
#[test]
fn perfetto_frame_timeline_per_layer() {
    // The committed fixture (the window test opens it) is the writer's trace:
    // FRAMESCOPE_WRITE_FIXTURES=1 writes it again after a change here.
    let file = fixture("game-frametimeline.perfetto-trace");
    if std::env::var("FRAMESCOPE_WRITE_FIXTURES").is_ok_and(|v| v == "1") {
        std::fs::write(&file, perfetto_trace()).unwrap();
    }
    assert_eq!(std::fs::read(&file).unwrap(), perfetto_trace(), "the committed fixture is the writer's");
    let (code, doc) = report_json([file.as_os_str(), "--trace".as_ref(), "all".as_ref()]);
    assert_eq!(code, 0, "{doc}");
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    let (a, b) = (&runs[0], &runs[1]);
    assert_eq!(a["format"], "perfetto");
    assert_eq!(a["application"], "SurfaceView[com.example.game]#0");
    assert_eq!(a["frames"], 4);
    let close = |v: &Value, want: f64| v.as_f64().is_some_and(|x| (x - want).abs() < 1e-9);
    assert!(close(&a["duration_ms"], 83.333_333));
    assert!(close(&a["summary"]["avg_fps"], 4000.0 / 83.333_333));
    assert!(close(&a["summary"]["min_fps"], 1000.0 / 33.333_333));
    assert_eq!(a["health"]["spikes"]["App Deadline Missed"], serde_json::json!([1]));
    assert_eq!(a["health"]["spikes"]["Buffer Stuffing"], serde_json::json!([2]));
    // (0 + 16.666667 + 16.666667 + 16.666666) / 4 = 12.5 ms late on average.
    assert!(close(&a["telemetry"]["Lateness (actual end − expected end)"]["mean"], 12.5));
    assert_eq!(b["frames"], 1);
    assert!(close(&b["summary"]["avg_fps"], 1000.0 / 16.666_667));
    let messages: Vec<&str> =
        a["warnings"].as_array().unwrap().iter().filter_map(|w| w["message"].as_str()).collect();
    assert!(messages.iter().any(|m| m.starts_with("1 surface frames were dropped")), "{messages:?}");
    assert!(messages.iter().any(|m| m.starts_with("1 compressed packets")), "{messages:?}");
    html_has(&file, &["perfetto", "SurfaceView[com.example.game]#0"]);
}

/// Truncated and garbled Perfetto traces: every prefix and 300 byte changes load to a
/// capture or a clear error, never a panic or a broken trace model (the debug build
/// checks every loaded capture's invariants), each within a second.
#[test]
fn perfetto_truncated_or_garbled_never_panics() {
    let trace = perfetto_trace();
    for len in 0..trace.len() {
        let part = trace[..len].to_vec();
        let r = common::bad::within(std::time::Duration::from_secs(5), "prefix", move || {
            common::bad::load("t.perfetto-trace", &part).map(|c| c.traces.len())
        });
        if let Err(e) = r {
            assert!(!e.to_string().is_empty());
        }
    }
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..300 {
        let mut bad = trace.clone();
        for _ in 0..4 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let at = (seed % bad.len() as u64) as usize;
            bad[at] = (seed >> 32) as u8;
        }
        let _ = common::bad::within(std::time::Duration::from_secs(5), "garbled", move || {
            common::bad::load("g.perfetto-trace", &bad).map(|c| c.traces.len())
        });
    }
    // A cut-off trace says so, naming the packet.
    let cut = &trace[..trace.len() - 3];
    let e = common::bad::load("cut.perfetto-trace", cut).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("cut.perfetto-trace") && e.contains("truncated"), "{e}");
}

/// Frame generation's cadence where the capture cannot mark generated frames: a
/// DLSS 4 ×3 rhythm (21, 0.4, 0.1 ms) built by hand gives multiplier 3 in the typed
/// warning; and the real XeSS-FG captures with their `FrameType` column taken out
/// give the multiplier their own frame types show (the commonest distance from one
/// application frame to the next, A G G → 3 for Naraka, A G → 2 for Assassin's Creed
/// and F1 24).
#[test]
fn frame_generation_cadence_without_frame_types() {
    let dir = TempDir::new("i38-cadence");
    // A MangoHud 0.8 per-frame log (no frame-type column): preamble, header, rows.
    let mut mh = String::from(
        "os,cpu,gpu,ram,kernel,driver,cpuscheduler\nLinux,CPU,GPU,1,6.17,,performance\n\
         fps,frametime,cpu_load,gpu_load,elapsed\n",
    );
    let mut elapsed = 0.0;
    for i in 0..300 {
        let ft = [21.0, 0.4, 0.1][i % 3];
        elapsed += ft * 1e6;
        let _ = writeln!(mh, "100,{ft},10,90,{elapsed:.0}");
    }
    let file = dir.file("dlss4.csv", mh.as_bytes());
    let (_, doc) = report_json([file.as_os_str()]);
    let w = doc["runs"][0]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["kind"] == "frame_generation_not_recorded")
        .cloned();
    let w = w.unwrap_or_else(|| panic!("{doc}"));
    assert_eq!(w["multiplier"], 3);
    assert!(
        w["message"].as_str().unwrap().contains("×3 frame generation (one rendered frame, then 2 generated")
    );

    let Some(traces) = common::real_traces() else { return };
    for (name, want) in [
        ("pm-v2.5x_auxgold_test_case_10_Naraka_XeSS-FG.csv", 3),
        ("pm-v2.5x_auxgold_test_case_8_AC-scimitar_XeSS-FG.csv", 2),
        ("pm-v2.5x_auxgold_test_case_9_F1-24_XeSS-FG_multiproc.csv", 2),
    ] {
        let text = std::fs::read_to_string(traces.join("presentmon-2x").join(name)).unwrap();
        let mut rows =
            csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(text.as_bytes());
        let all: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
        let ft_col = all[0].iter().position(|h| h == "FrameType").unwrap();
        // The frame types' own cadence, for the main application.
        let mut counts = std::collections::HashMap::new();
        for r in &all[1..] {
            *counts.entry(r[0].to_owned()).or_insert(0) += 1;
        }
        let app = &counts.into_iter().max_by_key(|(_, n)| *n).map(|(a, _)| a).unwrap();
        let apps: Vec<usize> = all[1..]
            .iter()
            .filter(|r| &r[0] == app)
            .enumerate()
            .filter(|(_, r)| &r[ft_col] == "Application")
            .map(|(i, _)| i)
            .collect();
        let mut gaps = std::collections::BTreeMap::new();
        for w in apps.windows(2).filter(|w| w[1] - w[0] > 1) {
            *gaps.entry(w[1] - w[0]).or_insert(0) += 1;
        }
        let theirs = gaps.iter().max_by_key(|(_, c)| **c).map(|(g, _)| *g).unwrap();
        assert_eq!(theirs, want, "{name}");
        let mut out = String::new();
        for r in &all {
            let cells: Vec<&str> =
                r.iter().enumerate().filter(|(k, _)| *k != ft_col).map(|(_, c)| c).collect();
            out.push_str(&cells.join(","));
            out.push('\n');
        }
        let stripped = dir.file(name, out.trim_start_matches('\u{feff}').as_bytes());
        let (_, doc) = report_json([stripped.as_os_str()]);
        let run = &doc["runs"][0];
        assert_eq!(run["application"].as_str(), Some(app.trim_start_matches('\u{feff}')), "{name}");
        let w =
            run["warnings"].as_array().unwrap().iter().find(|w| w["kind"] == "frame_generation_not_recorded");
        assert_eq!(
            w.map(|w| w["multiplier"].clone()),
            Some(Value::from(want)),
            "{name}: {}",
            run["warnings"]
        );
    }
}

/// Animation error for generated frames (PresentMon #669: each application frame's
/// simulation step spread over the display steps up to the next one), worked here
/// independently from the real XeSS-FG captures' own columns. Without the spread (one
/// step from one displayed application frame to the next) the same arithmetic gives
/// PresentMon 2.5's own `MsAnimationError` on every application frame (to the 4
/// decimals it writes); PresentMon 2.5 writes `NA` for every generated frame, so there
/// the spread values have nothing of PresentMon's to match. framescope's figure is the
/// mean |error| of the spread values over all displayed frames.
#[test]
fn animation_error_of_generated_frames_on_real_captures() {
    let Some(traces) = common::real_traces() else { return };
    for name in [
        "pm-v2.5x_auxgold_test_case_8_AC-scimitar_XeSS-FG.csv",
        "pm-v2.5x_auxgold_test_case_10_Naraka_XeSS-FG.csv",
        "pm-v2.5x_auxgold_test_case_9_F1-24_XeSS-FG_multiproc.csv",
    ] {
        let path = traces.join("presentmon-2x").join(name);
        let mut reader = csv::Reader::from_path(&path).unwrap();
        let header: Vec<String> =
            reader.headers().unwrap().iter().map(|h| h.trim_start_matches('\u{feff}').to_owned()).collect();
        let col = |n: &str| header.iter().position(|h| h == n).unwrap();
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        let key = |r: &csv::StringRecord| (r[0].to_owned(), r[1].to_owned(), r[2].to_owned());
        let mut counts = std::collections::HashMap::new();
        for r in &rows {
            *counts.entry(key(r)).or_insert(0) += 1;
        }
        let main = counts.into_iter().max_by_key(|(_, n)| *n).map(|(k, _)| k).unwrap();
        let rows: Vec<&csv::StringRecord> = rows.iter().filter(|r| key(r) == main).collect();
        let num = |r: &csv::StringRecord, n: &str| r[col(n)].parse::<f64>().ok();
        let shown: Vec<&&csv::StringRecord> = rows
            .iter()
            .filter(|r| {
                num(r, "MsUntilDisplayed").is_some()
                    && num(r, "MsBetweenDisplayChange").is_some_and(|d| d > 0.0)
            })
            .collect();
        let apps: Vec<usize> = (0..shown.len())
            .filter(|&k| {
                &shown[k][col("FrameType")] == "Application" && num(shown[k], "AnimationTime").is_some()
            })
            .collect();
        let (mut spread, mut compared, mut generated_na) = (Vec::new(), 0, 0);
        for w in apps.windows(2) {
            let step =
                num(shown[w[1]], "AnimationTime").unwrap() - num(shown[w[0]], "AnimationTime").unwrap();
            let screen: f64 =
                (w[0] + 1..=w[1]).map(|k| num(shown[k], "MsBetweenDisplayChange").unwrap()).sum();
            if let Some(theirs) = num(shown[w[1]], "MsAnimationError") {
                assert!((step - screen - theirs).abs() < 1e-3, "{name}: {} vs {theirs}", step - screen);
                compared += 1;
            }
            for r in &shown[w[0] + 1..=w[1]] {
                spread.push(step / (w[1] - w[0]) as f64 - num(r, "MsBetweenDisplayChange").unwrap());
                let generated = &r[col("FrameType")] != "Application";
                generated_na += usize::from(generated && num(r, "MsAnimationError").is_none());
            }
        }
        assert!(compared > 1000 && generated_na > 700, "{name}: {compared} {generated_na}");
        let want = spread.iter().map(|e| e.abs()).sum::<f64>() / spread.len() as f64;
        let (_, doc) = report_json([path.as_os_str()]);
        let got = doc["runs"][0]["latency"]["animation_error_displayed_mean_abs_ms"].as_f64().unwrap();
        assert!((got - want).abs() < 1e-9, "{name}: {got} vs {want}");
    }
}

/// XRFrameTools, one frame per row (`--frames-per-row 1`): Frame Interval 11 111,
/// 11 111, 22 222, 11 111, 11 111, 11 112 µs — T = 77.778 ms, 6000 / 77.778 = 77.1426
/// FPS, min 1000 / 22.222 = 45.0005. Display XrTime steps 1, 2, 1, 1, 1 × 11 111 111 ns:
/// the shortest common step is the headset's period, 90.0000009 Hz, the VSYNC grid
/// (source `capture`) and the capture's target. App CPU 9 ms and Render GPU 20 ms on
/// the long frame (3 and 8 ms elsewhere) are its spikes; µs become ms, kHz MHz, bytes
/// MiB.
#[test]
fn xrframetools_one_frame_per_row() {
    let file = fixture("DCS 2026-03-14 20-15-00 UTC.csv");
    let (code, doc) = report_json([file.as_os_str()]);
    assert_eq!(code, 0, "{doc}");
    let run = &doc["runs"][0];
    assert_eq!((&run["format"], &run["application"]), (&Value::from("xrframetools"), &Value::from("DCS")));
    assert_eq!((&run["sampled"], &run["frames"]), (&Value::Bool(false), &Value::from(6)));
    assert!(near(&run["duration_ms"], 77.778));
    assert!(near(&run["summary"]["avg_fps"], 6000.0 / 77.778));
    assert!(near(&run["summary"]["min_fps"], 1000.0 / 22.222));
    assert_eq!(run["vsync"]["source"], "capture");
    assert!(near(&run["vsync"]["period_ms"], 11.111_111));
    assert_eq!(run["system"]["headset refresh (from Display XrTime)"], "90.00 Hz (11.111 ms)");
    assert_eq!(run["system"]["started (UTC)"], "2026-03-14T20:15:15");
    assert_eq!(run["health"]["spikes"]["App CPU (ms)"], serde_json::json!([2]));
    assert_eq!(run["health"]["spikes"]["Render GPU (ms)"], serde_json::json!([2]));
    let t = &run["telemetry"];
    assert!(
        near(&t["GPU Clock Max (MHz)"]["mean"], 2520.0)
            && near(&t["VRAM Current Usage (MiB)"]["mean"], 6144.0)
    );
    assert!(near(&t["GPU Power Limited"]["max"], 1.0));
    html_has(&file, &["xrframetools", "90.00 Hz"]);
}

/// An older XRFrameTools conversion: 10 frames per row (the default), no Display
/// XrTime, `Reserveration`, `true`/`false`. Rows: 10 frames of 10 ms ending at 100 ms,
/// 10 of 12 ms ending at 220 ms, the last 2 of 12.5 ms ending at 245 ms. Each row is a
/// sample of exactly Count frames: 22 frames in 245 ms, avg 22 000 / 245 = 89.796 FPS
/// (= Σ r·Δt / Σ Δt = (100·100 + 83.33·120 + 80·25) / 245), min 80, max 100; the 1 %
/// low takes 0.22 of the 80 FPS sample's 2 frames: 80.
#[test]
fn xrframetools_frames_aggregated_per_row() {
    let file = fixture("Half-Life Alyx 2025-01-10 19-00-00 UTC.csv");
    let (code, doc) = report_json([file.as_os_str()]);
    assert_eq!(code, 0, "{doc}");
    let run = &doc["runs"][0];
    assert_eq!(
        (&run["sampled"], &run["samples"], &run["frames"]),
        (&Value::Bool(true), &Value::from(3), &Value::from(22))
    );
    assert_eq!(run["application"], "Half-Life Alyx");
    assert!(near(&run["duration_ms"], 245.0));
    assert!(near(&run["summary"]["avg_fps"], 22_000.0 / 245.0));
    assert!(near(&run["summary"]["min_fps"], 80.0) && near(&run["summary"]["max_fps"], 100.0));
    assert!(near(&run["summary"]["low_1pct_fps"], 80.0));
    assert!(run["system"].get("headset refresh (from Display XrTime)").is_none());
    // Telemetry of samples is weighted by their intervals: `false` over 100 ms, `true`
    // over 120 + 25 ms.
    assert!(near(&run["telemetry"]["GPU Power Limited"]["mean"], 145.0 / 245.0));
    assert!(near(&run["telemetry"]["VRAM Available for Reservation (MiB)"]["mean"], 4096.0));
    let kinds: Vec<&Value> = run["warnings"].as_array().unwrap().iter().map(|w| &w["kind"]).collect();
    assert!(kinds.contains(&&Value::from("sampled_log")), "{kinds:?}");
    html_has(&file, &["xrframetools"]);
}

/// OVR Metrics Tool (Quest), one row a second: the first row (a warm-up with
/// average_frame_rate 0) opens the log; rates 72, 72, 66, 72 over 1 s each give 282
/// frames in 4 s, avg (72 + 72 + 66 + 72) / 4 = 70.5 FPS, min 66; the 1 % low (K =
/// 2.82 frames) lies in the 66 FPS sample: 66. display_refresh_rate 72 is the
/// capture's target; columns that are 0 throughout (shader_hitches, early frames) are
/// left out; the truncated last row is skipped with its line; the debug string after
/// the last column is an event of the fourth sample (at 3 s).
#[test]
fn ovr_metrics_tool_csv() {
    let file = fixture("com.example.game_20260814_101500.csv");
    let (code, doc) = report_json([file.as_os_str()]);
    assert_eq!(code, 0, "{doc}");
    let run = &doc["runs"][0];
    assert_eq!(run["format"], "ovr-metrics");
    assert_eq!(
        (&run["sampled"], &run["samples"], &run["frames"]),
        (&Value::Bool(true), &Value::from(4), &Value::from(282))
    );
    assert!(near(&run["duration_ms"], 4000.0) && near(&run["summary"]["avg_fps"], 70.5));
    assert!(near(&run["summary"]["min_fps"], 66.0) && near(&run["summary"]["low_1pct_fps"], 66.0));
    assert_eq!(run["system"]["display refresh rate"], "72 Hz");
    let t = &run["telemetry"];
    assert!(
        near(&t["stale_frame_count"]["max"], 6.0) && near(&t["gpu_utilization_percentage"]["mean"], 75.25)
    );
    assert!(t.get("shader_hitches").is_none() && t.get("early_frame_count").is_none());
    let truncated = run["warnings"].as_array().unwrap().iter().find(|w| w["kind"] == "skipped_rows").unwrap();
    assert_eq!(truncated["line"], 7);
    html_has(&file, &["ovr-metrics", "72 Hz"]);
    let strict = common::framescope(["report".as_ref(), file.as_os_str(), "--strict".as_ref()]);
    assert_eq!(strict.code, 1, "the truncated row fails --strict: {}", strict.stderr);
}

/// Hostile or empty VR logs: clear errors naming the file, never panics.
#[test]
fn vr_logs_without_frames_are_errors() {
    let dir = TempDir::new("i38-vr-bad");
    let xr = dir.file("xr.csv", "Time (µs),Frame Interval (µs),FPS,Count\n0,abc,1,1\n5,0,0,0\n".as_bytes());
    let ovr = dir.file("ovr.csv", b"Time Stamp,average_frame_rate\n1000,72\n");
    for (f, name) in [(xr, "xr.csv"), (ovr, "ovr.csv")] {
        let run = common::framescope(["report".as_ref(), f.as_os_str()]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(run.stderr.contains(name) && !run.stderr.contains("panicked"), "{}", run.stderr);
    }
}
