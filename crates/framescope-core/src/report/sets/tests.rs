//! Tests of sets: outliers, the means, Welch's interval and the gate over sets.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::analysis::Summary;
use crate::report::compare::FIGURES;
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
