//! The panels around the timeline: the settings bar, the figures of the run and of
//! the selection, the selected frame's details, and the keyboard help. Drawing only:
//! every change goes back to the app as an [`Action`].

use super::analysis::Marks;
use super::{theme, timeline};
use crate::model::Trace;
use crate::report::Run;
use crate::report::compare::Comparison;
use eframe::egui::{self, RichText};

/// What the figures panel says for a figure a sampled log cannot give.
pub const NEEDS_FRAMES: &str = "needs per-frame data";

/// Target rates offered in the settings bar.
pub const TARGETS: [f64; 7] = [30.0, 60.0, 90.0, 120.0, 144.0, 165.0, 240.0];

/// Grid rows of a run's figures: the smoothness figures first, as prominent as the
/// average, then lows, stutters, latency.
#[must_use]
pub fn figure_rows(run: &Run) -> Vec<(&'static str, String)> {
    let mut rows = Vec::new();
    let ms = |v: f64| format!("{v:.3} ms");
    if let Some(s) = &run.summary {
        rows.push(("Average FPS", format!("{:.2}", s.avg_fps)));
    }
    // A sampled log (metrics.md §10) has averages over intervals, not frame times.
    let per_frame_only = |rows: &mut Vec<(&'static str, String)>, name: &'static str| {
        if run.sampled {
            rows.push((name, NEEDS_FRAMES.to_owned()));
        }
    };
    per_frame_only(&mut rows, "Pacing");
    if let Some(p) = &run.pacing {
        rows.push(("Steady FPS", p.steady_fps.to_string()));
        rows.push(("Mostly steady FPS", p.mostly_steady_fps.to_string()));
        rows.push(("Typical FPS", p.typical_fps.to_string()));
        rows.push(("Slow time at target", format!("{:.2} %", p.slow_time_fraction * 100.0)));
        rows.push(("Excess time at target", format!("{:.2} %", p.excess_time_fraction * 100.0)));
    }
    if let Some(s) = &run.summary {
        rows.push(("1% low FPS", format!("{:.2}", s.low_1pct_fps)));
        rows.push(("0.1% low FPS", format!("{:.2}", s.low_0_1pct_fps)));
        rows.push(("Min / max FPS", format!("{:.2} / {:.2}", s.min_fps, s.max_fps)));
    }
    if let Some(st) = &run.stutters {
        rows.push(("Stutters", format!("{} ({:.2} % of time)", st.count, st.time_fraction * 100.0)));
    }
    per_frame_only(&mut rows, "Stutters");
    if let Some(o) = &run.osc {
        let flag = if o.flag { "OSC — oscillating" } else { "no" };
        rows.push(("Oscillation", format!("{flag} ({} frames)", o.oscillating_frames)));
    }
    per_frame_only(&mut rows, "Oscillation");
    per_frame_only(&mut rows, "Frame health");
    if let Some(s) = &run.summary {
        for (name, v) in [
            ("p50 frame time", s.p50_ms),
            ("p90 frame time", s.p90_ms),
            ("p99 frame time", s.p99_ms),
            ("p99.9 frame time", s.p99_9_ms),
        ] {
            rows.push((name, ms(v)));
        }
    }
    if let Some(l) = &run.latency {
        for (name, v) in [
            ("PC latency (PCL)", l.pcl_ms),
            ("MsPCLatency mean", l.pc_latency_column_mean_ms),
            ("Display latency mean", l.display_latency_mean_ms),
            ("Click to photon mean", l.click_to_photon_mean_ms),
            ("Render latency mean", if run.sampled { l.render_present_latency_mean_ms } else { None }),
        ] {
            if let Some(v) = v {
                rows.push((name, ms(v)));
            }
        }
    }
    if let Some(v) = &run.vsync {
        rows.push(("Refresh", format!("{:.2} Hz ({:.0} % sure)", v.refresh_hz, v.confidence * 100.0)));
    }
    rows.push((
        "Frames",
        match (run.samples, run.dropped_frames) {
            (Some(n), _) => format!("≈{} (estimated from {n} samples)", run.frames),
            (None, Some(d)) => format!("{} ({d} dropped)", run.frames),
            (None, None) => format!("{} (dropped unknown)", run.frames),
        },
    ));
    rows
}

/// Draws a run's figures as a two-column grid with accessible labels.
pub fn figures_ui(ui: &mut egui::Ui, run: &Run, id: &str) {
    egui::Grid::new(id).num_columns(2).striped(true).show(ui, |ui| {
        for (name, value) in figure_rows(run) {
            let label = ui.label(name);
            ui.label(RichText::new(value).strong()).labelled_by(label.id);
            ui.end_row();
        }
    });
    if run.summary.is_none() {
        ui.label("no usable frame times");
    }
}

/// A comparison as a table: figure, baseline, other, delta, relative change; the
/// change coloured better or worse (`metrics.md` §9). Figures neither run has are left
/// out; a figure only one run has shows "—" for the other.
pub fn comparison_table_ui(
    ui: &mut egui::Ui,
    comparison: &Comparison,
    id: impl std::hash::Hash + std::fmt::Debug,
) {
    let value = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), format_figure);
    egui::Grid::new(id).num_columns(5).striped(true).show(ui, |ui| {
        for header in ["Figure", "Baseline", "Other", "Delta", "Change"] {
            ui.label(RichText::new(header).strong());
        }
        ui.end_row();
        for row in comparison.rows() {
            if row.baseline.is_none() && row.other.is_none() {
                continue;
            }
            let name = ui.label(row.figure.qualified_name());
            ui.label(value(row.baseline)).labelled_by(name.id);
            ui.label(value(row.other)).labelled_by(name.id);
            if let Some(e) = &row.entry {
                let colour = match e.better {
                    Some(true) => theme::BETTER,
                    Some(false) => theme::WORSE,
                    None => ui.visuals().text_color(),
                };
                ui.colored_label(colour, format_signed(e.delta)).labelled_by(name.id);
                let rel = e.relative.map_or_else(|| "—".to_owned(), |r| format!("{:+.1} %", r * 100.0));
                ui.colored_label(colour, rel).labelled_by(name.id);
            } else {
                ui.label("not comparable");
                ui.label("");
            }
            ui.end_row();
        }
    });
}

