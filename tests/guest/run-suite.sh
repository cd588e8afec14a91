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
# CARDS (default 8), TIMEOUT (host-side seconds, default 1800), SMP (guest
# CPUs; default 4 for cs, lib, driver and security, else 1), IOMMU
# (strict|lazy: a guest IOMMU) and SWIOTLB (1: swiotlb=force).
# Suite driver: GAUDI_KO (a built gaudi.ko; default: build kernel/ with
# Kbuild, exit 77 when there is nothing to build), GAUDI_KVER (guest kernel),
# and DUT, HEARTBEAT_MS, CYCLES, CYCLE_CARDS passed on to the guest suite.
# The suite sources tests/lib/tap.sh, added to the guest as /suite/tap.sh
# and named by TAP_SH, and tests/guest/lib.sh, added as /suite/lib.sh.
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
# A command, split into words as make splits it (CC="ccache gcc").
cc=${CC:-gcc}

[ -f "$suite_dir/suite.sh" ] || die "no suite '$suite' ($suite_dir/suite.sh)"
# Default: the QEMU that `make qemu` built last.
[ -n "${GAUDI_QEMU:-}" ] || GAUDI_QEMU=$(cat "$repo/build/qemu-path" 2>/dev/null) || true
export GAUDI_QEMU
[ -n "${GAUDI_QEMU:-}" ] || die "GAUDI_QEMU is not set (path printed by tools/host/build-qemu.sh)"
mkdir -p "$out"

# Guest kernel (GAUDI_KERNEL, read by gaudi-vm too): Debian's (stock, the
# default, or checked: the same with its built-in slab checks on)
# or the debug kernel (debug, or a tools/host/build-debug-kernel.sh
# directory).  The test modules and gaudi.ko are built against its tree and
# the upstream peer is the one built with it.
kdir=/lib/modules/${GAUDI_KVER:-6.12.95+deb12-amd64}/build
peer_ko() { "$repo/tools/host/build-upstream-peer.sh" | tail -n 1; }
if [ "${GAUDI_KERNEL:-stock}" != stock ] && [ "$GAUDI_KERNEL" != checked ]; then
	if [ "$GAUDI_KERNEL" = debug ]; then
		kdir=$("$repo/tools/host/build-debug-kernel.sh" |
			sed -n 's/^KDIR=//p') || die "debug kernel build failed"
	else
		kdir=$GAUDI_KERNEL
	fi
	[ -f "$kdir/kver" ] || die "no debug kernel in '$kdir'"
	GAUDI_KERNEL=$kdir
	export GAUDI_KERNEL
	peer_ko() { echo "$kdir/habanalabs-peer.ko"; }
fi
# PEER=none: no upstream peer in the guest; the cs and security suites
# then skip their peer phases (counted).  make check-debug uses it: it
# judges gaudi.ko, and upstream's own lockdep reports on the debug kernel
# are documented in Documentation/upstream-peer.rst.
if [ "${PEER:-}" = none ]; then
	peer_ko() { :; }
fi

# gaudi.ko to test: GAUDI_KO, else built from kernel/ against the guest's
# kernel headers (GAUDI_KVER).
gaudi_ko() {
	if [ -n "${GAUDI_KO:-}" ]; then
		echo "$GAUDI_KO"
		return
	fi
	make -C "$kdir" \
		M="$repo" modules >&2 || die "gaudi.ko build failed"
	echo "$repo/kernel/gaudi.ko"
}

