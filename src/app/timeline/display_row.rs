//! The row under the frame row (and the GPU row): the series the figures do not use —
//! display intervals with the dropped frames marked when the frame row draws present
//! intervals, present intervals ("not analysed") when it draws display intervals.

use super::draw::DrawList;
use super::duration::{self, Series};
use super::row::{HoverAt, RowContext, Rows, TimelineRow};
use crate::app::row_choice::RowKey;
use framescope_core::lod::ColumnCache;

/// The other series' row.
struct OtherSeriesRow<'a> {
    /// True: display intervals; false: present intervals.
    display: bool,
    series: Series<'a>,
}

/// Adds the row of the series the frame row does not draw, when the trace has both.
pub fn add<'a>(ctx: &RowContext<'a>, rows: &mut Rows<'a>) {
    if ctx.displays() {
        rows.push(Box::new(OtherSeriesRow { display: false, series: duration::presents(ctx) }));
    } else if let Some(series) = duration::display(ctx) {
        rows.push(Box::new(OtherSeriesRow { display: true, series }));
    }
}

impl TimelineRow for OtherSeriesRow<'_> {
    fn key(&self) -> RowKey {
        RowKey::Kind(if self.display { "display" } else { "presents" })
    }

    fn height(&self) -> f32 {
        60.0
    }

    fn label(&self, _ctx: &RowContext<'_>) -> String {
        if self.display { "Display\ndropped marked" } else { "Presents\nnot analysed" }.to_owned()
    }

    fn title(&self, _ctx: &RowContext<'_>) -> String {
        if self.display { "Display intervals (dropped frames marked)" } else { "Presents (not analysed)" }
            .to_owned()
    }

    fn hint(&self, _ctx: &RowContext<'_>) -> String {
        let more = if self.display {
            duration::DROPPED_HINT
        } else {
            "\nPresent-to-present intervals; the figures use display intervals."
        };
        format!("{}{more}", duration::BARS_HINT)
    }

    fn prepare(&self, ctx: &RowContext<'_>, cache: &mut ColumnCache) -> DrawList {
        let mut items = duration::bars(ctx, cache, &self.series, false);
        items.push(duration::budget_line(ctx));
        if self.display {
            items.extend(duration::dropped(ctx, cache));
        }
        DrawList { axis: Some(duration::axis(&self.series)), items }
    }

    fn hover(&self, ctx: &RowContext<'_>, at: &HoverAt) -> Vec<String> {
        duration::hover(ctx, &self.series, at)
    }

    fn is_duration(&self) -> bool {
        true
    }
}
