use super::*;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9 * b.abs().max(1.0)
}

/// MangoHud 0.6.x on 1500 logged `fps` values 1, 2, …, 1500 in reverse order:
/// ⌈1.5⌉ = 2 lowest → 0.1 % min 1.5; ⌈15⌉ = 15 lowest → 1 % min 8; the 97th
/// percentile a[⌊0.97·1499⌋] = a[1454] = 1455; the average 750.5. One value: each
/// figure is that value.
#[test]
fn mangohud_0_6_summarises_the_logged_fps() {
    let fps: Vec<f64> = (1..=1500).rev().map(f64::from).collect();
    let m = MangoHud::of_logged_fps(&fps).unwrap_or_else(|| unreachable!());
    assert!(close(m.low_0_1pct_fps, 1.5), "{m:?}");
    assert!(close(m.low_1pct_fps, 8.0), "{m:?}");
    assert!(close(m.p97_fps, 1455.0), "{m:?}");
    assert!(close(m.average_fps, 750.5), "{m:?}");
    let one = MangoHud::of_logged_fps(&[0.0]).unwrap_or_else(|| unreachable!());
    assert_eq!((one.low_0_1pct_fps, one.low_1pct_fps, one.p97_fps, one.average_fps), (0.0, 0.0, 0.0, 0.0));
    assert_eq!(MangoHud::of_logged_fps(&[]), None);
    // A sampled log with a first row of 0 FPS: its lows are 0, as MangoHud wrote.
    let frames = logged(MangoSummary::LoggedFpsMeans, &[(0.0, 5.0), (480.0, 2.0), (490.0, 2.0)]);
    let c = Conventions::mangohud_only(&[], &frames).and_then(|c| c.mangohud);
    assert_eq!(c.map(|m| m.low_1pct_fps), Some(0.0));
    assert!(c.is_some_and(|m| close(m.average_fps, 970.0 / 3.0)));
}

/// A MangoHud log's rows `(fps, frametime ms)` summarised by `summary`.
fn logged(summary: MangoSummary, rows: &[(f64, f64)]) -> Frames {
    Frames {
        mangohud_summary: summary,
        logged_fps: rows.iter().map(|r| r.0).collect(),
        logged_fps_ft_ms: rows.iter().map(|r| r.1).collect(),
        logged_fps_line: (4..).take(rows.len()).collect(),
        ..Frames::default()
    }
}

/// Five rows whose rolling `fps` disagrees with their `frametime` — (fps, ft):
/// (60, 40), (30, 10), (90, 20), (45, 5), (120, 10) — summarised by each version's rule
/// (`metrics.md` §11, `docs/decisions.md`). n = 5, Σft = 85 → 1000 / 17 = 58.8235.
/// * 0.7.x: by fps (30,10) (45,5) (60,40) (90,20) (120,10); ⌈0.05⌉ = 1 row → lows
///   1000/10 = 100; row ⌊0.97·4⌋ = 3 → 1000/20 = 50.
/// * 0.8.0–0.8.1: a = 30 45 60 90 120; a[max(0, trunc(0.05 − 1))] = a[0] = 30 (both
///   lows); a[trunc(4.85 − 1)] = a[3] = 90.
/// * 0.6.x: lows the mean of the lowest ⌈p·5⌉ = 1 fps: 30; a[⌊0.97·4⌋] = 90; mean 69.
/// * 0.8.2+: none here (its summary is of the frame times).
#[test]
fn each_mangohud_version_summarises_its_rows_its_own_way() {
    let rows = [(60.0, 40.0), (30.0, 10.0), (90.0, 20.0), (45.0, 5.0), (120.0, 10.0)];
    let of = |s| {
        MangoHud::of_log(&logged(s, &rows))
            .map(|m| [m.low_0_1pct_fps, m.low_1pct_fps, m.p97_fps, m.average_fps])
    };
    let avg = 1000.0 / 17.0;
    let expect = [
        (MangoSummary::SlowRowsFrameTimes, [100.0, 100.0, 50.0, avg]),
        (MangoSummary::LoggedFpsRanks, [30.0, 30.0, 90.0, avg]),
        (MangoSummary::LoggedFpsMeans, [30.0, 30.0, 90.0, 69.0]),
    ];
    for (summary, want) in expect {
        let got = of(summary).unwrap_or_else(|| panic!("{summary:?}: no figures"));
        assert!(got.iter().zip(want).all(|(g, w)| close(*g, w)), "{summary:?}: {got:?} != {want:?}");
    }
    assert_eq!(of(MangoSummary::FrameTimeRanks), None);
    // 0.7.x with 1500 rows: ⌈1.5⌉ = 2 and ⌈15⌉ = 15 rows are averaged; 0.8.0 takes one
    // rank: trunc(1.5 − 1) = 0 and trunc(15 − 1) = 14. fps k ↔ frametime 1000/k.
    let many: Vec<(f64, f64)> = (1..=1500).rev().map(|k| (f64::from(k), 1000.0 / f64::from(k))).collect();
    let m07 =
        MangoHud::of_log(&logged(MangoSummary::SlowRowsFrameTimes, &many)).unwrap_or_else(|| unreachable!());
    assert!(close(m07.low_0_1pct_fps, 1000.0 / 750.0), "{m07:?}");
    let mean15: f64 = (1..=15).map(|k| 1000.0 / f64::from(k)).sum::<f64>() / 15.0;
    assert!(close(m07.low_1pct_fps, 1000.0 / mean15), "{m07:?}");
    let m080 =
        MangoHud::of_log(&logged(MangoSummary::LoggedFpsRanks, &many)).unwrap_or_else(|| unreachable!());
    assert_eq!((m080.low_0_1pct_fps, m080.low_1pct_fps), (1.0, 15.0));
    // A row without a frame time is left out of the rules that need one.
    let gap = logged(MangoSummary::SlowRowsFrameTimes, &[(10.0, f64::NAN)]);
    assert_eq!(MangoHud::of_log(&gap), None);
}