# Per-suite build steps and guest environment.
env=
case $suite in
upstream)
	$cc -O2 -Wall -Wextra -Werror -o "$out/hl_upstream_test" \
		"$suite_dir/hl_upstream_test.c"
	$cc -O2 -Wall -Wextra -Werror -o "$out/hl_diff_test" \
		"$suite_dir/hl_diff_test.c"
	peer=$(peer_ko)
	[ -f "$peer" ] || die "peer module build failed"
	ko=$(gaudi_ko) || exit 2
	set -- --add "$out/hl_upstream_test:/suite/bin/hl_upstream_test" \
		--add "$out/hl_diff_test:/suite/bin/hl_diff_test" \
		--add "$ko:/suite/ko/gaudi.ko" \
		--add "$peer:/suite/peer/habanalabs-peer.ko" "$@"
	env="PEER_KO=/suite/peer/habanalabs-peer.ko GAUDI_KO=/suite/ko/gaudi.ko BIN=/suite/bin"
	# issue 15: the scenarios silicon runs (hl_scenario_test --peer)
	$cc -O2 -Wall -Wextra -Werror -o "$out/hl_scenario_test" \
		"$suite_dir/hl_scenario_test.c"
	set -- --add "$out/hl_scenario_test:/suite/bin/hl_scenario_test" "$@"
	# The cards' NIC ports wired as on a DL1 (issue 12): upstream's
	# driver must probe and pass with the NIC present and linked.
	set -- --nic dl1 "$@"
	;;
compat)
	# issue 23: Habana's userspace patterns on the peer and on gaudi.ko
	# (hl_scenario_test --user-cb), one card.
	$cc -O2 -Wall -Wextra -Werror -o "$out/hl_scenario_test" \
		"$repo/tests/guest/upstream/hl_scenario_test.c"
	peer=$(peer_ko) || peer=
	ko=$(gaudi_ko) || exit 2
	set -- --add "$out/hl_scenario_test:/suite/bin/hl_scenario_test" \
		--add "$ko:/suite/ko/gaudi.ko" "$@"
	env="GAUDI_KO=/suite/ko/gaudi.ko BIN=/suite/bin"
	if [ -f "$peer" ]; then
		set -- --add "$peer:/suite/peer/habanalabs-peer.ko" "$@"
		env="$env PEER_KO=/suite/peer/habanalabs-peer.ko"
	fi
	;;
lib)
	# libgaudi and its integration test, linked with an rpath so that
	# gaudi-vm copies the library to the same path in the guest.
	make -s -C "$repo/userspace" >&2 || die "libgaudi build failed"
	$cc -O2 -Wall -Wextra -Werror -I "$repo/userspace/include" \
		-o "$out/gaudi_lib_test" "$suite_dir/gaudi_lib_test.c" \
		-L "$repo/build/userspace" -lgaudi \
		-Wl,-rpath,"$repo/build/userspace"
	peer=$(peer_ko)
	[ -f "$peer" ] || die "peer module build failed"
	set -- --add "$out/gaudi_lib_test:/suite/bin/gaudi_lib_test" \
		--add "$peer:/suite/peer/habanalabs-peer.ko" "$@"
	env="PEER_KO=/suite/peer/habanalabs-peer.ko BIN=/suite/bin"
	if [ "${DUT:-peer}" = gaudi ]; then
		ko=$(gaudi_ko) || exit 2
		[ -f "$ko" ] || die "no $ko"
		set -- --add "$ko:/suite/ko/gaudi.ko" "$@"
		env="$env GAUDI_KO=/suite/ko/gaudi.ko DUT=gaudi"
	fi
	;;
