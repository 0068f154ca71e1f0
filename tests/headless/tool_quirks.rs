//! Quirks of the PresentMon-family tools' CSVs: OCAT's system info on the first row,
//! CapFrameX's legacy `//Key=Value` preamble, FrameView's system columns.
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

// ---------------------------------------------------------------------------------
// 7. OCAT: system info on the first row only
// ---------------------------------------------------------------------------------

#[test]
fn ocat_long_first_row_with_quoted_commas_and_short_later_rows() {
    // Header of `ocat/OCAT-MetroExodus.exe-2019-02-20T101522.csv` (29 columns); the first
    // data row has all 29 fields, later rows 17. Present times 10, 30, 60, 100 ms.
    let text = r#"Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,WasBatched,DwmNotified,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed,Motherboard,OS,Processor,System RAM,Base Driver Version,Driver Package,GPU #,GPU,GPU Core Clock (MHz),GPU Memory Clock (MHz),GPU Memory (MB),Comment
MetroExodus.exe,13840,0x00000000215D7910,DXGI,0,0,1,Hardware Composed: Independent Flip,0,0,0,0.010000,10.000,11.785,0.192,13.518,13.518,"Micro-Star International Co., Ltd. MPG Z390 GAMING PRO CARBON (MS-7B17)","Windows 10 Pro, 1809 (OS Build 17763.1.amd64fre.rs5_release.180914-1434)",Intel(R) Core(TM) i9-9900K CPU @ 3.60GHz,32 GB DDR4 3200 MT/s,41891,r418_77,1,GeForce RTX 2080 Ti,1350,-,11264,Test
MetroExodus.exe,13840,0x00000000215D7910,DXGI,0,0,1,Hardware Composed: Independent Flip,0,0,0,0.030000,20.000,18.668,0.201,20.021,20.021
MetroExodus.exe,13840,0x00000000215D7910,DXGI,0,0,1,Hardware Composed: Independent Flip,0,0,1,0.060000,30.000,0.000,0.201,20.021,0.000
MetroExodus.exe,13840,0x00000000215D7910,DXGI,0,0,1,Hardware Composed: Independent Flip,0,0,0,0.100000,40.000,31.000,0.201,20.021,20.021
"#;
    let c = load("OCAT-x.csv", text.as_bytes());
    assert_eq!(c.info.format.name(), "ocat");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let t = single(&c);
    assert_eq!(t.meta.swap_chain.as_deref(), Some("0x215D7910"));
    assert_eq!(t.frames.line, vec![2, 3, 4, 5]);
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // start = present − ft: 10−10 = 0, 30−20 = 10, 60−30 = 30, 100−40 = 60.
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    // Line 4 has Dropped = 1.
    assert_eq!(t.frames.dropped, vec![false, false, true, false]);
    assert_all_close(&t.frames.display_ms, &[11.785, 18.668, f64::NAN, 31.0], "display");
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
    let sys = &c.info.system;
    let get = |k: &str| {
        sys.iter()
            .find(|(key, _)| key == k)
            .map_or_else(|| panic!("{k} missing from {sys:?}"), |(_, v)| v.as_str())
    };
    assert_eq!(get("Motherboard"), "Micro-Star International Co., Ltd. MPG Z390 GAMING PRO CARBON (MS-7B17)");
    assert_eq!(get("OS"), "Windows 10 Pro, 1809 (OS Build 17763.1.amd64fre.rs5_release.180914-1434)");
    assert_eq!(get("Processor"), "Intel(R) Core(TM) i9-9900K CPU @ 3.60GHz");
    assert_eq!(get("GPU"), "GeForce RTX 2080 Ti");
    assert_eq!(get("System RAM"), "32 GB DDR4 3200 MT/s");
}

// ---------------------------------------------------------------------------------
// 11. CapFrameX legacy `//Key=Value` preamble
// ---------------------------------------------------------------------------------

