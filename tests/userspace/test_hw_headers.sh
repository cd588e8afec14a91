#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# hw/gaudi1 (Documentation/hw.rst) and libgaudi's public headers: every
# header compiles on its own (libgaudi's also as C++); hw/gaudi1 as C11
# with -Wall -Wextra -Werror -pedantic, twice in one unit (include guard),
# and tests/hw/hw_checks.c, whose _Static_asserts tie values that must
# agree, compiles.  Prints TAP and "N passed, N failed".
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/tests/hw
. "$top/tests/lib/tap.sh"

mkdir -p "$out"
cc=${CC:-gcc}
flags="-std=c11 -Wall -Wextra -Werror -pedantic -I$top/hw"

for h in "$top"/hw/gaudi1/*.h; do
	name=gaudi1/$(basename "$h")
	printf '#include "%s"\n#include "%s"\nint hw_unit;\n' "$name" "$name" \
		>"$out/one.c"
	$cc $flags -c -o "$out/one.o" "$out/one.c" 2>"$out/one.log"
	ok $? "$name compiles alone" || cat "$out/one.log"
done

grep -L 'SPDX-License-Identifier: GPL-2.0-or-later OR MIT' \
	"$top"/hw/gaudi1/*.h >"$out/spdx.log"
[ ! -s "$out/spdx.log" ]
ok $? "every hw/gaudi1 header is GPL-2.0-or-later OR MIT" || cat "$out/spdx.log"

$cc $flags -c -o "$out/checks.o" "$top/tests/hw/hw_checks.c" 2>"$out/checks.log"
ok $? "tests/hw/hw_checks.c: the cross-checks hold" || cat "$out/checks.log"

# libgaudi's public headers: each alone, as C11 and as C++ (issue 11).
for h in "$top"/userspace/include/gaudi/*.h; do
	name=gaudi/$(basename "$h")
	printf '#include <%s>\n#include <%s>\nint lib_unit;\n' "$name" "$name" \
		>"$out/lib.c"
	$cc -std=c11 -Wall -Wextra -Werror -pedantic -I"$top/userspace/include" \
		-I"$top/uapi" -c -o "$out/lib.o" "$out/lib.c" 2>"$out/lib.log"
	ok $? "<$name> compiles alone (C11)" || cat "$out/lib.log"
	${CXX:-g++} -x c++ -Wall -Wextra -Werror -I"$top/userspace/include" \
		-I"$top/uapi" -c -o "$out/lib.o" "$out/lib.c" 2>"$out/lib.log"
	ok $? "<$name> compiles alone (C++)" || cat "$out/lib.log"
done

# cpucp.h repeats upstream kernel headers: it must refuse kernel builds.
printf '#include "gaudi1/cpucp.h"\n' >"$out/kern.c"
! $cc $flags -D__KERNEL__ -c -o "$out/kern.o" "$out/kern.c" 2>/dev/null
ok $? "gaudi1/cpucp.h refuses a kernel build"

tap_done
