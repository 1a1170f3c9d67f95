//! Strand-layer rules: no dynamic input reaches a strand port, densities stay in
//! `[0, 1]`, and a layer stays inside its settings' ranges and the strand budget.

use super::DENSITY_GRID;
use crate::diag::{Code, Diagnostic};
use crate::eval::Evaluator;
use crate::field::Domain;
use crate::graph::{MaterialGraph, Node};
use crate::limits;
use crate::link::{Input, NodeId, Sink};
use crate::value::PortType;
use std::collections::{HashMap, HashSet, VecDeque};

pub(super) fn dynamic_reach(
    graph: &MaterialGraph,
    sink: &Sink,
    input: &Input,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(start) = input.link() else { return };
    // Breadth-first from the sink, remembering through which input each node was reached.
    let mut parent: HashMap<NodeId, (NodeId, String)> = HashMap::new();
    let mut seen = HashSet::from([start.node]);
    let mut queue = VecDeque::from([start.node]);
    while let Some(id) = queue.pop_front() {
        let Some(node) = graph.node(id) else { continue };
        if node.kind().is_some_and(|k| k.is_dynamic()) {
            let mut chain = vec![format!("{} (dynamic input)", node.label())];
            let mut cur = id;
            while let Some((p, port)) = parent.get(&cur) {
                let label = graph.node(*p).map_or_else(String::new, Node::label);
                chain.push(format!("{label}.{port}"));
                cur = *p;
            }
            chain.push(sink.to_string());
            chain.reverse();
            diags.push(
                Diagnostic::error(
                    Code::Dynamic,
                    format!(
                        "{sink} reads a dynamic input, but strand fields are fixed when the \
                         set is scattered (wind and time belong to the renderer): {}",
                        chain.join(" ← ")
                    ),
                )
                .at(id)
                .on(sink),
            );
            return;
        }
        for (port, l) in graph.node_links(node) {
            if seen.insert(l.node) {
                parent.insert(l.node, (id, port));
                queue.push_back(l.node);
            }
        }
    }
}

/// Σ length × width over the repeat's area, from the fields on the validation grid.
fn estimated_cover(
    layer: &crate::layer::StrandLayer,
    repeat_m: f32,
    density: &crate::field::Field,
    length: &crate::field::Field,
    width: &crate::field::Field,
) -> f32 {
    let (max_length, max_width) = limits::strand_bounds(repeat_m);
    let n = density.len().max(1);
    let mean: f64 = (0..density.len())
        .map(|i| {
            let d = density.at(0, i).clamp(0.0, 1.0);
            let l = length.at(0, i).min(max_length).max(0.0);
            let w = width.at(0, i).min(max_width).max(0.0);
            f64::from(d * l * w)
        })
        .sum::<f64>()
        / n as f64;
    (layer.n_candidates() as f64 * mean / f64::from(repeat_m * repeat_m)) as f32
}

use crate::layer::port_range;

/// A warning for each constant on a layer's port outside that port's documented range:
/// the value, the range, and what the bake will use instead (the value held inside).
fn constants_in_range(name: &str, layer: &crate::layer::StrandLayer, diags: &mut Vec<Diagnostic>) {
    for (port, input) in layer.ports() {
        let (Some((lo, hi)), Input::Const(value)) = (port_range(port), input) else {
            continue;
        };
        // A non-finite constant is an error of its own (`structure`).
        if !value.is_finite() {
            continue;
        }
        let n = match value.ty() {
            PortType::Float => 1,
            PortType::Vec2 => 2,
            PortType::Color => 3,
        };
        let channels = &value.channels()[..n];
        if channels.iter().all(|c| (lo..=hi).contains(c)) {
            continue;
        }
        // Large values as the author would write them (1e30), others as figures.
        let number = |c: f32| {
            if c.abs() >= 1e6 {
                format!("{c:e}")
            } else {
                limits::figure(f64::from(c))
            }
        };
        let shown = |cs: &mut dyn Iterator<Item = f32>| {
            let parts: Vec<String> = cs.map(number).collect();
            if n == 1 {
                parts.concat()
            } else {
                format!("({})", parts.join(", "))
            }
        };
        let given = shown(&mut channels.iter().copied());
        let used = shown(&mut channels.iter().map(|c| c.clamp(lo, hi)));
        diags.push(
            Diagnostic::warning(
                Code::LayerSettings,
                format!(
                    "strands.{name}.{port} is {given}, outside its range [{}, {}]: the bake \
                     uses {used}",
                    limits::figure(f64::from(lo)),
                    limits::figure(f64::from(hi))
                ),
            )
            .on(&Sink::Strand {
                layer: name.to_owned(),
                port: port.to_owned(),
            }),
        );
    }
}

