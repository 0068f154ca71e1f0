//! The middle of the window: the legend, the engine's events, and one timeline per
//! shown run (compared runs stacked on one aligned axis, each named and coloured), or
//! what a loading capture holds so far; and the charts panel on the right.

use super::Model;
use super::compare_views::CompareView;
use super::legend_names::legend_names;
use crate::app::charts::{self, ChartData};
use crate::app::session::AppCommand;
use crate::app::timeline::{self, Command, TimeView};
use eframe::egui;
use framescope_core::analysis::FrameTimeSource;

/// Events listed above the timeline at most (all are drawn on it).
const LISTED_EVENTS: usize = 40;

/// The charts panel on the right of a window `width` wide.
pub fn charts_panel(width: f32) -> egui::Panel {
    egui::Panel::right("charts")
        .resizable(true)
        // A small window (1280 wide) keeps more room for the timeline.
        .default_size(if width < 1400.0 { width * 0.2 } else { width * 0.25 }.clamp(220.0, 380.0))
        .size_range(180.0..=(width * 0.5).max(200.0))
}

/// The charts of the shown run, or every compared run's overlaid.
pub fn charts_ui(ui: &mut egui::Ui, m: &Model<'_>) {
    // A panel with little to show keeps its width (it would shrink to it).
    ui.set_min_width(ui.available_width());
    let target = m.persisted.target_fps;
    if m.session.comparing() {
        compared_charts_ui(ui, m, target);
        return;
    }
    let Some(run) = m.session.selected_run() else { return };
    let id = run.id;
    let Some(a) = run.analyzed() else { return };
    if a.charts.is_empty() && run.shown_trace().is_sampled() {
        sampled_charts_note(ui, false);
        return;
    }
    // A time selection's charts, over the whole capture's drawn faintly.
    let selection = m
        .session
        .selection_of(id)
        .and_then(|range| run.selection_charts(&m.run_settings(id), m.run_trim(id), range))
        .filter(|c| !c.is_empty());
    // Animation error against frame time (metrics.md §13), under the other charts.
    let scatter = run.tracks().and_then(|t| t.animation.as_ref()).map(|t| t.scatter.as_slice());
    egui::ScrollArea::vertical().show(ui, |ui| match (selection, scatter.filter(|p| !p.is_empty())) {
        (Some(sel), _) => {
            ui.label("The time selection's frames; faint: the whole capture").on_hover_text(
                "The charts follow the time selection (as the figures do); the whole capture is drawn faintly \
                 for reference. Esc clears the selection.",
            );
            let faint = egui::Color32::from_rgba_unmultiplied(150, 150, 160, 90);
            let runs = [("whole capture", faint, a.charts.as_ref()), ("selection", crate::app::theme::FRAME_COLOR, sel)];
            charts::charts_overlay_ui(ui, &runs, target);
        }
        (None, Some(points)) => charts::charts_with_animation_ui(ui, &a.charts, target, points),
        (None, None) => charts::charts_ui(ui, &a.charts, target),
    });
}

/// Every compared run's charts overlaid; the sampled logs among them (no single frames)
/// are named as left out, and when only they are compared the panel says why.
fn compared_charts_ui(ui: &mut egui::Ui, m: &Model<'_>, target: f64) {
    let shown = m.session.shown_runs();
    let labels: Vec<String> = shown.iter().map(|r| r.label.clone()).collect();
    let names = legend_names(&labels);
    let mut sampled = Vec::new();
    let mut runs: Vec<(String, egui::Color32, &ChartData)> = Vec::new();
    for ((slot, run), name) in shown.into_iter().enumerate().zip(names) {
        let Some(a) = run.analyzed() else { continue };
        if a.charts.is_empty() && run.shown_trace().is_sampled() {
            sampled.push(name);
        } else {
            runs.push((name, m.run_colour(slot, run.id), a.charts.as_ref()));
        }
    }
    if runs.is_empty() && !sampled.is_empty() {
        sampled_charts_note(ui, true);
        return;
    }
    if !sampled.is_empty() {
        ui.weak(format!("Not charted (sampled logs, no single frames): {}", sampled.join(", ")));
    }
    let refs: Vec<(&str, egui::Color32, &ChartData)> =
        runs.iter().map(|(n, c, d)| (n.as_str(), *c, *d)).collect();
    egui::ScrollArea::vertical().show(ui, |ui| charts::charts_overlay_ui(ui, &refs, target));
}

/// Why a sampled log (`metrics.md` §10) has no charts: they are of single frames, and
/// its rows are averages over ~0.1–1 s.
fn sampled_charts_note(ui: &mut egui::Ui, several: bool) {
    ui.strong("No per-frame charts");
    let what =
        if several { "Each compared capture is a sampled log" } else { "This capture is a sampled log" };
    ui.weak(format!(
        "{what}: each row is the average rate over the time since the row before, not one frame. The \
         percentile, slow-time and histogram charts need single frames. The figures beside the timeline \
         weight each sample by its interval."
    ));
}

