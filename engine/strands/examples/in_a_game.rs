//! What a game does with a baked set, through this crate alone (no graph engine, no
//! renderer): read the manifest and the strand file, lay every strand layer on the
//! game's own ground, and give each tile of the ground the representation its distance
//! asks for, planting and meshing only the rank prefix that representation draws. It
//! prints what one frame would draw; a game hands the same buffers to its GPU.
//!
//! ```text
//! tuft bake presets/lawn.ron --out lawn
//! cargo run --release -p tuft-strands --example in_a_game -- lawn [GROUND_M] [EYE_HEIGHT_M]
//! ```
//!
//! The ground is a square `GROUND_M` metres across (default 16, at most 64) in 2 m tiles, and the
//! eye stands `EYE_HEIGHT_M` (default 1.7) above its middle, on a 1080-pixel frame with
//! a 45° field of view. The manifest is read with `ron` here; a game with another serde
//! format reads `manifest.json`, which says the same.

use glam::Vec3;
use std::error::Error;
use std::path::Path;
use tuft_strands::StrandSet;
use tuft_strands::manifest::{LayerManifest, Manifest};
use tuft_strands::placement::{PlacedTile, Placer};
use tuft_strands::surface::Surface;
use tuft_strands::{file, mesh, switches};

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("in_a_game: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        return Err("usage: in_a_game DIR [GROUND_M] [EYE_HEIGHT_M] (DIR: a baked set)".into());
    };
    let number = |i: usize, default: f32| -> Result<f32, Box<dyn Error>> {
        let value = match args.get(i) {
            None => default,
            Some(a) => a
                .parse::<f32>()
                .map_err(|_| format!("{a:?} is not a number of metres"))?,
        };
        if value.is_finite() && value > 0.0 && value <= 1000.0 {
            Ok(value)
        } else {
            Err(format!("{value} is not a length between 0 and 1000 metres").into())
        }
    };
    let (ground_m, eye_height) = (number(1, 16.0)?, number(2, 1.7)?);
    if ground_m > 64.0 {
        // Every tile is planted and meshed at once here; a game streams the tiles near
        // its eye under a budget, as the editor's field does.
        return Err(format!("a ground of {ground_m} m: this example plants at most 64 m").into());
    }
    let drawn = one_frame(Path::new(dir), ground_m, Vec3::new(0.0, eye_height, 0.0))?;
    println!(
        "{:<24} {:>6} {:>10} {:>12} {:>12}",
        "layer / as", "tiles", "strands", "triangles", "vertex MB"
    );
    for d in &drawn {
        println!(
            "{:<24} {:>6} {:>10} {:>12} {:>12.1}",
            format!("{} / {}", d.layer, d.shown_as),
            d.tiles,
            d.strands,
            d.triangles,
            d.vertex_bytes as f64 / 1e6
        );
    }
    Ok(())
}

/// What one layer draws as one representation over the ground's tiles.
#[derive(Debug, Default)]
pub(crate) struct Drawn {
    pub(crate) layer: String,
    /// `level K`, `cards` or `surface`.
    pub(crate) shown_as: String,
    pub(crate) tiles: usize,
    pub(crate) strands: usize,
    pub(crate) triangles: usize,
    pub(crate) vertex_bytes: usize,
}

