#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest suite "nic" (issue 12): the emulated DL1 wiring of the cards' NIC
# ports (gaudi-vm --nic dl1, Documentation/emulator/nic.rst), seen through
# gaudi.ko's debugfs register window without a NIC driver.
#
#   1  insmod gaudi.ko; every card has its debugfs window
#   2  per card: MAC_REC_STS0 of the five macros shows link on exactly the
#      internal ports (0..6) whose peer card is present
#   3  the host pulls the cable c0p0 (QMP set_link, asked for with a
#      console line): card 0 port 0 and its peer, card 1 port 0, lose
#      their link; no other port changes; a frame sent on card 0 port 0
#      is counted as an output error and does not arrive
#   4  the cable is plugged back: both ends have link again
#   5  one raw frame from card 0 port 0 to card 1 port 0 (and card 2
#      port 1 to card 1 port 1), programmed through the register window
#      by gaudi_nic_frame: it arrives byte for byte in the receive ring
#   6  card 1 is hot-unplugged (gaudi-vm --hotplug): card 0's port to it
#      loses its link; plugged back, both cards have their links again
#
# Environment: GAUDI_KO, BIN, CARDS (at least 2).  Prints TAP and ends with
# "N passed, N failed"; exit status 1 on any failure.

GAUDI_KO=${GAUDI_KO:-}
BIN=${BIN:-$(dirname "$0")}
CARDS=${CARDS:-2}

# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "${TAP_SH:-$(dirname "$0")/../../lib/tap.sh}"

# hw/gaudi1/nic.h: macro m at 0xCC0000 + m * 0x40000, MAC_CORE at 0x8000,
# MAC_REC_STS0 at +0x8, lanes' link in bits 9:6; an even port has lanes 0
# and 1, an odd port lanes 2 and 3.
MAC_REC_STS0=$((0xCC8008))
MACRO_STRIDE=$((0x40000))

# The DL1 map of tools/vm/gaudi-vm (nic_peer): card i's internal port p
# leads to card p if p < i, else p + 1.
peer_card() { [ "$2" -lt "$1" ] && echo "$2" || echo $(($2 + 1)); }

# expected_mask CARD [PULLED_PORT]: ports with link, one bit per port.
expected_mask() {
	mask=0
	p=0
	while [ $p -lt 7 ]; do
		if [ "$(peer_card "$1" $p)" -lt "$CARDS" ] && [ "$p" != "${2:-}" ]; then
			mask=$((mask | (1 << p)))
		fi
		p=$((p + 1))
	done
	echo $mask
}

# card_dir I: card I's debugfs directory (named by its PCI address), found
# by the root port the card sits behind (gaudi-vm puts card I behind
# 00:(0x10 + I).0).
card_dir() {
	for d in /sys/kernel/debug/accel/0000:*; do
		[ -e "$d/data32" ] || continue
		path=$(readlink -f "/sys/bus/pci/devices/${d##*/}")
		rp=$(basename "$(dirname "$path")")
		slot=$((0x$(echo "$rp" | cut -d: -f3 | cut -d. -f1)))
		if [ $((slot - 0x10)) -eq "$1" ]; then
			echo "$d"
			return
		fi
	done
}

# reg DIR OFFSET: a CFG register through the debugfs window.
reg() {
	echo "$2" >"$1/addr" && cat "$1/data32"
}

# link_mask CARD: the ports with link on card CARD (both lanes up).
link_mask() {
	d=$(card_dir "$1")
	mask=0
	m=0
	while [ $m -lt 5 ]; do
		v=$(reg "$d" $((MAC_REC_STS0 + m * MACRO_STRIDE))) || return 1
		lanes=$(((v >> 6) & 0xF))
		[ $((lanes & 3)) -eq 3 ] && mask=$((mask | (1 << (2 * m))))
		[ $((lanes & 12)) -eq 12 ] && mask=$((mask | (2 << (2 * m))))
		m=$((m + 1))
	done
	echo $mask
}

# wait_mask CARD MASK: until card CARD shows MASK (10 s).
wait_mask() {
	t=0
	while [ "$(link_mask "$1")" != "$2" ] && [ $t -lt 50 ]; do
		sleep 0.2
		t=$((t + 1))
	done
	[ "$(link_mask "$1")" = "$2" ]
}

