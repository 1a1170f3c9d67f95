//! A mesh of the author's read from a file, as a surface to preview on: glTF (`.glb`,
//! `.gltf` with its buffers) through the `gltf` crate, OBJ through `tobj`. Every
//! triangle primitive of every node of the default scene, in world space (node
//! transforms applied), centred on the origin; UVs from the first set. What is wrong with
//! a file is an error naming it, never a panic.
//!
//! Other people's readers are fenced: every byte they see was read here, bounded
//! ([`tuft_strands::read`]); a glTF's buffers are read only from inside the mesh's
//! folder, and its accessors, strides and node tree are checked before the reader walks
//! them (`gltf_file.rs`); an OBJ is read without its material library (materials are not
//! used); and a reader that panics all the same is an error naming the file.

mod gltf_file;

use glam::{Mat3, Mat4, Vec3};
use std::path::{Path, PathBuf};
use tuft_strands::surface::MeshData;

/// The largest mesh file read, with every buffer it names (a 4-million-triangle glTF is
/// about 150 MB).
pub const MAX_MESH_FILE_BYTES: u64 = 1 << 30;

/// Why a mesh file cannot be read.
#[derive(Debug, PartialEq, thiserror::Error)]
#[error("{}: {message}", path.display())]
pub struct MeshFileError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong.
    pub message: String,
}

/// The mesh file extensions read, lower case.
pub const EXTENSIONS: [&str; 3] = ["glb", "gltf", "obj"];

/// `path`'s extension, lower case, when it is one of [`EXTENSIONS`].
fn extension(path: &Path) -> Option<String> {
    path.extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .filter(|e| EXTENSIONS.contains(&e.as_str()))
}

/// Whether `path` names a mesh file this module reads (by its extension).
#[must_use]
pub fn is_mesh_file(path: &Path) -> bool {
    extension(path).is_some()
}

/// Reads the mesh in `path` (by its extension), checked ([`MeshData::check`]).
///
/// # Errors
/// An unreadable, malformed, unsupported or too large file, or a mesh that cannot be a
/// surface (no UVs, UVs in one point, bad numbers), each named.
pub fn load(path: &Path) -> Result<MeshData, MeshFileError> {
    let fail = |message: String| MeshFileError {
        path: path.to_owned(),
        message,
    };
    let Some(ext) = extension(path) else {
        return Err(fail(format!(
            "not a mesh file this build reads (.{})",
            EXTENSIONS.join(", .")
        )));
    };
    let bytes = tuft_strands::read::read_file(path, MAX_MESH_FILE_BYTES, "mesh file")
        .map_err(|e| fail(e.reason()))?;
    // A reader that panics on what no check here foresaw is an error naming the file,
    // never the end of the process.
    let mut mesh = tuft_strands::read::contained(&format!("the {ext} reader"), || {
        if ext == "obj" {
            obj_mesh(&bytes)
        } else {
            gltf_file::mesh(path, &bytes)
        }
    })
    .map_err(fail)?;
    mesh.check().map_err(|e| fail(e.to_string()))?;
    centre(&mut mesh);
    Ok(mesh)
}

/// Moves the mesh so its bounds are centred on the origin, where the preview's camera
/// turns.
fn centre(mesh: &mut MeshData) {
    let (lo, hi) = mesh.positions.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), &p| (lo.min(Vec3::from(p)), hi.max(Vec3::from(p))),
    );
    let mid = (lo + hi) / 2.0;
    for p in &mut mesh.positions {
        *p = (Vec3::from(*p) - mid).to_array();
    }
}

/// Appends one primitive's vertices and triangles, moved by `world`. A primitive without
/// UVs gets zero ones (no UV area: nothing planted on it); `mesh.uvs` is left empty
/// while no primitive has any, so a file without UVs says so.
fn append(
    mesh: &mut MeshData,
    world: Mat4,
    positions: &[[f32; 3]],
    normals: Option<Vec<[f32; 3]>>,
    uvs: Option<Vec<[f32; 2]>>,
    indices: &[u32],
) -> Result<(), String> {
    let base = u32::try_from(mesh.positions.len())
        .map_err(|_| "more vertices than 32-bit indices reach".to_owned())?;
    let n = positions.len();
    let uvs = uvs.filter(|u| u.len() == n);
    if uvs.is_some() && mesh.uvs.len() < mesh.positions.len() {
        mesh.uvs.resize(mesh.positions.len(), [0.0; 2]);
    }
    let normal_matrix = Mat3::from_mat4(world).inverse().transpose();
    mesh.positions.extend(
        positions
            .iter()
            .map(|&p| world.transform_point3(Vec3::from(p)).to_array()),
    );
    match uvs {
        Some(uvs) => mesh.uvs.extend(uvs),
        None if !mesh.uvs.is_empty() => mesh.uvs.extend(std::iter::repeat_n([0.0; 2], n)),
        None => {}
    }
    // Normals only when every primitive has them; otherwise all are computed.
    match normals.filter(|v| v.len() == n) {
        Some(v) if mesh.normals.len() + n == mesh.positions.len() => {
            mesh.normals.extend(v.iter().map(|&q| {
                (normal_matrix * Vec3::from(q))
                    .normalize_or_zero()
                    .to_array()
            }));
        }
        _ => mesh.normals.clear(),
    }
    if !indices.len().is_multiple_of(3) {
        return Err(format!("{} indices do not make triangles", indices.len()));
    }
    for t in indices.chunks_exact(3) {
        if t.iter().any(|&i| i as usize >= n) {
            return Err(format!(
                "an index names a vertex past the {n} of its primitive"
            ));
        }
        mesh.triangles.push([t[0] + base, t[1] + base, t[2] + base]);
        if mesh.triangles.len() > tuft_strands::surface::MAX_MESH_TRIANGLES {
            return Err(format!(
                "more than {} triangles",
                tuft_strands::surface::MAX_MESH_TRIANGLES
            ));
        }
    }
    Ok(())
}

/// The geometry of an OBJ file's `bytes`. Its material library is never read: the
/// preview does not use materials, and a malformed library must not stop the mesh.
fn obj_mesh(bytes: &[u8]) -> Result<MeshData, String> {
    let options = tobj::LoadOptions {
        triangulate: true,
        // One vertex per distinct position/UV/normal triple: UV seams stay split.
        single_index: true,
        ..Default::default()
    };
    let (models, _) = tobj::load_obj_buf(&mut std::io::Cursor::new(bytes), &options, |_| {
        Ok(Default::default())
    })
    .map_err(|e| format!("not a readable OBJ file: {e}"))?;
    let mut mesh = MeshData::default();
    for model in models {
        let m = model.mesh;
        let positions: Vec<[f32; 3]> = m
            .positions
            .chunks_exact(3)
            .map(|p| [p[0], p[1], p[2]])
            .collect();
        let normals = (!m.normals.is_empty()).then(|| {
            m.normals
                .chunks_exact(3)
                .map(|p| [p[0], p[1], p[2]])
                .collect()
        });
        let uvs = (!m.texcoords.is_empty())
            .then(|| m.texcoords.chunks_exact(2).map(|p| [p[0], p[1]]).collect());
        append(
            &mut mesh,
            Mat4::IDENTITY,
            &positions,
            normals,
            uvs,
            &m.indices,
        )?;
    }
    Ok(mesh)
}
