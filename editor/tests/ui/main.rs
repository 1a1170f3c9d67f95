//! The editor driven as a user drives it, through egui_kittest: by labels, clicks and
//! keys, on a software wgpu adapter.

use egui_kittest::kittest::Queryable as _;
use egui_kittest::{Harness, SnapshotOptions};
use std::path::PathBuf;
use tuft_editor::app::Editor;
use tuft_editor::session::Session;
use tuft_graph::value::Value;
use tuft_graph::{Document, InRef, MaterialGraph, OutRef, ParamValue, Sink};
use tuft_render::DeviceTurn;

mod arrange;
mod baked;
mod files;
mod graph;
mod layers;
mod library;
mod nodes;
mod preview;
mod surface;

pub use tuft_tests::root;

/// A material with a surface and no strands: quick to preview.
pub fn bare() -> Document {
    Document::new(MaterialGraph::new("bare"))
}

/// An editor under test, holding the process's device turn for its whole life: each
/// harness opens its own device, and software GL cannot run two at once
/// (`tuft_render::turn`).
pub struct Ui {
    harness: Harness<'static, Editor>,
    /// Last, so the harness's device is gone before the next test's opens.
    _turn: DeviceTurn,
}

impl Ui {
    /// Takes the turn, then builds the harness with `build` (on the device it opens).
    pub fn new(build: impl FnOnce() -> Harness<'static, Editor>) -> Self {
        let turn = DeviceTurn::take();
        Self {
            harness: build(),
            _turn: turn,
        }
    }
}

impl std::ops::Deref for Ui {
    type Target = Harness<'static, Editor>;
    fn deref(&self) -> &Self::Target {
        &self.harness
    }
}

impl std::ops::DerefMut for Ui {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.harness
    }
}

pub fn editor(doc: Document, autosave: Option<PathBuf>) -> Ui {
    settled(move |cc| Editor::new(cc, Session::new(doc, None), autosave))
}

/// The tests' window: the editor's default size, drawn through wgpu on a device made
/// as the editor makes its own (the adapter's limits, not WebGL's on GL).
pub fn window() -> egui_kittest::HarnessBuilder<Editor> {
    let mut setup = egui_kittest::wgpu::default_wgpu_setup();
    if let egui_wgpu::WgpuSetup::CreateNew(create) = &mut setup {
        create.device_descriptor = std::sync::Arc::new(tuft_editor::app::device_descriptor);
    }
    Harness::builder()
        .with_size([1440.0, 900.0])
        .wgpu_setup(setup)
}

/// The editor `make` makes, in the tests' window, once its workers have settled.
fn settled(make: impl FnOnce(&mut eframe::CreationContext<'_>) -> Editor + 'static) -> Ui {
    let mut ui = Ui::new(|| window().build_eframe(make));
    settle(&mut ui);
    ui
}

/// Lets the workers finish and the UI draw what they made, the preview's tiles planted
/// (the UI thread plants a budget per frame).
pub fn settle(harness: &mut Harness<'static, Editor>) {
    let ctx = harness.ctx.clone();
    harness.state_mut().wait_for_workers(&ctx);
    harness.run_steps(3);
    for _ in 0..500 {
        if harness.state().preview().stats.tiles_pending == 0 {
            break;
        }
        harness.step();
    }
    assert_eq!(
        harness.state().preview().stats.tiles_pending,
        0,
        "planting finished"
    );
}

pub fn base_color() -> InRef {
    InRef::Sink(Sink::Pbr("base_color".into()))
}

pub fn roughness() -> InRef {
    InRef::Sink(Sink::Pbr("roughness".into()))
}

/// Presses at `from` and moves the pointer to `to` in steps, a frame each, as a hand
/// drags a wire (the caller releases it).
pub fn drag_wire(harness: &mut Harness<'static, Editor>, from: egui::Pos2, to: egui::Pos2) {
    harness.hover_at(from);
    harness.run_steps(1);
    harness.drag_at(from);
    harness.run_steps(1);
    for k in 1..=8 {
        harness.hover_at(from + (to - from) * (k as f32 / 8.0));
        harness.run_steps(1);
    }
}

/// Drags from `from` by `by` in `steps` equal moves, a frame each, as a hand would (the
/// preview orbits by the pointer's motion).
pub fn drag_by(
    harness: &mut Harness<'static, Editor>,
    from: egui::Pos2,
    by: egui::Vec2,
    steps: usize,
) {
    harness.hover_at(from);
    harness.run_steps(1);
    harness.drag_at(from);
    harness.run_steps(1);
    for k in 1..steps {
        harness.hover_at(from + by * (k as f32 / steps as f32));
        harness.run_steps(1);
    }
    harness.drop_at(from + by);
    harness.run_steps(1);
}

/// Moves the pointer to `at` (screen space) and clicks there with `button` and
/// `modifiers` held, the press and the release in one frame.
pub fn press_at(
    harness: &mut Harness<'static, Editor>,
    at: egui::Pos2,
    button: egui::PointerButton,
    modifiers: egui::Modifiers,
) {
    harness.hover_at(at);
    harness.run_steps(1);
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos: at,
            button,
            pressed,
            modifiers,
        });
    }
}

