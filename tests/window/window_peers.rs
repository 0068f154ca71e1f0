//! "As other tools report it" in the window (issue 12), driven as a user drives it:
//! the panel opened with its toggle under the figures, FrameView's own figures read
//! from it and held against the summary file FrameView itself wrote for the capture;
//! the latency keys among the figures; the telemetry panel against `framescope report
//! --json`; the comparison's "Figures" choice switched to a peer tool, every row then
//! the CLI's `comparison.conventions.<tool>`; and the comparison's telemetry rows.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{Window, compared, labelled, settle, window};
use eframe::egui::accesskit::Role;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use framescope_core::figures::{FIGURES, Figure, Unit, figure};
use framescope_core::report::compare::number;
use serde_json::Value;
use std::path::Path;

const DLSSFG: &str = "frameview/FrameView_Cyberpunk2077_4K_Native+DLSSFG_2024_04_17T051708_Log.csv";
const DLAA: &str = "frameview/FrameView_Cyberpunk2077_4K_Native+DLAA_2024_04_17T050843_Log.csv";
const SUMMARY: &str = "frameview/FrameView_Summary_Cyberpunk2077_4K_Native+DLSSFG.csv";
const A: &str = "sample-traces/synthetic-run-a.csv";
const B: &str = "sample-traces/synthetic-run-b.csv";

/// FrameView's own summary file: its header's column names → the one row's cells.
fn frameview_summary(path: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).expect("the summary file");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let row: Vec<&str> = lines.next().expect("a row").split(',').collect();
    header.iter().zip(row).map(|(h, v)| (h.trim().to_owned(), v.trim().to_owned())).collect()
}

fn summary_value<'a>(summary: &'a [(String, String)], column: &str) -> &'a str {
    &summary.iter().find(|(h, _)| h == column).unwrap_or_else(|| panic!("no {column} in the summary")).1
}

/// The labels (text) shown whose text is `text`.
fn texts(h: &Window, text: &str) -> usize {
    h.query_all_by_role(Role::Label).filter(|n| n.value().as_deref() == Some(text)).count()
}

/// Opens the panel with the toggle under the figures.
fn open_peers_panel(h: &mut Window) {
    assert_eq!(texts(h, "As other tools report it"), 0, "the panel starts hidden");
    // Under a long list of figures the toggle may be below the fold: clicked through
    // AccessKit, as a screen reader does.
    h.get_all_by_label("As other tools report it")
        .find(|n| n.accesskit_node().role() != Role::Label)
        .expect("the toggle under the figures")
        .click_accesskit();
    settle(h);
    assert_eq!(texts(h, "As other tools report it"), 1, "the panel's heading");
}

