//! Painting the timeline rows. Every row reads per pixel column: the frames under a
//! column and their typical and slowest values come from the LOD ([`framescope_core::lod`]), so
//! a row costs O(width · log n) whatever the trace length.

use super::super::theme;
use super::super::work::Analyzed;
use super::view::TimeView;
use eframe::egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Stroke, pos2, vec2};
use framescope_core::lod::{Budget, ColumnStat, Verdict};
use framescope_core::model::Trace;
use framescope_core::presentation::stages::Stack;
use std::ops::Range;

/// What every row of one frame of the UI shares.
pub struct Frame<'a> {
    /// The trace.
    pub trace: &'a Trace,
    /// The figures, when ready.
    pub analyzed: Option<&'a Analyzed>,
    /// The target frame time and the colours' limits.
    pub budget: Budget,
    /// The visible time range.
    pub view: TimeView,
    /// Where column 0 starts: the track's left edge, or up to a pixel left of it (the
    /// columns sit on a grid of the view's time per pixel).
    pub left: f32,
    /// The track's left edge (where the view's start is).
    pub track_left: f32,
    /// Width of the track area.
    pub width: f32,
    /// For each pixel column, the frames under it.
    pub columns: Vec<Range<usize>>,
}

impl Frame<'_> {
    fn x(&self, t_ms: f64) -> f32 {
        self.view.x_of(t_ms, self.track_left, self.width)
    }

    fn column_x(&self, c: usize) -> f32 {
        self.left + c as f32
    }
}

/// Height of `value` in a row `rect` scaled to `[0, scale]`, clipped to the row.
#[must_use]
pub fn y_of(rect: Rect, value: f64, scale: f64) -> f32 {
    let frac = (value / scale).clamp(0.0, 1.0) as f32;
    rect.bottom() - frac * (rect.height() - 2.0)
}

/// The colour of a verdict.
#[must_use]
pub fn verdict_colour(v: Verdict) -> Color32 {
    match v {
        Verdict::Within => theme::WITHIN_BUDGET,
        Verdict::Over => theme::OVER_BUDGET,
        Verdict::FarOver => theme::FAR_OVER_BUDGET,
    }
}

/// A column's colour: the three budget colours mixed by the share of its time in
/// frames within, over and far over the budget (a single frame gets its own colour);
/// without shares, the colour of its typical frame.
#[must_use]
pub fn column_colour(stat: &ColumnStat, budget: Budget) -> Color32 {
    match stat.over {
        Some((over, far)) => {
            let (ok, over_only) = (1.0 - over, (over - far).max(0.0));
            let mix = |k: fn(Color32) -> u8| {
                let v = ok * f32::from(k(theme::WITHIN_BUDGET))
                    + over_only * f32::from(k(theme::OVER_BUDGET))
                    + far * f32::from(k(theme::FAR_OVER_BUDGET));
                v.round().clamp(0.0, 255.0) as u8
            };
            Color32::from_rgb(mix(|c| c.r()), mix(|c| c.g()), mix(|c| c.b()))
        }
        None => verdict_colour(budget.verdict(stat.typical)),
    }
}

