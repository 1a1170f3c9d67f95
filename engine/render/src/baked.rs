//! A baked set read back into a [`Material`]: the manifest, the surface maps (PNG) and
//! the strand file, and nothing of the graph. What `tuft view` and `tuft render DIR`
//! draw, and the proof that a set carries everything the preview needs.
//!
//! Every file is checked before anything is drawn; a failure names the file and says
//! why, so a viewer shows the message instead of a half-read material. The manifest's
//! version and settings are checked against what this build reads, every file it names
//! must be a plain file inside the folder, and every strand value must lie inside what
//! a scatter writes (the strand file's own reader checks that). The set's glTF meshes
//! are not read: the preview meshes the strand file itself, as a game using the runtime
//! crate does ([`MESHES_NOTE`]).

use crate::material::{Layer, Material, SurfaceMaps};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tuft_strands::manifest::Manifest;

/// The largest map side a set may hold (the largest any engine target takes).
pub const MAX_MAP_SIDE: u32 = 16_384;

/// The largest map file read (a 16-bit RGBA PNG of [`MAX_MAP_SIDE`]² stored without
/// compression is 2 GB; no bake writes one near it).
pub const MAX_MAP_FILE_BYTES: u64 = 1 << 30;

/// What drawing a set leaves unread, said wherever a set is drawn.
pub const MESHES_NOTE: &str = "the set's glTF meshes are not read: its strands are \
    meshed from the strand file, as a game using tuft-strands meshes them";

/// Why a folder is not a baked set that can be drawn.
#[derive(Debug, PartialEq, thiserror::Error)]
#[error("{}: {message}", path.display())]
pub struct BakedSetError {
    /// The file (or folder) at fault.
    pub path: PathBuf,
    /// What is wrong with it.
    pub message: String,
}

fn error(path: &Path, message: impl Into<String>) -> BakedSetError {
    BakedSetError {
        path: path.to_owned(),
        message: message.into(),
    }
}

/// Whether `dir` looks like a baked set (a folder holding `manifest.ron`): what the
/// editor asks of a folder opened or dropped on it.
#[must_use]
pub fn is_baked_set(dir: &Path) -> bool {
    dir.is_dir() && dir.join("manifest.ron").is_file()
}

/// The baked set `path` names: the folder itself, or the folder of its `manifest.ron`
/// (which is what a file dialog or a drag picks).
#[must_use]
pub fn set_at(path: &Path) -> Option<&Path> {
    if is_baked_set(path) {
        return Some(path);
    }
    let parent = path.parent()?;
    (path.file_name()? == "manifest.ron" && is_baked_set(parent)).then_some(parent)
}

/// A file of the set, named by the manifest: a plain name inside the folder.
fn member(dir: &Path, name: &str, what: &str) -> Result<PathBuf, BakedSetError> {
    let plain = Path::new(name)
        .components()
        .all(|c| matches!(c, std::path::Component::Normal(_)));
    if name.is_empty() || !plain {
        return Err(error(
            &dir.join("manifest.ron"),
            format!("{what} is named {name:?}, not a file inside the set's folder"),
        ));
    }
    Ok(dir.join(name))
}

