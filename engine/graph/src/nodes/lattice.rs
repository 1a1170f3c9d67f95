//! Hashed lattices shared by the generators: one hash per lattice cell, wrapped modulo
//! the period so the pattern tiles.
//!
//! A lattice of up to [`MAX_TABLE`] cells is hashed once per evaluation into a table;
//! larger ones hash each lookup. Evaluating a million points then costs table reads
//! instead of a million × four hashes, and the numbers are identical either way.

use tuft_strands::hash::hash_cell;

/// The most cells a lattice tabulates (16 MB of hashes).
pub const MAX_TABLE: i64 = 1 << 22;

/// The hashes of a `period × period` lattice for one seed.
pub struct Lattice {
    period: i64,
    seed: u32,
    table: Option<Vec<u32>>,
}

impl Lattice {
    /// The lattice repeating every `period` cells, brought into `1..=MAX_LATTICE`
    /// (evaluation refuses larger lattices before it gets here; the bound keeps every
    /// index below `u32::MAX` whatever the caller passes).
    #[must_use]
    pub fn new(seed: u32, period: i64) -> Self {
        let period = period.clamp(1, crate::limits::MAX_LATTICE as i64);
        let table = (period * period <= MAX_TABLE).then(|| {
            let p = period as u32;
            let mut t = Vec::with_capacity((p * p) as usize);
            for y in 0..p {
                for x in 0..p {
                    t.push(hash_cell(seed, x, y));
                }
            }
            t
        });
        Self {
            period,
            seed,
            table,
        }
    }

    /// The lattice's period in cells.
    #[inline]
    #[must_use]
    pub fn period(&self) -> i64 {
        self.period
    }

    /// The hashes, row after row, where the lattice is small enough to tabulate.
    #[inline]
    #[must_use]
    pub fn table(&self) -> Option<&[u32]> {
        self.table.as_deref()
    }

    /// The seed its hashes are made from.
    #[inline]
    #[must_use]
    pub fn seed(&self) -> u32 {
        self.seed
    }

    /// The hash of wrapped cell `(x, y)`; both must lie in `0..period`.
    #[inline]
    #[must_use]
    pub fn at(&self, x: u32, y: u32) -> u32 {
        match &self.table {
            Some(t) => t[y as usize * self.period as usize + x as usize],
            None => hash_cell(self.seed, x, y),
        }
    }

    /// The hashes of the four corners of the cell between columns `x0, x1` and rows
    /// `y0, y1`, in the order (x0,y0), (x1,y0), (x0,y1), (x1,y1).
    #[inline]
    #[must_use]
    pub fn corners(&self, x0: u32, x1: u32, y0: u32, y1: u32) -> [u32; 4] {
        [
            self.at(x0, y0),
            self.at(x1, y0),
            self.at(x0, y1),
            self.at(x1, y1),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_the_same_hashes_as_direct_hashing() {
        let l = Lattice::new(9, 7);
        for y in 0..7 {
            for x in 0..7 {
                assert_eq!(l.at(x, y), hash_cell(9, x, y));
            }
        }
    }
}
