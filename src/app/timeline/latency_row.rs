//! The latency row: each column stacks its latency stages' typical values (the PCL
//! breakdown when a marker log is attached, else the capture's own stages), with a
//! faint whisker up to its slowest total; the stages' key in the label column.

use super::super::theme;
use super::draw::{Axis, ColourClass, DrawList, Item};
use super::row::{HoverAt, RowContext, RowPainter, Rows, TimelineRow};
use super::text;
use crate::app::row_choice::RowKey;
use eframe::egui::{FontId, pos2};
use framescope_core::lod::{ColumnCache, ColumnStat};
use framescope_core::presentation::Stack;

/// The latency row.
struct LatencyRow<'a> {
    stack: &'a Stack,
    /// True for the PCL breakdown (its own series in the cache).
    pcl: bool,
}

/// Adds the latency row when there are latency stages to show.
pub fn add<'a>(ctx: &RowContext<'a>, rows: &mut Rows<'a>) {
    if let Some(stack) = ctx.latency_stack() {
        let pcl = ctx.analyzed().is_some_and(|a| a.pcl.is_some());
        rows.push(Box::new(LatencyRow { stack, pcl }));
    }
}

/// One column's stack: its stages' typical values (the frame's own for a column of one
/// frame) on top of each other, and a whisker to the slowest total.
fn column(out: &mut Vec<Item>, stack: &Stack, c: usize, s: &ColumnStat, typicals: &[Vec<f64>]) {
    let Some(i) = s.max.map(|i| i as usize) else { return };
    let max = s.highest;
    if !max.is_finite() {
        return;
    }
    let col = c as u32;
    let mut acc = 0.0;
    for (k, seg) in stack.segments.iter().enumerate() {
        let v = if s.frames <= 1 { seg.values[i] } else { typicals.get(k).map_or(f64::NAN, |t| t[c]) };
        if !(v.is_finite() && v > 0.0) {
            continue;
        }
        let to = acc + v;
        out.push(Item::Bar { col, from: acc, to, colour: ColourClass::Stage(k) });
        acc = to;
    }
    if s.frames > 1 {
        let mark = Some((ColourClass::StackTop, 1.5));
        out.push(Item::Whisker { col, from: acc, to: max, colour: ColourClass::Whisker, mark });
    }
}

impl TimelineRow for LatencyRow<'_> {
    fn key(&self) -> RowKey {
        RowKey::Kind("latency")
    }

    fn height(&self) -> f32 {
        80.0
    }

    fn label(&self, _ctx: &RowContext<'_>) -> String {
        self.stack.label.lines().next().unwrap_or("").to_owned()
    }

    fn title(&self, _ctx: &RowContext<'_>) -> String {
        self.stack.label.replace('\n', ": ")
    }

    fn hint(&self, _ctx: &RowContext<'_>) -> String {
        "\nThe stages of the column's typical frame, stacked (colours as in the key); the faint whisker \
         reaches its slowest total."
            .to_owned()
    }

    fn prepare(&self, ctx: &RowContext<'_>, cache: &mut ColumnCache) -> DrawList {
        let stack = self.stack;
        let (stages, totals) = if self.pcl { ("pcl stage", "pcl total") } else { ("stage", "total") };
        let typicals: Vec<Vec<f64>> = stack
            .segments
            .iter()
            .enumerate()
            .map(|(k, seg)| cache.typicals((stages, k), &seg.median, &seg.values).to_vec())
            .collect();
        let stats = cache.stats_by((totals, 0), &stack.index, stack.len(), |i| stack.total(i));
        let mut items = Vec::with_capacity(stats.len() * (stack.segments.len() + 1));
        for (c, s) in stats.iter().enumerate() {
            column(&mut items, stack, c, s, &typicals);
        }
        let shared = ctx.input.scales.map_or(stack.scale_ms, |s| s.latency_ms.max(stack.scale_ms));
        DrawList { axis: Some(Axis { lo: 0.0, hi: text::round_up(shared), unit: "ms" }), items }
    }

    fn paint(&self, _ctx: &RowContext<'_>, p: &RowPainter<'_>, list: &DrawList) {
        super::draw::paint(&p.target, list);
        let font = FontId::proportional(10.0);
        for (k, seg) in self.stack.segments.iter().enumerate() {
            let at = pos2(p.left, p.label_bottom + 2.0 + 13.0 * k as f32);
            text::key_entry(p.labels(), at, theme::STAGES[k % theme::STAGES.len()], seg.name, &font);
        }
    }

    fn hover(&self, _ctx: &RowContext<'_>, at: &HoverAt) -> Vec<String> {
        let Some(i) = at.frame else { return Vec::new() };
        let stack = self.stack;
        let mut out: Vec<String> = stack
            .segments
            .iter()
            .map(|seg| format!("{}: {}", seg.name, text::value_text(seg.values[i], "ms")))
            .collect();
        out.push(format!("total: {}", text::value_text(stack.total(i), "ms")));
        out
    }
}
