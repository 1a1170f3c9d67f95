// Strands and cards. Strands are the tile buffers of tuft-strands as they are: a level is
// an index range, widening moves each vertex along its `across`, a transition drops the
// leaving strands through their rank. The wind is a stage over finished geometry with an
// entry point of its own (`vs_strand_wind`); at zero strength it returns the position
// untouched, so its frame is the plain one's, pixel for pixel.

@group(2) @binding(0) var atlas_color: texture_2d<f32>;
@group(2) @binding(1) var atlas_normal: texture_2d<f32>;
@group(2) @binding(2) var atlas_sampler: sampler;
// The surface's maps, as surface.wgsl reads them.
@group(2) @binding(3) var base_map: texture_2d<f32>;
@group(2) @binding(4) var normal_map: texture_2d<f32>;
@group(2) @binding(5) var orm_map: texture_2d<f32>;
// Where the canopy stands thick and thin, as surface.wgsl reads it.
@group(2) @binding(6) var cover_map: texture_2d<f32>;
// The first layer's tint over flat ground (`ground_tint`; one white texel elsewhere).
@group(2) @binding(7) var tint_map: texture_2d<f32>;
// Where each strand (or card) of the tile stands, four texels per strand:
// (position, u), (normal, v), (gradient of u, curvature), (gradient of v, macro patch
// value). The gradients give the surface UV of any point near the root.
@group(3) @binding(0) var roots: texture_2d<f32>;

// The box the tile's positions are 16-bit fractions of (tuft_strands::mesh::Frame).
struct Tile {
    origin: vec4<f32>,
    extent: vec4<f32>,
};
@group(3) @binding(1) var<uniform> tile: Tile;

// A vertex as a tile stores it (tuft_strands::mesh::PackedVertex, 32 bytes), read by
// the vertex stage from the tile's buffer: the words in the struct's field order.
struct Packed {
    // x: position x | y << 16; y: z | rank << 16 (16-bit fractions of the tile's box;
    // the rank stored as ⌊rank · 65536⌋); z, w: the offset across (x, y, z) and the
    // wind weight as half floats.
    a: vec4<u32>,
    // x: the normal, octahedral, two 16-bit signed fractions; y: (along, around) as
    // 16-bit fractions; z, w: linear RGB and 1 as half floats.
    b: vec4<u32>,
};
@group(3) @binding(2) var<storage, read> vertices: array<Packed>;

struct StrandIn {
    position: vec3<f32>,
    across: vec3<f32>,
    normal: vec3<f32>,
    // x: along, 0 at the root to 1 at the tip; y: across or around.
    uv: vec2<f32>,
    color: vec3<f32>,
    wind: f32,
    rank: f32,
};

// The unit direction of an octahedral pair (tuft_strands::mesh::oct_decode).
fn oct_decode(e: vec2<f32>) -> vec3<f32> {
    var n = vec3<f32>(e.x, e.y, 1.0 - abs(e.x) - abs(e.y));
    let t = max(-n.z, 0.0);
    n.x += select(t, -t, n.x >= 0.0);
    n.y += select(t, -t, n.y >= 0.0);
    return normalize(n);
}

// The half float in the low 16 bits of `bits`, exactly (tuft_strands::mesh::f16_value),
// decoded by hand: the built-in needs a capability not every adapter has.
fn half_value(bits: u32) -> f32 {
    let sign = (bits & 0x8000u) << 16u;
    let exponent = (bits >> 10u) & 0x1fu;
    let mantissa = bits & 0x3ffu;
    if exponent == 0u {
        // Zero and the subnormals: the mantissa's steps of 2⁻²⁴.
        return bitcast<f32>(sign | bitcast<u32>(f32(mantissa) * bitcast<f32>(0x33800000u)));
    }
    // 31: infinity or NaN, which keep their mantissa.
    let wide = select(exponent + 112u, 255u, exponent == 31u);
    return bitcast<f32>(sign | (wide << 23u) | (mantissa << 13u));
}

