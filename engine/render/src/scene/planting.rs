use super::*;

/// One tile of one layer to plant and mesh.
pub(super) struct Job<'a> {
    pub(super) layer: usize,
    pub(super) placer: &'a Placer,
    pub(super) tile: usize,
    pub(super) need: usize,
    pub(super) resident: &'a mut Resident,
}

/// Planting work handed out by [`Scene::planting`]: it holds what it needs, so it runs
/// while the scene is drawn.
#[derive(Debug)]
pub struct Planting {
    pub(super) scene_id: u64,
    pub(super) material: Arc<Material>,
    pub(super) surface: Arc<Surface>,
    pub(super) layers: Vec<Arc<LayerShared>>,
    pub(super) jobs: Vec<(usize, usize, usize)>,
    /// Card tiles (layer, tile) to plant.
    pub(super) cards: Vec<(usize, usize)>,
}

/// Tiles planted and meshed by [`Planting::run`], for [`Scene::install`].
#[derive(Debug)]
pub struct Planted {
    pub(super) scene_id: u64,
    pub(super) tiles: Vec<(usize, usize, usize, PlacedTile, TileMesh)>,
}

impl Planting {
    /// Plants and meshes the tiles, spread over the cores.
    #[must_use]
    pub fn run(self) -> Planted {
        let repeat_m = self.material.repeat_m.max(1e-3);
        build_card_tiles(&self.layers, &self.cards, &self.surface, repeat_m);
        let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let mut parts: Vec<Vec<(usize, usize, usize)>> = (0..threads).map(|_| Vec::new()).collect();
        for (k, job) in self.jobs.iter().enumerate() {
            parts[k % threads].push(*job);
        }
        let (material, surface, layers) = (&self.material, &self.surface, &self.layers);
        let tiles = std::thread::scope(|scope| {
            let handles: Vec<_> = parts
                .into_iter()
                .map(|part| {
                    scope.spawn(move || {
                        part.into_iter()
                            .map(|(layer, tile, need)| {
                                let l = &material.layers[layer];
                                let mut placed = PlacedTile::default();
                                layers[layer].placer.place_tile_into(
                                    &l.set,
                                    surface,
                                    repeat_m,
                                    tile,
                                    need,
                                    &mut placed,
                                );
                                let mut mesh = TileMesh::default();
                                build_tile_into(&l.set, &placed, l.profile, &mut mesh);
                                (layer, tile, need, placed, mesh)
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_default())
                .collect()
        });
        Planted {
            scene_id: self.scene_id,
            tiles,
        }
    }
}

impl Scene {
    /// The planting the last `plan` wanted and did not do, nearest tiles first, as much
    /// as `budget` strands: work that runs without the scene ([`Planting::run`]).
    #[must_use]
    pub fn planting(&self, budget: usize) -> Option<Planting> {
        let mut jobs = Vec::new();
        let mut spent = 0usize;
        for &(layer, tile, need) in &self.wanted {
            if self.layers[layer].resident[tile].n_prefix >= need {
                continue;
            }
            let cost = (self.tile_uv[tile] * need as f32) as usize;
            if !jobs.is_empty() && spent + cost > budget {
                break;
            }
            spent += cost;
            jobs.push((layer, tile, need));
        }
        // Card tiles are shared by the scenes that reuse the layer: built once, in place.
        let cards: Vec<(usize, usize)> = self
            .wanted_cards
            .iter()
            .copied()
            .filter(|&(l, t)| self.layers[l].shared.card_tiles[t].get().is_none())
            .take(CARD_TILES_PER_ROUND)
            .collect();
        (!jobs.is_empty() || !cards.is_empty()).then(|| Planting {
            scene_id: self.id,
            material: self.material.clone(),
            surface: self.surface.clone(),
            layers: self.layers.iter().map(|l| l.shared.clone()).collect(),
            jobs,
            cards,
        })
    }

    /// Whether tile `tile` of layer `layer` holds less than the prefix `need`.
    pub(super) fn layers_need(&self, layer: usize, tile: usize, need: usize) -> bool {
        self.layers[layer].resident[tile].n_prefix < need
    }

    /// Takes planted tiles back (those of another scene, or no longer wanted larger than
    /// what is held, are dropped).
    pub fn install(&mut self, planted: Planted) {
        if planted.scene_id != self.id {
            return;
        }
        for (layer, tile, need, placed, mesh) in planted.tiles {
            let r = &mut self.layers[layer].resident[tile];
            if need > r.n_prefix {
                r.placed = placed;
                r.mesh = mesh;
                r.n_prefix = need;
                r.version += 1;
            }
        }
    }

    /// Lets go of the strands of tiles out of view once what every tile holds passes
    /// the frame budget's bytes: tiles only grow while they are seen (so the views of
    /// one scene do not take turns re-planting them), and walking round a surface would
    /// otherwise keep every tile it ever passed at its finest level.
    pub(super) fn release_unseen(&mut self, visible: &[(usize, f32)]) {
        if self.resident_bytes() <= self.budget.bytes {
            return;
        }
        let seen: std::collections::HashSet<usize> = visible.iter().map(|&(t, _)| t).collect();
        for layer in &mut self.layers {
            for (t, r) in layer.resident.iter_mut().enumerate() {
                if r.n_prefix > 0 && !seen.contains(&t) {
                    *r = Resident {
                        version: r.version + 1,
                        ..Resident::default()
                    };
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
                if card_visible(choice, s.keep.len()) > 0.0 && s.card_tiles[t].get().is_none() {
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

    pub(super) fn make_resident(
        &mut self,
        visible: &[(usize, f32)],
        choices: &[Vec<Choice>],
    ) -> (u32, u32) {
        let surface = &self.surface;
        let repeat_m = self.material.repeat_m.max(1e-3);
        let mut jobs: Vec<Job<'_>> = Vec::new();
        for (li, layer) in self.layers.iter_mut().enumerate() {
            let set = &self.material.layers[li].set;
            let LayerScene { shared, resident } = layer;
            let mut wanted: Vec<Option<usize>> = vec![None; resident.len()];
            for (&(t, _), choice) in visible.iter().zip(&choices[li]) {
                let keep = match choice.rep {
                    Rep::Strands(k) => shared.keep[k],
                    Rep::Cards | Rep::Relief => 0.0,
                };
                wanted[t] = Some(set.rank.partition_point(|&r| r < keep));
            }
            for (t, (r, want)) in resident.iter_mut().zip(wanted).enumerate() {
                let Some(need) = want else { continue };
                if need > r.n_prefix {
                    jobs.push(Job {
                        layer: li,
                        placer: &shared.placer,
                        tile: t,
                        need,
                        resident: r,
                    });
                }
            }
        }
        if jobs.is_empty() {
            return (0, 0);
        }
        // Nearest tiles first: `visible` is in distance order.
        let order: HashMap<usize, usize> = visible
            .iter()
            .enumerate()
            .map(|(k, &(t, _))| (t, k))
            .collect();
        jobs.sort_by_key(|j| order.get(&j.tile).copied().unwrap_or(usize::MAX));
        if self.deferred {
            // This view's wants first (nearest first), then what other views of the
            // scene (the levels side by side) still want.
            let mut wanted: Vec<(usize, usize, usize)> =
                jobs.iter().map(|j| (j.layer, j.tile, j.need)).collect();
            let n = wanted.len() as u32;
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
        let mut pending = 0;
        if let Some(budget) = self.plant_budget {
            let mut spent = 0usize;
            let mut kept = Vec::with_capacity(jobs.len());
            for job in jobs {
                let cost = (self.tile_uv[job.tile] * job.need as f32) as usize;
                if kept.is_empty() || spent + cost <= budget {
                    spent += cost;
                    kept.push(job);
                } else {
                    pending += 1;
                }
            }
            jobs = kept;
        }
        let n_jobs = jobs.len() as u32;
        // Big tiles first, dealt round the cores.
        jobs.sort_by_key(|j| std::cmp::Reverse(j.need));
        let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let mut split: Vec<Vec<Job<'_>>> = (0..threads).map(|_| Vec::new()).collect();
        for (k, job) in jobs.into_iter().enumerate() {
            split[k % threads].push(job);
        }
        let material = &self.material;
        std::thread::scope(|scope| {
            for part in split {
                scope.spawn(move || {
                    for job in part {
                        let layer = &material.layers[job.layer];
                        let r = job.resident;
                        job.placer.place_tile_into(
                            &layer.set,
                            surface,
                            repeat_m,
                            job.tile,
                            job.need,
                            &mut r.placed,
                        );
                        build_tile_into(&layer.set, &r.placed, layer.profile, &mut r.mesh);
                        r.n_prefix = job.need;
                        r.version += 1;
                    }
                });
            }
        });
        (n_jobs, pending)
    }
}
