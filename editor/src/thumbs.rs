//! Per-node thumbnails: a small picture of each node's first output over one repeat,
//! computed on a worker thread whenever the graph changes (a newer graph supersedes an
//! older one still queued).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use tuft_graph::cache::SetCache;
use tuft_graph::value::PortType;
use tuft_graph::{Domain, Evaluator, MaterialGraph, NodeId, OutRef};

/// Side of a thumbnail in texels.
pub const THUMB: usize = 40;

/// How many node thumbnails are evaluated together (at 40² texels and three channels,
/// 2 MB of fields).
pub const THUMB_BATCH: usize = 128;

struct Job {
    generation: u64,
    graph: MaterialGraph,
}

/// Thumbnails and the worker that draws them.
pub struct Thumbnails {
    jobs: Sender<Job>,
    /// The newest generation the document has reached: older work stops.
    latest: Arc<AtomicU64>,
    results: Receiver<(u64, Drawn)>,
    /// The graph generation the textures show.
    pub shown: u64,
    textures: HashMap<NodeId, egui::TextureHandle>,
    survivors: HashMap<String, egui::TextureHandle>,
    reports: LevelReports,
}

impl std::fmt::Debug for Thumbnails {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Thumbnails")
            .field("shown", &self.shown)
            .finish_non_exhaustive()
    }
}

/// The image of one output over one repeat.
#[must_use]
pub fn image(evaluator: &Evaluator<'_>, out: &OutRef, ty: PortType) -> egui::ColorImage {
    let domain = Domain::grid(THUMB, THUMB);
    picture(evaluator.eval_output(out, &domain).as_ref(), ty)
}

/// The thumbnails of `outs`, evaluated together: a node upstream of several is
/// evaluated once for all of them (one at a time, a chain of n nodes evaluated its
/// start n times).
pub fn images(evaluator: &Evaluator<'_>, outs: &[(OutRef, PortType)]) -> Vec<egui::ColorImage> {
    let domain = Domain::grid(THUMB, THUMB);
    let inputs: Vec<(tuft_graph::Input, PortType)> = outs
        .iter()
        .map(|(out, ty)| (tuft_graph::Input::Link(out.clone()), *ty))
        .collect();
    let fields = evaluator.eval_inputs(&inputs, &domain);
    fields
        .iter()
        .zip(outs)
        .map(|(f, (_, ty))| picture(Some(f), *ty))
        .collect()
}

/// What each node's thumbnail shows: its first output (a node without one has none).
#[must_use]
pub fn pictured(graph: &MaterialGraph) -> Vec<(OutRef, PortType)> {
    graph
        .nodes
        .iter()
        .filter_map(|n| {
            let out = n.output_ports().into_iter().next()?;
            Some((OutRef::new(n.id, out.name), out.ty))
        })
        .collect()
}

/// A field over the thumbnail's grid as its picture (grey where there is none).
fn picture(field: Option<&tuft_graph::field::Field>, ty: PortType) -> egui::ColorImage {
    let to8 = tuft_strands::num::to_unorm8;
    let srgb = tuft_strands::num::linear_to_srgb8;
    let pixels: Vec<egui::Color32> = (0..THUMB * THUMB)
        .map(|i| match field {
            None => egui::Color32::from_gray(40),
            Some(f) => match ty {
                PortType::Float => {
                    let g = to8(f.at(0, i));
                    egui::Color32::from_rgb(g, g, g)
                }
                PortType::Vec2 => {
                    let c = f.get(i);
                    egui::Color32::from_rgb(to8(0.5 + 0.5 * c[0]), to8(0.5 + 0.5 * c[1]), 128)
                }
                PortType::Color => {
                    let c = f.get(i);
                    egui::Color32::from_rgb(srgb(c[0]), srgb(c[1]), srgb(c[2]))
                }
            },
        })
        .collect();
    egui::ColorImage::new([THUMB, THUMB], pixels)
}

/// Side of a survivor view in texels.
pub const SURVIVORS: usize = 128;

