//! The pictures of the whole process: each file decoded once per version (its
//! modification time and size) and shared, the least recently used let go once the
//! pictures held pass [`MAX_IMAGE_TEXELS`]; each file's size in texels told from its
//! header alone; and reads started on a thread of their own for a caller that will not
//! wait (the editor's UI thread).
//!
//! A file is asked what it is (`stat`) before it is opened, and read bounded
//! ([`tuft_strands::read`]): a device or a pipe given as a picture is an error at once,
//! never an endless read or a wait.

use super::{ImageError, Picture};
use crate::eval::lock;
use crate::limits::{MAX_IMAGE_FILE_BYTES, MAX_IMAGE_SIDE, MAX_IMAGE_TEXELS};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::SystemTime;

type Version = (Option<SystemTime>, u64);

enum State {
    /// Decoding on a thread of its own.
    Reading,
    /// Decoded, or not decodable.
    Ready(Result<Arc<Picture>, ImageError>),
}

struct Entry {
    version: Version,
    state: State,
    used: u64,
}

#[derive(Default)]
struct Store {
    entries: HashMap<PathBuf, Entry>,
    /// Each file's texels, as its header says (`None`: no readable header).
    sizes: HashMap<PathBuf, (Version, Option<u64>)>,
    clock: u64,
}

fn store() -> &'static Mutex<Store> {
    static STORE: OnceLock<Mutex<Store>> = OnceLock::new();
    STORE.get_or_init(Mutex::default)
}

/// Reads started without waiting that have ended, ever.
static FINISHED: AtomicU64 = AtomicU64::new(0);

/// How many reads started without waiting have ended: a caller that saw a picture
/// still reading asks again once this moves.
#[must_use]
pub fn reads_finished() -> u64 {
    FINISHED.load(Ordering::Acquire)
}

/// Whether any picture is being read on a thread of its own.
#[must_use]
pub fn reading() -> bool {
    lock(store())
        .entries
        .values()
        .any(|e| matches!(e.state, State::Reading))
}

/// The file's version, asked without opening it.
fn version(path: &Path) -> Result<Version, ImageError> {
    tuft_strands::read::check_regular(path).map_err(|e| read_error(path, e.reason()))?;
    let meta = std::fs::metadata(path).map_err(|e| read_error(path, e.to_string()))?;
    Ok((meta.modified().ok(), meta.len()))
}

fn read_error(path: &Path, reason: String) -> ImageError {
    ImageError::Read {
        path: path.to_owned(),
        reason,
    }
}

/// The picture in `path`, decoded once per version of the file and shared.
///
/// # Errors
/// A file that is missing, not a regular file, unreadable, not a PNG or JPEG, larger
/// than [`MAX_IMAGE_FILE_BYTES`], or larger than [`MAX_IMAGE_SIDE`] on a side.
pub fn load(path: &Path) -> Result<Arc<Picture>, ImageError> {
    let version = version(path)?;
    if let Some(State::Ready(done)) = held(path, version) {
        return done;
    }
    // Decoded outside the lock: another file's reader need not wait for this one.
    let picture = decode(path)
        .map(Arc::new)
        .map_err(|why| read_error(path, why));
    keep(path, version, picture.clone());
    picture
}

/// As [`load`], but a picture not yet decoded is read on a thread of its own, and is
/// [`ImageError::Reading`] until it is there.
///
/// # Errors
/// As [`load`], or still reading.
pub fn load_or_start(path: &Path) -> Result<Arc<Picture>, ImageError> {
    let version = version(path)?;
    let reading = || ImageError::Reading {
        path: path.to_owned(),
    };
    {
        let mut s = lock(store());
        match held_in(&mut s, path, version) {
            Some(State::Ready(done)) => return done,
            Some(State::Reading) => return Err(reading()),
            None => {}
        }
        let used = s.clock;
        s.entries.insert(
            path.to_owned(),
            Entry {
                version,
                state: State::Reading,
                used,
            },
        );
    }
    let owned = path.to_owned();
    let read = move || {
        let picture = decode(&owned)
            .map(Arc::new)
            .map_err(|why| read_error(&owned, why));
        keep(&owned, version, picture);
        FINISHED.fetch_add(1, Ordering::AcqRel);
    };
    // Where no thread can be started, the read happens here.
    let slot = Arc::new(Mutex::new(Some(read)));
    let theirs = slot.clone();
    let started = std::thread::Builder::new()
        .name("tuft image reader".to_owned())
        .spawn(move || {
            if let Some(r) = lock(&theirs).take() {
                r();
            }
        })
        .is_ok();
    if !started && let Some(r) = lock(&slot).take() {
        r();
        return load(path);
    }
    Err(reading())
}

