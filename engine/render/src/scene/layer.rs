use super::*;
use tuft_strands::switches::Switches;

/// What does not change while a layer is shown.
pub(crate) struct LayerShared {
    /// What it was built from.
    pub(super) identity: LayerIdentity,
    /// The strands' roots binned over the surface (shared with the layers an edit that
    /// moved no root builds next).
    pub(super) placer: Arc<Placer>,
    /// Which strands share a card (shared likewise).
    pub(super) grouping: Arc<cards::Grouping>,
    /// The frame each tile packs the layer's strands in.
    pub(super) frames: Vec<tuft_strands::mesh::Frame>,
    pub(super) keep: Vec<f32>,
    /// Where the layer switches representation, and what from: the median strand width,
    /// each level's widening, the median card height (the figures a baked set's
    /// manifest carries).
    pub(super) switches: Switches,
    /// The layer's cards over one repeat, untinted: where each stands and how big (what
    /// the switches and the planting budget read), and as points to plant
    /// (`cards::card_points`).
    pub(super) cards: Vec<cards::Card>,
    /// The atlas and the cards tinted by it, drawn the first time a card tile is
    /// planted ([`LayerShared::dressing`]): an edit's first landing shows its near
    /// strands without waiting for a picture of the far field.
    dressing: OnceLock<Dressing>,
    pub(super) card_points: tuft_strands::StrandSet,
    pub(super) card_placer: Placer,
    /// Each tile's cards, planted and meshed the first time a frame wants them there (a
    /// fur's cards over a sphere are hundreds of megabytes nobody near it looks at).
    pub card_tiles: Vec<OnceLock<CardTile>>,
}

/// A layer's card atlas and its cards wearing the tints it gives them.
pub(crate) struct Dressing {
    pub atlas: Atlas,
    pub cards: Vec<cards::Card>,
}

/// One tile's cards: where each stands and their quads, in the same order.
#[derive(Debug)]
pub(crate) struct CardTile {
    pub placed: PlacedTile,
    pub mesh: TileMesh,
}

impl std::fmt::Debug for LayerShared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LayerShared")
            .field("cards", &self.cards.len())
            .finish_non_exhaustive()
    }
}

impl LayerShared {
    /// Groups the layer's cards and bins them and its strands over `surface`; its atlas
    /// is drawn and each tile's cards planted when a frame first wants them
    /// ([`LayerShared::card_tile`]). `boxes` are the surface's tiles' boxes
    /// (`Surface::tile_boxes`), which the layer's packing frames grow. `rooted` is a
    /// layer whose strands stand where this one's do ([`LayerIdentity::rooted_as`]): its
    /// bins and grouping are taken over, so an edit of a length or a colour does not
    /// bin and sort the strands again before its first frame.
    pub(super) fn new(
        layer: &crate::material::Layer,
        identity: LayerIdentity,
        surface: &Surface,
        boxes: &[(Vec3, Vec3)],
        repeat_m: f32,
        rooted: Option<&Self>,
    ) -> Self {
        let set = &layer.set;
        let atlas_cells = layer.cards.atlas_cells;
        let (placer, grouping) = match rooted {
            Some(old) => (old.placer.clone(), old.grouping.clone()),
            None => (
                Arc::new(Placer::new(set, surface).with_variation(layer.macro_variation)),
                Arc::new(cards::Grouping::of(set, layer.clump_lattice, repeat_m)),
            ),
        };
        let cards = cards::cards_of(set, &grouping, atlas_cells);
        let card_points = cards::card_points(&cards);
        let keep = if layer.levels.keep.is_empty() {
            vec![1.0]
        } else {
            layer.levels.keep.clone()
        };
        Self {
            identity,
            placer,
            grouping,
            frames: tuft_strands::mesh::tile_frames(boxes, tuft_strands::mesh::reach_bound(set)),
            keep,
            switches: Switches::of(set, &layer.levels, &cards),
            card_placer: Placer::new(&card_points, surface).with_variation(layer.macro_variation),
            card_points,
            cards,
            dressing: OnceLock::new(),
            card_tiles: (0..surface.n_tiles).map(|_| OnceLock::new()).collect(),
        }
    }

