#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build a host bench of the device model: the C file of this folder named
# by NAME (without .c), with the engines of emulator/core and the unit
# tests' fake bus, optimised as QEMU
# builds them (-O2), trace events compiled away, into build/bench/NAME.
# Used by roce-bench.sh (roce_model_bench) and run-bench.sh (model_bench).
#
#   tests/bench/host-bench-build.sh NAME
#
# Environment: CC (a command, split into words as make splits it).
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=$repo/build/bench
cc=${CC:-gcc}
mkdir -p "$out/trace"
/usr/bin/python3 "$repo/emulator/qemu/trace-stubs.py" \
	"$repo/emulator/qemu/trace-events" >"$out/trace/trace.h"
# shellcheck disable=SC2046,SC2086
$cc -std=gnu11 -O2 -Wall -Wextra -Werror -I "$repo/emulator/core" \
	-I "$repo/firmware/fit" -I "$repo/hw" -I "$repo/tests/lib" \
	-I "$repo/tests/emulator" -I "$out/trace" $(pkg-config --cflags glib-2.0) \
	-o "$out/$1" "$repo/tests/bench/$1.c" \
	"$repo/tests/emulator/fakebus.c" "$repo"/emulator/core/*.c \
	"$repo"/firmware/fit/*.c $(pkg-config --libs glib-2.0 nettle zlib) -lfdt
