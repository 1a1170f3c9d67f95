//! The bounded mutation test: the committed corpus of inputs that once crashed or ran
//! away (`tests/data/limits`, `tests/data/fuzz`), then a few thousand fresh mutations of
//! valid inputs per run, each through the cases the fuzz targets run
//! (`tuft_tests::fuzz`), each inside a time limit (a watchdog for runaway work, not a
//! speed figure) and a memory limit (this binary counts every allocation). The seed is
//! printed; `TUFT_FUZZ_SEED=N` replays a run.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tuft_tests::fuzz::{self, Mutator};
use tuft_tests::{data, presets};

/// Counts live and peak heap bytes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; the counters are
// plain atomics.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller promised for `layout`.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) };
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most one case may take before it counts as running away.
const TIME_LIMIT: Duration = Duration::from_secs(20);
/// The most heap one case may add to what was live before it.
const MEMORY_LIMIT: usize = 1 << 30;

/// Runs `case` on `input` on its own thread within the limits; `Err` names what broke.
fn bounded(name: &str, case: fn(&[u8]), input: Vec<u8>) -> Result<(), String> {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let (tx, rx) = std::sync::mpsc::channel();
    let worker = std::thread::Builder::new()
        .name(format!("fuzz {name}"))
        .spawn(move || {
            let outcome = std::panic::catch_unwind(|| case(&input)).map_err(|p| {
                p.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_default()
            });
            let _ = tx.send((outcome, input));
        })
        .map_err(|e| e.to_string())?;
    let (outcome, input) = rx
        .recv_timeout(TIME_LIMIT)
        .map_err(|_| format!("{name}: still running after {TIME_LIMIT:?}"))?;
    let _ = worker.join();
    let grew = PEAK.load(Ordering::Relaxed).saturating_sub(before);
    let preview = String::from_utf8_lossy(&input[..input.len().min(120)]).into_owned();
    match outcome {
        Err(panic) => Err(format!(
            "{name}: panicked: {panic}; input starts {preview:?}"
        )),
        Ok(()) if grew > MEMORY_LIMIT => Err(format!(
            "{name}: took {} MB; input starts {preview:?}",
            grew >> 20
        )),
        Ok(()) => Ok(()),
    }
}

fn seed() -> u64 {
    std::env::var("TUFT_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        })
}

fn corpus(folder: &str) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(data(folder))
        .expect("the corpus folder")
        .map(|e| e.expect("an entry").path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read(&p).expect("readable"),
            )
        })
        .collect()
}

#[test]
fn the_corpus_and_fresh_mutations_stay_within_their_limits() {
    let seed = seed();
    println!("seed {seed} (TUFT_FUZZ_SEED={seed} replays this run)");
    let mut failures = Vec::new();
    let mut run = |name: &str, case: fn(&[u8]), input: Vec<u8>| {
        if let Err(e) = bounded(name, case, input) {
            failures.push(e);
        }
    };
    // 1. The committed corpus: every input that once crashed or ran away.
    for (path, bytes) in corpus("limits") {
        run(&path, fuzz::graph_text, bytes.clone());
        run(&path, fuzz::tiny_eval, bytes);
    }
    for (path, bytes) in corpus("fuzz") {
        run(&path, fuzz::strand_file, bytes);
    }
    // 2. Fresh mutations of valid inputs.
    let mut mutator = Mutator::new(seed);
    let mut strand_files = fuzz::sample_strand_files();
    strand_files.push(include_bytes!("../../engine/strands/tests/fixtures/v1.strands").to_vec());
    let mut mutated = Vec::new();
    for valid in &strand_files {
        for _ in 0..1000 {
            let input = mutator.bytes(valid);
            mutated.push(input.clone());
            // `strand_file` also decodes every input resealed, so it reaches the directory
            // and, past every CRC, the checks of the fields and their values.
            run("strand file", fuzz::strand_file, input);
        }
    }
    let reaching = fuzz::reaching_past_the_seals(&mutated);
    println!(
        "{reaching} of {} mutated strand files reach past the CRCs once resealed",
        mutated.len()
    );
    let sealed_out = (reaching * 2 < mutated.len()).then(|| {
        format!(
            "only {reaching} of {} resealed mutations reach the decoder's checks",
            mutated.len()
        )
    });
    let texts: Vec<String> = presets()
        .iter()
        .chain(&[data("v1_minimal.ron"), data("non_integer_scale.ron")])
        .map(|p| std::fs::read_to_string(p).expect("a graph"))
        .collect();
    for k in 0..600 {
        let text = &texts[k % texts.len()];
        run("graph text", fuzz::graph_text, mutator.graph_text(text));
    }
    let small = std::fs::read_to_string(data("v1_minimal.ron")).expect("a graph");
    for _ in 0..300 {
        run("tiny eval", fuzz::tiny_eval, mutator.graph_text(&small));
    }
    failures.extend(sealed_out);
    assert!(failures.is_empty(), "seed {seed}:\n{}", failures.join("\n"));
}
