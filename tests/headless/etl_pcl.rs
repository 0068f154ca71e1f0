//! PCL Stats markers from hand-built .etl files (tests/common/etl_writer.rs) give
//! exactly the figures of the same markers written as a marker CSV, in several session
//! shapes: one and several CPUs, every flush order, clocks other than 10 MHz,
//! compressed buffers, v1, v2 and legacy event names. etl-parser reads the
//! uncompressed ones the same way.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::etl_writer::{self, Event, Flush, Kind, Session};
use common::mangle::XorShift;
use common::{TempDir, close, report_json};
use framescope_core::analysis::PclLatency;
use framescope_core::ingest::load_marker_log;
use framescope_core::ingest::{LoadOptions, Progress, load_file};
use framescope_core::model::MarkerLog;
use std::fmt::Write as _;
use std::path::Path;

/// The capture of tests/headless/pcl_cli.rs: frames 100 (dropped) … 103, MsUntilDisplayed 8, 6, 7.
const CAPTURE: &str = "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,TimeInMs,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilDisplayed,MsPCLatency,PCLFrameId
game.exe,10,0x1,DXGI,0,0,0,Composed: Flip,10.0,10.0,NA,0.5,NA,NA,100
game.exe,10,0x1,DXGI,0,0,0,Composed: Flip,20.0,10.0,20.0,0.5,8.0,30.0,101
game.exe,10,0x1,DXGI,0,0,0,Composed: Flip,30.0,10.0,10.0,0.5,6.0,32.0,102
game.exe,10,0x1,DXGI,0,0,0,Composed: Flip,40.0,10.0,10.0,0.5,7.0,NA,103
";

/// (ms, kind) of tests/headless/pcl_cli.rs's markers: input A at 1 ms is tagged on dropped frame
/// 100, so I2FS runs to frame 101's start: 12 − 1 = 11 ms; input B at 20 ms is tagged on
/// frame 102: 22 − 20 = 2 ms; mean I2FS 6.5 ms. FS2P = 3 ms on every displayed frame.
/// P2D = (8 + 6 + 7) / 3 = 7 ms (from the capture). PCL = 6.5 + 3 + 7 = 16.5 ms.
fn hand_markers() -> Vec<(u64, Option<(u32, u64)>)> {
    let mut v = vec![(1, None), (20, None)];
    for (k, frame) in (100..=103).enumerate() {
        let start = 2 + 10 * k as u64;
        v.push((start, Some((0, frame))));
        v.push((start + 3, Some((4, frame))));
    }
    v.push((2, Some((8, 100))));
    v.push((22, Some((8, 102))));
    v
}

