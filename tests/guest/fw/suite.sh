#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# gaudi-fw in the guest (tests/guest/run-suite.sh fw), with gaudi.ko:
#   1  verify: the good images pass, each corruption is refused with its
#      own message and exit code
#   2  install and rollback in /lib/firmware: a driver reload boots the
#      installed boot-fit, rollback brings the previous one back
#   3  flash: refused while the compute node is held (names the holder),
#      allowed with --force; flash_ioctl_test: the ioctl's negative cases
#      (reserved fields, ranges, pointers, EBUSY, EPERM), NOR semantics
#   4  flash killed (kill -9) while writing: the record and the next boot
#      slot are unchanged and a hard reset still boots the old preboot;
#      a complete flash and a hard reset report the new preboot
#   5  load: a driver loaded with fw_fallback=1 waits for a missing
#      gaudi-fit.itb and gaudi-fw load supplies it; --cancel refuses
# VM reboots with one flash directory: tests/guest/fw/reboot.sh.
# Environment: GAUDI_KO, BIN (gaudi-fw), IMG (mkimages.sh output), CARDS.
# TAP, closing line "N passed, N failed".
set -u

FW=${BIN:-/suite/bin}/gaudi-fw
IMG=${IMG:-/suite/img}
KO=${GAUDI_KO:-/suite/ko/gaudi.ko}
CARDS=${CARDS:-2}
FWDIR=/lib/firmware/habanalabs/gaudi
T=/tmp/fwsuite
mkdir -p $T
# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "${TAP_SH:-$(dirname "$0")/../../lib/tap.sh}"

count_nodes() {
	c=0
	for f in /dev/accel/accel[0-9]*; do [ -c "$f" ] && c=$((c + 1)); done
	echo $c
}

