//! Sampled logs (`metrics.md` §10): the NVIDIA App performance log and the MSI
//! Afterburner hardware-monitoring log (`formats.md` §8; MangoHud's sampled logs are in
//! `tests/headless/mangohud.rs`). One row per polling interval, not per frame: each row with a
//! time ends the interval since the row before (the first only opens the log), and is
//! a *sample* of rate `r` over that interval `Δt` when it has a rate above 0. A sample
//! stands for `w = r·Δt/1000` frames of `1000/r` ms, and every figure weights it so.
//!
//! What this file checks (the hand-built logs of each format are in `nvidia_app_logs`
//! and `afterburner_logs`):
//! * hand-built logs of each format, figures worked by hand in the comments: two
//!   samples of different Δt, a row without FPS and PID-0 rows ending intervals, a
//!   repeated timestamp, weighted percentiles and lows, Afterburner's polling period,
//!   the `Framerate` column first and `1000 / Frametime` only without one; with every
//!   quirk of the real files: the header's trailing comma, `N/A`, truncated rows, a
//!   spreadsheet's summary row, 1- and 2-digit line types, duplicate and space-padded
//!   names, CRLF, a byte-order mark;
//! * logs that are not usable fail with "not a capture" or "no frames", never a panic,
//!   also when cut at any byte;
//! * the six real logs through `framescope report --json`: the figures of their own
//!   columns read independently here (Death Stranding avg ≈ 147.64 where the row-wise
//!   harmonic mean was 144.20, Marvel Rivals FG ≈ 115.64, RE3 ≈ 112.55), the duration
//!   the span their samples cover, and `sampled: true` with the per-frame sections null.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

#[allow(clippy::wildcard_imports)]
use common::sampled::*;
use common::{close, real_traces};
use serde_json::Value;

// ---------------------------------------------------------------------------------
// The real logs
// ---------------------------------------------------------------------------------

/// The samples of an NVIDIA App log, read independently: every line with a numeric
/// timestamp is a row; each row after the first closes the time since the row before;
/// it is a sample (rate `FPS`, that interval in ms) when its FPS and PID are above 0
/// and the interval is.
fn nvidia_samples(text: &str) -> Vec<(f64, f64)> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').map(str::trim).collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (time, pid, fps) = (at("Timestamp (Elapsed time in seconds)"), at("PID"), at("FPS"));
    let mut before: Option<f64> = None;
    let mut out = Vec::new();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let Some(t) = f.get(time).and_then(|c| c.trim().parse::<f64>().ok()) else { continue };
        let dt = before.map(|b| (t - b) * 1000.0);
        before = Some(t);
        let p: f64 = f.get(pid).and_then(|c| c.trim().parse().ok()).unwrap_or(0.0);
        let r: f64 = f.get(fps).and_then(|c| c.trim().parse().ok()).unwrap_or(0.0);
        if let Some(dt) = dt.filter(|&d| d > 0.0)
            && p > 0.0
            && r > 0.0
        {
            out.push((r, dt));
        }
    }
    out
}

/// The samples of an Afterburner log, read independently: every `80` line with a
/// date-time is a polling instant; P = (last − first) / (instants − 1); every instant
/// after the first with a first-`Framerate` value above 0 is a sample of interval P.
fn afterburner_samples(text: &str) -> Vec<(f64, f64)> {
    let mut rate_col = None;
    let mut instants: Vec<(f64, Option<f64>)> = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        match f[0] {
            "2" | "02" => rate_col = f.iter().position(|n| *n == "Framerate"),
            "80" => {
                // dd-mm-yyyy HH:MM:SS: seconds within the log's day(s).
                let (date, clock) = f[1].split_once(' ').unwrap();
                let day: f64 = date[..2].parse().unwrap();
                let hms: Vec<f64> = clock.split(':').map(|x| x.parse().unwrap()).collect();
                let seconds = day * 86_400.0 + hms[0] * 3600.0 + hms[1] * 60.0 + hms[2];
                let rate = f.get(rate_col.unwrap()).and_then(|c| c.parse::<f64>().ok()).filter(|&r| r > 0.0);
                instants.push((seconds, rate));
            }
            _ => {}
        }
    }
    let period = (instants.last().unwrap().0 - instants[0].0) * 1000.0 / (instants.len() - 1) as f64;
    instants[1..].iter().filter_map(|&(_, r)| r.map(|r| (r, period))).collect()
}

