//! CapFrameX capture JSON (`formats.md` §3a): `Info` about the system and one or more
//! `Runs`, each with `CaptureData` as parallel arrays (one index per frame). Each run
//! becomes a trace. JSON has no per-frame lines: a frame's `line` is its 1-based
//! position in the run's arrays, and warnings say "frame N".

use super::error::{LoadError, LoadErrorKind};
use crate::model::{Capture, Column, ColumnKind, FileInfo, Format, Frames, Trace, TraceMeta, Warning};
use serde::Deserialize;
use std::io::Read;
use std::path::Path;

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Document {
    #[serde(default)]
    info: serde_json::Map<String, serde_json::Value>,
    /// Required: a JSON document without `Runs` is not a CapFrameX capture.
    runs: Vec<RunJson>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct RunJson {
    capture_data: Option<CaptureData>,
    present_mon_runtime: Option<String>,
    /// The run's sensors (read leniently: a malformed sensor is a warning, not an error).
    #[serde(default)]
    sensor_data2: Option<serde_json::Value>,
    /// The older sensor layout, read when there is no `SensorData2`.
    #[serde(default)]
    sensor_data: Option<serde_json::Value>,
}

/// A run's sensors in one of CapFrameX's two layouts.
enum Sensors {
    /// `SensorData2`: one object per sensor, with its name and type.
    Named(serde_json::Value),
    /// `SensorData`: plain arrays named by what they hold (or nothing).
    Legacy(Option<serde_json::Value>),
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "PascalCase", default)]
struct CaptureData {
    time_in_seconds: Option<Vec<Option<f64>>>,
    ms_between_presents: Option<Vec<Option<f64>>>,
    ms_between_display_change: Option<Vec<Option<f64>>>,
    // PascalCase would make this `MsInPresentApi`; CapFrameX writes `MsInPresentAPI`.
    #[serde(rename = "MsInPresentAPI", alias = "MsInPresentApi")]
    ms_in_present_api: Option<Vec<Option<f64>>>,
    ms_until_render_complete: Option<Vec<Option<f64>>>,
    ms_until_displayed: Option<Vec<Option<f64>>>,
    present_mode: Option<Vec<Option<i64>>>,
    allows_tearing: Option<Vec<Option<f64>>>,
    sync_interval: Option<Vec<Option<f64>>>,
    dropped: Option<Vec<Option<bool>>>,
    pc_latency: Option<Vec<Option<f64>>>,
    animation_error: Option<Vec<Option<f64>>>,
    gpu_active: Option<Vec<Option<f64>>>,
    cpu_active: Option<Vec<Option<f64>>>,
}

/// CapFrameX's `EPresentMode` values.
const PRESENT_MODES: [&str; 10] = [
    "Unknown",
    "Hardware: Legacy Flip",
    "Hardware: Legacy Copy to front buffer",
    "Hardware: Independent Flip",
    "Composed: Flip",
    "Composed: Copy with GPU GDI",
    "Composed: Copy with CPU GDI",
    "Composed: Composition Atlas",
    "Hardware Composed: Independent Flip",
    "Other",
];

