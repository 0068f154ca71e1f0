//! What the timeline's colours, marks and keys mean: the legend strip above the
//! timelines (every colour and mark, explained on hover) and the keyboard and mouse
//! help window.

use crate::app::session::{AppCommand, ShellCommand};
use crate::app::{theme, timeline};
use eframe::egui::{self, RichText};

/// How a legend entry's swatch is drawn.
#[derive(Clone, Copy)]
enum Swatch {
    /// A filled square.
    Fill(egui::Color32),
    /// A bar with a whisker and a mark above it, in these colours.
    Column(egui::Color32, egui::Color32),
    /// A horizontal line.
    HLine(egui::Color32),
    /// A vertical line.
    VLine(egui::Color32),
    /// A short tick from the bottom.
    Tick(egui::Color32),
}

/// A legend entry: its swatch and its text as one widget, so that a line break never
/// parts them; explained by `help` on hover.
fn entry(ui: &mut egui::Ui, kind: Swatch, text: &str, help: &str) {
    let font = egui::TextStyle::Small.resolve(ui.style());
    let colour = ui.visuals().text_color();
    let galley = ui.painter().layout_no_wrap(text.to_owned(), font, colour);
    let size = egui::vec2(15.0 + galley.size().x, galley.size().y.max(12.0));
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, text));
    let square =
        egui::Rect::from_center_size(egui::pos2(rect.left() + 6.0, rect.center().y), egui::vec2(12.0, 12.0));
    swatch(ui.painter(), square, kind);
    let top = rect.center().y - galley.size().y / 2.0;
    ui.painter().galley(egui::pos2(rect.left() + 15.0, top), galley, colour);
    response.on_hover_text(help);
}

/// Draws swatch `kind` in `rect` (12 × 12).
fn swatch(p: &egui::Painter, rect: egui::Rect, kind: Swatch) {
    let c = rect.center();
    match kind {
        Swatch::Fill(colour) => {
            p.rect_filled(rect.shrink(1.0), 1.0, colour);
        }
        Swatch::Column(bar, whisker) => {
            let x = c.x - 1.5;
            p.rect_filled(
                egui::Rect::from_min_max(egui::pos2(x, c.y), egui::pos2(x + 3.0, rect.bottom())),
                0.0,
                bar,
            );
            p.rect_filled(
                egui::Rect::from_min_max(egui::pos2(x + 1.0, rect.top() + 1.0), egui::pos2(x + 2.0, c.y)),
                0.0,
                theme::WHISKER,
            );
            p.rect_filled(
                egui::Rect::from_min_max(egui::pos2(x, rect.top()), egui::pos2(x + 3.0, rect.top() + 2.0)),
                0.0,
                whisker,
            );
        }
        Swatch::HLine(colour) => {
            p.line_segment(
                [egui::pos2(rect.left(), c.y), egui::pos2(rect.right(), c.y)],
                egui::Stroke::new(1.5, colour),
            );
        }
        Swatch::VLine(colour) => {
            p.line_segment(
                [egui::pos2(c.x, rect.top()), egui::pos2(c.x, rect.bottom())],
                egui::Stroke::new(1.5, colour),
            );
        }
        Swatch::Tick(colour) => {
            p.rect_filled(
                egui::Rect::from_min_max(egui::pos2(c.x - 1.0, c.y), egui::pos2(c.x + 1.0, rect.bottom())),
                0.0,
                colour,
            );
        }
    }
}

/// What the timeline's colours and marks mean, as a wrapped strip of swatches, each
/// explained on hover; `generated` adds the generated-frame entry.
pub fn timeline_legend_ui(ui: &mut egui::Ui, generated: bool) {
    let entries: Vec<(Swatch, &str, &str)> = [
        (
            Swatch::Fill(theme::WITHIN_BUDGET),
            "within target (±0.5 %)",
            "A frame no slower than the target frame time, or at most 0.5 % slower: a 59.94 Hz \
             display's 16.68 ms counts as on target at 60 FPS. (The figures use the exact target.)",
        ),
        (Swatch::Fill(theme::OVER_BUDGET), "over target", "A frame slower than the target frame time (+0.5 %)."),
        (Swatch::Fill(theme::FAR_OVER_BUDGET), "over 2× target", "A frame slower than twice the target frame time."),
        (
            Swatch::Column(theme::WITHIN_BUDGET, theme::FAR_OVER_BUDGET),
            "bar: typical frame · whisker: slowest",
            "Zoomed out, a pixel column holds many frames: its bar is their typical (median) frame time, \
             coloured by the share of the column's time in frames within, over and far over the target; \
             the faint whisker and its mark reach the slowest frame. Zoom in on a whisker to find the frame.",
        ),
        (Swatch::HLine(theme::TARGET_LINE), "target", "The target frame time (1000 / target FPS)."),
        (Swatch::Tick(theme::DROPPED), "dropped", "Frames that never reached the screen (under the display intervals)."),
        (
            Swatch::Tick(theme::STUTTER),
            "stutter",
            "A frame more than the threshold and the floor slower than the median of the 19 frames around \
             it (Nsight's rule). Zoomed out, taller where more of a column's frames stutter.",
        ),
        (Swatch::Fill(theme::OSCILLATING), "oscillating", "Stretches where frame times swing between fast and slow (OSC); stutters inside them are drawn faint, as possible false positives."),
        (Swatch::Tick(theme::SPIKE), "health spike", "A per-frame action (CPU busy, GPU busy, time in Present(), …) that spiked on that frame, by the stutter rule."),
        (Swatch::VLine(theme::VSYNC), "VSYNC", "Vertical blanks of the display's refresh rate (detected, or set for the capture), drawn when far enough apart."),
    ]
    .into_iter()
    .collect();
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        ui.label(RichText::new("Legend").small().strong()).on_hover_text("Hover an entry, or a row's name, for what it means.");
        if generated {
            ui.add_space(6.0);
            let help = "A frame made by frame generation (XeSS-FG, DLSS-FG, AFMF): the lighter variant of its \
                        colour, visible when zoomed in to single frames.";
            entry(ui, Swatch::Fill(theme::generated(theme::WITHIN_BUDGET)), "generated frame", help);
        }
        for (kind, text, help) in entries {
            ui.add_space(6.0);
            entry(ui, kind, text, help);
        }
    });
}

/// The keyboard and mouse help window, while `open`; closing it asks to hide it.
pub fn help_ui(ctx: &egui::Context, open: bool) -> Vec<AppCommand> {
    let mut still_open = open;
    let centre = ctx.content_rect().center();
    let window = egui::Window::new("Keyboard and mouse").open(&mut still_open).resizable(false);
    window.default_pos(centre - egui::vec2(200.0, 160.0)).show(ctx, |ui| {
        egui::Grid::new("help").num_columns(2).show(ui, |ui| {
            for (keys, action) in timeline::HELP {
                ui.label(RichText::new(keys).strong());
                ui.label(action);
                ui.end_row();
            }
        });
    });
    if still_open == open { Vec::new() } else { vec![ShellCommand::ShowHelp(still_open).into()] }
}
