//! The options every front end takes — the command line's `report` options and the
//! Python package's keyword arguments — parsed and checked once, here: what each
//! accepts and what a bad one is told ([`OptionError`]). The command line hands the
//! parsers to clap (which prints the message after the option's name, exit 2); the
//! Python package checks its values with [`OptionValues::check`] (a `ValueError`
//! naming the option).

use super::{Job, TraceSelector};
use crate::analysis::{FrameTimeSource, Settings, Trim};
use crate::figures::Section;
use crate::ingest::{
    ColumnMapping, ExtraColumn, ExtraRole, LoadOptions, MappedRole, TimeUnit, unit_from_name,
};

/// The further column roles of a generic CSV, as `--extra-column` takes them.
const EXTRA_ROLES: &str = "gpu-time=NAME, cpu-time=NAME, pc-latency=NAME or telemetry=NAME";

/// Why an option's value is refused; the message is what the user reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// Not a number at all.
    #[error("'{0}' is not a number")]
    NotANumber(String),
    /// NaN or infinite.
    #[error("'{0}' is not a finite number")]
    NotFinite(String),
    /// 0 or less where it must be above 0.
    #[error("must be greater than 0, got {0}")]
    NotPositive(String),
    /// Below 0.
    #[error("must be 0 or more, got {0}")]
    Negative(String),
    /// A bare threshold of 1 or more, which reads like a percentage.
    #[error(
        "{0} is a fraction of 1 or more ({1} %); did you mean {0}%? Write 0.2 or 20% for 20 %, or {1}% if you \
         really mean {1} %"
    )]
    ThresholdLooksLikePercent(String, String),
    /// A fraction above 1.
    #[error("{0} is more than 1 (100 %); write a fraction such as 0.05 or 5%")]
    FractionAboveOne(String),
    /// A column mapping without `ROLE=`.
    #[error("'{0}': write frame-time=NAME or timestamp=NAME")]
    ColumnSpec(String),
    /// A column role that is neither frame time nor timestamp.
    #[error("'{0}' is not a column role; write frame-time=NAME or timestamp=NAME")]
    ColumnRole(String),
    /// A further column without `ROLE=`.
    #[error("'{0}': write {EXTRA_ROLES}")]
    ExtraColumnSpec(String),
    /// A further column's role that is none of the known ones.
    #[error("'{0}' is not a column role; write {EXTRA_ROLES}")]
    ExtraColumnRole(String),
    /// `ROLE=` with no column name.
    #[error("'{0}' names no column")]
    NoColumn(String),
    /// A unit other than s, ms, us and ns.
    #[error("'{0}' is not a unit; use s, ms, us or ns")]
    Unit(String),
    /// A frame-time source other than auto, presents and display.
    #[error("'{0}' is not a frame-time source; use auto, presents or display")]
    FrameTime(String),
    /// A peer tool framescope does not know.
    #[error("'{0}' is not a peer tool; use capframex, frameview, presentmon or mangohud")]
    Convention(String),
    /// A trace selector that selects nothing.
    #[error("{0}")]
    Trace(#[from] super::TraceSelectorError),
    /// A worker count of 0.
    #[error("must be at least 1")]
    NoWorkers,
    /// A further column of a generic CSV without the column it goes with.
    #[error("goes with column (the frame-time or timestamp column of a CSV of no known format)")]
    NeedsColumn,
}

/// A finite number.
pub fn number(s: &str) -> Result<f64, OptionError> {
    let v: f64 = s.trim().parse().map_err(|_| OptionError::NotANumber(s.to_owned()))?;
    if v.is_finite() { Ok(v) } else { Err(OptionError::NotFinite(s.to_owned())) }
}

/// A finite number above 0.
pub fn positive(s: &str) -> Result<f64, OptionError> {
    let v = number(s)?;
    if v > 0.0 { Ok(v) } else { Err(OptionError::NotPositive(s.to_owned())) }
}

/// A finite number of 0 or more.
pub fn non_negative(s: &str) -> Result<f64, OptionError> {
    let v = number(s)?;
    if v >= 0.0 { Ok(v) } else { Err(OptionError::Negative(s.to_owned())) }
}

