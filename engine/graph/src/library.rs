//! A library of one's own: a group saved as a RON file in a folder of the author's, offered
//! beside the built-in nodes. Adding one puts a copy of its nodes into the graph as a
//! group that remembers which library node it came from and a digest of it, so the graph
//! works on when the library file changes or goes, and can say when the two differ.

use crate::clip::Clip;
use crate::document::Document;
pub use crate::groups::LibraryLink;
use crate::groups::{GroupError, PortRef};
use crate::io::SaveError;
use crate::link::NodeId;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// The largest library file read (a group of thousands of nodes is well under this).
pub const MAX_FILE_BYTES: u64 = 8 << 20;

/// The most library files a folder offers; the rest are named as left out.
pub const MAX_ENTRIES: usize = 1000;

/// The most bytes a library folder's files are read to, together: the editor reads its
/// library as it starts, and a folder of huge files must not keep it from starting.
pub const MAX_LIBRARY_BYTES: u64 = 64 << 20;

/// The library file format this build writes and reads.
pub const LIBRARY_VERSION: u32 = 1;

/// A group as its own file: its nodes with their links among themselves and where they
/// stood, and the member ports its group node shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LibraryNode {
    /// The library file format ([`LIBRARY_VERSION`]).
    pub version: u32,
    /// The name it is offered under and the group node's title.
    pub name: String,
    /// The nodes inside.
    pub nodes: Clip,
    /// Member inputs shown on the group node, in order.
    #[serde(default)]
    pub inputs: Vec<PortRef>,
    /// Member outputs shown on the group node, in order.
    #[serde(default)]
    pub outputs: Vec<PortRef>,
}

