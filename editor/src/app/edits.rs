//! The one path every change takes: [`Editor::run`] carries out a [`Command`] from any
//! control (the graph view, the menus, the shortcuts), and every change to the document
//! inside it goes through [`Editor::edit`] into the session's history.

use super::Editor;
use crate::command::Command;
use crate::file_dialogs::Purpose;
use crate::graph_view::ViewNode;
use crate::words::counted;
use eframe::egui;
use tuft_graph::clip::{Clip, Pasted};
use tuft_graph::groups::Frame;
use tuft_graph::{Document, InRef, Input, NodeId, ParamValue};

impl Editor {
    /// Carries out `command`.
    pub fn run(&mut self, ctx: &egui::Context, command: Command) {
        if self.baked.showing() && !Self::allowed_while_viewing(&command) {
            self.message = Some((
                "A baked set is read-only: File › Close Baked Set goes back to the graph"
                    .to_owned(),
                true,
            ));
            return;
        }
        match command {
            Command::Connect(from, to) => {
                self.connect(from, &to);
            }
            // An unlinked input falls back to its port's default (the engine's rule).
            Command::Disconnect(to) => self.edit(None, |d| d.graph.disconnect(&to)),
            Command::SetConst(to, value) => self.set_constant(&to, value),
            Command::Select(id) => self.selected = Some(id),
            Command::Deselect => self.deselect(),
            Command::SelectAll => self.graph.select_all(ctx),
            Command::Add(kind, pos) => {
                self.add_node_at(kind, pos);
            }
            Command::AddWired(kind, pos, wire) => {
                self.add_wired(kind, pos, &wire);
            }
            // Each command on the selection says how many nodes it took.
            Command::Delete(nodes) => {
                self.delete(&nodes);
                self.took("Deleted", &nodes);
            }
            Command::Duplicate(nodes) => self.duplicate(&nodes),
            Command::Copy(nodes) => {
                self.copy(ctx, &nodes);
                self.took("Copied", &nodes);
            }
            Command::Cut(nodes) => {
                self.copy(ctx, &nodes);
                self.delete(&nodes);
                self.took("Cut", &nodes);
            }
            Command::Paste(text) => match ron::from_str::<Clip>(&text) {
                Ok(clip) => self.paste(ctx, &clip),
                Err(_) => {
                    self.message = Some(("The clipboard holds no Tuft nodes".to_owned(), true));
                }
            },
            Command::AddLayer => {
                self.add_layer();
            }
            Command::DuplicateLayer(name) => {
                self.duplicate_layer(&name);
            }
            Command::FocusLayer(name) => {
                self.deselect();
                self.focus_layer(&name, false);
            }
            Command::RemoveLayer(name) => self.delete_layer(&name),
            Command::Group(nodes) => {
                self.group(&nodes);
            }
            Command::Ungroup(g) => self.ungroup(g),
            Command::RenameGroup(g, name) => self.edit(Some(format!("group name {g}")), |d| {
                if let Some(group) = d.groups.iter_mut().find(|x| x.id == g) {
                    group.name = name;
                }
            }),
            Command::SaveToLibrary(g) => self.save_to_library(g),
            Command::AddFromLibrary(name, at) => {
                self.add_from_library(&name, at);
            }
            Command::OpenGroup(g) => {
                self.graph.set_open_group(Some(g));
                self.selected = None;
            }
            Command::CloseGroup => self.graph.set_open_group(None),
            Command::AddFrame => self.add_frame(ctx),
            Command::MoveFrame(k, delta, contents) => {
                self.session.arrange(|d| d.move_frame(k, delta, &contents));
                self.graph.reposition();
            }
            Command::ResizeFrame(k, size) => {
                self.session.arrange(|d| {
                    if let Some(f) = d.frames.get_mut(k) {
                        f.size = size;
                    }
                });
                self.graph.reposition();
            }
            Command::RenameFrame(k, title) => self.edit(Some(format!("frame title {k}")), |d| {
                if let Some(f) = d.frames.get_mut(k) {
                    f.title = title;
                }
            }),
            Command::RemoveFrame(k) => self.edit(None, |d| {
                if k < d.frames.len() {
                    d.frames.remove(k);
                }
            }),
            Command::FrameAll => self.graph.frame(Vec::new()),
            Command::Undo => self.undo(),
            Command::Redo => self.redo(),
            Command::New => self.request_new(None),
            Command::NewFromPreset(name) => self.request_new(Some(name)),
            Command::Open => self.choose(Purpose::Open),
            Command::OpenPath(path) => self.open_any(&path),
            Command::OpenBaked => self.choose(Purpose::OpenBaked),
            Command::CloseBaked => self.close_baked(),
            Command::ChooseMesh => self.choose(Purpose::Mesh),
            Command::Surface(kind) => self.surface_command(kind),
            Command::Save => self.save_or_ask(),
            Command::RenameMaterial => {
                let name = self.session.doc().graph.name.clone();
                self.renaming = Some((name, false));
            }
            Command::SaveAs => {
                let name = format!(
                    "{}.ron",
                    tuft_graph::naming::file_stem(&self.session.doc().graph.name)
                );
                self.choose(Purpose::SaveAs(name));
            }
            Command::ChooseFile(node, param) => {
                let graph = &self.session.doc().graph;
                let extensions = graph
                    .node(node)
                    .and_then(|n| n.kind())
                    .and_then(|k| k.params().iter().find(|p| p.name == param))
                    .map(|p| match p.kind {
                        tuft_graph::node::ParamKind::File { extensions } => {
                            extensions.iter().map(|e| (*e).to_owned()).collect()
                        }
                        _ => Vec::new(),
                    })
                    .unwrap_or_default();
                let folder = graph.folder.get().map(std::path::Path::to_owned);
                self.choose(Purpose::File {
                    node,
                    param,
                    extensions,
                    folder,
                });
            }
            Command::Export => self.exporter.open_dialog(),
            Command::RenderImage => self.image_render.open_dialog(),
            Command::About => self.about = true,
            Command::Help => self.help = true,
        }
    }