/// What the store holds for `path` at `version`, marked used.
fn held(path: &Path, version: Version) -> Option<State> {
    held_in(&mut lock(store()), path, version)
}

fn held_in(s: &mut Store, path: &Path, version: Version) -> Option<State> {
    s.clock += 1;
    let now = s.clock;
    let e = s.entries.get_mut(path).filter(|e| e.version == version)?;
    e.used = now;
    Some(match &e.state {
        State::Reading => State::Reading,
        State::Ready(done) => State::Ready(done.clone()),
    })
}

/// Keeps `picture` for `path`, letting the least recently used pictures go while
/// those held pass [`MAX_IMAGE_TEXELS`].
fn keep(path: &Path, version: Version, picture: Result<Arc<Picture>, ImageError>) {
    let mut s = lock(store());
    s.clock += 1;
    let used = s.clock;
    s.entries.insert(
        path.to_owned(),
        Entry {
            version,
            state: State::Ready(picture),
            used,
        },
    );
    let texels = |e: &Entry| match &e.state {
        State::Ready(Ok(p)) => p.texel_count() as u64,
        _ => 0,
    };
    loop {
        let held: u64 = s.entries.values().map(texels).sum();
        if held <= MAX_IMAGE_TEXELS {
            break;
        }
        let Some(oldest) = s
            .entries
            .iter()
            .filter(|(p, e)| texels(e) > 0 && p.as_path() != path)
            .min_by_key(|(_, e)| e.used)
            .map(|(p, _)| p.clone())
        else {
            break;
        };
        s.entries.remove(&oldest);
    }
    // Unreadable files are remembered too; keep their number bounded.
    if s.entries.len() > 256
        && let Some(oldest) = s
            .entries
            .iter()
            .filter(|(p, e)| matches!(e.state, State::Ready(Err(_))) && p.as_path() != path)
            .min_by_key(|(_, e)| e.used)
            .map(|(p, _)| p.clone())
    {
        s.entries.remove(&oldest);
    }
}

/// The texels of the picture in `path` as its header says, without decoding it
/// (`None`: the file cannot be read or is not a picture).
#[must_use]
pub fn texels(path: &Path) -> Option<u64> {
    let version = version(path).ok()?;
    if let Some((v, n)) = lock(store()).sizes.get(path)
        && *v == version
    {
        return *n;
    }
    let n = header_texels(path);
    let mut s = lock(store());
    if s.sizes.len() > 1024 {
        s.sizes.clear();
    }
    s.sizes.insert(path.to_owned(), (version, n));
    n
}

fn header_texels(path: &Path) -> Option<u64> {
    let file = std::fs::File::open(path).ok()?;
    let (w, h) = image::ImageReader::new(std::io::BufReader::new(file))
        .with_guessed_format()
        .ok()?
        .into_dimensions()
        .ok()?;
    Some(u64::from(w) * u64::from(h))
}

/// The picture in the file at `path`, read bounded and decoded without a float copy
/// of every texel on the way.
fn decode(path: &Path) -> Result<Picture, String> {
    let side = MAX_IMAGE_SIDE as u32;
    let bytes = tuft_strands::read::read_file(path, MAX_IMAGE_FILE_BYTES, "image")
        .map_err(|e| e.reason())?;
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(side);
    limits.max_image_height = Some(side);
    // The largest picture at 16 bits a channel, with room for the decoder's own rows.
    limits.max_alloc = Some(u64::from(side) * u64::from(side) * 8 + (64 << 20));
    reader.limits(limits);
    let img = tuft_strands::read::contained("the image decoder", || {
        reader.decode().map_err(|e| match e {
            image::ImageError::Limits(_) => {
                format!("larger than {side} × {side} texels, the most an Image node reads")
            }
            e => e.to_string(),
        })
    })?;
    let (w, h) = (img.width() as usize, img.height() as usize);
    if w == 0 || h == 0 {
        return Err("the image has no texels".to_owned());
    }
    let eight_bit = matches!(
        img.color(),
        image::ColorType::L8
            | image::ColorType::La8
            | image::ColorType::Rgb8
            | image::ColorType::Rgba8
    );
    Ok(if eight_bit {
        let rgba = img.into_rgba8();
        let unit = |c: u8| f32::from(c) / 255.0;
        Picture::from_texels(w, h, rgba.pixels().map(|p| p.0.map(unit)))
    } else {
        let rgba = img.into_rgba16();
        let unit = |c: u16| f32::from(c) / 65535.0;
        Picture::from_texels(w, h, rgba.pixels().map(|p| p.0.map(unit)))
    })
}
