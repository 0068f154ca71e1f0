//! What the frame-duration rows share (the frame row, the GPU row and the row of the
//! other series): their series, their bars — a column of one frame is that frame,
//! coloured against the target; a zoomed-out column is a bar to its typical frame,
//! coloured by the share of its time over the target, and a faint whisker with a mark
//! up to its slowest — the dropped frames' marks, and the hover of a column.

use super::draw::{self, Axis, Band, ColourClass, Item};
use super::row::{HoverAt, RowContext};
use super::text;
use framescope_core::lod::{BudgetShares, ColumnCache, SeriesIndex, SeriesKey};

/// What the bars of a duration row mean, for the hover of its label.
pub const BARS_HINT: &str = "\nEach pixel column: the bar is its typical (median) frame, coloured by the share \
                             of its time over the target (green: within the target frame time or 0.5 % over \
                             it; orange: over; red: over twice); the faint whisker and its mark reach the \
                             column's slowest frame. Zoomed in far enough, each frame is its own bar.";

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
        let (col, max) = (c as u32, values[max_i]);
        if !max.is_finite() {
            continue;
        }
        let max_class = budget.class(max);
        if s.frames <= 1 || !s.typical.is_finite() {
            let is_generated = generated && types.get(max_i).is_some_and(|t| t.is_generated());
            let colour =
                if is_generated { ColourClass::Generated(max_class) } else { ColourClass::Budget(max_class) };
            out.push(Item::Bar { col, from: 0.0, to: max, colour });
            if max > scale {
                out.push(Item::Clipped { col, colour, density: 1.0 });
            }
            continue;
        }
        out.push(Item::Bar { col, from: 0.0, to: s.typical, colour: draw::column_class(s, budget) });
        // A clipped whisker's mark is the clipped mark (by density), not a mark at the top.
        let mark = (max <= scale).then_some((ColourClass::Budget(max_class), 2.0));
        out.push(Item::Whisker { col, from: s.typical, to: max, colour: ColourClass::Whisker, mark });
        if max > scale {
            let density = clipped_density(s, max);
            out.push(Item::Clipped { col, colour: ColourClass::Budget(max_class), density });
        }
    }
    fade_spread_clips(&mut out, stats.len());
    out
}

/// Clipped marks of many-frame columns fade as the share of the `columns` that have one
/// grows (as `draw::sparse_densities` does for stutters): a few stay plain, one in
/// every column of a million frames (a rare slow frame everywhere) leaves no line
/// along the top of the row. A column of one frame keeps its wide mark.
fn fade_spread_clips(items: &mut [Item], columns: usize) {
    let spread = |d: f32| d < 1.0;
    let clipped =
        items.iter().filter(|i| matches!(i, Item::Clipped { density, .. } if spread(*density))).count();
    let keep = 1.0 - clipped as f32 / columns.max(1) as f32;
    for item in items {
        if let Item::Clipped { density, .. } = item
            && spread(*density)
        {
            *density *= keep;
        }
    }
}

/// How many of a column's frames are above the scale, as a [`draw::density`]: its time
/// far over the target over its slowest frame, at least one frame (a column's time is
/// about its frames times its typical frame; without shares, one frame).
fn clipped_density(s: &framescope_core::lod::ColumnStat, max: f64) -> f32 {
    let frames = s.frames.max(1);
    let far = f64::from(s.over.map_or(0.0, |(_, far)| far));
    let time = f64::from(frames) * s.typical;
    let count = (far * time / max).round().clamp(1.0, f64::from(frames)) as u32;
    draw::density(count, frames).min(0.99)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn clip(col: u32, density: f32) -> Item {
        Item::Clipped { col, colour: ColourClass::Whisker, density }
    }

    fn densities(items: &[Item]) -> Vec<f32> {
        items
            .iter()
            .filter_map(|i| if let Item::Clipped { density, .. } = i { Some(*density) } else { None })
            .collect()
    }

    /// Of 4 columns, 2 have a many-frame clip (density 0.5) and one a single frame's
    /// wide mark: half the columns are clipped, so 0.5 × (1 − 2/4) = 0.25; the wide mark
    /// stays. A clip in every column fades to 0: no line along the top.
    #[test]
    fn clips_in_most_columns_fade() {
        let mut items = vec![clip(0, 0.5), clip(1, 0.5), clip(2, 1.0)];
        fade_spread_clips(&mut items, 4);
        assert_eq!(densities(&items), [0.25, 0.25, 1.0]);
        let mut everywhere: Vec<Item> = (0..4).map(|c| clip(c, 0.4)).collect();
        fade_spread_clips(&mut everywhere, 4);
        assert_eq!(densities(&everywhere), [0.0; 4]);
    }
}