    /// Carries out `commands` in order.
    pub fn run_all(&mut self, ctx: &egui::Context, commands: Vec<Command>) {
        for c in commands {
            self.run(ctx, c);
        }
    }

    /// Collapses `nodes` into a group (one undoable edit); a refusal is reported.
    pub fn group(&mut self, nodes: &[NodeId]) -> Option<u32> {
        let mut made = None;
        let name = format!("Group {}", self.session.doc().groups.len() + 1);
        self.edit(None, |d| made = Some(d.make_group(nodes, &name)));
        match made {
            Some(Ok(id)) => {
                self.graph.clear_selection();
                self.message = Some((
                    format!("Grouped {} as “{name}”", counted(nodes.len(), "node")),
                    false,
                ));
                Some(id)
            }
            Some(Err(e)) => {
                self.message = Some((format!("Not grouped: {e}"), true));
                None
            }
            None => None,
        }
    }

    /// Says on the status bar that `verb` took `nodes` (unless the edit was refused and
    /// said why).
    fn took(&mut self, verb: &str, nodes: &[NodeId]) {
        if !self.message.as_ref().is_some_and(|(_, failed)| *failed) {
            self.message = Some((format!("{verb} {}", counted(nodes.len(), "node")), false));
        }
    }

    /// Dissolves group `g` (one undoable edit).
    pub fn ungroup(&mut self, g: u32) {
        if self.graph.open_group() == Some(g) {
            self.graph.set_open_group(None);
        }
        self.edit(None, |d| {
            d.ungroup(g);
        });
    }

