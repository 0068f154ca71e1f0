//! Time columns in unexpected units (format quirks): seconds holding ms, the GUI's
//! coarse seconds, QPC ticks at another frequency.
//!
//! Every capture below is an inline byte string whose header is copied from a real file
//! in `shared/real-traces/`; every expected figure is derived by hand from
//! `shared/spec/metrics.md` §1–2 and `shared/spec/formats.md` §1–5, with the arithmetic in
//! a comment beside the assertion. Frame times are chosen so that the sums stay simple.
//! Helpers and shared fixtures: `common::quirks`.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

#[allow(clippy::wildcard_imports)]
use common::quirks::*;
use framescope_core::analysis::FrameTimeSource;
use framescope_core::ingest::LoadOptions;

// ---------------------------------------------------------------------------------
// 8. Time columns in unexpected units
// ---------------------------------------------------------------------------------

#[test]
fn capframex_raw_dump_time_in_seconds_holding_ms_still_advances_with_frame_times() {
    // `//Ignore=true` + CapFrameX's embedded-PresentMon header (formats.md §3b):
    // TimeInSeconds is in ms (1010, 1030, 1060, 1100), CPUStartQPCTimeInMs absolute ms.
    let head = "//Ignore=true\nApplication,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,TimeInSeconds,MsBetweenSimulationStart,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,CPUStartQPCTimeInMs,MsBetweenAppStart,MsCPUBusy,MsCPUWait,MsGPULatency,MsGPUTime,MsGPUBusy,MsGPUWait,MsAnimationError,AnimationTime,MsFlipDelay,EtwBufferFillPct,EtwBuffersInUse,EtwTotalBuffers,EtwEventsLost,EtwBuffersLost\n";
    let row = |t: &str, ft: &str, cpu: &str| {
        format!(
            "re2.exe,1936,0x76F3DB00,DXGI,0,0,0,Composed: Flip,{t},NA,{ft},16.6667,0.5000,2.0000,14.0000,{cpu},{ft},6.0000,1.0000,0.5000,5.0000,4.0000,1.0000,0.0000,100.0000,NA,0,0,0,0,0\n"
        )
    };
    let text = [
        head.to_owned(),
        row("1010.0000", "10.0000", "246696000.0000"),
        row("1030.0000", "20.0000", "246696010.0000"),
        row("1060.0000", "30.0000", "246696030.0000"),
        row("1100.0000", "40.0000", "246696060.0000"),
    ]
    .concat();
    let c = load("cx_raw.csv", text.as_bytes());
    // A CapFrameX CSV flavour (formats.md §3b).
    assert_eq!(c.info.format.name(), "capframex-csv");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let t = single(&c);
    // Data rows are lines 3..=6 (line 1 is the comment, line 2 the header).
    assert_eq!(t.frames.line, vec![3, 4, 5, 6]);
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // Read as ms: present − ft = 1000, 1010, 1030, 1060 → 0, 10, 30, 60 (read as seconds
    // it would be 1010000 − 10 … and advance 1000× too fast).
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
}

/// PresentMon GUI (2.3-era pmcap) header, `presentmon-2x/pmcap-cs2.exe-250211-212150.csv`.
const PMCAP_23_HEADER: &str = "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,FrameType,CPUStartTime,FrameTime,CPUBusy,CPUWait,GPULatency,GPUTime,GPUBusy,GPUWait,DisplayLatency,DisplayedTime,AnimationError,AnimationTime,AllInputToPhotonLatency,ClickToPhotonLatency,InstrumentedLatency,GPUPower,GPUVoltage,GPUFrequency,GPUTemperature,GPUUtilization,3D/ComputeUtilization,MediaUtilization,GPUMemoryPower,GPUMemoryVoltage,GPUMemoryFrequency,GPUMemoryEffectiveFrequency,GPUMemoryTemperature,GPUMemorySize,GPUMemorySizeUsed,GPUMemoryMaxBandwidth,GPUMemoryReadBandwidth,GPUMemoryWriteBandwidth,GPUFanSpeed[0],GPUFanSpeed[1],GPUFanSpeed[2],GPUFanSpeed[3],GPUPowerLimited,GPUTemperatureLimited,GPUCurrentLimited,GPUVoltageLimited,GPUUtilizationLimited,GPUMemoryPowerLimited,GPUMemoryTemperatureLimited,GPUMemoryCurrentLimited,GPUMemoryVoltageLimited,GPUMemoryUtilizationLimited,CPUUtilization,CPUPower,CPUTemperature,CPUFrequency";

