//! A layer's ports read at the strands' roots: the density and clump offset at the
//! candidates, the six shaping ports as columns at the survivors (a field, or a
//! constant read once), and the groom held inside its ranges.

use super::PortFields;
use crate::cache::KeptOutputs;
use crate::cache::{PartKey, SetCache};
use crate::layer::{STRAND_PORTS, StrandLayer};
use crate::link::Input;
use crate::value::PortType;
use crate::{Domain, Field};
use rayon::prelude::*;
use std::sync::Arc;
use tuft_strands::StrandSet;
use tuft_strands::shape::Groom;

/// Evaluates `input` (of type `ty`) at `points`, skipping evaluation for constants.
pub(super) fn read(
    evaluator: &dyn PortFields,
    input: &Input,
    ty: PortType,
    domain: &Domain,
) -> Field {
    evaluator
        .eval_inputs(&[(input.clone(), ty)], domain)
        .pop()
        .expect("one input gives one field")
}

pub(super) fn port_type(name: &str) -> PortType {
    STRAND_PORTS
        .iter()
        .find(|p| p.name == name)
        .map_or(PortType::Float, |p| p.ty)
}

/// The input feeding port `name` of `layer`.
pub(super) fn port_input(layer: &StrandLayer, name: &str) -> Input {
    layer
        .ports()
        .into_iter()
        .find(|(p, _)| *p == name)
        .map(|(_, i)| i.clone())
        .expect("every named port exists")
}

