//! Issue 20, the data and command-line half: CapFrameX JSON sensors as telemetry, the
//! compare noise band (`metrics.md` §9) and `max_fps` without a verdict, system
//! information per run (`system`) in the report and the comparison.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::{close, framescope, real_traces, report_json, temp_file};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::PathBuf;

const PM1_HEADER: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed\n";

/// A PresentMon 1.x capture of 200 frames of `ft(i)` ms, all displayed.
fn capture(name: &str, ft: impl Fn(usize) -> f64) -> PathBuf {
    let mut text = PM1_HEADER.to_owned();
    let mut t = 0.0;
    for i in 0..200 {
        let f = ft(i);
        t += f / 1000.0;
        writeln!(text, "game.exe,42,0x1,DXGI,0,0,0,Hardware: Independent Flip,0,{t:.6},{f},{f},0.5,2.0,5")
            .unwrap();
    }
    temp_file(name, &text)
}

/// A: 200 frames of 10 ms (100 FPS). B: 199 frames of 10.05 ms and one of 5 ms.
/// B's average FPS is 1000 · 200 / (199 · 10.05 + 5) = 200 000 / 2004.95 = 99.7531,
/// −0.247 % against 100: inside the default ±1 % band, so noise (`better` null), but
/// worse with a 0.1 % band. Its max FPS is 1000 / 5 = 200 against 100 (+100 %), which
/// never gets a verdict. p50 10 → 10.05 ms (+0.5 %) is noise too.
fn noise_pair() -> (PathBuf, PathBuf) {
    let a = capture("i20_noise_a.csv", |_| 10.0);
    let b = capture("i20_noise_b.csv", |i| if i == 100 { 5.0 } else { 10.05 });
    (a, b)
}

fn compare(args: &[&str]) -> (i32, String, String) {
    let run = framescope(std::iter::once("compare").chain(args.iter().copied()));
    (run.code, run.stdout, run.stderr)
}

fn compare_doc(args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let (code, out, err) = compare(&all);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("compare JSON")
}

#[test]
fn a_change_inside_the_noise_band_has_no_verdict() {
    let (a, b) = noise_pair();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let doc = compare_doc(&[a, b]);
    assert_eq!(doc["noise_band"].as_f64(), Some(0.01), "the band used is echoed");
    let avg = &doc["comparison"]["summary"]["avg_fps"];
    assert!(close(avg["other"].as_f64().unwrap(), 200_000.0 / 2004.95), "{avg}");
    assert!(close(avg["relative"].as_f64().unwrap(), 200_000.0 / 2004.95 / 100.0 - 1.0), "{avg}");
    assert!(avg["better"].is_null(), "−0.25 % is inside ±1 %: {avg}");
    let p50 = &doc["comparison"]["summary"]["p50_ms"];
    assert!(close(p50["delta"].as_f64().unwrap(), 0.05) && p50["better"].is_null(), "{p50}");
    let max = &doc["comparison"]["summary"]["max_fps"];
    assert!(close(max["other"].as_f64().unwrap(), 200.0) && max["better"].is_null(), "{max}");
    // A narrower band: the same −0.25 % is worse; max_fps still has no verdict.
    let narrow = compare_doc(&["--noise-band", "0.1%", a, b]);
    assert_eq!(narrow["comparison"]["summary"]["avg_fps"]["better"], Value::Bool(false));
    assert!(narrow["comparison"]["summary"]["max_fps"]["better"].is_null());
    assert!(
        narrow["comparison"]["capframex"]["max_fps"].is_null() || {
            narrow["comparison"]["capframex"]["max_fps"]["better"].is_null()
        }
    );
    // The band 0 judges every change, as before the band existed.
    let zero = compare_doc(&["--noise-band", "0", a, b]);
    assert_eq!(zero["comparison"]["summary"]["p50_ms"]["better"], Value::Bool(false));
}

