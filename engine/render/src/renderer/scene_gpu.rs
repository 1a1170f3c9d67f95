//! A scene's side on the GPU: its buffers and textures uploaded ([`Renderer::upload_scene`]),
//! brought up to each frame's plan ([`Renderer::prepare`]) and drawn ([`Renderer::paint`]).

use super::*;
use crate::scene::GroundTint;

struct GpuLayer {
    tiles: Vec<Option<TileBuffers>>,
    cards: Vec<Option<TileBuffers>>,
    /// The atlas and the surface maps, as strands and cards read them.
    textures: wgpu::BindGroup,
    /// Whether `textures` holds the layer's atlas (not yet drawn when the scene landed).
    dressed: bool,
}

/// A scene's buffers on the GPU, and the frame's uniforms.
pub struct GpuScene {
    scene_id: u64,
    /// The scene's `maps_version` the map textures hold, their side, and the textures
    /// (base colour, normal, ORM; then the cover and the ground's tint, which the maps'
    /// edits leave alone).
    maps_version: u64,
    maps_size: u32,
    map_textures: [wgpu::Texture; 5],
    /// What the frame says of the ground's lattice map: `options.w`, then
    /// `ground_tint` and `ground_lattice` (all 0 where no map is bound).
    ground: (f32, [f32; 4], [f32; 4]),
    surface_vertices: wgpu::Buffer,
    surface_indices: wgpu::Buffer,
    surface_ranges: Vec<std::ops::Range<u32>>,
    maps: wgpu::BindGroup,
    layers: Vec<GpuLayer>,
    /// The index buffers the strand and card tiles' chunks share.
    indices: SharedIndices,
    /// One set of frame and draw uniforms per view drawn in a frame (the levels side by
    /// side are several views of one scene).
    slots: Vec<FrameSlot>,
    /// Bytes uploaded by the last `prepare`.
    pub uploaded_bytes: u64,
}

/// The uniforms of one view of a scene.
struct FrameSlot {
    frame_buffer: wgpu::Buffer,
    frame_bind: wgpu::BindGroup,
    draw_buffer: wgpu::Buffer,
    draw_bind: wgpu::BindGroup,
    draw_capacity: u64,
    wind_stage: bool,
}

impl GpuScene {
    /// Whether these buffers hold `scene`.
    #[must_use]
    pub fn holds(&self, scene: &Scene) -> bool {
        self.scene_id == scene.id && self.maps_size == shown_maps(scene).size
    }

    /// The most chunks any uploaded tile was split into to fit the device's limits.
    #[must_use]
    pub fn max_chunks(&self) -> usize {
        self.layers
            .iter()
            .flat_map(|l| l.tiles.iter().chain(&l.cards))
            .flatten()
            .map(TileBuffers::n_chunks)
            .max()
            .unwrap_or(0)
    }
}

