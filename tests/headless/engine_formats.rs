//! Game-engine frame logs and generic CSVs (`formats.md` §7, §10, §11): the made-up
//! fixtures in `sample-traces/` through the real binary against the goldens of the
//! independent oracle (`tests/oracle/engine_oracle.py`, written from the spec alone),
//! small hand-built captures whose figures are worked out in the comments, and the
//! detection of each new format against every existing reader.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]
// Values read from decimals like 5.0000 are exact: comparing them exactly is the point.
#![allow(clippy::float_cmp)]

use crate::common;

use common::{TempDir, close, repo_file, report_json};
use framescope_core::ingest::{LoadErrorKind, LoadOptions, Progress, load_bytes, load_file};
use framescope_core::ingest::{Signature, signature};
use framescope_core::model::{ColumnKind, Format};
use serde_json::Value;
use std::path::Path;

fn same(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Number(a), Value::Number(b)) => close(a.as_f64().unwrap(), b.as_f64().unwrap()),
        (Value::Object(a), Value::Object(b)) => b.iter().all(|(k, v)| a.get(k).is_some_and(|g| same(g, v))),
        (Value::Array(a), Value::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y)),
        _ => got == want,
    }
}

/// The CLI arguments a golden's mapping stands for (`column`: `frame-time=NAME`).
fn mapping_args(golden: &Value) -> Vec<String> {
    match golden["column"].as_str() {
        Some(spec) => {
            vec!["--column".into(), spec.into(), "--unit".into(), golden["unit"].as_str().unwrap().into()]
        }
        None => Vec::new(),
    }
}

