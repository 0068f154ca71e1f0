//! Text on the timeline: row labels, the vertical axes' values, legends drawn in the
//! label column, and the numbers the rows and the hover write.

use super::super::theme;
use eframe::egui::{self, Align2, Color32, FontId, Painter, Pos2, Rect, Stroke, pos2, vec2};

/// A vertical axis for a row: its bottom and top values and round ticks between them,
/// as faint lines across the row and values right-aligned against the label column's
/// edge (`unit` after the top one, when it fits), laid out by [`axis_layout`] so that
/// no two values overlap however short the row.
pub fn axis(p: &Painter, labels: &Painter, rect: Rect, (lo, hi): (f64, f64), unit: &str) {
    let font = FontId::proportional(9.5);
    let x = rect.left() - 4.0;
    let layout = axis_layout(lo, hi, rect.height(), AXIS_LABEL_HEIGHT);
    if layout.top {
        let with_unit = if unit.is_empty() { number_text(hi) } else { format!("{} {unit}", number_text(hi)) };
        // A unit that would run into the row's name is left out (the hover names it).
        let galley = labels.layout_no_wrap(with_unit, font.clone(), theme::AXIS_TEXT);
        let galley = if galley.size().x > super::AXIS_WIDTH - 2.0 {
            labels.layout_no_wrap(number_text(hi), font.clone(), theme::AXIS_TEXT)
        } else {
            galley
        };
        labels.galley(pos2(x - galley.size().x, rect.top()), galley, theme::AXIS_TEXT);
    }
    if layout.bottom {
        let at = pos2(x, rect.bottom());
        labels.text(at, Align2::RIGHT_BOTTOM, number_text(lo), font.clone(), theme::AXIS_TEXT);
    }
    for (v, dy) in layout.ticks {
        let yv = rect.top() + dy;
        p.line_segment([pos2(rect.left(), yv), pos2(rect.right(), yv)], Stroke::new(1.0, theme::AXIS_GRID));
        labels.text(pos2(x, yv), Align2::RIGHT_CENTER, number_text(v), font.clone(), theme::AXIS_TEXT);
    }
}

/// The height an axis value takes, points (its font's line, and a little).
pub const AXIS_LABEL_HEIGHT: f32 = 12.0;
/// The least room between two axis values, points.
const AXIS_LABEL_GAP: f32 = 2.0;

/// Where a row's axis values go: the top value (with the unit) at the top when the row
/// is at least most of a line tall, the bottom value at the bottom when there is room
/// for both, and round ticks between them only where their values clear the end
/// values and each other.
#[derive(Debug, Clone, PartialEq)]
pub struct AxisLayout {
    /// The top value is drawn (top-aligned with the area).
    pub top: bool,
    /// The bottom value is drawn (bottom-aligned).
    pub bottom: bool,
    /// The ticks between: each value and its height below the area's top (its label is
    /// centred there).
    pub ticks: Vec<(f64, f32)>,
}

/// The axis values of a row area `height` tall for values `lo` to `hi`, each value
/// `label_h` tall: no two of them overlap.
#[must_use]
pub fn axis_layout(lo: f64, hi: f64, height: f32, label_h: f32) -> AxisLayout {
    let top = height >= label_h * 0.75;
    let bottom = height >= 2.0 * label_h + AXIS_LABEL_GAP;
    let mut ticks = Vec::new();
    if !(bottom && hi > lo) {
        return AxisLayout { top, bottom, ticks };
    }
    // Round ticks about 16 points apart; from the top down, each kept when clear of the
    // one above (the top value first) and of the bottom value.
    let count = (height / 16.0).floor().max(1.0) as usize;
    let mut above = label_h;
    let lowest = height - label_h - AXIS_LABEL_GAP;
    for v in axis_ticks(lo, hi, count).into_iter().rev() {
        let y = (f64::from(height) * (hi - v) / (hi - lo)) as f32;
        let (from, to) = (y - label_h / 2.0, y + label_h / 2.0);
        if v <= lo || v >= hi || from < above + AXIS_LABEL_GAP || to > lowest {
            continue;
        }
        ticks.push((v, y));
        above = to;
    }
    AxisLayout { top, bottom, ticks }
}

/// Round values from `lo` to `hi` (both included when round), at most about `count`.
#[must_use]
pub fn axis_ticks(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    if !(hi > lo && lo.is_finite() && hi.is_finite()) {
        return vec![lo];
    }
    let step = framescope_core::presentation::nice_step((hi - lo) / count.max(1) as f64);
    let mut out = Vec::new();
    let mut v = (lo / step).ceil() * step;
    while v <= hi + step * 1e-9 && out.len() < 50 {
        out.push(if v.abs() < step * 1e-9 { 0.0 } else { v });
        v += step;
    }
    out
}

