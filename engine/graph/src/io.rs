//! Graph files: RON text holding a [`MaterialGraph`] and, beside it, the editor's layout.
//!
//! Reading checks the format version before anything else, so a file from a newer build
//! says so instead of failing on a field it does not know; a malformed file names the line
//! and column. Writing is atomic: the text goes to a file beside the target, which is then
//! renamed over it, so a failed save never leaves a half-written graph.

pub use crate::document::{Document, PreviewMesh};
use crate::graph::FORMAT_VERSION;
pub use crate::graph::Folder;
use serde::Deserialize;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The largest graph file read (a graph of thousands of nodes is well under a megabyte).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Why a graph file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read: missing, not a regular file, or larger than any
    /// graph ([`MAX_FILE_BYTES`]).
    #[error(transparent)]
    Read(#[from] tuft_strands::read::ReadError),
    /// The text is not a valid graph.
    #[error("line {line}, column {col}: {message}")]
    Parse {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What the parser expected.
        message: String,
    },
    /// The graph has more nodes than any graph may ([`crate::limits::MAX_NODES`]).
    #[error(
        "the graph has {nodes} nodes, more than the {} a graph may have",
        crate::limits::MAX_NODES
    )]
    TooManyNodes {
        /// How many it has.
        nodes: usize,
    },
    /// The file is a baked set's manifest, which names the set's files, not a graph.
    #[error(
        "this is a baked set's manifest, not a graph: File › Open or tuft view opens the \
         set it describes"
    )]
    BakedManifest,
    /// The file was written by a newer build.
    #[error(
        "written at format version {found}, newer than this build reads (up to \
         {FORMAT_VERSION}); open it with a newer Tuft"
    )]
    NewerVersion {
        /// The file's version.
        found: u32,
    },
    /// The version number is not one any build wrote.
    #[error("format version {found} does not exist (versions start at 1)")]
    BadVersion {
        /// The file's version.
        found: u32,
    },
}

/// Why a graph file could not be written. The previous file, if any, is untouched.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// Serialising failed (a value RON cannot express).
    #[error("cannot write the graph as RON: {0}")]
    Encode(String),
    /// Writing or renaming failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

#[derive(Deserialize)]
struct VersionProbe {
    graph: GraphProbe,
}

#[derive(Deserialize)]
struct GraphProbe {
    version: u32,
}

/// Parses graph-file text.
///
/// # Errors
/// A newer or impossible format version, or malformed text (with line and column).
pub fn from_str(text: &str) -> Result<Document, LoadError> {
    // The version decides how to read the rest, so look at it first.
    if let Ok(probe) = ron::from_str::<VersionProbe>(text) {
        let found = probe.graph.version;
        if found > FORMAT_VERSION {
            return Err(LoadError::NewerVersion { found });
        }
        if found == 0 {
            return Err(LoadError::BadVersion { found });
        }
    }
    let mut doc = ron::from_str::<Document>(text).map_err(|e| {
        if ron::from_str::<tuft_strands::manifest::Manifest>(text).is_ok() {
            return LoadError::BakedManifest;
        }
        LoadError::Parse {
            line: e.span.start.line,
            col: e.span.start.col,
            message: e.code.to_string(),
        }
    })?;
    let nodes = doc.graph.nodes.len();
    if nodes > crate::limits::MAX_NODES {
        return Err(LoadError::TooManyNodes { nodes });
    }
    // A hand-edited file may name members that are not there.
    doc.tidy_groups();
    Ok(doc)
}

/// Reads a graph file; the graph's [`MaterialGraph::folder`] is the file's folder.
///
/// # Errors
/// See [`LoadError`].
pub fn load(path: &Path) -> Result<Document, LoadError> {
    let text = tuft_strands::read::read_text(path, MAX_FILE_BYTES, "graph file")?;
    let mut doc = from_str(&text)?;
    doc.graph.folder = Folder::at(&folder_of(path));
    Ok(doc)
}

/// The folder a graph file at `path` lies in: what the paths it holds are relative to.
#[must_use]
pub fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    }
}

