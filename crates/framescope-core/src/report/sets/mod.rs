//! Sets of runs (`metrics.md` §12, `cli-report.md`): `framescope compare A1 A2… --vs
//! B1 B2…`. Each run is analysed on its own; a set's figure is the mean over its runs
//! (outliers left out), and two sets are compared with Welch's 95 % interval for the
//! difference of the means, so a change inside the noise of repeated runs is neither
//! better nor worse.
//!
//! [`Set`] marks a set's outliers; `comparison.rs` compares two sets' means figure by
//! figure ([`compare_sets`]); `document.rs` is the JSON document of `compare … --vs`
//! ([`SetsReport`]); `text.rs` its readable table ([`write_sets_table`]).

mod comparison;
mod document;
mod text;

pub use comparison::{SetComparison, SetEntry, SetRow, compare_sets};
pub use document::{PerFigure, SetJson, SetRun, SetsJson, SetsReport};
pub use text::write_sets_table;

use super::Run;
use super::compare::{Figure, number};
use super::stats;
use crate::model::Warning;

/// The default outlier limit: a run more than 5 % from its set's median average FPS.
pub const DEFAULT_OUTLIER_LIMIT: f64 = 0.05;

/// Which set a run belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The reference set (the files before `--vs`).
    Baseline,
    /// The set compared against it (after `--vs`).
    Other,
}

impl Side {
    /// `"baseline"` or `"other"`, as the JSON names the sets.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Baseline => "baseline",
            Self::Other => "other",
        }
    }
}

/// A set of runs with its outliers marked (`metrics.md` §12).
#[derive(Debug, Clone)]
pub struct Set<'a> {
    /// Every run of the set, in argument order.
    pub runs: Vec<&'a Run>,
    /// Whether each run is an outlier, left out of the set's figures.
    pub outlier: Vec<bool>,
    /// The median of the runs' `avg_fps`.
    pub median_avg_fps: Option<f64>,
    /// Problems of the set as a whole.
    pub warnings: Vec<Warning>,
}

impl<'a> Set<'a> {
    /// Marks outliers: runs whose `avg_fps` differs from the median of the set's by
    /// more than `limit` (relative). A set keeps at least two runs: when fewer would
    /// remain, no run is left out and the set carries a warning. A run without an
    /// average FPS is never an outlier.
    #[must_use]
    pub fn new(runs: Vec<&'a Run>, limit: f64) -> Self {
        let avg: Vec<Option<f64>> =
            runs.iter().map(|r| r.summary.map(|s| s.avg_fps).filter(|v| v.is_finite())).collect();
        let known: Vec<f64> = avg.iter().flatten().copied().collect();
        let median = stats::median(&known);
        let distance = |v: Option<f64>| match (v, median) {
            (Some(v), Some(m)) if m > 0.0 => Some((v - m).abs() / m),
            _ => None,
        };
        let mut outlier: Vec<bool> = avg.iter().map(|&v| distance(v).is_some_and(|d| d > limit)).collect();
        let mut warnings = Vec::new();
        let flagged = outlier.iter().filter(|&&o| o).count();
        if flagged > 0 && runs.len() - flagged < 2 {
            outlier.fill(false);
            warnings.push(Warning::file(format!(
                "{flagged} of {} runs differ from the set's median average FPS ({}) by more than {} %; \
                 fewer than two runs would remain, so none is left out — the runs may not be of one scenario",
                runs.len(),
                median.map_or_else(|| "—".to_owned(), |m| format!("{m:.2}")),
                number(limit * 100.0)
            )));
        }
        Self { runs, outlier, median_avg_fps: median, warnings }
    }

    /// The runs the set's figures are computed on.
    pub fn kept(&self) -> impl Iterator<Item = &'a Run> + '_ {
        self.runs.iter().zip(&self.outlier).filter(|(_, o)| !**o).map(|(r, _)| *r)
    }

    /// A figure's value in every kept run; `None` when any kept run lacks it (a set
    /// mean over only some of its runs would not compare with the other set's).
    #[must_use]
    pub fn values(&self, figure: &Figure) -> Option<Vec<f64>> {
        let values: Option<Vec<f64>> =
            self.kept().map(|r| (figure.value)(r).filter(|v| v.is_finite())).collect();
        values.filter(|v| !v.is_empty())
    }
}

/// A set's figure: mean and sample standard deviation over its kept runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FigureStats {
    /// Mean of the runs' values.
    pub mean: f64,
    /// Sample standard deviation (n − 1); `None` for a single run.
    pub std: Option<f64>,
    /// Number of runs.
    pub n: usize,
}

impl FigureStats {
    /// The mean, spread and count of `values`; `None` when there are none.
    pub(super) fn of(values: &[f64]) -> Option<Self> {
        Some(Self { mean: stats::mean(values)?, std: stats::std_dev(values), n: values.len() })
    }
}

#[cfg(test)]
mod tests;
