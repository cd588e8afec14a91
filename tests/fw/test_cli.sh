#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# gaudi-fw's command line on the host (no card): verify, install and
# rollback in a scratch directory, exit codes and messages (gaudi-fw.1).
# TAP, closing line "N passed, N failed".
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
fw=${GAUDI_FW:-$repo/build/tools/fw/gaudi-fw}
img=$repo/build/firmware/habanalabs/gaudi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
. "$repo/tests/lib/tap.sh"

# run EXPECTED_STATUS PATTERN DESCRIPTION -- ARGS: status and message
run() {
	want=$1 pat=$2 what=$3
	shift 4
	"$fw" "$@" >"$t/out" 2>"$t/err"
	st=$?
	[ "$st" -eq "$want" ] && grep -q -- "$pat" "$t/out" "$t/err"
	ok $? "$what (exit $st, $(head -c 120 "$t/err" | tr '\n' ' '))"
}

cp "$img/gaudi-boot-fit.itb" "$t/good.itb"
run 0 "preboot:  gaudi-open-btl" "verify a good boot-fit" -- verify "$t/good.itb"
run 0 "cpucp:" "verify a good fit" -- verify "$img/gaudi-fit.itb"
head -c 1000 "$t/good.itb" > "$t/trunc.itb"
run 12 "truncated" "truncated file: exit 12" -- verify "$t/trunc.itb"
{ printf 'XXXX'; tail -c +5 "$t/good.itb"; } > "$t/magic.itb"
run 11 "bad magic" "bad magic: exit 11" -- verify "$t/magic.itb"
sed 's/hl205/hl206/; s/gaudi\x00\x00/gaudx\x00\x00/' "$t/good.itb" > "$t/target.itb"
run 17 "wrong target" "wrong target: exit 17" -- verify "$t/target.itb"
cp "$img/gaudi-fit.itb" "$t/gaudi-boot-fit.itb"
run 18 "wrong image kind: expected boot-fit" \
	"a fit named gaudi-boot-fit.itb: wrong kind, exit 18" -- verify "$t/gaudi-boot-fit.itb"
run 18 "expected fit" "--kind fit on a boot-fit: exit 18" -- verify -k fit "$t/good.itb"
sed 's/sha256/sha257/' "$t/good.itb" > "$t/algo.itb"
run 16 "sha257" "unknown hash algorithm: exit 16" -- verify "$t/algo.itb"
: > "$t/empty.itb"
run 20 "empty file" "empty file: exit 20" -- verify "$t/empty.itb"
run 3 "cannot read" "missing file: exit 3" -- verify "$t/nonexistent.itb"

d=$t/lib/firmware/habanalabs/gaudi
run 0 "installed" "install a good boot-fit" -- install -d "$d" "$t/good.itb"
cmp -s "$d/gaudi-boot-fit.itb" "$t/good.itb"
ok $? "installed under its kind's file name"
run 12 "not installed" "install refuses a truncated file (exit 12)" -- \
	install -d "$d" "$t/trunc.itb"
cmp -s "$d/gaudi-boot-fit.itb" "$t/good.itb" && [ ! -e "$d/gaudi-boot-fit.itb.prev" ]
ok $? "a refused install changes nothing"
run 7 "nothing to roll back" "rollback without a previous file: exit 7" -- \
	rollback -d "$d"
run 0 "installed" "install over it" -- install -d "$d" "$img/gaudi-boot-fit.itb"
[ -e "$d/gaudi-boot-fit.itb.prev" ]
ok $? "the replaced file is kept as .prev"
run 0 "restored" "rollback restores it" -- rollback boot-fit -d "$d"
run 0 "gaudi-boot-fit.itb.prev" "info lists installed and previous files" -- \
	info -d "$d"
run 2 "usage" "no command: exit 2" --
run 2 "unknown command" "unknown command: exit 2" -- frobnicate
run 2 "exactly one FILE" "flash without a file: exit 2" -- flash
run 11 "not flashed" "flash refuses a bad image before looking for cards" -- \
	flash --yes "$t/magic.itb"

tap_done
