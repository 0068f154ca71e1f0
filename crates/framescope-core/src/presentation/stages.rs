//! Latency stages stacked per frame, as a timeline's latency row draws them: CPU
//! until Present(), Present() to GPU done and GPU done to display from the capture's
//! own columns; an engine's main thread, render submit and GPU from its timestamps
//! (`formats.md` §7); or the PC-latency breakdown of a PCL marker log (I2FS, FS2P,
//! P2D). Each stage keeps its per-frame values and a median index, so that a
//! zoomed-out column stacks each stage's typical value.

use crate::analysis::PclLatency;
use crate::analysis::high_percentile::percentile_unsorted;
use crate::lod::{MedianIndex, SeriesIndex};
use crate::model::{Column, ColumnKind, Trace, Values};

/// One stacked segment kind of the latency row.
pub struct Segment {
    /// What it is.
    pub name: &'static str,
    /// Value per frame (ms, NaN = missing).
    pub values: Vec<f64>,
    /// Its typical value per range (the stack of a zoomed-out column).
    pub median: MedianIndex,
}

impl Segment {
    fn new(name: &'static str, values: Vec<f64>) -> Self {
        Self { name, median: MedianIndex::new(&values), values }
    }
}

/// Stacked per-frame segments (latency stages), with what the level of detail needs.
pub struct Stack {
    /// The segments, bottom first.
    pub segments: Vec<Segment>,
    /// How a frame's total is summed from its segments ([`Stack::total`], computed on
    /// the fly: no column of every frame's total).
    rule: Total,
    /// Index over the totals.
    pub index: SeriesIndex,
    /// A scale that shows the body of the totals (p99 · 1.6, at least 1 ms).
    pub scale_ms: f64,
    /// What the row is called.
    pub label: &'static str,
}

/// How a frame's total is summed from its (three) segments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Total {
    /// The capture's own stages: the sum when the frame has a stack (its first
    /// segment has a value), else NaN.
    Capture,
    /// An engine's: the sum when every stage has a value, else NaN.
    Engine,
    /// PCL: the sum of the stages with a value; NaN when none has one.
    Pcl,
}

impl Stack {
    fn new(label: &'static str, segments: Vec<Segment>, rule: Total) -> Self {
        let n = segments.first().map_or(0, |s| s.values.len());
        let mut stack = Self { index: SeriesIndex::default(), segments, rule, scale_ms: 1.0, label };
        let body = (0..n).map(|i| stack.total(i)).filter(|v| v.is_finite());
        stack.scale_ms = (percentile_unsorted(body, 0.99) * 1.6).max(1.0);
        stack.index = SeriesIndex::from_fn(n, |i| stack.total(i));
        stack
    }

    /// Number of frames.
    #[must_use]
    pub fn len(&self) -> usize {
        self.segments.first().map_or(0, |s| s.values.len())
    }

    /// True without frames.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Frame `i`'s total: the sum of its segments (NaN when it has none, or past
    /// the end).
    #[must_use]
    pub fn total(&self, i: usize) -> f64 {
        let part = |k: usize| self.segments.get(k).and_then(|s| s.values.get(i)).copied().unwrap_or(f64::NAN);
        let parts = [part(0), part(1), part(2)];
        let parts = &parts[..self.segments.len().min(3)];
        match self.rule {
            Total::Capture if parts.first().is_some_and(|v| v.is_nan()) => f64::NAN,
            Total::Capture => parts.iter().sum(),
            Total::Engine if parts.iter().all(|v| v.is_finite()) => parts.iter().sum(),
            Total::Engine => f64::NAN,
            Total::Pcl if parts.iter().all(|v| v.is_nan()) => f64::NAN,
            Total::Pcl => parts.iter().filter(|v| v.is_finite()).sum(),
        }
    }
}

