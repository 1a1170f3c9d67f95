//! Help › Keyboard and Mouse: every shortcut the menus hold and every gesture of the
//! canvas, the preview and the inspector, in one window, so none is a secret.

use super::Editor;
use super::menus::{
    ADD_FRAME, COPY, CUT, DELETE, DUPLICATE, FRAME_ALL, GROUP, NEW, OPEN, PASTE, REDO, REDO_Y,
    SAVE, SAVE_AS, SELECT_ALL, UNDO, UNGROUP,
};
use eframe::egui;
use egui::KeyboardShortcut;

/// The menus' shortcuts, as the menus name their commands.
const SHORTCUTS: [(&str, &[KeyboardShortcut]); 16] = [
    ("New", &[NEW]),
    ("Open…", &[OPEN]),
    ("Save", &[SAVE]),
    ("Save As…", &[SAVE_AS]),
    ("Undo", &[UNDO]),
    ("Redo", &[REDO, REDO_Y]),
    ("Select All", &[SELECT_ALL]),
    ("Cut", &[CUT]),
    ("Copy", &[COPY]),
    ("Paste", &[PASTE]),
    ("Duplicate", &[DUPLICATE]),
    ("Delete", &[DELETE]),
    ("Group", &[GROUP]),
    ("Ungroup", &[UNGROUP]),
    ("Add Frame", &[ADD_FRAME]),
    ("Frame All", &[FRAME_ALL]),
];

/// What the pointer and the keys do where, beyond the menus: (where, what you do, what
/// it does).
const GESTURES: [(&str, &str, &str); 22] = [
    (
        "Canvas",
        "Paste with the pointer on it",
        "The nodes land at the pointer (as text, they go between Tuft windows too)",
    ),
    (
        "Canvas",
        "Space, Tab or right-click",
        "Add a node where the pointer is",
    ),
    (
        "Canvas",
        "Drag a library entry onto it",
        "Add that node where it is dropped",
    ),
    ("Canvas", "Drag from an output to an input", "Connect them"),
    (
        "Canvas",
        "Drop a wire on empty canvas",
        "Add a node that takes it",
    ),
    (
        "Canvas",
        "Ctrl+drag from an input",
        "Move its wire to another input",
    ),
    (
        "Canvas",
        "Right-click a wire or a pin",
        "Remove the wire, or the pin's wires",
    ),
    (
        "Canvas",
        "Click a node's title",
        "Show its parameters in the inspector (outlined in amber)",
    ),
    (
        "Canvas",
        "Shift+click a node",
        "Add it to the selection (outlined in blue); Ctrl+Shift+click: select it alone",
    ),
    (
        "Canvas",
        "Right-click a node",
        "Delete it; a layer, group or frame: rename, open, remove",
    ),
    (
        "Canvas",
        "Shift+drag on empty canvas",
        "Select the nodes in a box",
    ),
    ("Canvas", "Drag empty canvas, or scroll", "Pan"),
    ("Canvas", "Ctrl+scroll, or pinch", "Zoom"),
    (
        "Canvas",
        "Double-click a group",
        "Open it; Esc goes back up",
    ),
    (
        "Canvas",
        "Esc",
        "Close a menu, leave a group, or clear the selection",
    ),
    (
        "Window",
        "Drop a .ron file, a folder or a mesh",
        "Open the graph, open the baked set, or preview on the mesh",
    ),
    ("Preview", "Drag", "Orbit"),
    ("Preview", "Scroll", "Nearer or farther"),
    (
        "Preview",
        "W A S D (walking the field)",
        "Walk; Shift runs, the wheel raises the eye",
    ),
    ("Inspector", "Hover a setting's name", "What it does"),
    (
        "Curve editor",
        "Drag a point; double-click",
        "Move it; add a point",
    ),
    ("Curve editor", "Right-click a point", "Remove it"),
];

impl Editor {
    /// Whether Help › Keyboard and Mouse is showing.
    #[must_use]
    pub fn showing_help(&self) -> bool {
        self.help
    }

    pub(super) fn help_window(&mut self, ctx: &egui::Context) {
        let mut open = self.help;
        egui::Window::new("Keyboard and Mouse")
            .open(&mut open)
            .default_size([560.0, 560.0])
            .show(ctx, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    egui::Grid::new("shortcuts")
                        .num_columns(2)
                        .striped(true)
                        .show(ui, |ui| {
                            ui.strong("Menus");
                            ui.end_row();
                            for (command, keys) in SHORTCUTS {
                                let keys: Vec<String> =
                                    keys.iter().map(|k| ctx.format_shortcut(k)).collect();
                                ui.label(keys.join(" or "));
                                ui.label(command);
                                ui.end_row();
                            }
                            let mut place = "";
                            for (at, gesture, does) in GESTURES {
                                if at != place {
                                    place = at;
                                    ui.strong(at);
                                    ui.end_row();
                                }
                                ui.label(gesture);
                                ui.label(does);
                                ui.end_row();
                            }
                        });
                });
            });
        self.help = open;
    }
}

#[cfg(test)]
mod tests {
    use super::SHORTCUTS;

    #[test]
    fn every_shortcut_the_menus_define_is_listed() {
        let menus = include_str!("menus.rs");
        let defined: Vec<&str> = menus
            .lines()
            .filter_map(|l| l.strip_prefix("pub const "))
            .filter_map(|l| l.split_once(": KeyboardShortcut"))
            .map(|(name, _)| name)
            .collect();
        assert!(defined.len() >= 14, "{defined:?}");
        let listed: Vec<_> = SHORTCUTS.iter().flat_map(|(_, keys)| keys.iter()).collect();
        assert_eq!(listed.len(), defined.len(), "{defined:?}");
        let help = include_str!("help.rs");
        let table = &help[..help.find("const GESTURES").expect("the gestures")];
        for name in defined {
            assert!(table.contains(&format!("{name}]")) || table.contains(&format!("{name},")));
        }
    }
}