fn report(file: &Path) -> Value {
    let (code, doc) = common::report_json([file]);
    assert_eq!(code, 0, "{doc}");
    doc["runs"][0].clone()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// On FrameView's Cyberpunk 2077 DLSS-FG capture the panel shows FrameView's figures
/// as FrameView's own summary file prints them (to its three decimals), beside
/// framescope's own 1 % low (a frame fewer: 35.26, not 35.667).
#[test]
fn the_panel_shows_frameview_s_own_summary_figures() {
    let Some(dir) = common::real_traces() else { return };
    let file = dir.join(DLSSFG);
    let summary = frameview_summary(&dir.join(SUMMARY));
    let mut h = window(std::slice::from_ref(&file));
    assert!(labelled(&h, "1% Low FPS").is_empty(), "the panel starts hidden");
    open_peers_panel(&mut h);
    assert_eq!(labelled(&h, "1% Low FPS"), ["35.667"]);
    for (shown, column) in [
        ("Avg FPS", "Avg FPS"),
        ("1% Low FPS", "1% Low FPS"),
        ("0.1% Low FPS", "0.1% Low FPS"),
        ("0.1% FPS", "0.1% FPS"),
        ("5% FPS", "5% FPS"),
        ("10% FPS", "10% FPS"),
    ] {
        assert_eq!(labelled(&h, shown), [summary_value(&summary, column)], "{shown}");
    }
    // FrameView's 1 % FPS is 41.928: the log rounds frame times to 0.001 ms, so the
    // same frame reads 41.927 (docs/figures.md §10); the panel shows the report's.
    let run = report(&file);
    assert_eq!(labelled(&h, "1% FPS"), [format!("{:.3}", f(&run["conventions"]["frameview"]["fps_1pct"]))]);
    assert_eq!(labelled(&h, "1% FPS")[0], "41.927");
    // FrameView's latency figures under its own names, as its summary printed them.
    for column in ["MinPCLatency", "MaxPCLatency", "AvgPCLatency", "RenderPresentLatency"] {
        let printed = summary_value(&summary, &format!("{column} (ms)"));
        assert_eq!(labelled(&h, column), [format!("{printed} ms")], "{column}");
    }
    // framescope's own 1 % low, in the figures beside it, takes one frame fewer.
    assert_eq!(labelled(&h, "1% low FPS"), [format!("{:.2}", f(&run["summary"]["low_1pct_fps"]))]);
    assert_eq!(labelled(&h, "1% low FPS")[0], "35.26");
    // Every other tool's figures are there too, as the report computes them.
    for figure in FIGURES.iter().filter(|f| f.section.is_convention()) {
        let (tool, key, name) = (figure.section.name(), figure.name, figure.title);
        // FrameView's Perf/Watt needs a PCAT board's readings, which this log lacks: "—".
        let want = run["conventions"][tool][key].as_f64().map_or_else(|| "—".to_owned(), |v| cell(v, figure));
        assert!(labelled(&h, name).contains(&want), "{tool}.{key}: {want} not in {:?}", labelled(&h, name));
    }
}

/// The hover on a peer's value gives its definition and the tool's name.
#[test]
fn a_peer_value_explains_itself_on_hover() {
    let sample = common::repo_file("sample-traces/FrameView_ds.exe_2021_06_04T224922_Log.csv");
    let mut h = window(&[sample]);
    open_peers_panel(&mut h);
    let value = labelled(&h, "1% Low FPS");
    assert_eq!(value.len(), 1);
    let pos = h
        .query_all_by_role(Role::Label)
        .find(|n| n.value().as_ref() == value.first())
        .expect("FrameView's 1% Low FPS value")
        .rect()
        .center();
    h.hover_at(pos);
    let mut tip = None;
    for _ in 0..40 {
        h.run_steps(1);
        tip = h
            .query_all_by_role(Role::Label)
            .filter_map(|n| n.value())
            .find(|v| v.starts_with("FrameView's summary"));
        if tip.is_some() {
            break;
        }
    }
    let tip = tip.expect("the definition on hover");
    assert!(tip.contains("floor(0.01 × frames) + 1") && tip.contains("framescope's 1% low"), "{tip}");
}

/// The new latency keys among the figures and the telemetry panel (mean, min, max per
/// column), each what `framescope report --json` gives; the means are the ones
/// FrameView's summary printed.
#[test]
fn latency_keys_and_telemetry_are_shown() {
    let Some(dir) = common::real_traces() else { return };
    let file = dir.join(DLSSFG);
    let summary = frameview_summary(&dir.join(SUMMARY));
    let run = report(&file);
    let mut h = window(std::slice::from_ref(&file));
    let lat = &run["latency"];
    assert_eq!(labelled(&h, "PC latency min"), [format!("{:.2} ms", f(&lat["pc_latency_min_ms"]))]);
    assert_eq!(labelled(&h, "PC latency max"), [format!("{:.2} ms", f(&lat["pc_latency_max_ms"]))]);
    assert_eq!(labelled(&h, "PC latency min"), ["72.71 ms"]);
    assert_eq!(labelled(&h, "PC latency max"), ["138.94 ms"]);
    assert_eq!(labelled(&h, "Render-present latency mean"), ["2.43 ms"]);
    open_peers_panel(&mut h);
    let telemetry = run["telemetry"].as_object().expect("telemetry");
    assert!(telemetry.len() >= 10, "{telemetry:?}");
    for (column, stats) in telemetry {
        let want: Vec<String> = ["mean", "min", "max"].iter().map(|k| number(f(&stats[k]))).collect();
        assert_eq!(labelled(&h, column), want, "{column}");
    }
    // GPU clock, utilisation and the CPU's: FrameView's summary printed these means.
    for (column, printed) in [
        ("GPU0Clk(MHz)", "GPU0Clk(MHz)"),
        ("GPU0Util(%)", "GPU0 Util%"),
        ("CPUClk(MHz)", "CPUClk(MHz)"),
        ("CPUUtil(%)", "CPU Util %"),
    ] {
        let shown = labelled(&h, column);
        let mean: f64 = shown.first().unwrap_or_else(|| panic!("{column}: {shown:?}")).parse().unwrap();
        let printed: f64 = summary_value(&summary, printed).parse().unwrap();
        assert!((mean - printed).abs() <= 0.005 + 1e-9, "{column}: {mean} vs FrameView's {printed}");
    }
}

/// A sampled log says why CapFrameX's, FrameView's and PresentMon's figures are not
/// there (they are defined on single frames).
#[test]
fn a_sampled_log_says_the_peers_do_not_apply() {
    let mut h = window(&[common::repo_file("sample-traces/HardwareMonitoring.hml")]);
    open_peers_panel(&mut h);
    let labels: Vec<String> = h.query_all_by_role(Role::Label).filter_map(|n| n.value()).collect();
    let not_applicable = labels.iter().filter(|l| l.starts_with("not applicable: a sampled log")).count();
    assert_eq!(not_applicable, 3, "{labels:?}");
    assert!(labels.iter().any(|l| l.starts_with("not applicable: this sampled log is not MangoHud's")));
    assert!(labelled(&h, "1% Low FPS").is_empty());
}

/// A peer figure's value as the window writes it, written here independently: FPS
/// with the registry's decimals (FrameView's three, as its summary prints them; the
/// others' two), shares in %.
fn cell(v: f64, figure: &Figure) -> String {
    let d = figure.decimals;
    match figure.unit {
        Unit::Fps => format!("{v:.d$}"),
        Unit::Fraction => format!("{:.d$} %", v * 100.0),
        Unit::Watts => format!("{v:.d$} W"),
        Unit::FpsPerWatt => format!("{v:.d$} FPS/W"),
        other => panic!("unexpected unit {other:?}"),
    }
}

/// Picks `tool` in the comparison's "Figures" combo box.
fn pick_figures(h: &mut Window, tool: &str) {
    h.get_by_role_and_label(Role::ComboBox, "Figures").click();
    h.run_steps(2);
    h.get_all_by_label(tool).find(|n| n.accesskit_node().role() != Role::Label).expect("the option").click();
    settle(h);
}

/// Picking a tool in "Figures" makes the table show that tool's figures where
/// framescope's summary was, each row the CLI's `comparison.conventions.<tool>`
/// (baseline, other, delta sign); pacing stays framescope's. Back to framescope, its
/// own rows return.
#[test]
fn the_figures_choice_switches_the_table_to_a_peer_tool() {
    let files = [common::repo_file(A), common::repo_file(B)];
    let doc = common::compare_json(&files[0], &files[1]);
    let mut h = compared(&files);
    assert_eq!(labelled(&h, "Average FPS").len(), 5, "framescope's own figures first");
    assert!(labelled(&h, "FrameView: 1% Low FPS").is_empty());
    for (tool, title) in [("frameview", "FrameView"), ("capframex", "CapFrameX"), ("mangohud", "MangoHud")] {
        pick_figures(&mut h, title);
        assert!(labelled(&h, "Average FPS").is_empty(), "{tool}: framescope's summary makes way");
        assert!(labelled(&h, "1% low FPS").is_empty(), "{tool}");
        assert_eq!(labelled(&h, "Steady FPS").len(), 5, "{tool}: pacing stays");
        let entries = doc["comparison"]["conventions"][tool].as_object().expect("the tool's section");
        assert!(entries.len() >= 4);
        for (key, entry) in entries {
            if entry.is_null() {
                continue; // FrameView's power figures: only FrameView's logs have the columns
            }
            let unit = figure(&format!("{tool}.{key}")).expect("a registry figure");
            let name = unit.display_name();
            assert!(name.starts_with(&format!("{title}: ")), "{name}");
            let row = labelled(&h, &name);
            assert_eq!(row.len(), 5, "{name}: {row:?}");
            assert_eq!(row[0], cell(f(&entry["baseline"]), unit), "{name}");
            assert_eq!(row[1], cell(f(&entry["other"]), unit), "{name}");
            let delta = f(&entry["delta"]);
            assert_eq!(row[2].starts_with('-'), delta < 0.0 && row[2] != cell(0.0, unit), "{name}: {row:?}");
        }
        // Nothing of the other tools.
        for other in ["CapFrameX", "FrameView", "PresentMon", "MangoHud"].iter().filter(|t| **t != title) {
            let names: Vec<String> = FIGURES
                .iter()
                .filter(|f| f.section.is_convention())
                .map(Figure::display_name)
                .filter(|n| n.starts_with(&format!("{other}: ")))
                .collect();
            assert!(names.iter().all(|n| labelled(&h, n).is_empty()), "{other} in {title}'s table");
        }
    }
    // FrameView's 1 % low takes one frame more than framescope's: a different number.
    pick_figures(&mut h, "FrameView");
    // Its rows stand where framescope's summary was: after the run's counts, before
    // pacing.
    let order: Vec<String> = h.query_all_by_role(Role::Label).filter_map(|n| n.value()).collect();
    let at = |text: &str| order.iter().position(|l| l == text).unwrap_or_else(|| panic!("{text}"));
    assert!(at("Dropped frames") < at("FrameView: Avg FPS") && at("FrameView: 0.1% FPS") < at("Steady FPS"));
    let fv = labelled(&h, "FrameView: 1% Low FPS");
    pick_figures(&mut h, "framescope");
    assert_eq!(labelled(&h, "Average FPS").len(), 5);
    assert!(labelled(&h, "FrameView: 1% Low FPS").is_empty());
    assert_ne!(fv[0], labelled(&h, "1% low FPS")[0]);
}

/// The comparison's telemetry rows: both runs' means, the delta and the change, no
/// verdict; DLSS-FG against DLAA in Cyberpunk 2077.
#[test]
fn the_comparison_has_telemetry_rows() {
    let Some(dir) = common::real_traces() else { return };
    let files = [dir.join(DLAA), dir.join(DLSSFG)];
    let (a, b) = (report(&files[0]), report(&files[1]));
    let h = compared(&files);
    let columns = a["telemetry"].as_object().expect("telemetry");
    assert!(columns.len() >= 10);
    let mut checked = 0;
    for (column, stats) in columns {
        let Some(other) = b["telemetry"].get(column) else { continue };
        let (mb, mo) = (f(&stats["mean"]), f(&other["mean"]));
        let row = labelled(&h, column);
        assert_eq!(row.len(), 5, "{column}: {row:?}");
        assert_eq!(row[..2], [number(mb), number(mo)], "{column}");
        let delta = number(mo - mb);
        let delta = if mo > mb && delta.parse::<f64>().unwrap() != 0.0 { format!("+{delta}") } else { delta };
        assert_eq!(row[2], delta, "{column}");
        assert_eq!(row[4], "—", "{column}: telemetry has no verdict");
        checked += 1;
    }
    assert!(checked >= 10, "{checked}");
    assert_eq!(labelled(&h, "GPU0Clk(MHz)").len(), 5);
}

/// Every name and definition of the peers' figures has its characters in the
/// window's font (a missing glyph would panic when its tooltip is drawn).
#[test]
fn every_peer_text_is_in_the_font() {
    let h = window(&[common::repo_file(A)]);
    let font = eframe::egui::FontId::proportional(14.0);
    let missing: Vec<String> = FIGURES
        .iter()
        .flat_map(|f| [f.display_name(), f.title.to_owned(), f.help.to_owned()])
        .filter(|t| t.chars().any(|c| !h.ctx.fonts_mut(|f| f.has_glyph(&font, c))))
        .collect();
    assert!(missing.is_empty(), "{missing:?}");
}

/// A sampled log against a per-frame capture in CapFrameX's figures: the log has none
/// (no single frames), so each row shows "—" on its side and is not comparable.
#[test]
fn a_sampled_log_in_a_peer_s_figures_is_not_comparable() {
    let files = [common::repo_file("sample-traces/HardwareMonitoring.hml"), common::repo_file(A)];
    let doc = common::compare_json(&files[0], &files[1]);
    let mut h = compared(&files);
    pick_figures(&mut h, "CapFrameX");
    let p1 = f(&doc["runs"][1]["conventions"]["capframex"]["p1_fps"]);
    assert!(doc["comparison"]["conventions"]["capframex"]["p1_fps"].is_null());
    assert_eq!(labelled(&h, "CapFrameX: P1"), ["—", &format!("{p1:.2}"), "not comparable", "—", "—"]);
}

/// `framescope --convention TOOL` (the window's option) takes the four tools' names
/// and refuses anything else as a bad argument.
#[test]
fn the_window_s_convention_option_names_the_tools() {
    let run = common::framescope(["--convention", "fraps", "x.csv"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("use capframex, frameview, presentmon or mangohud"), "{}", run.stderr);
    let help = common::framescope(["--help"]);
    assert!(help.stdout.contains("--convention <TOOL>"), "{}", help.stdout);
}

/// A MangoHud 0.6.8 log recorded here with its own `_summary.csv`: the MangoHud section
/// shows the figures computed MangoHud 0.6.x's way and, under them, what MangoHud wrote
/// in its summary file, as it wrote it — the same numbers to its one decimal.
#[test]
fn the_panel_shows_mangohud_s_own_summary_file() {
    let file = common::repo_file("sample-traces/mangohud-0.6.8/vkcube_2026-11-29_06-25-42.csv");
    let mut h = window(std::slice::from_ref(&file));
    open_peers_panel(&mut h);
    assert_eq!(texts(&h, "MangoHud's own summary"), 1);
    assert_eq!(texts(&h, "vkcube_2026-11-29_06-25-42_summary.csv"), 1);
    for (title, printed) in [
        ("Average FPS", "358.2"),
        ("1% Min FPS", "52.5"),
        ("0.1% Min FPS", "5.2"),
        ("97% Percentile FPS", "643.9"),
    ] {
        assert_eq!(labelled(&h, &format!("{title} (file)")), [format!("{printed} FPS")], "{title}");
        // MangoHud's section is the last of the tools (CapFrameX also says "Average FPS").
        let computed = labelled(&h, title);
        let v: f64 = computed.last().and_then(|c| c.split_whitespace().next()?.parse().ok()).unwrap();
        assert!(
            (v - printed.parse::<f64>().unwrap()).abs() <= 0.05,
            "{title}: {computed:?} against {printed}"
        );
    }
}