/// The fields of `ports` at `domain` (the layer's survivors' roots), evaluated in one
/// pass. With a shared cache, every node of the ports' chains is taken from an earlier
/// scatter over the same roots (`roots`) where nothing upstream of it changed, and kept
/// otherwise: a grass-height edit evaluates the height's multiply again, not the noise
/// under it.
pub(super) fn port_fields(
    evaluator: &dyn PortFields,
    roots: Option<(&SetCache, &PartKey)>,
    ports: &[(&'static str, Input)],
    domain: &Domain,
) -> Vec<Arc<Field>> {
    let inputs: Vec<(Input, PortType)> = ports
        .iter()
        .map(|(name, input)| (input.clone(), port_type(name)))
        .collect();
    match roots {
        Some((cache, at)) => evaluator.eval_inputs_kept(&inputs, domain, KeptOutputs { cache, at }),
        None => evaluator
            .eval_inputs(&inputs, domain)
            .into_iter()
            .map(Arc::new)
            .collect(),
    }
}

/// A port's values at the survivors: its field over their roots, or the one value a
/// constant holds at every root (a field of copies would be written and read again).
#[derive(Debug)]
pub(super) enum Column {
    Field(Arc<Field>),
    Const([f32; 3]),
}

impl Column {
    /// Channel `c` at survivor `k` ([`Field::at`]).
    #[inline]
    pub(super) fn at(&self, c: usize, k: usize) -> f32 {
        match self {
            Self::Field(f) => f.at(c, k),
            Self::Const(v) => v[c],
        }
    }

    /// Channel `c` at survivors `first..first + out.len()`, into `out`: zero past the
    /// field's channels, as [`Field::get`] pads.
    #[inline]
    pub(super) fn channel_into(&self, c: usize, first: usize, out: &mut [f32]) {
        match self {
            Self::Field(f) => {
                let n = f.ty.channels();
                if c >= n {
                    out.fill(0.0);
                    return;
                }
                let values = f.data[first * n + c..].iter().step_by(n);
                for (o, &v) in out.iter_mut().zip(values) {
                    *o = v;
                }
            }
            Self::Const(v) => out.fill(v[c]),
        }
    }
}

/// The columns of `ports` at `domain` (the survivors' roots): the linked ones evaluated
/// in one pass ([`port_fields`]), each constant read once as `constant` reads it.
pub(super) fn columns(
    evaluator: &dyn PortFields,
    roots: Option<(&SetCache, &PartKey)>,
    ports: &[(&'static str, Input)],
    domain: &Domain,
    constant: impl Fn(&Input, PortType) -> Option<[f32; 3]>,
) -> Vec<Column> {
    let linked: Vec<(&'static str, Input)> = ports
        .iter()
        .filter(|(_, input)| input.link().is_some())
        .cloned()
        .collect();
    let mut fields = port_fields(evaluator, roots, &linked, domain).into_iter();
    ports
        .iter()
        .map(|(name, input)| match constant(input, port_type(name)) {
            Some(value) => Column::Const(value),
            None => Column::Field(fields.next().expect("one field per linked port")),
        })
        .collect()
}

/// A constant as the evaluator reads it ([`crate::eval::constant`]).
pub(super) fn evaluated(input: &Input, ty: PortType) -> Option<[f32; 3]> {
    crate::eval::constant(input, ty).map(|v| v.channels())
}

/// The groom fields at every root, held inside their ranges
/// ([`tuft_strands::shape::Groom::clamped`]). Ports fed by constants (the usual case)
/// are read once, not evaluated at every root; a layer groomed by constants alone fills
/// its columns with one value.
pub(super) fn groom(
    evaluator: &dyn PortFields,
    layer: &StrandLayer,
    roots: Option<(&SetCache, &PartKey)>,
    domain: &Domain,
    set: &mut StrandSet,
) {
    let ports = [
        ("curl", &layer.curl),
        ("curl_turns", &layer.curl_turns),
        ("frizz", &layer.frizz),
        ("tip_width", &layer.tip_width),
        ("taper", &layer.taper),
    ]
    .map(|(name, input)| (name, input.clone()));
    // A groom constant is read as written: `Groom::clamped` holds it in range and takes
    // a NaN to the neutral groom.
    let as_written = |input: &Input, _: PortType| match input {
        Input::Const(v) => Some(v.channels()),
        Input::Link(_) => None,
    };
    let values = columns(evaluator, roots, &ports, domain, as_written);
    let groom_at = |k: usize| {
        let v = |j: usize| values[j].at(0, k);
        Groom {
            curl: [v(0), v(1)],
            frizz: v(2),
            taper: [v(3), v(4)],
        }
        .clamped()
    };
    let n = set.len();
    if values.iter().all(|c| matches!(c, Column::Const(_))) {
        // Filled on every core: three columns of one value were a serial pass each.
        let g = groom_at(0);
        set.curl = rayon::iter::repeat_n(g.curl, n).collect();
        set.frizz = rayon::iter::repeat_n(g.frizz, n).collect();
        set.taper = rayon::iter::repeat_n(g.taper, n).collect();
        return;
    }
    set.curl = vec![[0.0; 2]; n];
    set.frizz = vec![0.0; n];
    set.taper = vec![[0.0; 2]; n];
    (
        set.curl.par_iter_mut(),
        set.frizz.par_iter_mut(),
        set.taper.par_iter_mut(),
    )
        .into_par_iter()
        .enumerate()
        .for_each(|(k, (curl_k, frizz_k, taper_k))| {
            let g = groom_at(k);
            (*curl_k, *frizz_k, *taper_k) = (g.curl, g.frizz, g.taper);
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Evaluator;

    #[test]
    fn a_constant_column_reads_what_its_field_holds() {
        use crate::value::Value;
        let graph = crate::graph::MaterialGraph::new("constants");
        let evaluator = Evaluator::new(&graph);
        let roots = [[0.1, 0.2], [0.7, 0.9], [0.4, 0.05]];
        let domain = Domain::points(&roots);
        // Well typed, of another type, and not finite.
        let ports: Vec<(&'static str, Input)> = vec![
            ("length", Input::Const(Value::Float(0.07))),
            ("width", Input::Const(Value::Color([1.0, 2.0, 3.0]))),
            ("lean", Input::Const(Value::Vec2([0.3, -0.2]))),
            ("bend", Input::Const(Value::Float(f32::NAN))),
            ("root_color", Input::Const(Value::Float(0.5))),
            (
                "tip_color",
                Input::Const(Value::Color([0.2, f32::INFINITY, 0.1])),
            ),
        ];
        let columns = columns(&evaluator, None, &ports, &domain, evaluated);
        let fields = port_fields(&evaluator, None, &ports, &domain);
        for ((column, field), (name, _)) in columns.iter().zip(&fields).zip(&ports) {
            assert!(matches!(column, Column::Const(_)), "{name}");
            for k in 0..roots.len() {
                for c in 0..field.ty.channels() {
                    assert_eq!(
                        column.at(c, k).to_bits(),
                        field.at(c, k).to_bits(),
                        "{name}"
                    );
                }
            }
            // A run of channel `c` from the column, from the field as a column, and
            // from the field one point at a time (zero past its channels): from every
            // first point.
            let as_column = Column::Field(field.clone());
            for c in 0..3 {
                for first in 0..roots.len() {
                    let want: Vec<u32> = (first..roots.len())
                        .map(|k| field.get(k)[c].to_bits())
                        .collect();
                    for column in [column, &as_column] {
                        let mut run = vec![f32::NAN; roots.len() - first];
                        column.channel_into(c, first, &mut run);
                        let run: Vec<u32> = run.iter().map(|x| x.to_bits()).collect();
                        assert_eq!(run, want, "{name} channel {c} from {first}");
                    }
                }
            }
        }
    }
}
