#!/usr/bin/env python3
"""Lists the import circles among the files of each crate: a file uses another when its
code (tests left out) says `crate::a::b`, `super::x` or `self::x`; a name the crate root
re-exports (`crate::MaterialGraph`) counts as its own module's. A module naming its own
children (declaring, re-exporting or calling them) is not counted: it owns them; a child
using its parent is.

A circle inside one listed in `scripts/import-circles.known` (a crate and its files per
line) is reported as known; any other fails the run (exit status 1), so a circle can
shrink or go but no new one can come.

Usage: scripts/import-circles.py [--quiet]   (run from anywhere in the repository)
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CRATES = ["engine/strands", "engine/graph", "engine/bake", "engine/render", "editor"]


def module_of(src: Path, path: Path) -> tuple:
    """The module path of a source file: `src/a/b.rs` and `src/a/b/mod.rs` are `(a, b)`."""
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


def code_of(text: str) -> str:
    """The text without comments and without the test module at its end."""
    text = re.sub(r"//[^\n]*", "", text)
    cut = re.search(r"#\[cfg\(test\)\]\s*(pub(\([a-z]+\))?\s+)?mod\s+\w+\s*\{", text)
    if cut:
        text = text[: cut.start()]
    return text


def reexports(root_code: str, modules: set) -> dict:
    """The names the crate root re-exports, each with the module it comes from."""
    names = {}
    for m in re.finditer(r"pub use ([\w:]+?)(?:::\{([^}]*)\}|::(\w+))\s*;", root_code):
        path = tuple(p for p in m.group(1).split("::") if p and p not in ("crate", "self"))
        items = m.group(2).split(",") if m.group(2) else [m.group(3)]
        for item in items:
            item = item.strip().split(" as ")[-1].strip()
            if not item:
                continue
            for n in range(len(path), 0, -1):
                if path[:n] in modules:
                    names[item] = path[:n]
                    break
    return names


def split_top(text: str) -> list:
    """`text` split at the commas outside braces."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def expand(prefix: str, rest: str) -> list:
    """The paths a `use` tree names: `a::{b, c::{d, e}}` is `a::b`, `a::c::d`, `a::c::e`."""
    if rest.startswith("{") and rest.endswith("}"):
        out = []
        for item in split_top(rest[1:-1]):
            out.extend(expand(prefix, item))
        return out
    if "::{" in rest:
        head, tail = rest.split("::{", 1)
        return expand(prefix + "::" + head, "{" + tail)
    rest = rest.split(" as ")[0].strip()
    return [prefix + ("::" + rest if rest and rest != "self" else "")]


def paths_in(code: str) -> list:
    """Every `crate::`, `super::` or `self::` path in `code`, use trees expanded."""
    paths = []
    for m in re.finditer(r"\b(crate|super|self)((?:::\w+)*)::\{", code):
        depth, i = 0, m.end() - 1
        for j in range(i, len(code)):
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            if depth == 0:
                break
        paths.extend(expand(m.group(1) + m.group(2), code[i : j + 1]))
    for m in re.finditer(r"\b(crate|super|self)((?:::(?:\w+|\*))+)", code):
        paths.append(m.group(0).replace("::*", ""))
    return paths


def targets(module: tuple, code: str, modules: set, names: dict) -> set:
    """The modules (files) this file's code reaches into."""
    found = set()
    for path_text in paths_in(code):
        segments = [p for p in path_text.split("::") if p]
        head, rest = segments[0], segments[1:]
        if head == "crate":
            base = []
        elif head == "super":
            base = list(module[:-1])
            while rest and rest[0] == "super":
                base, rest = base[:-1], rest[1:]
        else:
            base = list(module)
        path = base + rest
        if len(path) >= 1 and tuple(path[:1]) not in modules and path[0] in names:
            path = list(names[path[0]]) + path[1:]
        # The longest prefix that is a file's module.
        for n in range(len(path), -1, -1):
            candidate = tuple(path[:n])
            if candidate in modules:
                if candidate != module and not is_ancestor(module, candidate):
                    found.add(candidate)
                break
    return found


def is_ancestor(a: tuple, b: tuple) -> bool:
    """Whether `a` is a parent module of `b` (its file declares `b`)."""
    return len(a) < len(b) and b[: len(a)] == a


def circles(graph: dict) -> list:
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return out


def known_circles() -> list:
    """The circles left to break, as (crate, set of module names)."""
    path = ROOT / "scripts" / "import-circles.known"
    out = []
    for line in path.read_text().splitlines() if path.exists() else []:
        line = line.split("#")[0].strip()
        if line:
            crate, names = line.split(":", 1)
            out.append((crate.strip(), {n.strip() for n in names.split(",") if n.strip()}))
    return out


def main() -> int:
    quiet = "--quiet" in sys.argv
    known = known_circles()
    bad = 0
    any_found = False
    for crate in CRATES:
        src = ROOT / crate / "src"
        if not src.is_dir():
            continue
        files = {module_of(src, p): p for p in src.rglob("*.rs")}
        modules = set(files)
        root = next(p for m, p in files.items() if m == ())
        names = reexports(code_of(root.read_text()), modules)
        graph = {
            m: targets(m, code_of(p.read_text()), modules, names) for m, p in files.items()
        }
        found = circles(graph)
        for comp in found:
            any_found = True
            names = ["::".join(m) or "(root)" for m in comp]
            old = any(c == crate and set(names) <= files_of for c, files_of in known)
            bad += 0 if old else 1
            said = "known" if old else "NEW"
            print(f"{crate}: {said}: {len(comp)} files in a circle: {', '.join(names)}")
            if not quiet:
                for m in comp:
                    inside = sorted("::".join(t) or "(root)" for t in graph[m] if t in comp)
                    print(f"    {'::'.join(m) or '(root)'} -> {', '.join(inside)}")
    if bad:
        print(f"{bad} import circle(s) not in scripts/import-circles.known: break them")
    elif not any_found:
        print("no import circle in", ", ".join(CRATES))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
