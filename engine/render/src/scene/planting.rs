use super::*;

/// One slice of one tile of one layer to plant and mesh: the set's strands `from..to`
/// that fall on the tile, appended to the `from` it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Slice {
    pub(super) layer: usize,
    pub(super) tile: usize,
    pub(super) from: usize,
    pub(super) to: usize,
    /// The prefix the tile is growing toward (`to` for its last slice).
    pub(super) need: usize,
}

/// Planting work handed out by [`Scene::planting`]: it holds what it needs, so it runs
/// while the scene is drawn.
#[derive(Debug)]
pub struct Planting {
    pub(super) scene_id: u64,
    pub(super) material: Arc<Material>,
    pub(super) surface: Arc<Surface>,
    pub(super) layers: Vec<Arc<LayerShared>>,
    pub(super) slices: Vec<Slice>,
    /// Card tiles (layer, tile) to plant.
    pub(super) cards: Vec<(usize, usize)>,
}

/// Slices planted and meshed by [`Planting::run`], for [`Scene::install`].
#[derive(Debug)]
pub struct Planted {
    pub(super) scene_id: u64,
    pub(super) slices: Vec<(Slice, PlacedTile, TileMesh)>,
}

impl Planted {
    /// Bytes the GPU side uploads for these slices once installed: vertices, indices
    /// and roots texels (cards are counted when a frame first draws them).
    #[must_use]
    pub fn upload_bytes(&self) -> u64 {
        self.slices
            .iter()
            .map(|(_, placed, mesh)| {
                let source = crate::tile_buffers::TileSource {
                    mesh,
                    placed: &placed.strands,
                    triangle_ground: &[],
                };
                crate::tile_buffers::upload_bytes(&source, 0)
            })
            .sum()
    }
}

impl Planting {
    /// Plants and meshes the slices, spread over the cores.
    #[must_use]
    pub fn run(self) -> Planted {
        let repeat_m = self.material.repeat_m.max(1e-3);
        build_card_tiles(&self.layers, &self.cards, &self.surface, repeat_m);
        // Biggest slices first, dealt round the cores.
        let mut slices = self.slices;
        slices.sort_by_key(|s| std::cmp::Reverse(s.to - s.from));
        let (material, surface, layers) = (&self.material, &self.surface, &self.layers);
        let slices = tuft_strands::par::map("tuft planting", slices, |slice| {
            let l = &material.layers[slice.layer];
            let mut placed = PlacedTile::default();
            layers[slice.layer].placer.place_tile_range(
                &l.set,
                surface,
                repeat_m,
                slice.tile,
                slice.from..slice.to,
                &mut placed,
            );
            let mut mesh = TileMesh::in_frame(layers[slice.layer].frames[slice.tile]);
            append_strands(&l.set, &placed.strands, l.profile, &mut mesh);
            (slice, placed, mesh)
        });
        Planted {
            scene_id: self.scene_id,
            slices,
        }
    }
}

/// Plans between two lettings-go of what no view wants ([`Scene::let_go_unwanted`]): a
/// tile keeps a prefix no view wants for one to two such windows (a second or two at
/// 60 frames a second).
pub(super) const LINGER: u64 = 60;

impl Scene {
    /// The planting the last `plan` wanted and did not do, nearest tiles first, about
    /// `budget` strands of it (a card counts as a strand): work that runs without the
    /// scene ([`Planting::run`]). A tile's growth is cut into slices (the next strands
    /// in rank order) of at most a core's share of the budget, so one tile's level 0
    /// is planted on every core at once and over as many rounds as it takes, and no
    /// round pays for a whole tile.
    #[must_use]
    pub fn planting(&self, budget: usize) -> Option<Planting> {
        let threads = tuft_strands::par::threads();
        let mut left = budget as f64;
        let piece = (left / threads as f64).max(1.0);
        // Card tiles first (a few thousand cards a tile, and the far field waits on
        // them): shared by the scenes that reuse the layer, built once, in place.
        let mut cards = Vec::new();
        for &(l, t) in &self.wanted_cards {
            let cost = f64::from(self.tile_uv[t]) * self.layers[l].shared.card_points.len() as f64;
            if left < cost && !cards.is_empty() {
                break;
            }
            if self.layers[l].shared.card_tiles[t].get().is_none() {
                left -= cost;
                cards.push((l, t));
            }
        }
        let mut slices = Vec::new();
        for &(layer, tile, need) in &self.wanted {
            let mut from = self.layers[layer].resident[tile].n_prefix;
            // A tile holds about `tile_uv` of each strand of the set.
            let per_strand = f64::from(self.tile_uv[tile]).max(1e-9);
            while from < need && left >= 1.0 {
                let room = (left.min(piece) / per_strand).ceil().max(1.0);
                let to = if room >= (need - from) as f64 {
                    need
                } else {
                    from + room as usize
                };
                left -= (to - from) as f64 * per_strand;
                slices.push(Slice {
                    layer,
                    tile,
                    from,
                    to,
                    need,
                });
                from = to;
            }
            if left < 1.0 {
                break;
            }
        }
        (!slices.is_empty() || !cards.is_empty()).then(|| Planting {
            scene_id: self.id,
            material: self.material.clone(),
            surface: self.surface.clone(),
            layers: self.layers.iter().map(|l| l.shared.clone()).collect(),
            slices,
            cards,
        })
    }

