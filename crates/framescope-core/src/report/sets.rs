//! Sets of runs (`metrics.md` §12, `cli-report.md`): `framescope compare A1 A2… --vs
//! B1 B2…`. Each run is analysed on its own; a set's figure is the mean over its runs
//! (outliers left out), and two sets are compared with Welch's 95 % interval for the
//! difference of the means, so a change inside the noise of repeated runs is neither
//! better nor worse.

use super::compare::{BySection, Entry, FIGURES, Figure, number};
use super::escape::text;
use super::gate::{GateOutcome, GateRow, NotComparable, Regression};
use super::stats::{self, Welch};
use super::verdict::Verdict;
use super::{Run, RunEntry, SettingsJson};
use crate::model::Warning;
use serde::{Serialize, Serializer};
use std::io::Write;

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
    fn of(values: &[f64]) -> Option<Self> {
        Some(Self { mean: stats::mean(values)?, std: stats::std_dev(values), n: values.len() })
    }
}

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
        super::compare::missing_side(self.baseline.is_some(), self.other.is_some())
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
        let figure = super::compare::find_figure(name).ok()?;
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

/// Writes the sets report as text: each set's runs (average FPS, outliers marked),
/// then the comparison of the means with the 95 % interval and a verdict per figure
/// (`better`/`worse` only for a significant change, else `noise`).
pub fn write_sets_table(doc: &SetsReport, out: &mut impl Write) -> std::io::Result<()> {
    super::table::write_settings(&doc.settings, out)?;
    for side in [Side::Baseline, Side::Other] {
        let set =
            doc.sets.as_ref().map(|sets| if side == Side::Baseline { &sets.baseline } else { &sets.other });
        let runs: Vec<&SetRun> = doc.runs.iter().filter(|r| r.set == side.name()).collect();
        let head = set.map_or_else(String::new, |j| {
            let median = j.median_avg_fps.map_or_else(String::new, |m| format!(", median avg {m:.2} FPS"));
            let left = if j.outliers.is_empty() {
                String::new()
            } else {
                format!(", {} left out as outliers", j.outliers.len())
            };
            format!(": {} of {} runs used{left}{median}", j.runs, j.given)
        });
        writeln!(out, "\n{} set{head}", side.name())?;
        for r in runs {
            match &r.entry {
                RunEntry::Run(run) => {
                    let avg = run.summary.map_or_else(|| "—".to_owned(), |m| format!("{:.2}", m.avg_fps));
                    let note = if r.outlier { "   outlier, left out" } else { "" };
                    writeln!(
                        out,
                        "  {}  [{}]  avg {avg} FPS  frames {}{note}",
                        text(&run.file),
                        text(&run.application),
                        run.frames
                    )?;
                    for w in run.warnings.iter().take(3) {
                        writeln!(out, "    warning: {}", text(&w.message))?;
                    }
                }
                RunEntry::Failed(f) => {
                    writeln!(out, "  {}  error: {}", text(&f.file), text(&f.error.message))?;
                }
                RunEntry::Etl(e) => writeln!(out, "  {}  an ETW trace, not a run", text(&e.file))?,
            }
        }
        for w in set.map(|j| j.warnings.as_slice()).unwrap_or_default() {
            writeln!(out, "  warning: {}", text(&w.message))?;
        }
    }
    for w in &doc.warnings {
        writeln!(out, "\nwarning: {}", text(&w.message))?;
    }
    writeln!(out)?;
    match &doc.comparison {
        Some(c) => write_set_comparison(c, out),
        None => writeln!(out, "no comparison: a file could not be reported"),
    }
}

