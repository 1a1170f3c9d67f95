//! The document being edited: the graph and its layout, where it lives on disk, and its
//! history. Every graph edit goes through [`Session::edit`], which is what makes every
//! edit undoable and every change visible to the workers (by its generation).

use std::path::{Path, PathBuf};
use tuft_graph::Document;
use tuft_graph::io::{LoadError, SaveError};

/// How many edits undo remembers.
pub const UNDO_DEPTH: usize = 200;

/// A document, its file, and its history.
#[derive(Debug)]
pub struct Session {
    doc: Document,
    /// Where the document is saved, absolute and canonical ([`canonical`]); `None` until
    /// the first Save As.
    path: Option<PathBuf>,
    /// What the file held when this session last opened or saved it
    /// ([`fingerprint`]): recovered work goes back only to a file that still holds it.
    on_disk: Option<u64>,
    /// Bumped by every change to the document, layout moves included (what autosave
    /// watches; the workers watch `generation`).
    revision: u64,
    /// The document as last saved or opened (to tell whether there are unsaved changes).
    saved: Document,
    undo: Vec<Document>,
    redo: Vec<Document>,
    /// Bumped by every change to the document, undo and redo included.
    generation: u64,
    /// Tells this document from every other open in any Tuft (a clip copied here says
    /// where it came from).
    token: u64,
}

/// Whether an edit from `before` to `after` stays inside the limits a file is opened
/// within: a graph may not grow past [`tuft_graph::limits::MAX_NODES`] (one already
/// past it, built some other way, may still shrink).
fn within_limits(before: &Document, after: &Document) -> Result<(), String> {
    let (was, is) = (before.graph.nodes.len(), after.graph.nodes.len());
    let most = tuft_graph::limits::MAX_NODES;
    if is > most && is > was {
        return Err(format!(
            "Not done: the graph would hold {is} nodes, and the most a graph may have is \
             {most}"
        ));
    }
    Ok(())
}

/// A number no other session draws: the standard library's hasher keys are random for
/// each process and differ for each hasher made in it.
fn fresh_token() -> u64 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(0_u8)
}

impl Session {
    /// A session on `doc`, saved at `path` if it came from a file.
    #[must_use]
    pub fn new(doc: Document, path: Option<PathBuf>) -> Self {
        let path = path.map(|p| canonical(&p));
        Self {
            saved: doc.clone(),
            doc,
            on_disk: path.as_deref().and_then(fingerprint),
            revision: 1,
            path,
            undo: Vec::new(),
            redo: Vec::new(),
            generation: 1,
            token: fresh_token(),
        }
    }

    /// A session on an empty document never saved (File › New, or a start whose file
    /// could not be opened).
    #[must_use]
    pub fn untitled() -> Self {
        Self::new(
            Document::new(tuft_graph::MaterialGraph::new("untitled")),
            None,
        )
    }

    /// A session on work recovered from an autosave: `doc` belongs to `path` (if it was
    /// ever saved) and differs from it, so it starts unsaved. `was_on_disk` is what the
    /// file held when the work was autosaved; where the file holds something else now,
    /// or is gone, or `path` is not absolute (an autosave of an older build, whose
    /// working folder is unknown), the session has no file and says why: Save asks where
    /// instead of overwriting what may be another document.
    #[must_use]
    pub fn recovered(
        doc: Document,
        path: Option<PathBuf>,
        was_on_disk: Option<u64>,
    ) -> (Self, Option<String>) {
        let Some(path) = path else {
            let mut s = Self::new(doc, None);
            s.saved = Document::new(tuft_graph::MaterialGraph::new(""));
            return (s, None);
        };
        let now = fingerprint(&path);
        let why = if !path.is_absolute() {
            Some(format!(
                "it was autosaved for {} by an older Tuft, whose folder is not known",
                path.display()
            ))
        } else if now.is_none() {
            Some(format!("{} is gone", path.display()))
        } else if was_on_disk.is_some() && now != was_on_disk {
            Some(format!(
                "{} has changed since the work was autosaved",
                path.display()
            ))
        } else {
            None
        };
        if let Some(why) = why {
            let mut s = Self::new(doc, None);
            s.saved = Document::new(tuft_graph::MaterialGraph::new(""));
            return (s, Some(format!("{why}: Save asks where to save it")));
        }
        let on_disk = tuft_graph::io::load(&path)
            .unwrap_or_else(|_| Document::new(tuft_graph::MaterialGraph::new("")));
        let mut s = Self::new(doc, Some(path));
        s.saved = on_disk;
        (s, None)
    }

