//! Painting the timeline rows. Every row reads per pixel column: the frames under a
//! column come from one binary search, their maximum from the LOD index, so a row
//! costs O(width · log n) whatever the trace length.

use super::super::analysis::{Analyzed, Stack};
use super::super::theme;
use super::view::TimeView;
use crate::model::Trace;
use eframe::egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Stroke, pos2};
use std::ops::Range;

/// What every row of one frame of the UI shares.
pub struct Frame<'a> {
    /// The trace.
    pub trace: &'a Trace,
    /// The figures, when ready.
    pub analyzed: Option<&'a Analyzed>,
    /// The target frame time, ms.
    pub budget_ms: f64,
    /// The visible time range.
    pub view: TimeView,
    /// Left edge and width of the track area.
    pub left: f32,
    /// Width of the track area.
    pub width: f32,
    /// For each pixel column, the frames under it.
    pub columns: Vec<Range<usize>>,
}

impl Frame<'_> {
    fn x(&self, t_ms: f64) -> f32 {
        self.view.x_of(t_ms, self.left, self.width)
    }

    fn column_x(&self, c: usize) -> f32 {
        self.left + c as f32
    }
}

/// Height of `value` in a row `rect` scaled to `scale`, clipped to the row.
fn y_of(rect: Rect, value: f64, scale: f64) -> f32 {
    let frac = (value / scale).clamp(0.0, 1.0) as f32;
    rect.bottom() - frac * (rect.height() - 2.0)
}

/// Duration bars: each column shows its slowest frame, coloured against the target;
/// values above the scale are clipped with a mark on top.
pub fn bars(p: &Painter, f: &Frame<'_>, rect: Rect, values: &[f64], picks: &[Option<u32>], scale: f64) {
    for (c, pick) in picks.iter().enumerate() {
        let Some(i) = *pick else { continue };
        let v = values[i as usize];
        if !v.is_finite() {
            continue;
        }
        let x = f.column_x(c);
        let colour = theme::budget_colour(v, f.budget_ms);
        p.rect_filled(
            Rect::from_min_max(pos2(x, y_of(rect, v, scale)), pos2(x + 1.0, rect.bottom())),
            0.0,
            colour,
        );
        if v > scale {
            p.rect_filled(
                Rect::from_min_max(pos2(x - 1.0, rect.top()), pos2(x + 2.0, rect.top() + 3.0)),
                0.0,
                colour,
            );
        }
    }
    let y = y_of(rect, f.budget_ms, scale);
    if f.budget_ms < scale {
        p.line_segment([pos2(rect.left(), y), pos2(rect.right(), y)], Stroke::new(1.0, theme::TARGET_LINE));
    }
}

/// Repaints, in the lighter colour of generated frames, the bars of [`bars`] whose
/// frame was made by frame generation.
pub fn generated_bars(
    p: &Painter,
    f: &Frame<'_>,
    rect: Rect,
    values: &[f64],
    picks: &[Option<u32>],
    scale: f64,
) {
    let types = &f.trace.frames.frame_type;
    for (c, pick) in picks.iter().enumerate() {
        let Some(i) = pick.map(|i| i as usize) else { continue };
        let v = values[i];
        if !(v.is_finite() && types.get(i).is_some_and(|t| t.is_generated())) {
            continue;
        }
        let x = f.column_x(c);
        let colour = theme::generated(theme::budget_colour(v, f.budget_ms));
        p.rect_filled(
            Rect::from_min_max(pos2(x, y_of(rect, v, scale)), pos2(x + 1.0, rect.bottom())),
            0.0,
            colour,
        );
    }
}

