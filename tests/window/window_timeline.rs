//! The timeline and the comparison driven through the window as a user drives it
//! (egui_kittest, the real [`App`]): hover values on a telemetry row, the frame row
//! following the frame-time source, renaming a run, the comparison's noise band, a
//! timeline that stays put when frames are clicked and ranges selected, and every
//! character the window writes present in its font.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{Window, app, click_at, default_trace, frame_pos, labelled, run_id, settle, window};
use eframe::egui::{Event, FontId, Key, Modifiers, PointerButton, Pos2, accesskit::Role};
use egui_kittest::kittest::Queryable as _;
use framescope::app::timeline::LABEL_WIDTH;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

const SAMPLE: &str = "sample-traces/pm-1.x_GhostReconBreakpoint_dwm_firefox_multiproc_qpc.csv";
const A: &str = "sample-traces/synthetic-run-a.csv";
const B: &str = "sample-traces/synthetic-run-b.csv";

/// A new file in the temp folder (unique per call: tests run in parallel).
fn temp_file(name: &str, text: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("framescope-timeline-{}-{k}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// Every label the window shows right now (tooltips included).
fn labels(h: &Window) -> Vec<String> {
    h.query_all_by_role(Role::Label).filter_map(|n| n.value()).collect()
}

/// The first label starting with `prefix`.
fn label_starting(h: &Window, prefix: &str) -> Option<String> {
    labels(h).into_iter().find(|v| v.starts_with(prefix))
}

/// Hovers `pos` and waits (a few frames at most) for a label starting with `prefix`.
fn hover_for(h: &mut Window, pos: Pos2, prefix: &str) -> Option<String> {
    hover_until(h, pos, |v| v.starts_with(prefix))
}

/// Hovers `pos` and waits (a few frames at most) for a label that `wanted` accepts.
fn hover_until(h: &mut Window, pos: Pos2, wanted: impl Fn(&str) -> bool) -> Option<String> {
    h.hover_at(pos);
    for _ in 0..40 {
        h.run_steps(1);
        if let Some(found) = labels(h).into_iter().find(|v| wanted(v)) {
            return Some(found);
        }
    }
    None
}

/// Moves the pointer away (tooltips close).
fn away(h: &mut Window) {
    h.hover_at(Pos2::new(1.0, 1.0));
    h.run_steps(2);
}

/// The y (from the timeline's top) of the row whose hover title starts with `title`,
/// found as a user finds it: hovering down the label column.
fn row_y(h: &mut Window, title: &str) -> f32 {
    let rect = h.get_by_label("Timeline").rect();
    let mut y = 30.0;
    while y < rect.height() {
        if hover_for(h, Pos2::new(rect.left() + 20.0, rect.top() + y), title).is_some() {
            away(h);
            return y;
        }
        y += 8.0;
    }
    panic!("no row titled {title}");
}

/// 200 frames of a PresentMon 2.4 GUI capture with a GPU temperature and a power
/// reading per frame, nothing else: the frame row, the stutter row and two telemetry
/// rows.
fn telemetry_capture() -> PathBuf {
    let mut csv = String::from(
        "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,\
         PresentMode,FrameType,TimeInSeconds,MsBetweenPresents,GPUTemperature,GPUPower\n",
    );
    let mut t = 0.0;
    for i in 0..200 {
        let ft = 10.0 + f64::from(i % 5);
        let temp = 60 + i % 17;
        let power = 150.0 + f64::from(i % 23) * 1.5;
        let _ = writeln!(
            csv,
            "g.exe,7,0x1,DXGI,0,0,0,Hardware: Independent Flip,Application,{t:.6},{ft},{temp},{power}"
        );
        t += ft / 1000.0;
    }
    temp_file("telemetry.csv", &csv)
}

#[test]
fn hovering_a_telemetry_row_shows_its_value_and_scale() {
    let path = telemetry_capture();
    let mut h = window(std::slice::from_ref(&path));
    let trace = default_trace(&path);
    std::fs::remove_file(&path).unwrap();
    let temps = &trace.column_named("GPUTemperature").expect("a temperature column").values;

    // The row's label hover names it with its unit and says what its line means.
    let y = row_y(&mut h, "GPUTemperature");
    let rect = h.get_by_label("Timeline").rect();
    let title = hover_for(&mut h, Pos2::new(rect.left() + 20.0, rect.top() + y), "GPUTemperature").unwrap();
    assert!(title.starts_with("GPUTemperature (°C)"), "{title}");
    assert!(title.contains("values 60 to 76"), "min and max: {title}");
    away(&mut h);

    // Over the row, on frames 50 and 123: the temperature of that frame.
    for i in [50, 123] {
        let at = frame_pos(&h, 0, run_id(&h, 0), trace.frames.start_ms[i], trace.frames.frame_time_ms[i]);
        let over = Pos2::new(at.x, rect.top() + y + 20.0);
        let shown = hover_for(&mut h, over, "GPUTemperature: ").expect("the hover value");
        assert_eq!(shown, format!("GPUTemperature: {} °C", temps[i]), "frame {i}");
        // The frame itself follows.
        let frame = format!("Frame {i}  ·  line {}", trace.frames.line.get(i).unwrap_or_default());
        assert!(labels(&h).contains(&frame), "{frame}");
        away(&mut h);
    }
}

#[test]
fn switching_the_source_redraws_the_frame_row() {
    let path = common::repo_file(SAMPLE);
    let mut h = window(std::slice::from_ref(&path));
    let trace = default_trace(&path);
    let f = &trace.frames;
    // A displayed frame whose display interval differs from its present interval.
    let i = (100..trace.len())
        .find(|&i| f.display_ms[i].is_finite() && (f.display_ms[i] - f.frame_time_ms[i]).abs() > 1.0)
        .expect("a frame shown longer or shorter than it took");
    let value_at = |h: &mut Window| {
        let pos = frame_pos(h, 0, run_id(h, 0), f.start_ms[i], f.frame_time_ms[i]);
        let first = hover_until(h, pos, |v| v.ends_with(" FPS)") && v.contains(" interval: "));
        away(h);
        first.expect("the frame row's value under the pointer")
    };
    let interval = |ms: f64| format!("{ms:.3} ms ({:.1} FPS)", 1000.0 / ms);
    assert_eq!(value_at(&mut h), format!("Present interval: {}", interval(f.frame_time_ms[i])));

    h.get_by_role_and_label(Role::RadioButton, "display").click();
    settle(&mut h);
    assert_eq!(labelled(&h, "Frame time"), ["display (set by you)"]);
    // The frame row now draws (and reads out) the display intervals.
    assert_eq!(value_at(&mut h), format!("Display interval: {}", interval(f.display_ms[i])));

    h.get_by_role_and_label(Role::RadioButton, "presents").click();
    settle(&mut h);
    assert_eq!(value_at(&mut h), format!("Present interval: {}", interval(f.frame_time_ms[i])));
}

/// A window comparing the two synthetic runs (ticked through the checkbox).
fn compared() -> Window {
    common::ui::compared(&[common::repo_file(A), common::repo_file(B)])
}

#[test]
fn a_renamed_run_is_called_so_in_headings_legends_and_the_table() {
    let mut h = compared();
    let fields: Vec<_> = h.query_all_by_role_and_label(Role::TextInput, "Name").collect();
    assert_eq!(fields.len(), 2, "one name field per run");
    assert_eq!(fields[1].value().as_deref(), Some("synthetic-run-b.csv"));
    fields[1].click();
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_all_by_role_and_label(Role::TextInput, "Name").nth(1).unwrap().type_text("DLSS on");
    h.run_steps(1);
    h.key_press(Key::Enter);
    settle(&mut h);
    assert_eq!(app(&h).run_labels(), ["synthetic-run-a.csv", "DLSS on"]);
    let all = labels(&h);
    // The timeline's heading, the comparison's heading, the chart legends.
    assert!(all.iter().any(|v| v == "DLSS on — compared"), "{all:?}");
    assert!(all.iter().any(|v| v == "DLSS on vs synthetic-run-a.csv (baseline)"), "{all:?}");
    assert!(
        all.iter().filter(|v| *v == "2: DLSS on").count() >= 3,
        "a legend entry under every chart: {all:?}"
    );
    // The radio that picks the run too.
    h.get_by_role_and_label(Role::RadioButton, "DLSS on");
}

/// The verdicts of the comparison table, by figure.
fn verdicts(h: &Window) -> Vec<(String, String)> {
    framescope_core::figures::FIGURES
        .iter()
        .filter(|f| !f.section.is_convention())
        .filter_map(|f| {
            let cells = labelled(h, f.title);
            (cells.len() == 5).then(|| (f.title.to_owned(), cells[4].clone()))
        })
        .collect()
}

#[test]
fn the_noise_band_turns_small_changes_neutral() {
    let mut h = compared();
    assert_eq!(labelled_spin(&h), "1.0 %", "the default band is ±1 %");
    let before = verdicts(&h);
    let changes = |h: &Window, name: &str| {
        labelled(h, name)[3].trim_end_matches(" %").parse::<f64>().unwrap_or(f64::INFINITY)
    };
    // Every change within ±1 % is noise, every other one better or worse.
    for (name, v) in &before {
        if v == "better" || v == "worse" {
            assert!(changes(&h, name).abs() > 1.0, "{name}: {v}");
        }
        if v == "noise" {
            assert!(changes(&h, name).abs() <= 1.05, "{name}: {v}");
        }
    }
    let small = before
        .iter()
        .find(|(name, v)| (v == "better" || v == "worse") && changes(&h, name).abs() < 30.0)
        .map(|(n, _)| n.clone())
        .expect("a change between 1 % and 30 %");

    // Widen the band to 30 %, typing it as a user does.
    h.get_by_role_and_label(Role::SpinButton, "Noise band ±").click();
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_role_and_label(Role::SpinButton, "Noise band ±").type_text("30");
    h.run_steps(1);
    h.key_press(Key::Enter);
    settle(&mut h);
    assert_eq!(labelled_spin(&h), "30.0 %");
    let after = verdicts(&h);
    let of =
        |list: &[(String, String)], name: &str| list.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    assert_eq!(of(&after, &small).as_deref(), Some("noise"), "{small} is within ±30 %");
    for (name, v) in &after {
        let c = labelled(&h, name)[3].clone();
        match v.as_str() {
            "better" | "worse" => assert!(changes(&h, name).abs() > 30.0, "{name}: {c}"),
            "noise" => assert!(changes(&h, name).abs() <= 30.05, "{name}: {c}"),
            _ => {}
        }
    }
    // The values themselves do not change with the band.
    for (name, _) in &before {
        assert_eq!(labelled(&h, name)[..4], labelled(&compared(), name)[..4], "{name}");
    }
}

/// The noise band's value as its field shows it.
fn labelled_spin(h: &Window) -> String {
    h.get_by_role_and_label(Role::SpinButton, "Noise band ±").value().unwrap_or_default()
}

#[test]
fn clicking_and_selecting_leave_the_timeline_where_it_is() {
    let mut h = window(&[]);
    let before = h.get_by_label("Timeline").rect();
    // Click a frame: its details fill the left panel.
    let t = default_trace(&common::repo_file(SAMPLE));
    let i = t.len() / 2;
    let pos = frame_pos(&h, 0, run_id(&h, 0), t.frames.start_ms[i], t.frames.frame_time_ms[i]);
    click_at(&mut h, pos);
    settle(&mut h);
    assert!(label_starting(&h, "Frame of ").is_some(), "the frame's details are shown");
    let after_click = h.get_by_label("Timeline").rect();
    assert_eq!((after_click.left(), after_click.width()), (before.left(), before.width()));
    // Shift-drag a range: the selection's figures appear too.
    let left = before.left() + LABEL_WIDTH;
    let (x0, x1, y) = (left + 100.0, left + 250.0, before.top() + 80.0);
    h.event(Event::ModifiersChanged(Modifiers::SHIFT));
    h.event(Event::PointerMoved(Pos2::new(x0, y)));
    let button = |x: f32, pressed| Event::PointerButton {
        pos: Pos2::new(x, y),
        button: PointerButton::Primary,
        pressed,
        modifiers: Modifiers::SHIFT,
    };
    h.event(button(x0, true));
    for k in 1..=8 {
        h.event(Event::PointerMoved(Pos2::new(x0 + (x1 - x0) * k as f32 / 8.0, y)));
    }
    h.event(button(x1, false));
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    settle(&mut h);
    h.get_by_label("Selection");
    let after_select = h.get_by_label("Timeline").rect();
    assert_eq!((after_select.left(), after_select.width()), (before.left(), before.width()));
}

#[test]
fn every_character_the_window_writes_is_in_its_font() {
    let mut h = compared();
    // The help window, the legend, a row's hover, a frame's hover.
    let rect = h.get_all_by_label("Timeline").next().unwrap().rect();
    hover_until(&mut h, Pos2::new(rect.left() + 300.0, rect.top() + 60.0), |v| {
        v.starts_with("Frame 0") || v.contains("  ·  line ")
    });
    h.key_press(Key::H);
    h.run_steps(3);
    let help: Vec<String> = labels(&h);
    assert!(
        help.iter().any(|l| l == "Left / Right arrow"),
        "the help names the arrow keys in words: {help:?}"
    );
    let mut texts = help;
    hover_for(&mut h, Pos2::new(rect.left() + 20.0, rect.top() + 60.0), "Frame time: ");
    texts.extend(labels(&h));
    texts
        .extend(framescope::app::timeline::HELP.iter().flat_map(|(k, a)| [(*k).to_owned(), (*a).to_owned()]));
    let font = FontId::proportional(14.0);
    let missing: Vec<String> = texts
        .iter()
        .filter_map(|t| {
            let bad: String =
                t.chars().filter(|&c| c != '\n' && !h.ctx.fonts_mut(|f| f.has_glyph(&font, c))).collect();
            (!bad.is_empty()).then(|| format!("{bad:?} in {t:?}"))
        })
        .collect();
    assert!(missing.is_empty(), "characters the default font lacks (drawn as boxes): {missing:?}");
}

#[test]
fn the_sample_pair_beside_an_open_capture_is_compared_on_its_own() {
    let mut h = window(&[]);
    h.get_by_role_and_label(Role::Button, "Sample pair").click();
    settle(&mut h);
    assert!(app(&h).comparing());
    assert_eq!(app(&h).run_labels().len(), 3, "the open capture stays open");
    // The pair's first run is the baseline, and only the pair is compared.
    assert_eq!(app(&h).baseline_name(), Some("sample: synthetic-run-a.csv"));
    let headings: Vec<String> =
        labels(&h).into_iter().filter(|l| l.ends_with(" — baseline") || l.ends_with(" — compared")).collect();
    assert_eq!(
        headings,
        ["sample: synthetic-run-a.csv — baseline", "sample: synthetic-run-b.csv — compared"]
    );
    assert_eq!(
        labelled(&h, "Average FPS").len(),
        5,
        "one comparison table: {:?}",
        labelled(&h, "Average FPS")
    );
}

#[test]
fn recent_files_are_remembered_with_absolute_paths() {
    // A path relative to the test's folder, as a user types it on the command line.
    let relative = PathBuf::from(SAMPLE);
    assert!(relative.is_relative() && relative.exists());
    let h = window(std::slice::from_ref(&relative));
    let recent = &app(&h).persisted().recent;
    assert_eq!(recent.len(), 1);
    assert!(recent[0].is_absolute(), "{:?}", recent[0]);
    assert_eq!(recent[0], std::path::absolute(&relative).unwrap());
}