// Two half floats, the low 16 bits first.
fn halves(bits: u32) -> vec2<f32> {
    return vec2<f32>(half_value(bits & 0xffffu), half_value(bits >> 16u));
}

// Drawn vertex `index` of the tile in floats (tuft_strands::mesh::TileMesh::vertex):
// stored vertex `index`, or where the draw's vertices are paired (ribbons), side
// `index % 2` of stored vertex `index / 2` (tuft_strands::mesh::PackedVertex::side).
fn fetch(index: u32) -> StrandIn {
    let paired = draw.paired != 0u;
    let p = vertices[select(index, index / 2u, paired)];
    let position = vec4<f32>(unpack2x16unorm(p.a.x), unpack2x16unorm(p.a.y));
    let across = vec4<f32>(halves(p.a.z), halves(p.a.w));
    var v: StrandIn;
    v.position = tile.origin.xyz + position.xyz * tile.extent.xyz;
    v.rank = position.w * (65535.0 / 65536.0);
    v.across = across.xyz;
    v.wind = across.w;
    v.normal = oct_decode(unpack2x16snorm(p.b.x));
    v.uv = unpack2x16unorm(p.b.y);
    v.color = vec3<f32>(halves(p.b.z), half_value(p.b.w & 0xffffu));
    if paired {
        let right = index % 2u == 1u;
        v.across *= select(-1.0, 1.0, right);
        v.position += v.across;
        v.uv.y = select(0.0, 1.0, right);
    }
    return v;
}

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
    // The strand's (or card's) place in its tile.
    @location(5) @interpolate(flat) strand: u32,
    // The layer's macro tint at the root (it multiplies the strand's colour and the
    // surface's behind it alike).
    @location(6) @interpolate(flat) tint: vec3<f32>,
    // `world` at the pixel's centre (past the strand where it covers the pixel in
    // part): the ray the surface behind is searched along. Searched from the centroid
    // instead, the surface's UV steps from pixel to pixel by the centroids' offsets,
    // its derivatives pick too fine a mip level, and at grazing views the maps' pattern
    // showed through the far levels' blend where the surface itself had filtered it.
    @location(7) @interpolate(perspective, center) ray: vec3<f32>,
};

// The macro patch value at a strand's root.
fn root_patch(strand: u32) -> f32 {
    return root_texel(strand, 3u).w;
}

// The layer's macro tint at a strand's root; a layer without a tint reads no texel.
fn strand_tint(strand: u32) -> vec3<f32> {
    if all(draw.macro_tint == vec3<f32>(1.0)) {
        return vec3<f32>(1.0);
    }
    return macro_tint(root_patch(strand));
}

// `world`, a point of strand `strand` whose centreline point is `centre`, with the
// centreline scaled about the root by the layer's macro length (its width kept).
fn macro_scaled(world: vec3<f32>, centre: vec3<f32>, strand: u32) -> vec3<f32> {
    if draw.macro_length <= 0.0 {
        return world;
    }
    let scale = 1.0 - draw.macro_length * root_patch(strand);
    return world + (centre - root_texel(strand, 0u).xyz) * (scale - 1.0);
}

fn strand_out(v: StrandIn, index: u32, widened: vec3<f32>) -> StrandOut {
    var out: StrandOut;
    out.strand = index / max(draw.verts_per_strand, 1u);
    let scaled = macro_scaled(widened, v.position - v.across, out.strand);
    let world = toward_root(scaled, out.strand, 1.0 - draw.sink);
    out.tint = strand_tint(out.strand);
    out.clip = frame.view_proj * vec4<f32>(world, 1.0);
    if !strand_kept(v.rank) {
        out.clip = DROPPED;
    }
    out.world = world;
    out.ray = world;
    out.normal = v.normal;
    out.uv = v.uv;
    out.color = v.color;
    out.along = v.uv.x;
    return out;
}

