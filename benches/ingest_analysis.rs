//! `cargo bench`: prints how long parsing and analysis take on synthetic captures of
//! 100k and 1M frames (PresentMon 2.4 layout with 32 columns), then what one slider
//! move costs on a 10M-frame trace (issue 10: re-flag without re-sorting). Figures,
//! not a test: the analysis of a trace should take well under the time it takes to
//! parse it.
//!
//! `SLIDER_FRAMES=1000000` picks the size of the slider measurement.

use framescope_core::analysis::{
    Conventions, FrameTimeSource, FrameTypes, Prepared, Settings, SlowTimeCurve, Vsync,
};
use framescope_core::ingest::{LoadOptions, load_bytes};
use framescope_core::model::{Capture, Column, ColumnKind, FileInfo, Format, Frames, Trace, TraceMeta};
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

const HEADER: &str = "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,FrameType,TimeInQPC,MsBetweenSimulationStart,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,MsPCLatency,CPUStartQPC,MsBetweenAppStart,MsCPUBusy,MsCPUWait,MsGPULatency,MsGPUTime,MsGPUBusy,MsGPUWait,MsVideoBusy,MsAnimationError,AnimationTime,MsFlipDelay,MsAllInputToPhotonLatency,MsClickToPhotonLatency,MsInstrumentedLatency";

/// A deterministic capture: frame times around 7 ms with a spike every 997 frames and
/// a dropped frame every 13.
fn synthetic_capture(frames: usize) -> Vec<u8> {
    let mut out = String::with_capacity(frames * 260);
    out.push_str(HEADER);
    out.push('\n');
    let mut qpc: u64 = 1_000_000_000;
    let mut x: u32 = 12345;
    for i in 0..frames {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let jitter = f64::from(x % 1000) / 1000.0;
        let ft = if i % 997 == 0 { 40.0 + jitter } else { 6.5 + jitter };
        qpc += (ft * 10_000.0) as u64;
        let dropped = i % 13 == 0;
        let display = if dropped { "NA".to_owned() } else { format!("{ft:.4}") };
        let until = if dropped { "NA".to_owned() } else { format!("{:.4}", 9.0 + jitter) };
        let _ = writeln!(
            out,
            "game.exe,4242,0x1F741139B80,DXGI,0,512,1,Hardware: Independent Flip,Application,{qpc},NA,{ft:.4},{display},0.8000,1.2000,{until},NA,{},{ft:.4},{:.4},{:.4},1.0000,{:.4},{:.4},0.1000,0.0000,NA,NA,NA,NA,NA,NA",
            qpc - 20_000,
            ft - 1.0,
            1.0,
            ft - 2.0,
            ft - 2.1
        );
    }
    out.into_bytes()
}

fn main() {
    println!(
        "{:>10} {:>10} {:>12} {:>14} {:>12} {:>12}",
        "frames", "MiB", "parse ms", "parse MiB/s", "prepare ms", "figures ms"
    );
    for frames in [100_000, 1_000_000] {
        let bytes = synthetic_capture(frames);
        let mib = bytes.len() as f64 / (1024.0 * 1024.0);
        let t0 = Instant::now();
        let capture = match load_bytes(Path::new("synthetic.csv"), &bytes, LoadOptions::default()) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("synthetic capture failed to load: {e}");
                std::process::exit(1);
            }
        };
        let parse = t0.elapsed();
        let trace = &capture.traces[0];
        let t1 = Instant::now();
        let prepared = Prepared::new(trace, FrameTimeSource::Presents);
        let prepare = t1.elapsed();
        let t2 = Instant::now();
        let figures = prepared.figures(&Settings::default());
        let figure_time = t2.elapsed();
        let stutters = figures.stutters.map_or(0, |s| s.count);
        println!(
            "{:>10} {:>10.1} {:>12.1} {:>14.1} {:>12.1} {:>12.2}   ({} frames kept, {} stutters)",
            frames,
            mib,
            parse.as_secs_f64() * 1e3,
            mib / parse.as_secs_f64(),
            prepare.as_secs_f64() * 1e3,
            figure_time.as_secs_f64() * 1e3,
            trace.len(),
            stutters
        );
    }
    slider_moves();
}

