// Shared by every pass: the frame's camera, light and wind, and the shading both the
// surface and the strands use, so a strand and the ground under it answer the light the
// same way. Concatenated in front of each pass's own file.

struct Frame {
    view_proj: mat4x4<f32>,
    // xyz: eye position in metres.
    eye: vec4<f32>,
    // xyz: unit direction toward the sun.
    sun_dir: vec4<f32>,
    // rgb: sun irradiance (linear).
    sun_color: vec4<f32>,
    // rgb: sky light from straight above; ground light from below.
    sky_color: vec4<f32>,
    ground_color: vec4<f32>,
    // xy: wind direction over the ground (world x, z); z: strength; w: time in seconds.
    wind: vec4<f32>,
    // x: 1 when the level overlay is on.
    options: vec4<f32>,
};

// What one draw (a tile of one layer at one level) needs.
struct Draw {
    // Width factors of the level drawn and of the next one.
    widen_cur: f32,
    widen_next: f32,
    // How far the transition to the next level has gone, 0..1.
    fade: f32,
    // Rank cut of the level drawn and of the next one (0 when the next is the cards).
    keep_cur: f32,
    keep_next: f32,
    // Cards whose own hash is below this are drawn.
    card_visible: f32,
    // Alpha-test cutoff of the card atlas.
    alpha_cutoff: f32,
    pad: f32,
    // The level overlay's colour for this draw.
    overlay: vec4<f32>,
};

@group(0) @binding(0) var<uniform> frame: Frame;
@group(1) @binding(0) var<uniform> draw: Draw;

const TAU: f32 = 6.283185307;

// Light from the sky and the ground, by the normal's height.
fn ambient(n: vec3<f32>) -> vec3<f32> {
    return mix(frame.ground_color.rgb, frame.sky_color.rgb, 0.5 + 0.5 * n.y);
}

// Where a vertex goes when survivors are widened: `across` is its level-0 offset from
// the centreline.
fn widen(position: vec3<f32>, across: vec3<f32>) -> vec3<f32> {
    let w = mix(draw.widen_cur, draw.widen_next, draw.fade);
    return position + (w - 1.0) * across;
}

// Whether a strand of this rank is drawn: survivors of the next level always; the rest
// leave through a dither, the highest ranks first, as the fade goes from 0 to 1.
fn strand_kept(rank: f32) -> bool {
    if rank < draw.keep_next {
        return true;
    }
    let band = max(draw.keep_cur - draw.keep_next, 1e-6);
    return (rank - draw.keep_next) / band < 1.0 - draw.fade;
}

// A clip position outside the depth range: every triangle of a dropped strand collapses
// onto it and is clipped.
const DROPPED: vec4<f32> = vec4<f32>(0.0, 0.0, 2.0, 1.0);
