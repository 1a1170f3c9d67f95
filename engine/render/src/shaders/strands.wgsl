// Strands and cards. Strands are the tile buffers of tuft-strands as they are: a level is
// an index range, widening moves each vertex along its `across`, a transition drops the
// leaving strands through their rank. The wind is a stage over finished geometry with an
// entry point of its own (`vs_strand_wind`); at zero strength it returns the position
// untouched, so its frame is the plain one's, pixel for pixel.

@group(2) @binding(0) var atlas_color: texture_2d<f32>;
@group(2) @binding(1) var atlas_normal: texture_2d<f32>;
@group(2) @binding(2) var atlas_sampler: sampler;

struct StrandIn {
    @location(0) position: vec3<f32>,
    @location(1) across: vec3<f32>,
    @location(2) normal: vec3<f32>,
    // x: along, 0 at the root to 1 at the tip; y: across or around.
    @location(3) uv: vec2<f32>,
    @location(4) color: vec3<f32>,
    @location(5) wind: f32,
    @location(6) rank: f32,
};

// Centroid interpolation: a strand or card is often narrower than a pixel, and with
// multisampling the fragment runs once per pixel; at the pixel's centre, outside the
// covered samples, the attributes would be extrapolated (colour and height past the
// tip, atlas coordinates past the cell), biasing thin geometry's colour.
struct StrandOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) @interpolate(perspective, centroid) world: vec3<f32>,
    @location(1) @interpolate(perspective, centroid) normal: vec3<f32>,
    @location(2) @interpolate(perspective, centroid) uv: vec2<f32>,
    @location(3) @interpolate(perspective, centroid) color: vec3<f32>,
    // 0 at the ground to 1 at the top.
    @location(4) @interpolate(perspective, centroid) along: f32,
};

fn strand_out(v: StrandIn, world: vec3<f32>) -> StrandOut {
    var out: StrandOut;
    out.clip = frame.view_proj * vec4<f32>(world, 1.0);
    if !strand_kept(v.rank) {
        out.clip = DROPPED;
    }
    out.world = world;
    out.normal = v.normal;
    out.uv = v.uv;
    out.color = v.color;
    out.along = v.uv.x;
    return out;
}

@vertex
fn vs_strand(v: StrandIn) -> StrandOut {
    return strand_out(v, widen(v.position, v.across));
}

// Sway over finished geometry: the tip moves most (weight squared), gusts travel over
// the ground with the wind.
fn sway(world: vec3<f32>, weight: f32) -> vec3<f32> {
    let strength = frame.wind.z;
    if strength == 0.0 {
        return world;
    }
    let dir = vec3<f32>(frame.wind.x, 0.0, frame.wind.y);
    let travel = dot(world.xz, frame.wind.xy) * 0.8 - frame.wind.w * 0.6;
    let gust = 0.6 + 0.4 * sin(TAU * travel) + 0.15 * sin(TAU * (2.7 * travel + 0.3 * world.x));
    return world + dir * (0.04 * strength * weight * weight * gust);
}

@vertex
fn vs_strand_wind(v: StrandIn) -> StrandOut {
    return strand_out(v, sway(widen(v.position, v.across), v.wind));
}

// How much light reaches a point `along` a strand inside the canopy: the bottom of the
// canopy sees less of the sky and the sun than the crown does.
fn canopy_depth(along: f32) -> f32 {
    return mix(0.45, 1.0, along);
}

// A card's picture is calibrated to the set's colour seen from above (tuft_strands::
// cards::CROWN, t ≈ 0.64): it is lit as the canopy is at that height.
const CARD_DEPTH: f32 = 0.8513889; // canopy_depth(0.638889)

// Thin strands let light through: the sun wraps round them.
fn shade_strand(base: vec3<f32>, n_in: vec3<f32>, depth: f32) -> vec3<f32> {
    let n = normalize(n_in);
    let n_dot_l = dot(n, frame.sun_dir.xyz);
    let wrap = clamp((abs(n_dot_l) + 0.3) / 1.3, 0.0, 1.0);
    let sun = frame.sun_color.rgb * wrap * max(frame.sun_dir.y, 0.0) * depth * 0.9;
    return base * (sun + ambient(n) * depth);
}

@fragment
fn fs_strand(in: StrandOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    if frame.options.x > 0.5 {
        return vec4<f32>(draw.overlay.rgb * mix(0.6, 1.0, in.along), 1.0);
    }
    var n = in.normal;
    if !front {
        n = -n;
    }
    return vec4<f32>(shade_strand(in.color, n, canopy_depth(in.along)), 1.0);
}

@vertex
fn vs_card(v: StrandIn) -> StrandOut {
    var out: StrandOut;
    out.clip = frame.view_proj * vec4<f32>(v.position, 1.0);
    if v.rank >= draw.card_visible {
        out.clip = DROPPED;
    }
    out.world = v.position;
    out.normal = v.normal;
    out.uv = v.uv;
    out.color = v.color;
    out.along = v.wind;
    return out;
}

@fragment
fn fs_card(in: StrandOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    let texel = textureSample(atlas_color, atlas_sampler, in.uv);
    let tn = textureSample(atlas_normal, atlas_sampler, in.uv).xyz * 2.0 - 1.0;
    let dp_dx = dpdx(in.world);
    let dp_dy = dpdy(in.world);
    let duv_dx = dpdx(in.uv);
    let duv_dy = dpdy(in.uv);
    if texel.a < draw.alpha_cutoff {
        discard;
    }
    if frame.options.x > 0.5 {
        return vec4<f32>(draw.overlay.rgb * mix(0.6, 1.0, in.along), 1.0);
    }
    // The atlas normal is in the card's plane (x across, y up, z out of the picture):
    // a frame from the screen-space derivatives of position and atlas UV.
    var n_geo = normalize(in.normal);
    if !front {
        n_geo = -n_geo;
    }
    let det = duv_dx.x * duv_dy.y - duv_dy.x * duv_dx.y;
    var n = n_geo;
    if abs(det) > 1e-12 {
        let t = normalize((dp_dx * duv_dy.y - dp_dy * duv_dx.y) / det);
        // Atlas v runs downward, the picture's up is -v.
        let b = normalize((dp_dy * duv_dx.x - dp_dx * duv_dy.x) / det) * -1.0;
        n = normalize(t * tn.x + b * tn.y + n_geo * tn.z);
    }
    return vec4<f32>(shade_strand(texel.rgb, n, CARD_DEPTH), 1.0);
}
