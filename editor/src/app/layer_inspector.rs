//! Strand layers in the editor: added, renamed, duplicated and deleted as undoable
//! edits, and the inspector's view of them ([`LayersPanel`], one concern with its own
//! state) — each layer's name, its settings with a sentence each, its levels' coverage
//! and its survivor view.

use super::Editor;
use super::panels::coverage_text;
use super::widgets::{colour, drag, drag_in, slider};
use crate::graph_view::ViewNode;
use crate::thumbs::Thumbnails;
use eframe::egui;
use tuft_graph::layer::Profile;
use tuft_graph::limits;
use tuft_graph::{Input, MaterialGraph, NodeId, StrandLayer, Value};
use tuft_strands::levels::{LevelSettings, MAX_WIDEN};

/// The inspector's strand layers: which one shows first, and whether it has still to
/// be scrolled to.
#[derive(Debug, Default)]
pub struct LayersPanel {
    focus: Option<(String, bool)>,
}

/// What the author asked of a layer in the panel, for the editor to carry out.
#[derive(Debug, PartialEq)]
pub enum LayerAsk {
    /// Rename layer `from` to `to`.
    Rename {
        /// The layer's name.
        from: String,
        /// The name asked for.
        to: String,
    },
    /// Add a copy of the layer.
    Duplicate(String),
    /// Delete the layer.
    Delete(String),
    /// The layer's settings or ports, as edited (`name`'s whole layer).
    Edit(String, Box<StrandLayer>),
}

impl LayersPanel {
    /// Shows layer `name` first, scrolled to.
    pub fn focus(&mut self, name: &str) {
        self.focus = Some((name.to_owned(), true));
    }

    /// The layer shown first, if any.
    #[must_use]
    pub fn focused(&self) -> Option<&str> {
        self.focus.as_ref().map(|(name, _)| name.as_str())
    }

    /// Forgets the focus if it is on `name` (a layer deleted).
    pub fn forget(&mut self, name: &str) {
        if self.focused() == Some(name) {
            self.focus = None;
        }
    }

    /// Every layer of `graph`, the focused one first, with the levels' coverage and
    /// survivors `thumbs` measured; what the author asked.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        graph: &MaterialGraph,
        thumbs: &Thumbnails,
    ) -> Vec<LayerAsk> {
        let mut asked = Vec::new();
        let mut layers: Vec<(&String, &StrandLayer)> = graph.strands.iter().collect();
        // The focused layer first (a stable sort keeps the others in name order).
        let focus = self.focused().map(str::to_owned);
        layers.sort_by_key(|(name, _)| Some(*name) != focus.as_ref());
        if layers.is_empty() {
            ui.label(
                "No strand layers: add one from the library or the canvas's right-click menu.",
            );
        }
        for (name, layer) in layers {
            ui.separator();
            let heading = ui.strong(format!("Strand layer {name}"));
            if let Some((focused, scroll)) = &mut self.focus
                && focused.as_str() == name.as_str()
                && std::mem::take(scroll)
            {
                heading.scroll_to_me(Some(egui::Align::TOP));
            }
            asked.extend(layer_name_row(ui, name));
            ui.label(format!("{} candidates", layer.n_candidates()));
            let mut edited = layer.clone();
            egui::Grid::new(format!("layer {name}"))
                .num_columns(2)
                .show(ui, |ui| layer_settings(ui, &mut edited));
            ui.label("Ports").on_hover_text(
                "Ports of the layer node: set a value here, or wire a field into the port to \
                 vary it over the repeat",
            );
            let source = |id: NodeId| {
                graph
                    .node(id)
                    .map_or_else(|| format!("node #{}", id.0), |n| n.title())
            };
            egui::Grid::new(format!("ports {name}"))
                .num_columns(2)
                .show(ui, |ui| port_settings(ui, &mut edited, &source));
            if &edited != layer {
                asked.push(LayerAsk::Edit(name.clone(), Box::new(edited)));
            }
            if let Some(reports) = thumbs.level_reports(name) {
                ui.label(format!(
                    "levels (coverage from above, relative to level 0): {}",
                    coverage_text(reports)
                ))
                .on_hover_text(
                    "Each level splatted from above; 1 means the level covers what level 0 does",
                );
            }
            if let Some(tex) = thumbs.survivors().get(name) {
                ui.label("Survivors: green where the density keeps the candidates, red where it drops them")
                    .on_hover_text("Each candidate exists iff its own density hash is below the density at its root");
                ui.image((tex.id(), egui::vec2(160.0, 160.0)));
            }
        }
        asked
    }
}

