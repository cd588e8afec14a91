#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Testing the tests: build gaudi.ko with one deliberate defect at a time
# (tests/broken/<name>.patch, applied to a copy of the sources; the driver
# itself has no test switch) and run the suite that must catch it.  A defect is caught when that suite fails (exit status 1, or
# 99 for kernel problems in dmesg) with at least one "not ok" line; a
# passing suite, a timeout or a build failure is a failure here.
#
#   tests/broken/run.sh [NAME...]      (default: every defect below)
#   tests/broken/run.sh --applies      only: does every patch still apply
#                                      to the tree (no build, no guest)?
#
# Environment: GAUDI_QEMU, GAUDI_KVER as for tests/guest/run-suite.sh;
# TIMEOUT (seconds per suite, default 900).  Prints TAP and ends with
# "N passed, N failed".  `make check-broken` runs it.

repo=$(cd "$(dirname "$0")/../.." && pwd)
kver=${GAUDI_KVER:-6.12.95+deb12-amd64}
out=$repo/build/broken

# shellcheck source=../lib/tap.sh
. "$repo/tests/lib/tap.sh"

# NAME SUITE [VAR=VALUE...]: the defect and the suite that must catch it,
# with the environment it runs in.
cases='
mmu-inv cs
cb-early-free cs
submit-lock cs
cp-dma-unparsed compat CARDS=1
probe-leak driver CARDS=2
'

# build NAME: gaudi.ko with the defect, from a copy of the sources with
# NAME.patch applied; the patch also gives the module the modinfo field
# gaudi_break=NAME, checked so that a stale module is never tested.
build() {
	d=$out/$1/src
	rm -rf "$d"
	mkdir -p "$d/kernel/en" "$d/kernel/ib" "$d/hw/gaudi1" "$d/uapi/drm" \
		"$d/uapi/rdma"
	cp "$repo/Kbuild" "$repo/VERSION" "$d/" &&
		cp "$repo"/kernel/Kbuild "$repo"/kernel/*.[ch] "$d/kernel/" &&
		cp "$repo"/kernel/en/Kbuild "$repo"/kernel/en/*.c "$d/kernel/en/" &&
		cp "$repo"/kernel/ib/Kbuild "$repo"/kernel/ib/*.c "$d/kernel/ib/" &&
		cp "$repo"/hw/gaudi1/*.h "$d/hw/gaudi1/" &&
		cp "$repo"/uapi/drm/*.h "$d/uapi/drm/" &&
		cp "$repo"/uapi/rdma/*.h "$d/uapi/rdma/" &&
		patch -s -p1 -d "$d" <"$repo/tests/broken/$1.patch" \
			>"$out/$1/build.log" 2>&1 &&
		make -s -C "/lib/modules/$kver/build" M="$d" \
			modules >>"$out/$1/build.log" 2>&1 &&
		[ "$(modinfo -F gaudi_break "$d/kernel/gaudi.ko")" = "$1" ]
}

# The plan and the count, last; the status says whether all passed.
tally() {
	echo "1..$n"
	echo "$((n - failed)) passed, $failed failed"
	[ "$failed" -eq 0 ]
}

if [ "${1:-}" = --applies ]; then
	while read -r name suite env; do
		[ -n "$name" ] || continue
		patch -s --dry-run -p1 -d "$repo" \
			<"$repo/tests/broken/$name.patch" >/dev/null 2>&1
		ok $? "$name.patch applies to the tree (suite $suite catches it)"
	done <<END
$cases
END
	tally
	exit
fi

want=$*
while read -r name suite env; do
	[ -n "$name" ] || continue
	case " ${want:-$name} " in *" $name "*) ;; *) continue ;; esac
	mkdir -p "$out/$name"
	if ! build "$name"; then
		ok 1 "$name: build (see $out/$name/build.log)"
		continue
	fi
	log=$out/$name/$suite.log
	# shellcheck disable=SC2086 # env holds VAR=VALUE words
	env $env GAUDI_KO="$out/$name/src/kernel/gaudi.ko" \
		TIMEOUT="${TIMEOUT:-900}" \
		"$repo/tests/guest/run-suite.sh" "$suite" >"$log" 2>&1
	st=$?
	nf=$(grep -c '^not ok' "$log")
	# The first three failing checks name what caught it.
	caught=$(grep '^not ok' "$log" | sed 's/^not ok [0-9]* - //' |
		head -n 3 | tr '\n' ';' | sed 's/;$//; s/;/; /g')
	if { [ "$st" -eq 1 ] || [ "$st" -eq 99 ]; } && [ "$nf" -gt 0 ]; then
		ok 0 "$name: caught by suite $suite ($nf failed, first: $caught)"
	else
		ok 1 "$name: NOT caught by suite $suite (status $st, $nf failed; $log)"
	fi
done <<END
$cases
END
tally