driver)
	# gaudi.ko: GAUDI_KO, or built from kernel/ against the guest's kernel
	# headers. DUT=peer runs the suite against the peer in its place.
	for p in gaudi_driver_test gaudi_model_ctl; do
		$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" \
			-I "$repo/uapi" -o "$out/$p" "$suite_dir/$p.c"
	done
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" -I "$repo/uapi" \
		-o "$out/hl_upstream_test" \
		"$repo/tests/guest/upstream/hl_upstream_test.c"
	peer=$(peer_ko)
	[ -f "$peer" ] || die "peer module build failed"
	ko=${GAUDI_KO:-}
	if [ -z "$ko" ] && [ "${DUT:-gaudi}" != peer ]; then
		if [ ! -f "$repo/Kbuild" ] && [ ! -f "$repo/kernel/Kbuild" ]; then
			echo "run-suite: no gaudi.ko to test (no Kbuild in $repo)" >&2
			exit 77
		fi
		make -C "$kdir" M="$repo" modules >&2 ||
			die "gaudi.ko build failed"
		ko=$repo/kernel/gaudi.ko
	fi
	if [ -n "$ko" ]; then
		[ -f "$ko" ] || die "no $ko"
		set -- --add "$ko:/suite/ko/gaudi.ko" "$@"
	fi
	set -- --add "$out/hl_upstream_test:/suite/bin/hl_upstream_test" \
		--add "$out/gaudi_driver_test:/suite/bin/gaudi_driver_test" \
		--add "$out/gaudi_model_ctl:/suite/bin/gaudi_model_ctl" \
		--add "$peer:/suite/peer/habanalabs-peer.ko" \
		--add /usr/bin/sensors:/usr/bin/sensors \
		--add /etc/sensors3.conf:/etc/sensors3.conf \
		--device-opts test-hooks=on "$@"
	env="GAUDI_KO=/suite/ko/gaudi.ko PEER_KO=/suite/peer/habanalabs-peer.ko BIN=/suite/bin"
	for v in DUT HEARTBEAT_MS CYCLES CYCLE_CARDS; do
		eval "val=\${$v:-}"
		# shellcheck disable=SC2154
		[ -z "$val" ] || env="$env $v=$val"
	done
	;;
cs)
	# gaudi.ko (GAUDI_KO or built from kernel/) and, as the ABI reference,
	# the upstream peer; queue hangs need the model's test hooks.
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" \
		-o "$out/gaudi_cs_test" "$suite_dir/gaudi_cs_test.c" -lpthread
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" \
		-o "$out/gaudi_life_test" "$suite_dir/gaudi_life_test.c"
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" \
		-o "$out/gaudi_limits_test" "$suite_dir/gaudi_limits_test.c" \
		-lpthread
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" \
		-o "$out/gaudi_remap_test" "$suite_dir/gaudi_remap_test.c"
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" \
		-o "$out/gaudi_pin_test" "$suite_dir/gaudi_pin_test.c"
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" -I "$repo/uapi" \
		-o "$out/gaudi_model_ctl" "$repo/tests/guest/driver/gaudi_model_ctl.c"
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" \
		-o "$out/hl_upstream_test" \
		"$repo/tests/guest/upstream/hl_upstream_test.c"
	# The test dma-buf importer (module built in its source folder; the
	# outputs are git-ignored) and its test program.
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" \
		-o "$out/dmabuf_import_test" "$suite_dir/dmabuf_import_test.c"
	make -C "$kdir" \
		M="$suite_dir/dmabuf_import" W=1 modules >&2 ||
		die "gaudi_dmabuf_import.ko build failed"
	ko=$(gaudi_ko) || exit 2
	peer=$(peer_ko) || peer=
	set -- --add "$ko:/suite/ko/gaudi.ko" \
		--add "$suite_dir/dmabuf_import/gaudi_dmabuf_import.ko:/suite/ko/gaudi_dmabuf_import.ko" \
		--add "$out/dmabuf_import_test:/suite/bin/dmabuf_import_test" \
		--add "$out/gaudi_cs_test:/suite/bin/gaudi_cs_test" \
		--add "$out/gaudi_life_test:/suite/bin/gaudi_life_test" \
		--add "$out/gaudi_limits_test:/suite/bin/gaudi_limits_test" \
		--add "$out/gaudi_model_ctl:/suite/bin/gaudi_model_ctl" \
		--add "$out/hl_upstream_test:/suite/bin/hl_upstream_test" \
		--add "$out/gaudi_remap_test:/suite/bin/gaudi_remap_test" \
		--add "$out/gaudi_pin_test:/suite/bin/gaudi_pin_test" \
		--device-opts test-hooks=on "$@"
	# Interface corners, also as a static 32-bit build (gcc-multilib).
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" -I "$repo/uapi" \
		-o "$out/gaudi_iface_test" "$suite_dir/gaudi_iface_test.c"
	set -- --add "$out/gaudi_iface_test:/suite/bin/gaudi_iface_test" "$@"
	if $cc -m32 -static -D_FILE_OFFSET_BITS=64 -O2 -Wall -Wextra -Werror \
		-I "$repo/tests/lib" -I "$repo/uapi" -o "$out/gaudi_iface_test32" \
		"$suite_dir/gaudi_iface_test.c"; then
		set -- --add "$out/gaudi_iface_test32:/suite/bin/gaudi_iface_test32" "$@"
	else
		echo "run-suite: no -m32 build (gcc-multilib missing?)" >&2
	fi
	env="GAUDI_KO=/suite/ko/gaudi.ko IMPORT_KO=/suite/ko/gaudi_dmabuf_import.ko BIN=/suite/bin"
	if [ -f "$peer" ]; then
		set -- --add "$peer:/suite/peer/habanalabs-peer.ko" "$@"
		env="$env PEER_KO=/suite/peer/habanalabs-peer.ko"
	fi
	# Races, resets while busy, back-pressure (issue 15).
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" -I "$repo/uapi" \
		-o "$out/gaudi_race_test" "$suite_dir/gaudi_race_test.c" -lpthread
	set -- --add "$out/gaudi_race_test:/suite/bin/gaudi_race_test" "$@"
	# issue 15: the scenarios silicon runs, on gaudi.ko
	$cc -O2 -Wall -Wextra -Werror -o "$out/hl_scenario_test" \
		"$repo/tests/guest/upstream/hl_scenario_test.c"
	set -- --add "$out/hl_scenario_test:/suite/bin/hl_scenario_test" "$@"
	;;
