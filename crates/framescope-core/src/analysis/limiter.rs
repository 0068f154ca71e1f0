//! What limits the frame rate: CPU, GPU or neither (`metrics.md` §13), per frame and
//! per run, and the animation-error figures of the same section.
//!
//! PresentMon 2.x gives each frame its CPU busy and wait times (their sum is the frame's
//! CPU interval `fc`) and its GPU busy time. A frame is GPU-limited when `GPUBusy ≥ 0.9 ·
//! fc`, else CPU-limited when `CPUBusy ≥ 0.9 · fc`, else neither (both waited). Unity and
//! Unreal captures classify on their main/game-thread time, GPU time and frame time.

use crate::model::{ColumnKind, Trace, percentile};
use serde::Serialize;

/// The share of the frame's CPU interval a busy time must reach to limit it.
pub const LIMIT_SHARE: f64 = 0.9;

/// The engine columns that stand for `CPUBusy` (main or game thread), any case.
const ENGINE_MAIN_THREAD: [&str; 3] =
    ["cpuMainThreadFrameTime", "CPU Main Thread Frame Time", "GameThreadTime"];

/// One frame's limiter class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// The GPU was busy for at least 90 % of the frame's CPU interval.
    Gpu,
    /// Not GPU-limited, and the CPU was busy for at least 90 % of it.
    Cpu,
    /// Both waited: a frame cap, VSYNC, the display or a pipeline stall.
    Neither,
}

impl Class {
    /// The class's name in the report (`"gpu"`, `"cpu"`, `"neither"`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Gpu => "gpu",
            Self::Cpu => "cpu",
            Self::Neither => "neither",
        }
    }

    /// Classifies one frame from its CPU busy time, CPU interval `fc` and GPU busy time
    /// (ms); `None` when a value is missing or `fc` is not above 0.
    #[must_use]
    pub fn of(cpu_busy: f64, fc: f64, gpu_busy: f64) -> Option<Self> {
        if cpu_busy.is_nan() || gpu_busy.is_nan() || fc.is_nan() || fc <= 0.0 {
            return None;
        }
        Some(if gpu_busy >= LIMIT_SHARE * fc {
            Self::Gpu
        } else if cpu_busy >= LIMIT_SHARE * fc {
            Self::Cpu
        } else {
            Self::Neither
        })
    }
}

/// One frame's inputs to the classification, in ms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrameBusy {
    /// CPU busy (or the engine's main/game-thread time).
    pub cpu_busy_ms: f64,
    /// The frame's CPU interval `fc` (CPU busy + CPU wait, or the engine's frame time).
    pub fc_ms: f64,
    /// GPU busy (or the engine's GPU time).
    pub gpu_busy_ms: f64,
    /// The frame's class; `None` for an unclassified frame (missing values, generated).
    pub class: Option<Class>,
}

/// Reads each frame's CPU busy, CPU interval and GPU busy from a trace's columns;
/// `None` when the trace lacks them (`metrics.md` §13: PresentMon 1.x, sampled logs,
/// engine logs without a GPU time).
#[derive(Debug, Clone, Copy)]
pub struct BusyColumns<'a> {
    trace: &'a Trace,
    cpu_busy: &'a crate::model::Values,
    gpu_busy: &'a crate::model::Values,
    /// `CPUWait` for PresentMon; `None` for an engine (its frame time is `fc`).
    cpu_wait: Option<&'a crate::model::Values>,
}

impl<'a> BusyColumns<'a> {
    /// The columns of `trace`, when it has them.
    #[must_use]
    pub fn of(trace: &'a Trace) -> Option<Self> {
        if trace.is_sampled() {
            return None;
        }
        let values = |kind| trace.column(kind).map(|c| &c.values);
        if let (Some(cpu_busy), Some(cpu_wait), Some(gpu_busy)) =
            (values(ColumnKind::CpuBusy), values(ColumnKind::CpuWait), values(ColumnKind::GpuBusy))
        {
            return Some(Self { trace, cpu_busy, gpu_busy, cpu_wait: Some(cpu_wait) });
        }
        let main = trace.frames.columns.iter().find(|c| {
            c.kind == ColumnKind::EngineThread
                && ENGINE_MAIN_THREAD.iter().any(|n| n.eq_ignore_ascii_case(&c.name))
        })?;
        let gpu = values(ColumnKind::EngineGpu)?;
        Some(Self { trace, cpu_busy: &main.values, gpu_busy: gpu, cpu_wait: None })
    }

    /// Frame `i`'s values and class. Generated frames are never classified (they do no
    /// CPU or GPU work of their own, `metrics.md` §6).
    #[must_use]
    pub fn frame(&self, i: usize) -> FrameBusy {
        let f = &self.trace.frames;
        let cpu_busy_ms = self.cpu_busy.at(i);
        let gpu_busy_ms = self.gpu_busy.at(i);
        let fc_ms = match self.cpu_wait {
            Some(wait) => cpu_busy_ms + wait.at(i),
            None => f.frame_time_ms.get(i).copied().unwrap_or(f64::NAN),
        };
        let generated = f.frame_type.get(i).is_some_and(|t| t.is_generated());
        let class = if generated { None } else { Class::of(cpu_busy_ms, fc_ms, gpu_busy_ms) };
        FrameBusy { cpu_busy_ms, fc_ms, gpu_busy_ms, class }
    }