/// `v` rounded up to a round number (about an eighth of it), for an axis top.
#[must_use]
pub fn round_up(v: f64) -> f64 {
    let step = framescope_core::presentation::nice_step(v / 8.0);
    (v / step).ceil() * step
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

/// A rate as the settings show it: whole numbers without decimals.
#[must_use]
pub fn fps_text(fps: f64) -> String {
    if (fps - fps.round()).abs() < 1e-9 { format!("{fps:.0}") } else { format!("{fps:.2}") }
}

/// " unit", or nothing.
#[must_use]
pub fn unit_suffix(unit: &str) -> String {
    if unit.is_empty() { String::new() } else { format!(" {unit}") }
}

/// "3.142 ms (318.3 FPS)", or "none".
#[must_use]
pub fn interval_text(ms: f64) -> String {
    if ms.is_finite() && ms > 0.0 {
        format!("{ms:.3} ms ({:.1} FPS)", 1000.0 / ms)
    } else {
        "none".to_owned()
    }
}

/// A value with its unit, or "—".
#[must_use]
pub fn value_text(v: f64, unit: &str) -> String {
    if v.is_finite() { format!("{}{}", number_text(v), unit_suffix(unit)) } else { "—".to_owned() }
}

/// A row label: wrapped in `width`, at most two lines — one when the row (`room` high
/// under `at`) has room for one only — cut with "…". Returns its bottom.
pub fn draw_label(p: &Painter, text: &str, at: Pos2, width: f32, room: f32) -> f32 {
    let mut job =
        egui::text::LayoutJob::simple(text.to_owned(), FontId::proportional(12.0), theme::TEXT, width);
    job.wrap.max_rows = if room >= 27.0 { 2 } else { 1 };
    let galley = p.layout_job(job);
    let bottom = at.y + galley.size().y;
    p.galley(at, galley, theme::TEXT);
    bottom
}

/// One line of small text, cut with "…" to `width`.
pub fn draw_line(p: &Painter, text: &str, at: Pos2, width: f32, size: f32) {
    let mut job =
        egui::text::LayoutJob::simple(text.to_owned(), FontId::proportional(size), theme::TEXT, width);
    job.wrap.max_rows = 1;
    job.wrap.break_anywhere = true;
    p.galley(at, p.layout_job(job), theme::TEXT);
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
    fn axis_ticks_are_round() {
        assert_eq!(axis_ticks(0.0, 25.0, 3), [0.0, 10.0, 20.0]);
        assert_eq!(axis_ticks(70.0, 80.0, 1), [70.0, 80.0]);
        assert_eq!(axis_ticks(0.0, 100.0, 2), [0.0, 50.0, 100.0]);
        assert_eq!(number_text(16.0), "16");
        assert_eq!(number_text(16.67), "16.7");
        assert_eq!(number_text(5_786_689_536.0), "5.8 G");
    }

    /// The rows of an axis' values (top, bottom, ticks) on an area `h` tall.
    fn value_rows(l: &AxisLayout, h: f32) -> Vec<(f32, f32)> {
        let lh = AXIS_LABEL_HEIGHT;
        let mut out: Vec<(f32, f32)> = l.ticks.iter().map(|&(_, y)| (y - lh / 2.0, y + lh / 2.0)).collect();
        if l.top {
            out.push((0.0, lh));
        }
        if l.bottom {
            out.push((h - lh, h));
        }
        out
    }

    #[test]
    fn axis_values_never_overlap() {
        // Frame times, latency, °C, %, MB, MHz and a 0–1 ratio, on rows 8 to 200 points.
        let ranges = [
            (0.0, 25.0),
            (0.0, 140.0),
            (70.0, 80.0),
            (0.0, 100.0),
            (0.0, 6000.0),
            (1500.0, 2100.0),
            (0.0, 1.0),
        ];
        for (lo, hi) in ranges {
            for h in 8..=200 {
                let h = h as f32;
                let l = axis_layout(lo, hi, h, AXIS_LABEL_HEIGHT);
                let rows = value_rows(&l, h);
                for (i, a) in rows.iter().enumerate() {
                    for b in &rows[i + 1..] {
                        assert!(a.1 <= b.0 || b.1 <= a.0, "{lo}–{hi} on {h} pt: {a:?} overlaps {b:?}");
                    }
                }
                // Ticks lie inside the area and strictly between the end values.
                assert!(l.ticks.iter().all(|&(v, y)| v > lo && v < hi && y > 0.0 && y < h), "{l:?}");
                assert_eq!(l.top, h >= 9.0, "{h}");
                assert_eq!(l.bottom, h >= 26.0, "{h}");
            }
        }
        // 0–6000 MB on 100 points: ticks every 1000 (6 wanted), at 16.7, 33.3, … points;
        // 5000's value (10.7–22.7) would touch the top value (0–12 and a 2-point gap),
        // 1000's (77.3–89.3) the bottom one (88–100): 4000, 3000 and 2000 remain.
        let l = axis_layout(0.0, 6000.0, 100.0, AXIS_LABEL_HEIGHT);
        assert_eq!(l.ticks.iter().map(|t| t.0).collect::<Vec<_>>(), [4000.0, 3000.0, 2000.0]);
        // A 20-point row: the top value only.
        let short = axis_layout(0.0, 140.0, 20.0, AXIS_LABEL_HEIGHT);
        assert_eq!((short.top, short.bottom, short.ticks.len()), (true, false, 0));
    }

    #[test]
    fn hover_values_name_their_unit() {
        assert_eq!(interval_text(4.0), "4.000 ms (250.0 FPS)");
        assert_eq!(interval_text(f64::NAN), "none");
        assert_eq!(value_text(71.0, "°C"), "71 °C");
        assert_eq!(value_text(f64::NAN, "W"), "—");
        assert_eq!(fps_text(59.94), "59.94");
        assert_eq!(fps_text(60.0), "60");
    }
}