    /// Adds a frame around the selection, or in the middle of the view.
    fn add_frame(&mut self, ctx: &egui::Context) {
        let selection = self.selection(ctx);
        let level = self.graph.open_group();
        let around: Vec<egui::Rect> = selection
            .iter()
            .filter_map(|id| {
                let p = self.session.doc().layout.get(id)?;
                Some(egui::Rect::from_min_size(
                    egui::pos2(p[0], p[1]),
                    crate::graph_view::footprint_of(&ViewNode::Node(*id), self.session.doc()),
                ))
            })
            .collect();
        let rect = around.into_iter().reduce(egui::Rect::union).map_or_else(
            || egui::Rect::from_center_size(self.graph.centre, egui::vec2(420.0, 300.0)),
            |r| r.expand2(egui::vec2(30.0, 30.0)).with_min_y(r.min.y - 70.0),
        );
        self.edit(None, |d| {
            d.frames.push(Frame {
                title: "Frame".to_owned(),
                pos: [rect.min.x, rect.min.y],
                size: [rect.width(), rect.height()],
                group: level,
            });
        });
        self.took("Framed", &selection);
    }

    /// Applies one edit (merged with the previous one when both carry the same `key`:
    /// a drag is one undo step).
    pub(super) fn edit(&mut self, key: Option<String>, change: impl FnOnce(&mut Document)) {
        let done = if key.is_some() && key == self.last_edit && self.session.can_undo() {
            self.session.edit_merged(change)
        } else {
            self.session.edit(change)
        };
        if let Err(why) = done {
            self.message = Some((why, true));
        }
        self.last_edit = key;
        self.after_change();
    }

    /// Adds a node of `kind` at graph position `pos` and selects it; returns its id.
    pub fn add_node_at(&mut self, kind: &str, pos: [f32; 2]) -> Option<NodeId> {
        self.place(kind, pos, None)
    }

    /// Adds a node of `kind` at `pos` wired to a dropped `wire`, in one edit (one undo
    /// step), and selects it; returns its id.
    pub fn add_wired(
        &mut self,
        kind: &str,
        pos: [f32; 2],
        wire: &crate::command::Wire,
    ) -> Option<NodeId> {
        self.place(kind, pos, Some(wire))
    }

    /// Adds a node of `kind` at the centre of the view (the nearest free place, in view
    /// where there is room) and selects it; returns its id. The view stays where it is
    /// unless no room is left in it.
    /// Regression: each add framed the new node, panning the outputs off-screen.
    pub fn add_node(&mut self, kind: &str) -> Option<NodeId> {
        let size = egui::vec2(crate::graph_view::NODE_WIDTH, 200.0);
        let around = self.graph.centre - size / 2.0;
        let added = self.place(kind, [around.x, around.y], None);
        if let Some(id) = added
            && let Some(p) = self.session.doc().layout.get(&id)
            && !self
                .graph
                .visible()
                .contains_rect(egui::Rect::from_min_size(egui::pos2(p[0], p[1]), size))
        {
            self.graph.frame(vec![ViewNode::Node(id)]);
        }
        added
    }

    /// The one path that adds a node: at `pos`, or the nearest place free of other nodes
    /// (in view where there is room), taking up `wire` if one was dropped, in one edit;
    /// the new node is selected.
    /// Regression: a node added by dropping a wire landed on a ColorRamp.
    pub(super) fn place(
        &mut self,
        kind: &str,
        pos: [f32; 2],
        wire: Option<&crate::command::Wire>,
    ) -> Option<NodeId> {
        let mut added = None;
        let open = self.graph.open_group();
        let taken = self.graph.footprints();
        let view = self.graph.visible();
        self.edit(None, |d| {
            let Some(id) = d.graph.add_node(kind) else {
                return;
            };
            let size = crate::graph_view::footprint_of(&ViewNode::Node(id), d);
            let at =
                crate::graph_view::free_spot(&taken, egui::pos2(pos[0], pos[1]), size, Some(view));
            d.layout.insert(id, [at.x, at.y]);
            join_group(d, open, &[id]);
            name_parameters_apart(&mut d.graph, &[id]);
            if let Some(w) = wire {
                // The menu offered only kinds with a port that fits the wire.
                let _ = w.join(&mut d.graph, id);
            }
            added = Some(id);
        });
        if added.is_some() {
            self.selected = added;
        }
        added
    }

