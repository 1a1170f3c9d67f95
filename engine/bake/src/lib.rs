//! # tuft-bake — a material graph written out as a baked set
//!
//! Everything `tuft bake` writes into a folder — the maps (`maps.rs`),
//! the strand file, glTF meshes with their materials and the scene, KTX2 textures and the
//! manifest — written beside the folder, read back as a game reads it, and swapped in
//! whole.

pub mod gltf;
pub mod ktx2;
mod maps;
pub mod staging;
pub mod targets;

pub use maps::{
    PbrMaps, bake_pbr, bake_pbr_with, encode_maps, linear_to_srgb, map_path, write_maps,
};

use gltf::{Encoding, StrandMaterial};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use tuft_graph::MaterialGraph;
use tuft_graph::eval::Evaluator;
use tuft_graph::naming::{file_stem, layer_file_clashes, levels_name};
use tuft_graph::scatter::ScatterError;
use tuft_strands::StrandSet;
use tuft_strands::file::StrandFile;

/// The default map resolution.
pub const DEFAULT_RESOLUTION: usize = 1024;
/// The largest map resolution a bake accepts.
pub const MAX_RESOLUTION: usize = tuft_graph::limits::MAX_MAP_RESOLUTION;

/// Quads per side of the ground mesh (one repeat).
pub const GROUND_CELLS: u32 = 16;

