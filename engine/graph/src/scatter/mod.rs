//! The scatter: a strand layer's fields turned into a [`StrandSet`].
//!
//! Strands are integers. Candidate `i` sits in cell `(i mod n, i div n)` of an `n × n`
//! lattice over the repeat, jittered inside its cell; every random number it draws is a
//! hash of `(layer seed, i, channel)`. There is no generator state, so the set is
//! bit-identical on any machine and any number of threads.
//!
//! 1. Each candidate joins the nearest clump point (toroidal distance, 3×3 clump cells).
//! 2. The clump-offset field, read at the candidate's root, moves the root.
//! 3. The candidate grows iff its density hash is below the density field at its root:
//!    a threshold, never a fade, so raising the density only ever adds strands.
//! 4. Survivors read every other field once, at their root; `clump_share` of each
//!    per-strand variation (length, lean, colour) comes from the clump's hash; the tip is
//!    pulled toward the clump's centre by `tip_pull`.
//! 5. The set is in rank order: a strand's rank is its candidate's place in a keyed
//!    shuffle of the candidates ([`rank_order`]), over their count, so a density edit
//!    never reorders the survivors and a level is a prefix. The candidates are made
//!    place by place, so the survivors come out in this order with no sort, and steps
//!    4 and the assembly walk memory front to back.

mod candidates;
mod fill;
mod lanes;
mod ports;
mod rank_order;

use candidates::{CLUMP_SALT, candidates_with, clump_points};
pub use candidates::{Candidates, candidates};
use fill::Fill;

use ports::{Column, columns, evaluated, groom, port_input};

use crate::Domain;
use crate::cache::PartKey;
use crate::cache::{KeptOutputs, SetCache};
use crate::field::Field;
use crate::graph::MaterialGraph;
use crate::layer::StrandLayer;
use crate::limits;
use crate::link::Input;
use crate::value::PortType;
use rayon::prelude::*;
use std::mem::MaybeUninit;
use std::sync::Arc;
use tuft_strands::StrandSet;
use tuft_strands::hash::{hash, stream, unit_f32};
use tuft_strands::num::wrap_index;

pub use tuft_strands::hash::channel;

/// What a node that reads a strand layer reports when the layer cannot be had: the
/// same finding whether evaluation meets it or validation foresees it.
pub(crate) fn reading_layer(node: &crate::graph::Node, e: &ScatterError) -> crate::Diagnostic {
    crate::Diagnostic::error(crate::Code::BadParam, format!("{}: {e}", node.label())).at(node.id)
}

/// Why a layer could not be scattered.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScatterError {
    /// No layer by that name.
    #[error("there is no strand layer {0:?}")]
    UnknownLayer(String),
    /// The layer's settings are out of range.
    #[error("strand layer {layer:?}: {problems}")]
    Settings {
        /// The layer.
        layer: String,
        /// What is wrong.
        problems: String,
    },
    /// The strands laid flat would cover the repeat more often than the limit allows,
    /// so nothing downstream (the relief, the atlas, the meshes) starts on them.
    #[error(
        "strand layer {layer:?}: its strands laid flat cover the repeat {cover:.0} times; \
         the most is {}: lower the lattice, the density or the strands' size",
        limits::MAX_COVER
    )]
    Cover {
        /// The layer.
        layer: String,
        /// Σ length × width over the repeat's area.
        cover: f32,
    },
    /// The layer reads its own relief.
    #[error("strand layer {0:?} reads its own relief through its fields")]
    Recursive(String),
}

/// The largest `f32` below 1.
const BELOW_ONE: f32 = 1.0 - f32::EPSILON / 2.0;

/// A layer's hash streams, one per strand channel: a strand's number costs one mix.
#[derive(Clone, Copy)]
struct Streams([u64; 12]);

impl Streams {
    fn of(seed: u64) -> Self {
        Self(std::array::from_fn(|c| stream(seed, c as u32)))
    }

    /// Candidate `i`'s number on `channel`, in `[0, 1)`: what the lanes compute, one at
    /// a time (the tests' reference).
    #[cfg(test)]
    fn unit(&self, i: usize, channel: u32) -> f32 {
        unit_f32(tuft_strands::hash::hash_in(
            self.0[channel as usize],
            i as u64,
        ))
    }

