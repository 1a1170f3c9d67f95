//! The preview's GPU side: the renderer and each view's multisampled sRGB target, kept
//! in egui-wgpu's callback resources, and the paint callback that renders a view into
//! its target (`prepare`) and copies it into egui's pass (`paint`).

use super::lock;
use std::sync::{Arc, Mutex};
use tuft_render::{FramePlan, Renderer, Scene, View};

/// The preview's GPU side, kept in egui-wgpu's callback resources.
pub struct PreviewResources {
    renderer: Renderer,
    gpu: Option<tuft_render::GpuScene>,
    /// One target per view drawn in a frame.
    targets: Vec<Option<Targets>>,
    blit: wgpu::RenderPipeline,
    blit_layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    samples: u32,
}

struct Targets {
    target: tuft_render::Target,
    blit_bind: wgpu::BindGroup,
}

/// The preview's own colour format: sRGB, so shading stays linear.
const PREVIEW_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

const BLIT_WGSL: &str = r"
@group(0) @binding(0) var frame_tex: texture_2d<f32>;
@group(0) @binding(1) var frame_sampler: sampler;

struct Out {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

@vertex
fn vs(@builtin(vertex_index) i: u32) -> Out {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    var out: Out;
    out.clip = vec4<f32>(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
    out.uv = uv;
    return out;
}

fn encode(c: f32) -> f32 {
    if c <= 0.0031308 {
        return c * 12.92;
    }
    return 1.055 * pow(c, 1.0 / 2.4) - 0.055;
}

// egui's target is sRGB: the sampled (linear) colour as it is.
@fragment
fn fs_linear(in: Out) -> @location(0) vec4<f32> {
    return textureSample(frame_tex, frame_sampler, in.uv);
}

// egui's target is linear-format holding gamma-encoded values: encode.
@fragment
fn fs_encode(in: Out) -> @location(0) vec4<f32> {
    let c = textureSample(frame_tex, frame_sampler, in.uv);
    return vec4<f32>(encode(c.r), encode(c.g), encode(c.b), c.a);
}
";

/// Creates the preview's GPU resources for egui's render state. Call once at start-up.
///
/// # Errors
/// What the adapter lacks that drawing strands needs, in words; nothing is installed.
pub fn install(render_state: &egui_wgpu::RenderState) -> Result<(), String> {
    if let Some(why) = tuft_render::renderer::missing_capability(
        &render_state.adapter,
        Some(&render_state.device.limits()),
    ) {
        return Err(why);
    }
    let device = &render_state.device;
    let flags = render_state
        .adapter
        .get_texture_format_features(PREVIEW_FORMAT)
        .flags;
    let samples = if flags.sample_count_supported(4) {
        4
    } else {
        1
    };
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("tuft preview blit"),
        source: wgpu::ShaderSource::Wgsl(BLIT_WGSL.into()),
    });
    let blit_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("tuft preview blit"),
        entries: &[
            tuft_render::renderer::texture_entry(0),
            tuft_render::renderer::sampler_entry(1),
        ],
    });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("tuft preview blit"),
        bind_group_layouts: &[Some(&blit_layout)],
        immediate_size: 0,
    });
    let fs = if render_state.target_format.is_srgb() {
        "fs_linear"
    } else {
        "fs_encode"
    };
    let blit = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("tuft preview blit"),
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs"),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            buffers: &[],
        },
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some(fs),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format: render_state.target_format,
                blend: Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    });
    let sampler = device.create_sampler(&wgpu::SamplerDescriptor::default());
    let renderer = Renderer::new(device, PREVIEW_FORMAT, samples);
    render_state
        .renderer
        .write()
        .callback_resources
        .insert(PreviewResources {
            renderer,
            gpu: None,
            targets: Vec::new(),
            blit,
            blit_layout,
            sampler,
            samples,
        });
    Ok(())
}

impl PreviewResources {
    fn ensure_targets(&mut self, device: &wgpu::Device, slot: usize, size: [u32; 2]) {
        while self.targets.len() <= slot {
            self.targets.push(None);
        }
        if self.targets[slot]
            .as_ref()
            .is_none_or(|t| t.target.size != size)
        {
            let target = tuft_render::Target::new(
                device,
                size,
                PREVIEW_FORMAT,
                self.samples,
                wgpu::TextureUsages::TEXTURE_BINDING,
            );
            let blit_bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("tuft preview blit"),
                layout: &self.blit_layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::TextureView(&target.resolved_view),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: wgpu::BindingResource::Sampler(&self.sampler),
                    },
                ],
            });
            self.targets[slot] = Some(Targets { target, blit_bind });
        }
    }
}

/// One view of the preview, drawn by egui-wgpu.
pub(super) struct PreviewCallback {
    pub(super) scene: Arc<Mutex<Option<Scene>>>,
    pub(super) plan: FramePlan,
    pub(super) view: View,
    pub(super) size: [u32; 2],
    /// Which of the frame's views this is.
    pub(super) slot: usize,
}

impl egui_wgpu::CallbackTrait for PreviewCallback {
    fn prepare(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        _screen: &egui_wgpu::ScreenDescriptor,
        encoder: &mut wgpu::CommandEncoder,
        resources: &mut egui_wgpu::CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        let Some(res) = resources.get_mut::<PreviewResources>() else {
            return Vec::new();
        };
        let guard = lock(&self.scene);
        let Some(scene) = guard.as_ref() else {
            return Vec::new();
        };
        if !res.gpu.as_ref().is_some_and(|g| g.holds(scene)) {
            res.gpu = Some(res.renderer.upload_scene(device, queue, scene));
        }
        let Some(mut gpu) = res.gpu.take() else {
            return Vec::new();
        };
        res.renderer.prepare_view(
            device, queue, &mut gpu, scene, &self.plan, &self.view, self.slot,
        );
        res.ensure_targets(device, self.slot, self.size);
        let Some(Some(targets)) = res.targets.get(self.slot) else {
            res.gpu = Some(gpu);
            return Vec::new();
        };
        let sky = wgpu::Color {
            r: 0.55,
            g: 0.64,
            b: 0.74,
            a: 1.0,
        };
        targets.target.draw(
            &res.renderer,
            encoder,
            &gpu,
            &self.plan,
            self.slot,
            sky,
            None,
        );
        res.gpu = Some(gpu);
        Vec::new()
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        render_pass: &mut wgpu::RenderPass<'static>,
        resources: &egui_wgpu::CallbackResources,
    ) {
        let Some(res) = resources.get::<PreviewResources>() else {
            return;
        };
        let Some(Some(targets)) = res.targets.get(self.slot) else {
            return;
        };
        render_pass.set_pipeline(&res.blit);
        render_pass.set_bind_group(0, &targets.blit_bind, &[]);
        render_pass.draw(0..3, 0..1);
    }
}