/// A trace built in memory (no 2 GB text): frame times around 7 ms, a spike every
/// 997 frames, a dropped frame every 13, CPU busy, GPU busy and until-displayed
/// columns, and five constant action columns (as PresentMon writes them).
fn trace(n: usize) -> Trace {
    let mut frames = Frames {
        frame_time_ms: Vec::with_capacity(n),
        start_ms: Vec::with_capacity(n),
        display_ms: Vec::with_capacity(n),
        dropped: Vec::with_capacity(n),
        line: framescope_core::model::Lines::default(),
        ..Frames::default()
    };
    let (mut cpu, mut gpu, mut until) = (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
    let (mut t, mut x) = (0.0, 12345u32);
    for i in 0..n {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let jitter = f64::from(x % 1000) / 1000.0;
        let ft = if i % 997 == 0 { 40.0 + jitter } else { 6.5 + jitter };
        let dropped = i % 13 == 0;
        frames.frame_time_ms.push(ft);
        frames.start_ms.push(t);
        frames.display_ms.push(if dropped { f64::NAN } else { ft });
        frames.dropped.push(dropped);
        frames.line.push(i as u64 + 2);
        cpu.push(ft - 1.0);
        gpu.push(ft - 2.0);
        until.push(if dropped { f64::NAN } else { 9.0 + jitter });
        t += ft;
    }
    let column =
        |name: &str, kind, values: Vec<f64>| Column { name: name.into(), kind, values: values.into() };
    frames.columns = vec![
        column("MsCPUBusy", ColumnKind::CpuBusy, cpu),
        column("MsGPUBusy", ColumnKind::GpuBusy, gpu),
        column("MsUntilDisplayed", ColumnKind::UntilDisplayed, until),
    ];
    for (name, kind, v) in [
        ("MsInPresentAPI", ColumnKind::InPresentApi, 0.8),
        ("MsRenderPresentLatency", ColumnKind::RenderPresentLatency, 1.2),
        ("MsCPUWait", ColumnKind::CpuWait, 1.0),
        ("MsGPULatency", ColumnKind::GpuLatency, 1.0),
        ("MsGPUWait", ColumnKind::GpuWait, 0.1),
    ] {
        frames.columns.push(column(name, kind, vec![v; n]));
    }
    let meta = TraceMeta {
        application: "synthetic.exe".into(),
        process_id: Some(4242),
        swap_chain: None,
        runtime: None,
        present_modes: Vec::new(),
    };
    Trace { meta, frames, warnings: Vec::new() }
}

/// One slider move in the window: the figures and the report of the run for new
/// thresholds, from the prepared analysis (no sort, no copy of the series). Beside it,
/// the settings-independent work a move used to redo (sorts for the conventions, the
/// slow-time curve and the charts; the refresh grid; the frame types), for scale.
fn slider_moves() {
    let n: usize = std::env::var("SLIDER_FRAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000_000);
    let trace = trace(n);
    let capture = Capture {
        info: FileInfo {
            path: "synthetic.csv".into(),
            format: Format::PresentMon24,
            format_version: "synthetic".into(),
            system: Vec::new(),
            dropped_known: true,
            target_fps: None,
        },
        traces: vec![trace],
        warnings: Vec::new(),
    };
    let trace = &capture.traces[0];
    let t0 = Instant::now();
    let prepared = Prepared::new(trace, FrameTimeSource::Auto);
    let prepare = t0.elapsed();
    let mut times = Vec::new();
    let mut stutters = 0;
    for k in 0..9 {
        let settings = Settings {
            target_fps: 60.0 + f64::from(k) * 10.0,
            stutter_threshold: 0.1 + f64::from(k) * 0.05,
            stutter_floor_ms: 1.0 + f64::from(k) * 0.5,
            ..Settings::default()
        };
        let t = Instant::now();
        let run = framescope_core::report::run_prepared(
            &framescope_core::report::RunSource::of("synthetic.csv", &capture),
            trace,
            &settings,
            None,
            &prepared,
        );
        times.push(t.elapsed().as_secs_f64() * 1e3);
        stutters += run.stutters.map_or(0, |s| s.count);
    }
    times.sort_by(f64::total_cmp);
    let ft = &prepared.series.frame_time_ms;
    let t = Instant::now();
    let redo = (
        Conventions::of(ft),
        SlowTimeCurve::new(ft),
        SlowTimeCurve::new(ft),
        Vsync::of(trace, None),
        FrameTypes::of(trace, &prepared.series),
    );
    let redone = t.elapsed().as_secs_f64() * 1e3;
    println!(
        "\nslider move at {n} frames: {:.1} ms median ({:.1}–{:.1} ms over {} moves; {} stutters flagged in all)\n  \
         prepared once in {:.0} ms; the sorts and scans a move no longer redoes take {redone:.0} ms{}",
        times[times.len() / 2],
        times[0],
        times[times.len() - 1],
        times.len(),
        stutters,
        prepare.as_secs_f64() * 1e3,
        if redo.1.is_some() { "" } else { " (no curve)" },
    );
}
