//! The author's own library: a group saved as a library node, offered in the Library
//! panel and the canvas menu, added as a group the graph keeps a copy of, and what the
//! library says of the open document's groups (one changed or gone since it was added).

use super::Editor;
use crate::graph_view::ViewNode;
use eframe::egui;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tuft_graph::library::Library;

/// The environment variable naming the library folder (a studio's shared one, say).
pub const LIBRARY_VARIABLE: &str = "TUFT_LIBRARY";

/// Where the author's library lies: `TUFT_LIBRARY`, else `library` in the editor's
/// storage folder.
#[must_use]
pub fn library_folder() -> Option<PathBuf> {
    std::env::var_os(LIBRARY_VARIABLE)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| eframe::storage_dir("Tuft").map(|d| d.join("library")))
}

impl Editor {
    /// Reads the library in `folder` and offers its nodes.
    pub fn set_library_folder(&mut self, folder: &Path) {
        self.library = Arc::new(Library::read(folder));
        if let Some(problem) = self.library.problems.first() {
            self.message = Some((format!("Library: {problem}"), true));
        } else {
            self.say_library_notes();
        }
    }

    /// The library as last read.
    #[must_use]
    pub fn own_library(&self) -> &Library {
        &self.library
    }

    /// Saves group `g` to the library under its name (replacing an earlier library node
    /// of that name, never a file of the author's that is not one).
    pub fn save_to_library(&mut self, g: u32) {
        let node = match self.session.doc().library_node(g) {
            Ok(node) => node,
            Err(e) => {
                self.message = Some((format!("Not saved to the library: {e}"), true));
                return;
            }
        };
        let mut library = Library::clone(&self.library);
        let saved = library.save(&node);
        self.library = Arc::new(library);
        let (path, replaced) = match saved {
            Ok(saved) => saved,
            Err(e) => {
                self.message = Some((format!("Not saved to the library: {e}"), true));
                return;
            }
        };
        // The group is now that library node's copy (it said "no longer in the library"
        // right after being saved under a new name).
        let link = tuft_graph::library::LibraryLink {
            name: node.name.clone(),
            digest: node.digest(),
        };
        self.edit(None, |d| {
            if let Some(group) = d.groups.iter_mut().find(|x| x.id == g) {
                group.library = Some(link);
            }
        });
        self.message = Some((
            format!(
                "{} “{}” in the library ({})",
                if replaced { "Replaced" } else { "Saved" },
                node.name,
                path.display()
            ),
            false,
        ));
    }

    /// Adds a copy of the library node `name` as a group (one undo step), its node at
    /// `at` or the middle of the view, on the nearest spot free of other nodes; returns
    /// the group's id. A group open in the view is closed first (groups do not nest).
    pub fn add_from_library(&mut self, name: &str, at: Option<[f32; 2]>) -> Option<u32> {
        let Some(entry) = self.library.find(name).cloned() else {
            self.message = Some((format!("The library holds no node {name:?}"), true));
            return None;
        };
        self.graph.set_open_group(None);
        let around = at.unwrap_or_else(|| {
            let c = self.graph.centre - egui::vec2(crate::graph_view::NODE_WIDTH, 100.0) / 2.0;
            [c.x, c.y]
        });
        let taken = self.graph.footprints();
        let view = self.graph.visible();
        let mut added = None;
        self.edit(None, |d| {
            let made = d.add_library_node(&entry.node, around);
            if let Ok((g, _)) = &made {
                let size = crate::graph_view::footprint_of(&ViewNode::Group(*g), d);
                let spot = crate::graph_view::free_spot(
                    &taken,
                    egui::pos2(around[0], around[1]),
                    size,
                    Some(view),
                );
                if let Some(group) = d.groups.iter_mut().find(|x| x.id == *g) {
                    group.pos = [spot.x, spot.y];
                }
            }
            added = Some(made);
        });
        match added {
            Some(Ok((g, nodes))) => {
                self.message = Some((
                    format!(
                        "Added “{name}” from the library ({} inside)",
                        crate::words::counted(nodes.len(), "node")
                    ),
                    false,
                ));
                Some(g)
            }
            Some(Err(e)) => {
                self.message = Some((format!("Not added: {e}"), true));
                None
            }
            None => None,
        }
    }

    /// What the library says of the document's groups, on the status bar (after Open).
    pub(super) fn say_library_notes(&mut self) {
        let notes = self.session.doc().library_notes(&self.library);
        if let Some(first) = notes.first() {
            let more = match notes.len() {
                1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            let opened = self
                .message
                .take()
                .map(|(m, _)| format!("{m}: "))
                .unwrap_or_default();
            self.message = Some((format!("{opened}{first}{more}"), false));
        }
    }

    /// The library's nodes in the Library panel (those `needle` matches), under "My
    /// library"; a click adds one in the middle of the view.
    pub(super) fn own_nodes(&mut self, ui: &mut egui::Ui, needle: &str) {
        let names: Vec<(String, String)> = self
            .graph
            .library
            .entries
            .iter()
            .filter(|e| needle.is_empty() || e.node.name.to_lowercase().contains(needle))
            .map(|e| {
                let n = e.node.nodes.nodes.len();
                let said = format!(
                    "{} · {}",
                    crate::words::counted(n, "node"),
                    e.path.display()
                );
                (e.node.name.clone(), said)
            })
            .collect();
        if names.is_empty() {
            return;
        }
        ui.label(egui::RichText::new("My library").strong());
        let mut add = None;
        for (name, said) in names {
            if ui
                .button(&name)
                .on_hover_text(crate::graph_view::OWN_NODE)
                .clicked()
            {
                add = Some(name);
            }
            ui.label(egui::RichText::new(said).small().weak());
        }
        ui.separator();
        if let Some(name) = add {
            self.add_from_library(&name, None);
        }
    }
}