/// The document as RON text, formatted for reading and diffing.
///
/// # Errors
/// When a value cannot be expressed in RON.
pub fn to_string(doc: &Document) -> Result<String, SaveError> {
    let config = ron::ser::PrettyConfig::new()
        .struct_names(false)
        .compact_arrays(true)
        .depth_limit(8);
    let mut text =
        ron::ser::to_string_pretty(doc, config).map_err(|e| SaveError::Encode(e.to_string()))?;
    text.push('\n');
    Ok(text)
}

/// Writes `doc` to `path` atomically: to a file beside it, flushed, then renamed over it.
///
/// # Errors
/// See [`SaveError`]; on error `path` keeps its previous content.
pub fn save(doc: &Document, path: &Path) -> Result<(), SaveError> {
    let text = to_string(doc)?;
    write_atomic(path, text.as_bytes())
}

/// Writes `bytes` to `path` by way of a temporary file beside it and a rename.
///
/// A `path` that is a symbolic link is written through to its target (the link stays a
/// link); an existing file keeps its permissions; the folder is synced after the rename,
/// so the new name survives a power cut.
///
/// # Errors
/// When the directory cannot be written or the rename fails; `path` is unchanged then.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), SaveError> {
    let io = |source| SaveError::Io {
        path: path.to_owned(),
        source,
    };
    let target = resolve_links(path).map_err(io)?;
    let file_name = target
        .file_name()
        .ok_or_else(|| io(std::io::Error::other("the path names no file")))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(file_name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = target.with_file_name(tmp_name);
    let previous = std::fs::metadata(&target)
        .ok()
        .filter(std::fs::Metadata::is_file);
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        if let Some(meta) = &previous {
            file.set_permissions(meta.permissions())?;
        }
        file.sync_all()?;
        std::fs::rename(&tmp, &target)?;
        sync_parent(&target)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(e));
    }
    Ok(())
}

/// Writes `bytes` to a new file at `path` and syncs it, without a temporary file or a
/// rename: for the files of a baked set, whose folder is swapped in whole (`staging`)
/// and synced once, so each file needs neither its own rename nor a sync of the folder.
///
/// # Errors
/// When the file cannot be created or written.
pub fn write_synced(path: &Path, bytes: &[u8]) -> Result<(), SaveError> {
    let result = (|| {
        let mut file = std::fs::File::create(path)?;
        file.write_all(bytes)?;
        file.sync_all()
    })();
    result.map_err(|source| SaveError::Io {
        path: path.to_owned(),
        source,
    })
}

/// `path` with every symbolic link along its last component followed (a dangling link
/// resolves to the file it names, which the write then creates).
fn resolve_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut current = path.to_owned();
    // A loop of links is an error, as the operating system would report it.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let next = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if next.is_relative() => dir.join(next),
                    _ => next,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(std::io::Error::other(format!(
        "too many levels of symbolic links at {}",
        path.display()
    )))
}

