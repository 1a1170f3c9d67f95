//! The graph view's arrangement: which level is shown (the top, or a group's inside),
//! frames dragged and resized through their title and corner, Select All (kept beside the
//! widget's own selection, which cannot be set from outside), and the canvas menu opened
//! from the keyboard.

use super::{GraphView, Renaming, SelectAll, ViewNode};
use crate::command::Command;
use egui::{Pos2, Ui};
use tuft_graph::Document;

/// Where a frame's corner handle stands inside the frame's bottom-right corner.
pub(super) const CORNER: egui::Vec2 = egui::vec2(40.0, 24.0);

/// The smallest frame.
const MIN_FRAME: [f32; 2] = [160.0, 90.0];

impl GraphView {
    /// The group whose inside is shown (`None`: the top level).
    #[must_use]
    pub fn open_group(&self) -> Option<u32> {
        self.open
    }

    /// Shows group `group`'s inside (or the top level for `None`), framed whole.
    pub fn set_open_group(&mut self, group: Option<u32>) {
        if self.open != group {
            self.open = group;
            self.built_for = 0;
            self.all = None;
            self.frame = Some(Vec::new());
        }
    }

    /// Selects every node in view (frames aside), until the widget's own selection
    /// changes.
    pub fn select_all(&mut self, ctx: &egui::Context) {
        let nodes = self
            .snarl
            .nodes_pos_ids()
            .filter(|(_, _, n)| !matches!(n, ViewNode::Frame(_) | ViewNode::FrameCorner(_)))
            .map(|(id, _, _)| id)
            .collect();
        self.all = Some(SelectAll {
            widget: egui_snarl::ui::get_selected_nodes(self.widget_id(), ctx),
            nodes,
        });
    }

    /// The widget nodes selected: by Select All while it holds, else the widget's own.
    pub(super) fn selected_in_widget(&self, ctx: &egui::Context) -> Vec<egui_snarl::NodeId> {
        let widget = egui_snarl::ui::get_selected_nodes(self.widget_id(), ctx);
        match &self.all {
            Some(all) if all.widget == widget => all.nodes.clone(),
            _ => widget,
        }
    }

    /// Clears the selection, Select All's and the widget's own (a click on the canvas,
    /// Escape, a group made of it).
    pub fn clear_selection(&mut self) {
        self.all = None;
        self.forget_widget_selection();
    }

    /// The widget's id, for its selection and view in egui's memory.
    pub(super) fn widget_id(&self) -> egui::Id {
        egui::Id::new("tuft graph").with(self.epoch)
    }

    /// Starts the widget afresh with nothing selected, keeping the view.
    fn forget_widget_selection(&mut self) {
        self.epoch += 1;
        self.restore = Some(self.to_global);
    }

    /// After a rebuild: the nodes `was` (what the selection stood for) stay selected,
    /// whatever ids the rebuild gave them, and nothing else is.
    pub(super) fn keep_selection(&mut self, ctx: &egui::Context, was: &[ViewNode]) {
        let now: Vec<egui_snarl::NodeId> = was
            .iter()
            .filter_map(|k| self.ids.get(k).copied())
            .collect();
        let mut shown = self.selected_in_widget(ctx);
        let mut wanted = now.clone();
        shown.sort_unstable_by_key(|id| id.0);
        wanted.sort_unstable_by_key(|id| id.0);
        if shown == wanted {
            return;
        }
        self.forget_widget_selection();
        self.all = (!now.is_empty()).then(|| SelectAll {
            widget: Vec::new(),
            nodes: now,
        });
    }

    /// Opens the canvas menu at screen position `at` (Space or Tab over the canvas).
    pub fn open_menu(&mut self, at: Pos2) {
        self.menu_at = Some((at, self.to_global.inverse() * at));
    }

    /// Closes the canvas menu opened from the keyboard.
    pub fn close_menu(&mut self) {
        self.menu_at = None;
    }