@vertex
fn vs_strand(@builtin(vertex_index) index: u32) -> StrandOut {
    let v = fetch(index);
    return strand_out(v, index, widen(v.position, v.across));
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
fn vs_strand_wind(@builtin(vertex_index) index: u32) -> StrandOut {
    let v = fetch(index);
    return strand_out(v, index, sway(widen(v.position, v.across), v.wind));
}

// The surface a strand's fragment stands in front of: where the ray from the eye
// through the fragment meets the surface near the root (a sphere through the root
// with the surface's curvature there, or its tangent plane where the surface is flat),
// its UV in repeats, and the surface's frame at that point. A ray that meets neither
// passes the surface's outline: the fragment stands against the sky (`hit` false).
struct Ground {
    hit: bool,
    point: vec3<f32>,
    uv: vec2<f32>,
    normal: vec3<f32>,
    tangent: vec3<f32>,
    bitangent: vec3<f32>,
    // The surface's mean curvature at the root (1 / radius, above 0 convex).
    curvature: f32,
    // UV per metre along the surface's u axis.
    uv_per_m: f32,
};

fn root_texel(strand: u32, k: u32) -> vec4<f32> {
    let per_row = max(textureDimensions(roots).x / 4u, 1u);
    let at = vec2<u32>((strand % per_row) * 4u + k, strand / per_row);
    return textureLoad(roots, at, 0);
}

// Flatter than a 100 m radius counts as flat.
const FLAT: f32 = 0.01;

// The surface behind the point `world` of strand `strand`, along the ray from the eye
// through it.
fn ground_behind(strand: u32, world: vec3<f32>) -> Ground {
    let a = root_texel(strand, 0u);
    let b = root_texel(strand, 1u);
    let c = root_texel(strand, 2u);
    let grad_u = c.xyz;
    let curvature = c.w;
    let grad_v = root_texel(strand, 3u).xyz;
    let root = a.xyz;
    let n_root = normalize(b.xyz);
    let eye = frame.eye.xyz;
    let dir = normalize(world - eye);
    var point = world - n_root * dot(world - root, n_root);
    var n = n_root;
    var hit = false;
    if curvature > FLAT {
        // The sphere of radius 1/curvature touching the surface at the root: the ray's
        // nearer hit.
        let radius = 1.0 / curvature;
        let centre = root - n_root * radius;
        let along = dot(centre - eye, dir);
        let closest = eye + dir * along;
        let off2 = dot(closest - centre, closest - centre);
        if off2 < radius * radius && along > 0.0 {
            point = closest - dir * sqrt(radius * radius - off2);
            n = normalize(point - centre);
            hit = true;
        }
    } else {
        let ray = world - eye;
        let denom = dot(ray, n_root);
        // Seen from above the plane, looking down at it.
        if dot(eye - root, n_root) > 0.0 && denom < -1e-4 * length(ray) {
            point = eye + ray * (dot(root - eye, n_root) / denom);
            hit = true;
        }
        // Near grazing a tangent plane runs far past the surface it stands for. Where
        // the surface is that one plane (the plane, the field) the ray meets it where the
        // surface itself shows it: held nearer, a grazing ray read the maps 8 heights
        // away instead of 30 and the far levels' pattern left the surface's.
        let reach = max(8.0 * length(world - root), 1e-4);
        let off = point - root;
        let dist = length(off);
        if dist > reach && frame.options.z < 0.5 {
            point = root + off * (reach / dist);
        }
    }
    var g: Ground;
    g.hit = hit;
    g.curvature = curvature;
    g.uv_per_m = length(grad_u);
    g.point = point;
    g.uv = vec2<f32>(a.w, b.w) + vec2<f32>(dot(grad_u, point - root), dot(grad_v, point - root));
    g.normal = n;
    g.tangent = normalize(grad_u - n * dot(n, grad_u) + vec3<f32>(1e-9, 0.0, 0.0));
    var bt = cross(n, g.tangent);
    if dot(bt, grad_v) < 0.0 {
        bt = -bt;
    }
    g.bitangent = bt;
    return g;
}

// Whether this draw blends at all (a tile wholly nearer than the blend's start does not:
// its fragments skip the search for the surface behind them). Uniform per draw, so
// derivatives taken under it stay in uniform control flow.
fn draw_blends() -> bool {
    return draw.blend_start < 3.0e38;
}

// The surface behind a fragment and its UV's screen derivatives, or no hit at all
// where the draw does not blend.
struct Behind {
    g: Ground,
    duv_dx: vec2<f32>,
    duv_dy: vec2<f32>,
};

// `centre`, a fragment's point interpolated at its pixel's centre, where that lies in
// front of the eye at a finite distance; `centroid` where the interpolation ran off (a
// strand seen edge-on extrapolates far, or behind the eye).
fn ray_point(centre: vec3<f32>, centroid: vec3<f32>) -> vec3<f32> {
    let w = (frame.view_proj * vec4<f32>(centre, 1.0)).w;
    let off = centre - frame.eye.xyz;
    if w > 1e-4 && dot(off, off) < 1e12 {
        return centre;
    }
    return centroid;
}

// The surface behind a fragment of strand `strand` whose point is `centre` at its
// pixel's centre and `centroid` at its centroid; searched for only where the draw
// blends.
fn behind(strand: u32, centre: vec3<f32>, centroid: vec3<f32>) -> Behind {
    var out: Behind;
    if draw_blends() {
        out.g = ground_behind(strand, ray_point(centre, centroid));
        out.duv_dx = dpdx(out.g.uv);
        out.duv_dy = dpdy(out.g.uv);
    }
    return out;
}

// The surface's tint at ground point `p`: on flat ground the map's, the very field the
// surface shows there (the ray meets it metres from the root at a grazing view, in
// another patch); elsewhere `tint`, the root's, whose surface behind lies within a few
// strand heights of it.
fn surface_tint(p: vec3<f32>, tint: vec3<f32>) -> vec3<f32> {
    if frame.options.w > 0.0 {
        return ground_tint(tint_map, p);
    }
    return tint;
}

// What the surface shows at `g`, shaded as surface.wgsl shades it; `duv_dx`, `duv_dy`
// are the UV's screen derivatives (taken where control flow is uniform); `root_tint`,
// the strand's own tint at its root.
fn surface_at(g: Ground, duv_dx: vec2<f32>, duv_dy: vec2<f32>, root_tint: vec3<f32>) -> vec3<f32> {
    let tint = surface_tint(g.point, root_tint);
    let texel = textureSampleGrad(base_map, atlas_sampler, g.uv, duv_dx, duv_dy).rgb;
    let base = texel * tint;
    let orm = textureSampleGrad(orm_map, atlas_sampler, g.uv, duv_dx, duv_dy).rgb;
    let nt = textureSampleGrad(normal_map, atlas_sampler, g.uv, duv_dx, duv_dy).xyz;
    let shaded = shade_surface(base, orm, nt, g.tangent, g.bitangent, g.normal, g.point);
    let v = normalize(frame.eye.xyz - g.point);
    let cover = cover_at(cover_map, atlas_sampler, g.uv, duv_dx, duv_dy, g.uv_per_m, v, g.normal);
    return through_canopy(shaded, texel, v, g.tangent, g.bitangent, g.normal, tint, g.curvature, cover);
}

// `own` blended by its distance toward what the strand stands for far away: the surface
// behind the fragment, or, against the sky past the outline, the canopy's strands as
// that ray sees them without the ground (what a far level shows along the outline, so
// the silhouette's colour does not jump when the cards leave). A card's picture shows
// its strands from two sides only, a strand one turn of many; the canopy's faces turn
// as the strands do and answer the sun alike from every side. With no canopy in the
// ray's way, the strand lit as strands of its colour turned every way about the root's
// normal (`base` lit at canopy `depth`).
fn blend_far(
    own: vec3<f32>,
    world: vec3<f32>,
    b: Behind,
    strand: u32,
    base: vec3<f32>,
    depth: f32,
    tint: vec3<f32>,
) -> vec3<f32> {
    let w = blend_weight(world);
    if w <= 0.0 {
        return own;
    }
    if b.g.hit {
        return mix(own, surface_at(b.g, b.duv_dx, b.duv_dy, tint), w);
    }
    // Past the outline: the canopy's strands as the ray sees them, without the ground.
    let v = normalize(frame.eye.xyz - world);
    let seen = canopy_seen(v, b.g.tangent, b.g.bitangent, b.g.normal, tint, b.g.curvature, 1.0);
    if seen.a < 0.999 {
        return mix(own, seen.rgb / (1.0 - seen.a), w);
    }
    let axis = normalize(root_texel(strand, 1u).xyz);
    return mix(own, shade_tilted(base, axis, depth, 0.0), w);
}

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
    let behind = behind(in.strand, in.ray, in.world);
    var n = in.normal;
    if !front {
        n = -n;
    }
    let depth = canopy_depth(in.along);
    let base = in.color * in.tint;
    let own = shade_strand(base, n, depth);
    return vec4<f32>(display(blend_far(own, in.world, behind, in.strand, base, depth, in.tint)), 1.0);
}

