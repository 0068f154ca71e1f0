//! The "CPU · GPU" row (`metrics.md` §13): each frame's CPU interval (busy + wait) as a
//! faint bar, its CPU busy and GPU busy as lines against it — GPU busy close to the bar
//! is GPU-bound, both well below it means the frame waited — and a band along the top
//! coloured by the limiter (green GPU, blue CPU, grey neither; a zoomed-out column mixes
//! them by their shares of its time).

use super::super::work::limiter_track::LimiterTrack;
use super::draw::{Axis, Band, ColourClass, DrawList, Item};
use super::row::{HoverAt, RowContext, RowPainter, Rows, TimelineRow};
use super::text;
use crate::app::row_choice::RowKey;
use eframe::egui::{FontId, pos2};
use framescope_core::analysis::Class;
use framescope_core::lod::ColumnCache;

/// The "CPU · GPU" row.
struct CpuGpuRow<'a> {
    track: &'a LimiterTrack,
}

/// Adds the row when the trace has CPU and GPU busy columns.
pub fn add<'a>(ctx: &RowContext<'a>, rows: &mut Rows<'a>) {
    if let Some(track) = ctx.tracks().limiter.as_ref() {
        rows.push(Box::new(CpuGpuRow { track }));
    }
}

/// The band the limiter is drawn in: the top 6 points.
const BAND: Band = Band::Lane { header: 0.0, pitch: 8.0, index: 0 };

/// The keys of the label cell: colour and name.
const KEYS: [(ColourClass, &str); 3] = [
    (ColourClass::GpuBusy, "GPU busy"),
    (ColourClass::CpuBusy, "CPU busy"),
    (ColourClass::FrameInterval, "frame"),
];

/// A class's name for people.
fn class_name(class: Option<Class>) -> &'static str {
    match class {
        Some(Class::Gpu) => "GPU-limited",
        Some(Class::Cpu) => "CPU-limited",
        Some(Class::Neither) => "neither (both waited)",
        None => "not classified",
    }
}

impl TimelineRow for CpuGpuRow<'_> {
    fn key(&self) -> RowKey {
        RowKey::Kind("cpu-gpu")
    }

    fn height(&self) -> f32 {
        90.0
    }

    fn label(&self, _ctx: &RowContext<'_>) -> String {
        "CPU · GPU".to_owned()
    }

    fn title(&self, _ctx: &RowContext<'_>) -> String {
        "CPU · GPU: what limits the frame rate".to_owned()
    }

    fn hint(&self, _ctx: &RowContext<'_>) -> String {
        "\nFaint bar: the frame's CPU interval (busy + wait); lines: CPU busy and GPU busy (typical per pixel \
         column). GPU busy near the bar = GPU-limited; CPU busy near it = CPU-limited; both below = neither \
         (a cap, VSYNC or the display). Top band: the limiter, green GPU, blue CPU, grey neither, mixed by \
         share of time when zoomed out."
            .to_owned()
    }

    fn prepare(&self, ctx: &RowContext<'_>, cache: &mut ColumnCache) -> DrawList {
        let t = self.track;
        let fc = cache.stats(("limiter fc", 0), &t.index[0], &t.fc, None).to_vec();
        let cpu = cache.stats(("limiter cpu", 0), &t.index[1], &t.cpu_busy, None).to_vec();
        let gpu = cache.stats(("limiter gpu", 0), &t.index[2], &t.gpu_busy, None).to_vec();
        // A column's limiter shares: kept, as its statistics are (reading the running
        // sums of a long trace misses the CPU cache).
        let shares = cache
            .pairs(("limiter shares", 0), |r| t.shares(r).map(|[g, c, _]| (g as f32, c as f32)))
            .to_vec();
        let mut items = Vec::with_capacity(fc.len() * 2 + 4);
        let (mut cpu_line, mut gpu_line) = (Vec::new(), Vec::new());
        for c in 0..cache.columns.len() {
            let col = c as u32;
            let typical = |s: &[framescope_core::lod::ColumnStat]| s.get(c).map_or(f64::NAN, |s| s.typical);
            let f = typical(&fc);
            if f.is_finite() && f > 0.0 {
                items.push(Item::Bar { col, from: 0.0, to: f, colour: ColourClass::FrameInterval });
            }
            for (v, line) in [(typical(&cpu), &mut cpu_line), (typical(&gpu), &mut gpu_line)] {
                if v.is_finite() {
                    line.push((col, v));
                }
            }
            if let Some(&Some((gpu, cpu))) = shares.get(c) {
                let colour = ColourClass::Limiter { gpu, cpu };
                items.push(Item::Mark { col, band: BAND, density: 1.0, colour });
            }
        }
        items.push(Item::Line { points: cpu_line, colour: ColourClass::CpuBusy, width: 1.2 });
        items.push(Item::Line { points: gpu_line, colour: ColourClass::GpuBusy, width: 1.2 });
        items.push(super::duration::budget_line(ctx));
        DrawList { axis: Some(Axis { lo: 0.0, hi: text::round_up(t.scale_ms), unit: "ms" }), items }
    }

    fn paint(&self, _ctx: &RowContext<'_>, p: &RowPainter<'_>, list: &DrawList) {
        super::draw::paint(&p.target, list);
        let font = FontId::proportional(10.0);
        for (k, (colour, name)) in KEYS.iter().enumerate() {
            let at = pos2(p.left, p.label_bottom + 2.0 + 13.0 * k as f32);
            text::key_entry(p.labels(), at, super::draw::colour(*colour), name, &font);
        }
    }

    fn hover(&self, _ctx: &RowContext<'_>, at: &HoverAt) -> Vec<String> {
        let t = self.track;
        let mut out = Vec::new();
        if let Some(i) = at.frame.filter(|&i| i < t.fc.len()) {
            out.push(format!(
                "CPU busy {} · GPU busy {} · frame (busy + wait) {}",
                text::value_text(t.cpu_busy[i], "ms"),
                text::value_text(t.gpu_busy[i], "ms"),
                text::value_text(t.fc[i], "ms")
            ));
            out.push(format!("limited by: {}", class_name(t.class[i])));
        }
        if at.column.len() > 1
            && let Some([g, c, n]) = t.shares(at.column.clone())
        {
            out.push(format!(
                "this column ({} frames): GPU {:.0} % · CPU {:.0} % · neither {:.0} % of the time",
                at.column.len(),
                g * 100.0,
                c * 100.0,
                n * 100.0
            ));
        }
        out
    }
}