/// The table's verdict column says what the JSON says: "noise" inside the band,
/// nothing for max_fps, "worse" with a narrower band.
#[test]
fn the_table_shows_noise_as_the_window_does() {
    let (a, b) = noise_pair();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let line = |out: &str, figure: &str| {
        out.lines().find(|l| l.trim_start().starts_with(figure)).map_or("", str::trim_end).to_owned()
    };
    let (code, out, err) = compare(&[a, b]);
    assert_eq!(code, 0, "{err}");
    assert!(line(&out, "summary.avg_fps").ends_with("noise"), "{out}");
    assert!(line(&out, "summary.max_fps").ends_with('%'), "no verdict: {out}");
    let (_, narrow, _) = compare(&["--noise-band", "0.001", a, b]);
    assert!(line(&narrow, "summary.avg_fps").ends_with("worse"), "{narrow}");
    let (code, _, err) = compare(&["--noise-band", "2", a, b]);
    assert_eq!(code, 2, "a band over 100 % is a bad argument: {err}");
    let (_, help, _) = compare(&["--help"]);
    assert!(help.contains("--noise-band") && help.contains("max_fps"), "{help}");
}

/// The gate keeps its own limits: a −0.25 % average FPS is noise for the table but
/// fails a 0.1 % gate, and passes a 1 % one.
#[test]
fn the_gate_ignores_the_noise_band() {
    let (a, b) = noise_pair();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let (code, _, err) = compare(&["--fail-if-worse", "avg_fps=0.1%", a, b]);
    assert_eq!(code, 3, "{err}");
    let (code, _, err) = compare(&["--fail-if-worse", "avg_fps=1%", a, b]);
    assert_eq!(code, 0, "{err}");
}

const CX_REL: &str = "capframex/CapFrameX-Judgment.exe-2022-12-14T163430.json";

/// The real CapFrameX capture's 12 sensors (`SensorData2` holds 14 entries: 12 sensors
/// and its two time arrays, `MeasureTime` and `BetweenMeasureTime`). Each frame takes the
/// sample at or after its present; every one of the 441 samples covers a frame, so min
/// and max are the JSON's own: GPU Power 125.934… – 152.850… W, GPU Core Temperature
/// 56 – 61 °C. The per-frame mean of GPU Core Temperature, 59.4176, worked with Python
/// from the file's arrays (first `MeasureTime` ≥ `TimeInSeconds`, frames after the last
/// sample at 114.631 s left out), is near the samples' own mean, 59.4150.
#[test]
fn capframex_sensors_are_telemetry() {
    let Some(dir) = real_traces() else { return };
    let (code, doc) = report_json([dir.join(CX_REL)]);
    assert_eq!(code, 0);
    let t = &doc["runs"][0]["telemetry"];
    assert_eq!(t.as_object().map(serde_json::Map::len), Some(12), "{t}");
    let power = &t["GPU Power"];
    assert!((power["min"].as_f64().unwrap() - 125.934_005_737_304_69).abs() < 1e-9, "{power}");
    assert!((power["max"].as_f64().unwrap() - 152.850_006_103_515_62).abs() < 1e-9, "{power}");
    let temp = &t["GPU Core Temperature"];
    assert_eq!((temp["min"].as_f64(), temp["max"].as_f64()), (Some(56.0), Some(61.0)));
    assert!((temp["mean"].as_f64().unwrap() - 59.417_572_729_944_17).abs() < 1e-9, "{temp}");
    for name in ["GPU Core Clock", "GPU Core Load", "CPU Package Power", "CPU Total Load", "Used Memory Game"]
    {
        assert!(t[name].is_object(), "{name}: {t}");
    }
}

