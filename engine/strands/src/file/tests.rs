//! The strand file codec's tests: layout, round trips, every damage refused.

use super::*;
use crate::crc::crc32;
use proptest::prelude::*;

pub(crate) fn small_set(n: usize) -> StrandSet {
    let mut s = StrandSet::with_capacity(n);
    for i in 0..n {
        let t = i as f32 / n as f32;
        s.root_uv.push([t, 1.0 - t - 1e-3]);
        s.rank.push(t);
        s.clump.push(i as u32 / 3);
        s.length.push(0.05 + t * 0.01);
        s.width.push(0.003);
        s.lean.push([0.1, -0.2]);
        s.bend.push(0.3);
        s.root_color.push([0.1, 0.2, 0.05]);
        s.tip_color.push([0.3, 0.4, 0.1]);
        s.tip_pull.push([0.001, 0.0]);
        s.id.push(i as u32 * 7);
        s.curl.push([0.1, 2.0 + t]);
        s.frizz.push(0.05 * t);
        s.taper.push([0.2, 1.0 + t]);
    }
    s
}

fn small_file() -> StrandFile {
    StrandFile {
        repeat_m: 2.0,
        layers: vec![
            ("blades".into(), small_set(5)),
            ("fibres".into(), small_set(3)),
        ],
    }
}

#[test]
fn a_file_round_trips_and_has_the_documented_layout() {
    let file = small_file();
    let bytes = encode(&file);
    assert_eq!(&bytes[..8], MAGIC);
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 2);
    assert_eq!(u32::from_le_bytes(bytes[12..16].try_into().unwrap()), 2);
    assert_eq!(f32::from_le_bytes(bytes[16..20].try_into().unwrap()), 2.0);
    assert_eq!(
        u64::from_le_bytes(bytes[24..32].try_into().unwrap()),
        bytes.len() as u64
    );
    let trailer = u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().unwrap());
    assert_eq!(trailer, crc32(&bytes[..bytes.len() - 4]));
    assert_eq!(decode(&bytes).unwrap(), file);
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = encode(&small_file());
    for len in 0..bytes.len() {
        assert!(decode(&bytes[..len]).is_err(), "truncated to {len} bytes");
    }
}

#[test]
fn every_single_bit_flip_is_an_error() {
    let bytes = encode(&small_file());
    for bit in 0..bytes.len() * 8 {
        let mut damaged = bytes.clone();
        damaged[bit / 8] ^= 1 << (bit % 8);
        assert!(decode(&damaged).is_err(), "bit {bit} flipped");
    }
}

