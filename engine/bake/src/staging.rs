//! A baked set replaced whole: written into a staging folder beside its destination,
//! checked, then swapped in, so a reader never sees half of one set beside half of
//! another.
//!
//! Only a Tuft set is ever replaced: a destination that holds anything is taken only
//! when its `manifest.ron` reads as a set's manifest and every entry of the folder is a
//! file that manifest names (or the JSON manifest a bake writes beside it). Anything
//! else is refused before any work, naming the first file that is not the set's. A
//! destination that is a link is followed: the set it points to is replaced and the
//! link stays a link.
//!
//! The staging folder is `.NAME.baking-PID` next to the destination `NAME`. On Linux the
//! swap is one `renameat2(RENAME_EXCHANGE)`: at every instant `NAME` is the old set or
//! the new one. Elsewhere (or on a file system without exchange) the old set is renamed
//! aside first, then the new one in, then the old removed. A bake that dies leaves its
//! staging folder (and at worst, without exchange, the old set renamed aside); the next
//! bake into the same place removes what dead bakes left and puts a stranded old set
//! back before it starts. A leftover that cannot be removed is left where it is and
//! never stops a bake.

use std::io;
use std::path::{Path, PathBuf};

/// A folder being filled with a new set for `dest`.
#[derive(Debug)]
pub struct Staging {
    dest: PathBuf,
    dir: PathBuf,
    committed: bool,
}

/// The files a bake writes beside the ones its manifest names.
const MANIFESTS: [&str; 2] = ["manifest.ron", "manifest.json"];

/// The largest `manifest.ron` read when deciding whether a folder is a set.
const MAX_MANIFEST_BYTES: u64 = 16 << 20;

/// Why the destination cannot take a baked set: `why` says what it holds instead.
fn not_a_set(dest: &Path, why: &str) -> io::Error {
    io::Error::other(format!(
        "{} is not a Tuft set: {why}. A bake replaces its folder whole, so it writes only \
         into an empty or missing folder or over an earlier set; choose another folder",
        dest.display()
    ))
}

/// Checks that `dest` may take a baked set: missing, an empty folder, or a Tuft set
/// (its manifest parses as one and it holds nothing its manifest does not name), and
/// that its old set can be removed once the new one is in.
///
/// # Errors
/// What stands in the way, naming the first file that is not the set's.
pub fn check_destination(dest: &Path) -> io::Result<()> {
    let meta = match std::fs::metadata(dest) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if std::fs::symlink_metadata(dest).is_ok() {
                return Err(io::Error::other(format!(
                    "{} is a link to a folder that does not exist",
                    dest.display()
                )));
            }
            return Ok(());
        }
        Err(e) => return Err(e),
    };
    if !meta.is_dir() {
        return Err(not_a_folder(dest));
    }
    let mut entries: Vec<(String, std::fs::FileType)> = Vec::new();
    for entry in std::fs::read_dir(dest)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        entries.push((name, entry.file_type()?));
    }
    if entries.is_empty() {
        return writable(dest, &meta);
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let manifest_path = dest.join("manifest.ron");
    let manifest = match tuft_strands::read::read_text(
        &manifest_path,
        MAX_MANIFEST_BYTES,
        "baked set's manifest",
    ) {
        Ok(text) => ron::from_str::<tuft_strands::manifest::Manifest>(&text).map_err(|e| {
            newer_set(&text).unwrap_or_else(|| {
                not_a_set(
                    dest,
                    &format!("its manifest.ron is not a baked set's manifest ({e})"),
                )
            })
        })?,
        Err(_) if !manifest_path.exists() => {
            let first = &entries[0].0;
            return Err(not_a_set(
                dest,
                &format!("it holds {first:?} and no manifest.ron"),
            ));
        }
        Err(e) => return Err(not_a_set(dest, &e.to_string())),
    };
    let named: std::collections::BTreeSet<&str> =
        manifest.files().into_iter().chain(MANIFESTS).collect();
    for (name, file_type) in &entries {
        if !named.contains(name.as_str()) {
            return Err(not_a_set(
                dest,
                &format!("it holds {name:?}, which its manifest does not name"),
            ));
        }
        if !file_type.is_file() {
            return Err(not_a_set(
                dest,
                &format!("{name:?} is not a plain file, as every file of a set is"),
            ));
        }
    }
    writable(dest, &meta)?;
    for (name, _) in &entries {
        if pinned(&dest.join(name)) {
            return Err(io::Error::other(format!(
                "{} is immutable or append-only (chattr): a bake could not remove the set it \
                 replaces; clear the attribute or choose another folder",
                dest.join(name).display()
            )));
        }
    }
    Ok(())
}