    /// Every frame's values and class in order, as [`BusyColumns::frame`] gives them,
    /// with the columns read a block at a time ([`crate::model::Values::iter`]); false
    /// (nothing called) when a column is not as long as the trace.
    pub fn for_each_frame(&self, mut f: impl FnMut(FrameBusy)) -> bool {
        let (n, frames) = (self.len(), &self.trace.frames);
        let fc_part_len = self.cpu_wait.map_or(frames.frame_time_ms.len(), crate::model::Values::len);
        if self.cpu_busy.len() != n || self.gpu_busy.len() != n || fc_part_len != n {
            return false;
        }
        let mut each = |i: usize, cpu_busy_ms: f64, gpu_busy_ms: f64, fc_ms: f64| {
            let generated = frames.frame_type.get(i).is_some_and(|t| t.is_generated());
            let class = if generated { None } else { Class::of(cpu_busy_ms, fc_ms, gpu_busy_ms) };
            f(FrameBusy { cpu_busy_ms, fc_ms, gpu_busy_ms, class });
        };
        let busy = self.cpu_busy.iter().zip(self.gpu_busy.iter()).enumerate();
        match self.cpu_wait {
            Some(wait) => busy.zip(wait.iter()).for_each(|((i, (c, g)), w)| each(i, c, g, c + w)),
            None => busy.zip(&frames.frame_time_ms).for_each(|((i, (c, g)), &ft)| each(i, c, g, ft)),
        }
        true
    }

    /// Number of frames of the trace.
    #[must_use]
    pub fn len(&self) -> usize {
        self.trace.len()
    }

    /// True when the trace has no frames.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.trace.is_empty()
    }
}

/// The run's `limiter` section (`metrics.md` §13, `cli-report.md`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Limiter {
    /// The class with the largest time fraction (`"gpu"`, `"cpu"`, `"neither"`; a tie
    /// goes to the first in that order).
    pub main: &'static str,
    /// `Σ fc` of GPU-limited frames over `Σ fc` of all classified frames.
    pub gpu_time_fraction: f64,
    /// The same for CPU-limited frames.
    pub cpu_time_fraction: f64,
    /// The same for frames limited by neither.
    pub neither_time_fraction: f64,
    /// Frames with all three values (`fc` > 0), generated frames left out.
    pub classified_frames: usize,
    /// Mean GPU busy over the classified frames.
    pub gpu_busy_mean_ms: f64,
    /// Mean CPU busy over the classified frames.
    pub cpu_busy_mean_ms: f64,
    /// `Σ GPUBusy / Σ fc` over the classified frames.
    pub gpu_busy_share: f64,
}

/// Running sums of classified frames, in frame order.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tally {
    /// `Σ fc` per class: GPU, CPU, neither.
    pub fc_ms: [f64; 3],
    /// Classified frames.
    pub frames: usize,
    /// `Σ GPUBusy`.
    pub gpu_busy_ms: f64,
    /// `Σ CPUBusy`.
    pub cpu_busy_ms: f64,
}

impl Tally {
    /// Adds one frame (unclassified frames add nothing).
    pub fn add(&mut self, b: FrameBusy) {
        let Some(class) = b.class else { return };
        self.fc_ms[class as usize] += b.fc_ms;
        self.frames += 1;
        self.gpu_busy_ms += b.gpu_busy_ms;
        self.cpu_busy_ms += b.cpu_busy_ms;
    }

    /// The figures; `None` when no frame was classified.
    #[must_use]
    pub fn limiter(&self) -> Option<Limiter> {
        let total: f64 = self.fc_ms.iter().sum();
        if self.frames == 0 || total <= 0.0 {
            return None;
        }
        let [gpu, cpu, neither] = self.fc_ms.map(|s| s / total);
        let main = if gpu >= cpu && gpu >= neither {
            Class::Gpu
        } else if cpu >= neither {
            Class::Cpu
        } else {
            Class::Neither
        };
        let n = self.frames as f64;
        Some(Limiter {
            main: main.name(),
            gpu_time_fraction: gpu,
            cpu_time_fraction: cpu,
            neither_time_fraction: neither,
            classified_frames: self.frames,
            gpu_busy_mean_ms: self.gpu_busy_ms / n,
            cpu_busy_mean_ms: self.cpu_busy_ms / n,
            gpu_busy_share: self.gpu_busy_ms / total,
        })
    }
}

