//! Autosave, one per editor window and document.
//!
//! Every window keeps its unsaved work in a slot of its own in the autosave folder: a
//! RON record (the document and the file it belongs to) beside a lock file the window
//! holds locked (`flock`) for as long as it owns the slot. A lock dies with its window,
//! whether it quits or is killed, so an autosave whose lock can be taken is an orphan:
//! the work of a window that is gone. A window starting up takes every orphan's lock
//! before offering it, so two windows never offer (or write) the same slot, and a
//! recovered document goes back to the file it came from and no other.

mod writer;

pub use writer::{Snapshot, Writer};

use serde::{Deserialize, Serialize};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};
use tuft_graph::Document;

/// What an autosave file holds.
#[derive(Serialize, Deserialize)]
struct Record {
    /// The file the document belongs to, absolute and canonical; `None` for a document
    /// never saved. (Autosaves of older builds may hold a relative path.)
    source: Option<PathBuf>,
    /// What that file held when the window last opened or saved it
    /// ([`crate::session::fingerprint`]); none in autosaves of older builds.
    #[serde(default)]
    on_disk: Option<u64>,
    document: Document,
}

/// The autosave folder.
#[derive(Clone, Debug)]
pub struct Autosaves {
    dir: PathBuf,
}

/// A slot this window owns: its autosave file, and the lock that says so.
#[derive(Debug)]
pub struct Slot {
    record: PathBuf,
    lock_path: PathBuf,
    /// Held locked while the slot is ours; closing it (or dying) lets go.
    _lock: File,
}

/// An autosave left by a window that is gone, now held by this one.
#[derive(Debug)]
pub struct Orphan {
    /// The file its document belongs to (`None`: never saved).
    pub source: Option<PathBuf>,
    /// What that file held when the work's window last opened or saved it.
    pub on_disk: Option<u64>,
    /// The unsaved work.
    pub document: Document,
    /// When it was last written, where the file system says.
    pub saved: Option<SystemTime>,
    /// Its slot, taken over.
    pub slot: Slot,
}

impl Orphan {
    /// A name for the autosave in a sentence: its file's name, or the material's.
    #[must_use]
    pub fn label(&self) -> String {
        match &self.source {
            Some(p) => p.display().to_string(),
            None => format!("“{}” (never saved)", self.document.graph.name),
        }
    }

    /// What tells two autosaves of one material apart: its size and when it was last
    /// written, as of `now` ("26 nodes, autosaved 3 h ago").
    #[must_use]
    pub fn details(&self, now: SystemTime) -> String {
        let graph = &self.document.graph;
        let mut size = crate::words::counted(graph.nodes.len(), "node");
        if !graph.strands.is_empty() {
            size += &format!(
                ", {}",
                crate::words::counted(graph.strands.len(), "strand layer")
            );
        }
        match self.saved.and_then(|t| now.duration_since(t).ok()) {
            Some(elapsed) => format!("{size}, autosaved {}", ago(elapsed)),
            None => size,
        }
    }
}

/// A time gone by, as a person says it: "just now", "4 min ago", "3 h ago", "2 days ago".
fn ago(elapsed: Duration) -> String {
    let s = elapsed.as_secs();
    match s {
        0..60 => "just now".to_owned(),
        60..3_600 => format!("{} min ago", s / 60),
        3_600..86_400 => format!("{} h ago", s / 3_600),
        86_400..172_800 => "a day ago".to_owned(),
        _ => format!("{} days ago", s / 86_400),
    }
}

/// A stable name for the slot of a document at `source`.
fn key(source: Option<&Path>) -> String {
    let Some(path) = source else {
        return "untitled".to_owned();
    };
    let path = crate::session::canonical(path);
    let h = crate::session::fnv1a(path.as_os_str().as_encoded_bytes().iter().copied());
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .take(40)
        .collect();
    format!("{stem}-{h:016x}")
}

/// Writes a record of `document` into `record`, atomically.
fn write_record(
    record: &Path,
    source: Option<&Path>,
    on_disk: Option<u64>,
    document: &Document,
) -> anyhow::Result<()> {
    let record_value = Record {
        source: source.map(Path::to_owned),
        on_disk,
        document: document.clone(),
    };
    let text = ron::ser::to_string_pretty(&record_value, ron::ser::PrettyConfig::new())?;
    tuft_graph::io::write_atomic(record, text.as_bytes())?;
    Ok(())
}

/// Takes an exclusive lock on `file` without waiting; `false` when another holder has it.
fn try_lock(file: &File) -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd as _;
        // SAFETY: `flock` on a descriptor this `File` owns; it touches no memory.
        #[allow(unsafe_code)]
        let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        r == 0
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        true
    }
}

impl Autosaves {
    /// The autosave folder at `dir` (made when first written).
    #[must_use]
    pub fn new(dir: PathBuf) -> Self {
        Self { dir }
    }