/// Why a library node could not be made, read, written or added.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    /// No group has that id.
    #[error("there is no group {0}")]
    NoGroup(u32),
    /// The file could not be read.
    #[error(transparent)]
    Read(#[from] tuft_strands::read::ReadError),
    /// The text is not a library node.
    #[error("{path}: line {line}, column {col}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What the parser expected.
        message: String,
    },
    /// Written by a newer build.
    #[error(
        "{path} is a library node of format version {found}; this build reads up to \
         {LIBRARY_VERSION}"
    )]
    NewerVersion {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: u32,
    },
    /// The library folder holds a file of that name that is not a library node: it is
    /// the user's, and is never replaced.
    #[error(
        "{0} exists and is not a library node, so it is left as it is: rename the group \
         or move that file"
    )]
    NotOurs(PathBuf),
    /// Another library node's name makes the same file name.
    #[error(
        "{path} holds the library node {other:?}, whose name makes the same file name: \
         rename the group"
    )]
    SameFile {
        /// The file.
        path: PathBuf,
        /// The other library node's name.
        other: String,
    },
    /// The library node holds no node this build knows.
    #[error("the library node {0:?} holds no node this build knows")]
    Empty(String),
    /// Writing failed.
    #[error(transparent)]
    Save(#[from] SaveError),
    /// Grouping the added nodes failed.
    #[error(transparent)]
    Group(#[from] GroupError),
    /// Pasting the nodes failed.
    #[error(transparent)]
    Paste(#[from] crate::clip::TooManyToPaste),
}

impl LibraryNode {
    /// A digest of what the node holds, the same however its file is laid out.
    #[must_use]
    pub fn digest(&self) -> u32 {
        let text = ron::to_string(self).unwrap_or_default();
        tuft_strands::crc::crc32(text.as_bytes())
    }

    /// The file name it is saved under in a library folder.
    #[must_use]
    pub fn file_name(&self) -> String {
        format!("{}.ron", crate::naming::file_stem(&self.name))
    }
}

impl Document {
    /// Group `group` as a library node: its members, their links among themselves, where
    /// they stand, and its exposed ports. Links from outside the group are not taken.
    ///
    /// # Errors
    /// No group of that id.
    pub fn library_node(&self, group: u32) -> Result<LibraryNode, LibraryError> {
        let g = self.group(group).ok_or(LibraryError::NoGroup(group))?;
        let members: Vec<NodeId> = g.members.iter().copied().collect();
        let mut clip = self.clip(&members);
        // Links from outside would name nodes of this document only.
        for node in &mut clip.nodes {
            node.inputs.retain(|_, input| match input {
                crate::Input::Link(from) => g.members.contains(&from.node),
                crate::Input::Const(_) => true,
            });
        }
        Ok(LibraryNode {
            version: LIBRARY_VERSION,
            name: g.name.clone(),
            nodes: clip,
            inputs: g.inputs.clone(),
            outputs: g.outputs.clone(),
        })
    }

    /// Adds a copy of `entry` as a new group whose node stands at `at`, its members
    /// around it as they stood in the library; returns the group's id and the new nodes.
    /// The group remembers the library node's name and digest ([`Group::library`]).
    ///
    /// # Errors
    /// A library node with no node this build knows, or one too large to paste.
    ///
    /// [`Group::library`]: crate::groups::Group::library
    pub fn add_library_node(
        &mut self,
        entry: &LibraryNode,
        at: [f32; 2],
    ) -> Result<(u32, Vec<NodeId>), LibraryError> {
        // The members keep their arrangement, with its top left corner at `at`.
        let corner = entry
            .nodes
            .layout
            .iter()
            .map(|(_, p)| *p)
            .reduce(|a, b| [a[0].min(b[0]), a[1].min(b[1])])
            .unwrap_or_default();
        let offset = [at[0] - corner[0], at[1] - corner[1]];
        let pasted = self.paste(&entry.nodes, offset, false)?;
        if pasted.added.is_empty() {
            return Err(LibraryError::Empty(entry.name.clone()));
        }
        // The clip's ids in order, matched with the copies (unknown kinds left out).
        let mut seen = std::collections::HashSet::new();
        let known: Vec<NodeId> = entry
            .nodes
            .nodes
            .iter()
            .filter(|n| n.kind().is_some() && seen.insert(n.id))
            .map(|n| n.id)
            .collect();
        let copies: HashMap<NodeId, NodeId> = known
            .into_iter()
            .zip(pasted.added.iter().copied())
            .collect();
        let id = self.make_group(&pasted.added, &entry.name)?;
        let map = |ports: &[PortRef]| -> Vec<PortRef> {
            ports
                .iter()
                .filter_map(|p| copies.get(&p.node).map(|n| PortRef::new(*n, &p.port)))
                .collect()
        };
        let (inputs, outputs) = (map(&entry.inputs), map(&entry.outputs));
        if let Some(g) = self.groups.iter_mut().find(|g| g.id == id) {
            g.pos = at;
            g.inputs = inputs;
            g.outputs = outputs;
            g.library = Some(LibraryLink {
                name: entry.name.clone(),
                digest: entry.digest(),
            });
        }
        self.tidy_groups();
        Ok((id, pasted.added))
    }

    /// What the library in `folder` says of this document's groups added from it: each
    /// whose library node has changed since it was added, or is no longer there.
    #[must_use]
    pub fn library_notes(&self, library: &Library) -> Vec<String> {
        let mut notes = Vec::new();
        for g in &self.groups {
            let Some(link) = &g.library else {
                continue;
            };
            match library.find(&link.name) {
                Some(e) if e.digest != link.digest => notes.push(format!(
                    "the group {:?} differs from the library's {:?}, which has changed \
                     since it was added: the graph keeps its own copy",
                    g.name, link.name
                )),
                Some(_) => {}
                None => notes.push(format!(
                    "the library no longer holds {:?}, which the group {:?} was added \
                     from: the graph keeps its own copy",
                    link.name, g.name
                )),
            }
        }
        notes
    }
}

/// One library file, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Its file.
    pub path: PathBuf,
    /// What it holds.
    pub node: LibraryNode,
    /// [`LibraryNode::digest`] of it, found once when read (the editor compares it with
    /// its groups' every frame).
    pub digest: u32,
}

impl Entry {
    /// `node`, read from `path`.
    fn new(path: PathBuf, node: LibraryNode) -> Self {
        let digest = node.digest();
        Self { path, node, digest }
    }
}

/// A library folder as read: its library nodes by name, and what could not be read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Library {
    /// The folder (`None`: no library, as in tests).
    pub folder: Option<PathBuf>,
    /// The library nodes, sorted by name.
    pub entries: Vec<Entry>,
    /// A line for each file that could not be read, naming it and why.
    pub problems: Vec<String>,
}

