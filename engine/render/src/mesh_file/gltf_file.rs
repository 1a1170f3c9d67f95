//! A glTF mesh (`.glb`, or `.gltf` with its buffers) read behind fences, so that the
//! `gltf` crate's reader never sees what would make it panic or allocate without end:
//!
//! - buffers are read here, not by the crate: the binary chunk, a `data:` URI, or a file
//!   inside the mesh's own folder (a path that leaves it, a link that leads out of it, an
//!   absolute path or another scheme is refused), each bounded by what is left of
//!   [`super::MAX_MESH_FILE_BYTES`], percent escapes decoded without trusting them;
//! - every buffer view lies inside its buffer, and every accessor inside its view, with
//!   a stride no smaller than its element and at most [`MAX_ELEMENTS`] elements (sparse
//!   ones included: a small file may not ask for gigabytes of zeros);
//! - the scene's nodes form a tree, each reached once (a node listed as the child of
//!   two others would be walked once per path, exponentially many times).

use super::{MAX_MESH_FILE_BYTES, append};
use glam::Mat4;
use std::path::{Component, Path, PathBuf};
use tuft_strands::surface::{MAX_MESH_TRIANGLES, MeshData};

/// The most elements one accessor may hold: an index for each corner of the largest
/// mesh read.
pub const MAX_ELEMENTS: usize = 3 * MAX_MESH_TRIANGLES;

/// How deep nodes may nest.
const MAX_DEPTH: usize = 64;

/// The mesh in the glTF file at `path`, whose bytes are `bytes`.
pub(super) fn mesh(path: &Path, bytes: &[u8]) -> Result<MeshData, String> {
    let ::gltf::Gltf { document, blob } =
        ::gltf::Gltf::from_slice(bytes).map_err(|e| format!("not a glTF file: {e}"))?;
    let buffers = buffers(&document, path, blob, bytes.len() as u64)?;
    check_views(&document, &buffers)?;
    check_accessors(&document)?;
    let scene = document
        .default_scene()
        .or_else(|| document.scenes().next())
        .ok_or("the file has no scene")?;
    let mut mesh = MeshData::default();
    let mut reached = vec![false; document.nodes().len()];
    let mut stack: Vec<(::gltf::Node<'_>, Mat4, usize)> =
        scene.nodes().map(|n| (n, Mat4::IDENTITY, 0)).collect();
    while let Some((node, parent, depth)) = stack.pop() {
        if depth > MAX_DEPTH {
            return Err(format!("nodes nested more than {MAX_DEPTH} deep"));
        }
        if std::mem::replace(&mut reached[node.index()], true) {
            return Err(format!(
                "node {} is reached twice (the child of two nodes, or of itself): a glTF's \
                 nodes must form a tree",
                node.index()
            ));
        }
        let world = parent * Mat4::from_cols_array_2d(&node.transform().matrix());
        if let Some(m) = node.mesh() {
            for prim in m.primitives() {
                if prim.mode() != ::gltf::mesh::Mode::Triangles {
                    continue;
                }
                let reader = prim.reader(|b| buffers.get(b.index()).map(Vec::as_slice));
                let Some(positions) = reader.read_positions() else {
                    continue;
                };
                let positions: Vec<[f32; 3]> = positions.collect();
                let normals = reader.read_normals().map(Iterator::collect);
                let uvs = reader.read_tex_coords(0).map(|t| t.into_f32().collect());
                let indices: Vec<u32> = match reader.read_indices() {
                    Some(i) => i.into_u32().collect(),
                    None => (0..positions.len() as u32).collect(),
                };
                append(&mut mesh, world, &positions, normals, uvs, &indices)?;
            }
        }
        stack.extend(node.children().map(|c| (c, world, depth + 1)));
    }
    Ok(mesh)
}

/// Every buffer's bytes, read here; `used` bytes of the budget are spent already.
fn buffers(
    document: &::gltf::Document,
    path: &Path,
    mut blob: Option<Vec<u8>>,
    mut used: u64,
) -> Result<Vec<Vec<u8>>, String> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    let mut all = Vec::new();
    for buffer in document.buffers() {
        let i = buffer.index();
        let left = MAX_MESH_FILE_BYTES.saturating_sub(used);
        let data = match buffer.source() {
            ::gltf::buffer::Source::Bin => blob.take().ok_or_else(|| {
                format!("buffer {i} is the binary chunk, which the file does not have")
            })?,
            ::gltf::buffer::Source::Uri(uri) => uri_bytes(uri, &folder, left)
                .map_err(|why| format!("buffer {i} ({}): {why}", shorten(uri)))?,
        };
        if data.len() < buffer.length() {
            return Err(format!(
                "buffer {i} holds {} bytes where the file says {}",
                data.len(),
                buffer.length()
            ));
        }
        used = used.saturating_add(data.len() as u64);
        if used > MAX_MESH_FILE_BYTES {
            return Err(format!(
                "the file and its buffers hold more than the {MAX_MESH_FILE_BYTES} bytes a \
                 mesh file may have"
            ));
        }
        all.push(data);
    }
    Ok(all)
}

