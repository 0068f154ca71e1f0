//! Tests of the parent module.

use super::*;

fn header(s: &str) -> Vec<String> {
    s.split(',').map(str::to_owned).collect()
}

#[test]
fn detects_presentmon_generations() {
    let v1 = header(
        "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed",
    );
    let l = detect(&v1, &[]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(l.format, Format::PresentMon1);
    assert_eq!(l.format_version, "1.2–1.6");
    assert_eq!(l.frame_time, FrameTimeRule::Column(10));
    assert_eq!(l.dropped, DroppedRule::Column(8));
    assert_eq!(l.display, Some(11));
    assert_eq!(l.time, Some(TimeColumn { index: 9, unit: TimeUnit::Seconds, role: TimeRole::Present }));
    let names: Vec<&str> = l.numeric.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "SyncInterval",
            "PresentFlags",
            "AllowsTearing",
            "MsInPresentAPI",
            "MsUntilRenderComplete",
            "MsUntilDisplayed"
        ]
    );

    let v20 = header(
        "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,CPUStartQPC,CPUBusy,CPUWait,GPULatency,GPUBusy,GPUWait,VideoBusy,DisplayLatency,DisplayedTime,ClickToPhotonLatency",
    );
    let l = detect(&v20, &[]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(l.format, Format::PresentMon20);
    assert_eq!(l.frame_time, FrameTimeRule::Sum(9, 10));
    assert_eq!(l.dropped, DroppedRule::ZeroDisplay(16));
    assert_eq!(l.time.map(|t| t.role), Some(TimeRole::FrameStart));

    let v21 = header(
        "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,FrameType,CPUStartQPC,FrameTime,CPUBusy,CPUWait,DisplayLatency,DisplayedTime",
    );
    let l = detect(&v21, &[]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(l.format, Format::PresentMon21);
    // DisplayLatency, not DisplayedTime: the last displayed frame's DisplayedTime is NA.
    assert_eq!(l.dropped, DroppedRule::MissingDisplay(13));
    assert!(l.display_shifted);
}

#[test]
fn a_missing_allows_tearing_column_is_not_the_1_0_layout() {
    let v = header(
        "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange",
    );
    let l = detect(&v, &[]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(l.format_version, "1.2–1.6");
    assert!(!l.display_shifted);
}

#[test]
fn a_repeated_column_is_kept_once() {
    let v = header("Application,ProcessID,SwapChainAddress,MsBetweenPresents,MsGPUBusy,msgpubusy,MsCPUBusy");
    let l = detect(&v, &[]).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = l.numeric.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["MsGPUBusy", "MsCPUBusy"]);
}

/// FRAPS's two columns, alone or with what a spreadsheet re-save adds; anything
/// else after them is no FRAPS file.
#[test]
fn fraps_with_a_spreadsheets_columns() {
    let sig = |names: &[&str]| {
        let h: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
        signature(&h, b';')
    };
    let fraps = Signature::Known(super::super::generic::KnownLayout::Fraps);
    assert_eq!(sig(&["Frame", "Time (ms)"]), fraps);
    assert_eq!(sig(&["Frame", "Time (ms)", "Time (s)", "Delta"]), fraps);
    assert_eq!(sig(&["FRAME", "time (ms)", "Delta", ""]), fraps);
    assert_eq!(sig(&["Frame", "Time (ms)", "Delta", "Delta"]), Signature::Other);
    assert_eq!(sig(&["Frame", "Time (ms)", "GPU (ms)"]), Signature::Other);
    assert_eq!(sig(&["Time (ms)", "Frame", "Delta"]), Signature::Other);
}

#[test]
fn names_what_a_wrong_file_is() {
    let summary = header("TimeStamp,Application,Log Name,Avg FPS,1% Low FPS");
    assert_eq!(detect(&summary, &[]).err(), Some(DetectError::SummaryFile));
    let junk = header("a,b,c");
    assert!(detect(&junk, &[]).is_err_and(|e| e.to_string().contains("header starts with: a, b, c")));
}
