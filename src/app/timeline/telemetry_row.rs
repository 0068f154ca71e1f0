//! The telemetry rows (GPU power, clock, temperature, utilisation…; left out of the
//! compact timelines of a comparison): a line through each column's typical value on
//! the row's round axis, a faint whisker up to its highest, and the values' range
//! under the name.

use super::super::work::TelemetryTrack;
use super::draw::{Axis, ColourClass, DrawList, Item};
use super::row::{HoverAt, RowContext, RowPainter, Rows, TimelineRow};
use super::{AXIS_WIDTH, LABEL_WIDTH, text};
use crate::app::row_choice::RowKey;
use eframe::egui::pos2;
use framescope_core::lod::ColumnCache;

/// One telemetry row (also the PC latency row, under its own name in the cache).
pub struct TelemetryRow<'a> {
    /// Its name in the cache: ("telemetry", its index among the tracks' telemetry).
    pub key: (&'static str, usize),
    /// The track.
    pub track: &'a TelemetryTrack,
    /// The column's values.
    pub values: &'a [f64],
}

/// Adds the telemetry rows the user chose, in order, unless the timeline is compact.
pub fn add<'a>(ctx: &RowContext<'a>, rows: &mut Rows<'a>) {
    if ctx.input.compact {
        return;
    }
    let all = &ctx.tracks().telemetry;
    for &index in ctx.input.telemetry_rows {
        let Some(track) = all.get(index) else { continue };
        let values: &[f64] = &ctx.trace().frames.columns[track.column].values;
        rows.push(Box::new(TelemetryRow { key: ("telemetry", index), track, values }));
    }
}

impl TimelineRow for TelemetryRow<'_> {
    fn key(&self) -> RowKey {
        self.telemetry_index().map_or(RowKey::Kind("pc-latency"), RowKey::Telemetry)
    }

    fn height(&self) -> f32 {
        52.0
    }

    fn label(&self, _ctx: &RowContext<'_>) -> String {
        self.track.name.clone()
    }

    fn title(&self, _ctx: &RowContext<'_>) -> String {
        let tt = self.track;
        format!("{}{}", tt.name, if tt.unit.is_empty() { String::new() } else { format!(" ({})", tt.unit) })
    }

    fn hint(&self, _ctx: &RowContext<'_>) -> String {
        let tt = self.track;
        format!(
            "\nLine: the typical (median) value per pixel column; faint whisker: the highest. Axis {} to {}{}; \
             values {} to {}.",
            text::number_text(tt.axis.0),
            text::number_text(tt.axis.1),
            text::unit_suffix(tt.unit),
            text::number_text(tt.min),
            text::number_text(tt.max),
        )
    }

    fn prepare(&self, _ctx: &RowContext<'_>, cache: &mut ColumnCache) -> DrawList {
        let (tt, values) = (self.track, self.values);
        let stats = cache.stats(self.key, &tt.index, values, None);
        let mut items = Vec::new();
        let mut points = Vec::with_capacity(stats.len());
        for (c, s) in stats.iter().enumerate() {
            let col = c as u32;
            let typical =
                if s.frames <= 1 { s.max.map_or(f64::NAN, |i| values[i as usize]) } else { s.typical };
            if !typical.is_finite() {
                continue;
            }
            if let Some(max) = s.max.map(|_| s.highest).filter(|m| m.is_finite() && s.frames > 1) {
                let colour = ColourClass::TelemetryWhisker;
                items.push(Item::Whisker { col, from: typical, to: max, colour, mark: None });
            }
            points.push((col, typical));
        }
        items.push(Item::Line { points, colour: ColourClass::Telemetry, width: 1.5 });
        DrawList { axis: Some(Axis { lo: tt.axis.0, hi: tt.axis.1, unit: tt.unit }), items }
    }

    fn paint(&self, _ctx: &RowContext<'_>, p: &RowPainter<'_>, list: &DrawList) {
        super::draw::paint(&p.target, list);
        let tt = self.track;
        let (lo, hi) = (text::number_text(tt.min), text::number_text(tt.max));
        let range = format!("{lo} – {hi}{}", text::unit_suffix(tt.unit));
        let at = pos2(p.left, p.label_bottom + 1.0);
        text::draw_line(p.labels(), &range, at, LABEL_WIDTH - 12.0 - AXIS_WIDTH, 10.0);
    }

    fn telemetry_index(&self) -> Option<usize> {
        (self.key.0 == "telemetry").then_some(self.key.1)
    }

    fn hover(&self, ctx: &RowContext<'_>, at: &HoverAt) -> Vec<String> {
        let (tt, values) = (self.track, self.values);
        let mut out = Vec::new();
        if let Some(i) = at.frame {
            out.push(format!("{}: {}", tt.name, text::value_text(values[i], tt.unit)));
        }
        let n = at.column.len();
        if n > 1 {
            let typical = tt.index.median.typical(values, at.column.clone(), &mut Vec::new());
            let highest = tt.index.max.argmax(values, at.column.clone()).map_or(f64::NAN, |k| values[k]);
            out.push(format!(
                "This pixel column, {n} {}: typical {}, highest {}",
                ctx.units(),
                text::value_text(typical, tt.unit),
                text::value_text(highest, tt.unit)
            ));
        }
        out
    }
}
