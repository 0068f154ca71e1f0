//! The `framescope compare` documents: two runs (`metrics.md` §9) or two sets of runs
//! (§12), analysed with one frame-time source, with the gate's findings and the
//! different-applications warning. The command line prints them; the Python package
//! returns them.

use super::{Input, Job, Loaded, inputs};
use crate::analysis::Settings;
use crate::model::Warning;
use crate::model::markers::MarkerLog;
use crate::report::compare::{self, CompareReport, Gate, GateOutcome};
use crate::report::sets::{self, Set, SetRun, SetsJson, SetsReport, Side};
use crate::report::{self, Report, Run, RunEntry, SettingsJson};
use rayon::iter::{IndexedParallelIterator, IntoParallelRefIterator, ParallelIterator};
use serde::Serialize;

/// The two sides of a comparison, checked.
#[derive(Debug, Clone)]
pub enum Sides {
    /// One file per side: the plain comparison (`metrics.md` §9).
    Single(Input, Input),
    /// Sets of at least two runs per side (§12).
    Sets(Vec<Input>, Vec<Input>),
}

/// Why the inputs of `compare` make no two sides.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SidesError {
    /// Standard input (`-`) given more than once.
    #[error("'-' (standard input) can be given only once")]
    StdinTwice,
    /// A side without a file.
    #[error("compare needs a file on each side")]
    EmptySide,
    /// Neither one file per side nor two or more on each.
    #[error(
        "a set is two or more runs of one scenario: the baseline has {baseline} and the other side {other}; \
         give at least two files on each side of --vs, or one file per side"
    )]
    Uneven {
        /// Inputs on the baseline's side.
        baseline: usize,
        /// Inputs on the other side.
        other: usize,
    },
}

impl Sides {
    /// The sides from the baseline's inputs and the other's: one each, or two or more
    /// each; standard input at most once.
    pub fn new(mut a: Vec<Input>, mut b: Vec<Input>) -> Result<Self, SidesError> {
        if a.iter().chain(&b).filter(|i| **i == Input::Stdin).count() > 1 {
            return Err(SidesError::StdinTwice);
        }
        match (a.len(), b.len()) {
            (1, 1) => match (a.pop(), b.pop()) {
                (Some(a), Some(b)) => Ok(Self::Single(a, b)),
                _ => Err(SidesError::EmptySide),
            },
            (na, nb) if na >= 2 && nb >= 2 => Ok(Self::Sets(a, b)),
            (baseline, other) => Err(SidesError::Uneven { baseline, other }),
        }
    }

    /// Every input, baseline first, and how many belong to the baseline.
    #[must_use]
    pub fn inputs(&self) -> (Vec<Input>, usize) {
        match self {
            Self::Single(x, y) => (vec![x.clone(), y.clone()], 1),
            Self::Sets(x, y) => (x.iter().chain(y).cloned().collect(), x.len()),
        }
    }
}

pub use super::FileRuns;

/// Analyses loaded files with one frame-time source for all (`metrics.md` §9): each
/// file's runs and error messages, in file order. `markers[i]` goes with file `i`.
#[must_use]
pub fn analyse(loaded: &[Loaded], settings: &Settings, markers: &[Option<&MarkerLog>]) -> Vec<FileRuns> {
    let mut resolved = *settings;
    resolved.frame_time =
        settings.frame_time.resolve_for(loaded.iter().flat_map(Loaded::traces).collect::<Vec<_>>());
    loaded.par_iter().enumerate().map(|(i, l)| l.runs(&resolved, markers.get(i).copied().flatten())).collect()
}

/// The comparison of one run per side with noise band `noise_band` (a fraction,
/// `metrics.md` §9), and the gate's outcome when it has rules.
#[must_use]
pub fn single(
    settings: SettingsJson,
    runs: Vec<RunEntry>,
    gate: &Gate,
    noise_band: f64,
    warnings: Vec<Warning>,
) -> (CompareReport, Option<GateOutcome>) {
    let comparison = match runs.as_slice() {
        [RunEntry::Run(baseline), RunEntry::Run(other)] => {
            Some(compare::compare(baseline, other).with_noise_band(noise_band))
        }
        _ => None,
    };
    let outcome = comparison.as_ref().filter(|_| !gate.rules.is_empty()).map(|c| gate.check(c));
    let doc = CompareReport {
        report: Report { schema: report::SCHEMA, settings, runs },
        comparison,
        noise_band,
        regressions: outcome.as_ref().map(|o| o.regressions.clone()),
        not_comparable: outcome.as_ref().map(|o| o.not_comparable.clone()),
        warnings,
    };
    (doc, outcome)
}

