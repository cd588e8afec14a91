# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh disable=SC2154
#
# Sourced by the host side of tests/bench/run-bench.sh and profile.sh:
# bench_host_setup TAG checks GAUDI_QEMU, builds $out/gaudi_bench against
# libgaudi and sets $peer (the upstream reference peer, built or found by
# tools/host/build-upstream-peer.sh) and $ko (GAUDI_KO, else the tree's
# gaudi.ko); $repo, $out and $cc come from the caller, TAG names it in
# its messages.
bench_host_setup() {
	[ -n "${GAUDI_QEMU:-}" ] || GAUDI_QEMU=$(cat "$repo/build/qemu-path" 2>/dev/null) || true
	export GAUDI_QEMU
	[ -n "${GAUDI_QEMU:-}" ] || { echo "$1: GAUDI_QEMU is not set" >&2; exit 2; }
	mkdir -p "$out"
	make -s -C "$repo/userspace" >&2
	$cc -O2 -Wall -Wextra -Werror -I "$repo/userspace/include" \
		-o "$out/gaudi_bench" "$repo/tests/bench/gaudi_bench.c" \
		-L "$repo/build/userspace" -lgaudi -Wl,-rpath,"$repo/build/userspace"
	peer=$("$repo/tools/host/build-upstream-peer.sh" | tail -n 1)
	ko=${GAUDI_KO:-$repo/kernel/gaudi.ko}
	[ -f "$peer" ] || { echo "$1: no peer module (make peer)" >&2; exit 2; }
	[ -f "$ko" ] || { echo "$1: no $ko (make kernel)" >&2; exit 2; }
}
