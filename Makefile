# Open driver stack for Habana Gaudi 1: top-level build and test entry points.
#
#   make demo      install what is missing, build, boot an emulated DL1 host
#   make check     install what is missing, build, run every test
#   make vmtest SUITE=<name>   one in-guest suite in one VM boot
#   make unit      host unit tests of the device model only
#   make fuzz FUZZ_S=N   the isolation fuzzers for N seconds (default 600),
#                        then the network oracle fuzzer for N seconds
#   make check-broken   deliberately broken driver builds, each caught by a suite
#
# Everything built goes to build/ (QEMU is cached outside the clone, see
# tools/host/build-qemu.sh).

TOP := $(CURDIR)
B := $(TOP)/build
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps qemu firmware peer unit vmtest check run-suites demo clean help kernel userspace install uninstall \
	dkms-source dkms-install dkms-uninstall

help:
	@sed -n '2,14p' Makefile

all: qemu firmware kernel userspace verbs tools

# Idempotent: returns at once when everything is installed.
deps:
	@$(SUDO) $(TOP)/tools/host/install-deps.sh

qemu: deps
	@mkdir -p $(B)
	@$(TOP)/tools/host/build-qemu.sh | tail -n 1 > $(B)/qemu-path.tmp
	@mv $(B)/qemu-path.tmp $(B)/qemu-path
	@echo "QEMU: $$(cat $(B)/qemu-path)"

firmware: deps
	@$(MAKE) -s -C firmware O=$(B)/firmware

# gaudi.ko, out of tree against the installed headers (kernel/gaudi.ko).
# The target kernel: Linux 6.12 (Debian's), else the running one.
KVER ?= $(or $(patsubst /lib/modules/%/build,%,$(firstword $(wildcard /lib/modules/6.12.*/build))),$(shell uname -r))
KDIR ?= /lib/modules/$(KVER)/build
kernel:
	@$(MAKE) -s -C $(KDIR) M=$(TOP) modules

# libgaudi (build/userspace).
userspace:
	@$(MAKE) -s -C userspace

# The rdma-core provider of gaudi_ib.ko's devices (build/verbs).
.PHONY: verbs
verbs: deps
	@$(MAKE) -s -C userspace/verbs

# gaudi-smi (build/tools), on libgaudi.
.PHONY: tools deb
tools: userspace
	@$(MAKE) -s -C tools/smi
	@$(MAKE) -s -C tools/fw

# Installation (Documentation/howto/install.rst): module, uapi header,
# libgaudi, tools, firmware, udev rule, modprobe.d example, with a manifest
# that uninstall follows.  DESTDIR, PREFIX (/usr/local), KVER, FIRMWARE
# (model|kernel|force|no: the model's firmware outside the kernel's search
# path, or also into /lib/firmware) are honoured; root is needed only
# without DESTDIR.
PREFIX ?= /usr/local
FIRMWARE ?= model
GAUDI_VERSION := $(shell cat $(TOP)/VERSION)
INSTALL_SUDO = $(if $(DESTDIR),,$(SUDO))
INSTALL_ENV = DESTDIR='$(DESTDIR)' PREFIX='$(PREFIX)' KVER='$(KVER)' \
	FIRMWARE='$(FIRMWARE)' KO='$(TOP)/kernel/gaudi.ko' \
	FWSRC='$(B)/firmware/habanalabs/gaudi' MAKE='$(MAKE)'
install: kernel userspace verbs firmware
	@$(INSTALL_SUDO) env $(INSTALL_ENV) $(TOP)/tools/install/gaudi-install.sh install

uninstall:
	@$(INSTALL_SUDO) env $(INSTALL_ENV) $(TOP)/tools/install/gaudi-install.sh uninstall

# DKMS (dkms.conf): the module sources in /usr/src/gaudi-$(GAUDI_VERSION),
# built and installed for every kernel that has headers; rebuilt by dkms
# for kernels installed later.  dkms-source DKMS_SRC=DIR only copies them.
DKMS_SRC ?= /usr/src/gaudi-$(GAUDI_VERSION)
DKMS_FILES = dkms.conf VERSION Kbuild kernel/Kbuild uapi/drm/gaudi_accel.h \
	kernel/en/Kbuild kernel/ib/Kbuild uapi/rdma/gaudi_ib_abi.h \
	$(patsubst $(TOP)/%,%,$(wildcard $(TOP)/kernel/*.[ch] $(TOP)/kernel/en/*.[ch] \
		$(TOP)/kernel/ib/*.[ch] $(TOP)/hw/gaudi1/*.h))
dkms-source:
	@$(SUDO) sh -c 'rm -rf $(DKMS_SRC) && mkdir -p $(DKMS_SRC) && \
		cd $(TOP) && cp --parents $(DKMS_FILES) $(DKMS_SRC)/'

# Debian packages (debian/) in build/deb: tools/deb/build-deb.sh.
deb:
	@$(TOP)/tools/deb/build-deb.sh

dkms-install: dkms-source
	@if $(SUDO) dkms status gaudi/$(GAUDI_VERSION) | grep -q .; then \
		$(SUDO) dkms remove gaudi/$(GAUDI_VERSION) --all; fi
	@$(SUDO) dkms add gaudi/$(GAUDI_VERSION)
	@for k in $(patsubst /lib/modules/%/build,%,$(wildcard /lib/modules/*/build)); do \
		$(SUDO) dkms install gaudi/$(GAUDI_VERSION) -k $$k || exit 1; done
	@$(SUDO) dkms status gaudi