/// A figure with as many decimals as its size needs.
fn format_figure(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.1}")
    } else if v.abs() >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.4}")
    }
}

fn format_signed(v: f64) -> String {
    let text = format_figure(v);
    if v > 0.0 { format!("+{text}") } else { text }
}

/// Every column of one frame.
/// Every column of one frame, with its stutter and health verdicts when the figures
/// are ready.
pub fn frame_details_ui(ui: &mut egui::Ui, trace: &Trace, marks: Option<&Marks>, i: usize) {
    let f = &trace.frames;
    if i >= trace.len() {
        return;
    }
    egui::Grid::new("frame_details").num_columns(2).striped(true).show(ui, |ui| {
        let mut row = |name: &str, value: String| {
            ui.label(name);
            ui.label(value);
            ui.end_row();
        };
        row(if f.is_sampled() { "Sample" } else { "Frame" }, i.to_string());
        row("File line", f.line[i].to_string());
        if let Some(m) = marks {
            let idx = i as u32;
            let stutter = m.stutters.binary_search(&idx).is_ok();
            row("Stutter", if stutter { "yes" } else { "no" }.into());
            // Runs are ascending and disjoint: the first run not ending before `idx`.
            let k = m.oscillating.partition_point(|&(_, b)| b < idx);
            let oscillating = m.oscillating.get(k).is_some_and(|&(a, _)| a <= idx);
            row(
                "Oscillating",
                if oscillating { "yes (a stutter here may be a false positive)" } else { "no" }.into(),
            );
            let spiked: Vec<&str> = m
                .spikes
                .iter()
                .filter(|(_, s)| s.binary_search(&idx).is_ok())
                .map(|(n, _)| n.as_str())
                .collect();
            let before: Vec<&str> = m
                .spikes
                .iter()
                .filter(|(_, s)| idx > 0 && s.binary_search(&(idx - 1)).is_ok())
                .map(|(n, _)| n.as_str())
                .collect();
            row("Spiked", if spiked.is_empty() { "—".into() } else { spiked.join(", ") });
            row("Spiked the frame before", if before.is_empty() { "—".into() } else { before.join(", ") });
        }
        row("Start", format!("{:.3} ms", f.start_ms[i]));
        row("Frame time", format!("{:.3} ms", f.frame_time_ms[i]));
        if f.is_sampled() {
            row(
                "Sample interval",
                format!("{:.3} ms ({:.2} FPS average)", f.span_ms(i), 1000.0 / f.frame_time_ms[i]),
            );
        }
        row(
            "Display",
            if f.display_ms[i].is_finite() { format!("{:.3} ms", f.display_ms[i]) } else { "—".into() },
        );
        row("Dropped", if f.dropped[i] { "yes" } else { "no" }.into());
        if let Some(m) = f.present_mode.get(i).and_then(|&m| trace.meta.present_modes.get(usize::from(m))) {
            row("Present mode", m.clone());
        }
        if let Some(t) = f.frame_type.get(i) {
            row("Frame type", t.name().into());
        }
        for c in &f.columns {
            let v = c.values[i];
            row(&c.name, if v.is_finite() { format!("{v}") } else { "—".into() });
        }
    });
}

