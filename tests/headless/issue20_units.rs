//! Issue 20: telemetry units are the ones a file declares (MSI Afterburner's `03`
//! lines, CapFrameX's sensor types, MangoHud's known columns), else the name's, and a
//! percentage's axis ends at 100 %. Checked on the real captures.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::real_traces;
use framescope_core::ingest::{LoadOptions, Progress, load_file};
use framescope_core::model::{Capture, Trace};
use framescope_core::presentation::{column_unit, telemetry_axis_in};

fn load(rel: &str) -> Option<Capture> {
    let dir = real_traces()?;
    Some(
        load_file(&dir.join(rel), LoadOptions::default(), &Progress::default())
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

fn units(t: &Trace, names: &[(&str, &str)]) {
    for (name, unit) in names {
        assert!(t.frames.columns.iter().any(|c| c.name == *name), "{name} is a column");
        assert_eq!(column_unit(t, name), *unit, "{name}");
    }
}

/// The real Afterburner log declares MB for "Memory usage" and "RAM usage" (the name
/// said % before), W for Power, MHz for the CPU clock, % for the loads. It declares "%"
/// for its temperatures too (a mangled "°C": the field is one character short), which
/// stays °C.
#[test]
fn afterburner_units_come_from_its_header() {
    let Some(c) = load("msi-afterburner/HardwareMonitoring.hml") else { return };
    let t = &c.traces[0];
    units(
        t,
        &[
            ("Memory usage", "MB"),
            ("RAM usage", "MB"),
            ("Power", "W"),
            ("CPU clock", "MHz"),
            ("GPU usage", "%"),
            ("GPU temperature", "°C"),
        ],
    );
    assert_eq!(t.frames.units.iter().find(|(n, _)| n == "Memory usage").map(|(_, u)| u.as_str()), Some("MB"));
}

/// CapFrameX's sensor types: Power W, Clock MHz, Load %, Temperature °C, Data GB, and
/// Factor (the power-limit flag) without a unit.
#[test]
fn capframex_units_come_from_sensor_types() {
    let Some(c) = load("capframex/CapFrameX-Judgment.exe-2022-12-14T163430.json") else { return };
    units(
        &c.traces[0],
        &[
            ("GPU Power", "W"),
            ("GPU Core Clock", "MHz"),
            ("GPU Core Load", "%"),
            ("GPU Core Temperature", "°C"),
            ("GPU Memory Dedicated", "GB"),
            ("Used Memory Game", "GB"),
            ("GPU Power Limit", ""),
        ],
    );
}

/// MangoHud's columns: memory in GB (`gpu_vram_used` 4.93, `ram_used` 10.7), power W,
/// clocks MHz, loads %.
#[test]
fn mangohud_units_are_known() {
    let Some(c) = load("mangohud/mangohud-0.8.0-0.8.1_RX9070XT_run1.csv") else { return };
    units(
        &c.traces[0],
        &[
            ("gpu_vram_used", "GB"),
            ("ram_used", "GB"),
            ("gpu_power", "W"),
            ("gpu_core_clock", "MHz"),
            ("cpu_load", "%"),
            ("gpu_temp", "°C"),
        ],
    );
}

/// NVIDIA App: `FPS 1(%) Low` is a frame rate, not a percentage; the voltage is in mV as
/// its name says.
#[test]
fn nvidia_app_rates_are_fps() {
    let Some(c) = load("nvidia-app/MarvelRivals_NoDLSS_High_run2.csv") else { return };
    let t = &c.traces[0];
    units(t, &[("FPS 1(%) Low", "FPS"), ("GPU1 Voltage(Milli Volts)", "mV"), ("CPU Utilization(%)", "%")]);
}

/// A GPU load of 78–99 % (CapFrameX's GPU Core Load): the plain axis rounds out to
/// 60–120 (span 21 around 88.5, ± 12.6 → 75.9 … 101.1, steps of 20); as a percentage
/// it ends at 100.
#[test]
fn utilisation_axes_end_at_100() {
    let Some(c) = load("capframex/CapFrameX-Judgment.exe-2022-12-14T163430.json") else { return };
    let t = &c.traces[0];
    let col = t.frames.columns.iter().find(|c| c.name == "GPU Core Load").expect("GPU Core Load");
    let (lo, hi) = col
        .values
        .iter()
        .filter(|v| v.is_finite())
        .fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
    assert_eq!((lo, hi), (78.0, 99.0));
    assert_eq!(telemetry_axis_in(lo, hi, column_unit(t, "GPU Core Load")), (60.0, 100.0));
}

/// CapFrameX's older sensor layout, `SensorData` (before `SensorData2`): plain arrays
/// named by what they hold. The layout is CapFrameX's `SessionSensorData` class
/// (CXWorld/CapFrameX `source/CapFrameX.Data.Session/Classes/SessionSensorData.cs`):
/// `MeasureTime` (s), integer loads, clocks, powers and temperatures, `RamUsage` (GB),
/// `VRamUsage` (MB), the flag `IsInGpuLimit` as booleans. A hand-built capture of four
/// frames presented at 0.01, 0.02, 0.03 and 0.04 s with samples at 0.015 and 0.04 s:
/// frame 1 takes sample 0, frames 2–4 sample 1; GpuPower 150, 170 W gives 150, 170,
/// 170, 170; IsInGpuLimit true, false gives 1, 0, 0, 0.
#[test]
fn capframex_legacy_sensor_data_is_telemetry_with_units() {
    let json = r#"{"Info":{"ProcessName":"g.exe","GPU":"GTX 1080"},
      "Runs":[{"CaptureData":{"TimeInSeconds":[0.01,0.02,0.03,0.04],"MsBetweenPresents":[10,10,10,10]},
        "SensorData":{"MeasureTime":[0.015,0.04],"BetweenMeasureTimes":[0.015,0.025],
          "CpuUsage":[30,40],"GpuUsage":[97,99],"GpuPower":[150,170],"GpuTemp":[60,61],
          "RamUsage":[7.5,7.6],"VRamUsage":[3000,3100],"IsInGpuLimit":[true,false]},
        "SensorData2":null}]}"#;
    let path = std::env::temp_dir().join(format!("framescope-cx-legacy-{}.json", std::process::id()));
    std::fs::write(&path, json).unwrap();
    let loaded = load_file(&path, LoadOptions::default(), &Progress::default());
    std::fs::remove_file(&path).unwrap();
    let c = loaded.unwrap_or_else(|e| panic!("{e}"));
    let t = &c.traces[0];
    units(
        t,
        &[
            ("CpuUsage", "%"),
            ("GpuUsage", "%"),
            ("GpuPower", "W"),
            ("GpuTemp", "°C"),
            ("RamUsage", "GB"),
            ("VRamUsage", "MB"),
            ("IsInGpuLimit", ""),
        ],
    );
    let column = |name: &str| -> Vec<f64> {
        t.frames.columns.iter().find(|c| c.name == name).map(|c| c.values.iter().collect()).unwrap()
    };
    assert_eq!(column("GpuPower"), [150.0, 170.0, 170.0, 170.0]);
    assert_eq!(column("IsInGpuLimit"), [1.0, 0.0, 0.0, 0.0]);
    assert!(!t.frames.columns.iter().any(|c| c.name == "MeasureTime" || c.name == "BetweenMeasureTimes"));
}