/// The timelines (or a loading preview): the commands they give, and where they were
/// drawn (for the PNG export), when they were.
pub fn central_ui(ui: &mut egui::Ui, m: &Model<'_>) -> (Vec<AppCommand>, Option<egui::Rect>) {
    let shown = m.session.shown_runs();
    if shown.is_empty() {
        if let Some(p) = m.jobs.pending.first() {
            loading_preview_ui(ui, &p.name, &p.progress);
        } else {
            ui.centered_and_justified(|ui| ui.label("No capture open"));
        }
        return (Vec::new(), None);
    }
    let comparing = m.session.comparing();
    let generated = shown.iter().any(|r| r.tracks().is_some_and(|t| t.generated));
    // An exported PNG starts with its header and the legend; the stutter list and the
    // view switch stay out of it.
    let header = m.scratch.png_header;
    let top = ui.cursor().min;
    // While comparing, the view switch comes first; the bar chart and the overlay
    // leave out the timelines' legend, events and details.
    let mut commands = Vec::new();
    let view = if comparing && !header {
        let (view, changed) = super::compare_views::view_switch(ui, m);
        commands.extend(changed);
        view
    } else {
        CompareView::Timelines
    };
    match view {
        CompareView::Bars => return (commands, Some(super::compare_views::bars_ui(ui, m))),
        CompareView::Overlay => return (commands, Some(super::compare_views::overlay_ui(ui, m))),
        CompareView::Timelines => {}
    }
    if header {
        super::png_header::png_header_ui(ui, m);
    }
    super::legend::timeline_legend_ui(ui, generated);
    commands.extend(events_ui(ui, m));
    if !header {
        commands.extend(super::stutters::stutters_ui(ui, m));
        super::details_strip::details_strip_ui(ui, m);
    }
    if comparing {
        ui.horizontal(|ui| {
            let mut shared = m.session.shared_scale();
            let check = ui.checkbox(&mut shared, "Same vertical scale for every run").on_hover_text(
                "On: the frame, GPU, display and latency rows of all compared runs share one ms scale each, so \
                 equal heights mean equal times. Off: each run is scaled to its own.",
            );
            if check.changed() {
                commands.push(AppCommand::SharedScale(shared));
            }
        });
    }
    let room = ui.available_height();
    let (timeline_commands, rect) =
        egui::ScrollArea::vertical().show(ui, |ui| timelines_ui(ui, m, room)).inner;
    // The pointer's time, across every row (and every compared run), while it is over one.
    if !timeline_commands
        .iter()
        .any(|c| matches!(c, AppCommand::Timeline { command: Command::Cursor(_), .. }))
    {
        commands.push(AppCommand::CursorLeft);
    }
    commands.extend(timeline_commands);
    let rect = if header { egui::Rect::from_min_max(top, rect.max) } else { rect };
    (commands, Some(rect))
}

/// The most a row is stretched to fill the central panel, and the most it is squeezed
/// (to its [`timeline::MIN_HEIGHT_SCALE`]) so that every row is in view.
const STRETCH: (f32, f32) = (timeline::MIN_HEIGHT_SCALE, 2.5);

/// A compared run's title line above its timeline (its height, with spacing).
const TITLE_HEIGHT: f32 = 26.0;

/// One timeline per shown run, in a scroll area `room` high: a single run's rows
/// share that height (stretched or squeezed within [`STRETCH`]); compared runs share it
/// (squeezed as far, never stretched).
fn timelines_ui(ui: &mut egui::Ui, m: &Model<'_>, room: f32) -> (Vec<AppCommand>, egui::Rect) {
    let s = m.session;
    let shown = s.shown_runs();
    let comparing = s.comparing();
    // Compared runs share the frame rows' scales unless the user fits each.
    let shared = (comparing && s.shared_scale()).then(|| {
        shown.iter().fold(timeline::Scales::default(), |acc, r| {
            r.tracks().map_or(acc, |t| acc.max(timeline::Scales::of(t, r.analyzed())))
        })
    });
    let top = ui.cursor().min;
    let mut commands = Vec::new();
    let runs = shown.len().max(1);
    for (slot, run) in shown.into_iter().enumerate() {
        let id = run.id;
        if comparing {
            let role = if slot == 0 { "baseline" } else { "compared" };
            let set = if s.sets_mode() { format!(" (set {})", run.set) } else { String::new() };
            ui.colored_label(m.run_colour(slot, id), format!("{} — {role}{set}", run.label));
        }
        let Some(tracks) = run.tracks() else {
            ui.spinner();
            continue;
        };
        // The series the figures shown are computed on; before the first figures, what
        // the settings will resolve to.
        let source = run.analyzed().map_or_else(
            || match m.run_settings(id).frame_time {
                FrameTimeSource::Auto => tracks.auto_source,
                chosen => chosen,
            },
            |a| a.prepared.source,
        );
        let telemetry_rows = m.telemetry_rows(id);
        let row_heights = m.row_heights(id);
        let input = timeline::Input {
            run: run.id,
            trace_index: run.trace(),
            generation: run.generation(),
            trace: run.shown_trace(),
            tracks,
            analyzed: run.analyzed(),
            source,
            target_fps: m.persisted.target_fps,
            view: s.view_of(id),
            selection: s.selection_of(id),
            selected_frame: s.selected_frame().filter(|(r, _)| *r == id).map(|(_, f)| f),
            cursor_ms: s.cursor_of(id),
            compact: comparing,
            telemetry_rows: &telemetry_rows,
            scales: shared,
            trim: timeline::TrimEdges::of(run.shown_trace(), m.run_trim(id)),
            height_scale: 1.0,
            row_heights: &row_heights,
        };
        // Compared runs share the room (each squeezed, never stretched): two runs are
        // both in view at 1280×720; more scroll.
        let fill = if comparing {
            (room / runs as f32 - TITLE_HEIGHT, (STRETCH.0, 1.0))
        } else {
            (room - 8.0, STRETCH)
        };
        let input = timeline::Input { height_scale: timeline::fill_scale(&input, fill.0, fill.1), ..input };
        let out = ui.push_id(("timeline", id), |ui| timeline::timeline_ui(ui, &input)).inner;
        commands.extend(out.into_iter().map(|command| AppCommand::Timeline { run: id, command }));
    }
    (commands, egui::Rect::from_min_max(top, ui.min_rect().max))
}