/// The keyboard and mouse help window.
pub fn help_ui(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new("Keyboard and mouse").open(open).resizable(false).show(ctx, |ui| {
        egui::Grid::new("help").num_columns(2).show(ui, |ui| {
            for (keys, action) in timeline::HELP {
                ui.label(RichText::new(keys).strong());
                ui.label(action);
                ui.end_row();
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Settings;
    use crate::ingest::{LoadOptions, load_bytes};
    use std::path::Path;

    #[test]
    fn smoothness_rows_come_first_after_the_average() {
        let mut csv = String::from("Application,ProcessID,SwapChainAddress,MsBetweenPresents\n");
        for i in 0..50 {
            csv.push_str(if i == 25 { "g.exe,1,0x1,50\n" } else { "g.exe,1,0x1,10\n" });
        }
        let c = load_bytes(Path::new("r.csv"), csv.as_bytes(), LoadOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let run = crate::report::run("r.csv", &c, 0, &Settings::default(), None);
        let rows = figure_rows(&run);
        let names: Vec<&str> = rows.iter().map(|r| r.0).take(4).collect();
        assert_eq!(names, ["Average FPS", "Steady FPS", "Mostly steady FPS", "Typical FPS"]);
        assert!(rows.iter().any(|(n, v)| *n == "Stutters" && v.starts_with("1 ")));
        assert!(!rows.iter().any(|(_, v)| v == NEEDS_FRAMES));
    }

    /// A sampled log: two samples of 500 ms at 100 FPS and 1000 ms at 50 FPS (W = 100
    /// frames, avg = 100000 / 1500 = 66.67); the per-frame figures say why they are
    /// missing.
    #[test]
    fn a_sampled_log_says_what_needs_per_frame_data() {
        let log = "Timestamp (Elapsed time in seconds),PID,FPS\n0,1,70\n0.5,1,100\n1.5,1,50\n";
        let c = load_bytes(Path::new("s.csv"), log.as_bytes(), LoadOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let run = crate::report::run("s.csv", &c, 0, &Settings::default(), None);
        let rows = figure_rows(&run);
        let value = |name: &str| rows.iter().find(|r| r.0 == name).map(|r| r.1.clone()).unwrap_or_default();
        assert_eq!(value("Average FPS"), "66.67");
        for name in ["Pacing", "Stutters", "Oscillation", "Frame health"] {
            assert_eq!(value(name), NEEDS_FRAMES, "{name}");
        }
        assert_eq!(value("Frames"), "≈100 (estimated from 2 samples)");
    }
}