    /// Connects `from` to `to` as the graph view does: refused with its reason when the
    /// types differ or the link would close a cycle.
    pub fn connect(&mut self, from: tuft_graph::OutRef, to: &InRef) -> bool {
        if let Err(e) = self.session.doc().graph.check_connect(&from, to) {
            self.graph.refusal = Some(format!("Refused: {e}"));
            return false;
        }
        self.graph.refusal = None;
        self.edit(None, |d| {
            let _ = d.graph.connect(from, to);
        });
        true
    }

    /// Sets an unlinked input's constant (one undo step per input while dragging).
    pub fn set_constant(&mut self, to: &InRef, value: tuft_graph::value::Value) {
        let key = format!("const {to:?}");
        self.edit(Some(key), |d| d.graph.set_input(to, Input::Const(value)));
    }

    /// Sets a node's parameter (one undo step per parameter while dragging).
    pub fn set_param(&mut self, node: NodeId, name: &str, value: ParamValue) {
        let key = format!("param {} {name}", node.0);
        self.edit(Some(key), |d| {
            if let Some(n) = d.graph.node_mut(node) {
                n.params.insert(name.to_owned(), value);
            }
        });
    }

    /// Deletes nodes.
    pub fn delete(&mut self, nodes: &[NodeId]) {
        self.edit(None, |d| {
            for id in nodes {
                d.graph.remove_node(*id);
                d.layout.remove(id);
            }
        });
    }

    /// Duplicates nodes (their links to other nodes kept) a little below and to the
    /// right of themselves, selecting the first copy.
    pub fn duplicate(&mut self, nodes: &[NodeId]) {
        let clip = self.clip(nodes);
        self.paste_clip(&clip, [40.0, 40.0], "Duplicated");
    }

    /// The nodes `nodes` as a clip that knows it came from this document.
    pub(super) fn clip(&self, nodes: &[NodeId]) -> Clip {
        Clip {
            from: Some(self.session.token()),
            ..self.session.doc().clip(nodes)
        }
    }

    /// Puts `nodes` on the system clipboard as text.
    fn copy(&self, ctx: &egui::Context, nodes: &[NodeId]) {
        if let Ok(text) = ron::to_string(&self.clip(nodes)) {
            ctx.copy_text(text);
        }
    }

    /// Pastes `clip` with its top left corner at the pointer when the pointer is over the
    /// canvas, else at the middle of the view: where the author is looking, whichever
    /// document (and whichever part of it) the nodes came from.
    fn paste(&mut self, ctx: &egui::Context, clip: &Clip) {
        let target = ctx
            .pointer_hover_pos()
            .filter(|p| self.graph.canvas_contains(*p))
            .map_or(self.graph.centre, |p| self.graph.to_graph(p));
        let corner = clip
            .layout
            .iter()
            .map(|(_, p)| *p)
            .reduce(|a, b| [a[0].min(b[0]), a[1].min(b[1])])
            .unwrap_or_default();
        self.paste_clip(clip, [target.x - corner[0], target.y - corner[1]], "Pasted");
    }

    fn paste_clip(&mut self, clip: &Clip, offset: [f32; 2], verb: &str) {
        let mut pasted = None;
        let open = self.graph.open_group();
        let same = clip.from == Some(self.session.token());
        let taken = self.graph.footprints();
        let view = self.graph.visible();
        self.edit(None, |d| {
            let p = d.paste(clip, offset, same);
            if let Ok(p) = &p {
                join_group(d, open, &p.added);
                name_parameters_apart(&mut d.graph, &p.added);
                move_apart(d, &p.added, &taken, view);
            }
            pasted = Some(p);
        });
        let pasted = match pasted {
            Some(Ok(p)) => p,
            Some(Err(e)) => {
                self.message = Some((format!("Not pasted: {e}"), true));
                return;
            }
            None => return,
        };
        if let Some(first) = pasted.added.first() {
            if self.session.doc().graph.node(*first).is_none() {
                return; // refused by the limits: the edit said why
            }
            self.selected = Some(*first);
        }
        self.message = Some(match shortfall(&pasted) {
            Some(said) => (format!("{verb} {said}"), true),
            None => (
                format!("{verb} {}", counted(pasted.added.len(), "node")),
                false,
            ),
        });
    }