/// Loads a CapFrameX JSON capture.
pub fn load<R: Read>(path: &Path, reader: R) -> Result<Capture, LoadError> {
    let doc: Document = serde_json::from_reader(reader).map_err(|e| {
        if e.is_io() {
            // A read failure (a damaged or over-budget archive), not the document's fault.
            return LoadError::new(path, None, LoadErrorKind::Io(e.into()));
        }
        let line = (e.line() > 0).then_some(e.line() as u64);
        let msg = format!(
            "not a CapFrameX capture JSON ({e}); expected {{\"Info\": …, \"Runs\": [{{\"CaptureData\": …}}]}}"
        );
        LoadError::new(path, line, LoadErrorKind::NotACapture(msg))
    })?;
    let text = |key: &str| doc.info.get(key).and_then(serde_json::Value::as_str).map(str::to_owned);
    let application = text("ProcessName").or_else(|| text("GameName")).unwrap_or_else(|| "capture".into());
    let version = text("AppVersion").map_or_else(|| "JSON".to_owned(), |v| format!("JSON, CapFrameX {v}"));
    let system = doc
        .info
        .iter()
        .filter_map(|(k, v)| v.as_str().filter(|s| !s.is_empty()).map(|s| (k.clone(), s.to_owned())))
        .collect();
    let mut info = FileInfo {
        path: path.to_path_buf(),
        format: Format::CapFrameXJson,
        format_version: version,
        system,
        dropped_known: true,
        target_fps: None,
    };
    let several = doc.runs.len() > 1;
    let total_runs = doc.runs.len();
    let mut traces = Vec::new();
    let mut warnings = Vec::new();
    let mut empty: Vec<usize> = Vec::new();
    let mut any_dropped_array = false;
    for (k, run) in doc.runs.into_iter().enumerate().take(super::builder::MAX_TRACES) {
        let name = if several { format!("{application} (run {})", k + 1) } else { application.clone() };
        any_dropped_array |= run.capture_data.as_ref().is_some_and(|d| d.dropped.is_some());
        // SensorData2 when the run has one (not null, not empty), else the older SensorData.
        let sensors = match run.sensor_data2.filter(|v| v.as_object().is_some_and(|m| !m.is_empty())) {
            Some(v) => Sensors::Named(v),
            None => Sensors::Legacy(run.sensor_data),
        };
        match run.capture_data.map(|data| trace_of(&name, &data, run.present_mon_runtime, &sensors)) {
            Some(t) if !t.is_empty() => traces.push(t),
            _ => empty.push(k + 1),
        }
    }
    if !empty.is_empty() {
        let list: Vec<String> = empty.iter().take(5).map(usize::to_string).collect();
        let more = if empty.len() > 5 { ", …" } else { "" };
        warnings.push(Warning::file(format!(
            "{} runs have no usable frame times and were left out (runs {}{more})",
            empty.len(),
            list.join(", ")
        )));
    }
    if total_runs > super::builder::MAX_TRACES {
        warnings.push(Warning::file(format!(
            "the capture has {total_runs} runs; the first {} are kept",
            super::builder::MAX_TRACES
        )));
    }
    info.dropped_known = any_dropped_array;
    if traces.is_empty() {
        let msg = "the capture has no run with frame times".to_owned();
        return Err(LoadError::new(path, None, LoadErrorKind::NoFrames(msg)));
    }
    shift_to_zero(&mut traces);
    Ok(Capture { info, traces, warnings })
}

fn values(v: Option<&Vec<Option<f64>>>, i: usize) -> f64 {
    v.and_then(|v| v.get(i).copied().flatten())
        .filter(|x| super::overflow::plausible_duration(*x))
        .unwrap_or(f64::NAN)
}

/// One run's arrays as a trace, with its sensors as telemetry; frames with an unusable
/// frame time are skipped.
fn trace_of(name: &str, data: &CaptureData, runtime: Option<String>, sensors: &Sensors) -> Trace {
    let ft = data.ms_between_presents.as_ref();
    let (n, uneven) = frame_count(data);
    let kept: Vec<usize> =
        (0..n).filter(|&i| super::overflow::PLAUSIBLE_FRAME_TIME_MS.contains(&values(ft, i))).collect();
    let dropped: Vec<bool> = kept
        .iter()
        .map(|&i| data.dropped.as_ref().and_then(|d| d.get(i).copied().flatten()).unwrap_or(false))
        .collect();
    let column = |v: &Option<Vec<Option<f64>>>, display: bool| -> Vec<f64> {
        kept.iter()
            .zip(&dropped)
            .map(|(&i, &d)| if display && d { f64::NAN } else { values(v.as_ref(), i) })
            .collect()
    };
    let mut columns = Vec::new();
    for (header, kind, v, display) in [
        ("MsInPresentAPI", ColumnKind::InPresentApi, &data.ms_in_present_api, false),
        ("MsUntilRenderComplete", ColumnKind::UntilRenderComplete, &data.ms_until_render_complete, false),
        ("MsUntilDisplayed", ColumnKind::UntilDisplayed, &data.ms_until_displayed, true),
        ("PcLatency", ColumnKind::PcLatency, &data.pc_latency, true),
        ("AnimationError", ColumnKind::AnimationError, &data.animation_error, false),
        ("GpuActive", ColumnKind::GpuActive, &data.gpu_active, false),
        ("CpuActive", ColumnKind::CpuBusy, &data.cpu_active, false),
        ("AllowsTearing", ColumnKind::Other, &data.allows_tearing, false),
        ("SyncInterval", ColumnKind::Other, &data.sync_interval, false),
    ] {
        if v.is_some() {
            columns.push(Column { name: header.into(), kind, values: column(v, display).into() });
        }
    }
    let frame_time_ms: Vec<f64> = kept.iter().map(|&i| values(ft, i)).collect();
    let start_ms = start_times(data.time_in_seconds.as_ref(), &kept, &frame_time_ms);
    let (modes, present_mode) = present_modes(data.present_mode.as_ref(), &kept);
    let mut warnings: Vec<Warning> = uneven.into_iter().collect();
    warnings.extend(skip_warning(n, &kept));
    let times_s: Vec<f64> = kept.iter().map(|&i| values(data.time_in_seconds.as_ref(), i)).collect();
    let sensors = match sensors {
        Sensors::Named(v) => super::capframex_sensors::read(Some(v), &times_s),
        Sensors::Legacy(v) => super::capframex_sensors_legacy::read(v.as_ref(), &times_s),
    };
    columns.extend(sensors.columns);
    warnings.extend(sensors.warnings);
    let display_ms = column(&data.ms_between_display_change, true);
    let line = kept.iter().map(|&i| i as u64 + 1).collect();
    let meta = TraceMeta {
        application: name.to_owned(),
        process_id: None,
        swap_chain: None,
        runtime,
        present_modes: modes,
    };
    let frames = Frames {
        frame_time_ms,
        start_ms,
        display_ms,
        dropped,
        present_mode,
        frame_type: Vec::new(),
        line,
        columns,
        units: sensors.units,
        ..Frames::default()
    };
    Trace { meta, frames, warnings }
}

