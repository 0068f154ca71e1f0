//! File menu entries for live captures and a typed path: *Follow a capture being
//! written…*, *Save live run as capture…* (the bytes read so far), and *Type a path…*:
//! a small window with a path field and Open, Follow, Watch folder and Save live run
//! here, for systems where no file dialog can appear (the dialogs then only say why in
//! the status line).

use super::Model;
use crate::app::dialog;
use crate::app::session::{AppCommand, ShellCommand};
use crate::app::work::LoadSource;
use eframe::egui;
use std::path::PathBuf;

/// The label of the typed path field (tests find it by this name).
pub const PATH_FIELD: &str = "Path";

/// The live-capture entries and the typed path field of the File menu.
pub fn live_menu(ui: &mut egui::Ui, m: &Model<'_>, out: &mut Vec<AppCommand>) {
    let help = "Open a capture that is still being written (PresentMon, FrameView, MangoHud) as one run that \
                grows as rows arrive";
    if ui.button("Follow a capture being written…").on_hover_text(help).clicked() {
        ui.close();
        out.push(match dialog::show(|| rfd::FileDialog::new().pick_file()) {
            Ok(path) => ShellCommand::Follow(path).into(),
            Err(why) => ShellCommand::Status(why).into(),
        });
    }
    let live = m.session.selected_run().map(|r| r.name.clone()).filter(|n| m.jobs.is_live(n));
    let save = ui.add_enabled(live.is_some(), egui::Button::new("Save live run as capture…"));
    if save.on_hover_text("Write the bytes read so far of the live run shown, as a capture file").clicked() {
        ui.close();
        if let Some(name) = live.clone() {
            out.push(
                match dialog::show(|| rfd::FileDialog::new().set_file_name("live-capture.csv").save_file()) {
                    Ok(path) => ShellCommand::SaveLive { name, path }.into(),
                    Err(why) => ShellCommand::Status(why).into(),
                },
            );
        }
    }
    if ui
        .button("Type a path…")
        .on_hover_text("Open, follow or watch a typed path (where no file dialog can appear)")
        .clicked()
    {
        ui.close();
        ui.ctx().data_mut(|d| d.insert_temp(window_id(), true));
    }
}

/// Where the typed path window keeps whether it is open (its text: `.with("text")`).
/// Closes the typed path window (Esc); whether it was open.
pub fn close(ctx: &egui::Context) -> bool {
    ctx.data_mut(|d| std::mem::replace(d.get_temp_mut_or_default::<bool>(window_id()), false))
}

fn window_id() -> egui::Id {
    egui::Id::NULL.with("framescope typed path")
}

/// The typed path window (File › Type a path…): a path field with Open, Follow, Watch
/// folder and Save live run here.
pub fn path_window(ctx: &egui::Context, m: &Model<'_>, out: &mut Vec<AppCommand>) {
    let mut open = ctx.data(|d| d.get_temp::<bool>(window_id())).unwrap_or(false);
    if !open {
        return;
    }
    let live = m.session.selected_run().map(|r| r.name.clone()).filter(|n| m.jobs.is_live(n));
    let text_id = window_id().with("text");
    let mut text = ctx.data(|d| d.get_temp::<String>(text_id)).unwrap_or_default();
    egui::Window::new("Type a path").open(&mut open).resizable(false).show(ctx, |ui| {
        ui.horizontal(|ui| {
            let label = ui.label(PATH_FIELD);
            let edit =
                egui::TextEdit::singleline(&mut text).hint_text("type a file or folder").desired_width(320.0);
            ui.add(edit).labelled_by(label.id);
        });
        let path = PathBuf::from(text.trim());
        let typed = !text.trim().is_empty();
        ui.horizontal(|ui| {
            if ui.add_enabled(typed, egui::Button::new("Open")).clicked() {
                out.push(ShellCommand::Open(LoadSource::File(path.clone())).into());
            }
            if ui.add_enabled(typed, egui::Button::new("Follow")).clicked() {
                out.push(ShellCommand::Follow(path.clone()).into());
            }
            if ui.add_enabled(typed, egui::Button::new("Watch folder")).clicked() {
                out.push(ShellCommand::WatchFolder(path.clone()).into());
            }
            if ui.add_enabled(typed && live.is_some(), egui::Button::new("Save live run here")).clicked()
                && let Some(name) = live
            {
                out.push(ShellCommand::SaveLive { name, path }.into());
            }
        });
    });
    ctx.data_mut(|d| {
        d.insert_temp(text_id, text);
        d.insert_temp(window_id(), open);
    });
}
