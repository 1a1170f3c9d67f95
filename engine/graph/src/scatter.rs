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
//! 5. The set is sorted by rank, a hash of its own, so a density edit never reorders the
//!    survivors and a level is a prefix. (The sort happens right after step 3, so steps 4
//!    and the assembly walk memory in order.)

use crate::eval::Evaluator;
use crate::graph::{Input, MaterialGraph};
use crate::layer::{MAX_CANDIDATES, STRAND_PORTS, StrandLayer};
use crate::value::PortType;
use crate::{Domain, Field};
use rayon::prelude::*;
use tuft_strands::StrandSet;
use tuft_strands::hash::{hash, hash_in, stream, unit_f32};
use tuft_strands::num::{fast_floor, wrap_delta};

pub use tuft_strands::hash::channel;

/// Salt separating the clump points' hash stream from the strands'.
const CLUMP_SALT: u64 = 0xc1a5_9e37_0000_0001;

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
    /// The layer reads its own relief.
    #[error("strand layer {0:?} reads its own relief through its fields")]
    Recursive(String),
}

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

/// The largest `f32` below 1.
const BELOW_ONE: f32 = 1.0 - f32::EPSILON / 2.0;

/// Every clump point of an `m × m` clump lattice, row-major.
fn clump_points(seed: u64, m: u32) -> Vec<[f32; 2]> {
    (0..m * m)
        .map(|c| clump_point(seed, m, c % m, c / m))
        .collect()
}

/// The nearest clump (id, point) to `(u, v)`, by toroidal distance.
fn nearest_clump(points: &[[f32; 2]], m: u32, u: f32, v: f32) -> (u32, [f32; 2]) {
    let mi = i64::from(m);
    let cx = ((u * m as f32) as i64).clamp(0, mi - 1);
    let cy = ((v * m as f32) as i64).clamp(0, mi - 1);
    let mut best = (f32::INFINITY, 0u32, [0.0f32; 2]);
    for dy in -1..=1 {
        for dx in -1..=1 {
            let x = (cx + dx).rem_euclid(mi) as u32;
            let y = (cy + dy).rem_euclid(mi) as u32;
            let p = points[(y * m + x) as usize];
            let (du, dv) = (wrap_delta(p[0] - u), wrap_delta(p[1] - v));
            let d2 = du * du + dv * dv;
            if d2 < best.0 {
                best = (d2, y * m + x, p);
            }
        }
    }
    (best.1, best.2)
}

/// A random vector in the unit disk from two uniform numbers.
fn disk(angle: f32, radius: f32) -> [f32; 2] {
    let (s, c) = (std::f32::consts::TAU * angle).sin_cos();
    let r = radius.sqrt();
    [c * r, s * r]
}

/// Scatters layer `name` of `evaluator`'s graph.
///
/// # Errors
/// An unknown layer or settings out of range.
pub fn scatter_layer(evaluator: &Evaluator<'_>, name: &str) -> Result<StrandSet, ScatterError> {
    let layer = checked_layer(evaluator.graph(), name)?;
    Ok(scatter(evaluator, layer, evaluator.graph().repeat_m))
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
    let problems = layer.check_settings();
    if !problems.is_empty() || layer.n_candidates() > MAX_CANDIDATES {
        return Err(ScatterError::Settings {
            layer: name.to_owned(),
            problems: problems.join("; "),
        });
    }
    Ok(layer)
}

/// Evaluates `input` (of type `ty`) at `points`, skipping evaluation for constants.
fn read(evaluator: &Evaluator<'_>, input: &Input, ty: PortType, domain: &Domain) -> Field {
    evaluator
        .eval_inputs(&[(input.clone(), ty)], domain)
        .pop()
        .expect("one input gives one field")
}

fn port_type(name: &str) -> PortType {
    STRAND_PORTS
        .iter()
        .find(|p| p.name == name)
        .map_or(PortType::Float, |p| p.ty)
}

#[allow(clippy::too_many_lines)] // one pass, numbered as in the module docs
/// Every candidate of a layer, before the density cut: where it stands (after the clump
/// offset moved it), its clump and the clump's centre, and whether its own density hash
/// passes the density at its root. What the editor's survivor view draws, and the first
/// three steps of the scatter.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Candidates {
    /// Root of each candidate, in `[0, 1)²`.
    pub roots: Vec<[f32; 2]>,
    /// The clump each candidate joins.
    pub clump: Vec<u32>,
    /// That clump's centre.
    pub centre: Vec<[f32; 2]>,
    /// Whether the candidate survives the density threshold.
    pub survives: Vec<bool>,
}