#[test]
fn a_hand_built_etl_gives_the_figures_worked_by_hand() {
    let dir = TempDir::new("etl_hand");
    let capture = dir.file("capture.csv", CAPTURE.as_bytes());
    // A 3 MHz clock on two CPUs: 1 ms = 3000 ticks; events alternate CPUs, buffers of
    // 3 events flushed CPU 1 first.
    let s = Session { freq: 3_000_000, cpus: 2, per_buffer: 3, flush: Flush::Reversed, ..Session::default() };
    let events: Vec<Event> = hand_markers()
        .into_iter()
        .enumerate()
        .map(|(i, (ms, m))| Event {
            ticks: 1_000_000 + ms * 3000,
            cpu: (i % 2) as u16,
            pid: 10,
            kind: m.map_or(Kind::Input, |(marker, frame)| Kind::Marker { marker, frame }),
        })
        .collect();
    let etl = dir.file("session.etl", &etl_writer::write(&s, &events));
    let (code, doc) = report_json([capture.as_os_str(), "--pcl".as_ref(), etl.as_os_str()]);
    assert_eq!(code, 0, "{doc}");
    let lat = &doc["runs"][0]["latency"];
    let f = |k: &str| lat[k].as_f64().unwrap_or(f64::NAN);
    assert!(close(f("i2fs_ms"), 6.5), "{lat}");
    assert!(close(f("fs2p_ms"), 3.0), "{lat}");
    assert!(close(f("p2d_ms"), 7.0), "{lat}");
    assert!(close(f("pcl_ms"), 16.5), "{lat}");
    // The same file alone: what it holds and the breakdown without P2D.
    let (code, doc) = report_json([etl.as_os_str()]);
    assert_eq!(code, 0, "{doc}");
    let run = &doc["runs"][0];
    assert_eq!(run["format"], "etl");
    assert_eq!(run["etl"]["clock_hz"], 3_000_000.0);
    assert_eq!(run["etl"]["records_by_kind"], serde_json::json!({ "system": 1, "event": 12 }));
    assert_eq!(run["etl"]["pcl"]["markers"], 10);
    assert_eq!(run["etl"]["pcl"]["inputs"], 2);
    let pcl = &run["pcl"];
    // Without a capture every frame counts as displayed: input A's ping is on frame 100,
    // so its I2FS is 2 − 1 = 1 ms; B's is 2 ms: mean 1.5 ms.
    assert!(close(pcl["i2fs_ms"].as_f64().unwrap(), 1.5), "{pcl}");
    assert!(close(pcl["fs2p_ms"].as_f64().unwrap(), 3.0), "{pcl}");
    assert!(pcl["p2d_ms"].is_null() && pcl["pcl_ms"].is_null());
    assert_eq!(pcl["per_frame"].as_array().map(Vec::len), Some(4));
    assert_eq!(pcl["per_frame"][0]["frame_id"], 100);
    // Span: first event at 1 ms, last at 35 ms → 34 ms.
    assert!(close(run["etl"]["span_ms"].as_f64().unwrap(), 34.0), "{}", run["etl"]);
}

/// The synthetic sample's markers (ns) as (ticks at `freq`, kind).
fn sample_markers(freq: u64) -> Vec<(u64, Option<(u32, u64)>)> {
    let text = std::fs::read_to_string(common::repo_file("sample-traces/synthetic-pcl-markers.csv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let ns: u64 = f[0].parse().unwrap();
            let ticks = (u128::from(ns) * u128::from(freq) / 1_000_000_000) as u64;
            let m = (f[1] == "PCLStatsEvent").then(|| (f[2].parse().unwrap(), f[3].parse().unwrap()));
            (ticks, m)
        })
        .collect()
}

fn figures(log_path: &Path, freq: u64, trace: &framescope_core::model::Trace) -> (MarkerLog, PclLatency) {
    let log = load_marker_log(log_path, freq as f64).unwrap_or_else(|e| panic!("{e}"));
    let pcl = PclLatency::of(&log, trace);
    (log, pcl)
}

