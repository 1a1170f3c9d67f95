//! The candidates: the lattice's points jittered in their cells, each joined to its
//! nearest clump and moved by the clump offset, and the density cut on each (steps 1 to
//! 3 of the scatter), made in rank order ([`Order`]).

use super::PortFields;
use super::ports::read;
use super::rank_order::Order;
use super::{BELOW_ONE, RUN, ScatterError, Streams, channel, checked_layer, lanes, room};
use crate::Domain;
use crate::layer::StrandLayer;
use crate::link::Input;
use crate::value::PortType;
use rayon::prelude::*;
use tuft_strands::hash::{hash, unit_f32};
use tuft_strands::num::fast_floor;

/// Salt separating the clump points' hash stream from the strands'.
pub(super) const CLUMP_SALT: u64 = 0xc1a5_9e37_0000_0001;

/// The point of clump cell `(cx, cy)` of an `m × m` clump lattice (wrapped indices).
#[inline]
fn clump_point(seed: u64, m: u32, cx: u32, cy: u32) -> [f32; 2] {
    let id = u64::from(cy * m + cx);
    let s = seed ^ CLUMP_SALT;
    [
        (cx as f32 + unit_f32(hash(s, id, 0))) / m as f32,
        (cy as f32 + unit_f32(hash(s, id, 1))) / m as f32,
    ]
}

/// `x` wrapped into `[0, 1)`.
#[inline]
fn wrap_unit(x: f32) -> f32 {
    let w = x - fast_floor(x);
    if w >= 1.0 { 0.0 } else { w }
}

/// Every clump point of an `m × m` clump lattice, row-major.
pub(super) fn clump_points(seed: u64, m: u32) -> Vec<[f32; 2]> {
    (0..m * m)
        .map(|c| clump_point(seed, m, c % m, c / m))
        .collect()
}

/// Every candidate of a layer, before the density cut, in rank order: which candidate
/// it is, where it stands (after the clump offset moved it), its clump, and whether its
/// own density hash passes the density at its root. What the editor's survivor view
/// draws, and the first three steps of the scatter.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Candidates {
    /// Each candidate's index `i`: its lattice cell is `(i mod n, i div n)`.
    pub id: Vec<u32>,
    /// Root of each candidate, in `[0, 1)²`.
    pub roots: Vec<[f32; 2]>,
    /// The clump each candidate joins.
    pub clump: Vec<u32>,
    /// Whether the candidate survives the density threshold.
    pub survives: Vec<bool>,
}

/// The candidates of layer `name` of the evaluator's graph.
///
/// # Errors
/// No such layer, or settings the scatter refuses.
pub fn candidates(evaluator: &dyn PortFields, name: &str) -> Result<Candidates, ScatterError> {
    let layer = checked_layer(evaluator.graph(), name)?;
    let clumps = clump_points(layer.seed, layer.clump_lattice);
    let order = Order::new(layer.seed, layer.n_candidates() as usize);
    Ok(candidates_with(
        evaluator,
        layer,
        &Streams::of(layer.seed),
        &clumps,
        &order,
    ))
}

