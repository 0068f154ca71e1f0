//! The cell a constant column repeats: in a capture most optional columns hold one
//! value on every row (`0.8000`, `1`), and a row whose cell has the same bytes as the
//! one that made the column constant adds that value again. [`Repeat`] keeps those
//! bytes per column, so such a row's cell is compared, not parsed, and counted.

use super::super::values::same_bytes;

/// The bytes of the cell that last made a column constant (none: `len` 0).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Repeat {
    bytes: [u8; 16],
    len: u8,
}

impl Repeat {
    /// True when `cell` is the repeated cell byte for byte.
    #[inline]
    pub(super) fn matches(&self, cell: &[u8]) -> bool {
        let n = usize::from(self.len);
        if n == 0 || cell.len() != n {
            return false;
        }
        let kept = &self.bytes[..n];
        if n < 4 { kept.iter().zip(cell).all(|(a, b)| a == b) } else { same_bytes(kept, cell) }
    }

    /// Keeps `cell` (when it is short enough; else keeps none).
    pub(super) fn set(&mut self, cell: &[u8]) {
        match self.bytes.get_mut(..cell.len()) {
            Some(room) => {
                room.copy_from_slice(cell);
                self.len = cell.len() as u8;
            }
            None => self.len = 0,
        }
    }

    /// Keeps none.
    #[inline]
    pub(super) fn clear(&mut self) {
        self.len = 0;
    }

    /// True when a cell is kept.
    #[inline]
    pub(super) fn is_set(&self) -> bool {
        self.len != 0
    }
}

#[cfg(test)]
mod tests {
    use super::Repeat;

    #[test]
    fn a_kept_cell_matches_itself_only() {
        let mut r = Repeat::default();
        assert!(!r.matches(b""), "nothing kept matches nothing, not even an empty cell");
        for cell in [&b"1"[..], b"12", b"0.8000", b"1000.0000", b"0x1F741139B80A", b"0123456789abcdef"] {
            r.set(cell);
            assert!(r.is_set() && r.matches(cell), "{cell:?}");
            let mut other = cell.to_vec();
            for at in 0..other.len() {
                other[at] ^= 1;
                assert!(!r.matches(&other), "{other:?}");
                other[at] ^= 1;
            }
            assert!(!r.matches(&cell[..cell.len() - 1]) && !r.matches(&[cell, b"0"].concat()));
        }
        r.set(b"0123456789abcdefg");
        assert!(!r.is_set(), "17 bytes are not kept");
        r.set(b"7");
        r.clear();
        assert!(!r.matches(b"7"));
    }
}