impl Library {
    /// Reads every `.ron` file in `folder` (a missing folder is an empty library). Files
    /// that are not library nodes are named in [`Library::problems`] and left alone.
    #[must_use]
    pub fn read(folder: &Path) -> Self {
        let mut library = Self {
            folder: Some(folder.to_owned()),
            ..Self::default()
        };
        if folder.exists() && !folder.is_dir() {
            library
                .problems
                .push(format!("{} is not a folder", folder.display()));
            return library;
        }
        let Ok(dir) = std::fs::read_dir(folder) else {
            if folder.exists() {
                library
                    .problems
                    .push(format!("{} cannot be read", folder.display()));
            }
            return library;
        };
        let mut paths: Vec<PathBuf> = dir
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
        paths.sort();
        if paths.len() > MAX_ENTRIES {
            library.problems.push(format!(
                "{} holds {} library files; the first {MAX_ENTRIES} are offered",
                folder.display(),
                paths.len()
            ));
            paths.truncate(MAX_ENTRIES);
        }
        let mut by_name: BTreeMap<String, Entry> = BTreeMap::new();
        let mut total = 0u64;
        for path in paths {
            let size = std::fs::metadata(&path).map_or(0, |m| m.len());
            if size > MAX_FILE_BYTES {
                library.problems.push(format!(
                    "{} is {} MB, more than a library node may be ({} MB): left out",
                    path.display(),
                    size >> 20,
                    MAX_FILE_BYTES >> 20
                ));
                continue;
            }
            total = total.saturating_add(size);
            if total > MAX_LIBRARY_BYTES {
                library.problems.push(format!(
                    "{} holds more than {} MB of library files; those from {} on are \
                     left out",
                    folder.display(),
                    MAX_LIBRARY_BYTES >> 20,
                    path.display()
                ));
                break;
            }
            match read(&path) {
                Ok(node) => {
                    if let Some(other) = by_name.get(&node.name) {
                        library.problems.push(format!(
                            "{} names itself {:?}, as {} does: the first is offered",
                            path.display(),
                            node.name,
                            other.path.display()
                        ));
                        continue;
                    }
                    by_name.insert(node.name.clone(), Entry::new(path, node));
                }
                Err(e) => library.problems.push(e.to_string()),
            }
        }
        library.entries = by_name.into_values().collect();
        library
    }

