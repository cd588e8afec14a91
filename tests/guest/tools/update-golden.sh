#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Regenerate tests/guest/tools/golden/ from one run of the suite:
#   tests/guest/tools/update-golden.sh [run-suite.sh environment...]
# Runs `UPDATE_GOLDEN=1 tests/guest/run-suite.sh tools`, which prints every
# masked output between "@@golden DRIVER/NAME" and "@@end", and writes each
# block to golden/DRIVER/NAME.txt.  Review the diff before committing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
UPDATE_GOLDEN=1 "$here/../run-suite.sh" tools >"$log" || true
awk -v dir="$here/golden" '
	/^@@golden / { f = dir "/" $2 ".txt"; d = f; sub("/[^/]*$", "", d)
		system("mkdir -p \"" d "\""); printf "" > f; next }
	/^@@end$/ { close(f); f = ""; next }
	f != "" { print > f }' "$log"
grep -c '^@@golden ' "$log" | sed 's/$/ golden files written/'
