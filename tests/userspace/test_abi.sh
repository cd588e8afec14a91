#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# libgaudi as shipped: SONAME, symbol versions against libgaudi.map, no
# stray exports, `make install DESTDIR=...` layout, pkg-config, a program
# built from the installed header (C and C++) and linked against the
# installed library, and the real libudev/libkmod paths on this host
# (which has no Gaudi card).  Man pages are checked with groff -ww.
# Prints TAP and "N passed, N failed".
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/tests/userspace/abi
. "$top/tests/lib/tap.sh"

rm -rf "$out"
mkdir -p "$out"
ver=$(cat "$top/VERSION")
lib=$top/build/userspace/libgaudi.so.$ver

make -s -C "$top/userspace" >"$out/build.log" 2>&1
ok $? "make -C userspace"
soname=$(readelf -d "$lib" 2>/dev/null | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = libgaudi.so.0 ]
ok $? "SONAME is libgaudi.so.0 ($soname)"
make -s -C "$top/userspace" check-abi >"$out/abi.log" 2>&1
ok $? "every exported symbol is in libgaudi.map with its node's version and vice versa"
exported=$top/build/userspace/abi.exported
for node in LIBGAUDI_0.1 LIBGAUDI_0.2; do
	c=$(grep -c "@@$node\$" "$exported")
	[ "$c" -gt 0 ]
	ok $? "$c symbols exported as $node"
done
grep -q '^} LIBGAUDI_0.1;$' "$top/userspace/libgaudi.map"
ok $? "LIBGAUDI_0.2 inherits LIBGAUDI_0.1"
grep -qx 'gaudi_submit@@LIBGAUDI_0.1' "$exported" &&
	grep -qx 'gaudi_submit_staged@@LIBGAUDI_0.2' "$exported"
ok $? "gaudi_submit stays at LIBGAUDI_0.1, gaudi_submit_staged is LIBGAUDI_0.2"
nm -D --defined-only "$lib" | awk '$2 == "T" || $2 == "D" || $2 == "B" { print $3 }' |
	grep -v '^gaudi_' | grep -v '^LIBGAUDI' >"$out/stray"
[ ! -s "$out/stray" ]
ok $? "no symbol outside the gaudi_ prefix exported ($(wc -l <"$out/stray") stray)"
undoc=$(awk '/^\/\*\*/ { doc = 1 } /^[a-z].*gaudi_[a-z0-9_]*\(/ { if (!doc) print; doc = 0 } /^}/ { doc = 0 }' \
	"$top/userspace/include/gaudi/gaudi.h" | grep -v '^typedef' | wc -l)
[ "$undoc" -eq 0 ]
ok $? "every function in gaudi.h has a kernel-doc comment ($undoc without)"

dest=$out/root
make -s -C "$top/userspace" install DESTDIR="$dest" PREFIX=/usr \
	>"$out/install.log" 2>&1
ok $? "make install DESTDIR=... PREFIX=/usr"
for f in usr/lib/libgaudi.so.$ver usr/lib/libgaudi.so.0 usr/lib/libgaudi.so \
	usr/include/gaudi/gaudi.h usr/lib/pkgconfig/gaudi.pc \
	usr/share/man/man3/gaudi.3 usr/share/man/man3/gaudi_open.3 \
	usr/share/man/man3/gaudi_submit.3 usr/share/man/man3/gaudi_wait.3 \
	usr/share/man/man3/gaudi_submit_staged.3 \
	usr/share/man/man3/gaudi_signals_reserve.3 \
	usr/share/man/man3/gaudi_submit_wait_encaps.3; do
	[ -e "$dest/$f" ]
	ok $? "installed $f"
done
[ "$(readlink "$dest/usr/lib/libgaudi.so.0")" = "libgaudi.so.$ver" ]
ok $? "libgaudi.so.0 -> libgaudi.so.$ver"

export PKG_CONFIG_SYSROOT_DIR=$dest PKG_CONFIG_PATH=$dest/usr/lib/pkgconfig
[ "$(pkg-config --modversion gaudi)" = "$ver" ]
ok $? "pkg-config --modversion gaudi is $ver (VERSION)"
cflags=$(pkg-config --cflags gaudi)
libs=$(pkg-config --libs gaudi)
ok $? "pkg-config --cflags --libs gaudi ($cflags $libs)"

cat >"$out/prog.c" <<'PROG'
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <gaudi/gaudi.h>

int main(void)
{
	struct gaudi_card_list *l = NULL;
	struct gaudi_cmdbuf *b;
	struct gaudi_dev *d;
	int n, chk, op;

	if (strcmp(gaudi_version(), WANT_VERSION))
		return 10;
	if (gaudi_cmdbuf_new(0, 64, &b) || gaudi_pkt_nop(b, 0) ||
	    gaudi_cmdbuf_len(b) != 8)
		return 11;
	gaudi_cmdbuf_free(b);
	if (gaudi_submit_staged(NULL, NULL, 1, GAUDI_STAGED_FIRST, NULL) !=
	    -EINVAL)
		return 14;
	n = gaudi_cards_scan(&l);
	chk = gaudi_check_driver();
	op = gaudi_open(0, 0, &d);
	printf("cards %d check %d (%s) open %d loaded %d\n", n, chk,
	       gaudi_strerror(chk), op, gaudi_driver_loaded("habanalabs"));
	gaudi_cards_free(l);
	if (n != 0 || op != chk)
		return 12;
	return chk == -ENODEV || chk == -ENOPKG || chk == -ENXIO ? 0 : 13;
}
PROG
# shellcheck disable=SC2086
gcc -std=c99 -Wall -Wextra -Werror -pedantic -o "$out/prog" "$out/prog.c" \
	-DWANT_VERSION="\"$ver\"" \
	$cflags $libs >"$out/cc.log" 2>&1
ok $? "a C99 -pedantic program builds against the installed header and library"
cp "$out/prog.c" "$out/prog.cc"
# shellcheck disable=SC2086
g++ -Wall -Wextra -Werror -o "$out/prog++" "$out/prog.cc" \
	-DWANT_VERSION="\"$ver\"" $cflags $libs \
	>"$out/cxx.log" 2>&1
ok $? "the header works from C++"
res=$(LD_LIBRARY_PATH=$dest/usr/lib "$out/prog" 2>&1)
ok $? "it runs with the real libudev/libkmod on this host: $res"
ldd "$out/prog" | grep -q 'libgaudi.so.0 =>'
ok $? "the program needs libgaudi.so.0 (the SONAME)"
objdump -T "$out/prog" | grep -q '(LIBGAUDI_0.1) *gaudi_cards_scan$'
ok $? "and binds gaudi_cards_scan@LIBGAUDI_0.1"
objdump -T "$out/prog" | grep -q '(LIBGAUDI_0.2) *gaudi_submit_staged$'
ok $? "and gaudi_submit_staged@LIBGAUDI_0.2"

for m in "$top"/userspace/man/*.3; do
	w=$(groff -man -ww -z "$m" 2>&1)
	[ -z "$w" ]
	ok $? "man page $(basename "$m") renders without warnings"
done

make -s -C "$top/userspace" uninstall DESTDIR="$dest" PREFIX=/usr \
	>"$out/uninstall.log" 2>&1
left=$(find "$dest" -type f -o -type l | wc -l)
[ "$left" -eq 0 ]
ok $? "make uninstall removes every file ($left left)"

tap_done
