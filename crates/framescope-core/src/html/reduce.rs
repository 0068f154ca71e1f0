//! A run's timeline and charts reduced for the page, while its trace is in memory: the
//! timeline as level-of-detail columns at power-of-two widths (the window's
//! [`lod`](crate::lod) structures: typical = median bar, slowest whisker, share of time
//! over the target), the raw frames when the page has room for them, the stutters, and
//! the chart curves. The trace can be dropped afterwards.

use super::encode::{base64, micros_or_none, push_signed, push_varint};
use crate::analysis::{FrameTimeSource, Series, Settings, SlowTimeCurve};
use crate::lod::{self, Budget, BudgetShares, SeriesIndex};
use crate::model::{Trace, percentile};
use crate::presentation::grids::{fps_grid, percentile_grid};
use crate::report::Run;
use rayon::prelude::*;
use serde::Serialize;

/// Frames per column the finest level aims at when the raw frames are embedded (the
/// page draws a closer view from them).
const FRAMES_PER_FINE_COLUMN: usize = 32;
/// Columns of the finest level when the raw frames are left out.
const MAX_FINE_COLUMNS: usize = 1 << 18;
/// Levels are added until one has at most this many columns (narrower than any view).
const COARSEST_COLUMNS: usize = 128;

/// One resolution of the timeline: columns `dt_ms` wide from the run's first frame,
/// each with its frames' typical and slowest value (varints of µs + 1, 0 for none),
/// frame count (varint) and shares of time over the budget and far over it (bytes,
/// 255 = all).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Level {
    dt_ms: f64,
    count: usize,
    typ: String,
    max: String,
    frames: String,
    over: String,
    far: String,
}

/// Every frame: values (varints of µs + 1) and starts (zigzag varints of each start's
/// step less the previous value, in µs), and the last frame's span.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Raw {
    values: String,
    starts: String,
    last_span_ms: f64,
}

/// The timeline of one run, reduced.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Timeline {
    /// Frames (samples) of the trace drawn.
    pub(crate) frames: usize,
    /// From the first frame's start to the last one's end.
    span_ms: f64,
    /// The body of the run: its 99th percentile × 1.6 (taller frames are clipped).
    pub(crate) scale_ms: f64,
    levels: Vec<Level>,
    /// The frames themselves, when the page keeps them (see [`PageRun::raw_frames`]).
    pub(crate) raw: Option<Raw>,
    /// Stutter frames: their starts (varint steps of µs) and indices (varint steps).
    stutter_ms: String,
    stutter_frames: String,
    stutters: usize,
}

/// The distribution charts of one run.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Charts {
    /// (percentile in %, frame time in ms).
    percentile: Vec<(f64, f64)>,
    /// (target FPS, slow-time %, excess-time %).
    pacing: Vec<(f64, f64, f64)>,
    /// The right end of the pacing chart.
    fps_max: f64,
    /// Frames per bin on the page's shared grid (filled in when the page is written).
    pub(crate) histogram: Vec<u64>,
    /// Frames past the last bin.
    pub(crate) overflow: u64,
}

/// A run's frame times kept for the page's shared histogram: distinct values (in
/// 0.1 µs, PresentMon's resolution) with their counts, and the span the bins cover.
#[derive(Debug, Clone, Default)]
pub(crate) struct Distribution {
    pub(crate) tenth_us: Vec<(u64, u64)>,
    pub(crate) min_ms: f64,
    pub(crate) p999_ms: f64,
}

/// What the page shows of one run besides its figures: name, system facts, reduced
/// timeline and charts. Build it with [`PageRun::new`] while the trace is loaded.
#[derive(Debug, Clone)]
pub struct PageRun {
    /// The name the page gives the run (the report's `file`, unless renamed).
    pub name: String,
    /// Key/value facts the capture states about the system, in file order.
    pub system: Vec<(String, String)>,
    pub(crate) timeline: Timeline,
    pub(crate) charts: Option<Charts>,
    pub(crate) distribution: Distribution,
    /// Health spikes, VSYNC, latency and telemetry over time.
    pub(crate) rows: super::rows::Rows,
}