/// A value (not text) that must be finite and above 0.
pub fn positive_value(v: f64) -> Result<f64, OptionError> {
    positive(&v.to_string())
}

/// A value (not text) that must be finite and 0 or more.
pub fn non_negative_value(v: f64) -> Result<f64, OptionError> {
    non_negative(&v.to_string())
}

/// A relative threshold: `0.2` or `20%`. A bare number of 1 or more is refused: it
/// reads like a percentage (`--stutter-threshold 50` would silently mean 5000 % and find
/// no stutters), and a threshold at or above 100 % is better written with `%`.
pub fn threshold(s: &str) -> Result<f64, OptionError> {
    if let Some(pct) = s.trim().strip_suffix('%') {
        return Ok(non_negative(pct)? / 100.0);
    }
    let v = non_negative(s)?;
    if v >= 1.0 {
        return Err(OptionError::ThresholdLooksLikePercent(s.to_owned(), format!("{:.0}", v * 100.0)));
    }
    Ok(v)
}

/// A fraction from 0 to 1: `0.05` or `5%`.
pub fn fraction(s: &str) -> Result<f64, OptionError> {
    let v = match s.trim().strip_suffix('%') {
        Some(pct) => non_negative(pct)? / 100.0,
        None => non_negative(s)?,
    };
    if v <= 1.0 { Ok(v) } else { Err(OptionError::FractionAboveOne(s.to_owned())) }
}

/// `frame-time=NAME` or `timestamp=NAME`: a CSV of no known format's time column.
pub fn column_spec(s: &str) -> Result<(MappedRole, String), OptionError> {
    let Some((role, name)) = s.split_once('=') else {
        return Err(OptionError::ColumnSpec(s.to_owned()));
    };
    let role = match role.trim().to_ascii_lowercase().as_str() {
        "frame-time" | "frametime" | "frame_time" => MappedRole::FrameTime,
        "timestamp" | "time" => MappedRole::Timestamp,
        other => return Err(OptionError::ColumnRole(other.to_owned())),
    };
    if name.trim().is_empty() {
        return Err(OptionError::NoColumn(s.to_owned()));
    }
    Ok((role, name.trim().to_owned()))
}

/// A further column of a generic CSV: `gpu-time=NAME`, `cpu-time=NAME`,
/// `pc-latency=NAME` or `telemetry=NAME` (a time column's unit read from its name).
pub fn extra_column(s: &str) -> Result<ExtraColumn, OptionError> {
    let Some((role, name)) = s.split_once('=') else {
        return Err(OptionError::ExtraColumnSpec(s.to_owned()));
    };
    let role = match role.trim().to_ascii_lowercase().replace('_', "-").as_str() {
        "gpu-time" | "gpu" => ExtraRole::GpuTime,
        "cpu-time" | "cpu" => ExtraRole::CpuTime,
        "pc-latency" | "latency" => ExtraRole::PcLatency,
        "telemetry" => ExtraRole::Telemetry,
        other => return Err(OptionError::ExtraColumnRole(other.to_owned())),
    };
    let column = name.trim().to_owned();
    if column.is_empty() {
        return Err(OptionError::NoColumn(s.to_owned()));
    }
    Ok(ExtraColumn { role, unit: unit_from_name(&column), column })
}

/// A mapped column's unit: `s`, `ms`, `us` or `ns`.
pub fn time_unit(s: &str) -> Result<TimeUnit, OptionError> {
    TimeUnit::parse(s).ok_or_else(|| OptionError::Unit(s.to_owned()))
}

/// The frame-time source: `auto`, `presents` or `display` (any case).
pub fn frame_time(s: &str) -> Result<FrameTimeSource, OptionError> {
    match s.trim().to_ascii_lowercase().as_str() {
        "auto" => Ok(FrameTimeSource::Auto),
        "presents" => Ok(FrameTimeSource::Presents),
        "display" => Ok(FrameTimeSource::Display),
        _ => Err(OptionError::FrameTime(s.to_owned())),
    }
}

/// A peer tool's section: `capframex`, `frameview`, `presentmon` or `mangohud`.
pub fn convention(s: &str) -> Result<Section, OptionError> {
    Section::convention(s).ok_or_else(|| OptionError::Convention(s.to_owned()))
}

