//! The details strip above the timelines (where the eye is, never below the fold of
//! the left panel): the selected frame in one line — time, its frame time in the
//! analysed series, the other series, the GPU time, stutter, what spiked — and the
//! time selection's key figures. The left panel still lists every column of the frame.

use super::Model;
use super::stutters::clock;
use crate::app::session::OpenRun;
use crate::app::work::navigation::spiked;
use eframe::egui::{self, RichText};
use framescope_core::analysis::FrameTimeSource;

/// The strip: always two lines (a frame clicked or a range selected never moves the
/// timeline under the pointer): the selected frame, and the time selection's figures
/// (the first shown run's), each cut to the width with the whole text on hover.
pub fn details_strip_ui(ui: &mut egui::Ui, m: &Model<'_>) {
    let frame = frame_line(m).unwrap_or_else(|| "none — click a frame on the timeline".to_owned());
    line(ui, "Selected frame", &frame);
    let selection = m.session.shown_runs().into_iter().find_map(|run| selection_line(m, run));
    let selection =
        selection.unwrap_or_else(|| "none — drag on the ruler (or Shift + drag) to select".to_owned());
    line(ui, "Selected range", &selection);
}

/// One line of the strip: its name, then the text on one line.
fn line(ui: &mut egui::Ui, name: &str, text: &str) {
    ui.horizontal(|ui| {
        ui.label(RichText::new(name).strong());
        ui.add(egui::Label::new(text).truncate()).on_hover_text(text);
    });
}

/// The key figures of a time selection (`section.name`).
const SELECTION_FIGURES: [&str; 4] =
    ["summary.avg_fps", "summary.low_1pct_fps", "summary.p99_ms", "stutters.count"];

/// Run `run`'s time selection and its key figures, when there is one.
fn selection_line(m: &Model<'_>, run: &OpenRun) -> Option<String> {
    let s = m.session;
    let range = s.selection_of(run.id)?;
    let (a, b) = (range.0.min(range.1), range.0.max(range.1));
    let figures = run.selection_run(&m.run_settings(run.id), m.run_trim(run.id), range).map_or_else(
        || "computing…".to_owned(),
        |r| match &r.summary {
            Some(_) => {
                // Names, units and decimals are the registry's, as in the figures panel.
                let parts: Vec<String> = SELECTION_FIGURES
                    .iter()
                    .filter_map(|q| framescope_core::figures::figure(q))
                    .map(|f| {
                        format!(
                            "{} {}",
                            f.title,
                            (f.value)(r).map_or_else(|| "—".to_owned(), |v| f.format(v))
                        )
                    })
                    .collect();
                format!("{} frames · {}", r.frames, parts.join(" · "))
            }
            None => "no frames".to_owned(),
        },
    );
    let name = if s.comparing() { format!("{}: ", run.label) } else { String::new() };
    Some(format!("{name}{} – {}: {figures}", clock(a), clock(b)))
}

/// The selected frame in one line.
fn frame_line(m: &Model<'_>) -> Option<String> {
    let (r, i) = m.session.selected_frame()?;
    let run = m.session.run(r)?;
    let f = &run.shown_trace().frames;
    if i >= f.frame_time_ms.len() {
        return None;
    }
    let analysed = run.analyzed().map(|a| a.prepared.source);
    let ms = |v: f64| if v.is_finite() { format!("{v:.2} ms") } else { "—".to_owned() };
    let mut parts =
        vec![format!("{} (line {}) at {}", i, f.line.get(i).unwrap_or_default(), clock(f.start_ms[i]))];
    if analysed == Some(FrameTimeSource::Display) {
        parts.push(format!("frame time {} (display, analysed)", ms(f.display(i))));
        parts.push(format!("present interval {}", ms(f.frame_time_ms[i])));
    } else {
        parts.push(format!("frame time {} (presents, analysed)", ms(f.frame_time_ms[i])));
        if f.display(i).is_finite() {
            parts.push(format!("display {}", ms(f.display(i))));
        }
    }
    if let Some((name, column, _)) = run.tracks().and_then(|t| t.gpu.as_ref()) {
        parts.push(format!("{name} {}", ms(f.columns[*column].values.at(i))));
    }
    if f.is_dropped(i) {
        parts.push("dropped".to_owned());
    }
    if let Some(marks) = run.analyzed().map(|a| &a.marks) {
        let idx = i as u32;
        if marks.stutters.binary_search(&idx).is_ok() {
            parts.push("stutter".to_owned());
        }
        let what = spiked(&marks.spikes, idx);
        if !what.is_empty() {
            parts.push(format!("spiked: {}", what.join(", ")));
        }
    }
    Some(parts.join(" · "))
}