#[test]
fn real_sampled_logs_match_their_own_columns() {
    let Some(dir) = real_traces() else { return };
    // (file, format, avg_fps to 0.01: the brief's figures from the oracle's goldens)
    let files = [
        ("nvidia-app/DeathStranding_High_DLSSQ_excel-edited.csv", "nvidia-app", Some(147.64)),
        ("nvidia-app/MarvelRivals_DLSSQ_FrameGen_High.csv", "nvidia-app", Some(115.64)),
        ("nvidia-app/MarvelRivals_NoDLSS_High_run2.csv", "nvidia-app", None),
        ("nvidia-app/StellarBlade_DLSS4_MediumSM_ShadersCompiled.csv", "nvidia-app", None),
        ("msi-afterburner/HardwareMonitoring.hml", "afterburner", Some(101.95)),
        ("msi-afterburner/RE3_Windows_afterburner.csv", "afterburner", Some(112.55)),
    ];
    for (rel, format, known_avg) in files {
        let path = dir.join(rel);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let samples = if format == "nvidia-app" { nvidia_samples(&text) } else { afterburner_samples(&text) };
        assert!(!samples.is_empty(), "{rel}");
        let duration: f64 = samples.iter().map(|s| s.1).sum();
        let weight: f64 = samples.iter().map(|(r, dt)| r * dt / 1000.0).sum();
        let want_avg = samples.iter().map(|(r, dt)| r * dt).sum::<f64>() / duration;
        let run = report_of(&path);
        assert_eq!(run["format"], format, "{rel}");
        assert_sampled_run(&run);
        assert_eq!(run["samples"].as_u64(), Some(samples.len() as u64), "{rel}");
        assert_eq!(run["frames"].as_u64(), Some(weight.round() as u64), "{rel}: frames = round(W)");
        let got_duration = run["duration_ms"].as_f64().unwrap();
        assert!(
            (got_duration - duration).abs() < 1e-6 * duration,
            "{rel}: duration {got_duration} vs {duration}"
        );
        let got = figure(&run, "summary", "avg_fps");
        assert!((got - want_avg).abs() < 1e-9 * want_avg, "{rel}: avg_fps {got} vs {want_avg}");
        if let Some(known) = known_avg {
            assert!((got - known).abs() < 0.01, "{rel}: avg_fps {got} vs {known}");
        }
        assert!(run["warnings"].to_string().contains("not one per frame"), "{rel}");
        eprintln!(
            "{rel}: {} samples, {} frames, {:.1} s, avg {got:.2} FPS",
            samples.len(),
            run["frames"],
            got_duration / 1000.0
        );
    }
}

/// Marvel Rivals FG has no row that ends an interval without being a sample (its two
/// repeated timestamps add no time), so its samples cover the whole log: the duration
/// is the last timestamp minus the first, 122.268 s — not the 2.4 s the rows' frame
/// times add up to. RE3's 804 samples cover 804 polling periods of 821 s / 820.
#[test]
fn real_sampled_durations_are_the_time_the_samples_span() {
    let Some(dir) = real_traces() else { return };
    let run = report_of(&dir.join("nvidia-app/MarvelRivals_DLSSQ_FrameGen_High.csv"));
    assert!((run["duration_ms"].as_f64().unwrap() - 122_268.0).abs() < 1e-6, "{}", run["duration_ms"]);
    let run = report_of(&dir.join("msi-afterburner/RE3_Windows_afterburner.csv"));
    assert_eq!(run["samples"], 804);
    assert!(close(run["duration_ms"].as_f64().unwrap(), 804.0 * 821_000.0 / 820.0), "{}", run["duration_ms"]);
}

/// `framescope compare` of two sampled logs: the summary and latency are compared, the
/// per-frame figures are null on both sides. Baseline [`NVIDIA`] (avg 50, PC latency
/// 30); other: t 0 opens, t 1 s at 100 FPS (PC latency 20): avg 100 → delta +50,
/// better; PC latency −10, better (lower); frames 75 → 100.
#[test]
fn compare_two_sampled_logs() {
    let a = TempFile::new("a.csv", NVIDIA);
    let b = TempFile::new(
        "b.csv",
        "Timestamp (Elapsed time in seconds),PID,FPS,Average PC Latency(MSec)\n0,1,90,25\n1,1,100,20\n",
    );
    let run = common::framescope(["compare".as_ref(), "--json".as_ref(), a.0.as_os_str(), b.0.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let c = &doc["comparison"];
    assert!(close(c["summary"]["avg_fps"]["delta"].as_f64().unwrap(), 50.0), "{c}");
    assert_eq!(c["summary"]["avg_fps"]["better"], Value::Bool(true));
    assert!(close(c["latency"]["pc_latency_column_mean_ms"]["delta"].as_f64().unwrap(), -10.0));
    assert_eq!(c["latency"]["pc_latency_column_mean_ms"]["better"], Value::Bool(true));
    assert!(close(c["run"]["frames"]["other"].as_f64().unwrap(), 100.0));
    for (section, name) in [("pacing", "steady_fps"), ("stutters", "count"), ("osc", "p90_iqr_ms")] {
        assert!(c[section][name].is_null(), "{section}.{name}: {}", c[section][name]);
    }
    for run in doc["runs"].as_array().unwrap() {
        assert_sampled_run(run);
    }
}
