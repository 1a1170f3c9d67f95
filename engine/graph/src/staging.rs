//! A baked set replaced whole: written into a staging folder beside its destination,
//! checked, then swapped in, so a reader never sees half of one set beside half of
//! another.
//!
//! The staging folder is `.NAME.baking-PID` next to the destination `NAME`. On Linux the
//! swap is one `renameat2(RENAME_EXCHANGE)`: at every instant `NAME` is the old set or
//! the new one. Elsewhere (or on a file system without exchange) the old set is renamed
//! aside first, then the new one in, then the old removed. A bake that dies leaves its
//! staging folder (and at worst, without exchange, the old set renamed aside); the next
//! bake into the same place removes what dead bakes left and puts a stranded old set
//! back before it starts.

use std::io;
use std::path::{Path, PathBuf};

/// A folder being filled with a new set for `dest`.
#[derive(Debug)]
pub struct Staging {
    dest: PathBuf,
    dir: PathBuf,
    committed: bool,
}

/// Why the destination cannot take a baked set.
fn not_a_set(dest: &Path) -> io::Error {
    io::Error::other(format!(
        "{} holds files but no manifest.ron: it is not a baked set, and a bake replaces \
         its folder whole; choose an empty folder or an earlier set",
        dest.display()
    ))
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
        match what {
            "baking" => std::fs::remove_dir_all(entry.path())?,
            "old" if !dest.exists() => std::fs::rename(entry.path(), dest)?,
            "old" => std::fs::remove_dir_all(entry.path())?,
            _ => {}
        }
    }
    Ok(())
}

impl Staging {
    /// A fresh staging folder for a set that will replace `dest`. Refuses a `dest` that
    /// holds files but is not a baked set.
    ///
    /// # Errors
    /// `dest` is not a set, or the folders cannot be made.
    pub fn begin(dest: &Path) -> io::Result<Self> {
        let (parent, name) = split(dest)?;
        std::fs::create_dir_all(&parent).map_err(|e| {
            // A file where a folder on the way should be says "file exists" alone.
            parent
                .ancestors()
                .find(|a| a.is_file())
                .map_or(e, not_a_folder)
        })?;
        clean_leftovers(&parent, &name, dest)?;
        if dest.is_dir()
            && !dest.join("manifest.ron").exists()
            && std::fs::read_dir(dest)?.next().is_some()
        {
            return Err(not_a_set(dest));
        }
        if dest.exists() && !dest.is_dir() {
            return Err(not_a_folder(dest));
        }
        let dir = parent.join(format!(".{name}.baking-{}", std::process::id()));
        if dir.exists() {
            std::fs::remove_dir_all(&dir)?;
        }
        std::fs::create_dir(&dir)?;
        Ok(Self {
            dest: dest.to_owned(),
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
        crate::io::sync_parent(&self.dir.join("manifest.ron"))?;
        if self.dest.exists() {
            if exchange(&self.dir, &self.dest)? {
                // The staging folder now holds the old set.
                std::fs::remove_dir_all(&self.dir)?;
            } else {
                let (parent, name) = split(&self.dest)?;
                let aside = parent.join(format!(".{name}.old-{}", std::process::id()));
                std::fs::rename(&self.dest, &aside)?;
                std::fs::rename(&self.dir, &self.dest)?;
                std::fs::remove_dir_all(&aside)?;
            }
        } else {
            std::fs::rename(&self.dir, &self.dest)?;
        }
        crate::io::sync_parent(&self.dest)?;
        self.committed = true;
        Ok(())
    }
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

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_committed_set_replaces_the_old_one_whole() {
        let root = tempfile::tempdir().unwrap();
        let dest = root.path().join("set");
        std::fs::create_dir(&dest).unwrap();
        std::fs::write(dest.join("manifest.ron"), "old").unwrap();
        std::fs::write(dest.join("only_old.png"), "old").unwrap();
        let staging = Staging::begin(&dest).unwrap();
        std::fs::write(staging.dir().join("manifest.ron"), "new").unwrap();
        staging.commit().unwrap();
        assert_eq!(names(&dest), ["manifest.ron"]);
        assert_eq!(
            std::fs::read_to_string(dest.join("manifest.ron")).unwrap(),
            "new"
        );
        assert_eq!(names(root.path()), ["set"], "nothing left beside it");
    }

    #[test]
    fn an_abandoned_set_leaves_the_old_one_and_nothing_else() {
        let root = tempfile::tempdir().unwrap();
        let dest = root.path().join("set");
        std::fs::create_dir(&dest).unwrap();
        std::fs::write(dest.join("manifest.ron"), "old").unwrap();
        {
            let staging = Staging::begin(&dest).unwrap();
            std::fs::write(staging.dir().join("half.glb"), "new").unwrap();
        }
        assert_eq!(names(&dest), ["manifest.ron"]);
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
        std::fs::create_dir(&aside).unwrap();
        std::fs::write(aside.join("manifest.ron"), "old").unwrap();
        let staging = Staging::begin(&dest).unwrap();
        assert_eq!(
            std::fs::read_to_string(dest.join("manifest.ron")).unwrap(),
            "old"
        );
        drop(staging);
        assert_eq!(names(root.path()), ["set"]);
    }

    #[test]
    fn a_folder_that_is_not_a_set_is_refused() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("notes.txt"), "mine").unwrap();
        let err = Staging::begin(root.path()).unwrap_err();
        assert!(err.to_string().contains("not a baked set"), "{err}");
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
}