pub(super) fn layers(
    graph: &MaterialGraph,
    evaluator: &Evaluator<'_>,
    diags: &mut Vec<Diagnostic>,
) {
    let grid = Domain::grid(DENSITY_GRID, DENSITY_GRID);
    for clash in crate::naming::layer_file_clashes(graph) {
        diags.push(Diagnostic::error(Code::LayerSettings, clash));
    }
    for (name, layer) in &graph.strands {
        if name.is_empty() || name.len() > 255 {
            diags.push(Diagnostic::error(
                Code::LayerSettings,
                format!("strand layer name {name:?} must be 1 to 255 bytes long"),
            ));
        }
        for problem in layer.check_settings() {
            diags.push(Diagnostic::error(
                Code::LayerSettings,
                format!("strands.{name}: {problem}"),
            ));
        }
        constants_in_range(name, layer, diags);
        let sink = Sink::Strand {
            layer: name.clone(),
            port: "density".to_owned(),
        };
        let [density, length, width] = <[_; 3]>::try_from(evaluator.eval_inputs(
            &[
                (layer.density.clone(), PortType::Float),
                (layer.length.clone(), PortType::Float),
                (layer.width.clone(), PortType::Float),
            ],
            &grid,
        ))
        .expect("three inputs give three fields");
        let (max_length, max_width) = limits::strand_bounds(graph.repeat_m);
        for (port, field, input, most, limit) in [
            (
                "length",
                &length,
                &layer.length,
                limits::MAX_LENGTH_REPEATS,
                max_length,
            ),
            (
                "width",
                &width,
                &layer.width,
                limits::MAX_WIDTH_REPEATS,
                max_width,
            ),
        ] {
            let (_, hi) = field.range();
            if hi > limit {
                let mut d = Diagnostic::error(
                    Code::Limit,
                    format!(
                        "strands.{name}.{port} reaches {} m; a strand's {port} may be at \
                         most {most} of the repeat ({limit} m)",
                        limits::figure(f64::from(hi))
                    ),
                )
                .on(&Sink::Strand {
                    layer: name.clone(),
                    port: port.to_owned(),
                });
                if let Some(l) = input.link() {
                    d = d.at(l.node);
                }
                diags.push(d);
            }
        }
        let (lo, hi) = density.range();
        if lo < -1e-6 || hi > 1.0 + 1e-6 {
            let mut d = Diagnostic::warning(
                Code::DensityRange,
                format!(
                    "{sink} ranges over [{lo:.3}, {hi:.3}]; a density is a threshold in [0, 1] \
                     (below 0 grows nothing, above 1 grows every candidate)"
                ),
            )
            .on(&sink);
            if let Some(l) = layer.density.link() {
                d = d.at(l.node);
            }
            diags.push(d);
        }
        let cover = estimated_cover(layer, graph.repeat_m, &density, &length, &width);
        if cover > limits::MAX_COVER {
            diags.push(Diagnostic::error(
                Code::Budget,
                format!(
                    "strands.{name} laid flat would cover the repeat about {cover:.0} times \
                     (candidates × density × length × width); the most is {}: lower the \
                     lattice, the density or the strands' size",
                    limits::MAX_COVER
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::eval::Evaluator;
    use crate::link::Input;
    use crate::value::Value;

    /// Regression: groom constants far outside their ranges validated clean and were
    /// clamped silently at the bake.
    #[test]
    fn groom_constants_outside_their_ranges_are_warned_with_what_the_bake_uses() {
        let mut graph = crate::io::from_str(include_str!("../../../../presets/lawn.ron"))
            .unwrap()
            .graph;
        let layer = graph.strands.get_mut("blades").unwrap();
        layer.curl = Input::Const(Value::Float(1e9));
        layer.frizz = Input::Const(Value::Float(1e30));
        layer.taper = Input::Const(Value::Float(-5.0));
        layer.root_color = Input::Const(Value::Color([0.1, -2.0, 0.1]));
        let said: Vec<String> = crate::validate(&graph)
            .diagnostics
            .into_iter()
            .filter(|d| !d.is_error() && d.message.contains("outside its range"))
            .map(|d| d.message)
            .collect();
        let expected = [
            "strands.blades.root_color is (0.1, -2, 0.1), outside its range [0, 1000]: the bake uses (0.1, 0, 0.1)",
            "strands.blades.curl is 1e9, outside its range [0, 0.25]: the bake uses 0.25",
            "strands.blades.frizz is 1e30, outside its range [0, 0.3]: the bake uses 0.3",
            "strands.blades.taper is -5, outside its range [0.2, 5]: the bake uses 0.2",
        ];
        assert_eq!(said, expected);
        // The presets as shipped are inside every range.
        for text in [
            include_str!("../../../../presets/lawn.ron"),
            include_str!("../../../../presets/fur.ron"),
            include_str!("../../../../presets/moss.ron"),
        ] {
            let graph = crate::io::from_str(text).unwrap().graph;
            let report = crate::validate(&graph);
            assert!(
                !report
                    .diagnostics
                    .iter()
                    .any(|d| d.message.contains("outside its range")),
                "{:?}",
                report.diagnostics
            );
        }
    }
    use crate::field::Domain;
    use crate::value::PortType;

    /// The presets' covers, printed (`cargo test -p tuft-graph --lib presets_cover --
    /// --nocapture`): each well inside the limit, and the lawn's blades the largest.
    #[test]
    fn the_presets_cover_their_repeat_well_inside_the_limit() {
        let mut largest = (String::new(), 0.0f32);
        for text in [
            include_str!("../../../../presets/lawn.ron"),
            include_str!("../../../../presets/fur.ron"),
            include_str!("../../../../presets/moss.ron"),
        ] {
            let graph = crate::io::from_str(text).unwrap().graph;
            let evaluator = Evaluator::new(&graph);
            let grid = Domain::grid(super::DENSITY_GRID, super::DENSITY_GRID);
            for (name, layer) in &graph.strands {
                let fields = evaluator.eval_inputs(
                    &[
                        (layer.density.clone(), PortType::Float),
                        (layer.length.clone(), PortType::Float),
                        (layer.width.clone(), PortType::Float),
                    ],
                    &grid,
                );
                let cover = super::estimated_cover(
                    layer,
                    graph.repeat_m,
                    &fields[0],
                    &fields[1],
                    &fields[2],
                );
                println!("{} {name}: cover {cover:.1}", graph.name);
                assert!(cover < crate::limits::MAX_COVER / 10.0, "{name}: {cover}");
                if cover > largest.1 {
                    largest = (format!("{} {name}", graph.name), cover);
                }
            }
        }
        assert_eq!(largest.0, "lawn blades", "{largest:?}");
    }
}
