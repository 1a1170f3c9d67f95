//! A game's path through the runtime crate alone: the example a game starts from
//! (`engine/strands/examples/in_a_game.rs`), compiled here as a module so that its frame
//! is checked on a real baked set.

use crate::baked_set::{baked_moss, manifest};

#[allow(dead_code)]
#[path = "../../engine/strands/examples/in_a_game.rs"]
mod in_a_game;

#[test]
fn the_game_example_plants_the_prefix_each_distance_asks_for() {
    use glam::Vec3;
    use tuft_strands::placement::place;
    use tuft_strands::surface::Surface;
    let (dir, _) = baked_moss();
    let m = manifest(dir.path());
    let file =
        tuft_strands::file::decode(&std::fs::read(dir.path().join(&m.strands)).unwrap()).unwrap();
    // One 2 m tile; everything it could plant, as the editor plants it.
    let ground = Surface::plane(2.0, 1, 2.0 / m.repeat_m);
    let px = tuft_strands::switches::px_per_m_at_1m(1080.0, 0.125);
    for (layer, (name, set)) in m.layers.iter().zip(&file.layers) {
        assert_eq!(&layer.name, name);
        let all = &place(set, &ground, m.repeat_m)[0].strands;
        let ends = layer.switches.as_ref().unwrap().distances(px);
        // Just above the ground: level 0, every strand; halfway between the first two
        // switches: level 1, the strands ranked under its keep; past the last: nothing.
        let cases = [
            (0.5 * ends[0].1, 0, all.len()),
            (
                0.5 * (ends[0].1 + ends[1].1),
                1,
                all.iter()
                    .filter(|p| set.rank[p.strand as usize] < layer.levels.keep[1])
                    .count(),
            ),
        ];
        for (height, level, strands) in cases {
            let drawn = in_a_game::one_frame(dir.path(), 2.0, Vec3::new(0.0, height, 0.0)).unwrap();
            let d = drawn.iter().find(|d| d.layer == layer.name).unwrap();
            assert_eq!(d.shown_as, format!("level {level}"), "{name} at {height} m");
            assert_eq!((d.tiles, d.strands), (1, strands), "{name} at {height} m");
            assert!(strands > 0, "{name}: the case plants something");
            assert_eq!(
                d.triangles,
                strands * layer.profile.indices_per_strand() / 3
            );
            assert_eq!(
                d.vertex_bytes,
                strands * layer.profile.stored_per_strand() * 32
            );
        }
    }
    // From far above, every tile of a larger ground shows the surface alone.
    let far = in_a_game::one_frame(dir.path(), 16.0, Vec3::new(0.0, 900.0, 0.0)).unwrap();
    for layer in &m.layers {
        let d: Vec<_> = far.iter().filter(|d| d.layer == layer.name).collect();
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(
            (d[0].shown_as.as_str(), d[0].tiles, d[0].strands),
            ("surface", 64, 0)
        );
    }
}
