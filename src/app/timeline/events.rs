//! An engine's labelled events (Unreal's `EVENTS` column, `formats.md` §10) as markers
//! on the timeline: a dashed line down the rows at the start of the event's frame and
//! its label in a flag at the top. Events on one pixel column share a flag; a flag
//! that would cover the one before is left out (zooming in shows it), so thousands of
//! events never make a wall of text.

use super::Track;
use eframe::egui::{Color32, FontId, Painter, Rect, Stroke, pos2, vec2};
use framescope_core::model::Event;

/// The markers' colour.
pub const EVENT: Color32 = Color32::from_rgb(215, 140, 245);
/// The flags' background.
const FLAG: Color32 = Color32::from_rgba_unmultiplied_const(40, 24, 52, 225);
/// Lines drawn at most (events beyond are too dense to tell apart anyway).
const MAX_LINES: usize = 2000;

/// Where each visible event is: (x, the labels of the events on that pixel column).
#[must_use]
pub fn visible(events: &[Event], track: &Track) -> Vec<(f32, Vec<String>)> {
    let (start, end) = (track.view.start_ms, track.view.start_ms + track.view.span_ms);
    let first = events.partition_point(|e| e.time_ms < start);
    let mut out: Vec<(f32, Vec<String>)> = Vec::new();
    for e in events[first..].iter().take_while(|e| e.time_ms <= end) {
        let x = track.x(e.time_ms).round();
        match out.last_mut() {
            Some((last, labels)) if (*last - x).abs() < 1.0 => labels.push(e.label.clone()),
            _ => out.push((x, vec![e.label.clone()])),
        }
        if out.len() >= MAX_LINES {
            break;
        }
    }
    out
}

/// Draws the markers of `events` over `rows` (the rows' area of the track).
pub fn paint(p: &Painter, events: &[Event], track: &Track, rows: Rect) {
    if events.is_empty() {
        return;
    }
    let font = FontId::proportional(11.0);
    // Two lanes of flags: a flag that would cover the one before in the first lane
    // goes below it.
    let mut lane_end = [f32::NEG_INFINITY; 2];
    for (x, labels) in visible(events, track) {
        p.extend(eframe::egui::Shape::dashed_line(
            &[pos2(x, rows.top()), pos2(x, rows.bottom())],
            Stroke::new(1.0, EVENT),
            4.0,
            3.0,
        ));
        let text = labels.join(" · ");
        let galley = p.layout_no_wrap(text, font.clone(), EVENT);
        let size = galley.size() + vec2(8.0, 2.0);
        let left = if x + size.x <= rows.right() { x } else { (x - size.x).max(rows.left()) };
        let Some(lane) = lane_end.iter().position(|&end| left >= end + 4.0) else { continue };
        let flag = Rect::from_min_size(pos2(left, rows.top() + 1.0 + lane as f32 * (size.y + 2.0)), size);
        p.rect_filled(flag, 2.0, FLAG);
        p.galley(flag.left_top() + vec2(4.0, 1.0), galley, EVENT);
        lane_end[lane] = flag.right();
    }
}