#[test]
fn gui_pmcap_cpu_start_time_in_seconds_still_advances_with_frame_times() {
    // pmcap CPUStartTime is in seconds: 0, 0.010, 0.030, 0.060; CRLF as in real files.
    let row = |cpu_s: &str, ft: &str| {
        format!(
            "cs2.exe,11364,0x1E5CB226D40,DXGI,0,512,1,Hardware Composed: Independent Flip,Application,{cpu_s},{ft},6.2767,0.0743,3.8348,6.2671,4.3275,1.9396,10.2396,4.0125,-2.3237,7062.4899,NA,NA,0.0000,140.1980,NA,1845.0000,75.0000,82.0000,NA,0.0000,NA,NA,7000.9800,NA,NA,8589934592,5786689536,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,27.0379,NA,NA,4920.9759\r\n"
        )
    };
    let text = [
        format!("{PMCAP_23_HEADER}\r\n"),
        row("0", "10.0000"),
        row("0.010000", "20.0000"),
        row("0.030000", "30.0000"),
        row("0.060000", "40.0000"),
    ]
    .concat();
    // Fixture sanity: every row has as many fields as the header (59).
    for line in text.lines() {
        assert_eq!(line.split(',').count(), 59, "{line}");
    }
    let c = load("pmcap-cs2.exe-250211-212150.csv", text.as_bytes());
    assert_eq!(c.info.format.name(), "presentmon-gui");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let t = single(&c);
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // Seconds → ms: 0, 10, 30, 60 (read as ms they would be 0, 0.01, 0.03, 0.06).
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    // DisplayedTime shifted to the next displayed frame: the first has none.
    assert_all_close(&t.frames.display_ms, &[f64::NAN, 4.0125, 4.0125, 4.0125], "DisplayedTime");
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
}

/// PresentMon GUI (2.4+-era pmcap) header, `presentmon-2x/pmcap-r5apex_dx12.exe-250709-222519.csv`.
const PMCAP_24_HEADER: &str = "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,FrameType,TimeInSeconds,MsBetweenSimulationStart,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,MsPCLatency,CPUStartTime,MsBetweenAppStart,MsCPUBusy,MsCPUWait,MsGPULatency,MsGPUTime,MsGPUBusy,MsGPUWait,MsAnimationError,AnimationTime,MsAllInputToPhotonLatency,MsClickToPhotonLatency,InstrumentedLatency,GPUPower,GPUVoltage,GPUFrequency,GPUTemperature,GPUUtilization,3D/ComputeUtilization,MediaUtilization,GPUMemoryPower,GPUMemoryVoltage,GPUMemoryFrequency,GPUMemoryEffectiveFrequency,GPUMemoryTemperature,GPUMemorySize,GPUMemorySizeUsed,GPUMemoryMaxBandwidth,GPUMemoryReadBandwidth,GPUMemoryWriteBandwidth,GPUFanSpeed[0],GPUFanSpeed[1],GPUFanSpeed[2],GPUFanSpeed[3],GPUPowerLimited,GPUTemperatureLimited,GPUCurrentLimited,GPUVoltageLimited,GPUUtilizationLimited,GPUMemoryPowerLimited,GPUMemoryTemperatureLimited,GPUMemoryCurrentLimited,GPUMemoryVoltageLimited,GPUMemoryUtilizationLimited,CPUUtilization,CPUPower,CPUTemperature,CPUFrequency";

