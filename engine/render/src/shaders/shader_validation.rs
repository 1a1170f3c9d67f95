//! Every WGSL module the renderer builds parses and validates with naga, without a device.

use super::shader_sources;

#[test]
fn every_shader_validates() {
    for (name, source) in shader_sources() {
        let module = naga::front::wgsl::parse_str(&source)
            .unwrap_or_else(|e| panic!("{name}.wgsl: {}", e.emit_to_string(&source)));
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::empty(),
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{name}.wgsl: {} {e:?}", e.emit_to_string(&source)));
    }
}

#[test]
fn every_wgsl_file_is_built_into_a_module() {
    // A shader file added under src/shaders must be part of some module, or it is never
    // validated (nor used).
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/shaders");
    let sources = shader_sources();
    for entry in std::fs::read_dir(dir).expect("src/shaders exists") {
        let path = entry.expect("readable entry").path();
        if path.extension().is_none_or(|e| e != "wgsl") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable shader");
        assert!(
            sources.iter().any(|(_, s)| s.contains(text.trim())),
            "{} is not in any module",
            path.display()
        );
    }
}
