//! The panels around the graph: node library, inspector (a node's parameters, or the
//! strand layers), preview, diagnostics and status bar.

use super::Editor;
use super::param_editors::ParamEdit;
use crate::command::Command;
use crate::graph_view::{DraggedKind, ViewNode};
use eframe::egui;
use tuft_graph::node::ParamKind;
use tuft_graph::{NodeId, ParamValue};
use tuft_render::{LevelMode, Rep, SunAngles, Wind};

impl Editor {
    pub(super) fn library(&mut self, ui: &mut egui::Ui) {
        ui.heading("Library");
        ui.add(egui::TextEdit::singleline(&mut self.search).hint_text("Search nodes"));
        let needle = self.search.to_lowercase();
        let mut add = None;
        let mut add_layer = false;
        egui::ScrollArea::vertical()
            .id_salt("library")
            .show(ui, |ui| {
                // The outputs first: a material grows strands through its layers.
                if needle.is_empty() || "strand layer".contains(&needle) {
                    if ui
                        .button("Strand layer")
                        .on_hover_text(crate::graph_view::LAYER_DOC)
                        .clicked()
                    {
                        add_layer = true;
                    }
                    ui.label(
                        egui::RichText::new("A named output that grows strands: grass, fur, moss")
                            .small()
                            .weak(),
                    );
                }
                self.own_nodes(ui, &needle);
                for kind in tuft_graph::nodes::ALL {
                    let (name, doc) = (kind.name(), kind.doc());
                    if !needle.is_empty()
                        && !name.to_lowercase().contains(&needle)
                        && !doc.to_lowercase().contains(&needle)
                    {
                        continue;
                    }
                    // Click to add at the centre of the graph, or drag onto the graph.
                    let resp = ui
                        .add(egui::Button::new(name).sense(egui::Sense::click_and_drag()))
                        .on_hover_text(doc);
                    resp.dnd_set_drag_payload(DraggedKind(name));
                    ui.label(egui::RichText::new(doc).small().weak());
                    if resp.clicked() {
                        add = Some(name);
                    }
                }
            });
        if let Some(kind) = add {
            self.add_node(kind);
        }
        if add_layer {
            self.add_layer();
        }
    }