#[test]
fn capframex_legacy_comment_lines_are_system_info_and_count_as_lines() {
    // First 18 lines of `capframex/capframex-legacy-csv_ResidentEvil2_with_header.csv`:
    // 17 comment lines, the header on line 18, data from line 19.
    let text = "//GameName=re2.exe
//ProcessName=Resident Evil 2 Remake
//CreationDate=2019-03-30
//CreationTime=12:01:36
//RecordTime=25
//Motherboard=ASUSTeK COMPUTER INC. ROG MAXIMUS XI HERO
//OS=Windows OS
//Processor=Intel(R) Core(TM) i9-9900K CPU @ 3.60GHz
//System RAM=32 GB 3800 MT/s
//Base Driver Version=bla
//Driver Package=bla
//GPU=NVIDIA GeForce RTX 2080 Ti
//GPU #=1
//GPU Core Clock (MHz)=1920
//GPU Memory Clock (MHz)=7000
//GPU Memory (MB)=11278
//Comment=Test
Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,WasBatched,DwmNotified,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed
re2.exe,1936,0x0000000076F3DB00,DXGI,0,0,0,Composed: Copy with GPU GDI,1,0,1,0.010,10.000,0.000,1.709,5.437,0.000
re2.exe,1936,0x0000000076F3DB00,DXGI,0,0,0,Composed: Copy with GPU GDI,1,1,0,0.030,20.000,8.334,2.094,5.436,15.518
re2.exe,1936,0x0000000076F3DB00,DXGI,0,0,0,Composed: Copy with GPU GDI,1,1,0,0.060,30.000,8.340,2.157,5.532,16.873
re2.exe,1936,0x0000000076F3DB00,DXGI,0,0,0,Composed: Copy with GPU GDI,1,1,0,0.100,40.000,8.330,2.157,5.532,16.873
";
    let c = load("cx.csv", text.as_bytes());
    assert_eq!(c.info.format.name(), "capframex-csv");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let sys = &c.info.system;
    for (k, v) in [
        ("GameName", "re2.exe"),
        ("ProcessName", "Resident Evil 2 Remake"),
        ("Processor", "Intel(R) Core(TM) i9-9900K CPU @ 3.60GHz"),
        ("GPU", "NVIDIA GeForce RTX 2080 Ti"),
        ("GPU #", "1"),
        ("Comment", "Test"),
    ] {
        assert!(sys.iter().any(|(key, val)| key == k && val == v), "({k}, {v}) missing from {sys:?}");
    }
    let t = single(&c);
    assert_eq!(t.meta.application, "re2.exe");
    assert_eq!(t.frames.line, vec![19, 20, 21, 22]);
    // Line 19 has Dropped = 1.
    assert_eq!(t.frames.dropped, vec![true, false, false, false]);
    assert_all_close(&t.frames.display_ms, &[f64::NAN, 8.334, 8.340, 8.330], "display");
    // start: 10−10 = 0, 30−20 = 10, 60−30 = 30, 100−40 = 60.
    assert_all_close(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], "start_ms");
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
}

#[test]
fn capframex_legacy_skipped_row_warning_counts_the_comment_lines() {
    // Two comment lines, header on line 3, frame time 0 on line 5 (never displayed, so a
    // frame of neither series).
    let text = "//GameName=re2.exe
//GPU=NVIDIA GeForce RTX 2080 Ti
Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,WasBatched,DwmNotified,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed
re2.exe,1936,0x0000000076F3DB00,DXGI,0,0,0,Composed: Copy with GPU GDI,1,1,0,0.010,10.000,8.334,2.094,5.436,15.518
re2.exe,1936,0x0000000076F3DB00,DXGI,0,0,0,Composed: Copy with GPU GDI,1,1,1,0.020,0.000,8.334,2.094,5.436,15.518
re2.exe,1936,0x0000000076F3DB00,DXGI,0,0,0,Composed: Copy with GPU GDI,1,1,0,0.030,20.000,8.334,2.094,5.436,15.518
";
    let c = load("cx2.csv", text.as_bytes());
    assert_eq!(c.info.format.name(), "capframex-csv");
    let t = single(&c);
    assert_eq!(t.frames.line, vec![4, 6]);
    let lines: Vec<u64> = all_warnings(&c).iter().filter_map(|w| w.0).collect();
    assert_eq!(lines, vec![5], "{:?}", all_warnings(&c));
}

// ---------------------------------------------------------------------------------
// 12. FrameView: system columns, padded CPU name, MsPCLatency NA
// ---------------------------------------------------------------------------------

/// FrameView 1.4/1.5 header (`frameview/FrameView_AlanWake2_…_Log.csv`), cut after the
/// second per-core column to keep the rows short.
const FV_HEADER: &str = "Application,GPU,CPU,Resolution,Runtime,AllowsTearing,ProcessID,SwapChainAddress,SyncInterval,PresentFlags,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,Render Queue Depth,MsPCLatency,GPU0Clk(MHz),GPU0MemClk(MHz),GPU0Util(%),GPU0Temp(C),GPU1Clk(MHz),GPU1MemClk(MHz),GPU1Util(%),GPU1Temp(C),PCAT Power Total(W),Perf/W Total(F/J) (PCAT),Perf/W Total(F/J) (API),Perf/W GPUOnly(F/J) (API),Perf/W Total-USBC(F/J) (API),GPUOnlyPwr(W) (API),NV-Total-USBCPwr(W) (API),NV Pwr(W) (API),AMDPwr(W) (API),CPUClk(MHz),CPUUtil(%),CPU Package Temp(C),CPU Package Power(W),CPU TDP (W),CPUCoreUtil%[ 0],CPUCoreUtil%[ 1]";

