//! Export Baked Set: the dialog that takes the folder (remembered between exports and
//! runs), the map resolution, the mesh compression, the engine target, the KTX2 codec,
//! the strand file's scheme and the share of strands kept, and the export itself on a
//! worker with progress and Cancel.

use super::{Editor, Export};
use crate::file_dialogs::Purpose;
use crate::workers::lock;
use eframe::egui;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use tuft_bake::BakeOptions;
use tuft_bake::gltf::Encoding;
use tuft_bake::ktx2::Codec;
use tuft_bake::targets::Target;

/// What the export dialog holds.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ExportSettings {
    /// The folder the set goes to (empty until chosen).
    pub folder: String,
    /// Map resolution.
    pub resolution: usize,
    /// Mesh compression, by its command-line name.
    pub compress: String,
    /// Engine target, by its command-line name.
    pub target: String,
    /// How the KTX2 textures store texels, by its command-line name.
    #[serde(default = "rgba8")]
    pub ktx2: String,
    /// How the strand file stores its fields, by its command-line name.
    #[serde(default = "stored")]
    pub strands: String,
    /// The share of every layer's strands kept, on top of each layer's own
    /// (`tuft bake --keep`): 1 keeps the graph's.
    #[serde(default = "all")]
    pub keep: f32,
}

fn all() -> f32 {
    1.0
}

fn stored() -> String {
    tuft_strands::file::Scheme::default().name().to_owned()
}

fn rgba8() -> String {
    Codec::default().name().to_owned()
}

impl Default for ExportSettings {
    fn default() -> Self {
        Self {
            folder: String::new(),
            resolution: tuft_bake::DEFAULT_RESOLUTION,
            compress: "quantize".to_owned(),
            target: "gltf".to_owned(),
            ktx2: rgba8(),
            strands: stored(),
            keep: all(),
        }
    }
}

impl ExportSettings {
    /// The bake options these name (unknown names fall back to the defaults).
    #[must_use]
    pub fn options(&self) -> BakeOptions {
        BakeOptions {
            resolution: self.resolution,
            encoding: Encoding::from_name(&self.compress).unwrap_or_default(),
            target: Target::from_name(&self.target).unwrap_or_default(),
            ktx2: Codec::from_name(&self.ktx2).unwrap_or_default(),
            strands: tuft_strands::file::Scheme::from_name(&self.strands).unwrap_or_default(),
            keep: self.keep,
        }
    }
}

/// The map resolutions offered.
const RESOLUTIONS: [usize; 6] = [256, 512, 1024, 2048, 4096, 8192];

impl Editor {
    /// The export dialog's settings (remembered between exports).
    #[must_use]
    pub fn export_settings(&self) -> &ExportSettings {
        &self.export_settings
    }

    /// Opens the export dialog.
    pub(super) fn export_dialog_open(&mut self) {
        self.export_dialog = true;
    }

    /// Whether the export dialog is showing.
    #[must_use]
    pub fn exporting_dialog(&self) -> bool {
        self.export_dialog
    }

    /// Takes a folder chosen for the export.
    pub(super) fn export_folder_chosen(&mut self, dir: &std::path::Path) {
        self.export_settings.folder = dir.display().to_string();
    }