/// Where the name field of layer `name` keeps what is typed until it is taken.
fn name_field(name: &str) -> egui::Id {
    egui::Id::new(("layer name", name))
}

/// A layer's name, editable, with Rename, Duplicate and Delete.
fn layer_name_row(ui: &mut egui::Ui, name: &str) -> Option<LayerAsk> {
    let id = name_field(name);
    let mut text = ui
        .data_mut(|d| d.get_temp::<String>(id))
        .unwrap_or_else(|| name.to_owned());
    let mut asked = None;
    ui.horizontal(|ui| {
        ui.label("name");
        let field = ui.add(egui::TextEdit::singleline(&mut text).desired_width(140.0));
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if (ui.button("Rename").clicked() || enter) && text != name {
            asked = Some(LayerAsk::Rename {
                from: name.to_owned(),
                to: text.clone(),
            });
        }
        if ui
            .button("Duplicate")
            .on_hover_text("A copy with the same links and settings and its own seed")
            .clicked()
        {
            asked = Some(LayerAsk::Duplicate(name.to_owned()));
        }
        if ui
            .button("Delete")
            .on_hover_text("Undo brings it back")
            .clicked()
        {
            asked = Some(LayerAsk::Delete(name.to_owned()));
        }
        ui.data_mut(|d| d.insert_temp(id, text));
    });
    asked
}

impl Editor {
    /// Adds a strand layer under a free name (one undoable edit), shows its settings
    /// first in the inspector and brings its node into view; returns the name.
    pub fn add_layer(&mut self) -> String {
        let name = self.session.doc().graph.free_layer_name("strands");
        self.edit(None, |d| {
            let _ = d.graph.add_layer(&name);
        });
        self.deselect();
        self.focus_layer(&name, true);
        self.message = Some((format!("Added strand layer “{name}”"), false));
        name
    }

    /// Shows layer `name`'s settings first in the inspector, scrolled to; `frame` also
    /// brings its node into view on the canvas (a layer just made, which stands below
    /// the others, out of sight).
    pub fn focus_layer(&mut self, name: &str, frame: bool) {
        self.layers.focus(name);
        if frame {
            self.graph.frame(vec![ViewNode::Layer(name.to_owned())]);
        }
    }

    /// The strand layer the inspector shows first, if any.
    #[must_use]
    pub fn layer_focus(&self) -> Option<&str> {
        self.layers.focused()
    }

    /// Renames layer `from` to `to`; a refused name is reported with its reason and
    /// nothing changes (a refused edit leaves no step in the history).
    pub fn rename_layer(&mut self, from: &str, to: &str) -> bool {
        let to = to.trim();
        let mut outcome = Ok(());
        self.edit(None, |d| outcome = d.graph.rename_layer(from, to));
        if let Err(e) = outcome {
            self.message = Some((format!("Not renamed: {e}"), true));
            return false;
        }
        self.focus_layer(to, false);
        true
    }

    /// Adds a copy of layer `name`; returns the copy's name.
    pub fn duplicate_layer(&mut self, name: &str) -> Option<String> {
        let mut copy = None;
        self.edit(None, |d| copy = d.graph.duplicate_layer(name).ok());
        if let Some(copy) = &copy {
            self.focus_layer(copy, true);
        }
        copy
    }

    /// Deletes layer `name` (undoable).
    pub fn delete_layer(&mut self, name: &str) {
        self.edit(None, |d| {
            let _ = d.graph.remove_layer(name);
        });
        self.layers.forget(name);
    }

    /// Clears the selection: the inspector shows the strand layers.
    pub fn deselect(&mut self) {
        self.selected = None;
    }

