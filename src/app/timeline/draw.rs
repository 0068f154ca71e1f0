//! A row's draw list: what [`TimelineRow::prepare`](super::row::TimelineRow::prepare)
//! gives and `paint` draws. Items sit on pixel columns (0 is the first column of the
//! view) and on the row's own values (ms, °C…), coloured by class; nothing in a
//! [`DrawList`] is an egui type, so preparing a row is plain data in, plain data out.
//! [`paint`] maps values to heights with the row's axis and classes to the theme's
//! colours, and culls what would be less than a pixel.

use super::super::theme;
#[cfg(test)]
use super::shade::density;
pub use super::shade::{DENSITY_FLOOR, colour, column_class, densities, sparse_densities};
use super::text;
use eframe::egui::{Color32, FontId, Mesh, Painter, Rect, Shape, Stroke, pos2, vec2};
use framescope_core::lod::BudgetClass;

/// What a colour means; [`colour`] gives the theme's colour of each.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ColourClass {
    /// A frame against the target budget.
    Budget(BudgetClass),
    /// A generated frame (frame generation) against the budget: a lighter variant.
    Generated(BudgetClass),
    /// A pixel column of many frames: the budget colours mixed by the shares of its
    /// time over the budget and over twice the budget.
    Mixed {
        /// Share of the time over the budget (far over included).
        over: f32,
        /// Share of the time over twice the budget.
        far: f32,
    },
    /// The faint whisker up to a column's slowest frame.
    Whisker,
    /// The mark on top of a latency column's whisker.
    StackTop,
    /// A latency stage (its index in the stack).
    Stage(usize),
    /// A telemetry line.
    Telemetry,
    /// A telemetry column's whisker up to its highest value.
    TelemetryWhisker,
    /// A stutter.
    Stutter,
    /// A stutter inside an oscillating stretch (possibly a false positive).
    StutterInOsc,
    /// An oscillating stretch.
    Oscillating,
    /// A spike of a per-frame action.
    Spike,
    /// A dropped frame.
    Dropped,
    /// The target line of the frame row.
    Target,
    /// The budget's line on the other duration rows (fainter).
    BudgetLine,
    /// CPU busy (the "CPU · GPU" row).
    CpuBusy,
    /// GPU busy (the "CPU · GPU" row).
    GpuBusy,
    /// A frame's CPU interval behind the busy lines.
    FrameInterval,
    /// A column's limiter: the GPU, CPU and neither colours mixed by their shares of
    /// its classified time (`metrics.md` §13; neither takes the rest).
    Limiter {
        /// Share of GPU-limited time.
        gpu: f32,
        /// Share of CPU-limited time.
        cpu: f32,
    },
    /// Animation error.
    AnimationError,
    /// Animation error's whisker to the column's extremes.
    AnimationWhisker,
}

/// [`Item::Tick`]s of `(column, density)` in column order, each density drawn in one of
/// [`TICK_STEPS`] steps: neighbouring columns of one step are one tick.
pub fn ticks(marks: impl IntoIterator<Item = (usize, f32)>, band: Band, colour: ColourClass) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::new();
    for (c, density) in marks {
        let c = c as u32;
        let density = (density * TICK_STEPS).round().max(1.0) / TICK_STEPS;
        if let Some(Item::Tick { to, density: d, .. }) = out.last_mut()
            && *to == c
            && d.to_bits() == density.to_bits()
        {
            *to = c + 1;
            continue;
        }
        out.push(Item::Tick { from: c, to: c + 1, band, density, colour });
    }
    out
}

/// How many strengths a tick is drawn in: a lane is about 8 points tall and a step of
/// opacity 1/64 is under 3 of 255 levels of colour, so no step shows, and a zoomed-out
/// long capture's ticks (a slightly different share of marked frames in every column)
/// become a few long items instead of one per column.
pub const TICK_STEPS: f32 = 64.0;

/// A horizontal part of a row's data area that marks are drawn in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Band {
    /// The whole area.
    Full,
    /// Its lower half.
    LowerHalf,
    /// The bottom this many points.
    Bottom(f32),
    /// Lane `index` of lanes `pitch` tall (2 of them left empty) under a `header`.
    Lane {
        /// Room above the first lane.
        header: f32,
        /// Height of a lane, gap included.
        pitch: f32,
        /// The lane.
        index: usize,
    },
}