    /// [`Streams::unit`] of candidates `ids` (at most [`RUN`]), over lanes; the array
    /// past them is zero.
    fn at(&self, ids: &[u32], channel: u32) -> [f32; RUN] {
        let mut out = [0.0; RUN];
        lanes::units_of(self.0[channel as usize], ids, &mut out[..ids.len()]);
        out
    }
}

/// How many candidates one task of a parallel loop takes: their numbers on one channel
/// fit a scratch array on the stack.
const RUN: usize = 2048;

/// What the scatter asks of the evaluator running it ([`crate::Evaluator`] is the one):
/// the graph, the cache it shares, and a layer's ports evaluated at its roots. The
/// scatter stands below the evaluator, which scatters through it.
pub trait PortFields {
    /// The graph being scattered.
    fn graph(&self) -> &MaterialGraph;
    /// The cache shared across evaluators, if any.
    fn shared_cache(&self) -> Option<&SetCache>;
    /// `inputs` evaluated at the points of `domain`.
    fn eval_inputs(&self, inputs: &[(Input, PortType)], domain: &Domain) -> Vec<Field>;
    /// `inputs` evaluated at the points of `domain`, each node's outputs taken from
    /// `kept` where an earlier evaluator left them at the same points, and left there
    /// otherwise.
    fn eval_inputs_kept(
        &self,
        inputs: &[(Input, PortType)],
        domain: &Domain,
        kept: KeptOutputs<'_>,
    ) -> Vec<Arc<Field>>;
}

/// Scatters layer `name` of `evaluator`'s graph.
///
/// # Errors
/// An unknown layer or settings out of range.
pub fn scatter_layer(evaluator: &dyn PortFields, name: &str) -> Result<StrandSet, ScatterError> {
    let layer = checked_layer(evaluator.graph(), name)?;
    let repeat_m = evaluator.graph().repeat_m;
    let set =
        scatter(evaluator, layer, repeat_m).thinned(layer.levels.layer_keep, layer.levels.widen_p);
    // Validation estimates the cover from the fields on a grid; the set itself says
    // what it is, before anything splats or meshes it (a fifth over the limit is
    // allowed for the estimate's error, so a graph that validates clean is not refused
    // here for a field's detail the grid missed).
    // Summed a run at a time on every core, the runs' sums then in order, so the figure
    // does not depend on the core count.
    let runs: Vec<f64> = set
        .length
        .par_chunks(RUN)
        .zip(set.width.par_chunks(RUN))
        .map(|(l, w)| l.iter().zip(w).map(|(l, w)| f64::from(l * w)).sum())
        .collect();
    let cover = runs.iter().sum::<f64>() / f64::from(repeat_m * repeat_m);
    if cover > f64::from(limits::MAX_COVER) * 1.2 {
        return Err(ScatterError::Cover {
            layer: name.to_owned(),
            cover: cover as f32,
        });
    }
    Ok(set)
}

/// Layer `name` of `graph`, if it exists and its settings are ones the scatter accepts.
fn checked_layer<'g>(
    graph: &'g MaterialGraph,
    name: &str,
) -> Result<&'g StrandLayer, ScatterError> {
    let layer = graph
        .strands
        .get(name)
        .ok_or_else(|| ScatterError::UnknownLayer(name.to_owned()))?;
    let mut problems = layer.check_settings();
    problems.extend(limits::layer_problems(layer));
    if !problems.is_empty() {
        return Err(ScatterError::Settings {
            layer: name.to_owned(),
            problems: problems.join("; "),
        });
    }
    Ok(layer)
}

/// A survivor of the density cut in rank order: its rank, its candidate index and what
/// step 4 reads of the candidate.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Survivor {
    rank: f32,
    id: u32,
    root: [f32; 2],
    clump: u32,
}

/// What a survivor draws for itself from its own hashes: its length and colour numbers
/// and its lean in the unit disk (a sine and a cosine each).
#[derive(Clone, Copy, Debug, Default)]
struct Draws {
    length: f32,
    lean: [f32; 2],
    color: f32,
}

/// The survivors in rank order, each with its draws: made once for a seed, lattice,
/// density and clump offset, so an edit of any other port (a length, a colour) finds
/// them made and draws nothing again.
#[derive(Debug, Default)]
pub(crate) struct Survivors {
    list: Vec<Survivor>,
    draws: Vec<Draws>,
}

