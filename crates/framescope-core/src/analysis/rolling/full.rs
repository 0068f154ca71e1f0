//! One step of a full window (19 present values, the middle of a series) without a
//! data-dependent branch. A sliding window over noisy frame times moves its values to
//! unpredictable places, which a loop that scans and shifts pays for in mispredicted
//! branches at every frame. Here the leaving value is taken out by a select at every
//! place (values below it stay, the others move down one) and the entering one put in
//! by a min and a max at every place, two values at a time (SSE2 on x86-64; other
//! targets keep the scanning step).

/// Values in a full window.
pub(super) const FULL: usize = 2 * super::HALF_WINDOW + 1;

/// `Q1`, median and `Q3` of a full window, as `quartiles` in `rolling.rs` gives them.
pub(super) type Quartiles = (f64, f64, f64);

/// Replaces one value bit-equal to `out` in the sorted full window `w[..FULL]` by
/// `inn`, keeping it sorted, and gives the new window's quartiles (from the registers:
/// reading two neighbours back from memory that two stores just wrote stalls the
/// load); `None` (nothing changed) when `out` is not there or the target has no such
/// step. For two positive values only, whose equal values are the same bits: any
/// order among equals gives the same array. `w[FULL]` is spare (it is overwritten).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(super) fn step(w: &mut [f64; FULL + 1], out: f64, inn: f64) -> Option<Quartiles> {
    use safe_arch::{
        add_m128d, bitand_m128d, bitandnot_m128d, bitor_m128d, cmp_lt_mask_m128d, load_unaligned_m128d,
        m128d, max_m128d, min_m128d, set_splat_m128d, shuffle_abi_f64_all_m128d, store_unaligned_m128d,
        unpack_low_m128d,
    };
    const PAIRS: usize = FULL.div_ceil(2);
    let (o, i) = (set_splat_m128d(out), set_splat_m128d(inn));
    let inf = set_splat_m128d(f64::INFINITY);
    let mut v = [inf; PAIRS];
    for (pair, from) in v.iter_mut().zip(w.as_chunks::<2>().0) {
        *pair = load_unaligned_m128d(from);
    }
    // The spare place reads as +∞: above every value.
    v[PAIRS - 1] = unpack_low_m128d(v[PAIRS - 1], inf);
    // `at`: the first place of `out`'s run, the count of smaller values (masks are
    // all ones: and-ed with 1.0 they count).
    let one = set_splat_m128d(1.0);
    let below =
        v.iter().fold(set_splat_m128d(0.0), |n, &p| add_m128d(n, bitand_m128d(cmp_lt_mask_m128d(p, o), one)));
    let at = below.to_array().iter().sum::<f64>() as usize;
    if w.get(at).is_none_or(|x| x.to_bits() != out.to_bits()) {
        return None;
    }
    // Without `out`, as places 1.. of a window that starts with −∞ and ends with +∞:
    // place `m` keeps its value `b[m]` when it is below `out`, else takes `b[m + 1]`.
    let mut rest = [inf; PAIRS + 1];
    let mut before = set_splat_m128d(f64::NEG_INFINITY);
    for (r, &p) in rest.iter_mut().zip(&v) {
        let b = shuffle_abi_f64_all_m128d::<1>(before, p);
        let keep = cmp_lt_mask_m128d(b, o);
        *r = bitor_m128d(bitand_m128d(keep, b), bitandnot_m128d(keep, p));
        before = p;
    }
    // `inn` put in: place `j` holds the larger of the value before it and the
    // smaller of the value at `j` and `inn`.
    let mut new = [inf; PAIRS];
    for (k, (to, pair)) in w.as_chunks_mut::<2>().0.iter_mut().zip(&mut new).enumerate() {
        let (r, next): (m128d, m128d) = (rest[k], rest[k + 1]);
        let at_j = shuffle_abi_f64_all_m128d::<1>(r, next);
        *pair = max_m128d(r, min_m128d(at_j, i));
        store_unaligned_m128d(to, *pair);
    }
    // Places 4 and 5, 9, 13 and 14.
    let q3 = [new[6].to_array()[1], new[7].to_array()[0]];
    Some(super::full_quartiles(new[2].to_array(), new[4].to_array()[1], q3))
}

/// The scanning step does it on other targets.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub(super) fn step(_w: &mut [f64; FULL + 1], _out: f64, _inn: f64) -> Option<Quartiles> {
    None
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    /// The step leaves the array that removing one copy of `out` and putting `inn` in
    /// its sorted place gives, bit for bit, with many ties, values at both ends and
    /// +∞; a value that is not there changes nothing.
    #[test]
    fn a_step_is_remove_then_insert() {
        let mut x: u32 = 29;
        let mut next = |spread: u32| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            if x.is_multiple_of(97) { f64::INFINITY } else { 1.0 + f64::from(x % spread) / 8.0 }
        };
        for spread in [3, 19, 400, 1 << 20] {
            let mut values: Vec<f64> = (0..FULL).map(|_| next(spread)).collect();
            for _ in 0..5_000 {
                values.sort_unstable_by(f64::total_cmp);
                let mut w = [0.0; FULL + 1];
                w[..FULL].copy_from_slice(&values);
                let out = values[next(FULL as u32 * 8) as usize % FULL];
                let inn = next(spread);
                let q = step(&mut w, out, inn).expect("a step of two values the window has");
                let by_percentile =
                    [0.25, 0.5, 0.75].map(|p| super::super::percentile(&w[..FULL], p).to_bits());
                assert_eq!([q.0.to_bits(), q.1.to_bits(), q.2.to_bits()], by_percentile);
                let at = values.iter().position(|v| v.to_bits() == out.to_bits()).unwrap_or(FULL);
                values.remove(at);
                values.push(inn);
                values.sort_unstable_by(f64::total_cmp);
                let bits = |v: &[f64]| v.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&w[..FULL]), bits(&values), "out {out}, in {inn}");
            }
        }
        let mut w = [0.0; FULL + 1];
        w[..FULL].iter_mut().enumerate().for_each(|(k, v)| *v = 1.0 + k as f64);
        let before = w;
        assert!(step(&mut w, 2.5, 7.0).is_none());
        assert!(step(&mut w, 40.0, 7.0).is_none());
        assert_eq!(w.map(f64::to_bits), before.map(f64::to_bits));
    }
}
