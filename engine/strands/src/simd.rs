//! Which vector instruction set the kernels compiled more than once (noise at points, the
//! scatter's hashes, strand meshing) run: the best this CPU has, or a lower one asked for by the environment
//! variable `TUFT_SIMD` (`portable` or `avx2`), to compare them or to rule them out. Every
//! level computes the same bits; only the speed differs. (AVX-512, with 64-bit multiplies
//! in lanes, ran the scatter no faster than AVX2 here: BENCHMARKS.md.)

use std::sync::OnceLock;

/// An instruction set, lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// The target's baseline (SSE2 on x86-64).
    Portable,
    /// AVX2 (eight 32-bit lanes, 64-bit multiplies pieced from 32-bit ones) with F16C
    /// (four half floats converted in one instruction), which every AVX2 CPU has.
    Avx2,
}

impl Level {
    /// The level called `name` (as `TUFT_SIMD` spells it).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "portable" => Some(Self::Portable),
            "avx2" => Some(Self::Avx2),
            _ => None,
        }
    }
}

/// The best level this CPU runs.
#[must_use]
pub fn detected() -> Level {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("f16c") {
        return Level::Avx2;
    }
    Level::Portable
}

/// The level the kernels use: [`detected`], lowered to `TUFT_SIMD` where that names a
/// lower one (never raised above what the CPU runs; an unknown name is ignored). Read
/// once per process.
#[must_use]
pub fn level() -> Level {
    static LEVEL: OnceLock<Level> = OnceLock::new();
    *LEVEL.get_or_init(|| {
        let asked = std::env::var("TUFT_SIMD")
            .ok()
            .and_then(|name| Level::from_name(&name));
        asked.map_or(detected(), |asked| asked.min(detected()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_the_level_never_passes_the_cpu() {
        for (name, level) in [("portable", Level::Portable), (" AVX2 ", Level::Avx2)] {
            assert_eq!(Level::from_name(name), Some(level));
        }
        assert_eq!(Level::from_name("avx512"), None);
        assert!(level() <= detected());
    }
}
