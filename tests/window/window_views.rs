//! The charts and views driven through the window (egui_kittest, the real [`App`]):
//! the charts follow a time selection (the whole capture drawn faintly beside it).
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{Window, app, default_trace, run_id, settle, window};
use eframe::egui::{Event, Modifiers, PointerButton, Pos2, accesskit::Role};
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Numbers the captures' files.
static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// 300 frames of 10 ms but frame 80 (40 ms) and frame 250 (60 ms).
fn capture() -> PathBuf {
    capture_of(300, |i| match i {
        80 => 40.0,
        250 => 60.0,
        _ => 10.0,
    })
}

/// A PresentMon capture of `n` frames, frame `i` lasting `ft(i)` ms.
fn capture_of(n: usize, ft: impl Fn(usize) -> f64) -> PathBuf {
    let mut csv = String::from(
        "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,\
         PresentMode,FrameType,TimeInSeconds,MsBetweenPresents\n",
    );
    let mut t = 0.0;
    for i in 0..n {
        let ft = ft(i);
        let _ = writeln!(csv, "g.exe,7,0x1,DXGI,0,0,0,Hardware: Independent Flip,Application,{t:.6},{ft}");
        t += ft / 1000.0;
    }
    // One file per call: the tests run in parallel and each removes its own.
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("framescope-views-{}-{k}.csv", std::process::id()));
    std::fs::write(&path, csv).unwrap();
    path
}

/// A drag on the timeline's ruler from time `a` to `b` (ms): selects that range.
fn drag_on_ruler(h: &mut Window, a: f64, b: f64) {
    let rect = h.get_by_label("Timeline").rect();
    let left = rect.left() + framescope::app::timeline::LABEL_WIDTH;
    let view = app(h).view();
    let x = |t: f64| view.x_of(t, left, rect.right() - left);
    let y = rect.top() + 8.0;
    let (from, to) = (Pos2::new(x(a), y), Pos2::new(x(b), y));
    h.hover_at(from);
    h.run_steps(1);
    let button = |pos, pressed| Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed,
        modifiers: Modifiers::NONE,
    };
    h.event(button(from, true));
    h.run_steps(1);
    for k in 1..=8 {
        let f = k as f32 / 8.0;
        h.hover_at(from + (to - from) * f);
        h.run_steps(1);
    }
    h.event(button(to, false));
    h.run_steps(2);
}

#[test]
fn the_charts_follow_a_time_selection() {
    let path = capture();
    let mut h = window(std::slice::from_ref(&path));
    let trace = default_trace(&path);
    std::fs::remove_file(&path).unwrap();
    let note = "The time selection's frames; faint: the whole capture";
    assert!(h.query_by_label(note).is_none(), "no selection yet");
    assert_eq!(app(&h).selection_chart_percentile(100.0), None);

    // Select from the start of frame 70 to that of frame 100: frames 70 … 99, the
    // 40 ms frame 80 the slowest (the whole capture's is 60 ms): P100 = 40 ms, P50 = 10.
    let start = |i: usize| trace.frames.start_ms[i];
    drag_on_ruler(&mut h, start(70) - 0.5, start(100) - 0.5);
    settle(&mut h);
    assert!(app(&h).selection().is_some(), "a selection");
    h.get_by_label(note);
    let p100 = app(&h).selection_chart_percentile(100.0).expect("the selection's curve");
    assert!(
        (p100 - 40.0).abs() < 1e-9,
        "{p100} {:?} wanted {} {}",
        app(&h).selection(),
        start(70),
        start(100)
    );
    let p50 = app(&h).selection_chart_percentile(50.0).unwrap();
    assert!((p50 - 10.0).abs() < 1e-9, "{p50:?} {:?}", app(&h).selection());
    // Its figures above the timeline: 30 frames in 29 × 10 + 40 = 330 ms, 90.91 FPS.
    h.get_by_label_contains("30 frames · Average FPS 90.91");

    // Esc (the pointer over the timeline) clears it: the whole capture's charts again.
    h.key_press(eframe::egui::Key::Escape);
    h.run_steps(3);
    assert_eq!(app(&h).selection(), None);
    assert!(h.query_by_label(note).is_none());
}

