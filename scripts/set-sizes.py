#!/usr/bin/env python3
"""Bakes each shipped preset with the default options and with the smallest
(`--compress meshopt --strands quantised --ktx2 bc7`), and prints BENCHMARKS.md's "A
layer's levels in one file" table row by row: bytes / 10^6 of the whole set, its strand
`.glb` files, its cards' `.glb` files, the ground's `.glb`, every loose PNG, every KTX2,
the strand file, and the bake's wall clock.

    python3 scripts/set-sizes.py [--tuft target/release/tuft] [--out DIR]

With --views GLB: instead, each buffer view of that `.glb` with its byte length, its
compressed length (EXT_meshopt_compression), its filter and the attributes reading it
(the per-attribute figures under the table).
"""

import argparse
import glob
import json
import os
import shutil
import struct
import subprocess
import time

PRESETS = ["lawn", "fur", "moss", "carpet"]
SMALL = ["--compress", "meshopt", "--strands", "quantised", "--ktx2", "bc7"]


def views(path):
    data = open(path, "rb").read()
    length = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + length])
    readers = {}
    for mesh in doc.get("meshes", []):
        for prim in mesh["primitives"]:
            pairs = list(prim["attributes"].items()) + [("indices", prim["indices"])]
            for name, accessor in pairs:
                view = doc["accessors"][accessor]["bufferView"]
                readers.setdefault(view, set()).add(f'{mesh["name"]}:{name}')
    for k, view in enumerate(doc.get("bufferViews", [])):
        ext = view.get("extensions", {}).get("EXT_meshopt_compression", {})
        names = sorted(readers.get(k, []))
        print(k, view["byteLength"], ext.get("byteLength"), ext.get("filter"),
              names[:2], "..." if len(names) > 2 else "")


def table(tuft, out):
    for preset in PRESETS:
        for label, options in [("default", []), ("small", SMALL)]:
            folder = os.path.join(out, f"{preset}-{label}")
            shutil.rmtree(folder, ignore_errors=True)
            start = time.time()
            subprocess.run([tuft, "bake", f"presets/{preset}.ron", "--out", folder] + options,
                           capture_output=True, check=True)
            seconds = time.time() - start

            def mb(pattern):
                return sum(os.path.getsize(f) for f in glob.glob(os.path.join(folder, pattern))) / 1e6

            print(f"| {preset} | {label} | {mb('*'):.1f} | {mb('*_strands.glb'):.1f} | "
                  f"{mb('*_cards.glb'):.1f} | {mb(preset + '_ground.glb'):.1f} | {mb('*.png'):.1f} | "
                  f"{mb('*.ktx2'):.1f} | {mb(preset + '.strands'):.1f} | {seconds:.1f} s |", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tuft", default="target/release/tuft")
    parser.add_argument("--out", default="target/set-sizes")
    parser.add_argument("--views")
    args = parser.parse_args()
    if args.views:
        views(args.views)
    else:
        table(args.tuft, args.out)


if __name__ == "__main__":
    main()