/// R8 on 1..=10: h = (10 + 1/3)·τ + 1/3. τ = 0.5: h = 5.5 → 5.5. τ = 0.01: h = 0.436
/// < 1 → the first value. τ = 0.99: h = 10.563 ≥ 10 → the last.
#[test]
fn r8_quantile_with_its_edges() {
    let v: Vec<f64> = (1..=10).map(f64::from).collect();
    assert!(close(r8(&v, 0.5), 5.5));
    assert!(close(r8(&v, 0.01), 1.0));
    assert!(close(r8(&v, 0.99), 10.0));
    // τ = 0.25: h = 10.333·0.25 + 0.333 = 2.9167 → a_2 + 0.9167·(a_3 − a_2) = 2.9167.
    assert!(close(r8(&v, 0.25), (10.0_f64 + 1.0 / 3.0).mul_add(0.25, 1.0 / 3.0)));
}

/// 200 frames: 198 of 10 ms, one 40 ms, one 50 ms. FrameView: k = ⌊2⌋ + 1 = 3
/// slowest = 50, 40, 10 → 1000·3/100 = 30 FPS; the (⌊0.01·200⌋+1) = 3rd slowest is
/// 10 ms → 100 FPS. MangoHud: trunc(0.01·200 − 1) = 1 → d[1] = 40 ms → 25 FPS.
/// framescope's own 1 % low takes k = 2: 1000·2/90 = 22.2 FPS.
#[test]
fn each_tool_counts_the_slowest_frames_its_own_way() {
    let mut ft = vec![10.0; 198];
    ft.insert(50, 40.0);
    ft.insert(150, 50.0);
    let fv =
        FrameView::of_sorted(&ft, &sorted_ascending(&ft), ft.iter().sum()).unwrap_or_else(|| unreachable!());
    assert!(close(fv.low_1pct_fps, 30.0));
    assert!(close(fv.fps_1pct, 100.0));
    // ⌊0.001·200⌋ + 1 = 1: the slowest alone.
    assert!(close(fv.low_0_1pct_fps, 20.0));
    assert!(close(fv.fps_0_1pct, 20.0));
    let mh =
        MangoHud::of_sorted(&ft, &sorted_ascending(&ft), ft.iter().sum()).unwrap_or_else(|| unreachable!());
    assert!(close(mh.low_1pct_fps, 25.0));
    // trunc(0.2 − 1) < 0 → d[0] = 50 ms.
    assert!(close(mh.low_0_1pct_fps, 20.0));
    // Σ = 198·10 + 90 = 2070: mean 10.35 ms.
    assert!(close(mh.average_fps, 1000.0 / 10.35));
    let pm =
        PresentMon::of_sorted(&ft, &sorted_ascending(&ft), ft.iter().sum()).unwrap_or_else(|| unreachable!());
    // P99: h = 199·0.99 = 197.01 → sorted[197] = 10, sorted[198] = 40 → 10.3 ms.
    assert!(close(pm.p1_fps, 1000.0 / 10.3));
}

