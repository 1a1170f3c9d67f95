//! The material graph: nodes, links, the PBR output and the strand layers.

use crate::layer::StrandLayer;
use crate::node::{NodeKind, OutputDesc, ParamKind, ParamValue, Params, PortDesc};
use crate::nodes;
use crate::value::{PortType, Value};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

pub use crate::link::{InRef, Input, NodeId, OutRef, Sink};

/// The graph format version this build writes. Files of this version or older load;
/// newer ones are refused with a message saying so.
pub const FORMAT_VERSION: u32 = 1;

/// A node instance: its kind by name, its parameters and its inputs. Parameters and
/// inputs it does not list hold their kind's defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Node {
    /// Identity.
    pub id: NodeId,
    /// The kind's name (`"Noise"`).
    pub kind: String,
    /// Parameter values by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, ParamValue>,
    /// Input values by port name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub inputs: BTreeMap<String, Input>,
}

impl Node {
    /// The registered kind, if the name is known.
    #[must_use]
    pub fn kind(&self) -> Option<&'static dyn NodeKind> {
        nodes::find(&self.kind)
    }

    /// The parameters resolved against the kind (empty for an unknown kind).
    #[must_use]
    pub fn params(&self) -> Params<'_> {
        Params::new(&self.params, self.kind().map_or(&[], |k| k.params()))
    }

    /// The input ports (none for an unknown kind).
    #[must_use]
    pub fn input_ports(&self) -> Vec<PortDesc> {
        self.kind()
            .map_or_else(Vec::new, |k| k.inputs(&self.params()))
    }

    /// The output ports (none for an unknown kind).
    #[must_use]
    pub fn output_ports(&self) -> Vec<OutputDesc> {
        self.kind()
            .map_or_else(Vec::new, |k| k.outputs(&self.params()))
    }

    /// What feeds input `port`: the stored input, or the port's default constant.
    #[must_use]
    pub fn input(&self, port: &PortDesc) -> Input {
        self.inputs
            .get(port.name)
            .cloned()
            .unwrap_or(Input::Const(port.default))
    }

    /// `Kind#id`, as diagnostics name a node.
    #[must_use]
    pub fn label(&self) -> String {
        format!("{}#{}", self.kind, self.id)
    }

    /// The label and, for a kind with a [`NodeKind::headline`], what the node does or
    /// holds: `Math#4 · remap`, `Parameter#2 · grass height`, `Image#5 · moss.png` (a
    /// file by its name alone). What the editor's canvas and inspector show.
    #[must_use]
    pub fn title(&self) -> String {
        let params = self.params();
        let shown = self
            .kind()
            .and_then(|k| k.headline())
            .and_then(|name| match params.desc(name)?.kind {
                ParamKind::Choice { .. } => Some(params.choice(name)),
                ParamKind::Text { .. } => Some(params.text(name)),
                ParamKind::File { .. } => Path::new(params.text(name))
                    .file_name()
                    .and_then(|f| f.to_str()),
                _ => None,
            })
            .filter(|shown| !shown.trim().is_empty());
        match shown {
            Some(shown) => format!("{} · {shown}", self.label()),
            None => self.label(),
        }
    }
}

/// The PBR half of the material: the maps a surface is shaded with. A port a file
/// leaves out takes its [`Default`] (as a strand layer's ports do).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PbrOutput {
    /// Linear RGB albedo.
    pub base_color: Input,
    /// Perceptual roughness in `[0, 1]`.
    pub roughness: Input,
    /// Metalness in `[0, 1]`.
    pub metallic: Input,
    /// Height in `[0, 1]`, scaled to metres by `height_range_m`.
    pub height: Input,
    /// A tangent-space normal (unit vector, OpenGL +Y convention). When unconnected the
    /// bake derives the normal from the height.
    #[serde(default)]
    pub normal: Option<OutRef>,
    /// Ambient occlusion in `[0, 1]` (1 = open).
    pub occlusion: Input,
    /// How many metres a height of 1 stands for.
    #[serde(default = "default_height_range")]
    pub height_range_m: f32,
    /// Further named maps a game may want (wetness, subsurface, …).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub extras: BTreeMap<String, Input>,
}

fn default_height_range() -> f32 {
    0.02
}