/// Clicks at `at` (screen space) with the primary button.
pub fn click_at(harness: &mut Harness<'static, Editor>, at: egui::Pos2) {
    press_at(
        harness,
        at,
        egui::PointerButton::Primary,
        egui::Modifiers::NONE,
    );
}

/// Right-clicks at `at` and lets the menu it opens draw (on empty canvas: the canvas
/// menu, there).
pub fn right_click_at(harness: &mut Harness<'static, Editor>, at: egui::Pos2) {
    press_at(
        harness,
        at,
        egui::PointerButton::Secondary,
        egui::Modifiers::NONE,
    );
    harness.run_steps(2);
}

/// Selects all the focused text field holds and types `text` over it.
pub fn type_over(harness: &mut Harness<'static, Editor>, text: &str) {
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.run_steps(1);
    harness
        .get_all_by_role(egui::accesskit::Role::TextInput)
        .find(|n| n.is_focused())
        .expect("a text field has the keys")
        .type_text(text);
    harness.run_steps(1);
}

/// Clicks `label` where it is drawn on the canvas (a node's title or body button).
pub fn click_in_graph(harness: &mut Harness<'static, Editor>, label: &str) {
    harness.run_steps(2);
    let centre = harness.get_by_label(label).rect().center();
    let at = harness.state().graph_view().to_screen(centre);
    click_at(harness, at);
    harness.run_steps(3);
}

/// Clicks `kind` in the library; the new node is selected and of that kind.
pub fn add_from_library(harness: &mut Harness<'static, Editor>, kind: &str) -> tuft_graph::NodeId {
    harness.get_by_label(kind).click();
    harness.run_steps(2);
    let id = harness
        .state()
        .selected()
        .expect("the new node is selected");
    let added = harness
        .state()
        .session()
        .doc()
        .graph
        .node(id)
        .map(|n| n.kind.clone());
    assert_eq!(added.as_deref(), Some(kind));
    id
}

pub fn editor_on(path: &std::path::Path, autosave: &std::path::Path) -> Ui {
    let (path, autosave) = (path.to_owned(), autosave.to_owned());
    settled(move |cc| Editor::new(cc, Session::open(&path).unwrap(), Some(autosave)))
}

/// Clicks File › New (not New from Preset) in an open File menu; its label carries its
/// shortcut.
pub fn click_new(harness: &mut Harness<'static, Editor>) {
    use egui_kittest::kittest::NodeT as _;
    harness
        .get_all_by_label_contains("New")
        .find(|n| {
            let label = n.accesskit_node().label().unwrap_or_default();
            !label.contains("Preset")
        })
        .expect("File › New")
        .click();
}

/// Opens File and clicks New, declining to save the work before.
pub fn file_new(harness: &mut Harness<'static, Editor>) {
    harness.get_by_label("File").click();
    harness.run_steps(2);
    click_new(harness);
    harness.run_steps(2);
    if harness.state().session().is_dirty() {
        harness.get_by_label("Don't Save").click();
        harness.run_steps(2);
    }
}

/// Types `search` into the focused canvas menu and clicks `kind` in it; the one node of
/// the graph is then of that kind and stands where the menu was opened (`at`).
pub fn choose_in_canvas_menu(
    harness: &mut Harness<'static, Editor>,
    search: &str,
    kind: &str,
    at: egui::Pos2,
) {
    harness
        .get_all_by_role(egui::accesskit::Role::TextInput)
        .find(|n| n.is_focused())
        .expect("the menu's search box is focused")
        .type_text(search);
    harness.run_steps(2);
    // The library lists the kind too; the menu's entry is the last.
    harness.get_all_by_label(kind).last().unwrap().click();
    harness.run_steps(2);
    let doc = harness.state().session().doc();
    assert_eq!(doc.graph.nodes.len(), 1);
    assert_eq!(doc.graph.nodes[0].kind, kind);
    let p = doc.layout[&doc.graph.nodes[0].id];
    let on_screen = harness
        .state()
        .graph_view()
        .to_screen(egui::pos2(p[0], p[1]));
    assert!(on_screen.distance(at) < 12.0, "{on_screen:?} vs {at:?}");
}

/// Opens the File menu and clicks the entry whose label holds `item` (menu entries'
/// labels carry their shortcuts).
pub fn file_menu(harness: &mut Harness<'static, Editor>, item: &str) {
    harness.get_by_label("File").click();
    harness.run_steps(2);
    harness.get_by_label_contains(item).click();
    harness.run_steps(1);
}

/// Steps until the file dialog has answered, then lets the preview land.
pub fn answered(harness: &mut Harness<'static, Editor>) {
    for _ in 0..200 {
        if !harness.state().choosing() {
            break;
        }
        harness.step();
    }
    assert!(!harness.state().choosing());
    settle(harness);
}

/// A file or folder dropped on the window, as the windowing layer hands it over.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &std::path::Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

/// Drops `path` on the window and lets a frame take it.
pub fn drop_on_window(harness: &mut Harness<'static, Editor>, path: &std::path::Path) {
    harness
        .input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(path.to_owned())));
    harness.run_steps(1);
}
