//! Reading a file whole, bounded by what it holds rather than by what the file system
//! says it holds.
//!
//! A device (`/dev/zero`) reports a length of 0 and never ends; a named pipe blocks its
//! opener until someone writes. So a file is asked what it is before it is opened
//! (`stat`, which never blocks), only a regular file is opened, and at most `limit + 1`
//! bytes are read from it: one byte past the limit is enough to refuse it. Every
//! file Tuft reads whole goes through [`read_file`], and a game reading a baked set can
//! use it too.
//!
//! ```
//! let dir = std::env::temp_dir().join(format!("tuft-read-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("five.txt");
//! std::fs::write(&path, b"12345").unwrap();
//! assert_eq!(tuft_strands::read::read_file(&path, 5, "note").unwrap(), b"12345");
//! let err = tuft_strands::read::read_file(&path, 4, "note").unwrap_err();
//! assert!(err.to_string().ends_with("holds more than the 4 bytes a note may have"));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::io::Read as _;
use std::path::{Path, PathBuf};

/// Why a file could not be read whole.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The system refused (missing, no permission, an I/O error).
    #[error("{}: cannot read: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A folder, a device, a pipe or a socket where a file was wanted.
    #[error("{}: {kind}, not a regular file; only regular files are read", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is instead ("a folder", "a device", …).
        kind: &'static str,
    },
    /// More bytes than the limit for its kind of file.
    #[error("{}: holds more than the {limit} bytes a {what} may have", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit, in bytes.
        limit: u64,
        /// What kind of file it was read as ("mesh file", "graph file", …).
        what: &'static str,
    },
}

impl ReadError {
    /// The file at fault.
    #[must_use]
    pub fn path(&self) -> &Path {
        match self {
            Self::Io { path, .. } | Self::NotAFile { path, .. } | Self::TooLarge { path, .. } => {
                path
            }
        }
    }

    /// What is wrong, without the path (for a message that names the file already).
    #[must_use]
    pub fn reason(&self) -> String {
        let whole = self.to_string();
        let prefix = format!("{}: ", self.path().display());
        whole
            .strip_prefix(&prefix)
            .map_or_else(|| whole.clone(), str::to_owned)
    }
}

/// What a file type is, in words, for one that is not a regular file.
fn kind_of(file_type: std::fs::FileType) -> &'static str {
    if file_type.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if file_type.is_fifo() {
            return "a named pipe";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    "not a plain file"
}

/// Checks that `path` (its link followed) is a regular file, without opening it.
///
/// # Errors
/// It is missing, or a folder, device, pipe or socket.
pub fn check_regular(path: &Path) -> Result<(), ReadError> {
    let meta = std::fs::metadata(path).map_err(|source| ReadError::Io {
        path: path.to_owned(),
        source,
    })?;
    if meta.is_file() {
        Ok(())
    } else {
        Err(ReadError::NotAFile {
            path: path.to_owned(),
            kind: kind_of(meta.file_type()),
        })
    }
}

/// Reads the regular file at `path` whole, refusing it past `limit` bytes; `what` names
/// the kind of file in the message ("mesh file").
///
/// # Errors
/// As [`check_regular`], an I/O error, or more than `limit` bytes.
pub fn read_file(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, ReadError> {
    let io = |source| ReadError::Io {
        path: path.to_owned(),
        source,
    };
    check_regular(path)?;
    let file = std::fs::File::open(path).map_err(io)?;
    // Asked again of the file opened: the path may have been replaced in between.
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile {
            path: path.to_owned(),
            kind: kind_of(meta.file_type()),
        });
    }
    let too_large = || ReadError::TooLarge {
        path: path.to_owned(),
        limit,
        what,
    };
    if meta.len() > limit {
        return Err(too_large());
    }
    // The reported length is a hint for the allocation only; the read is bounded by
    // the limit whatever the file turns out to hold.
    let hint = usize::try_from(meta.len()).unwrap_or(0);
    let mut bytes = Vec::with_capacity(hint.saturating_add(1));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// As [`read_file`], as UTF-8 text.
///
/// # Errors
/// As [`read_file`], or the bytes are not UTF-8 (an I/O error of kind `InvalidData`).
pub fn read_text(path: &Path, limit: u64, what: &'static str) -> Result<String, ReadError> {
    String::from_utf8(read_file(path, limit, what)?).map_err(|_| ReadError::Io {
        path: path.to_owned(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"),
    })
}

/// Runs `reader` (another crate's decoder, given bytes read here) so that a panic in it
/// is an error saying so, never the end of the process: its message is kept, with
/// `what` naming the reader ("the OBJ reader").
///
/// # Errors
/// What `reader` returns, or that it stopped.
pub fn contained<T>(what: &str, reader: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(reader)).unwrap_or_else(|panic| {
        let said = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(format!(
            "{what} stopped on this file ({said}); it cannot be read"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "tuft-read-{name}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    #[allow(clippy::disallowed_methods)] // writes its own fixtures, not a user's file
    fn a_file_within_its_limit_is_read_whole_and_one_past_it_is_refused() {
        let dir = temp("limit");
        let path = dir.join("f");
        std::fs::write(&path, vec![7_u8; 100]).unwrap();
        assert_eq!(read_file(&path, 100, "test file").unwrap().len(), 100);
        let err = read_file(&path, 99, "test file").unwrap_err();
        assert!(
            matches!(err, ReadError::TooLarge { limit: 99, .. }),
            "{err}"
        );
        assert_eq!(
            err.reason(),
            "holds more than the 99 bytes a test file may have"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_is_named_as_one() {
        let dir = temp("folder");
        let err = read_file(&dir, 10, "test file").unwrap_err();
        assert_eq!(
            err.reason(),
            "a folder, not a regular file; only regular files are read"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn an_endless_device_behind_a_link_is_refused_unread() {
        let dir = temp("device");
        let link = dir.join("mesh.obj");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let err = read_file(&link, 1 << 40, "mesh file").unwrap_err();
        assert!(
            matches!(
                err,
                ReadError::NotAFile {
                    kind: "a device",
                    ..
                }
            ),
            "{err}"
        );
        assert!(err.to_string().starts_with(&link.display().to_string()));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_named_pipe_is_refused_without_waiting_for_a_writer() {
        let dir = temp("fifo");
        let fifo = dir.join("image.png");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(status.success());
        // Opening the pipe would block this thread for good; the check never opens it.
        let err = read_file(&fifo, 10, "image").unwrap_err();
        assert!(
            matches!(
                err,
                ReadError::NotAFile {
                    kind: "a named pipe",
                    ..
                }
            ),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_reader_that_panics_is_an_error_saying_so() {
        let r: Result<u8, String> = contained("the test reader", || panic!("short Kd line"));
        assert_eq!(
            r.unwrap_err(),
            "the test reader stopped on this file (short Kd line); it cannot be read"
        );
        assert_eq!(contained("the test reader", || Ok(7)), Ok(7));
    }

    #[test]
    fn a_missing_file_says_so_with_its_path() {
        let err = read_file(Path::new("/no/such/file.ron"), 10, "graph file").unwrap_err();
        assert!(matches!(err, ReadError::Io { .. }));
        assert!(
            err.to_string()
                .starts_with("/no/such/file.ron: cannot read: ")
        );
    }
}
