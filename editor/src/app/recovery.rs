//! Autosave and recovery: this window's autosave slot, written on a timer, and the work
//! of windows that are gone, offered back for its own file (see `crate::autosave`).

use super::{Editor, Pending};
use crate::graph_view::GraphView;
use crate::session::Session;
use std::path::Path;
use std::time::Instant;

impl Editor {
    /// Writes this window's autosave now if there are unsaved changes.
    pub fn autosave_now(&mut self) {
        self.last_autosave = Instant::now();
        if self.autosaves.is_none() || !self.session.is_dirty() {
            return;
        }
        let source = self.session.path().map(Path::to_owned);
        // A document that moved to another file (Save As, Open) takes another slot.
        if self.slot.as_ref().is_some_and(|(_, s)| *s != source) {
            self.release_slot();
        }
        if self.slot.is_none()
            && let Some(saves) = &self.autosaves
        {
            match saves.claim(source.as_deref()) {
                Ok(slot) => self.slot = Some((slot, source.clone())),
                Err(e) => {
                    self.message = Some((format!("Autosave failed: {e}"), true));
                    return;
                }
            }
        }
        if let Some((slot, _)) = &self.slot
            && let Err(e) = slot.write(source.as_deref(), self.session.doc())
        {
            self.message = Some((format!("Autosave failed: {e:#}"), true));
        }
    }

    /// Gives this window's autosave slot up, with whatever it held: the work is saved,
    /// or the author chose not to keep it.
    pub(super) fn release_slot(&mut self) {
        if let Some((slot, _)) = self.slot.take() {
            slot.release();
        }
    }

    /// Takes the first offered autosave back (see [`Editor::recover_at`]).
    pub fn recover(&mut self) {
        self.recover_at(0);
    }

    /// Takes offered autosave `i` back. The work for this window's own file becomes
    /// the current document (one undoable edit); work for another file opens as that
    /// file, unsaved, after asking about this one's unsaved changes.
    pub fn recover_at(&mut self, i: usize) {
        let Some(orphan) = self.orphans.get(i) else {
            return;
        };
        if orphan.source.as_deref() == self.session.path() {
            let orphan = self.orphans.remove(i);
            self.release_slot();
            let doc = orphan.document;
            self.slot = Some((orphan.slot, orphan.source));
            self.edit(None, |d| *d = doc);
            self.message = Some(("Recovered the autosaved work".into(), false));
        } else if self.session.is_dirty() {
            self.pending = Some(Pending::Recover(i));
        } else {
            self.recover_now(i);
        }
    }

    /// Opens offered autosave `i` as its own file's document, unsaved.
    pub(super) fn recover_now(&mut self, i: usize) {
        if i >= self.orphans.len() {
            return;
        }
        let orphan = self.orphans.remove(i);
        self.release_slot();
        let label = orphan.label();
        self.replace_session(Session::recovered(orphan.document, orphan.source.clone()));
        self.slot = Some((orphan.slot, orphan.source));
        self.selected = None;
        self.validated_for = 0;
        self.graph = GraphView::new();
        self.message = Some((format!("Recovered the autosaved work on {label}"), false));
        self.after_change();
    }

    /// Declines the first offered autosave.
    pub fn discard_recovery(&mut self) {
        self.discard_at(0);
    }

    /// Declines offered autosave `i`: its record is deleted.
    pub fn discard_at(&mut self, i: usize) {
        if i < self.orphans.len() {
            self.orphans.remove(i).slot.release();
        }
    }
}
