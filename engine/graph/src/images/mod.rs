//! Pictures read from disk (the Image node's file): decoded once per version of the
//! file, held process-wide, sampled bilinearly with wrapping, and checked for a seam.
//!
//! A path in a graph is relative to the graph file's folder ([`resolve`]). A file that
//! cannot be read is an error naming the path and the reason; the node reading it
//! evaluates to zero, so the rest of the graph still evaluates.
//!
//! The pictures one graph reads hold at most [`MAX_IMAGE_TEXELS`] texels together (told
//! from the files' headers, before anything is decoded): a node whose picture would
//! pass that reads as zero, with an error naming the budget. The editor's own
//! validation never waits for a picture to decode ([`open_with`]): it reads on a thread
//! of its own and is reported as reading until it is there (`store.rs`).

mod store;

pub use crate::picture::{ALPHA, GREY, LINEAR_RGB, Picture};
pub use store::{load, reading, reads_finished};

use crate::diag::{Code, Diagnostic};
use crate::graph::{MaterialGraph, Node};
use crate::limits::MAX_IMAGE_TEXELS;
use crate::node::{ParamKind, ParamValue};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The file `path` (as written in the graph) names, for a graph in `folder`: relative
/// paths are read from the graph file's folder, or from the working folder for a graph
/// never saved.
#[must_use]
pub fn resolve(folder: Option<&Path>, path: &str) -> PathBuf {
    let p = Path::new(path);
    match folder {
        Some(f) if p.is_relative() => f.join(p),
        _ => p.to_owned(),
    }
}

/// `file` written relative to `folder` where it lies inside it (the form a graph keeps,
/// so a folder of graph and images moves as one); otherwise as given.
#[must_use]
pub fn relative_to(folder: Option<&Path>, file: &Path) -> String {
    let Some(folder) = folder else {
        return file.display().to_string();
    };
    let canon = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_owned());
    let (folder, file_c) = (canon(folder), canon(file));
    match file_c.strip_prefix(&folder) {
        Ok(rel) => rel.display().to_string(),
        Err(_) => file.display().to_string(),
    }
}

/// The picture `path` names in `graph` (see [`resolve`]), waiting for it to decode.
///
/// # Errors
/// No path, one [`load`] cannot read, or a picture past the graph's budget.
pub fn open(graph: &MaterialGraph, path: &str) -> Result<Arc<Picture>, ImageError> {
    open_with(graph, path, true)
}

/// As [`open`]; without `wait`, a picture not yet decoded starts decoding on a thread
/// of its own and is [`ImageError::Reading`] until it is there ([`reads_finished`]
/// counts the reads that have ended).
///
/// # Errors
/// As [`open`], or still reading.
pub fn open_with(
    graph: &MaterialGraph,
    path: &str,
    wait: bool,
) -> Result<Arc<Picture>, ImageError> {
    if path.trim().is_empty() {
        return Err(ImageError::NoFile);
    }
    let file = resolve(graph.folder.get(), path);
    within_budget(graph, &file)?;
    if wait {
        load(&file)
    } else {
        store::load_or_start(&file)
    }
}

/// The files `graph`'s nodes read, resolved, once each, in node order.
fn files(graph: &MaterialGraph) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = Vec::new();
    for node in &graph.nodes {
        let Some(kind) = node.kind() else { continue };
        let params = node.params();
        if let Some(path) = kind.file(&params)
            && !path.trim().is_empty()
        {
            let file = resolve(graph.folder.get(), path);
            if !files.contains(&file) {
                files.push(file);
            }
        }
    }
    files
}

/// Whether `file`'s picture fits in `graph`'s budget after the pictures of the nodes
/// before it ([`MAX_IMAGE_TEXELS`], counted from the files' headers).
fn within_budget(graph: &MaterialGraph, file: &Path) -> Result<(), ImageError> {
    let mut total = 0_u64;
    for f in files(graph) {
        total = total.saturating_add(store::texels(&f).unwrap_or(0));
        if f == file {
            return if total > MAX_IMAGE_TEXELS {
                Err(ImageError::Budget {
                    path: f,
                    texels: total,
                })
            } else {
                Ok(())
            };
        }
    }
    Ok(())
}

