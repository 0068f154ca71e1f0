//! Two sets compared figure by figure (`metrics.md` §12): the set means, their
//! difference and Welch's 95 % interval, and the rows the regression gate reads.

use super::{FigureStats, Set};
use crate::report::compare::{BySection, Entry, FIGURES, Figure};
use crate::report::gate::GateRow;
use crate::report::stats::{self, Welch};
use crate::report::verdict::Verdict;
use serde::{Serialize, Serializer};

/// One figure of two sets compared (`metrics.md` §12). `baseline` and `other` are
/// the set means.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SetEntry {
    /// The baseline set's mean.
    pub baseline: f64,
    /// The other set's mean.
    pub other: f64,
    /// `mean_B − mean_A`.
    pub delta: f64,
    /// `delta / mean_A`; null when the baseline mean is 0.
    pub relative: Option<f64>,
    /// Better or worse (`metrics.md` §9), only for a significant change; else null.
    pub better: Option<bool>,
    /// Welch's 95 % confidence interval for `delta`.
    pub ci95: [f64; 2],
    /// True when `ci95` excludes 0.
    pub significant: bool,
    /// Welch–Satterthwaite degrees of freedom ν (an addition to the contract); null
    /// when both sets have no spread.
    pub df: Option<f64>,
}

/// One line of a sets comparison.
#[derive(Debug, Clone, Copy)]
pub struct SetRow {
    /// The figure.
    pub figure: &'static Figure,
    /// The baseline set's figure, if every kept run has it.
    pub baseline: Option<FigureStats>,
    /// The other set's figure.
    pub other: Option<FigureStats>,
    /// The comparison; `None` when either set lacks the figure.
    pub entry: Option<SetEntry>,
}

impl SetRow {
    /// The verdict on the change of the means ([`Verdict::of_sets`]): better / worse
    /// only for a significant change, noise when the interval includes 0, the same when
    /// every run of both sets has the same value, neutral for a count (frames,
    /// duration); `None` when a set lacks the figure.
    #[must_use]
    pub fn verdict(&self) -> Option<Verdict> {
        self.entry.map(|e| Verdict::of_sets(&e, self.figure.direction))
    }

    /// Which side lacks the figure: `"baseline"`, `"other"`, `"both"`, or `None`.
    #[must_use]
    pub fn missing(&self) -> Option<&'static str> {
        crate::report::compare::missing_side(self.baseline.is_some(), self.other.is_some())
    }
}

/// Two sets compared, one [`SetRow`] per line of [`FIGURES`]. Serializes as the
/// `comparison` object: `{section: {name: SetEntry | null}}`.
#[derive(Debug, Clone)]
pub struct SetComparison {
    rows: Vec<SetRow>,
}

impl SetComparison {
    /// Every row, in [`FIGURES`] order.
    #[must_use]
    pub fn rows(&self) -> &[SetRow] {
        &self.rows
    }

    /// The row of a figure named `section.name` (or by its bare name when unique).
    #[must_use]
    pub fn row(&self, name: &str) -> Option<&SetRow> {
        let figure = crate::report::compare::find_figure(name).ok()?;
        self.rows.iter().find(|r| std::ptr::eq(r.figure, figure))
    }

    /// The rows as the regression gate reads them: a change fails only when it is
    /// significant and beyond its limit.
    #[must_use]
    pub fn gate_rows(&self) -> Vec<GateRow> {
        self.rows
            .iter()
            .map(|r| GateRow {
                figure: r.figure,
                entry: r.entry.map(|e| Entry {
                    baseline: e.baseline,
                    other: e.other,
                    delta: e.delta,
                    relative: e.relative,
                    better: e.better,
                }),
                missing: r.missing(),
                significant: r.entry.map(|e| e.significant),
            })
            .collect()
    }
}

impl Serialize for SetComparison {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let cells: Vec<(&'static Figure, Option<SetEntry>)> =
            self.rows.iter().map(|r| (r.figure, r.entry)).collect();
        BySection(&cells).serialize(serializer)
    }
}

/// Compares set B against set A, figure by figure (`metrics.md` §12).
#[must_use]
pub fn compare_sets(a: &Set<'_>, b: &Set<'_>) -> SetComparison {
    let rows = FIGURES
        .iter()
        .map(|figure| {
            let (va, vb) = (a.values(figure), b.values(figure));
            let (sa, sb) = (va.as_deref().and_then(FigureStats::of), vb.as_deref().and_then(FigureStats::of));
            let entry = va.zip(vb).and_then(|(va, vb)| {
                let w = Welch::of(&va, &vb)?;
                let baseline = stats::mean(&va)?;
                let significant = w.significant();
                let plain = Entry::new(baseline, baseline + w.delta, figure.direction);
                Some(SetEntry {
                    baseline,
                    other: stats::mean(&vb)?,
                    delta: w.delta,
                    relative: (baseline != 0.0).then(|| w.delta / baseline),
                    better: plain.better.filter(|_| significant),
                    ci95: w.ci95,
                    significant,
                    df: w.df,
                })
            });
            SetRow { figure, baseline: sa, other: sb, entry }
        })
        .collect();
    SetComparison { rows }
}