kfuzz)
	# The kernel fuzzer (issue 29, tests/kfuzz/): the libFuzzer program
	# (dynamic: gaudi-vm brings its libraries; a -static link crashes at
	# start, in the sanitizer runtime's signal setup), its corpus, the
	# map of gaudi.ko's functions to the files of kernel/ (from the
	# objects just built) and, with REPRO=FILE, the one input to replay.
	mkdir -p "$out/kfuzz"
	${FUZZ_CC:-clang} -O1 -g -Wall -Wextra -Werror -fsanitize=fuzzer \
		-I "$repo/tests/lib" -o "$out/kfuzz_bin" \
		"$repo/tests/kfuzz/kfuzz.c" || die "kfuzz build failed"
	ko=$(gaudi_ko) || exit 2
	for o in "$repo"/kernel/gaudi_*.o; do
		nm "$o" | awk -v f="kernel/$(basename "$o" .o).c" \
			'$2 ~ /^[tT]$/ { print $3, f }'
	done >"$out/kfuzz/funcs"
	rm -rf "$out/kfuzz/corpus"
	cp -r "$repo/tests/kfuzz/corpus" "$out/kfuzz/corpus"
	if [ -n "${REPRO:-}" ]; then
		[ -e "$REPRO" ] || die "no input '$REPRO'"
		rm -rf "$out/kfuzz/input"
		cp -r "$REPRO" "$out/kfuzz/input"
		env="REPRO=1"
	fi
	set -- --add "$ko:/suite/ko/gaudi.ko" \
		--add "$out/kfuzz_bin:/suite/bin/kfuzz" \
		--add "$out/kfuzz:/suite/kfuzz" "$@"
	env="$env GAUDI_KO=/suite/ko/gaudi.ko BIN=/suite/bin FUZZ_S=${FUZZ_S:-60}"
	[ -z "${KCOV:-}" ] || env="$env KCOV=$KCOV"
	;;
