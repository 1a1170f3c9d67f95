//! What a node kind is: its ports and parameters as data, its period rule and its
//! evaluation.
//!
//! A node kind lives in one file under `nodes/` and is registered by one line in
//! [`crate::nodes::ALL`]. The inspector, the node library and the validator read the
//! descriptions here; nothing else needs to know the kind exists.

use crate::field::{Domain, Field, InputRef};
use crate::link::NodeId;
use crate::period::Period;
use crate::picture::Picture;
use crate::value::{PortType, Value};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;
use tuft_strands::relief::Relief;

/// Where a node kind is listed in the node library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Category {
    /// Coordinates, constants and parameters.
    Input,
    /// Procedural generators: noise, Voronoi, waves.
    Generator,
    /// Arithmetic and blending.
    Math,
    /// Colour ramps, combining and splitting channels.
    Convert,
    /// Filters that look at neighbours: warp, blur, height to normal.
    Filter,
    /// Values only known at render time: time, world position and normal.
    Dynamic,
}

impl Category {
    /// The category's name in the node library.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Self::Input => "Input",
            Self::Generator => "Generator",
            Self::Math => "Math",
            Self::Convert => "Convert",
            Self::Filter => "Filter",
            Self::Dynamic => "Dynamic",
        }
    }
}

/// One stop of a colour ramp.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RampStop {
    /// Position along the ramp, in `[0, 1]`.
    pub pos: f32,
    /// Linear RGB at that position.
    pub color: [f32; 3],
}

/// A parameter's value as stored in a graph file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ParamValue {
    /// A real number.
    Float(f32),
    /// An integer.
    Int(i64),
    /// One of a fixed list of options, by name.
    Choice(String),
    /// Colour ramp stops, sorted by position.
    Ramp(Vec<RampStop>),
    /// Free text (a parameter's name).
    Text(String),
    /// Curve points `(x, y)`, sorted by `x`.
    Curve(Vec<[f32; 2]>),
}

/// How a parameter is edited and what it defaults to.
#[derive(Clone, Copy, Debug)]
pub enum ParamKind {
    /// A real number with a slider range (`min..=max`) and a default.
    Float {
        /// Lower end of the slider.
        min: f32,
        /// Upper end of the slider.
        max: f32,
        /// The value a new node gets.
        default: f32,
    },
    /// An integer with a range and a default.
    Int {
        /// Smallest value accepted.
        min: i64,
        /// Largest value accepted.
        max: i64,
        /// The value a new node gets.
        default: i64,
    },
    /// One of `options`; `default` is one of them.
    Choice {
        /// The options, as stored in files.
        options: &'static [&'static str],
        /// The option a new node gets.
        default: &'static str,
    },
    /// Colour ramp stops; a new node gets black to white.
    Ramp,
    /// Free text.
    Text {
        /// The text a new node gets.
        default: &'static str,
    },
    /// Curve points; a new node gets the identity, `(0, 0)` to `(1, 1)`.
    Curve,
    /// A file's path, held as text relative to the graph file's folder; a new node has
    /// none.
    File {
        /// The file types offered, by extension.
        extensions: &'static [&'static str],
    },
}

/// A parameter of a node kind: a setting that is not a port.
#[derive(Clone, Copy, Debug)]
pub struct ParamDesc {
    /// The key in files and the label in the inspector.
    pub name: &'static str,
    /// One line for the inspector's tooltip.
    pub doc: &'static str,
    /// Editing and default.
    pub kind: ParamKind,
}

impl ParamDesc {
    /// The value a new node gets.
    #[must_use]
    pub fn default_value(&self) -> ParamValue {
        match self.kind {
            ParamKind::Float { default, .. } => ParamValue::Float(default),
            ParamKind::Int { default, .. } => ParamValue::Int(default),
            ParamKind::Choice { default, .. } => ParamValue::Choice(default.to_owned()),
            ParamKind::Ramp => ParamValue::Ramp(default_ramp()),
            ParamKind::Text { default } => ParamValue::Text(default.to_owned()),
            ParamKind::File { .. } => ParamValue::Text(String::new()),
            ParamKind::Curve => ParamValue::Curve(identity_curve()),
        }
    }

