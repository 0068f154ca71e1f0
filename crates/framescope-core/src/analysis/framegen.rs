//! Frame-generation awareness: with PresentMon's `FrameType` (XeSS-FG, AFMF), the
//! application's own frames and the generated ones are reported apart as well as
//! together. Each kind's frame time is the interval between consecutive frames of
//! that kind in the analysed series (the sum of the series' frame times from one
//! frame of the kind, exclusive, to the next, inclusive): under the display source
//! the application kind gives the rate at which the player sees new rendered frames.

use super::{Series, Summary};
use crate::model::Trace;
use serde::Serialize;

/// Figures of one kind of frame.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct KindFigures {
    /// Frames of this kind in the analysed series.
    pub count: usize,
    /// Their share of the run's rate: `1000 · count / T` (T the run's duration), so
    /// application FPS + generated FPS = the run's average FPS.
    pub fps: Option<f64>,
    /// Intervals between consecutive frames of this kind.
    pub frames: usize,
    /// Their summary (the kind's own pacing: percentiles and lows of its intervals).
    pub summary: Option<Summary>,
}

/// Application and generated frames apart.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FrameTypes {
    /// Frames the application rendered.
    pub application: KindFigures,
    /// Frames made by frame generation.
    pub generated: KindFigures,
}

impl FrameTypes {
    /// The split over the analysed `series` of `trace`, or `None` when the trace has
    /// no generated frame.
    #[must_use]
    pub fn of(trace: &Trace, series: &Series) -> Option<Self> {
        let types = &trace.frames.frame_type;
        if types.len() != trace.len() || !types.iter().any(|t| t.is_generated()) {
            return None;
        }
        let total = series.total_ms();
        let kind = |want: fn(crate::model::FrameType) -> bool| {
            let ft = kind_intervals(trace, series, want);
            let count = (0..series.len()).filter(|&k| frame_type(series, types, k).is_some_and(want)).count();
            let fps = (total > 0.0).then(|| 1000.0 * count as f64 / total);
            KindFigures { count, fps, frames: ft.len(), summary: Summary::of(&ft) }
        };
        Some(Self {
            application: kind(|t| t == crate::model::FrameType::Application),
            generated: kind(crate::model::FrameType::is_generated),
        })
    }
}

/// True when the trace's format records each frame's type (PresentMon 2.x's
/// `FrameType`): without that column framescope cannot tell generated frames.
#[must_use]
pub fn records_frame_types(trace: &Trace) -> bool {
    !trace.frames.frame_type.is_empty()
}

/// Fewest neighbouring pairs of present intervals the alternation test looks at: a
/// handful of frames says nothing.
pub const MIN_PAIRS: usize = 100;

/// Share of neighbouring pairs at or above which the present intervals alternate the
/// way frame generation makes them.
pub const GENERATED_SHARE: f64 = 0.5;

/// Frame generation the format cannot record: a generated frame is presented right
/// after the frame it was made from (or the other way round), so present intervals
/// alternate short and long. The test: the share of neighbouring pairs of `ft` (the
/// present intervals, in order) whose shorter interval is under half the longer.
/// `Some(share)` when it is at least [`GENERATED_SHARE`] over at least
/// [`MIN_PAIRS`] pairs, else `None`. The frame-generated traces at hand give 0.75
/// (F1 24, XeSS-FG) to 0.999 (Assassin's Creed, XeSS-FG), Naraka's `--v1_metrics`
/// capture 0.83; every other real trace at most 0.40 (F1 24's `dwm.exe`), the games'
/// own at most 0.15. (The FrameView DLSS-FG capture does not alternate: its presents
/// are paced, 20.5 ms apart.)
#[must_use]
pub fn alternation(ft: &[f64]) -> Option<f64> {
    let pairs = ft.len().saturating_sub(1);
    if pairs < MIN_PAIRS {
        return None;
    }
    let apart = ft.windows(2).filter(|w| 2.0 * w[0].min(w[1]) < w[0].max(w[1])).count();
    let share = apart as f64 / pairs as f64;
    (share >= GENERATED_SHARE).then_some(share)
}

/// Animation error over every displayed frame, generated ones included, the way
/// PresentMon #669 defines it: each application frame's simulation interval (the step
/// of `AnimationTime` to the next displayed application frame) is spread evenly over
/// the display steps up to that frame, and a displayed frame's error is its share of
/// simulation time minus its display interval (PresentMon's sign: simulation − screen).
/// Without generated frames between them this is PresentMon's own `MsAnimationError`
/// of the application frame (its simulation step minus the screen time since the
/// previous displayed application frame), which the real XeSS-FG captures reproduce
/// exactly. Returns `(frame, error)` for every displayed frame after the first
/// application frame, in order; empty without `FrameType`, `AnimationTime` or display
/// intervals.
#[must_use]
pub fn spread_animation_error(trace: &Trace) -> Vec<(usize, f64)> {
    let f = &trace.frames;
    let Some(anim) = trace.column(crate::model::ColumnKind::AnimationTime) else { return Vec::new() };
    if f.frame_type.len() != trace.len() || f.display_ms.len() != trace.len() {
        return Vec::new();
    }
    let shown: Vec<usize> = (0..trace.len())
        .filter(|&i| !f.is_dropped(i) && f.display_ms[i].is_finite() && f.display_ms[i] > 0.0)
        .collect();
    let app =
        |i: usize| f.frame_type[i] == crate::model::FrameType::Application && anim.values.at(i).is_finite();
    let apps: Vec<usize> = (0..shown.len()).filter(|&k| app(shown[k])).collect();
    let mut out = Vec::new();
    for w in apps.windows(2) {
        let (a, b) = (w[0], w[1]);
        let step = (anim.values.at(shown[b]) - anim.values.at(shown[a])) / (b - a) as f64;
        out.extend((a + 1..=b).map(|k| (shown[k], step - f.display_ms[shown[k]])));
    }
    out
}