    /// Undoes the last edit.
    pub fn undo(&mut self) {
        self.session.undo();
        self.last_edit = None;
        self.after_change();
    }

    /// Redoes the last undone edit.
    pub fn redo(&mut self) {
        self.session.redo();
        self.last_edit = None;
        self.after_change();
    }
}

/// Gives each Parameter among `added` whose name another Parameter already has the
/// first free one of its name and a number (`amount 2`): each is a slider
/// labelled by its name in the preview, and two alike could not be told apart.
fn name_parameters_apart(graph: &mut tuft_graph::MaterialGraph, added: &[NodeId]) {
    for &id in added {
        let Some(node) = graph.node(id).filter(|n| n.kind == "Parameter") else {
            continue;
        };
        let name = node.params().text("name").to_owned();
        let taken = |graph: &tuft_graph::MaterialGraph, candidate: &str| {
            graph.nodes.iter().any(|n| {
                n.id != id && n.kind == "Parameter" && n.params().text("name") == candidate
            })
        };
        if !taken(graph, &name) {
            continue;
        }
        // A copy of `amount 2` is `amount 3`, not `amount 2 2`.
        let stem = match name.rsplit_once(' ') {
            Some((stem, k)) if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) => stem,
            _ => name.as_str(),
        };
        let free = (2u32..)
            .map(|k| format!("{stem} {k}"))
            .find(|candidate| !taken(graph, candidate))
            .expect("a graph holds fewer Parameters than numbers");
        if let Some(n) = graph.node_mut(id) {
            n.params.insert("name".to_owned(), ParamValue::Text(free));
        }
    }
}

/// What a paste left behind, for the status line (after its verb).
fn shortfall(pasted: &Pasted) -> Option<String> {
    let mut parts = Vec::new();
    if pasted.unknown > 0 {
        parts.push(format!(
            "{} of a kind this version does not know left out",
            counted(pasted.unknown, "node")
        ));
    }
    if let Some(first) = pasted.unlinked.first() {
        let more = pasted.unlinked.len() - 1;
        parts.push(if more == 0 {
            format!("{first} lost its link (its source is not in this graph)")
        } else {
            format!(
                "{first} and {} lost their links (their sources are not in this graph)",
                counted(more, "other input")
            )
        });
    }
    (!parts.is_empty()).then(|| {
        format!(
            "{}; {}",
            counted(pasted.added.len(), "node"),
            parts.join("; ")
        )
    })
}

/// Moves the nodes `added` together, as a block, to the nearest place where none stands
/// on any of `taken` (a duplicate lands beside its original, not on it).
fn move_apart(d: &mut Document, added: &[NodeId], taken: &[egui::Rect], view: egui::Rect) {
    let block = added
        .iter()
        .filter_map(|id| {
            let p = d.layout.get(id)?;
            Some(egui::Rect::from_min_size(
                egui::pos2(p[0], p[1]),
                crate::graph_view::footprint_of(&ViewNode::Node(*id), d),
            ))
        })
        .reduce(egui::Rect::union);
    let Some(block) = block else {
        return;
    };
    let to = crate::graph_view::free_spot(taken, block.min, block.size(), Some(view));
    let by = to - block.min;
    for id in added {
        if let Some(p) = d.layout.get_mut(id) {
            *p = [p[0] + by.x, p[1] + by.y];
        }
    }
}

/// Nodes added while a group is open are added inside it.
fn join_group(d: &mut Document, open: Option<u32>, nodes: &[NodeId]) {
    if let Some(g) = open.and_then(|g| d.groups.iter_mut().find(|x| x.id == g)) {
        g.members.extend(nodes.iter().copied());
    }
}