    /// The inspector's strand layers, and what the author asked of them carried out.
    pub(super) fn layers_inspector(&mut self, ui: &mut egui::Ui) {
        let asked = self.layers.ui(ui, &self.session.doc().graph, &self.thumbs);
        for ask in asked {
            match ask {
                LayerAsk::Rename { from, to } => {
                    if self.rename_layer(&from, &to) {
                        // The field shows the new name from now on.
                        ui.data_mut(|d| d.remove::<String>(name_field(&from)));
                    }
                }
                LayerAsk::Duplicate(name) => {
                    self.duplicate_layer(&name);
                }
                LayerAsk::Delete(name) => self.delete_layer(&name),
                LayerAsk::Edit(name, layer) => {
                    self.edit(Some(format!("layer {name}")), move |d| {
                        d.graph.strands.insert(name, *layer);
                    });
                }
            }
        }
    }
}

/// Every port of a layer, as on its node: a constant is edited here (a slider over the
/// port's documented range, a number field in metres for a length or a width, two for a
/// vector, a colour button), a wired port names the node it reads.
/// Regression: only the groom ports showed here, so a layer's length, width and colours
/// could be set only on the node.
fn port_settings(ui: &mut egui::Ui, l: &mut StrandLayer, source: &dyn Fn(NodeId) -> String) {
    for (port, input) in l.ports_mut() {
        let doc = tuft_graph::layer::STRAND_PORTS
            .iter()
            .find(|p| p.name == port)
            .map_or("", |p| p.doc);
        let range = tuft_graph::layer::port_range(port);
        row(ui, &port.replace('_', " "), doc, |ui| match input {
            Input::Const(Value::Float(x)) => {
                match (port, range) {
                    ("length" | "width", _) => {
                        let speed = crate::graph_view::drag_speed(*x, (0.0, 0.1));
                        ui.add(drag_in(ui, x, 0.0..=f32::MAX).speed(speed).suffix(" m"));
                    }
                    (_, Some((lo, hi))) => {
                        ui.add(slider(ui, x, lo..=hi));
                    }
                    // The density: a threshold in [0,1].
                    _ => {
                        ui.add(slider(ui, x, 0.0..=1.0));
                    }
                }
            }
            Input::Const(Value::Vec2(v)) => {
                let (lo, hi) = range.unwrap_or((-1.0, 1.0));
                ui.horizontal(|ui| {
                    for c in v.iter_mut() {
                        let speed = crate::graph_view::drag_speed(*c, (lo, hi));
                        ui.add(drag_in(ui, c, lo..=hi).speed(speed));
                    }
                });
            }
            Input::Const(Value::Color(c)) => {
                colour(ui, c);
            }
            Input::Link(l) => {
                ui.label(format!("from {}", source(l.node)))
                    .on_hover_text("Wired on the canvas: remove the wire to set a value here");
            }
        });
    }
}

/// One settings row: a label whose hover text says what the setting does.
fn row(ui: &mut egui::Ui, label: &str, doc: &str, edit: impl FnOnce(&mut egui::Ui)) {
    ui.label(label).on_hover_text(doc);
    edit(ui);
    ui.end_row();
}

