//! What is drawn over the rows: VSYNC lines across the frame-duration rows, the
//! trimmed parts shaded with their draggable edges, the time selection, the linked
//! cursor and the selected frame.

use super::super::theme;
use super::super::work::Analyzed;
use super::{Input, RULER_HEIGHT, Track};
use eframe::egui::{Painter, Rect, Stroke, StrokeKind, pos2, vec2};

/// Vertical VSYNC lines over `rect`, when at least 4 px apart.
pub fn vsync(p: &Painter, analyzed: Option<&Analyzed>, track: &Track, rect: Rect) {
    let Some(v) = analyzed.and_then(|a| a.run.vsync) else { return };
    let (view, period) = (track.view, v.period_ms);
    if period.is_nan() || period <= 0.0 || period / view.ms_per_px(track.width) < 4.0 {
        return;
    }
    let anchor = v.anchor_ms.unwrap_or(0.0);
    let first = ((view.start_ms - anchor) / period).ceil();
    let mut k = first;
    while anchor + k * period <= view.start_ms + view.span_ms && k - first < 4096.0 {
        let x = track.x(anchor + k * period);
        p.line_segment([pos2(x, rect.top()), pos2(x, rect.bottom())], Stroke::new(1.0, theme::VSYNC));
        k += 1.0;
    }
}

/// The trim's shading and edges (with a grip in the ruler), the selection, the cursor
/// and the selected frame, over the whole track (`track_rect`, ruler included).
pub fn paint(p: &Painter, input: &Input<'_>, track: &Track, track_rect: Rect) {
    let x = |ms: f64| track.x(ms);
    if let Some(t) = input.trim {
        trim(p, t, track, track_rect);
    }
    if let Some((a, b)) = input.selection {
        let x0 = x(a.min(b)).max(track_rect.left());
        let x1 = x(a.max(b)).min(track_rect.right());
        if x1 > x0 {
            let r = Rect::from_min_max(pos2(x0, track_rect.top()), pos2(x1, track_rect.bottom()));
            p.rect_filled(r, 0.0, theme::SELECTION);
        }
    }
    if let Some(t) = input.cursor_ms {
        let xc = x(t);
        if xc >= track_rect.left() && xc <= track_rect.right() {
            let line = [pos2(xc, track_rect.top()), pos2(xc, track_rect.bottom())];
            p.line_segment(line, Stroke::new(1.0, theme::CURSOR));
        }
    }
    if let Some(i) = input.selected_frame.filter(|&i| i < input.trace.len()) {
        let f = &input.trace.frames;
        let x0 = x(f.start_ms[i]);
        let x1 = x(f.start_ms[i] + f.span_ms(i)).max(x0 + 2.0);
        let r = Rect::from_min_max(pos2(x0, track_rect.top() + RULER_HEIGHT), pos2(x1, track_rect.bottom()));
        p.rect_stroke(r, 0.0, Stroke::new(1.5, theme::SELECTED_FRAME), StrokeKind::Outside);
    }
}

/// The trimmed parts shaded below the ruler, and each trimmed edge as a line with a
/// grip in the ruler.
fn trim(p: &Painter, t: super::TrimEdges, track: &Track, r: Rect) {
    let x = |ms: f64| track.x(ms).clamp(r.left(), r.right());
    let top = r.top() + RULER_HEIGHT;
    for (a, b, edge) in [(t.first_ms, t.from_ms, t.from_ms), (t.to_ms, t.last_ms, t.to_ms)] {
        if b <= a {
            continue;
        }
        let (x0, x1) = (x(a), x(b));
        if x1 > x0 {
            p.rect_filled(Rect::from_min_max(pos2(x0, top), pos2(x1, r.bottom())), 0.0, theme::TRIMMED);
        }
        let xe = track.x(edge);
        if xe >= r.left() && xe <= r.right() {
            p.line_segment([pos2(xe, top), pos2(xe, r.bottom())], Stroke::new(2.0, theme::TRIM_EDGE));
            let grip =
                Rect::from_center_size(pos2(xe, r.top() + RULER_HEIGHT / 2.0), vec2(6.0, RULER_HEIGHT - 6.0));
            p.rect_filled(grip, 2.0, theme::TRIM_EDGE);
        }
    }
}
