#!/usr/bin/env python3
"""Reads frames `tuft render` wrote of one view of the sphere, as BENCHMARKS.md's
"The canopy over curved ground" figures are read: the first frame's pixels that differ
from its top-left pixel (the sky) by more than 6 codes give the sphere's outline, its
centre and its radius (that of a disc of the same area); each frame's green channel is
then averaged in linear light, written as sRGB codes, over rings a tenth of the radius
wide, and the last column is the last frame minus the first.

    python3 scripts/sphere-rings.py STRANDS.png CANOPY.png [MORE.png ...]
    python3 scripts/sphere-rings.py --mean A.png [B.png ...]

With --mean: each frame's green mean in linear light over the whole frame (the share of
soil a frame of black strands over grey soil shows is its mean over the bare maps').

Needs numpy and Pillow; shares frame-bands.py's sRGB curves.
"""

import importlib.util
import pathlib
import sys

import numpy as np

_spec = importlib.util.spec_from_file_location(
    "frame_bands", pathlib.Path(__file__).with_name("frame-bands.py")
)
bands = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bands)


def main():
    args = sys.argv[1:]
    if args[:1] == ["--mean"]:
        for path in args[1:]:
            print(f"{path}: {bands.linear(bands.load(path)[..., 1]).mean():.4f}")
        return
    frames = [bands.load(path) for path in args]
    first = frames[0]
    outline = np.any(np.abs(first - first[0, 0]) > 6, axis=2)
    ys, xs = np.nonzero(outline)
    cy, cx = ys.mean(), xs.mean()
    radius = np.sqrt(outline.sum() / np.pi)
    yy, xx = np.mgrid[: outline.shape[0], : outline.shape[1]]
    r = np.hypot(yy - cy, xx - cx) / radius
    print(f"centre {cx:.1f}, {cy:.1f}; radius {radius:.1f} px")
    for lo in np.arange(0.0, 1.0, 0.1):
        ring = (r >= lo) & (r < lo + 0.1)
        means = [float(bands.codes(bands.linear(f[ring][:, 1]).mean())) for f in frames]
        row = " ".join(f"{m:6.1f}" for m in means)
        print(f"{lo:.1f}-{lo + 0.1:.1f}  {row}  {means[-1] - means[0]:+5.1f}")


if __name__ == "__main__":
    main()
