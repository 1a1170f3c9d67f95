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
    // x: 1 when the level overlay is on; y: the exposure's multiplier (1 as lit); z: 1
    // when the surface is one plane (the plane, the field); w: 1 when the ground's
    // tint is computed from its lattice map (`ground_patch`), 0 where the surface's
    // vertices and each strand's root carry it.
    options: vec4<f32>,
    // rgb: the first layer's tint at a full patch; w: its patch size, metres.
    ground_tint: vec4<f32>,
    // The lattice point (x, z) the lattice map starts at: octave 0 in xy, 1 in zw.
    ground_lattice: vec4<f32>,
    canopy: Canopy,
};

// The canopy's height slices, top first (tuft_strands::canopy), and what its faces are.
struct Canopy {
    // Per slice, the face area per square metre of ground in each of the four tilt
    // classes.
    area: array<vec4<f32>, 16>,
    // Slice k, class c at 4k + c: rgb the faces' mean linear colour, and the mean of
    // their colour times their place along their strands.
    color: array<vec4<f32>, 64>,
    color_along: array<vec4<f32>, 64>,
    // rgb: the mean linear base colour of the surface's maps, which a texel's own
    // divides to give the canopy its pattern; w: the canopy's height in metres.
    ground: vec4<f32>,
    // Each tilt class's mean normal height (0 upright faces, 1 flat).
    tilt: vec4<f32>,
    // Class c's share of faces whose normal (turned up) points i/16 of a turn from the
    // surface's u axis toward its v axis, at [4c + i / 4][i % 4].
    azimuth: array<vec4<f32>, 16>,
};

// What one draw (a tile of one layer at one level) needs.
struct Draw {
    // Width factors of the level drawn and of the next one.
    widen_cur: f32,
    widen_next: f32,
    // How far the transition to the next level has gone, 0..1 (cards: how far they
    // have sunk toward their roots on their way to the relief).
    fade: f32,
    // Rank cut of the level drawn and of the next one (0 when the next is the cards).
    keep_cur: f32,
    keep_next: f32,
    // Cards whose own hash is below this are drawn.
    card_visible: f32,
    // Alpha-test cutoff of the card atlas.
    alpha_cutoff: f32,
    // A vertex's strand (or card) in its tile is its index divided by this.
    verts_per_strand: u32,
    // The level overlay's colour for this draw.
    overlay: vec4<f32>,
    // Metres from the eye where strands and cards begin to blend toward the surface
    // behind them, and where they have become it.
    blend_start: f32,
    blend_end: f32,
    // Cards: how far along its strands a point of the picture is, on average, per unit
    // of its height in the picture.
    along_scale: f32,
    // 1 where each stored vertex is drawn as two, its sides (ribbons).
    paired: u32,
    // The layer's macro tint at a full patch (the surface's: its first layer's), and how
    // much shorter its strands are there; each root carries its patch value.
    macro_tint: vec3<f32>,
    macro_length: f32,
    // Strands: how far they have sunk toward their roots (the last level of a layer
    // without cards, over its fade to the relief).
    sink: f32,
    pad0: f32,
    pad1: f32,
    pad2: f32,
};

// The patch field's second octave: this much finer than the first, and shifted
// (tuft_strands::macro_variation's OCTAVE_SCALE and OCTAVE_SHIFT).
const MACRO_OCTAVE_SCALE: f32 = 2.03;
const MACRO_OCTAVE_SHIFT: f32 = 17.1;