/// Duration bars (frame, GPU, display rows). A column with one frame shows it, coloured
/// against the target (`generated` frames lighter). A zoomed-out column shows its
/// typical frame as the bar, coloured by the share of its time over budget, and its
/// slowest frame as a faint whisker with a mark in that frame's colour, so a spike is
/// never averaged away but a few spikes do not paint a wall. Values above the scale are
/// clipped, with a wider mark on top.
pub fn duration_bars(
    p: &Painter,
    f: &Frame<'_>,
    rect: Rect,
    values: &[f64],
    stats: &[ColumnStat],
    scale: f64,
    generated: bool,
) {
    let types = &f.trace.frames.frame_type;
    for (c, s) in stats.iter().enumerate() {
        let Some(max_i) = s.max.map(|i| i as usize) else { continue };
        let max = values[max_i];
        if !max.is_finite() {
            continue;
        }
        let x = f.column_x(c);
        let top_mark = |colour: Color32| {
            p.rect_filled(
                Rect::from_min_max(pos2(x - 1.0, rect.top()), pos2(x + 2.0, rect.top() + 3.0)),
                0.0,
                colour,
            );
        };
        let max_colour = verdict_colour(f.budget.verdict(max));
        if s.frames <= 1 || !s.typical.is_finite() {
            let is_generated = generated && types.get(max_i).is_some_and(|t| t.is_generated());
            let colour = if is_generated { theme::generated(max_colour) } else { max_colour };
            p.rect_filled(
                Rect::from_min_max(pos2(x, y_of(rect, max, scale)), pos2(x + 1.0, rect.bottom())),
                0.0,
                colour,
            );
            if max > scale {
                top_mark(colour);
            }
            continue;
        }
        let y_typical = y_of(rect, s.typical, scale);
        p.rect_filled(
            Rect::from_min_max(pos2(x, y_typical), pos2(x + 1.0, rect.bottom())),
            0.0,
            column_colour(s, f.budget),
        );
        let y_max = y_of(rect, max, scale);
        if y_typical - y_max >= 1.0 {
            p.rect_filled(Rect::from_min_max(pos2(x, y_max), pos2(x + 1.0, y_typical)), 0.0, theme::WHISKER);
            p.rect_filled(Rect::from_min_max(pos2(x, y_max), pos2(x + 1.0, y_max + 2.0)), 0.0, max_colour);
        }
        if max > scale {
            top_mark(max_colour);
        }
    }
}

/// The target frame time as a line across the row, labelled at its right end.
pub fn target_line(p: &Painter, f: &Frame<'_>, rect: Rect, scale: f64, target_fps: f64) {
    let budget = f.budget.budget_ms;
    if budget >= scale {
        return;
    }
    let y = y_of(rect, budget, scale);
    p.line_segment([pos2(rect.left(), y), pos2(rect.right(), y)], Stroke::new(1.0, theme::TARGET_LINE));
    let text = format!("target {budget:.2} ms · {} FPS", fps_text(target_fps));
    let galley = p.layout_no_wrap(text, FontId::proportional(10.0), theme::TARGET_LINE);
    let size = galley.size();
    // Above the line when there is room, else below it.
    let top = if y - size.y - 1.0 >= rect.top() { y - size.y - 1.0 } else { y + 1.0 };
    let at = pos2(rect.right() - size.x - 6.0, top);
    p.rect_filled(
        Rect::from_min_size(at - vec2(2.0, 0.0), size + vec2(4.0, 0.0)),
        2.0,
        theme::LEGEND_BACKGROUND,
    );
    p.galley(at, galley, theme::TARGET_LINE);
}

/// A rate as the settings show it: whole numbers without decimals.
#[must_use]
pub fn fps_text(fps: f64) -> String {
    if (fps - fps.round()).abs() < 1e-9 { format!("{fps:.0}") } else { format!("{fps:.2}") }
}

/// A vertical axis for a row: its bottom and top values and round ticks between them,
/// as faint lines across the row and values right-aligned against the label column's
/// edge (`unit` after the top one).
pub fn axis(p: &Painter, labels: &Painter, rect: Rect, (lo, hi): (f64, f64), unit: &str) {
    let font = FontId::proportional(9.5);
    let x = rect.left() - 4.0;
    let y = |v: f64| y_of(rect, v - lo, hi - lo);
    let top = if unit.is_empty() { number_text(hi) } else { format!("{} {unit}", number_text(hi)) };
    labels.text(pos2(x, rect.top()), Align2::RIGHT_TOP, top, font.clone(), theme::AXIS_TEXT);
    labels.text(
        pos2(x, rect.bottom()),
        Align2::RIGHT_BOTTOM,
        number_text(lo),
        font.clone(),
        theme::AXIS_TEXT,
    );
    let count = (rect.height() / 24.0).floor().max(1.0) as usize;
    for v in axis_ticks(lo, hi, count) {
        let yv = y(v);
        // Room for the end labels.
        if yv < rect.top() + 14.0 || yv > rect.bottom() - 12.0 {
            continue;
        }
        p.line_segment([pos2(rect.left(), yv), pos2(rect.right(), yv)], Stroke::new(1.0, theme::AXIS_GRID));
        labels.text(pos2(x, yv), Align2::RIGHT_CENTER, number_text(v), font.clone(), theme::AXIS_TEXT);
    }
}

