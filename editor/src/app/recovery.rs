//! Autosave and recovery, one concern with its own state ([`Recovery`]): the autosave
//! folder, this window's slot in it, written by the autosave timer
//! (`crate::autosave::Writer`), and the work of windows that are gone, offered back for
//! its own file (see `crate::autosave`). The editor carries out what it offers: taking
//! work back replaces the document, which only the editor owns.

use super::{Editor, Pending};
use crate::autosave::{Autosaves, Orphan, Slot, Snapshot, Writer};
use crate::graph_view::GraphView;
use crate::session::Session;
use eframe::egui;
use std::path::{Path, PathBuf};

/// This window's autosave and the work offered back.
pub struct Recovery {
    /// The autosave folder (`None`: no autosave, as in most tests).
    autosaves: Option<Autosaves>,
    /// This window's slot and the file its record belongs to, taken when there is first
    /// unsaved work to keep.
    slot: Option<(Slot, Option<PathBuf>)>,
    /// The autosave timer's thread (with an autosave folder only).
    writer: Option<Writer>,
    /// The session revision last handed to the timer (0: none since the last save).
    autosaved: u64,
    /// Autosaves of windows that are gone (crashed or killed), offered back.
    orphans: Vec<Orphan>,
}

impl Recovery {
    /// Recovery over the autosave folder `dir` (`None`: none) for a window opening
    /// `session`, and what could not be read there, said. An autosave of this very file
    /// that holds what the file holds has nothing to give back; the work for this
    /// window's own file is offered first.
    #[must_use]
    pub fn open(dir: Option<PathBuf>, session: &Session) -> (Self, Option<String>) {
        let autosaves = dir.map(Autosaves::new);
        let (orphans, unreadable) = autosaves
            .as_ref()
            .map(Autosaves::orphans)
            .unwrap_or_default();
        // Work that cannot be offered is said, never passed over in silence.
        let said = unreadable.first().map(|first| {
            let more = match unreadable.len() {
                1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            format!("An autosave could not be read and was left where it is: {first}{more}")
        });
        let own = session.path().map(Path::to_owned);
        let (stale, mut kept): (Vec<Orphan>, Vec<Orphan>) = orphans
            .into_iter()
            .partition(|o| o.source == own && &o.document == session.doc());
        for o in stale {
            o.slot.release();
        }
        kept.sort_by_key(|o| o.source != own);
        let writer = autosaves
            .as_ref()
            .map(|_| Writer::start(super::AUTOSAVE_EVERY));
        let recovery = Self {
            autosaves,
            slot: None,
            writer,
            autosaved: 0,
            orphans: kept,
        };
        (recovery, said)
    }

    /// Hands `session`'s unsaved work to the autosave timer whenever it changes, and
    /// takes the record back once nothing is unsaved (called every frame; the timer
    /// writes on its own, whether or not the window draws again).
    ///
    /// # Errors
    /// What failed, said for the status bar: the last write, or claiming a slot.
    pub fn follow(&mut self, session: &Session) -> Result<(), String> {
        // The last write's failure is said, and the work handed over all the same.
        let failed = self.writer.as_ref().and_then(Writer::take_error);
        self.hand_over(session)?;
        failed.map_or(Ok(()), |e| Err(format!("Autosave failed: {e}")))
    }

    /// [`Recovery::follow`]'s hand-over.
    fn hand_over(&mut self, session: &Session) -> Result<(), String> {
        if !session.is_dirty() {
            if self.autosaved != 0 {
                self.saved();
            }
            return Ok(());
        }
        if self.autosaved == session.revision() {
            return Ok(());
        }
        let source = session.path().map(Path::to_owned);
        // A document that moved to another file (Save As, Open) takes another slot.
        if self.slot.as_ref().is_some_and(|(_, s)| *s != source) {
            self.release_slot();
        }
        if self.slot.is_none()
            && let Some(saves) = &self.autosaves
        {
            let slot = saves
                .claim(source.as_deref())
                .map_err(|e| format!("Autosave failed: {e}"))?;
            self.slot = Some((slot, source.clone()));
        }
        if let (Some(writer), Some((slot, _))) = (&self.writer, &self.slot) {
            writer.publish(Snapshot {
                record: slot.record().to_owned(),
                source,
                on_disk: session.on_disk(),
                document: session.doc().clone(),
                revision: session.revision(),
            });
            self.autosaved = session.revision();
        }
        Ok(())
    }

    /// Has the timer write what it holds now.
    ///
    /// # Errors
    /// The write's failure, said for the status bar.
    pub fn flush(&self) -> Result<(), String> {
        let Some(writer) = &self.writer else {
            return Ok(());
        };
        writer.flush();
        writer
            .take_error()
            .map_or(Ok(()), |e| Err(format!("Autosave failed: {e}")))
    }

    /// How often the timer writes, from now on.
    pub fn set_every(&self, every: std::time::Duration) {
        if let Some(writer) = &self.writer {
            writer.set_every(every);
        }
    }

    /// Waits up to `limit` for the timer to have written `revision`; whether it did.
    #[must_use]
    pub fn wait_written(&self, revision: u64, limit: std::time::Duration) -> bool {
        self.writer
            .as_ref()
            .is_some_and(|w| w.wait_written(revision, limit))
    }

    /// The work is saved: the record goes (the slot stays this window's).
    pub fn saved(&mut self) {
        if let (Some(writer), Some((slot, _))) = (&self.writer, &self.slot) {
            writer.forget(slot.record());
        }
        self.autosaved = 0;
    }

    /// Gives this window's slot up, with whatever it held: the work is saved, or the
    /// author chose not to keep it.
    pub fn release_slot(&mut self) {
        if let Some((slot, _)) = self.slot.take() {
            if let Some(writer) = &self.writer {
                writer.forget(slot.record());
            }
            slot.release();
        }
        self.autosaved = 0;
    }

    /// The work offered back.
    #[must_use]
    pub fn offered(&self) -> &[Orphan] {
        &self.orphans
    }

    /// Takes offered work `i` out of the offer, releasing this window's own slot: the
    /// window carries on in the orphan's (see [`Recovery::adopt`]).
    pub fn take(&mut self, i: usize) -> Option<Orphan> {
        (i < self.orphans.len()).then(|| {
            self.release_slot();
            self.orphans.remove(i)
        })
    }

    /// Makes `slot` this window's, for the file `source`.
    pub fn adopt(&mut self, slot: Slot, source: Option<PathBuf>) {
        self.slot = Some((slot, source));
    }

    /// Declines offered work `i`: its record is deleted.
    pub fn discard(&mut self, i: usize) {
        if i < self.orphans.len() {
            self.orphans.remove(i).slot.release();
        }
    }

    /// The offer, while there is one; which work the author recovered (`true`) or
    /// discarded (`false`).
    pub fn ui(&self, ctx: &egui::Context) -> Option<(usize, bool)> {
        if self.orphans.is_empty() {
            return None;
        }
        let mut choice = None;
        super::widgets::question("Recover unsaved work?").show(ctx, |ui| {
            ui.label("Tuft closed without saving this work:");
            let now = std::time::SystemTime::now();
            for (i, o) in self.orphans.iter().enumerate() {
                ui.horizontal(|ui| {
                    ui.label(format!("{} — {}", o.label(), o.details(now)));
                    if ui.button("Recover").clicked() {
                        choice = Some((i, true));
                    }
                    if ui.button("Discard").clicked() {
                        choice = Some((i, false));
                    }
                });
            }
        });
        choice
    }
}

impl Editor {
    /// Hands this window's unsaved work to the autosave timer (every frame); a failure
    /// goes to the status bar.
    pub(super) fn autosave_follow(&mut self) {
        if let Err(said) = self.recovery.follow(&self.session) {
            self.message = Some((said, true));
        }
    }

