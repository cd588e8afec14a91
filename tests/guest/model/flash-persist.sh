#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The model's SPI flash persists in its backing file across VM restarts:
# boot 1 reads the erased chip through BAR2, writes a word; boot 2 reads the
# word back.  No driver is loaded: the guest enables the PCI function
# through sysfs and uses busybox devmem on BAR2's lower half (flash window).
# TAP, closing line "N passed, N failed".
set -u

repo=$(cd "$(dirname "$0")/../../.." && pwd)
: "${GAUDI_QEMU:=$(cat "$repo/build/qemu-path" 2>/dev/null)}"
export GAUDI_QEMU
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$repo/tests/lib/tap.sh"

# Word 0x100 of the flash window; the argument is written after the read.
guest='d=$(for x in /sys/bus/pci/devices/*; do
	[ "$(cat $x/vendor)" = 0x1da3 ] && echo $x; done)
echo 1 > $d/enable
bar2=$(sed -n 3p $d/resource | cut -d" " -f1)
echo "flash-word=$(devmem $((bar2 + 0x100)) 32)"
[ -z "$WRITE" ] || devmem $((bar2 + 0x100)) 32 $WRITE
echo "flash-word=$(devmem $((bar2 + 0x100)) 32)"'

boot() {	# boot WRITE_VALUE: prints the flash-word lines
	"$repo/tools/vm/gaudi-vm" --cards 1 --driver none --flash-dir "$dir" \
		--timeout 120 --cmd "WRITE=$1; $guest" 2>&1 |
		sed -n 's/^flash-word=//p'
}

first=$(boot 0xA5A55A5A)
[ "$(echo "$first" | sed -n 1p)" = 0xFFFFFFFF ]
ok $? "a new flash file reads erased (0xFFFFFFFF): $(echo $first)"
[ "$(echo "$first" | sed -n 2p)" = 0xA5A55A5A ]
ok $? "a word written through BAR2 reads back"
[ "$(stat -c %s "$dir/card0.flash")" -eq $((64 << 20)) ]
ok $? "the backing file holds the 64 MiB flash window"
second=$(boot "")
[ "$(echo "$second" | sed -n 1p)" = 0xA5A55A5A ]
ok $? "the word survives a VM restart: $(echo $second)"
truncate -s 1M "$dir/card0.flash"
"$repo/tools/vm/gaudi-vm" --cards 1 --driver none --flash-dir "$dir" \
	--timeout 60 --cmd true >"$dir/bad.log" 2>&1
st=$?
[ "$st" -ne 0 ] && grep -q "flash file must be" "$dir/bad.log"
ok $? "a flash file of the wrong size is refused with a clear error (status $st)"

tap_done