    /// Whether the canvas menu opened from the keyboard is showing.
    #[must_use]
    pub fn menu_open(&self) -> bool {
        self.menu_at.is_some()
    }

    /// Where each group node stands, to keep in the document.
    #[must_use]
    pub fn group_positions(&self) -> Vec<(u32, [f32; 2])> {
        self.snarl
            .nodes_pos()
            .filter_map(|(pos, node)| match node {
                ViewNode::Group(g) => Some((*g, [pos.x, pos.y])),
                _ => None,
            })
            .collect()
    }

    /// Puts the widget's nodes on the next frame where the document says (after a frame
    /// moved what stands inside it).
    pub fn reposition(&mut self) {
        self.reposition = true;
    }

    /// Moves every widget node to the document's position for it.
    pub(super) fn place_from(&mut self, doc: &Document) {
        for (key, id) in &self.ids {
            let pos = match key {
                ViewNode::Node(n) => doc.layout.get(n).copied(),
                ViewNode::Group(g) => doc.group(*g).map(|g| g.pos),
                ViewNode::Frame(k) => doc.frames.get(*k).map(|f| f.pos),
                ViewNode::FrameCorner(k) => doc.frames.get(*k).map(|f| {
                    [
                        f.pos[0] + f.size[0] - CORNER.x,
                        f.pos[1] + f.size[1] - CORNER.y,
                    ]
                }),
                ViewNode::Pbr | ViewNode::Layer(_) => None,
            };
            if let (Some(p), Some(info)) = (pos, self.snarl.get_node_info_mut(*id)) {
                info.pos = Pos2::new(p[0], p[1]);
            }
        }
    }

    /// Every widget node's position, before the widget draws (to see what it moved).
    pub(super) fn node_positions(&self) -> Vec<(egui_snarl::NodeId, Pos2)> {
        self.snarl
            .nodes_pos_ids()
            .map(|(id, pos, _)| (id, pos))
            .collect()
    }

    /// After the widget drew: a node of a Select All dragged takes the others with it,
    /// and a frame's title or corner dragged becomes a command.
    pub(super) fn after_drag(
        &mut self,
        ctx: &egui::Context,
        doc: &Document,
        before: &[(egui_snarl::NodeId, Pos2)],
        out: &mut Vec<Command>,
    ) {
        let widget = egui_snarl::ui::get_selected_nodes(self.widget_id(), ctx);
        if self.all.as_ref().is_some_and(|a| a.widget != widget) {
            self.all = None;
        }
        let moved: Vec<(egui_snarl::NodeId, egui::Vec2)> = before
            .iter()
            .filter_map(|(id, was)| {
                let now = self.snarl.get_node_info(*id)?.pos;
                (now != *was).then(|| (*id, now - *was))
            })
            .collect();
        if let (Some(all), [(dragged, delta)]) = (&self.all, moved.as_slice())
            && all.nodes.contains(dragged)
        {
            for id in &all.nodes {
                if id != dragged
                    && let Some(info) = self.snarl.get_node_info_mut(*id)
                {
                    info.pos += *delta;
                }
            }
        }
        for (key, id) in &self.ids {
            let Some(now) = self.snarl.get_node_info(*id).map(|n| n.pos) else {
                continue;
            };
            match key {
                ViewNode::Frame(k) => {
                    if let Some(f) = doc.frames.get(*k) {
                        let delta = [now.x - f.pos[0], now.y - f.pos[1]];
                        if delta != [0.0, 0.0] {
                            let contents = match &self.frame_drag {
                                Some((dragged, c)) if dragged == k => c.clone(),
                                _ => doc.frame_contents(*k),
                            };
                            self.frame_drag = Some((*k, contents.clone()));
                            out.push(Command::MoveFrame(*k, delta, contents));
                            self.reposition = true;
                        }
                    }
                }
                ViewNode::FrameCorner(k) => {
                    if let Some(f) = doc.frames.get(*k) {
                        let size = [
                            (now.x + CORNER.x - f.pos[0]).max(MIN_FRAME[0]),
                            (now.y + CORNER.y - f.pos[1]).max(MIN_FRAME[1]),
                        ];
                        if size != f.size {
                            out.push(Command::ResizeFrame(*k, size));
                            self.reposition = true;
                        }
                    }
                }
                _ => {}
            }
        }
        if !ctx.input(|i| i.pointer.any_down()) {
            self.frame_drag = None;
        }
    }