/// Frame generation's multiplier from the rhythm of the present intervals `ft`: with
/// ×N generation each rendered frame's present is followed by N − 1 generated ones in
/// quick succession (DLSS 4 ×3: about 21, 0.4, 0.1 ms), so the long intervals — an
/// interval longer than both neighbours and more than twice the shorter of them — come
/// every N presents. `Some((N, share))`: the commonest distance between consecutive
/// long intervals, when it is 2, 3 or 4 and at least half of the distances are it
/// (`share` their fraction). On the XeSS-FG captures of the real traces, against
/// their own `FrameType`: Naraka ×3 (890 of 970 cycles; its frame types run A G G),
/// Assassin's Creed ×2 (2495 of 2501), F1 24 ×2 (2640 of 2730).
#[must_use]
pub fn cadence(ft: &[f64]) -> Option<(u32, f64)> {
    let long = |i: usize| {
        let (a, b, c) = (ft[i - 1], ft[i], ft[i + 1]);
        b > a && b > c && b > 2.0 * a.min(c)
    };
    let peaks: Vec<usize> = (1..ft.len().saturating_sub(1)).filter(|&i| long(i)).collect();
    let mut counts = [0usize; 5];
    let mut cycles = 0usize;
    for w in peaks.windows(2) {
        cycles += 1;
        if let Some(c) = counts.get_mut(w[1] - w[0]) {
            *c += 1;
        }
    }
    let (n, &count) = counts.iter().enumerate().skip(2).max_by_key(|&(_, c)| *c)?;
    let share = count as f64 / cycles.max(1) as f64;
    (cycles >= MIN_PAIRS / 4 && share >= 0.5).then_some((n as u32, share))
}

/// The words for a cadence ([`cadence`]) appended to [`alternation_warning`].
#[must_use]
pub fn cadence_words(multiplier: u32, share: f64) -> String {
    format!(
        "; the rhythm is ×{multiplier} frame generation (one rendered frame, then {} generated, in {:.0} % of the cycles)",
        multiplier - 1,
        share * 100.0
    )
}

/// The warning for a capture whose present intervals alternate ([`alternation`]);
/// `display` says whether it has display intervals to analyse instead.
#[must_use]
pub fn alternation_warning(share: f64, display: bool) -> String {
    let pct = share * 100.0;
    let what = format!(
        "the capture looks frame-generated: present intervals alternate short and long ({pct:.0} % of \
         neighbouring frames differ by 2× or more), which this format cannot mark; present-based stutter \
         and pacing figures then flag most rendered frames"
    );
    if display {
        format!(
            "{what} — analyse the display intervals instead (--frame-time display; in the window, Frame time: display)"
        )
    } else {
        format!("{what}, and the capture has no display intervals to analyse instead")
    }
}

/// The frame type at series position `k`.
fn frame_type(
    series: &Series,
    types: &[crate::model::FrameType],
    k: usize,
) -> Option<crate::model::FrameType> {
    series.frame_of(k).and_then(|f| types.get(f as usize).copied())
}

