#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check that gaudi.ko's data plane calls one way.

Documentation/architecture.rst ("Inside gaudi.ko") lists the data-plane
files in layers, top to bottom, in the literal block that follows the line
"Calls go one way".  A file may call, or name, the functions of the files
in the layers below its own; a use of a function of a file in its own
layer or above is a failure.  Uses are counted from the text: a non-static
function defined in one listed file (column 0, its body's brace after the
parameter list) and named in another (a call, or its address taken),
comments and strings left out.

  tests/docs/check-calls.py            the check: TAP, "N passed, N failed"
  tests/docs/check-calls.py --counts   the matrix of uses between the
                                       listed files, and the line counts
  --tree DIR                           another checkout (default: this one)
  --order 'a.c b.c / c.c'              layers to use instead of the page's
"""
import pathlib
import re
import sys

MARK = "Calls go one way"


def layers_from_doc(top):
    """The layers of architecture.rst: one line each, file names apart."""
    text = (top / "Documentation" / "architecture.rst").read_text()
    at = text.find(MARK)
    if at < 0:
        sys.exit("architecture.rst has no \"%s\" block" % MARK)
    block = text[at:].split("::\n", 1)[1]
    layers = []
    for line in block.split("\n")[1:]:
        if line.strip() == "":
            if layers:
                break
            continue
        if not line.startswith(" "):
            break
        layers.append(re.findall(r"gaudi_\w+\.c", line))
    return [l for l in layers if l]


def strip(src):
    """The C source without comments, strings and character constants."""
    src = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"),
                 src, flags=re.S)
    src = re.sub(r"//[^\n]*", "", src)
    src = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', src)
    return re.sub(r"'(?:\\.|[^'\\\n])*'", "''", src)


DEF = re.compile(r"^(?!typedef\b|#)([A-Za-z_][^;{}()=#]*?)\b(\w+)\("
                 r"[^;{}]*?\)\s*\{", re.M)
NAME = re.compile(r"\b([a-z_]\w*)\b(\s*\()?")


def definitions(src):
    """Names of the non-static functions @src defines."""
    return {m.group(2) for m in DEF.finditer(src)
            if not re.search(r"\bstatic\b", m.group(1))}


def uses(files, kdir):
    """{(from, to): {name: count}} over the listed files."""
    text = {f: strip((kdir / f).read_text()) for f in files
            if (kdir / f).exists()}
    owner = {}
    for f, src in text.items():
        for name in definitions(src):
            owner[name] = f
    out = {}
    for f, src in text.items():
        for m in NAME.finditer(src):
            to = owner.get(m.group(1))
            if to and to != f:
                d = out.setdefault((f, to), {})
                d[m.group(1)] = d.get(m.group(1), 0) + 1
    return out


def main(argv):
    top = pathlib.Path(__file__).resolve().parents[2]
    order = None
    counts = "--counts" in argv
    if "--tree" in argv:
        top = pathlib.Path(argv[argv.index("--tree") + 1]).resolve()
    if "--order" in argv:
        order = [l.split() for l in
                 argv[argv.index("--order") + 1].split("/")]
    layers = order or layers_from_doc(top)
    rank = {f: i for i, layer in enumerate(layers) for f in layer}
    kdir = top / "kernel"
    u = uses(list(rank), kdir)

    if counts:
        print("layers, top to bottom: " +
              " / ".join(" ".join(l) for l in layers))
        for (a, b), names in sorted(u.items()):
            way = "down" if rank[a] < rank[b] else "AGAINST"
            print("%-16s -> %-16s %3d  %-7s %s" % (
                a, b, sum(names.values()), way,
                " ".join("%s%s" % (n, "" if c == 1 else "x%d" % c)
                         for n, c in sorted(names.items()))))
        for f in sorted(rank):
            p = kdir / f
            if p.exists():
                print("%6d %s" % (len(p.read_text().splitlines()), f))
        return 0

    n = failed = 0
    for f in sorted(rank, key=lambda f: (rank[f], f)):
        n += 1
        if not (kdir / f).exists():
            failed += 1
            print("not ok %d - %s: listed in architecture.rst, not in kernel/"
                  % (n, f))
            continue
        bad = {(b, name): c for (a, b), names in u.items() if a == f
               and rank[b] <= rank[a] for name, c in names.items()}
        if bad:
            failed += 1
            print("not ok %d - %s uses its own layer or above" % (n, f))
            for (b, name), c in sorted(bad.items()):
                print("# %s (%s) %d time%s" % (name, b, c,
                                               "" if c == 1 else "s"))
        else:
            print("ok %d - %s calls only down" % (n, f))
    print("1..%d" % n)
    print("%d passed, %d failed" % (n - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