/// The finding for `node`, which could not read `path`: a warning while no file is
/// chosen, an error for a file that cannot be read.
#[must_use]
pub fn problem(node: &Node, path: &str, error: &ImageError) -> Diagnostic {
    match error {
        ImageError::NoFile => Diagnostic::warning(
            Code::File,
            format!("{} has no file: choose one in the inspector", node.label()),
        ),
        ImageError::Reading { .. } => {
            Diagnostic::warning(Code::File, format!("{} is reading {path:?}…", node.label()))
        }
        ImageError::Read { .. } | ImageError::Budget { .. } => Diagnostic::error(
            Code::File,
            format!(
                "{} reads {path:?}, but {error}; it reads as zero",
                node.label()
            ),
        ),
    }
    .at(node.id)
}

/// Moves `graph` to `folder` (saved there): every file path it holds keeps naming the
/// same file, relative to the new folder where the file lies inside it.
pub fn move_graph(graph: &mut MaterialGraph, folder: &Path) {
    let old = graph.folder.0.take();
    for node in &mut graph.nodes {
        let Some(kind) = node.kind() else { continue };
        for desc in kind.params() {
            if let ParamKind::File { .. } = desc.kind
                && let Some(ParamValue::Text(path)) = node.params.get_mut(desc.name)
                && !path.trim().is_empty()
            {
                let file = resolve(old.as_deref(), path);
                let file = if file.is_relative() {
                    std::env::current_dir().map_or(file.clone(), |d| d.join(&file))
                } else {
                    file
                };
                *path = relative_to(Some(folder), &file);
            }
        }
    }
    graph.folder = crate::graph::Folder::at(folder);
}