/// Intervals between consecutive series frames of one kind. The first frame of the
/// kind has no predecessor and gives no interval.
fn kind_intervals(trace: &Trace, series: &Series, want: fn(crate::model::FrameType) -> bool) -> Vec<f64> {
    let types = &trace.frames.frame_type;
    let mut out = Vec::new();
    let mut acc = 0.0;
    let mut seen = false;
    for (k, &ft) in series.frame_time_ms.iter().enumerate() {
        acc += ft;
        if frame_type(series, types, k).is_some_and(want) {
            if seen {
                out.push(acc);
            }
            seen = true;
            acc = 0.0;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{FrameType, Frames, TraceMeta};

    /// Short and long present intervals in turn (a generated frame right after each
    /// rendered one): every pair differs by more than 2×. Steady frames, or a stutter
    /// now and then, do not.
    /// A G G A G G A, every display interval 10 ms, AnimationTime 0, 30, 66 on the
    /// application frames: the first three steps get 30 / 3 = 10 ms of simulation each
    /// (error 0), the next three 36 / 3 = 12 (error +2 each).
    #[test]
    fn animation_error_is_spread_over_the_display_steps() {
        let (a, g) = (FrameType::Application, FrameType::IntelXessFg);
        let nan = f64::NAN;
        let anim = vec![0.0, nan, nan, 30.0, nan, nan, 66.0];
        let trace = Trace {
            meta: TraceMeta::named("x"),
            frames: Frames {
                frame_time_ms: vec![10.0; 7],
                display_ms: vec![10.0; 7],
                dropped: vec![false; 7],
                frame_type: vec![a, g, g, a, g, g, a],
                columns: vec![crate::model::Column {
                    name: "AnimationTime".into(),
                    kind: crate::model::ColumnKind::AnimationTime,
                    values: anim.into(),
                }],
                ..Frames::default()
            },
            warnings: vec![],
        };
        let got = spread_animation_error(&trace);
        let want = [(1, 0.0), (2, 0.0), (3, 0.0), (4, 2.0), (5, 2.0), (6, 2.0)];
        assert_eq!(got.len(), want.len());
        for ((i, e), (j, w)) in got.iter().zip(want) {
            assert!(*i == j && (e - w).abs() < 1e-12, "{i} {e}");
        }
    }

    /// ×2, ×3 (DLSS 4: 21, 0.4, 0.1 ms) and ×4 rhythms give their multiplier; a
    /// steady series or too few cycles none.
    #[test]
    fn the_cadence_gives_the_multiplier() {
        let fg = |pattern: &[f64]| -> Vec<f64> { (0..240).map(|i| pattern[i % pattern.len()]).collect() };
        assert_eq!(cadence(&fg(&[15.0, 1.0])).map(|c| c.0), Some(2));
        assert_eq!(cadence(&fg(&[21.0, 0.4, 0.1])), Some((3, 1.0)));
        assert_eq!(cadence(&fg(&[21.0, 0.4, 0.1, 0.1])).map(|c| c.0), Some(4));
        assert_eq!(cadence(&fg(&[16.7])), None);
        assert_eq!(cadence(&fg(&[21.0, 0.4, 0.1])[..30]), None, "9 cycles");
    }

    #[test]
    fn alternating_presents_look_generated() {
        let fg: Vec<f64> = (0..200).map(|i| if i % 2 == 0 { 1.0 } else { 15.0 }).collect();
        assert_eq!(alternation(&fg), Some(1.0));
        // Naraka's rhythm of three, 3.2, 0.4, 8.6 ms: every pair differs by more than
        // 2× (8.6 > 2 · 3.2). With 5.0 for 8.6, two of three (5.0 < 2 · 3.2): of 299
        // pairs, the 99 starting at 5.0 do not differ, 200 do.
        let triplets: Vec<f64> = (0..300).map(|i| [3.2, 0.4, 8.6][i % 3]).collect();
        assert_eq!(alternation(&triplets), Some(1.0));
        let triplets: Vec<f64> = (0..300).map(|i| [3.2, 0.4, 5.0][i % 3]).collect();
        assert_eq!(alternation(&triplets), Some(200.0 / 299.0));
        // 16.7 ms with a 40 ms stutter every tenth frame: 2 pairs of 10 differ, 20 %.
        let stutters: Vec<f64> = (0..300).map(|i| if i % 10 == 0 { 40.0 } else { 16.7 }).collect();
        assert_eq!(alternation(&stutters), None);
        // Exactly 2× is not "more than 2×"; too few pairs say nothing.
        let double: Vec<f64> = (0..200).map(|i| if i % 2 == 0 { 8.0 } else { 16.0 }).collect();
        assert_eq!(alternation(&double), None);
        assert_eq!(alternation(&fg[..100]), None, "99 pairs");
        assert_eq!(alternation(&fg[..101]), Some(1.0), "100 pairs");
    }

    /// A G A G A with every present 5 ms apart: application frames are 10 ms apart
    /// (two intervals), generated frames 10 ms apart (one interval).
    #[test]
    fn each_kind_runs_from_one_of_its_frames_to_the_next() {
        let (a, g) = (FrameType::Application, FrameType::IntelXessFg);
        let trace = Trace {
            meta: TraceMeta::named("x"),
            frames: Frames {
                frame_time_ms: vec![5.0; 5],
                display_ms: vec![5.0; 5],
                dropped: vec![false; 5],
                frame_type: vec![a, g, a, g, a],
                ..Frames::default()
            },
            warnings: vec![],
        };
        let series = Series::of(&trace, crate::analysis::FrameTimeSource::Presents);
        let split = FrameTypes::of(&trace, &series).unwrap_or_else(|| unreachable!());
        assert_eq!(split.application.frames, 2);
        assert_eq!(split.generated.frames, 1);
        // 3 application and 2 generated frames in 25 ms: 120 + 80 = 200 FPS.
        assert_eq!((split.application.count, split.generated.count), (3, 2));
        assert!((split.application.fps.unwrap_or(0.0) - 120.0).abs() < 1e-9);
        assert!((split.generated.fps.unwrap_or(0.0) - 80.0).abs() < 1e-9);
        assert!((split.application.summary.map_or(0.0, |s| s.avg_fps) - 100.0).abs() < 1e-9);
        let mut plain = trace.clone();
        plain.frames.frame_type = vec![a; 5];
        assert!(FrameTypes::of(&plain, &series).is_none());
    }
}