/// The shown runs' events as buttons above the timeline: a click centres the view on
/// the event (keeping the zoom when it shows less than the whole capture, else 2 s
/// around it) and selects its frame.
fn events_ui(ui: &mut egui::Ui, m: &Model<'_>) -> Vec<AppCommand> {
    let mut out = Vec::new();
    for run in m.session.shown_runs() {
        let events = &run.shown_trace().frames.events;
        if events.is_empty() {
            continue;
        }
        ui.horizontal_wrapped(|ui| {
            let label = if m.session.comparing() { format!("Events ({})", run.label) } else { "Events".to_owned() };
            ui.label(label).on_hover_text(
                "What the engine logged during the capture (Unreal's EVENTS column): each is a dashed line on the \
                 timeline; click one to go there",
            );
            for e in events.iter().take(LISTED_EVENTS) {
                let hint = format!("frame {} at {:.3} s", e.frame, e.time_ms / 1000.0);
                if ui.small_button(&e.label).on_hover_text(hint).clicked() {
                    let view = TimeView::around(e.time_ms, m.session.aligned_view().span_ms);
                    out.push(AppCommand::Timeline { run: run.id, command: Command::View(view) });
                    out.push(AppCommand::Timeline { run: run.id, command: Command::SelectFrame(Some(e.frame)) });
                }
            }
            if events.len() > LISTED_EVENTS {
                ui.label(format!("… {} more on the timeline", events.len() - LISTED_EVENTS));
            }
        });
    }
    out
}

/// What a capture that is still loading holds so far: its frame count and the
/// slowest frame time of each stretch of frames, filling from the left as the file is
/// read (the window stays responsive: the load runs on a worker).
fn loading_preview_ui(ui: &mut egui::Ui, name: &str, progress: &framescope_core::ingest::Progress) {
    let preview = progress.preview();
    let fraction = progress.fraction();
    ui.horizontal(|ui| {
        ui.spinner();
        ui.label(format!(
            "Loading {name}: {} frames read so far ({:.0} %)",
            preview.frames,
            100.0 * fraction
        ));
    });
    let (rect, _) = ui.allocate_exact_size(egui::vec2(ui.available_width(), 160.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    if preview.slowest_ms.is_empty() {
        return;
    }
    // Frames the whole file will hold, estimated from how much of it was read.
    let total = if fraction > 0.01 { preview.frames as f32 / fraction } else { preview.frames as f32 * 10.0 };
    let mut sorted = preview.slowest_ms.clone();
    sorted.sort_unstable_by(f32::total_cmp);
    let scale = (sorted[sorted.len() * 95 / 100] * 1.5).max(1.0);
    let width = (rect.width() * preview.bucket_frames as f32 / total.max(1.0)).max(1.0);
    let bar = |x: f32, ms: f32| {
        let h = rect.height() * (ms / scale).clamp(0.0, 1.0);
        egui::Rect::from_min_max(egui::pos2(x, rect.bottom() - h), egui::pos2(x + width, rect.bottom()))
    };
    for (k, &ms) in preview.slowest_ms.iter().enumerate() {
        let x = rect.left() + rect.width() * (k as f32 * preview.bucket_frames as f32) / total.max(1.0);
        painter.rect_filled(bar(x, ms), 0.0, ui.visuals().widgets.inactive.bg_fill);
        painter.rect_filled(bar(x, preview.mean_ms(k) as f32), 0.0, ui.visuals().selection.bg_fill);
    }
    ui.label(format!(
        "per {} frames: mean frame time, and behind it the slowest frame (up to {scale:.0} ms)",
        preview.bucket_frames
    ));
}
