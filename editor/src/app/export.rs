//! Export Baked Set, one concern with its own state ([`Exporter`]): the dialog that takes
//! the folder (remembered between exports and runs), the map resolution, the mesh
//! compression, the engine target, the KTX2 codec, the strand file's scheme and the share
//! of strands kept, and the export itself on a worker with progress and Cancel.

use crate::workers::lock;
use eframe::egui;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;
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

impl super::Editor {
    /// Export Baked Set's state: the dialog and its settings, and the running export.
    #[must_use]
    pub fn exporter(&self) -> &Exporter {
        &self.exporter
    }

    /// The export's dialog and progress, and what the author asked there.
    pub(super) fn export_window(&mut self, ctx: &egui::Context) {
        match self.exporter.ui(ctx) {
            Some(ExportAsk::ChooseFolder) => self.choose(crate::file_dialogs::Purpose::Export),
            Some(ExportAsk::Start(dir)) => {
                self.exporter.start(self.session.doc().graph.clone(), dir);
            }
            Some(ExportAsk::Finished(said, failed)) => self.message = Some((said, failed)),
            None => {}
        }
    }
}

/// An export running on its worker.
struct Running {
    progress: Arc<AtomicU32>,
    stage: Arc<std::sync::Mutex<String>>,
    cancel: Arc<AtomicBool>,
    done: std::sync::mpsc::Receiver<Result<usize, String>>,
    dir: PathBuf,
}

/// Export Baked Set: the dialog's settings (remembered between exports and runs),
/// whether the dialog shows, and the export running, if one is.
#[derive(Default)]
pub struct Exporter {
    settings: ExportSettings,
    dialog: bool,
    running: Option<Running>,
}

/// What the author asked of the export in a frame, for the editor to carry out.
#[derive(Debug, PartialEq)]
pub enum ExportAsk {
    /// Choose the folder (a file dialog).
    ChooseFolder,
    /// Export the document into this folder.
    Start(PathBuf),
    /// The export finished: what the status bar says, and whether it is a failure.
    Finished(String, bool),
}

impl Exporter {
    /// An exporter that remembers `settings`.
    #[must_use]
    pub fn with_settings(settings: ExportSettings) -> Self {
        Self {
            settings,
            ..Self::default()
        }
    }

    /// The dialog's settings.
    #[must_use]
    pub fn settings(&self) -> &ExportSettings {
        &self.settings
    }

    /// Whether the dialog is showing.
    #[must_use]
    pub fn dialog_open(&self) -> bool {
        self.dialog
    }

    /// Whether an export is running.
    #[must_use]
    pub fn busy(&self) -> bool {
        self.running.is_some()
    }

    /// Opens the dialog, unless an export is running.
    pub fn open_dialog(&mut self) {
        if !self.busy() {
            self.dialog = true;
        }
    }

    /// Takes a folder chosen for the export.
    pub fn folder_chosen(&mut self, dir: &Path) {
        self.settings.folder = dir.display().to_string();
    }

    /// The dialog and the running export's progress; what the author asked, if anything.
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<ExportAsk> {
        // Never both: the dialog does not open while an export runs.
        let asked = self.dialog_window(ctx);
        let finished = self.progress_window(ctx);
        asked.or(finished)
    }

    fn dialog_window(&mut self, ctx: &egui::Context) -> Option<ExportAsk> {
        if !self.dialog {
            return None;
        }
        let mut open = true;
        let mut go = false;
        let mut choose = false;
        let s = &mut self.settings;
        egui::Window::new("Export Baked Set")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                egui::Grid::new("export").num_columns(2).show(ui, |ui| {
                    ui.label("Folder");
                    choose = super::widgets::path_field(ui, &mut s.folder);
                    ui.end_row();
                    settings_rows(ui, s);
                });
                warnings(ui, s);
                ui.horizontal(|ui| {
                    let ready = !s.folder.trim().is_empty();
                    go = ui.add_enabled(ready, egui::Button::new("Export")).clicked();
                });
            });
        if go {
            self.dialog = false;
            return Some(ExportAsk::Start(PathBuf::from(self.settings.folder.trim())));
        }
        if !open {
            self.dialog = false;
        }
        choose.then_some(ExportAsk::ChooseFolder)
    }

    /// Writes `graph`'s baked set into `dir` on a worker, as the settings say.
    pub fn start(&mut self, graph: tuft_graph::MaterialGraph, dir: PathBuf) {
        let options = self.settings.options();
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
        self.running = Some(Running {
            progress,
            stage,
            cancel,
            done,
            dir,
        });
    }

    /// The running export's window (progress and Cancel); how it ended, once it has.
    fn progress_window(&mut self, ctx: &egui::Context) -> Option<ExportAsk> {
        let running = self.running.as_ref()?;
        let finished = running.done.try_recv().ok();
        let fraction = running.progress.load(Ordering::Relaxed) as f32 / 1000.0;
        let stage = lock(&running.stage).clone();
        egui::Window::new("Exporting baked set")
            .collapsible(false)
            .show(ctx, |ui| {
                ui.label(running.dir.display().to_string());
                ui.add(egui::ProgressBar::new(fraction).text(stage));
                if ui.button("Cancel").clicked() {
                    running.cancel.store(true, Ordering::Relaxed);
                }
            });
        ctx.request_repaint_after(Duration::from_millis(100));
        let result = finished?;
        let dir = self.running.take()?.dir;
        Some(match result {
            Ok(n) => ExportAsk::Finished(format!("Exported {n} files to {}", dir.display()), false),
            Err(e) => ExportAsk::Finished(format!("Export stopped: {e}"), true),
        })
    }
}

/// The dialog's rows below the folder: resolution, the four choices and the keep.
fn settings_rows(ui: &mut egui::Ui, s: &mut ExportSettings) {
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
}

/// What the author should know of the chosen compression and engine.
fn warnings(ui: &mut egui::Ui, s: &ExportSettings) {
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
