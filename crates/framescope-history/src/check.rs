//! Is a build a regression? `metrics.md` §14: per scene and figure, the build's value
//! (the mean over its runs of the scene) against the median `M` of the up to 10 builds
//! before it, with `σ = 1.4826 · MAD`; worse than `M` by more than
//! `max(noise_band · |M|, 3σ)` is a regression, better by as much an improvement. A
//! figure the registry writes as a whole number (counts, Steady FPS) has a threshold of
//! at least 1 (issue 37's decision: one quantisation step is no regression).

use crate::{StoredRun, changes};
use framescope_core::figures::{Direction, FIGURES, Figure, Unit};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Earlier builds the rule looks at, at most.
pub const WINDOW: usize = 10;
/// Earlier builds the rule needs, at least.
pub const MIN_EARLIER: usize = 3;
/// MAD to standard deviation for normal noise.
const MAD_SCALE: f64 = 1.4826;
/// §12's outlier limit on `avg_fps` within one build's runs of a scene.
const OUTLIER_LIMIT: f64 = 0.05;

/// What `history check` judges.
#[derive(Debug, Clone)]
pub struct Options {
    /// The build to judge (default: the newest).
    pub build: Option<String>,
    /// The figures to judge (default: every figure with a better direction).
    pub figures: Option<Vec<&'static Figure>>,
    /// §9's noise band (a fraction).
    pub noise_band: f64,
}

/// The verdict on one figure of one scene.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Worse than the earlier builds beyond the threshold.
    Regression,
    /// Better than the earlier builds beyond the threshold.
    Improvement,
    /// Within the threshold.
    Same,
    /// Fewer than three earlier builds, or no value.
    NotJudged,
}

/// One figure of one scene (`cli-report.md`'s `history check --json`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FigureCheck {
    /// The build's value (mean over its runs of the scene).
    pub value: Option<f64>,
    /// `M`, the median of the earlier builds' values.
    pub median: Option<f64>,
    /// `σ`, their scaled MAD.
    pub sigma: Option<f64>,
    /// `max(noise_band · |M|, 3σ)`.
    pub threshold: Option<f64>,
    /// The verdict.
    pub verdict: Verdict,
    /// A regression or improvement where the figure's level over the whole history
    /// steps and stays ([`changes::change_points`]).
    pub change_point: bool,
    /// How many earlier builds were compared.
    #[serde(skip)]
    pub earlier: usize,
}

/// The `history check --json` document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckReport {
    /// The judged build.
    pub build: String,
    /// Per scene, per figure (`section.name`).
    pub scenes: BTreeMap<String, BTreeMap<String, FigureCheck>>,
}

impl CheckReport {
    /// `(scene, figure, check)` of every regression.
    pub fn regressions(&self) -> impl Iterator<Item = (&str, &str, &FigureCheck)> {
        self.scenes.iter().flat_map(|(s, figs)| {
            figs.iter()
                .filter(|(_, c)| c.verdict == Verdict::Regression)
                .map(move |(f, c)| (s.as_str(), f.as_str(), c))
        })
    }
}

/// Why a build cannot be checked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// The history holds no run.
    #[error("the history holds no run yet (`framescope history add` adds some)")]
    Empty,
    /// `--build` names no build of the history.
    #[error("no build {0:?} in the history (its builds: {1})")]
    NoSuchBuild(String, String),
}

/// The builds in history order: by `--time` when every build has one (a build's time
/// is its earliest run's), else by addition (a build's first run).
#[must_use]
pub fn build_order(runs: &[StoredRun]) -> Vec<String> {
    let mut first: BTreeMap<&str, (i64, Option<i64>)> = BTreeMap::new();
    for r in runs {
        let e = first.entry(&r.run.place.build).or_insert((r.id, None));
        e.0 = e.0.min(r.id);
        if let Some(t) = r.run.place.time {
            e.1 = Some(e.1.map_or(t.unix, |u: i64| u.min(t.unix)));
        }
    }
    let timed = first.values().all(|(_, t)| t.is_some());
    let mut builds: Vec<(&str, (i64, Option<i64>))> = first.into_iter().collect();
    builds.sort_by_key(|(_, (id, t))| if timed { (t.unwrap_or(0), *id) } else { (0, *id) });
    builds.into_iter().map(|(b, _)| b.to_owned()).collect()
}

