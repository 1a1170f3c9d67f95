#!/usr/bin/env python3
"""For each card layer of a baked set, the texels passing the alpha cutoff at each level
of the chain an engine builds by a 2x2 box filter (each level from the one before,
rounded to 8 bits), down to 4x4 texels a cell: the count mip 0's share asks for, the
plain atlas's chain (`..._atlas_color_mip0.png`) and the proofed one the glTF wears
(`..._atlas_color.png`); then each one's coverage magnified four times bilinearly. The
figures of "What an engine does to the cards' atlas" in the README.

    python3 scripts/atlas-chains.py DIR [DIR ...]

Needs numpy and Pillow.
"""

import json
import os
import sys

import numpy as np
from PIL import Image


def chain(alpha, levels, passing):
    out = []
    a = alpha.astype(np.uint32)
    for k in range(levels + 1):
        out.append(int((a >= passing).sum()))
        if k < levels:
            a = (a[0::2, 0::2] + a[1::2, 0::2] + a[0::2, 1::2] + a[1::2, 1::2] + 2) // 4
    return out


def magnified(path, cutoff):
    alpha = Image.open(path).getchannel("A")
    up = alpha.resize((alpha.width * 4, alpha.height * 4), Image.BILINEAR)
    return float((np.asarray(up).astype(float) / 255 >= cutoff).mean())


def main():
    for folder in sys.argv[1:]:
        manifest = json.load(open(os.path.join(folder, "manifest.json")))
        for layer in manifest["layers"]:
            cards = layer["cards"]
            cutoff = cards["settings"]["alpha_cutoff"]
            passing = next(c for c in range(256) if c / 255 >= cutoff)
            size, cells = cards["settings"]["atlas_size"], cards["settings"]["atlas_cells"]
            levels = max((size // cells // 4).bit_length() - 1, 0)
            plain_path = os.path.join(folder, cards["atlas_color"][0])
            proofed_path = os.path.join(folder, cards["atlas_color_gltf"])
            plain = chain(np.asarray(Image.open(plain_path))[:, :, 3], levels, passing)
            proofed = chain(np.asarray(Image.open(proofed_path))[:, :, 3], levels, passing)
            want = [round(plain[0] / 4 ** k) for k in range(levels + 1)]
            shares = [round(c / (size >> k) ** 2, 4) for k, c in enumerate(plain)]
            print(f'{manifest["name"]}/{layer["name"]}: want {want}; plain {plain} '
                  f'(shares {shares}); proofed {proofed}; magnified x4 '
                  f'{magnified(plain_path, cutoff):.4f} plain, {magnified(proofed_path, cutoff):.4f} proofed')


if __name__ == "__main__":
    main()
