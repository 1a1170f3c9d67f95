//! Step 4's assembly: the set's columns written from the survivors, their draws and the
//! ports' values at their roots, a run of survivors at a time.
//!
//! A run's loops are compiled for AVX2 where the CPU has it (the compiler puts some on
//! eight lanes) and for the baseline elsewhere, and every path writes the same bits: the
//! loops only add, multiply, take minima and maxima and look up tables, which no
//! instruction set rounds differently (tested below, NaN and out-of-range values
//! included).

use super::ports::Column;
use super::{Draws, RUN, Survivor, room};
use crate::limits;
use rayon::prelude::*;
use std::mem::MaybeUninit;
use tuft_strands::StrandSet;
use tuft_strands::num::wrap_delta;
#[cfg(target_arch = "x86_64")]
use tuft_strands::simd::{Level, level};

/// What every run of the fill reads.
pub(super) struct Fill<'a> {
    pub(super) survivors: &'a [Survivor],
    pub(super) draws: &'a [Draws],
    pub(super) clumps: &'a [[f32; 2]],
    /// Each clump's shared length and colour numbers.
    pub(super) clump_numbers: &'a [[f32; 2]],
    /// Each clump's shared lean.
    pub(super) clump_lean: &'a [[f32; 2]],
    /// The ports' values at the survivors' roots.
    pub(super) length: &'a Column,
    pub(super) width: &'a Column,
    pub(super) lean: &'a Column,
    pub(super) bend: &'a Column,
    pub(super) root_color: &'a Column,
    pub(super) tip_color: &'a Column,
    pub(super) tip_pull: f32,
    pub(super) repeat_m: f32,
    /// The share of each variation the clump decides.
    pub(super) share: f32,
    pub(super) variation: &'a crate::layer::Variation,
}

/// One run's places in each of the set's columns, each written once.
struct Run<'o> {
    rank: &'o mut [MaybeUninit<f32>],
    clump: &'o mut [MaybeUninit<u32>],
    id: &'o mut [MaybeUninit<u32>],
    length: &'o mut [MaybeUninit<f32>],
    width: &'o mut [MaybeUninit<f32>],
    lean: &'o mut [MaybeUninit<[f32; 2]>],
    bend: &'o mut [MaybeUninit<f32>],
    root_color: &'o mut [MaybeUninit<[f32; 3]>],
    tip_color: &'o mut [MaybeUninit<[f32; 3]>],
    pull: &'o mut [MaybeUninit<[f32; 2]>],
}

