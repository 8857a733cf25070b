#!/usr/bin/env python3
"""house.py SRCDIR: the rules of the house that a compiler does not check.

Prints TAP. Each rule finds its violations in src/ (every folder below it):
  size      a source file over 600 lines
  function  a function over 80 lines
  curses    a file outside the terminal layer that includes curses.h
  stderr    a file other than the sink that writes to stderr
  circle    files whose functions call each other in a circle
  layer     a file that calls up: into a folder of src/ later in LAYERS
  taxonomy  a C string literal outside src/taxonomy.[ch] naming a resource,
            a cause or a column (a name, head, sort word or legend entry of
            the table's rows), as the whole literal or, for the names that
            cannot be prose (async_copy, Strm), as a word in it
Each violation must be allowed, one per line, in tests/house-allow.txt
(with a comment saying why), and every allowance must still be needed:
an allowance nobody needs any more fails too, so the list only shrinks.
"""
import collections
import os
import re
import sys

TERMINAL = {"tui.c", "terminal.c"}          # the terminal layer: may include curses.h
SINK = {"msglog.c"}                     # the one sink: may write to stderr
FILE_MAX, FUNC_MAX = 600, 80
# The folders of src/, lowest first (doc/design.md): a file may call its
# own folder's files and those of folders before it, never after.
LAYERS = ["base", "net", "classify", "model", "read", "views", "fleet", "cluster",
          "tui", "app"]


def sources(top):
    out = {}
    for d, _, names in os.walk(os.path.join(top, "src")):
        for n in names:
            if n.endswith((".c", ".h")):
                p = os.path.join(d, n)
                out[os.path.relpath(p, top)] = open(p, encoding="utf-8").read()
    return out


def strip_comments_strings(t):
    t = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), t, flags=re.S)
    t = re.sub(r"//[^\n]*", "", t)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', t)


def check_size(src):
    return ["size: %s" % p for p, t in src.items() if t.count("\n") > FILE_MAX]


def functions(t):
    """(name, first line, lines) of each function defined at file scope."""
    lines, out, start, name = t.split("\n"), [], None, None
    for i, line in enumerate(lines):
        if line.startswith("{") and start is None:
            head = " ".join(lines[max(0, i - 3):i])
            m = re.findall(r"([A-Za-z_]\w*)\s*\(", head)
            start, name = i, (m[0] if m else "?")
            if re.search(r"=\s*$|\b(struct|enum|union)\s+\w+\s*$", lines[i - 1] if i else ""):
                start = None            # an initialiser or a type, not a function
        elif line.startswith("}") and start is not None:
            out.append((name, start, i - start))
            start = None
    return out


def check_functions(src):
    return ["function: %s %s" % (p, n) for p, t in src.items() if p.endswith(".c")
            for n, _, length in functions(t) if length > FUNC_MAX]


def check_curses(src):
    return ["curses: %s" % p for p, t in src.items()
            if os.path.basename(p) not in TERMINAL
            and re.search(r'#\s*include\s*[<"](n?curses|ncursesw/curses)\.h[>"]', t)]


def check_stderr(src):
    out = []
    for p, t in src.items():
        if os.path.basename(p) in SINK:
            continue
        if re.search(r"\b(stderr|perror\s*\(|STDERR_FILENO)", strip_comments_strings(t)):
            out.append("stderr: %s" % p)
    return out


def call_graph(src):
    """Which files each file calls a function of (by name, outside it)."""
    code = {p: strip_comments_strings(t) for p, t in src.items() if p.endswith(".c")}
    defs = {}
    for p, t in code.items():
        for m in re.finditer(r"^(?!static\b)[A-Za-z_][^\n;(=]*?\b([a-z_]\w*)\s*\([^;{]*\)\s*\{",
                             t, re.M):
            if m.group(1) != "main":
                defs.setdefault(m.group(1), p)
    edges = collections.defaultdict(set)
    for p, t in code.items():
        called = set(re.findall(r"\b([a-z_]\w*)\s*\(", t))
        edges[p] = {defs[n] for n in called if n in defs and defs[n] != p}
    return code, edges


