//! `framescope compare` (`cli-report.md`, `metrics.md` §9): a baseline run against
//! another, figure by figure. The regression gate of `--fail-if-worse` lives in
//! [``super::gate`; its items are re-exported here, so `compare::Gate` and the like
//! keep working.
//!
//! Every compared figure — its JSON section and name, which way it improves, and where
//! its value lives in a [`Run`] — is one line of [`FIGURES`]. The comparison, its JSON,
//! the readable table and the gate all read that table, so the better/worse rule lives
//! in one place.

pub(crate) mod glance;
mod json;
mod text;

pub use super::gate::{
    CompareReport, Gate, GateOutcome, GateRule, GateSpecError, Limit, NotComparable, Regression,
    gate_figure_names,
};
pub use crate::figures::{Direction, FIGURES, Figure, FigureError, Section, find_figure};
pub use glance::Glance;
pub use json::BySection;
pub use text::{number, write_comparison_table};

use super::Run;
use super::system::{SystemRow, side_by_side};
use super::verdict::Verdict;
use serde::Serialize;

/// One figure compared: `delta = other − baseline`, `relative = delta / baseline`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Entry {
    /// The baseline's value.
    pub baseline: f64,
    /// The other run's value.
    pub other: f64,
    /// `other − baseline`.
    pub delta: f64,
    /// `delta / baseline`; `None` when the baseline is 0.
    pub relative: Option<f64>,
    /// Whether the other run is better (`metrics.md` §9); `None` when delta is 0 or the
    /// figure has no direction.
    pub better: Option<bool>,
}

impl Entry {
    /// Compares two values of a figure that improves in `direction`.
    #[must_use]
    pub fn new(baseline: f64, other: f64, direction: Direction) -> Self {
        let delta = other - baseline;
        let relative = (baseline != 0.0).then(|| delta / baseline);
        let higher = if delta > 0.0 {
            Some(true)
        } else if delta < 0.0 {
            Some(false)
        } else {
            None
        };
        let better = match direction {
            Direction::HigherIsBetter => higher,
            Direction::LowerIsBetter => higher.map(|h| !h),
            Direction::Neutral | Direction::Unjudged => None,
        };
        Self { baseline, other, delta, relative, better }
    }

    /// How much worse the other run is in `direction`'s sense (≤ 0 when not worse).
    #[must_use]
    pub fn worse_by(&self, direction: Direction) -> f64 {
        match direction {
            Direction::HigherIsBetter | Direction::Unjudged => -self.delta,
            Direction::LowerIsBetter => self.delta,
            Direction::Neutral => 0.0,
        }
    }
}

/// One line of a comparison: the figure, both raw values, and the entry (`None` when
/// either side lacks the figure).
#[derive(Debug, Clone, Copy)]
pub struct Row {
    /// The figure.
    pub figure: &'static Figure,
    /// The baseline's value, if it has the figure.
    pub baseline: Option<f64>,
    /// The other run's value, if it has the figure.
    pub other: Option<f64>,
    /// The comparison; `None` when either value is missing.
    pub entry: Option<Entry>,
}

impl Row {
    /// Which side lacks the figure: `"baseline"`, `"other"`, `"both"`, or `None`.
    #[must_use]
    pub fn missing(&self) -> Option<&'static str> {
        missing_side(self.baseline.is_some(), self.other.is_some())
    }

    /// The verdict on this row's change with noise band `band` ([`Verdict::of_runs`]);
    /// `None` when either side lacks the figure.
    #[must_use]
    pub fn verdict(&self, band: f64) -> Option<Verdict> {
        self.entry.map(|e| Verdict::of_runs(&e, self.figure.direction, band))
    }

    /// The entry as the JSON gives it with noise band `band`: a change inside the band
    /// is noise, so `better` is null (`metrics.md` §9).
    #[must_use]
    pub fn judged_entry(&self, band: f64) -> Option<Entry> {
        let noise = self.verdict(band) == Some(Verdict::Noise);
        self.entry.map(|e| if noise { Entry { better: None, ..e } } else { e })
    }
}

/// Which side of a comparison lacks a figure, from whether each side has it:
/// `"baseline"`, `"other"`, `"both"`, or `None`.
#[must_use]
pub fn missing_side(baseline: bool, other: bool) -> Option<&'static str> {
    match (baseline, other) {
        (true, true) => None,
        (false, true) => Some("baseline"),
        (true, false) => Some("other"),
        (false, false) => Some("both"),
    }
}

