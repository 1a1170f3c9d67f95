//! Numeric options, checked: each parser says which range a value must lie in, so a
//! nonsense number (`--distance nan`, `--distance 0`, `--wind inf`) stops the command
//! with a message naming the option and the range, instead of a blank frame.

use std::ops::RangeInclusive;

/// A finite number in `range`.
fn float_in(text: &str, range: RangeInclusive<f32>) -> Result<f32, String> {
    let x: f32 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    if x.is_finite() && range.contains(&x) {
        Ok(x)
    } else {
        Err(format!(
            "{x} is outside {}..={} (a finite number)",
            range.start(),
            range.end()
        ))
    }
}

/// A whole number in `range`.
fn int_in(text: &str, range: RangeInclusive<u64>) -> Result<u64, String> {
    let x: u64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a whole number"))?;
    if range.contains(&x) {
        Ok(x)
    } else {
        Err(format!(
            "{x} is outside {}..={}",
            range.start(),
            range.end()
        ))
    }
}

/// A finite number above zero and at most `max`; `zero` says why zero will not do.
fn positive(text: &str, max: f32, zero: &str) -> Result<f32, String> {
    let x = float_in(text, 0.0..=max)?;
    if x > 0.0 { Ok(x) } else { Err(zero.to_owned()) }
}

/// The share of every layer's strands a bake keeps: above zero, at most 1.
pub fn keep(text: &str) -> Result<f32, String> {
    positive(text, 1.0, "the share kept must be above 0")
}

/// Repeats of the material per UV unit of a mesh: above zero, at most a million.
pub fn uv_scale(text: &str) -> Result<f32, String> {
    positive(text, 1e6, "the UV scale must be above 0")
}

/// The camera's distance from the surface, metres: above zero, at most 100 km.
pub fn distance(text: &str) -> Result<f32, String> {
    positive(text, 100_000.0, "the distance must be above 0 m")
}

/// A turn about the vertical: any finite number of turns (negative turns the other way).
pub fn yaw(text: &str) -> Result<f32, String> {
    float_in(text, -1000.0..=1000.0)
}

/// The camera's elevation in turns, a quarter turn either way at most.
pub fn pitch(text: &str) -> Result<f32, String> {
    float_in(text, -0.25..=0.25)
}

/// Wind strength.
pub fn wind(text: &str) -> Result<f32, String> {
    float_in(text, 0.0..=10.0)
}

/// A map resolution in texels.
pub fn resolution(text: &str) -> Result<usize, String> {
    int_in(text, 1..=tuft_graph::limits::MAX_MAP_RESOLUTION as u64).map(|x| x as usize)
}

/// Timed runs per benchmark case.
pub fn runs(text: &str) -> Result<usize, String> {
    int_in(text, 1..=1000).map(|x| x as usize)
}

/// Candidates scattered over the benchmark's sphere.
pub fn candidates(text: &str) -> Result<u64, String> {
    int_in(text, 1..=tuft_graph::limits::MAX_CANDIDATES)
}

/// Sides a switch is measured from.
pub fn sides(text: &str) -> Result<u32, String> {
    int_in(text, 1..=64).map(|x| x as u32)
}

/// A level-of-detail bias: a finite factor in 1/16..=16.
pub fn lod_bias(text: &str) -> Result<f32, String> {
    float_in(text, 1.0 / 16.0..=16.0)
}

/// Where the sun stands, `AZIMUTH,ELEVATION` in turns: the azimuth any finite number of
/// turns about the vertical (0 toward +z, 0.25 toward +x), the elevation over the
/// horizon between -0.25 and 0.25 (overhead).
pub fn sun(text: &str) -> Result<tuft_render::SunAngles, String> {
    let (az, el) = text
        .split_once(',')
        .ok_or_else(|| format!("sun `{text}` is not AZIMUTH,ELEVATION in turns"))?;
    let azimuth = float_in(az, -1000.0..=1000.0).map_err(|e| format!("sun azimuth: {e}"))?;
    let elevation = float_in(el, -0.25..=0.25).map_err(|e| format!("sun elevation: {e}"))?;
    Ok(tuft_render::SunAngles { azimuth, elevation })
}

/// Exposure in stops, eight either way.
pub fn exposure(text: &str) -> Result<f32, String> {
    float_in(text, -8.0..=8.0)
}

/// The camera's vertical field of view in turns: 0.01 (3.6°) to 0.45 (162°).
pub fn fov(text: &str) -> Result<f32, String> {
    float_in(text, 0.01..=0.45)
}

/// Frames of a turntable: 1 to 3600.
pub fn turntable(text: &str) -> Result<u32, String> {
    int_in(text, 1..=3600).map(|x| x as u32)
}

/// A frame's triangle budget: at least a thousand, at most two billion (the renderer's
/// buffers are split to the adapter's limits, and a frame past it draws coarser).
pub fn triangle_budget(text: &str) -> Result<u64, String> {
    int_in(text, 1_000..=2_000_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonsense_is_refused_with_the_range_and_sense_is_kept() {
        for bad in ["inf", "nan", "0", "-1", "1e9", "two"] {
            assert!(distance(bad).is_err(), "{bad}");
        }
        assert_eq!(distance("0.5"), Ok(0.5));
        assert!(yaw("nan").unwrap_err().contains("finite"));
        assert_eq!(yaw("-0.3"), Ok(-0.3));
        assert_eq!(pitch("-0.1"), Ok(-0.1));
        assert!(pitch("0.3").is_err());
        assert!(wind("nan").is_err() && wind("-1").is_err());
        assert!(resolution("0").is_err() && resolution("100000").is_err());
        assert_eq!(resolution("512"), Ok(512));
        assert!(runs("0").is_err() && candidates("0").is_err() && sides("0").is_err());
        assert_eq!(
            sun("0.5, 0.1"),
            Ok(tuft_render::SunAngles {
                azimuth: 0.5,
                elevation: 0.1
            })
        );
        for bad in ["0.5", "0.1,0.3", "nan,0.1", "0,x", "1,2,3"] {
            assert!(sun(bad).is_err(), "{bad}");
        }
        assert!(sun("0,0.4").unwrap_err().contains("elevation"));
        assert!(exposure("9").is_err() && exposure("nan").is_err());
        assert_eq!(exposure("-1.5"), Ok(-1.5));
        assert!(fov("0").is_err() && fov("0.5").is_err());
        assert_eq!(fov("0.2"), Ok(0.2));
        assert!(turntable("0").is_err() && turntable("3601").is_err());
        assert_eq!(turntable("36"), Ok(36));
    }
}
