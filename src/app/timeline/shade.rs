//! How the timeline shades what it draws: a column's colour from its class against the
//! budget (within, over, over twice, a mix when zoomed out) and how strongly a column of
//! marks is drawn from its share of marked frames. Re-exported by [`draw`](super::draw).

use super::super::theme;
use super::draw::ColourClass;
use eframe::egui::Color32;
use framescope_core::lod::{BudgetClass, ColumnStat};

/// How strongly a column with `count` marks among `frames` frames is drawn: 1 when
/// every frame is marked, falling by a third per factor of ten down to `floor` — so a
/// zoomed-out column with two stutters in a thousand frames reads as rare, not as a
/// solid wall, yet stays findable. 0 without marks.
#[must_use]
pub fn density(count: u32, frames: u32) -> f32 {
    if count == 0 {
        return 0.0;
    }
    let share = f64::from(count) / f64::from(frames.max(count));
    (1.0 + share.log10() / 3.0).clamp(f64::from(DENSITY_FLOOR), 1.0) as f32
}

/// The [`density`] of each column's `counts` of marks among its frames, by column.
pub fn densities<'a>(
    counts: &'a [u32],
    columns: &'a [std::ops::Range<usize>],
) -> impl Iterator<Item = (usize, f32)> + 'a {
    counts.iter().zip(columns).map(|(&n, range)| density(n, range.len() as u32)).enumerate()
}

/// [`densities`] for marks that may fill most columns (stutters, spikes): the least
/// density shrinks from [`DENSITY_FLOOR`] towards 0 as the share of columns with a
/// mark grows, so rare marks in a few columns stay visible while one mark in every
/// column of a million frames is a faint thin line, not a band (its true density).
pub fn sparse_densities(counts: &[u32], columns: &[std::ops::Range<usize>]) -> Vec<(usize, f32)> {
    let marked = counts.iter().filter(|&&n| n > 0).count();
    let spread = marked as f32 / counts.len().max(1) as f32;
    let floor = (DENSITY_FLOOR * (1.0 - spread)).max(0.01);
    // Shares at or below this one are drawn at the floor: no logarithm for them (a
    // zoomed-out long capture has a rare mark in every column, thousands a frame).
    let at_floor = 10_f64.powf(3.0 * (f64::from(floor) - 1.0));
    counts
        .iter()
        .zip(columns)
        .enumerate()
        .filter(|(_, (n, _))| **n > 0)
        .map(|(c, (&n, range))| {
            let share = f64::from(n) / range.len().max(n as usize) as f64;
            if share <= at_floor {
                return (c, floor);
            }
            (c, ((1.0 + share.log10() / 3.0) as f32).clamp(floor, 1.0))
        })
        .collect()
}

/// The least [`density`] of a column with a mark.
pub const DENSITY_FLOOR: f32 = 0.25;

/// The colour class of a column of several frames: mixed by its shares over the
/// budget when known, else the class of its typical frame.
#[must_use]
pub fn column_class(stat: &ColumnStat, budget: framescope_core::lod::Budget) -> ColourClass {
    match stat.over {
        Some((over, far)) => ColourClass::Mixed { over, far },
        None => ColourClass::Budget(budget.class(stat.typical)),
    }
}

/// The theme's colour of a budget class.
#[must_use]
pub fn budget_colour(class: BudgetClass) -> Color32 {
    match class {
        BudgetClass::Within => theme::WITHIN_BUDGET,
        BudgetClass::Over => theme::OVER_BUDGET,
        BudgetClass::FarOver => theme::FAR_OVER_BUDGET,
    }
}

/// The theme's colour of a class.
#[must_use]
pub fn colour(class: ColourClass) -> Color32 {
    match class {
        ColourClass::Budget(c) => budget_colour(c),
        ColourClass::Generated(c) => theme::generated(budget_colour(c)),
        ColourClass::Mixed { over, far } => {
            let (ok, over_only) = (1.0 - over, (over - far).max(0.0));
            let mix = |k: fn(Color32) -> u8| {
                let v = ok * f32::from(k(theme::WITHIN_BUDGET))
                    + over_only * f32::from(k(theme::OVER_BUDGET))
                    + far * f32::from(k(theme::FAR_OVER_BUDGET));
                v.round().clamp(0.0, 255.0) as u8
            };
            Color32::from_rgb(mix(|c| c.r()), mix(|c| c.g()), mix(|c| c.b()))
        }
        ColourClass::Whisker => theme::WHISKER,
        ColourClass::StackTop => theme::TEXT.gamma_multiply(0.8),
        ColourClass::Stage(k) => theme::STAGES[k % theme::STAGES.len()],
        ColourClass::Telemetry => theme::TELEMETRY,
        ColourClass::TelemetryWhisker => theme::TELEMETRY.gamma_multiply(0.3),
        ColourClass::Stutter => theme::STUTTER,
        ColourClass::StutterInOsc => theme::STUTTER_IN_OSC,
        ColourClass::Oscillating => theme::OSCILLATING,
        ColourClass::Spike => theme::SPIKE,
        ColourClass::Dropped => theme::DROPPED,
        ColourClass::Target => theme::TARGET_LINE,
        ColourClass::BudgetLine => theme::TARGET_LINE.gamma_multiply(0.6),
        ColourClass::CpuBusy => theme::CPU_BUSY,
        ColourClass::GpuBusy => theme::GPU_BUSY,
        ColourClass::FrameInterval => theme::FRAME_INTERVAL,
        ColourClass::Limiter { gpu, cpu } => mix3(
            [theme::GPU_BUSY, theme::CPU_BUSY, theme::NEITHER_LIMITED],
            [gpu, cpu, (1.0 - gpu - cpu).max(0.0)],
        ),
        ColourClass::AnimationError => theme::ANIMATION_ERROR,
        ColourClass::AnimationWhisker => theme::ANIMATION_ERROR.gamma_multiply(0.35),
    }
}

/// Three colours mixed by weights summing to 1.
fn mix3(colours: [Color32; 3], weights: [f32; 3]) -> Color32 {
    let mix = |k: fn(Color32) -> u8| {
        let v: f32 = colours.iter().zip(weights).map(|(c, w)| w * f32::from(k(*c))).sum();
        v.round().clamp(0.0, 255.0) as u8
    };
    Color32::from_rgb(mix(|c| c.r()), mix(|c| c.g()), mix(|c| c.b()))
}