/// The options of a report as plain values, as a binding passes them (the command
/// line's `report` options; a mapping's column and unit as `--column` and `--unit`
/// write them).
#[derive(Debug, Clone, Copy)]
pub struct OptionValues<'a> {
    /// `--target-fps`.
    pub target_fps: f64,
    /// `--stutter-threshold`, as written: a fraction (`0.2`) or a percentage (`20%`).
    pub stutter_threshold: &'a str,
    /// `--stutter-floor-ms`.
    pub stutter_floor_ms: f64,
    /// `--refresh-hz`.
    pub refresh_hz: Option<f64>,
    /// `--frame-time`.
    pub frame_time: &'a str,
    /// `--trace`.
    pub trace: &'a str,
    /// `--trim-start`.
    pub trim_start: f64,
    /// `--trim-end`.
    pub trim_end: f64,
    /// `--column`.
    pub column: Option<&'a str>,
    /// `--unit`.
    pub unit: &'a str,
    /// `--extra-column`, each as written (`gpu-time=NAME`); only with `column`.
    pub extra_columns: &'a [String],
    /// `--max-skipped`, as written: a fraction (`0.05`) or a percentage (`5%`).
    pub max_skipped: Option<&'a str>,
    /// `--qpc-frequency`.
    pub qpc_frequency: Option<f64>,
    /// How many files are read at once (`None`: as many as the machine has cores).
    pub workers: Option<usize>,
}

/// An option that was refused, named as the binding names it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{option}: {error}")]
pub struct BadOption {
    /// The option's name.
    pub option: &'static str,
    /// Why it was refused.
    pub error: OptionError,
}

/// Checked options: the analysis settings, how every file is read, and how many at
/// once.
#[derive(Debug, Clone)]
pub struct Options {
    /// The analysis settings.
    pub settings: Settings,
    /// How every file is read, its traces picked and trimmed.
    pub job: Job,
    /// How many files are read at once.
    pub workers: usize,
    /// `--max-skipped`, a fraction.
    pub max_skipped: Option<f64>,
}