/// What [`sets()`] gives: the document, the gate's outcome and each set's warnings.
#[derive(Debug)]
pub struct SetsOutcome {
    /// The document.
    pub doc: SetsReport,
    /// The gate's findings, when it has rules and the sets could be compared.
    pub gate: Option<GateOutcome>,
    /// The warnings of both sets (too few runs, outliers left out).
    pub set_warnings: Vec<Warning>,
}

/// The comparison of two sets (`metrics.md` §12): `entries` are every run with the
/// index of its file; files below `baseline_count` are the baseline set.
#[must_use]
pub fn sets(
    settings: SettingsJson,
    entries: &[(usize, RunEntry)],
    baseline_count: usize,
    outlier_limit: f64,
    gate: &Gate,
    warnings: Vec<Warning>,
) -> SetsOutcome {
    let side_of = |file_index: usize| if file_index < baseline_count { Side::Baseline } else { Side::Other };
    let set_runs = |side: Side| -> Vec<&Run> {
        entries
            .iter()
            .filter(|(i, _)| side_of(*i) == side)
            .filter_map(|(_, e)| match e {
                RunEntry::Run(r) => Some(&**r),
                RunEntry::Failed(_) | RunEntry::Etl(_) => None,
            })
            .collect()
    };
    let any_failed = entries.iter().any(|(_, e)| matches!(e, RunEntry::Failed(_)));
    let (set_a, set_b) =
        (Set::new(set_runs(Side::Baseline), outlier_limit), Set::new(set_runs(Side::Other), outlier_limit));
    let usable = !any_failed && set_a.runs.len() >= 2 && set_b.runs.len() >= 2;
    let comparison = usable.then(|| sets::compare_sets(&set_a, &set_b));
    let outcome =
        comparison.as_ref().filter(|_| !gate.rules.is_empty()).map(|c| gate.check_rows(&c.gate_rows()));
    let is_outlier = |run: &Run| {
        [&set_a, &set_b]
            .iter()
            .any(|s| s.runs.iter().zip(&s.outlier).any(|(r, o)| *o && std::ptr::eq(*r, run)))
    };
    let runs: Vec<SetRun> = entries
        .iter()
        .map(|(i, e)| SetRun {
            entry: e.clone(),
            set: side_of(*i).name(),
            outlier: matches!(e, RunEntry::Run(r) if is_outlier(r)),
        })
        .collect();
    let sets_json = usable.then(|| SetsJson {
        outlier_limit,
        baseline: sets::SetJson::of(&set_a),
        other: sets::SetJson::of(&set_b),
    });
    let set_warnings = set_a.warnings.iter().chain(&set_b.warnings).cloned().collect();
    let mut doc = SetsReport {
        schema: report::SCHEMA,
        settings,
        runs,
        comparison,
        sets: sets_json,
        regressions: None,
        not_comparable: None,
        within_noise: None,
        warnings,
    };
    doc.set_gate(outcome.as_ref());
    SetsOutcome { doc, gate: outcome, set_warnings }
}

/// A `compare --json` document: two runs, or two sets.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Document {
    /// One run per side.
    Single(Box<CompareReport>),
    /// Sets of runs.
    Sets(Box<SetsReport>),
}

/// The limits of a comparison: the sets' outlier limit and the two runs' noise band.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// A run whose average FPS differs from its set's median by more than this fraction
    /// is an outlier (`compare --outlier-limit`, `metrics.md` §12).
    pub outlier_limit: f64,
    /// A relative change below this fraction is noise (`compare --noise-band`, §9).
    pub noise_band: f64,
}

impl Default for Limits {
    /// The command line's defaults: 5 % and 1 %.
    fn default() -> Self {
        Self { outlier_limit: 0.05, noise_band: 0.01 }
    }
}

/// The `compare --json` document of two sides, as the command line builds it (without
/// PCL marker logs): files loaded on `workers` threads, analysed with one frame-time
/// source, gated by `gate`; `limits` are the sets' outlier limit and the two runs' noise
/// band (`compare --outlier-limit`, `--noise-band`).
#[must_use]
pub fn document(
    sides: &Sides,
    job: &Job,
    settings: &Settings,
    gate: &Gate,
    limits: Limits,
    workers: usize,
) -> Document {
    let (inputs, baseline_count) = sides.inputs();
    let mut loaded = Vec::with_capacity(inputs.len());
    inputs::for_each_ordered_on(workers, &inputs, |input| job.load(input), |_, l, _| loaded.push(l));
    let files = analyse(&loaded, settings, &[]);
    let entries: Vec<(usize, RunEntry)> = files
        .into_iter()
        .enumerate()
        .flat_map(|(i, (runs, _))| runs.into_iter().map(move |e| (i, e)))
        .collect();
    let warnings = different_applications_of(&entries);
    let settings_json = job.settings_json(settings);
    match sides {
        Sides::Single(..) => {
            let runs = entries.into_iter().map(|(_, e)| e).collect();
            Document::Single(Box::new(single(settings_json, runs, gate, limits.noise_band, warnings).0))
        }
        Sides::Sets(..) => Document::Sets(Box::new(
            sets(settings_json, &entries, baseline_count, limits.outlier_limit, gate, warnings).doc,
        )),
    }
}

