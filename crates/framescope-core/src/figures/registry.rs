//! Every figure, once ([`FIGURES`]): each section's figures in their own file, joined
//! here in output order.

use super::Figure;

const PARTS: [&[Figure]; 3] = [super::own::FIGURES, super::latency::FIGURES, super::peers::FIGURES];
const COUNT: usize = PARTS[0].len() + PARTS[1].len() + PARTS[2].len();

static ALL: [Figure; COUNT] = join(PARTS);

/// Every figure, in output order (the JSON comparison's, the tables'). A `static`, so
/// a figure has one address wherever it is found (rows and gate rules are matched with
/// `std::ptr::eq`).
pub static FIGURES: &[Figure] = &ALL;

const fn join<const N: usize>(parts: [&[Figure]; 3]) -> [Figure; N] {
    let mut out = [parts[0][0]; N];
    let (mut p, mut k) = (0, 0);
    while p < parts.len() {
        let mut i = 0;
        while i < parts[p].len() {
            out[k] = parts[p][i];
            k += 1;
            i += 1;
        }
        p += 1;
    }
    assert!(k == N, "every part's figures fill the registry");
    out
}