/// The summary of a capture's default trace with the default settings (what the
/// window and `framescope report` show).
fn summary(path: &std::path::Path) -> framescope_core::analysis::Summary {
    let bytes = std::fs::read(path).unwrap();
    let c =
        framescope_core::ingest::load_bytes(path, &bytes, framescope_core::ingest::LoadOptions::default())
            .unwrap();
    let t = &c.traces[c.default_trace().unwrap()];
    let settings = framescope_core::analysis::Settings::default();
    framescope_core::report::run_trace(
        &framescope_core::report::RunSource { file: "x", info: &c.info, warnings: &[] },
        t,
        &settings,
        None,
    )
    .summary
    .unwrap()
}

#[test]
fn a_comparison_shows_as_a_sortable_bar_chart_and_as_an_overlay() {
    use framescope::app::compare_view::CompareView;
    let files =
        ["sample-traces/synthetic-run-a.csv", "sample-traces/synthetic-run-b.csv"].map(common::repo_file);
    let mut h = window(&files);
    // Run b (the slower: average 96.3 vs 104.7 FPS, 0.1 % low 16.0 vs 64.0) is the
    // baseline, listed first.
    let b = run_id(&h, 1);
    h.state_mut().as_mut().unwrap().set_compare(true, Some(b));
    settle(&mut h);
    assert_eq!(app(&h).persisted().compare_view, CompareView::Timelines);
    assert_eq!(h.query_all_by_label("Timeline").count(), 2);

    h.get_by_label("Bar chart").click();
    settle(&mut h);
    assert_eq!(app(&h).persisted().compare_view, CompareView::Bars, "saved");
    assert_eq!(h.query_all_by_label("Timeline").count(), 0, "the bars replace the timelines");
    // Each run's bars say its average, 1 % low and 0.1 % low FPS, as the report has them.
    let said = |k: usize, slot: usize, name: &str| {
        let s = summary(&files[k]);
        format!(
            "{slot}: {name}: Average FPS {:.1}, 1% low FPS {:.1}, 0.1% low FPS {:.1}",
            s.avg_fps, s.low_1pct_fps, s.low_0_1pct_fps
        )
    };
    let (a, b) = (said(0, 2, "synthetic-run-a.csv"), said(1, 1, "synthetic-run-b.csv"));
    let y = |h: &Window, label: &str| h.get_by_label(label).rect().top();
    assert!(y(&h, &b) < y(&h, &a), "listed order: baseline first");
    // Sorted by 0.1 % low: run a (64.0) before the baseline b (16.0).
    // The sort choice, not the comparison table's row of that name.
    let sort = h.get_all_by_label("0.1% low FPS").find(|n| n.accesskit_node().role() != Role::Label);
    sort.expect("the sort choice").click();
    h.run_steps(3);
    let (sa, sb) = (summary(&files[0]).low_0_1pct_fps, summary(&files[1]).low_0_1pct_fps);
    assert!(sa > sb + 40.0, "{sa} {sb}");
    assert!(y(&h, &a) < y(&h, &b), "sorted by 0.1% low: a first");
    h.get_by_label("run").click();
    h.run_steps(3);
    assert!(y(&h, &b) < y(&h, &a), "listed order again");

    h.get_by_label("Overlay").click();
    settle(&mut h);
    assert_eq!(app(&h).persisted().compare_view, CompareView::Overlay);
    h.get_by_label("Overlay of the runs' frame times");
    assert_eq!(h.query_all_by_label("Timeline").count(), 0);
    h.get_by_label("Timelines").click();
    settle(&mut h);
    assert_eq!(h.query_all_by_label("Timeline").count(), 2);
}

/// The values of the figure `name` in the figures panel.
fn figure(h: &Window, name: &str) -> Vec<String> {
    common::ui::labelled(h, name)
}

