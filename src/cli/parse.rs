//! The value parsers of the command line's options: numbers, fractions and
//! percentages, thresholds, a peer tool's name, a column mapping and its unit. Each
//! error is the message clap prints after the option's name (exit 2).

use framescope_core::ingest::unit_from_name;
use framescope_core::ingest::{ExtraColumn, ExtraRole, MappedRole, TimeUnit};
use framescope_core::report::compare;

/// A finite number.
pub(super) fn parse_number(s: &str) -> Result<f64, String> {
    let v: f64 = s.trim().parse().map_err(|_| format!("'{s}' is not a number"))?;
    if v.is_finite() { Ok(v) } else { Err(format!("'{s}' is not a finite number")) }
}

/// A finite number above 0.
pub(super) fn positive(s: &str) -> Result<f64, String> {
    let v = parse_number(s)?;
    if v > 0.0 { Ok(v) } else { Err(format!("must be greater than 0, got {s}")) }
}

/// A peer tool's section: `capframex`, `frameview`, `presentmon` or `mangohud`.
pub(super) fn convention(s: &str) -> Result<compare::Section, String> {
    compare::Section::convention(s)
        .ok_or_else(|| format!("'{s}' is not a peer tool; use capframex, frameview, presentmon or mangohud"))
}

/// A relative threshold: `0.2` or `20%`. A bare number of 1 or more is refused: it
/// reads like a percentage (`--stutter-threshold 50` would silently mean 5000 % and find
/// no stutters), and a threshold at or above 100 % is better written with `%`.
pub(super) fn threshold(s: &str) -> Result<f64, String> {
    if let Some(pct) = s.trim().strip_suffix('%') {
        let v = non_negative(pct)?;
        return Ok(v / 100.0);
    }
    let v = non_negative(s)?;
    if v >= 1.0 {
        return Err(format!(
            "{s} is a fraction of 1 or more ({:.0} %); did you mean {s}%? Write 0.2 or 20% for 20 %, \
             or {:.0}% if you really mean {:.0} %",
            v * 100.0,
            v * 100.0,
            v * 100.0
        ));
    }
    Ok(v)
}

/// A fraction from 0 to 1: `0.05` or `5%`.
pub(super) fn fraction(s: &str) -> Result<f64, String> {
    let v = match s.trim().strip_suffix('%') {
        Some(pct) => non_negative(pct)? / 100.0,
        None => non_negative(s)?,
    };
    if v <= 1.0 {
        Ok(v)
    } else {
        Err(format!("{s} is more than 1 (100 %); write a fraction such as 0.05 or 5%"))
    }
}

/// `frame-time=NAME` or `timestamp=NAME`.
pub(super) fn column_spec(s: &str) -> Result<(MappedRole, String), String> {
    let Some((role, name)) = s.split_once('=') else {
        return Err(format!("'{s}': write frame-time=NAME or timestamp=NAME"));
    };
    let role = match role.trim().to_ascii_lowercase().as_str() {
        "frame-time" | "frametime" | "frame_time" => MappedRole::FrameTime,
        "timestamp" | "time" => MappedRole::Timestamp,
        other => {
            return Err(format!("'{other}' is not a column role; write frame-time=NAME or timestamp=NAME"));
        }
    };
    if name.trim().is_empty() {
        return Err(format!("'{s}' names no column"));
    }
    Ok((role, name.trim().to_owned()))
}

/// A further column of a generic CSV: `gpu-time=NAME`, `cpu-time=NAME`,
/// `pc-latency=NAME` or `telemetry=NAME` (a time column's unit read from its name).
pub(super) fn extra_column(s: &str) -> Result<ExtraColumn, String> {
    const ROLES: &str = "gpu-time=NAME, cpu-time=NAME, pc-latency=NAME or telemetry=NAME";
    let Some((role, name)) = s.split_once('=') else {
        return Err(format!("'{s}': write {ROLES}"));
    };
    let role = match role.trim().to_ascii_lowercase().replace('_', "-").as_str() {
        "gpu-time" | "gpu" => ExtraRole::GpuTime,
        "cpu-time" | "cpu" => ExtraRole::CpuTime,
        "pc-latency" | "latency" => ExtraRole::PcLatency,
        "telemetry" => ExtraRole::Telemetry,
        other => return Err(format!("'{other}' is not a column role; write {ROLES}")),
    };
    let column = name.trim().to_owned();
    if column.is_empty() {
        return Err(format!("'{s}' names no column"));
    }
    Ok(ExtraColumn { role, unit: unit_from_name(&column), column })
}

/// A mapped column's unit: `s`, `ms`, `us` or `ns`.
pub(super) fn time_unit(s: &str) -> Result<TimeUnit, String> {
    TimeUnit::parse(s).ok_or_else(|| format!("'{s}' is not a unit; use s, ms, us or ns"))
}

/// A finite number of 0 or more.
pub(super) fn non_negative(s: &str) -> Result<f64, String> {
    let v = parse_number(s)?;
    if v >= 0.0 { Ok(v) } else { Err(format!("must be 0 or more, got {s}")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions() {
        assert_eq!(fraction("5%"), Ok(0.05));
        assert_eq!(fraction("0.1"), Ok(0.1));
        assert!(fraction("2").is_err() && fraction("-1").is_err());
    }
}