// `position`, a point of strand (or card) `strand`, with its height above the root's
// tangent plane scaled by `height`. What leaves for the relief sinks into the ground:
// past the surface's outline strands and cards stand against the sky, many deep along
// each ray, and dropping them one by one would thin that silhouette only at the very
// end of the fade; sinking thins it evenly (the last strand level of a layer without
// cards, `draw.sink`, and the cards).
fn toward_root(position: vec3<f32>, strand: u32, height: f32) -> vec3<f32> {
    if height >= 1.0 {
        return position;
    }
    let root = root_texel(strand, 0u).xyz;
    let n = normalize(root_texel(strand, 1u).xyz);
    return position - n * (dot(position - root, n) * (1.0 - height));
}

// Cards leaving for the relief sink into the ground with the fade. In a macro patch a
// card stands as much lower as its strands are shorter (its width kept, as theirs is).
fn sunk(position: vec3<f32>, card: u32) -> vec3<f32> {
    var height = 1.0 - draw.fade;
    if draw.macro_length > 0.0 {
        height *= 1.0 - draw.macro_length * root_patch(card);
    }
    return toward_root(position, card, height);
}

@vertex
fn vs_card(@builtin(vertex_index) index: u32) -> StrandOut {
    let v = fetch(index);
    var out: StrandOut;
    out.strand = index / max(draw.verts_per_strand, 1u);
    let world = sunk(v.position, out.strand);
    out.tint = strand_tint(out.strand);
    out.clip = frame.view_proj * vec4<f32>(world, 1.0);
    if v.rank >= draw.card_visible {
        out.clip = DROPPED;
    }
    out.world = world;
    out.ray = world;
    out.normal = v.normal;
    out.uv = v.uv;
    out.color = v.color;
    out.along = v.wind;
    return out;
}