    pub(super) fn inspector(&mut self, ui: &mut egui::Ui) {
        ui.heading("Inspector");
        let Some(id) = self.selected else {
            ui.label("Select a node to edit its parameters.");
            self.layers_inspector(ui);
            return;
        };
        let Some(node) = self.session.doc().graph.node(id).cloned() else {
            return;
        };
        let Some(kind) = node.kind() else {
            ui.label(format!("Unknown node kind `{}`", node.kind));
            return;
        };
        ui.strong(node.title());
        ui.label(kind.doc());
        let mut changes: Vec<(String, ParamValue)> = Vec::new();
        egui::Grid::new("params").num_columns(2).show(ui, |ui| {
            for desc in kind.params() {
                ui.label(desc.name).on_hover_text(desc.doc);
                let current = node
                    .params
                    .get(desc.name)
                    .cloned()
                    .unwrap_or_else(|| desc.default_value());
                // A slider the other parameters decide (a Parameter's value between its
                // min and max).
                let params = node.params();
                let shown = match (desc.kind, kind.slider(&params, desc.name)) {
                    (ParamKind::Float { default, .. }, Some((min, max))) => {
                        ParamKind::Float { min, max, default }
                    }
                    (other, _) => other,
                };
                match super::param_editors::param_editor(ui, shown, current) {
                    Some(ParamEdit::Value(v)) => changes.push((desc.name.to_owned(), v)),
                    Some(ParamEdit::ChooseFile) => {
                        self.queue
                            .push(Command::ChooseFile(id, desc.name.to_owned()));
                    }
                    None => {}
                }
                ui.end_row();
            }
        });
        for (name, value) in changes {
            self.set_param(id, &name, value);
        }
        // The seam view: the node's output tiled 2 × 2, repeat edges marked.
        if let Some(tex) = self.thumbs.textures().get(&id) {
            ui.separator();
            ui.label("Seam view (2 × 2 repeats)");
            let (rect, _) = ui.allocate_exact_size(egui::vec2(160.0, 160.0), egui::Sense::hover());
            let half = rect.width() / 2.0;
            for (dx, dy) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
                let r = egui::Rect::from_min_size(
                    rect.min + egui::vec2(dx * half, dy * half),
                    egui::vec2(half, half),
                );
                ui.painter().image(
                    tex.id(),
                    r,
                    egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
                    egui::Color32::WHITE,
                );
            }
            let stroke = egui::Stroke::new(1.0, egui::Color32::from_rgb(255, 60, 200));
            ui.painter()
                .line_segment([rect.center_top(), rect.center_bottom()], stroke);
            ui.painter()
                .line_segment([rect.left_center(), rect.right_center()], stroke);
        }
    }

    /// Where the preview's sun stands: its azimuth and elevation in turns, from the
    /// shipped light's until moved; reset puts it back.
    fn sun_row(&mut self, ui: &mut egui::Ui) {
        let mut sun = self.preview.view.sun.unwrap_or_else(SunAngles::shipped);
        ui.label("Sun").on_hover_text(
            "Where the sun stands: its turn about the vertical, and its height over the \
             horizon in turns (0.25 is overhead). Low behind the strands it shows what \
             the light does through them; `tuft render --sun` and `tuft view --sun` take \
             the same two numbers.",
        );
        let turn = |ui: &mut egui::Ui, value: &mut f32, most: f32, label: &str| {
            let slider = egui::Slider::new(value, 0.0..=most).custom_formatter(three_places);
            ui.add(slider.text(label)).changed()
        };
        let turned = turn(ui, &mut sun.azimuth, 1.0, "azimuth");
        let raised = turn(ui, &mut sun.elevation, 0.25, "elevation");
        if turned || raised {
            self.preview.view.sun = Some(sun);
        }
        if self.preview.view.sun.is_some() && ui.button("reset sun").clicked() {
            self.preview.view.sun = None;
        }
    }

    /// The preview's exposure and the camera's field of view.
    fn lens_row(&mut self, ui: &mut egui::Ui) {
        ui.add(
            egui::Slider::new(&mut self.preview.view.exposure_ev, -4.0..=4.0)
                .custom_formatter(three_places)
                .text("exposure, EV"),
        )
        .on_hover_text(
            "Stops of light: +1 doubles what the frame shows before the display's \
             shoulder. The same as `tuft render --exposure`.",
        );
        let camera = &mut self.preview.view.camera;
        let mut degrees = camera.fov_y * 360.0;
        if ui
            .add(
                egui::Slider::new(&mut degrees, 10.0..=120.0)
                    .suffix("°")
                    .text("field of view"),
            )
            .on_hover_text(
                "The camera's vertical field of view (`tuft render --fov` takes it in \
                 turns). The levels switch by size on screen, so a narrow lens keeps \
                 detail farther away.",
            )
            .changed()
        {
            camera.fov_y = degrees / 360.0;
        }
    }

    /// The material's strand layers: settings and the survivor view.
    pub(super) fn preview_panel(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            self.surface_row(ui);
            // A walker has no orbit distance: the eye's height is the wheel's.
            if let Some(eye) = self.preview.view.camera.walk_eye {
                ui.label(format!("eye {:.1} m up", eye[1]));
            } else {
                ui.label("Distance");
                ui.add(
                    egui::Slider::new(&mut self.preview.view.camera.distance_m, 0.3..=60.0)
                        .logarithmic(true)
                        .suffix(" m"),
                );
            }
        });
        self.uv_scale_row(ui);
        ui.horizontal_wrapped(|ui| {
            let label = |m: LevelMode| match m {
                LevelMode::Auto => "auto".to_owned(),
                LevelMode::Forced(r) => r.to_string(),
            };
            egui::ComboBox::from_id_salt("level")
                .selected_text(label(self.preview.view.level))
                .show_ui(ui, |ui| {
                    for m in [
                        LevelMode::Auto,
                        LevelMode::Forced(Rep::Strands(0)),
                        LevelMode::Forced(Rep::Strands(1)),
                        LevelMode::Forced(Rep::Strands(2)),
                        LevelMode::Forced(Rep::Cards),
                        LevelMode::Forced(Rep::Relief),
                    ] {
                        ui.selectable_value(&mut self.preview.view.level, m, label(m));
                    }
                });
            ui.label("LOD bias").on_hover_text(
                "Multiplies every switch distance, as a game engine's level-of-detail bias \
                 does: 2 keeps each level twice as far. At any bias the picture should \
                 look the same; only the cost changes.",
            );
            ui.add(
                egui::Slider::new(&mut self.preview.view.lod_bias, 0.25..=4.0)
                    .logarithmic(true)
                    .max_decimals(2),
            );
            ui.checkbox(&mut self.preview.view.overlay, "Level overlay");
            ui.checkbox(&mut self.preview.side_by_side, "Levels side by side");
            ui.checkbox(&mut self.preview.view.blend_to_surface, "Blend to surface")
                .on_hover_text(
                    "Far away, strands and cards take on the colour of the surface \
                     behind them (against the sky, of strands turned every way), so the \
                     card switches hold the colour. Off: their own colour at any \
                     distance (how far it is from the relief).",
                );
            let mut windy = self.preview.view.wind.is_some();
            ui.checkbox(&mut windy, "Wind");
            match (windy, self.preview.view.wind.as_mut()) {
                (true, Some(w)) => {
                    ui.add(egui::Slider::new(&mut w.strength, 0.0..=2.0));
                    w.time_s = ui.input(|i| i.time) as f32;
                    ui.ctx().request_repaint();
                }
                (true, None) => {
                    self.preview.view.wind = Some(Wind {
                        strength: 0.5,
                        direction: 0.1,
                        time_s: 0.0,
                    });
                }
                (false, _) => self.preview.view.wind = None,
            }
            let mut turning = self.preview.turntable.is_some();
            ui.checkbox(&mut turning, "turntable").on_hover_text(
                "The orbit turns by itself (`tuft render --turntable N` writes the frames)",
            );
            match (turning, self.preview.turntable.as_mut()) {
                (true, Some(speed)) => {
                    // A field, not a slider: the row keeps the side panel's width.
                    ui.add(
                        egui::DragValue::new(speed)
                            .range(-0.5..=0.5)
                            .speed(0.002)
                            .custom_formatter(three_places)
                            .suffix(" turn/s"),
                    )
                    .on_hover_text("Turns a second (negative turns the other way)");
                }
                (true, None) => self.preview.turntable = Some(TURNTABLE_SPEED),
                (false, _) => self.preview.turntable = None,
            }
        });
        ui.horizontal_wrapped(|ui| self.sun_row(ui));
        ui.horizontal_wrapped(|ui| self.lens_row(ui));
        // Parameters as live sliders.
        let viewing = self.baked.showing();
        let params: Vec<(NodeId, String, f32, f32, f32)> = self
            .session
            .doc()
            .graph
            .nodes
            .iter()
            .filter(|n| n.kind == "Parameter" && !viewing)
            .map(|n| {
                let p = n.params();
                (
                    n.id,
                    p.text("name").to_owned(),
                    p.float("value"),
                    p.float("min"),
                    p.float("max"),
                )
            })
            .collect();
        for (id, name, mut value, min, max) in params {
            if ui
                .add(egui::Slider::new(&mut value, min..=max).text(name))
                .changed()
            {
                self.set_param(id, "value", ParamValue::Float(value));
            }
        }
        let size = ui.available_size().max(egui::vec2(64.0, 64.0));
        let (rect, resp) = ui.allocate_exact_size(size, egui::Sense::drag());
        if resp.dragged() {
            let d = resp.drag_delta();
            let cam = &mut self.preview.view.camera;
            cam.yaw -= d.x / 600.0;
            cam.pitch += d.y / 600.0;
            *cam = cam.kept_above(self.surface.kind().min_pitch());
        } else if let Some(speed) = self.preview.turntable {
            // The orbit turns by itself while no hand holds it.
            let dt = ui.input(|i| i.stable_dt).min(0.1);
            let cam = &mut self.preview.view.camera;
            cam.yaw = (cam.yaw + speed * dt).rem_euclid(1.0);
            ui.ctx().request_repaint();
        }
        if resp.hovered() && !self.walk(ui) {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            if scroll != 0.0 {
                let cam = &mut self.preview.view.camera;
                cam.distance_m = (cam.distance_m * (-scroll * 0.002).exp()).clamp(0.3, 60.0);
            }
        }
        self.preview.show(ui, rect);
        if self.preview.view.overlay {
            self.overlay_legend(ui, rect);
        }
        let unsupported = self.preview.unsupported.as_ref();
        if unsupported.is_some() || !self.preview.has_scene() || self.preview.building.is_some() {
            // A material or set that cannot be drawn says why where the picture would be
            // (a failed rebuild over an earlier scene keeps that scene; the status bar
            // says why), as does an adapter the preview cannot draw on.
            let text = match (unsupported, &self.preview.error) {
                (Some(why), _) => format!("Nothing drawn: {why}."),
                (None, Some(e)) if self.preview.building.is_none() => {
                    format!("Nothing drawn: {e}")
                }
                _ if self.preview.has_scene() => "Rebuilding…".to_owned(),
                _ => "Building the preview…".to_owned(),
            };
            // A child over the picture: it takes no room from the panel, and the text
            // is not selectable, so a drag over it still orbits.
            let mut over = ui.new_child(egui::UiBuilder::new().max_rect(rect.shrink(8.0)));
            over.add(
                egui::Label::new(
                    egui::RichText::new(text)
                        .size(14.0)
                        .color(egui::Color32::WHITE),
                )
                .selectable(false),
            );
        }
    }

    /// What the level overlay's colours mean, in the preview's lower left corner: each
    /// strand level the layers have, then cards and relief.
    fn overlay_legend(&self, ui: &mut egui::Ui, preview: egui::Rect) {
        // The material drawn (a baked set's, or the graph's as last built).
        let reps = self
            .preview
            .with_material(crate::preview::every_rep)
            .unwrap_or_else(|| vec![Rep::Strands(0), Rep::Cards, Rep::Relief]);
        let row = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
        let size = egui::vec2(92.0, 12.0 + row * reps.len() as f32);
        let rect =
            egui::Rect::from_min_size(preview.left_bottom() + egui::vec2(8.0, -8.0 - size.y), size);
        ui.painter()
            .rect_filled(rect, 4.0, egui::Color32::from_black_alpha(170));
        let mut legend = ui.new_child(
            egui::UiBuilder::new()
                .max_rect(rect.shrink(4.0))
                .layout(egui::Layout::top_down(egui::Align::Min)),
        );
        for rep in reps {
            let [r, g, b, _] = tuft_render::overlay_color(rep);
            legend.horizontal(|ui| {
                let (swatch, _) =
                    ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
                ui.painter().rect_filled(
                    swatch,
                    2.0,
                    egui::Color32::from(egui::Rgba::from_rgb(r, g, b)),
                );
                ui.label(egui::RichText::new(rep.to_string()).color(egui::Color32::WHITE));
            });
        }
    }

    pub(super) fn diagnostics(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.heading("Diagnostics");
            if let Some(r) = &self.graph.refusal {
                ui.colored_label(egui::Color32::from_rgb(230, 90, 80), r);
            }
        });
        egui::ScrollArea::vertical()
            .id_salt("diagnostics")
            .show(ui, |ui| {
                if self.report.diagnostics.is_empty() {
                    ui.label("No problems: every field tiles and every layer is within budget.");
                }
                let mut select = None;
                for d in &self.report.diagnostics {
                    let color = if d.is_error() {
                        egui::Color32::from_rgb(230, 90, 80)
                    } else {
                        egui::Color32::from_rgb(220, 180, 60)
                    };
                    let resp = ui.add(
                        egui::Label::new(egui::RichText::new(d.to_string()).color(color))
                            .sense(egui::Sense::click()),
                    );
                    if resp.clicked()
                        && let Some(node) = d.node
                    {
                        select = Some(node);
                    }
                }
                if let Some(node) = select {
                    self.selected = Some(node);
                    self.graph.frame(vec![ViewNode::Node(node)]);
                }
            });
    }

    pub(super) fn status_bar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            let stats = &self.preview.stats;
            for (k, layer) in stats.layers.iter().enumerate() {
                let coverage = self
                    .coverage(&layer.name)
                    .map_or_else(String::new, |c| format!("; coverage {c}"));
                let resp = ui.label(format!(
                    "{}: {}, {} ({}{coverage})",
                    layer.name,
                    crate::words::counted(layer.strands, "strand"),
                    crate::words::counted(layer.triangles, "triangle"),
                    layer.reps_text()
                ));
                // The switch distances only when asked for (hovered).
                let preview = &self.preview;
                resp.on_hover_ui(|ui| {
                    for (a, b, d) in preview.switches(k, preview.view.height as f32) {
                        ui.label(format!("{a} → {b} at {d:.1} m"));
                    }
                });
                ui.separator();
            }
            if stats.budget_limited {
                // The budget the preview drew under (a software adapter's is smaller).
                let budget = self.preview.budget;
                ui.colored_label(
                    egui::Color32::from_rgb(230, 170, 60),
                    format!(
                        "budget: switches at {:.0}% of their distance",
                        100.0 * stats.budget_scale
                    ),
                )
                .on_hover_text(format!(
                    "A frame may draw {} million triangles and hold {} MB of strands; to \
                     stay inside it every switch comes nearer, each keeping its fade, as \
                     a smaller LOD bias would ({} tiles drawn coarser than their distance \
                     asks).",
                    budget.triangles >> 20,
                    budget.bytes >> 20,
                    stats.tiles_coarsened
                ));
            }
            if let Some(ms) = self.preview.rebuild_ms {
                ui.label(format!("rebuild {ms:.0} ms"));
            }
            if let Some(e) = &self.preview.error {
                ui.colored_label(egui::Color32::from_rgb(230, 90, 80), e);
            }
            if let Some(hint) = stats.facing_hint() {
                ui.colored_label(
                    egui::Color32::from_rgb(230, 170, 60),
                    format!("Nothing drawn: {hint}"),
                );
            }
            // The interval between frames is what the user feels; the UI code's own
            // share of it is the figure to keep under budget.
            if let (Some(interval), Some(code)) = (
                self.frame_interval_ms(),
                tuft_strands::num::median(self.frame_ms.iter().copied()),
            ) {
                ui.label(format!("frame {interval:.0} ms (UI {code:.1} ms)"))
                    .on_hover_text(
                        "The median time between recent frames, and of it the editor's \
                         own code (the rest is rendering, presenting and waiting)",
                    );
            }
            if let Some((m, bad)) = &self.message {
                let color = if *bad {
                    egui::Color32::from_rgb(230, 90, 80)
                } else {
                    ui.visuals().text_color()
                };
                ui.colored_label(color, m);
            }
        });
    }
}

/// Each level's coverage relative to level 0, as `1.00 · 0.90 · 0.86`.
pub fn coverage_text(reports: &[tuft_strands::levels::LevelReport]) -> String {
    reports
        .iter()
        .map(|r| format!("{:.2}", r.coverage))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// How fast the preview's turntable starts turning: once round in 20 s.
const TURNTABLE_SPEED: f32 = 0.05;

/// A turn shown to three places (a slider's `max_decimals` would round the value it
/// holds as well, and move the sun off the shipped light's before anyone touched it).
fn three_places(value: f64, _: std::ops::RangeInclusive<usize>) -> String {
    format!("{value:.3}")
}
