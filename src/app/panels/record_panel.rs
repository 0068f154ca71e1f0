//! File › Record… and the toolbar's Record…: a window to record captures with the
//! capturing tool (MangoHud on Linux, PresentMon on Windows), as `framescope record`
//! does — the command to launch (or, with PresentMon, a running process), the delay,
//! duration, repeats and pause, the folder — with Start and Stop. Each capture opens
//! live as it records; the repeats land in one set, named after the application and
//! the time. The recording runs on a thread of its own (`app::recording`).

use super::Model;
use crate::app::session::{AppCommand, RecordRequest, ShellCommand};
use crate::record::Plan;
use eframe::egui;
use std::ffi::OsString;
use std::path::PathBuf;

/// The form's fields, kept in egui's memory while the window lives.
#[derive(Debug, Clone)]
struct Form {
    command: String,
    process: String,
    folder: String,
    tool: String,
    delay: f64,
    duration: f64,
    repeat: u32,
    pause: f64,
    mangohud: bool,
}

impl Default for Form {
    fn default() -> Self {
        let home = std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE"));
        let folder = home.map(|h| PathBuf::from(h).join("Documents").join("framescope"));
        Self {
            command: String::new(),
            process: String::new(),
            folder: folder.map(|f| f.display().to_string()).unwrap_or_default(),
            tool: String::new(),
            delay: 0.0,
            duration: 60.0,
            repeat: 1,
            pause: 0.0,
            mangohud: !cfg!(windows),
        }
    }
}

impl Form {
    /// The form as last used: the folder and tool's program the settings remember.
    fn remembered(m: &Model<'_>) -> Self {
        let mut f = Self::default();
        let p = m.persisted;
        if !p.record_dir.as_os_str().is_empty() {
            f.folder = p.record_dir.display().to_string();
        }
        let program = if f.mangohud { &p.mangohud_program } else { &p.presentmon_program };
        f.tool = program.display().to_string();
        f
    }
}

/// Closes the Record window (Esc); whether it was open.
pub fn close(ctx: &egui::Context) -> bool {
    ctx.data_mut(|d| std::mem::replace(d.get_temp_mut_or_default::<bool>(window_id()), false))
}

fn window_id() -> egui::Id {
    egui::Id::NULL.with("framescope record window")
}

/// The File menu's and the toolbar's entry: opens the window.
pub fn record_button(ui: &mut egui::Ui) {
    let help = "Record captures of a game with MangoHud (Linux) or PresentMon (Windows): each opens live as it \
                records, and the repeats land in one set";
    if ui.button("Record…").on_hover_text(help).clicked() {
        ui.close();
        ui.ctx().data_mut(|d| d.insert_temp(window_id(), true));
    }
}

/// Labels a field (tests find the fields by these names).
fn field(ui: &mut egui::Ui, name: &str, add: impl FnOnce(&mut egui::Ui) -> egui::Response) {
    let label = ui.label(name);
    add(ui).labelled_by(label.id);
    ui.end_row();
}