    /// Why `value` is not acceptable for this parameter, if it is not.
    #[must_use]
    pub fn check(&self, value: &ParamValue) -> Option<String> {
        match (&self.kind, value) {
            (ParamKind::Float { .. }, ParamValue::Float(x)) if !x.is_finite() => {
                Some(format!("{} is {x}, not a finite number", self.name))
            }
            (ParamKind::Float { .. }, ParamValue::Float(_)) => None,
            (ParamKind::Int { min, max, .. }, ParamValue::Int(x)) => {
                (x < min || x > max).then(|| format!("{} is {x}, outside {min}..={max}", self.name))
            }
            (ParamKind::Choice { options, .. }, ParamValue::Choice(c)) => (!options
                .contains(&c.as_str()))
            .then(|| format!("{} is {c:?}, not one of {}", self.name, options.join(", "))),
            (ParamKind::Ramp, ParamValue::Ramp(stops)) => {
                if stops.is_empty() {
                    Some(format!("{} has no stops", self.name))
                } else if stops
                    .iter()
                    .any(|s| !s.pos.is_finite() || s.color.iter().any(|c| !c.is_finite()))
                {
                    Some(format!(
                        "{} has a stop that is not a finite number",
                        self.name
                    ))
                } else {
                    None
                }
            }
            (ParamKind::Text { .. } | ParamKind::File { .. }, ParamValue::Text(_)) => None,
            (ParamKind::Curve, ParamValue::Curve(points)) => {
                if points.is_empty() {
                    Some(format!("{} has no points", self.name))
                } else if points.len() > MAX_CURVE_POINTS {
                    Some(format!(
                        "{} has {} points, more than the {MAX_CURVE_POINTS} a curve may have",
                        self.name,
                        points.len()
                    ))
                } else if points.iter().flatten().any(|c| !c.is_finite()) {
                    Some(format!(
                        "{} has a point that is not a finite number",
                        self.name
                    ))
                } else {
                    None
                }
            }
            (_, other) => Some(format!(
                "{} holds {}, but it is {}",
                self.name,
                param_variant(other),
                match self.kind {
                    ParamKind::Float { .. } => "a Float",
                    ParamKind::Int { .. } => "an Int",
                    ParamKind::Choice { .. } => "a Choice",
                    ParamKind::Ramp => "a Ramp",
                    ParamKind::Text { .. } => "a Text",
                    ParamKind::File { .. } => "a Text (a file's path)",
                    ParamKind::Curve => "a Curve",
                }
            )),
        }
    }
}

fn param_variant(v: &ParamValue) -> &'static str {
    match v {
        ParamValue::Float(_) => "a Float",
        ParamValue::Int(_) => "an Int",
        ParamValue::Choice(_) => "a Choice",
        ParamValue::Ramp(_) => "a Ramp",
        ParamValue::Text(_) => "a Text",
        ParamValue::Curve(_) => "a Curve",
    }
}

/// The parameters a new node of `kind` holds: every one at its default.
#[must_use]
pub fn default_params(kind: &dyn NodeKind) -> BTreeMap<String, ParamValue> {
    kind.params()
        .iter()
        .map(|p| (p.name.to_owned(), p.default_value()))
        .collect()
}

/// The points of a curve that changes nothing: `(0, 0)` to `(1, 1)`.
#[must_use]
pub fn identity_curve() -> Vec<[f32; 2]> {
    vec![[0.0, 0.0], [1.0, 1.0]]
}

/// The most points a curve parameter holds (a curve is drawn by hand).
pub const MAX_CURVE_POINTS: usize = 64;

/// Black to white.
#[must_use]
pub fn default_ramp() -> Vec<RampStop> {
    vec![
        RampStop {
            pos: 0.0,
            color: [0.0; 3],
        },
        RampStop {
            pos: 1.0,
            color: [1.0; 3],
        },
    ]
}

/// How a node reads an input port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// At the points being evaluated (most ports).
    Point,
    /// At other points the node chooses (a warp reads its input at displaced points).
    Sampled,
    /// As a raster at the fixed field resolution, for filters that need neighbours.
    Raster,
}

