//! The frame row: the analysed series (present intervals, or display intervals when
//! the figures use them) against the target, with its line labelled; generated
//! frames lighter, with their key in the label column; dropped frames marked under
//! display intervals.

use super::super::theme;
use super::draw::{ColourClass, DrawList, Item};
use super::duration::{self, Series};
use super::row::{HoverAt, RowContext, RowPainter, Rows, TimelineRow};
use super::text;
use crate::app::row_choice::RowKey;
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
    fn key(&self) -> RowKey {
        RowKey::Kind("frame")
    }

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

#[cfg(test)]
mod tests {
    use super::super::draw::{Band, ColourClass, Item};
    use super::super::row::{RowContext, rows_of};
    use super::super::{Input, RunId, TimeView};
    use crate::app::work::Tracks;
    use framescope_core::analysis::FrameTimeSource;
    use framescope_core::ingest::LoadOptions;
    use framescope_core::lod::{BudgetClass, CacheKey, ColumnCache};
    use framescope_core::model::Trace;
    use std::fmt::Write as _;

    /// Six frames of a PresentMon 2.4 capture: 10, 10, 40, 10, 10, 10 ms.
    fn trace() -> Trace {
        trace_of(&[10.0, 10.0, 40.0, 10.0, 10.0, 10.0])
    }

    /// A PresentMon 2.4 capture of frames `fts` (ms).
    fn trace_of(fts: &[f64]) -> Trace {
        let mut csv = String::from(
            "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,\
             PresentMode,FrameType,TimeInSeconds,MsBetweenPresents\n",
        );
        let mut t = 0.0;
        for &ft in fts {
            t += ft / 1000.0;
            let _ =
                writeln!(csv, "g.exe,7,0x1,DXGI,0,0,0,Hardware: Independent Flip,Application,{t:.6},{ft}");
        }
        let path = std::path::Path::new("six.csv");
        let capture = framescope_core::ingest::load_bytes(path, csv.as_bytes(), LoadOptions::default());
        capture.ok().and_then(|c| c.traces.into_iter().next()).unwrap_or_else(|| panic!("six frames load"))
    }

    /// The frame row's draw list for the given pixel columns: no window, no painter.
    fn prepared(columns: &[std::ops::Range<usize>]) -> Vec<Item> {
        prepared_of(&trace(), columns)
    }

    /// [`prepared`] of `trace`.
    fn prepared_of(trace: &Trace, columns: &[std::ops::Range<usize>]) -> Vec<Item> {
        let trace = trace.clone();
        let tracks = Tracks::new(&trace);
        let input = Input {
            run: RunId(1),
            trace_index: 0,
            generation: 0,
            trace: &trace,
            tracks: &tracks,
            analyzed: None,
            source: FrameTimeSource::Presents,
            target_fps: 60.0,
            view: TimeView::default(),
            selection: None,
            selected_frame: None,
            cursor_ms: None,
            compact: false,
            telemetry_rows: &[],
            height_scale: 1.0,
            row_heights: &[],
            scales: None,
            trim: None,
        };
        let ctx = RowContext::new(&input);
        let rows = rows_of(&ctx);
        let mut cache = ColumnCache::default();
        let key = CacheKey { run: 1, trace: 0, generation: 0, ms_per_column: 1.0, width: 1.0 };
        cache.prepare(key, 0, columns.len(), |_, _| columns.to_vec());
        assert_eq!(rows[0].label(&ctx), "Frame time\npresents");
        rows[0].prepare(&ctx, &mut cache).items
    }

    #[test]
    fn a_column_of_many_frames_is_its_typical_frame_with_a_whisker_to_the_slowest() {
        let items = prepared(std::slice::from_ref(&(0..6)));
        // The median of 10, 10, 40, 10, 10, 10 ms is 10 ms, within a 60 FPS budget
        // (16.67 ms); the slowest, 40 ms, is over twice it (33.5 ms): far over.
        let within = ColourClass::Budget(BudgetClass::Within);
        assert_eq!(items[0], Item::Bar { col: 0, from: 0.0, to: 10.0, colour: within });
        let mark = Some((ColourClass::Budget(BudgetClass::FarOver), 2.0));
        assert_eq!(
            items[1],
            Item::Whisker { col: 0, from: 10.0, to: 40.0, colour: ColourClass::Whisker, mark }
        );
        let target = Item::Level {
            value: 1000.0 / 60.0,
            colour: ColourClass::Target,
            label: Some("target 16.67 ms · 60 FPS".to_owned()),
        };
        assert_eq!(items[2..], [target]);
    }

    /// Issue 40: 1,500 frames of 14 ms with a 40 ms stutter every 150th, in ten
    /// columns of 150 frames — a stutter in every column, 0.67 % of the frames. The
    /// axis tops at p99 × 1.6 = 22.4 ms, under the stutters: every column still gets a
    /// full-strength far-over (red) cap at the top (it used to fade to nothing when
    /// every column had one).
    #[test]
    fn a_rare_stutter_in_every_column_caps_every_column_in_red() {
        let fts: Vec<f64> = (0..1500).map(|i| if i % 150 == 75 { 40.0 } else { 14.0 }).collect();
        let columns: Vec<std::ops::Range<usize>> = (0..10).map(|c| c * 150..(c + 1) * 150).collect();
        let items = prepared_of(&trace_of(&fts), &columns);
        let far = ColourClass::Budget(BudgetClass::FarOver);
        let caps: Vec<(u32, ColourClass, f32)> = items
            .iter()
            .filter_map(|i| match *i {
                Item::Clipped { col, colour, density } => Some((col, colour, density)),
                _ => None,
            })
            .collect();
        assert_eq!(caps, (0..10).map(|c| (c, far, 1.0)).collect::<Vec<_>>());
    }

    #[test]
    fn a_column_of_one_frame_is_that_frame() {
        let items = prepared(&(0..6).map(|i| i..i + 1).collect::<Vec<_>>());
        let bars: Vec<(u32, f64, ColourClass)> = items
            .iter()
            .filter_map(|i| match *i {
                Item::Bar { col, to, colour, .. } => Some((col, to, colour)),
                _ => None,
            })
            .collect();
        let (w, far) = (ColourClass::Budget(BudgetClass::Within), ColourClass::Budget(BudgetClass::FarOver));
        assert_eq!(
            bars,
            [(0, 10.0, w), (1, 10.0, w), (2, 40.0, far), (3, 10.0, w), (4, 10.0, w), (5, 10.0, w)]
        );
        assert!(
            !items
                .iter()
                .any(|i| matches!(i, Item::Whisker { .. } | Item::Mark { band: Band::Bottom(_), .. }))
        );
    }
}
