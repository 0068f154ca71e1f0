//! `cargo bench --bench ui_frame`: CPU time of one UI frame of the whole window (timeline,
//! figures, charts) on synthetic traces of 100k, 1M and 10M frames, headless: a bare
//! `egui::Context` at 1400×900, the pointer moving over the timeline so that hover and
//! tooltip code runs too. Issue 4 asks that a frame stay within a few milliseconds and
//! nearly flat as the trace grows. Figures, not a test.
//!
//! For profiling, `UI_FRAME_SIZES=1000000 UI_FRAME_TIMED=2000` picks the sizes and the
//! number of timed frames.

use eframe::egui;
use framescope::app::timeline::Command;
use framescope::app::{App, Persisted};
use framescope::model::{Capture, Column, ColumnKind, FileInfo, Format, Frames, Trace, TraceMeta};
use std::time::{Duration, Instant};

const SIZES: [usize; 3] = [100_000, 1_000_000, 10_000_000];
const TIMED_FRAMES: usize = 50;

/// A list of counts from the environment, or `default`.
fn env_counts(name: &str, default: &[usize]) -> Vec<usize> {
    std::env::var(name).ok().map_or_else(
        || default.to_vec(),
        |v| v.split(',').map(|s| s.trim().parse().unwrap_or_else(|_| panic!("{name}: {v:?}"))).collect(),
    )
}
const SCREEN: egui::Vec2 = egui::vec2(1400.0, 900.0);

/// A deterministic trace: frame times around 7 ms with a spike every 997 frames and a
/// dropped frame every 13; CPU busy, GPU busy and until-displayed columns.
fn capture(n: usize) -> Capture {
    let mut frames = Frames {
        frame_time_ms: Vec::with_capacity(n),
        start_ms: Vec::with_capacity(n),
        display_ms: Vec::with_capacity(n),
        dropped: Vec::with_capacity(n),
        line: Vec::with_capacity(n),
        ..Frames::default()
    };
    let mut cpu = Vec::with_capacity(n);
    let mut gpu = Vec::with_capacity(n);
    let mut until = Vec::with_capacity(n);
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
    let meta = TraceMeta {
        application: "synthetic.exe".into(),
        process_id: Some(4242),
        swap_chain: Some("0x1F741139B80".into()),
        runtime: Some("DXGI".into()),
        present_modes: Vec::new(),
    };
    Capture {
        info: FileInfo {
            path: "synthetic.csv".into(),
            format: Format::PresentMon24,
            format_version: "synthetic".into(),
            system: Vec::new(),
            dropped_known: true,
        },
        traces: vec![Trace { meta, frames, warnings: Vec::new() }],
        warnings: Vec::new(),
    }
}

/// Runs one UI frame with the pointer at `pointer`; returns the time of `run_ui` and
/// of tessellating its shapes (what eframe does next on the CPU).
fn frame(ctx: &egui::Context, app: &mut App, k: usize, pointer: egui::Pos2) -> (Duration, Duration) {
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, SCREEN)),
        time: Some(k as f64 / 60.0),
        events: vec![egui::Event::PointerMoved(pointer)],
        ..Default::default()
    };
    let t0 = Instant::now();
    let output = ctx.run_ui(input, |ui| app.ui_root(ui));
    let ui = t0.elapsed();
    let t1 = Instant::now();
    let meshes = ctx.tessellate(output.shapes, output.pixels_per_point);
    let tessellate = t1.elapsed();
    std::hint::black_box(meshes);
    (ui, tessellate)
}

/// Peak resident memory of the process so far, MiB (Linux; `None` elsewhere).
fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    println!(
        "{:>10} {:>12} {:>11} {:>11} {:>11} {:>12} {:>11} {:>14} {:>13}",
        "frames",
        "analysis ms",
        "UI mean ms",
        "UI p50 ms",
        "UI max ms",
        "pan mean ms",
        "pan max ms",
        "tessellate ms",
        "peak RSS MiB"
    );
    let timed = env_counts("UI_FRAME_TIMED", &[TIMED_FRAMES])[0].max(1);
    for n in env_counts("UI_FRAME_SIZES", &SIZES) {
        let ctx = egui::Context::default();
        let mut app = App::new(Persisted::default(), &ctx);
        app.set_saving(false);
        let built = capture(n);
        let t0 = Instant::now();
        app.open_capture("synthetic.csv", built);
        // The timeline's centre, where the pointer hovers (left panel 320 + labels 150).
        let mut k = 0;
        let centre = egui::pos2(800.0, 200.0);
        loop {
            frame(&ctx, &mut app, k, centre);
            k += 1;
            if k >= 3 && app.is_idle() {
                break;
            }
            assert!(t0.elapsed() < Duration::from_mins(10), "analysis of {n} frames did not finish");
            std::thread::sleep(Duration::from_millis(1));
        }
        let analysis = t0.elapsed();
        for _ in 0..5 {
            frame(&ctx, &mut app, k, centre);
            k += 1;
        }
        let mut ui = Vec::with_capacity(timed);
        let mut tess = Duration::ZERO;
        for i in 0..timed {
            // Sweep the pointer across the timeline: a new hovered frame and tooltip each time.
            let pointer = egui::pos2(700.0 + 8.0 * (i % 50) as f32, 200.0);
            let (u, t) = frame(&ctx, &mut app, k, pointer);
            k += 1;
            ui.push(u);
            tess += t;
        }
        assert!(app.is_idle(), "UI frames started background work");
        // Panning: the view moves every frame, so nothing drawn before can be reused.
        let mut pan = Vec::with_capacity(timed);
        for _ in 0..timed {
            let mut v = app.view();
            v.pan(v.span_ms * 0.01);
            app.apply(Command::View(v));
            let (u, _) = frame(&ctx, &mut app, k, centre);
            k += 1;
            pan.push(u);
        }
        pan.sort_unstable();
        ui.sort_unstable();
        let mean = ui.iter().sum::<Duration>() / timed as u32;
        let pan_mean = pan.iter().sum::<Duration>() / timed as u32;
        println!(
            "{:>10} {:>12.0} {:>11.2} {:>11.2} {:>11.2} {:>12.2} {:>11.2} {:>14.2} {:>13}",
            n,
            ms(analysis),
            ms(mean),
            ms(ui[timed / 2]),
            ms(ui[timed - 1]),
            ms(pan_mean),
            ms(pan[timed - 1]),
            ms(tess) / timed as f64,
            peak_rss_mib().map_or_else(|| "?".to_owned(), |m| format!("{m:.0}")),
        );
    }
}
