//! The menu bar: File (open, recent, engine examples, PCL log, export, watch folder,
//! sample pair), View (zoom, panels, help), the Compare toggle, the sample pair, loads
//! in progress with Cancel, and the status line.

use super::{Model, PEERS_HELP};
use crate::app::session::{AppCommand, ShellCommand};
use crate::app::timeline::Command;
use crate::app::work::LoadSource;
use crate::app::{dialog, session};
use eframe::egui;
use std::path::Path;

/// Made-up engine captures built into the binary (`sample-traces/README.md`), so a new
/// user can see what framescope makes of them without recording one.
const EXAMPLES: [(&str, &str, &[u8]); 4] = [
    (
        "Unreal CSV profiler (5.x, events)",
        "example: unreal-csvprofile-5x-example.csv",
        include_bytes!("../../../sample-traces/unreal-csvprofile-5x-example.csv"),
    ),
    (
        "Unreal CSV profiler (4.19)",
        "example: unreal-csvprofile-4.19-example.csv",
        include_bytes!("../../../sample-traces/unreal-csvprofile-4.19-example.csv"),
    ),
    (
        "Unity recorder (FramescopeRecorder.cs)",
        "example: unity-recorder-example.csv",
        include_bytes!("../../../sample-traces/unity-recorder-example.csv"),
    ),
    (
        "FRAPS frametimes",
        "example: generic-fraps-frametimes.csv",
        include_bytes!("../../../sample-traces/generic-fraps-frametimes.csv"),
    ),
];

/// The menu bar and what sits beside it.
pub fn toolbar_ui(ui: &mut egui::Ui, m: &Model<'_>) -> Vec<AppCommand> {
    let mut out = Vec::new();
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| file_menu(ui, m, &mut out));
        ui.menu_button("View", |ui| view_menu(ui, m, &mut out));
        ui.separator();
        let mut compare = m.session.compare_toggle();
        let toggle =
            ui.add_enabled(m.session.runs().len() > 1, egui::Checkbox::new(&mut compare, "Compare runs"));
        let toggle = toggle
            .on_hover_text(
                "Stack the runs' timelines on one time axis, overlay their charts and compare every figure \
                 against a baseline",
            )
            .on_disabled_hover_text("Open two or more captures to compare them");
        if toggle.changed() {
            out.push(AppCommand::Compare { on: compare, baseline: None });
        }
        if m.jobs.following() {
            let mut follow = m.session.follows_live();
            let help = "Keep the newest frames of a growing (live) run in view, like a profiler's live view";
            if ui.checkbox(&mut follow, "Follow live").on_hover_text(help).changed() {
                out.push(AppCommand::FollowLive(follow));
            }
            live_count_ui(ui, m);
        }
        if ui
            .button("Sample pair")
            .on_hover_text(
                "Open two runs of a synthetic scene and compare the two of them (captures already open stay \
                 open, outside the comparison)",
            )
            .clicked()
        {
            out.push(ShellCommand::OpenSamplePair.into());
        }
        super::record_panel::record_button(ui);
        loads_ui(ui, m, &mut out);
        super::path_field::path_window(ui.ctx(), m, &mut out);
        super::record_panel::record_window(ui.ctx(), m, &mut out);
        if let Some(status) = &m.scratch.status {
            ui.separator();
            ui.label(status);
        }
    });
    out
}

/// Each load in progress: a bar with its name, and Cancel.
fn loads_ui(ui: &mut egui::Ui, m: &Model<'_>, out: &mut Vec<AppCommand>) {
    for p in &m.jobs.pending {
        ui.separator();
        let bar = egui::ProgressBar::new(p.progress.fraction()).desired_width(180.0);
        ui.add(bar.text(format!("loading {}", session::short_name(&p.name)))).on_hover_text(&p.name);
        if ui.button("Cancel").on_hover_text("Stop loading this file").clicked() {
            out.push(ShellCommand::CancelLoad(p.id).into());
        }
    }
}