// Octave `octave`'s quintic value noise at `q` (its lattice units, at height 0),
// between the lattice values `map` holds (scene/ground_tint.rs).
fn lattice_noise(map: texture_2d<f32>, octave: u32, q: vec3<f32>) -> f32 {
    let cell = floor(q);
    let f = q - cell;
    let w = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
    var origin = frame.ground_lattice.xy;
    if octave == 1u {
        origin = frame.ground_lattice.zw;
    }
    let i = vec2<i32>(cell.xz - origin);
    let last = vec2<i32>(textureDimensions(map)) - vec2<i32>(1);
    let zero = vec2<i32>(0);
    // Each texel: octave 0's lattice layers y, y + 1 in rg; octave 1's in ba.
    let a = textureLoad(map, clamp(i, zero, last), 0);
    let b = textureLoad(map, clamp(i + vec2<i32>(1, 0), zero, last), 0);
    let c = textureLoad(map, clamp(i + vec2<i32>(0, 1), zero, last), 0);
    let d = textureLoad(map, clamp(i + vec2<i32>(1, 1), zero, last), 0);
    var a2 = a.rg;
    var b2 = b.rg;
    var c2 = c.rg;
    var d2 = d.rg;
    if octave == 1u {
        a2 = a.ba;
        b2 = b.ba;
        c2 = c.ba;
        d2 = d.ba;
    }
    // Along x at each corner (z, layer), then along y, then z; as the CPU sums it.
    let near = a2 + (b2 - a2) * w.x;
    let far = c2 + (d2 - c2) * w.x;
    let near_y = near.x + (near.y - near.x) * w.y;
    let far_y = far.x + (far.y - far.x) * w.y;
    return near_y + (far_y - near_y) * w.z;
}

// The first layer's tint on flat ground at `p` (`frame.options.w` 1): its patch field
// evaluated as tuft_strands::macro_variation evaluates it, so the surface and a far
// strand showing the surface behind it agree, and both with the strands' roots.
fn ground_tint(map: texture_2d<f32>, p: vec3<f32>) -> vec3<f32> {
    // Seen from the side, the strands a ray meets over `p` stand on roots nearer the
    // eye: the tint is read where the ray crosses the canopy's middle height.
    let v = frame.eye.xyz - p;
    let rise = 0.5 * frame.canopy.ground.w;
    let at = p.xz + v.xz * (rise / max(v.y, 0.02 * length(v)));
    let q = vec3<f32>(at.x, 0.0, at.y) / frame.ground_tint.w;
    let n = (2.0 * lattice_noise(map, 0u, q)
        + lattice_noise(map, 1u, q * MACRO_OCTAVE_SCALE + vec3<f32>(MACRO_OCTAVE_SHIFT))) / 3.0;
    let x = clamp((n - 0.3) / 0.4, 0.0, 1.0);
    let amount = x * x * (3.0 - 2.0 * x);
    return vec3<f32>(1.0) + (frame.ground_tint.rgb - vec3<f32>(1.0)) * amount;
}

// The macro tint at patch value `amount` (tuft-strands' `MacroVariation::tint_at`).
fn macro_tint(amount: f32) -> vec3<f32> {
    return vec3<f32>(1.0) + (draw.macro_tint - vec3<f32>(1.0)) * amount;
}

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

fn ggx(n_dot_h: f32, roughness: f32) -> f32 {
    let a = roughness * roughness;
    let a2 = a * a;
    let d = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    return a2 / (3.14159265 * d * d);
}

// What the screen shows of a lit colour: the colour itself up to a shoulder, above it
// compressed smoothly toward white. Under the preview's sun a pale material (hay, white
// fur, albedo 0.4-0.8) is lit past 1 and clipped flat; with the shoulder it keeps its
// shading, and below it an albedo reads exactly as authored. The curve past the shoulder
// is the highlight compression of the Khronos PBR Neutral tone mapper (continuous, with
// slope 1, at the shoulder; tending to 1), without that mapper's lowering of the darks.
const SHOULDER: f32 = 0.8;
const DESATURATION: f32 = 0.15;

fn display(lit: vec3<f32>) -> vec3<f32> {
    // The exposure's multiplier (`options.y`, 1 as lit) first.
    let c = lit * frame.options.y;
    let peak = max(c.r, max(c.g, c.b));
    if (peak <= SHOULDER) {
        return c;
    }
    let d = 1.0 - SHOULDER;
    let new_peak = 1.0 - d * d / (peak + d - SHOULDER);
    let scaled = c * (new_peak / peak);
    let grey = 1.0 - 1.0 / (DESATURATION * (peak - new_peak) + 1.0);
    return mix(scaled, vec3<f32>(new_peak), grey);
}