/// `system` on the real captures, as each file states it: CapFrameX JSON's `Info`,
/// OCAT's system columns, FrameView's GPU/CPU columns, MangoHud's header line,
/// Afterburner's GPU line, the CapFrameX CSV's `//Key=Value` lines; `{}` for a log that
/// states nothing (NVIDIA App).
#[test]
fn system_per_format_on_real_captures() {
    let Some(dir) = real_traces() else { return };
    let cases: &[(&str, &[(&str, &str)])] = &[
        (
            CX_REL,
            &[
                ("GPU", "NVIDIA GeForce GTX 1070"),
                ("Processor", "Intel Core i5-10400"),
                ("GPUDriverVersion", "526.86"),
                ("Comment", "1440p ultra fsr2q"),
            ],
        ),
        (
            "ocat/OCAT-MetroExodus.exe-2019-02-20T101522.csv",
            &[
                ("GPU", "GeForce RTX 2080 Ti"),
                ("Processor", "Intel(R) Core(TM) i9-9900K CPU @ 3.60GHz"),
                ("Driver Package", "r418_77"),
            ],
        ),
        (
            "frameview/FrameView_AlanWake2_DLSSQuality_run1_2024_04_16T234455_Log.csv",
            &[("GPU", "NVIDIA GeForce RTX 4060 Ti"), ("CPU", "12th Gen Intel(R) Core(TM) i7-12700")],
        ),
        (
            "mangohud/mangohud-0.6.0-0.6.1_glxgears_2021-06-03_21-32-02.csv",
            &[("os", "Manjaro Linux"), ("gpu", "AMD/ATI"), ("driver", "4.6 Mesa 21.0.3")],
        ),
        ("msi-afterburner/HardwareMonitoring.hml", &[("GPU", "NVIDIA GeForce RTX 2070 SUPER")]),
        (
            "capframex/capframex-legacy-csv_ResidentEvil2_with_header.csv",
            &[("GPU", "NVIDIA GeForce RTX 2080 Ti"), ("Comment", "Test")],
        ),
    ];
    for (rel, want) in cases {
        let (code, doc) = report_json([dir.join(rel)]);
        assert_eq!(code, 0, "{rel}");
        let system = &doc["runs"][0]["system"];
        for (k, v) in *want {
            assert_eq!(system[k].as_str(), Some(*v), "{rel}: {k} in {system}");
        }
    }
    let (_, doc) = report_json([dir.join("nvidia-app/MarvelRivals_NoDLSS_High_run2.csv")]);
    assert_eq!(doc["runs"][0]["system"], serde_json::json!({}));
}

/// The readable table lists the system, and `compare` puts two runs' side by side,
/// marking what differs (the GPU) with ≠.
#[test]
fn system_in_the_table_and_side_by_side() {
    let Some(dir) = real_traces() else { return };
    let cx = dir.join(CX_REL);
    let ocat = dir.join("ocat/OCAT-MetroExodus.exe-2019-02-20T101522.csv");
    let run = framescope([std::ffi::OsStr::new("report"), cx.as_os_str()]);
    let line = run.stdout.lines().find(|l| l.trim_start().starts_with("system:")).unwrap_or("");
    assert!(
        line.contains("GPU: NVIDIA GeForce GTX 1070") && line.contains("Comment: 1440p ultra fsr2q"),
        "{}",
        run.stdout
    );
    let run = framescope([std::ffi::OsStr::new("compare"), cx.as_os_str(), ocat.as_os_str()]);
    let gpu = run.stdout.lines().find(|l| l.trim_start().starts_with("GPU ")).unwrap_or("");
    assert!(gpu.contains("NVIDIA GeForce GTX 1070 ≠ GeForce RTX 2080 Ti"), "{}", run.stdout);
    let os = run.stdout.lines().find(|l| l.trim_start().starts_with("OS ")).unwrap_or("");
    assert!(os.contains("Microsoft Windows 10 Home Build 19045 ≠ Windows 10 Pro"), "{}", run.stdout);
    let hags = run.stdout.lines().find(|l| l.trim_start().starts_with("HAGS ")).unwrap_or("");
    assert!(hags.ends_with("Disabled | —"), "only the baseline states it: {hags}");
    // CapFrameX's `SystemRam` and OCAT's `System RAM` are one fact.
    let ram = run.stdout.lines().find(|l| l.trim_start().starts_with("SystemRam ")).unwrap_or("");
    assert!(ram.ends_with("16GB (2x8GB) 2666MT/s ≠ 32 GB DDR4 3200 MT/s"), "{ram}");
}