dkms-uninstall:
	@if $(SUDO) dkms status gaudi/$(GAUDI_VERSION) | grep -q .; then \
		$(SUDO) dkms remove gaudi/$(GAUDI_VERSION) --all; fi
	@$(SUDO) rm -rf $(DKMS_SRC)

peer: deps
	@$(TOP)/tools/host/build-upstream-peer.sh | tail -n 1

unit: deps firmware
	@$(MAKE) -s -C tests/emulator run

GAUDI_QEMU = $(shell cat $(B)/qemu-path 2>/dev/null)
export GAUDI_QEMU

SUITE ?= upstream
vmtest: all
	@$(TOP)/tests/guest/run-suite.sh $(SUITE)

# The suites, in order; each prints TAP and "N passed, N failed".
SUITES := docs '/usr/bin/python3 tests/docs/check-rst.py' \
	docs-paths '/usr/bin/python3 tests/docs/check-paths.py' \
	docs-versions 'tests/docs/check-versions.sh' \
	calls '/usr/bin/python3 tests/docs/check-calls.py' \
	includes '/usr/bin/python3 tests/docs/check-includes.py' \
	broken-applies 'tests/broken/run.sh --applies' \
	unit 'make -s -C tests/emulator run' \
	userspace 'make -s -C tests/userspace run' \
	verbs-abi '/usr/bin/python3 tests/verbs/check-abi.py' \
	tools-host 'make -s -C tests/tools run' \
	parser 'make -s -C tests/kernel run' \
	isolation 'make -s -C tests/isolation run' \
	fuzz 'make -s -C tests/isolation fuzz FUZZ_S=60' \
	fuzz-net 'make -s -C tests/emulator fuzz-net FUZZ_S=60' \
	model 'tests/guest/model/flash-persist.sh' \
	upstream 'tests/guest/run-suite.sh upstream' \
	compat 'CARDS=1 tests/guest/run-suite.sh compat' \
	driver 'tests/guest/run-suite.sh driver' \
	cs 'tests/guest/run-suite.sh cs' \
	cs-iommu-strict 'IOMMU=strict CARDS=1 tests/guest/run-suite.sh cs' \
	cs-iommu-lazy 'IOMMU=lazy CARDS=1 tests/guest/run-suite.sh cs' \
	cs-swiotlb 'SWIOTLB=1 CARDS=1 tests/guest/run-suite.sh cs' \
	security 'CARDS=2 tests/guest/run-suite.sh security' \
	dos 'CARDS=1 tests/guest/run-suite.sh dos' \
	unplug 'CARDS=2 ROUNDS=3 HOTPLUG_ROUNDS=2 tests/guest/run-suite.sh unplug' \
	nic 'CARDS=8 tests/guest/run-suite.sh nic' \
	nic-two-hosts 'tests/guest/nic/two-hosts.sh' \
	roce 'CARDS=8 tests/guest/run-suite.sh roce' \
	roce-lossy 'CARDS=2 tests/guest/run-suite.sh roce --device-opts roce-drop-every=13,roce-reorder-every=17,roce-corrupt-every=19' \
	roce-interop 'tests/guest/roce-interop/run.sh' \
	rdma 'CARDS=2 tests/guest/run-suite.sh rdma' \
	rdma-interop 'tests/guest/rdma-interop/run.sh' \
	lib 'CARDS=2 tests/guest/run-suite.sh lib' \
	lib-gaudi 'DUT=gaudi CARDS=2 tests/guest/run-suite.sh lib' \
	tools 'tests/guest/run-suite.sh tools' \
	fw-host 'make -s -C tests/fw run' \
	fw 'CARDS=2 tests/guest/run-suite.sh fw' \
	fw-reboot 'tests/guest/fw/reboot.sh' \
	install 'tests/install/test-install.sh' \
	deb 'tests/deb/run.sh'

check: deps
	@$(MAKE) -s all
	@$(MAKE) -s run-suites

# A separate make so that GAUDI_QEMU is read after `all` wrote it.
run-suites:
	@$(TOP)/tests/summarize.sh $(SUITES)

demo: all peer
	@$(TOP)/tools/vm/demo.sh

# Benchmarks, not tests (not part of check): gaudi.ko against the upstream
# peer, one VM per model mode (asynchronous, then sync=on); prints medians,
# ours/upstream ratios, PASS/MISS for each mode.  Then RDMA in one VM and
# between two VMs.
bench: all peer
	@$(TOP)/tests/bench/run-bench.sh
	@$(TOP)/tests/bench/roce-bench.sh
	@$(TOP)/tests/bench/roce-bench-2vm.sh