#[test]
fn a_trim_that_leaves_nothing_clears_the_figures_and_says_so_once() {
    let path = capture();
    let mut h = window(std::slice::from_ref(&path));
    std::fs::remove_file(&path).unwrap();
    assert_eq!(figure(&h, "Average FPS").len(), 1);
    h.get_by_label("Frame time by percentile");

    // The capture spans 3.09 s (298 × 10 + 40 + 60 ms): 2 s off each end leaves nothing.
    for (start, end) in [(2.0, 2.0), (2.5, 2.0), (3.0, 1.0)] {
        h.state_mut().as_mut().unwrap().set_trim_all(start, end);
        settle(&mut h);
    }
    let errors = app(&h).errors().to_vec();
    assert_eq!(errors.len(), 1, "one error, not one per change: {errors:?}");
    assert!(errors[0].contains("nothing is left after trimming"), "{errors:?}");
    assert!(errors[0].contains("leaves out 3 s at the start and 1 s at the end"), "the latest: {errors:?}");
    // The old figures and charts are gone; the panel says why.
    assert!(figure(&h, "Average FPS").is_empty(), "stale figures shown");
    assert!(h.query_by_label("Frame time by percentile").is_none(), "stale charts shown");
    assert!(h.query_by_label("No figures for these settings: see the error above").is_some());

    // A remembered trim for all runs is said where the figures are, with the CLI's
    // equivalent and a button that clears it.
    h.state_mut().as_mut().unwrap().set_trim_all(0.5, 0.0);
    settle(&mut h);
    assert_eq!(figure(&h, "Average FPS").len(), 1, "figures again");
    h.get_by_label("Trimmed: the first 0.5 s and the last 0 s are left out");
    h.get_by_label_contains("--trim-start 0.5 --trim-end 0 gives these figures");
    h.get_by_label("No trim").click();
    settle(&mut h);
    assert_eq!((app(&h).persisted().trim_start_s, app(&h).persisted().trim_end_s), (0.0, 0.0));
    assert!(h.query_by_label_contains("Trimmed:").is_none());
}

#[test]
fn at_1280_by_720_the_comparison_shows_whole_verdicts() {
    let files =
        ["sample-traces/synthetic-run-a.csv", "sample-traces/synthetic-run-b.csv"].map(common::repo_file);
    let size = eframe::egui::vec2(1280.0, 720.0);
    let h = common::ui::window_of(size, framescope::app::Persisted::default(), &files, |a| {
        a.compare_when_loaded();
    });
    assert!(app(&h).comparing());
    // Every verdict cell ends left of the timelines (the left panel's edge): none is
    // cut to "be" / "wo".
    let timeline_left = h.query_all_by_label("Timeline").map(|n| n.rect().left()).fold(f32::MAX, f32::min);
    let verdicts: Vec<_> =
        h.query_all_by(|n| matches!(n.value().as_deref(), Some("better" | "worse" | "noise"))).collect();
    assert!(verdicts.len() >= 10, "{}", verdicts.len());
    for v in verdicts {
        assert!(
            v.rect().right() < timeline_left - 4.0,
            "{:?} at {:?}, timeline at {timeline_left}",
            v.value(),
            v.rect()
        );
    }
    // The timeline keeps a usable width.
    let t = h.get_all_by_label("Timeline").next().unwrap().rect();
    assert!(t.width() > 420.0, "{t:?}");
}

