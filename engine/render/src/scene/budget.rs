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
        if card_visible(choice, shared.keep.len()) > 0.0 {
            let n = match shared.card_tiles[t].get() {
                Some(built) => built.mesh.ranks.len() as u64,
                None => (f64::from(self.tile_uv[t]) * shared.cards.len() as f64) as u64,
            };
            cost.triangles += n * (cards::INDICES_PER_CARD / 3) as u64;
            cost.bytes += n * bytes_per_strand(cards::VERTICES_PER_CARD);
        }
        cost
    }

    /// Coarsens `choices` (per layer, per entry of `visible`, nearest first) until the
    /// frame fits `self.budget`: each round takes every tile one step coarser from the
    /// farthest inward and stops as soon as the frame fits. Returns how many tiles were
    /// coarsened.
    pub(super) fn fit_budget(&self, visible: &[(usize, f32)], choices: &mut [Vec<Choice>]) -> u32 {
        let mut costs: Vec<Vec<Cost>> = choices
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
        let budget = self.budget;
        let over = |total: &Cost| total.triangles > budget.triangles || total.bytes > budget.bytes;
        let mut coarsened = vec![vec![false; visible.len()]; choices.len()];
        while over(&total) {
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
                    coarsened[li][slot] = true;
                    moved = true;
                    if !over(&total) {
                        break 'round;
                    }
                }
            }
            if !moved {
                break;
            }
        }
        coarsened.iter().flatten().filter(|&&c| c).count() as u32
    }
}

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