/// The kept frames' start times (ms): `TimeInSeconds` (the end of the frame) less
/// the frame time, or the end of the previous frame where there is no time.
fn start_times(time: Option<&Vec<Option<f64>>>, kept: &[usize], frame_time_ms: &[f64]) -> Vec<f64> {
    let mut start_ms = Vec::with_capacity(kept.len());
    let mut next = 0.0;
    for (&i, &ft) in kept.iter().zip(frame_time_ms) {
        let t = values(time, i) * 1000.0;
        let s = if t.is_finite() { t - ft } else { next };
        start_ms.push(s);
        next = s + ft;
    }
    start_ms
}

/// The kept frames' present modes: the distinct names in first-seen order and each
/// frame's index into them (none when the run has no present-mode array).
fn present_modes(present_mode: Option<&Vec<Option<i64>>>, kept: &[usize]) -> (Vec<String>, Vec<u16>) {
    let mut modes: Vec<String> = Vec::new();
    let indices: Vec<u16> = match present_mode {
        None => Vec::new(),
        Some(pm) => kept
            .iter()
            .map(|&i| {
                let code = pm.get(i).copied().flatten().unwrap_or(0);
                let name = usize::try_from(code)
                    .ok()
                    .and_then(|c| PRESENT_MODES.get(c))
                    .copied()
                    .unwrap_or("Unknown");
                let idx = modes.iter().position(|m| m == name).unwrap_or_else(|| {
                    modes.push(name.to_owned());
                    modes.len() - 1
                });
                idx as u16
            })
            .collect(),
    };
    (modes, indices)
}

/// The warning for the `n - kept.len()` frames skipped for an unusable frame time,
/// naming the first (1-based), when there are any.
fn skip_warning(n: usize, kept: &[usize]) -> Option<Warning> {
    let skipped = n - kept.len();
    (skipped > 0).then(|| {
        let first = kept.iter().enumerate().find(|&(k, &i)| k != i).map_or(kept.len(), |(k, _)| k) + 1;
        Warning::file(format!(
            "{skipped} frames have no usable frame time and were skipped (first: frame {first})"
        ))
        .with_kind(crate::model::WarningKind::SkippedRows { count: skipped as u64, first_lines: Vec::new() })
    })
}

