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
        (0..cols.len()).for_each(|i| tally.add(cols.frame(i)));
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

#[cfg(test)]
#[path = "limiter_tests.rs"]
mod tests;
