"""Imports a baked set's scene into Blender, as an artist would, and checks what came in:
each layer's cards wearing that layer's own atlas (one material per layer, named
<material>_<layer>_cards), alpha-clipped; the strand meshes carrying their _WIND
attribute; the ground wearing its maps. Then renders the cards and the ground (Cycles on
the CPU: no display needed) to a PNG, with enough transparent bounces that stacked
clipped cards are not darkened (Cycles' default of 8 rendered the fur nearly black).

    python3 scripts/blender-import.py DIR/lawn.gltf OUT.png

Needs Blender's Python module (`pip install bpy`) or `blender -b --python` with the same
arguments after `--`. Exits 1, naming what is wrong, if the import is not as it should be.
"""

import math
import sys

import bpy


def images_of(material):
    """The file names of the images a material's node tree reads."""
    return sorted(
        node.image.filepath.replace("\\", "/").split("/")[-1]
        for node in material.node_tree.nodes
        if node.type == "TEX_IMAGE" and node.image is not None
    )


def main(scene_path, out_png):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    try:
        bpy.ops.import_scene.gltf(filepath=scene_path)
    except RuntimeError as e:
        # A meshopt set: Blender's importer refuses EXT_meshopt_compression.
        print("problem: Blender cannot import the scene:", str(e).strip())
        sys.exit(1)
    problems = []
    objects = {o.name: o for o in bpy.data.objects}
    cards = [o for o in objects.values() if o.type == "MESH" and o.data.materials
             and o.data.materials[0].name.endswith("_cards")]
    strands = [o for o in objects.values() if o.type == "MESH" and o.data.materials
               and o.data.materials[0].name.endswith("_strands")]
    ground = objects.get("ground")
    if ground is None:
        problems.append("no ground object")
    else:
        maps = images_of(ground.data.materials[0])
        for role in ("base_color", "normal", "orm"):
            if not any(m.endswith(f"_{role}.png") for m in maps):
                problems.append(f"the ground does not wear its {role} map: {maps}")
    if not cards:
        problems.append("no card objects")
    for o in cards:
        material = o.data.materials[0]
        maps = images_of(material)
        # <material>_<layer>_cards wears <material>_<layer>_atlas_color.png (packed
        # from the .glb, Blender may name it without its extension).
        layer_stem = material.name[: -len("_cards")]
        if not any(m.startswith(f"{layer_stem}_atlas_color") for m in maps):
            problems.append(f"{o.name}: cards without their own layer's atlas: {maps}")
        # glTF's MASK comes in as a threshold on the alpha (Blender 4.2 on), or as the
        # older blend method CLIP.
        clipped = any(
            n.type == "MATH" and n.operation in ("GREATER_THAN", "LESS_THAN")
            and not n.inputs[1].is_linked and 0.0 < n.inputs[1].default_value < 1.0
            for n in material.node_tree.nodes
        )
        if not clipped and getattr(material, "blend_method", "") != "CLIP":
            problems.append(f"{o.name}: cards are not alpha-clipped")
    card_materials = [o.data.materials[0].name for o in cards]
    if len(set(card_materials)) != len(card_materials):
        problems.append(f"card layers share a material: {card_materials}")
    if not strands:
        problems.append("no strand meshes")
    for o in strands:
        if "_WIND" not in o.data.attributes:
            problems.append(f"{o.name}: no _WIND attribute ({list(o.data.attributes.keys())})")
    lods = sorted(name for name in objects if "_LOD" in name)
    print(f"imported {len(objects)} objects; LOD nodes: {', '.join(lods)}")
    for p in problems:
        print("problem:", p)

    # Show what the checks are about: the cards and the ground, near the grass's height.
    for o in objects.values():
        if o.type == "MESH" and o is not ground and o not in cards:
            o.hide_render = True
    scene = bpy.context.scene
    camera = bpy.data.objects.new("camera", bpy.data.cameras.new("camera"))
    scene.collection.objects.link(camera)
    # Blender is Z up: the ground is one repeat on the XY plane, seen from its edge.
    size = max(ground.dimensions.x, ground.dimensions.y) if ground else 2.0
    camera.location = (0.0, -0.75 * size, 0.6 * size)
    camera.rotation_euler = (math.radians(52.0), 0.0, 0.0)
    scene.camera = camera
    sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
    sun.data.energy = 4.0
    sun.rotation_euler = (math.radians(30.0), math.radians(10.0), math.radians(20.0))
    scene.collection.objects.link(sun)
    world = bpy.data.worlds.new("sky")
    world.use_nodes = True
    world.node_tree.nodes["Background"].inputs[0].default_value = (0.7, 0.8, 1.0, 1.0)
    scene.world = world
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = 16
    # Cards stand crossed and clipped: a ray passes many transparent texels before it
    # meets a blade, and Cycles' default 8 transparent bounces turn the rest black.
    scene.cycles.transparent_max_bounces = 64
    scene.cycles.max_bounces = max(scene.cycles.max_bounces, 64)
    scene.render.resolution_x, scene.render.resolution_y = 640, 360
    scene.render.filepath = out_png
    bpy.ops.render.render(write_still=True)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else sys.argv[1:]
    main(*args)