unplug)
	# The card removed under a busy holder (issue 10), gaudi.ko (GAUDI_KO
	# or built from kernel/).
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" \
		-o "$out/gaudi_unplug_test" "$suite_dir/gaudi_unplug_test.c" \
		-lpthread
	ko=$(gaudi_ko) || exit 2
	set -- --add "$ko:/suite/ko/gaudi.ko" \
		--add "$out/gaudi_unplug_test:/suite/bin/gaudi_unplug_test" "$@"
	env="GAUDI_KO=/suite/ko/gaudi.ko BIN=/suite/bin"
	[ -z "${ROUNDS:-}" ] || env="$env ROUNDS=$ROUNDS"
	[ -z "${HOTPLUG_ROUNDS:-}" ] || env="$env HOTPLUG_ROUNDS=$HOTPLUG_ROUNDS"
	# Hot-unplug through QMP on the guest's request.
	set -- --hotplug "$@"
	;;
dos)
	# Denial of service through the control node, on gaudi.ko (GAUDI_KO
	# or built from kernel/), one card.
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" -I "$repo/uapi" \
		-o "$out/gaudi_dos_test" "$suite_dir/gaudi_dos_test.c" -lpthread
	ko=$(gaudi_ko) || exit 2
	set -- --add "$ko:/suite/ko/gaudi.ko" \
		--add "$out/gaudi_dos_test:/suite/bin/gaudi_dos_test" "$@"
	env="GAUDI_KO=/suite/ko/gaudi.ko BIN=/suite/bin"
	;;
security)
	# The attacks and compatibility tests, gaudi.ko (GAUDI_KO or built
	# from kernel/), the kernel-memory canary (module built in its source
	# folder; the outputs are git-ignored) and the upstream peer.  The
	# suite judges dmesg itself after the gaudi.ko phase; what the peer
	# phase leaves there is reported, hence --keep-going.
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" \
		-o "$out/gaudi_sec_test" "$suite_dir/gaudi_sec_test.c" -lpthread
	make -C "$kdir" \
		M="$suite_dir/canary" W=1 modules >&2 ||
		die "gaudi_canary.ko build failed"
	ko=$(gaudi_ko) || exit 2
	peer=$(peer_ko) || peer=
	set -- --add "$ko:/suite/ko/gaudi.ko" \
		--add "$suite_dir/canary/gaudi_canary.ko:/suite/ko/gaudi_canary.ko" \
		--add "$out/gaudi_sec_test:/suite/bin/gaudi_sec_test" \
		--keep-going "$@"
	env="GAUDI_KO=/suite/ko/gaudi.ko CANARY_KO=/suite/ko/gaudi_canary.ko BIN=/suite/bin"
	if [ -f "$peer" ]; then
		set -- --add "$peer:/suite/peer/habanalabs-peer.ko" "$@"
		env="$env PEER_KO=/suite/peer/habanalabs-peer.ko"
	fi
	;;
tools)
	# gaudi-smi on libgaudi (both linked with an rpath, so that gaudi-vm
	# copies the library to the same path in the guest), the suite's
	# helpers, gaudi.ko (GAUDI_KO or built from kernel/); the model's test
	# hooks inject the events of the --health checks.
	make -s -C "$repo/tools/smi" >&2 || die "gaudi-smi build failed"
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" -I "$repo/uapi" \
		-o "$out/gaudi_tools_test" "$suite_dir/gaudi_tools_test.c"
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" -I "$repo/uapi" \
		-o "$out/gaudi_acct_test" "$suite_dir/gaudi_acct_test.c"
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" -I "$repo/uapi" \
		-o "$out/gaudi_model_ctl" "$repo/tests/guest/driver/gaudi_model_ctl.c"
	ko=$(gaudi_ko) || exit 2
	set -- --add "$repo/build/tools/gaudi-smi:/suite/bin/gaudi-smi" \
		--add "$out/gaudi_tools_test:/suite/bin/gaudi_tools_test" \
		--add "$out/gaudi_acct_test:/suite/bin/gaudi_acct_test" \
		--add "$out/gaudi_model_ctl:/suite/bin/gaudi_model_ctl" \
		--add "$ko:/suite/ko/gaudi.ko" \
		--device-opts test-hooks=on "$@"
	env="GAUDI_KO=/suite/ko/gaudi.ko BIN=/suite/bin${UPDATE_GOLDEN:+ UPDATE_GOLDEN=1}"
	;;