wait_nodes() {	# wait_nodes N [SECONDS]
	i=0
	while [ "$(count_nodes)" -lt "$1" ] && [ $i -lt $((${2:-60} * 10)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(count_nodes)" -ge "$1" ]
}

load() {	# load [params...]
	deps=$(modinfo -F depends "$KO" 2>/dev/null | tr ',' ' ')
	# shellcheck disable=SC2086
	[ -z "$deps" ] || modprobe -a $deps
	insmod "$KO" "$@"
}

unload() {
	rmmod gaudi 2>/dev/null
	i=0
	while grep -q "^gaudi " /proc/modules && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
		rmmod gaudi 2>/dev/null
	done
}

bdf() {	# bdf INDEX: PCI bus id of the card at that position
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor")" = 0x1da3 ] && echo "${d##*/}"
	done | sort | sed -n "$(($1 + 1))p"
}

# run STATUS PATTERN DESCRIPTION -- ARGS...: exit status and message
run() {
	want=$1 pat=$2 what=$3
	shift 4
	"$FW" "$@" >$T/out 2>$T/err
	st=$?
	[ "$st" -eq "$want" ] && grep -q -- "$pat" $T/out $T/err
	ok $? "$what (exit $st: $(head -n 1 $T/err))"
}

load && wait_nodes "$CARDS"
ok $? "gaudi.ko loaded, $(count_nodes) of $CARDS cards up"

# ---- 1 verify ------------------------------------------------------------
diag "1: verify"
run 0 "preboot:  gaudi-open-btl 0.1.0" "verify the installed boot-fit" -- \
	verify $FWDIR/gaudi-boot-fit.itb
run 0 "cpucp:" "verify the installed fit" -- verify $FWDIR/gaudi-fit.itb
run 0 "0.3.0" "verify a 1 MiB boot-fit" -- verify $IMG/v3/habanalabs/gaudi/gaudi-boot-fit.itb
run 12 "truncated: image: totalsize" "truncated: own message, exit 12" -- \
	verify $IMG/bad/truncated.itb
run 11 "bad magic" "bad magic: exit 11" -- verify $IMG/bad/magic.itb
run 13 "malformed structure" "malformed: exit 13" -- verify $IMG/bad/malformed.itb
run 14 "missing node or property: no usable gaudi,preboot-version" \
	"missing property: exit 14" -- verify $IMG/bad/node.itb
run 15 "hash mismatch: image boot-loader: sha256 digest differs" \
	"flipped payload bit: hash mismatch naming the image, exit 15" -- \
	verify $IMG/bad/hash.itb
run 16 'algo "sha257"' "unknown hash algorithm: exit 16" -- verify $IMG/bad/algo.itb
run 17 "wrong target" "other device: wrong target, exit 17" -- \
	verify $IMG/bad/target.itb
run 18 "wrong image kind: expected boot-fit" "fit as boot-fit: wrong kind, exit 18" -- \
	verify -k boot-fit $IMG/bad/kind.itb
run 20 "not a multiple of 4" "odd size: exit 20" -- verify $IMG/bad/size.itb
run 20 "empty file" "empty file: exit 20" -- verify $IMG/bad/empty.itb

# ---- 2 install / rollback ------------------------------------------------
diag "2: install and rollback"
b0=$(bdf 0)
run 0 "installed" "install the 0.2.0 boot-fit" -- \
	install $IMG/v2/habanalabs/gaudi/gaudi-boot-fit.itb
cmp -s $FWDIR/gaudi-boot-fit.itb $IMG/v2/habanalabs/gaudi/gaudi-boot-fit.itb &&
	[ -f $FWDIR/gaudi-boot-fit.itb.prev ]
ok $? "the new file is in place, the old one kept as .prev"
run 15 "not installed" "install refuses a corrupt image" -- install $IMG/bad/hash.itb
cmp -s $FWDIR/gaudi-boot-fit.itb $IMG/v2/habanalabs/gaudi/gaudi-boot-fit.itb
ok $? "a refused install leaves the installed file alone"
unload && load && wait_nodes "$CARDS"
grep -q "fw-0.2.0-fwtest" /sys/bus/pci/devices/$b0/uboot_ver
ok $? "after a reload the card runs the installed boot-fit: $(cat /sys/bus/pci/devices/$b0/uboot_ver)"
run 0 "gaudi-boot-fit.itb.prev" "info shows installed and previous files" -- info
run 0 "restored" "rollback" -- rollback
unload && load && wait_nodes "$CARDS"
grep -q "fw-0.1.0" /sys/bus/pci/devices/$b0/uboot_ver
ok $? "after rollback and reload the previous boot-fit runs: $(cat /sys/bus/pci/devices/$b0/uboot_ver)"

# ---- 3 busy -----------------------------------------------------------------
diag "3: flash refused while the card is in use"
node=$(ls /sys/bus/pci/devices/$b0/accel 2>/dev/null | grep -v control | head -n 1)
sleep 600 </dev/accel/$node &
holder=$!
sleep 0.5
run 4 "in use by pid $holder (" "flash card 0 while held: refused, holder named" -- \
	flash -i 0 --yes $IMG/v2/habanalabs/gaudi/gaudi-boot-fit.itb
run 0 "record:   none" "the refused flash wrote nothing" -- info -i 0
run 0 "slot 0 active" "flash --force while held" -- \
	flash -i 0 --yes --force $IMG/v2/habanalabs/gaudi/gaudi-boot-fit.itb
kill $holder
wait $holder 2>/dev/null
run 9 "not confirmed" "flash without --yes and no terminal: exit 9" -- \
	flash -i 0 $IMG/v2/habanalabs/gaudi/gaudi-boot-fit.itb </dev/null

# ---- uapi ---------------------------------------------------------------------
diag "3b: DRM_IOCTL_GAUDI_FLASH negative cases (flash_ioctl_test, card 0)"
ctl=$(ls /sys/bus/pci/devices/$b0/accel 2>/dev/null | grep control | head -n 1)
# Each of its results is one test here (tap_sub_each).
tap_sub_each "flash ioctl" ${BIN:-/suite/bin}/flash_ioctl_test \
	/dev/accel/$ctl /dev/accel/$node

# ---- 4 kill -9 while writing -------------------------------------------------
diag "4: flash killed while writing"
c=1
[ "$CARDS" -ge 2 ] || c=0
bc=$(bdf $c)
run 0 "slot 0 active" "card $c: flash 0.2.0 (the old image)" -- \
	flash -i $c --yes $IMG/v2/habanalabs/gaudi/gaudi-boot-fit.itb
echo 1 > /sys/bus/pci/devices/$bc/hard_reset
grep -q "0.2.0 Preboot" /sys/bus/pci/devices/$bc/preboot_btl_ver
ok $? "card $c: after a hard reset the flashed preboot runs: $(cat /sys/bus/pci/devices/$bc/preboot_btl_ver)"
"$FW" info -i $c > $T/before
GAUDI_FW_TEST_DELAY_MS=300 "$FW" flash -i $c --yes \
	$IMG/v3/habanalabs/gaudi/gaudi-boot-fit.itb > $T/kill.log 2>&1 &
pid=$!
i=0
while ! grep -q "writing slot" $T/kill.log && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 1
kill -9 $pid
wait $pid 2>/dev/null
st=$?
grep -q "writing slot 1" $T/kill.log && [ "$st" -eq 137 ]
ok $? "gaudi-fw killed with -9 while writing slot 1 (status $st)"
"$FW" info -i $c > $T/after
grep "record\|next" $T/before > $T/b1
grep "record\|next" $T/after > $T/a1
cmp -s $T/b1 $T/a1
ok $? "record and next boot slot unchanged: $(tr '\n' ' ' < $T/a1)"
grep -q "flash slot 1 empty or invalid" $T/after
ok $? "the half-written slot 1 is reported invalid"
echo 1 > /sys/bus/pci/devices/$bc/hard_reset
grep -q "0.2.0 Preboot" /sys/bus/pci/devices/$bc/preboot_btl_ver
ok $? "after a hard reset the old preboot still runs: $(cat /sys/bus/pci/devices/$bc/preboot_btl_ver)"
run 0 "slot 1 active" "the flash run again completes" -- \
	flash -i $c --yes $IMG/v3/habanalabs/gaudi/gaudi-boot-fit.itb
echo 1 > /sys/bus/pci/devices/$bc/hard_reset
grep -q "0.3.0 Preboot" /sys/bus/pci/devices/$bc/preboot_btl_ver
ok $? "after a hard reset the new preboot runs: $(cat /sys/bus/pci/devices/$bc/preboot_btl_ver)"
run 0 "slot 1 \[running\] \[next boot\]" "info: slot 1 runs and boots next" -- info -i $c

# ---- 5 load through the firmware fallback ------------------------------------
diag "5: load"
unload
mv $FWDIR/gaudi-fit.itb $T/saved-fit.itb
load fw_fallback=1 &
ins=$!
run 0 "loaded gaudi-fit.itb" "load answers the driver's request for gaudi-fit.itb" -- \
	load --wait 15 $T/saved-fit.itb
wait $ins
ok $? "insmod with fw_fallback=1 returned"
wait_nodes "$CARDS" 20
ok $? "every card came up with the loaded image ($(count_nodes) of $CARDS)"
unload
load fw_fallback=1 &
ins=$!
i=0
while ! ls /sys/class/firmware/ | grep -q gaudi-fit && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
mkdir -p $T/badfit
cp $IMG/bad/fit-hash.itb $T/badfit/gaudi-fit.itb
run 15 "refused for gaudi-fit.itb" "load refuses a corrupt image and cancels the request" -- \
	load $T/badfit/gaudi-fit.itb
run 0 "cancelled" "load --cancel refuses what is still pending" -- load --cancel --wait 8
wait $ins
[ "$(count_nodes)" -lt "$CARDS" ]
ok $? "cards whose request was refused did not come up ($(count_nodes) of $CARDS)"
unload
mv $T/saved-fit.itb $FWDIR/gaudi-fit.itb
load && wait_nodes "$CARDS"
ok $? "with the file back every card comes up"
unload

tap_done