/// The candidates of `layer`, place after place of `order`.
pub(super) fn candidates_with(
    evaluator: &dyn PortFields,
    layer: &StrandLayer,
    streams: &Streams,
    clumps: &[[f32; 2]],
    order: &Order,
) -> Candidates {
    let n = layer.lattice;
    let m = layer.clump_lattice;
    let count = layer.n_candidates() as usize;
    // 1. Candidates and their clumps, a run of places at a time, each place written
    // once (no serial fill with zeros first).
    let (mut id, mut roots, mut clump) = (
        Vec::with_capacity(count),
        Vec::with_capacity(count),
        Vec::with_capacity(count),
    );
    (
        room(&mut id, count).par_chunks_mut(RUN),
        room(&mut roots, count).par_chunks_mut(RUN),
        room(&mut clump, count).par_chunks_mut(RUN),
    )
        .into_par_iter()
        .enumerate()
        .for_each(|(r, (id, roots, clump))| {
            let len = roots.len();
            let mut ids = [0u32; RUN];
            let ids = &mut ids[..len];
            lanes::places(order, (r * RUN) as u32, ids);
            let mut u = streams.at(ids, channel::JITTER_U);
            let mut v = streams.at(ids, channel::JITTER_V);
            lanes::jittered(ids, n, &mut u[..len], &mut v[..len]);
            for (k, root) in roots.iter_mut().enumerate() {
                root.write([u[k], v[k]]);
                id[k].write(ids[k]);
            }
            let mut nearest = [0u32; RUN];
            lanes::nearest_clumps(clumps, m, &u[..len], &v[..len], &mut nearest[..len]);
            for (out, &c) in clump.iter_mut().zip(&nearest) {
                out.write(c);
            }
        });
    // SAFETY: every run wrote each of its places of all three, and the runs cover
    // `count`.
    #[allow(unsafe_code)]
    unsafe {
        id.set_len(count);
        roots.set_len(count);
        clump.set_len(count);
    }

    // 2. The clump offset moves roots after the clump is chosen.
    if layer.clump_offset.link().is_some() {
        let offset = read(
            evaluator,
            &layer.clump_offset,
            PortType::Vec2,
            &Domain::points(&roots),
        );
        roots.par_iter_mut().enumerate().for_each(|(i, r)| {
            *r = [
                wrap_unit(r[0] + offset.at(0, i)).min(BELOW_ONE),
                wrap_unit(r[1] + offset.at(1, i)).min(BELOW_ONE),
            ];
        });
    } else if let Input::Const(value) = &layer.clump_offset {
        let [du, dv, _] = value.channels();
        if du != 0.0 || dv != 0.0 {
            for r in &mut roots {
                *r = [
                    wrap_unit(r[0] + du).min(BELOW_ONE),
                    wrap_unit(r[1] + dv).min(BELOW_ONE),
                ];
            }
        }
    }

    // 3. Density: a threshold on each candidate's own hash.
    let (constant, field) = match &layer.density {
        Input::Const(value) => (value.channels()[0], None),
        input => (
            0.0,
            Some(read(
                evaluator,
                input,
                PortType::Float,
                &Domain::points(&roots),
            )),
        ),
    };
    let density = |i: usize| field.as_ref().map_or(constant, |f| f.at(0, i));
    let mut survives = Vec::with_capacity(count);
    room(&mut survives, count)
        .par_chunks_mut(RUN)
        .enumerate()
        .for_each(|(r, survives)| {
            let own = streams.at(&id[r * RUN..][..survives.len()], channel::DENSITY);
            for (k, s) in survives.iter_mut().enumerate() {
                s.write(own[k] < density(r * RUN + k));
            }
        });
    // SAFETY: every run wrote each of its places, and the runs cover `count`.
    #[allow(unsafe_code)]
    unsafe {
        survives.set_len(count);
    }
    Candidates {
        id,
        roots,
        clump,
        survives,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Evaluator;
    use crate::graph::MaterialGraph;
    use crate::scatter::{near_delta, nearest_clump};
    use tuft_strands::num::wrap_delta;

    #[test]
    fn near_delta_is_wrap_delta_to_the_bit() {
        // Every difference of two points of the repeat, including the ones that sit on
        // the ±½ boundary, where rounding decides.
        let mut points: Vec<f32> = (0..=4096).map(|k| k as f32 / 4096.0).collect();
        points.extend([0.5 - f32::EPSILON, 0.5 + f32::EPSILON, BELOW_ONE, 1e-9]);
        points.extend((0..2000).map(|i| unit_f32(hash(7, i, 0))));
        for &a in &points {
            for &b in points.iter().step_by(7) {
                let d = a.min(BELOW_ONE) - b.min(BELOW_ONE);
                assert_eq!(
                    near_delta(d).to_bits(),
                    wrap_delta(d).to_bits(),
                    "{a} - {b}"
                );
            }
        }
    }

    #[test]
    fn each_candidate_stands_jittered_in_its_own_lattice_cell() {
        // Lattices whose rows end inside a run: many rows a run, and a few.
        for lattice in [7, 301, 1000] {
            let mut graph = MaterialGraph::new("jitter");
            let layer = StrandLayer {
                lattice,
                clump_lattice: 4,
                ..Default::default()
            };
            let streams = Streams::of(layer.seed);
            graph.strands.insert("grass".into(), layer);
            let found = candidates(&Evaluator::new(&graph), "grass").expect("a valid layer");
            let n = lattice as usize;
            assert_eq!(found.roots.len(), n * n);
            for (&i, root) in found.id.iter().zip(&found.roots).step_by(97) {
                let i = i as usize;
                let (x, row) = ((i % n) as f32, (i / n) as f32);
                let want = [
                    ((x + streams.unit(i, channel::JITTER_U)) / n as f32).min(BELOW_ONE),
                    ((row + streams.unit(i, channel::JITTER_V)) / n as f32).min(BELOW_ONE),
                ];
                assert_eq!(
                    root.map(f32::to_bits),
                    want.map(f32::to_bits),
                    "{lattice}: {i}"
                );
            }
        }
    }

    #[test]
    fn the_nearest_clump_is_the_nearest_of_all_clumps() {
        let m = 8;
        let clumps = clump_points(3, m);
        for i in 0..500 {
            let (u, v) = (unit_f32(hash(1, i, 0)), unit_f32(hash(1, i, 1)));
            let d2 = |p: [f32; 2]| wrap_delta(p[0] - u).powi(2) + wrap_delta(p[1] - v).powi(2);
            let best = (0..clumps.len())
                .min_by(|&a, &b| d2(clumps[a]).total_cmp(&d2(clumps[b])))
                .expect("clumps exist");
            let found = nearest_clump(&clumps, m, u, v) as usize;
            assert_eq!(d2(clumps[found]), d2(clumps[best]), "at ({u}, {v})");
        }
    }
}