fn scatter(evaluator: &dyn PortFields, layer: &StrandLayer, repeat_m: f32) -> StrandSet {
    let seed = layer.seed;
    let m = layer.clump_lattice;
    let streams = Streams::of(seed);

    let clumps = clump_points(seed, m);
    // The roots depend on the seed, the lattices, the density and the clump offset
    // alone: an edit to another port finds them made.
    let shared = evaluator.shared_cache().map(|cache| {
        let settings = vec![seed, u64::from(layer.lattice), u64::from(m)];
        let inputs = vec![layer.density.clone(), layer.clump_offset.clone()];
        (cache, PartKey::of(evaluator.graph(), settings, inputs))
    });
    let survivors = match shared
        .as_ref()
        .and_then(|(c, key)| c.survivors::<Survivors>(key))
    {
        Some(kept) => kept,
        None => {
            let list = survivors(evaluator, layer, &streams, &clumps);
            let draws = draws(&streams, &list);
            let made = Arc::new(Survivors { list, draws });
            if let Some((cache, key)) = &shared {
                cache.insert_survivors(key.clone(), made.clone());
            }
            made
        }
    };

    // 4. Every other field, once per survivor at its root.
    let Survivors {
        list: survivors,
        draws,
    } = &*survivors;
    let survivor_roots: Vec<[f32; 2]> = survivors.par_iter().map(|s| s.root).collect();
    let domain = Domain::points(&survivor_roots);
    let names = ["length", "width", "lean", "bend", "root_color", "tip_color"];
    let ports: Vec<(&'static str, Input)> = names
        .iter()
        .map(|&name| (name, port_input(layer, name)))
        .collect();
    let roots_key = shared.as_ref().map(|(cache, key)| (*cache, key));
    let [length, width, lean, bend, root_color, tip_color] =
        <[Column; 6]>::try_from(columns(evaluator, roots_key, &ports, &domain, evaluated))
            .expect("six inputs give six columns");

    let clump_seed = seed ^ CLUMP_SALT;
    let hc = |clump: u32, c: u32| unit_f32(hash(clump_seed, u64::from(clump) + (1 << 40), c));
    // Each clump's shared length and colour numbers, once per clump.
    let clump_numbers: Vec<[f32; 2]> = (0..m * m)
        .map(|c| [hc(c, channel::LENGTH), hc(c, channel::COLOR)])
        .collect();
    // Each clump's shared lean, once per clump rather than once per strand.
    let clump_lean: Vec<[f32; 2]> = (0..m * m)
        .map(|c| lanes::disk(hc(c, channel::LEAN_ANGLE), hc(c, channel::LEAN_RADIUS)))
        .collect();
    let fill = Fill {
        survivors,
        draws,
        clumps: &clumps,
        clump_numbers: &clump_numbers,
        clump_lean: &clump_lean,
        length: &length,
        width: &width,
        lean: &lean,
        bend: &bend,
        root_color: &root_color,
        tip_color: &tip_color,
        tip_pull: layer.tip_pull,
        repeat_m,
        share: layer.clump_share,
        variation: &layer.variation,
    };

    let mut set = fill.set(survivor_roots);
    groom(evaluator, layer, roots_key, &domain, &mut set);
    set
}

/// The first `n` places of `column`'s spare room, for a fill that writes each once.
fn room<T>(column: &mut Vec<T>, n: usize) -> &mut [MaybeUninit<T>] {
    &mut column.spare_capacity_mut()[..n]
}

/// Each survivor's draws, a run at a time: its numbers over lanes, then its lean.
fn draws(streams: &Streams, survivors: &[Survivor]) -> Vec<Draws> {
    // Written in place, each place once: no serial fill with defaults first.
    let n = survivors.len();
    let mut draws = Vec::with_capacity(n);
    room(&mut draws, n)
        .par_chunks_mut(RUN)
        .zip(survivors.par_chunks(RUN))
        .for_each(|(draws, survivors)| {
            let mut ids = [0u32; RUN];
            for (id, s) in ids.iter_mut().zip(survivors) {
                *id = s.id;
            }
            let ids = &ids[..survivors.len()];
            let length = streams.at(ids, channel::LENGTH);
            let angle = streams.at(ids, channel::LEAN_ANGLE);
            let radius = streams.at(ids, channel::LEAN_RADIUS);
            let color = streams.at(ids, channel::COLOR);
            let mut lean = [[0.0; 2]; RUN];
            let lean = &mut lean[..ids.len()];
            lanes::disks(&angle[..ids.len()], &radius[..ids.len()], lean);
            for (k, d) in draws.iter_mut().enumerate() {
                d.write(Draws {
                    length: length[k],
                    lean: lean[k],
                    color: color[k],
                });
            }
        });
    // SAFETY: every run wrote each of its places, and the runs cover the first `n`.
    #[allow(unsafe_code)]
    unsafe {
        draws.set_len(n);
    }
    draws
}

/// Steps 1 to 3 and 5: the candidates, made in rank order, and the survivors of the
/// density cut among them, in that order. Everything after runs in this order, so every
/// array is written and read front to back.
fn survivors(
    evaluator: &dyn PortFields,
    layer: &StrandLayer,
    streams: &Streams,
    clumps: &[[f32; 2]],
) -> Vec<Survivor> {
    let order = rank_order::Order::new(layer.seed, layer.n_candidates() as usize);
    let Candidates {
        id,
        roots,
        clump,
        survives,
    } = candidates_with(evaluator, layer, streams, clumps, &order);
    let kept = Kept {
        order: &order,
        id: &id,
        roots: &roots,
        clump: &clump,
        survives: &survives,
    };
    tuft_strands::buckets::deal_walks(&kept, 1, |_| 0).1
}

/// The survivors of the density cut, a run of places a part: what [`survivors`] deals
/// into one bucket, so that every core counts and writes its runs' survivors at once.
struct Kept<'a> {
    order: &'a rank_order::Order,
    id: &'a [u32],
    roots: &'a [[f32; 2]],
    clump: &'a [u32],
    survives: &'a [bool],
}