/// The legend of the frame row of a capture with generated frames, top right.
pub fn frame_kinds_legend(p: &Painter, rect: Rect) {
    let font = FontId::proportional(10.0);
    let entries =
        [("application", theme::WITHIN_BUDGET), ("generated", theme::generated(theme::WITHIN_BUDGET))];
    let galleys: Vec<_> = entries
        .iter()
        .map(|(text, _)| p.layout_no_wrap((*text).to_owned(), font.clone(), theme::TEXT))
        .collect();
    let (swatch, gap) = (8.0, 6.0);
    let width: f32 = galleys.iter().map(|g| swatch + 3.0 + g.size().x + gap).sum::<f32>() + gap;
    let height = galleys.iter().map(|g| g.size().y).fold(swatch, f32::max) + 4.0;
    let bg = Rect::from_min_size(
        pos2(rect.right() - width - 4.0, rect.top() + 2.0),
        eframe::egui::vec2(width, height),
    );
    p.rect_filled(bg, 2.0, theme::LEGEND_BACKGROUND);
    let mut x = bg.left() + gap;
    for ((_, colour), galley) in entries.iter().zip(galleys) {
        let mid = bg.center().y;
        p.rect_filled(
            Rect::from_center_size(pos2(x + swatch / 2.0, mid), eframe::egui::vec2(swatch, swatch)),
            1.0,
            *colour,
        );
        x += swatch + 3.0;
        let w = galley.size().x;
        p.galley(pos2(x, mid - galley.size().y / 2.0), galley, theme::TEXT);
        x += w + gap;
    }
}

/// Ticks on every column that holds one of `frames` (ascending trace indices).
pub fn ticks(p: &Painter, f: &Frame<'_>, rect: Rect, frames: &[u32], colour: Color32) {
    for (c, range) in f.columns.iter().enumerate() {
        let first = frames.partition_point(|&i| (i as usize) < range.start);
        if frames.get(first).is_some_and(|&i| (i as usize) < range.end) {
            let x = f.column_x(c);
            p.rect_filled(
                Rect::from_min_max(pos2(x, rect.top() + 1.0), pos2(x + 1.0, rect.bottom() - 1.0)),
                0.0,
                colour,
            );
        }
    }
}

/// Shades `[first, last]` frame runs.
pub fn shade_runs(p: &Painter, f: &Frame<'_>, rect: Rect, runs: &[(u32, u32)], colour: Color32) {
    let (start, ft) = (&f.trace.frames.start_ms, f.trace.frames.spans_ms());
    let visible_from = f.columns.first().map_or(0, |r| r.start) as u32;
    let first = runs.partition_point(|&(_, last)| last < visible_from);
    // Runs that touch the same pixel are merged into one rectangle, so a zoomed-out
    // view of thousands of short runs paints a few hundred rectangles at most.
    let mut open: Option<(f32, f32)> = None;
    let fill = |(x0, x1): (f32, f32)| {
        p.rect_filled(Rect::from_min_max(pos2(x0, rect.top()), pos2(x1, rect.bottom())), 0.0, colour);
    };
    for &(a, b) in &runs[first..] {
        let (Some(&sa), Some(&sb), Some(&fb)) =
            (start.get(a as usize), start.get(b as usize), ft.get(b as usize))
        else {
            break;
        };
        let x0 = f.x(sa).max(rect.left());
        if x0 > rect.right() {
            break;
        }
        let x1 = f.x(sb + fb).min(rect.right()).max(x0 + 1.0);
        open = match open {
            Some((o0, o1)) if x0 <= o1 + 1.0 => Some((o0, o1.max(x1))),
            Some(done) => {
                fill(done);
                Some((x0, x1))
            }
            None => Some((x0, x1)),
        };
    }
    if let Some(last) = open {
        fill(last);
    }
}

/// Stacked latency stages of the slowest frame under each column.
pub fn latency(p: &Painter, f: &Frame<'_>, rect: Rect, stack: &Stack, picks: &[Option<u32>]) {
    let (segments, total, scale) = (&stack.segments, &stack.total, stack.scale_ms);
    for (c, pick) in picks.iter().enumerate() {
        let Some(i) = pick.map(|i| i as usize) else { continue };
        if !total[i].is_finite() {
            continue;
        }
        let x = f.column_x(c);
        let mut acc = 0.0;
        for (k, seg) in segments.iter().enumerate() {
            let v = seg.values[i];
            if !(v.is_finite() && v > 0.0) {
                continue;
            }
            let (y0, y1) = (y_of(rect, acc, scale), y_of(rect, acc + v, scale));
            acc += v;
            let colour = theme::STAGES[k % theme::STAGES.len()];
            p.rect_filled(Rect::from_min_max(pos2(x, y1), pos2(x + 1.0, y0)), 0.0, colour);
        }
    }
}