fw)
	# gaudi-fw (static libgaudi), the test images and gaudi.ko (GAUDI_KO
	# or built from kernel/).  VM reboots: tests/guest/fw/reboot.sh.
	make -s -C "$repo/tools/fw" >&2 || die "gaudi-fw build failed"
	"$suite_dir/mkimages.sh" "$out/img" >&2 || die "test images failed"
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" -I "$repo/uapi" \
		-o "$out/flash_ioctl_test" "$suite_dir/flash_ioctl_test.c"
	ko=$(gaudi_ko) || exit 2
	set -- --add "$ko:/suite/ko/gaudi.ko" \
		--add "$repo/build/tools/fw/gaudi-fw:/suite/bin/gaudi-fw" \
		--add "$out/flash_ioctl_test:/suite/bin/flash_ioctl_test" \
		--add "$out/img:/suite/img" "$@"
	env="GAUDI_KO=/suite/ko/gaudi.ko BIN=/suite/bin IMG=/suite/img"
	;;
nic)
	# The DL1 wiring of the NIC ports (issue 12), seen through gaudi.ko's
	# debugfs register window (GAUDI_KO or built from kernel/).
	$cc -O2 -Wall -Wextra -Werror -I "$repo/hw" -I "$repo/tests/lib" \
		-o "$out/gaudi_nic_frame" "$suite_dir/gaudi_nic_frame.c"
	$cc -O2 -Wall -Wextra -Werror -o "$out/gaudi_en_stale" \
		"$suite_dir/gaudi_en_stale.c"
	ko=$(gaudi_ko) || exit 2
	make -s -C "$repo/tools/smi" >&2 || die "gaudi-smi build failed"
	en_ko=$(dirname "$ko")/en/gaudi_en.ko
	[ -f "$en_ko" ] || die "$en_ko missing (a kernel without networking?)"
	for tool in ip ethtool; do
		command -v "$tool" >/dev/null ||
			die "$tool missing (tools/host/install-deps.sh)"
	done
	set -- --add "$ko:/suite/ko/gaudi.ko" \
		--add "$en_ko:/suite/ko/gaudi_en.ko" \
		--add "$out/gaudi_nic_frame:/suite/bin/gaudi_nic_frame" \
		--add "$out/gaudi_en_stale:/suite/bin/gaudi_en_stale" \
		--add "$(command -v ip):/suite/bin/ip" \
		--add "$(command -v ethtool):/suite/bin/ethtool" \
		--add "$repo/build/tools/gaudi-smi:/suite/bin/gaudi-smi" \
		--nic dl1 --hotplug "$@"
	env="GAUDI_KO=/suite/ko/gaudi.ko GAUDI_EN_KO=/suite/ko/gaudi_en.ko BIN=/suite/bin"
	;;
