//! What the `--html` page must show for a figure of the JSON documents: the readable
//! table's decimals, and where a figure's value lives in a run or a by-section object.

use framescope_core::report::compare::number;
use serde_json::Value;

/// What the page must show for figure `key` (`section.name`) of value `v`: the
/// readable table's decimals (report/table.rs), and the unit of a time or share.
pub fn written(key: &str, v: f64) -> String {
    let (section, name) = key.split_once('.').unwrap();
    let fixed = |d: usize| format!("{:.*}", d, v + 0.0);
    if name.contains("per_watt") {
        format!("{} FPS/W", fixed(3))
    } else if name.ends_with("_w") {
        format!("{} W", fixed(if section == "frameview" { 3 } else { 2 }))
    } else if name == "animation_error_over_1ms_fraction" {
        format!("{:.1} %", v * 100.0)
    } else if name.ends_with("_fraction") || name == "gpu_busy_share" {
        format!("{:.2} %", v * 100.0)
    } else if name == "duration_ms" {
        format!("{:.3} s", v / 1000.0)
    } else if matches!(name, "frames" | "dropped_frames" | "count" | "oscillating_frames")
        || (section == "pacing" && name.ends_with("_fps"))
    {
        fixed(0)
    } else if section == "summary" && name.ends_with("_ms") {
        format!("{} ms", fixed(3))
    } else if name.ends_with("_ms") {
        format!("{} ms", fixed(2))
    } else if section == "frameview" {
        fixed(3)
    } else {
        fixed(2)
    }
}

/// A difference of figure `key` as the page writes it: the value's decimals and unit,
/// signed when it does not round to zero, a share's in percentage points.
pub fn written_delta(key: &str, v: f64) -> String {
    let text = written(key, v);
    let (number, unit) = text.split_once(' ').map_or((text.as_str(), ""), |(n, u)| (n, u));
    let unit = if unit == "%" { "pp" } else { unit };
    let zero = number.parse::<f64>().is_ok_and(|n| n == 0.0);
    let number = number.strip_prefix('-').filter(|_| zero).unwrap_or(number);
    let signed = if v > 0.0 && !zero { format!("+{number}") } else { number.to_owned() };
    if unit.is_empty() { signed } else { format!("{signed} {unit}") }
}

/// Figure `key`'s value in a run's JSON (`report --json`'s run object).
pub fn run_value(run: &Value, key: &str) -> Value {
    let (section, name) = key.split_once('.').unwrap();
    match section {
        "run" => run[name].clone(),
        "frame_types" => run["frame_types"][name.trim_end_matches("_fps")]["fps"].clone(),
        "capframex" | "frameview" | "presentmon" | "mangohud" => run["conventions"][section][name].clone(),
        _ => run[section][name].clone(),
    }
}

/// Figure `key` in a `{section: {name: …}}` object (sets' means, comparisons).
pub fn by_section<'a>(obj: &'a Value, key: &str) -> &'a Value {
    let (section, name) = key.split_once('.').unwrap();
    match section {
        "capframex" | "frameview" | "presentmon" | "mangohud" => &obj["conventions"][section][name],
        _ => &obj[section][name],
    }
}

/// A change as `compare` writes it: `+1.5`, `-2`, `0`.
pub fn signed(v: f64) -> String {
    if v > 0.0 { format!("+{}", number(v)) } else { number(v) }
}