    /// Whether tile `tile` of layer `layer` holds less than the prefix `need`.
    pub(super) fn layers_need(&self, layer: usize, tile: usize, need: usize) -> bool {
        self.layers[layer].resident[tile].n_prefix < need
    }

    /// Takes planted slices back: each is appended to its tile if the tile still ends
    /// where the slice begins (slices of another scene, or of a tile shrunk or let go
    /// meanwhile, are dropped).
    pub fn install(&mut self, planted: Planted) {
        if planted.scene_id != self.id {
            return;
        }
        // Slices of one tile come back in any order: each goes on where the last ended.
        let mut slices = planted.slices;
        slices.sort_by_key(|(s, _, _)| (s.layer, s.tile, s.from));
        for (slice, placed, mesh) in slices {
            let r = &mut self.layers[slice.layer].resident[slice.tile];
            if r.n_prefix == slice.from {
                r.grow(slice, &placed, &mesh);
            }
        }
    }

    /// Gives back what no view has wanted for a while, once what every tile holds
    /// passes the low-water mark (a quarter of the frame budget's bytes): every
    /// [`LINGER`] plans, each tile shrinks to the largest prefix any view wanted of it
    /// over the last two such windows (nothing, for a tile out of every view). A tile
    /// that left the view a moment ago, or that a walker's step moves back and forth
    /// over a level's boundary, keeps what it holds; the wake behind a walker is let go
    /// a second or two later, so memory follows what is in view. Below the low-water
    /// mark nothing is let go (orbiting a sphere re-plants nothing). Past the budget's
    /// bytes, tiles out of this view are let go at once.
    pub(super) fn let_go_unwanted(&mut self, visible: &[(usize, f32)]) {
        self.plans += 1;
        let held = self.resident_bytes();
        if held > self.budget.bytes {
            let mut seen = vec![false; self.tiles.len()];
            for &(t, _) in visible {
                seen[t] = true;
            }
            for (li, layer) in self.layers.iter_mut().enumerate() {
                let profile = self.material.layers[li].profile;
                for (t, r) in layer.resident.iter_mut().enumerate() {
                    if !seen[t] && r.n_prefix > 0 {
                        r.shrink(0, profile);
                    }
                }
            }
            return;
        }
        if !self.plans.is_multiple_of(LINGER) {
            return;
        }
        let low_water = held > self.budget.bytes / 4;
        for (li, layer) in self.layers.iter_mut().enumerate() {
            let profile = self.material.layers[li].profile;
            for r in &mut layer.resident {
                let wanted = r.wanted[0].max(r.wanted[1]);
                r.wanted = [0, r.wanted[0]];
                if low_water && wanted < r.n_prefix {
                    r.shrink(wanted, profile);
                }
            }
        }
    }

    /// Where planting is still pending, draws the finest level a tile already holds.
    pub(super) fn fall_back_to_resident(
        &self,
        visible: &[(usize, f32)],
        choices: &mut [Vec<Choice>],
    ) {
        for (li, layer) in self.layers.iter().enumerate() {
            let set = &self.material.layers[li].set;
            let keep = &layer.shared.keep;
            for (&(t, _), choice) in visible.iter().zip(choices[li].iter_mut()) {
                let Rep::Strands(k) = choice.rep else {
                    continue;
                };
                let held = layer.resident[t].n_prefix;
                let fits = |j: usize| set.rank.partition_point(|&r| r < keep[j]) <= held;
                if fits(k) {
                    continue;
                }
                *choice = match (k + 1..keep.len()).find(|&j| fits(j)) {
                    Some(j) => Choice {
                        rep: Rep::Strands(j),
                        fade: 0.0,
                    },
                    None => Choice {
                        rep: Rep::Cards,
                        fade: 0.0,
                    },
                };
            }
        }
    }

