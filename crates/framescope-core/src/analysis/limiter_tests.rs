//! Hand-built captures for the limiter and animation-error figures (`metrics.md` §13).

use super::*;

fn trace(csv: &str) -> Trace {
    let c = crate::ingest::load_bytes(
        std::path::Path::new("limiter.csv"),
        csv.as_bytes(),
        crate::ingest::LoadOptions::default(),
    );
    c.unwrap_or_else(|e| panic!("{e}")).traces.remove(0)
}

/// Six frames: `fc` = CPU busy + CPU wait.
/// 1: fc 10, GPU 9    → GPU (9 ≥ 0.9·10 = 9: the boundary is inclusive)
/// 2: fc 10, CPU 9, GPU 8.99 → CPU (9 ≥ 9, inclusive)
/// 3: fc 10, CPU 4, GPU 8.99 → neither
/// 4: fc 20, GPU 18   → GPU (18 ≥ 18)
/// 5: generated (XeSS-FG) with values that would be GPU-limited → unclassified
/// 6: GPU busy NA     → unclassified
/// Σ fc classified = 10 + 10 + 10 + 20 = 50: GPU (10 + 20)/50 = 0.6, CPU 10/50 = 0.2,
/// neither 0.2. GPU busy mean (9 + 8.99 + 8.99 + 18)/4 = 11.245, CPU busy mean
/// (5 + 9 + 4 + 10)/4 = 7, share 44.98/50 = 0.8996, deviation round(10.04) = 10.
const CAPTURE: &str = "Application,ProcessID,SwapChainAddress,MsBetweenPresents,MsCPUBusy,MsCPUWait,MsGPUBusy,FrameType,MsAnimationError\n\
    g.exe,1,0x1,10,5,5,9,Application,0.5\n\
    g.exe,1,0x1,10,9,1,8.99,Application,-2\n\
    g.exe,1,0x1,10,4,6,8.99,Application,1\n\
    g.exe,1,0x1,20,10,10,18,Application,NA\n\
    g.exe,1,0x1,10,5,5,9,Intel XeSS-FG,3\n\
    g.exe,1,0x1,10,5,5,NA,Application,-1800000000000000\n";

#[test]
fn frames_classify_at_the_inclusive_boundary() {
    let t = trace(CAPTURE);
    let cols = BusyColumns::of(&t).expect("the columns");
    let classes: Vec<Option<Class>> = (0..cols.len()).map(|i| cols.frame(i).class).collect();
    assert_eq!(
        classes,
        [Some(Class::Gpu), Some(Class::Cpu), Some(Class::Neither), Some(Class::Gpu), None, None]
    );
    // Just under the boundary on either side.
    assert_eq!(Class::of(5.0, 10.0, 8.999_999), Some(Class::Neither));
    assert_eq!(Class::of(8.999_999, 10.0, 0.0), Some(Class::Neither));
    assert_eq!(Class::of(9.0, 10.0, 9.0), Some(Class::Gpu), "GPU is asked first");
    assert_eq!(Class::of(5.0, 0.0, 9.0), None, "fc must be above 0");
}

#[test]
fn run_fractions_means_and_share() {
    let l = Limiter::of(&trace(CAPTURE)).expect("a limiter");
    assert_eq!(l.classified_frames, 4);
    assert_eq!(l.main, "gpu");
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    assert!(close(l.gpu_time_fraction, 0.6), "{l:?}");
    assert!(close(l.cpu_time_fraction, 0.2), "{l:?}");
    assert!(close(l.neither_time_fraction, 0.2), "{l:?}");
    assert!(close(l.gpu_busy_mean_ms, 11.245), "{l:?}");
    assert!(close(l.cpu_busy_mean_ms, 7.0), "{l:?}");
    assert!(close(l.gpu_busy_share, 0.8996), "{l:?}");
    assert!(close(l.gpu_active_deviation_pct(), 10.0));
}

#[test]
fn no_columns_no_limiter() {
    // PresentMon 1.x: no CPU/GPU busy columns.
    let t = trace("Application,ProcessID,SwapChainAddress,MsBetweenPresents,msGPUActive\ng.exe,1,0x1,10,9\n");
    assert!(BusyColumns::of(&t).is_none());
    assert_eq!(Limiter::of(&t), None);
    // GPU busy without CPU wait is not enough either.
    let t = trace(
        "Application,ProcessID,SwapChainAddress,MsBetweenPresents,MsCPUBusy,MsGPUBusy\ng.exe,1,0x1,10,9,9\n",
    );
    assert_eq!(Limiter::of(&t), None);
    // The columns, but only generated frames: nothing classified, no figures.
    let t = trace(
        "Application,ProcessID,SwapChainAddress,MsBetweenPresents,MsCPUBusy,MsCPUWait,MsGPUBusy,FrameType\n\
         g.exe,1,0x1,10,0,0,0,Intel XeSS-FG\n",
    );
    assert_eq!(Limiter::of(&t), None);
}

#[test]
fn animation_error_p99_and_share_over_1ms() {
    // |v| of the cells below 10⁶: 0.5, 2, 1, 3 (the −1.8·10¹⁵ cell is garbage, NA is no
    // value). Sorted 0.5, 1, 2, 3: h = 3 · 0.99 = 2.97 → 2 + 0.97 · (3 − 2) = 2.97.
    // Over 1 ms (strictly): 2 and 3 → 2 of 4 = 0.5.
    let (p99, over) = animation_error(&trace(CAPTURE)).expect("animation error");
    assert!((p99 - 2.97).abs() < 1e-12, "{p99}");
    assert!((over - 0.5).abs() < 1e-12, "{over}");
}

#[test]
fn engines_classify_on_their_own_columns() {
    // Unity recorder: fc = cpuFrameTime (the frame time), CPUBusy = main thread,
    // GPUBusy = gpuFrameTime. Frame 1: fc 16, main 9, GPU 14.4 → GPU (14.4 ≥ 14.4);
    // frame 2: fc 10, main 9, GPU 5 → CPU.
    let csv = "frame,cpuFrameTime,cpuMainThreadFrameTime,cpuRenderThreadFrameTime,gpuFrameTime\n\
               1,16,9,7,14.4\n2,10,9,7,5\n";
    let l = Limiter::of(&trace(csv)).expect("Unity limiter");
    assert_eq!(l.classified_frames, 2);
    assert!((l.gpu_time_fraction - 16.0 / 26.0).abs() < 1e-12, "{l:?}");
    assert!((l.cpu_time_fraction - 10.0 / 26.0).abs() < 1e-12, "{l:?}");
    // Unreal: GameThreadTime and GPUTime against FrameTime.
    let csv = "EVENTS,FrameTime,GameThreadTime,RenderThreadTime,GPUTime\n,20,19,5,10\n,20,5,5,10\n";
    let l = Limiter::of(&trace(csv)).expect("Unreal limiter");
    assert_eq!((l.main, l.classified_frames), ("cpu", 2));
    assert!((l.neither_time_fraction - 0.5).abs() < 1e-12, "{l:?}");
}