#[test]
fn every_session_shape_gives_exactly_the_csvs_figures() {
    let dir = TempDir::new("etl_shapes");
    let capture = load_file(
        &common::repo_file("sample-traces/synthetic-pcl-capture.csv"),
        LoadOptions::default(),
        &Progress::default(),
    )
    .unwrap();
    let trace = &capture.traces[0];
    let shapes = [
        (10_000_000, 1, Flush::ByCpu, false, 0),
        (3_579_545, 4, Flush::Interleaved, false, 1),
        (24_000_000, 8, Flush::Reversed, false, 2),
        (2_343_750, 3, Flush::ByCpu, true, 0),
        (10_000_000, 2, Flush::Reversed, true, 1),
    ];
    let mut rng = XorShift::new(7);
    for (k, (freq, cpus, flush, compressed, names)) in shapes.into_iter().enumerate() {
        let markers = sample_markers(freq);
        // The same markers as a CSV in QPC ticks (read with --qpc-frequency freq)…
        let mut csv = String::from("qpc,event,marker_id,frame_id\n");
        for (t, m) in &markers {
            match m {
                Some((id, frame)) => writeln!(csv, "{t},PCLStatsEvent,{id},{frame}").unwrap(),
                None => writeln!(csv, "{t},PCLStatsInput,,").unwrap(),
            }
        }
        // …and as an .etl, each event on a random CPU, with v1, v2 or legacy names.
        let events: Vec<Event> = markers
            .iter()
            .map(|&(ticks, m)| Event {
                ticks,
                cpu: rng.below(cpus) as u16,
                pid: 4242,
                kind: match (m, names) {
                    (None, _) => Kind::Input,
                    (Some((marker, frame)), 0) => Kind::Marker { marker, frame },
                    (Some((marker, frame)), 1) => Kind::MarkerV2 { marker, frame, flags: 0 },
                    (Some((marker, frame)), _) => Kind::ReflexMarker { marker, frame },
                },
            })
            .chain([Event { ticks: 1, cpu: 0, pid: 4242, kind: Kind::Init }])
            .collect();
        let s = Session { freq, cpus: cpus as u16, per_buffer: 50, flush, compressed, ..Session::default() };
        let etl = dir.file(&format!("shape{k}.etl"), &etl_writer::write(&s, &events));
        let csv = dir.file(&format!("shape{k}.csv"), csv.as_bytes());
        let ((csv_log, a), (etl_log, b)) = (figures(&csv, freq, trace), figures(&etl, freq, trace));
        // Merged across CPUs and buffers, the markers come back in time order, as the CSV
        // lists them (markers of one time may swap: they were on different CPUs).
        let key = |m: &framescope_core::model::Marker| (m.time_ms.to_bits(), m.marker, m.frame_id);
        assert!(etl_log.markers.windows(2).all(|w| w[0].time_ms <= w[1].time_ms), "shape {k}: time order");
        let (mut x, mut y) = (csv_log.markers.clone(), etl_log.markers.clone());
        x.sort_by_key(key);
        y.sort_by_key(key);
        assert!(x == y, "shape {k}: the .etl's markers differ from the CSV's");
        assert_eq!(csv_log.inputs_ms, etl_log.inputs_ms, "shape {k}");
        assert!(etl_log.warnings.is_empty(), "shape {k}: {:?}", etl_log.warnings);
        let what = format!("shape {k}: {freq} Hz, {cpus} CPUs, {flush:?}, compressed {compressed}");
        assert!(a.fs2p_mean_ms.is_some() && a.i2fs_mean_ms.is_some() && a.p2d_mean_ms.is_some(), "{what}");
        assert_eq!(
            (a.i2fs_mean_ms, a.fs2p_mean_ms, a.p2d_mean_ms, a.pcl_ms),
            (b.i2fs_mean_ms, b.fs2p_mean_ms, b.p2d_mean_ms, b.pcl_ms),
            "{what}"
        );
        assert_eq!(a.frames, b.frames, "{what}: per-frame breakdown");
        assert_eq!(a.i2fs_ms, b.i2fs_ms, "{what}");
    }
}