/// A URI as a message quotes it: the first 60 characters.
fn shorten(uri: &str) -> String {
    let mut s: String = uri.chars().take(60).collect();
    if s.len() < uri.len() {
        s.push('…');
    }
    format!("{s:?}")
}

/// The bytes a buffer's `uri` names: a `data:` URI, or a file inside `folder`.
fn uri_bytes(uri: &str, folder: &Path, limit: u64) -> Result<Vec<u8>, String> {
    if let Some(rest) = uri.strip_prefix("data:") {
        let (_, encoded) = rest
            .split_once(";base64,")
            .ok_or("a data URI that is not base64")?;
        return base64::decode(encoded).map_err(|e| format!("its base64 is broken ({e})"));
    }
    let outside = "a mesh reads its buffers only from files inside its own folder";
    let scheme = uri
        .split_once(':')
        .is_some_and(|(s, _)| !s.is_empty() && !s.contains('/'));
    if scheme {
        return Err(format!(
            "names another place than a file beside the mesh; {outside}"
        ));
    }
    let decoded = percent_decoded(uri)?;
    let relative = Path::new(&decoded);
    if !relative
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(format!("lies outside the mesh's folder; {outside}"));
    }
    let file = folder.join(relative);
    let canonical = |p: &Path| std::fs::canonicalize(p).map_err(|e| format!("cannot be read: {e}"));
    if !canonical(&file)?.starts_with(canonical(folder)?) {
        return Err(format!(
            "leads out of the mesh's folder through a link; {outside}"
        ));
    }
    tuft_strands::read::read_file(&file, limit, "mesh file with its buffers")
        .map_err(|e| e.reason())
}

/// `uri` with its percent escapes decoded; an escape that is not two hex digits, or
/// bytes that are not UTF-8, are an error.
fn percent_decoded(uri: &str) -> Result<String, String> {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or("holds a percent escape that is not two hex digits")?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "decodes to a name that is not UTF-8".to_owned())
}

/// Every buffer view lies inside its buffer.
fn check_views(document: &::gltf::Document, buffers: &[Vec<u8>]) -> Result<(), String> {
    for view in document.views() {
        let i = view.index();
        let len = buffers.get(view.buffer().index()).map_or(0, Vec::len);
        let end = view.offset().checked_add(view.length());
        if end.is_none_or(|end| end > len) {
            return Err(format!(
                "bufferView {i} ({} bytes from {}) reaches past its buffer's {len} bytes",
                view.length(),
                view.offset()
            ));
        }
    }
    Ok(())
}

