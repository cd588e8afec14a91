#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One version source: the tree's VERSION.  Checks that nothing else defines a
# release number (Makefiles and sources take it from VERSION), that what must
# carry the number in its own text (debian/changelog, man pages' .TH lines)
# carries VERSION's, and that the symbol-node policy sits next to the map.
# Prints TAP and "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
n=0 failed=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else
		echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
ver=$(cat VERSION)
printf '%s\n' "$ver" | grep -Eqx '[0-9]+\.[0-9]+\.[0-9]+'
ok $? "VERSION is x.y.z ($ver)"

# A literal release in a make variable or a C define is a second source.
lit=$(git grep -nE '^[A-Z_]*VERSION[ \t]*:?=[ \t]*[0-9]+\.[0-9]+|#define[ \t]+[A-Z_]*_VERSION[ \t]+"[0-9]+\.[0-9]+\.[0-9]+"' \
	-- '*Makefile' '*.mk' '*.c' '*.h' ':!tests/*' ':!uapi/*')
[ -z "$lit" ]
ok $? "no release number defined outside VERSION${lit:+: $lit}"
second=$(git ls-files | grep "/VERSION$")
[ -z "$second" ]
ok $? "no second VERSION file${second:+: $second}"

cl=$(sed -n '1s/^[^ ]* (\([^)-]*\).*/\1/p' debian/changelog)
[ "$cl" = "$ver" ]
ok $? "debian/changelog's release ($cl) is VERSION's"

for m in $(git ls-files '*.[1-8]'); do
	th=$(sed -n 's/^\.TH .*"\(gaudi-open\|libgaudi\) \([0-9.]*\)".*/\2/p' "$m")
	[ "$th" = "$ver" ]
	ok $? "$m: .TH names release ${th:-(none)}"
done

grep -q 'The nodes below are not release numbers' userspace/libgaudi.map
ok $? "userspace/libgaudi.map states the symbol-node policy"

echo "1..$n"
echo "$((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