impl PageRun {
    /// Reduces `trace` (the one `run` was computed from, trimmed as it was) for the
    /// page, coloured against `settings.target_fps`. `system` is the capture's
    /// `FileInfo::system`.
    #[must_use]
    pub fn new(run: &Run, system: &[(String, String)], trace: &Trace, settings: &Settings) -> Self {
        let source =
            if run.frame_time == "display" { FrameTimeSource::Display } else { FrameTimeSource::Presents };
        let series = Series::of(trace, source);
        let mut sorted = series.frame_time_ms.clone();
        sorted.par_sort_unstable_by(f64::total_cmp);
        let charts = (!run.sampled).then(|| charts(&sorted, series.total_ms())).flatten();
        let distribution = if run.sampled { Distribution::default() } else { distribution(&sorted) };
        let scale_ms = if sorted.is_empty() {
            1.0
        } else {
            crate::presentation::body_scale_ms(percentile(&sorted, 0.99))
        };
        drop(sorted);
        let stutters: Vec<u32> = run
            .stutters
            .as_ref()
            .map(|s| s.frames.iter().filter_map(|&k| series.frame_of(k)).collect())
            .unwrap_or_default();
        let rows = super::rows::Rows::new(run, trace, &series);
        drop(series);
        let f = &trace.frames;
        // A trace without display data keeps no display list: NaN intervals stand for it.
        let no_display;
        let values = match source {
            FrameTimeSource::Display if f.display_ms.len() != trace.len() => {
                no_display = vec![f64::NAN; trace.len()];
                &no_display
            }
            FrameTimeSource::Display => &f.display_ms,
            _ => &f.frame_time_ms,
        };
        let timeline = timeline(trace, values, Budget::of_fps(settings.target_fps), scale_ms, &stutters);
        Self { name: run.file.clone(), system: system.to_vec(), timeline, charts, distribution, rows }
    }

    /// Frames whose raw values the page embeds (0 when it keeps only the levels).
    #[must_use]
    pub fn raw_frames(&self) -> usize {
        if self.timeline.raw.is_some() { self.timeline.frames } else { 0 }
    }

    /// Leaves the raw frames out (the page's budget for them is spent): the page then
    /// zooms in only as far as the finest level.
    pub fn drop_raw(&mut self) {
        self.timeline.raw = None;
    }
}

/// The timeline's levels, raw frames and stutter marks.
fn timeline(trace: &Trace, values: &[f64], budget: Budget, scale_ms: f64, stutters: &[u32]) -> Timeline {
    let f = &trace.frames;
    let n = values.len();
    let spans = f.spans_ms();
    let t0 = f.start_ms.first().copied().unwrap_or(0.0);
    let span_ms = match (f.start_ms.last(), spans.last()) {
        (Some(s), Some(w)) => (s + w - t0).max(f64::MIN_POSITIVE),
        _ => 0.0,
    };
    let with_raw = n <= super::RAW_FRAME_BUDGET;
    let fine = if with_raw { n / FRAMES_PER_FINE_COLUMN } else { n.min(MAX_FINE_COLUMNS) }.max(1);
    let mut levels = Vec::new();
    if n > 0 {
        let index = SeriesIndex::new(values);
        let shares = BudgetShares::new(values, budget);
        let mut dt = 2f64.powf((span_ms / fine as f64).log2().ceil());
        let mut widths = Vec::new();
        loop {
            widths.push(dt);
            if (span_ms / dt).ceil() as usize <= COARSEST_COLUMNS {
                break;
            }
            dt *= 2.0;
        }
        let columns = |dt: f64| {
            let count = (span_ms / dt).ceil().max(1.0) as usize;
            let ranges = lod::column_ranges(&f.start_ms, spans, t0, dt, count);
            level(dt, &ranges, values, &index, &shares)
        };
        levels = widths.into_par_iter().map(columns).collect();
    }
    let mut stutter_ms = Vec::new();
    let mut stutter_frames = Vec::new();
    let (mut last_us, mut last_i) = (0i64, 0i64);
    for &i in stutters {
        let us = ((f.start_ms[i as usize] - t0) * 1000.0).round() as i64;
        push_signed(&mut stutter_ms, us - last_us);
        push_signed(&mut stutter_frames, i64::from(i) - last_i);
        (last_us, last_i) = (us, i64::from(i));
    }
    Timeline {
        frames: n,
        span_ms,
        scale_ms,
        levels,
        raw: (with_raw && n > 0).then(|| raw(&f.start_ms, spans, values)),
        stutter_ms: base64(&stutter_ms),
        stutter_frames: base64(&stutter_frames),
        stutters: stutters.len(),
    }
}

/// One level's columns.
fn level(
    dt_ms: f64,
    ranges: &[std::ops::Range<usize>],
    values: &[f64],
    index: &SeriesIndex,
    shares: &BudgetShares,
) -> Level {
    let (mut typ, mut max, mut frames, mut over, mut far) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut scratch = Vec::new();
    let byte = share_byte;
    for r in ranges {
        push_varint(&mut typ, micros_or_none(index.median.typical(values, r.clone(), &mut scratch)));
        let slowest = index.max.argmax(values, r.clone()).map_or(f64::NAN, |i| values[i]);
        push_varint(&mut max, micros_or_none(slowest));
        push_varint(&mut frames, r.len() as u64);
        let (o, x) = shares.share(values, r.clone()).unwrap_or((0.0, 0.0));
        over.push(byte(o));
        far.push(byte(x));
    }
    Level {
        dt_ms,
        count: ranges.len(),
        typ: base64(&typ),
        max: base64(&max),
        frames: base64(&frames),
        over: base64(&over),
        far: base64(&far),
    }
}

