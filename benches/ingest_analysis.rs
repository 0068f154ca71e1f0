//! `cargo bench`: prints how long parsing and analysis take on synthetic captures of
//! 100k and 1M frames (PresentMon 2.4 layout with 32 columns). Figures, not a test:
//! the analysis of a trace should take well under the time it takes to parse it.

use framescope::analysis::{FrameTimeSource, Prepared, Settings};
use framescope::ingest::{LoadOptions, load_bytes};
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
}
