//! The frame row: the analysed series (present intervals, or display intervals when
//! the figures use them) against the target, with its line labelled; generated
//! frames lighter, with their key in the label column; dropped frames marked under
//! display intervals.

use super::super::theme;
use super::draw::{ColourClass, DrawList, Item};
use super::duration::{self, Series};
use super::row::{HoverAt, RowContext, RowPainter, Rows, TimelineRow};
use super::text;
use eframe::egui::{FontId, pos2, vec2};
use framescope_core::lod::ColumnCache;

/// The frame row.
struct FrameRow<'a> {
    series: Series<'a>,
}

/// Adds the frame row (always there).
pub fn add<'a>(ctx: &RowContext<'a>, rows: &mut Rows<'a>) {
    let series = if ctx.displays() { duration::display(ctx) } else { None };
    rows.push(Box::new(FrameRow { series: series.unwrap_or_else(|| duration::presents(ctx)) }));
}

/// "display" or "presents".
fn source(ctx: &RowContext<'_>) -> &'static str {
    if ctx.displays() { "display" } else { "presents" }
}

impl TimelineRow for FrameRow<'_> {
    fn height(&self) -> f32 {
        110.0
    }

    fn label(&self, ctx: &RowContext<'_>) -> String {
        format!("Frame time\n{}", source(ctx))
    }

    fn title(&self, ctx: &RowContext<'_>) -> String {
        format!("Frame time: {} (target {:.2} ms)", source(ctx), 1000.0 / ctx.input.target_fps)
    }

    fn hint(&self, ctx: &RowContext<'_>) -> String {
        let mut text = duration::BARS_HINT.to_owned();
        if ctx.tracks().generated {
            text.push_str(
                "\nLighter bars: generated frames (frame generation); full colour: frames the game rendered.",
            );
        } else if ctx.displays() {
            text.push_str(duration::DROPPED_HINT);
        }
        text
    }

    fn prepare(&self, ctx: &RowContext<'_>, cache: &mut ColumnCache) -> DrawList {
        let s = &self.series;
        let mut items = duration::bars(ctx, cache, s, ctx.tracks().generated);
        let budget = ctx.budget.budget_ms;
        if budget < s.scale {
            let label = format!("target {budget:.2} ms · {} FPS", text::fps_text(ctx.input.target_fps));
            items.push(Item::Level { value: budget, colour: ColourClass::Target, label: Some(label) });
        }
        if ctx.displays() {
            items.extend(duration::dropped(ctx, cache));
        }
        DrawList { axis: Some(duration::axis(s)), items }
    }

    fn paint(&self, ctx: &RowContext<'_>, p: &RowPainter<'_>, list: &DrawList) {
        super::draw::paint(&p.target, list);
        if ctx.tracks().generated {
            let font = FontId::proportional(10.0);
            let at = pos2(p.left, p.label_bottom + 3.0);
            let w = text::key_entry(p.labels(), at, theme::WITHIN_BUDGET, "application", &font);
            let light = theme::generated(theme::WITHIN_BUDGET);
            text::key_entry(p.labels(), at + vec2(w + 6.0, 0.0), light, "generated", &font);
        }
    }

    fn hover(&self, ctx: &RowContext<'_>, at: &HoverAt) -> Vec<String> {
        duration::hover(ctx, &self.series, at)
    }

    fn is_duration(&self) -> bool {
        true
    }

    fn hover_needs_frame(&self) -> bool {
        true
    }
}