    /// Writes this window's autosave now if there are unsaved changes.
    pub fn autosave_now(&mut self) {
        self.autosave_follow();
        if let Err(said) = self.recovery.flush() {
            self.message = Some((said, true));
        }
    }

    /// How often the autosave timer writes, from now on (the default is
    /// [`super::AUTOSAVE_EVERY`]).
    pub fn set_autosave_every(&mut self, every: std::time::Duration) {
        self.recovery.set_every(every);
    }

    /// Waits up to `limit` for the timer to write the work as it stands; whether it did
    /// (for tests and scripted runs).
    #[must_use]
    pub fn wait_autosaved(&self, limit: std::time::Duration) -> bool {
        self.recovery.wait_written(self.session.revision(), limit)
    }

    /// Takes the first offered autosave back (see [`Editor::recover_at`]).
    pub fn recover(&mut self) {
        self.recover_at(0);
    }

    /// Takes offered autosave `i` back. The work for this window's own file becomes
    /// the current document (one undoable edit); work for another file opens as that
    /// file, unsaved, after asking about this one's unsaved changes.
    pub fn recover_at(&mut self, i: usize) {
        let Some(orphan) = self.recovery.offered().get(i) else {
            return;
        };
        let unchanged = orphan.on_disk.is_none() || orphan.on_disk == self.session.on_disk();
        if orphan.source.is_some() && orphan.source.as_deref() == self.session.path() && unchanged {
            let Some(orphan) = self.recovery.take(i) else {
                return;
            };
            let doc = orphan.document;
            self.recovery.adopt(orphan.slot, orphan.source);
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
        let Some(orphan) = self.recovery.take(i) else {
            return;
        };
        let label = orphan.label();
        let (session, asks) =
            Session::recovered(orphan.document, orphan.source.clone(), orphan.on_disk);
        self.replace_session(session);
        let source = self.session.path().map(Path::to_owned);
        self.recovery.adopt(orphan.slot, source);
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
        self.recovery.discard(i);
    }

    /// The offer of work to take back, and what the author chose there.
    pub(super) fn recovery_window(&mut self, ctx: &egui::Context) {
        match self.recovery.ui(ctx) {
            Some((i, true)) => self.recover_at(i),
            Some((i, false)) => self.discard_at(i),
            None => {}
        }
    }
}