/// Whether the file at `path` carries the immutable or append-only attribute, which
/// stops even its owner from removing it (Linux's `FS_IOC_GETFLAGS`; elsewhere, and on
/// a file system without attributes, no).
fn pinned(path: &Path) -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd as _;
        /// `FS_IMMUTABLE_FL` and `FS_APPEND_FL` (linux/fs.h).
        const PINNED: libc::c_long = 0x10 | 0x20;
        let Ok(file) = std::fs::File::open(path) else {
            return false;
        };
        let mut flags: libc::c_long = 0;
        // SAFETY: the request writes the file's attribute flags into `flags`, which
        // outlives the call; the descriptor is the open file's own.
        #[allow(unsafe_code)]
        let r = unsafe { libc::ioctl(file.as_raw_fd(), libc::FS_IOC_GETFLAGS, &raw mut flags) };
        r == 0 && flags & PINNED != 0
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = path;
        false
    }
}

/// A manifest that says it is of a version newer than this build's: a set of a later
/// Tuft, which this one neither reads nor replaces.
fn newer_set(text: &str) -> Option<io::Error> {
    #[derive(serde::Deserialize)]
    struct Version {
        version: u32,
    }
    let found = ron::from_str::<Version>(text).ok()?.version;
    (found > tuft_strands::manifest::MANIFEST_VERSION).then(|| {
        io::Error::other(format!(
            "the set there was baked by a newer Tuft (manifest version {found}; this build \
             writes {}): bake with that build, or choose another folder",
            tuft_strands::manifest::MANIFEST_VERSION
        ))
    })
}

/// Whether the old set in `dest` can be removed once the new one is swapped in: a
/// folder whose files cannot be unlinked would leave the old set stranded beside the
/// new one.
fn writable(dest: &Path, meta: &std::fs::Metadata) -> io::Result<()> {
    let read_only = meta.permissions().readonly() || !may_write(dest);
    if read_only {
        return Err(io::Error::other(format!(
            "{} is read-only: a bake could not remove the set it replaces; make it \
             writable or choose another folder",
            dest.display()
        )));
    }
    Ok(())
}

/// Whether this process may write into the folder `dir` (`access(2)`; elsewhere, yes).
fn may_write(dir: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt as _;
        let Ok(c) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
            return false;
        };
        // SAFETY: a NUL-terminated path that outlives the call; nothing else is touched.
        #[allow(unsafe_code)]
        let r = unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) };
        r == 0
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        true
    }
}

fn not_a_folder(path: &Path) -> io::Error {
    io::Error::other(format!("{} is a file, not a folder", path.display()))
}

/// The folder `dest` lives in, and its name.
fn split(dest: &Path) -> io::Result<(PathBuf, String)> {
    let name = dest
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| io::Error::other(format!("{} names no folder", dest.display())))?
        .to_owned();
    let parent = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    Ok((parent, name))
}