impl Limiter {
    /// The limiter over every frame of a trace (whatever the frame-time source, as the
    /// latency figures); `None` without the columns or without a classified frame.
    #[must_use]
    pub fn of(trace: &Trace) -> Option<Self> {
        let cols = BusyColumns::of(trace)?;
        let mut tally = Tally::default();
        if !cols.for_each_frame(|b| tally.add(b)) {
            (0..cols.len()).for_each(|i| tally.add(cols.frame(i)));
        }
        tally.limiter()
    }

    /// CapFrameX's "GPU active deviation": `round(|1 − gpu_busy_share| · 100)`, half to
    /// even as C#'s `Math.Round`.
    #[must_use]
    pub fn gpu_active_deviation_pct(&self) -> f64 {
        ((1.0 - self.gpu_busy_share).abs() * 100.0).round_ties_even()
    }

    /// The time fraction of one class.
    #[must_use]
    pub fn fraction(&self, class: Class) -> f64 {
        match class {
            Class::Gpu => self.gpu_time_fraction,
            Class::Cpu => self.cpu_time_fraction,
            Class::Neither => self.neither_time_fraction,
        }
    }
}

/// Animation-error cells at or beyond this size (ms) are garbage, not errors.
pub const ANIMATION_ERROR_LIMIT_MS: f64 = 1e6;

/// `animation_error_p99_abs_ms` and `animation_error_over_1ms_fraction` of a trace
/// (`metrics.md` §13): the 99th percentile of |v| (§2's interpolation) and the share of
/// frames with a value whose |v| exceeds 1 ms, over the cells below 10⁶ ms in size.
#[must_use]
pub fn animation_error(trace: &Trace) -> Option<(f64, f64)> {
    let column = trace.column(ColumnKind::AnimationError)?;
    let mut abs: Vec<f64> =
        column.values.iter().map(f64::abs).filter(|v| *v < ANIMATION_ERROR_LIMIT_MS).collect();
    if abs.is_empty() {
        return None;
    }
    abs.sort_unstable_by(f64::total_cmp);
    let over = abs.iter().filter(|&&v| v > 1.0).count();
    Some((percentile(&abs, 0.99), over as f64 / abs.len() as f64))
}

/// Hand-built captures for the limiter and animation-error figures.
#[cfg(test)]
mod tests {
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
        let mut each = Vec::new();
        assert!(cols.for_each_frame(|b| each.push(b)));
        let bits =
            |b: &FrameBusy| (b.cpu_busy_ms.to_bits(), b.fc_ms.to_bits(), b.gpu_busy_ms.to_bits(), b.class);
        let by_index: Vec<_> = (0..cols.len()).map(|i| bits(&cols.frame(i))).collect();
        assert_eq!(each.iter().map(bits).collect::<Vec<_>>(), by_index);
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
        let t =
            trace("Application,ProcessID,SwapChainAddress,MsBetweenPresents,msGPUActive\ng.exe,1,0x1,10,9\n");
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

    /// Reading the columns a block at a time gives every frame what `frame(i)` gives,
    /// across blocks, with missing cells and generated frames, for PresentMon and an
    /// engine log (whose `fc` is the frame time).
    #[test]
    fn each_frame_in_blocks_is_frame_by_index() {
        use std::fmt::Write;
        let mut pm = String::from(
            "Application,ProcessID,SwapChainAddress,MsBetweenPresents,MsCPUBusy,MsCPUWait,MsGPUBusy,FrameType\n",
        );
        let mut unity = String::from("frame,cpuFrameTime,cpuMainThreadFrameTime,gpuFrameTime\n");
        for i in 0..300u32 {
            let busy = if i % 37 == 5 {
                "NA".to_string()
            } else {
                format!("{}.{:04}", 3 + i % 9, i * 7919 % 10_000)
            };
            let kind = if i % 29 == 3 { "Intel XeSS-FG" } else { "Application" };
            let gpu = format!("{}.{:04}", 2 + i % 13, i * 104_729 % 10_000);
            writeln!(pm, "g.exe,1,0x1,10,{busy},{}.5,{gpu},{kind}", i % 4).unwrap();
            writeln!(unity, "{i},{}.25,{busy},{gpu}", 8 + i % 5).unwrap();
        }
        for csv in [pm, unity] {
            let t = trace(&csv);
            let cols = BusyColumns::of(&t).expect("the columns");
            assert_eq!(cols.len(), 300);
            let bits = |b: &FrameBusy| {
                (b.cpu_busy_ms.to_bits(), b.fc_ms.to_bits(), b.gpu_busy_ms.to_bits(), b.class)
            };
            let mut each = Vec::new();
            assert!(cols.for_each_frame(|b| each.push(bits(&b))));
            let by_index: Vec<_> = (0..cols.len()).map(|i| bits(&cols.frame(i))).collect();
            assert_eq!(each, by_index);
            assert!(
                by_index.iter().any(|b| b.3.is_none()) && by_index.iter().any(|b| b.3 == Some(Class::Cpu))
            );
        }
    }
}
