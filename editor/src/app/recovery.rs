//! Autosave and recovery: this window's autosave slot, written by the autosave timer
//! (`crate::autosave::Writer`), and the work
//! of windows that are gone, offered back for its own file (see `crate::autosave`).

use super::{Editor, Pending};
use crate::autosave::{Snapshot, Writer};
use crate::graph_view::GraphView;
use crate::session::Session;
use std::path::Path;

impl Editor {
    /// Hands this window's unsaved work to the autosave timer whenever it changes, and
    /// takes the record back once nothing is unsaved (called every frame; the timer
    /// writes on its own, whether or not the window draws again).
    pub(super) fn autosave_follow(&mut self) {
        if let Some(e) = self.autosave_writer.as_ref().and_then(Writer::take_error) {
            self.message = Some((format!("Autosave failed: {e}"), true));
        }
        if !self.session.is_dirty() {
            if self.autosaved != 0
                && let (Some(writer), Some((slot, _))) = (&self.autosave_writer, &self.slot)
            {
                writer.forget(slot.record());
            }
            self.autosaved = 0;
            return;
        }
        if self.autosaved == self.session.revision() {
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
        if let (Some(writer), Some((slot, _))) = (&self.autosave_writer, &self.slot) {
            writer.publish(Snapshot {
                record: slot.record().to_owned(),
                source,
                on_disk: self.session.on_disk(),
                document: self.session.doc().clone(),
                revision: self.session.revision(),
            });
            self.autosaved = self.session.revision();
        }
    }

    /// Writes this window's autosave now if there are unsaved changes.
    pub fn autosave_now(&mut self) {
        self.autosave_follow();
        if let Some(writer) = &self.autosave_writer {
            writer.flush();
            if let Some(e) = writer.take_error() {
                self.message = Some((format!("Autosave failed: {e}"), true));
            }
        }
    }

    /// How often the autosave timer writes, from now on (the default is
    /// [`super::AUTOSAVE_EVERY`]).
    pub fn set_autosave_every(&mut self, every: std::time::Duration) {
        if let Some(writer) = &self.autosave_writer {
            writer.set_every(every);
        }
    }

    /// Waits up to `limit` for the timer to write the work as it stands; whether it did
    /// (for tests and scripted runs).
    #[must_use]
    pub fn wait_autosaved(&self, limit: std::time::Duration) -> bool {
        self.autosave_writer
            .as_ref()
            .is_some_and(|w| w.wait_written(self.session.revision(), limit))
    }

    /// Gives this window's autosave slot up, with whatever it held: the work is saved,
    /// or the author chose not to keep it.
    pub(super) fn release_slot(&mut self) {
        if let Some((slot, _)) = self.slot.take() {
            if let Some(writer) = &self.autosave_writer {
                writer.forget(slot.record());
            }
            slot.release();
        }
        self.autosaved = 0;
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
        let unchanged = orphan.on_disk.is_none() || orphan.on_disk == self.session.on_disk();
        if orphan.source.is_some() && orphan.source.as_deref() == self.session.path() && unchanged {
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
        let (session, asks) =
            Session::recovered(orphan.document, orphan.source.clone(), orphan.on_disk);
        self.replace_session(session);
        let source = self.session.path().map(Path::to_owned);
        self.slot = Some((orphan.slot, source));
        self.selected = None;
        self.validated_for = 0;
        self.graph = GraphView::new();
        self.message = Some(match asks {
            None => (format!("Recovered the autosaved work on {label}"), false),
            Some(why) => (
                format!("Recovered the autosaved work on {label}; {why}"),
                true,
            ),
        });
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
