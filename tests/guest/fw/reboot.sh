#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# gaudi-fw flash across VM reboots, one card, one --flash-dir:
#   boot 1  empty flash (built-in preboot); flash 0.2.0
#   boot 2  the card boots 0.2.0; flash 0.3.0, gaudi-fw killed (kill -9)
#           while writing
#   boot 3  still 0.2.0; flash 0.3.0, the VM powered off while writing
#           (isa-debug-exit: QEMU stops at once)
#   boot 4  still 0.2.0; flash 0.3.0, QEMU killed by the host (--timeout)
#   boot 5  still 0.2.0; flash 0.3.0 to the end
#   boot 6  the card boots 0.3.0 from slot 1
# Builds gaudi-fw, the test images and gaudi.ko (GAUDI_KO to use another).
# TAP, closing line "N passed, N failed".
set -u

repo=$(cd "$(dirname "$0")/../../.." && pwd)
: "${GAUDI_QEMU:=$(cat "$repo/build/qemu-path" 2>/dev/null)}"
export GAUDI_QEMU
out=$repo/build/tests/guest/fw
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$repo/tests/lib/tap.sh"

make -s -C "$repo/tools/fw" >&2 || { echo "Bail out! gaudi-fw build"; exit 1; }
"$repo/tests/guest/fw/mkimages.sh" "$out/img" >&2 ||
	{ echo "Bail out! test images"; exit 1; }
ko=${GAUDI_KO:-}
if [ -z "$ko" ]; then
	make -s -C "/lib/modules/${GAUDI_KVER:-6.12.95+deb12-amd64}/build" \
		M="$repo" modules >&2 || { echo "Bail out! gaudi.ko build"; exit 1; }
	ko=$repo/kernel/gaudi.ko
fi
# A private copy: the tree's module may be rebuilt while the VMs run.
cp "$ko" "$dir/gaudi.ko" || { echo "Bail out! no $ko"; exit 1; }
ko=$dir/gaudi.ko
v2=$out/img/v2/habanalabs/gaudi/gaudi-boot-fit.itb
v3=$out/img/v3/habanalabs/gaudi/gaudi-boot-fit.itb

# Guest helpers: the running preboot, and a slow flash of 0.3.0 in the
# background whose progress lines go to /tmp/flash.log.  "marker=writing"
# only when gaudi-fw reported writing slot 1 and is still running: the
# interrupted-flash checks must fail when the flash never started or had
# already ended (then nothing was interrupted).
pre='echo "preboot=$(cat /sys/bus/pci/devices/*/preboot_btl_ver)"'
slow='GAUDI_FW_TEST_DELAY_MS=$DELAY gaudi-fw flash --yes /root/v3.itb \
	>/tmp/flash.log 2>&1 & pid=$!
i=0; while ! grep -q "writing slot" /tmp/flash.log && [ $i -lt 600 ]; do
	sleep 0.1; i=$((i + 1)); done
sleep 1; cat /tmp/flash.log
grep -q "writing slot 1" /tmp/flash.log && kill -0 $pid && echo "marker=writing"'

boot() {	# boot LOG TIMEOUT 'guest command'
	"$repo/tools/vm/gaudi-vm" --cards 1 --driver gaudi --gaudi-ko "$ko" \
		--flash-dir "$dir" --timeout "$2" \
		--add "$repo/build/tools/fw/gaudi-fw:/usr/bin/gaudi-fw" \
		--add "$v2:/root/v2.itb" --add "$v3:/root/v3.itb" \
		--cmd "$3" >"$1" 2>&1
}

preboot() { sed -n 's/^preboot=//p' "$1" | head -n 1; }

boot "$dir/b1.log" 300 "$pre; gaudi-fw flash --yes /root/v2.itb"
st=$?
ok $st "boot 1: flash 0.2.0 into the empty flash (status $st)"
grep -q "no flash image" <<<"$(preboot "$dir/b1.log")"
ok $? "boot 1: the empty flash runs the built-in preboot: $(preboot "$dir/b1.log")"

boot "$dir/b2.log" 300 "$pre; DELAY=300; $slow; kill -9 \$pid; wait \$pid; \
	echo killed=\$?; gaudi-fw info"
grep -q "0.2.0 Preboot" <<<"$(preboot "$dir/b2.log")"
ok $? "boot 2: after a reboot the flashed 0.2.0 runs: $(preboot "$dir/b2.log")"
grep -q "writing slot 1" "$dir/b2.log" && grep -q "^killed=137" "$dir/b2.log"
ok $? "boot 2: gaudi-fw killed with -9 while writing slot 1"

boot "$dir/b3.log" 300 "$pre; DELAY=300; $slow; \
	printf '\\060' | dd of=/dev/port bs=1 seek=244 count=1 conv=notrunc; \
	sleep 10; echo not-powered-off"
st=$?
grep -q "0.2.0 Preboot" <<<"$(preboot "$dir/b3.log")"
ok $? "boot 3: the killed flash left 0.2.0 booting: $(preboot "$dir/b3.log")"
grep -q "marker=writing" "$dir/b3.log" && ! grep -q "not-powered-off" "$dir/b3.log"
ok $? "boot 3: VM powered off while gaudi-fw was writing (status $st)"

boot "$dir/b4.log" 40 "$pre; DELAY=4000; $slow; sleep 300"
st=$?
grep -q "marker=writing" "$dir/b3.log" &&
	grep -q "0.2.0 Preboot" <<<"$(preboot "$dir/b4.log")"
ok $? "boot 4: the powered-off flash left 0.2.0 booting: $(preboot "$dir/b4.log")"
[ "$st" -eq 124 ] && grep -q "marker=writing" "$dir/b4.log"
ok $? "boot 4: QEMU killed by the host timeout while writing (status $st)"

boot "$dir/b5.log" 300 "$pre; gaudi-fw flash --yes /root/v3.itb"
st=$?
grep -q "marker=writing" "$dir/b4.log" &&
	grep -q "0.2.0 Preboot" <<<"$(preboot "$dir/b5.log")"
ok $? "boot 5: QEMU killed mid-flash left 0.2.0 booting: $(preboot "$dir/b5.log")"
[ "$st" -eq 0 ] && grep -q "slot 1 active" "$dir/b5.log"
ok $? "boot 5: flash 0.3.0 to the end (status $st)"

boot "$dir/b6.log" 300 "$pre; gaudi-fw info"
grep -q "0.3.0 Preboot" <<<"$(preboot "$dir/b6.log")"
ok $? "boot 6: after a reboot the new 0.3.0 runs: $(preboot "$dir/b6.log")"
grep -q "flash slot 1 \[running\] \[next boot\]" "$dir/b6.log"
ok $? "boot 6: info shows slot 1 running and next"

if [ "$failed" -ne 0 ]; then
	for f in "$dir"/b*.log; do
		echo "# ---- $f"
		grep -v "^\[ *[0-9]" "$f" | sed 's/^/# /' | tail -n 25
	done
fi
tap_done