fn file_menu(ui: &mut egui::Ui, m: &Model<'_>, out: &mut Vec<AppCommand>) {
    if ui.button("Open…").clicked() {
        ui.close();
        out.extend(open_dialog());
    }
    ui.menu_button("Open recent", |ui| {
        if m.persisted.recent.is_empty() {
            ui.label("no recent files");
        }
        for path in &m.persisted.recent {
            if ui.button(path.display().to_string()).clicked() {
                out.push(ShellCommand::Open(LoadSource::File(path.clone())).into());
                ui.close();
            }
        }
    });
    if ui.button("Open history…").on_hover_text("A history of builds (framescope history add): its scenes and builds; pick two to compare their runs").clicked() {
        ui.close();
        let picked = dialog::show(|| {
            rfd::FileDialog::new().add_filter("framescope history", &["db", "sqlite", "sqlite3"]).pick_file()
        });
        match picked {
            Ok(path) => out.push(ShellCommand::OpenHistory(path).into()),
            Err(why) => out.push(ShellCommand::Status(why).into()),
        }
    }
    examples_menu(ui, out);
    let shown = m.session.selected_run().map(|r| r.id);
    let pcl = ui.add_enabled(shown.is_some(), egui::Button::new("Attach PCL log…"));
    if pcl.on_hover_text("A PCL Stats marker log recorded with the capture shown").clicked() {
        ui.close();
        let picked = dialog::show(|| {
            rfd::FileDialog::new().add_filter("PCL marker logs", &["csv", "log", "txt", "etl"]).pick_file()
        });
        match (picked, shown) {
            (Ok(path), Some(run)) => out.push(ShellCommand::AttachMarkers(run, path).into()),
            (Err(why), _) => out.push(ShellCommand::Status(why).into()),
            (Ok(_), None) => {}
        }
    }
    // A click in the export folder's field must not close the menu: only a click
    // outside does (each export closes it itself).
    let config = egui::containers::menu::MenuConfig::new()
        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
    egui::containers::menu::SubMenuButton::new("Export")
        .config(config)
        .ui(ui, |ui| out.extend(super::export_menu::export_menu(ui, m)));
    watch_menu(ui, m, out);
    super::path_field::live_menu(ui, m, out);
    super::record_panel::record_button(ui);
    if ui.button("Open the sample pair").clicked() {
        ui.close();
        out.push(ShellCommand::OpenSamplePair.into());
    }
    ui.separator();
    if ui.button("Quit").clicked() {
        ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
    }
}

/// File › Open…: the captures picked, or why none.
fn open_dialog() -> Vec<AppCommand> {
    match dialog::show(|| {
        rfd::FileDialog::new()
            .add_filter(
                "frame captures",
                &["csv", "CSV", "json", "hml", "log", "txt", "perfetto-trace", "pftrace", "gz"],
            )
            .add_filter("all files", &["*"])
            .pick_files()
    }) {
        Ok(paths) => paths.into_iter().map(|p| ShellCommand::Open(LoadSource::File(p)).into()).collect(),
        Err(why) => vec![ShellCommand::Status(why).into()],
    }
}

/// File › Open an engine example: the made-up engine captures built in.
fn examples_menu(ui: &mut egui::Ui, out: &mut Vec<AppCommand>) {
    ui.menu_button("Open an engine example", |ui| {
        for (text, name, bytes) in EXAMPLES {
            if ui
                .button(text)
                .on_hover_text("A made-up capture (sample-traces/README.md), built into framescope")
                .clicked()
            {
                out.push(ShellCommand::Open(LoadSource::Embedded(name, bytes)).into());
                ui.close();
            }
        }
    });
}