    /// Continues the generations of a session this one replaces: the workers drop work
    /// older than the newest generation they have seen, so a replacing document must
    /// count on from there, not from 1.
    pub fn continue_after(&mut self, previous: u64) {
        self.generation = self.generation.max(previous.saturating_add(1));
    }

    /// Opens `path`.
    ///
    /// # Errors
    /// The file cannot be read or is not a graph (the message names line and column).
    pub fn open(path: &Path) -> Result<Self, LoadError> {
        Ok(Self::new(
            tuft_graph::io::load(path)?,
            Some(path.to_owned()),
        ))
    }

    /// What the file held when this session last opened or saved it ([`fingerprint`]).
    #[must_use]
    pub fn on_disk(&self) -> Option<u64> {
        self.on_disk
    }

    /// Changes with every change to the document, layout moves included.
    #[must_use]
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The document.
    #[must_use]
    pub fn doc(&self) -> &Document {
        &self.doc
    }

    /// Where the document is saved.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Changes with every edit, undo and redo.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// What tells this document from every other one open, here or in another Tuft.
    #[must_use]
    pub fn token(&self) -> u64 {
        self.token
    }

    /// Whether the document differs from the file.
    #[must_use]
    pub fn is_dirty(&self) -> bool {
        self.doc != self.saved
    }

    /// Applies `change` as one undoable edit. An edit that changes nothing leaves no step
    /// in the history.
    ///
    /// # Errors
    /// The change would take the graph past a limit no file may pass (the nodes); it is
    /// not made, and the error says why.
    pub fn edit(&mut self, change: impl FnOnce(&mut Document)) -> Result<(), String> {
        let before = self.doc.clone();
        change(&mut self.doc);
        self.doc.tidy_groups();
        if self.doc == before {
            return Ok(());
        }
        if let Err(why) = within_limits(&before, &self.doc) {
            self.doc = before;
            return Err(why);
        }
        self.undo.push(before);
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.generation += 1;
        self.revision += 1;
        Ok(())
    }

    /// Applies `change` into the last undo step instead of a new one (the frames of one
    /// drag are one edit).
    ///
    /// # Errors
    /// As [`Session::edit`].
    pub fn edit_merged(&mut self, change: impl FnOnce(&mut Document)) -> Result<(), String> {
        let before = self.doc.clone();
        change(&mut self.doc);
        self.doc.tidy_groups();
        if self.doc != before {
            if let Err(why) = within_limits(&before, &self.doc) {
                self.doc = before;
                return Err(why);
            }
            self.redo.clear();
            self.generation += 1;
            self.revision += 1;
        }
        Ok(())
    }

    /// Moves a node in the layout without a history step per frame of a drag: the layout
    /// is saved with the file but is not part of the material.
    pub fn set_position(&mut self, node: tuft_graph::NodeId, pos: [f32; 2]) {
        self.arrange(|d| {
            d.layout.insert(node, pos);
        });
    }

    /// Places a node its file gave no position where the canvas put it, as if the file
    /// had said so: opening a graph written without a layout (by a script, by hand)
    /// leaves nothing unsaved. A node placed after it was opened is placed as
    /// [`Session::set_position`] places it.
    pub fn place_unplaced(&mut self, node: tuft_graph::NodeId, pos: [f32; 2]) {
        self.doc.layout.insert(node, pos);
        if !self.saved.layout.contains_key(&node)
            && self.saved.graph.nodes.iter().any(|n| n.id == node)
        {
            self.saved.layout.insert(node, pos);
        }
    }

    /// Changes where things stand (nodes, group nodes, frames) without a history step:
    /// every frame of a drag would be one otherwise. Anything else is an [`Session::edit`].
    pub fn arrange(&mut self, change: impl FnOnce(&mut Document)) {
        change(&mut self.doc);
        self.revision += 1;
    }

    /// Whether there is an edit to undo.
    #[must_use]
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is an undone edit to redo.
    #[must_use]
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Undoes the last edit.
    pub fn undo(&mut self) -> bool {
        let moved = step(&mut self.doc, &mut self.undo, &mut self.redo);
        self.generation += u64::from(moved);
        self.revision += u64::from(moved);
        moved
    }

    /// Redoes the last undone edit.
    pub fn redo(&mut self) -> bool {
        let moved = step(&mut self.doc, &mut self.redo, &mut self.undo);
        self.generation += u64::from(moved);
        self.revision += u64::from(moved);
        moved
    }

