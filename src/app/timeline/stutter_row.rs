//! The stutter row: stutters (Nsight's rule) as ticks, taller where more of a column's
//! frames stutter; oscillating stretches shaded, darker where more frames oscillate;
//! stutters inside them faint and short (possible false positives, `metrics.md` §5).

use super::draw::{self, Band, ColourClass, DrawList, Item};
use super::row::{HoverAt, RowContext, Rows, TimelineRow};
use crate::app::row_choice::RowKey;
use framescope_core::lod::{self, ColumnCache};
use std::ops::Range;

/// The stutter row.
struct StutterRow;

/// Adds the stutter row (always there; empty until the figures arrive).
pub fn add<'a>(_ctx: &RowContext<'a>, rows: &mut Rows<'a>) {
    rows.push(Box::new(StutterRow));
}

/// A tick per column with marks, by density (sparse: marks in every column are a thin
/// faint line, not a band).
pub fn ticks(counts: &[u32], columns: &[Range<usize>], band: Band, colour: ColourClass) -> Vec<Item> {
    draw::ticks(draw::sparse_densities(counts, columns), band, colour)
}

/// Shading of the share of each column's frames that `covered` counts (oscillating
/// frames): eight strengths, the faintest for any oscillation at all; neighbouring
/// columns of one strength are one item.
fn shade(covered: &[u32], columns: &[Range<usize>], colour: ColourClass) -> Vec<Item> {
    let mut out = Vec::new();
    let mut open: Option<(usize, usize, u8)> = None;
    let mut close = |(a, b, level): (usize, usize, u8)| {
        if level > 0 {
            out.push(Item::Shade { from: a as u32, to: b as u32, band: Band::Full, level, colour });
        }
    };
    for (c, (&n, range)) in covered.iter().zip(columns).enumerate() {
        let share = if n == 0 { 0.0 } else { f64::from(n) / range.len().max(1) as f64 };
        let level = if n == 0 { 0 } else { (share * 7.0).round() as u8 + 1 };
        open = match open {
            Some((a, _, l)) if l == level => Some((a, c + 1, l)),
            Some(done) => {
                close(done);
                Some((c, c + 1, level))
            }
            None => Some((c, c + 1, level)),
        };
    }
    if let Some(done) = open {
        close(done);
    }
    out
}

impl TimelineRow for StutterRow {
    fn key(&self) -> RowKey {
        RowKey::Kind("stutters")
    }

    fn height(&self) -> f32 {
        26.0
    }

    fn label(&self, ctx: &RowContext<'_>) -> String {
        if ctx.trace().is_sampled() {
            return "Stutters: sampled log".to_owned();
        }
        let osc = ctx.analyzed().and_then(|a| a.run.osc.as_ref()).is_some_and(|o| o.flag);
        if osc { "Stutters · OSC" } else { "Stutters" }.to_owned()
    }

    fn hint(&self, _ctx: &RowContext<'_>) -> String {
        "\nRed ticks: stutters (Nsight's rule), taller where more of a column's frames stutter. Shaded: \
         oscillating stretches, darker where more frames oscillate; faint short ticks: stutters inside \
         them, possibly false positives."
            .to_owned()
    }

    fn prepare(&self, ctx: &RowContext<'_>, cache: &mut ColumnCache) -> DrawList {
        let Some(a) = ctx.analyzed() else { return DrawList::default() };
        let m = &a.marks;
        let covered = cache.covered(("oscillating", 0), &m.oscillating, &m.oscillating_prefix).to_vec();
        let mut items = shade(&covered, &cache.columns, ColourClass::Oscillating);
        let (clear, oscillating) = &m.stutters_by_osc;
        let in_osc = cache.counts(("stutters in oscillation", 0), oscillating).to_vec();
        items.extend(ticks(&in_osc, &cache.columns, Band::LowerHalf, ColourClass::StutterInOsc));
        let counts = cache.counts(("stutters", 0), clear).to_vec();
        // The page's rule: a column with a stutter is marked plainly, however many
        // frames it holds (one in a million-frame column stays visible).
        let strength =
            |(c, &n): (usize, &u32)| (n > 0).then(|| (c, framescope_core::presentation::stutter_strength(n)));
        items.extend(draw::ticks(
            counts.iter().enumerate().filter_map(strength),
            Band::Full,
            ColourClass::Stutter,
        ));
        DrawList { axis: None, items }
    }

    fn hover(&self, ctx: &RowContext<'_>, at: &HoverAt) -> Vec<String> {
        let n = at.column.len();
        match ctx.analyzed() {
            Some(a) if n > 1 => {
                let k = lod::counts(std::slice::from_ref(&at.column), &a.marks.stutters)[0];
                vec![format!("{k} stutters among the {n} {} under this pixel column", ctx.units())]
            }
            _ => Vec::new(),
        }
    }
}