// The surface's metal-rough shading of its maps at `world`: `base`, `orm` and the normal
// map's texel `nt` (0..1) sampled there, in the frame `t`, `b`, `n_geo` (the map's +y
// along the surface's +v). Strands and cards far away blend toward this.
fn shade_surface(
    base: vec3<f32>,
    orm: vec3<f32>,
    nt: vec3<f32>,
    t: vec3<f32>,
    b: vec3<f32>,
    n_geo: vec3<f32>,
    world: vec3<f32>,
) -> vec3<f32> {
    let m = nt * 2.0 - 1.0;
    let n = normalize(t * m.x + b * m.y + n_geo * m.z);
    let ao = orm.r;
    let roughness = clamp(orm.g, 0.04, 1.0);
    let metallic = orm.b;
    let l = frame.sun_dir.xyz;
    let v = normalize(frame.eye.xyz - world);
    let h = normalize(l + v);
    let n_dot_l = max(dot(n, l), 0.0);
    let n_dot_v = max(dot(n, v), 1e-3);
    let f0 = mix(vec3<f32>(0.04), base, metallic);
    let fresnel = f0 + (1.0 - f0) * pow(1.0 - max(dot(h, v), 0.0), 5.0);
    let k = (roughness + 1.0) * (roughness + 1.0) / 8.0;
    let vis = 1.0 / ((n_dot_l * (1.0 - k) + k) * (n_dot_v * (1.0 - k) + k));
    let specular = fresnel * ggx(max(dot(n, h), 0.0), roughness) * vis * 0.25;
    let diffuse = (1.0 - fresnel) * (1.0 - metallic) * base;
    let sun = frame.sun_color.rgb * n_dot_l * (diffuse + specular);
    let sky = ambient(n) * ao * (base * (1.0 - metallic) + f0 * 0.2);
    return sun + sky;
}

// How much light reaches a point `along` a strand inside the canopy: the bottom of the
// canopy sees less of the sky and the sun than the crown does.
fn canopy_depth(along: f32) -> f32 {
    return mix(0.45, 1.0, along);
}

// The mean of the strands' shading (strands.wgsl, `shade_strand`) over faces turned
// every way about `axis` and tilted up toward it by `up` (the sine of their angle from
// upright; 0 for strands standing along the axis): their normals are `up · axis` plus
// `√(1 − up²)` across it. Across the axis |n·l| averages 2/π of the sun's part; the two
// parts' means are joined as the root of the sum of their squares (exact upright and
// flat), and the ambient is taken at the normals' mean height.
fn shade_tilted(base: vec3<f32>, axis: vec3<f32>, depth: f32, up: f32) -> vec3<f32> {
    let l = frame.sun_dir.xyz;
    let a = dot(axis, l);
    let across = sqrt(max(1.0 - a * a, 0.0)) * sqrt(max(1.0 - up * up, 0.0));
    let facing = length(vec2<f32>(0.6366198 * across, up * a));
    let wrap = (facing + 0.3) / 1.3;
    let sun = frame.sun_color.rgb * wrap * max(l.y, 0.0) * depth * 0.9;
    let sky = mix(frame.ground_color.rgb, frame.sky_color.rgb, 0.5 + 0.5 * up);
    return base * (sun + sky * depth);
}

