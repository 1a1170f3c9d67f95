//! The frame budget: the most triangles a frame submits and the most bytes of strand
//! geometry it keeps, met by choosing coarser levels — a shorter rank prefix, then the
//! cards, then the relief — on the farthest tiles first.

use super::*;

/// What one frame may cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameBudget {
    /// Strand and card triangles submitted.
    pub triangles: u64,
    /// Bytes of strand and card geometry the visible tiles hold: vertices, indices and
    /// roots, once on the CPU and once on the GPU.
    pub bytes: u64,
}

impl Default for FrameBudget {
    /// 16 million triangles and 2 GiB: the lawn and the moss never reach it at any
    /// distance or frame size; the fur up close at 1920 × 1080 does (see BENCHMARKS.md,
    /// section "The frame budget").
    fn default() -> Self {
        Self {
            triangles: 16 << 20,
            bytes: 2 << 30,
        }
    }
}

impl FrameBudget {
    /// No limit: what a measurement of the levels themselves draws under, so that a
    /// budget never moves what it measures.
    pub const UNLIMITED: Self = Self {
        triangles: u64::MAX,
        bytes: u64::MAX,
    };

    /// A budget of `triangles`, holding as many bytes per triangle as the default does
    /// (128), and never fewer bytes than the default: raising the triangles raises what
    /// they may hold with them.
    #[must_use]
    pub fn of_triangles(triangles: u64) -> Self {
        let default = Self::default();
        Self {
            triangles,
            bytes: triangles
                .saturating_mul(default.bytes / default.triangles)
                .max(default.bytes),
        }
    }

    /// The budget for an interactive view on `adapter`: the default on a GPU; on a
    /// software adapter (a CPU rasterising, as in a virtual machine without a GPU) an
    /// eighth of its triangles, 2 million. There a frame of the lawn on the field at
    /// 16 million took 20 to 35 s of CPU (`tuft render --surface field`, "GPU time"),
    /// and the window drew several while the field planted, every click waiting behind
    /// them; at 2 million the farther tiles draw coarser and a frame takes an eighth.
    #[must_use]
    pub fn interactive(adapter: &wgpu::AdapterInfo) -> Self {
        if adapter.device_type == wgpu::DeviceType::Cpu {
            Self {
                triangles: 2 << 20,
                ..Self::default()
            }
        } else {
            Self::default()
        }
    }
}

/// What drawing one tile of one layer at one representation costs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Cost {
    pub(super) triangles: u64,
    pub(super) bytes: u64,
}

impl std::ops::AddAssign for Cost {
    fn add_assign(&mut self, o: Self) {
        self.triangles += o.triangles;
        self.bytes += o.bytes;
    }
}

impl std::ops::SubAssign for Cost {
    fn sub_assign(&mut self, o: Self) {
        self.triangles -= o.triangles;
        self.bytes -= o.bytes;
    }
}

/// Bytes one strand (or card) of `vertices` stored vertices takes: its vertices and roots
/// texels, held on the CPU and again on the GPU. Its indices are one strand's pattern
/// on the CPU and one buffer shared by every tile on the GPU, so a strand adds none.
fn bytes_per_strand(vertices: usize) -> u64 {
    2 * (vertices * size_of::<tuft_strands::mesh::PackedVertex>()
        + crate::tile_buffers::ROOT_TEXELS * 16) as u64
}

/// The representation one step coarser than `rep` for a layer of `n_levels` levels.
fn coarser(rep: Rep, n_levels: usize) -> Option<Rep> {
    match rep {
        Rep::Strands(k) if k + 1 < n_levels => Some(Rep::Strands(k + 1)),
        Rep::Strands(_) => Some(Rep::Cards),
        Rep::Cards => Some(Rep::Relief),
        Rep::Relief => None,
    }
}

impl Scene {
    /// About how many strands tile `t` of layer `li` holds at rank cut `keep`: what is
    /// resident if it covers the cut, else the tile's share of the surface's repeats ×
    /// the prefix.
    pub(super) fn estimate_strands(&self, li: usize, t: usize, keep: f32) -> usize {
        let set = &self.material.layers[li].set;
        let need = set.rank.partition_point(|&r| r < keep);
        let r = &self.layers[li].resident[t];
        if r.n_prefix >= need && r.n_prefix > 0 {
            return r.mesh.ranks.partition_point(|&x| x < keep);
        }
        (f64::from(self.tile_uv[t]) * need as f64) as usize
    }

    /// What tile `t` of layer `li` costs drawn as `choice`.
    pub(super) fn cost(&self, li: usize, t: usize, choice: Choice) -> Cost {
        let shared = &self.layers[li].shared;
        let mut cost = Cost::default();
        if let Rep::Strands(k) = choice.rep {
            let profile = self.material.layers[li].profile;
            let n = self.estimate_strands(li, t, shared.keep[k]) as u64;
            cost.triangles += n * (profile.indices_per_strand() / 3) as u64;
            cost.bytes += n * bytes_per_strand(profile.stored_per_strand());
        }
        if card_visible(choice, &shared.switches) > 0.0 {
            let n = match shared.card_tiles[t].get() {
                Some(built) => built.mesh.ranks.len() as u64,
                None => (f64::from(self.tile_uv[t]) * shared.cards.len() as f64) as u64,
            };
            cost.triangles += n * (cards::INDICES_PER_CARD / 3) as u64;
            cost.bytes += n * bytes_per_strand(cards::VERTICES_PER_CARD);
        }
        cost
    }