impl OptionValues<'_> {
    /// Checks every value as the command line checks its options.
    pub fn check(&self) -> Result<Options, BadOption> {
        let named = |option: &'static str| move |error: OptionError| BadOption { option, error };
        let settings = Settings {
            target_fps: positive_value(self.target_fps).map_err(named("target_fps"))?,
            stutter_threshold: threshold(self.stutter_threshold).map_err(named("stutter_threshold"))?,
            stutter_floor_ms: non_negative_value(self.stutter_floor_ms).map_err(named("stutter_floor_ms"))?,
            refresh_hz: self.refresh_hz.map(positive_value).transpose().map_err(named("refresh_hz"))?,
            frame_time: frame_time(self.frame_time).map_err(named("frame_time"))?,
        };
        let selector = self.trace.parse::<TraceSelector>().map_err(|e| named("trace")(e.into()))?;
        let trim = Trim {
            start_s: non_negative_value(self.trim_start).map_err(named("trim_start"))?,
            end_s: non_negative_value(self.trim_end).map_err(named("trim_end"))?,
        };
        let mapping = match self.column {
            Some(spec) => {
                let (role, column) = column_spec(spec).map_err(named("column"))?;
                let unit = time_unit(self.unit).map_err(named("unit"))?;
                let extra = self.extra_columns.iter().map(|s| extra_column(s)).collect::<Result<_, _>>();
                Some(ColumnMapping { role, column, unit, extra: extra.map_err(named("extra_column"))? })
            }
            None if !self.extra_columns.is_empty() => {
                return Err(named("extra_column")(OptionError::NeedsColumn));
            }
            None => None,
        };
        let max_skipped = self.max_skipped.map(fraction).transpose().map_err(named("max_skipped"))?;
        let qpc_frequency_hz =
            self.qpc_frequency.map(positive_value).transpose().map_err(named("qpc_frequency"))?;
        let workers = match self.workers {
            Some(0) => return Err(named("workers")(OptionError::NoWorkers)),
            Some(n) => n,
            None => super::default_workers(),
        };
        let opts = LoadOptions { qpc_frequency_hz, mapping, figures_only: false };
        Ok(Options { settings, job: Job { selector, opts, trim }, workers, max_skipped })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_fractions_and_thresholds() {
        assert_eq!(positive("60"), Ok(60.0));
        assert_eq!(positive("0").unwrap_err().to_string(), "must be greater than 0, got 0");
        assert_eq!(number("x").unwrap_err().to_string(), "'x' is not a number");
        assert_eq!(number("inf").unwrap_err().to_string(), "'inf' is not a finite number");
        assert_eq!(threshold("20%"), Ok(0.2));
        assert_eq!(threshold("0.2"), Ok(0.2));
        assert_eq!(
            threshold("50").unwrap_err().to_string(),
            "50 is a fraction of 1 or more (5000 %); did you mean 50%? Write 0.2 or 20% for 20 %, or 5000% if you \
             really mean 5000 %"
        );
        assert_eq!(fraction("5%"), Ok(0.05));
        assert_eq!(
            fraction("2").unwrap_err().to_string(),
            "2 is more than 1 (100 %); write a fraction such as 0.05 or 5%"
        );
    }

    #[test]
    fn columns_units_and_sources() {
        assert_eq!(column_spec("timestamp= t "), Ok((MappedRole::Timestamp, "t".to_owned())));
        assert_eq!(column_spec("x").unwrap_err().to_string(), "'x': write frame-time=NAME or timestamp=NAME");
        assert_eq!(column_spec("frame-time=").unwrap_err(), OptionError::NoColumn("frame-time=".to_owned()));
        assert_eq!(extra_column("gpu_time=gpu_us").map(|c| c.unit), Ok(TimeUnit::Micros));
        assert_eq!(time_unit("hours").unwrap_err().to_string(), "'hours' is not a unit; use s, ms, us or ns");
        assert_eq!(frame_time("Display"), Ok(FrameTimeSource::Display));
        assert_eq!(convention("FrameView"), Ok(Section::FrameView));
    }

    #[test]
    fn a_bindings_values_are_checked_and_named() {
        let ok = OptionValues {
            target_fps: 60.0,
            stutter_threshold: "20%",
            stutter_floor_ms: 4.0,
            refresh_hz: None,
            frame_time: "auto",
            trace: "default",
            trim_start: 0.0,
            trim_end: 1.5,
            column: Some("frame-time=ms"),
            unit: "ms",
            extra_columns: &[],
            max_skipped: Some("5%"),
            qpc_frequency: None,
            workers: Some(2),
        };
        let checked = ok.check().unwrap();
        assert_eq!((checked.job.trim.end_s, checked.workers), (1.5, 2));
        assert_eq!((checked.settings.stutter_threshold, checked.max_skipped), (0.2, Some(0.05)));
        let bad = OptionValues { stutter_threshold: "50", ..ok }.check().unwrap_err();
        assert!(bad.to_string().starts_with("stutter_threshold: 50 is a fraction of 1 or more"), "{bad}");
        let extra = ["gpu-time=gpu_us".to_owned()];
        let checked = OptionValues { extra_columns: &extra, ..ok }.check().unwrap();
        assert_eq!(checked.job.opts.mapping.map(|m| m.extra.len()), Some(1));
        let bad = OptionValues { extra_columns: &extra, column: None, ..ok }.check().unwrap_err();
        assert_eq!(bad.option, "extra_column");
        let bad = OptionValues { max_skipped: Some("2"), ..ok }.check().unwrap_err();
        assert_eq!(
            bad.to_string(),
            "max_skipped: 2 is more than 1 (100 %); write a fraction such as 0.05 or 5%"
        );
        let bad = OptionValues { target_fps: 0.0, ..ok }.check().unwrap_err();
        assert_eq!(bad.to_string(), "target_fps: must be greater than 0, got 0");
        let bad = OptionValues { frame_time: "gpu", ..ok }.check().unwrap_err();
        assert_eq!(bad.option, "frame_time");
        let bad = OptionValues { workers: Some(0), ..ok }.check().unwrap_err();
        assert_eq!(bad.to_string(), "workers: must be at least 1");
        let bad = OptionValues { trim_start: f64::NAN, ..ok }.check().unwrap_err();
        assert_eq!(bad.to_string(), "trim_start: 'NaN' is not a finite number");
    }
}