    /// The slot named `name`, if no one else holds it.
    fn take(&self, name: &str) -> std::io::Result<Option<Slot>> {
        std::fs::create_dir_all(&self.dir)?;
        let lock_path = self.dir.join(format!("{name}.lock"));
        let lock = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)?;
        Ok(try_lock(&lock).then(|| Slot {
            record: self.dir.join(format!("{name}.ron")),
            lock_path,
            _lock: lock,
        }))
    }

    /// A slot for the document at `source`: its own name, or the first free variant of
    /// it when another window holds that (the same file open twice).
    ///
    /// # Errors
    /// When the folder or the lock file cannot be written.
    pub fn claim(&self, source: Option<&Path>) -> std::io::Result<Slot> {
        let base = key(source);
        for n in 0..1000 {
            let name = if n == 0 {
                base.clone()
            } else {
                format!("{base}.{n}")
            };
            let Some(slot) = self.take(&name)? else {
                continue; // another window's
            };
            if slot.record.exists() {
                continue; // an orphan, left to be offered
            }
            return Ok(slot);
        }
        Err(std::io::Error::other("no free autosave slot"))
    }

    /// Every autosave no live window holds, taken over by this one (so no other window
    /// offers it too), and a line for each record that cannot be read ("path: why"),
    /// left where it is.
    #[must_use]
    pub fn orphans(&self) -> (Vec<Orphan>, Vec<String>) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return (Vec::new(), Vec::new());
        };
        let mut names: Vec<String> = entries
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                name.strip_suffix(".ron").map(str::to_owned)
            })
            .collect();
        names.sort();
        let mut found = Vec::new();
        let mut unreadable = Vec::new();
        for name in names {
            let Ok(Some(slot)) = self.take(&name) else {
                continue;
            };
            let record = tuft_strands::read::read_text(
                &slot.record,
                tuft_graph::io::MAX_FILE_BYTES,
                "autosave",
            )
            .map_err(|e| e.reason())
            .and_then(|text| ron::from_str::<Record>(&text).map_err(|e| e.to_string()));
            let mut record = match record {
                Ok(record) => record,
                Err(why) => {
                    unreadable.push(format!("{}: {why}", slot.record.display()));
                    continue;
                }
            };
            let saved = std::fs::metadata(&slot.record)
                .and_then(|m| m.modified())
                .ok();
            // The paths a graph holds are relative to its own file, not to the autosave.
            record.document.graph.folder =
                tuft_graph::io::Folder(record.source.as_deref().map(tuft_graph::io::folder_of));
            found.push(Orphan {
                source: record.source,
                on_disk: record.on_disk,
                document: record.document,
                saved,
                slot,
            });
        }
        // The latest work first; unknown times last.
        found.sort_by_key(|o| std::cmp::Reverse(o.saved));
        // Two windows killed on the same work leave two records that say the same: the
        // newest is offered, the copies go (nothing is lost with them).
        let mut offered: Vec<Orphan> = Vec::with_capacity(found.len());
        for orphan in found {
            if offered
                .iter()
                .any(|o| o.source == orphan.source && o.document == orphan.document)
            {
                orphan.slot.release();
            } else {
                offered.push(orphan);
            }
        }
        (offered, unreadable)
    }
}

impl Slot {
    /// Writes `document` (belonging to `source`, which held `on_disk` when last opened
    /// or saved) into the slot, atomically.
    ///
    /// # Errors
    /// When the record cannot be encoded or written.
    pub fn write(
        &self,
        source: Option<&Path>,
        on_disk: Option<u64>,
        document: &Document,
    ) -> anyhow::Result<()> {
        write_record(&self.record, source, on_disk, document)
    }

    /// The record's file.
    #[must_use]
    pub fn record(&self) -> &Path {
        &self.record
    }

    /// Forgets the unsaved work (after a save, or when it was declined); the slot
    /// stays this window's.
    pub fn clear(&self) {
        let _ = std::fs::remove_file(&self.record);
    }

    /// Whether the slot holds unsaved work.
    #[must_use]
    pub fn has_record(&self) -> bool {
        self.record.exists()
    }