/// One thing a row draws.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// Column `col` filled from value `from` up to value `to`.
    Bar {
        /// The pixel column.
        col: u32,
        /// Bottom value.
        from: f64,
        /// Top value.
        to: f64,
        /// Its colour.
        colour: ColourClass,
    },
    /// A whisker in column `col` from value `from` up to value `to`, drawn when at
    /// least a pixel tall, with a `mark` that many points tall at its top.
    Whisker {
        /// The pixel column.
        col: u32,
        /// Bottom value.
        from: f64,
        /// Top value.
        to: f64,
        /// The whisker's colour.
        colour: ColourClass,
        /// The mark at its top and its height.
        mark: Option<(ColourClass, f32)>,
    },
    /// A mark at the top of the area over column `col`: a value above the scale —
    /// wide for a frame of its own (`density` 1), else thin and faint by density, so
    /// that a clipped frame in every column is no solid line.
    Clipped {
        /// The pixel column.
        col: u32,
        /// Its colour.
        colour: ColourClass,
        /// 1 for a column of one frame, else the share of its frames above the scale
        /// as a [`density`].
        density: f32,
    },
    /// A line across the area at `value`, with a label at its right end.
    Level {
        /// Where.
        value: f64,
        /// Its colour.
        colour: ColourClass,
        /// The label, if any.
        label: Option<String>,
    },
    /// A tick up from the bottom of `band` in columns `from..to`, as tall and as opaque
    /// as its `density` ([`density`]): neighbouring columns of one density are one item
    /// ([`ticks`]; a zoomed-out long capture has a mark in every column).
    Tick {
        /// The first pixel column.
        from: u32,
        /// One past the last.
        to: u32,
        /// Where in the row.
        band: Band,
        /// 0–1.
        density: f32,
        /// Its colour.
        colour: ColourClass,
    },
    /// A mark over the whole `band` in column `col`, as opaque as its `density`.
    Mark {
        /// The pixel column.
        col: u32,
        /// Where in the row.
        band: Band,
        /// 0–1.
        density: f32,
        /// Its colour.
        colour: ColourClass,
    },
    /// Columns `from..to` of `band` shaded at strength `level` of 8.
    Shade {
        /// First column.
        from: u32,
        /// One past the last column.
        to: u32,
        /// Where in the row.
        band: Band,
        /// 1–8.
        level: u8,
        /// Its colour.
        colour: ColourClass,
    },
    /// A line through the middle of columns at values, `width` points wide (a dot when
    /// there is one point).
    Line {
        /// (pixel column, value) in column order.
        points: Vec<(u32, f64)>,
        /// Its colour.
        colour: ColourClass,
        /// Its width.
        width: f32,
    },
}

/// A row's vertical axis: values from `lo` (bottom) to `hi` (top).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Axis {
    /// The value at the bottom of the area.
    pub lo: f64,
    /// The value at its top.
    pub hi: f64,
    /// The values' unit ("ms", "°C", or "").
    pub unit: &'static str,
}

/// Everything a row draws in its data area, in drawing order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DrawList {
    /// The row's axis (ticks and values in the label column); items with values need one.
    pub axis: Option<Axis>,
    /// What to draw, first drawn first.
    pub items: Vec<Item>,
}

/// Height of `value` in a row `rect` scaled to `[0, scale]`, clipped to the row.
#[must_use]
pub fn y_of(rect: Rect, value: f64, scale: f64) -> f32 {
    let frac = (value / scale).clamp(0.0, 1.0) as f32;
    rect.bottom() - frac * (rect.height() - 2.0)
}

/// Where a list is drawn: the data painter (clipped to the track), the label cell's
/// painter (the axis' values), the row's data area and the x of column 0.
pub struct Target<'a> {
    /// Draws in the track.
    pub data: &'a Painter,
    /// Draws in the row's label cell.
    pub labels: &'a Painter,
    /// The row's data area.
    pub area: Rect,
    /// The x of pixel column 0 (up to a pixel left of the track).
    pub column_left: f32,
}