/// Every setting of a layer (not its ports), each with what it does in words and the
/// range validation accepts.
fn layer_settings(ui: &mut egui::Ui, l: &mut StrandLayer) {
    row(
        ui,
        "seed",
        "Seeds every hash of the layer: another seed, another lawn with the same look",
        |ui| {
            ui.add(drag(&mut l.seed));
        },
    );
    row(
        ui,
        "lattice",
        "Candidates per side of the repeat: the layer has lattice² candidates on a jittered grid, and the density keeps some of them",
        |ui| {
            ui.add(drag_in(ui, &mut l.lattice, 1..=2048));
        },
    );
    row(
        ui,
        "clump lattice",
        "Clump points per side of the repeat: every strand joins its nearest clump (at most the lattice)",
        |ui| {
            ui.add(drag_in(ui, &mut l.clump_lattice, 1..=l.lattice.max(1)));
        },
    );
    row(
        ui,
        "clump share",
        "How much of each strand's variation (height, lean, colour) its clump decides: 0 every strand on its own, 1 a clump alike",
        |ui| {
            ui.add(slider(ui, &mut l.clump_share, 0.0..=1.0));
        },
    );
    row(
        ui,
        "tip pull",
        "How far each tip is drawn toward its clump's centre: 0 upright, 1 all the way (tufts, fur)",
        |ui| {
            ui.add(slider(ui, &mut l.tip_pull, 0.0..=1.0));
        },
    );
    row(
        ui,
        "vary length",
        "Each strand's length varies by ± this fraction",
        |ui| {
            ui.add(slider(ui, &mut l.variation.length, 0.0..=1.0));
        },
    );
    row(
        ui,
        "vary lean",
        "Each strand leans by up to this fraction of its length in a random direction",
        |ui| {
            ui.add(slider(ui, &mut l.variation.lean, 0.0..=1.0));
        },
    );
    row(
        ui,
        "vary colour",
        "Each strand is brighter or darker by ± this fraction",
        |ui| {
            ui.add(slider(ui, &mut l.variation.color, 0.0..=1.0));
        },
    );
    row(
        ui,
        "profile",
        "How a strand is meshed: a flat ribbon (grass) or a tube (fur, hay), in segments along its length",
        |ui| {
            let tube = matches!(l.profile, Profile::Tube { .. });
            ui.horizontal(|ui| {
                if ui.selectable_label(!tube, "ribbon").clicked() && tube {
                    l.profile = Profile::Ribbon { segments: 4 };
                }
                if ui.selectable_label(tube, "tube").clicked() && !tube {
                    l.profile = Profile::Tube {
                        sides: 4,
                        segments: 4,
                    };
                }
                match &mut l.profile {
                    Profile::Ribbon { segments } => {
                        ui.add(drag_in(ui, segments, 1..=16).suffix(" segments"));
                    }
                    Profile::Tube { sides, segments } => {
                        ui.add(drag_in(ui, sides, 3..=8).suffix(" sides"));
                        ui.add(drag_in(ui, segments, 1..=16).suffix(" segments"));
                    }
                }
            });
        },
    );
    levels_rows(ui, &mut l.levels);
    row(
        ui,
        "card atlas",
        "Side of the card level's atlas in texels, and its cells per side (each cell is the layer drawn side-on from another part of the repeat)",
        |ui| {
            ui.horizontal(|ui| {
                egui::ComboBox::from_id_salt(("atlas size", l.seed, l.lattice))
                    .selected_text(format!("{}", l.cards.atlas_size))
                    .show_ui(ui, |ui| {
                        for size in [64, 128, 256, 512, 1024, 2048, 4096] {
                            ui.selectable_value(&mut l.cards.atlas_size, size, format!("{size}"));
                        }
                    });
                ui.add(drag_in(ui, &mut l.cards.atlas_cells, 1..=16).suffix(" cells"));
            });
        },
    );
    row(
        ui,
        "alpha cutoff",
        "Cards are alpha-tested at this value (never blended); their mips keep the coverage mip 0 has",
        |ui| {
            ui.add(slider(ui, &mut l.cards.alpha_cutoff, 0.05..=0.95));
        },
    );
    macro_rows(ui, &mut l.macro_variation);
}

/// The layer's macro variation: patches over the ground, metres across, where the
/// layer is thinner, shorter and tinted (with the surface under it, for the first
/// layer), so a field of repeats shows no grid.
fn macro_rows(ui: &mut egui::Ui, v: &mut tuft_graph::layer::MacroVariation) {
    row(
        ui,
        "macro scale",
        "The size of the macro patches over the ground, in metres (world space: the same on every surface, and what a game computes from the baked set)",
        |ui| {
            ui.add(
                slider(ui, &mut v.scale_m, 0.5..=200.0)
                    .logarithmic(true)
                    .suffix(" m"),
            );
        },
    );
    row(
        ui,
        "macro density",
        "How much of the layer a full patch drops (each strand's own hash against the patch; the levels still nest)",
        |ui| {
            ui.add(slider(ui, &mut v.density, 0.0..=1.0));
        },
    );
    row(
        ui,
        "macro length",
        "How much shorter strands stand in a full patch",
        |ui| {
            ui.add(slider(ui, &mut v.length, 0.0..=0.9));
        },
    );
    row(
        ui,
        "macro tint",
        "The colour a full patch multiplies the layer's strands and cards by, red, green, blue (1 leaves a channel as it is); the first layer's tints the surface too",
        |ui| {
            ui.horizontal(|ui| {
                for c in &mut v.tint {
                    ui.add(drag_in(ui, c, 0.0..=2.0).speed(0.01));
                }
                ui.add(drag(&mut v.seed).prefix("seed "));
            });
        },
    );
}