/// A layer's candidates seen from above: each texel coloured by the share of its
/// candidates whose density hash passes (green) or not (red); grey where none stand.
#[must_use]
pub fn survivor_image(candidates: &tuft_graph::scatter::Candidates) -> egui::ColorImage {
    let mut kept = vec![0u32; SURVIVORS * SURVIVORS];
    let mut all = vec![0u32; SURVIVORS * SURVIVORS];
    for (r, s) in candidates.roots.iter().zip(&candidates.survives) {
        let x = ((r[0] * SURVIVORS as f32) as usize).min(SURVIVORS - 1);
        let y = ((r[1] * SURVIVORS as f32) as usize).min(SURVIVORS - 1);
        all[y * SURVIVORS + x] += 1;
        kept[y * SURVIVORS + x] += u32::from(*s);
    }
    let pixels = all
        .iter()
        .zip(&kept)
        .map(|(&a, &k)| {
            if a == 0 {
                return egui::Color32::from_gray(50);
            }
            let f = k as f32 / a as f32;
            let mix = |lo: f32, hi: f32| ((lo + (hi - lo) * f) * 255.0) as u8;
            egui::Color32::from_rgb(mix(0.75, 0.15), mix(0.12, 0.75), mix(0.1, 0.2))
        })
        .collect();
    egui::ColorImage::new([SURVIVORS, SURVIVORS], pixels)
}

/// Each layer's levels: strands, triangles and coverage relative to level 0.
pub type LevelReports = Vec<(String, Vec<tuft_strands::levels::LevelReport>)>;

/// The level reports last computed per layer, with the set and settings they are of.
type KnownReports = HashMap<
    String,
    (
        Arc<tuft_strands::StrandSet>,
        (
            tuft_strands::levels::LevelSettings,
            tuft_graph::Profile,
            f32,
        ),
        Vec<tuft_strands::levels::LevelReport>,
    ),
>;

/// Node thumbnails, layer survivor views and level reports of one graph.
type Drawn = (
    Vec<(NodeId, egui::ColorImage)>,
    Vec<(String, egui::ColorImage)>,
    LevelReports,
);

/// Draws everything for `graph`, asking `stale` between items: `None` once a newer
/// graph makes the work pointless (each item is a field over the repeat, a layer's
/// candidates or its levels splatted — tens of milliseconds each that the next edit's
/// preview wants).
fn draw_all(
    graph: &MaterialGraph,
    sets: &Arc<SetCache>,
    known: &mut KnownReports,
    stale: &dyn Fn() -> bool,
) -> Option<Drawn> {
    let evaluator = Evaluator::with_cache(graph, sets.clone());
    let outs = pictured(graph);
    let mut nodes = Vec::with_capacity(outs.len());
    // In batches, asking `stale` between them: a batch shares what is upstream of it.
    for batch in outs.chunks(THUMB_BATCH) {
        if stale() {
            return None;
        }
        let pictures = images(&evaluator, batch);
        nodes.extend(batch.iter().map(|(out, _)| out.node).zip(pictures));
    }
    let mut layers = Vec::with_capacity(graph.strands.len());
    for name in graph.strands.keys() {
        if stale() {
            return None;
        }
        if let Ok(c) = tuft_graph::scatter::candidates(&evaluator, name) {
            layers.push((name.clone(), survivor_image(&c)));
        }
    }
    let mut reports = Vec::with_capacity(graph.strands.len());
    for (name, layer) in &graph.strands {
        if stale() {
            return None;
        }
        if let Ok(set) = evaluator.strand_set(name) {
            // Splatting every level is the slowest item here: an unchanged set (the same
            // one, from the cache) with unchanged settings keeps its figures.
            let settings = (layer.levels.clone(), layer.profile, graph.repeat_m);
            let r = match known.get(name) {
                Some((s, k, r)) if Arc::ptr_eq(s, &set) && *k == settings => r.clone(),
                _ => {
                    // The whole set's relief is the maps' (kept in the shared cache):
                    // one splat of the three fewer.
                    let whole = evaluator.relief(name).ok();
                    let r = tuft_strands::levels::reports_with(
                        &set,
                        &layer.levels,
                        layer.profile,
                        graph.repeat_m,
                        whole.as_deref(),
                    );
                    known.insert(name.clone(), (set, settings, r.clone()));
                    r
                }
            };
            reports.push((name.clone(), r));
        }
    }
    Some((nodes, layers, reports))
}

