#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run one in-guest test suite: build what it needs on the host, boot one VM
# with tools/vm/gaudi-vm, run tests/guest/<SUITE>/suite.sh inside and return
# its status. `make vmtest SUITE=<name>` calls this.
#
#   tests/guest/run-suite.sh SUITE [extra gaudi-vm options...]
#
# Environment: GAUDI_QEMU (qemu-system-x86_64 with -device gaudi; required),
# CARDS (default 8), TIMEOUT (host-side seconds, default 1800).
# The suite's TAP and closing "N passed, N failed" line go to stdout; the
# exit status is the suite's (or gaudi-vm's: 124 timeout, 125 no status,
# 99 kernel problems in dmesg).
set -eu

die() {
	echo "run-suite: $*" >&2
	exit 2
}

[ $# -ge 1 ] || die "usage: $0 SUITE [gaudi-vm options...]"
suite=$1
shift

repo=$(cd "$(dirname "$0")/../.." && pwd)
suite_dir=$repo/tests/guest/$suite
out=$repo/build/tests/guest/$suite
cards=${CARDS:-8}
timeout=${TIMEOUT:-1800}
cc=${CC:-gcc}

[ -f "$suite_dir/suite.sh" ] || die "no suite '$suite' ($suite_dir/suite.sh)"
# Default: the QEMU that `make qemu` built last.
[ -n "${GAUDI_QEMU:-}" ] || GAUDI_QEMU=$(cat "$repo/build/qemu-path" 2>/dev/null) || true
export GAUDI_QEMU
[ -n "${GAUDI_QEMU:-}" ] || die "GAUDI_QEMU is not set (path printed by tools/host/build-qemu.sh)"
mkdir -p "$out"

# Per-suite build steps and guest environment.
env=
case $suite in
upstream)
	"$cc" -O2 -Wall -Wextra -Werror -o "$out/hl_upstream_test" \
		"$suite_dir/hl_upstream_test.c"
	peer=$("$repo/tools/host/build-upstream-peer.sh" | tail -n 1)
	[ -f "$peer" ] || die "peer module build failed"
	set -- --add "$out/hl_upstream_test:/suite/bin/hl_upstream_test" \
		--add "$peer:/suite/peer/habanalabs-peer.ko" "$@"
	env="PEER_KO=/suite/peer/habanalabs-peer.ko BIN=/suite/bin"
	;;
esac

exec "$repo/tools/vm/gaudi-vm" --driver none --cards "$cards" \
	--timeout "$timeout" --add "$suite_dir:/suite/$suite" "$@" \
	--cmd "CARDS=$cards $env sh /suite/$suite/suite.sh"