/// An input port: name, type, the constant a new node holds there, and a doc line.
#[derive(Clone, Copy, Debug)]
pub struct PortDesc {
    /// The key in files and the label on the node.
    pub name: &'static str,
    /// The type a connection must carry.
    pub ty: PortType,
    /// The constant an unconnected port holds on a new node.
    pub default: Value,
    /// The inline editor's slider range for Float ports (and each channel of the others).
    pub range: (f32, f32),
    /// One line for tooltips.
    pub doc: &'static str,
    /// How the node reads it.
    pub access: Access,
}

impl PortDesc {
    /// A point-access Float input.
    #[must_use]
    pub const fn float(name: &'static str, default: f32, doc: &'static str) -> Self {
        Self {
            name,
            ty: PortType::Float,
            default: Value::Float(default),
            range: (0.0, 1.0),
            doc,
            access: Access::Point,
        }
    }

    /// A point-access input of any type, holding zero.
    #[must_use]
    pub const fn typed(name: &'static str, ty: PortType, doc: &'static str) -> Self {
        Self {
            name,
            ty,
            default: ty.zero(),
            range: (0.0, 1.0),
            doc,
            access: Access::Point,
        }
    }

    /// The same port with another default.
    #[must_use]
    pub const fn with_default(mut self, default: Value) -> Self {
        self.default = default;
        self
    }

    /// The same port with another slider range.
    #[must_use]
    pub const fn with_range(mut self, min: f32, max: f32) -> Self {
        self.range = (min, max);
        self
    }

    /// The same port read in another way.
    #[must_use]
    pub const fn with_access(mut self, access: Access) -> Self {
        self.access = access;
        self
    }
}

/// An output port.
#[derive(Clone, Copy, Debug)]
pub struct OutputDesc {
    /// The key links name.
    pub name: &'static str,
    /// The type it carries.
    pub ty: PortType,
    /// One line for tooltips.
    pub doc: &'static str,
}

impl OutputDesc {
    /// An output.
    #[must_use]
    pub const fn new(name: &'static str, ty: PortType, doc: &'static str) -> Self {
        Self { name, ty, doc }
    }
}

/// A node's parameters, resolved against its kind's descriptions: a missing or ill-typed
/// value reads as the description's default (the validator reports it).
#[derive(Clone, Copy, Debug)]
pub struct Params<'a> {
    values: &'a BTreeMap<String, ParamValue>,
    descs: &'static [ParamDesc],
}

impl<'a> Params<'a> {
    /// Resolves `values` against `descs`.
    #[must_use]
    pub fn new(values: &'a BTreeMap<String, ParamValue>, descs: &'static [ParamDesc]) -> Self {
        Self { values, descs }
    }

    pub(crate) fn desc(&self, name: &str) -> Option<&'static ParamDesc> {
        self.descs.iter().find(|d| d.name == name)
    }

    fn get(&self, name: &str) -> Option<&'a ParamValue> {
        let v = self.values.get(name)?;
        match self.desc(name) {
            Some(d) if d.check(v).is_none() => Some(v),
            _ => None,
        }
    }

    /// A Float parameter.
    #[must_use]
    pub fn float(&self, name: &str) -> f32 {
        if let Some(ParamValue::Float(x)) = self.get(name) {
            return *x;
        }
        match self.desc(name).map(|d| d.kind) {
            Some(ParamKind::Float { default, .. }) => default,
            _ => 0.0,
        }
    }

    /// An Int parameter.
    #[must_use]
    pub fn int(&self, name: &str) -> i64 {
        if let Some(ParamValue::Int(x)) = self.get(name) {
            return *x;
        }
        match self.desc(name).map(|d| d.kind) {
            Some(ParamKind::Int { default, .. }) => default,
            _ => 0,
        }
    }

    /// A Choice parameter, as its option name.
    #[must_use]
    pub fn choice(&self, name: &str) -> &'a str {
        if let Some(ParamValue::Choice(c)) = self.get(name) {
            return c.as_str();
        }
        match self.desc(name).map(|d| d.kind) {
            Some(ParamKind::Choice { default, .. }) => default,
            _ => "",
        }
    }

    /// A Ramp parameter, its stops sorted by position.
    #[must_use]
    pub fn ramp(&self, name: &str) -> Cow<'a, [RampStop]> {
        if let Some(ParamValue::Ramp(stops)) = self.get(name) {
            if stops.windows(2).all(|w| w[0].pos <= w[1].pos) {
                return Cow::Borrowed(stops.as_slice());
            }
            let mut sorted = stops.clone();
            sorted.sort_by(|a, b| a.pos.total_cmp(&b.pos));
            return Cow::Owned(sorted);
        }
        Cow::Owned(default_ramp())
    }

    /// A Curve parameter's points, sorted by `x`.
    #[must_use]
    pub fn curve(&self, name: &str) -> Cow<'a, [[f32; 2]]> {
        if let Some(ParamValue::Curve(points)) = self.get(name) {
            if points.windows(2).all(|w| w[0][0] <= w[1][0]) {
                return Cow::Borrowed(points.as_slice());
            }
            let mut sorted = points.clone();
            sorted.sort_by(|a, b| a[0].total_cmp(&b[0]));
            return Cow::Owned(sorted);
        }
        Cow::Owned(identity_curve())
    }

    /// A Text parameter.
    #[must_use]
    pub fn text(&self, name: &str) -> &'a str {
        if let Some(ParamValue::Text(t)) = self.get(name) {
            return t.as_str();
        }
        match self.desc(name).map(|d| d.kind) {
            Some(ParamKind::Text { default }) => default,
            _ => "",
        }
    }
}

