use super::*;

#[test]
fn windows_are_cut_at_the_edges() {
    let v: Vec<f64> = (1..=30).map(f64::from).collect();
    let r = Rolling::of(&v);
    // Frame 0: window is values 1..=10 (10 values): median = (5 + 6) / 2.
    assert!((r.median[0] - 5.5).abs() < 1e-12);
    // Frame 15 (value 16): window 7..=25: median 16, q1 at h = 4.5 → 11.5, q3 → 20.5.
    assert!((r.median[15] - 16.0).abs() < 1e-12);
    assert!((r.q1[15] - 11.5).abs() < 1e-12);
    assert!((r.q3[15] - 20.5).abs() < 1e-12);
    // Frame 29: window 21..=30: median 25.5.
    assert!((r.median[29] - 25.5).abs() < 1e-12);
}

/// A step of the sliding window by `replace` leaves the same array, bit for bit, as
/// insert then remove; on series with repeats, zeros of both signs, negative and
/// missing values, and the quartiles of every window length match `percentile`.
#[test]
fn replacing_matches_insert_then_remove() {
    let mut x: u32 = 11;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        match x % 16 {
            0 => 0.0,
            1 => -0.0,
            2 => f64::NAN,
            3 => -f64::from(x % 7),
            _ => f64::from(x % 40) / 4.0,
        }
    };
    let values: Vec<f64> = (0..20_000).map(|_| next()).collect();
    let (mut slid, mut stepped) = (Window::default(), Window::default());
    for (k, &v) in values.iter().enumerate() {
        if k < 2 * HALF_WINDOW + 1 {
            slid.insert(v);
            stepped.insert(v);
        } else {
            let out = values[k - 2 * HALF_WINDOW - 1];
            slid.replace(out, v);
            stepped.insert(v);
            stepped.remove(out);
        }
        let bits = |w: &Window| w.sorted().iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&slid), bits(&stepped), "step {k}");
        let w = slid.sorted();
        let by_percentile = (percentile(w, 0.25), percentile(w, 0.5), percentile(w, 0.75));
        let want = (by_percentile.0.to_bits(), by_percentile.1.to_bits(), by_percentile.2.to_bits());
        let (a, b, c) = quartiles(w);
        assert_eq!((a.to_bits(), b.to_bits(), c.to_bits()), want);
        // Those a full step worked out, too.
        let (a, b, c) = slid.quartiles();
        assert_eq!((a.to_bits(), b.to_bits(), c.to_bits()), want, "step {k}");
    }
}

/// The compact statistics are those of [`Rolling`], across chunk boundaries.
#[test]
fn compact_statistics_match_the_full_ones() {
    let mut x: u32 = 3;
    let values: Vec<f64> = (0..(2 * CHUNK + 55))
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            1.0 + f64::from(x % 300) / 7.0
        })
        .collect();
    let full = Rolling::of(&values);
    let compact = RollingStats::of(&values);
    assert_eq!(compact.median, full.median);
    let iqr: Vec<f64> = full.q3.iter().zip(&full.q1).map(|(a, b)| a - b).collect();
    let high: Vec<u32> =
        (0..values.len()).filter(|&i| full.q3[i] / full.q1[i] > 1.2).map(|i| i as u32).collect();
    assert!(!high.is_empty());
    let high_iqr: Vec<f64> = high.iter().map(|&i| iqr[i as usize]).collect();
    assert_eq!(compact.high, HighWindows::Every { at: high.clone(), iqr: high_iqr.clone() });
    // At one floor: the windows of those whose IQR exceeds it, as bits.
    let floor = 5.0;
    let at_floor = RollingStats::of_at(&values, Some(floor));
    assert_eq!(at_floor.median, compact.median);
    assert_eq!(at_floor.p90, compact.p90);
    let mut flagged = Vec::new();
    at_floor.high.oscillating(floor, |k| flagged.push(k as u32));
    let want: Vec<u32> = high.iter().zip(&high_iqr).filter(|(_, d)| **d > floor).map(|(k, _)| *k).collect();
    assert!(!want.is_empty() && want.len() < high.len());
    assert_eq!(flagged, want);
    let p90 = |v: Vec<f64>| {
        let mut s = v;
        s.sort_unstable_by(f64::total_cmp);
        percentile(&s, 0.9)
    };
    let ratio: Vec<f64> = full.q3.iter().zip(&full.q1).map(|(a, b)| a / b).collect();
    assert_eq!(compact.p90, Some((p90(iqr), p90(ratio))));
    assert_eq!(RollingStats::of(&[]).p90, None);
}

/// A band that misses the P90 (nothing kept, everything counted below) falls
/// back to every window's value: the same P90s as the full statistics.
#[test]
fn a_missed_band_falls_back_to_every_value() {
    let values: Vec<f64> = (0..500).map(|i| 5.0 + f64::from(i % 17) / 3.0).collect();
    let full = Rolling::of(&values);
    let missed = Kept { below: values.len(), inside: Vec::new() };
    let got = p90s(&values, missed, Kept::default());
    let p90 = |v: Vec<f64>| {
        let mut s = v;
        s.sort_unstable_by(f64::total_cmp);
        percentile(&s, 0.9)
    };
    let iqr: Vec<f64> = full.q3.iter().zip(&full.q1).map(|(a, b)| a - b).collect();
    let ratio: Vec<f64> = full.q3.iter().zip(&full.q1).map(|(a, b)| a / b).collect();
    assert_eq!(got, (p90(iqr), p90(ratio)));
    assert_eq!(RollingStats::of(&values).p90, Some(got));
}

#[test]
fn missing_values_are_left_out() {
    let v = [f64::NAN, 2.0, f64::NAN, 4.0];
    let m = rolling_median_present(&v);
    assert!(m.iter().all(|x| (x - 3.0).abs() < 1e-12));
    assert!(rolling_median_present(&[f64::NAN; 3]).iter().all(|x| x.is_nan()));
    assert!(Rolling::of(&[]).median.is_empty());
}

/// The sliding window agrees with sorting every window from scratch, across chunk
/// boundaries, with repeated values and missing ones.
#[test]
fn sliding_matches_sorting_each_window() {
    let mut x: u32 = 7;
    let values: Vec<f64> = (0..(3 * CHUNK + 77))
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            if i % 31 == 0 { f64::NAN } else { f64::from(x % 50) / 4.0 }
        })
        .collect();
    let got = rolling_median_present(&values);
    for i in (0..values.len()).step_by(97).chain([CHUNK - 1, CHUNK, CHUNK + 1, values.len() - 1]) {
        let lo = i.saturating_sub(HALF_WINDOW);
        let hi = (i + HALF_WINDOW + 1).min(values.len());
        let mut w: Vec<f64> = values[lo..hi].iter().copied().filter(|v| !v.is_nan()).collect();
        w.sort_unstable_by(f64::total_cmp);
        let want = percentile(&w, 0.5);
        assert!((got[i] - want).abs() < 1e-12 || (got[i].is_nan() && want.is_nan()), "frame {i}");
    }
}