    /// The library node called `name`.
    #[must_use]
    pub fn find(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.node.name == name)
    }

    /// Saves `node` in the library folder under its name ([`LibraryNode::file_name`]),
    /// creating the folder; returns the file and whether it replaced an earlier library
    /// node of that name. A file of that name that is not a library node is never
    /// replaced.
    ///
    /// # Errors
    /// No folder, a file of that name that is not a library node, or a failed write.
    pub fn save(&mut self, node: &LibraryNode) -> Result<(PathBuf, bool), LibraryError> {
        let folder = self.folder.clone().ok_or_else(|| SaveError::Io {
            path: PathBuf::from(node.file_name()),
            source: std::io::Error::other("no library folder is set"),
        })?;
        let path = folder.join(node.file_name());
        let replaced = match std::fs::symlink_metadata(&path) {
            Ok(_) => match read(&path) {
                Err(_) => return Err(LibraryError::NotOurs(path)),
                // Names that differ only where a file name cannot ("a/b", "a b") share
                // a file: the other library node is never replaced.
                Ok(other) if other.name != node.name => {
                    return Err(LibraryError::SameFile {
                        path,
                        other: other.name,
                    });
                }
                Ok(_) => true,
            },
            Err(_) => false,
        };
        std::fs::create_dir_all(&folder).map_err(|source| SaveError::Io {
            path: folder.clone(),
            source,
        })?;
        let config = ron::ser::PrettyConfig::new()
            .struct_names(false)
            .compact_arrays(true)
            .depth_limit(8);
        let mut text = ron::ser::to_string_pretty(node, config)
            .map_err(|e| SaveError::Encode(e.to_string()))?;
        text.push('\n');
        crate::io::write_atomic(&path, text.as_bytes())?;
        // The folder as read, with this node in (not read again: each save would read
        // every library file once more).
        self.entries
            .retain(|e| e.node.name != node.name && e.path != path);
        let at = self.entries.partition_point(|e| e.node.name < node.name);
        self.entries
            .insert(at, Entry::new(path.clone(), node.clone()));
        Ok((path, replaced))
    }
}