/// A baseline run against another, one [`Row`] per line of [`FIGURES`]. Serializes as
/// the `comparison` object of `cli-report.md`: `{section: {name: Entry | null}}`.
#[derive(Debug, Clone)]
pub struct Comparison {
    rows: Vec<Row>,
    /// The telemetry columns either run has, by name, their means compared (`None`
    /// unless both runs have the column): `comparison.telemetry` in the JSON.
    telemetry: Vec<TelemetryRow>,
    /// The noise band (a fraction: 0.01 = ±1 %): a smaller relative change is noise.
    band: f64,
    /// The runs' system information side by side (the table's; the JSON has each run's
    /// own `system`).
    system: Vec<SystemRow>,
}

impl Comparison {
    /// Every row, in [`FIGURES`] order.
    #[must_use]
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The rows a table lists when it shows `convention`'s figures (`None`:
    /// framescope's own; see [`Section::listed_with`]), in [`FIGURES`] order but for
    /// the tool's rows, which stand where framescope's summary would.
    #[must_use]
    pub fn listed(&self, convention: Option<Section>) -> Vec<&Row> {
        let rank = |s: Section| {
            let s = if Some(s) == convention { Section::Summary } else { s };
            Section::ALL.iter().position(|&x| x == s).unwrap_or(Section::ALL.len())
        };
        let mut rows: Vec<&Row> =
            self.rows.iter().filter(|r| r.figure.section.listed_with(convention)).collect();
        rows.sort_by_key(|r| rank(r.figure.section)); // stable: FIGURES order within a section
        rows
    }

    /// The comparison with only the rows [`Comparison::listed`] gives for
    /// `convention`, in its order.
    #[must_use]
    pub fn with_convention(self, convention: Option<Section>) -> Self {
        let rows = self.listed(convention).into_iter().copied().collect();
        Self { rows, ..self }
    }

    /// The comparison with noise band `band` (a fraction: 0.01 = ±1 %; `compare` starts
    /// with none): a relative change below it is noise, `better` null in the JSON and
    /// "noise" in the table (`metrics.md` §9). The gate does not read it.
    #[must_use]
    pub fn with_noise_band(self, band: f64) -> Self {
        Self { band, ..self }
    }

    /// The noise band (see [`Comparison::with_noise_band`]).
    #[must_use]
    pub fn noise_band(&self) -> f64 {
        self.band
    }

    /// The runs' system information side by side.
    #[must_use]
    pub fn system(&self) -> &[SystemRow] {
        &self.system
    }

    /// The telemetry columns either run has, their means compared.
    #[must_use]
    pub fn telemetry(&self) -> &[TelemetryRow] {
        &self.telemetry
    }

    /// The row of a figure named `section.name` (or by its bare name when unique).
    #[must_use]
    pub fn row(&self, name: &str) -> Option<&Row> {
        let figure = find_figure(name).ok()?;
        self.rows.iter().find(|r| std::ptr::eq(r.figure, figure))
    }
}

/// Compares `other` against `baseline`, figure by figure (`metrics.md` §9). A value
/// that is missing or not finite on either side gives a null entry.
#[must_use]
pub fn compare(baseline: &Run, other: &Run) -> Comparison {
    let rows = FIGURES
        .iter()
        .map(|figure| {
            let read = |run: &Run| (figure.value)(run).filter(|v| v.is_finite());
            let (b, o) = (read(baseline), read(other));
            let entry = b.zip(o).map(|(b, o)| Entry::new(b, o, figure.direction));
            Row { figure, baseline: b, other: o, entry }
        })
        .collect();
    let system = side_by_side(&baseline.system, &other.system);
    Comparison { rows, telemetry: compare_telemetry(baseline, other), band: 0.0, system }
}

/// One telemetry column compared (its run-wide means): neither better nor worse, a
/// higher clock or power is context, not a verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct TelemetryRow {
    /// The column, as the capture's header spells it.
    pub column: String,
    /// The baseline's statistics, if it has the column.
    pub baseline: Option<crate::analysis::telemetry::TelemetryStats>,
    /// The other run's, if it has the column.
    pub other: Option<crate::analysis::telemetry::TelemetryStats>,
    /// The means compared ([`Direction::Neutral`]); `None` unless both runs have it.
    pub entry: Option<Entry>,
}

/// Every telemetry column either run has, by name, with the means compared.
#[must_use]
pub fn compare_telemetry(baseline: &Run, other: &Run) -> Vec<TelemetryRow> {
    let mut names: Vec<&String> = baseline.telemetry.keys().chain(other.telemetry.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(|name| {
            let (b, o) = (baseline.telemetry.get(name).copied(), other.telemetry.get(name).copied());
            let entry = b.zip(o).map(|(b, o)| Entry::new(b.mean, o.mean, Direction::Neutral));
            TelemetryRow { column: name.clone(), baseline: b, other: o, entry }
        })
        .collect()
}

#[cfg(test)]
pub(super) mod tests;
