//! Reproducible random damage to real files, for the "bad input is normal input"
//! tests: truncation, flipped bytes, lost, doubled and swapped lines, a mangled header,
//! stray quotes, and lines cut short.

use std::fmt::Write as _;

/// xorshift64*: a tiny deterministic generator, enough to mangle files reproducibly.
pub struct XorShift(u64);

impl XorShift {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Bytes that matter to a CSV reader, used more often than random ones.
const SPECIAL: &[u8] = b",\"\n\r\0-.0123456789 eE\xff\xef";

fn random_byte(rng: &mut XorShift) -> u8 {
    if rng.below(2) == 0 { SPECIAL[rng.below(SPECIAL.len())] } else { rng.next() as u8 }
}

fn split_lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    bytes.split_inclusive(|&b| b == b'\n').map(<[u8]>::to_vec).collect()
}

/// One random mangling of `input`, with a description for failure messages.
pub fn mangle(input: &[u8], rng: &mut XorShift) -> (Vec<u8>, String) {
    let mut lines = split_lines(input);
    let n = lines.len().max(1);
    match rng.below(9) {
        0 => {
            let at = rng.below(input.len().max(1));
            (input[..at].to_vec(), format!("truncated at byte {at}"))
        }
        1 => {
            let mut out = input.to_vec();
            let k = 1 + rng.below(8);
            let mut what = String::from("bytes changed at");
            for _ in 0..k {
                let at = rng.below(out.len().max(1));
                if let Some(b) = out.get_mut(at) {
                    *b = random_byte(rng);
                    let _ = write!(what, " {at}");
                }
            }
            (out, what)
        }
        2 => {
            let k = 1 + rng.below(20);
            let mut what = String::from("lines deleted:");
            for _ in 0..k {
                if lines.is_empty() {
                    break;
                }
                let at = rng.below(lines.len());
                lines.remove(at);
                let _ = write!(what, " {}", at + 1);
            }
            (lines.concat(), what)
        }
        3 => {
            let k = 1 + rng.below(20);
            let mut what = String::from("lines duplicated:");
            for _ in 0..k {
                let at = rng.below(n.min(lines.len()).max(1));
                if let Some(l) = lines.get(at).cloned() {
                    lines.insert(at, l);
                    let _ = write!(what, " {}", at + 1);
                }
            }
            (lines.concat(), what)
        }
        4 => {
            let k = 1 + rng.below(20);
            let mut what = String::from("lines swapped:");
            for _ in 0..k {
                let (a, b) = (rng.below(n), rng.below(n));
                if a < lines.len() && b < lines.len() {
                    lines.swap(a, b);
                    let _ = write!(what, " {}<->{}", a + 1, b + 1);
                }
            }
            (lines.concat(), what)
        }
        5 => mangle_header(lines, rng),
        6 => {
            let mut out = input.to_vec();
            let at = rng.below(out.len().max(1));
            out.insert(at.min(out.len()), b'"');
            (out, format!("quote inserted at byte {at}"))
        }
        7 => {
            // A random line replaced by a random cut of another line.
            let (a, b) = (rng.below(n), rng.below(n));
            if a < lines.len() && b < lines.len() {
                let cut = rng.below(lines[b].len().max(1));
                lines[a] = lines[b][..cut].to_vec();
                lines[a].push(b'\n');
            }
            (lines.concat(), format!("line {} replaced by a cut of line {}", a + 1, b + 1))
        }
        _ => {
            // Two manglings in a row.
            let (once, w1) = mangle(input, rng);
            let (twice, w2) = mangle(&once, rng);
            (twice, format!("{w1}; then {w2}"))
        }
    }
}

/// Mangles the header line (the first line with a comma that is not a `//` comment):
/// drops, duplicates, renames or swaps a name, or puts a stray quote in it.
fn mangle_header(mut lines: Vec<Vec<u8>>, rng: &mut XorShift) -> (Vec<u8>, String) {
    let h = lines.iter().position(|l| !l.starts_with(b"//") && l.contains(&b',')).unwrap_or(0);
    let Some(header) = lines.get(h) else {
        return (Vec::new(), "empty".into());
    };
    let text = String::from_utf8_lossy(header).into_owned();
    let mut names: Vec<String> = text.split(',').map(str::to_owned).collect();
    let i = rng.below(names.len());
    let what = match rng.below(5) {
        0 => {
            names.remove(i);
            "header name removed"
        }
        1 => {
            let dup = names[i].clone();
            names.insert(i, dup);
            "header name duplicated"
        }
        2 => {
            names[i] = "Bogus".into();
            "header name renamed"
        }
        3 => {
            names[i].insert(0, '"');
            "stray quote in header"
        }
        _ => {
            let j = rng.below(names.len());
            names.swap(i, j);
            "header names swapped"
        }
    };
    lines[h] = names.join(",").into_bytes();
    (lines.concat(), format!("{what} (name {i})"))
}
