//! The document's life as files: saving, opening, New, recovery replacing the session,
//! the recent files and the window's title.

use super::{Editor, Pending};
use crate::graph_view::GraphView;
use crate::session::Session;
use std::path::{Path, PathBuf};
use tuft_graph::Document;

impl Editor {
    /// Recently opened files, newest first.
    #[must_use]
    pub fn recent(&self) -> &[PathBuf] {
        &self.recent
    }

    /// The window's title: the file (or the material's name for a document never saved),
    /// a dot while there are unsaved changes, then the application.
    #[must_use]
    pub fn window_title(&self) -> String {
        let name = self.session.path().map_or_else(
            || format!("{} (not saved)", self.session.doc().graph.name),
            |p| {
                p.file_name().map_or_else(
                    || p.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                )
            },
        );
        let dirty = if self.session.is_dirty() { " •" } else { "" };
        format!("{name}{dirty} — Tuft")
    }

    /// Saves (to `path` for Save As); a failure is reported and the old file stays.
    pub fn save(&mut self, path: Option<&Path>) -> bool {
        match self.session.save(path) {
            Ok(saved) => {
                self.remember(&saved);
                self.message = Some((format!("Saved {}", saved.display()), false));
                if let Some((slot, _)) = &self.slot {
                    slot.clear();
                }
                true
            }
            Err(e) => {
                self.message = Some((format!("Not saved: {e}"), true));
                false
            }
        }
    }

    /// Opens `path` (asking first when there are unsaved changes).
    pub fn open(&mut self, path: &Path) {
        if self.session.is_dirty() {
            self.pending = Some(Pending::Open(path.to_owned()));
            return;
        }
        self.open_now(path);
    }

    /// Puts `session` in place of the current one, its generations counting on from the
    /// current one's (the workers ignore a generation older than one they have seen:
    /// thumbnails and previews after New or Open stayed those of the document before).
    pub(super) fn replace_session(&mut self, mut session: Session) {
        session.continue_after(self.session.generation());
        self.session = session;
    }

    pub(super) fn open_now(&mut self, path: &Path) {
        match Session::open(path) {
            Ok(session) => {
                self.release_slot();
                self.replace_session(session);
                self.selected = None;
                self.validated_for = 0;
                self.graph = GraphView::new();
                self.remember(path);
                self.message = Some((format!("Opened {}", path.display()), false));
                self.after_change();
            }
            Err(e) => self.message = Some((format!("{}: {e}", path.display()), true)),
        }
    }

    /// A new document, after asking about unsaved changes.
    pub(super) fn request_new(&mut self) {
        if self.session.is_dirty() {
            self.pending = Some(Pending::New);
        } else {
            self.new_document();
        }
    }

    /// Saves to the document's file, or asks where when it has none.
    pub(super) fn save_or_ask(&mut self) {
        if self.session.path().is_some() {
            self.save(None);
        } else {
            self.save_as_dialog();
        }
    }

    pub(super) fn new_document(&mut self) {
        self.release_slot();
        self.replace_session(Session::new(
            Document::new(tuft_graph::MaterialGraph::new("untitled")),
            None,
        ));
        self.selected = None;
        self.validated_for = 0;
        self.graph = GraphView::new();
        self.after_change();
    }

    pub(super) fn remember(&mut self, path: &Path) {
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_owned());
        self.recent.truncate(10);
    }
}