    /// Tile `tile`'s cards, planted and meshed now if no one has yet: exactly what
    /// `place` over the whole surface gives that tile.
    pub(super) fn card_tile(&self, tile: usize, surface: &Surface, repeat_m: f32) -> &CardTile {
        self.card_tiles[tile].get_or_init(|| {
            let mut placed = PlacedTile::default();
            let n = self.card_points.len();
            let points = &self.card_points;
            self.card_placer
                .place_tile_into(points, surface, repeat_m, tile, n, &mut placed);
            let cards = &self.dressing().cards;
            let mesh = cards::build_card_tile(cards, &placed, self.identity.cards.atlas_cells);
            CardTile { placed, mesh }
        })
    }

    /// The layer's atlas and tinted cards, drawn now if no one has yet.
    pub(crate) fn dressing(&self) -> &Dressing {
        self.dressing.get_or_init(|| {
            let id = &self.identity;
            let atlas = cards::atlas(&id.set, &self.cards, id.repeat_m.max(1e-3), &id.cards);
            let mut cards = self.cards.clone();
            cards::tint(&mut cards, &atlas);
            Dressing { atlas, cards }
        })
    }

    /// The layer's atlas and tinted cards if they are drawn (a renderer shows no card
    /// before, as none is planted before).
    pub(crate) fn dressed(&self) -> Option<&Dressing> {
        self.dressing.get()
    }
}

/// How much of the card level a tile shows under `choice` (0: none), for a layer whose
/// switches are `switches`: where the last level leaves for the cards, they dither in
/// over its fade; over their own they all stay, sinking into the ground
/// ([`card_sink`]). A layer whose last level leaves for the relief shows none.
pub(super) fn card_visible(choice: Choice, switches: &Switches) -> f32 {
    match choice.rep {
        Rep::Strands(k)
            if k + 1 == switches.widen.len() && choice.fade > 0.0 && switches.ends_in_cards() =>
        {
            choice.fade
        }
        Rep::Cards => 1.0,
        _ => 0.0,
    }
}

/// How far a tile's strands have sunk toward their roots under `choice`, for a layer
/// whose switches are `switches`: the last level of a layer without cards sinks into
/// the relief over its fade, all its strands kept, as cards do on their way there (the
/// continuous last band). Dropped one by one instead, strands standing past a
/// surface's outline, many deep along each ray, thinned the silhouette only at the very
/// end of the fade.
pub(super) fn strand_sink(choice: Choice, switches: &Switches) -> f32 {
    match choice.rep {
        Rep::Strands(k) if k + 1 == switches.widen.len() && !switches.ends_in_cards() => {
            choice.fade
        }
        _ => 0.0,
    }
}

/// How far a tile's cards have sunk toward their roots under `choice` (0: standing,
/// 1: flat on the ground): over the cards' own fade, on their way to the relief.
pub(super) fn card_sink(choice: Choice) -> f32 {
    match choice.rep {
        Rep::Cards => choice.fade,
        _ => 0.0,
    }
}

/// Plants and meshes the card tiles `jobs` (layer, tile) of `layers` on the cores.
pub(super) fn build_card_tiles(
    layers: &[Arc<LayerShared>],
    jobs: &[(usize, usize)],
    surface: &Surface,
    repeat_m: f32,
) {
    tuft_strands::par::for_each("tuft cards", jobs.to_vec(), |(layer, tile)| {
        let _ = layers[layer].card_tile(tile, surface, repeat_m);
    });
}