/// CapFrameX integral low: slowest first 50, 40, … until the sum reaches 1 % of
/// 2070 = 20.7 ms: 50 alone does → 20 FPS. Its "1 % low average": Q(ft, 0.99) with
/// h = 200.333·0.99 + 0.333 = 198.663 → a_198 + 0.663·(a_199 − a_198) = 10 + 0.663·30
/// = 29.9; frames ≥ that: 40 and 50 → mean 45 → 22.2 FPS.
#[test]
fn capframex_lows() {
    let mut ft = vec![10.0; 198];
    ft.push(40.0);
    ft.push(50.0);
    let c =
        CapFrameX::of_sorted(&ft, &sorted_ascending(&ft), ft.iter().sum()).unwrap_or_else(|| unreachable!());
    assert!(close(c.low_1pct_integral_fps, 20.0));
    assert!(close(c.low_1pct_avg_fps, 1000.0 / 45.0));
    assert!(close(c.average_fps, 1000.0 * 200.0 / 2070.0));
}

/// Stuttering: mean ft 10.35 → s = round(√10.35·10) = round(32.17) = 32. At the 40 ms
/// frame (after 198 frames of 10) the capped value is 10 (40 > 3·10), so the average
/// is 10 and 40 > 25: a stutter. The 50 ms frame follows a 40 (50 < 120: kept), the
/// average of 30 tens, one 10 (capped 40) and 50 = 360/32 = 11.25; 50 > 28.1: a
/// stutter. Share (40 + 50)/2070. Nothing else is under 25 FPS.
#[test]
fn capframex_stuttering_time() {
    let mut ft = vec![10.0; 198];
    ft.push(40.0);
    ft.push(50.0);
    let (stutter, low) = stuttering(&ft, ft.iter().sum());
    assert!(close(stutter, 90.0 / 2070.0));
    assert!(close(low, 0.0));
}

/// With the one sum given, the means and the lows' averages are those of adding
/// the series again for each (the former way), bit for bit, on varied series.
#[test]
fn one_sum_and_one_lows_pass_match_adding_again() {
    let mut x: u64 = 77;
    for (n, spread) in [(1usize, 5u64), (7, 3), (1000, 400), (20_000, 90_000), (5000, 7)] {
        let ft: Vec<f64> = (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                1.0 + (x % spread) as f64 / 3.0
            })
            .collect();
        let asc = sorted_ascending(&ft);
        let c = Conventions::of_sorted_total(&ft, &asc, ft.iter().sum()).unwrap_or_else(|| unreachable!());
        let mean = ft.iter().sum::<f64>() / n as f64;
        let low_avg = |tau: f64| {
            let limit = r8(&asc, tau);
            let (sum, count) =
                ft.iter().filter(|&&t| t >= limit).fold((-0.0, 0usize), |(s, c), &t| (s + t, c + 1));
            1000.0 / (sum / count as f64)
        };
        let cfx = c.capframex.unwrap_or_else(|| unreachable!());
        let got = [
            cfx.average_fps,
            cfx.low_1pct_avg_fps,
            cfx.low_0_1pct_avg_fps,
            c.frameview.map_or(0.0, |f| f.average_fps),
            c.presentmon.map_or(0.0, |p| p.average_fps),
            c.mangohud.map_or(0.0, |m| m.average_fps),
        ];
        let n_ft = 1000.0 * n as f64;
        let want = [
            n_ft / ft.iter().sum::<f64>(),
            low_avg(0.99),
            low_avg(0.999),
            n_ft / ft.iter().sum::<f64>(),
            1000.0 / mean,
            1000.0 / mean,
        ];
        assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits), "{n} frames");
        assert_eq!(Conventions::of_sorted(&ft, &asc), Some(c));
    }
}