impl tuft_strands::buckets::PartWalk for Kept<'_> {
    type Item = Survivor;

    fn parts(&self) -> usize {
        self.survives.len().div_ceil(RUN)
    }

    fn walk(&self, part: usize, mut f: impl FnMut(Survivor)) {
        let first = part * RUN;
        let end = (first + RUN).min(self.survives.len());
        for p in (first..end).filter(|&p| self.survives[p]) {
            f(Survivor {
                rank: self.order.rank(p as u32),
                id: self.id[p],
                root: self.roots[p],
                clump: self.clump[p],
            });
        }
    }
}

/// `wrap_delta` for `|d| < 1` (the difference of two points of the repeat), with
/// two compares instead of a floor; the same value to the bit.
#[inline]
fn near_delta(d: f32) -> f32 {
    let e = d + 0.5;
    if e >= 1.0 {
        d - 1.0
    } else if e < 0.0 {
        d + 1.0
    } else {
        d
    }
}

/// The nearest clump to `(u, v)` by toroidal distance: its index into `points`.
fn nearest_clump(points: &[[f32; 2]], m: u32, u: f32, v: f32) -> u32 {
    let m_us = m as usize;
    let cx = ((u * m as f32) as i64).clamp(0, i64::from(m) - 1);
    let cy = ((v * m as f32) as i64).clamp(0, i64::from(m) - 1);
    let mut best = (f32::INFINITY, 0u32);
    for dy in -1..=1 {
        let row = wrap_index(cy + dy, m_us) * m_us;
        for dx in -1..=1 {
            let id = row + wrap_index(cx + dx, m_us);
            let p = points[id];
            let (du, dv) = (near_delta(p[0] - u), near_delta(p[1] - v));
            let d2 = du * du + dv * dv;
            if d2 < best.0 {
                best = (d2, id as u32);
            }
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_survivor_draws_its_own_numbers() {
        let streams = Streams::of(11);
        // Runs longer and shorter than one, ids in no order, the largest id included.
        let survivors: Vec<Survivor> = (0..RUN as u64 * 2 + 77)
            .map(|k| {
                let id = if k == 5 {
                    u32::MAX
                } else {
                    hash(4, k, 0) as u32
                };
                Survivor {
                    id,
                    ..Survivor::default()
                }
            })
            .collect();
        let draws = draws(&streams, &survivors);
        for (s, d) in survivors.iter().zip(&draws) {
            let i = s.id as usize;
            let lean = lanes::disk(
                streams.unit(i, channel::LEAN_ANGLE),
                streams.unit(i, channel::LEAN_RADIUS),
            );
            assert_eq!(
                d.length.to_bits(),
                streams.unit(i, channel::LENGTH).to_bits()
            );
            assert_eq!(d.lean.map(f32::to_bits), lean.map(f32::to_bits));
            assert_eq!(d.color.to_bits(), streams.unit(i, channel::COLOR).to_bits());
        }
    }
}