    pub(super) fn export_window(&mut self, ctx: &egui::Context) {
        if !self.export_dialog {
            return;
        }
        let mut open = true;
        let mut go = false;
        let mut choose = false;
        let s = &mut self.export_settings;
        egui::Window::new("Export Baked Set")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                egui::Grid::new("export").num_columns(2).show(ui, |ui| {
                    ui.label("Folder");
                    ui.horizontal(|ui| {
                        ui.add(egui::TextEdit::singleline(&mut s.folder).desired_width(300.0));
                        choose = ui.button("Choose…").clicked();
                    });
                    ui.end_row();
                    ui.label("Map resolution");
                    egui::ComboBox::from_id_salt("export resolution")
                        .selected_text(format!("{0} × {0}", s.resolution))
                        .show_ui(ui, |ui| {
                            for r in RESOLUTIONS {
                                ui.selectable_value(&mut s.resolution, r, format!("{r} × {r}"));
                            }
                        });
                    ui.end_row();
                    let choices: [(&str, &str, &mut String, &[&str]); 4] = [
                        (
                            "Meshes",
                            "none: 32-bit floats; quantize: KHR_mesh_quantization; meshopt: \
                             quantised, then EXT_meshopt_compression",
                            &mut s.compress,
                            &Encoding::NAMES.map(|n| n.0),
                        ),
                        (
                            "Engine",
                            "unity adds the HDRP/URP mask map; unreal a DirectX-style normal map",
                            &mut s.target,
                            &Target::NAMES.map(|n| n.0),
                        ),
                        (
                            "KTX2 textures",
                            "rgba8: the mips exactly as computed; bc7: GPU blocks desktop \
                             engines sample as they are (lossy, a quarter of the bytes)",
                            &mut s.ktx2,
                            &Codec::NAMES.map(|n| n.0),
                        ),
                        (
                            "Strand file",
                            "stored: every field exact, 92 bytes a strand; quantised: 16- and \
                             8-bit fields within stated bounds (about 28 bytes a strand), the \
                             meshes built from what it reads back",
                            &mut s.strands,
                            &tuft_strands::file::Scheme::NAMES,
                        ),
                    ];
                    for (label, hover, value, options) in choices {
                        ui.label(label).on_hover_text(hover);
                        choice(ui, label, value, options);
                        ui.end_row();
                    }
                    ui.label("Keep").on_hover_text(
                        "The share of every layer's strands the set keeps, on top of each \
                         layer's own: the rank prefix, widened as the levels widen — the \
                         same material, thinner and cheaper. 1 keeps the graph's.",
                    );
                    ui.add(
                        egui::Slider::new(&mut s.keep, 0.05..=1.0)
                            .fixed_decimals(2)
                            .clamping(egui::SliderClamping::Always),
                    );
                    ui.end_row();
                });
                if let Some(note) = Encoding::from_name(&s.compress)
                    .ok()
                    .and_then(Encoding::note)
                {
                    ui.colored_label(ui.visuals().warn_fg_color, note);
                }
                let target = Target::from_name(&s.target).unwrap_or_default();
                let compress = Encoding::from_name(&s.compress).unwrap_or_default();
                if compress != target.default_encoding() && target == Target::Godot {
                    ui.colored_label(
                        ui.visuals().warn_fg_color,
                        "Godot 3 reads KHR_mesh_quantization's integers as they are (the \
                         meshes come in 65,536 times too large, every colour white): choose \
                         Meshes: none for Godot",
                    );
                }
                ui.horizontal(|ui| {
                    let ready = !s.folder.trim().is_empty();
                    go = ui.add_enabled(ready, egui::Button::new("Export")).clicked();
                });
            });
        if choose {
            self.choose(Purpose::Export);
        }
        if go {
            let dir = PathBuf::from(self.export_settings.folder.trim());
            self.export_dialog = false;
            self.start_export(dir);
        } else if !open {
            self.export_dialog = false;
        }
    }

    /// Writes the baked set into `dir` on a worker, as the export settings say.
    pub(super) fn start_export(&mut self, dir: PathBuf) {
        let graph = self.session.doc().graph.clone();
        let options = self.export_settings.options();
        let progress = Arc::new(AtomicU32::new(0));
        let stage = Arc::new(std::sync::Mutex::new(String::from("starting")));
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, done) = std::sync::mpsc::channel();
        let (p, s, c, out) = (progress.clone(), stage.clone(), cancel.clone(), dir.clone());
        crate::workers::spawn("tuft export", move || {
            let result = tuft_bake::bake_graph(
                &graph,
                &out,
                &options,
                &mut |name, f| {
                    *lock(&s) = name.to_owned();
                    p.store((f * 1000.0) as u32, Ordering::Relaxed);
                },
                &c,
            );
            let _ = tx.send(result.map(|b| b.written.len()).map_err(|e| e.to_string()));
        });
        self.export = Some(Export {
            progress,
            stage,
            cancel,
            done,
            dir,
        });
    }
}

/// A drop-down of `options`, holding the chosen one in `value`.
fn choice(ui: &mut egui::Ui, id: &str, value: &mut String, options: &[&str]) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(value.as_str())
        .show_ui(ui, |ui| {
            for o in options {
                ui.selectable_value(value, (*o).to_owned(), *o);
            }
        });
}