/// etl-parser reads the writer's uncompressed files as this reader does: the header
/// record, one event record per event, and the same TraceLogging names and fields.
#[test]
fn etl_parser_reads_the_hand_built_files() {
    let Some(python) = common::etl_parser::etl_parser_python() else { return };
    let dir = TempDir::new("etl_parser_check");
    let kinds = [
        Kind::Init,
        Kind::Marker { marker: 0, frame: 7 },
        Kind::MarkerV2 { marker: 4, frame: 7, flags: 1 },
        Kind::ReflexMarker { marker: 8, frame: 9 },
        Kind::Input,
        Kind::Shutdown,
    ];
    let events: Vec<Event> = (0..60)
        .map(|i| Event {
            ticks: 1000 + i * 7,
            cpu: (i % 4) as u16,
            pid: 5,
            kind: kinds[i as usize % kinds.len()],
        })
        .collect();
    let s =
        Session { cpus: 4, per_buffer: 4, flush: Flush::Interleaved, freq: 3_579_545, ..Session::default() };
    let path = dir.file("check.etl", &etl_writer::write(&s, &events));
    let doc = common::etl_parser::run_etl_counts(&python, std::slice::from_ref(&path));
    let t = &doc[path.to_string_lossy().as_ref()];
    assert_eq!(t["ok"], true, "{t}");
    assert_eq!(t["kinds"], serde_json::json!({ "system": 1, "event": 60 }));
    let pcl = "{0D216F06-82A6-4D49-BC4F-8F38AE56EFAB}";
    assert_eq!(t["providers"], serde_json::json!({ "group:0": 1, pcl: 60 }));
    let mut names: Vec<String> = t["tracelogging"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| format!("{} {}", e["name"], e["fields"]))
        .collect();
    names.sort();
    names.dedup();
    assert_eq!(
        names,
        [
            r#""PCLStatsEvent" {"FrameID":7,"Marker":0}"#,
            r#""PCLStatsEventV2" {"Flags":1,"FrameID":7,"Marker":4}"#,
            r#""PCLStatsInit" {}"#,
            r#""PCLStatsInput" {"MsgId":49374}"#,
            r#""PCLStatsShutdown" {}"#,
            r#""ReflexStatsEvent" {"FrameID":9,"Marker":8}"#,
        ]
    );
    // This reader: 10 of each kind; markers of all three names; 10 inputs.
    let log = load_marker_log(&path, 1e7).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((log.markers.len(), log.inputs_ms.as_ref().map(Vec::len)), (30, Some(10)));
}

/// `framescope report` on an .etl without markers, a damaged one, and `--pcl` with them.
#[test]
fn report_says_what_an_etl_without_markers_or_damaged_holds() {
    let dir = TempDir::new("etl_report_cli");
    let capture = dir.file("capture.csv", CAPTURE.as_bytes());
    let events = [
        Event { ticks: 100, cpu: 0, pid: 3, kind: Kind::Init },
        Event { ticks: 900, cpu: 1, pid: 3, kind: Kind::Shutdown },
    ];
    let s = Session { cpus: 2, ..Session::default() };
    let quiet = dir.file("quiet.etl", &etl_writer::write(&s, &events));
    let (code, doc) = report_json([quiet.as_os_str()]);
    assert_eq!(code, 0, "{doc}");
    let run = &doc["runs"][0];
    assert!(run["pcl"].is_null(), "{run}");
    assert_eq!(run["etl"]["pcl"]["init"], 1);
    assert_eq!(run["etl"]["pcl"]["markers"], 0);
    let table = common::framescope(["report".as_ref(), quiet.as_os_str()]);
    assert!(table.stdout.contains("PCL Stats: events, but no markers"), "{}", table.stdout);
    // --pcl with it: the capture is reported, the marker log is an error naming the file.
    let run =
        common::framescope(["report".as_ref(), capture.as_os_str(), "--pcl".as_ref(), quiet.as_os_str()]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("quiet.etl") && run.stderr.contains("no PCL Stats markers"),
        "{}",
        run.stderr
    );
    // A file cut inside its last buffer: read, with a warning naming the byte; --strict fails.
    let mut bytes = etl_writer::write(&s, &events);
    bytes.truncate(bytes.len() - 1000);
    let cut = dir.file("cut.etl", &bytes);
    let (code, doc) = report_json([cut.as_os_str()]);
    assert_eq!(code, 0, "{doc}");
    let warning = doc["runs"][0]["warnings"][0]["message"].as_str().unwrap_or_default().to_owned();
    assert!(warning.starts_with("byte 131072: the file ends inside a buffer"), "{warning}");
    let strict = common::framescope(["report".as_ref(), "--strict".as_ref(), cut.as_os_str()]);
    assert_eq!(strict.code, 1, "{}", strict.stderr);
    // An .etl given as a capture to compare: refused with what to do instead.
    let run = common::framescope(["compare".as_ref(), capture.as_os_str(), quiet.as_os_str()]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("an ETW trace (.etl), not a frame capture"), "{}", run.stderr);
}
