//! The animation-error row (`metrics.md` §13, PresentMon 2.x `MsAnimationError`): how far
//! each frame's animation time strays from when it is shown, signed around a 0 line.
//! A zoomed-out column draws its typical value as a bar from 0 and a faint whisker from
//! its most negative to its most positive frame.

use super::super::work::limiter_track::AnimationTrack;
use super::draw::{Axis, ColourClass, DrawList, Item};
use super::row::{HoverAt, RowContext, Rows, TimelineRow};
use super::text;
use crate::app::row_choice::RowKey;
use framescope_core::lod::ColumnCache;

/// The animation-error row.
struct AnimationRow<'a> {
    track: &'a AnimationTrack,
}

/// Adds the row when the trace has animation-error values.
pub fn add<'a>(ctx: &RowContext<'a>, rows: &mut Rows<'a>) {
    if let Some(track) = ctx.tracks().animation.as_ref() {
        rows.push(Box::new(AnimationRow { track }));
    }
}

impl TimelineRow for AnimationRow<'_> {
    fn key(&self) -> RowKey {
        RowKey::Kind("animation")
    }

    fn height(&self) -> f32 {
        70.0
    }

    fn label(&self, _ctx: &RowContext<'_>) -> String {
        "Animation\nerror".to_owned()
    }

    fn hint(&self, _ctx: &RowContext<'_>) -> String {
        "\nMsAnimationError: how far the simulation advanced for a frame minus how far the display advanced \
         (0 = motion shown at the pace it was simulated; ±1 ms and more reads as judder). Bar: the typical \
         value per pixel column; faint whisker: its most negative to its most positive frame."
            .to_owned()
    }

    fn prepare(&self, _ctx: &RowContext<'_>, cache: &mut ColumnCache) -> DrawList {
        let t = self.track;
        let stats = cache.stats_by(("animation error", 0), &t.index, t.len(), |i| t.at(i)).to_vec();
        let mut items = Vec::with_capacity(stats.len() * 2 + 1);
        for (c, (s, range)) in stats.iter().zip(&cache.columns).enumerate() {
            let col = c as u32;
            let high = s.highest;
            let low = t.lowest(range.clone()).map_or(f64::NAN, |i| t.at(i));
            if s.frames > 1 && high.is_finite() && low.is_finite() {
                items.push(Item::Whisker {
                    col,
                    from: low,
                    to: high,
                    colour: ColourClass::AnimationWhisker,
                    mark: None,
                });
            }
            let v = if s.frames <= 1 { s.max.map_or(f64::NAN, |i| t.at(i as usize)) } else { s.typical };
            if v.is_finite() && v != 0.0 {
                items.push(Item::Bar {
                    col,
                    from: v.min(0.0),
                    to: v.max(0.0),
                    colour: ColourClass::AnimationError,
                });
            }
        }
        items.push(Item::Level { value: 0.0, colour: ColourClass::BudgetLine, label: None });
        let half = text::round_up(t.scale_ms);
        DrawList { axis: Some(Axis { lo: -half, hi: half, unit: "ms" }), items }
    }

    fn hover(&self, _ctx: &RowContext<'_>, at: &HoverAt) -> Vec<String> {
        let t = self.track;
        let mut out = Vec::new();
        if let Some(i) = at.frame.filter(|&i| i < t.len()) {
            out.push(format!("animation error {}", text::value_text(t.at(i), "ms")));
        }
        if at.column.len() > 1 {
            let low = t.lowest(at.column.clone()).map(|i| t.at(i));
            let high = t.highest(at.column.clone()).map(|i| t.at(i));
            if let (Some(lo), Some(hi)) = (low, high) {
                out.push(format!(
                    "this column: {} to {}",
                    text::value_text(lo, "ms"),
                    text::value_text(hi, "ms")
                ));
            }
        }
        out
    }
}