fn read(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, BakedSetError> {
    tuft_strands::read::read_file(path, limit, what).map_err(|e| error(path, e.reason()))
}

/// One of the set's maps as RGBA8 texels, with its side.
fn map(path: &Path) -> Result<(u32, Vec<[u8; 4]>), BakedSetError> {
    let bytes = read(path, MAX_MAP_FILE_BYTES, "baked map")?;
    let reader =
        image::ImageReader::with_format(std::io::Cursor::new(&bytes), image::ImageFormat::Png);
    let (w, h) = reader
        .into_dimensions()
        .map_err(|e| error(path, format!("not a readable PNG: {e}")))?;
    if w != h || w == 0 || w > MAX_MAP_SIDE {
        return Err(error(
            path,
            format!(
                "the map is {w}×{h}; a set's maps are square, 1 to {MAX_MAP_SIDE} texels a side"
            ),
        ));
    }
    let img = tuft_strands::read::contained("the PNG decoder", || {
        image::load_from_memory_with_format(&bytes, image::ImageFormat::Png)
            .map_err(|e| format!("not a readable PNG: {e}"))
    })
    .map_err(|e| error(path, e))?
    .to_rgba8();
    let texels = img.pixels().map(|p| [p[0], p[1], p[2], 255]).collect();
    Ok((w, texels))
}

/// The manifest in `text`, of a version this build reads.
fn parse_manifest(path: &Path, text: &str) -> Result<Manifest, BakedSetError> {
    use tuft_strands::manifest::MANIFEST_VERSION;
    #[derive(serde::Deserialize)]
    struct Version {
        version: u32,
    }
    let newer = |found: u32| {
        error(
            path,
            format!(
                "manifest version {found} is newer than this build reads (up to \
                 {MANIFEST_VERSION}): view it with the Tuft that baked it, or bake again"
            ),
        )
    };
    let manifest: Manifest =
        ron::from_str(text).map_err(|e| match ron::from_str::<Version>(text) {
            Ok(v) if v.version > MANIFEST_VERSION => newer(v.version),
            _ => error(path, format!("not a manifest this build reads: {e}")),
        })?;
    match manifest.version {
        0 => Err(error(
            path,
            "manifest version 0 does not exist (versions start at 1)",
        )),
        v if v > MANIFEST_VERSION => Err(newer(v)),
        _ => Ok(manifest),
    }
}

/// Reads the baked set in `dir` into the material the renderer draws.
///
/// # Errors
/// The first file that is missing, unreadable or not what the manifest says, named.
pub fn load(dir: &Path) -> Result<Material, BakedSetError> {
    if !dir.is_dir() {
        return Err(error(dir, "not a folder"));
    }
    let manifest_path = dir.join("manifest.ron");
    if !manifest_path.is_file() {
        return Err(error(
            dir,
            "holds no manifest.ron, so it is not a baked set (tuft bake writes one)",
        ));
    }
    let text = String::from_utf8(read(&manifest_path, 16 << 20, "baked set's manifest")?)
        .map_err(|_| error(&manifest_path, "not UTF-8 text"))?;
    let manifest = parse_manifest(&manifest_path, &text)?;
    for (k, name) in manifest.files().into_iter().enumerate() {
        let path = member(dir, name, &format!("file {k} of the set"))?;
        tuft_strands::read::check_regular(&path).map_err(|e| error(&path, e.reason()))?;
    }
    if !(manifest.repeat_m.is_finite() && manifest.repeat_m > 0.0) {
        return Err(error(
            &manifest_path,
            format!("repeat_m {} is not a positive length", manifest.repeat_m),
        ));
    }
    let mut sides = Vec::new();
    let mut maps: [Vec<[u8; 4]>; 3] = Default::default();
    for (k, role) in ["base_color", "normal", "orm"].into_iter().enumerate() {
        let name = manifest
            .maps
            .get(role)
            .ok_or_else(|| error(&manifest_path, format!("names no {role} map")))?;
        let path = member(dir, name, &format!("the {role} map"))?;
        let (side, texels) = map(&path)?;
        sides.push((path, side));
        maps[k] = texels;
    }
    if let Some((path, side)) = sides.iter().find(|(_, s)| *s != sides[0].1) {
        return Err(error(
            path,
            format!("is {side}² but the base colour map is {}²", sides[0].1),
        ));
    }
    let [base_color, normal, orm] = maps;
    let strands_path = member(dir, &manifest.strands, "the strand file")?;
    let file = tuft_strands::file::decode(&read(
        &strands_path,
        tuft_strands::file::MAX_FILE_BYTES,
        "strand file",
    )?)
    .map_err(|e| error(&strands_path, e.to_string()))?;
    if file.repeat_m != manifest.repeat_m {
        return Err(error(
            &strands_path,
            format!(
                "its repeat is {} m but the manifest's is {} m",
                file.repeat_m, manifest.repeat_m
            ),
        ));
    }
    let mut sets: std::collections::HashMap<String, tuft_strands::StrandSet> =
        file.layers.into_iter().collect();
    let mut layers = Vec::with_capacity(manifest.layers.len());
    for l in &manifest.layers {
        let set = sets.remove(&l.name).ok_or_else(|| {
            error(
                &strands_path,
                format!("holds no layer {:?}, which the manifest names", l.name),
            )
        })?;
        let mut problems = l.profile.problems();
        problems.extend(l.levels.problems());
        problems.extend(l.cards.settings.problems());
        problems.extend(l.macro_variation.problems());
        if l.clump_lattice == 0 {
            problems.push(
                "no clump_lattice (baked before sets carried it: bake the graph again)".into(),
            );
        } else if l.clump_lattice > tuft_strands::set::MAX_CLUMP_LATTICE {
            problems.push(format!(
                "clump_lattice {} is past the {} a set may have",
                l.clump_lattice,
                tuft_strands::set::MAX_CLUMP_LATTICE
            ));
        }
        if !problems.is_empty() {
            return Err(error(
                &manifest_path,
                format!("layer {:?}: {}", l.name, problems.join("; ")),
            ));
        }
        let lattice = u64::from(l.clump_lattice);
        if let Some(c) = set
            .clump
            .iter()
            .find(|&&c| u64::from(c) >= lattice * lattice)
        {
            return Err(error(
                &strands_path,
                format!(
                    "layer {:?}: clump {c} lies outside the manifest's {lattice}² lattice",
                    l.name
                ),
            ));
        }
        layers.push(Layer {
            name: l.name.clone(),
            set: Arc::new(set),
            profile: l.profile,
            levels: l.levels.clone(),
            cards: l.cards.settings.clone(),
            clump_lattice: l.clump_lattice,
            macro_variation: l.macro_variation,
            level_reports: l.level_reports.clone(),
        });
    }
    Ok(Material {
        name: manifest.name,
        repeat_m: manifest.repeat_m,
        maps: SurfaceMaps {
            size: sides[0].1,
            base_color,
            normal,
            orm,
        },
        layers,
    })
}