/// Whether `count` items of `size` bytes, `stride` apart from `offset`, fit in `len`.
fn fits(offset: usize, count: usize, stride: usize, size: usize, len: usize) -> bool {
    if count == 0 {
        return offset <= len;
    }
    (count - 1)
        .checked_mul(stride)
        .and_then(|span| span.checked_add(offset))
        .and_then(|span| span.checked_add(size))
        .is_some_and(|end| end <= len)
}

/// Every accessor lies inside its view, steps at least its element's size, and holds
/// at most [`MAX_ELEMENTS`] elements, sparse or not.
fn check_accessors(document: &::gltf::Document) -> Result<(), String> {
    for a in document.accessors() {
        let (i, size, count) = (a.index(), a.size(), a.count());
        if count > MAX_ELEMENTS {
            return Err(format!(
                "accessor {i} holds {count} elements; a mesh read here may have at most \
                 {MAX_ELEMENTS}"
            ));
        }
        if let Some(view) = a.view() {
            let stride = view.stride().unwrap_or(size);
            if stride < size {
                return Err(format!(
                    "accessor {i}'s elements are {size} bytes, but its bufferView {} steps \
                     only {stride} bytes from one to the next",
                    view.index()
                ));
            }
            if !fits(a.offset(), count, stride, size, view.length()) {
                return Err(format!(
                    "accessor {i} ({count} elements of {size} bytes) reaches past its \
                     bufferView {}",
                    view.index()
                ));
            }
        }
        if let Some(sparse) = a.sparse() {
            let n = sparse.count();
            let (indices, values) = (sparse.indices(), sparse.values());
            let index_size = indices.index_type().size();
            let ok = n <= count
                && fits(
                    indices.offset(),
                    n,
                    index_size,
                    index_size,
                    indices.view().length(),
                )
                && fits(values.offset(), n, size, size, values.view().length());
            if !ok {
                return Err(format!(
                    "accessor {i}'s sparse part ({n} elements) is larger than the accessor \
                     or reaches past its bufferViews"
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_escapes_decode_and_a_broken_one_is_an_error_not_a_panic() {
        assert_eq!(percent_decoded("a%20b.bin").unwrap(), "a b.bin");
        for bad in ["%zz.bin", "end%", "end%4", "%+1x"] {
            assert!(percent_decoded(bad).is_err(), "{bad}");
        }
        assert!(percent_decoded("%ff%fe").is_err(), "not UTF-8");
    }

    #[test]
    fn spans_that_overflow_or_pass_the_end_do_not_fit() {
        assert!(fits(0, 3, 12, 12, 36));
        assert!(!fits(0, 3, 12, 12, 35));
        assert!(fits(4, 0, 12, 12, 4));
        assert!(!fits(0, usize::MAX, 12, 12, 36));
        assert!(!fits(usize::MAX, 1, 1, 1, 36));
    }

    #[test]
    #[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
    fn buffers_outside_the_folder_or_behind_a_scheme_are_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("mesh");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(dir.path().join("outside.bin"), [0_u8; 8]).unwrap();
        std::fs::write(folder.join("inside.bin"), [1_u8; 8]).unwrap();
        assert_eq!(uri_bytes("inside.bin", &folder, 100).unwrap(), [1; 8]);
        assert_eq!(uri_bytes("./inside.bin", &folder, 100).unwrap(), [1; 8]);
        for uri in [
            "../outside.bin",
            "/etc/passwd",
            "file:///etc/passwd",
            "http://example.com/x.bin",
            "sub/../../outside.bin",
        ] {
            let err = uri_bytes(uri, &folder, 100).unwrap_err();
            assert!(err.contains("inside its own folder"), "{uri}: {err}");
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("outside.bin"), folder.join("link.bin"))
                .unwrap();
            let err = uri_bytes("link.bin", &folder, 100).unwrap_err();
            assert!(err.contains("through a link"), "{err}");
        }
        assert_eq!(
            uri_bytes("data:application/octet-stream;base64,AAEC", &folder, 100).unwrap(),
            [0, 1, 2]
        );
    }
}
