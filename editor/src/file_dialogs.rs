//! File dialogs off the UI thread: the system's dialog (rfd's asynchronous one) runs on a
//! worker while the window keeps drawing, and its answer is picked up on a later frame.
//! Where no dialog can be shown (no desktop portal and no zenity on Linux) the editor
//! says so and asks for the path in its own window instead.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// What a file is chosen for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A graph file to open.
    Open,
    /// Where to save the graph, suggesting this file name.
    SaveAs(String),
    /// The folder a baked set goes to.
    Export,
    /// A baked set's folder to show.
    OpenBaked,
    /// A mesh to preview on.
    Mesh,
    /// The PNG file a rendered image goes to, suggesting this file name.
    Image(String),
    /// The file parameter `param` of node `node` names, of one of these types,
    /// starting in this folder.
    File {
        /// The node.
        node: tuft_graph::NodeId,
        /// Its parameter.
        param: String,
        /// The file types offered.
        extensions: Vec<String>,
        /// Where the dialog starts (the graph file's folder).
        folder: Option<PathBuf>,
    },
}

impl Purpose {
    /// What the dialog is for, in words (titles and messages).
    #[must_use]
    pub fn title(&self) -> &'static str {
        match self {
            Self::Open => "Open a graph",
            Self::SaveAs(_) => "Save the graph as",
            Self::Export => "Export the baked set to a folder",
            Self::OpenBaked => "Open a baked set's folder",
            Self::Mesh => "Choose a mesh to preview on",
            Self::Image(_) => "Render the image to",
            Self::File { .. } => "Choose a file",
        }
    }
}

/// How files are chosen.
#[derive(Clone, Debug, PartialEq)]
pub enum Dialogs {
    /// The system's file dialog.
    System,
    /// None can be shown, for this reason: the editor asks for a path itself.
    Unavailable(String),
    /// Every dialog answers this at once, from its worker (scripted runs and tests of
    /// the asynchronous path).
    Answer(Option<PathBuf>),
}

impl Dialogs {
    /// The system's dialog where one can be shown here.
    #[must_use]
    pub fn probe() -> Self {
        if cfg!(target_os = "linux")
            && std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none()
            && !on_path("zenity")
        {
            return Self::Unavailable(
                "no file dialog can be shown here (no desktop portal on a D-Bus session \
                 and no zenity)"
                    .to_owned(),
            );
        }
        Self::System
    }

    /// Starts choosing a file for `purpose` on a worker thread; `Err` says why no dialog
    /// can be shown.
    ///
    /// # Errors
    /// [`Dialogs::Unavailable`]'s reason.
    pub fn ask(&self, purpose: Purpose) -> Result<Asking, String> {
        let (tx, rx) = channel();
        let answer = match self {
            Self::Unavailable(why) => return Err(why.clone()),
            Self::Answer(a) => Some(a.clone()),
            Self::System => None,
        };
        let p = purpose.clone();
        crate::workers::spawn("tuft file dialog", move || {
            let chosen = match answer {
                Some(a) => a,
                None => pollster::block_on(system_dialog(&p)),
            };
            let _ = tx.send(chosen);
        });
        Ok(Asking { purpose, rx })
    }
}

/// The system's dialog for `purpose`; `None` when cancelled.
async fn system_dialog(purpose: &Purpose) -> Option<PathBuf> {
    let dialog = rfd::AsyncFileDialog::new().set_title(purpose.title());
    let handle = match purpose {
        Purpose::Open => dialog.add_filter("Tuft graph", &["ron"]).pick_file().await,
        Purpose::SaveAs(name) | Purpose::Image(name) => {
            let (kind, extension) = match purpose {
                Purpose::Image(_) => ("PNG image", "png"),
                _ => ("Tuft graph", "ron"),
            };
            dialog
                .add_filter(kind, &[extension])
                .set_file_name(name)
                .save_file()
                .await
        }
        Purpose::Export | Purpose::OpenBaked => dialog.pick_folder().await,
        Purpose::Mesh => {
            dialog
                .add_filter("Mesh", &tuft_render::mesh_file::EXTENSIONS)
                .pick_file()
                .await
        }
        Purpose::File {
            extensions, folder, ..
        } => {
            let mut dialog = dialog.add_filter("Image", extensions);
            if let Some(f) = folder {
                dialog = dialog.set_directory(f);
            }
            dialog.pick_file().await
        }
    };
    handle.map(|h| h.path().to_owned())
}

/// Whether an executable called `name` is on the `PATH`.
fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(name).is_file()))
}

/// A dialog that is open on its worker.
#[derive(Debug)]
pub struct Asking {
    purpose: Purpose,
    rx: Receiver<Option<PathBuf>>,
}

impl Asking {
    /// What it is for.
    #[must_use]
    pub fn purpose(&self) -> &Purpose {
        &self.purpose
    }

    /// The answer once there is one: `Some(None)` when cancelled (or the worker is gone),
    /// `None` while the dialog is still open.
    #[must_use]
    pub fn answer(&self) -> Option<Option<PathBuf>> {
        match self.rx.try_recv() {
            Ok(chosen) => Some(chosen),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(None),
        }
    }

    /// Waits for the answer (tests).
    #[must_use]
    pub fn wait(&self) -> Option<PathBuf> {
        self.rx.recv().ok().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unavailable_dialog_says_why_and_a_scripted_one_answers_from_its_worker() {
        let none = Dialogs::Unavailable("no portal".into());
        assert_eq!(none.ask(Purpose::Open).unwrap_err(), "no portal");
        let path = PathBuf::from("/tmp/x.ron");
        let asking = Dialogs::Answer(Some(path.clone()))
            .ask(Purpose::Export)
            .unwrap();
        assert_eq!(asking.purpose(), &Purpose::Export);
        assert_eq!(asking.wait(), Some(path));
    }
}
