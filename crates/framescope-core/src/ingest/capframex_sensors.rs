//! CapFrameX's sensor data (`SensorData2`, `formats.md` §3a) as telemetry columns: each
//! sensor (`"/nvidiagpu/0/power/0": {"Name": "GPU Power", "Type": "Power", "Values":
//! […]}`) is sampled on its own, coarser time base (`MeasureTime`, seconds since the
//! capture's start, the time base of the frames' `TimeInSeconds`). A frame takes the value
//! of the first sample taken at or after its present (the sample whose interval holds
//! it); frames presented after the last sample have none (NaN). The unit is the one
//! CapFrameX's sensor type (LibreHardwareMonitor's `SensorType`) stands for.

use crate::model::{Column, ColumnKind, Warning};
use serde_json::Value;

/// Keys of `SensorData2` that are its time base, not sensors.
const TIME_KEYS: [&str; 2] = ["MeasureTime", "BetweenMeasureTime"];

/// At most this many sensors are read from one run (a hostile file cannot make
/// millions of columns).
const MAX_SENSORS: usize = 512;

/// The unit of a CapFrameX (LibreHardwareMonitor) sensor type, and whether the type
/// word belongs in the column's name ("GPU Core" of type Clock is "GPU Core Clock").
fn unit_of_type(kind: &str) -> (&'static str, bool) {
    match kind {
        "Voltage" => ("V", true),
        "Current" => ("A", true),
        "Power" => ("W", true),
        "Clock" => ("MHz", true),
        "Temperature" => ("°C", true),
        "Load" | "Control" | "Level" => ("%", true),
        "Frequency" => ("Hz", true),
        "Fan" => ("RPM", true),
        "Flow" => ("L/h", true),
        "Data" => ("GB", false),
        "SmallData" => ("MB", false),
        "Throughput" => ("B/s", true),
        "TimeSpan" => ("s", false),
        "Energy" => ("mWh", true),
        "Noise" => ("dBA", true),
        _ => ("", false),
    }
}

/// The sensors of one run.
pub(super) struct Sensors {
    /// One telemetry column per sensor, one value per kept frame.
    pub columns: Vec<Column>,
    /// Each column's unit (name → unit; "" for a type without one, such as Factor).
    pub units: Vec<(String, String)>,
    /// What could not be read.
    pub warnings: Vec<Warning>,
}

/// A sensor's column name: its `Name` and, when it does not already say it, its type
/// ("GPU Core" + Clock → "GPU Core Clock"); a name taken already gets " 2", " 3", ….
fn column_name(name: &str, kind: &str, taken: &[Column]) -> String {
    let (_, with_type) = unit_of_type(kind);
    let base = if with_type && !name.to_ascii_lowercase().contains(&kind.to_ascii_lowercase()) {
        format!("{name} {kind}").trim().to_owned()
    } else {
        name.trim().to_owned()
    };
    let base = if base.is_empty() { "sensor".to_owned() } else { base };
    let mut candidate = base.clone();
    let mut n = 1;
    while taken.iter().any(|c| c.name == candidate) {
        n += 1;
        candidate = format!("{base} {n}");
    }
    candidate
}

/// The numbers of a sensor's `Values` (a cell that is no number is NaN).
fn numbers(sensor: &Value) -> Option<Vec<f64>> {
    let values = sensor.get("Values")?.as_array()?;
    Some(values.iter().map(|v| v.as_f64().filter(|x| x.is_finite()).unwrap_or(f64::NAN)).collect())
}

/// For each frame present time (seconds; NaN when unknown), the index of the first
/// sample taken at or after it, when there is one. `measure` must ascend; a sample time
/// that goes back is treated as the time before it.
pub(super) fn sample_of_frames(times_s: &[f64], measure: &[f64]) -> Vec<Option<usize>> {
    let mut ascending = Vec::with_capacity(measure.len());
    let mut last = f64::NEG_INFINITY;
    for &m in measure {
        last = if m.is_finite() { last.max(m) } else { last };
        ascending.push(last);
    }
    times_s
        .iter()
        .map(|&t| {
            if t.is_nan() {
                return None;
            }
            let j = ascending.partition_point(|&m| m < t);
            (j < ascending.len()).then_some(j)
        })
        .collect()
}

