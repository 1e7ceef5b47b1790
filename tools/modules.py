#!/usr/bin/env python3
"""The module graph of the workspace's crates, and the cycles in it.

A module depends on another when its code (comments and `#[cfg(test)]` items left out)
names a path into it: `crate::a::b`, `super::x`, `self::x`, in a `use` (groups
expanded) or inline. A name re-exported by a `pub use` counts as a path into the module
that defines it. Dependencies are compared between siblings: an edge from `a::b::c` to
`a::d` is an edge from `a::b` to `a::d` among the children of `a`, and an edge between a
module and one of its own descendants is not a layering question and is dropped. The
check fails when the children of any module depend on each other in a cycle.

Usage: tools/modules.py [--graph] [CRATE_SRC ...]   (default: every crate's src/)
Exit status 1 when there is a cycle, with each cycle printed.
"""

import os
import re
import sys

PATH = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
MOD_DECL = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([A-Za-z_][A-Za-z0-9_]*)\s*;", re.M)


def strip_comments(text):
    """The source without comments and string literals' contents (keeps line count)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif text[i] == '"' and not (i > 0 and text[i - 1] == "'"):
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""')
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def drop_test_items(text):
    """The source without the items under `#[cfg(test)]` (a block or a line)."""
    out, i = [], 0
    while True:
        at = text.find("#[cfg(test)]", i)
        if at < 0:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:at])
        j = at + len("#[cfg(test)]")
        brace, semi = text.find("{", j), text.find(";", j)
        if semi >= 0 and (brace < 0 or semi < brace):
            i = semi + 1
            continue
        depth, k = 0, brace
        while k < len(text):
            if text[k] == "{":
                depth += 1
            elif text[k] == "}":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        i = k + 1


def expand_use(tree):
    """The paths of a use tree: `a::{b, c::{d, e}}` gives a::b, a::c::d, a::c::e."""
    tree = re.sub(r"\s+", "", tree)
    if "{" not in tree:
        return [tree]
    head, rest = tree.split("{", 1)
    body = rest[: rest.rfind("}")]
    parts, depth, start = [], 0, 0
    for k, c in enumerate(body):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(body[start:k])
            start = k + 1
    parts.append(body[start:])
    return [p for part in parts if part for p in expand_use(head + part)]


class Crate:
    def __init__(self, src):
        self.src = src
        self.files = {}  # module path (tuple) -> source
        root = "lib.rs" if os.path.exists(os.path.join(src, "lib.rs")) else "main.rs"
        self.load((), os.path.join(src, root), src)
        self.reexports = {}  # (module..., name) -> module path it names
        for module, text in self.files.items():
            for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", text):
                for path in expand_use(m.group(1)):
                    name = path.split("::")[-1].split(" as ")[-1]
                    target = self.resolve(module, path.split(" as ")[0])
                    if target is not None:
                        self.reexports[module + (name,)] = target

    def load(self, module, file, folder):
        raw = open(file, encoding="utf-8").read()
        text = drop_test_items(strip_comments(raw))
        self.files[module] = text
        for name in MOD_DECL.findall(text):
            for candidate, sub in (
                (os.path.join(folder, name + ".rs"), os.path.join(folder, name)),
                (os.path.join(folder, name, "mod.rs"), os.path.join(folder, name)),
            ):
                if os.path.exists(candidate):
                    self.load(module + (name,), candidate, sub)
                    break

    def resolve(self, module, path):
        """The module a path written in `module` leads into, or None if outside."""
        parts = [p for p in path.split("::") if p]
        if not parts:
            return None
        if parts[0] == "crate":
            at, parts = (), parts[1:]
        elif parts[0] in ("super", "self"):
            at = module
            while parts and parts[0] in ("super", "self"):
                if parts[0] == "super":
                    at = at[:-1]
                parts = parts[1:]
        elif module + (parts[0],) in self.files:
            at = module
        else:
            return None
        full = at + tuple(parts)
        for k in range(len(full), -1, -1):
            prefix = full[:k]
            if prefix in self.files:
                if k < len(full) and prefix + (full[k],) in self.reexports:
                    return self.reexports[prefix + (full[k],)]
                return prefix
        return None

    def edges(self):
        found = set()
        for module, text in self.files.items():
            paths = []
            for m in re.finditer(r"\buse\s+([^;]+);", text):
                paths += [p.split(" as ")[0] for p in expand_use(m.group(1))]
            paths += [m.group(1) + m.group(2) for m in PATH.finditer(text)]
            for path in paths:
                target = self.resolve(module, path)
                if target is not None and target != module:
                    found.add((module, target))
        return found


def sibling_edges(edges):
    """Each edge lifted to the children of the two ends' nearest common ancestor."""
    lifted = set()
    for a, b in edges:
        k = 0
        while k < min(len(a), len(b)) and a[k] == b[k]:
            k += 1
        if k == len(a) or k == len(b):
            continue  # one is the other's ancestor
        lifted.add((a[: k + 1], b[: k + 1]))
    return lifted


def cycles(lifted):
    """The strongly connected groups of more than one module (Tarjan)."""
    graph = {}
    for a, b in lifted:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, stack, on, groups, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def name(module):
    return "::".join(module) or "crate"


def main(argv):
    show = "--graph" in argv
    roots = [a for a in argv if a != "--graph"]
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not roots:
        roots = [os.path.join(here, c, "src") for c in ("engine", "search", "cli", "python")]
    failed = False
    for src in roots:
        crate = Crate(src)
        lifted = sibling_edges(crate.edges())
        if show:
            for a, b in sorted(lifted):
                print(f"{src}: {name(a)} -> {name(b)}")
        for group in cycles(lifted):
            failed = True
            inside = {(a, b) for a, b in lifted if a in group and b in group}
            print(f"{src}: cycle of {len(group)} modules: " + ", ".join(map(name, group)))
            for a, b in sorted(inside):
                print(f"    {name(a)} -> {name(b)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