fn write_set_comparison(c: &SetComparison, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "comparison: other set against baseline set (means; Welch's 95 % interval of the difference)"
    )?;
    writeln!(
        out,
        "  {:<40} {:>12} {:>12} {:>12} {:>10} {:>27}  verdict",
        "figure", "baseline", "other", "delta", "relative", "95 % interval"
    )?;
    let mut hidden = 0;
    for row in c.rows.iter().filter(|r| !r.figure.section.is_convention()) {
        let side = |v: Option<FigureStats>| v.map_or_else(|| "—".to_owned(), |s| number(s.mean));
        let (delta, relative, interval, verdict) = match (row.entry, row.missing()) {
            (_, Some("both")) => {
                hidden += 1;
                continue;
            }
            (Some(e), None) => {
                let signed = |v: f64| if v > 0.0 { format!("+{}", number(v)) } else { number(v) };
                let relative = e.relative.map_or_else(|| "—".to_owned(), |r| format!("{:+.1} %", r * 100.0));
                let interval = format!("[{}, {}]", signed(e.ci95[0]), signed(e.ci95[1]));
                let verdict = row.verdict().map_or("not comparable", Verdict::as_str);
                (signed(e.delta), relative, interval, verdict)
            }
            _ => ("—".to_owned(), "—".to_owned(), "—".to_owned(), "not comparable"),
        };
        writeln!(
            out,
            "  {:<40} {:>12} {:>12} {delta:>12} {relative:>10} {interval:>27}  {verdict}",
            row.figure.qualified_name(),
            side(row.baseline),
            side(row.other)
        )?;
    }
    if hidden > 0 {
        writeln!(out, "  ({hidden} figures neither set has are not shown; see --json)")?;
    }
    writeln!(out, "  (noise: the interval includes 0, so the change is within the runs' spread)")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::analysis::Summary;
    use crate::report::compare::tests::run;

    /// A run whose average FPS is `fps` (and whose other summary figures follow it).
    fn at(fps: f64) -> Run {
        let mut r = run(100.0 / fps);
        r.summary = r.summary.map(|s| Summary { avg_fps: fps, ..s });
        r
    }

    fn set(fps: &[f64]) -> Vec<Run> {
        fps.iter().map(|&f| at(f)).collect()
    }

    /// Median of 100, 102, 98, 80 is 99; 80 is 19.2 % away (> 5 %), the others at most
    /// 3.0 %. Left out: the set's mean avg FPS is (100 + 102 + 98) / 3 = 100 and its
    /// std √((0 + 4 + 4) / 2) = 2.
    #[test]
    fn sets_outliers_are_left_out_of_the_means() {
        let runs = set(&[100.0, 102.0, 98.0, 80.0]);
        let s = Set::new(runs.iter().collect(), DEFAULT_OUTLIER_LIMIT);
        assert_eq!(s.median_avg_fps, Some(99.0));
        assert_eq!(s.outlier, [false, false, false, true]);
        assert!(s.warnings.is_empty());
        let avg = FIGURES.iter().find(|f| f.name == "avg_fps").unwrap();
        let v = s.values(avg).unwrap();
        assert_eq!(v, [100.0, 102.0, 98.0]);
        let j = serde_json::to_value(SetJson::of(&s)).unwrap();
        assert_eq!(j["runs"], 3);
        assert_eq!(j["given"], 4);
        assert_eq!(j["mean"]["summary"]["avg_fps"], 100.0);
        assert_eq!(j["std"]["summary"]["avg_fps"], 2.0);
        assert_eq!(j["outliers"].as_array().unwrap().len(), 1);
        // A 25 % limit keeps every run.
        assert_eq!(Set::new(runs.iter().collect(), 0.25).outlier, [false; 4]);
    }

    /// Two runs 100 and 120: median 110, each 9.1 % away. Both would go, leaving none:
    /// none is left out and the set says so.
    #[test]
    fn sets_keep_at_least_two_runs() {
        let runs = set(&[100.0, 120.0]);
        let s = Set::new(runs.iter().collect(), DEFAULT_OUTLIER_LIMIT);
        assert_eq!(s.outlier, [false, false]);
        assert_eq!(s.warnings.len(), 1);
        assert!(s.warnings[0].message.contains("none is left out"), "{}", s.warnings[0].message);
        // Three runs, two far from the median 100 (80 and 130): one would remain.
        let runs = set(&[80.0, 100.0, 130.0]);
        let s = Set::new(runs.iter().collect(), DEFAULT_OUTLIER_LIMIT);
        assert_eq!((s.outlier.clone(), s.warnings.len()), (vec![false; 3], 1));
    }

    /// A = 100, 102, 98 (mean 100, s² = 4); B = 94, 96, 95 (mean 95, s² = 1).
    /// se = √(4/3 + 1/3) = √(5/3) = 1.290994; ν = (5/3)² / ((4/3)²/2 + (1/3)²/2)
    /// = (25/9) / (17/18) = 50/17 = 2.941176. t(0.975, 50/17) = 3.218759 (numerical
    /// integration of the t density, independent of this code), so the half-width is
    /// 3.218759 · 1.290994 = 4.155400 and ci95 = −5 ± 4.155400 = [−9.155400, −0.844600]:
    /// significant, lower FPS is worse.
    #[test]
    fn sets_welch_interval_worked_by_hand() {
        let (a, b) = (set(&[100.0, 102.0, 98.0]), set(&[94.0, 96.0, 95.0]));
        let (sa, sb) = (Set::new(a.iter().collect(), 0.05), Set::new(b.iter().collect(), 0.05));
        let c = compare_sets(&sa, &sb);
        let e = c.row("summary.avg_fps").unwrap().entry.unwrap();
        assert_eq!((e.baseline, e.other, e.delta), (100.0, 95.0, -5.0));
        assert!((e.relative.unwrap() + 0.05).abs() < 1e-12);
        assert!((e.df.unwrap() - 50.0 / 17.0).abs() < 1e-12, "{:?}", e.df);
        assert!((e.ci95[0] + 9.155_400).abs() < 1e-5, "{:?}", e.ci95);
        assert!((e.ci95[1] + 0.844_600).abs() < 1e-5, "{:?}", e.ci95);
        assert!(e.significant);
        assert_eq!(e.better, Some(false));
        // Every run's other figures equal (pacing): se = 0, delta 0, [0, 0], not significant.
        let p = c.row("steady_fps").unwrap().entry.unwrap();
        assert_eq!((p.delta, p.ci95, p.significant, p.better, p.df), (0.0, [0.0, 0.0], false, None, None));
        // JSON: ci95 and significant beside the §9 fields.
        let json = serde_json::to_value(&c).unwrap();
        assert_eq!(json["summary"]["avg_fps"]["significant"], true);
        assert_eq!(json["summary"]["avg_fps"]["ci95"].as_array().unwrap().len(), 2);
        assert!(json["latency"]["pcl_ms"].is_null());
    }

    /// A = 100, 104 (mean 102, s² = 8); B = 98, 100 (mean 99, s² = 2); no outliers (at
    /// most 2 % from the medians). delta = −3, se = √(8/2 + 2/2) = √5 = 2.236068,
    /// ν = 25 / (4²/1 + 1²/1) = 25/17 = 1.470588; t(0.975, ν) > t(0.975, 2) = 4.303, so
    /// the interval −3 ± (more than 9.6) includes 0: noise, `better` null, and the gate
    /// does not fail on it, though −2.9 % is beyond a 1 % limit.
    #[test]
    fn sets_change_inside_the_noise_is_neither_better_nor_worse() {
        let (a, b) = (set(&[100.0, 104.0]), set(&[98.0, 100.0]));
        let (sa, sb) = (Set::new(a.iter().collect(), 0.05), Set::new(b.iter().collect(), 0.05));
        let c = compare_sets(&sa, &sb);
        let e = c.row("avg_fps").unwrap().entry.unwrap();
        assert!((e.delta + 3.0).abs() < 1e-12);
        assert!((e.df.unwrap() - 25.0 / 17.0).abs() < 1e-12);
        assert!(e.ci95[0] < 0.0 && e.ci95[1] > 0.0, "{:?}", e.ci95);
        assert!(!e.significant);
        assert_eq!(e.better, None);
        let gate: crate::report::compare::Gate = "avg_fps=1%".parse().unwrap();
        let out = gate.check_rows(&c.gate_rows());
        assert!(out.regressions.is_empty() && !out.failed());
        assert_eq!(out.within_noise.len(), 1);
    }
}