/// One FrameView row; the CPU name is padded with spaces and `CPU Package Temp(C)` has a
/// leading space (" 50"), as in real files.
fn fv_row(dropped: u8, time_s: &str, ft: &str, disp: &str, until: &str, pcl: &str) -> String {
    format!(
        "AlanWake2.exe,NVIDIA GeForce RTX 4060 Ti,AMD Ryzen 7 2700X Eight-Core Processor         ,3840x2160,D3D12,0,11720,0x000001610132BAA0,0,0,Hardware Composed: Independent Flip,{dropped},{time_s},{ft},{disp},0.224,14.090,{until},0.956,{pcl},2775,9001,99,63,NA,NA,NA,NA,NA,NA,0.441,0.587,0.441,115,153,153,NA,4398,29, 50,62.883, 65,100,1\n"
    )
}

#[test]
fn frameview_system_columns_padded_cpu_and_na_pc_latency() {
    // TimeInSeconds counts from FrameView's start: 4158.010, .030, .060, .100 s.
    let text = [
        format!("{FV_HEADER}\n"),
        fv_row(0, "4158.010000", "10.000", "14.262", "14.171", "38.135"),
        fv_row(0, "4158.030000", "20.000", "16.000", "15.000", "NA"),
        fv_row(1, "4158.060000", "30.000", "0.000", "0.000", "NA"),
        fv_row(0, "4158.100000", "40.000", "30.000", "16.000", "40.000"),
    ]
    .concat();
    for line in text.lines() {
        assert_eq!(line.split(',').count(), 44, "fixture: {line}");
    }
    let c = load("FrameView_AlanWake2.exe_2024_04_16T234455_Log.csv", text.as_bytes());
    assert_eq!(c.info.format.name(), "frameview");
    assert!(all_warnings(&c).is_empty(), "{:?}", all_warnings(&c));
    let sys = &c.info.system;
    for (k, v) in [
        ("GPU", "NVIDIA GeForce RTX 4060 Ti"),
        ("CPU", "AMD Ryzen 7 2700X Eight-Core Processor"), // padding trimmed
        ("Resolution", "3840x2160"),
    ] {
        assert!(sys.iter().any(|(key, val)| key == k && val == v), "({k}, {v:?}) missing from {sys:?}");
    }
    let t = single(&c);
    assert_eq!(t.meta.application, "AlanWake2.exe");
    assert_eq!(t.meta.process_id, Some(11720));
    assert_eq!(t.meta.swap_chain.as_deref(), Some("0x1610132BAA0"));
    assert_eq!(t.meta.runtime.as_deref(), Some("D3D12"));
    assert_all_close(&t.frames.frame_time_ms, &[10.0, 20.0, 30.0, 40.0], "ft");
    // present − ft: 4158000, 4158010, 4158030, 4158060 ms → 0, 10, 30, 60.
    assert_starts(&t.frames.start_ms, &[0.0, 10.0, 30.0, 60.0], 4_158_000.0);
    assert_eq!(t.frames.dropped, vec![false, false, true, false]);
    assert_all_close(&t.frames.display_ms, &[14.262, 16.0, f64::NAN, 30.0], "display");
    let pcl = t.column_named("MsPCLatency").expect("MsPCLatency column");
    assert_all_close(&pcl.values, &[38.135, f64::NAN, f64::NAN, 40.0], "MsPCLatency");
    // " 50" with a leading space parses.
    let temp = t.column_named("CPU Package Temp(C)").expect("CPU Package Temp(C)");
    assert_all_close(&temp.values, &[50.0; 4], "CPU Package Temp(C)");
    assert_summary(&summary(t, FrameTimeSource::Presents), &WANT_10_TO_40);
    // Display [14.262, 16, 30]: T = 60.262 → avg = 3000/60.262; min = 1000/30;
    // max = 1000/14.262; p50 (h = 1) = 16.
    let d = summary(t, FrameTimeSource::Display);
    assert_close(d.avg_fps, 3000.0 / 60.262, "display avg_fps");
    assert_close(d.min_fps, 1000.0 / 30.0, "display min_fps");
    assert_close(d.max_fps, 1000.0 / 14.262, "display max_fps");
    assert_close(d.p50_ms, 16.0, "display p50");
}
