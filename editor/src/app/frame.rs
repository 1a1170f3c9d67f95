//! One frame of the editor window, step by step: what the workers finished, what was
//! dropped on the window, the window's own requests (close, title, shortcuts), the
//! panels, the commands the frame asked for, the windows over them, and the frame's
//! timings. `Editor::ui` is the list of these steps.

use super::{Editor, MESSAGE_SECONDS, Pending, widgets};
use crate::command::Command;
use eframe::egui;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How long a press may last and still be a click, as a hand makes one (egui's own
/// figure).
pub const CLICK_SECONDS: f64 = 0.8;

/// Frame times kept for the status bar's figures.
const FRAME_TIMES_KEPT: usize = 120;

/// Frame intervals kept for the status bar's figures.
const INTERVALS_KEPT: usize = 60;

/// Keeps a click a click when frames are slow: egui stamps a press and its release with
/// the times of the frames that saw them, and calls a press longer than 0.8 s a long
/// press, not a click. With slow frames the stamps lag the hand by up to a frame each, so
/// the limit is the hand's 0.8 s plus two frame intervals (frames of a second under a
/// heavy preview otherwise lost every click whose press and release fell in different
/// frames: `a_click_spread_over_slow_frames_still_clicks` fails without this).
pub(super) fn keep_slow_clicks(ctx: &egui::Context) {
    let interval = f64::from(ctx.input(|i| i.unstable_dt)).clamp(0.0, 5.0);
    ctx.options_mut(|o| o.input_options.max_click_duration = CLICK_SECONDS + 2.0 * interval);
}

impl Editor {
    /// Takes what the preview, the thumbnails, the picture readers and the mesh reader
    /// finished, and asks for frames while any of them is still at work.
    pub(super) fn poll_workers(&mut self, ctx: &egui::Context) {
        if self.preview.poll() {
            ctx.request_repaint();
        }
        self.request_thumbnails_when_due();
        self.thumbs.poll(ctx);
        self.validate_after_reads(ctx);
        self.poll_mesh(ctx);
        if self.preview.building.is_some() || self.thumbs.shown < self.session.generation() {
            ctx.request_repaint_after(Duration::from_millis(50));
        }
    }

    /// Files dropped on the window: a mesh becomes the preview's surface; otherwise a
    /// `.ron` file opens, or a folder opens as a baked set.
    pub(super) fn take_dropped_files(&mut self, ctx: &egui::Context) {
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_owned())
                .collect()
        });
        if let Some(path) = dropped
            .iter()
            .find(|p| tuft_render::mesh_file::is_mesh_file(p))
        {
            self.use_mesh(path, None);
        } else if let Some(path) = dropped
            .into_iter()
            .find(|p| p.is_dir() || p.extension().is_some_and(|e| e == "ron"))
        {
            self.queue.push(Command::OpenPath(path));
        }
    }

    /// The window's own requests: closing with unsaved work asks first; the keyboard
    /// shortcuts; the title follows the document.
    pub(super) fn follow_window(&mut self, ctx: &egui::Context) {
        if ctx.input(|i| i.viewport().close_requested())
            && self.session.is_dirty()
            && self.pending.is_none()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.pending = Some(Pending::Quit);
        }
        self.shortcuts(ctx);
        let title = self.window_title();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    /// The menu and status bars, the diagnostics and the library (not while a baked set
    /// is shown), and the side panel: the inspector under the preview.
    pub(super) fn panels(&mut self, ui: &mut egui::Ui, viewing: bool) {
        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_bar(ui));
        if !viewing {
            egui::Panel::bottom("diagnostics")
                .resizable(true)
                .default_size(120.0)
                .show(ui, |ui| self.diagnostics(ui));
            egui::Panel::left("library")
                .resizable(true)
                .default_size(220.0)
                .show(ui, |ui| self.library(ui));
        }
        egui::Panel::right("side")
            .resizable(true)
            .default_size(520.0)
            .show(ui, |ui| {
                egui::Panel::bottom("inspector")
                    .resizable(true)
                    .default_size(340.0)
                    .min_size(220.0)
                    .show(ui, |ui| {
                        egui::ScrollArea::vertical()
                            .id_salt("inspector")
                            .show(ui, |ui| {
                                if viewing {
                                    ui.label("A baked set is read-only: nothing to inspect.");
                                } else {
                                    self.inspector(ui);
                                }
                            });
                    });
                egui::CentralPanel::default().show(ui, |ui| self.preview_panel(ui));
            });
        // A number typed outside its range was refused: said, with the range.
        if let Some(said) = widgets::take_refusal(ui.ctx()) {
            self.message = Some((said, true));
        }
    }

    /// The middle of the window: the baked set's panel while one is shown, else the node
    /// graph; the commands it asked for.
    pub(super) fn central(&mut self, ui: &mut egui::Ui, viewing: bool) -> Vec<Command> {
        let mut commands = Vec::new();
        egui::CentralPanel::default().show(ui, |ui| {
            if viewing {
                if self.baked.ui(ui, &self.preview) {
                    self.queue.push(Command::CloseBaked);
                }
                return;
            }
            self.graph.library = self.library.clone();
            commands = self.graph.show(
                ui,
                self.session.doc(),
                self.session.generation(),
                &self.report,
                self.thumbs.textures(),
                self.selected,
            );
        });
        commands
    }

    /// Where nodes and groups were dragged to, into the document before any command
    /// moves them further.
    pub(super) fn follow_drags(&mut self, viewing: bool) {
        for (id, pos) in self.graph.positions().into_iter().filter(|_| !viewing) {
            match self.session.doc().layout.get(&id) {
                Some(at) if *at == pos => {}
                Some(_) => self.session.set_position(id, pos),
                None => self.session.place_unplaced(id, pos),
            }
        }
        for (g, pos) in self.graph.group_positions() {
            if self.session.doc().group(g).is_some_and(|x| x.pos != pos) {
                self.session.arrange(|d| {
                    if let Some(group) = d.groups.iter_mut().find(|x| x.id == g) {
                        group.pos = pos;
                    }
                });
            }
        }
    }

    /// Runs the frame's `commands` and those queued outside the graph (menus, panels,
    /// dropped files), in that order.
    pub(super) fn carry_out(&mut self, ctx: &egui::Context, mut commands: Vec<Command>) {
        commands.append(&mut self.queue);
        if !commands.is_empty() {
            ctx.request_repaint();
            // What was said of the last action goes with the next one.
            self.message = None;
        }
        self.run_all(ctx, commands);
    }

    /// The windows over the panels: file dialogs and their questions, the path prompt,
    /// About, Help, the export and the recovery offer.
    pub(super) fn windows(&mut self, ctx: &egui::Context) {
        self.poll_dialog();
        self.dialogs(ctx);
        self.path_prompt_window(ctx);
        self.about_window(ctx);
        self.help_window(ctx);
        self.export_window(ctx);
        self.image_render_window(ctx);
        self.recovery_window(ctx);
    }

    /// Keeps this frame's time on the UI thread (since `start`), and the interval since
    /// the last frame where frames come back to back.
    pub(super) fn time_frame(&mut self, ctx: &egui::Context, start: Instant) {
        self.frame_ms.push(start.elapsed().as_secs_f32() * 1e3);
        if self.frame_ms.len() > FRAME_TIMES_KEPT {
            self.frame_ms.remove(0);
        }
        // Only frames drawn back to back measure the drawing: after an idle spell the
        // interval is the author's pause, not a frame (it read 1.5 s on a still window).
        // Back to back: the last frame asked for this one (wind, walking, a landing),
        // or a button is held (an orbit or a drag sends input as fast as it is drawn).
        if ctx.requested_repaint_last_pass() || ctx.input(|i| i.pointer.any_down()) {
            self.interval_ms.push(ctx.input(|i| i.unstable_dt) * 1e3);
            if self.interval_ms.len() > INTERVALS_KEPT {
                self.interval_ms.remove(0);
            }
        }
    }

    /// Asks for thumbnails of the current document once the preview is not rebuilding:
    /// the preview is what an author watches after an edit, so it gets the cores first.
    pub(super) fn request_thumbnails_when_due(&mut self) {
        let generation = self.session.generation();
        if self.thumbs_requested < generation && self.preview.building.is_none() {
            self.thumbs.request(generation, &self.session.doc().graph);
            self.thumbs_requested = generation;
        }
    }

    /// Lets the status bar's message go once it has stood [`MESSAGE_SECONDS`] (a failure
    /// three times as long), asking for the frame that clears it.
    pub(super) fn expire_message(&mut self, ctx: &egui::Context) {
        let Some((text, failure)) = &self.message else {
            self.message_since = None;
            return;
        };
        let revision = self.session.revision();
        let (since, at_revision) = match &self.message_since {
            Some((said, at, seen)) if said == text => (*at, *seen),
            _ => {
                let now = Instant::now();
                self.message_since = Some((text.clone(), now, revision));
                (now, revision)
            }
        };
        // A later edit is the next action, wherever it came from (the library, a drag).
        let edited_since = revision != at_revision;
        let lasts = MESSAGE_SECONDS * if *failure { 3 } else { 1 };
        match lasts.checked_sub(since.elapsed()) {
            Some(left) if !left.is_zero() && !edited_since => ctx.request_repaint_after(left),
            _ => {
                self.message = None;
                self.message_since = None;
                ctx.request_repaint();
            }
        }
    }

    /// Validates again once a picture that was being read is there; asks for a frame
    /// while one is being read.
    pub(super) fn validate_after_reads(&mut self, ctx: &egui::Context) {
        if tuft_graph::images::reads_finished() != self.pictures_read {
            self.validate();
            ctx.request_repaint();
        } else if tuft_graph::images::reading() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
    }
}
