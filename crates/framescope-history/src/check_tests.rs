// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::float_cmp)]

use super::*;
use crate::{NewRun, Place, Sketch, Time};
use framescope_core::figures::{FIGURES, Figure};

const FPS: &str = "summary.avg_fps";
const P99: &str = "summary.p99_ms";

fn stored(id: i64, build: &str, scene: &str, fps: f64, p99: f64) -> StoredRun {
    StoredRun {
        id,
        added_unix: 0,
        run: NewRun {
            place: Place { build: build.into(), scene: scene.into(), ..Place::default() },
            file: String::new(),
            content_hash: id.to_string(),
            trace: String::new(),
            application: String::new(),
            format: String::new(),
            frames: 1,
            figures: [(FPS.to_owned(), fps), (P99.to_owned(), p99)].into_iter().collect(),
            settings: serde_json::Value::Null,
            system: serde_json::Value::Null,
            sketch: Sketch::of(&[]),
        },
    }
}

fn options(build: Option<&str>) -> Options {
    Options { build: build.map(str::to_owned), figures: None, noise_band: 0.01 }
}

/// Builds b1…b5 at 100, 102, 98, 101, 99 FPS (p99 20 ms), then b6 at `fps`.
fn history(fps: f64, p99: f64) -> Vec<StoredRun> {
    let mut runs: Vec<StoredRun> = [100.0, 102.0, 98.0, 101.0, 99.0]
        .iter()
        .enumerate()
        .map(|(i, &v)| stored(i as i64 + 1, &format!("b{}", i + 1), "s", v, 20.0))
        .collect();
    runs.push(stored(6, "b6", "s", fps, p99));
    runs
}

/// M = median(100, 102, 98, 101, 99) = 100; |v − M| = 0, 2, 2, 1, 1, their median 1;
/// σ = 1.4826; threshold = max(1 % of 100, 3σ) = 4.4478. 95.5 is 4.5 worse: regression;
/// 95.6 is 4.4 worse: the same; 104.5 is an improvement.
#[test]
fn median_and_mad_worked_by_hand() {
    let r = check(&history(95.5, 20.0), &options(None)).expect("check");
    assert_eq!(r.build, "b6");
    let c = &r.scenes["s"][FPS];
    assert_eq!((c.median, c.verdict, c.earlier), (Some(100.0), Verdict::Regression, 5));
    assert!((c.sigma.unwrap() - 1.4826).abs() < 1e-12);
    assert!((c.threshold.unwrap() - 4.4478).abs() < 1e-9);
    // p99 identical in every build: σ = 0, the noise band (1 % of 20 ms) decides.
    assert_eq!(r.scenes["s"][P99].verdict, Verdict::Same);
    assert_eq!(r.regressions().count(), 1);
    assert_eq!(check(&history(95.6, 20.0), &options(None)).unwrap().scenes["s"][FPS].verdict, Verdict::Same);
    assert_eq!(
        check(&history(104.5, 20.0), &options(None)).unwrap().scenes["s"][FPS].verdict,
        Verdict::Improvement
    );
    // Lower is better for a frame time: 20.3 ms is 1.5 % worse than M = 20 (σ = 0).
    assert_eq!(
        check(&history(100.0, 20.3), &options(None)).unwrap().scenes["s"][P99].verdict,
        Verdict::Regression
    );
}

#[test]
fn a_whole_number_figure_needs_more_than_one_step() {
    // Steady FPS of earlier builds all 33 (σ = 0, 1 % band = 0.33): 32 is one step,
    // not a regression; 31.5 (a build's mean of 31 and 32) is.
    const STEADY: &str = "pacing.steady_fps";
    let mut runs: Vec<StoredRun> = (1..=5).map(|k| stored(k, &format!("b{k}"), "s", 100.0, 20.0)).collect();
    for (k, r) in runs.iter_mut().enumerate() {
        r.run.figures.insert(STEADY.to_owned(), if k == 4 { 32.0 } else { 33.0 });
    }
    let c = &check(&runs, &options(None)).unwrap().scenes["s"][STEADY];
    assert_eq!((c.threshold, c.verdict), (Some(1.0), Verdict::Same));
    runs[4].run.figures.insert(STEADY.to_owned(), 31.5);
    assert_eq!(check(&runs, &options(None)).unwrap().scenes["s"][STEADY].verdict, Verdict::Regression);
}

