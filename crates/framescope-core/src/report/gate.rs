//! The regression gate of `framescope compare --fail-if-worse` (`cli-report.md`,
//! `metrics.md` §9): the SPEC parsed into rules ([`Gate`]), checked against a
//! [`Comparison`], and the [`CompareReport`] document that carries the gate's findings
//! next to the comparison. Which figures exist and which way each improves comes from
//! [`FIGURES`].

use super::Report;
use super::compare::{Comparison, Direction, FIGURES, Figure, FigureError, find_figure};
use serde::Serialize;

/// The `framescope compare` document: the report of the two runs (baseline first),
/// the comparison (`None` when either file failed), and the gate's findings when
/// `--fail-if-worse` was given.
#[derive(Debug, Clone, Serialize)]
pub struct CompareReport {
    /// Schema, settings and the two runs.
    #[serde(flatten)]
    pub report: Report,
    /// The comparison, or null when either run failed.
    pub comparison: Option<Comparison>,
    /// The noise band the comparison's verdicts used (`--noise-band`, a fraction; an
    /// addition to the contract).
    pub noise_band: f64,
    /// Figures that got worse beyond their `--fail-if-worse` limit (absent without a gate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regressions: Option<Vec<Regression>>,
    /// Gate figures missing on either side (absent without a gate); `fails` says
    /// whether each fails the gate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_comparable: Option<Vec<NotComparable>>,
    /// Warnings about the comparison as a whole, e.g. runs of different applications
    /// (absent when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<crate::model::Warning>,
}

/// A gate limit: how much worse a figure may get.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    /// `N%`: worse by at most N % of the baseline.
    Percent(f64),
    /// `N`: worse by at most N in the figure's own unit.
    Absolute(f64),
}

impl Limit {
    /// The limit in words, saying whether it is relative or absolute and in which unit
    /// (`3 FPS (absolute; 3% would be relative)`, `1 % of the baseline (relative)`), for
    /// the verdict a reader of a CI log sees.
    #[must_use]
    pub fn meant(self, figure: &Figure) -> String {
        use crate::figures::Unit;
        match self {
            Self::Percent(p) => format!("{p} % of the baseline (relative)"),
            Self::Absolute(a) => {
                let amount = match figure.unit {
                    Unit::Fps => format!("{a} FPS"),
                    Unit::Ms | Unit::Seconds => format!("{a} ms"),
                    Unit::Fraction => format!("{a} = {} pp", (a * 100.0 * 1e9).round() / 1e9),
                    Unit::Count => format!("{a} more"),
                    Unit::Watts => format!("{a} W"),
                    Unit::FpsPerWatt => format!("{a} FPS/W"),
                    Unit::Ratio => format!("{a}"),
                };
                format!("{amount} (absolute; {a}% would be relative)")
            }
        }
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Percent(p) => write!(f, "{p}%"),
            Self::Absolute(a) => write!(f, "{a}"),
        }
    }
}

/// One `FIGURE=LIMIT` of a gate.
#[derive(Debug, Clone, Copy)]
pub struct GateRule {
    /// The gated figure (never [`Direction::Neutral`]).
    pub figure: &'static Figure,
    /// Its limit.
    pub limit: Limit,
}

/// A `--fail-if-worse` SPEC: `FIGURE=LIMIT[,FIGURE=LIMIT...]`. Parse it with
/// [`str::parse`]; the error names the valid figures.
#[derive(Debug, Clone, Default)]
pub struct Gate {
    /// The rules, in SPEC order.
    pub rules: Vec<GateRule>,
    /// `--allow-missing`: a gated figure the new side lacks passes (with a note).
    pub allow_missing: bool,
}

/// A figure that got worse beyond its limit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Regression {
    /// `section.name`.
    pub figure: String,
    /// The baseline's value.
    pub baseline: f64,
    /// The other run's value.
    pub other: f64,
    /// `other − baseline`.
    pub delta: f64,
    /// `delta / baseline`; null when the baseline is 0.
    pub relative: Option<f64>,
    /// The limit as given, e.g. `"5%"` or `"2"`.
    pub limit: String,
    /// The limit in words ([`Limit::meant`]), for the verdict on stderr.
    #[serde(skip)]
    pub meant: String,
}

/// A gated figure that one side (or both) lacks. It fails the gate when the other
/// (new) side lacks it, unless `--allow-missing` ([`Gate::allow_missing`]); a figure
/// only the baseline lacks is reported and passes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NotComparable {
    /// `section.name`.
    pub figure: String,
    /// `"baseline"`, `"other"` or `"both"`.
    pub missing: &'static str,
    /// True when this fails the gate.
    pub fails: bool,
}

/// What a gate found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GateOutcome {
    /// Figures worse than their limit allows (with sets: significantly so).
    pub regressions: Vec<Regression>,
    /// Gated figures missing on either side.
    pub not_comparable: Vec<NotComparable>,
    /// Sets only (`metrics.md` §12): figures whose mean got worse beyond the limit, but
    /// whose change is not significant; they do not fail the gate.
    pub within_noise: Vec<Regression>,
}