roce)
	# RoCE connections through DRM_IOCTL_GAUDI_NIC (issue 13) over the
	# DL1 wiring: card 0 port 0 to card 1 port 0, so two cards do.
	[ -n "${CARDS:-}" ] || cards=2
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" -I "$repo/uapi" \
		-o "$out/gaudi_roce_test" "$suite_dir/gaudi_roce_test.c"
	# libgaudi's example all-reduce (rpath: gaudi-vm copies the library).
	make -s -C "$repo/userspace" all examples >&2 ||
		die "libgaudi or its examples failed to build"
	# Every ordered pair of cards, on libgaudi's NIC API.
	# shellcheck disable=SC2046 # pkg-config's flags are words
	$cc -O2 -Wall -Wextra -Werror -I "$repo/userspace/include" \
		-I "$repo/uapi" -I "$repo/hw" -I "$repo/tests/lib" \
		$(pkg-config --cflags libdrm) -o "$out/gaudi_roce_pairs" \
		"$suite_dir/gaudi_roce_pairs.c" -L "$repo/build/userspace" \
		-lgaudi -Wl,-rpath,"$repo/build/userspace"
	ko=$(gaudi_ko) || exit 2
	en_ko=$(dirname "$ko")/en/gaudi_en.ko
	[ -f "$en_ko" ] || die "$en_ko missing (a kernel without networking?)"
	command -v ip >/dev/null || die "ip missing (tools/host/install-deps.sh)"
	set -- --add "$ko:/suite/ko/gaudi.ko" \
		--add "$en_ko:/suite/ko/gaudi_en.ko" \
		--add "$out/gaudi_roce_test:/suite/bin/gaudi_roce_test" \
		--add "$repo/build/userspace/examples/gaudi_allreduce:/suite/bin/gaudi_allreduce" \
		--add "$out/gaudi_roce_pairs:/suite/bin/gaudi_roce_pairs" \
		--add "$(command -v ip):/suite/bin/ip" \
		--nic dl1 "$@"
	env="GAUDI_KO=/suite/ko/gaudi.ko GAUDI_EN_KO=/suite/ko/gaudi_en.ko BIN=/suite/bin${FUZZ:+ FUZZ=$FUZZ}${PAIRS_SEED:+ PAIRS_SEED=$PAIRS_SEED}"
	# The per-port RoCE counters (counters.sh): a libgaudi program,
	# ethtool and gaudi-smi.
	make -s -C "$repo/tools/smi" >&2 || die "gaudi-smi build failed"
	command -v ethtool >/dev/null ||
		die "ethtool missing (tools/host/install-deps.sh)"
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" -I "$repo/uapi" \
		-I "$repo/userspace/include" -o "$out/gaudi_roce_counters" \
		"$suite_dir/gaudi_roce_counters.c" -L "$repo/build/userspace" \
		-lgaudi -Wl,-rpath,"$repo/build/userspace"
	set -- --add "$out/gaudi_roce_counters:/suite/bin/gaudi_roce_counters" \
		--add "$(command -v ethtool):/suite/bin/ethtool" \
		--add "$repo/build/tools/gaudi-smi:/suite/bin/gaudi-smi" "$@"
	;;