#[test]
fn gui_pmcap_24_era_time_in_seconds_and_cpu_start_in_seconds() {
    // Both TimeInSeconds (Present() time) and CPUStartTime are seconds in pmcap files.
    let row = |time_s: &str, cpu_s: &str, ft: &str| {
        format!(
            "r5apex_dx12.exe,18660,0x1F741139B80,DXGI,0,512,1,Hardware: Independent Flip,Application,{time_s},NA,{ft},20.1571,1.1623,4.5556,20.0351,NA,{cpu_s},{ft},3.3132,1.1623,3.1912,4.6776,4.6666,0.0110,-15.0825,831886.5402,NA,NA,NA,53.7450,NA,1575.0000,86.0000,88.0000,NA,17.0000,NA,NA,6120.9840,NA,NA,6442450944,2334281728,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,55.5077,NA,NA,2410.1218\r\n"
        )
    };
    let text = [
        format!("{PMCAP_24_HEADER}\r\n"),
        row("0.010000", "0", "10.0000"),
        row("0.030000", "0.010000", "20.0000"),
        row("0.060000", "0.030000", "30.0000"),
        row("0.100000", "0.060000", "40.0000"),
    ]
    .concat();
    for line in text.lines() {
        assert_eq!(line.split(',').count(), 65, "fixture: {line}");
    }
    let c = load("pmcap-r5apex_dx12.exe-250709-222519.csv", text.as_bytes());
    assert_eq!(c.info.format.name(), "presentmon-gui");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let t = single(&c);
    assert_eq!(t.meta.swap_chain.as_deref(), Some("0x1F741139B80"));
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // present − ft in ms: 10−10 = 0, 30−20 = 10, 60−30 = 30, 100−40 = 60
    // (CPU start says the same: 0, 10, 30, 60).
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
}

#[test]
fn two_hundred_frames_take_the_two_slowest_for_the_1pct_low() {
    // 1.x file, 200 frames: 198 of 10 ms, then 50 ms on frames 100 and 150.
    let mut text = format!("{PM1_HEADER}\n");
    let mut present_ms = 1000.0;
    for i in 0..200 {
        let ft = if i == 100 || i == 150 { 50.0 } else { 10.0 };
        present_ms += ft;
        let time_s = format!("{:.6}", present_ms / 1000.0);
        text.push_str(&pm1_row("Game.exe", 1, "0x1", &time_s, &format!("{ft:.3}")));
    }
    let c = load("n200.csv", text.as_bytes());
    let t = single(&c);
    assert_eq!(t.len(), 200);
    // n = 200, T = 198·10 + 2·50 = 2080 → avg = 200000/2080 = 96.153…;
    // min = 1000/50 = 20, max = 1000/10 = 100.
    // Sorted: indices 0..=197 are 10, 198 and 199 are 50; h = 199p.
    // p50 h=99.5 → 10; p90 h=179.1 → 10; p95 h=189.05 → 10;
    // p99 h=197.01 → 10 + 0.01·(50−10) = 10.4; p99.9 h=198.801 → 50.
    // 1% low: k = max(1, ⌊200/100⌋) = 2 → 1000·2/(50+50) = 20;
    // 0.1% low: k = max(1, ⌊200/1000⌋) = 1 → 1000/50 = 20.
    assert_summary(
        &summary(t, FrameTimeSource::Presents),
        &Want {
            avg_fps: 200_000.0 / 2080.0,
            min_fps: 20.0,
            max_fps: 100.0,
            p50: 10.0,
            p90: 10.0,
            p95: 10.0,
            p99: 10.4,
            p99_9: 50.0,
            low_1: 20.0,
            low_0_1: 20.0,
        },
    );
    // start of frame i = sum of the earlier frame times: frame 101 starts at
    // 100·10 + 50 = 1050, frame 199 at 197·10 + 2·50 = 2070.
    assert_close(t.frames.start_ms[101], 1050.0, "start of frame 101");
    assert_close(t.frames.start_ms[199], 2070.0, "start of frame 199");
}