@fragment
fn fs_card(in: StrandOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    let sampled = textureSample(atlas_color, atlas_sampler, in.uv);
    // The card's tint is its strands' crowns, the colour they show from above; the
    // picture shows them from the side. Seen from the side the picture holds.
    let up = normalize(root_texel(in.strand, 1u).xyz);
    let from_above = abs(dot(normalize(frame.eye.xyz - in.world), up));
    let texel = vec4<f32>(
        sampled.rgb * mix(vec3<f32>(1.0), in.color, from_above) * in.tint,
        sampled.a,
    );
    let tn = textureSample(atlas_normal, atlas_sampler, in.uv).xyz * 2.0 - 1.0;
    let dp_dx = dpdx(in.world);
    let dp_dy = dpdy(in.world);
    let duv_dx = dpdx(in.uv);
    let duv_dy = dpdy(in.uv);
    let behind = behind(in.strand, in.ray, in.world);
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
    // Each row of the picture shows its strands as far along as they are at that
    // height: lit as the canopy is there, as the strands it stands for are.
    let depth = canopy_depth(min(in.along * draw.along_scale, 1.0));
    let own = shade_strand(texel.rgb, n, depth);
    return vec4<f32>(display(blend_far(own, in.world, behind, in.strand, texel.rgb, depth, in.tint)), 1.0);
}
