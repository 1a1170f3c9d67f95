//! The editor window. For now: the material's nodes, its diagnostics and its baked base
//! colour; the node-graph editor and the live preview build on this.

use anyhow::Context as _;
use eframe::egui;
use std::path::Path;
use tuft_graph::{Document, Report};

/// The lawn preset, built in so the editor opens on it from any working directory.
pub const LAWN_PRESET: &str = include_str!("../../presets/lawn.ron");

/// Opens the editor on `file`, or on the lawn preset.
pub fn run(file: Option<&Path>) -> anyhow::Result<()> {
    let (doc, title) = match &file {
        Some(path) => (
            tuft_graph::io::load(path)
                .with_context(|| format!("cannot open {}", path.display()))?,
            path.display().to_string(),
        ),
        None => (
            tuft_graph::io::from_str(LAWN_PRESET).context("the built-in lawn preset")?,
            "lawn (preset)".to_owned(),
        ),
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(format!("Tuft — {title}"))
            .with_inner_size([1280.0, 800.0]),
        ..Default::default()
    };
    eframe::run_native(
        "Tuft",
        options,
        Box::new(|_cc| Ok(Box::new(Editor::new(doc)))),
    )
    .map_err(|e| anyhow::anyhow!("cannot open the editor window: {e}"))
}

/// The editor's state.
pub struct Editor {
    doc: Document,
    report: Report,
    base_color: Option<egui::TextureHandle>,
    /// The base colour being computed off the UI thread.
    pending: Option<std::sync::mpsc::Receiver<egui::ColorImage>>,
    selected: Option<tuft_graph::NodeId>,
}

/// Side of the base-colour thumbnail, in texels.
const THUMBNAIL: usize = 256;

impl Editor {
    /// An editor holding `doc`.
    #[must_use]
    pub fn new(doc: Document) -> Self {
        let report = tuft_graph::validate(&doc.graph);
        // The base colour needs the strand relief: compute it off the UI thread.
        let (send, receive) = std::sync::mpsc::channel();
        let graph = doc.graph.clone();
        std::thread::spawn(move || {
            let _ = send.send(base_color_image(&graph));
        });
        Self {
            doc,
            report,
            base_color: None,
            pending: Some(receive),
            selected: None,
        }
    }
}

/// The material's base colour at `THUMBNAIL`², as an image.
fn base_color_image(graph: &tuft_graph::MaterialGraph) -> egui::ColorImage {
    let (maps, _) = tuft_graph::bake::bake_pbr(graph, THUMBNAIL, &mut |_| {})
        .expect("the thumbnail size is valid");
    let pixels: Vec<u8> = maps
        .base_color
        .iter()
        .flat_map(|c| {
            let [r, g, b] = c.map(|x| (tuft_graph::bake::linear_to_srgb(x) * 255.0 + 0.5) as u8);
            [r, g, b, 255]
        })
        .collect();
    egui::ColorImage::from_rgba_unmultiplied([THUMBNAIL, THUMBNAIL], &pixels)
}

impl eframe::App for Editor {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        egui::Panel::top("menu").show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.strong("Tuft");
                ui.separator();
                ui.label(&self.doc.graph.name);
                ui.label(format!("repeat {} m", self.doc.graph.repeat_m));
            });
        });
        egui::Panel::left("nodes")
            .default_size(260.0)
            .show(ui, |ui| {
                ui.heading("Nodes");
                egui::ScrollArea::vertical().show(ui, |ui| {
                    let mut nodes: Vec<_> = self.doc.graph.nodes.iter().collect();
                    nodes.sort_by_key(|n| n.id);
                    for node in nodes {
                        let badge = self.report.for_node(node.id).count();
                        let text = if badge > 0 {
                            format!("{}  ⚠ {badge}", node.label())
                        } else {
                            node.label()
                        };
                        let selected = self.selected == Some(node.id);
                        let resp = ui
                            .selectable_label(selected, text)
                            .on_hover_text(node.kind().map_or("unknown kind", |k| k.doc()));
                        if resp.clicked() {
                            self.selected = Some(node.id);
                        }
                    }
                    ui.separator();
                    ui.heading("Strand layers");
                    for (name, layer) in &self.doc.graph.strands {
                        ui.label(format!("{name}: {} candidates", layer.n_candidates()));
                    }
                });
            });
        egui::Panel::bottom("diagnostics")
            .resizable(true)
            .default_size(140.0)
            .show(ui, |ui| {
                ui.heading("Diagnostics");
                if self.report.diagnostics.is_empty() {
                    ui.label("No problems: every field tiles and every layer is within budget.");
                }
                for d in &self.report.diagnostics {
                    let color = if d.is_error() {
                        egui::Color32::from_rgb(230, 90, 80)
                    } else {
                        egui::Color32::from_rgb(220, 180, 60)
                    };
                    ui.colored_label(color, d.to_string());
                }
            });
        if let Some(image) = self.pending.as_ref().and_then(|r| r.try_recv().ok()) {
            self.base_color =
                Some(ctx.load_texture("base_color", image, egui::TextureOptions::LINEAR));
            self.pending = None;
        }
        egui::CentralPanel::default().show(ui, |ui| {
            ui.heading("Base colour");
            match &self.base_color {
                Some(image) => {
                    ui.image((image.id(), egui::vec2(512.0, 512.0)));
                }
                None => {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label("Scattering strands and baking the surface…");
                    });
                    ctx.request_repaint_after(std::time::Duration::from_millis(50));
                }
            }
        });
    }
}