/// Whether process `pid` is alive (on Unix; elsewhere every process is taken as alive,
/// so nothing another bake may still be writing is removed).
fn alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = i32::try_from(pid) else {
            return false;
        };
        // SAFETY: signal 0 only asks whether the process exists; nothing is sent.
        #[allow(unsafe_code)]
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// Removes what dead bakes into `dest` left beside it; puts an old set that a dead
/// bake had renamed aside back in place if `dest` itself is missing.
fn clean_leftovers(parent: &Path, name: &str, dest: &Path) -> io::Result<()> {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(file) = file.to_str() else { continue };
        let Some(rest) = file.strip_prefix(&format!(".{name}.")) else {
            continue;
        };
        let Some((what, pid)) = rest.rsplit_once('-') else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        if alive(pid) && pid != std::process::id() {
            continue; // another bake at work
        }
        // Removing what is left is worth trying, never worth stopping a bake for; a
        // stranded old set is the author's work and must go back.
        match what {
            "baking" => {
                let _ = std::fs::remove_dir_all(entry.path());
            }
            "old" if !dest.exists() => std::fs::rename(entry.path(), dest)?,
            "old" => {
                let _ = std::fs::remove_dir_all(entry.path());
            }
            _ => {}
        }
    }
    Ok(())
}

impl Staging {
    /// A fresh staging folder for a set that will replace `dest` (or, where `dest` is a
    /// link, the folder it points to). Refuses a `dest` that is not empty and not a
    /// Tuft set ([`check_destination`]).
    ///
    /// # Errors
    /// `dest` is not a set, or the folders cannot be made.
    pub fn begin(dest: &Path) -> io::Result<Self> {
        let dest = &followed(dest)?;
        let (parent, name) = split(dest)?;
        std::fs::create_dir_all(&parent).map_err(|e| {
            // A file where a folder on the way should be says "file exists" alone.
            parent
                .ancestors()
                .find(|a| a.is_file())
                .map_or(e, not_a_folder)
        })?;
        clean_leftovers(&parent, &name, dest)?;
        check_destination(dest)?;
        let dir = parent.join(format!(".{name}.baking-{}", std::process::id()));
        if dir.exists() {
            std::fs::remove_dir_all(&dir)?;
        }
        std::fs::create_dir(&dir)?;
        Ok(Self {
            dest: dest.clone(),
            dir,
            committed: false,
        })
    }

    /// Where the new set is being written.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Swaps the staged set in for the destination; the old set is removed.
    ///
    /// # Errors
    /// The renames fail; the destination then still holds the old set (or, without an
    /// atomic exchange, the old set waits beside it for the next bake to restore).
    pub fn commit(mut self) -> io::Result<()> {
        tuft_graph::io::sync_parent(&self.dir.join("manifest.ron"))?;
        if self.dest.exists() {
            if exchange(&self.dir, &self.dest)? {
                // The new set is in, whole; the staging folder now holds the old one.
                // Should some of it not go (a file made immutable), what is left is put
                // aside as a dead bake's old set, which the next bake removes if it can
                // and never stops for.
                if std::fs::remove_dir_all(&self.dir).is_err() {
                    let (parent, name) = split(&self.dest)?;
                    let aside = parent.join(format!(".{name}.old-{}", std::process::id()));
                    let _ = std::fs::rename(&self.dir, &aside);
                }
            } else {
                let (parent, name) = split(&self.dest)?;
                let aside = parent.join(format!(".{name}.old-{}", std::process::id()));
                std::fs::rename(&self.dest, &aside)?;
                if let Err(e) = std::fs::rename(&self.dir, &self.dest) {
                    std::fs::rename(&aside, &self.dest)?;
                    return Err(e);
                }
                // The new set is in; an old one that will not go is removed by the next
                // bake, and never blocks it.
                let _ = std::fs::remove_dir_all(&aside);
            }
        } else {
            std::fs::rename(&self.dir, &self.dest)?;
        }
        tuft_graph::io::sync_parent(&self.dest)?;
        self.committed = true;
        Ok(())
    }
}