/// What a node sees while it evaluates: the points, its inputs, and ways to sample the
/// inputs it reads elsewhere. The evaluator gives it ([`crate::eval`]); a node kind sees
/// only this, so the node vocabulary stands below the evaluator.
pub trait NodeContext {
    /// The points being evaluated.
    fn domain(&self) -> &Domain;
    /// Whether anything reads output `k` in this pass. A node that computes its outputs
    /// separately may return an empty field for one nobody wants.
    fn wants(&self, k: usize) -> bool;
    /// The size of one repeat of the material, in metres.
    fn repeat_m(&self) -> f32;
    /// The evaluating node's id.
    fn id(&self) -> NodeId;
    /// Point-access input `i` (in port order).
    ///
    /// # Panics
    /// If the kind asks for a port index it does not declare, or for a sampled input.
    fn input(&self, i: usize) -> InputRef<'_>;
    /// Sampled input `i` evaluated at the points of `domain`.
    fn sample(&self, i: usize, domain: &Domain) -> Field;
    /// Raster input `i` evaluated on the `FIELD_RESOLUTION²` grid (cached for the
    /// evaluator's lifetime).
    fn raster(&self, i: usize) -> Arc<Field>;
    /// A field this node derives once per evaluator, cached by `key` ([`NodeCtx::cached`]).
    fn cached_field(&self, key: &str, make: &mut dyn FnMut() -> Field) -> Arc<Field>;
    /// The relief of strand layer `layer`, or `None` (with a diagnostic) when the layer
    /// cannot be scattered.
    fn relief(&self, layer: &str) -> Option<Arc<Relief>>;
    /// The picture in `path` (as the graph holds it), or `None` with the problem
    /// reported against this node, which then reads zero.
    fn picture(&self, path: &str) -> Option<Arc<Picture>>;
    /// Reports a problem found while evaluating (once per node and message).
    fn warn_message(&self, message: String);
}

/// The context a node kind's `eval` is given.
pub type NodeCtx<'a> = dyn NodeContext + 'a;

impl NodeCtx<'_> {
    /// How many points.
    #[must_use]
    pub fn len(&self) -> usize {
        self.domain().len()
    }

    /// Whether there are no points.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.domain().is_empty()
    }

    /// A field this node derives once per evaluator (a blurred raster), cached by `key`.
    pub fn cached(&self, key: &str, make: impl FnOnce() -> Field) -> Arc<Field> {
        let mut make = Some(make);
        self.cached_field(key, &mut || {
            make.take()
                .map_or_else(|| Field::constant(Value::Float(0.0), 0), |m| m())
        })
    }

    /// Reports a problem found while evaluating (once per node and message).
    pub fn warn(&self, message: impl Into<String>) {
        self.warn_message(message.into());
    }
}

/// What the node library says of a kind, as data: each kind holds one in a static.
#[derive(Debug)]
pub struct KindInfo {
    /// The name files use (`"Noise"`); unique across kinds.
    pub name: &'static str,
    /// One line for the node library.
    pub doc: &'static str,
    /// Where the library lists it.
    pub category: Category,
    /// Its parameters.
    pub params: &'static [ParamDesc],
}