rdma)
	# gaudi_ib.ko (issue 25): the RDMA devices through rdma-core's tools
	# and the project's provider, over the DL1 cable card 0 port 0 to
	# card 1 port 0 (two cards do).
	[ -n "${CARDS:-}" ] || cards=2
	ko=$(gaudi_ko) || exit 2
	en_ko=$(dirname "$ko")/en/gaudi_en.ko
	ib_ko=$(dirname "$ko")/ib/gaudi_ib.ko
	[ -f "$en_ko" ] && [ -f "$ib_ko" ] ||
		die "$en_ko or $ib_ko missing (a kernel without networking or ib_core?)"
	make -s -C "$repo/userspace" >&2 || die "libgaudi build failed"
	make -s -C "$repo/userspace/verbs" >&2 || die "the verbs provider failed to build"
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" -I "$repo/uapi" \
		-o "$out/gaudi_ib_test" "$suite_dir/gaudi_ib_test.c" -libverbs
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" \
		-o "$out/gaudi_verbs_test" "$repo/tests/verbs/gaudi_verbs_test.c" \
		-libverbs
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" -I "$repo/uapi" \
		-o "$out/gaudi_ib_kverbs_test" \
		"$repo/tests/verbs/gaudi_ib_kverbs_test.c" -libverbs
	$cc -O2 -Wall -Wextra -Werror -I "$repo/tests/lib" -I "$repo/uapi" \
		-I "$repo/userspace/include" -o "$out/gaudi_roce_counters" \
		"$repo/tests/guest/roce/gaudi_roce_counters.c" \
		-L "$repo/build/userspace" -lgaudi \
		-Wl,-rpath,"$repo/build/userspace"
	# The provider where Debian's libibverbs looks for it, named by its
	# .driver file as make install names it there.
	provdir=$(pkg-config --variable=libdir libibverbs)/libibverbs
	echo "driver gaudi" >"$out/gaudi.driver"
	# rdma-core's and perftest's programs (verbs-tools.sh), with their
	# libraries.
	vtools="ibv_rc_pingpong ib_write_bw ib_read_bw ib_send_bw ib_write_lat"
	for tool in ip ethtool ibv_devices ibv_devinfo rdma $vtools; do
		command -v "$tool" >/dev/null ||
			die "$tool missing (tools/host/install-deps.sh)"
		set -- --add "$(command -v "$tool"):/suite/bin/$tool" "$@"
	done
	set -- --add "$ko:/suite/ko/gaudi.ko" \
		--add "$en_ko:/suite/ko/gaudi_en.ko" \
		--add "$ib_ko:/suite/ko/gaudi_ib.ko" \
		--add "$out/gaudi_ib_test:/suite/bin/gaudi_ib_test" \
		--add "$out/gaudi_ib_kverbs_test:/suite/bin/gaudi_ib_kverbs_test" \
		--add "$out/gaudi_verbs_test:/suite/bin/gaudi_verbs_test" \
		--add "$out/gaudi_roce_counters:/suite/bin/gaudi_roce_counters" \
		--add "$repo/build/verbs/libgaudi-rdmav34.so:$provdir/libgaudi-rdmav34.so" \
		--add "$out/gaudi.driver:/etc/libibverbs.d/gaudi.driver" \
		--nic dl1 "$@"
	env="GAUDI_KO=/suite/ko/gaudi.ko GAUDI_EN_KO=/suite/ko/gaudi_en.ko GAUDI_IB_KO=/suite/ko/gaudi_ib.ko BIN=/suite/bin"
	[ -z "${VERBS_TODO+set}" ] || env="$env VERBS_TODO='$VERBS_TODO'"
	[ -z "${VERBS_TODO_SEND+set}" ] || env="$env VERBS_TODO_SEND='$VERBS_TODO_SEND'"
	;;
esac

# Guest CPUs (SMP overrides): 4 for the suites whose threads and processes
# race in the kernel, so that they really run in parallel (TCG runs one
# host thread per vCPU), else 1.  The DMA variants: IOMMU=strict|lazy (a
# guest IOMMU; the cs suite then also provokes an IOMMU fault on purpose)
# and SWIOTLB=1 (swiotlb=force; or a slab count).
case $suite in
cs | lib | driver | security) smp=${SMP:-4} ;;
*) smp=${SMP:-1} ;;
esac
set -- --smp "$smp" "$@"
if [ -n "${IOMMU:-}" ] && [ "$IOMMU" != off ]; then
	set -- --iommu "$IOMMU" "$@"
	env="$env IOMMU=$IOMMU"
fi
case ${SWIOTLB:-} in
'' | 0) ;;
1) set -- --swiotlb "$@" ;;
*) set -- "--swiotlb=$SWIOTLB" "$@" ;;
esac
[ -z "${SWIOTLB:-}" ] || [ "$SWIOTLB" = 0 ] || env="$env SWIOTLB=$SWIOTLB"

exec "$repo/tools/vm/gaudi-vm" --driver none --cards "$cards" \
	--timeout "$timeout" --add "$suite_dir:/suite/$suite" \
	--add "$repo/tests/lib/tap.sh:/suite/tap.sh" \
	--add "$repo/tests/guest/lib.sh:/suite/lib.sh" "$@" \
	--cmd "CARDS=$cards TAP_SH=/suite/tap.sh $env sh /suite/$suite/suite.sh"