impl PbrOutput {
    /// The fixed ports with what feeds each, in [`PBR_PORTS`]' order (the normal, an
    /// optional link, and the extras are not among them).
    #[must_use]
    pub fn ports(&self) -> [(&'static str, &Input); 5] {
        [
            ("base_color", &self.base_color),
            ("roughness", &self.roughness),
            ("metallic", &self.metallic),
            ("height", &self.height),
            ("occlusion", &self.occlusion),
        ]
    }
}

impl Default for PbrOutput {
    fn default() -> Self {
        Self {
            base_color: Input::Const(Value::Color([0.18, 0.18, 0.18])),
            roughness: Input::Const(Value::Float(0.8)),
            metallic: Input::Const(Value::Float(0.0)),
            height: Input::Const(Value::Float(0.5)),
            normal: None,
            occlusion: Input::Const(Value::Float(1.0)),
            height_range_m: default_height_range(),
            extras: BTreeMap::new(),
        }
    }
}

/// The fixed PBR ports and their types.
pub const PBR_PORTS: [(&str, PortType); 5] = [
    ("base_color", PortType::Color),
    ("roughness", PortType::Float),
    ("metallic", PortType::Float),
    ("height", PortType::Float),
    ("occlusion", PortType::Float),
];

/// A material: the graph that describes it and where its fields go.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaterialGraph {
    /// The format version the file was written at.
    pub version: u32,
    /// The material's name; baked files are named after it.
    pub name: String,
    /// The size of one repeat (one tile of the material), in metres.
    pub repeat_m: f32,
    /// Every node (a script may leave none).
    #[serde(default)]
    pub nodes: Vec<Node>,
    /// The PBR half (a grey surface where the file names none).
    #[serde(default)]
    pub pbr: PbrOutput,
    /// The strand layers, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub strands: BTreeMap<String, StrandLayer>,
    /// The folder the graph file lies in, which paths in it are relative to (an Image's
    /// file); `None` for a graph never saved, whose paths are read from the working
    /// folder. Set by [`crate::io::load`]; not part of the file.
    #[serde(skip)]
    pub folder: Folder,
}

impl MaterialGraph {
    /// An empty material with a grey surface.
    #[must_use]
    pub fn new(name: &str) -> Self {
        Self {
            version: FORMAT_VERSION,
            name: name.to_owned(),
            repeat_m: 2.0,
            nodes: Vec::new(),
            pbr: PbrOutput::default(),
            strands: BTreeMap::new(),
            folder: Folder::default(),
        }
    }

    /// The first node of kind `kind`, in the graph's order.
    #[must_use]
    pub fn first_of_kind(&self, kind: &str) -> Option<NodeId> {
        self.nodes.iter().find(|n| n.kind == kind).map(|n| n.id)
    }