/// Reads `SensorData2` (`data`, as the JSON holds it) for frames presented at
/// `times_s` (seconds since the capture's start, one per kept frame).
pub(super) fn read(data: Option<&Value>, times_s: &[f64]) -> Sensors {
    let mut out = Sensors { columns: Vec::new(), units: Vec::new(), warnings: Vec::new() };
    let Some(map) = data.and_then(Value::as_object) else { return out };
    let Some(measure) = map.get("MeasureTime").and_then(numbers) else {
        if map.keys().any(|k| !TIME_KEYS.contains(&k.as_str())) {
            out.warnings
                .push(Warning::file("the run's sensor data (SensorData2) has no MeasureTime; left out"));
        }
        return out;
    };
    let of_frame = sample_of_frames(times_s, &measure);
    let mut unreadable = 0usize;
    for (key, sensor) in map.iter().filter(|(k, _)| !TIME_KEYS.contains(&k.as_str())) {
        if out.columns.len() == MAX_SENSORS {
            out.warnings.push(Warning::file(format!(
                "the run has more than {MAX_SENSORS} sensors; the first {MAX_SENSORS} are kept"
            )));
            break;
        }
        let Some(values) = numbers(sensor) else {
            unreadable += 1;
            continue;
        };
        let text = |k: &str| sensor.get(k).and_then(Value::as_str).unwrap_or("");
        let name = if text("Name").trim().is_empty() { key.as_str() } else { text("Name") };
        let kind = text("Type");
        let column: Vec<f64> =
            of_frame.iter().map(|j| j.and_then(|j| values.get(j).copied()).unwrap_or(f64::NAN)).collect();
        if column.iter().all(|v| v.is_nan()) {
            continue;
        }
        let name = column_name(name, kind, &out.columns);
        // Every sensor declares its unit, "" for a type without one (Factor).
        out.units.push((name.clone(), unit_of_type(kind).0.to_owned()));
        out.columns.push(Column { name, kind: ColumnKind::Telemetry, values: column.into() });
    }
    if unreadable > 0 {
        out.warnings.push(Warning::file(format!(
            "{unreadable} sensors of the run's sensor data (SensorData2) have no Values array; left out"
        )));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples at 0.1, 0.3, 0.5 s; frames presented at 0, 0.1, 0.2, 0.45, 0.6 s take
    /// samples 0, 0, 1, 2 and none (after the last sample).
    #[test]
    fn frames_take_the_sample_that_covers_them() {
        let got = sample_of_frames(&[0.0, 0.1, 0.2, 0.45, 0.6, f64::NAN], &[0.1, 0.3, 0.5]);
        assert_eq!(got, vec![Some(0), Some(0), Some(1), Some(2), None, None]);
    }

    #[test]
    fn names_say_the_type_once() {
        assert_eq!(column_name("GPU Core", "Clock", &[]), "GPU Core Clock");
        assert_eq!(column_name("CPU Max Clock", "Clock", &[]), "CPU Max Clock");
        assert_eq!(column_name("GPU Memory Dedicated", "Data", &[]), "GPU Memory Dedicated");
        let taken = [Column { name: "X Load".into(), kind: ColumnKind::Telemetry, values: vec![1.0].into() }];
        assert_eq!(column_name("X", "Load", &taken), "X Load 2");
    }

    /// Two sensors over frames at 0, 0.2, 0.4 s with samples at 0.25 and 0.5 s: GPU
    /// Power 100, 120 → frames 100, 100, 120 (W); a sensor without values is a warning.
    #[test]
    fn sensors_become_telemetry_columns_with_units() {
        let json: Value = serde_json::from_str(
            r#"{"MeasureTime":{"Name":"MeasureTime","Type":"Time","Values":[0.25,0.5]},
                "/gpu/power/0":{"Name":"GPU Power","Type":"Power","Values":[100,120]},
                "/gpu/load/0":{"Name":"GPU Core","Type":"Load","Values":[90,"x"]},
                "/bad":{"Name":"Bad","Type":"Load"}}"#,
        )
        .unwrap_or_default();
        let s = read(Some(&json), &[0.0, 0.2, 0.4]);
        let names: Vec<&str> = s.columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["GPU Core Load", "GPU Power"]);
        assert_eq!(s.columns[1].values.iter().collect::<Vec<_>>(), vec![100.0, 100.0, 120.0]);
        assert!(s.columns[0].values.at(2).is_nan());
        assert_eq!(s.units, vec![("GPU Core Load".into(), "%".into()), ("GPU Power".into(), "W".into())]);
        assert_eq!(s.warnings.len(), 1);
    }
}