impl Thumbnails {
    /// Starts the worker; it takes strand sets and reliefs from `sets` (where the
    /// preview's worker leaves them) instead of scattering them again.
    #[must_use]
    pub fn new(sets: Arc<SetCache>) -> Self {
        let (tx, results) = channel();
        let latest = Arc::new(AtomicU64::new(0));
        let worker_latest = latest.clone();
        let mut known = KnownReports::new();
        let jobs = crate::workers::newest_job_worker(
            "tuft thumbnails",
            crate::workers::Priority::Least,
            move |job: Job| {
                let stale = || job.generation < worker_latest.load(Ordering::Acquire);
                match draw_all(&job.graph, &sets, &mut known, &stale) {
                    Some(drawn) => tx.send((job.generation, drawn)).is_ok(),
                    None => true,
                }
            },
        );
        Self {
            jobs,
            latest,
            results,
            shown: 0,
            textures: HashMap::new(),
            survivors: HashMap::new(),
            reports: Vec::new(),
        }
    }

    /// Tells the worker the document has reached `generation`: thumbnails of older ones
    /// stop at the next item, so the preview's rebuild has the cores.
    pub fn supersede(&self, generation: u64) {
        self.latest.fetch_max(generation, Ordering::AcqRel);
    }

    /// Queues thumbnails for `generation` of `graph`.
    pub fn request(&mut self, generation: u64, graph: &MaterialGraph) {
        self.supersede(generation);
        let _ = self.jobs.send(Job {
            generation,
            graph: graph.clone(),
        });
    }

    /// Uploads finished thumbnails; returns whether any arrived.
    pub fn poll(&mut self, ctx: &egui::Context) -> bool {
        let mut any = false;
        while let Ok(done) = self.results.try_recv() {
            any |= self.take(ctx, done);
        }
        any
    }

    /// Blocks until thumbnails of `generation` (or a newer one) have arrived, or `limit`
    /// passes.
    pub fn wait(&mut self, ctx: &egui::Context, generation: u64, limit: std::time::Duration) {
        while self.shown < generation {
            match self.results.recv_timeout(limit) {
                Ok(done) => {
                    self.take(ctx, done);
                }
                Err(_) => break,
            }
        }
    }

    fn take(&mut self, ctx: &egui::Context, done: (u64, Drawn)) -> bool {
        let (generation, (images, layers, reports)) = done;
        if generation < self.shown {
            return false;
        }
        self.shown = generation;
        self.textures.clear();
        for (id, image) in images {
            let tex = ctx.load_texture(
                format!("thumb {}", id.0),
                image,
                egui::TextureOptions::NEAREST,
            );
            self.textures.insert(id, tex);
        }
        self.reports = reports;
        self.survivors.clear();
        for (name, image) in layers {
            let tex = ctx.load_texture(
                format!("survivors {name}"),
                image,
                egui::TextureOptions::NEAREST,
            );
            self.survivors.insert(name, tex);
        }
        true
    }

    /// Each strand layer's level reports (coverage relative to level 0).
    #[must_use]
    pub fn level_reports(&self, layer: &str) -> Option<&[tuft_strands::levels::LevelReport]> {
        self.reports
            .iter()
            .find(|(n, _)| n == layer)
            .map(|(_, r)| r.as_slice())
    }

    /// Each strand layer's survivor view.
    #[must_use]
    pub fn survivors(&self) -> &HashMap<String, egui::TextureHandle> {
        &self.survivors
    }

    /// The textures by node.
    #[must_use]
    pub fn textures(&self) -> &HashMap<NodeId, egui::TextureHandle> {
        &self.textures
    }
}

impl Default for Thumbnails {
    fn default() -> Self {
        Self::new(Arc::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thumbnails_drawn_together_are_the_ones_drawn_one_by_one() {
        for (name, text) in crate::PRESETS {
            let graph = tuft_graph::io::from_str(text).unwrap().graph;
            let evaluator = Evaluator::new(&graph);
            let outs = pictured(&graph);
            let together = images(&evaluator, &outs);
            assert_eq!(together.len(), outs.len());
            for ((out, ty), picture) in outs.iter().zip(&together) {
                let alone = image(&Evaluator::new(&graph), out, *ty);
                assert!(alone == *picture, "{name}: {out:?}");
            }
        }
    }
}