    /// The node with id `id`.
    #[must_use]
    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id == id)
    }

    /// The node with id `id`, mutably.
    pub fn node_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        self.nodes.iter_mut().find(|n| n.id == id)
    }

    /// A map from id to index in `nodes` (the first node wins for a duplicated id).
    #[must_use]
    pub fn index(&self) -> HashMap<NodeId, usize> {
        let mut map = HashMap::with_capacity(self.nodes.len());
        for (i, n) in self.nodes.iter().enumerate() {
            map.entry(n.id).or_insert(i);
        }
        map
    }

    /// An id no node has.
    #[must_use]
    pub fn fresh_id(&self) -> NodeId {
        NodeId(self.nodes.iter().map(|n| n.id.0 + 1).max().unwrap_or(1))
    }

    /// Adds a node of kind `kind` holding its defaults; `None` if the kind is unknown.
    pub fn add_node(&mut self, kind: &str) -> Option<NodeId> {
        let k = nodes::find(kind)?;
        let id = self.fresh_id();
        let params = crate::node::default_params(k);
        self.nodes.push(Node {
            id,
            kind: k.name().to_owned(),
            params,
            inputs: BTreeMap::new(),
        });
        Some(id)
    }

    /// Removes a node; inputs it fed fall back to their default constants.
    pub fn remove_node(&mut self, id: NodeId) -> Option<Node> {
        let pos = self.nodes.iter().position(|n| n.id == id)?;
        let removed = self.nodes.remove(pos);
        for node in &mut self.nodes {
            let ports = node.input_ports();
            for port in ports {
                if node
                    .inputs
                    .get(port.name)
                    .and_then(Input::link)
                    .map(|l| l.node)
                    == Some(id)
                {
                    node.inputs.remove(port.name);
                }
            }
            node.inputs
                .retain(|_, i| i.link().is_none_or(|l| l.node != id));
        }
        for (_, input) in self.sinks_mut() {
            if input.link().is_some_and(|l| l.node == id) {
                *input = Input::Const(input_default(input));
            }
        }
        if self.pbr.normal.as_ref().is_some_and(|l| l.node == id) {
            self.pbr.normal = None;
        }
        Some(removed)
    }

    /// The type of output `out`, if it exists.
    #[must_use]
    pub fn output_type(&self, out: &OutRef) -> Option<PortType> {
        let node = self.node(out.node)?;
        node.output_ports()
            .iter()
            .find(|p| p.name == out.port)
            .map(|p| p.ty)
    }

    /// The type input `to` expects, if it exists.
    #[must_use]
    pub fn input_type(&self, to: &InRef) -> Option<PortType> {
        match to {
            InRef::Node { node, port } => self
                .node(*node)?
                .input_ports()
                .iter()
                .find(|p| p.name == port)
                .map(|p| p.ty),
            InRef::Sink(sink) => self.sink_type(sink),
        }
    }

    /// The type a sink expects (`None` for an unknown sink).
    #[must_use]
    pub fn sink_type(&self, sink: &Sink) -> Option<PortType> {
        match sink {
            Sink::Pbr(p) if p == "normal" => Some(PortType::Color),
            Sink::Pbr(p) => PBR_PORTS.iter().find(|(n, _)| n == p).map(|(_, t)| *t),
            Sink::PbrExtra(name) => self.pbr.extras.get(name).map(|i| match i {
                Input::Const(v) => v.ty(),
                Input::Link(l) => self.output_type(l).unwrap_or(PortType::Float),
            }),
            Sink::Strand { layer, port } => {
                self.strands.get(layer)?;
                crate::layer::STRAND_PORTS
                    .iter()
                    .find(|p| p.name == port)
                    .map(|p| p.ty)
            }
        }
    }

    /// What feeds `sink` (`None` for an unknown sink, and for the PBR normal unlinked):
    /// one sink's entry of [`Self::sinks`], found without listing them all.
    #[must_use]
    pub fn sink_input(&self, sink: &Sink) -> Option<Input> {
        let pbr = &self.pbr;
        match sink {
            Sink::Pbr(p) if p == "normal" => pbr.normal.clone().map(Input::Link),
            Sink::Pbr(p) => pbr
                .ports()
                .into_iter()
                .find(|(name, _)| name == p)
                .map(|(_, input)| input.clone()),
            Sink::PbrExtra(name) => pbr.extras.get(name).cloned(),
            Sink::Strand { layer, port } => self
                .strands
                .get(layer)?
                .ports()
                .into_iter()
                .find(|(name, _)| name == port)
                .map(|(_, input)| input.clone()),
        }
    }

    /// Every sink with what feeds it (the PBR normal only when linked).
    #[must_use]
    pub fn sinks(&self) -> Vec<(Sink, Input)> {
        let mut out = Vec::new();
        let pbr = &self.pbr;
        for (name, input) in pbr.ports() {
            out.push((Sink::Pbr(name.to_owned()), input.clone()));
        }
        if let Some(normal) = &pbr.normal {
            out.push((Sink::Pbr("normal".to_owned()), Input::Link(normal.clone())));
        }
        for (name, input) in &pbr.extras {
            out.push((Sink::PbrExtra(name.clone()), input.clone()));
        }
        for (layer_name, layer) in &self.strands {
            for (port, input) in layer.ports() {
                out.push((
                    Sink::Strand {
                        layer: layer_name.clone(),
                        port: port.to_owned(),
                    },
                    input.clone(),
                ));
            }
        }
        out
    }

    pub(crate) fn sinks_mut(&mut self) -> Vec<(Sink, &mut Input)> {
        let mut out = Vec::new();
        let pbr = &mut self.pbr;
        // The fixed ports as `PbrOutput::ports` lists them, borrowed field by field
        // (the extras are borrowed beside them).
        for (name, input) in [
            ("base_color", &mut pbr.base_color),
            ("roughness", &mut pbr.roughness),
            ("metallic", &mut pbr.metallic),
            ("height", &mut pbr.height),
            ("occlusion", &mut pbr.occlusion),
        ] {
            out.push((Sink::Pbr(name.to_owned()), input));
        }
        for (name, input) in &mut pbr.extras {
            out.push((Sink::PbrExtra(name.clone()), input));
        }
        for (layer_name, layer) in &mut self.strands {
            for (port, input) in layer.ports_mut() {
                out.push((
                    Sink::Strand {
                        layer: layer_name.clone(),
                        port: port.to_owned(),
                    },
                    input,
                ));
            }
        }
        out
    }

    /// Every link node `node` reads, with the name of the place it arrives at: its input
    /// ports' links and, for a node that reads a strand layer, the links into that
    /// layer's ports (named `strands.<layer>.<port>`).
    #[must_use]
    pub fn node_links(&self, node: &Node) -> Vec<(String, OutRef)> {
        let mut links: Vec<(String, OutRef)> = node
            .inputs
            .iter()
            .filter_map(|(port, input)| input.link().map(|l| (port.clone(), l.clone())))
            .collect();
        if let Some(layer_name) = node.kind().and_then(|k| k.strand_layer(&node.params()))
            && let Some(layer) = self.strands.get(layer_name)
        {
            for (port, input) in layer.ports() {
                if let Some(l) = input.link() {
                    links.push((format!("strands.{layer_name}.{port}"), l.clone()));
                }
            }
        }
        links
    }
}