    /// Plants and meshes every visible tile whose level needs more than is resident,
    /// nearest first, within the planting budget. Tiles only grow: a coarser level is a
    /// prefix of what a tile holds, and several views of one scene (the levels side by
    /// side) would otherwise take turns re-planting the same tiles. Returns how many were
    /// done and how many wait.
    /// Builds the card tiles the visible tiles show and no one has built yet (or, with
    /// deferred planting, leaves them to [`Scene::planting`]); returns how many wait.
    pub(super) fn make_cards_resident(
        &mut self,
        visible: &[(usize, f32)],
        choices: &[Vec<Choice>],
    ) -> u32 {
        let mut missing: Vec<(usize, usize)> = Vec::new();
        for (li, layer) in self.layers.iter().enumerate() {
            let s = &layer.shared;
            for (&(t, _), &choice) in visible.iter().zip(&choices[li]) {
                if card_visible(choice, &s.switches) > 0.0 && s.card_tiles[t].get().is_none() {
                    missing.push((li, t));
                }
            }
        }
        if self.deferred {
            for &(l, t) in &self.wanted_cards {
                if self.layers[l].shared.card_tiles[t].get().is_none() && !missing.contains(&(l, t))
                {
                    missing.push((l, t));
                }
            }
            let n = missing.len() as u32;
            self.wanted_cards = missing;
            return n;
        }
        if !missing.is_empty() {
            let layers: Vec<Arc<LayerShared>> =
                self.layers.iter().map(|l| l.shared.clone()).collect();
            let repeat_m = self.material.repeat_m.max(1e-3);
            build_card_tiles(&layers, &missing, &self.surface, repeat_m);
        }
        0
    }

    /// Records what the visible tiles' levels need planted beyond what they hold,
    /// nearest first; unless planting is deferred, plants it (within the planting
    /// budget, one round). Tiles only grow here: a coarser level is a prefix of what a
    /// tile holds, and several views of one scene (the levels side by side) would
    /// otherwise take turns re-planting the same tiles. Returns how many tiles were
    /// finished and how many wait.
    pub(super) fn make_resident(
        &mut self,
        visible: &[(usize, f32)],
        choices: &[Vec<Choice>],
    ) -> (u32, u32) {
        // `visible` is in distance order: so is this.
        let mut wanted: Vec<(usize, usize, usize)> = Vec::new();
        for (vi, &(t, _)) in visible.iter().enumerate() {
            for (li, layer) in self.layers.iter_mut().enumerate() {
                let keep = match choices[li][vi].rep {
                    Rep::Strands(k) => layer.shared.keep[k],
                    Rep::Cards | Rep::Relief => continue,
                };
                let need = self.material.layers[li]
                    .set
                    .rank
                    .partition_point(|&r| r < keep);
                let r = &mut layer.resident[t];
                r.wanted[0] = r.wanted[0].max(need);
                if need > r.n_prefix {
                    wanted.push((li, t, need));
                }
            }
        }
        let n = wanted.len() as u32;
        if self.deferred {
            // This view's wants first, then what other views of the scene (the levels
            // side by side) still want.
            for &(layer, tile, need) in &self.wanted {
                if self.layers_need(layer, tile, need)
                    && !wanted
                        .iter()
                        .any(|w| w.0 == layer && w.1 == tile && w.2 >= need)
                {
                    wanted.push((layer, tile, need));
                }
            }
            self.wanted = wanted;
            return (0, n);
        }
        self.wanted = wanted;
        if n == 0 {
            return (0, 0);
        }
        // The same protocol as a planting thread's, run here: one round within the
        // budget, or every round until nothing is wanted.
        let budget = self.plant_budget.unwrap_or(usize::MAX);
        while let Some(work) = self.planting(budget) {
            let planted = work.run();
            self.install(planted);
            if self.plant_budget.is_some() {
                break;
            }
        }
        let pending = self
            .wanted
            .iter()
            .filter(|&&(l, t, need)| self.layers_need(l, t, need))
            .count() as u32;
        (n - pending, pending)
    }
}