/// The latency stages of a trace: an engine's (its latency-stage columns) when it has
/// them, else CPU work until Present(), Present() to GPU done and GPU done to display
/// from whichever of the capture's columns say so; `None` when the capture has neither
/// (no display time to end the stack).
#[must_use]
pub fn latency_stack(trace: &Trace) -> Option<Stack> {
    if let Some(stack) = engine_stack(trace) {
        return Some(stack);
    }
    let col = |kinds: &[ColumnKind]| kinds.iter().find_map(|&k| trace.column(k)).map(|c| &c.values);
    let cpu = col(&[ColumnKind::CpuBusy]);
    let render = col(&[ColumnKind::RenderPresentLatency, ColumnKind::UntilRenderComplete]);
    let until = col(&[ColumnKind::UntilDisplayed]);
    let display_latency = col(&[ColumnKind::DisplayLatency]);
    if until.is_none() && display_latency.is_none() {
        return None;
    }
    let n = trace.len();
    let at =
        |c: Option<&Values>, i: usize| c.map_or(0.0, |v| if v.at(i).is_finite() { v.at(i) } else { 0.0 });
    let mut segments = [
        ("CPU until Present", vec![f64::NAN; n]),
        ("Present to GPU done", vec![f64::NAN; n]),
        ("GPU done to display", vec![f64::NAN; n]),
    ];
    for i in 0..n {
        let (c, r) = (at(cpu, i), at(render, i));
        let to_display = match (until.map(|u| u.at(i)), display_latency.map(|d| d.at(i))) {
            (Some(u), _) if u.is_finite() => u - r,
            (_, Some(d)) if d.is_finite() => d - c - r,
            _ => continue,
        };
        let parts = [c, r, to_display.max(0.0)];
        for (seg, v) in segments.iter_mut().zip(parts) {
            seg.1[i] = v;
        }
    }
    let segments = segments.into_iter().map(|(name, values)| Segment::new(name, values)).collect();
    Some(Stack::new("Latency\nCPU · GPU · display", segments, Total::Capture))
}

/// An engine's latency stages from its timestamps (Unity: main thread, render submit,
/// GPU; `formats.md` §7), or a latency-measurement log's (pyrofling: input to present,
/// present to GPU idle, GPU idle to display), in the capture's order; a frame's total is
/// the sum of its stages when it has all of them.
fn engine_stack(trace: &Trace) -> Option<Stack> {
    const NAMES: [&str; 3] = ["Main thread", "Render submit", "GPU"];
    const MEASURED: [(ColumnKind, &str); 3] = [
        (ColumnKind::InputToPresent, "Input to present"),
        (ColumnKind::PresentToGpuIdle, "Present to GPU idle"),
        (ColumnKind::GpuIdleToDisplay, "GPU idle to display"),
    ];
    let engine: Vec<&Column> =
        trace.frames.columns.iter().filter(|c| c.kind == ColumnKind::LatencyStage).take(3).collect();
    let duration = trace.column(ColumnKind::FrameDuration);
    let (stages, names, title): (Vec<&Column>, Vec<&str>, &str) =
        if let (true, Some(d)) = (engine.is_empty(), duration) {
            (vec![d], vec!["Frame duration"], "Latency\nframe duration")
        } else if engine.is_empty() {
            let found: Vec<(&Column, &str)> =
                MEASURED.iter().filter_map(|&(k, name)| trace.column(k).map(|c| (c, name))).collect();
            let (stages, names) = found.into_iter().unzip();
            (stages, names, "Latency\ninput · GPU · display")
        } else {
            (engine, NAMES.to_vec(), "Latency\nmain · submit · GPU")
        };
    if stages.is_empty() || stages.iter().all(|c| c.values.all_missing()) {
        return None;
    }
    let segments =
        stages.iter().zip(names).map(|(c, name)| Segment::new(name, c.values.iter().collect())).collect();
    Some(Stack::new(title, segments, Total::Engine))
}