/// Round values from `lo` to `hi` (both included when round), at most about `count`.
#[must_use]
pub fn axis_ticks(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    if !(hi > lo && lo.is_finite() && hi.is_finite()) {
        return vec![lo];
    }
    let step = framescope_core::presentation::axes::nice_step((hi - lo) / count.max(1) as f64);
    let mut out = Vec::new();
    let mut v = (lo / step).ceil() * step;
    while v <= hi + step * 1e-9 && out.len() < 50 {
        out.push(if v.abs() < step * 1e-9 { 0.0 } else { v });
        v += step;
    }
    out
}

/// A tick or hover value with as many decimals as its size needs.
#[must_use]
pub fn number_text(v: f64) -> String {
    let a = v.abs();
    if a >= 1e9 {
        format!("{:.1} G", v / 1e9)
    } else if a >= 1e6 {
        format!("{:.1} M", v / 1e6)
    } else if a >= 1e4 {
        format!("{:.1} k", v / 1e3)
    } else if a >= 100.0 || (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// How strongly a column with `count` marks among `frames` frames is drawn: 1 when
/// every frame is marked, falling by a third per factor of ten down to `floor` — so a
/// zoomed-out column with two stutters in a thousand frames reads as rare, not as a
/// solid wall, yet stays findable. 0 without marks.
#[must_use]
pub fn density(count: u32, frames: u32) -> f32 {
    if count == 0 {
        return 0.0;
    }
    let share = f64::from(count) / f64::from(frames.max(count));
    (1.0 + share.log10() / 3.0).clamp(f64::from(DENSITY_FLOOR), 1.0) as f32
}

/// The least [`density`] of a column with a mark.
pub const DENSITY_FLOOR: f32 = 0.25;

/// Ticks from the bottom of `rect`, one per column with marks, as tall as their
/// [`density`] (a column of one frame: full height).
pub fn density_ticks(p: &Painter, f: &Frame<'_>, rect: Rect, counts: &[u32], colour: Color32) {
    let h = rect.height() - 2.0;
    for (c, (&n, range)) in counts.iter().zip(&f.columns).enumerate() {
        let d = density(n, range.len() as u32);
        if d > 0.0 {
            let x = f.column_x(c);
            let top = rect.bottom() - 1.0 - (h * d).max(2.0);
            let shade = colour.gamma_multiply(0.35 + 0.65 * d);
            p.rect_filled(Rect::from_min_max(pos2(x, top), pos2(x + 1.0, rect.bottom() - 1.0)), 0.0, shade);
        }
    }
}

/// Marks across `rect`, one per column with marks, as opaque as their [`density`].
pub fn density_marks(p: &Painter, f: &Frame<'_>, rect: Rect, counts: &[u32], colour: Color32) {
    for (c, (&n, range)) in counts.iter().zip(&f.columns).enumerate() {
        let d = density(n, range.len() as u32);
        if d > 0.0 {
            let x = f.column_x(c);
            p.rect_filled(
                Rect::from_min_max(pos2(x, rect.top()), pos2(x + 1.0, rect.bottom())),
                0.0,
                colour.gamma_multiply(d),
            );
        }
    }
}

/// Shading of the share of each column's frames that `covered` counts (oscillating
/// frames): translucent in proportion, so a few short stretches stay faint.
pub fn density_shade(p: &Painter, f: &Frame<'_>, rect: Rect, covered: &[u32], colour: Color32) {
    // Neighbouring columns of one strength become one rectangle.
    let mut open: Option<(usize, usize, u8)> = None;
    let fill = |(a, b, level): (usize, usize, u8)| {
        let r = Rect::from_min_max(pos2(f.column_x(a), rect.top()), pos2(f.column_x(b), rect.bottom()));
        p.rect_filled(r, 0.0, colour.gamma_multiply(f32::from(level) / 8.0));
    };
    for (c, (&n, range)) in covered.iter().zip(&f.columns).enumerate() {
        let share = if n == 0 { 0.0 } else { f64::from(n) / range.len().max(1) as f64 };
        // Eight strengths, the faintest for any oscillation at all.
        let level = if n == 0 { 0 } else { (share * 7.0).round() as u8 + 1 };
        open = match open {
            Some((a, _, l)) if l == level => Some((a, c + 1, l)),
            Some(done) => {
                if done.2 > 0 {
                    fill(done);
                }
                Some((c, c + 1, level))
            }
            None => Some((c, c + 1, level)),
        };
    }
    if let Some(done) = open.filter(|o| o.2 > 0) {
        fill(done);
    }
}

/// Stacked latency stages: each column stacks its stages' typical values, with a
/// whisker up to its slowest total, like the duration bars.
pub fn latency(
    p: &Painter,
    f: &Frame<'_>,
    rect: Rect,
    stack: &Stack,
    totals: &[ColumnStat],
    typicals: &[&[f64]],
    scale: f64,
) {
    for (c, s) in totals.iter().enumerate() {
        let Some(i) = s.max.map(|i| i as usize) else { continue };
        let max = stack.total[i];
        if !max.is_finite() {
            continue;
        }
        let x = f.column_x(c);
        let mut acc = 0.0;
        for (k, seg) in stack.segments.iter().enumerate() {
            let v = if s.frames <= 1 { seg.values[i] } else { typicals.get(k).map_or(f64::NAN, |t| t[c]) };
            if !(v.is_finite() && v > 0.0) {
                continue;
            }
            let (y0, y1) = (y_of(rect, acc, scale), y_of(rect, acc + v, scale));
            acc += v;
            let colour = theme::STAGES[k % theme::STAGES.len()];
            p.rect_filled(Rect::from_min_max(pos2(x, y1), pos2(x + 1.0, y0)), 0.0, colour);
        }
        let (y_top, y_max) = (y_of(rect, acc, scale), y_of(rect, max, scale));
        if s.frames > 1 && y_top - y_max >= 1.0 {
            p.rect_filled(Rect::from_min_max(pos2(x, y_max), pos2(x + 1.0, y_top)), 0.0, theme::WHISKER);
            p.rect_filled(
                Rect::from_min_max(pos2(x, y_max), pos2(x + 1.0, y_max + 1.5)),
                0.0,
                theme::TEXT.gamma_multiply(0.8),
            );
        }
    }
}

/// A telemetry column: a line through each column's typical value on the row's axis,
/// and a faint whisker up to its highest.
pub fn telemetry(
    p: &Painter,
    f: &Frame<'_>,
    rect: Rect,
    values: &[f64],
    stats: &[ColumnStat],
    (lo, hi): (f64, f64),
) {
    let mut points: Vec<Pos2> = Vec::with_capacity(stats.len());
    let span = hi - lo;
    for (c, s) in stats.iter().enumerate() {
        let x = f.column_x(c);
        let typical = if s.frames <= 1 { s.max.map_or(f64::NAN, |i| values[i as usize]) } else { s.typical };
        if !typical.is_finite() {
            continue;
        }
        let y = y_of(rect, typical - lo, span);
        if let Some(max) = s.max.map(|i| values[i as usize]).filter(|m| m.is_finite() && s.frames > 1) {
            let y_max = y_of(rect, max - lo, span);
            if y - y_max >= 1.0 {
                p.rect_filled(
                    Rect::from_min_max(pos2(x, y_max), pos2(x + 1.0, y)),
                    0.0,
                    theme::TELEMETRY.gamma_multiply(0.3),
                );
            }
        }
        points.push(pos2(x + 0.5, y));
    }
    if points.len() > 1 {
        p.line(points, Stroke::new(1.5, theme::TELEMETRY));
    } else if let Some(&pt) = points.first() {
        p.circle_filled(pt, 2.0, theme::TELEMETRY);
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

/// The time ruler: ticks at 1/2/5 steps with labels; a label that would run past the
/// right edge ends at its tick instead, or is left out when that overlaps the one before.
pub fn ruler(p: &Painter, f: &Frame<'_>, rect: Rect) {
    let target_px = 110.0;
    let raw = f.view.ms_per_px(f.width) * target_px;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * magnitude).find(|s| *s >= raw).unwrap_or(raw);
    let mut t = (f.view.start_ms / step).ceil() * step;
    let end = f.view.start_ms + f.view.span_ms;
    // Bounded: far from zero, `t + step` can round back to `t` (absurd timestamps).
    let mut ticks = 0;
    let mut previous_end = f32::NEG_INFINITY;
    while t <= end && ticks < 200 && t + step > t {
        ticks += 1;
        let x = f.x(t);
        p.line_segment([pos2(x, rect.bottom() - 6.0), pos2(x, rect.bottom())], Stroke::new(1.0, theme::GRID));
        let galley = p.layout_no_wrap(time_label(t, step), FontId::monospace(11.0), theme::TEXT);
        let w = galley.size().x;
        let left = if x + 3.0 + w <= rect.right() { x + 3.0 } else { x - 3.0 - w };
        if left > previous_end + 4.0 {
            p.galley(pos2(left, rect.top() + 2.0), galley, theme::TEXT);
            previous_end = left + w;
        }
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

/// A swatch and a label, for legends drawn on the timeline: returns the width used.
pub fn key_entry(p: &Painter, at: Pos2, colour: Color32, text: &str, font: &FontId) -> f32 {
    let galley = p.layout_no_wrap(text.to_owned(), font.clone(), theme::TEXT);
    let h = galley.size().y;
    p.rect_filled(Rect::from_min_size(pos2(at.x, at.y + (h - 8.0) / 2.0), vec2(8.0, 8.0)), 1.0, colour);
    let w = galley.size().x;
    p.galley(pos2(at.x + 11.0, at.y), galley, theme::TEXT);
    11.0 + w
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

    #[test]
    fn density_falls_a_third_per_decade() {
        assert!((density(1, 1) - 1.0).abs() < 1e-6);
        assert!((density(10, 100) - 2.0 / 3.0).abs() < 1e-6);
        assert!((density(1, 100) - 1.0 / 3.0).abs() < 1e-6);
        assert!((density(2, 1000) - DENSITY_FLOOR).abs() < 1e-6);
        assert!(density(0, 1000).abs() < f32::EPSILON);
    }

    #[test]
    fn axis_ticks_are_round() {
        assert_eq!(axis_ticks(0.0, 25.0, 3), [0.0, 10.0, 20.0]);
        assert_eq!(axis_ticks(70.0, 80.0, 1), [70.0, 80.0]);
        assert_eq!(axis_ticks(0.0, 100.0, 2), [0.0, 50.0, 100.0]);
        assert_eq!(number_text(16.0), "16");
        assert_eq!(number_text(16.67), "16.7");
        assert_eq!(number_text(5_786_689_536.0), "5.8 G");
    }

    #[test]
    fn a_column_is_coloured_by_its_time_over_budget() {
        let budget = Budget::of_fps(60.0);
        let stat = |over| ColumnStat { typical: 8.0, max: Some(0), frames: 100, over };
        assert_eq!(column_colour(&stat(Some((0.0, 0.0))), budget), theme::WITHIN_BUDGET);
        assert_eq!(column_colour(&stat(Some((1.0, 0.0))), budget), theme::OVER_BUDGET);
        assert_eq!(column_colour(&stat(Some((1.0, 1.0))), budget), theme::FAR_OVER_BUDGET);
        assert_eq!(column_colour(&stat(None), budget), theme::WITHIN_BUDGET);
        // 16.68 ms (a 59.94 Hz display) is on target at 60 FPS; 16.76 ms is not.
        assert_eq!(budget.verdict(1000.0 / 59.94), Verdict::Within);
        assert_eq!(budget.verdict(16.76), Verdict::Over);
        assert_eq!(budget.verdict(33.6), Verdict::FarOver);
    }
}