def check_layers(src):
    _, edges = call_graph(src)

    def layer(p):
        parts = p.split(os.sep)
        return LAYERS.index(parts[1]) if len(parts) > 2 and parts[1] in LAYERS else None
    out = []
    for p, callees in edges.items():
        for w in sorted(callees):
            a, b = layer(p), layer(w)
            if a is not None and b is not None and b > a:
                out.append("layer: %s -> %s" % (p, w))
    return out


def check_circles(src):
    code, edges = call_graph(src)
    index, low, stack, on, comps = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
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
                comps.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(code):
        if v not in index:
            visit(v)
    return ["circle: %s" % " ".join(sorted(c)) for c in comps]


def literals(t):
    t = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), t, flags=re.S)
    t = re.sub(r"//[^\n]*", "", t)
    t = re.sub(r'"\s*\n\s*"', "", t)          # "a" "b" is one literal
    return [m.group(1) for m in re.finditer(r'"((?:\\.|[^"\\\n])*)"', t)]


def check_taxonomy(src):
    table = [p for p in src if os.path.basename(p) == "taxonomy.h"]
    if not table:
        return ["taxonomy: no src/classify/taxonomy.h"]
    tab = src[table[0]].replace("\\\n", " ")
    words = set()
    for m in re.finditer(r"#define TAXONOMY_(COLUMNS|RESOURCES|CAUSES)\(X\)([^\n]*)", tab):
        words.update(re.findall(r'"([^"]*)"', m.group(2)))
    words.discard("unknown")        # also a plain word of many messages
    odd = sorted((w for w in words if "_" in w or re.fullmatch(r"[A-Z][a-z]{2,3}", w)),
                 key=len, reverse=True)
    word = re.compile(r"(?<![\w-])(%s)(?![\w-])" % "|".join(map(re.escape, odd)))
    out = set()
    for p, t in src.items():
        if os.path.basename(p) in ("taxonomy.h", "taxonomy.c"):
            continue
        for lit in literals(t):
            m = word.search(lit)
            if lit in words or m:
                out.add("taxonomy: %s %s" % (p, lit if lit in words else m.group(1)))
    return sorted(out)


def allowed(top):
    path = os.path.join(top, "tests", "house-allow.txt")
    out = set()
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line:
            out.add(line)
    return out


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else "."
    src = sources(top)
    allow = allowed(top)
    rules = [("no source file over %d lines" % FILE_MAX, check_size),
             ("no function over %d lines" % FUNC_MAX, check_functions),
             ("only the terminal layer includes curses.h", check_curses),
             ("only the sink writes to stderr", check_stderr),
             ("no circle of calls between files", check_circles),
             ("resources, causes and columns are named only in the taxonomy",
              check_taxonomy),
             ("folders call downward only (%s)" % " < ".join(LAYERS), check_layers)]
    print("1..%d" % (len(rules) + 1))
    seen, n, bad = set(), 0, 0
    for title, fn in rules:
        n += 1
        found = fn(src)
        seen.update(found)
        new = sorted(v for v in found if v not in allow)
        for v in new:
            print("# not allowed: %s" % v)
        print("%s %d - %s" % ("not ok" if new else "ok", n, title))
        bad += bool(new)
    stale = sorted(a for a in allow if a not in seen
                   and a.split(":", 1)[0] in {"size", "function", "curses", "stderr", "circle",
                                              "taxonomy", "layer"})
    for a in stale:
        print("# no longer needed, remove it from tests/house-allow.txt: %s" % a)
    n += 1
    print("%s %d - every allowance is still needed" % ("not ok" if stale else "ok", n))
    return 1 if bad or stale else 0


if __name__ == "__main__":
    sys.exit(main())
