#!/usr/bin/env python3
"""Writes assets/creature.obj: a four-legged, furry-animal-like shape to show fur on.

Made from scratch here (no third-party model): a body, a neck, a head with a muzzle,
two ears, four legs and a tail, each a tapered tube or an ellipsoid with its own UV
island. UVs are in metres of surface (u around, v along), so the material keeps one
density everywhere but at the poles; every island has a seam where its u wraps, and
the islands are packed side by side. Y is up, the creature faces +z, about 1.5 m from muzzle to tail.

    python3 scripts/make-creature.py [OUT.obj] [DETAIL]

DETAIL (default 1) multiplies the segments around and along every part: 4 gives about
100k triangles, the size `tuft bench --mesh` is measured at.
"""

import math
import sys

parts = []  # (name, vertices [(x, y, z, u, v)], triangles [(a, b, c)])


DETAIL = int(sys.argv[2]) if len(sys.argv) > 2 else 1


def tube(name, path, radius, around=24, along=None):
    """A closed tube along `path` (list of points), radius(t) a function of 0..1.

    The ends are closed by the radius going to zero where the caller's radius does;
    otherwise the tube stays open (hidden inside the body)."""
    along = (along or 4 * len(path)) * DETAIL
    around *= DETAIL
    # Resample the path by arc length.
    lengths = [0.0]
    for a, b in zip(path, path[1:]):
        lengths.append(lengths[-1] + math.dist(a, b))
    total = lengths[-1]

    def at(s):
        for k in range(len(path) - 1):
            if lengths[k + 1] >= s or k == len(path) - 2:
                seg = max(lengths[k + 1] - lengths[k], 1e-9)
                f = min(max((s - lengths[k]) / seg, 0.0), 1.0)
                return [path[k][i] + (path[k + 1][i] - path[k][i]) * f for i in range(3)], k
        return list(path[-1]), len(path) - 2

    verts, tris = [], []
    mean_r = sum(radius(j / along) for j in range(along + 1)) / (along + 1)
    circumference = 2 * math.pi * mean_r
    prev_n = None
    for j in range(along + 1):
        t = j / along
        p, k = at(t * total)
        d = [path[k + 1][i] - path[k][i] for i in range(3)]
        dl = math.sqrt(sum(x * x for x in d)) or 1.0
        d = [x / dl for x in d]
        # A frame around the direction, carried along (no flips).
        ref = prev_n or ([0.0, 1.0, 0.0] if abs(d[1]) < 0.9 else [1.0, 0.0, 0.0])
        dot = sum(a * b for a, b in zip(ref, d))
        n1 = [ref[i] - dot * d[i] for i in range(3)]
        nl = math.sqrt(sum(x * x for x in n1)) or 1.0
        n1 = [x / nl for x in n1]
        prev_n = n1
        n2 = [d[1] * n1[2] - d[2] * n1[1], d[2] * n1[0] - d[0] * n1[2], d[0] * n1[1] - d[1] * n1[0]]
        r = radius(t)
        for i in range(around + 1):
            phi = 2 * math.pi * i / around
            c, s = math.cos(phi), math.sin(phi)
            q = [p[m] + r * (c * n1[m] + s * n2[m]) for m in range(3)]
            verts.append((q[0], q[1], q[2], circumference * i / around, total * t))
    row = around + 1
    for j in range(along):
        for i in range(around):
            a = j * row + i
            tris.append((a, a + 1, a + row))
            tris.append((a + 1, a + row + 1, a + row))
    parts.append((name, verts, tris))


def ellipsoid(name, centre, radii, around=32, rings=16):
    around, rings = around * DETAIL, rings * DETAIL
    cx, cy, cz = centre
    rx, ry, rz = radii
    verts, tris = [], []
    mean = (rx + ry + rz) / 3
    for j in range(rings + 1):
        th = math.pi * j / rings
        for i in range(around + 1):
            ph = 2 * math.pi * i / around
            x = math.sin(th) * math.cos(ph)
            y = math.cos(th)
            z = -math.sin(th) * math.sin(ph)
            verts.append((cx + rx * x, cy + ry * y, cz + rz * z,
                          2 * math.pi * mean * i / around, math.pi * mean * j / rings))
    row = around + 1
    for j in range(rings):
        for i in range(around):
            a = j * row + i
            tris.append((a, a + row, a + 1))
            tris.append((a + 1, a + row, a + row + 1))
    parts.append((name, verts, tris))


def taper(r0, r1, rounded_end=True):
    def r(t):
        base = r0 + (r1 - r0) * t
        if rounded_end and t > 0.85:
            base *= math.sqrt(max(0.0, 1 - ((t - 0.85) / 0.15) ** 2))
        return max(base, 0.0)
    return r


ellipsoid("body", (0.0, 0.55, 0.0), (0.22, 0.2, 0.42))
tube("neck", [(0, 0.6, 0.3), (0, 0.75, 0.45), (0, 0.82, 0.52)], taper(0.12, 0.1, False))
ellipsoid("head", (0.0, 0.86, 0.58), (0.12, 0.11, 0.14))
tube("muzzle", [(0, 0.83, 0.62), (0, 0.81, 0.74)], taper(0.065, 0.05))
for side in (-1, 1):
    tube(f"ear_{'left' if side < 0 else 'right'}",
         [(0.07 * side, 0.93, 0.56), (0.11 * side, 1.05, 0.54)], taper(0.035, 0.01), around=12)
for x, z, name in ((-0.12, 0.28, "front_left"), (0.12, 0.28, "front_right"),
                   (-0.12, -0.28, "back_left"), (0.12, -0.28, "back_right")):
    tube(f"leg_{name}", [(x, 0.5, z), (x * 1.05, 0.25, z), (x * 1.05, 0.02, z + 0.02)],
         taper(0.075, 0.05))
tube("tail", [(0, 0.62, -0.38), (0, 0.68, -0.55), (0, 0.6, -0.72), (0, 0.5, -0.8)],
     taper(0.06, 0.03))

out = sys.argv[1] if len(sys.argv) > 1 else "assets/creature.obj"
lines = ["# A four-legged creature for previewing fur: made by scripts/make-creature.py.",
         "# Y up, facing +z, metres; UVs in metres of surface, one island a part."]
base = 0
u_offset = 0.0
for name, verts, tris in parts:
    lines.append(f"o {name}")
    width = max(v[3] for v in verts)
    for x, y, z, u, v in verts:
        lines.append(f"v {x:.5f} {y:.5f} {z:.5f}")
    for x, y, z, u, v in verts:
        lines.append(f"vt {u + u_offset:.5f} {v:.5f}")
    for a, b, c in tris:
        a, b, c = a + base + 1, b + base + 1, c + base + 1
        lines.append(f"f {a}/{a} {b}/{b} {c}/{c}")
    base += len(verts)
    u_offset += width + 0.05
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
print(f"{out}: {len(parts)} parts, {base} vertices, "
      f"{sum(len(t) for _, _, t in parts)} triangles")