/// A neutral constant to replace a link into a sink: grey for colours, zero otherwise.
pub(crate) fn input_default(input: &Input) -> Value {
    match input {
        Input::Const(v) => *v,
        Input::Link(_) => Value::Float(0.5),
    }
}

/// Where a graph file lies ([`MaterialGraph::folder`]): `None` for a graph never saved.
///
/// Not part of a graph's value: two graphs of the same content are equal wherever they
/// were read from (a preset read from disk equals its round trip through text, and work
/// recovered from an autosave equals the work that was autosaved).
#[derive(Clone, Debug, Default)]
pub struct Folder(pub Option<PathBuf>);

impl PartialEq for Folder {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Folder {
    /// A graph in `folder`.
    #[must_use]
    pub fn at(folder: &Path) -> Self {
        Self(Some(folder.to_owned()))
    }

    /// The folder, if the graph has one.
    #[must_use]
    pub fn get(&self) -> Option<&Path> {
        self.0.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::connect::ConnectError;

    fn chain() -> (MaterialGraph, NodeId, NodeId, NodeId) {
        let mut g = MaterialGraph::new("t");
        let noise = g.add_node("Noise").unwrap();
        let math = g.add_node("Math").unwrap();
        let ramp = g.add_node("ColorRamp").unwrap();
        g.connect(
            OutRef::new(noise, "out"),
            &InRef::Node {
                node: math,
                port: "a".into(),
            },
        )
        .unwrap();
        g.connect(
            OutRef::new(math, "out"),
            &InRef::Node {
                node: ramp,
                port: "t".into(),
            },
        )
        .unwrap();
        (g, noise, math, ramp)
    }

    #[test]
    fn a_title_says_what_the_node_does_where_its_kind_does_not() {
        let (mut g, noise, math, ramp) = chain();
        let title = |g: &MaterialGraph, id| g.node(id).unwrap().title();
        let set = |g: &mut MaterialGraph, id, name: &str, value| {
            g.node_mut(id).unwrap().params.insert(name.into(), value);
        };
        assert_eq!(title(&g, math), format!("Math#{math} · mul"));
        assert_eq!(title(&g, noise), format!("Noise#{noise} · fbm"));
        set(&mut g, math, "op", ParamValue::Choice("remap".into()));
        assert_eq!(title(&g, math), format!("Math#{math} · remap"));
        assert_eq!(title(&g, ramp), g.node(ramp).unwrap().label());
        // A parameter by its name, an image by its file's name; none while it has none.
        let slider = g.add_node("Parameter").unwrap();
        assert_eq!(title(&g, slider), format!("Parameter#{slider} · amount"));
        let image = g.add_node("Image").unwrap();
        assert_eq!(title(&g, image), format!("Image#{image}"));
        set(
            &mut g,
            image,
            "file",
            ParamValue::Text("maps/clover.png".into()),
        );
        assert_eq!(title(&g, image), format!("Image#{image} · clover.png"));
        // Every headline names a choice, a text or a file of its kind.
        for kind in nodes::ALL {
            if let Some(name) = kind.headline() {
                assert!(
                    kind.params().iter().any(|p| p.name == name
                        && matches!(
                            p.kind,
                            ParamKind::Choice { .. }
                                | ParamKind::Text { .. }
                                | ParamKind::File { .. }
                        )),
                    "{}: {name}",
                    kind.name()
                );
            }
        }
    }

    #[test]
    fn a_mistyped_link_is_refused_with_both_types_named() {
        let (mut g, _, _, ramp) = chain();
        let err = g
            .connect(
                OutRef::new(ramp, "out"),
                &InRef::Sink(Sink::Pbr("roughness".into())),
            )
            .unwrap_err();
        assert!(matches!(err, ConnectError::TypeMismatch { .. }));
        let msg = err.to_string();
        assert!(msg.contains("Float") && msg.contains("Color"), "{msg}");
        assert!(msg.contains("pbr.roughness"), "{msg}");
        // The graph is unchanged.
        assert!(matches!(g.pbr.roughness, Input::Const(_)));
    }

    #[test]
    fn a_link_closing_a_cycle_is_refused_with_the_loop_named() {
        let (mut g, noise, math, _) = chain();
        // Math depends on Noise; feeding Math into a fresh Mix into Math would loop.
        let mix = g.add_node("Mix").unwrap();
        g.connect(
            OutRef::new(math, "out"),
            &InRef::Node {
                node: mix,
                port: "a".into(),
            },
        )
        .unwrap();
        let before = g.clone();
        let err = g
            .connect(
                OutRef::new(mix, "out"),
                &InRef::Node {
                    node: math,
                    port: "b".into(),
                },
            )
            .unwrap_err();
        assert!(matches!(err, ConnectError::Cycle(_)), "{err}");
        assert!(err.to_string().contains("Math#"), "{err}");
        assert_eq!(g, before);
        // A self-link is a cycle too.
        assert!(matches!(
            g.connect(
                OutRef::new(noise, "out"),
                &InRef::Node {
                    node: math,
                    port: "b".into()
                }
            ),
            Ok(())
        ));
        assert!(matches!(
            g.connect(
                OutRef::new(math, "out"),
                &InRef::Node {
                    node: math,
                    port: "b".into()
                }
            ),
            Err(ConnectError::Cycle(_))
        ));
    }

    #[test]
    fn links_to_missing_ports_are_refused() {
        let (mut g, noise, math, _) = chain();
        assert!(matches!(
            g.connect(
                OutRef::new(noise, "nope"),
                &InRef::Node {
                    node: math,
                    port: "b".into()
                }
            ),
            Err(ConnectError::Missing(_))
        ));
        assert!(matches!(
            g.connect(
                OutRef::new(noise, "out"),
                &InRef::Node {
                    node: NodeId(999),
                    port: "b".into()
                }
            ),
            Err(ConnectError::Missing(_))
        ));
    }

    #[test]
    fn removing_a_node_unlinks_what_it_fed() {
        let (mut g, _, math, ramp) = chain();
        g.connect(
            OutRef::new(ramp, "out"),
            &InRef::Sink(Sink::Pbr("base_color".into())),
        )
        .unwrap();
        g.remove_node(ramp);
        assert!(matches!(g.pbr.base_color, Input::Const(_)));
        g.remove_node(math);
        assert!(
            g.nodes
                .iter()
                .all(|n| n.inputs.values().all(|i| i.link().is_none()))
        );
    }

    #[test]
    fn each_sink_alone_is_its_entry_in_the_list_of_all() {
        for text in [
            include_str!("../../../presets/lawn.ron"),
            include_str!("../../../presets/fur.ron"),
            include_str!("../../../presets/moss.ron"),
        ] {
            let mut g = crate::io::from_str(text).unwrap().graph;
            g.pbr
                .extras
                .insert("wetness".into(), Input::Const(Value::Float(0.5)));
            let all = g.sinks();
            assert!(
                all.len() > 13,
                "{}: a layer's ports among the sinks",
                g.name
            );
            for (sink, input) in &all {
                assert_eq!(g.sink_input(sink).as_ref(), Some(input), "{sink}");
            }
        }
        let (g, ..) = chain();
        assert_eq!(
            g.pbr.ports().map(|(name, _)| name),
            PBR_PORTS.map(|(name, _)| name)
        );
        assert_eq!(g.sink_input(&Sink::Pbr("normal".into())), None, "unlinked");
        assert_eq!(g.sink_input(&Sink::Pbr("shine".into())), None);
        let absent = Sink::Strand {
            layer: "none".into(),
            port: "length".into(),
        };
        assert_eq!(g.sink_input(&absent), None);
    }
}