impl Renderer {
    /// Uploads what never changes while `scene` is shown: the surface, its maps, the
    /// cards and the atlases. Strand tiles follow in [`Renderer::prepare`].
    #[must_use]
    pub fn upload_scene(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        scene: &Scene,
    ) -> GpuScene {
        let mesh = &scene.surface_mesh;
        let surface_vertices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("tuft surface vertices"),
            contents: bytemuck::cast_slice(&mesh.vertices),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let surface_indices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("tuft surface indices"),
            contents: bytemuck::cast_slice(&mesh.indices),
            usage: wgpu::BufferUsages::INDEX,
        });
        let (size, levels) = map_levels(scene);
        let [base_color, normal, orm] = &levels;
        let textures = [
            texture(device, queue, "tuft base colour", size, base_color, true),
            texture(device, queue, "tuft normal", size, normal, false),
            texture(device, queue, "tuft orm", size, orm, false),
            cover_texture(device, queue, scene),
            ground_tint_texture(device, queue, scene),
        ];
        self.finish_upload(
            device,
            queue,
            scene,
            textures,
            surface_vertices,
            surface_indices,
        )
    }

    fn finish_upload(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        scene: &Scene,
        textures: [wgpu::Texture; 5],
        surface_vertices: wgpu::Buffer,
        surface_indices: wgpu::Buffer,
    ) -> GpuScene {
        let views: Vec<wgpu::TextureView> = textures
            .iter()
            .map(|t| t.create_view(&wgpu::TextureViewDescriptor::default()))
            .collect();
        let maps = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("tuft surface maps"),
            layout: &self.maps_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&views[0]),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(&views[1]),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::TextureView(&views[2]),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: wgpu::BindingResource::TextureView(&views[3]),
                },
                wgpu::BindGroupEntry {
                    binding: 5,
                    resource: wgpu::BindingResource::TextureView(&views[4]),
                },
            ],
        });
        let layers = scene
            .layers
            .iter()
            .map(|layer| {
                let atlas = layer.shared.dressed().map(|d| &d.atlas);
                let bind = self.layer_textures(device, queue, atlas, &views);
                GpuLayer {
                    tiles: layer.resident.iter().map(|_| None).collect(),
                    cards: layer.shared.card_tiles.iter().map(|_| None).collect(),
                    textures: bind,
                    dressed: atlas.is_some(),
                }
            })
            .collect();
        GpuScene {
            scene_id: scene.id,
            maps_version: scene.maps_version,
            maps_size: shown_maps(scene).size,
            ground: ground_uniform(device, scene),
            map_textures: textures,
            surface_vertices,
            surface_indices,
            surface_ranges: scene.surface_mesh.tile_ranges.clone(),
            maps,
            layers,
            indices: SharedIndices::default(),
            slots: Vec::new(),
            uploaded_bytes: 0,
        }
    }

    /// A layer's textures as strands and cards read them: its atlas (a transparent
    /// texel while it is not drawn yet) and the surface maps `maps`.
    fn layer_textures(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        atlas: Option<&tuft_strands::cards::Atlas>,
        maps: &[wgpu::TextureView],
    ) -> wgpu::BindGroup {
        let clear = [vec![0u8; 4]];
        let (size, color, normal) = atlas.map_or((1, &clear[..], &clear[..]), |a| {
            (a.size, &a.color[..], &a.normal[..])
        });
        let color = texture(device, queue, "tuft atlas colour", size, color, true);
        let normal = texture(device, queue, "tuft atlas normal", size, normal, false);
        let cv = color.create_view(&wgpu::TextureViewDescriptor::default());
        let nv = normal.create_view(&wgpu::TextureViewDescriptor::default());
        let view = |binding, view| wgpu::BindGroupEntry {
            binding,
            resource: wgpu::BindingResource::TextureView(view),
        };
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("tuft layer textures"),
            layout: &self.layer_layout,
            entries: &[
                view(0, &cv),
                view(1, &nv),
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
                view(3, &maps[0]),
                view(4, &maps[1]),
                view(5, &maps[2]),
                view(6, &maps[3]),
                view(7, &maps[4]),
            ],
        })
    }

    fn frame_slot(&self, device: &wgpu::Device) -> FrameSlot {
        let frame_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("tuft frame"),
            size: size_of::<FrameUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let frame_bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("tuft frame"),
            layout: &self.frame_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: frame_buffer.as_entire_binding(),
            }],
        });
        let (draw_buffer, draw_bind) = self.draw_buffer(device, 64);
        FrameSlot {
            frame_buffer,
            frame_bind,
            draw_buffer,
            draw_bind,
            draw_capacity: 64,
            wind_stage: false,
        }
    }

    fn draw_buffer(&self, device: &wgpu::Device, capacity: u64) -> (wgpu::Buffer, wgpu::BindGroup) {
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("tuft draws"),
            size: capacity * DRAW_STRIDE,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("tuft draws"),
            layout: &self.draw_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &buffer,
                    offset: 0,
                    size: NonZeroU64::new(size_of::<DrawParams>() as u64),
                }),
            }],
        });
        (buffer, bind)
    }

    /// Uploads the strand tiles whose resident prefix changed since the last call, and
    /// the frame's uniforms.
    pub fn prepare(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        gpu: &mut GpuScene,
        scene: &Scene,
        plan: &FramePlan,
        view: &View,
    ) {
        gpu.uploaded_bytes = 0;
        self.prepare_view(device, queue, gpu, scene, plan, view, 0);
    }

    /// As [`Renderer::prepare`] for view `slot` of several drawn in one frame (each view
    /// keeps its own uniforms; uploads are shared). Paint it with [`Renderer::paint_view`].
    #[allow(clippy::too_many_arguments)]
    pub fn prepare_view(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        gpu: &mut GpuScene,
        scene: &Scene,
        plan: &FramePlan,
        view: &View,
        slot: usize,
    ) {
        while gpu.slots.len() <= slot {
            gpu.slots.push(self.frame_slot(device));
        }
        // Maps replaced in place (same side, or `holds` would have said no): rewrite them.
        if gpu.maps_version != scene.maps_version {
            let (size, levels) = map_levels(scene);
            for (texture, levels) in gpu.map_textures.iter().zip(&levels) {
                write_levels(queue, texture, size, levels);
                gpu.uploaded_bytes += levels.iter().map(|l| l.len() as u64).sum::<u64>();
            }
            gpu.maps_version = scene.maps_version;
        }
        // A layer's atlas is drawn when its first card tile is planted: bound from then.
        for (gpu_layer, layer) in gpu.layers.iter_mut().zip(&scene.layers) {
            if gpu_layer.dressed {
                continue;
            }
            if let Some(dressing) = layer.shared.dressed() {
                let maps: Vec<wgpu::TextureView> = gpu
                    .map_textures
                    .iter()
                    .map(|t| t.create_view(&wgpu::TextureViewDescriptor::default()))
                    .collect();
                let atlas = &dressing.atlas;
                gpu_layer.textures = self.layer_textures(device, queue, Some(atlas), &maps);
                gpu_layer.dressed = true;
                gpu.uploaded_bytes += atlas
                    .color
                    .iter()
                    .chain(&atlas.normal)
                    .map(|l| l.len() as u64)
                    .sum::<u64>();
            }
        }
        let mut up = Uploader {
            device,
            queue,
            roots_layout: &self.roots_layout,
            indices: &mut gpu.indices,
        };
        // Tiles the scene let go of or shrank (out of view, far behind) free their
        // buffers, drawn or not.
        for (gpu_layer, layer) in gpu.layers.iter_mut().zip(&scene.layers) {
            for (slot, r) in gpu_layer.tiles.iter_mut().zip(&layer.resident) {
                let shrank = slot.as_ref().is_some_and(|b| {
                    b.version != r.version && r.placed.strands.len() < b.n_strands()
                });
                if shrank {
                    let source = TileSource::of(&r.mesh, &r.placed.strands, scene);
                    gpu.uploaded_bytes += TileBuffers::update(slot, &mut up, &source, r.version);
                }
            }
        }
        for item in &plan.draws {
            // A strand tile uploads the strands its resident prefix gained; a tile's
            // cards are built once, the first time a frame wants them, and uploaded then.
            let (slot, source, version) = match item.target {
                DrawTarget::Strands { layer, tile } => {
                    let r = &scene.layers[layer].resident[tile];
                    let slot = &mut gpu.layers[layer].tiles[tile];
                    if slot.as_ref().is_some_and(|b| b.version == r.version) {
                        continue;
                    }
                    (
                        slot,
                        TileSource::of(&r.mesh, &r.placed.strands, scene),
                        r.version,
                    )
                }
                DrawTarget::Cards { layer, tile } => {
                    let slot = &mut gpu.layers[layer].cards[tile];
                    let built = scene.layers[layer].shared.card_tiles[tile].get();
                    let Some(built) = built.filter(|_| slot.is_none()) else {
                        continue;
                    };
                    (
                        slot,
                        TileSource::of(&built.mesh, &built.placed.strands, scene),
                        0,
                    )
                }
                DrawTarget::Surface { .. } => continue,
            };
            gpu.uploaded_bytes += TileBuffers::update(slot, &mut up, &source, version);
        }
        let light = &self.light;
        let wind = view.wind.map_or([0.0; 4], |w| {
            let a = w.direction * std::f32::consts::TAU;
            [a.cos(), a.sin(), w.strength, w.time_s]
        });
        let fs = &mut gpu.slots[slot];
        fs.wind_stage = view.wind.is_some();
        let frame = FrameUniform {
            view_proj: plan.view_proj.to_cols_array_2d(),
            eye: plan.eye.extend(1.0).to_array(),
            sun_dir: view
                .sun
                .map_or_else(|| light.sun(), SunAngles::direction)
                .extend(0.0)
                .to_array(),
            sun_color: rgb4(light.sun_color),
            sky_color: rgb4(light.sky_color),
            ground_color: rgb4(light.ground_color),
            wind,
            options: [
                if view.overlay { 1.0 } else { 0.0 },
                exposure(view.exposure_ev),
                if plan.ground_is_plane { 1.0 } else { 0.0 },
                gpu.ground.0,
            ],
            ground_tint: gpu.ground.1,
            ground_lattice: gpu.ground.2,
            canopy: CanopyUniform::new(&plan.canopy, plan.canopy_ground),
        };
        queue.write_buffer(&fs.frame_buffer, 0, bytemuck::bytes_of(&frame));
        let n = plan.draws.len() as u64;
        if n > fs.draw_capacity {
            let capacity = n.next_power_of_two();
            let (buffer, bind) = self.draw_buffer(device, capacity);
            fs.draw_buffer = buffer;
            fs.draw_bind = bind;
            fs.draw_capacity = capacity;
        }
        if n > 0 {
            let mut bytes = vec![0u8; (n * DRAW_STRIDE) as usize];
            for (k, item) in plan.draws.iter().enumerate() {
                let at = k * DRAW_STRIDE as usize;
                bytes[at..at + size_of::<DrawParams>()]
                    .copy_from_slice(bytemuck::bytes_of(&item.params));
            }
            queue.write_buffer(&fs.draw_buffer, 0, &bytes);
        }
    }

    /// Records the frame's draws into `pass`.
    pub fn paint(&self, pass: &mut wgpu::RenderPass<'_>, gpu: &GpuScene, plan: &FramePlan) {
        self.paint_view(pass, gpu, plan, 0);
    }

    /// Records the draws of view `slot` (prepared with [`Renderer::prepare_view`]).
    pub fn paint_view(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        gpu: &GpuScene,
        plan: &FramePlan,
        slot: usize,
    ) {
        let Some(fs) = gpu.slots.get(slot) else {
            return;
        };
        pass.set_bind_group(0, &fs.frame_bind, &[]);
        let mut bound: Option<u8> = None;
        for (k, item) in plan.draws.iter().enumerate() {
            let offset = (k as u64 * DRAW_STRIDE) as u32;
            pass.set_bind_group(1, &fs.draw_bind, &[offset]);
            match item.target {
                DrawTarget::Surface { tile } => {
                    if bound != Some(0) {
                        pass.set_pipeline(&self.surface_pipeline);
                        pass.set_bind_group(2, &gpu.maps, &[]);
                        pass.set_vertex_buffer(0, gpu.surface_vertices.slice(..));
                        pass.set_index_buffer(
                            gpu.surface_indices.slice(..),
                            wgpu::IndexFormat::Uint32,
                        );
                        bound = Some(0);
                    }
                    let range = &gpu.surface_ranges[tile];
                    pass.draw_indexed(range.start..range.start + item.index_count, 0, 0..1);
                }
                DrawTarget::Strands { layer, tile } => {
                    let Some(buffers) = &gpu.layers[layer].tiles[tile] else {
                        continue;
                    };
                    if bound != Some(1) {
                        pass.set_pipeline(if fs.wind_stage {
                            &self.strand_wind_pipeline
                        } else {
                            &self.strand_pipeline
                        });
                        bound = Some(1);
                    }
                    pass.set_bind_group(2, &gpu.layers[layer].textures, &[]);
                    buffers.draw(pass, item.index_count);
                }
                DrawTarget::Cards { layer, tile } => {
                    let Some(buffers) = &gpu.layers[layer].cards[tile] else {
                        continue;
                    };
                    if bound != Some(2) {
                        pass.set_pipeline(&self.card_pipeline);
                        bound = Some(2);
                    }
                    pass.set_bind_group(2, &gpu.layers[layer].textures, &[]);
                    buffers.draw(pass, item.index_count);
                }
            }
        }
    }
}

