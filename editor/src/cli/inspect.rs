//! `tuft inspect`: what a strand file holds, and whether it is intact.

use std::path::Path;
use std::process::ExitCode;
use tuft_strands::file::{self, Kind};

pub fn run(path: &Path) -> ExitCode {
    let shown = path.display();
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{shown}: error: cannot read: {e}");
            return ExitCode::FAILURE;
        }
    };
    // A full decode checks every CRC, the required fields and the rank order.
    if let Err(e) = file::decode(&bytes) {
        eprintln!("{shown}: error: {e}");
        return ExitCode::FAILURE;
    }
    let (repeat_m, layers) = file::read_directory(&bytes).expect("decoded above");
    out!(
        "{shown}: strand file version {}, repeat {repeat_m} m, {} layers, {} bytes, trailer CRC ok",
        file::VERSION,
        layers.len(),
        bytes.len()
    );
    for layer in &layers {
        out!(
            "layer {:?}: {} strands, {} bytes, payload CRC {:#010x} ok",
            layer.name,
            layer.n_strands,
            layer.payload_len,
            layer.crc
        );
        for (info, (name, ranges)) in layer.fields.iter().zip(file::field_ranges(layer, &bytes)) {
            let kind = match info.kind {
                Kind::F32 => "f32",
                Kind::U32 => "u32",
            };
            let shown: Vec<String> = ranges
                .iter()
                .map(|(lo, hi)| {
                    if layer.n_strands == 0 {
                        "[empty]".to_owned()
                    } else if info.kind == Kind::U32 {
                        format!("[{lo}, {hi}]")
                    } else {
                        format!("[{lo:.5}, {hi:.5}]")
                    }
                })
                .collect();
            out!(
                "  {name:<12} {}×{kind}  {}",
                info.components,
                shown.join(" ")
            );
        }
    }
    ExitCode::SUCCESS
}