/// The PC-latency breakdown of a marker log per capture frame: I2FS (on the frame
/// whose simulation start ended it), FS2P and P2D; `None` when no frame has any.
#[must_use]
pub fn pcl_stack(trace: &Trace, pcl: &PclLatency) -> Option<Stack> {
    let n = trace.len();
    let mut seg = [vec![f64::NAN; n], vec![f64::NAN; n], vec![f64::NAN; n]];
    let mut by_id = std::collections::HashMap::new();
    for f in &pcl.frames {
        if let Some(i) = f.trace_frame {
            by_id.insert(f.frame_id, i);
            seg[1][i] = f.fs2p_ms.unwrap_or(f64::NAN);
            seg[2][i] = f.p2d_ms.unwrap_or(f64::NAN);
        }
    }
    for (v, id) in pcl.i2fs_ms.iter().zip(&pcl.i2fs_frame_ids) {
        if let Some(&i) = by_id.get(id) {
            seg[0][i] = *v;
        }
    }
    if (0..n).all(|i| seg.iter().all(|s| s[i].is_nan())) {
        return None;
    }
    let [i2fs, fs2p, p2d] = seg;
    let segments = vec![Segment::new("I2FS", i2fs), Segment::new("FS2P", fs2p), Segment::new("P2D", p2d)];
    Some(Stack::new("PC latency\nI2FS · FS2P · P2D", segments, Total::Pcl))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{LoadOptions, load_bytes};
    use std::path::Path;

    fn load(name: &str, text: &str) -> Trace {
        let c = load_bytes(Path::new(name), text.as_bytes(), LoadOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        c.traces.into_iter().next().unwrap_or_else(|| panic!("no trace"))
    }

    /// The Unity recorder example's first frame: frame start 50000000000, first submit
    /// +45000 ticks, Present +115000, complete +225000 at 10 MHz: 4.5 + 7 + 11 = 22.5 ms.
    #[test]
    fn unity_stages_make_the_latency_row() {
        let bytes = include_bytes!("../../../../sample-traces/unity-recorder-example.csv");
        let c =
            load_bytes(Path::new("u.csv"), bytes, LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let stack = latency_stack(&c.traces[0]).unwrap_or_else(|| panic!("no latency row"));
        assert_eq!(stack.segments.len(), 3);
        assert_eq!(stack.label, "Latency\nmain · submit · GPU");
        assert!((stack.total(0) - 22.5).abs() < 1e-9, "{}", stack.total(0));
        assert!((stack.segments[0].values[0] - 4.5).abs() < 1e-9);
    }

    /// PresentMon 2.x columns: CPU busy 3 ms, render-present latency 2 ms, until
    /// displayed 9 ms: CPU until Present 3, Present to GPU done 2, GPU done to display
    /// 9 − 2 = 7 (until-displayed counts from Present()), total 12 ms. A capture
    /// without any display time has no latency row.
    #[test]
    fn presentmon_columns_stack_cpu_gpu_and_display() {
        let header = "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,\
                      AllowsTearing,PresentMode,CPUStartTime,MsBetweenPresents,MsInPresentAPI,\
                      MsCPUBusy,MsRenderPresentLatency,MsUntilDisplayed";
        let mut text = format!("{header}\n");
        for k in 0..4 {
            text.push_str("g.exe,1,0x1,DXGI,1,0,0,Hardware: Legacy Flip,");
            text.push_str(&(k * 16).to_string());
            text.push_str(
                ",16.0,0.1,3.0,2.0,9.0
",
            );
        }
        let trace = load("pm.csv", &text);
        let stack = latency_stack(&trace).unwrap_or_else(|| panic!("no latency row"));
        let firsts: Vec<f64> = stack.segments.iter().map(|s| s.values[1]).collect();
        assert_eq!(firsts, [3.0, 2.0, 7.0]);
        assert!((stack.total(1) - 12.0).abs() < 1e-9);
        let plain = load("f.csv", "MsBetweenPresents\n16\n17\n16\n");
        assert!(latency_stack(&plain).is_none());
    }

    /// The totals computed on the fly are those of the stored column they replace, bit
    /// for bit (CPU + render + max(until displayed − render, 0), NaN without a display
    /// time), and so are the scale and both pyramids over 3000 frames.
    #[test]
    fn totals_on_the_fly_are_the_stored_ones() {
        use std::fmt::Write as _;
        let mut text = String::from(
            "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,\
             PresentMode,CPUStartTime,MsBetweenPresents,MsCPUBusy,MsRenderPresentLatency,MsUntilDisplayed\n",
        );
        let mut want = Vec::new();
        for k in 0..3000_u32 {
            let (c, r, u) =
                (f64::from(k % 7) * 0.37 + 1.1, f64::from(k % 5) * 0.61, f64::from(k % 11) * 0.93);
            let until = if k % 13 == 4 { "NA".to_owned() } else { format!("{u}") };
            let _ = writeln!(text, "g.exe,1,0x1,DXGI,1,0,0,Hardware: Legacy Flip,{k},16.0,{c},{r},{until}");
            want.push(if k % 13 == 4 { f64::NAN } else { c + r + (u - r).max(0.0) });
        }
        let stack = latency_stack(&load("pm.csv", &text)).unwrap_or_else(|| panic!("no latency row"));
        let bits = |v: f64| v.to_bits();
        assert_eq!(stack.len(), want.len());
        for (i, &w) in want.iter().enumerate() {
            assert_eq!(bits(stack.total(i)), bits(w), "frame {i}");
        }
        let body = want.iter().copied().filter(|v| v.is_finite());
        assert_eq!(bits(stack.scale_ms), bits((percentile_unsorted(body, 0.99) * 1.6).max(1.0)));
        let stored = SeriesIndex::new(&want);
        let mut scratch = Vec::new();
        for r in [0..3000, 5..2999, 256..4096, 17..40, 1000..1001] {
            let max = stack.index.max.argmax_by(stack.len(), |i| stack.total(i), r.clone());
            assert_eq!(max, stored.max.argmax(&want, r.clone()), "{r:?}");
            let typical =
                stack.index.median.typical_by(stack.len(), |i| stack.total(i), r.clone(), &mut scratch);
            assert_eq!(bits(typical), bits(stored.median.typical(&want, r.clone(), &mut scratch)), "{r:?}");
        }
    }
}
