//! `tuft nodes`: the vocabulary — every node kind with its one-line doc, its ports and
//! its parameters with their ranges, and the material's outputs — read from the same
//! descriptions the editor's library and inspector show.

use serde_json::{Value, json};
use std::process::ExitCode;
use tuft_graph::layer::STRAND_PORTS;
use tuft_graph::node::{NodeKind, ParamDesc, ParamKind, Params};

/// `x` as the number its shortest decimal names (0.6, not the 0.6000000238418579 its
/// widening to f64 would print); null for a value that is not finite.
fn decimal(x: f32) -> Value {
    format!("{x}")
        .parse::<f64>()
        .map_or(Value::Null, Value::from)
}

/// A parameter as data: name, doc, and what it accepts.
fn param(p: &ParamDesc) -> Value {
    let accepts = match p.kind {
        ParamKind::Float { min, max, default } => {
            json!({"type": "float", "slider": [decimal(min), decimal(max)], "default": decimal(default)})
        }
        ParamKind::Int { min, max, default } => {
            json!({"type": "int", "range": [min, max], "default": default})
        }
        ParamKind::Choice { options, default } => {
            json!({"type": "choice", "options": options, "default": default})
        }
        ParamKind::Ramp => json!({"type": "ramp", "default": "black to white"}),
        ParamKind::Text { default } => json!({"type": "text", "default": default}),
        ParamKind::File { extensions } => {
            json!({"type": "file", "extensions": extensions, "default": "none"})
        }
        ParamKind::Curve => json!({"type": "curve", "default": "(0, 0) to (1, 1)"}),
    };
    json!({"name": p.name, "doc": p.doc, "accepts": accepts})
}

/// A node kind as data, its ports as a new node of the kind has them.
fn kind(k: &dyn NodeKind) -> Value {
    let defaults = tuft_graph::node::default_params(k);
    let params = Params::new(&defaults, k.params());
    json!({
        "kind": k.name(),
        "doc": k.doc(),
        "category": k.category().label(),
        "inputs": k.inputs(&params).iter().map(|p| json!({
            "name": p.name, "type": p.ty.to_string(), "doc": p.doc,
            "range": [decimal(p.range.0), decimal(p.range.1)],
        })).collect::<Vec<_>>(),
        "outputs": k.outputs(&params).iter().map(|o| json!({
            "name": o.name, "type": o.ty.to_string(), "doc": o.doc,
        })).collect::<Vec<_>>(),
        "params": k.params().iter().map(param).collect::<Vec<_>>(),
    })
}

/// The strand layer's ports: an output of the material, added from the library.
fn strand_layer() -> Value {
    json!({
        "kind": "Strand layer",
        "doc": crate::graph_view::LAYER_DOC,
        "category": "Output",
        "inputs": STRAND_PORTS.iter().map(|p| json!({
            "name": p.name, "type": p.ty.to_string(), "doc": p.doc,
        })).collect::<Vec<_>>(),
        "outputs": [],
        "params": [],
    })
}

/// What a parameter accepts, in a few words: `int 1..=10, default 4`.
fn accepts_text(a: &Value) -> String {
    let default = &a["default"];
    let default = default
        .as_str()
        .map_or_else(|| default.to_string(), str::to_owned);
    match a["type"].as_str().unwrap_or_default() {
        "float" => format!(
            "float (slider {}..{}), default {default}",
            a["slider"][0], a["slider"][1]
        ),
        "int" => format!(
            "int {}..={}, default {default}",
            a["range"][0], a["range"][1]
        ),
        "choice" => {
            let options: Vec<&str> = a["options"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            format!("{}, default {default}", options.join("|"))
        }
        "file" => {
            let ext: Vec<&str> = a["extensions"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            format!("file ({}), relative to the graph", ext.join(", "))
        }
        other => format!("{other}, default {default}"),
    }
}

pub fn run(json_lines: bool) -> ExitCode {
    let all: Vec<Value> = std::iter::once(strand_layer())
        .chain(tuft_graph::nodes::ALL.iter().map(|k| kind(*k)))
        .collect();
    for entry in &all {
        if json_lines {
            out!("{entry}");
            continue;
        }
        out!(
            "{} ({}): {}",
            entry["kind"].as_str().unwrap_or_default(),
            entry["category"].as_str().unwrap_or_default(),
            entry["doc"].as_str().unwrap_or_default()
        );
        for (what, list) in [("in", &entry["inputs"]), ("out", &entry["outputs"])] {
            for p in list.as_array().into_iter().flatten() {
                out!(
                    "  {what:<5} {:<14} {:<6} {}",
                    p["name"].as_str().unwrap_or_default(),
                    p["type"].as_str().unwrap_or_default(),
                    p["doc"].as_str().unwrap_or_default()
                );
            }
        }
        for p in entry["params"].as_array().into_iter().flatten() {
            out!(
                "  param {:<14} {:<28} {}",
                p["name"].as_str().unwrap_or_default(),
                accepts_text(&p["accepts"]),
                p["doc"].as_str().unwrap_or_default()
            );
        }
    }
    ExitCode::SUCCESS
}