impl Fill<'_> {
    /// The set of the survivors standing at `root_uv`, without its groom: every column
    /// written in place, one strand per index, each place once. The columns are never
    /// filled with zeros first (a serial pass over each: the memory is the last set's,
    /// which the allocator hands back dirty).
    pub(super) fn set(&self, root_uv: Vec<[f32; 2]>) -> StrandSet {
        let n = self.survivors.len();
        // The groom's columns are left for the groom to make (their room unused).
        let mut set = StrandSet {
            root_uv,
            ..StrandSet::with_capacity(n)
        };
        // A run of survivors at a time, one column after another: each loop reads its
        // port's channels from scratch arrays and writes one column, front to back.
        (
            room(&mut set.rank, n).par_chunks_mut(RUN),
            room(&mut set.clump, n).par_chunks_mut(RUN),
            room(&mut set.id, n).par_chunks_mut(RUN),
            room(&mut set.length, n).par_chunks_mut(RUN),
            room(&mut set.width, n).par_chunks_mut(RUN),
            room(&mut set.lean, n).par_chunks_mut(RUN),
            room(&mut set.bend, n).par_chunks_mut(RUN),
            room(&mut set.root_color, n).par_chunks_mut(RUN),
            room(&mut set.tip_color, n).par_chunks_mut(RUN),
            room(&mut set.tip_pull, n).par_chunks_mut(RUN),
        )
            .into_par_iter()
            .enumerate()
            .for_each(
                |(r, (rank, clump, id, length, width, lean, bend, root_color, tip_color, pull))| {
                    let out = Run {
                        rank,
                        clump,
                        id,
                        length,
                        width,
                        lean,
                        bend,
                        root_color,
                        tip_color,
                        pull,
                    };
                    self.run(r, out);
                },
            );
        // SAFETY: the loop above wrote every place of every run of the first `n` of
        // each column (each of `run`'s loops walks its whole run).
        #[allow(unsafe_code)]
        unsafe {
            set.rank.set_len(n);
            set.clump.set_len(n);
            set.id.set_len(n);
            set.length.set_len(n);
            set.width.set_len(n);
            set.lean.set_len(n);
            set.bend.set_len(n);
            set.root_color.set_len(n);
            set.tip_color.set_len(n);
            set.tip_pull.set_len(n);
        }
        set
    }

    /// Writes run `r` (survivors `r × RUN` onwards, as many as `out`'s columns hold).
    fn run(&self, r: usize, out: Run<'_>) {
        #[cfg(target_arch = "x86_64")]
        if level() >= Level::Avx2 {
            // SAFETY: the level is AVX2 only where the CPU has AVX2.
            #[allow(unsafe_code)]
            unsafe {
                self.run_avx2(r, out);
            }
            return;
        }
        self.run_portable(r, out);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn run_avx2(&self, r: usize, out: Run<'_>) {
        self.run_portable(r, out);
    }

    #[inline(always)]
    fn run_portable(&self, r: usize, out: Run<'_>) {
        let first = r * RUN;
        let n = out.rank.len();
        let s = &self.survivors[first..first + n];
        let d = &self.draws[first..first + n];
        // Every attribute stays inside the limits whatever the fields say, so a set is
        // one its own file reader accepts and its meshes are finite. The bounds that
        // scale with the repeat use `min`/`max`, which take a NaN bound quietly where
        // `clamp` panics.
        let (max_length, max_width) = limits::strand_bounds(self.repeat_m);
        let colour = |c: f32| c.clamp(0.0, limits::MAX_COLOR);
        let lean_of = |x: f32| x.clamp(-limits::MAX_LEAN, limits::MAX_LEAN);
        let share = self.share;
        let var = self.variation;
        let mix = |own: f32, clump: f32| (1.0 - share) * own + share * clump;
        let mut scratch = [[0.0f32; RUN]; 3];
        let [a0, a1, a2] = &mut scratch;
        let (a0, a1, a2) = (&mut a0[..n], &mut a1[..n], &mut a2[..n]);
        for (k, s) in s.iter().enumerate() {
            out.rank[k].write(s.rank);
            out.clump[k].write(s.clump);
            out.id[k].write(s.id);
            let centre = self.clumps[s.clump as usize];
            out.pull[k].write([
                self.tip_pull * wrap_delta(centre[0] - s.root[0]) * self.repeat_m,
                self.tip_pull * wrap_delta(centre[1] - s.root[1]) * self.repeat_m,
            ]);
        }
        self.length.channel_into(0, first, a0);
        for (k, o) in out.length.iter_mut().enumerate() {
            let r_len = mix(d[k].length, self.clump_numbers[s[k].clump as usize][0]);
            let own_length = a0[k].min(max_length);
            o.write(
                (own_length * (1.0 + var.length * (2.0 * r_len - 1.0)))
                    .min(max_length)
                    .max(0.0),
            );
        }
        self.width.channel_into(0, first, a0);
        for (o, &w) in out.width.iter_mut().zip(&*a0) {
            o.write(w.min(max_width).max(0.0));
        }
        self.lean.channel_into(0, first, a0);
        self.lean.channel_into(1, first, a1);
        for (k, o) in out.lean.iter_mut().enumerate() {
            let (own, shared) = (d[k].lean, self.clump_lean[s[k].clump as usize]);
            o.write([
                lean_of(lean_of(a0[k]) + var.lean * mix(own[0], shared[0])),
                lean_of(lean_of(a1[k]) + var.lean * mix(own[1], shared[1])),
            ]);
        }
        self.bend.channel_into(0, first, a0);
        for (o, &b) in out.bend.iter_mut().zip(&*a0) {
            o.write(b.clamp(0.0, 1.0));
        }
        let mut brightness = [0.0f32; RUN];
        for (k, b) in brightness[..n].iter_mut().enumerate() {
            let r_col = mix(d[k].color, self.clump_numbers[s[k].clump as usize][1]);
            *b = 1.0 + var.color * (2.0 * r_col - 1.0);
        }
        for (column, out) in [
            (self.root_color, out.root_color),
            (self.tip_color, out.tip_color),
        ] {
            column.channel_into(0, first, a0);
            column.channel_into(1, first, a1);
            column.channel_into(2, first, a2);
            for (k, o) in out.iter_mut().enumerate() {
                let shade = |c: f32| colour(colour(c) * brightness[k]);
                o.write([shade(a0[k]), shade(a1[k]), shade(a2[k])]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PortType;
    use crate::field::Field;
    use std::sync::Arc;
    use tuft_strands::hash::{hash, unit_f32};

    /// Every column of a run, as bits.
    type Written = Vec<Vec<u32>>;

    fn fill_with(fill: &Fill<'_>, n: usize, avx2: bool) -> Written {
        let mut rank = vec![MaybeUninit::new(0.0); n];
        let mut clump = vec![MaybeUninit::new(0); n];
        let mut id = vec![MaybeUninit::new(0); n];
        let mut length = vec![MaybeUninit::new(0.0); n];
        let mut width = vec![MaybeUninit::new(0.0); n];
        let mut lean = vec![MaybeUninit::new([0.0; 2]); n];
        let mut bend = vec![MaybeUninit::new(0.0); n];
        let mut root_color = vec![MaybeUninit::new([0.0; 3]); n];
        let mut tip_color = vec![MaybeUninit::new([0.0; 3]); n];
        let mut pull = vec![MaybeUninit::new([0.0; 2]); n];
        let out = Run {
            rank: &mut rank,
            clump: &mut clump,
            id: &mut id,
            length: &mut length,
            width: &mut width,
            lean: &mut lean,
            bend: &mut bend,
            root_color: &mut root_color,
            tip_color: &mut tip_color,
            pull: &mut pull,
        };
        if avx2 {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: only called where the CPU has AVX2.
            #[allow(unsafe_code)]
            unsafe {
                fill.run_avx2(0, out);
            }
        } else {
            fill.run_portable(0, out);
        }
        vec![
            bits(&rank),
            bits(&clump),
            bits(&id),
            bits(&length),
            bits(&width),
            bits(&lean),
            bits(&bend),
            bits(&root_color),
            bits(&tip_color),
            bits(&pull),
        ]
    }

    /// A column's values as 32-bit words.
    fn bits<T: bytemuck::Pod>(column: &[MaybeUninit<T>]) -> Vec<u32> {
        // SAFETY: every place was written when the column was made, and written again
        // by the fill.
        #[allow(unsafe_code)]
        let values: Vec<T> = column.iter().map(|v| unsafe { v.assume_init() }).collect();
        bytemuck::cast_slice(&values).to_vec()
    }

    #[test]
    fn every_instruction_set_fills_the_same_bits() {
        let n = RUN - 3;
        // Numbers from -2 to 3, with NaNs and infinities among them: every clamp bites.
        let odd = |k: usize, c: u64| -> f32 {
            match k % 97 {
                0 => f32::NAN,
                1 => f32::INFINITY,
                2 => f32::NEG_INFINITY,
                _ => unit_f32(hash(7, k as u64, c as u32)) * 5.0 - 2.0,
            }
        };
        let m = 4;
        let survivors: Vec<Survivor> = (0..n)
            .map(|k| Survivor {
                rank: odd(k, 0),
                id: k as u32 * 3,
                root: [odd(k, 1).abs() % 1.0, odd(k, 2).abs() % 1.0],
                clump: (k % (m * m)) as u32,
            })
            .collect();
        let draws: Vec<Draws> = (0..n)
            .map(|k| Draws {
                length: odd(k, 3),
                lean: [odd(k, 4), odd(k, 5)],
                color: odd(k, 6),
            })
            .collect();
        let table =
            |c: u64| -> Vec<[f32; 2]> { (0..m * m).map(|k| [odd(k, c), odd(k, c + 1)]).collect() };
        let field = |ty: PortType, c: u64| {
            let data = (0..n * ty.channels()).map(|k| odd(k, c)).collect();
            Column::Field(Arc::new(Field { ty, data }))
        };
        let (clumps, numbers, leans) = (table(10), table(12), table(14));
        let (length, lean, root_color) = (
            field(PortType::Float, 20),
            field(PortType::Vec2, 21),
            field(PortType::Color, 22),
        );
        let (width, bend, tip_color) = (
            Column::Const([0.004, 0.0, 0.0]),
            field(PortType::Float, 23),
            Column::Const([0.2, 1.7, -0.1]),
        );
        let variation = crate::layer::Variation {
            length: 0.3,
            lean: 0.2,
            color: 0.1,
        };
        let fill = Fill {
            survivors: &survivors,
            draws: &draws,
            clumps: &clumps,
            clump_numbers: &numbers,
            clump_lean: &leans,
            length: &length,
            width: &width,
            lean: &lean,
            bend: &bend,
            root_color: &root_color,
            tip_color: &tip_color,
            tip_pull: 0.5,
            repeat_m: 0.5,
            share: 0.4,
            variation: &variation,
        };
        let portable = fill_with(&fill, n, false);
        // The bounds hold on the baseline whatever the field says, NaN included (the
        // evaluator replaces a field's NaNs before the fill; the draws have none).
        let floats = |bits: &[u32]| bits.iter().map(|&b| f32::from_bits(b)).collect::<Vec<_>>();
        let (max_length, _) = limits::strand_bounds(0.5);
        assert!(
            floats(&portable[3])
                .iter()
                .all(|l| (0.0..=max_length).contains(l))
        );
        assert!(
            floats(&portable[6])
                .iter()
                .all(|b| (0.0..=1.0).contains(b) || b.is_nan())
        );
        #[cfg(target_arch = "x86_64")]
        if level() >= Level::Avx2 {
            assert_eq!(fill_with(&fill, n, true), portable);
        }
    }
}
