//! A baked set in the editor, read-only: `tuft view DIR`, File › Open Baked Set…, a
//! folder dropped on the window. The preview draws the set from its own files
//! (`tuft_render::baked`, never the graph); the document stays where it was, untouched,
//! and File › Close Baked Set goes back to it. [`BakedView`] is the concern's state and
//! panel; the editor routes its commands and the preview's source through it.

use super::Editor;
use crate::command::Command;
use crate::preview::{Preview, Source};
use eframe::egui;
use std::path::{Path, PathBuf};

/// The baked set shown read-only instead of the document, if any.
#[derive(Debug, Default)]
pub struct BakedView {
    dir: Option<PathBuf>,
}

impl BakedView {
    /// The set's folder while one is shown.
    #[must_use]
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Whether a set is shown.
    #[must_use]
    pub fn showing(&self) -> bool {
        self.dir.is_some()
    }

    /// Shows the set in `dir`.
    pub fn show(&mut self, dir: &Path) {
        self.dir = Some(dir.to_owned());
    }

    /// Back to the document; whether a set was shown.
    pub fn close(&mut self) -> bool {
        self.dir.take().is_some()
    }

    /// What the preview draws while a set is shown: the set's files.
    #[must_use]
    pub fn source(&self) -> Option<Source> {
        self.dir.as_ref().map(|dir| Source::Baked(dir.clone()))
    }

    /// The central panel while a set is shown: what it is and what it holds (as
    /// `preview` loaded it); whether the author asked to close it.
    pub fn ui(&self, ui: &mut egui::Ui, preview: &Preview) -> bool {
        let Some(dir) = &self.dir else {
            return false;
        };
        ui.heading("Baked set (read-only)");
        ui.label(dir.display().to_string());
        ui.label(
            "Drawn from its manifest, maps and strand file alone, as a game reads them; the \
             graph it came from is not used.",
        );
        let note = tuft_render::baked::MESHES_NOTE;
        let mut note = note.chars();
        let first = note.next().map(|c| c.to_uppercase().to_string());
        ui.label(format!("{}{}.", first.unwrap_or_default(), note.as_str()));
        let close = ui.button("Close Baked Set").clicked();
        ui.separator();
        if let Some(e) = &preview.error {
            ui.colored_label(
                egui::Color32::from_rgb(230, 90, 80),
                format!("Cannot draw this set: {e}"),
            );
            return close;
        }
        let shown = preview.with_material(|material| {
            baked_summary(ui, material);
        });
        if shown.is_none() {
            ui.label("Loading…");
        }
        close
    }
}

impl Editor {
    /// The baked set being viewed, if any.
    #[must_use]
    pub fn viewing(&self) -> Option<&Path> {
        self.baked.dir()
    }

    /// Shows the baked set in `dir`, read-only. Nothing is drawn until it has loaded;
    /// if it cannot be, the preview draws nothing and says which file failed and why.
    pub fn view_baked(&mut self, dir: &Path) {
        self.baked.show(dir);
        self.selected = None;
        self.preview.clear();
        self.request_preview();
        self.message = Some((
            format!("Viewing the baked set {} (read-only)", dir.display()),
            false,
        ));
    }

    /// Layer `layer`'s coverage per level as the status bar gives it
    /// (`1.00 · 0.90 · 0.87`): a baked set's own while one is shown (its manifest's,
    /// loaded with the set), else what the thumbnails worker measured for the graph.
    #[must_use]
    pub fn coverage(&self, layer: &str) -> Option<String> {
        if self.baked.showing() {
            return self
                .preview
                .with_material(|m| {
                    m.layers
                        .iter()
                        .find(|l| l.name == layer && !l.level_reports.is_empty())
                        .map(|l| super::coverage_text(&l.level_reports))
                })
                .flatten();
        }
        self.thumbs.level_reports(layer).map(super::coverage_text)
    }

    /// Back from a baked set to the document.
    pub fn close_baked(&mut self) {
        if self.baked.close() {
            self.preview.clear();
            self.request_preview();
            self.message = None;
        }
    }

    /// Queues a preview rebuild of what the editor shows: the baked set, or the graph.
    pub(super) fn request_preview(&mut self) {
        let generation = self.session.generation();
        let source = self
            .baked
            .source()
            .unwrap_or_else(|| Source::Graph(Box::new(self.session.doc().graph.clone())));
        let ground = self.surface.ground();
        self.preview.request_source(generation, source, ground);
    }

    /// Opens a path dropped on the window or chosen: a baked set's folder or manifest as
    /// the set (a folder that is not one says so), anything else as a graph file.
    pub(super) fn open_any(&mut self, path: &Path) {
        if let Some(set) = tuft_render::baked::set_at(path) {
            self.view_baked(set);
        } else if path.is_dir() {
            self.message = Some((
                format!(
                    "{} is a folder without a manifest.ron, so not a baked set",
                    path.display()
                ),
                true,
            ));
        } else {
            self.open(path);
        }
    }

    /// Whether `command` may run while a baked set is shown: only those that leave it
    /// or show something else; the rest would change a document that is not on screen.
    pub(super) fn allowed_while_viewing(command: &Command) -> bool {
        matches!(
            command,
            Command::New
                | Command::NewFromPreset(_)
                | Command::Open
                | Command::OpenPath(_)
                | Command::OpenBaked
                | Command::CloseBaked
                | Command::ChooseMesh
                | Command::Surface(_)
                | Command::About
                | Command::Help
        )
    }
}

/// What a baked set holds, as a table.
fn baked_summary(ui: &mut egui::Ui, material: &tuft_render::Material) {
    ui.label(format!(
        "{}: repeat {} m, maps {}², {} strand layers",
        material.name,
        material.repeat_m,
        material.maps.size,
        material.layers.len()
    ));
    egui::Grid::new("baked layers")
        .striped(true)
        .show(ui, |ui| {
            for h in [
                "layer",
                "strands",
                "profile",
                "layer keep",
                "level keeps",
                "cards",
            ] {
                ui.strong(h);
            }
            ui.end_row();
            for l in &material.layers {
                ui.label(&l.name);
                ui.label(l.set.len().to_string());
                ui.label(format!("{:?}", l.profile));
                ui.label(format!("{}", l.levels.layer_keep));
                let keeps: Vec<String> = l.levels.keep.iter().map(|k| format!("{k}")).collect();
                ui.label(keeps.join(", "));
                ui.label(format!(
                    "atlas {}², {} cells",
                    l.cards.atlas_size, l.cards.atlas_cells
                ));
                ui.end_row();
            }
        });
}