    /// The strip above an opened group: where the view is, and the way back.
    pub(super) fn group_bar(&self, ui: &mut Ui, doc: &Document, out: &mut Vec<Command>) {
        let Some(group) = self.open.and_then(|g| doc.group(g)) else {
            return;
        };
        ui.horizontal(|ui| {
            if ui
                .button("⏴ Top level")
                .on_hover_text("Back to the whole graph (the group stays collapsed)")
                .clicked()
            {
                out.push(Command::CloseGroup);
            }
            ui.label(format!(
                "Inside the group “{}” ({})",
                group.name,
                crate::words::counted(group.members.len(), "node")
            ));
            if ui
                .button("Ungroup")
                .on_hover_text("Dissolve the group: its nodes join the top level")
                .clicked()
            {
                out.push(Command::Ungroup(group.id));
            }
            if ui
                .button("Save to Library")
                .on_hover_text(
                    "Save the group as a node of your own library, offered in the Library \
                     and the canvas menu to every graph",
                )
                .clicked()
            {
                out.push(Command::SaveToLibrary(group.id));
            }
        });
    }

    /// Paints the frames of this level behind the nodes (graph space).
    pub(super) fn paint_frames(doc: &Document, level: Option<u32>, painter: &egui::Painter) {
        for (_, frame) in doc.frames_in(level) {
            let rect = egui::Rect::from_min_size(
                Pos2::new(frame.pos[0], frame.pos[1]),
                egui::vec2(frame.size[0], frame.size[1]),
            );
            painter.rect(
                rect,
                6.0,
                egui::Color32::from_rgba_unmultiplied(70, 100, 150, 40),
                egui::Stroke::new(1.5, egui::Color32::from_rgb(90, 125, 180)),
                egui::StrokeKind::Inside,
            );
        }
    }
}

impl GraphView {
    /// The window a group or frame is renamed in: Enter or OK names it, Esc or Cancel
    /// leaves it as it was; a blank name is not taken.
    pub(super) fn rename_window(&mut self, ctx: &egui::Context, out: &mut Vec<Command>) {
        let Some((target, mut text)) = self.renaming.take() else {
            return;
        };
        let title = match target {
            Renaming::Group(_) => "Rename group",
            Renaming::Frame(_) => "Rename frame",
        };
        let mut answer = None;
        egui::Window::new(title)
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                let field = ui.add(egui::TextEdit::singleline(&mut text).desired_width(260.0));
                let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                let escape = ui.input(|i| i.key_pressed(egui::Key::Escape));
                if !enter && !escape && ui.memory(|m| m.focused().is_none()) {
                    field.request_focus();
                }
                let blank = text.trim().is_empty();
                if blank {
                    ui.label(egui::RichText::new("A name cannot be blank").weak());
                }
                ui.horizontal(|ui| {
                    if ui.add_enabled(!blank, egui::Button::new("OK")).clicked()
                        || (enter && !blank)
                    {
                        answer = Some(true);
                    }
                    if ui.button("Cancel").clicked() || escape {
                        answer = Some(false);
                    }
                });
            });
        match answer {
            Some(true) => {
                let name = text.trim().to_owned();
                out.push(match target {
                    Renaming::Group(g) => Command::RenameGroup(g, name),
                    Renaming::Frame(k) => Command::RenameFrame(k, name),
                });
            }
            Some(false) => {}
            None => self.renaming = Some((target, text)),
        }
    }

    /// Whether the rename window is open.
    #[must_use]
    pub fn renaming(&self) -> bool {
        self.renaming.is_some()
    }
}