// What the eye sees where its ray meets the surface (`v` toward the eye; normal `n`,
// the maps' u and v axes `t` and `b` along it), whose shaded maps are `ground` and whose base
// colour texel is `base`: descending through the canopy's slices, each stops a share of
// what is left of the ray and shows its strands' faces lit as the ray sees them, tinted
// as the strands are by `tint`; what is left reaches the maps
// (tuft_strands::canopy::seen). The slices hold the canopy's mean colours; the texel
// against the maps' mean gives them the pattern of the place (a coat's stripes, a
// carpet's dots), which the maps carry and a mean does not. `curvature` is the
// surface's mean curvature there (1 / radius, above 0 convex); `cover` the canopy's
// face area there as a share of its mean (tuft_strands::cover).
fn through_canopy(
    ground: vec3<f32>,
    base: vec3<f32>,
    v: vec3<f32>,
    t: vec3<f32>,
    b: vec3<f32>,
    n: vec3<f32>,
    tint: vec3<f32>,
    curvature: f32,
    cover: f32,
) -> vec3<f32> {
    // Maps with no colour in a channel (black soil) give that channel no pattern.
    let mean = frame.canopy.ground.rgb;
    let pattern = select(clamp(base / max(mean, vec3<f32>(1e-4)), vec3<f32>(0.0), vec3<f32>(4.0)), vec3<f32>(1.0), mean < vec3<f32>(1e-4));
    let seen = canopy_seen(v, t, b, n, pattern * tint, curvature, cover);
    return seen.rgb + seen.a * ground;
}

// The cover's texels hold a place's share of the canopy's mean face area over this
// (tuft_strands::cover::MAX_RATIO).
const COVER_MAX: f32 = 4.0;

// The canopy's cover at `uv` in the cover map `map` (sampled with `s`), read at the
// mip of the pixel's footprint (`duv_dx`, `duv_dy`, the UV's screen derivatives) or of
// the run a ray toward the eye `v` makes sideways through the canopy over ground of
// normal `n` (it crosses every place on that run and meets their mean), whichever is
// wider. `uv_per_m`: UV per metre along the surface.
fn cover_at(
    map: texture_2d<f32>,
    s: sampler,
    uv: vec2<f32>,
    duv_dx: vec2<f32>,
    duv_dy: vec2<f32>,
    uv_per_m: f32,
    v: vec3<f32>,
    n: vec3<f32>,
) -> f32 {
    let up = clamp(dot(v, n), 0.02, 1.0);
    let run = frame.canopy.ground.w * sqrt(1.0 - up * up) / up * uv_per_m;
    let pixel = max(length(duv_dx), length(duv_dy));
    let lod = log2(max(max(run, pixel) * f32(textureDimensions(map).x), 1.0));
    return textureSampleLevel(map, s, uv, lod).r * COVER_MAX;
}

// The cosine and sine of the canopy's 16 azimuths, i/16 of a turn from the surface's u
// axis toward its v axis (tuft_strands::canopy::face_normal).
const CANOPY_AZIMUTHS = array<vec2<f32>, 16>(
    vec2<f32>(1.0000000, 0.0000000),
    vec2<f32>(0.9238795, 0.3826834),
    vec2<f32>(0.7071068, 0.7071068),
    vec2<f32>(0.3826834, 0.9238795),
    vec2<f32>(0.0000000, 1.0000000),
    vec2<f32>(-0.3826834, 0.9238795),
    vec2<f32>(-0.7071068, 0.7071068),
    vec2<f32>(-0.9238795, 0.3826834),
    vec2<f32>(-1.0000000, 0.0000000),
    vec2<f32>(-0.9238795, -0.3826834),
    vec2<f32>(-0.7071068, -0.7071068),
    vec2<f32>(-0.3826834, -0.9238795),
    vec2<f32>(-0.0000000, -1.0000000),
    vec2<f32>(0.3826834, -0.9238795),
    vec2<f32>(0.7071068, -0.7071068),
    vec2<f32>(0.9238795, -0.3826834)
);