# The isolation fuzzers (Documentation/security.rst), not part of check
# beyond its 60 s run: the pure parser against its independent decoder,
# then the parser in front of the device model with the transaction
# monitor's oracle (through the parser, then with it bypassed); then the
# network oracle (tests/emulator/netoracle.h) for FUZZ_S more seconds.
FUZZ_S ?= 600
.PHONY: fuzz
fuzz: deps
	@$(MAKE) -s -C tests/kernel fuzz FUZZ_S=$$(($(FUZZ_S) / 3))
	@$(MAKE) -s -C tests/isolation fuzz FUZZ_S=$$(($(FUZZ_S) - $(FUZZ_S) / 3))
	@$(MAKE) -s -C tests/emulator fuzz-net FUZZ_S=$(FUZZ_S)

# The kernel fuzzer (issue 29, Documentation/howto/fuzzing.rst): libFuzzer
# steered by the kcov PCs of gaudi.ko, calling its ioctls on 2 cards in a
# guest of the debug kernel for FUZZ_S seconds; the kernel's reports and
# the isolation oracle fail it.  fuzz-kernel-repro INPUT=FILE replays one
# input with each call traced.
.PHONY: fuzz-kernel fuzz-kernel-repro
fuzz-kernel: deps
	@$(MAKE) -s qemu firmware
	@$(TOP)/tests/kfuzz/run.sh fuzz $(FUZZ_S)

fuzz-kernel-repro: deps
	@[ -n "$(INPUT)" ] || { echo "usage: make fuzz-kernel-repro INPUT=FILE" >&2; exit 2; }
	@$(MAKE) -s qemu firmware
	@$(TOP)/tests/kfuzz/run.sh repro $(INPUT)

# Testing the tests (Documentation/howto/running.rst): gaudi.ko built with
# one deliberate defect at a time, each caught by a suite.
.PHONY: check-broken
check-broken: all
	@$(TOP)/tests/broken/run.sh

clean:
	rm -rf $(B)

# The debug guest kernel (Documentation/howto/running.rst, Debugging):
# Debian's linux-source-6.12 with KASAN, KFENCE, lockdep, DEBUG_ATOMIC_SLEEP,
# kmemleak, UBSAN, DEBUG_LIST/OBJECTS and DMA-API debug, built once by
# tools/host/build-debug-kernel.sh and cached like QEMU.  check-debug (not
# part of check: the cold build is long) runs the driver, cs, security and
# lib suites on it; any KASAN/KFENCE/UBSAN/lockdep/kmemleak report fails the
# suite (gaudi-vm's dmesg and kmemleak checks, exit 99); unplug too.  2
# cards, no upstream peer in cs and security (PEER=none: upstream's own
# lockdep reports, Documentation/upstream-peer.rst), lib against gaudi.ko,
# 2 driver load cycles of 1 card and 3 + 3 + 2 unplug rounds: each
# removal there costs a minute (iounmap of the 32 GiB BAR under
# DEBUG_OBJECTS); then DEBUG_FUZZ_S seconds of the kernel fuzzer
# (fuzz-kernel).  DEBUG_TIMEOUT: host-side seconds per suite.
.PHONY: debug-kernel check-debug run-debug-suites
DEBUG_TIMEOUT ?= 5400
# Seconds of the kernel fuzzer (make fuzz-kernel) in check-debug.
DEBUG_FUZZ_S ?= 120
# run-debug-suites DEBUG_KERNEL=checked: the same suites on Debian's kernel
# with its built-in slab checks and KFENCE on (no kernel build).
DEBUG_KERNEL ?= debug
DEBUG_SUITES := \
	driver 'CARDS=2 CYCLES=2 CYCLE_CARDS=1 tests/guest/run-suite.sh driver' \
	cs 'PEER=none CARDS=2 tests/guest/run-suite.sh cs' \
	security 'PEER=none CARDS=2 tests/guest/run-suite.sh security' \
	lib-gaudi 'DUT=gaudi CARDS=2 tests/guest/run-suite.sh lib' \
	unplug 'CARDS=2 ROUNDS=3 HOTPLUG_ROUNDS=2 tests/guest/run-suite.sh unplug' \
	kfuzz 'tests/kfuzz/run.sh fuzz $(DEBUG_FUZZ_S)'

debug-kernel: deps
	@$(TOP)/tools/host/build-debug-kernel.sh

check-debug: deps
	@$(MAKE) -s qemu firmware userspace tools
	@kdir=$$($(TOP)/tools/host/build-debug-kernel.sh | sed -n 's/^KDIR=//p') && \
		[ -n "$$kdir" ] && $(MAKE) -s kernel KDIR=$$kdir
	@$(MAKE) -s run-debug-suites

run-debug-suites:
	@GAUDI_KERNEL=$(DEBUG_KERNEL) TIMEOUT=$(DEBUG_TIMEOUT) \
		$(TOP)/tests/summarize.sh $(DEBUG_SUITES)
