//! File › Record… and the toolbar's Record…: a window to record captures with the
//! capturing tool (MangoHud on Linux, PresentMon on Windows), as `framescope record`
//! does — the command to launch (or, with PresentMon, a running process), the delay,
//! duration, repeats and pause, the folder — with Start and Stop. Each capture opens
//! live as it records; the repeats land in one set, named after the application and
//! the time. The recording runs on a thread of its own (`app::recording`).

use super::Model;
use crate::app::hotkey::{HotkeyState, KEY_NAME};
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
    /// MangoHud's OpenGL hook through dlsym.
    dlsym: bool,
    /// The global hotkey is asked for.
    hotkey: bool,
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
            dlsym: false,
            hotkey: true,
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

    /// Whether Start can start: a command (or, with PresentMon, a process) and a folder.
    fn ready(&self) -> bool {
        let target = if self.mangohud {
            !self.command.trim().is_empty()
        } else {
            !(self.command.trim().is_empty() && self.process.trim().is_empty())
        };
        target && !self.folder.trim().is_empty()
    }
}

/// Starts a recording with the form's settings, remembering the folder and program.
fn start(f: &Form, out: &mut Vec<AppCommand>) {
    let r = request(f);
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

/// The global hotkey: held while the open window asks for it or a recording runs; a
/// press stops the recording under way, or starts one with the window's settings.
fn hotkey(m: &Model<'_>, f: Option<&Form>, open: bool, out: &mut Vec<AppCommand>) {
    let recording = m.jobs.recording.as_ref();
    let want = (open && f.is_some_and(|f| f.hotkey)) || recording.is_some();
    let held = *m.jobs.hotkey.state() != HotkeyState::Off;
    if want != held {
        out.push(ShellCommand::RecordHotkey(want).into());
    }
    if m.jobs.hotkey.take_presses() == 0 {
        return;
    }
    match (recording, f) {
        (Some(r), _) if !r.stopping() => out.push(ShellCommand::StopRecording.into()),
        (None, Some(f)) if open && f.ready() => start(f, out),
        _ => {}
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
    let form_id = window_id().with("form");
    let kept: Option<Form> = ctx.data(|d| d.get_temp(form_id));
    hotkey(m, kept.as_ref(), open, out);
    if !open {
        return;
    }
    let mut f: Form = kept.unwrap_or_else(|| Form::remembered(m));
    let recording = m.jobs.recording.as_ref();
    egui::Window::new("Record").open(&mut open).resizable(false).show(ctx, |ui| {
        ui.add_enabled_ui(recording.is_none(), |ui| form_ui(ui, &mut f, m, out));
        ui.horizontal(|ui| match recording {
            None => {
                let button = ui.add_enabled(f.ready(), egui::Button::new("Start recording"));
                if button.on_disabled_hover_text("Type the command to launch (and the folder)").clicked() {
                    start(&f, out);
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
        hotkey_line(ui, m.jobs.hotkey.state(), f.hotkey);
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

/// What the global hotkey does now, or why there is none.
fn hotkey_line(ui: &mut egui::Ui, state: &HotkeyState, asked: bool) {
    match state {
        HotkeyState::On => {
            ui.label(format!("{KEY_NAME} starts and stops a recording, whichever program has the focus"));
        }
        HotkeyState::Unavailable(why) => {
            ui.colored_label(ui.visuals().warn_fg_color, why.as_str());
        }
        HotkeyState::Off if asked => {
            ui.label(format!("holding {KEY_NAME}…"));
        }
        HotkeyState::Off => {}
    }
}

/// The form's fields.
fn form_ui(ui: &mut egui::Ui, f: &mut Form, m: &Model<'_>, out: &mut Vec<AppCommand>) {
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
        if f.mangohud {
            field(ui, "OpenGL", |ui| {
                ui.checkbox(&mut f.dlsym, "hook through dlsym (mangohud --dlsym)").on_hover_text(
                    "For OpenGL games that load their GL functions themselves; Vulkan games need nothing",
                )
            });
        }
        if !f.mangohud {
            field(ui, "Process", |ui| {
                ui.add(
                    egui::TextEdit::singleline(&mut f.process)
                        .hint_text("game.exe or a PID (instead of a command)"),
                )
            });
            field(ui, "Running processes", |ui| process_picker(ui, f, m, out));
        }
        field(ui, "Folder", |ui| ui.add(egui::TextEdit::singleline(&mut f.folder).desired_width(300.0)));
        field(ui, "Hotkey", |ui| {
            ui.checkbox(&mut f.hotkey, format!("{KEY_NAME}: start and stop from the game (global)")).on_hover_text(
                "Held only while this window is open or a recording runs; not on Wayland without XWayland",
            )
        });
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

/// The running processes to pick the one to capture from (listed off the UI thread
/// when asked, again with Refresh), filtered by what the Process field holds.
fn process_picker(
    ui: &mut egui::Ui,
    f: &mut Form,
    m: &Model<'_>,
    out: &mut Vec<AppCommand>,
) -> egui::Response {
    ui.horizontal(|ui| {
        let picker = match &m.jobs.processes {
            Some(Ok(list)) => {
                let typed = f.process.trim().to_lowercase();
                let matches = |p: &&crate::record::processes::Process| {
                    typed.is_empty() || p.name.to_lowercase().contains(&typed) || typed == p.pid.to_string()
                };
                let shown: Vec<_> = list.iter().filter(matches).take(200).collect();
                let combo = egui::ComboBox::from_id_salt("record_process_pick")
                    .selected_text(format!("pick one of {} processes", shown.len()))
                    .show_ui(ui, |ui| {
                        for p in shown {
                            if ui.selectable_label(false, format!("{} (PID {})", p.name, p.pid)).clicked() {
                                f.process.clone_from(&p.name);
                            }
                        }
                    });
                Some(combo.response)
            }
            Some(Err(why)) => {
                ui.colored_label(ui.visuals().warn_fg_color, why.as_str());
                None
            }
            None => None,
        };
        let label = if m.jobs.processes.is_some() { "Refresh" } else { "List" };
        let button = ui.button(label).on_hover_text("List the running processes, to pick the game");
        if button.clicked() {
            out.push(ShellCommand::ListProcesses.into());
        }
        picker.unwrap_or(button)
    })
    .inner
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
            opengl_dlsym: f.mangohud && f.dlsym,
        },
        mangohud: f.mangohud,
        tool: trimmed(&f.tool).map(PathBuf::from),
        process: if f.mangohud { None } else { trimmed(&f.process) },
    }
}