fn rgb4(c: [f32; 3]) -> [f32; 4] {
    [c[0], c[1], c[2], 1.0]
}

/// The surface maps `scene` shows: its own, or a flat grey where they are inconsistent.
fn shown_maps(scene: &Scene) -> std::borrow::Cow<'_, crate::material::SurfaceMaps> {
    if scene.material.maps.is_consistent() {
        std::borrow::Cow::Borrowed(&scene.material.maps)
    } else {
        std::borrow::Cow::Owned(crate::material::SurfaceMaps::flat([128, 128, 128]))
    }
}

/// `scene`'s cover (`tuft_strands::cover`) as a linear texture with its mip chain: the
/// shaders read it at the mip of a ray's run through the canopy.
fn cover_texture(device: &wgpu::Device, queue: &wgpu::Queue, scene: &Scene) -> wgpu::Texture {
    let cover = scene.cover();
    let levels = mips(&cover.texels(), cover.size);
    texture(device, queue, "tuft cover", cover.size, &levels, false)
}

/// The scene's ground lattice map where it has one the device holds; else a texel
/// nothing reads.
fn ground_tint_texture(device: &wgpu::Device, queue: &wgpu::Queue, scene: &Scene) -> wgpu::Texture {
    let unread = [[0.0f32; 4]];
    let (side, texels) = match ground_tint(device, scene) {
        Some(t) => (t.side, t.texels.as_slice()),
        None => (1, &unread[..]),
    };
    float_texture(device, queue, "tuft ground tint", side, side, texels)
}

