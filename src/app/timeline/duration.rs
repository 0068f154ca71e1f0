//! What the frame-duration rows share (the frame row, the GPU row and the row of the
//! other series): their series, their bars — a column of one frame is that frame,
//! coloured against the target; a zoomed-out column is a bar to its typical frame,
//! coloured by the share of its time over the target, and a faint whisker with a mark
//! up to its slowest, capped at the top of the row when the slowest is above the axis
//! (the HTML page's rule, `framescope_core::presentation::column_shape`) — the dropped
//! frames' marks, and the hover of a column.

use super::draw::{self, Axis, Band, ColourClass, Item};
use super::row::{HoverAt, RowContext};
use super::text;
use framescope_core::lod::{BudgetShares, ColumnCache, SeriesIndex, SeriesKey};
use framescope_core::presentation::{Cap, column_shape};

/// What the bars of a duration row mean, for the hover of its label.
pub const BARS_HINT: &str = "\nEach pixel column: the bar is its typical (median) frame, coloured by the share \
                             of its time over the target (green: within the target frame time or 0.5 % over \
                             it; orange: over; red: over twice); the faint whisker and its mark reach the \
                             column's slowest frame (a mark at the top: slower than the axis shows). Zoomed in far enough, each frame is its own bar.";

/// The line the hover of a row drawing display intervals adds.
pub const DROPPED_HINT: &str = "\nMagenta marks at the bottom: dropped frames.";

/// One duration row's series: its name in the cache, values, LOD, shares and scale.
pub struct Series<'a> {
    /// Its name in the column cache.
    pub key: SeriesKey,
    /// A value per frame (ms).
    pub values: &'a [f64],
    /// Its pyramids.
    pub index: &'a SeriesIndex,
    /// Its time over the target, when the shares of the current target are known.
    pub shares: Option<&'a BudgetShares>,
    /// The top of the row's axis (ms).
    pub scale: f64,
    /// What one value is, for hover text ("present interval").
    pub what: &'static str,
}

/// Present intervals.
#[must_use]
pub fn presents<'a>(ctx: &RowContext<'a>) -> Series<'a> {
    let shares = ctx.analyzed().map(|a| a.shares.as_ref()).filter(|s| s.budget == ctx.budget);
    Series {
        key: ("presents", 0),
        values: &ctx.trace().frames.frame_time_ms,
        index: &ctx.tracks().frame_time,
        shares: shares.map(|s| &s.presents),
        scale: ctx.scales().0,
        what: "present interval",
    }
}

/// Display intervals, when the trace has them.
#[must_use]
pub fn display<'a>(ctx: &RowContext<'a>) -> Option<Series<'a>> {
    let shares = ctx.analyzed().map(|a| a.shares.as_ref()).filter(|s| s.budget == ctx.budget);
    ctx.tracks().display.as_ref().map(|index| Series {
        key: ("display", 0),
        values: &ctx.trace().frames.display_ms,
        index,
        shares: shares.and_then(|s| s.display.as_ref()),
        scale: ctx.scales().1,
        what: "display interval",
    })
}

/// The series' axis.
#[must_use]
pub fn axis(series: &Series<'_>) -> Axis {
    Axis { lo: 0.0, hi: series.scale, unit: "ms" }
}

/// The bars of every column, in drawing order (`generated` frames lighter).
pub fn bars(
    ctx: &RowContext<'_>,
    cache: &mut ColumnCache,
    series: &Series<'_>,
    generated: bool,
) -> Vec<Item> {
    let (budget, values, scale) = (ctx.budget, series.values, series.scale);
    let types = &ctx.trace().frames.frame_type;
    let stats = cache.stats(series.key, series.index, values, series.shares);
    let mut out = Vec::with_capacity(stats.len() * 2);
    for (c, s) in stats.iter().enumerate() {
        let Some(max_i) = s.max.map(|i| i as usize) else { continue };
        let (col, max) = (c as u32, s.highest);
        if !max.is_finite() {
            continue;
        }
        // The page's rule (`presentation::column_shape`): a cap above the axis is never
        // faded, so a rare stutter stays visible however far out the view is.
        let shape = column_shape(s.frames as usize, s.typical, max, &budget, scale);
        let cap = |cap: Cap| Item::Clipped { col, colour: ColourClass::Budget(cap.class), density: 1.0 };
        if s.frames <= 1 || !s.typical.is_finite() {
            let is_generated = generated && types.get(max_i).is_some_and(|t| t.is_generated());
            let class = budget.class(max);
            let colour =
                if is_generated { ColourClass::Generated(class) } else { ColourClass::Budget(class) };
            out.push(Item::Bar { col, from: 0.0, to: shape.bar_ms, colour });
            if shape.cap.is_some() {
                out.push(Item::Clipped { col, colour, density: 1.0 });
            }
            continue;
        }
        out.push(Item::Bar { col, from: 0.0, to: shape.bar_ms, colour: draw::column_class(s, budget) });
        let on_scale = shape.cap.filter(|c| !c.off_scale).map(|c| (ColourClass::Budget(c.class), 2.0));
        out.push(Item::Whisker {
            col,
            from: shape.bar_ms,
            to: max,
            colour: ColourClass::Whisker,
            mark: on_scale,
        });
        if let Some(c) = shape.cap.filter(|c| c.off_scale) {
            out.push(cap(c));
        }
    }
    out
}

/// The budget as a faint line (the rows under the frame row).
#[must_use]
pub fn budget_line(ctx: &RowContext<'_>) -> Item {
    Item::Level { value: ctx.budget.budget_ms, colour: ColourClass::BudgetLine, label: None }
}

/// The dropped frames, as marks along the bottom of the row, by density.
pub fn dropped(ctx: &RowContext<'_>, cache: &mut ColumnCache) -> Vec<Item> {
    let counts = cache.counts(("dropped", 0), &ctx.tracks().dropped).to_vec();
    let mark = |(c, density): (usize, f32)| Item::Mark {
        col: c as u32,
        band: Band::Bottom(5.0),
        density,
        colour: ColourClass::Dropped,
    };
    draw::densities(&counts, &cache.columns).filter(|(_, d)| *d > 0.0).map(mark).collect()
}

/// The hover of a duration row: the frame's value, then the column's typical and
/// slowest frames and its time over the target when it holds several.
#[must_use]
pub fn hover(ctx: &RowContext<'_>, series: &Series<'_>, at: &HoverAt) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(i) = at.frame {
        let mut first = series.what.chars();
        let title: String = first.next().map(|c| c.to_ascii_uppercase()).into_iter().chain(first).collect();
        out.push(format!("{title}: {}", text::interval_text(series.values[i])));
    }
    let (range, n) = (at.column.clone(), at.column.len());
    if n > 1 {
        let (values, index) = (series.values, series.index);
        let typical = index.median.typical(values, range.clone(), &mut Vec::new());
        let slowest = index.max.argmax(values, range.clone()).map_or(f64::NAN, |k| values[k]);
        out.push(format!(
            "This pixel column, {n} {}: typical {typical:.2} ms, slowest {slowest:.2} ms",
            ctx.units()
        ));
        if let Some((over, far)) = series.shares.and_then(|sh| sh.share(values, range)) {
            out.push(format!(
                "{:.1} % of its time over the target, {:.1} % over twice the target",
                100.0 * over,
                100.0 * far
            ));
        }
    }
    out
}