// The canopy along the ray toward the eye `v` over a surface of normal `n` (its u and v
// axes `t`, `b`), its colours multiplied by `tint`: rgb what its slices show, a the
// share of the ray that passes them all. Each tilt class's faces, turned about `n` as
// the canopy counted them, show the ray `|n·v|` of their area and are lit as
// `shade_strand` lights a strand's face the ray sees (its normal turned toward the
// eye); each slice stops the ray by the area its faces show it over the sine of its
// elevation there. Over a surface of mean curvature `curvature` the strands fan out
// (convex) or close in (concave) with height and the ray's elevation changes as it
// climbs (tuft_strands::canopy::Canopy::seen). Every slice's area is scaled by the
// place's `cover`.
fn canopy_seen(v: vec3<f32>, t: vec3<f32>, b: vec3<f32>, n: vec3<f32>, tint: vec3<f32>, curvature: f32, cover: f32) -> vec4<f32> {
    let up = clamp(dot(v, n), 0.0, 1.0);
    let cos_e = sqrt(1.0 - up * up);
    // Held as tuft_strands::canopy::Canopy::seen holds it.
    let top = frame.canopy.ground.w;
    let kappa = clamp(select(0.0, curvature, top > 0.0), -0.5 / max(top, 1e-6), 1.0 / max(top, 1e-6));
    let l = frame.sun_dir.xyz;
    let sun = frame.sun_color.rgb * max(l.y, 0.0) * 0.9;
    // Per class: the share of its area a face shows the ray, and the light on it.
    var show = vec4<f32>(0.0);
    var light: array<vec3<f32>, 4>;
    for (var c = 0u; c < 4u; c++) {
        let u = frame.canopy.tilt[c];
        let r = sqrt(max(1.0 - u * u, 0.0));
        var shown = 0.0;
        var wrap = 0.0;
        var height = 0.0;
        for (var i = 0u; i < 16u; i++) {
            let share = frame.canopy.azimuth[4u * c + i / 4u][i % 4u];
            let turn = CANOPY_AZIMUTHS[i];
            let face = r * (turn.x * t + turn.y * b) + u * n;
            let nv = dot(face, v);
            let w = share * abs(nv);
            shown += w;
            wrap += w * clamp((abs(dot(face, l)) + 0.3) / 1.3, 0.0, 1.0);
            // The seen normal's height: turned toward the eye, sign(n·v)·|n·v|·y.
            height += share * nv * face.y;
        }
        show[c] = shown;
        let inv = 1.0 / max(shown, 1e-6);
        light[c] = sun * (wrap * inv) + mix(frame.ground_color.rgb, frame.sky_color.rgb, 0.5 + 0.5 * height * inv);
    }
    // A face's light grows along its strand as `canopy_depth` says, linearly: its mean
    // colour times that light is the root's share of the mean colour and the rest of
    // the mean of colour times place along.
    let root = canopy_depth(0.0);
    let rise = canopy_depth(1.0) - root;
    var through = 1.0;
    var seen = vec3<f32>(0.0);
    for (var k = 0u; k < 16u; k++) {
        let areas = frame.canopy.area[k] * show * cover;
        let shows = areas.x + areas.y + areas.z + areas.w;
        let grow = 1.0 + kappa * top * (1.0 - (f32(k) + 0.5) / 16.0);
        let cos_k = cos_e / grow;
        let sin_k = max(sqrt(max(1.0 - cos_k * cos_k, 0.0)), 1e-3);
        let passes = exp(-shows / (grow * grow * sin_k));
        var lit = vec3<f32>(0.0);
        for (var c = 0u; c < 4u; c++) {
            let colour = frame.canopy.color[4u * k + c].rgb * root + frame.canopy.color_along[4u * k + c].rgb * rise;
            lit += areas[c] * colour * light[c];
        }
        seen += (through * (1.0 - passes) / max(shows, 1e-12)) * (lit * tint);
        through *= passes;
    }
    return vec4<f32>(seen, through);
}


// How far a fragment at `world` has blended toward what stands for the strands far
// away (the draw's blend distances), 0..1.
fn blend_weight(world: vec3<f32>) -> f32 {
    let d = length(world - frame.eye.xyz);
    let x = clamp((d - draw.blend_start) / max(draw.blend_end - draw.blend_start, 1e-6), 0.0, 1.0);
    return x * x * (3.0 - 2.0 * x);
}
