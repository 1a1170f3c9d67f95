//! The GPU side: pipelines, the scene's buffers, and the frame's draws. Work is split as
//! an egui paint callback wants it: [`Renderer::prepare`] uploads (only tiles whose
//! resident prefix changed) and writes the frame's uniforms; [`Renderer::paint`] records
//! draws into a render pass someone else began.

use crate::light::{Light, SunAngles};
use crate::scene::{DrawParams, DrawTarget, FramePlan, Scene, SurfaceVertex, View};
use crate::shaders::{CanopyUniform, FrameUniform, shader_sources};
use crate::texture::{float_texture, mips, texture, write_levels};
use crate::tile_buffers::{SharedIndices, TileBuffers, TileSource, Uploader};
use std::num::NonZeroU64;
use wgpu::util::DeviceExt;

/// The depth buffer's format.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// Uniform buffer offsets must be multiples of this (wgpu's default limit).
const DRAW_STRIDE: u64 = 256;

/// Pipelines and layouts for one colour format and sample count.
pub struct Renderer {
    surface_pipeline: wgpu::RenderPipeline,
    strand_pipeline: wgpu::RenderPipeline,
    strand_wind_pipeline: wgpu::RenderPipeline,
    card_pipeline: wgpu::RenderPipeline,
    frame_layout: wgpu::BindGroupLayout,
    draw_layout: wgpu::BindGroupLayout,
    maps_layout: wgpu::BindGroupLayout,
    layer_layout: wgpu::BindGroupLayout,
    roots_layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    light: Light,
}

pub use crate::tile_buffers::ROOT_TEXELS;
pub use scene_gpu::GpuScene;

mod scene_gpu;

fn surface_vertex_layout() -> wgpu::VertexBufferLayout<'static> {
    const ATTRS: [wgpu::VertexAttribute; 5] = wgpu::vertex_attr_array![
        0 => Float32x3, 1 => Float32x3, 2 => Float32x4, 3 => Float32x2, 4 => Float32
    ];
    wgpu::VertexBufferLayout {
        array_stride: size_of::<SurfaceVertex>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &ATTRS,
    }
}

/// A layout entry for a float 2D texture read by the `visibility` stages.
fn float_texture_entry(
    binding: u32,
    filterable: bool,
    visibility: wgpu::ShaderStages,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

/// A layout entry for a filterable 2D texture read by the fragment stage.
#[must_use]
pub fn texture_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    float_texture_entry(binding, true, wgpu::ShaderStages::FRAGMENT)
}

/// A layout entry for the ground's tint: RGBA32F, read with `textureLoad` (unfiltered)
/// by the fragment stage.
fn ground_tint_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    float_texture_entry(binding, false, wgpu::ShaderStages::FRAGMENT)
}

/// A layout entry for a filtering sampler used by the fragment stage.
#[must_use]
pub fn sampler_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
        count: None,
    }
}

fn uniform_entry(dynamic: bool, size: u64) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding: 0,
        visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: dynamic,
            min_binding_size: NonZeroU64::new(size),
        },
        count: None,
    }
}

/// What `adapter` lacks that the renderer needs, in words; `None` where it has all of
/// it. The strand pipelines read their vertices from storage buffers in the vertex
/// stage (a ribbon's one a centreline point, drawn as its two sides). With `limits`,
/// those of a device already made on the adapter are asked as well: a device made
/// with lower limits than its adapter's (WebGL's, say) lacks what its adapter has.
#[must_use]
pub fn missing_capability(
    adapter: &wgpu::Adapter,
    limits: Option<&wgpu::Limits>,
) -> Option<String> {
    let flags = adapter.get_downlevel_capabilities().flags;
    let stage = limits
        .unwrap_or(&adapter.limits())
        .max_storage_buffers_per_shader_stage;
    if flags.contains(wgpu::DownlevelFlags::VERTEX_STORAGE) && stage > 0 {
        return None;
    }
    let info = adapter.get_info();
    let device = if adapter.limits().max_storage_buffers_per_shader_stage > 0 && stage == 0 {
        " on a device made without them"
    } else {
        ""
    };
    Some(format!(
        "the graphics adapter {} ({:?}) cannot read storage buffers in vertex shaders{device}, \
         which drawing strands needs",
        info.name, info.backend
    ))
}