    /// Saves to the session's file, or to `path` (Save As). The write is atomic: a failed
    /// save leaves the old file as it was.
    ///
    /// # Errors
    /// No path yet and none given, or the write failed.
    pub fn save(&mut self, path: Option<&Path>) -> Result<PathBuf, SaveError> {
        let path = match path.or(self.path.as_deref()) {
            Some(p) => canonical(p),
            None => {
                return Err(SaveError::Io {
                    path: PathBuf::from("(untitled)"),
                    source: std::io::Error::other("choose a file with Save As"),
                });
            }
        };
        // Saved into another folder, the files the graph reads keep their places.
        let folder = tuft_graph::io::folder_of(&path);
        if self.doc.graph.folder.get() != Some(folder.as_path()) {
            let mut moved = self.doc.clone();
            tuft_graph::images::move_graph(&mut moved.graph, &folder);
            tuft_graph::io::save(&moved, &path)?;
            self.doc = moved;
        } else {
            tuft_graph::io::save(&self.doc, &path)?;
        }
        self.saved = self.doc.clone();
        self.on_disk = fingerprint(&path);
        self.path = Some(path.clone());
        Ok(path)
    }
}

/// `path` absolute, with every link and `..` of the folders on the way resolved (and
/// the file's own link, where it is one), so that a document is known by one name
/// whichever folder Tuft was started from. A file not yet written keeps its name in
/// its folder's canonical path.
#[must_use]
pub fn canonical(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    match (absolute.parent(), absolute.file_name()) {
        (Some(folder), Some(name)) => std::fs::canonicalize(folder)
            .map_or_else(|_| absolute.clone(), |folder| folder.join(name)),
        _ => absolute,
    }
}

/// What the file at `path` holds, as a number that changes when a byte of it does
/// (FNV-1a over its bytes and length); `None` when it cannot be read.
#[must_use]
pub fn fingerprint(path: &Path) -> Option<u64> {
    let bytes =
        tuft_strands::read::read_file(path, tuft_graph::io::MAX_FILE_BYTES, "graph file").ok()?;
    Some(fnv1a(
        bytes
            .iter()
            .copied()
            .chain((bytes.len() as u64).to_le_bytes()),
    ))
}

/// FNV-1a over `bytes`: stable across runs and builds.
pub(crate) fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Replaces `doc` with the newest document of `from`, keeping the current one on `to`;
/// false when `from` is empty.
fn step(doc: &mut Document, from: &mut Vec<Document>, to: &mut Vec<Document>) -> bool {
    let Some(next) = from.pop() else {
        return false;
    };
    to.push(std::mem::replace(doc, next));
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Session {
        let doc = tuft_graph::io::from_str(crate::LAWN_PRESET).expect("lawn parses");
        Session::new(doc, None)
    }

    #[test]
    fn undo_and_redo_walk_the_history() {
        let mut s = session();
        let original = s.doc().clone();
        s.edit(|d| d.graph.repeat_m = 3.0).unwrap();
        s.edit(|d| d.graph.name = "meadow".into()).unwrap();
        assert!(s.is_dirty());
        assert!(s.undo());
        assert_eq!(s.doc().graph.repeat_m, 3.0);
        assert_eq!(s.doc().graph.name, original.graph.name);
        assert!(s.undo());
        assert_eq!(s.doc(), &original);
        assert!(!s.is_dirty());
        assert!(!s.undo());
        assert!(s.redo() && s.redo());
        assert_eq!(s.doc().graph.name, "meadow");
        // A new edit drops what could be redone.
        s.undo();
        s.edit(|d| d.graph.repeat_m = 5.0).unwrap();
        assert!(!s.can_redo());
    }

    #[test]
    fn an_edit_that_would_pass_the_node_limit_is_not_made() {
        let mut s = Session::new(Document::new(tuft_graph::MaterialGraph::new("many")), None);
        let most = tuft_graph::limits::MAX_NODES;
        let add = |n: usize| {
            move |d: &mut Document| {
                for _ in 0..n {
                    d.graph.add_node("Constant").unwrap();
                }
            }
        };
        s.edit(add(most - 1)).unwrap();
        let g = s.generation();
        // One more reaches the limit; two more would pass it (a paste adds several).
        let before = s.doc().clone();
        let why = s.edit(add(2)).unwrap_err();
        assert!(why.contains(&format!("{}", most + 1)), "{why}");
        assert_eq!(s.doc(), &before);
        assert_eq!(s.generation(), g);
        assert!(s.edit_merged(add(2)).is_err());
        assert_eq!(s.doc(), &before);
        s.edit(add(1)).unwrap();
        assert_eq!(s.doc().graph.nodes.len(), most);
        // Removing stays possible at the limit.
        s.edit(|d| {
            d.graph.nodes.pop();
        })
        .unwrap();
    }

    #[test]
    fn an_edit_that_changes_nothing_leaves_no_step() {
        let mut s = session();
        let g = s.generation();
        s.edit(|_| {}).unwrap();
        assert!(!s.can_undo());
        assert_eq!(s.generation(), g);
    }
}