/// A kind of node. Implementations are unit structs in `nodes/`, one per file: what the
/// library says of them is data ([`KindInfo`]); their ports, periods and evaluation are
/// code.
pub trait NodeKind: Send + Sync + 'static {
    /// Its name, line, category and parameters.
    fn info(&self) -> &'static KindInfo;
    /// The name files use (`"Noise"`); unique across kinds.
    fn name(&self) -> &'static str {
        self.info().name
    }
    /// One line for the node library.
    fn doc(&self) -> &'static str {
        self.info().doc
    }
    /// Where the library lists it.
    fn category(&self) -> Category {
        self.info().category
    }
    /// Its parameters.
    fn params(&self) -> &'static [ParamDesc] {
        self.info().params
    }
    /// Its input ports, which may depend on its parameters (a Mix of colours).
    fn inputs(&self, params: &Params<'_>) -> Vec<PortDesc>;
    /// Its output ports, which may depend on its parameters.
    fn outputs(&self, params: &Params<'_>) -> Vec<OutputDesc>;
    /// The strand layer this node reads (the relief splat), if any: the layer's ports
    /// count as its inputs for cycles, seams and dynamic reach.
    fn strand_layer<'a>(&self, _params: &Params<'a>) -> Option<&'a str> {
        None
    }
    /// The file this node reads, as the graph holds it (relative to the graph file's
    /// folder), if it reads one: validation reports the file unreadable and checks that
    /// its picture tiles.
    fn file<'a>(&self, _params: &Params<'a>) -> Option<&'a str> {
        None
    }
    /// Whether its value is only known at render time (Time, WorldPos, WorldNormal).
    fn is_dynamic(&self) -> bool {
        false
    }
    /// Where the slider of float parameter `name` runs when the other parameters decide
    /// it (a Parameter's value slides between its own min and max); `None`: the range
    /// its [`ParamKind::Float`] gives.
    fn slider(&self, _params: &Params<'_>, _name: &str) -> Option<(f32, f32)> {
        None
    }
    /// Problems with the parameters beyond their individual ranges.
    fn check(&self, _params: &Params<'_>) -> Vec<String> {
        Vec::new()
    }
    /// The parameter counting how often a generator repeats over the repeat (`scale`,
    /// `periods`, `count`), if it has one: its outputs' period and its lattice limit
    /// follow from it (the defaults of [`NodeKind::period`] and [`NodeKind::limits`]).
    fn repeat_count(&self) -> Option<&'static str> {
        None
    }
    /// The parameter that says what this node does or holds (a Math node's `op`, a
    /// Parameter's `name`, an Image's `file`): a choice, a text or a file, shown beside
    /// the node's label where it is drawn; `None` where the kind's name says it.
    fn headline(&self) -> Option<&'static str> {
        None
    }
    /// Work the parameters ask for beyond [`crate::limits`] (a lattice too fine to
    /// hold), in words. Evaluation refuses such a node (it reads zero) and validation
    /// reports it, so no evaluation ever starts that work. The default checks the
    /// [`NodeKind::repeat_count`] against the lattice limit.
    fn limits(&self, params: &Params<'_>) -> Vec<String> {
        self.repeat_count().map_or_else(Vec::new, |name| {
            crate::limits::count_problems(name, params.float(name), 1)
        })
    }
    /// The period of each output given the periods of the inputs (in port order).
    ///
    /// The default suits a generator with a [`NodeKind::repeat_count`] (every output
    /// repeats that many times) and any node that combines its inputs point by point:
    /// the outputs repeat wherever all inputs do, and raw UV passing through breaks the
    /// seam.
    fn period(&self, params: &Params<'_>, id: NodeId, inputs: &[Period]) -> Vec<Period> {
        let p = match self.repeat_count() {
            Some(name) => Period::from_scale(id, name, params.float(name)),
            None => Period::combine_all(inputs).settle(),
        };
        vec![p; self.outputs(params).len()]
    }
    /// Evaluates every output at the points of `ctx.domain()`.
    fn eval(&self, params: &Params<'_>, ctx: &NodeCtx<'_>) -> Vec<Field>;
}