impl Target<'_> {
    fn x(&self, col: u32) -> f32 {
        self.column_left + col as f32
    }

    fn band(&self, band: Band) -> Rect {
        let a = self.area;
        match band {
            Band::Full => a,
            Band::LowerHalf => Rect::from_min_max(pos2(a.left(), a.center().y), a.max),
            Band::Bottom(h) => Rect::from_min_max(pos2(a.left(), a.bottom() - h), a.max),
            Band::Lane { header, pitch, index } => {
                let top = a.top() + header + pitch * index as f32;
                Rect::from_min_max(pos2(a.left(), top), pos2(a.right(), top + pitch - 2.0))
            }
        }
    }
}

/// Draws `list`: its axis, then its items in order.
pub fn paint(t: &Target<'_>, list: &DrawList) {
    let (lo, hi) = list.axis.map_or((0.0, 1.0), |a| (a.lo, a.hi));
    if let Some(a) = list.axis {
        text::axis(t.data, t.labels, t.area, (a.lo, a.hi), a.unit);
    }
    let y = |v: f64| y_of(t.area, v - lo, hi - lo);
    let p = t.data;
    // Rectangles go into one mesh, handed to the painter before any line and at the
    // end: a zoomed-out row is thousands of one-pixel rectangles, and one shape each
    // (with the painter's lock and the tessellator's work per shape) made a frame's
    // cost grow with how busy the picture is.
    let mut mesh = Mesh::default();
    mesh.reserve_triangles(list.items.len() * 4);
    mesh.reserve_vertices(list.items.len() * 4);
    let flush = |mesh: &mut Mesh| {
        if !mesh.is_empty() {
            p.add(Shape::mesh(std::mem::take(mesh)));
        }
    };
    for item in &list.items {
        match item {
            Item::Level { value, colour: c, label } => {
                flush(&mut mesh);
                level(p, t.area, y(*value), colour(*c), label.as_deref());
            }
            Item::Line { points, colour: c, width } => {
                flush(&mut mesh);
                let at: Vec<_> = points.iter().map(|&(col, v)| pos2(t.x(col) + 0.5, y(v))).collect();
                if at.len() > 1 {
                    p.line(at, Stroke::new(*width, colour(*c)));
                } else if let Some(&pt) = at.first() {
                    p.circle_filled(pt, 2.0, colour(*c));
                }
            }
            _ => rects(t, item, &y, |r, c| mesh.add_colored_rect(r, c)),
        }
    }
    flush(&mut mesh);
}

/// The rectangles of an item drawn as rectangles, each with its colour, to `fill`.
fn rects(t: &Target<'_>, item: &Item, y: &impl Fn(f64) -> f32, mut fill: impl FnMut(Rect, Color32)) {
    match *item {
        Item::Bar { col, from, to, colour: c } => {
            let x = t.x(col);
            fill(Rect::from_min_max(pos2(x, y(to)), pos2(x + 1.0, y(from))), colour(c));
        }
        Item::Whisker { col, from, to, colour: c, mark } => {
            let (x, y_from, y_to) = (t.x(col), y(from), y(to));
            if y_from - y_to >= 1.0 {
                fill(Rect::from_min_max(pos2(x, y_to), pos2(x + 1.0, y_from)), colour(c));
                if let Some((m, h)) = mark {
                    fill(Rect::from_min_max(pos2(x, y_to), pos2(x + 1.0, y_to + h)), colour(m));
                }
            }
        }
        Item::Clipped { col, colour: c, density } => {
            let (x, top) = (t.x(col), t.area.top());
            if density >= 1.0 {
                fill(Rect::from_min_max(pos2(x - 1.0, top), pos2(x + 2.0, top + 3.0)), colour(c));
            } else {
                // Below the density floor (faded: marks in most columns), fainter still.
                let h = 1.0 + 2.0 * density;
                let opacity = 0.3 * (density / DENSITY_FLOOR).min(1.0) + 0.7 * density;
                fill(
                    Rect::from_min_max(pos2(x, top), pos2(x + 1.0, top + h)),
                    colour(c).gamma_multiply(opacity),
                );
            }
        }
        Item::Tick { from, to, band, density, colour: c } => {
            let r = t.band(band);
            let top = r.bottom() - 1.0 - ((r.height() - 2.0) * density).max(2.0);
            let shade = colour(c).gamma_multiply(0.35 + 0.65 * density);
            fill(Rect::from_min_max(pos2(t.x(from), top), pos2(t.x(to), r.bottom() - 1.0)), shade);
        }
        Item::Mark { col, band, density, colour: c } => {
            let (r, x) = (t.band(band), t.x(col));
            fill(
                Rect::from_min_max(pos2(x, r.top()), pos2(x + 1.0, r.bottom())),
                colour(c).gamma_multiply(density),
            );
        }
        Item::Shade { from, to, band, level, colour: c } => {
            let r = t.band(band);
            let shade = colour(c).gamma_multiply(f32::from(level) / 8.0);
            fill(Rect::from_min_max(pos2(t.x(from), r.top()), pos2(t.x(to), r.bottom())), shade);
        }
        Item::Level { .. } | Item::Line { .. } => {}
    }
}