/// Rewrites a file's trailer after tampering, so the checks behind it are reached.
fn reseal(bytes: &mut [u8]) {
    let body = bytes.len() - 4;
    let crc = crc32(&bytes[..body]);
    bytes[body..].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn future_versions_and_damaged_payloads_say_so() {
    let mut bytes = encode(&small_file());
    bytes[8] = 3;
    reseal(&mut bytes);
    assert_eq!(decode(&bytes), Err(FileError::FutureVersion(3)));
    let err = decode(&bytes).unwrap_err().to_string();
    assert!(err.contains("version 3 is newer"), "{err}");
    let mut bytes = encode(&small_file());
    let n = bytes.len();
    bytes[n - 10] ^= 0x40; // inside the last payload
    reseal(&mut bytes);
    assert!(matches!(decode(&bytes), Err(FileError::PayloadCrc { .. })));
}

#[test]
fn a_missing_required_field_is_named() {
    // A layer written without "rank": rename the field in the directory.
    let mut bytes = encode(&small_file());
    let at = bytes.windows(4).position(|w| w == b"rank").unwrap();
    bytes[at..at + 4].copy_from_slice(b"rang");
    reseal(&mut bytes);
    let err = decode(&bytes).unwrap_err();
    assert!(err.to_string().contains("\"rank\" is missing"), "{err}");
}

#[test]
fn a_file_written_before_grooming_reads_as_ungroomed_strands() {
    // The groom fields renamed to names no reader knows: a file of the fields the
    // writer wrote before them (unknown fields are skipped).
    let file = small_file();
    let mut bytes = encode(&file);
    for (from, to) in [
        (&b"curl"[..], &b"xurl"[..]),
        (b"frizz", b"xrizz"),
        (b"taper", b"xaper"),
    ] {
        while let Some(at) = bytes.windows(from.len()).position(|w| w == from) {
            bytes[at..at + from.len()].copy_from_slice(to);
        }
    }
    reseal(&mut bytes);
    let read = decode(&bytes).unwrap();
    for ((_, old), (_, new)) in read.layers.iter().zip(&file.layers) {
        assert!(old.is_consistent());
        for i in 0..old.len() {
            assert_eq!(old.groom(i), crate::shape::Groom::NEUTRAL);
        }
        assert_eq!(old.length, new.length, "the rest reads as written");
    }
    // And the groom round-trips when present.
    assert_eq!(decode(&encode(&file)).unwrap(), file);
}

#[test]
fn a_payload_length_that_disagrees_with_the_directory_is_refused() {
    let mut bytes = encode(&small_file());
    let infos = read_directory(&bytes).unwrap().layers;
    // The first layer's payload length field sits 12 bytes before its CRC... find it
    // by value and bump it.
    let needle = infos[0].payload_len.to_le_bytes();
    let at = bytes.windows(8).position(|w| w == needle).unwrap();
    bytes[at..at + 8].copy_from_slice(&(infos[0].payload_len + 4).to_le_bytes());
    reseal(&mut bytes);
    let err = decode(&bytes).unwrap_err();
    assert!(matches!(err, FileError::Malformed(_)), "{err}");
}

/// The bytes of a file whose layers all name the first layer's payload: before
/// payloads had to be disjoint, a 4.6 MB file of this shape asked for over 6 GB.
pub(crate) fn aliased_payloads(n_layers: usize) -> Vec<u8> {
    let set = small_set(64);
    let file = StrandFile {
        repeat_m: 1.0,
        layers: (0..n_layers)
            .map(|i| (format!("l{i}"), set.clone()))
            .collect(),
    };
    let mut bytes = encode(&file);
    let infos = read_directory(&bytes).unwrap().layers;
    for info in &infos[1..] {
        let needle = info.payload_offset.to_le_bytes();
        let at = bytes.windows(8).position(|w| w == needle).unwrap();
        bytes[at..at + 8].copy_from_slice(&infos[0].payload_offset.to_le_bytes());
    }
    reseal(&mut bytes);
    bytes
}

#[test]
fn payloads_named_by_two_entries_are_refused() {
    let bytes = aliased_payloads(3);
    let err = decode(&bytes).unwrap_err();
    assert!(
        matches!(&err, FileError::Malformed(m) if m.contains("overlap")),
        "{err}"
    );
    // The same file with its payloads where the writer put them decodes.
    let set = small_set(64);
    let file = StrandFile {
        repeat_m: 1.0,
        layers: (0..3).map(|i| (format!("l{i}"), set.clone())).collect(),
    };
    assert_eq!(decode(&encode(&file)).unwrap(), file);
}

#[test]
fn a_layer_count_the_file_cannot_hold_is_refused_before_reading() {
    let mut bytes = encode(&small_file());
    bytes[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    reseal(&mut bytes);
    let err = decode(&bytes).unwrap_err();
    assert!(
        matches!(&err, FileError::Malformed(m) if m.contains("cannot fit")),
        "{err}"
    );
}

#[test]
fn mutations_behind_a_valid_crc_reach_every_check() {
    // A control for the property test above: the same kind of edit, made
    // deterministically, must be refused for many different reasons, or the
    // mutations would be testing the CRC alone.
    let base = encode(&small_file());
    let mut reasons = std::collections::BTreeSet::new();
    for i in 0..4000u64 {
        let mut bytes = base.clone();
        let h = crate::hash::hash(7, i, 0);
        let at = 12 + (h % (base.len() as u64 - 16)) as usize;
        if (24..32).contains(&at) {
            continue;
        }
        bytes[at] ^= 1 << ((h >> 32) % 8);
        reseal(&mut bytes);
        match decode(&bytes) {
            Ok(_) => {}
            Err(FileError::Malformed(m)) => {
                reasons.insert(format!("malformed {}", m.split(':').next().unwrap_or("")));
            }
            Err(FileError::Field { problem, .. }) => {
                reasons.insert(format!("field {}", &problem[..problem.len().min(12)]));
            }
            Err(e) => {
                reasons.insert(format!("{:?}", std::mem::discriminant(&e)));
            }
        }
    }
    assert!(reasons.len() >= 12, "{reasons:#?}");
}

prop_compose! {
    fn arb_set()(n in 0usize..40, seed in any::<u32>()) -> StrandSet {
        let mut s = StrandSet::with_capacity(n);
        let mut ranks: Vec<f32> = (0..n)
            .map(|i| crate::hash::unit_f32(crate::hash::hash(u64::from(seed), i as u64, 0)))
            .collect();
        ranks.sort_by(f32::total_cmp);
        for (i, r) in ranks.into_iter().enumerate() {
            let h = |c| crate::hash::unit_f32(crate::hash::hash(u64::from(seed), i as u64, c));
            s.root_uv.push([h(1), h(2)]);
            s.rank.push(r);
            s.clump.push((h(3) * 1000.0) as u32);
            s.length.push(h(4) * 0.2);
            s.width.push(h(5) * 0.01);
            s.lean.push([h(6) - 0.5, h(7) - 0.5]);
            s.bend.push(h(8));
            s.root_color.push([h(9), h(10), h(11)]);
            s.tip_color.push([h(12), h(13), h(14)]);
            s.tip_pull.push([h(15) * 0.01, h(16) * 0.01]);
            s.id.push(i as u32);
            s.curl.push([h(17) * 0.2, h(18) * 4.0]);
            s.frizz.push(h(19) * 0.1);
            s.taper.push([h(20), 0.5 + h(21)]);
        }
        s
    }
}

proptest! {
    #[test]
    fn any_set_round_trips(sets in proptest::collection::vec(arb_set(), 0..4), repeat in 0.5f32..100.0) {
        let file = StrandFile {
            repeat_m: repeat,
            layers: sets.into_iter().enumerate().map(|(i, s)| (format!("layer {i} ✓"), s)).collect(),
        };
        prop_assert_eq!(decode(&encode(&file)).unwrap(), file);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = decode(&bytes);
    }

    /// Mutations behind a recomputed length and trailer CRC reach the directory
    /// parser and the field checks, which random bytes never get past the magic to.
    #[test]
    fn mutations_behind_a_valid_crc_never_panic(
        edits in proptest::collection::vec((any::<u16>(), any::<u8>()), 1..6),
    ) {
        let mut bytes = encode(&small_file());
        let n = bytes.len();
        for (at, value) in edits {
            // Most edits land in the header and directory, where the structure is.
            let at = usize::from(at) % if value & 1 == 0 { 200.min(n - 4) } else { n - 4 };
            if (8..12).contains(&at) || (24..32).contains(&at) {
                continue; // keep the magic's neighbours, version and length honest
            }
            bytes[at] = value;
        }
        reseal(&mut bytes);
        if let Ok(file) = decode(&bytes) {
            let values: usize = file.layers.iter().map(|(_, s)| s.len() * 20).sum();
            prop_assert!(values * 4 <= 4 * n + 1024, "{values} values from {n} bytes");
        }
    }
}

/// `bytes` copied to a 16-byte-aligned buffer, as a memory map would hold them.
fn aligned_copy(bytes: &[u8]) -> Vec<u128> {
    let mut words = vec![0u128; bytes.len().div_ceil(16)];
    bytemuck::cast_slice_mut::<u128, u8>(&mut words)[..bytes.len()].copy_from_slice(bytes);
    words
}

#[test]
fn the_version_1_fixture_still_reads() {
    // Written by the version-1 writer; keep it and this test for as long as files of
    // that version can exist.
    let bytes = include_bytes!("../../tests/fixtures/v1.strands");
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 1);
    let dir = read_directory(bytes).unwrap();
    assert_eq!(
        (dir.version, dir.scheme, dir.aligned()),
        (1, Scheme::Stored, false)
    );
    assert_eq!(decode(bytes).unwrap(), small_file());
    // Its damage is still refused: every truncation and every flipped bit.
    for len in 0..bytes.len() {
        assert!(decode(&bytes[..len]).is_err(), "truncated to {len} bytes");
    }
    for bit in 0..bytes.len() * 8 {
        let mut damaged = bytes.to_vec();
        damaged[bit / 8] ^= 1 << (bit % 8);
        assert!(decode(&damaged).is_err(), "bit {bit} flipped");
    }
}

#[test]
fn the_writer_and_the_reader_agree_on_the_fields() {
    let set = small_set(2);
    let bytes = encode(&StrandFile {
        repeat_m: 1.0,
        layers: vec![("a".into(), set)],
    });
    let fields = &read_directory(&bytes).unwrap().layers[0].fields;
    let shapes: Vec<(&str, u8, Kind)> = fields
        .iter()
        .map(|f| (f.name.as_str(), f.components, f.kind))
        .collect();
    assert_eq!(shapes, encode::WRITTEN.to_vec());
}

#[test]
fn every_array_starts_aligned_and_casts_in_place() {
    for scheme in [Scheme::Stored, Scheme::Quantised] {
        let file = small_file();
        let bytes = encode_with(&file, scheme);
        let dir = read_directory(&bytes).unwrap();
        assert_eq!((dir.version, dir.scheme), (2, scheme));
        let words = aligned_copy(&bytes);
        let mapped = &bytemuck::cast_slice::<u128, u8>(&words)[..bytes.len()];
        for (info, (_, set)) in dir.layers.iter().zip(&file.layers) {
            assert_eq!(info.payload_offset % ALIGN, 0, "{scheme:?}");
            let mut at = info.payload_offset as usize;
            for f in &info.fields {
                assert_eq!(at % 16, 0, "{} starts at {at}", f.name);
                let len = set.len() * usize::from(f.components) * f.encoding.value_bytes() as usize;
                let array = &mapped[at..at + len];
                match (&f.encoding, f.name.as_str()) {
                    (Encoding::Raw, "root_uv") => {
                        let roots: &[[f32; 2]] = bytemuck::try_cast_slice(array).unwrap();
                        assert_eq!(roots, set.root_uv.as_slice());
                    }
                    (Encoding::Raw, "clump") => {
                        let clumps: &[u32] = bytemuck::try_cast_slice(array).unwrap();
                        assert_eq!(clumps, set.clump.as_slice());
                    }
                    (Encoding::Rank16 | Encoding::U16 | Encoding::Unorm16(_), _) => {
                        assert!(bytemuck::try_cast_slice::<u8, u16>(array).is_ok());
                    }
                    _ => {}
                }
                at += encode::aligned(len as u64) as usize;
            }
        }
    }
}

/// A set shaped like a lawn layer: constant widths and groom, varied lengths, lean and
/// colours, ids above 65535.
fn lawnish(n: usize, seed: u64) -> StrandSet {
    let h = |i: usize, c: u32| crate::hash::unit_f32(crate::hash::hash(seed, i as u64, c));
    let mut ranks: Vec<f32> = (0..n).map(|i| h(i, 0)).collect();
    ranks.sort_by(f32::total_cmp);
    let mut s = StrandSet::with_capacity(n);
    for (i, r) in ranks.into_iter().enumerate() {
        s.root_uv.push([h(i, 1), h(i, 2)]);
        s.rank.push(r);
        s.clump.push((h(i, 3) * 575.0) as u32);
        s.length.push(0.0346 + 0.0783 * h(i, 4));
        s.width.push(0.0035);
        s.lean.push([0.63 * h(i, 5) - 0.36, 0.72 * h(i, 6) - 0.35]);
        s.bend.push(0.35);
        s.root_color.push([0.021 + 0.007 * h(i, 7), 0.05, 0.012]);
        s.tip_color.push([
            0.05 + 0.25 * h(i, 8),
            0.11 + 0.2 * h(i, 9),
            0.02 + 0.07 * h(i, 10),
        ]);
        s.tip_pull
            .push([0.02 * h(i, 11) - 0.01, 0.02 * h(i, 12) - 0.01]);
        s.id.push(i as u32 * 3 + 1);
        s.curl.push([0.0, 2.0]);
        s.frizz.push(0.0);
        s.taper.push([0.2, 1.0]);
    }
    s
}

#[test]
fn scheme_1_round_trips_within_every_fields_bound() {
    let set = lawnish(30_000, 5);
    let file = StrandFile {
        repeat_m: 2.0,
        layers: vec![("blades".into(), set.clone())],
    };
    let bytes = encode_with(&file, Scheme::Quantised);
    let per_strand = bytes.len() as f64 / set.len() as f64;
    assert!(per_strand <= 32.0, "{per_strand} bytes a strand");
    let back = &decode(&bytes).unwrap().layers[0].1;
    assert_ne!(back, &set, "scheme 1 is not bit-identical");
    let info = &read_directory(&bytes).unwrap().layers[0];
    let range = |name: &str, k: usize| -> f32 {
        let f = info.fields.iter().find(|f| f.name == name).unwrap();
        match &f.encoding {
            Encoding::Unorm16(r) => (r[k].1 - r[k].0) / 131_070.0 + 2.0 * f32::EPSILON,
            Encoding::Constant(_) | Encoding::Raw | Encoding::U16 => 0.0,
            e => panic!("{name}: {e:?}"),
        }
    };
    let close = |name: &str, a: &[f32], b: &[f32], c: usize| {
        for (k, (x, y)) in a.iter().zip(b).enumerate() {
            let bound = range(name, k % c) * x.abs().max(1.0);
            assert!(
                (x - y).abs() <= bound,
                "{name}[{k}]: {x} → {y}, bound {bound}"
            );
        }
    };
    close(
        "root_uv",
        bytemuck::cast_slice(&set.root_uv),
        bytemuck::cast_slice(&back.root_uv),
        2,
    );
    close("length", &set.length, &back.length, 1);
    close(
        "lean",
        bytemuck::cast_slice(&set.lean),
        bytemuck::cast_slice(&back.lean),
        2,
    );
    close(
        "tip_pull",
        bytemuck::cast_slice(&set.tip_pull),
        bytemuck::cast_slice(&back.tip_pull),
        2,
    );
    assert_eq!(back.width, set.width);
    assert_eq!(back.bend, set.bend);
    assert_eq!(back.curl, set.curl);
    assert_eq!(back.taper, set.taper);
    assert_eq!(back.clump, set.clump);
    assert_eq!(back.id, set.id);
    for (a, b) in set
        .tip_color
        .iter()
        .flatten()
        .zip(back.tip_color.iter().flatten())
    {
        let codes = (crate::num::linear_to_srgb(*a) - crate::num::linear_to_srgb(*b)).abs() * 255.0;
        assert!(codes <= 0.5 + 1e-3, "{a} → {b}");
    }
    for (a, b) in set.rank.iter().zip(&back.rank) {
        assert!(b <= a && a - b < 1.0 / 65536.0);
    }
    // The level cuts of the presets (and any keep on the 2⁻¹⁶ grid) keep the same strands.
    for keep in [1.0, 0.25, 0.0625, 0.5, 0.1 - 0.1 % (1.0 / 65536.0)] {
        assert_eq!(set.level_len(keep), back.level_len(keep), "keep {keep}");
    }
    // A second trip changes nothing: the decoded values are on the grid.
    assert!(encode_with(&decode(&bytes).unwrap(), Scheme::Quantised) == bytes);
}

#[test]
fn every_truncation_and_bit_flip_of_a_scheme_1_file_is_an_error() {
    let bytes = encode_with(&small_file(), Scheme::Quantised);
    assert_eq!(read_directory(&bytes).unwrap().scheme, Scheme::Quantised);
    for len in 0..bytes.len() {
        assert!(decode(&bytes[..len]).is_err(), "truncated to {len} bytes");
    }
    for bit in 0..bytes.len() * 8 {
        let mut damaged = bytes.clone();
        damaged[bit / 8] ^= 1 << (bit % 8);
        assert!(decode(&damaged).is_err(), "bit {bit} flipped");
    }
}

/// The position of field `name`'s encoding byte in the first layer's directory entry.
fn encoding_byte(bytes: &[u8], name: &str) -> usize {
    let mut key = (name.len() as u16).to_le_bytes().to_vec();
    key.extend_from_slice(name.as_bytes());
    bytes.windows(key.len()).position(|w| w == key).unwrap() + key.len() + 2
}

#[test]
fn bad_encodings_ranges_offsets_and_padding_are_named() {
    let quantised = encode_with(&small_file(), Scheme::Quantised);
    // An encoding byte no build knows.
    let mut bytes = quantised.clone();
    let at = encoding_byte(&bytes, "length");
    assert_eq!(bytes[at], 2, "length is unorm16 in the small file");
    bytes[at] = 9;
    reseal(&mut bytes);
    assert!(
        matches!(decode(&bytes), Err(FileError::UnknownEncoding { ref field, code: 9, .. }) if field == "length"),
        "{:?}",
        decode(&bytes)
    );
    // A NaN range and an inverted one.
    for (low, high) in [(f32::NAN, 1.0), (0.5, 0.25), (0.0, f32::INFINITY)] {
        let mut bytes = quantised.clone();
        let at = encoding_byte(&bytes, "length") + 1;
        bytes[at..at + 4].copy_from_slice(&low.to_le_bytes());
        bytes[at + 4..at + 8].copy_from_slice(&high.to_le_bytes());
        reseal(&mut bytes);
        let err = decode(&bytes).unwrap_err();
        assert!(matches!(err, FileError::BadRange { .. }), "{err}");
        assert!(err.to_string().contains("\"length\""), "{err}");
    }
    // An encoding that cannot hold the field's kind: srgb8 for an integer.
    let mut bytes = quantised.clone();
    let at = encoding_byte(&bytes, "clump");
    bytes[at] = 4;
    reseal(&mut bytes);
    assert!(matches!(decode(&bytes), Err(FileError::Malformed(m)) if m.contains("cannot encode")));
    // A constant rank.
    let mut bytes = encode(&small_file());
    bytes[8] = 2;
    let at = encoding_byte(&bytes, "rank");
    bytes[at] = 1;
    reseal(&mut bytes);
    assert!(decode(&bytes).is_err());
    // A quantised encoding in a stored file.
    let mut bytes = encode(&small_file());
    let at = encoding_byte(&bytes, "rank");
    bytes[at] = 3;
    reseal(&mut bytes);
    let err = decode(&bytes).unwrap_err();
    assert!(err.to_string().contains("stored (scheme 0)"), "{err}");
    // A payload moved off its 16-byte boundary.
    let mut bytes = encode(&small_file());
    let info = read_directory(&bytes).unwrap().layers.remove(1);
    let needle = info.payload_offset.to_le_bytes();
    let at = bytes.windows(8).position(|w| w == needle).unwrap();
    bytes[at..at + 8].copy_from_slice(&(info.payload_offset + 4).to_le_bytes());
    reseal(&mut bytes);
    assert_eq!(
        decode(&bytes),
        Err(FileError::Misaligned {
            layer: "fibres".into(),
            offset: info.payload_offset + 4
        })
    );
    // Padding that is not zero, after the directory and inside a payload (the payload's
    // CRC made right too, so the padding check is what refuses it).
    let mut bytes = encode(&small_file());
    let dir = read_directory(&bytes).unwrap();
    let first = dir.layers[0].payload_offset as usize;
    assert_eq!(
        bytes[first - 1],
        0,
        "the directory is padded in the small file"
    );
    bytes[first - 1] = 7;
    reseal(&mut bytes);
    assert!(matches!(decode(&bytes), Err(FileError::Malformed(m)) if m.contains("padding")));
    let mut bytes = encode(&small_file());
    let info = &dir.layers[0];
    // root_uv of 5 strands is 40 bytes, padded to 48.
    let at = first + 44;
    assert_eq!(bytes[at], 0);
    bytes[at] = 1;
    let payload = &bytes[first..first + info.payload_len as usize];
    let crc = crc32(payload).to_le_bytes();
    let old = info.crc.to_le_bytes();
    let c = bytes.windows(4).position(|w| w == old).unwrap();
    bytes[c..c + 4].copy_from_slice(&crc);
    reseal(&mut bytes);
    let err = decode(&bytes).unwrap_err();
    assert!(err.to_string().contains("after field \"root_uv\""), "{err}");
    // An unknown scheme.
    let mut bytes = encode(&small_file());
    bytes[10] = 2;
    reseal(&mut bytes);
    assert_eq!(decode(&bytes), Err(FileError::UnknownScheme(2)));
}

proptest! {
    #[test]
    fn any_set_round_trips_quantised_within_bounds(sets in proptest::collection::vec(arb_set(), 0..4)) {
        let file = StrandFile {
            repeat_m: 2.0,
            layers: sets.into_iter().enumerate().map(|(i, s)| (format!("l{i}"), s)).collect(),
        };
        let bytes = encode_with(&file, Scheme::Quantised);
        let back = decode(&bytes).unwrap();
        for ((_, a), (_, b)) in file.layers.iter().zip(&back.layers) {
            prop_assert_eq!(a.len(), b.len());
            prop_assert_eq!(&a.clump, &b.clump);
            prop_assert_eq!(&a.id, &b.id);
            for (x, y) in a.length.iter().zip(&b.length) {
                prop_assert!((x - y).abs() <= 0.2 / 131_070.0 + 1e-7);
            }
        }
        prop_assert!(encode_with(&back, Scheme::Quantised) == bytes, "a second trip changed the bytes");
    }

    #[test]
    fn quantised_mutations_behind_a_valid_crc_never_panic(
        edits in proptest::collection::vec((any::<u16>(), any::<u8>()), 1..6),
    ) {
        let mut bytes = encode_with(&small_file(), Scheme::Quantised);
        let n = bytes.len();
        for (at, value) in edits {
            let at = usize::from(at) % if value & 1 == 0 { 400.min(n - 4) } else { n - 4 };
            if (8..12).contains(&at) || (24..32).contains(&at) {
                continue;
            }
            bytes[at] = value;
        }
        reseal(&mut bytes);
        if let Ok(file) = decode(&bytes) {
            let strands: usize = file.layers.iter().map(|(_, s)| s.len()).sum();
            prop_assert!(strands * 6 <= n, "{strands} strands from {n} bytes");
        }
    }
}

/// Regression: a file whose payloads held NaN, infinite or absurd values (with every
/// CRC intact) decoded, and drew as invisible strands the report still counted, or as
/// smears.
#[test]
fn values_outside_what_a_scatter_writes_are_refused_naming_layer_field_and_strand() {
    type Damage = fn(&mut StrandSet);
    let cases: [(&str, Damage); 7] = [
        ("lean of strand 2 is NaN (component 0)", |s| {
            s.lean[2][0] = f32::NAN;
        }),
        ("length of strand 1 is 1e30", |s| {
            s.length[1] = 1e30;
        }),
        ("taper of strand 0 is -5 (component 0)", |s| {
            s.taper[0][0] = -5.0;
        }),
        ("root_color of strand 4 is NaN (component 1)", |s| {
            s.root_color[4][1] = f32::NAN;
        }),
        ("bend of strand 3 is inf", |s| s.bend[3] = f32::INFINITY),
        ("width of strand 0 is 0.5", |s| s.width[0] = 0.5),
        ("curl of strand 1 is 1e9 (component 1)", |s| {
            s.curl[1][1] = 1e9;
        }),
    ];
    for (said, damage) in cases {
        let mut file = small_file();
        damage(&mut file.layers[0].1);
        for scheme in [Scheme::Stored, Scheme::Quantised] {
            let err = decode(&encode_with(&file, scheme)).unwrap_err().to_string();
            assert!(
                err.starts_with("layer \"blades\": ") && err.contains(said),
                "{scheme:?}: {err} (expected {said})"
            );
        }
    }
    // Values at the bounds themselves, and a quantised round trip of them, read.
    let mut file = small_file();
    file.layers[0].1.length[0] = crate::set::MAX_LENGTH_REPEATS * file.repeat_m;
    file.layers[0].1.lean[0] = [crate::set::MAX_LEAN, -crate::set::MAX_LEAN];
    file.layers[0].1.frizz[0] = crate::shape::MAX_FRIZZ;
    for scheme in [Scheme::Stored, Scheme::Quantised] {
        decode(&encode_with(&file, scheme)).unwrap();
    }
}

/// `tuft inspect`'s figures: a constant field's range is its value, told without
/// spreading the value over every strand.
#[test]
fn a_constant_fields_range_is_its_value() {
    let mut file = small_file();
    for w in &mut file.layers[0].1.width {
        *w = 0.004;
    }
    let bytes = encode_with(&file, Scheme::Quantised);
    let dir = read_directory(&bytes).unwrap();
    let layer = &dir.layers[0];
    let width = layer.fields.iter().find(|f| f.name == "width").unwrap();
    assert!(
        matches!(width.encoding, Encoding::Constant(_)),
        "{:?}",
        width.encoding
    );
    let ranges = field_ranges(&dir, layer, &bytes);
    let (_, width) = ranges.iter().find(|(n, _)| n == "width").unwrap();
    assert_eq!(width, &[(f64::from(0.004_f32), f64::from(0.004_f32))]);
}