/// Syncs the folder holding `path`, so a rename into it is durable.
pub fn sync_parent(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        std::fs::File::open(dir)?.sync_all()?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{MaterialGraph, PbrOutput};
    use crate::link::Input;
    use crate::value::Value;

    #[test]
    fn a_graph_of_more_nodes_than_the_limit_is_not_read() {
        let mut g = MaterialGraph::new("many");
        for _ in 0..crate::limits::MAX_NODES {
            g.add_node("Constant").unwrap();
        }
        let doc = Document::new(g);
        // At the limit it reads; past it, it is refused by name before any work.
        let text = to_string(&doc).unwrap();
        assert_eq!(
            from_str(&text).unwrap().graph.nodes.len(),
            crate::limits::MAX_NODES
        );
        let mut more = doc;
        more.graph.add_node("Constant").unwrap();
        let err = from_str(&to_string(&more).unwrap()).unwrap_err();
        assert!(
            matches!(err, LoadError::TooManyNodes { nodes: 4097 }),
            "{err}"
        );
        assert!(err.to_string().contains("4097 nodes"), "{err}");
    }

    #[test]
    fn a_graph_of_a_name_and_a_repeat_alone_reads_as_file_new_makes_it() {
        // What a script writes first; it was refused for its missing `pbr`.
        let doc = from_str("(graph: (version: 1, name: \"x\", repeat_m: 2.0))").unwrap();
        assert_eq!(doc, Document::new(MaterialGraph::new("x")));
        let layer = "(graph: (version: 1, name: \"x\", repeat_m: 2.0, strands: {\"g\": \
                     (lattice: 64, clump_lattice: 8)}))";
        let doc = from_str(layer).unwrap();
        assert!(doc.graph.nodes.is_empty() && doc.graph.strands.contains_key("g"));
        assert!(crate::validate(&doc.graph).diagnostics.is_empty());
    }

    #[test]
    fn a_pbr_half_naming_some_ports_takes_the_defaults_for_the_rest() {
        // It was refused for each port left out ("missing field `occlusion`").
        let text = "(graph: (version: 1, name: \"x\", repeat_m: 2.0, pbr: (base_color: \
                    Const(Color((0.5, 0.4, 0.1))), height_range_m: 0.03)))";
        let pbr = from_str(text).unwrap().graph.pbr;
        let made = PbrOutput::default();
        assert_eq!(pbr.base_color, Input::Const(Value::Color([0.5, 0.4, 0.1])));
        assert_eq!(pbr.height_range_m, 0.03);
        assert_eq!(
            (&pbr.roughness, &pbr.occlusion, &pbr.height),
            (&made.roughness, &made.occlusion, &made.height)
        );
    }

    #[test]
    fn a_newer_version_is_refused_by_name() {
        let text = "(graph: (version: 99, name: \"x\", repeat_m: 2.0, nodes: [], pbr: (), \
                    future_field: 3))";
        let err = from_str(text).unwrap_err();
        assert!(
            matches!(err, LoadError::NewerVersion { found: 99 }),
            "{err}"
        );
        assert!(err.to_string().contains("newer"), "{err}");
    }

    #[test]
    fn malformed_text_names_line_and_column() {
        let text = "(graph: (\n  version: 1,\n  name: \"x\"\n  repeat_m: 2.0,\n))";
        match from_str(text).unwrap_err() {
            LoadError::Parse { line, col, .. } => {
                assert_eq!(line, 4, "col {col}");
            }
            other => panic!("expected a parse error, got {other}"),
        }
    }

    #[test]
    fn round_trip_is_lossless() {
        let mut g = MaterialGraph::new("rt");
        let n = g.add_node("Noise").unwrap();
        let mut doc = Document::new(g);
        doc.layout.insert(n, [12.5, -3.0]);
        let text = to_string(&doc).unwrap();
        assert_eq!(from_str(&text).unwrap(), doc);
    }

    #[cfg(unix)]
    #[test]
    fn a_save_keeps_the_files_mode() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("private.ron");
        let doc = Document::new(MaterialGraph::new("private"));
        save(&doc, &path).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        save(&Document::new(MaterialGraph::new("again")), &path).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{mode:o}");
        assert!(load(&path).unwrap().graph.name == "again");
    }

    #[cfg(unix)]
    #[test]
    fn a_save_through_a_symlink_writes_its_target_and_keeps_the_link() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.ron");
        let link = dir.path().join("link.ron");
        save(&Document::new(MaterialGraph::new("one")), &real).unwrap();
        std::os::unix::fs::symlink("real.ron", &link).unwrap();
        save(&Document::new(MaterialGraph::new("two")), &link).unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(load(&real).unwrap().graph.name, "two");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 2, "no temporary file is left");
    }

    #[test]
    fn a_failed_save_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.ron");
        let doc = Document::new(MaterialGraph::new("one"));
        save(&doc, &path).unwrap();
        let before = std::fs::read_to_string(&path).unwrap();
        // A path whose directory does not exist cannot be written; nothing changes.
        assert!(save(&doc, &dir.path().join("missing/g.ron")).is_err());
        // Saving over a directory fails at the rename; the directory stays.
        let as_dir = dir.path().join("d.ron");
        std::fs::create_dir(&as_dir).unwrap();
        assert!(save(&doc, &as_dir).is_err());
        assert!(as_dir.is_dir());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
        // No temporary files are left behind.
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }
}