/// Why a bake failed.
#[derive(Debug, thiserror::Error)]
pub enum BakeError {
    /// The resolution is zero or absurd.
    #[error("resolution {0} is outside 1..={MAX_RESOLUTION}")]
    Resolution(usize),
    /// A texture would be larger than the target takes; nothing was written.
    #[error("{what} would be {size} texels square; {target} takes at most {limit}")]
    TooLarge {
        /// Which texture.
        what: String,
        /// Its side.
        size: usize,
        /// The target's name.
        target: &'static str,
        /// The target's largest side.
        limit: usize,
    },
    /// A map could not be encoded or written.
    #[error("cannot write {path}: {message}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// The bake was cancelled.
    #[error("cancelled")]
    Cancelled,
    /// A strand layer cannot be scattered (settings, a limit); nothing was written.
    #[error(transparent)]
    Scatter(#[from] ScatterError),
    /// What was written does not read back as it should; the previous set stays.
    #[error("{path} fails its check: {message}")]
    Check {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// Two strand layers' names make the same file names ([`layer_file_clashes`]);
    /// nothing was written.
    #[error("{0}")]
    SameFiles(String),
    /// The graph asks for more than the limits allow (`tuft_graph::limits`); nothing was
    /// written.
    #[error("the material is beyond the limits: {0}")]
    Limits(String),
    /// The share of strands to keep cannot be applied (outside (0, 1], or a layer's
    /// levels would widen past their limit); nothing was written.
    #[error("the share of strands kept: {0}")]
    Keep(String),
}

/// What a bake wrote, and what evaluating the graph found along the way (a picture that
/// could not be read, a broken node: each evaluated as zeros).
#[derive(Debug)]
pub struct Baked {
    /// Every file written, in the order written.
    pub written: Vec<PathBuf>,
    /// The findings of the graph's evaluation.
    pub diagnostics: Vec<tuft_graph::Diagnostic>,
}

/// The bake a user asks for, the one flow the editor's export and `tuft bake` share:
/// `graph`'s layers thinned to `options.keep` when it is under 1, then its set written
/// into `dir` as [`write_baked_set_with`] writes it, with `progress` and `cancel`.
///
/// # Errors
/// A keep that cannot be applied, or as [`write_baked_set_with`].
pub fn bake_graph(
    graph: &MaterialGraph,
    dir: &Path,
    options: &BakeOptions,
    progress: &mut dyn FnMut(&str, f32),
    cancel: &AtomicBool,
) -> Result<Baked, BakeError> {
    let thinned;
    let graph = if options.keep < 1.0 {
        let mut copy = graph.clone();
        tuft_graph::layer::thin(&mut copy.strands, options.keep).map_err(BakeError::Keep)?;
        thinned = copy;
        &thinned
    } else {
        graph
    };
    let evaluator = Evaluator::new(graph);
    let written = write_baked_set_with(&evaluator, dir, options, progress, cancel)?;
    Ok(Baked {
        written,
        diagnostics: evaluator.diagnostics(),
    })
}

/// Every strand layer of the evaluator's graph, scattered, as a strand file.
///
/// # Errors
/// The first layer that cannot be scattered.
pub fn strand_file(evaluator: &Evaluator<'_>) -> Result<StrandFile, ScatterError> {
    let graph = evaluator.graph();
    let mut layers = Vec::with_capacity(graph.strands.len());
    for name in graph.strands.keys() {
        let set = evaluator.strand_set(name)?;
        layers.push((name.clone(), StrandSet::clone(&set)));
    }
    Ok(StrandFile {
        repeat_m: graph.repeat_m,
        layers,
    })
}

/// Everything `tuft bake` writes into `dir`: the maps, the strand file, a glTF mesh
/// per layer and level (one repeat on a plane), and `manifest.ron` naming them all with
/// every setting the runtime needs. `progress` hears a stage name and a fraction.
///
/// # Errors
/// A layer that cannot be scattered, a bad resolution, or a file that cannot be written.
pub fn write_baked_set(
    evaluator: &Evaluator<'_>,
    dir: &Path,
    resolution: usize,
    progress: &mut dyn FnMut(&str, f32),
) -> Result<Vec<PathBuf>, BakeError> {
    write_baked_set_cancellable(
        evaluator,
        dir,
        resolution,
        progress,
        &AtomicBool::new(false),
    )
}

/// How a set is baked beyond the graph.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BakeOptions {
    /// Map resolution in texels.
    pub resolution: usize,
    /// How the glTF meshes store their vertices.
    pub encoding: Encoding,
    /// The engine the set is going to ([`crate::targets`]).
    pub target: targets::Target,
    /// How the KTX2 textures store their texels.
    pub ktx2: ktx2::Codec,
    /// How the strand file stores its fields. Quantised, every mesh, card and report is
    /// built from the strands as the file gives them back, so the set agrees with itself.
    pub strands: tuft_strands::file::Scheme,
    /// The share of every layer's strands kept (`tuft bake --keep`, the export's Keep):
    /// applied by [`bake_graph`], recorded in the manifest.
    pub keep: f32,
}

impl Default for BakeOptions {
    fn default() -> Self {
        Self {
            resolution: DEFAULT_RESOLUTION,
            encoding: Encoding::default(),
            target: targets::Target::default(),
            ktx2: ktx2::Codec::default(),
            strands: tuft_strands::file::Scheme::default(),
            keep: 1.0,
        }
    }
}

/// As [`write_baked_set`], stopping with [`BakeError::Cancelled`] at the next stage once
/// `cancel` is set. The set is written into a staging folder beside `dir`, read back,
/// and swapped in whole ([`crate::staging`]): cancelled, failed or killed, `dir` keeps
/// the previous set untouched.
///
/// # Errors
/// As [`write_baked_set`], or cancelled.
pub fn write_baked_set_cancellable(
    evaluator: &Evaluator<'_>,
    dir: &Path,
    resolution: usize,
    progress: &mut dyn FnMut(&str, f32),
    cancel: &AtomicBool,
) -> Result<Vec<PathBuf>, BakeError> {
    let options = BakeOptions {
        resolution,
        ..BakeOptions::default()
    };
    write_baked_set_with(evaluator, dir, &options, progress, cancel)
}

/// As [`write_baked_set_cancellable`], baked as `options` say.
///
/// # Errors
/// As [`write_baked_set_cancellable`].
pub fn write_baked_set_with(
    evaluator: &Evaluator<'_>,
    dir: &Path,
    options: &BakeOptions,
    progress: &mut dyn FnMut(&str, f32),
    cancel: &AtomicBool,
) -> Result<Vec<PathBuf>, BakeError> {
    let BakeOptions {
        resolution,
        encoding,
        target,
        ktx2,
        strands: scheme,
        keep: _,
    } = *options;
    let mut progress = |stage: &str, f: f32| -> Result<(), BakeError> {
        progress(stage, f);
        if cancel.load(std::sync::atomic::Ordering::Relaxed) {
            Err(BakeError::Cancelled)
        } else {
            Ok(())
        }
    };
    let graph = evaluator.graph();
    // Every texture within the target's limit, before any work.
    let limit = target.max_texture();
    let atlases = graph.strands.iter().map(|(name, l)| {
        (
            format!("strands.{name}'s card atlas"),
            l.cards.atlas_size as usize,
        )
    });
    for (what, size) in std::iter::once(("the maps".to_owned(), resolution)).chain(atlases) {
        if size > limit {
            return Err(BakeError::TooLarge {
                what,
                size,
                target: target.name(),
                limit,
            });
        }
    }
    if resolution == 0 || resolution > MAX_RESOLUTION {
        return Err(BakeError::Resolution(resolution));
    }
    let beyond = tuft_graph::validate::limits::graph_problems(graph);
    if !beyond.is_empty() {
        let all: Vec<String> = beyond.into_iter().map(|d| d.message).collect();
        return Err(BakeError::Limits(all.join("; ")));
    }
    let clashes = layer_file_clashes(graph);
    if !clashes.is_empty() {
        return Err(BakeError::SameFiles(clashes.join("; ")));
    }
    let fail = |path: &Path, message: String| BakeError::Write {
        path: path.to_owned(),
        message,
    };
    // The set is written beside `dir` and swapped in whole once checked.
    let staging = staging::Staging::begin(dir).map_err(|e| fail(dir, e.to_string()))?;
    let out = staging.dir();
    let stem = file_stem(&graph.name);
    progress("strands", 0.0)?;
    let strands = strand_file(evaluator)?;
    let strands_file = strands_path(out, &stem);
    // The strand file is encoded beside the maps, which never read it. Stored, the
    // meshes read the strands as scattered and the maps' side encodes and writes the
    // file; quantised, the meshes are built from what the file reads back, so their
    // side encodes, writes and decodes it first. The meshes are made on a thread of
    // their own (checking `cancel` between files), the maps here (reporting progress).
    let (meshed, mapped) = tuft_strands::par::join(
        "tuft bake meshes",
        || -> Result<_, BakeError> {
            let mut written = Vec::new();
            let read_back = match scheme {
                tuft_strands::file::Scheme::Stored => None,
                tuft_strands::file::Scheme::Quantised => {
                    let bytes = write_strand_file(&strands, scheme, &strands_file)?;
                    written.push(strands_file.clone());
                    let back =
                        tuft_strands::file::decode(&bytes).map_err(|e| BakeError::Check {
                            path: strands_file.clone(),
                            message: format!("the quantised strands do not read back: {e}"),
                        })?;
                    Some(back)
                }
            };
            let built = read_back.as_ref().unwrap_or(&strands);
            let (layers, meshes) =
                write_layers(built, graph, (out, &stem), (encoding, ktx2), cancel)?;
            written.extend(meshes);
            Ok((layers, written, read_back))
        },
        || -> Result<_, BakeError> {
            progress("maps", 0.2)?;
            let mut stopped = false;
            let maps = bake_pbr_with(evaluator, resolution, &mut |f| {
                stopped |= progress("maps", 0.2 + 0.6 * f).is_err();
            })?;
            if stopped {
                return Err(BakeError::Cancelled);
            }
            let mut written = write_maps(&maps, out, &stem)?;
            let mut map_files: std::collections::BTreeMap<String, String> =
                tuft_graph::naming::MAP_NAMES
                    .iter()
                    .map(|m| ((*m).to_owned(), format!("{stem}_{m}.png")))
                    .collect();
            let mut textures_ktx2 = std::collections::BTreeMap::new();
            for (map, bytes) in ktx2::map_textures(&maps, ktx2) {
                let file = format!("{stem}_{map}.ktx2");
                let path = out.join(&file);
                write_into_set(&path, &bytes)?;
                written.push(path);
                textures_ktx2.insert(map.to_owned(), file);
            }
            let extra = target
                .extra_maps(&maps)
                .map_err(|e| fail(out, e.to_string()))?;
            for (map, bytes) in extra {
                let path = map_path(out, &stem, map);
                write_into_set(&path, &bytes)?;
                written.push(path);
                map_files.insert(map.to_owned(), format!("{stem}_{map}.png"));
            }
            if scheme == tuft_strands::file::Scheme::Stored {
                write_strand_file(&strands, scheme, &strands_file)?;
                written.push(strands_file.clone());
            }
            progress("meshes", 0.8)?;
            Ok((written, map_files, textures_ktx2))
        },
    );
    let (mut written, map_files, textures_ktx2) = mapped?;
    let (layers, meshes_written, read_back) = meshed?;
    written.extend(meshes_written);
    let strands = read_back.unwrap_or(strands);
    let ground = format!("{stem}_ground.glb");
    let path = out.join(&ground);
    let maps_uri = |m: &str| format!("{stem}_{m}.png");
    // The ground carries its maps: the PNGs just written beside it, read back.
    let mut pngs = gltf::Pngs::new();
    for map in ["base_color", "normal", "orm"] {
        let uri = maps_uri(map);
        let path = out.join(&uri);
        let png = tuft_strands::read::read_file(&path, 1 << 30, "map")
            .map_err(|e| fail(&path, e.reason()))?;
        pngs.insert(uri, png);
    }
    let glb = gltf::encode_ground(
        graph.repeat_m,
        GROUND_CELLS,
        &format!("{stem}_ground"),
        &gltf::GroundMaps {
            base_color: maps_uri("base_color"),
            normal: maps_uri("normal"),
            orm: maps_uri("orm"),
        },
        &pngs,
    );
    write_into_set(&path, &glb)?;
    written.push(path);
    let manifest = tuft_strands::manifest::Manifest {
        version: tuft_strands::manifest::MANIFEST_VERSION,
        name: graph.name.clone(),
        repeat_m: graph.repeat_m,
        maps: map_files,
        textures_ktx2,
        ktx2_codec: ktx2.name().to_owned(),
        target: target.name().to_owned(),
        height_range_m: graph.pbr.height_range_m,
        normal_convention: "tangent space, OpenGL (+Y up the image)".to_owned(),
        strands: format!("{stem}.strands"),
        strand_scheme: scheme.name().to_owned(),
        ground,
        scene: format!("{stem}.gltf"),
        layers,
        lod_bias: 1.0,
        made: Some({
            let (attributes, maps, cards) = tuft_strands::manifest::Made::conventions();
            tuft_strands::manifest::Made {
                generator: format!("Tuft {}", env!("CARGO_PKG_VERSION")),
                map_resolution: resolution as u32,
                mesh_compression: encoding.name().to_owned(),
                ktx2_zstd_level: ktx2::ZSTD_LEVEL,
                keep: options.keep,
                images_in_glb: true,
                attributes,
                maps,
                cards,
            }
        }),
    };
    let path = out.join(&manifest.scene);
    let scene = gltf::scene_of_set(out, &manifest).map_err(|e| fail(&path, e))?;
    write_into_set(&path, &scene)?;
    written.push(path);
    progress("manifest", 1.0)?;
    let path = out.join("manifest.ron");
    let text =
        ron::ser::to_string_pretty(&manifest, ron::ser::PrettyConfig::new().struct_names(false))
            .map_err(|e| fail(&path, e.to_string()))?;
    write_into_set(&path, text.as_bytes())?;
    written.push(path);
    // The same, for engines and tools that read JSON.
    let path = out.join("manifest.json");
    let json = serde_json::to_string_pretty(&manifest).map_err(|e| fail(&path, e.to_string()))?;
    write_into_set(&path, json.as_bytes())?;
    written.push(path);
    progress("checking", 1.0)?;
    check_set(out, &strands, &manifest)?;
    staging.commit().map_err(|e| fail(dir, e.to_string()))?;
    let _ = progress("done", 1.0);
    Ok(written
        .into_iter()
        .map(|p| {
            p.file_name()
                .map_or_else(|| dir.to_owned(), |f| dir.join(f))
        })
        .collect())
}

/// Each layer's level meshes and cards written into `out`, and its manifest entry;
/// stops with [`BakeError::Cancelled`] between files once `cancel` is set.
fn write_layers(
    strands: &StrandFile,
    graph: &MaterialGraph,
    (out, stem): (&Path, &str),
    (encoding, ktx2): (Encoding, ktx2::Codec),
    cancel: &AtomicBool,
) -> Result<(Vec<tuft_strands::manifest::LayerManifest>, Vec<PathBuf>), BakeError> {
    let cancelled = || {
        if cancel.load(std::sync::atomic::Ordering::Relaxed) {
            Err(BakeError::Cancelled)
        } else {
            Ok(())
        }
    };
    let mut written = Vec::new();
    let mut layers = Vec::new();
    for (name, set) in &strands.layers {
        cancelled()?;
        let layer = &graph.strands[name];
        let tiles = tuft_strands::mesh::repeat_tiles(set, graph.repeat_m, layer.profile);
        let mut levels = Vec::with_capacity(layer.levels.keep.len());
        for (level_idx, &keep) in layer.levels.keep.iter().enumerate() {
            cancelled()?;
            levels.push(tuft_strands::mesh::level_mesh(
                &tiles,
                layer.profile,
                keep,
                layer.levels.widen(level_idx),
                &layer.levels.keep,
            ));
        }
        let names: Vec<String> = (0..levels.len())
            .map(|k| format!("{name} level {k}"))
            .collect();
        // The narrowest strand sets how coarse a grid the positions may take.
        let narrowest = set
            .width
            .iter()
            .copied()
            .filter(|w| w.is_finite() && *w > 0.0)
            .fold(f32::INFINITY, f32::min);
        let named: Vec<_> = levels
            .iter()
            .zip(&names)
            .enumerate()
            .map(|(k, (mesh, name))| gltf::StrandLevel {
                mesh,
                name,
                grid_m: gltf::level_grid_m(narrowest, layer.levels.widen(k)),
            })
            .collect();
        let material = StrandMaterial::Strands {
            name: format!("{stem}_{}_strands", file_stem(name)),
            double_sided: matches!(layer.profile, tuft_graph::layer::Profile::Ribbon { .. }),
        };
        let file = levels_name(stem, name);
        let path = out.join(&file);
        write_into_set(&path, &gltf::encode_levels_glb(&named, &material, encoding))?;
        written.push(path);
        let meshes = vec![file; levels.len()];
        let (cards, switches) = write_cards(
            set,
            layer,
            graph.repeat_m,
            (out, stem, name),
            (encoding, ktx2),
            &mut written,
        )?;
        layers.push(tuft_strands::manifest::LayerManifest {
            name: name.clone(),
            profile: layer.profile,
            levels: layer.levels.clone(),
            level_reports: tuft_strands::levels::reports(
                set,
                &layer.levels,
                layer.profile,
                graph.repeat_m,
            ),
            meshes,
            cards,
            clump_lattice: layer.clump_lattice,
            switches: Some(switches),
            macro_variation: layer.macro_variation,
        });
    }
    Ok((layers, written))
}

/// Reads back what a bake wrote into `out` as a game would: the manifest parses to what
/// was meant, every file it names is there, and the strand file decodes to the sets
/// that were baked.
fn check_set(
    out: &Path,
    strands: &StrandFile,
    manifest: &tuft_strands::manifest::Manifest,
) -> Result<(), BakeError> {
    let bad = |path: PathBuf, message: String| BakeError::Check { path, message };
    let path = out.join("manifest.ron");
    let text = std::fs::read_to_string(&path).map_err(|e| bad(path.clone(), e.to_string()))?;
    let read: tuft_strands::manifest::Manifest =
        ron::from_str(&text).map_err(|e| bad(path.clone(), e.to_string()))?;
    if &read != manifest {
        return Err(bad(
            path,
            "reads back different from what was written".into(),
        ));
    }
    let path = out.join("manifest.json");
    let text = std::fs::read_to_string(&path).map_err(|e| bad(path.clone(), e.to_string()))?;
    let read: tuft_strands::manifest::Manifest =
        serde_json::from_str(&text).map_err(|e| bad(path.clone(), e.to_string()))?;
    if &read != manifest {
        return Err(bad(path, "says other than manifest.ron".into()));
    }
    let named = manifest.files();
    for file in named {
        let path = out.join(file);
        if !path.is_file() {
            return Err(bad(path, "named by the manifest but not written".into()));
        }
    }
    let path = out.join(&manifest.strands);
    let bytes = std::fs::read(&path).map_err(|e| bad(path.clone(), e.to_string()))?;
    match tuft_strands::file::decode(&bytes) {
        Ok(file) if &file == strands => Ok(()),
        Ok(_) => Err(bad(path, "decodes to other strands than were baked".into())),
        Err(e) => Err(bad(path, format!("its own reader refuses it: {e}"))),
    }
}

/// The card level of one layer: its atlas mips (colour and normal PNGs) and its mesh;
/// returns them named, with the layer's switch figures (which need the cards).
fn write_cards(
    set: &StrandSet,
    layer: &tuft_graph::layer::StrandLayer,
    repeat_m: f32,
    (dir, stem, name): (&Path, &str, &str),
    (encoding, ktx2_codec): (Encoding, ktx2::Codec),
    written: &mut Vec<PathBuf>,
) -> Result<
    (
        tuft_strands::manifest::CardsManifest,
        tuft_strands::switches::Switches,
    ),
    BakeError,
> {
    use tuft_strands::cards;
    let settings = &layer.cards;
    let mut group = cards::group(set, layer.clump_lattice, repeat_m, settings.atlas_cells);
    let mut atlas = cards::atlas(set, &group, repeat_m, settings);
    cards::tint(&mut group, &atlas);
    // glTF's vertex colours lie in [0, 1]: tints above 1 go into the atlas.
    cards::fold_tints(&mut group, &mut atlas);
    let layer_stem = format!("{stem}_{}", file_stem(name));
    let mut color_files = Vec::new();
    let mut normal_files = Vec::new();
    let mut pngs = gltf::Pngs::new();
    for (mip, (color, normal)) in atlas.color.iter().zip(&atlas.normal).enumerate() {
        let side = (atlas.size >> mip).max(1);
        for (pixels, kind, files) in [
            (color, "atlas_color", &mut color_files),
            (normal, "atlas_normal", &mut normal_files),
        ] {
            let file = format!("{layer_stem}_{kind}_mip{mip}.png");
            let path = dir.join(&file);
            let bytes = write_rgba_png(&path, side, pixels.clone())?;
            if mip == 0 && kind == "atlas_normal" {
                // The card mesh carries its normal atlas's first level (the loose mips
                // beside) and the colour atlas proofed below.
                pngs.insert(file.clone(), bytes);
            }
            written.push(path);
            files.push(file);
        }
    }
    // The colour atlas the glTF wears: an engine builds its mips by a box filter,
    // which would thin the cards; proofed, that chain keeps mip 0's coverage.
    let proofed = cards::box_proof(
        &atlas.color[0],
        atlas.size,
        settings.atlas_cells,
        settings.alpha_cutoff,
    );
    let gltf_color = format!("{layer_stem}_atlas_color.png");
    let path = dir.join(&gltf_color);
    let box_coverage = cards::box_chain_coverage(
        &proofed,
        atlas.size,
        settings.alpha_cutoff,
        cards::proofed_levels(atlas.size, settings.atlas_cells),
    );
    let bytes = write_rgba_png(&path, atlas.size, proofed)?;
    written.push(path);
    pngs.insert(gltf_color.clone(), bytes);
    let mut ktx2 = Vec::new();
    // The colour is alpha-tested at the cutoff; the normal's alpha is a copy.
    for (mips, kind, srgb, cutoff) in [
        (&atlas.color, "color", true, Some(settings.alpha_cutoff)),
        (&atlas.normal, "normal", false, None),
    ] {
        let file = format!("{layer_stem}_atlas_{kind}.ktx2");
        let path = dir.join(&file);
        let refs: Vec<&[u8]> = mips.iter().map(Vec::as_slice).collect();
        write_into_set(
            &path,
            &ktx2::encode(atlas.size, &refs, srgb, ktx2_codec, cutoff),
        )?;
        written.push(path);
        ktx2.push(file);
    }
    let mesh_file = format!("{layer_stem}_cards.glb");
    let path = dir.join(&mesh_file);
    let mesh = cards::card_mesh(&group, repeat_m, settings.atlas_cells);
    let material = StrandMaterial::Cards {
        name: format!("{layer_stem}_cards"),
        color: gltf_color.clone(),
        normal: normal_files.first().cloned().unwrap_or_default(),
        alpha_cutoff: settings.alpha_cutoff,
    };
    let glb = gltf::encode_glb(&mesh, &format!("{name} cards"), &material, encoding, &pngs);
    write_into_set(&path, &glb)?;
    written.push(path);
    let switches = tuft_strands::switches::Switches::of(set, &layer.levels, &group);
    let manifest = tuft_strands::manifest::CardsManifest {
        settings: settings.clone(),
        n_cards: group.len(),
        mesh: mesh_file,
        atlas_coverage: cards::coverage_per_mip(&atlas, settings.alpha_cutoff),
        atlas_color_gltf: gltf_color,
        atlas_box_coverage: box_coverage,
        atlas_color: color_files,
        atlas_normal: normal_files,
        atlas_normal_ktx2: ktx2.pop().unwrap_or_default(),
        atlas_color_ktx2: ktx2.pop().unwrap_or_default(),
    };
    Ok((manifest, switches))
}

/// An atlas level (`side²` RGBA8 texels) written into the set as the PNG at `path`;
/// returns the PNG's bytes (a card mesh carries some of them).
fn write_rgba_png(path: &Path, side: u32, texels: Vec<u8>) -> Result<Vec<u8>, BakeError> {
    let fail = |message: String| BakeError::Write {
        path: path.to_owned(),
        message,
    };
    let img = image::RgbaImage::from_raw(side, side, texels)
        .ok_or_else(|| fail("atlas size mismatch".to_owned()))?;
    let bytes = maps::png(&img.into()).map_err(|e| fail(e.to_string()))?;
    write_into_set(path, &bytes)?;
    Ok(bytes)
}

/// The path the strand file of material `stem` is written to in `dir`.
#[must_use]
pub fn strands_path(dir: &Path, stem: &str) -> PathBuf {
    dir.join(format!("{stem}.strands"))
}

/// Encodes `strands` under `scheme` and writes the file at `path` into the folder being
/// filled: the encoded bytes.
fn write_strand_file(
    strands: &StrandFile,
    scheme: tuft_strands::file::Scheme,
    path: &Path,
) -> Result<Vec<u8>, BakeError> {
    let bytes = tuft_strands::file::encode_with(strands, scheme);
    write_into_set(path, &bytes)?;
    Ok(bytes)
}

/// Writes one file of a set into the folder being filled. The set's atomicity is the
/// folder's (`staging`: written beside, read back, swapped in, the folder synced once),
/// so each file is written and synced in place, not renamed.
fn write_into_set(path: &Path, bytes: &[u8]) -> Result<(), BakeError> {
    tuft_graph::io::write_synced(path, bytes).map_err(|e| BakeError::Write {
        path: path.to_owned(),
        message: e.to_string(),
    })
}