    /// What the frame costs drawn as `choices` (per layer, per entry of `visible`): per
    /// layer and tile, and in all.
    fn costs(&self, visible: &[(usize, f32)], choices: &[Vec<Choice>]) -> (Vec<Vec<Cost>>, Cost) {
        let costs: Vec<Vec<Cost>> = choices
            .iter()
            .enumerate()
            .map(|(li, layer)| {
                layer
                    .iter()
                    .zip(visible)
                    .map(|(&c, &(t, _))| self.cost(li, t, c))
                    .collect()
            })
            .collect();
        let mut total = Cost::default();
        for c in costs.iter().flatten() {
            total += *c;
        }
        (costs, total)
    }

    fn over(&self, total: &Cost) -> bool {
        total.triangles > self.budget.triangles || total.bytes > self.budget.bytes
    }

    /// Makes the frame fit `self.budget`. First as a smaller level-of-detail bias would:
    /// the largest scale of every switch distance (down to [`LEAST_SCALE`]) at which the
    /// frame fits, found by bisection, so every switch keeps its fade and only comes
    /// nearer (`choose_at(scale)` gives the choices at a scale). Forcing the farthest
    /// tiles coarser one by one instead cut every level's fade off at one distance: a
    /// hard edge across the field at eye height. Where even the least scale does not
    /// fit (the levels are forced), the farthest tiles of the choices asked for go
    /// coarser one step at a time, at scale 1. Returns the scale and how many (layer,
    /// tile) pairs ended coarser than their distance asks for.
    pub(super) fn fit_budget(
        &self,
        visible: &[(usize, f32)],
        choices: &mut Vec<Vec<Choice>>,
        choose_at: impl Fn(f32) -> Vec<Vec<Choice>>,
    ) -> (f32, u32) {
        let (_, total) = self.costs(visible, choices);
        if !self.over(&total) {
            return (1.0, 0);
        }
        let asked = choices.clone();
        let fits = |at: &[Vec<Choice>]| !self.over(&self.costs(visible, at).1);
        // A walk's frames need nearly the same scale one after another: a bracket a
        // few steps wide about the last frame's, where it holds, saves most of the
        // bisections (each plans every visible tile of every layer again).
        let warm = if self.last_scale > LEAST_SCALE && self.last_scale < 1.0 {
            let low = (self.last_scale / WARM_BRACKET).max(LEAST_SCALE);
            let high = (self.last_scale * WARM_BRACKET).min(1.0);
            let at_low = choose_at(low);
            // Scale 1 is known not to fit (the frame is over its budget).
            (fits(&at_low) && (high >= 1.0 || !fits(&choose_at(high))))
                .then_some((low, high, at_low))
        } else {
            None
        };
        let cold = || {
            let least = choose_at(LEAST_SCALE);
            fits(&least).then_some((LEAST_SCALE, 1.0f32, least))
        };
        let scale = if let Some((low, high, at_low)) = warm.or_else(cold) {
            *choices = at_low;
            // `low` fits, `high` does not; geometric steps, the scale being a ratio,
            // until the bracket is as narrow as the cold search's.
            let (mut low, mut high) = (low, high);
            while high / low > PRECISION {
                let mid = (low * high).sqrt();
                let at = choose_at(mid);
                if fits(&at) {
                    low = mid;
                    *choices = at;
                } else {
                    high = mid;
                }
            }
            low
        } else {
            // No scale is enough (the levels asked for are forced, or even the relief
            // everywhere else is too much): the farthest tiles of the choices asked for
            // go coarser until the frame fits.
            self.coarsen_farthest(visible, choices);
            1.0
        };
        let coarsened = asked
            .iter()
            .flatten()
            .zip(choices.iter().flatten())
            .filter(|(a, b)| a.rep != b.rep)
            .count() as u32;
        (scale, coarsened)
    }

    /// Coarsens `choices` until the frame fits: each round takes every tile one step
    /// coarser from the farthest inward and stops as soon as the frame fits.
    fn coarsen_farthest(&self, visible: &[(usize, f32)], choices: &mut [Vec<Choice>]) {
        let (mut costs, mut total) = self.costs(visible, choices);
        while self.over(&total) {
            let mut moved = false;
            'round: for slot in (0..visible.len()).rev() {
                for li in 0..choices.len() {
                    let n_levels = self.layers[li].shared.keep.len();
                    let Some(rep) = coarser(choices[li][slot].rep, n_levels) else {
                        continue;
                    };
                    let t = visible[slot].0;
                    let next = Choice { rep, fade: 0.0 };
                    let cost = self.cost(li, t, next);
                    total -= costs[li][slot];
                    total += cost;
                    costs[li][slot] = cost;
                    choices[li][slot] = next;
                    moved = true;
                    if !self.over(&total) {
                        break 'round;
                    }
                }
            }
            if !moved {
                break;
            }
        }
    }
}

/// The least scale of the switch distances the budget takes before it forces tiles
/// coarser one by one: every switch 64 times nearer.
pub const LEAST_SCALE: f32 = 1.0 / 64.0;

/// How narrow the bracket of the scale is when the search stops: just over the ratio
/// eight bisections of [`LEAST_SCALE`]..1 leave, `64^(1/2^8)` = 1.01638, so the scale
/// found is within 1.7 % of the largest that fits.
const PRECISION: f32 = 1.0165;

/// The bracket about the last frame's scale a search starts from, as a ratio either
/// way: three bisections of it reach [`PRECISION`].
const WARM_BRACKET: f32 = 1.05;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coarser_walks_the_levels_then_the_cards_then_the_relief() {
        let mut rep = Rep::Strands(0);
        let mut seen = vec![rep];
        while let Some(next) = coarser(rep, 3) {
            seen.push(next);
            rep = next;
        }
        assert_eq!(
            seen,
            [
                Rep::Strands(0),
                Rep::Strands(1),
                Rep::Strands(2),
                Rep::Cards,
                Rep::Relief
            ]
        );
    }
}