/// Reads one library file.
///
/// # Errors
/// See [`LibraryError`].
pub fn read(path: &Path) -> Result<LibraryNode, LibraryError> {
    let text = tuft_strands::read::read_text(path, MAX_FILE_BYTES, "library node")?;
    #[derive(Deserialize)]
    struct Probe {
        version: u32,
    }
    if let Ok(probe) = ron::from_str::<Probe>(&text)
        && probe.version > LIBRARY_VERSION
    {
        return Err(LibraryError::NewerVersion {
            path: path.to_owned(),
            found: probe.version,
        });
    }
    ron::from_str::<LibraryNode>(&text).map_err(|e| LibraryError::Parse {
        path: path.to_owned(),
        line: e.span.start.line,
        col: e.span.start.col,
        message: e.code.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::MaterialGraph;

    /// A document whose group (Noise → ColorRamp) is read by the PBR base colour, with
    /// the ramp's `t` exposed as well as fed from the noise.
    fn grouped() -> (Document, u32) {
        let mut g = MaterialGraph::new("a");
        let (noise, ramp) = crate::nodes::testing::noise_ramp_to_base(&mut g);
        let mut doc = Document::new(g);
        doc.layout.insert(noise, [0.0, 0.0]);
        doc.layout.insert(ramp, [200.0, 0.0]);
        let id = doc.make_group(&[noise, ramp], "Mottle").unwrap();
        (doc, id)
    }

    #[test]
    fn a_group_saved_and_added_elsewhere_keeps_its_nodes_links_and_ports() {
        let (doc, id) = grouped();
        let entry = doc.library_node(id).unwrap();
        assert_eq!(entry.nodes.nodes.len(), 2);
        assert_eq!(entry.outputs.len(), 1, "the ramp's output is read outside");
        let mut other = Document::new(MaterialGraph::new("b"));
        let (g, added) = other.add_library_node(&entry, [500.0, 300.0]).unwrap();
        assert_eq!(added.len(), 2);
        let group = other.group(g).unwrap();
        assert_eq!(group.name, "Mottle");
        assert_eq!(group.pos, [500.0, 300.0]);
        assert_eq!(group.outputs.len(), 1);
        assert!(added.contains(&group.outputs[0].node));
        assert_eq!(
            group.library,
            Some(LibraryLink {
                name: "Mottle".into(),
                digest: entry.digest()
            })
        );
        // The noise still feeds the ramp in the copy.
        let ramp = other
            .graph
            .nodes
            .iter()
            .find(|n| n.kind == "ColorRamp")
            .unwrap();
        assert!(matches!(ramp.inputs.get("t"), Some(crate::Input::Link(_))));
        // The members stand where they stood relative to each other, corner at `at`.
        let xs: Vec<f32> = added.iter().map(|n| other.layout[n][0]).collect();
        assert_eq!(xs, vec![500.0, 700.0]);
    }

    #[test]
    #[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
    fn the_library_says_when_its_copy_differs_or_is_gone_and_never_replaces_a_foreign_file() {
        let dir = std::env::temp_dir().join(format!("tuft-library-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (doc, id) = grouped();
        let mut library = Library::read(&dir);
        assert!(library.entries.is_empty(), "a missing folder is empty");
        let entry = doc.library_node(id).unwrap();
        let (path, replaced) = library.save(&entry).unwrap();
        assert!(!replaced);
        assert_eq!(path, dir.join("Mottle.ron"));
        assert_eq!(library.find("Mottle").unwrap().node, entry);

        let mut user = Document::new(MaterialGraph::new("b"));
        user.add_library_node(&library.find("Mottle").unwrap().node, [0.0, 0.0])
            .unwrap();
        assert!(user.library_notes(&library).is_empty());

        // The library's copy changes: said.
        let mut changed = entry.clone();
        changed.nodes.layout[0].1 = [-50.0, 0.0];
        let (_, replaced) = library.save(&changed).unwrap();
        assert!(replaced);
        let notes = user.library_notes(&library);
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("has changed"), "{notes:?}");

        // Gone: said, and the graph keeps its nodes.
        std::fs::remove_file(&path).unwrap();
        let library = Library::read(&dir);
        let notes = user.library_notes(&library);
        assert!(notes[0].contains("no longer holds"), "{notes:?}");
        assert_eq!(user.graph.nodes.len(), 2);

        // A file of the same name that is not a library node is the user's.
        std::fs::write(&path, "my notes").unwrap();
        let mut library = Library::read(&dir);
        assert_eq!(library.problems.len(), 1, "{:?}", library.problems);
        assert!(matches!(
            library.save(&entry),
            Err(LibraryError::NotOurs(_))
        ));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "my notes");
        // Two names that make one file name: the other node is not replaced.
        std::fs::remove_file(&path).unwrap();
        let mut slash = entry.clone();
        slash.name = "a/b".into();
        let (file, _) = library.save(&slash).unwrap();
        let mut space = entry.clone();
        space.name = "a b".into();
        assert!(matches!(
            library.save(&space),
            Err(LibraryError::SameFile { other, .. }) if other == "a/b"
        ));
        assert_eq!(read(&file).unwrap().name, "a/b");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    #[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
    fn a_library_file_from_a_newer_build_or_of_nonsense_is_named_not_read() {
        let dir = std::env::temp_dir().join(format!("tuft-library-bad-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("new.ron"),
            "(version: 9, name: \"x\", nodes: (nodes: []))",
        )
        .unwrap();
        std::fs::write(dir.join("junk.ron"), "(((").unwrap();
        let library = Library::read(&dir);
        assert!(library.entries.is_empty());
        assert_eq!(library.problems.len(), 2);
        assert!(library.problems.iter().any(|p| p.contains("version 9")));
        assert!(library.problems.iter().any(|p| p.contains("junk.ron")));
        // A huge file (sparse: no time to write) is not read, and a node saved after it
        // is still offered.
        let huge = std::fs::File::create(dir.join("huge.ron")).unwrap();
        huge.set_len(MAX_LIBRARY_BYTES + 1).unwrap();
        let (doc, id) = grouped();
        let mut node = doc.library_node(id).unwrap();
        node.name = "zsmall".into();
        let mut library = Library::read(&dir);
        library.save(&node).unwrap();
        let library = Library::read(&dir);
        assert!(library.find("zsmall").is_some(), "{:?}", library.problems);
        assert!(
            library
                .problems
                .iter()
                .any(|p| p.contains("huge.ron") && p.contains("left out")),
            "{:?}",
            library.problems
        );
        // A file where the folder should be is named.
        let not_a_folder = Library::read(&dir.join("huge.ron"));
        assert!(not_a_folder.problems[0].contains("is not a folder"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
