#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check that every Documentation/ page parses as reStructuredText without
warnings.  Sphinx's :doc: role and toctree directive are accepted (they are
what the kernel-style docs use); everything else is plain docutils.
Prints TAP and "N passed, N failed"."""
import io
import pathlib
import sys

from docutils import nodes
from docutils.core import publish_doctree
from docutils.parsers.rst import Directive, directives, roles


def doc_role(name, rawtext, text, lineno, inliner, options=None,
             content=None):
    return [nodes.literal(rawtext, text)], []


class TocTree(Directive):
    has_content = True
    option_spec = {"maxdepth": directives.unchanged,
                   "caption": directives.unchanged}

    def run(self):
        return []


roles.register_local_role("doc", doc_role)
directives.register_directive("toctree", TocTree)

top = pathlib.Path(__file__).resolve().parents[2]
pages = sorted((top / "Documentation").rglob("*.rst"))
failed = 0
for n, page in enumerate(pages, 1):
    err = io.StringIO()
    try:
        publish_doctree(page.read_text(), source_path=str(page),
                        settings_overrides={"report_level": 2,
                                            "halt_level": 5,
                                            "warning_stream": err})
    except Exception as e:  # a parser crash is a failure too
        err.write(str(e))
    rel = page.relative_to(top)
    if err.getvalue():
        failed += 1
        print("not ok %d - %s" % (n, rel))
        for line in err.getvalue().splitlines():
            print("# " + line)
    else:
        print("ok %d - %s" % (n, rel))
print("1..%d" % len(pages))
print("%d passed, %d failed" % (len(pages) - failed, failed))
sys.exit(1 if failed else 0)
