#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-udev-rules.py FILE...: a syntax check of udev rules files for
systems whose udevadm has no `verify` (systemd < 254).

Each rule (backslash-continued lines joined) must be a comma-separated list
of KEY OP "VALUE" with a key udev knows, a match operator (==, !=) on match
keys and an assignment operator (=, +=, -=, :=) on assignment keys, at least
one assignment or GOTO, and every GOTO must have its LABEL later in the same
file.  Prints one error per line and exits 1 on any."""
import re
import sys

MATCH = {"ACTION", "DEVPATH", "KERNEL", "KERNELS", "NAME", "SYMLINK",
         "SUBSYSTEM", "SUBSYSTEMS", "DRIVER", "DRIVERS", "TAG", "TAGS",
         "TEST", "PROGRAM", "RESULT", "ATTR", "ATTRS", "SYSCTL", "ENV",
         "CONST", "TAG"}
ASSIGN = {"NAME", "SYMLINK", "OWNER", "GROUP", "MODE", "SECLABEL", "ATTR",
          "SYSCTL", "ENV", "TAG", "RUN", "LABEL", "GOTO", "IMPORT",
          "OPTIONS", "WAIT_FOR", "PROGRAM"}
WITH_ATTR = {"ATTR", "ATTRS", "ENV", "TEST", "SYSCTL", "CONST", "IMPORT",
             "RUN", "SECLABEL"}
ENTRY = re.compile(r'\s*([A-Z_]+)(\{[^}]+\})?\s*(==|!=|\+=|-=|:=|=)\s*'
                   r'"((?:[^"\\]|\\.)*)"\s*(,|$)')


def rules(path):
    with open(path) as f:
        buf, start = "", 0
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not buf:
                start = n
            if line.endswith("\\"):
                buf += line[:-1]
                continue
            buf += line
            if buf.strip() and not buf.lstrip().startswith("#"):
                yield start, buf
            buf = ""


def check(path):
    errors, gotos, labels = [], [], set()
    for n, rule in rules(path):
        pos, kinds = 0, set()
        while pos < len(rule.rstrip()):
            m = ENTRY.match(rule, pos)
            if not m:
                errors.append("%s:%d: cannot parse at '%s'"
                              % (path, n, rule[pos:].strip()[:30]))
                break
            key, attr, op, value, _ = m.groups()
            pos = m.end()
            if attr and key not in WITH_ATTR:
                errors.append("%s:%d: %s takes no {attribute}"
                              % (path, n, key))
            if op in ("==", "!="):
                if key not in MATCH:
                    errors.append("%s:%d: %s is not a match key"
                                  % (path, n, key))
                kinds.add("match")
            else:
                if key not in ASSIGN:
                    errors.append("%s:%d: %s cannot be assigned"
                                  % (path, n, key))
                kinds.add("assign")
                if key == "GOTO":
                    gotos.append((n, value))
                elif key == "LABEL":
                    labels.add(value)
                elif key == "MODE" and not re.fullmatch(r"0?[0-7]{3}",
                                                        value):
                    errors.append("%s:%d: MODE %s is not octal"
                                  % (path, n, value))
        if "assign" not in kinds and not any(
                e.startswith("%s:%d:" % (path, n)) for e in errors):
            errors.append("%s:%d: rule without an assignment" % (path, n))
    for n, label in gotos:
        if label not in labels:
            errors.append("%s:%d: GOTO %s has no LABEL" % (path, n, label))
    return errors


def main():
    errors = []
    for path in sys.argv[1:]:
        errors += check(path)
    for e in errors:
        print(e)
    return 1 if errors or len(sys.argv) < 2 else 0


if __name__ == "__main__":
    sys.exit(main())
