//! The GPU row: the capture's GPU duration column (GPU time, busy or active — the
//! first with values), drawn like the frame row against the target.

use super::draw::DrawList;
use super::duration::{self, Series};
use super::row::{HoverAt, RowContext, Rows, TimelineRow};
use crate::app::row_choice::RowKey;
use framescope_core::lod::ColumnCache;

/// The GPU row.
struct GpuRow<'a> {
    /// The column's name.
    name: &'a str,
    series: Series<'a>,
}

/// Adds the GPU row when the trace has a GPU duration column.
pub fn add<'a>(ctx: &RowContext<'a>, rows: &mut Rows<'a>) {
    let Some((name, col, index)) = ctx.tracks().gpu.as_ref() else { return };
    let shares = ctx.analyzed().map(|a| a.shares.as_ref()).filter(|s| s.budget == ctx.budget);
    let series = Series {
        key: ("gpu", 0),
        values: &ctx.trace().frames.columns[*col].values,
        index,
        shares: shares.and_then(|s| s.gpu.as_ref()),
        scale: ctx.scales().0,
        what: "GPU time",
    };
    rows.push(Box::new(GpuRow { name, series }));
}

impl TimelineRow for GpuRow<'_> {
    fn key(&self) -> RowKey {
        RowKey::Kind("gpu")
    }

    fn height(&self) -> f32 {
        60.0
    }

    fn label(&self, _ctx: &RowContext<'_>) -> String {
        format!("GPU\n{}", self.name)
    }

    fn hint(&self, _ctx: &RowContext<'_>) -> String {
        duration::BARS_HINT.to_owned()
    }

    fn prepare(&self, ctx: &RowContext<'_>, cache: &mut ColumnCache) -> DrawList {
        let mut items = duration::bars(ctx, cache, &self.series, false);
        items.push(duration::budget_line(ctx));
        DrawList { axis: Some(duration::axis(&self.series)), items }
    }

    fn hover(&self, ctx: &RowContext<'_>, at: &HoverAt) -> Vec<String> {
        duration::hover(ctx, &self.series, at)
    }

    fn is_duration(&self) -> bool {
        true
    }
}
