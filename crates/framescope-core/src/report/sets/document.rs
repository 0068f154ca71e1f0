//! The `framescope compare A1 A2… --vs B1 B2…` JSON document: every run with its set,
//! each set's means and spread, the comparison and the gate's findings.

use super::{FigureStats, Set, SetComparison};
use crate::model::Warning;
use crate::report::compare::{BySection, FIGURES, Figure};
use crate::report::gate::{GateOutcome, NotComparable, Regression};
use crate::report::{RunEntry, SettingsJson};
use serde::{Serialize, Serializer};

/// A run of the sets report: the run (or failed file) with its set and whether it
/// was left out as an outlier.
#[derive(Debug, Clone, Serialize)]
pub struct SetRun {
    /// The run's figures, as `framescope report` gives them.
    #[serde(flatten)]
    pub entry: RunEntry,
    /// `"baseline"` or `"other"`.
    pub set: &'static str,
    /// True when left out of its set's figures.
    pub outlier: bool,
}

/// One value per figure (a mean or a standard deviation), serialized by section.
#[derive(Debug, Clone)]
pub struct PerFigure(pub Vec<(&'static Figure, Option<f64>)>);

impl Serialize for PerFigure {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        BySection(&self.0).serialize(serializer)
    }
}

/// A set in the `sets` object.
#[derive(Debug, Clone, Serialize)]
pub struct SetJson {
    /// Runs the set's figures use (outliers left out).
    pub runs: usize,
    /// Runs given for the set.
    pub given: usize,
    /// Files of the runs left out as outliers.
    pub outliers: Vec<String>,
    /// The median of the runs' average FPS, from which outliers are measured.
    pub median_avg_fps: Option<f64>,
    /// The set's mean of every figure (null when a kept run lacks it).
    pub mean: PerFigure,
    /// The sample standard deviation (n − 1) of every figure.
    pub std: PerFigure,
    /// The set's warnings.
    pub warnings: Vec<Warning>,
}

impl SetJson {
    /// The JSON of a set.
    #[must_use]
    pub fn of(set: &Set<'_>) -> Self {
        let stats: Vec<(&'static Figure, Option<FigureStats>)> =
            FIGURES.iter().map(|f| (f, set.values(f).as_deref().and_then(FigureStats::of))).collect();
        Self {
            runs: set.kept().count(),
            given: set.runs.len(),
            outliers: set
                .runs
                .iter()
                .zip(&set.outlier)
                .filter(|(_, o)| **o)
                .map(|(r, _)| r.file.clone())
                .collect(),
            median_avg_fps: set.median_avg_fps,
            mean: PerFigure(stats.iter().map(|&(f, s)| (f, s.map(|s| s.mean))).collect()),
            std: PerFigure(stats.iter().map(|&(f, s)| (f, s.and_then(|s| s.std))).collect()),
            warnings: set.warnings.clone(),
        }
    }
}

/// The `sets` object.
#[derive(Debug, Clone, Serialize)]
pub struct SetsJson {
    /// The outlier limit used (relative distance from the median average FPS).
    pub outlier_limit: f64,
    /// The baseline set.
    pub baseline: SetJson,
    /// The other set.
    pub other: SetJson,
}

/// The `framescope compare A1 A2… --vs B1 B2…` document.
#[derive(Debug, Clone, Serialize)]
pub struct SetsReport {
    /// Contract version.
    pub schema: u32,
    /// The settings every run was analysed with.
    pub settings: SettingsJson,
    /// Every run of the baseline set, then of the other set.
    pub runs: Vec<SetRun>,
    /// The set means compared, or null when a file failed or a set has fewer than two runs.
    pub comparison: Option<SetComparison>,
    /// Each set's run count, outliers, means, standard deviations and warnings.
    pub sets: Option<SetsJson>,
    /// Figures that got significantly worse beyond their `--fail-if-worse` limit
    /// (absent without a gate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regressions: Option<Vec<Regression>>,
    /// Gate figures missing on either side (absent without a gate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_comparable: Option<Vec<NotComparable>>,
    /// Gate figures whose mean got worse beyond the limit, but not significantly:
    /// they do not fail the gate (absent without a gate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within_noise: Option<Vec<Regression>>,
    /// Warnings about the comparison as a whole (absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
}

impl SetsReport {
    /// Fills in the gate's findings.
    pub fn set_gate(&mut self, outcome: Option<&GateOutcome>) {
        self.regressions = outcome.map(|o| o.regressions.clone());
        self.not_comparable = outcome.map(|o| o.not_comparable.clone());
        self.within_noise = outcome.map(|o| o.within_noise.clone());
    }
}