/// Why a picture could not be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    /// No path was given.
    #[error("no file chosen")]
    NoFile,
    /// The file could not be opened or decoded.
    #[error("cannot read {path}: {reason}")]
    Read {
        /// The file, resolved.
        path: PathBuf,
        /// Why, in the decoder's words.
        reason: String,
    },
    /// The picture would take the graph's pictures past [`MAX_IMAGE_TEXELS`].
    #[error(
        "{path} would bring the graph's pictures to {texels} texels, past the \
         {MAX_IMAGE_TEXELS} (three of 4096 × 4096) one graph may read"
    )]
    Budget {
        /// The file, resolved.
        path: PathBuf,
        /// The texels of the graph's pictures up to and with this one.
        texels: u64,
    },
    /// The picture is decoding on a thread of its own ([`open_with`] without waiting).
    #[error("{path} is still being read")]
    Reading {
        /// The file, resolved.
        path: PathBuf,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use tuft_strands::num::srgb_to_linear;

    fn picture(w: usize, h: usize, f: impl Fn(usize, usize) -> f32) -> Picture {
        let texels: Vec<[f32; 4]> = (0..w * h)
            .map(|i| {
                let v = f(i % w, i / w);
                [v, v, v, 1.0]
            })
            .collect();
        Picture::from_rgba(w, h, &texels)
    }

    #[test]
    fn samples_are_bilinear_between_texel_centres_and_wrap() {
        let p = picture(4, 1, |x, _| [0.0, 1.0, 0.5, 0.25][x]);
        let grey = |u: f32| p.sample([u, 0.5])[GREY];
        assert!((grey(0.125) - 0.0).abs() < 1e-6);
        assert!((grey(0.375) - 1.0).abs() < 1e-6);
        assert!((grey(0.25) - 0.5).abs() < 1e-6);
        // Between the last texel and the first, across the edge.
        assert!((grey(0.0) - 0.125).abs() < 1e-6);
        assert!((grey(1.0) - 0.125).abs() < 1e-6);
        assert!((grey(-0.875) - 0.0).abs() < 1e-6);
        // The colour is decoded, the grey is not.
        assert!((p.sample([0.625, 0.5])[0] - srgb_to_linear(0.5)).abs() < 1e-6);
    }

    #[test]
    fn a_ramp_across_the_picture_is_a_seam_and_a_wave_is_not() {
        let ramp = picture(64, 64, |x, _| x as f32 / 63.0);
        let why = ramp.seam().expect("a ramp's edges do not meet");
        assert!(why.contains("left and right"), "{why}");
        let wave = picture(64, 64, |x, y| {
            0.5 + 0.25 * (std::f32::consts::TAU * (x as f32 / 64.0)).sin()
                + 0.2 * (std::f32::consts::TAU * (y as f32 / 64.0) * 2.0).cos()
        });
        assert_eq!(wave.seam(), None);
        let rows = picture(64, 64, |_, y| y as f32 / 63.0);
        assert!(rows.seam().unwrap().contains("top and bottom"));
    }

    #[test]
    #[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
    fn missing_and_malformed_files_say_which_file_and_why() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope.png");
        let e = load(&missing).unwrap_err();
        assert!(e.to_string().contains("nope.png"), "{e}");
        let junk = dir.path().join("junk.png");
        std::fs::write(&junk, b"not a picture at all").unwrap();
        let e = load(&junk).unwrap_err();
        assert!(e.to_string().contains("junk.png"), "{e}");
    }

    #[test]
    fn a_jpeg_reads_like_a_png() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("photo.jpg");
        image::RgbImage::from_pixel(16, 16, image::Rgb([200, 120, 40]))
            .save(&path)
            .unwrap();
        let t = load(&path).unwrap().sample([0.5, 0.5]);
        // JPEG is lossy: within a couple of codes of what was written.
        for (got, want) in t[LINEAR_RGB].iter().zip([200.0f32, 120.0, 40.0]) {
            let want = srgb_to_linear(want / 255.0);
            assert!((got - want).abs() < 0.02, "{got} vs {want}");
        }
    }

    #[test]
    fn a_file_is_read_again_when_it_changes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mask.png");
        image::GrayImage::from_pixel(2, 2, image::Luma([0]))
            .save(&path)
            .unwrap();
        assert_eq!(load(&path).unwrap().sample([0.5, 0.5])[GREY], 0.0);
        // A different size makes a different version even within one clock tick.
        image::GrayImage::from_pixel(3, 3, image::Luma([255]))
            .save(&path)
            .unwrap();
        assert_eq!(load(&path).unwrap().sample([0.5, 0.5])[GREY], 1.0);
    }

    #[test]
    #[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
    fn a_graph_saved_elsewhere_keeps_reading_the_same_files() {
        let root = tempfile::tempdir().unwrap();
        let (a, b) = (root.path().join("a"), root.path().join("a/sub"));
        std::fs::create_dir_all(a.join("masks")).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        let mut g = MaterialGraph::new("moved");
        let id = g.add_node("Image").unwrap();
        g.node_mut(id)
            .unwrap()
            .params
            .insert("file".into(), ParamValue::Text("masks/m.png".into()));
        g.folder = crate::graph::Folder::at(&a);
        std::fs::write(a.join("masks/m.png"), b"x").unwrap();
        // Into a folder outside the file's: the path becomes absolute.
        move_graph(&mut g, &b);
        let held = g.node(id).unwrap().params["file"].clone();
        let ParamValue::Text(held) = held else {
            panic!("{held:?}")
        };
        assert_eq!(
            Path::new(&held).canonicalize().unwrap(),
            a.join("masks/m.png").canonicalize().unwrap()
        );
        // And back: relative again.
        move_graph(&mut g, &a);
        assert_eq!(
            g.node(id).unwrap().params["file"],
            ParamValue::Text("masks/m.png".into())
        );
    }

    #[test]
    #[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
    fn paths_are_relative_to_the_graph_folder() {
        let folder = Path::new("/materials/lawn");
        assert_eq!(
            resolve(Some(folder), "masks/a.png"),
            Path::new("/materials/lawn/masks/a.png")
        );
        assert_eq!(resolve(Some(folder), "/abs/a.png"), Path::new("/abs/a.png"));
        assert_eq!(resolve(None, "a.png"), Path::new("a.png"));
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("masks")).unwrap();
        let file = dir.path().join("masks/a.png");
        std::fs::write(&file, b"x").unwrap();
        assert_eq!(relative_to(Some(dir.path()), &file), "masks/a.png");
        let other = tempfile::tempdir().unwrap();
        assert_eq!(
            relative_to(Some(other.path()), &file),
            file.display().to_string()
        );
    }

    /// A PNG's signature and header claiming `side`² texels, with no texels after it:
    /// enough for its size to be told, and nothing to decode.
    fn header_only_png(side: u32) -> Vec<u8> {
        let mut ihdr = b"IHDR".to_vec();
        ihdr.extend_from_slice(&side.to_be_bytes());
        ihdr.extend_from_slice(&side.to_be_bytes());
        ihdr.extend_from_slice(&[8, 0, 0, 0, 0]); // 8-bit grey
        let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
        for chunk in [ihdr, b"IDAT".to_vec(), b"IEND".to_vec()] {
            png.extend_from_slice(&(chunk.len() as u32 - 4).to_be_bytes());
            png.extend_from_slice(&chunk);
            png.extend_from_slice(&tuft_strands::crc::crc32(&chunk).to_be_bytes());
        }
        png
    }

    /// Regression: seventeen Image nodes each reading a 58 kB PNG of 4096² took 6.2 GB to
    /// validate. The pictures a graph reads are counted from their headers, and the one
    /// that passes the budget is refused without being decoded.
    #[test]
    #[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
    fn a_graphs_pictures_past_the_budget_are_refused_by_their_headers() {
        let dir = tempfile::tempdir().unwrap();
        let side = crate::limits::MAX_IMAGE_SIDE as u32;
        let mut g = MaterialGraph::new("many pictures");
        g.folder = crate::graph::Folder::at(dir.path());
        let names = ["a.png", "b.png", "c.png", "d.png"];
        for name in names {
            std::fs::write(dir.path().join(name), header_only_png(side)).unwrap();
            let id = g.add_node("Image").unwrap();
            g.node_mut(id)
                .unwrap()
                .params
                .insert("file".into(), ParamValue::Text(name.into()));
        }
        // Two nodes reading one file count it once.
        let again = g.add_node("Image").unwrap();
        g.node_mut(again)
            .unwrap()
            .params
            .insert("file".into(), ParamValue::Text("a.png".into()));
        for name in &names[..3] {
            assert!(within_budget(&g, &dir.path().join(name)).is_ok(), "{name}");
        }
        let texels = u64::from(side) * u64::from(side);
        let e = open_with(&g, "d.png", false).unwrap_err();
        assert_eq!(
            e,
            ImageError::Budget {
                path: dir.path().join("d.png"),
                texels: 4 * texels,
            }
        );
        assert!(
            e.to_string()
                .contains("past the 50331648 (three of 4096 × 4096)"),
            "{e}"
        );
        // Within the budget, the header-only file is read and fails as a picture.
        assert!(matches!(open(&g, "a.png"), Err(ImageError::Read { .. })));
    }

    /// A thread that must not block (the editor's UI thread) validates without waiting:
    /// a picture never decoded is reported as reading, decodes on a thread of its own,
    /// and the next validation after [`reads_finished`] moves finds it there.
    #[test]
    fn validation_that_does_not_wait_says_reading_until_the_picture_is_there() {
        let dir = tempfile::tempdir().unwrap();
        image::GrayImage::from_fn(64, 64, |x, _| image::Luma([(x * 4) as u8]))
            .save(dir.path().join("fresh.png"))
            .unwrap();
        let mut g = MaterialGraph::new("reading");
        g.folder = crate::graph::Folder::at(dir.path());
        let id = g.add_node("Image").unwrap();
        g.node_mut(id)
            .unwrap()
            .params
            .insert("file".into(), ParamValue::Text("fresh.png".into()));
        let before = reads_finished();
        let report = crate::validate_without_waiting(&g);
        let reading: Vec<&str> = report
            .diagnostics
            .iter()
            .map(|d| d.message.as_str())
            .filter(|m| m.contains("is reading \"fresh.png\""))
            .collect();
        assert_eq!(reading.len(), 1, "{:?}", report.diagnostics);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while reads_finished() == before {
            assert!(std::time::Instant::now() < deadline, "the read ends");
            std::thread::yield_now();
        }
        let report = crate::validate_without_waiting(&g);
        assert!(
            !report
                .diagnostics
                .iter()
                .any(|d| d.message.contains("reading")),
            "{:?}",
            report.diagnostics
        );
        assert!(
            open_with(&g, "fresh.png", false).is_ok(),
            "the picture is there"
        );
    }
}