/// A line across `rect` at `y`, with its label at the right end: above the line when
/// there is room, else below it.
fn level(p: &Painter, rect: Rect, y: f32, colour: Color32, label: Option<&str>) {
    p.line_segment([pos2(rect.left(), y), pos2(rect.right(), y)], Stroke::new(1.0, colour));
    let Some(label) = label else { return };
    let galley = p.layout_no_wrap(label.to_owned(), FontId::proportional(10.0), colour);
    let size = galley.size();
    let top = if y - size.y - 1.0 >= rect.top() { y - size.y - 1.0 } else { y + 1.0 };
    let at = pos2(rect.right() - size.x - 6.0, top);
    p.rect_filled(
        Rect::from_min_size(at - vec2(2.0, 0.0), size + vec2(4.0, 0.0)),
        2.0,
        theme::LEGEND_BACKGROUND,
    );
    p.galley(at, galley, colour);
}

#[cfg(test)]
mod tests {
    use super::*;
    use framescope_core::lod::{Budget, ColumnStat};

    #[test]
    fn density_falls_a_third_per_decade() {
        assert!((density(1, 1) - 1.0).abs() < 1e-6);
        assert!((density(10, 100) - 2.0 / 3.0).abs() < 1e-6);
        assert!((density(1, 100) - 1.0 / 3.0).abs() < 1e-6);
        assert!((density(2, 1000) - DENSITY_FLOOR).abs() < 1e-6);
        assert!(density(0, 1000).abs() < f32::EPSILON);
    }

    #[test]
    fn marks_in_every_column_lose_the_floor() {
        // Ten columns of 1000 frames. One mark in two of them: the floor holds (a rare
        // mark stays visible). One in each: the floor is gone, density(1, 1000) = 0 → the
        // least, 0.01.
        let columns: Vec<std::ops::Range<usize>> = (0..10).map(|c| c * 1000..(c + 1) * 1000).collect();
        let few = [1, 0, 0, 0, 0, 0, 0, 0, 0, 1];
        let d = sparse_densities(&few, &columns);
        assert_eq!(d.len(), 2);
        assert!((d[0].1 - DENSITY_FLOOR * 0.8).abs() < 1e-6, "{d:?}");
        let all = [1; 10];
        assert!(sparse_densities(&all, &columns).iter().all(|&(_, x)| (x - 0.01).abs() < 1e-6));
        // 100 of 1000 frames: 2/3, as before.
        let dense = [100; 10];
        assert!(sparse_densities(&dense, &columns).iter().all(|&(_, x)| (x - 2.0 / 3.0).abs() < 1e-6));
    }

    #[test]
    fn a_column_is_coloured_by_its_time_over_budget() {
        let budget = Budget::of_fps(60.0);
        let stat = |over| ColumnStat { typical: 8.0, max: Some(0), highest: 30.0, frames: 100, over };
        let of = |over| colour(column_class(&stat(over), budget));
        assert_eq!(of(Some((0.0, 0.0))), theme::WITHIN_BUDGET);
        assert_eq!(of(Some((1.0, 0.0))), theme::OVER_BUDGET);
        assert_eq!(of(Some((1.0, 1.0))), theme::FAR_OVER_BUDGET);
        assert_eq!(of(None), theme::WITHIN_BUDGET);
        // Half the time over (none far over): halfway between green and orange.
        let half = of(Some((0.5, 0.0)));
        assert_eq!(half, Color32::from_rgb(151, 170, 80), "(72+230)/2, (170+170)/2, (110+50)/2");
    }
}