/// The scene's ground lattice where it has one and the device holds a texture its size.
fn ground_tint<'a>(device: &wgpu::Device, scene: &'a Scene) -> Option<&'a GroundTint> {
    scene
        .ground_tint
        .as_ref()
        .filter(|t| t.side <= device.limits().max_texture_dimension_2d)
}

/// What the frame says of the map [`ground_tint_texture`] made (`GpuScene::ground`).
fn ground_uniform(device: &wgpu::Device, scene: &Scene) -> (f32, [f32; 4], [f32; 4]) {
    ground_tint(device, scene).map_or((0.0, [0.0; 4], [0.0; 4]), |t| {
        let [[x0, z0], [x1, z1]] = t.origin;
        let [r, g, b] = t.tint;
        (
            1.0,
            [r, g, b, t.scale_m],
            [x0 as f32, z0 as f32, x1 as f32, z1 as f32],
        )
    })
}

/// The maps `scene` shows ([`shown_maps`]) as their side and each map's mip chain:
/// base colour, normal, ORM.
fn map_levels(scene: &Scene) -> (u32, [Vec<Vec<u8>>; 3]) {
    let maps = shown_maps(scene);
    (
        maps.size,
        [&maps.base_color, &maps.normal, &maps.orm].map(|m| mips(m, maps.size)),
    )
}

/// The multiplier `ev` stops of exposure give the frame's light: finite, within 16 stops
/// either way (anything else draws as lit).
fn exposure(ev: f32) -> f32 {
    if ev.is_finite() {
        ev.clamp(-16.0, 16.0).exp2()
    } else {
        1.0
    }
}