impl Renderer {
    /// Pipelines drawing into `color_format` (an sRGB format keeps shading linear) with
    /// `sample_count` samples and a [`DEPTH_FORMAT`] depth buffer, on a device whose
    /// adapter has what [`missing_capability`] asks for.
    #[must_use]
    pub fn new(
        device: &wgpu::Device,
        color_format: wgpu::TextureFormat,
        sample_count: u32,
    ) -> Self {
        let frame_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("tuft frame"),
            entries: &[uniform_entry(false, size_of::<FrameUniform>() as u64)],
        });
        let draw_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("tuft draw"),
            entries: &[uniform_entry(true, size_of::<DrawParams>() as u64)],
        });
        let maps_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("tuft surface maps"),
            entries: &[
                texture_entry(0),
                texture_entry(1),
                texture_entry(2),
                sampler_entry(3),
                texture_entry(4),
                ground_tint_entry(5),
            ],
        });
        let layer_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("tuft layer textures"),
            entries: &[
                texture_entry(0),
                texture_entry(1),
                sampler_entry(2),
                texture_entry(3),
                texture_entry(4),
                texture_entry(5),
                texture_entry(6),
                ground_tint_entry(7),
            ],
        });
        let roots_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("tuft roots"),
            // RGBA32F, read with `textureLoad`: unfiltered.
            // Read by the card vertex stage too (cards sink toward their roots).
            // Then the tile's frame, which the vertex stage unpacks positions with, and
            // the tile's vertices, which it reads as stored (ribbons: one a centreline
            // point, drawn as its two sides).
            entries: &[
                float_texture_entry(0, false, wgpu::ShaderStages::VERTEX_FRAGMENT),
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::VERTEX,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: NonZeroU64::new(32),
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: wgpu::ShaderStages::VERTEX,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Storage { read_only: true },
                        has_dynamic_offset: false,
                        min_binding_size: NonZeroU64::new(32),
                    },
                    count: None,
                },
            ],
        });
        let [(_, surface_src), (_, strands_src)] = shader_sources();
        let surface_module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("tuft surface.wgsl"),
            source: wgpu::ShaderSource::Wgsl(surface_src.into()),
        });
        let strands_module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("tuft strands.wgsl"),
            source: wgpu::ShaderSource::Wgsl(strands_src.into()),
        });
        let surface_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("tuft surface"),
            bind_group_layouts: &[Some(&frame_layout), Some(&draw_layout), Some(&maps_layout)],
            immediate_size: 0,
        });
        let strand_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("tuft strands"),
            bind_group_layouts: &[
                Some(&frame_layout),
                Some(&draw_layout),
                Some(&layer_layout),
                Some(&roots_layout),
            ],
            immediate_size: 0,
        });
        let pipeline = |label: &str,
                        pipeline_layout: &wgpu::PipelineLayout,
                        module: &wgpu::ShaderModule,
                        vs: &str,
                        fs: &str,
                        buffer: Option<wgpu::VertexBufferLayout<'static>>,
                        cull: Option<wgpu::Face>| {
            // Strands read their vertices from a storage buffer: no vertex buffer.
            let buffers: Vec<_> = buffer.into_iter().map(Some).collect();
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(pipeline_layout),
                vertex: wgpu::VertexState {
                    module,
                    entry_point: Some(vs),
                    compilation_options: wgpu::PipelineCompilationOptions::default(),
                    buffers: &buffers,
                },
                primitive: wgpu::PrimitiveState {
                    topology: wgpu::PrimitiveTopology::TriangleList,
                    front_face: wgpu::FrontFace::Ccw,
                    cull_mode: cull,
                    ..wgpu::PrimitiveState::default()
                },
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(true),
                    depth_compare: Some(wgpu::CompareFunction::Less),
                    stencil: wgpu::StencilState::default(),
                    bias: wgpu::DepthBiasState::default(),
                }),
                multisample: wgpu::MultisampleState {
                    count: sample_count,
                    mask: !0,
                    alpha_to_coverage_enabled: false,
                },
                fragment: Some(wgpu::FragmentState {
                    module,
                    entry_point: Some(fs),
                    compilation_options: wgpu::PipelineCompilationOptions::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: color_format,
                        blend: None,
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let surface_pipeline = pipeline(
            "tuft surface",
            &surface_layout,
            &surface_module,
            "vs_surface",
            "fs_surface",
            Some(surface_vertex_layout()),
            Some(wgpu::Face::Back),
        );
        let strand_pipeline = pipeline(
            "tuft strands",
            &strand_layout,
            &strands_module,
            "vs_strand",
            "fs_strand",
            None,
            None,
        );
        let strand_wind_pipeline = pipeline(
            "tuft strands with wind",
            &strand_layout,
            &strands_module,
            "vs_strand_wind",
            "fs_strand",
            None,
            None,
        );
        let card_pipeline = pipeline(
            "tuft cards",
            &strand_layout,
            &strands_module,
            "vs_card",
            "fs_card",
            None,
            None,
        );
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("tuft repeat"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::MipmapFilterMode::Linear,
            ..wgpu::SamplerDescriptor::default()
        });
        Self {
            surface_pipeline,
            strand_pipeline,
            strand_wind_pipeline,
            card_pipeline,
            frame_layout,
            draw_layout,
            maps_layout,
            sampler,
            light: Light::default(),
            layer_layout,
            roots_layout,
        }
    }

    /// Sets the light.
    pub fn set_light(&mut self, light: Light) {
        self.light = light;
    }
}