/// The levels: their keeps, the layer's keep and the widening, each kept by its range
/// and by the others inside the widening limit ([`tuft_strands::levels::MAX_WIDEN`]),
/// the bound taking the place of the range's end where it is nearer.
fn levels_rows(ui: &mut egui::Ui, levels: &mut LevelSettings) {
    // The smallest share of the scattered strands any level may keep; its keep is that
    // over the layer's keep, the layer's keep that over the last level's keep.
    let least = levels.least_share();
    let last = f64::from(levels.keep.last().copied().unwrap_or(1.0));
    let layer_keep = f64::from(levels.layer_keep);
    row(
        ui,
        "levels keep",
        "The share of strands each level keeps, by rank: level k draws the strands ranked below its keep, a subset of the level before",
        |ui| levels_editor(ui, &mut levels.keep, (least / layer_keep) as f32),
    );
    row(
        ui,
        "layer keep",
        "The share of the scattered strands the layer keeps at all, by rank, widened as a level widens: the same layer, thinner and cheaper (tuft bake --keep multiplies it)",
        |ui| {
            let lowest = ((least / last) as f32).clamp(0.01, 1.0);
            ui.add(
                slider(ui, &mut levels.layer_keep, lowest..=1.0)
                    .logarithmic(true)
                    .max_decimals(4),
            );
        },
    );
    row(
        ui,
        "widening p",
        "A level keeping k widens its strands by k^(−p) so the canopy covers as much: 1 keeps the area seen from afar, 0 leaves them thin",
        |ui| {
            // The p at which the last level widens exactly to the limit.
            let kept = layer_keep * last;
            let highest = if kept < 1.0 {
                (f64::from(MAX_WIDEN).ln() / -kept.ln()).min(2.0) as f32
            } else {
                2.0
            };
            ui.add(slider(ui, &mut levels.widen_p, 0.0..=highest));
        },
    );
}

/// The levels' keeps: the first is always 1, each later one below the one before and at
/// least `least`; a level can be added (up to the limits) or the last removed.
fn levels_editor(ui: &mut egui::Ui, keep: &mut Vec<f32>, least: f32) {
    ui.horizontal_wrapped(|ui| {
        for k in 1..keep.len() {
            let above = keep[k - 1];
            let below = keep.get(k + 1).copied().unwrap_or(0.0);
            let mut value = keep[k];
            let range = (below + 1e-3).max(least).min(above)..=(above - 1e-3).max(below);
            if ui
                .add(drag_in(ui, &mut value, range).speed(0.002).max_decimals(4))
                .changed()
            {
                keep[k] = value;
            }
        }
        let last = keep.last().copied().unwrap_or(1.0);
        let room = keep.len() < limits::MAX_LEVELS;
        let wide_enough = last / 4.0 >= least;
        let add = ui.add_enabled(room && wide_enough, egui::Button::new("+").small());
        let add = if room && !wide_enough {
            add.on_disabled_hover_text(format!(
                "A level keeping a quarter of the last would widen its strands more than \
                 {MAX_WIDEN} times: lower the widening p or raise the layer keep"
            ))
        } else if room {
            add.on_hover_text("Add a level keeping a quarter of the last")
        } else {
            add.on_disabled_hover_text(format!("A layer has at most {} levels", limits::MAX_LEVELS))
        };
        if add.clicked() {
            keep.push(last / 4.0);
        }
        if keep.len() > 1
            && ui
                .small_button("−")
                .on_hover_text("Remove the last level")
                .clicked()
        {
            keep.pop();
        }
    });
}