impl GateOutcome {
    /// True when the gate fails: a regression, or a gated figure missing on the new
    /// side (without `--allow-missing`).
    #[must_use]
    pub fn failed(&self) -> bool {
        !self.regressions.is_empty() || self.not_comparable.iter().any(|n| n.fails)
    }
}

/// One gated figure's comparison, whichever kind of comparison it comes from.
#[derive(Debug, Clone, Copy)]
pub struct GateRow {
    /// The figure.
    pub figure: &'static Figure,
    /// The comparison of the two values (set means with sets); `None` when either lacks it.
    pub entry: Option<super::compare::Entry>,
    /// Which side lacks the figure, if any.
    pub missing: Option<&'static str>,
    /// Sets: whether the change is significant; `None` for single runs.
    pub significant: Option<bool>,
}

/// The names the gate accepts, `section.name`, comma-separated (for messages).
#[must_use]
pub fn gate_figure_names() -> String {
    let names: Vec<String> =
        FIGURES.iter().filter(|f| f.direction != Direction::Neutral).map(Figure::qualified_name).collect();
    names.join(", ")
}

/// Why a `--fail-if-worse` SPEC was refused. The messages name the item at fault; the
/// ones about a figure list the figures a gate accepts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GateSpecError {
    /// An empty item (`a=1,,b=2`, or an empty SPEC).
    #[error("empty item in '{spec}'; write FIGURE=LIMIT[,FIGURE=LIMIT...]")]
    EmptyItem {
        /// The whole SPEC.
        spec: String,
    },
    /// An item without `=LIMIT`.
    #[error("'{item}' has no limit; write FIGURE=N% or FIGURE=N")]
    NoLimit {
        /// The item.
        item: String,
    },
    /// An unknown or ambiguous figure name.
    #[error("{0}; valid figures: {names} (the part after the dot alone is enough)", names = gate_figure_names())]
    Figure(FigureError),
    /// A figure that is never better or worse ([`Direction::Neutral`]).
    #[error(
        "{figure} is never better or worse and cannot be gated; valid figures: {names} (the part after the \
         dot alone is enough)",
        names = gate_figure_names()
    )]
    Neutral {
        /// The figure, `section.name`.
        figure: String,
    },
    /// A figure given twice.
    #[error("{figure} is listed twice")]
    Twice {
        /// The figure, `section.name`.
        figure: String,
    },
    /// A limit that is not a number ≥ 0.
    #[error("'{item}': the limit must be a number ≥ 0, as N% or N")]
    BadLimit {
        /// The item.
        item: String,
    },
}

impl std::str::FromStr for Gate {
    type Err = GateSpecError;

    fn from_str(spec: &str) -> Result<Self, GateSpecError> {
        let mut rules: Vec<GateRule> = Vec::new();
        for item in spec.split(',').map(str::trim) {
            if item.is_empty() {
                return Err(GateSpecError::EmptyItem { spec: spec.to_owned() });
            }
            let Some((name, limit)) = item.split_once('=') else {
                return Err(GateSpecError::NoLimit { item: item.to_owned() });
            };
            let figure = find_figure(name).map_err(GateSpecError::Figure)?;
            if figure.direction == Direction::Neutral {
                return Err(GateSpecError::Neutral { figure: figure.qualified_name() });
            }
            if rules.iter().any(|r| std::ptr::eq(r.figure, figure)) {
                return Err(GateSpecError::Twice { figure: figure.qualified_name() });
            }
            let limit = limit.trim();
            let (number, percent) = match limit.strip_suffix('%') {
                Some(n) => (n.trim(), true),
                None => (limit, false),
            };
            let value: f64 = number
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| GateSpecError::BadLimit { item: item.to_owned() })?;
            let limit = if percent { Limit::Percent(value) } else { Limit::Absolute(value) };
            rules.push(GateRule { figure, limit });
        }
        Ok(Self { rules, allow_missing: false })
    }
}

impl Gate {
    /// Checks every rule against a comparison. A figure fails when it got worse
    /// (`metrics.md` §9) by strictly more than its limit; with a percent limit and a
    /// baseline of 0, any worsening fails. A figure the other run lacks fails unless
    /// [`Gate::allow_missing`]; one only the baseline lacks is listed and passes.
    #[must_use]
    pub fn check(&self, comparison: &Comparison) -> GateOutcome {
        let rows: Vec<GateRow> = comparison
            .rows()
            .iter()
            .map(|r| GateRow { figure: r.figure, entry: r.entry, missing: r.missing(), significant: None })
            .collect();
        self.check_rows(&rows)
    }

