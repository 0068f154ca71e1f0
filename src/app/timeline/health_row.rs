//! The health row: one lane per per-frame action (CPU busy, GPU busy, …) with a tick
//! where it spiked (the stutter rule applied to that action), taller where it spiked
//! on more of a column's frames; the lanes' names in the label column.

use super::LABEL_WIDTH;
use super::draw::{Band, ColourClass, DrawList};
use super::row::{HoverAt, RowContext, RowPainter, Rows, TimelineRow};
use super::stutter_row::ticks;
use super::text;
use crate::app::row_choice::RowKey;
use eframe::egui::{Rect, pos2};
use framescope_core::lod::{self, ColumnCache};

/// Height of one lane, and of the header above the first.
const LANE: f32 = 12.0;
const HEADER: f32 = 16.0;

/// The health row.
struct HealthRow<'a> {
    /// Per action, its spike frames.
    spikes: &'a [(String, Vec<u32>)],
}

/// Adds the health row when the figures have per-frame actions.
pub fn add<'a>(ctx: &RowContext<'a>, rows: &mut Rows<'a>) {
    if let Some(a) = ctx.analyzed().filter(|a| !a.marks.spikes.is_empty()) {
        rows.push(Box::new(HealthRow { spikes: &a.marks.spikes }));
    }
}

impl TimelineRow for HealthRow<'_> {
    fn key(&self) -> RowKey {
        RowKey::Kind("health")
    }

    fn height(&self) -> f32 {
        HEADER + LANE * self.spikes.len() as f32 + 4.0
    }

    fn label(&self, _ctx: &RowContext<'_>) -> String {
        "Health: spikes".to_owned()
    }

    fn hint(&self, _ctx: &RowContext<'_>) -> String {
        "\nOne lane per per-frame action: a tick where it spiked (the stutter rule applied to that action), \
         taller where it spiked on more of a column's frames."
            .to_owned()
    }

    fn prepare(&self, _ctx: &RowContext<'_>, cache: &mut ColumnCache) -> DrawList {
        let mut items = Vec::new();
        for (index, (_, spikes)) in self.spikes.iter().enumerate() {
            let counts = cache.counts(("spikes", index), spikes).to_vec();
            let band = Band::Lane { header: HEADER, pitch: LANE, index };
            items.extend(ticks(&counts, &cache.columns, band, ColourClass::Spike));
        }
        DrawList { axis: None, items }
    }

    fn paint(&self, _ctx: &RowContext<'_>, p: &RowPainter<'_>, list: &DrawList) {
        super::draw::paint(&p.target, list);
        let area = p.area();
        for (lane, (name, _)) in self.spikes.iter().enumerate() {
            let top = area.top() + HEADER + LANE * lane as f32;
            let clip = Rect::from_min_max(pos2(p.left, top - 1.0), pos2(area.left() - 2.0, top + LANE));
            let at = pos2(p.left + 8.0, top - 1.0);
            text::draw_line(&p.labels().with_clip_rect(clip), name, at, LABEL_WIDTH - 20.0, 10.0);
        }
    }

    fn hover(&self, ctx: &RowContext<'_>, at: &HoverAt) -> Vec<String> {
        let lane = ((at.y - 1.0 - HEADER) / LANE).floor();
        if lane < 0.0 {
            return Vec::new();
        }
        let Some((name, spikes)) = self.spikes.get(lane as usize) else { return Vec::new() };
        let k = lod::counts(std::slice::from_ref(&at.column), spikes)[0];
        let n = at.column.len();
        vec![format!("{name} spiked on {k} of the {n} {} under this pixel column", ctx.units())]
    }
}