    /// Gives the slot up with nothing in it: the record and the lock file go.
    pub fn release(self) {
        self.clear();
        let _ = std::fs::remove_file(&self.lock_path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tuft_graph::MaterialGraph;

    fn doc(name: &str) -> Document {
        Document::new(MaterialGraph::new(name))
    }

    #[test]
    fn two_windows_on_two_files_keep_two_slots_and_each_is_offered_for_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let saves = Autosaves::new(dir.path().join("autosave"));
        let (a, b) = (dir.path().join("lawn.ron"), dir.path().join("fur.ron"));
        let slot_a = saves.claim(Some(&a)).unwrap();
        let slot_b = saves.claim(Some(&b)).unwrap();
        slot_a.write(Some(&a), None, &doc("lawn edited")).unwrap();
        slot_b.write(Some(&b), None, &doc("fur edited")).unwrap();
        // While both windows live, nothing is an orphan.
        assert!(saves.orphans().0.is_empty());
        // Both die.
        drop((slot_a, slot_b));
        let (orphans, _) = saves.orphans();
        assert_eq!(orphans.len(), 2);
        for o in &orphans {
            let name = &o.document.graph.name;
            match o.source.as_deref() {
                Some(p) if p == a => assert_eq!(name, "lawn edited"),
                Some(p) if p == b => assert_eq!(name, "fur edited"),
                other => panic!("{other:?}"),
            }
        }
        // A second window starting now finds them taken by the first.
        assert!(saves.orphans().0.is_empty());
    }

    #[test]
    fn the_same_file_open_twice_gets_two_slots() {
        let dir = tempfile::tempdir().unwrap();
        let saves = Autosaves::new(dir.path().to_owned());
        let path = dir.path().join("moss.ron");
        let one = saves.claim(Some(&path)).unwrap();
        let two = saves.claim(Some(&path)).unwrap();
        assert_ne!(one.record, two.record);
        one.write(Some(&path), None, &doc("one")).unwrap();
        two.write(Some(&path), None, &doc("two")).unwrap();
        // Clearing one leaves the other's work.
        one.clear();
        assert!(two.has_record());
        drop(two);
        let (orphans, _) = saves.orphans();
        assert_eq!(orphans.len(), 1);
        assert_eq!(orphans[0].document.graph.name, "two");
    }

    #[test]
    fn two_autosaves_of_one_material_are_told_apart_by_their_age_newest_first() {
        let dir = tempfile::tempdir().unwrap();
        let saves = Autosaves::new(dir.path().to_owned());
        let older = saves.claim(None).unwrap();
        let newer = saves.claim(None).unwrap();
        older.write(None, None, &doc("lawn")).unwrap();
        // The newer one is a node and a strand layer on: its size says so.
        let mut grown = doc("lawn");
        grown.graph.add_node("Noise").unwrap();
        grown
            .graph
            .strands
            .insert("blades".into(), tuft_graph::StrandLayer::default());
        newer.write(None, None, &grown).unwrap();
        let now = SystemTime::now();
        let set_age = |slot: &Slot, secs: u64| {
            let file = File::options().write(true).open(&slot.record).unwrap();
            file.set_modified(now - Duration::from_secs(secs)).unwrap();
        };
        set_age(&older, 3 * 86_400 + 5);
        set_age(&newer, 7_300);
        drop((older, newer));
        let (orphans, _) = saves.orphans();
        let said: Vec<String> = orphans
            .iter()
            .map(|o| format!("{} — {}", o.label(), o.details(now)))
            .collect();
        assert_eq!(
            said,
            [
                "“lawn” (never saved) — 1 node, 1 strand layer, autosaved 2 h ago",
                "“lawn” (never saved) — 0 nodes, autosaved 3 days ago",
            ]
        );
    }

    #[test]
    fn the_same_work_left_twice_is_offered_once_and_its_copy_goes() {
        let dir = tempfile::tempdir().unwrap();
        let saves = Autosaves::new(dir.path().to_owned());
        let slots: Vec<Slot> = (0..3).map(|_| saves.claim(None).unwrap()).collect();
        slots[0].write(None, None, &doc("lawn")).unwrap();
        slots[1].write(None, None, &doc("lawn")).unwrap();
        // Different work under the same name is its own offer.
        let mut grown = doc("lawn");
        grown.graph.add_node("Noise").unwrap();
        slots[2].write(None, None, &grown).unwrap();
        let copy = slots[1].record.clone();
        drop(slots);
        let (orphans, _) = saves.orphans();
        let mut sizes: Vec<usize> = orphans
            .iter()
            .map(|o| o.document.graph.nodes.len())
            .collect();
        sizes.sort_unstable();
        assert_eq!(sizes, [0, 1]);
        let records = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "ron"))
            .count();
        assert_eq!(records, 2, "one of the two copies is deleted");
        // Which copy went depends on their times; one of the two stays, the other not.
        let first = dir.path().join("untitled.ron");
        assert!(first.exists() != copy.exists());
    }

    #[test]
    fn ages_read_as_a_person_says_them() {
        let said = [0, 59, 60, 3_599, 3_600, 86_399, 86_400, 172_800, 1e9 as u64]
            .map(|s| ago(Duration::from_secs(s)));
        assert_eq!(
            said,
            [
                "just now",
                "just now",
                "1 min ago",
                "59 min ago",
                "1 h ago",
                "23 h ago",
                "a day ago",
                "2 days ago",
                "11574 days ago",
            ]
        );
    }

    #[test]
    #[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
    fn an_unreadable_record_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("broken.ron"), "not ron").unwrap();
        let saves = Autosaves::new(dir.path().to_owned());
        let (orphans, unreadable) = saves.orphans();
        assert!(orphans.is_empty());
        assert_eq!(unreadable.len(), 1, "{unreadable:?}");
        assert!(unreadable[0].contains("broken.ron: "), "{unreadable:?}");
        assert!(dir.path().join("broken.ron").exists());
    }
}