/// The level of every figure in one build's runs of one scene: §12's set mean, an
/// `avg_fps` outlier (more than 5 % from the runs' median) left out while two runs stay.
fn level(runs: &[&StoredRun]) -> BTreeMap<String, f64> {
    let fps: Vec<f64> = runs.iter().filter_map(|r| r.run.figures.get("summary.avg_fps").copied()).collect();
    let kept: Vec<&&StoredRun> = match median(&fps) {
        Some(m) if fps.len() == runs.len() && m != 0.0 => {
            let inside: Vec<_> = runs
                .iter()
                .filter(|r| {
                    r.run.figures.get("summary.avg_fps").is_some_and(|v| ((v - m) / m).abs() <= OUTLIER_LIMIT)
                })
                .collect();
            if inside.len() >= 2 { inside } else { runs.iter().collect() }
        }
        _ => runs.iter().collect(),
    };
    let mut sums: BTreeMap<String, (f64, usize)> = BTreeMap::new();
    for r in kept {
        for (name, v) in &r.run.figures {
            let e = sums.entry(name.clone()).or_insert((0.0, 0));
            *e = (e.0 + v, e.1 + 1);
        }
    }
    sums.into_iter().map(|(k, (s, n))| (k, s / n as f64)).collect()
}

/// The median of values (`None` when empty).
#[must_use]
pub fn median(values: &[f64]) -> Option<f64> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_unstable_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 { v[n / 2] } else { f64::midpoint(v[n / 2 - 1], v[n / 2]) })
}

/// Judges the build `options` names (or the newest) in every scene it has runs of.
pub fn check(runs: &[StoredRun], options: &Options) -> Result<CheckReport, CheckError> {
    let order = build_order(runs);
    let build = match &options.build {
        Some(b) if order.contains(b) => b.clone(),
        Some(b) => return Err(CheckError::NoSuchBuild(b.clone(), order.join(", "))),
        None => order.last().cloned().ok_or(CheckError::Empty)?,
    };
    let scenes: BTreeSet<&str> =
        runs.iter().filter(|r| r.run.place.build == build).map(|r| r.run.place.scene.as_str()).collect();
    let figures: Vec<&'static Figure> =
        options.figures.clone().unwrap_or_else(|| FIGURES.iter().filter(|f| f.judged()).collect());
    let named = options.figures.is_some();
    let mut out = CheckReport { build: build.clone(), scenes: BTreeMap::new() };
    let levels = levels(runs, &order);
    for scene in scenes {
        let Some(levels) = levels.get(scene) else { continue };
        let Some(at) = levels.iter().position(|(b, _)| *b == build) else { continue };
        let judged = judge_scene(levels, at, &figures, named, options.noise_band);
        out.scenes.insert(scene.to_owned(), judged);
    }
    Ok(out)
}

