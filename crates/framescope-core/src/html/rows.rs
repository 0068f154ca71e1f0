//! What a run's page shows under its frame times, as the window does (issue 40): the
//! frame-health spikes, the refresh grid (VSYNC), and telemetry and latency over time
//! as min–max bands, reduced while the trace is in memory. The page writes the
//! telemetry's names and units as text too (`tables.rs`).

use crate::analysis::Series;
use crate::model::Trace;
use crate::presentation::axes::column_unit;
use crate::presentation::stages::latency_stack;
use crate::report::Run;
use serde::Serialize;

/// Buckets of a band over the run's span.
const BUCKETS: usize = 600;
/// Telemetry columns drawn (the page's table lists every one).
const MAX_TELEMETRY_ROWS: usize = 6;
/// Health spikes kept for the strip (beyond them the strip is full anyway).
const MAX_SPIKES: usize = 20_000;

/// One value over time: each bucket's smallest and largest (`None`: no value there).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Band {
    name: String,
    unit: String,
    dt_ms: f64,
    lo: Vec<Option<f32>>,
    hi: Vec<Option<f32>>,
}

/// The rows of a run under its frame times.
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct Rows {
    /// The starts (ms from the run's first frame) of the frames where an action spiked
    /// (frame health, `metrics.md` §5), ascending.
    health_ms: Vec<f64>,
    /// The refresh grid: its period and its first tick (ms from the first frame).
    vsync: Option<(f64, f64)>,
    /// Latency, then telemetry, over time.
    bands: Vec<Band>,
    /// Every telemetry column's unit (column → unit; empty when none is known).
    #[serde(skip)]
    pub(crate) units: Vec<(String, &'static str)>,
    /// Telemetry columns not drawn (the table lists them).
    pub(crate) telemetry_not_drawn: usize,
}

impl Rows {
    /// The rows of `trace` (the trace `run` was computed from, trimmed as it was; the
    /// run's frame-time `series` maps the health spikes to frames).
    pub(crate) fn new(run: &Run, trace: &Trace, series: &Series) -> Self {
        let f = &trace.frames;
        let t0 = f.start_ms.first().copied().unwrap_or(0.0);
        let start = |i: u32| f.start_ms.get(i as usize).map(|s| s - t0);
        let mut health_ms: Vec<f64> = run
            .health
            .as_ref()
            .map(|h| {
                h.spikes.values().flatten().filter_map(|&k| series.frame_of(k).and_then(start)).collect()
            })
            .unwrap_or_default();
        health_ms.sort_by(f64::total_cmp);
        health_ms.dedup();
        health_ms.truncate(MAX_SPIKES);
        let vsync = run.vsync.as_ref().filter(|v| v.period_ms > 0.0).map(|v| {
            let anchor = v.anchor_ms.map_or(0.0, |a| a - t0);
            (v.period_ms, anchor.rem_euclid(v.period_ms))
        });
        let span = f.start_ms.last().map_or(0.0, |s| s - t0) + f.spans_ms().last().copied().unwrap_or(0.0);
        let times: Vec<f64> = f.start_ms.iter().map(|s| s - t0).collect();
        let mut bands = Vec::new();
        if let Some(stack) = latency_stack(trace) {
            let totals: Vec<f64> = (0..stack.len()).map(|i| stack.total(i)).collect();
            let name = stack.label.replace('\n', " — ");
            bands.extend(band(name, "ms", &times, span, |i| totals.get(i).copied()));
        }
        let telemetry: Vec<_> = f.columns.iter().filter(|c| c.is_telemetry()).collect();
        let units = telemetry.iter().map(|c| (c.name.clone(), column_unit(trace, &c.name))).collect();
        let drawn: Vec<_> =
            telemetry.iter().filter(|c| !c.name.contains('[')).take(MAX_TELEMETRY_ROWS).collect();
        for c in &drawn {
            let unit = column_unit(trace, &c.name);
            bands.extend(band(c.name.clone(), unit, &times, span, |i| Some(c.values.at(i))));
        }
        Self { health_ms, vsync, bands, units, telemetry_not_drawn: telemetry.len() - drawn.len() }
    }
}

/// The band of `value(i)` for frames starting at `times` over `span` ms; `None` when
/// no frame has a finite value.
fn band(
    name: String,
    unit: &str,
    times: &[f64],
    span: f64,
    value: impl Fn(usize) -> Option<f64>,
) -> Option<Band> {
    let dt_ms = (span / BUCKETS as f64).max(f64::MIN_POSITIVE);
    let (mut lo, mut hi) = (vec![f32::INFINITY; BUCKETS], vec![f32::NEG_INFINITY; BUCKETS]);
    let mut any = false;
    for (i, t) in times.iter().enumerate() {
        let Some(v) = value(i).filter(|v| v.is_finite()) else { continue };
        let b = ((t / dt_ms) as usize).min(BUCKETS - 1);
        lo[b] = lo[b].min(v as f32);
        hi[b] = hi[b].max(v as f32);
        any = true;
    }
    let finite = |v: Vec<f32>| v.into_iter().map(|x| x.is_finite().then_some(x)).collect();
    any.then(|| Band { name, unit: unit.to_owned(), dt_ms, lo: finite(lo), hi: finite(hi) })
}