/// The Record window, when open.
pub fn record_window(ctx: &egui::Context, m: &Model<'_>, out: &mut Vec<AppCommand>) {
    let mut open = ctx.data(|d| d.get_temp::<bool>(window_id())).unwrap_or(false);
    if !open {
        return;
    }
    let form_id = window_id().with("form");
    let mut f: Form = ctx.data(|d| d.get_temp(form_id)).unwrap_or_else(|| Form::remembered(m));
    let recording = m.jobs.recording.as_ref();
    egui::Window::new("Record").open(&mut open).resizable(false).show(ctx, |ui| {
        ui.add_enabled_ui(recording.is_none(), |ui| form_ui(ui, &mut f));
        ui.horizontal(|ui| match recording {
            None => {
                let ready = if f.mangohud { !f.command.trim().is_empty() } else { !(f.command.trim().is_empty() && f.process.trim().is_empty()) };
                let start = ui.add_enabled(ready && !f.folder.trim().is_empty(), egui::Button::new("Start recording"));
                if start.on_disabled_hover_text("Type the command to launch (and the folder)").clicked() {
                    let r = request(&f);
                    // Remembered (absolute paths only) for the next time.
                    let absolute = |p: &std::path::Path| {
                        std::path::absolute(p).ok().filter(|_| !p.as_os_str().is_empty()).unwrap_or_default()
                    };
                    out.push(AppCommand::RecordSettings {
                        dir: absolute(&r.plan.out_dir),
                        mangohud: r.mangohud,
                        program: r.tool.as_deref().map(absolute).unwrap_or_default(),
                    });
                    out.push(ShellCommand::StartRecording(Box::new(r)).into());
                }
            }
            Some(r) => {
                let stop = ui.add_enabled(!r.stopping(), egui::Button::new("Stop recording"));
                if stop.on_hover_text("End the capture now; what it recorded is kept").clicked() {
                    out.push(ShellCommand::StopRecording.into());
                }
                ui.spinner();
                ui.label(format!("recording {}", r.what));
            }
        });
        ui.label(
            egui::RichText::new(if f.mangohud {
                "MangoHud logs every frame (log_interval=0); it counts whole seconds and starts 1 s after the \
                 launch at the earliest. Install it with your package manager (e.g. sudo apt install mangohud)."
            } else {
                "PresentMon (not shipped: github.com/GameTechDev/PresentMon/releases) needs administrator rights \
                 or the Performance Log Users group."
            })
            .small()
            .weak(),
        );
    });
    ctx.data_mut(|d| {
        d.insert_temp(form_id, f);
        d.insert_temp(window_id(), open);
    });
}

/// The form's fields.
fn form_ui(ui: &mut egui::Ui, f: &mut Form) {
    egui::Grid::new("record_form").num_columns(2).show(ui, |ui| {
        field(ui, "Tool", |ui| {
            ui.horizontal(|ui| {
                ui.radio_value(&mut f.mangohud, true, "MangoHud");
                ui.radio_value(&mut f.mangohud, false, "PresentMon");
            })
            .response
        });
        field(ui, "Command", |ui| {
            ui.add(
                egui::TextEdit::singleline(&mut f.command)
                    .hint_text("./game --arg (split at spaces)")
                    .desired_width(300.0),
            )
        });
        if !f.mangohud {
            field(ui, "Process", |ui| {
                ui.add(
                    egui::TextEdit::singleline(&mut f.process)
                        .hint_text("game.exe or a PID (instead of a command)"),
                )
            });
        }
        field(ui, "Folder", |ui| ui.add(egui::TextEdit::singleline(&mut f.folder).desired_width(300.0)));
        field(ui, "Tool program", |ui| {
            ui.add(
                egui::TextEdit::singleline(&mut f.tool)
                    .hint_text("found on PATH when empty")
                    .desired_width(300.0),
            )
        });
        field(ui, "Delay (s)", |ui| ui.add(egui::DragValue::new(&mut f.delay).range(0.0..=3600.0)));
        field(ui, "Duration (s)", |ui| ui.add(egui::DragValue::new(&mut f.duration).range(1.0..=86_400.0)));
        field(ui, "Repeat", |ui| ui.add(egui::DragValue::new(&mut f.repeat).range(1..=100)));
        field(ui, "Pause (s)", |ui| ui.add(egui::DragValue::new(&mut f.pause).range(0.0..=3600.0)));
    });
}

/// The form as a request.
fn request(f: &Form) -> RecordRequest {
    let trimmed = |s: &str| Some(s.trim().to_owned()).filter(|s| !s.is_empty());
    RecordRequest {
        plan: Plan {
            command: f.command.split_whitespace().map(OsString::from).collect(),
            out_dir: PathBuf::from(f.folder.trim()),
            delay_s: f.delay,
            duration_s: Some(f.duration),
            repeat: f.repeat.max(1),
            pause_s: f.pause,
        },
        mangohud: f.mangohud,
        tool: trimmed(&f.tool).map(PathBuf::from),
        process: if f.mangohud { None } else { trimmed(&f.process) },
    }
}