/// Each scene's levels: the builds with runs of it, in history order, each with its
/// figures' values (§12's set mean).
type Levels<'a> = BTreeMap<&'a str, Vec<(&'a str, BTreeMap<String, f64>)>>;

fn levels<'a>(runs: &'a [StoredRun], order: &'a [String]) -> Levels<'a> {
    let mut groups: BTreeMap<(&str, &str), Vec<&StoredRun>> = BTreeMap::new();
    for r in runs {
        groups.entry((r.run.place.scene.as_str(), r.run.place.build.as_str())).or_default().push(r);
    }
    let scenes: BTreeSet<&str> = groups.keys().map(|(s, _)| *s).collect();
    scenes
        .into_iter()
        .map(|scene| {
            let of =
                order.iter().filter_map(|b| groups.get(&(scene, b.as_str())).map(|g| (b.as_str(), level(g))));
            (scene, of.collect())
        })
        .collect()
}

/// Every build's regressions and improvements (without change points), for the history
/// page: `(scene, figure) → [(build's index in history order, verdict)]`.
#[must_use]
pub fn verdicts(runs: &[StoredRun], band: f64) -> BTreeMap<(String, String), Vec<(usize, Verdict)>> {
    let order = build_order(runs);
    let index: BTreeMap<&str, usize> = order.iter().enumerate().map(|(i, b)| (b.as_str(), i)).collect();
    let mut out: BTreeMap<(String, String), Vec<(usize, Verdict)>> = BTreeMap::new();
    for (scene, levels) in levels(runs, &order) {
        for f in FIGURES.iter().filter(|f| f.judged()) {
            let name = f.qualified_name();
            for (at, (build, level)) in levels.iter().enumerate() {
                let c = judge(f, &name, level.get(&name).copied(), &levels[..at], band);
                if matches!(c.verdict, Verdict::Regression | Verdict::Improvement) {
                    let key = (scene.to_owned(), name.clone());
                    out.entry(key).or_default().push((index.get(build).copied().unwrap_or(0), c.verdict));
                }
            }
        }
    }
    out
}

/// One scene's figures in build `at` of its `levels` (every build with runs of it).
fn judge_scene(
    levels: &[(&str, BTreeMap<String, f64>)],
    at: usize,
    figures: &[&'static Figure],
    named: bool,
    band: f64,
) -> BTreeMap<String, FigureCheck> {
    let mut judged = BTreeMap::new();
    for f in figures {
        let name = f.qualified_name();
        let value = levels[at].1.get(&name).copied();
        if value.is_none() && !named {
            continue;
        }
        let series: Vec<(usize, f64)> =
            levels.iter().enumerate().filter_map(|(i, (_, l))| l.get(&name).map(|v| (i, *v))).collect();
        let values: Vec<f64> = series.iter().map(|(_, v)| *v).collect();
        let step = changes::change_points(&values, band).iter().any(|&k| series[k].0 == at);
        let mut c = judge(f, &name, value, &levels[..at], band);
        c.change_point = step && matches!(c.verdict, Verdict::Regression | Verdict::Improvement);
        judged.insert(name, c);
    }
    judged
}

/// §14 on one figure: `earlier` are the scene's builds before the judged one.
fn judge(
    figure: &Figure,
    name: &str,
    value: Option<f64>,
    earlier: &[(&str, BTreeMap<String, f64>)],
    band: f64,
) -> FigureCheck {
    let before: Vec<f64> = earlier.iter().filter_map(|(_, l)| l.get(name).copied()).collect();
    let before = &before[before.len().saturating_sub(WINDOW)..];
    let mut c = FigureCheck {
        value,
        median: None,
        sigma: None,
        threshold: None,
        verdict: Verdict::NotJudged,
        change_point: false,
        earlier: before.len(),
    };
    let (Some(v), Some(m), true) = (value, median(before), before.len() >= MIN_EARLIER) else { return c };
    let deviations: Vec<f64> = before.iter().map(|x| (x - m).abs()).collect();
    let sigma = MAD_SCALE * median(&deviations).unwrap_or(0.0);
    // A whole-number figure (the registry writes it without decimals: a count, Steady
    // FPS) cannot resolve less than 1: its earlier builds often agree exactly (σ = 0),
    // and one step is quantisation.
    let whole = figure.decimals == 0 && matches!(figure.unit, Unit::Count | Unit::Fps);
    let threshold = (band * m.abs()).max(3.0 * sigma).max(if whole { 1.0 } else { 0.0 });
    // How much worse than M (positive: worse).
    let worse = match figure.direction {
        Direction::HigherIsBetter => m - v,
        _ => v - m,
    };
    c.verdict = if !figure.judged() {
        Verdict::NotJudged
    } else if worse > threshold {
        Verdict::Regression
    } else if -worse > threshold {
        Verdict::Improvement
    } else {
        Verdict::Same
    };
    (c.median, c.sigma, c.threshold) = (Some(m), Some(sigma), Some(threshold));
    c
}

#[cfg(test)]
#[path = "check_tests.rs"]
mod tests;