/// File › Watch folder…: pick a folder, watch the remembered one again, or stop.
fn watch_menu(ui: &mut egui::Ui, m: &Model<'_>, out: &mut Vec<AppCommand>) {
    let help = "Open captures written into a folder from now on, as soon as each has rows, and follow them \
                as they grow (those already there are left alone); pin a set as the baseline to compare each \
                new capture with it";
    if ui.button("Watch folder…").on_hover_text(help).clicked() {
        ui.close();
        out.push(match dialog::show(|| rfd::FileDialog::new().pick_folder()) {
            Ok(dir) => ShellCommand::WatchFolder(dir).into(),
            Err(why) => ShellCommand::Status(why).into(),
        });
    }
    let remembered = &m.persisted.watch_dir;
    let watched = m.jobs.watch.as_ref().map(|w| w.dir.as_path());
    if watched.is_none()
        && !remembered.as_os_str().is_empty()
        && ui.button(format!("Watch {} again", remembered.display())).clicked()
    {
        ui.close();
        out.push(ShellCommand::WatchFolder(remembered.clone()).into());
    }
    if let Some(dir) = watched.map(Path::to_path_buf)
        && ui.button(format!("Stop watching {}", dir.display())).clicked()
    {
        ui.close();
        out.push(ShellCommand::StopWatching.into());
    }
}

fn view_menu(ui: &mut egui::Ui, m: &Model<'_>, out: &mut Vec<AppCommand>) {
    let selection = m.session.has_selection();
    let timeline = |command| m.session.selected_run().map(|r| AppCommand::Timeline { run: r.id, command });
    if ui.button("Show the whole trace (Home)").clicked() {
        out.extend(timeline(Command::ResetView));
        ui.close();
    }
    if ui.add_enabled(selection, egui::Button::new("Zoom to the selection (Z)")).clicked() {
        out.extend(timeline(Command::ZoomToSelection));
        ui.close();
    }
    if ui.add_enabled(selection, egui::Button::new("Clear the selection (Esc)")).clicked() {
        out.extend(timeline(Command::Select(None)));
        ui.close();
    }
    ui.separator();
    let shown = [
        (
            m.scratch.show_runs_panel,
            "Runs and figures panel",
            "The panel on the left; hide it for a wider timeline",
        ),
        (m.scratch.show_charts_panel, "Charts panel", "The panel on the right; hide it for a wider timeline"),
        (m.scratch.show_peers_panel, "As other tools report it", PEERS_HELP),
    ];
    for (k, (on, text, help)) in shown.into_iter().enumerate() {
        let mut on = on;
        if ui.checkbox(&mut on, text).on_hover_text(help).changed() {
            out.push(
                match k {
                    0 => ShellCommand::ShowRunsPanel(on),
                    1 => ShellCommand::ShowChartsPanel(on),
                    _ => ShellCommand::ShowPeersPanel(on),
                }
                .into(),
            );
        }
    }
    ui.menu_button("Rows", |ui| super::rows_menu::rows_menu(ui, m, out))
        .response
        .on_hover_text("Which telemetry rows the timeline shows, in what order (also: right-click a row)");
    ui.separator();
    if ui.button("Keyboard and mouse (H)").clicked() {
        out.push(ShellCommand::ShowHelp(!m.scratch.show_help).into());
        ui.close();
    }
}

/// The live run's frame count, always in view (the figures' count is far down the
/// panel at 1280×720): the shown run's when it is live, else the newest live run's;
/// "complete" once its input ended.
fn live_count_ui(ui: &mut egui::Ui, m: &Model<'_>) {
    let live = m.jobs.live_runs();
    let shown = m.session.selected_run().and_then(|r| live.iter().find(|(n, _)| *n == r.name));
    let Some(&(name, ended)) = shown.or(live.last()) else { return };
    let Some(run) = m.session.runs().iter().rev().find(|r| r.name == name) else { return };
    let frames = run.shown_trace().len();
    let state = if ended { "complete" } else { "live" };
    ui.label(egui::RichText::new(format!("{state}: {frames} frames")).strong())
        .on_hover_text(format!("{}: frames read so far", run.name));
}