/// A 2.4 default-layout file with QPC time columns; `ticks(ms)` converts a time in ms
/// to the raw tick text.
fn pm24_qpc_file(ticks: impl Fn(f64) -> String) -> String {
    let mut text = format!("\u{feff}{}\n", pm24_header("TimeInQPC", "CPUStartQPC"));
    // Present at 1010, 1030, 1060, 1100 ms; CPU start = present − ft.
    for (present, ft) in [(1010.0, 10.0), (1030.0, 20.0), (1060.0, 30.0), (1100.0, 40.0)] {
        let ft_text = format!("{ft:.4}");
        text.push_str(&pm24_row(
            &ticks(present),
            &ticks(present - ft),
            &ft_text,
            "16.0000",
            "15.0000",
            "0.1000",
        ));
    }
    text
}

#[test]
fn time_in_qpc_at_10_mhz_gives_start_times_in_ms() {
    // 10 MHz = 10000 ticks per ms; base 2_000_000_000 ticks (200 s).
    let text = pm24_qpc_file(|ms| format!("{}", 2_000_000_000_u64 + (ms as u64) * 10_000));
    let c = load("qpc10.csv", text.as_bytes());
    assert_eq!(c.info.format.name(), "presentmon-2.4");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let t = single(&c);
    // (1000 − 1000, 1010 − 1000, 1030 − 1000, 1060 − 1000) ms.
    assert_starts(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], 201_000.0);
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
}

#[test]
fn time_in_qpc_at_3_mhz_with_default_options_is_measured_and_warned() {
    // A 3 MHz QPC clock (3000 ticks per ms) read with the default 10 MHz: taken at face
    // value the starts would advance 3.33× too slowly (0, 3, 9, 18). The measured rate
    // keeps them at 0, 10, 30, 60 and a file warning says so.
    let text = pm24_qpc_file(|ms| format!("{}", 6_000_000_000_u64 + (ms as u64) * 3_000));
    let c = load("qpc3.csv", text.as_bytes());
    let t = single(&c);
    assert_starts(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], 2_001_000.0);
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
    let warnings = all_warnings(&c);
    assert!(warnings.iter().any(|(_, m)| m.contains("QPC")), "no QPC warning in {warnings:?}");
    // With the right frequency there is nothing to warn about.
    let right = LoadOptions { qpc_frequency_hz: Some(3_000_000.0), ..LoadOptions::default() };
    let c = load_with("qpc3.csv", text.as_bytes(), right);
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    assert_starts(&single(&c).frames.start_ms, &[0.0, 10.0, 30.0, 60.0], 2_001_000.0);
}

#[test]
fn a_qpc_frequency_the_user_sets_is_used_as_given() {
    // The 3 MHz clock read with a frequency the user set to 6 MHz: the user's value wins,
    // so every tick time reads as half the real time: presents at 505, 515, 530, 550 ms
    // (+ base), starts = present − frame time = 495, 495, 500, 510, i.e. 0, 0, 5, 15 ms
    // from the first. A warning reports the measured rate instead of silently using it.
    let text = pm24_qpc_file(|ms| format!("{}", 6_000_000_000_u64 + (ms as u64) * 3_000));
    let given = LoadOptions { qpc_frequency_hz: Some(6_000_000.0), ..LoadOptions::default() };
    let c = load_with("qpc3.csv", text.as_bytes(), given);
    assert_starts(&single(&c).frames.start_ms, &[0.0, 0.0, 5.0, 15.0], 1_000_495.0);
    let warnings = all_warnings(&c);
    assert!(
        warnings.iter().any(|(_, m)| m.contains("you set with --qpc-frequency")),
        "no warning in {warnings:?}"
    );
}
