#!/usr/bin/env python3
"""Compares two frames `tuft render` wrote of one view, as BENCHMARKS.md's walker figures
at 960 × 540 and 640 × 360 are read: the ground (pixels that differ from the frame's top
row, the sky, in both) in bands of 20 rows, each band's plain mean sRGB colour in both
frames and the largest channel difference; then the 8 × 8 block luminance correlation
over the blocks that are ground in both. `tuft bench --eye-height` measures the same on
its own frames, coverage-weighted in linear light (`tuft_render::compare`); this reads
any two PNGs.

    python3 scripts/frame-bands.py A.png B.png
    python3 scripts/frame-bands.py --linear A.png B.png

With --linear (BENCHMARKS.md's canopy figures on the plane, whose frames may have no
sky row): the sky is the pixels bluer than green and green than red by 5 codes each
and bluer than 190, the ground the rows under 5% sky in both frames; the means are
taken in linear light and written as sRGB codes, and the last line gives B's green
minus A's over the whole ground.

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


def linear(codes):
    c = codes / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def codes(light):
    return 255.0 * np.where(light <= 0.0031308, light * 12.92, 1.055 * light ** (1 / 2.4) - 0.055)


def ground_rows(img):
    """Rows under 5% sky, the sky told by its colour."""
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    sky = (b > g + 5) & (g > r + 5) & (b > 190)
    rows = sky.mean(axis=1) < 0.05
    return np.repeat(rows[:, None], img.shape[1], axis=1)


def main():
    args = sys.argv[1:]
    in_light = args[:1] == ["--linear"]
    if in_light:
        args = args[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    a, b = load(args[0]), load(args[1])
    if a.shape != b.shape:
        sys.exit(f"the frames differ in size: {a.shape[:2]} and {b.shape[:2]}")
    h, w, _ = a.shape
    if in_light:
        mask = ground_rows(a) & ground_rows(b)
        mean = lambda x: codes(linear(x).mean(axis=0))
    else:
        mask = ground(a) & ground(b)
        mean = lambda x: x.mean(axis=0)
    worst = 0.0
    for top in range(0, h, BAND):
        m = mask[top : top + BAND]
        if m.sum() < 0.5 * m.size:
            continue
        ma = mean(a[top : top + BAND][m])
        mb = mean(b[top : top + BAND][m])
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
    if in_light:
        print(f"green over the ground, B minus A: {mean(b[mask])[1] - mean(a[mask])[1]:+.1f} codes")


if __name__ == "__main__":
    main()