fn goldens() -> Vec<(String, Value)> {
    let dir = repo_file("tests/golden/engine");
    let mut out: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .expect("tests/golden/engine")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .map(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap();
            (e.file_name().to_string_lossy().into_owned(), serde_json::from_str(&text).unwrap())
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(out.len(), 9, "one golden per engine/generic fixture");
    out
}

/// Every fixture: the format name, frames and every figure of the report equal the
/// oracle's; the skipped rows are the warnings (same lines).
#[test]
fn every_fixture_gives_the_oracles_figures() {
    for (name, golden) in goldens() {
        let file = repo_file(golden["file"].as_str().unwrap());
        let mut args = vec![file.display().to_string()];
        args.extend(mapping_args(&golden));
        let (code, doc) = report_json(&args);
        assert_eq!(code, 0, "{name}: {doc}");
        let run = &doc["runs"][0];
        for key in [
            "format",
            "frames",
            "dropped_frames",
            "duration_ms",
            "summary",
            "pacing",
            "stutters",
            "osc",
            "health",
        ] {
            assert!(
                same(&run[key], &golden[key]),
                "{name}: {key} = {}, oracle says {}",
                run[key],
                golden[key]
            );
        }
        let warned: Vec<u64> =
            run["warnings"].as_array().unwrap().iter().filter_map(|w| w["line"].as_u64()).collect();
        let skipped: Vec<u64> =
            golden["skipped_rows"].as_array().unwrap().iter().map(|r| r[0].as_u64().unwrap()).collect();
        assert_eq!(warned, skipped, "{name}: skipped rows");
    }
}

/// What the report does not show: the time axis, the events, the target and the
/// metadata, read through the library, equal the oracle's.
#[test]
fn time_axis_events_target_and_metadata_match_the_oracle() {
    for (name, golden) in goldens() {
        let file = repo_file(golden["file"].as_str().unwrap());
        let mapping = golden["column"].as_str().map(|spec| {
            let (role, column) = spec.split_once('=').unwrap();
            framescope_core::ingest::ColumnMapping {
                role: if role == "timestamp" {
                    framescope_core::ingest::MappedRole::Timestamp
                } else {
                    framescope_core::ingest::MappedRole::FrameTime
                },
                column: column.into(),
                unit: framescope_core::ingest::TimeUnit::parse(golden["unit"].as_str().unwrap()).unwrap(),
                extra: Vec::new(),
            }
        });
        let opts = LoadOptions { mapping, ..LoadOptions::default() };
        let c = load_file(&file, opts, &Progress::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let t = &c.traces[0];
        let want: Vec<f64> = golden["time_axis"]["frame_start_ms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(t.frames.start_ms.len(), want.len(), "{name}");
        for (k, (a, b)) in t.frames.start_ms.iter().zip(&want).enumerate() {
            assert!((a - b).abs() < 1e-9, "{name}: frame {k} starts at {a}, oracle says {b}");
        }
        assert_eq!(c.info.target_fps, golden["target_fps"].as_f64(), "{name}: target");
        let events: Vec<(usize, String)> =
            t.frames.events.iter().map(|e| (e.frame, e.label.clone())).collect();
        let want_events: Vec<(usize, String)> = golden["events"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|e| (e[0].as_u64().unwrap() as usize, e[1].as_str().unwrap().to_owned()))
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(events, want_events, "{name}: events");
        for e in &t.frames.events {
            assert!(
                (e.time_ms - t.frames.start_ms[e.frame]).abs() < 1e-12,
                "{name}: an event sits at its frame"
            );
        }
        if let Some(meta) = golden["metadata"].as_object().filter(|_| c.info.format == Format::UnrealCsv) {
            for (key, value) in meta {
                let got = c.info.system.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
                assert_eq!(got, value.as_str(), "{name}: metadata {key}");
            }
        }
        if let Some(stages) = golden.get("unity_stages_mean_ms") {
            for (column, key) in [
                ("Main thread (frame start → first submit)", "main_thread_ms"),
                ("Render submit (first submit → Present)", "render_submit_ms"),
                ("GPU (Present → frame complete)", "gpu_ms"),
            ] {
                let col = t.column_named(column).unwrap_or_else(|| panic!("{name}: no {column}"));
                assert_eq!(col.kind, ColumnKind::LatencyStage);
                let v: Vec<f64> = col.values.iter().filter(|v| v.is_finite()).collect();
                let mean = v.iter().sum::<f64>() / v.len() as f64;
                assert!(
                    close(mean, stages[key].as_f64().unwrap()),
                    "{name}: {key} {mean} vs {}",
                    stages[key]
                );
            }
        }
    }
}

fn load(name: &str, text: &str) -> framescope_core::model::Capture {
    load_bytes(Path::new(name), text.as_bytes(), LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The 5.x layout by hand: three frames of 10, 20 and 30 ms (T = 60 ms, 50 FPS); the
/// first row is shorter than the header (no GPUTime, no `Late`), its two events go to
/// frame 0, the row without a FrameTime hands its event to the next frame, the footer
/// repeats the header and gives the target and the platform, its command line quoted.
#[test]
fn unreal_5x_by_hand() {
    let text = "EVENTS,FrameTime,GameThreadTime,GPUTime,Late\n\
                A/x;B,10.0000,5.0000\n\
                ,20.0000,5.0000,5.0000\n\
                C,,5.0000,5.0000,1\n\
                ,30.0000,5.0000,6.0000,1\n\
                EVENTS,FrameTime,GameThreadTime,GPUTime,Late\n\
                [HasHeaderRowAtEnd],1,[PLATFORM],Windows,[targetFrameRate],30,[commandline],\"\"\"a.exe\"\" -x=\"\"1,2\"\"\"\n";
    let c = load("Profile(20240101_000000).csv", text);
    assert_eq!(c.info.format, Format::UnrealCsv);
    assert_eq!(c.info.format_version, "4.2x–5.x");
    assert_eq!(c.info.target_fps, Some(30.0));
    assert!(c.info.system.contains(&("platform".into(), "Windows".into())));
    let t = &c.traces[0];
    assert_eq!(t.frames.frame_time_ms, [10.0, 20.0, 30.0]);
    assert_eq!(t.frames.start_ms, [0.0, 10.0, 30.0]);
    let ev: Vec<(usize, &str)> = t.frames.events.iter().map(|e| (e.frame, e.label.as_str())).collect();
    assert_eq!(ev, [(0, "A/x"), (0, "B"), (2, "C")]);
    let gpu = t.column_named("GPUTime").unwrap();
    assert_eq!(gpu.kind, ColumnKind::EngineGpu);
    assert!(gpu.values.at(0).is_nan() && gpu.values.at(1) == 5.0 && gpu.values.at(2) == 6.0);
    assert_eq!(t.column_named("GameThreadTime").map(|c| c.kind), Some(ColumnKind::EngineThread));
    assert!(t.column_named("Late").is_some_and(|c| c.kind == ColumnKind::Telemetry));
    assert_eq!(t.warnings.len(), 1, "{:?}", t.warnings);
    assert_eq!(t.warnings[0].line, Some(4), "the row without a FrameTime");

    let dir = TempDir::new("unreal_5x_by_hand");
    let file = dir.file("Profile.csv", text.as_bytes());
    let (code, doc) = report_json([&file]);
    assert_eq!(code, 0);
    let run = &doc["runs"][0];
    assert_eq!(run["format"], "unreal-csv");
    assert_eq!(run["frames"], 3);
    assert!(close(run["duration_ms"].as_f64().unwrap(), 60.0));
    assert!(close(run["summary"]["avg_fps"].as_f64().unwrap(), 50.0), "3 frames in 60 ms");
    assert!(close(run["summary"]["p50_ms"].as_f64().unwrap(), 20.0));
    assert!(close(run["summary"]["min_fps"].as_f64().unwrap(), 1000.0 / 30.0));
    assert_eq!(run["health"]["actions"], serde_json::json!(["GameThreadTime", "GPUTime"]));
    assert!(run["dropped_frames"].is_null(), "no display data");
}

/// The case: a 6000-frame 4.19-layout capture (EVENTS last) was read as
/// PresentMon 2.1 with 7 frames. 6000 frames of 16.5 ms: 1000·6000/99000 = 60.606 FPS.
#[test]
fn a_long_4_19_capture_is_unreal_with_every_frame() {
    let mut text = String::from("FrameTime,GameThreadTime,RenderThreadTime,GPUTime,EVENTS\n");
    for i in 0..6000 {
        text.push_str("16.5000,8.0000,7.0000,12.0000,");
        text.push_str(if i == 100 { "LoadMap\n" } else { "\n" });
    }
    let dir = TempDir::new("long_4_19");
    let file = dir.file("Profile.csv", text.as_bytes());
    let (code, doc) = report_json([&file]);
    assert_eq!(code, 0);
    let run = &doc["runs"][0];
    assert_eq!(run["format"], "unreal-csv");
    assert_eq!(run["frames"], 6000);
    assert!(close(run["summary"]["avg_fps"].as_f64().unwrap(), 6_000_000.0 / 99_000.0));
    assert_eq!(run["warnings"].as_array().map(Vec::len), Some(0), "{}", run["warnings"]);
    let c = load_file(&file, LoadOptions::default(), &Progress::default()).unwrap();
    assert_eq!(c.traces[0].frames.events.len(), 1);
    assert!(close(c.traces[0].frames.events[0].time_ms, 1650.0), "frame 100 starts at 100 × 16.5 ms");
}

/// Unity recorder by hand at a 1 kHz timer: frames of 10 and 20 ms; the 0 ms row is
/// skipped; `gpuFrameTime` 0 is missing, a present wait of 0 is 0; stages from the
/// ticks (1 tick = 1 ms); the header line gives the target.
#[test]
fn unity_by_hand() {
    let text = "# framescope-unity 1,cpu_timer_frequency=1000,unity=6000.0.1f1,platform=X,device=D,target_fps=30,vsync=0\n\
                CPUFRAMETIME,gpuFrameTime,cpuMainThreadPresentWaitTime,frameStartTimestamp,firstSubmitTimestamp,cpuTimePresentCalled,cpuTimeFrameComplete\n\
                10,0,0,5000,5004,5006,5009\n\
                20,5,0,5010,5012,5011,5020\n\
                0,5,0,5030,5031,5032,5033\n";
    let c = load("u.csv", text);
    assert_eq!(c.info.format, Format::Unity);
    assert_eq!(c.info.target_fps, Some(30.0));
    let t = &c.traces[0];
    assert_eq!(t.frames.frame_time_ms, [10.0, 20.0]);
    assert_eq!(t.frames.start_ms, [0.0, 10.0]);
    let gpu = t.column_named("gpuFrameTime").unwrap();
    assert!(gpu.values.at(0).is_nan() && gpu.values.at(1) == 5.0);
    let wait = t.column_named("cpuMainThreadPresentWaitTime").unwrap();
    assert_eq!((wait.values.at(0), wait.values.at(1)), (0.0, 0.0));
    let main = t.column_named("Main thread (frame start → first submit)").unwrap();
    assert_eq!((main.values.at(0), main.values.at(1)), (4.0, 2.0));
    let submit = t.column_named("Render submit (first submit → Present)").unwrap();
    assert!(submit.values.at(0) == 2.0 && submit.values.at(1).is_nan(), "5011 is before 5012: missing");
    assert!(t.warnings.iter().any(|w| w.line == Some(5)), "{:?}", t.warnings);

    // Profiler counters in ns: 10 and 30 ms → 2 frames in 40 ms, 50 FPS.
    let c = load(
        "c.csv",
        "Frame,CPU Total Frame Time (ns),GPU Frame Time (ns)\n1,10000000,0\n2,30000000,7000000\n",
    );
    assert_eq!(c.info.format_version, "Profiler counters (ns)");
    assert_eq!(c.traces[0].frames.frame_time_ms, [10.0, 30.0]);
    let gpu = c.traces[0].column_named("GPU Frame Time (ns)").unwrap();
    assert!(gpu.values.at(0).is_nan() && (gpu.values.at(1) - 7.0).abs() < 1e-12);
}

/// Generic CSVs: timestamps in s with decimal commas (4 rows → 3 frames of 16, 16 and
/// 32 ms, starting at 0, 16 and 32 ms); a µs frame-time column; FRAPS' running clock.
#[test]
fn generic_by_hand() {
    let dir = TempDir::new("generic_by_hand");
    let semi = dir.file("s.csv", "t;x\n1,5;1\n1,516;2\n1,532;3\n1,564;4\n".as_bytes());
    let (code, doc) = report_json([
        semi.as_os_str(),
        "--column".as_ref(),
        "timestamp=t".as_ref(),
        "--unit".as_ref(),
        "s".as_ref(),
    ]);
    assert_eq!(code, 0, "{doc}");
    let run = &doc["runs"][0];
    assert_eq!(run["format"], "generic");
    assert_eq!(run["frames"], 3);
    assert!(close(run["duration_ms"].as_f64().unwrap(), 64.0));
    assert!(close(run["summary"]["avg_fps"].as_f64().unwrap(), 3000.0 / 64.0));
    assert!(close(run["summary"]["p50_ms"].as_f64().unwrap(), 16.0));
    // `x` is telemetry: the three frames' cells 2, 3, 4 (the first row only starts the clock).
    assert!(close(run["telemetry"]["x"]["mean"].as_f64().unwrap(), 3.0), "{}", run["telemetry"]);

    let us = dir.file("u.csv", b"a,B\n1,16000\n2,\n3,24000\n");
    let (code, doc) = report_json([
        us.as_os_str(),
        "--column".as_ref(),
        "frame-time=b".as_ref(),
        "--unit".as_ref(),
        "us".as_ref(),
    ]);
    assert_eq!(code, 0);
    let run = &doc["runs"][0];
    assert_eq!(run["frames"], 2, "the empty cell is skipped");
    assert!(close(run["summary"]["avg_fps"].as_f64().unwrap(), 2000.0 / 40.0));
    assert_eq!(run["warnings"][0]["line"], 3);

    let c = load("f.csv", "Frame, Time (ms)\n1, 0.0\n2, 10.0\n3, 25.0\n");
    assert_eq!(c.info.format, Format::Generic);
    assert_eq!(c.traces[0].frames.frame_time_ms, [10.0, 15.0]);
    assert_eq!(c.traces[0].frames.start_ms, [0.0, 10.0]);
}

/// An unknown CSV: exit 1, an error naming its columns and how to map them (the
/// window's *Map columns* step gets the columns and the first rows); a mapping that
/// names no column of the file names the columns; a mapping on a known format is
/// ignored with a warning.
#[test]
fn unknown_csvs_say_how_to_map_them() {
    let dir = TempDir::new("unknown_csv");
    let file = dir.file("engine.csv", b"tick,dt_ms,draw calls\n1,16.6,100\n2,16.8,101\n");
    let (code, doc) = report_json([&file]);
    assert_eq!(code, 1);
    let msg = doc["runs"][0]["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("'tick', 'dt_ms', 'draw calls'") && msg.contains("--column frame-time=NAME"),
        "{msg}"
    );
    let err = load_file(&file, LoadOptions::default(), &Progress::default()).unwrap_err();
    let LoadErrorKind::UnknownColumns(u) = &err.kind else { panic!("{err:?}") };
    assert_eq!(u.columns, ["tick", "dt_ms", "draw calls"]);
    assert_eq!(u.samples[1], ["16.6", "16.8"]);
    let guess = framescope_core::ingest::suggest(&u.columns, &u.samples, u.decimal_comma).unwrap();
    assert_eq!(guess.column, "dt_ms", "{guess:?}");

    let (code, doc) = report_json([file.as_os_str(), "--column".as_ref(), "frame-time=nope".as_ref()]);
    assert_eq!(code, 1);
    assert!(doc["runs"][0]["error"]["message"].as_str().unwrap().contains("no column named 'nope'"));
    let (code, doc) = report_json([file.as_os_str(), "--column".as_ref(), "frame-time=DT_MS".as_ref()]);
    assert_eq!(code, 0);
    assert!(close(doc["runs"][0]["duration_ms"].as_f64().unwrap(), 33.4));

    let pm = repo_file("sample-traces/synthetic-run-a.csv");
    let (code, doc) = report_json([pm.as_os_str(), "--column".as_ref(), "frame-time=x".as_ref()]);
    assert_eq!(code, 0);
    let run = &doc["runs"][0];
    assert_ne!(run["format"], "generic");
    assert!(run["warnings"].to_string().contains("--column frame-time=x is for CSVs of no known format"));
    // A first line of numbers is no header: nothing to map.
    let err = load_bytes(Path::new("n.csv"), b"16.6,1\n16.8,2\n", LoadOptions::default()).unwrap_err();
    assert!(
        matches!(err.kind, LoadErrorKind::NotACapture(_)) && err.to_string().contains("header row"),
        "{err}"
    );
    let bad = common::framescope(["report", "x.csv", "--column", "frametime"]);
    assert_eq!(bad.code, 2, "a --column without ROLE=NAME is a bad argument");
    assert!(bad.stderr.contains("frame-time=NAME"), "{}", bad.stderr);
}

/// Each new format against every reader: the engine headers have an engine
/// signature, the PresentMon-family layouts would have taken some of them (the bug),
/// and a PresentMon 2.1 header with FrameTime keeps its format. A header read with a
/// layout it does not fully fit says so.
#[test]
fn detection_never_guesses_silently() {
    let names = |s: &str| s.split(',').map(|n| n.trim().to_owned()).collect::<Vec<_>>();
    let cases = [
        ("unity-recorder-example.csv", "unity"),
        ("unity-profiler-counters-example.csv", "unity"),
        ("unreal-csvprofile-5x-example.csv", "unreal-csv"),
        ("unreal-csvprofile-4.19-example.csv", "unreal-csv"),
        ("generic-fraps-frametimes.csv", "generic"),
        ("generic-unity-profile-analyzer-frametimes.csv", "generic"),
        ("generic-vulkan-frame-time-layer.csv", "generic"),
    ];
    for (file, format) in cases {
        let text = std::fs::read_to_string(repo_file(&format!("sample-traces/{file}"))).unwrap();
        let header = text.lines().find(|l| !l.starts_with('#')).unwrap();
        assert_ne!(signature(&names(header), b','), Signature::Other, "{file}");
        // The PresentMon-family layouts: an Unreal header has FrameTime, so they would
        // take it for PresentMon 2.1 (the old bug); the signature is checked first.
        let presentmon = framescope_core::ingest::detect(&names(header), &[]);
        assert_eq!(
            presentmon.is_ok(),
            file.starts_with("unreal"),
            "{file}: {:?}",
            presentmon.map(|l| l.format)
        );
        let c = load_file(
            &repo_file(&format!("sample-traces/{file}")),
            LoadOptions::default(),
            &Progress::default(),
        )
        .unwrap();
        assert_eq!(c.info.format.name(), format, "{file}");
        assert!(
            c.warnings.is_empty() && c.traces[0].warnings.is_empty(),
            "{file}: {:?}",
            c.traces[0].warnings
        );
    }
    let pm21 = "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,FrameType,CPUStartQPC,FrameTime,CPUBusy,CPUWait,DisplayLatency,DisplayedTime";
    assert_eq!(signature(&names(pm21), b','), Signature::Other);
    let c = load(
        "pm.csv",
        &format!(
            "{pm21}\ngame.exe,1,0x1,DXGI,1,0,0,Hardware: Independent Flip,Application,100,16.6,8,8.6,20,16.6\n"
        ),
    );
    assert_eq!(c.info.format, Format::PresentMon21);
    // PresentMon's identity columns win over an engine column name.
    assert_eq!(
        signature(&names("Application,ProcessID,cpuFrameTime,MsBetweenPresents"), b','),
        Signature::Other
    );
    // A FrameTime column among PresentMon's own names only: read as PresentMon 2.1,
    // with a warning that it does not fit.
    let c = load("ft.csv", "FrameTime,CPUBusy\n16.6,1\n16.8,2\n");
    assert_eq!(c.info.format, Format::PresentMon21);
    assert!(
        c.warnings.iter().any(|w| w.message.contains("lacks Application and ProcessID")),
        "{:?}",
        c.warnings
    );
    // With a column no PresentMon-family writer has, it is another tool's log: a CSV
    // of no known format (the window's Map columns step), whose error names --column.
    let e = load_bytes(
        Path::new("ft.csv"),
        b"frame,frametime,gpu_us\n1,16600,9000\n2,16700,9000\n",
        LoadOptions::default(),
    )
    .err()
    .map(|e| e.to_string())
    .unwrap_or_default();
    assert!(e.contains("'frame', 'frametime', 'gpu_us'") && e.contains("--column frame-time=NAME"), "{e}");
    // A mapping the user gives overrides an incomplete PresentMon fit.
    let opts = LoadOptions {
        mapping: Some(framescope_core::ingest::ColumnMapping::new(
            framescope_core::ingest::MappedRole::FrameTime,
            "FrameTime",
            framescope_core::ingest::TimeUnit::Micros,
        )),
        ..LoadOptions::default()
    };
    let c = load_bytes(Path::new("ft.csv"), b"FrameTime,CPUBusy\n16600,1\n16800,2\n", opts)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.info.format, Format::Generic);
    assert_eq!(c.traces[0].frames.frame_time_ms, [16.6, 16.8]);
    // An Unreal header whose EVENTS comes first but has no thread times says so.
    let c = load("ue.csv", "EVENTS,FrameTime,Foo\n,16.0,1\n,17.0,2\n");
    assert_eq!(c.info.format, Format::UnrealCsv);
    let w: Vec<&str> = c.traces[0].warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(w.iter().any(|m| m.contains("no health actions")), "{w:?}");
    assert!(w.iter().any(|m| m.contains("no [HasHeaderRowAtEnd] footer")), "{w:?}");
}

/// Every real capture keeps its reader: none has an engine signature.
#[test]
fn no_real_capture_has_an_engine_signature() {
    let Some(dir) = common::real_traces() else { return };
    let mut seen = 0;
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "csv") {
                let bytes = std::fs::read(&p).unwrap();
                let text = String::from_utf8_lossy(&bytes[..bytes.len().min(1 << 16)]).into_owned();
                let header =
                    text.trim_start_matches('\u{feff}').lines().find(|l| !l.trim().is_empty()).unwrap_or("");
                let names: Vec<String> = header.split(',').map(|n| n.trim().to_owned()).collect();
                assert_eq!(signature(&names, b','), Signature::Other, "{}", p.display());
                seen += 1;
            }
        }
    }
    assert!(seen >= 30, "only {seen} real CSVs");
}