#[test]
fn an_exported_timeline_png_has_a_title_the_settings_and_the_legend() {
    let path = capture();
    let mut h = window(std::slice::from_ref(&path));
    std::fs::remove_file(&path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let title = format!("framescope — {name}");
    assert!(h.query_by_label(&title).is_none(), "no header outside an export");
    h.get_by_label("Stutters (2) and the 10 slowest frames");

    let png = std::env::temp_dir().join(format!("framescope-views-{}.png", std::process::id()));
    h.state_mut().as_mut().unwrap().export_timeline_png(png);
    h.run_steps(2);
    // While the picture is taken: the title with the run, the settings, the legend
    // above the timeline — and no stutter list.
    let header = h.get_by_label(&title).rect();
    let settings =
        h.get_by_label_contains("target 60 FPS · stutters: 20 % above the local median and 4 ms").rect();
    let legend = h.get_by_label("Legend").rect();
    let timeline = h.get_by_label("Timeline").rect();
    assert!(
        header.top() < settings.top() && settings.top() < legend.top() && legend.bottom() <= timeline.top()
    );
    assert!(h.query_by_label("Stutters (2) and the 10 slowest frames").is_none());
    assert!(h.get_by_label_contains("frame time: presents").rect().top() < legend.top());
}

#[test]
fn the_export_folder_is_typed_in_the_open_menu() {
    let path = capture();
    let mut h = window(std::slice::from_ref(&path));
    std::fs::remove_file(&path).unwrap();
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Export").hover();
    h.run_steps(3);
    // A click in the field keeps the menu open; a path typed a character at a time
    // (each prefix a full path or not) is kept until the field is left.
    h.get_by_label("Without a file dialog, save to").click();
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, eframe::egui::Key::A);
    h.run_steps(1);
    // A full path on every platform (`/tmp/…` is not one on Windows).
    let dir = std::env::temp_dir().join("framescope exports").display().to_string();
    h.event(Event::Text(dir.clone()));
    h.run_steps(2);
    assert!(h.query_by_label("Timeline (PNG)…").is_some(), "the menu stays open while typing");
    h.key_press(eframe::egui::Key::Enter);
    h.run_steps(2);
    assert_eq!(app(&h).persisted().export_dir, PathBuf::from(&dir));
}

#[test]
fn the_slow_time_chart_ends_near_the_body_unless_the_whole_range_is_asked() {
    // 16.7 ms frames with a 0.5 ms interval every 200: the fastest 0.1 % (0.5 ms) puts
    // S(F) = 100 % at 1.5 × 2000 FPS, capped at 1000; the median rate is 59.88 FPS, so
    // the axis ends at 2 × 59.88 = 119.8 → 120 FPS.
    let path = capture_of(3000, |i| if i % 200 == 3 { 0.5 } else { 16.7 });
    let mut h = window(std::slice::from_ref(&path));
    std::fs::remove_file(&path).unwrap();
    h.get_by_label("whole range").hover();
    // egui shows a tooltip after a short delay.
    h.run_steps(60);
    let tip = h
        .query_all_by_role(Role::Label)
        .filter_map(|n| n.value())
        .find(|v| v.starts_with("Off: the axis ends at"))
        .unwrap_or_default();
    assert!(tip.contains("ends at 120 FPS") && tip.contains("up to 1000 FPS"), "{tip}");
    // A capture whose curves end near their body anyway (10 ms frames: S = 100 % from
    // 150 FPS, under 2 × 100) offers no cut.
    let plain = capture();
    let h = window(std::slice::from_ref(&plain));
    std::fs::remove_file(&plain).unwrap();
    assert!(h.query_by_label("whole range").is_none());
    h.get_by_label("whole tail");
}

/// Issue 40: File › Export › HTML report… writes the shared page of the shown run (in
/// the background; here into the export folder, as on a desktop without a file
/// dialog): one self-contained page naming the run, with its average FPS as the
/// window shows it.
#[test]
fn file_export_html_report_writes_the_run_s_page() {
    let path = capture();
    let dir = std::env::temp_dir().join(format!("framescope-html-export-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let persisted = framescope::app::Persisted { export_dir: dir.clone(), ..Default::default() };
    let mut h = common::ui::window_of(
        eframe::egui::vec2(1400.0, 900.0),
        persisted,
        std::slice::from_ref(&path),
        |_| {},
    );
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Export").hover();
    h.run_steps(3);
    h.get_by_label("HTML report…").click();
    h.run_steps(2);
    settle(&mut h);
    std::fs::remove_file(&path).unwrap();
    let pages: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(pages.len(), 1, "{pages:?}");
    assert_eq!(pages[0].extension().and_then(|e| e.to_str()), Some("html"));
    let page = std::fs::read_to_string(&pages[0]).unwrap();
    assert!(page.starts_with("<!doctype html>"), "{}", &page[..page.len().min(80)]);
    let avg = common::ui::labelled(&h, "Average FPS");
    assert!(!avg.is_empty() && page.contains(&avg[0]), "the page has the average FPS {avg:?}");
    let status = app(&h).status().unwrap_or_default().to_owned();
    assert!(status.contains(&pages[0].display().to_string()), "the status names the file: {status}");
    std::fs::remove_dir_all(&dir).unwrap();
}
