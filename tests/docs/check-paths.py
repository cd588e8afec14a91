#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check that every repository path the tree cites exists, and that nothing
cites a file outside the repository.

For each tracked text file, every token that starts with one of the
top-level folders (Documentation/, kernel/, emulator/, ...) must name
something that exists: relative to the top, to the citing file's folder,
or (in Documentation/) a page without its .rst suffix, as :doc: and
toctree entries write them.  Build outputs (paths git ignores, such as
kernel/gaudi.ko) count as existing.  Tokens with wildcards or make/shell
variables are patterns, not paths, and are skipped; so are system headers
(<uapi/...>) and paths inside QEMU's own tree (hw/misc/, hw/pci/, ...),
where build-qemu.sh puts the model.  Documents of the project's planning
area outside the repository (INTERFACE.md, NIC.md, DESIGN.md, ...) may not
be cited at all: facts the code depends on live in hw/ or Documentation/.

Prints TAP (one line per file that cites paths) and "N passed, N failed".
"""
import pathlib
import re
import subprocess
import sys

top = pathlib.Path(__file__).resolve().parents[2]
ROOTS = ("Documentation", "kernel", "emulator", "userspace", "tools", "tests",
         "hw", "uapi", "firmware", "debian")
PATH = re.compile(r"(?<![\w./<-])((?:%s)/[A-Za-z0-9_.+/-]*[A-Za-z0-9_])"
                  % "|".join(ROOTS))
OUTSIDE = re.compile(r"\b(INTERFACE\.md|UPSTREAM-PROBE\.md|NIC\.md|DESIGN\.md"
                     r"|STYLE\.md)|\.\./shared/")
# Folders of QEMU's source tree (not ours: our hw/ holds gaudi1/ only).
QEMU_TREE = ("hw/misc", "hw/pci/", "hw/qdev", "hw/nvme/", "hw/core/")
SKIP_SUFFIX = {".png", ".bin", ".itb", ".gz", ".xz", ".pdf"}
SELF = pathlib.Path(__file__).resolve().relative_to(top).as_posix()


def git(*args):
    return subprocess.run(["git", "-C", str(top)] + list(args),
                          capture_output=True, text=True).stdout


files = git("ls-files").split()
ignored_cache = {}


def ignored(path):
    if path not in ignored_cache:
        r = subprocess.run(["git", "-C", str(top), "check-ignore", "-q",
                            path])
        ignored_cache[path] = r.returncode == 0
    return ignored_cache[path]


def exists(citing, path):
    here = (top / citing).parent
    if (top / path).exists() or (here / path).exists():
        return True
    if citing.startswith("Documentation/"):
        for base in (top / "Documentation", here):
            if (base / (path + ".rst")).exists():
                return True
    return ignored(path)


n = failed = 0
for f in files:
    p = top / f
    if p.suffix in SKIP_SUFFIX or f == SELF or not p.is_file():
        continue
    try:
        text = p.read_text()
    except (UnicodeDecodeError, OSError):
        continue
    cited = 0
    bad = []
    for ln, line in enumerate(text.splitlines(), 1):
        for m in PATH.finditer(line):
            s = m.group(1).rstrip(".")
            if any(c in s for c in "*?<>{}$%") or s.startswith(QEMU_TREE):
                continue
            cited += 1
            if not exists(f, s):
                bad.append("%d: %s does not exist" % (ln, s))
        for m in OUTSIDE.finditer(line):
            cited += 1
            bad.append("%d: cites %s, which is outside the repository"
                       % (ln, m.group(0)))
    if not cited:
        continue
    n += 1
    if bad:
        failed += 1
        print("not ok %d - %s" % (n, f))
        for b in bad:
            print("#   %s:%s" % (f, b))
    else:
        print("ok %d - %s (%d paths)" % (n, f, cited))
print("1..%d" % n)
print("%d passed, %d failed" % (n - failed, failed))
sys.exit(1 if failed else 0)