/// The candidates of layer `name` of the evaluator's graph.
///
/// # Errors
/// No such layer, or settings the scatter refuses.
pub fn candidates(evaluator: &Evaluator<'_>, name: &str) -> Result<Candidates, ScatterError> {
    let layer = checked_layer(evaluator.graph(), name)?;
    let streams: [u64; 12] = std::array::from_fn(|c| stream(layer.seed, c as u32));
    let h = |i: usize, c: u32| unit_f32(hash_in(streams[c as usize], i as u64));
    Ok(candidates_with(evaluator, layer, &h))
}

fn candidates_with(
    evaluator: &Evaluator<'_>,
    layer: &StrandLayer,
    h: &(dyn Fn(usize, u32) -> f32 + Sync),
) -> Candidates {
    let seed = layer.seed;
    let n = layer.lattice;
    let m = layer.clump_lattice;
    let count = layer.n_candidates() as usize;
    // Candidates and their clumps.
    let clumps = clump_points(seed, m);
    let candidates: Vec<([f32; 2], u32, [f32; 2])> = (0..count)
        .into_par_iter()
        .map(|i| {
            let (x, y) = ((i % n as usize) as f32, (i / n as usize) as f32);
            let u = ((x + h(i, channel::JITTER_U)) / n as f32).min(BELOW_ONE);
            let v = ((y + h(i, channel::JITTER_V)) / n as f32).min(BELOW_ONE);
            let (clump, centre) = nearest_clump(&clumps, m, u, v);
            ([u, v], clump, centre)
        })
        .collect();

    // 2. The clump offset moves roots after the clump is chosen.
    let mut roots: Vec<[f32; 2]> = candidates.iter().map(|c| c.0).collect();
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
    let survives: Vec<bool> = match &layer.density {
        Input::Const(value) => {
            let d = value.channels()[0];
            (0..count)
                .into_par_iter()
                .map(|i| h(i, channel::DENSITY) < d)
                .collect()
        }
        input => {
            let density = read(evaluator, input, PortType::Float, &Domain::points(&roots));
            (0..count)
                .into_par_iter()
                .map(|i| h(i, channel::DENSITY) < density.at(0, i))
                .collect()
        }
    };
    let (clump, centre) = candidates.iter().map(|c| (c.1, c.2)).unzip();
    Candidates {
        roots,
        clump,
        centre,
        survives,
    }
}

