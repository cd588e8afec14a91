#!/bin/bash
# Install, idempotently, every Debian package the project needs on a Debian 12 host:
# Linux 6.12 (image, headers, source, uapi headers) and QEMU's source from
# bookworm-backports, build tools, guest userland (busybox, kmod), firmware tools,
# rdma-core's libibverbs-dev (the verbs provider builds against it) and tools.
set -euo pipefail

BACKPORTS=/etc/apt/sources.list.d/gaudi-bookworm-backports.sources
PKGS_BP=(
	linux-image-amd64 linux-headers-amd64 linux-source-6.12 linux-libc-dev
	meson python3-pycotap
)
PKGS=(
	build-essential bc bison flex cpio xz-utils pkg-config git ninja-build
	python3 python3-venv python3-docutils sparse
	busybox-static kmod u-boot-tools device-tree-compiler libfdt-dev clang
	libglib2.0-dev libpixman-1-dev libslirp-dev zlib1g-dev
	seabios qemu-system-data
	dkms
	libdrm-dev libudev-dev libkmod-dev lm-sensors
	gcc-multilib
	iproute2 ethtool tshark
	libibverbs-dev ibverbs-utils
	debhelper dh-dkms lintian fakeroot dpkg-dev
)

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: must run as root (apt-get)" >&2
	exit 1
fi

missing() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			echo "$p"
	done
}

# A package that is installed but not from backports (e.g. linux-libc-dev 6.1)
# does not count for the backports set: check for the 6.12 bits instead.
need_bp=0
[ -n "$(missing "${PKGS_BP[@]}")" ] && need_bp=1
[ -f /usr/include/drm/habanalabs_accel.h ] || need_bp=1
ls /lib/modules/6.12.*/build >/dev/null 2>&1 || need_bp=1

need=$(missing "${PKGS[@]}")
if [ "$need_bp" = 0 ] && [ -z "$need" ]; then
	exit 0
fi

export DEBIAN_FRONTEND=noninteractive
if [ ! -f "$BACKPORTS" ]; then
	cat >"$BACKPORTS" <<SRC
Types: deb deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
apt-get update -q
# shellcheck disable=SC2086
[ -n "$need" ] && apt-get install -y -q --no-install-recommends $need
apt-get install -y -q --no-install-recommends -t bookworm-backports "${PKGS_BP[@]}"