/// Everything a frame from `eye` over a `ground_m` square draws (every tile around the
/// eye: a game also leaves out the tiles outside its view), by layer and representation.
pub(crate) fn one_frame(
    dir: &Path,
    ground_m: f32,
    eye: Vec3,
) -> Result<Vec<Drawn>, Box<dyn Error>> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let text = String::from_utf8(read("manifest.ron")?)?;
    let manifest: Manifest =
        ron::from_str(&text).map_err(|e| format!("{}: {e}", dir.join("manifest.ron").display()))?;
    // The strand file checks itself (CRCs, version, lengths); a damaged one is an error.
    let strands = file::decode(&read(&manifest.strands)?)
        .map_err(|e| format!("{}: {e}", dir.join(&manifest.strands).display()))?;
    // The game's ground: here a flat square in 2 m tiles, the material at its own size
    // in metres. A game's terrain mesh goes through `Surface::from_mesh` instead.
    let cells = (ground_m / 2.0).ceil().max(1.0) as u32;
    let ground = Surface::plane(ground_m, cells, ground_m / manifest.repeat_m);
    let boxes = ground.tile_boxes();
    // The game's own level-of-detail bias times the set's: every switch that much
    // farther (the pixels a metre as a frame that much taller counts them).
    let game_bias = 1.0;
    let px_per_m = switches::px_per_m_at_1m(1080.0, switches::REFERENCE_FOV_TURNS)
        * game_bias
        * manifest.lod_bias;
    let mut drawn = Vec::new();
    for layer in &manifest.layers {
        let set = strands
            .layers
            .iter()
            .find(|(name, _)| *name == layer.name)
            .map(|(_, set)| set)
            .ok_or_else(|| format!("the strand file holds no layer {}", layer.name))?;
        // Binned once per layer and surface; then any tile's prefix plants on demand.
        let placer = Placer::new(set, &ground).with_variation(layer.macro_variation);
        let mut by_kind: Vec<Drawn> = Vec::new();
        let mut planted = PlacedTile::default();
        for (tile, (lo, hi)) in boxes.iter().enumerate() {
            let distance = eye.clamp(*lo, *hi).distance(eye);
            let shown_as = shown_as(layer, distance, px_per_m);
            let mut d = Drawn {
                layer: layer.name.clone(),
                shown_as: shown_as.name(),
                tiles: 1,
                ..Drawn::default()
            };
            if let Shown::Level(k) = shown_as {
                // The file's set is already the layer's own prefix (`layer_keep`, its
                // ranks spread over [0, 1) again): a level keeps `keep[k]` of it.
                let keep = layer.levels.keep[k];
                planted_prefix(
                    &placer,
                    set,
                    &ground,
                    manifest.repeat_m,
                    tile,
                    keep,
                    &mut planted,
                );
                let meshed = mesh::build_tile(set, &planted, layer.profile);
                // The vertex stage widens level k's strands by `layer.levels.widen(k)`;
                // the buffers are the same for every level, cut to the prefix.
                d.strands = planted.strands.len();
                d.triangles = meshed.index_count() / 3;
                d.vertex_bytes = meshed.vertex_bytes().len();
            }
            match by_kind.iter_mut().find(|x| x.shown_as == d.shown_as) {
                Some(x) => {
                    x.tiles += 1;
                    x.strands += d.strands;
                    x.triangles += d.triangles;
                    x.vertex_bytes += d.vertex_bytes;
                }
                None => by_kind.push(d),
            }
        }
        drawn.extend(by_kind);
    }
    Ok(drawn)
}

/// Plants on `tile` the strands of `set` a level keeping `keep` draws: the rank prefix.
fn planted_prefix(
    placer: &Placer,
    set: &StrandSet,
    ground: &Surface,
    repeat_m: f32,
    tile: usize,
    keep: f32,
    out: &mut PlacedTile,
) {
    placer.place_tile_into(set, ground, repeat_m, tile, set.level_len(keep), out);
}

/// A layer's representation at one distance.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shown {
    Level(usize),
    /// The layer's card mesh (`layer.cards.mesh`, one repeat) instanced over the tile.
    Cards,
    /// Nothing of the layer: the ground's maps carry it.
    Surface,
}

impl Shown {
    fn name(self) -> String {
        match self {
            Self::Level(k) => format!("level {k}"),
            Self::Cards => "cards".to_owned(),
            Self::Surface => "surface".to_owned(),
        }
    }
}

/// What `layer` shows `distance` metres from the eye: the first representation whose
/// switch lies farther (the manifest's switch figures, scaled to this view).
fn shown_as(layer: &LayerManifest, distance: f32, px_per_m: f32) -> Shown {
    let Some(switches) = &layer.switches else {
        return Shown::Level(0); // a set baked before the switches were written
    };
    switches
        .distances(px_per_m)
        .into_iter()
        .find(|(_, end)| distance < *end)
        .map_or(Shown::Surface, |(what, _)| {
            what.map_or(Shown::Cards, Shown::Level)
        })
}