/// A telemetry column as a line through each column's maximum.
pub fn telemetry(
    p: &Painter,
    f: &Frame<'_>,
    rect: Rect,
    values: &[f64],
    picks: &[Option<u32>],
    lo: f64,
    hi: f64,
) {
    let mut points: Vec<Pos2> = Vec::with_capacity(picks.len());
    for (c, pick) in picks.iter().enumerate() {
        if let Some(v) = pick.map(|i| values[i as usize]).filter(|v| v.is_finite()) {
            points.push(pos2(f.column_x(c), y_of(rect, v - lo, hi - lo)));
        }
    }
    if points.len() > 1 {
        p.line(points, Stroke::new(1.0, theme::TELEMETRY));
    }
}

/// Vertical VSYNC lines over `rect`, when at least 4 px apart.
pub fn vsync(p: &Painter, f: &Frame<'_>, rect: Rect) {
    let Some(v) = f.analyzed.and_then(|a| a.run.vsync) else { return };
    let period = v.period_ms;
    if period.is_nan() || period <= 0.0 || period / f.view.ms_per_px(f.width) < 4.0 {
        return;
    }
    let anchor = v.anchor_ms.unwrap_or(0.0);
    let first = ((f.view.start_ms - anchor) / period).ceil();
    let mut k = first;
    while anchor + k * period <= f.view.start_ms + f.view.span_ms && k - first < 4096.0 {
        let x = f.x(anchor + k * period);
        p.line_segment([pos2(x, rect.top()), pos2(x, rect.bottom())], Stroke::new(1.0, theme::VSYNC));
        k += 1.0;
    }
}

/// The time ruler: ticks at 1/2/5 steps with labels.
pub fn ruler(p: &Painter, f: &Frame<'_>, rect: Rect) {
    let target_px = 110.0;
    let raw = f.view.ms_per_px(f.width) * target_px;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * magnitude).find(|s| *s >= raw).unwrap_or(raw);
    let mut t = (f.view.start_ms / step).ceil() * step;
    let end = f.view.start_ms + f.view.span_ms;
    // Bounded: far from zero, `t + step` can round back to `t` (absurd timestamps).
    let mut ticks = 0;
    while t <= end && ticks < 200 && t + step > t {
        ticks += 1;
        let x = f.x(t);
        p.line_segment([pos2(x, rect.bottom() - 6.0), pos2(x, rect.bottom())], Stroke::new(1.0, theme::GRID));
        p.text(
            pos2(x + 3.0, rect.top() + 2.0),
            Align2::LEFT_TOP,
            time_label(t, step),
            FontId::monospace(11.0),
            theme::TEXT,
        );
        t += step;
    }
}

/// A time label with as many decimals as the tick step needs.
#[must_use]
pub fn time_label(t_ms: f64, step_ms: f64) -> String {
    // A tick at zero may come out as -0.0 from the arithmetic.
    let t_ms = if t_ms.abs() < step_ms * 1e-6 { 0.0 } else { t_ms };
    if step_ms >= 1000.0 {
        format!("{:.0} s", t_ms / 1000.0)
    } else if step_ms >= 1.0 {
        let decimals = if step_ms >= 100.0 {
            1
        } else if step_ms >= 10.0 {
            2
        } else {
            3
        };
        format!("{:.*} s", decimals, t_ms / 1000.0)
    } else {
        format!("{t_ms:.3} ms")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_step() {
        assert_eq!(time_label(12_000.0, 5000.0), "12 s");
        assert_eq!(time_label(1500.0, 500.0), "1.5 s");
        assert_eq!(time_label(1520.0, 20.0), "1.52 s");
        assert_eq!(time_label(1.25, 0.5), "1.250 ms");
        assert_eq!(time_label(-1e-9, 5000.0), "0 s");
    }
}
