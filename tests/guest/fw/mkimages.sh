#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Images for the gaudi-fw guest tests, into OUT (default build/tests/guest/fw):
#   v2/, v3/        firmware trees with versions 0.2.0 and 0.3.0 (v3's
#                   boot-fit carries a 1 MiB payload, so that flashing it
#                   takes many transfers and can be interrupted midway)
#   bad/*.itb       one corrupted boot-fit per refusal reason, and a
#                   fit with a bad digest (fit-hash.itb)
# Built with the firmware/ Makefile (mkimage, dtc) and python3.
set -eu
repo=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-$repo/build/tests/guest/fw}
mkdir -p "$out"

make -s -C "$repo/firmware" O="$out/v2" VERSION=0.2.0 TAG=fwtest
rm -rf "$out/src3"
cp -r "$repo/firmware/src" "$out/src3"
python3 -c 'print("".join("filler line %07d of the boot loader\n" % i
	for i in range(26000)), end="")' \
	>> "$out/src3/boot-loader.txt"
make -s -C "$repo/firmware" O="$out/v3" VERSION=0.3.0 TAG=fwtest SRC="$out/src3"

mkdir -p "$out/bad"
python3 - "$repo/build/firmware/habanalabs/gaudi" "$out/bad" <<'PY'
import os, sys
src, dst = sys.argv[1], sys.argv[2]
good = open(os.path.join(src, "gaudi-boot-fit.itb"), "rb").read()
fit = open(os.path.join(src, "gaudi-fit.itb"), "rb").read()

def put(name, data):
    open(os.path.join(dst, name), "wb").write(data)

def sub(data, old, new):
    assert len(old) == len(new) and old in data, old
    return data.replace(old, new, 1)

put("truncated.itb", good[:len(good) // 2 & ~3])
put("magic.itb", b"\0\0\0\0" + good[4:])
b = bytearray(good)
b[good.index(b"The device model checks")] ^= 1	# the payload
put("hash.itb", bytes(b))
b = bytearray(good)
b[int.from_bytes(good[8:12], "big") + 3] = 0x0A	# not an FDT token
put("malformed.itb", bytes(b))
b = bytearray(fit)
b[fit.index(b"The device model")] ^= 1	# the cpucp payload
put("fit-hash.itb", bytes(b))
put("algo.itb", sub(good, b"sha256\0", b"sha257\0"))
put("target.itb", sub(good, b"hl205\0gaudi\0", b"hl206\0gaudx\0"))
put("kind.itb", fit)
put("node.itb", sub(good, b"gaudi,preboot-version", b"gaudi,preboot-versiom"))
put("size.itb", good + b"\0\0")
put("empty.itb", b"")
PY