link_request() {
	printf '\ngaudi-vm-link: %s %s\n' "$1" "$2" >/dev/console
}

deps=$(modinfo -F depends "$GAUDI_KO" 2>/dev/null | tr ',' ' ')
# shellcheck disable=SC2086 # a list of module names
{ [ -z "$deps" ] || modprobe -a $deps; } && insmod "$GAUDI_KO"
ok $? "insmod gaudi.ko"
nodes() {
	k=0
	for a in /dev/accel/accel[0-9]*; do
		[ -e "$a" ] && k=$((k + 1))
	done
	echo $k
}
t=0
while [ "$(nodes)" -lt "$CARDS" ] && [ $t -lt 180 ]; do
	sleep 1
	t=$((t + 1))
done
missing=0
c=0
while [ $c -lt "$CARDS" ]; do
	d=$(card_dir $c)
	[ -n "$d" ] && [ -e "$d/data32" ] || missing=$((missing + 1))
	c=$((c + 1))
done
ok $missing "$CARDS cards with a debugfs register window"

c=0
while [ $c -lt "$CARDS" ]; do
	want=$(expected_mask $c)
	got=$(link_mask $c)
	[ "$got" = "$want" ]
	ok $? "card $c: link on ports $(printf 0x%03x "$want") (got" \
		"$(printf 0x%03x "${got:-0}"))"
	c=$((c + 1))
done

# Card 0 port 0 <-> card 1 port 0.
link_request c0p0 off
wait_mask 0 "$(expected_mask 0 0)"
ok $? "c0p0 pulled: card 0 port 0 has no link"
wait_mask 1 "$(expected_mask 1 0)"
ok $? "c0p0 pulled: its peer, card 1 port 0, has no link"
bad=0
c=2
while [ $c -lt "$CARDS" ]; do
	[ "$(link_mask $c)" = "$(expected_mask $c)" ] || bad=$((bad + 1))
	c=$((c + 1))
done
ok $bad "c0p0 pulled: the other cards' links unchanged"
tap_sub "c0p0 pulled, c0p0 -> c1p0" "$BIN/gaudi_nic_frame" "$(card_dir 0)" 0 \
	"$(card_dir 1)" 0 drop

link_request c0p0 on
wait_mask 0 "$(expected_mask 0)" && wait_mask 1 "$(expected_mask 1)"
ok $? "c0p0 plugged back: both ends have link"

# A raw frame through the wiring, set up through the register windows:
# card 0 port 0 -> card 1 port 0, and on 3 cards card 2 port 1 -> card 1
# port 1.
tap_sub "c0p0 -> c1p0" "$BIN/gaudi_nic_frame" "$(card_dir 0)" 0 \
	"$(card_dir 1)" 0
if [ "$CARDS" -ge 3 ]; then
	tap_sub "c2p1 -> c1p1" "$BIN/gaudi_nic_frame" "$(card_dir 2)" 1 \
		"$(card_dir 1)" 1
fi

# Card 1 pulled out of its slot (QMP device_del through gaudi-vm
# --hotplug): its cables lose their other end; plugged back, they link.
wait_gone() {
	t=0
	while [ -n "$(card_dir "$1")" ] && [ $t -lt 300 ]; do
		sleep 0.2
		t=$((t + 1))
	done
	[ -z "$(card_dir "$1")" ]
}
wait_back() {
	t=0
	while [ -z "$(card_dir "$1")" ] && [ $t -lt 600 ]; do
		sleep 0.2
		t=$((t + 1))
	done
	[ -n "$(card_dir "$1")" ]
}
printf '\ngaudi-vm-hotplug: del 1\n' >/dev/console
wait_gone 1
ok $? "card 1 unplugged"
want=$(($(expected_mask 0) & ~(1 << 0)))
wait_mask 0 "$want"
ok $? "card 1 unplugged: card 0 port 0 has no link"
printf '\ngaudi-vm-hotplug: add 1\n' >/dev/console
wait_back 1
ok $? "card 1 plugged back and probed"
wait_mask 0 "$(expected_mask 0)" && wait_mask 1 "$(expected_mask 1)"
ok $? "card 1 plugged back: cards 0 and 1 have their links again"

tap_done