/// How many frames a run has: the length of its frame-time array, or, when the
/// per-frame arrays it has differ in length, the frames every one of them covers (the
/// only ones whose values surely belong together), with a warning naming the arrays.
fn frame_count(data: &CaptureData) -> (usize, Option<Warning>) {
    let f64s = [
        ("MsBetweenPresents", &data.ms_between_presents),
        ("TimeInSeconds", &data.time_in_seconds),
        ("MsBetweenDisplayChange", &data.ms_between_display_change),
        ("MsInPresentAPI", &data.ms_in_present_api),
        ("MsUntilRenderComplete", &data.ms_until_render_complete),
        ("MsUntilDisplayed", &data.ms_until_displayed),
        ("AllowsTearing", &data.allows_tearing),
        ("SyncInterval", &data.sync_interval),
        ("PcLatency", &data.pc_latency),
        ("AnimationError", &data.animation_error),
        ("GpuActive", &data.gpu_active),
        ("CpuActive", &data.cpu_active),
    ];
    let mut lengths: Vec<(&str, usize)> =
        f64s.iter().filter_map(|(name, v)| v.as_ref().map(|v| (*name, v.len()))).collect();
    lengths.extend(data.present_mode.as_ref().map(|v| ("PresentMode", v.len())));
    lengths.extend(data.dropped.as_ref().map(|v| ("Dropped", v.len())));
    let Some(&(_, frames)) = lengths.first().filter(|(name, _)| *name == "MsBetweenPresents") else {
        return (0, None);
    };
    let shortest = lengths.iter().map(|&(_, n)| n).min().unwrap_or(frames);
    if lengths.iter().all(|&(_, n)| n == frames) {
        return (frames, None);
    }
    let list: Vec<String> = lengths.iter().map(|(name, n)| format!("{name} {n}")).collect();
    let warning = Warning::file(format!(
        "the run's per-frame arrays have different lengths ({}): only the first {shortest} frames, which \
         every array covers, are read",
        list.join(", ")
    ));
    (shortest, Some(warning))
}

/// Moves every trace so that the earliest frame starts at 0.
fn shift_to_zero(traces: &mut [Trace]) {
    let shift =
        traces.iter().filter_map(|t| t.frames.start_ms.first().copied()).fold(f64::INFINITY, f64::min);
    if shift.is_finite() {
        for t in traces {
            t.frames.start_ms.iter_mut().for_each(|s| *s -= shift);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frames 10, 20, 30 ms presented at 0.01, 0.03, 0.06 s; the second dropped.
    #[test]
    fn a_run_of_parallel_arrays() {
        let json = r#"{"Info":{"ProcessName":"game.exe","AppVersion":"1.7.0.4","GPU":"GTX 1070"},
            "Runs":[{"PresentMonRuntime":"DXGI","CaptureData":{
              "TimeInSeconds":[0.01,0.03,0.06],"MsBetweenPresents":[10,20,30],
              "MsBetweenDisplayChange":[10,0,50],"MsUntilDisplayed":[5,0,6],"MsInPresentAPI":[1,2,3],
              "Dropped":[false,true,false],"PresentMode":[3,3,5],"PcLatency":null}}]}"#;
        let c = load(Path::new("cx.json"), json.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.info.format, Format::CapFrameXJson);
        assert_eq!(c.info.format_version, "JSON, CapFrameX 1.7.0.4");
        let t = &c.traces[0];
        assert_eq!(t.meta.application, "game.exe");
        assert_eq!(t.meta.runtime.as_deref(), Some("DXGI"));
        assert_eq!(t.frames.frame_time_ms, vec![10.0, 20.0, 30.0]);
        assert_eq!(t.frames.start_ms, vec![0.0, 10.0, 30.0]);
        assert_eq!(t.frames.dropped, vec![false, true, false]);
        assert!(t.frames.display_ms[1].is_nan() && (t.frames.display_ms[2] - 50.0).abs() < 1e-12);
        assert!(t.column(ColumnKind::UntilDisplayed).is_some_and(|c| c.values[1].is_nan()));
        assert!(t.column(ColumnKind::PcLatency).is_none(), "a null array is no column");
        // CapFrameX spells it `MsInPresentAPI` (not serde's PascalCase `MsInPresentApi`).
        assert!(t.column(ColumnKind::InPresentApi).is_some_and(|c| c.values == [1.0, 2.0, 3.0]));
        assert_eq!(t.meta.present_modes, vec!["Hardware: Independent Flip", "Composed: Copy with GPU GDI"]);
        assert!(c.info.system.contains(&("GPU".into(), "GTX 1070".into())));
    }

    #[test]
    fn not_capture_json_names_the_line() {
        let err = load(Path::new("x.json"), &b"{\n  \"Runs\": [ {\"CaptureData\": 5} ]\n}"[..]).err();
        assert!(err.is_some_and(|e| e.line == Some(2) && e.to_string().contains("CapFrameX")));
        let none = load(Path::new("y.json"), &br#"{"Runs":[]}"#[..]).err();
        assert!(none.is_some_and(|e| matches!(e.kind, LoadErrorKind::NoFrames(_))));
    }
}
