#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check gaudi.ko's include graph against Documentation/architecture.rst
("Inside gaudi.ko", its paragraph on headers).

The headers of kernel/ are of two kinds: a file's own header (gaudi_X.h
next to gaudi_X.c: the prototypes of its functions, its constants, inline
helpers) and the shared ones (the *_types.h of the structs several files
use, gaudi_layout.h, gaudi_cn.h the network drivers' interface,
gaudi_trace.h).  Checked, from the text:

  * a *_types.h includes no file's own header; a file's own header includes
    no other file's own header (only *_types.h, gaudi_layout.h, hw/, uapi/);
  * the include graph of kernel/*.h has no circle;
  * a .c file includes no header of kernel/ whose names it does not use
    (gaudi_trace.h, whose use is the tracepoints, aside), and includes its
    own header;
  * a data-plane file (the layers of "Calls go one way", read as
    tests/docs/check-calls.py reads them) includes the own headers of its
    own layer's files and of the layers above it never (its own aside);
  * kernel/en/ and kernel/ib/ include of kernel/ only gaudi_cn.h.

  tests/docs/check-includes.py          the check: TAP, "N passed, N failed"
  tests/docs/check-includes.py --graph  the include graph in a few lines
  --tree DIR                            another checkout (default: this one)
"""
import importlib.util
import pathlib
import re
import sys

INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)", re.M)
TAG = re.compile(r"\b(?:struct|union|enum)\s+(\w+)\s*\{")
ENUM = re.compile(r"\benum\s+\w*\s*\{([^}]*)\}")
CLASS = re.compile(r"\bDEFINE_(?:CLASS|GUARD)\(\s*(\w+)")
WORD = re.compile(r"\b[A-Za-z_]\w*\b")
SPECIAL = {"gaudi_trace.h"}	# used by its tracepoints (trace_gaudi_*)


def calls_module():
    """tests/docs/check-calls.py, for its comment stripper and layers."""
    path = pathlib.Path(__file__).resolve().parent / "check-calls.py"
    spec = importlib.util.spec_from_file_location("check_calls", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


CALLS = calls_module()


def includes(path):
    """The quoted includes of @path, as written."""
    return INC.findall(path.read_text())


def top_level(src):
    """@src with the bodies of braces emptied (depth > 0 left out)."""
    out, depth = [], 0
    for ch in src:
        if ch == "{":
            depth += 1
            out.append(ch if depth == 1 else "")
        elif ch == "}":
            depth -= 1
            out.append(ch if depth == 0 else "")
        elif depth == 0 or ch == "\n":
            out.append(ch)
    return "".join(out)


def drop_calls(src, prefix):
    """@src without the top-level macro calls whose name starts with
    @prefix (DEFINE_CLASS(...) ends no statement with a semicolon)."""
    out, at = [], 0
    for m in re.finditer(r"^%s\w*\(" % prefix, src, re.M):
        if m.start() < at:
            continue
        depth, i = 0, m.end() - 1
        while i < len(src):
            depth += {"(": 1, ")": -1}.get(src[i], 0)
            i += 1
            if depth == 0:
                break
        out.append(src[at:m.start()])
        at = i
    return "".join(out) + src[at:]


def names(path):
    """The names a header defines: macros, tags, enumerators, functions,
    variables and DEFINE_CLASS/GUARD classes (not forward declarations)."""
    src = re.sub(r"\\\n", " ", CALLS.strip(path.read_text()))
    found = set(DEFINE.findall(src)) | set(TAG.findall(src))
    found |= set(CLASS.findall(src))
    found -= set(re.findall(r"^\s*#\s*ifndef\s+(\w+)", src, re.M))
    for body in ENUM.findall(src):
        found |= set(re.findall(r"^\s*(\w+)", body, re.M))
    flat = re.sub(r"^\s*#.*$", "", top_level(src), flags=re.M)
    flat = drop_calls(flat, "DEFINE_")
    for stmt in re.split(r"[;}]", flat):
        stmt = stmt.strip()
        if not stmt or re.match(r"(struct|union|enum)\s+\w+$", stmt):
            continue
        fn = re.search(r"(\w+)\s*\(", stmt)
        if fn and not re.match(r"DEFINE_|DECLARE_", fn.group(1)):
            found.add(fn.group(1))
        elif not fn and stmt.startswith("extern"):
            found.add(re.findall(r"(\w+)\s*(?:\[[^]]*\]\s*)*$", stmt)[0])
    return found


def own_headers(kdir):
    """The headers of kernel/ named like a .c file there (its own)."""
    return {h.name for h in kdir.glob("*.h")
            if (kdir / (h.stem + ".c")).exists()}


def cycles(graph):
    """The circles of @graph ({node: [nodes]}), each once."""
    found, state = [], {}

    def visit(n, stack):
        state[n] = 1
        stack.append(n)
        for m in graph.get(n, ()):
            if state.get(m) == 1:
                found.append(stack[stack.index(m):] + [m])
            elif m not in state:
                visit(m, stack)
        stack.pop()
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n, [])
    return found


def local(kdir, inc):
    """The header of kernel/ an include names, or None."""
    return inc if "/" not in inc and (kdir / inc).exists() else None


def print_graph(kdir, graph):
    own = own_headers(kdir)
    groups = {}
    for h in sorted(graph):
        groups.setdefault(tuple(graph[h]), []).append(h)
    alone = []
    for incs, hs in sorted(groups.items(), key=lambda g: (len(g[0]), g[0])):
        if not incs:
            alone = hs
            continue
        print("%s -> %s" % (" ".join(hs), " ".join(incs)))
    print("including no header of kernel/: %d own headers, %s" % (
        len([h for h in alone if h in own]),
        " ".join(h for h in alone if h not in own)))

    def depth(h):
        return 1 + max((depth(m) for m in graph[h] if m in graph), default=0)

    print("%d headers, longest include chain %d, %d circles" % (
        len(graph), max(depth(h) for h in graph), len(cycles(graph))))


def main(argv):
    top = pathlib.Path(__file__).resolve().parents[2]
    if "--tree" in argv:
        top = pathlib.Path(argv[argv.index("--tree") + 1]).resolve()
    kdir = top / "kernel"
    own = own_headers(kdir)
    graph = {h.name: [i for i in includes(h) if local(kdir, i)]
             for h in sorted(kdir.glob("*.h"))}
    if "--graph" in argv:
        print_graph(kdir, graph)
        return 0

    layers = CALLS.layers_from_doc(top)
    rank = {f[:-2] + ".h": i for i, layer in enumerate(layers) for f in layer}
    hnames = {h: names(kdir / h) for h in graph}
    n = failed = 0

    def result(ok, what, notes=()):
        nonlocal n, failed
        n += 1
        failed += not ok
        print("%s %d - %s" % ("ok" if ok else "not ok", n, what))
        for note in notes:
            print("# " + note)

    for h in sorted(graph):
        bad = [i for i in graph[h] if i in own and i != h]
        kind = "own header" if h in own else "shared header"
        result(not bad, "%s (%s) includes no file's own header" % (h, kind),
               ["includes %s" % i for i in bad])
    circ = cycles(graph)
    result(not circ, "no circle in the include graph of kernel/*.h",
           [" -> ".join(c) for c in circ])

    for c in sorted(kdir.glob("*.c")):
        if c.name.endswith(".mod.c"):
            continue
        words = set(WORD.findall(CALLS.strip(c.read_text())))
        incs = [i for i in includes(c) if local(kdir, i)]
        notes = ["%s: none of its names used" % i for i in incs
                 if i not in SPECIAL and not hnames[i] & words]
        mine = c.stem + ".h"
        if mine in graph and mine not in incs:
            notes.append("does not include its own header %s" % mine)
        if c.stem + ".c" in {f for l in layers for f in l}:
            me = rank[mine]
            notes += ["includes %s, a file's of its own layer or above" % i
                      for i in incs if i in rank and i != mine
                      and rank[i] <= me]
        result(not notes, "%s includes what it uses" % c.name, notes)

    for sub in ("en", "ib"):
        for c in sorted((kdir / sub).glob("*.c")):
            if c.name.endswith(".mod.c"):
                continue
            bad = [i for i in includes(c)
                   if (c.parent / i).resolve().parent == kdir.resolve()
                   and pathlib.Path(i).name != "gaudi_cn.h"
                   or i.startswith("gaudi_") and i != "gaudi_cn.h"]
            result(not bad, "%s/%s includes of kernel/ only gaudi_cn.h"
                   % (sub, c.name), ["includes %s" % i for i in bad])
    print("1..%d" % n)
    print("%d passed, %d failed" % (n - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