/// What a layer's shared part is made of: the same set (the same allocation, not an
/// equal one), settings and surface give the same cards, atlas and bins.
pub(super) struct LayerIdentity {
    pub(super) set: Arc<tuft_strands::StrandSet>,
    pub(super) levels: tuft_strands::levels::LevelSettings,
    pub(super) cards: cards::CardSettings,
    pub(super) clump_lattice: u32,
    pub(super) macro_variation: tuft_strands::macro_variation::MacroVariation,
    pub(super) kind: SurfaceKind,
    /// The mesh, for a mesh surface (the same allocation, or not the same surface).
    pub(super) mesh: Option<Arc<Surface>>,
    pub(super) repeat_m: f32,
}

impl LayerIdentity {
    pub(super) fn of(
        layer: &crate::material::Layer,
        kind: SurfaceKind,
        mesh: Option<&Arc<Surface>>,
        repeat_m: f32,
    ) -> Self {
        Self {
            mesh: mesh.filter(|_| kind == SurfaceKind::Mesh).cloned(),
            set: layer.set.clone(),
            levels: layer.levels.clone(),
            cards: layer.cards.clone(),
            clump_lattice: layer.clump_lattice,
            macro_variation: layer.macro_variation,
            kind,
            repeat_m,
        }
    }

    pub(super) fn same(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.set, &other.set)
            && self.levels == other.levels
            && self.cards == other.cards
            && self.same_ground(other)
    }

    /// Whether a layer built for `other` bins and groups its strands as one built for
    /// `self` would: the same ground and a set with the same roots.
    pub(super) fn rooted_as(&self, other: &Self) -> bool {
        self.same_ground(other) && self.set.same_roots(&other.set)
    }

    /// The same surface, repeat, macro variation and clump lattice.
    fn same_ground(&self, other: &Self) -> bool {
        self.clump_lattice == other.clump_lattice
            && self.macro_variation == other.macro_variation
            && self.kind == other.kind
            && match (&self.mesh, &other.mesh) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
            && self.repeat_m.to_bits() == other.repeat_m.to_bits()
    }
}

/// The parts of a scene's layers a later scene can take over ([`Scene::reuse`],
/// [`Scene::reusing`]): cards, atlases and strand bins, shared, not copied.
#[derive(Clone, Default)]
pub struct Reuse {
    pub(super) layers: Vec<Arc<LayerShared>>,
}

impl std::fmt::Debug for Reuse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reuse")
            .field("layers", &self.layers.len())
            .finish()
    }
}

impl Reuse {
    /// For each layer of `material` on a surface of `kind`, whether a scene built with
    /// this reuse takes its cards, atlas and bins over instead of building them.
    #[must_use]
    pub fn covers(&self, material: &Material, kind: SurfaceKind) -> Vec<bool> {
        material
            .layers
            .iter()
            .map(|l| {
                self.find(&LayerIdentity::of(l, kind, None, material.repeat_m))
                    .is_some()
            })
            .collect()
    }

    /// For each layer of `material` on a surface of `kind` that [`Reuse::covers`] does
    /// not cover, whether a scene built with this reuse takes over its strands' bins and
    /// grouping (its set's roots are an earlier layer's: `StrandSet::same_roots`).
    #[must_use]
    pub fn covers_roots(&self, material: &Material, kind: SurfaceKind) -> Vec<bool> {
        material
            .layers
            .iter()
            .map(|l| {
                let identity = LayerIdentity::of(l, kind, None, material.repeat_m);
                self.find(&identity).is_none() && self.find_rooted(&identity).is_some()
            })
            .collect()
    }

    pub(super) fn find(&self, identity: &LayerIdentity) -> Option<Arc<LayerShared>> {
        self.layers
            .iter()
            .find(|shared| shared.identity.same(identity))
            .cloned()
    }

    /// A layer whose bins and grouping a layer of `identity` can take over.
    pub(super) fn find_rooted(&self, identity: &LayerIdentity) -> Option<Arc<LayerShared>> {
        self.layers
            .iter()
            .find(|shared| shared.identity.rooted_as(identity))
            .cloned()
    }
}

pub(crate) struct LayerScene {
    pub shared: Arc<LayerShared>,
    pub resident: Vec<Resident>,
}