    /// [`Gate::check`] over rows of any comparison. With sets (`significant` given), a
    /// change fails only when it is significant **and** worse than its limit
    /// (`metrics.md` §12); one beyond the limit but not significant is listed as
    /// within noise.
    #[must_use]
    pub fn check_rows(&self, rows: &[GateRow]) -> GateOutcome {
        let mut outcome = GateOutcome::default();
        for rule in &self.rules {
            let Some(row) = rows.iter().find(|r| std::ptr::eq(r.figure, rule.figure)) else {
                continue;
            };
            let figure = rule.figure.qualified_name();
            let (Some(entry), None) = (row.entry, row.missing) else {
                let missing = row.missing.unwrap_or("both");
                let fails = missing != "baseline" && !self.allow_missing;
                outcome.not_comparable.push(NotComparable { figure, missing, fails });
                continue;
            };
            let worse_by = entry.worse_by(rule.figure.direction);
            let beyond = worse_by > 0.0
                && match rule.limit {
                    Limit::Absolute(max) => worse_by > max,
                    Limit::Percent(pct) => {
                        entry.relative.is_none_or(|_| worse_by / entry.baseline.abs() > pct / 100.0)
                    }
                };
            if beyond {
                let regression = Regression {
                    figure,
                    baseline: entry.baseline,
                    other: entry.other,
                    delta: entry.delta,
                    relative: entry.relative,
                    limit: rule.limit.to_string(),
                    meant: rule.limit.meant(rule.figure),
                };
                if row.significant == Some(false) {
                    outcome.within_noise.push(regression);
                } else {
                    outcome.regressions.push(regression);
                }
            }
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::analysis::{Pacing, Stutters};
    use crate::report::compare::compare;
    use crate::report::compare::tests::run;

    #[test]
    fn compare_gate_parses_and_checks() {
        let (a, b) = (run(1.0), run(1.25));
        let c = compare(&a, &b);
        let gate: Gate = "avg_fps=5%, p99_ms=50%, stutters.count=0, pcl_ms=1".parse().unwrap();
        let out = gate.check(&c);
        let names: Vec<&str> = out.regressions.iter().map(|r| r.figure.as_str()).collect();
        assert_eq!(names, ["summary.avg_fps"]);
        assert_eq!(out.regressions[0].limit, "5%");
        assert_eq!(
            out.not_comparable,
            [NotComparable { figure: "latency.pcl_ms".into(), missing: "both", fails: true }]
        );
        assert!(out.failed());
        // --allow-missing: listed, passes.
        let lenient = Gate { allow_missing: true, ..gate.clone() };
        assert!(!lenient.check(&c).not_comparable[0].fails);
        // Absolute limits, and any worsening from a baseline of 0 under a percent limit.
        let mut worse = run(1.0);
        worse.pacing = worse.pacing.map(|p| Pacing { slow_time_fraction: 0.1, ..p });
        worse.stutters = Some(Stutters { count: 6, time_fraction: 0.004, frames: Vec::new() });
        let c = compare(&a, &worse);
        let check = |spec: &str| spec.parse::<Gate>().unwrap().check(&c).regressions.len();
        assert_eq!(check("stutters.count=2"), 1);
        assert_eq!(check("stutters.count=3"), 0);
        assert_eq!(check("slow_time_fraction=1000%"), 1);
        assert_eq!(check("slow_time_fraction=0.2"), 0);
    }

    #[test]
    fn compare_gate_rejects_bad_specs() {
        for spec in ["fps=3%", "avg_fps", "avg_fps=-1%", "avg_fps=x", "frames=1", "avg_fps=1,avg_fps=2", ""] {
            assert!(spec.parse::<Gate>().is_err(), "{spec}");
        }
        let err = "fps=3%".parse::<Gate>().unwrap_err().to_string();
        assert!(err.contains("summary.avg_fps") && err.contains("stutters.count"), "{err}");
    }

    /// The typed errors print the messages the CLI has always printed, word for word.
    #[test]
    fn compare_gate_errors_keep_their_messages() {
        let err = |spec: &str| spec.parse::<Gate>().unwrap_err();
        let valid =
            format!("valid figures: {} (the part after the dot alone is enough)", gate_figure_names());
        assert_eq!(
            err("avg_fps=1,,p99_ms=2"),
            GateSpecError::EmptyItem { spec: "avg_fps=1,,p99_ms=2".into() }
        );
        assert_eq!(err("").to_string(), "empty item in ''; write FIGURE=LIMIT[,FIGURE=LIMIT...]");
        assert_eq!(err("avg_fps").to_string(), "'avg_fps' has no limit; write FIGURE=N% or FIGURE=N");
        assert_eq!(err("fps=3%").to_string(), format!("unknown figure 'fps'; {valid}"));
        assert_eq!(
            err("average_fps=1").to_string(),
            format!("'average_fps' is ambiguous; write it as section.name; {valid}")
        );
        assert_eq!(
            err("frames=1").to_string(),
            format!("run.frames is never better or worse and cannot be gated; {valid}")
        );
        assert_eq!(err("avg_fps=1,avg_fps=2").to_string(), "summary.avg_fps is listed twice");
        assert_eq!(
            err("avg_fps=-1%").to_string(),
            "'avg_fps=-1%': the limit must be a number ≥ 0, as N% or N"
        );
    }
}