/// A share of time 0..1 as a byte (255 = all). A share that is not 0 (or not 1) never
/// rounds to 0 (or 255): the page's hover must not say "0 %" of a column whose slowest
/// frame is over the target.
fn share_byte(share: f32) -> u8 {
    match share {
        s if s <= 0.0 => 0,
        s if s >= 1.0 => 255,
        s => (s * 255.0).round().clamp(1.0, 254.0) as u8,
    }
}

/// Every frame's value and start, relative to the first start.
fn raw(start_ms: &[f64], spans: &[f64], values: &[f64]) -> Raw {
    let t0 = start_ms.first().copied().unwrap_or(0.0);
    let mut v = Vec::with_capacity(values.len() * 3);
    let mut s = Vec::with_capacity(values.len() + values.len() / 4);
    let (mut prev_start, mut prev_value) = (0i64, 0i64);
    for (&value, &start) in values.iter().zip(start_ms) {
        let q = micros_or_none(value);
        push_varint(&mut v, q);
        let us = ((start - t0) * 1000.0).round() as i64;
        push_signed(&mut s, us - prev_start - prev_value);
        prev_start = us;
        prev_value = q.saturating_sub(1) as i64;
    }
    Raw { values: base64(&v), starts: base64(&s), last_span_ms: spans.last().copied().unwrap_or(0.0) }
}

/// Percentile and pacing curves (the window's grids); `None` without frames.
fn charts(sorted: &[f64], total_ms: f64) -> Option<Charts> {
    let curve = SlowTimeCurve::from_sorted(sorted, total_ms)?;
    curve.sums();
    let round = |v: f64| (v * 1e4).round() / 1e4;
    let by_percentile = percentile_grid()
        .map(|k| (f64::from(k) / 1e4, round(percentile(sorted, f64::from(k) / 1e6))))
        .collect();
    let pacing = fps_grid()
        .map(|fps| {
            let (s, e) = curve.at(fps);
            (fps, round(100.0 * s), round(100.0 * e))
        })
        .collect();
    // 1.5 × the rate of the fastest 0.1 % of frames: past it S(F) is 100 %.
    let fastest = percentile(sorted, 0.001);
    let fps_max = if fastest > 0.0 { (1.5 * 1000.0 / fastest).clamp(10.0, 1000.0) } else { 1000.0 };
    Some(Charts { percentile: by_percentile, pacing, fps_max, histogram: Vec::new(), overflow: 0 })
}

