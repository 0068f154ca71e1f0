//! CapFrameX's older sensor layout, `SensorData` (`formats.md` §3a, "legacy"), read as
//! telemetry like `SensorData2` when a run has no `SensorData2`: plain arrays named by
//! what they hold — `MeasureTime` (the samples' times, seconds since the capture's
//! start), `CpuUsage`, `GpuPower`, … and `BetweenMeasureTimes` — instead of one object
//! per sensor with its name and type.
//!
//! The layout is CapFrameX's `SessionSensorData` class
//! (`source/CapFrameX.Data.Session/Classes/SessionSensorData.cs`, CXWorld/CapFrameX,
//! MIT), serialised by Newtonsoft: integer arrays for loads, clocks, powers and
//! temperatures, double arrays for memory, boolean arrays (or 0/1 in later versions)
//! for the limits. The units are those of the sensors CapFrameX filled them from
//! (`SessionSensorDataLive`: LibreHardwareMonitor's "CPU Total" load, "GPU Power",
//! "Used Memory" in GB, "GPU Memory Used" in MB, …). A frame takes the first sample at or
//! after its present, as with `SensorData2`; columns are named by their JSON keys.

use super::capframex_sensors::{Sensors, sample_of_frames};
use crate::model::{Column, ColumnKind, Warning};
use serde_json::Value;

/// Keys that are the samples' time base, not sensors.
const TIME_KEYS: [&str; 2] = ["MeasureTime", "BetweenMeasureTimes"];

/// The arrays `SessionSensorData` has held, in its order, with their units (0/1 flags
/// have none).
const KNOWN: [(&str, &str); 15] = [
    ("CpuUsage", "%"),
    ("CpuMaxThreadUsage", "%"),
    ("CpuMaxClock", "MHz"),
    ("CpuPower", "W"),
    ("CpuTemp", "°C"),
    ("GpuUsage", "%"),
    ("GpuClock", "MHz"),
    ("RamUsage", "GB"),
    ("IsInGpuLimit", ""),
    ("GpuPowerLimit", ""),
    ("GPUPowerLimit", ""),
    ("GpuPower", "W"),
    ("GpuTemp", "°C"),
    ("VRamUsage", "MB"),
    ("VRamUsageGB", "GB"),
];

/// At most this many arrays are read (a hostile file cannot make millions of columns).
const MAX_SENSORS: usize = 512;

/// An array's values as numbers: a boolean is 0 or 1, anything else that is no finite
/// number NaN; `None` when it is no array.
fn numbers(v: &Value) -> Option<Vec<f64>> {
    let items = v.as_array()?;
    Some(
        items
            .iter()
            .map(|x| match x {
                Value::Bool(b) => f64::from(u8::from(*b)),
                other => other.as_f64().filter(|f| f.is_finite()).unwrap_or(f64::NAN),
            })
            .collect(),
    )
}

/// Reads `SensorData` (`data`, as the JSON holds it) for frames presented at `times_s`
/// (seconds since the capture's start, one per kept frame): one telemetry column per
/// array, the known ones first in [`KNOWN`]'s order, then any other array.
pub(super) fn read(data: Option<&Value>, times_s: &[f64]) -> Sensors {
    let mut out = Sensors { columns: Vec::new(), units: Vec::new(), warnings: Vec::new() };
    let Some(map) = data.and_then(Value::as_object) else { return out };
    let Some(measure) = map.get("MeasureTime").and_then(numbers).filter(|m| !m.is_empty()) else {
        if map
            .iter()
            .any(|(k, v)| !TIME_KEYS.contains(&k.as_str()) && v.as_array().is_some_and(|a| !a.is_empty()))
        {
            out.warnings
                .push(Warning::file("the run's sensor data (SensorData) has no MeasureTime; left out"));
        }
        return out;
    };
    let of_frame = sample_of_frames(times_s, &measure);
    let unit_of = |key: &str| KNOWN.iter().find(|(k, _)| *k == key).map_or("", |(_, u)| u);
    let known = KNOWN.iter().map(|(k, _)| *k).filter(|k| map.contains_key(*k));
    let others = map
        .keys()
        .map(String::as_str)
        .filter(|k| !TIME_KEYS.contains(k) && !KNOWN.iter().any(|(n, _)| n == k));
    for key in known.chain(others) {
        if out.columns.len() == MAX_SENSORS {
            out.warnings.push(Warning::file(format!(
                "the run has more than {MAX_SENSORS} sensor arrays; the first {MAX_SENSORS} are kept"
            )));
            break;
        }
        let Some(values) = map.get(key).and_then(numbers) else { continue };
        let column: Vec<f64> =
            of_frame.iter().map(|j| j.and_then(|j| values.get(j).copied()).unwrap_or(f64::NAN)).collect();
        if column.iter().all(|v| v.is_nan()) {
            continue;
        }
        out.units.push((key.to_owned(), unit_of(key).to_owned()));
        out.columns.push(Column { name: key.to_owned(), kind: ColumnKind::Telemetry, values: column.into() });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples at 0.25 and 0.5 s; frames presented at 0, 0.2, 0.4 and 0.6 s take samples
    /// 0, 0, 1 and none. GpuPower 100, 120 W gives 100, 100, 120, NaN; IsInGpuLimit
    /// true, false gives 1, 1, 0; an unknown array keeps its name without a unit; an
    /// empty array and the time keys make no column.
    #[test]
    fn arrays_become_telemetry_columns_with_their_units() {
        let json: Value = serde_json::from_str(
            r#"{"MeasureTime":[0.25,0.5],"BetweenMeasureTimes":[0.25,0.25],
                "GpuPower":[100,120],"IsInGpuLimit":[true,false],"RamUsage":[7.5,null],
                "CpuUsage":[],"FanSpeed":[1200,1300]}"#,
        )
        .unwrap_or_default();
        let s = read(Some(&json), &[0.0, 0.2, 0.4, 0.6]);
        let names: Vec<&str> = s.columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["RamUsage", "IsInGpuLimit", "GpuPower", "FanSpeed"]);
        let power: Vec<f64> = s.columns[2].values.iter().collect();
        assert_eq!(power[..3], [100.0, 100.0, 120.0]);
        assert!(power[3].is_nan());
        assert_eq!(s.columns[1].values.iter().take(3).collect::<Vec<_>>(), [1.0, 1.0, 0.0]);
        assert!(s.columns[0].values.at(2).is_nan());
        let units: Vec<(&str, &str)> = s.units.iter().map(|(n, u)| (n.as_str(), u.as_str())).collect();
        assert_eq!(units, [("RamUsage", "GB"), ("IsInGpuLimit", ""), ("GpuPower", "W"), ("FanSpeed", "")]);
        assert!(s.warnings.is_empty());
        // No time base: a warning, no columns.
        let json: Value = serde_json::from_str(r#"{"GpuPower":[100]}"#).unwrap_or_default();
        let s = read(Some(&json), &[0.0]);
        assert!(s.columns.is_empty());
        assert_eq!(s.warnings.len(), 1);
    }
}
