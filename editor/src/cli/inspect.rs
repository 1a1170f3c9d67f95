//! `tuft inspect`: what a strand file holds, and whether it is intact.

use std::path::Path;
use std::process::ExitCode;
use tuft_strands::file::{self, Kind};

pub fn run(path: &Path) -> ExitCode {
    // A baked set's folder: its strand file (a set holds one at most).
    if path.is_dir() {
        let mut found: Vec<_> = std::fs::read_dir(path)
            .map(|entries| {
                entries
                    .flatten()
                    .map(|e| e.path())
                    // Not folders: a folder named *.strands (or a link back up) is not
                    // read again, which could recurse for ever. Anything else of the
                    // name is read, and what is not a regular file is named as such.
                    .filter(|p| !p.is_dir() && p.extension().is_some_and(|x| x == "strands"))
                    .collect()
            })
            .unwrap_or_default();
        found.sort();
        return match &found[..] {
            [one] => run(one),
            [] => {
                eprintln!(
                    "{}: error: a folder with no strand file (.strands) in it",
                    path.display()
                );
                ExitCode::FAILURE
            }
            many => {
                let names: Vec<String> = many.iter().map(|p| p.display().to_string()).collect();
                eprintln!(
                    "{}: error: a folder with {} strand files; name one: {}",
                    path.display(),
                    many.len(),
                    names.join(", ")
                );
                ExitCode::FAILURE
            }
        };
    }
    let shown = path.display();
    let bytes = match tuft_strands::read::read_file(path, file::MAX_FILE_BYTES, "strand file") {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{shown}: error: {}", e.reason());
            return ExitCode::FAILURE;
        }
    };
    // A full decode checks every CRC, the required fields and the rank order.
    if let Err(e) = file::decode(&bytes) {
        eprintln!("{shown}: error: {e}");
        return ExitCode::FAILURE;
    }
    let dir = file::read_directory(&bytes).expect("decoded above");
    out!(
        "{shown}: strand file version {}, scheme {} ({}), {}, repeat {} m, {}, {} bytes, trailer CRC ok",
        dir.version,
        dir.scheme.code(),
        dir.scheme.name(),
        if dir.aligned() {
            "arrays 16-byte aligned"
        } else {
            "arrays unaligned"
        },
        dir.repeat_m,
        crate::words::counted(dir.layers.len(), "layer"),
        bytes.len()
    );
    for layer in &dir.layers {
        let per_strand = if layer.n_strands == 0 {
            String::new()
        } else {
            format!(
                " ({:.1} bytes a strand)",
                layer.payload_len as f64 / f64::from(layer.n_strands)
            )
        };
        out!(
            "layer {:?}: {}, {} bytes{per_strand}, payload at {} CRC {:#010x} ok",
            layer.name,
            crate::words::counted(layer.n_strands, "strand"),
            layer.payload_len,
            layer.payload_offset,
            layer.crc
        );
        for (info, (name, ranges)) in layer
            .fields
            .iter()
            .zip(file::field_ranges(&dir, layer, &bytes))
        {
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
                "  {name:<12} {}×{kind} {:<9} {}",
                info.components,
                info.encoding.name(),
                shown.join(" ")
            );
        }
    }
    ExitCode::SUCCESS
}