/// The sorted frame times as distinct values (0.1 µs) and counts.
fn distribution(sorted: &[f64]) -> Distribution {
    let mut tenth_us: Vec<(u64, u64)> = Vec::new();
    for &v in sorted {
        let q = (v * 1e4).round() as u64;
        match tenth_us.last_mut() {
            Some((last, count)) if *last == q => *count += 1,
            _ => tenth_us.push((q, 1)),
        }
    }
    Distribution {
        tenth_us,
        min_ms: sorted.first().copied().unwrap_or(f64::NAN),
        p999_ms: percentile(sorted, 0.999),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::ingest::{LoadOptions, load_bytes};
    use std::fmt::Write as _;

    const HEADER: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,\
PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,\
MsUntilDisplayed";

    /// 0 and 1 stay; any other share is 1..=254, a tiny one 1, a near-whole one 254.
    #[test]
    fn a_share_that_is_not_0_or_1_never_rounds_to_them() {
        let bytes: Vec<u8> = [0.0, 0.0004, 0.004, 0.34, 0.999_9, 1.0].into_iter().map(share_byte).collect();
        assert_eq!(bytes, [0, 1, 1, 87, 254, 255]);
    }

    /// A PresentMon 1.x capture of frames `ft` (ms), its run and its page data at 60 FPS.
    fn page(ft: &[f64]) -> PageRun {
        let mut text = format!("{HEADER}\n");
        let mut t = 0.0;
        for v in ft {
            t += v;
            let _ = writeln!(
                text,
                "a.exe,1,0x1,DXGI,0,0,0,Hardware: Independent Flip,0,{:.6},{v:.3},{v:.3},0.4,1.5,5.0",
                t / 1000.0
            );
        }
        let capture =
            load_bytes(std::path::Path::new("a.csv"), text.as_bytes(), LoadOptions::default()).unwrap();
        let settings = Settings::default();
        let run = crate::report::run("a.csv", &capture, 0, &settings, None);
        PageRun::new(&run, &[], &capture.traces[0], &settings)
    }

    fn decode(b64: &str) -> Vec<u8> {
        let value = |c: u8| match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            _ => 63,
        };
        let clean: Vec<u8> = b64.bytes().filter(|&c| c != b'=').collect();
        let mut out = Vec::new();
        for chunk in clean.chunks(4) {
            let n =
                chunk.iter().enumerate().fold(0u32, |a, (i, &c)| a | (u32::from(value(c)) << (18 - 6 * i)));
            out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
        }
        out
    }

    fn varints(b64: &str) -> Vec<u64> {
        let mut out = Vec::new();
        let (mut v, mut shift) = (0u64, 0);
        for b in decode(b64) {
            v |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                out.push(v);
                (v, shift) = (0, 0);
            }
        }
        out
    }

    /// Eight frames, 10 ms but the fifth 40 ms: 110 ms. One column (2^7 = 128 ms wide,
    /// the first power of two over 110 ms / max(1, 8 / 32) columns) holds all eight:
    /// typical 10 ms (µs + 1 = 10 001), slowest 40 ms, and at 60 FPS (over 16.75 ms,
    /// far over 33.5 ms) the 40 ms frame is 40 / 110 = 36.4 % of the time over and far
    /// over: 0.364 · 255 = 92.7 → 93. Raw: every start follows the last one's end
    /// (steps 0). The 40 ms frame stutters (30 ms and 300 % over its window's median of
    /// 10 ms) and starts at 40 ms (zigzag 80 000).
    #[test]
    fn eight_frames_worked_by_hand() {
        let p = page(&[10.0, 10.0, 10.0, 10.0, 40.0, 10.0, 10.0, 10.0]);
        let t = &p.timeline;
        assert_eq!((t.frames, t.levels.len()), (8, 1));
        assert!((t.span_ms - 110.0).abs() < 1e-9, "{}", t.span_ms);
        let l = &t.levels[0];
        assert_eq!((l.dt_ms, l.count), (128.0, 1));
        assert_eq!(varints(&l.typ), [10_001]);
        assert_eq!(varints(&l.max), [40_001]);
        assert_eq!(varints(&l.frames), [8]);
        assert_eq!((decode(&l.over), decode(&l.far)), (vec![93], vec![93]));
        let raw = t.raw.as_ref().unwrap();
        assert_eq!(varints(&raw.values), [10_001, 10_001, 10_001, 10_001, 40_001, 10_001, 10_001, 10_001]);
        assert_eq!(varints(&raw.starts), [0; 8]);
        assert!((raw.last_span_ms - 10.0).abs() < 1e-12);
        assert_eq!(
            (t.stutters, varints(&t.stutter_ms), varints(&t.stutter_frames)),
            (1, vec![80_000], vec![8])
        );
        // The body scale: p99 of the frames (h = 7 · 0.99 = 6.93 between 10 and 40 in
        // the sorted series → 10 + 0.93 · 30 = 37.9) × 1.6 = 60.64.
        assert!((t.scale_ms - 60.64).abs() < 1e-9, "{}", t.scale_ms);
        assert_eq!(p.distribution.tenth_us, [(100_000, 7), (400_000, 1)]);
        let charts = p.charts.unwrap();
        assert_eq!(charts.percentile.len(), 461);
        assert_eq!(charts.percentile.last(), Some(&(100.0, 40.0)));
    }

    /// 2 000 frames of 5 ms: 10 s. The finest level aims at 2000 / 32 = 62 columns:
    /// 10 000 / 62 = 161.3 ms → 256 ms wide, 40 columns; that is no more than 128, so
    /// it is the only level. A column holds the 51 or 52 frames that start in it and
    /// the one reaching into it from the column before; the last, [9984, 10 240) ms,
    /// the three that start at 9985, 9990 and 9995 ms and the one from 9980 ms.
    #[test]
    fn levels_cover_every_frame() {
        let p = page(&[5.0; 2000]);
        let t = &p.timeline;
        assert_eq!(t.levels.len(), 1);
        let l = &t.levels[0];
        assert_eq!((l.dt_ms, l.count), (256.0, 40));
        let frames = varints(&l.frames);
        assert!(frames[..39].iter().all(|&n| (52..=53).contains(&n)), "{frames:?}");
        assert_eq!(frames[39], 4);
        assert!(frames.iter().sum::<u64>() >= 2000);
        assert!(varints(&l.typ).iter().all(|&v| v == 5_001));
        assert_eq!(decode(&l.over), [0; 40]);
    }
}