fn scatter(evaluator: &Evaluator<'_>, layer: &StrandLayer, repeat_m: f32) -> StrandSet {
    let seed = layer.seed;
    let m = layer.clump_lattice;
    let count = layer.n_candidates() as usize;
    // Each channel's stream once, so a strand's number costs one mix, not two.
    let streams: [u64; 12] = std::array::from_fn(|c| stream(seed, c as u32));
    let h = |i: usize, c: u32| unit_f32(hash_in(streams[c as usize], i as u64));

    let Candidates {
        roots,
        clump: clump_of,
        centre: centre_of,
        survives,
    } = candidates_with(evaluator, layer, &h);
    let survivors: Vec<u32> = (0..count as u32)
        .into_par_iter()
        .filter(|&i| survives[i as usize])
        .collect();

    // 5 (done early). Sort the survivors by rank (the candidate index breaks ties, so
    // the order is total); ranks are non-negative, so their bits order like the numbers
    // and one integer sort does it. Everything after runs in this order, so every array
    // below is written and read front to back.
    let mut keys: Vec<u64> = survivors
        .par_iter()
        .map(|&i| (u64::from(h(i as usize, channel::RANK).to_bits()) << 32) | u64::from(i))
        .collect();
    keys.par_sort_unstable();
    let survivors: Vec<u32> = keys.iter().map(|&key| key as u32).collect();

    // 4. Every other field, once per survivor at its root.
    let survivor_roots: Vec<[f32; 2]> = survivors.iter().map(|&i| roots[i as usize]).collect();
    let domain = Domain::points(&survivor_roots);
    let names = ["length", "width", "lean", "bend", "root_color", "tip_color"];
    let inputs: Vec<(Input, PortType)> = names
        .iter()
        .map(|&name| {
            let input = layer
                .ports()
                .into_iter()
                .find(|(p, _)| *p == name)
                .map(|(_, i)| i.clone())
                .expect("every named port exists");
            (input, port_type(name))
        })
        .collect();
    let fields = evaluator.eval_inputs(&inputs, &domain);
    let [length, width, lean, bend, root_color, tip_color] =
        <[Field; 6]>::try_from(fields).expect("six inputs give six fields");

    let share = layer.clump_share;
    let var = &layer.variation;
    let clump_seed = seed ^ CLUMP_SALT;
    let hc = |clump: u32, c: u32| unit_f32(hash(clump_seed, u64::from(clump) + (1 << 40), c));
    // Each clump's shared length and colour numbers, once per clump.
    let clump_numbers: Vec<[f32; 2]> = (0..m * m)
        .map(|c| [hc(c, channel::LENGTH), hc(c, channel::COLOR)])
        .collect();
    let mix = |own: f32, clump: f32| (1.0 - share) * own + share * clump;
    // Each clump's shared lean, once per clump rather than once per strand.
    let clump_lean: Vec<[f32; 2]> = (0..m * m)
        .map(|c| disk(hc(c, channel::LEAN_ANGLE), hc(c, channel::LEAN_RADIUS)))
        .collect();
    let strands: Vec<Strand> = survivors
        .par_iter()
        .enumerate()
        .map(|(k, &i)| {
            let i_us = i as usize;
            let (clump, centre) = (clump_of[i_us], centre_of[i_us]);
            let root = survivor_roots[k];
            let [clump_len, clump_col] = clump_numbers[clump as usize];
            let r_len = mix(h(i_us, channel::LENGTH), clump_len);
            let own = disk(h(i_us, channel::LEAN_ANGLE), h(i_us, channel::LEAN_RADIUS));
            let shared = clump_lean[clump as usize];
            let r_col = mix(h(i_us, channel::COLOR), clump_col);
            let brightness = 1.0 + var.color * (2.0 * r_col - 1.0);
            let to_centre = [
                wrap_delta(centre[0] - root[0]) * repeat_m,
                wrap_delta(centre[1] - root[1]) * repeat_m,
            ];
            let rc = root_color.get(k);
            let tc = tip_color.get(k);
            Strand {
                rank: h(i_us, channel::RANK),
                id: i,
                root,
                clump,
                length: (length.at(0, k) * (1.0 + var.length * (2.0 * r_len - 1.0))).max(0.0),
                width: width.at(0, k).max(0.0),
                lean: [
                    lean.at(0, k) + var.lean * mix(own[0], shared[0]),
                    lean.at(1, k) + var.lean * mix(own[1], shared[1]),
                ],
                bend: bend.at(0, k).clamp(0.0, 1.0),
                root_color: [rc[0] * brightness, rc[1] * brightness, rc[2] * brightness],
                tip_color: [tc[0] * brightness, tc[1] * brightness, tc[2] * brightness],
                tip_pull: [layer.tip_pull * to_centre[0], layer.tip_pull * to_centre[1]],
            }
        })
        .collect();

    StrandSet {
        root_uv: strands.par_iter().map(|s| s.root).collect(),
        rank: strands.par_iter().map(|s| s.rank).collect(),
        clump: strands.par_iter().map(|s| s.clump).collect(),
        length: strands.par_iter().map(|s| s.length).collect(),
        width: strands.par_iter().map(|s| s.width).collect(),
        lean: strands.par_iter().map(|s| s.lean).collect(),
        bend: strands.par_iter().map(|s| s.bend).collect(),
        root_color: strands.par_iter().map(|s| s.root_color).collect(),
        tip_color: strands.par_iter().map(|s| s.tip_color).collect(),
        tip_pull: strands.par_iter().map(|s| s.tip_pull).collect(),
        id: strands.par_iter().map(|s| s.id).collect(),
    }
}

/// One strand while the set is being built.
struct Strand {
    rank: f32,
    id: u32,
    root: [f32; 2],
    clump: u32,
    length: f32,
    width: f32,
    lean: [f32; 2],
    bend: f32,
    root_color: [f32; 3],
    tip_color: [f32; 3],
    tip_pull: [f32; 2],
}