/// `dest` with a link at its end followed (to the end of a chain of links), so that the
/// set a link points to is replaced and the link stays.
fn followed(dest: &Path) -> io::Result<PathBuf> {
    let is_link = std::fs::symlink_metadata(dest).is_ok_and(|m| m.file_type().is_symlink());
    if !is_link {
        return Ok(dest.to_owned());
    }
    std::fs::canonicalize(dest).map_err(|e| {
        io::Error::other(format!(
            "{} is a link that leads nowhere ({e}); point it at a folder or remove it",
            dest.display()
        ))
    })
}

impl Drop for Staging {
    /// A set never committed (an error, a cancel) leaves nothing behind.
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// Exchanges two folders atomically where the system can; `false` where it cannot.
fn exchange(a: &Path, b: &Path) -> io::Result<bool> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::ffi::OsStrExt as _;
        let c = |p: &Path| {
            std::ffi::CString::new(p.as_os_str().as_bytes())
                .map_err(|_| io::Error::other("a path holds a NUL byte"))
        };
        let (ca, cb) = (c(a)?, c(b)?);
        // SAFETY: two NUL-terminated paths that outlive the call; the call reads them
        // and touches no other memory.
        #[allow(unsafe_code)]
        let r = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                ca.as_ptr(),
                libc::AT_FDCWD,
                cb.as_ptr(),
                libc::RENAME_EXCHANGE,
            )
        };
        if r == 0 {
            return Ok(true);
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EINVAL | libc::ENOSYS | libc::EXDEV) => Ok(false),
            _ => Err(e),
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (a, b);
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tuft_strands::manifest::{MANIFEST_VERSION, Manifest};

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        v.sort();
        v
    }

    /// A set's manifest naming `files` (as maps), written as RON.
    fn manifest(files: &[&str], tag: &str) -> String {
        let m = Manifest {
            version: MANIFEST_VERSION,
            name: tag.to_owned(),
            repeat_m: 2.0,
            maps: files
                .iter()
                .enumerate()
                .map(|(i, f)| (format!("map{i}"), (*f).to_owned()))
                .collect(),
            textures_ktx2: std::collections::BTreeMap::new(),
            ktx2_codec: String::new(),
            target: String::new(),
            height_range_m: 0.1,
            normal_convention: String::new(),
            strands: "set.strands".to_owned(),
            strand_scheme: String::new(),
            ground: String::new(),
            scene: String::new(),
            layers: Vec::new(),
            lod_bias: 1.0,
            made: None,
        };
        ron::to_string(&m).unwrap()
    }

    /// A set in `dest` naming `files` (each written), tagged `tag`.
    #[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
    fn set(dest: &Path, files: &[&str], tag: &str) {
        std::fs::create_dir_all(dest).unwrap();
        std::fs::write(dest.join("manifest.ron"), manifest(files, tag)).unwrap();
        for f in files.iter().chain(&["set.strands"]) {
            std::fs::write(dest.join(f), tag).unwrap();
        }
    }

    fn tag(dest: &Path) -> String {
        let text = std::fs::read_to_string(dest.join("manifest.ron")).unwrap();
        ron::from_str::<Manifest>(&text).unwrap().name
    }

    #[test]
    #[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
    fn a_committed_set_replaces_the_old_one_whole() {
        let root = tempfile::tempdir().unwrap();
        let dest = root.path().join("set");
        set(&dest, &["only_old.png", "both.png"], "old");
        std::fs::write(dest.join("manifest.json"), "{}").unwrap();
        let staging = Staging::begin(&dest).unwrap();
        set(staging.dir(), &["both.png"], "new");
        staging.commit().unwrap();
        assert_eq!(names(&dest), ["both.png", "manifest.ron", "set.strands"]);
        assert_eq!(tag(&dest), "new");
        assert_eq!(names(root.path()), ["set"], "nothing left beside it");
    }

    #[test]
    #[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
    fn an_abandoned_set_leaves_the_old_one_and_nothing_else() {
        let root = tempfile::tempdir().unwrap();
        let dest = root.path().join("set");
        set(&dest, &[], "old");
        {
            let staging = Staging::begin(&dest).unwrap();
            std::fs::write(staging.dir().join("half.glb"), "new").unwrap();
        }
        assert_eq!(names(&dest), ["manifest.ron", "set.strands"]);
        assert_eq!(names(root.path()), ["set"]);
    }

    #[test]
    fn what_a_killed_bake_left_is_cleaned_by_the_next() {
        let root = tempfile::tempdir().unwrap();
        let dest = root.path().join("set");
        // A dead bake's staging folder, and its old set renamed aside with the
        // destination missing (killed between the two renames, without exchange).
        let dead = u32::MAX - 7;
        std::fs::create_dir(root.path().join(format!(".set.baking-{dead}"))).unwrap();
        let aside = root.path().join(format!(".set.old-{dead}"));
        set(&aside, &[], "old");
        let staging = Staging::begin(&dest).unwrap();
        assert_eq!(tag(&dest), "old");
        drop(staging);
        assert_eq!(names(root.path()), ["set"]);
    }

    #[test]
    #[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
    fn a_folder_that_is_not_a_set_is_refused() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("notes.txt"), "mine").unwrap();
        let err = Staging::begin(root.path()).unwrap_err();
        assert!(
            err.to_string()
                .contains("is not a Tuft set: it holds \"notes.txt\" and no manifest.ron"),
            "{err}"
        );
        assert_eq!(names(root.path()), ["notes.txt"]);
        // A file where the set, or a folder on the way to it, should be is named.
        let file = root.path().join("notes.txt");
        for dest in [file.clone(), file.join("set"), file.join("deeper/set")] {
            let err = Staging::begin(&dest).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("{} is a file, not a folder", file.display())
            );
        }
        assert_eq!(names(root.path()), ["notes.txt"]);
    }

    /// Regression: any file named manifest.ron made a folder a set, and the user's
    /// documents beside it were replaced by the bake.
    #[test]
    #[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
    fn a_folder_with_an_unrelated_manifest_or_a_file_the_set_does_not_name_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let docs = root.path().join("docs");
        std::fs::create_dir(&docs).unwrap();
        std::fs::write(docs.join("manifest.ron"), "(packages: [\"mine\"])").unwrap();
        std::fs::write(docs.join("photo.jpg"), "a photo").unwrap();
        let err = Staging::begin(&docs).unwrap_err().to_string();
        assert!(
            err.contains("its manifest.ron is not a baked set's manifest"),
            "{err}"
        );
        assert_eq!(names(&docs), ["manifest.ron", "photo.jpg"]);
        // A real set with one of the author's files dropped into it.
        let dest = root.path().join("set");
        set(&dest, &["a.png"], "old");
        std::fs::write(dest.join("thesis.pdf"), "mine").unwrap();
        let err = Staging::begin(&dest).unwrap_err().to_string();
        assert!(
            err.contains("it holds \"thesis.pdf\", which its manifest does not name"),
            "{err}"
        );
        // A folder inside a set is not the set's either.
        std::fs::remove_file(dest.join("thesis.pdf")).unwrap();
        std::fs::create_dir(dest.join("a.png.d")).unwrap();
        assert!(Staging::begin(&dest).is_err());
        assert_eq!(
            names(&dest),
            ["a.png", "a.png.d", "manifest.ron", "set.strands"]
        );
        // Nothing was started beside either.
        assert_eq!(names(root.path()), ["docs", "set"]);
    }

    #[test]
    #[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
    fn a_set_of_a_newer_tuft_is_named_as_such_and_kept() {
        let root = tempfile::tempdir().unwrap();
        let dest = root.path().join("set");
        std::fs::create_dir(&dest).unwrap();
        std::fs::write(
            dest.join("manifest.ron"),
            "(version: 99, name: \"x\", shiny_new_field: 3)",
        )
        .unwrap();
        let err = Staging::begin(&dest).unwrap_err().to_string();
        assert!(
            err.contains("baked by a newer Tuft (manifest version 99"),
            "{err}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_set_stays_a_link_to_the_new_set() {
        let root = tempfile::tempdir().unwrap();
        let real = root.path().join("real");
        set(&real, &["a.png"], "old");
        let link = root.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let staging = Staging::begin(&link).unwrap();
        set(staging.dir(), &["b.png"], "new");
        staging.commit().unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_link(&link).unwrap(), real);
        assert_eq!(tag(&real), "new");
        assert_eq!(names(root.path()), ["link", "real"]);
        // A link that leads nowhere is named, and left.
        let dangling = root.path().join("dangling");
        std::os::unix::fs::symlink(root.path().join("gone"), &dangling).unwrap();
        let err = Staging::begin(&dangling).unwrap_err().to_string();
        assert!(err.contains("is a link that leads nowhere"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_read_only_set_is_refused_before_any_work_and_the_next_bake_is_not_blocked() {
        use std::os::unix::fs::PermissionsExt as _;
        let root = tempfile::tempdir().unwrap();
        let dest = root.path().join("set");
        set(&dest, &["a.png"], "old");
        std::fs::set_permissions(&dest, std::fs::Permissions::from_mode(0o555)).unwrap();
        let err = Staging::begin(&dest).unwrap_err().to_string();
        assert!(err.contains("is read-only"), "{err}");
        assert_eq!(names(root.path()), ["set"], "nothing started beside it");
        assert_eq!(tag(&dest), "old");
        std::fs::set_permissions(&dest, std::fs::Permissions::from_mode(0o755)).unwrap();
        let staging = Staging::begin(&dest).unwrap();
        set(staging.dir(), &["b.png"], "new");
        staging.commit().unwrap();
        assert_eq!(tag(&dest), "new");
        assert_eq!(names(root.path()), ["set"]);
    }

    #[test]
    #[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
    fn a_leftover_that_cannot_be_removed_does_not_block_a_bake() {
        let root = tempfile::tempdir().unwrap();
        let dest = root.path().join("set");
        set(&dest, &[], "old");
        // A dead bake's "staging folder" that is a file: removing it as a folder fails.
        let dead = u32::MAX - 9;
        std::fs::write(root.path().join(format!(".set.baking-{dead}")), "x").unwrap();
        let staging = Staging::begin(&dest).unwrap();
        set(staging.dir(), &[], "new");
        staging.commit().unwrap();
        assert_eq!(tag(&dest), "new");
    }

    /// Regression: a set holding a file made immutable was swapped out, then half
    /// deleted before the removal stopped at that file. Where the file system has the
    /// attribute (and `chattr` may set it), such a set is refused before any work.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_set_holding_an_immutable_file_is_refused_before_any_work() {
        let root = tempfile::tempdir().unwrap();
        let dest = root.path().join("set");
        set(&dest, &["a.png", "b.png"], "old");
        let pinned_file = dest.join("b.png");
        let chattr = |flag: &str| {
            std::process::Command::new("chattr")
                .arg(flag)
                .arg(&pinned_file)
                .status()
                .is_ok_and(|s| s.success())
        };
        if !chattr("+i") {
            println!("chattr +i is not available here; nothing to check");
            return;
        }
        let refused = Staging::begin(&dest).map(|_| ()).unwrap_err().to_string();
        chattr("-i");
        assert!(
            refused.contains("b.png is immutable or append-only"),
            "{refused}"
        );
        assert_eq!(
            names(&dest),
            ["a.png", "b.png", "manifest.ron", "set.strands"]
        );
        assert_eq!(names(root.path()), ["set"]);
    }
}