/// The different-applications warning over the reported runs of `entries`.
#[must_use]
pub fn different_applications_of(entries: &[(usize, RunEntry)]) -> Vec<Warning> {
    let ok_runs: Vec<&Run> = entries
        .iter()
        .filter_map(|(_, e)| match e {
            RunEntry::Run(r) => Some(&**r),
            RunEntry::Failed(_) | RunEntry::Etl(_) => None,
        })
        .collect();
    different_applications(&ok_runs).into_iter().collect()
}

/// The key an application name compares by: lower case, without `.exe`, a CapFrameX
/// run suffix (` (run 2)`) or anything but letters and digits.
fn app_key(name: &str) -> String {
    let name = name.trim();
    let name = match name.rfind(" (run ") {
        Some(i) if name.ends_with(')') => &name[..i],
        _ => name,
    };
    let lower = name.to_ascii_lowercase();
    let bare = lower.strip_suffix(".exe").unwrap_or(&lower);
    bare.chars().filter(char::is_ascii_alphanumeric).collect()
}

/// True when the run's format names its application (rather than the file name
/// standing for it, as for MangoHud, NVIDIA App and Afterburner logs).
fn names_application(run: &Run) -> bool {
    let stem = std::path::Path::new(&run.file).file_stem().map(|s| s.to_string_lossy().into_owned());
    stem.as_deref() != Some(run.application.as_str()) && run.application != inputs::STDIN_NAME
}

/// A warning when compared runs are of different applications. Two runs that name
/// their application differ when the names do (case, `.exe` aside). A log that does
/// not record its application (its file name stands for it) differs from a named one
/// when its file name does not mention that application; two such logs are never
/// called different (repeated runs have different file names).
#[must_use]
pub fn different_applications(runs: &[&Run]) -> Option<Warning> {
    let mut named: Vec<(&str, String)> = Vec::new();
    for r in runs.iter().filter(|r| names_application(r)) {
        let key = app_key(&r.application);
        if !named.iter().any(|(_, k)| *k == key) {
            named.push((r.application.as_str(), key));
        }
    }
    if named.len() > 1 {
        let list: Vec<&str> = named.iter().map(|(n, _)| *n).collect();
        return Some(Warning::file(format!(
            "the compared runs are of different applications ({}); a comparison is meant for runs of one \
             game and scene",
            list.join(", ")
        )));
    }
    let (app, key) = named.first()?;
    let unnamed: Vec<&&Run> = runs
        .iter()
        .filter(|r| !names_application(r) && !app_key(&r.application).contains(key.as_str()))
        .collect();
    let first = unnamed.first()?;
    Some(Warning::file(format!(
        "the compared runs may be of different applications: {app} and {} (a {} log does not record its \
         application, and its file name does not mention {app})",
        first.file, first.format
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn application_keys() {
        assert_eq!(app_key("Firefox.EXE"), "firefox");
        assert_eq!(app_key("Judgment.exe (run 2)"), "judgment");
        assert_eq!(app_key("r5apex_dx12.exe"), "r5apexdx12");
    }

    #[test]
    fn sides_are_one_each_or_sets_of_two() {
        let f = |n: &str| Input::File(n.into());
        assert!(matches!(Sides::new(vec![f("a")], vec![f("b")]), Ok(Sides::Single(..))));
        assert!(matches!(Sides::new(vec![f("a"), f("b")], vec![f("c"), f("d")]), Ok(Sides::Sets(..))));
        let uneven = Sides::new(vec![f("a"), f("b")], vec![f("c")]).map_err(|e| (e.clone(), e.to_string()));
        assert_eq!(
            uneven.err(),
            Some((
                SidesError::Uneven { baseline: 2, other: 1 },
                "a set is two or more runs of one scenario: the baseline has 2 and the other side 1; give at \
                 least two files on each side of --vs, or one file per side"
                    .to_owned()
            ))
        );
        let stdin =
            Sides::new(vec![Input::Stdin], vec![Input::Stdin]).map_err(|e| (e.clone(), e.to_string()));
        assert_eq!(
            stdin.err(),
            Some((SidesError::StdinTwice, "'-' (standard input) can be given only once".to_owned()))
        );
    }
}
