#!/usr/bin/env python3
"""Compares two frames `tuft render` wrote of one view, as BENCHMARKS.md's walker figures
at 960 × 540 and 640 × 360 are read: the ground (pixels that differ from the frame's top
row, the sky, in both) in bands of 20 rows, each band's plain mean sRGB colour in both
frames and the largest channel difference; then the 8 × 8 block luminance correlation
over the blocks that are ground in both. `tuft bench --eye-height` measures the same on
its own frames, coverage-weighted in linear light (`tuft_render::compare`); this reads
any two PNGs.

    python3 scripts/frame-bands.py A.png B.png

Needs numpy and Pillow.
"""

import sys

import numpy as np
from PIL import Image

BAND = 20
BLOCK = 8


def load(path):
    return np.asarray(Image.open(path).convert("RGB")).astype(float)


def ground(img):
    """Pixels more than 6 codes (summed) from the mean of the frame's top row."""
    sky = img[0:1].mean(axis=1, keepdims=True)
    return np.abs(img - sky).sum(axis=2) > 6


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = load(sys.argv[1]), load(sys.argv[2])
    if a.shape != b.shape:
        sys.exit(f"the frames differ in size: {a.shape[:2]} and {b.shape[:2]}")
    h, w, _ = a.shape
    mask = ground(a) & ground(b)
    worst = 0.0
    for top in range(0, h, BAND):
        m = mask[top : top + BAND]
        if m.sum() < 0.5 * m.size:
            continue
        ma = a[top : top + BAND][m].mean(axis=0)
        mb = b[top : top + BAND][m].mean(axis=0)
        d = np.abs(ma - mb).max()
        worst = max(worst, d)
        print(f"rows {top:3}-{top + BAND - 1:3}: {ma.round(1)} vs {mb.round(1)}  max diff {d:.2f}")
    luminance = np.array([0.2126, 0.7152, 0.0722])
    hh, ww = h // BLOCK * BLOCK, w // BLOCK * BLOCK

    def blocks(x):
        return x[:hh, :ww].reshape(hh // BLOCK, BLOCK, ww // BLOCK, BLOCK)

    la = blocks(a @ luminance).mean(axis=(1, 3))
    lb = blocks(b @ luminance).mean(axis=(1, 3))
    whole = blocks(mask).all(axis=(1, 3))
    pattern = np.corrcoef(la[whole], lb[whole])[0, 1]
    print(f"worst band {worst:.2f} codes; block luminance correlation {pattern:.3f} over {whole.sum()} blocks")


if __name__ == "__main__":
    main()