#[test]
fn fewer_than_three_earlier_builds_are_not_judged_and_unknown_builds_refused() {
    let runs = history(50.0, 20.0);
    let r = check(&runs, &options(Some("b3"))).expect("check");
    let c = &r.scenes["s"][FPS];
    assert_eq!((c.verdict, c.median, c.earlier), (Verdict::NotJudged, None, 2));
    assert_eq!(check(&runs, &options(Some("b4"))).unwrap().scenes["s"][FPS].verdict, Verdict::Same);
    assert!(matches!(check(&runs, &options(Some("b9"))), Err(CheckError::NoSuchBuild(..))));
    assert_eq!(check(&[], &options(None)), Err(CheckError::Empty));
}

#[test]
fn a_step_that_stays_is_a_change_point_and_one_that_recovers_is_not() {
    let mut runs = history(90.0, 20.0);
    runs.push(stored(7, "b7", "s", 90.5, 20.0));
    runs.push(stored(8, "b8", "s", 89.5, 20.0));
    runs.push(stored(9, "b9", "s", 90.2, 20.0));
    let c = &check(&runs, &options(Some("b6"))).unwrap().scenes["s"][FPS];
    assert!(c.verdict == Verdict::Regression && c.change_point);
    let mut recovers = history(90.0, 20.0);
    recovers.push(stored(7, "b7", "s", 100.0, 20.0));
    let c = &check(&recovers, &options(Some("b6"))).unwrap().scenes["s"][FPS];
    assert!(c.verdict == Verdict::Regression && !c.change_point);
}

#[test]
fn a_build_is_its_runs_mean_without_the_outlier_and_builds_follow_their_time() {
    // b6 has runs at 100, 101 and 80 FPS: 80 is 20 % from the median 100, left out.
    let mut runs = history(100.0, 20.0);
    runs.push(stored(7, "b6", "s", 101.0, 20.0));
    runs.push(stored(8, "b6", "s", 80.0, 20.0));
    let c = &check(&runs, &options(None)).unwrap().scenes["s"][FPS];
    assert_eq!((c.value, c.verdict), (Some(100.5), Verdict::Same));
    // With times on every build, b6 dated first is the oldest: the newest is then b5.
    for r in &mut runs {
        let k: i64 = r.run.place.build[1..].parse().unwrap();
        r.run.place.time = Some(Time { unix: if k == 6 { 0 } else { 1000 + k } });
    }
    assert_eq!(build_order(&runs)[0], "b6");
    assert_eq!(check(&runs, &options(None)).unwrap().build, "b5");
}

#[test]
fn a_long_history_is_checked_quickly() {
    // 400 builds of two scenes, every judged figure (as many as a real run has).
    let names: Vec<String> = FIGURES.iter().filter(|f| f.judged()).map(Figure::qualified_name).collect();
    let mut runs = Vec::new();
    for k in 0..400 {
        for scene in ["a", "b"] {
            let mut r = stored(runs.len() as i64 + 1, &format!("b{k}"), scene, 100.0, 20.0);
            let level = if k >= 300 { 1.1 } else { 1.0 } * (1.0 + 0.001 * f64::from(k % 7));
            r.run.figures = names.iter().map(|n| (n.clone(), 50.0 * level)).collect();
            runs.push(r);
        }
    }
    let start = std::time::Instant::now();
    let r = check(&runs, &options(Some("b300"))).unwrap();
    assert_eq!(r.scenes["a"][FPS].verdict, Verdict::Improvement);
    assert!(r.scenes["a"][FPS].change_point);
    let all = verdicts(&runs, 0.01);
    assert!(!all.is_empty());
    let took = start.elapsed();
    eprintln!("check and every build's verdicts over 800 runs × {} figures: {took:?}", names.len());
    assert!(took.as_secs_f64() < 20.0, "{took:?}");
}
