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
#   7  gaudi_en.ko: ten netdevs per card with MACs of their own, ethtool
#      -i/-m/link modes; each card's netdevs in a network namespace of
#      its own, carrier on exactly the wired ports, ping over every
#      internal link (so it can only be answered by the card the DL1 map
#      names), 8 MiB over TCP on one link, a port taken down drops its
#      peer's carrier and comes back, a hard reset with the ports up,
#      rmmod, and a clean dmesg; a 60-byte frame whose IPv4 header claims
#      590 bytes arrives at its 60 bytes (gaudi_en_stale: the NIC's
#      length word, not the header)
#
# Environment: GAUDI_KO, GAUDI_EN_KO, BIN (gaudi_nic_frame, ip, ethtool),
# CARDS (at least 2).  Prints TAP and ends with
# "N passed, N failed"; exit status 1 on any failure.

GAUDI_KO=${GAUDI_KO:-}
GAUDI_EN_KO=${GAUDI_EN_KO:-}
BIN=${BIN:-$(dirname "$0")}
CARDS=${CARDS:-2}

# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "${TAP_SH:-$(dirname "$0")/../../lib/tap.sh}"
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"

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

insmod_deps "$GAUDI_KO"
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

# ---- 7: the Ethernet driver (gaudi_en.ko on gaudi.ko's auxiliary devices) --
# Each card's ports become netdevs; each card's netdevs go into a network
# namespace of their own, so that traffic between cards crosses the wire.
PATH=$BIN:$PATH
insmod "$GAUDI_EN_KO"
ok $? "insmod gaudi_en.ko"

# card_of_pci BDF: the card index of a PCI function (see card_dir).
card_of_pci() {
	path=$(readlink -f "/sys/bus/pci/devices/$1")
	rp=$(basename "$(dirname "$path")")
	slot=$(echo "$rp" | cut -d: -f3 | cut -d. -f1)
	echo $((0x$slot - 0x10))
}
# The netdevs of gaudi_en: "card port name mac bdf" lines in $NDMAP.
NDMAP=/tmp/gaudi-netdevs
ndmap() {
	: >"$NDMAP"
	for nf in /sys/class/net/*; do
		drv=$(readlink -f "$nf/device/driver" 2>/dev/null)
		[ "${drv##*/}" = gaudi_en.eth ] || continue
		bdf=$(basename "$(dirname "$(readlink -f "$nf/device")")")
		echo "$(card_of_pci "$bdf") $(cat "$nf/dev_port") ${nf##*/}" \
			"$(cat "$nf/address") $bdf" >>"$NDMAP"
	done
}
# nd CARD PORT: the netdev's name.
nd() { awk -v c="$1" -v p="$2" '$1 == c && $2 == p { print $3 }' "$NDMAP"; }
t=0
while :; do
	ndmap
	[ "$(wc -l <"$NDMAP")" -ge $((CARDS * 10)) ] || [ $t -ge 50 ] && break
	sleep 0.2
	t=$((t + 1))
done
ok $(($(wc -l <"$NDMAP") != CARDS * 10)) \
	"$((CARDS * 10)) netdevs of gaudi_en, 10 per card (got $(wc -l <"$NDMAP"))"
dups=$(awk '{ print $4 }' "$NDMAP" | sort | uniq -d | wc -l)
ok "$dups" "every port has a MAC of its own ($dups duplicates)"
bad=0
c=0
while [ $c -lt "$CARDS" ]; do
	p=0
	while [ $p -lt 10 ]; do
		[ -n "$(nd $c $p)" ] || bad=$((bad + 1))
		p=$((p + 1))
	done
	c=$((c + 1))
done
ok $bad "each card has ports 0..9 (dev_port), found by card and port"
n0=$(nd 0 0)
bdf0=$(awk '$1 == 0 && $2 == 0 { print $5 }' "$NDMAP")
info=$(ethtool -i "$n0" 2>&1)
echo "$info" | grep -q "^driver: gaudi_en" &&
	echo "$info" | grep -q "^bus-info: $bdf0"
ok $? "ethtool -i $n0: driver gaudi_en, bus-info $bdf0"
ethtool -m "$n0" 2>&1 | grep -q "QSFP28"
ok $? "ethtool -m $n0: the module EEPROM decodes as QSFP28"
ethtool "$n0" 2>&1 | grep -q "100000baseCR4/Full"
ok $? "ethtool $n0: 100000baseCR4/Full link mode"

# gaudi-smi's NIC ports against sysfs, every netdev up in this namespace
# shellcheck disable=SC2034 # the map's other columns
while read -r c p dev mac bdf; do ip link set dev "$dev" up; done <"$NDMAP"
# shellcheck source-path=SCRIPTDIR source=smi.sh
. "$(dirname "$0")/smi.sh"

# One namespace per card, holding that card's ports.
c=0
NSPIDS=
while [ $c -lt "$CARDS" ]; do
	unshare -n sleep 100000 &
	NSPIDS="$NSPIDS $!"
	c=$((c + 1))
done
sleep 0.5
# ns CARD CMD...: run in the card's namespace.
ns() {
	# shellcheck disable=SC2086 # the list of pids
	set -- "$(echo $NSPIDS | cut -d' ' -f$(($1 + 1)))" "$@"
	pid=$1
	shift 2
	nsenter -t "$pid" -n "$@"
}
bad=0
# shellcheck disable=SC2034 # mac and bdf: the map's other columns
while read -r c p dev mac bdf; do
	pid=$(echo $NSPIDS | cut -d' ' -f$((c + 1)))
	ip link set dev "$dev" netns "$pid" || bad=$((bad + 1))
	ns "$c" ip link set dev "$dev" up || bad=$((bad + 1))
done <"$NDMAP"
ok $bad "each card's netdevs moved to its namespace and up"
# ns_carrier CARD PORT: 1 with carrier (sysfs shows the first namespace's
# netdevs only: ask ip for the LOWER_UP flag).
ns_carrier() {
	ns "$1" ip -o link show dev "$(nd "$1" "$2")" 2>/dev/null |
		grep -q "[<,]LOWER_UP[,>]" && echo 1
}
# carrier_mask CARD: ports whose netdev has carrier.
carrier_mask() {
	m=0
	p=0
	while [ $p -lt 10 ]; do
		[ "$(ns_carrier "$1" $p)" = 1 ] && m=$((m | (1 << p)))
		p=$((p + 1))
	done
	echo $m
}
wait_carrier() {	# wait_carrier CARD MASK
	t=0
	while [ "$(carrier_mask "$1")" != "$2" ] && [ $t -lt 40 ]; do
		sleep 0.25
		t=$((t + 1))
	done
	[ "$(carrier_mask "$1")" = "$2" ]
}
c=0
while [ $c -lt "$CARDS" ]; do
	wait_carrier $c "$(expected_mask $c)"
	ok $? "card $c: carrier on ports $(printf 0x%03x "$(expected_mask $c)")" \
		"(got $(printf 0x%03x "$(carrier_mask $c)"))"
	c=$((c + 1))
done

# Addresses: the cable between card i's port p and card j (i < j), which
# arrives on card j's port i, is 10.i.j.0/24: .1 on card i, .2 on card j.
c=0
links=0
while [ $c -lt "$CARDS" ]; do
	p=0
	while [ $p -lt 7 ]; do
		j=$(peer_card $c $p)
		if [ "$j" -lt "$CARDS" ] && [ $c -lt "$j" ]; then
			ns $c ip addr add "10.$c.$j.1/24" dev "$(nd $c $p)"
			ns "$j" ip addr add "10.$c.$j.2/24" dev "$(nd "$j" $c)"
			links=$((links + 1))
		fi
		p=$((p + 1))
	done
	c=$((c + 1))
done
bad=0
c=0
while [ $c -lt "$CARDS" ]; do
	p=0
	while [ $p -lt 7 ]; do
		j=$(peer_card $c $p)
		if [ "$j" -lt "$CARDS" ] && [ $c -lt "$j" ]; then
			if ! ns $c ping -c 1 -W 3 -I "$(nd $c $p)" "10.$c.$j.2" \
				>/dev/null 2>&1; then
				bad=$((bad + 1))
				diag "no answer from card $j over card $c port $p"
			fi
		fi
		p=$((p + 1))
	done
	c=$((c + 1))
done
ok $bad "ping over each of the $links internal links reaches the card the DL1 map names ($bad unanswered)"

# IPv6 over the same cable (c0p0 - c1p0).
ns 0 ip -6 addr add fd00:0:1::1/64 dev "$(nd 0 0)" &&
	ns 1 ip -6 addr add fd00:0:1::2/64 dev "$(nd 1 0)"
ok $? "IPv6 addresses on c0p0 and c1p0"
# (duplicate address detection first: a second or two)
t=0
until ns 0 ping -6 -c 1 -W 2 fd00:0:1::2 >/dev/null 2>&1 || [ $t -ge 8 ]; do
	sleep 0.5
	t=$((t + 1))
done
ns 0 ping -6 -c 1 -W 3 fd00:0:1::2 >/dev/null 2>&1
ok $? "ping over IPv6 from card 0 to card 1"

# TCP over one link: card 1 serves 8 MiB over HTTP to card 0.
mkdir -p /tmp/www
dd if=/dev/urandom of=/tmp/www/blob bs=1024 count=8192 2>/dev/null
ns 1 httpd -p 10.0.1.2:8080 -h /tmp/www
sleep 0.3
up() { cut -d' ' -f1 /proc/uptime | tr -d .; }
t0=$(up)
got=$(ns 0 wget -q -O - http://10.0.1.2:8080/blob | md5sum | cut -d' ' -f1)
el=$(($(up) - t0))
[ "$got" = "$(md5sum </tmp/www/blob | cut -d' ' -f1)" ]
ok $? "TCP: 8 MiB from card 1 to card 0 over c0p0, intact ($((8 * 100 * 1024 / (el > 0 ? el : 1))) KiB/s)"
tx=$(ns 0 ethtool -S "$(nd 0 0)" | awk '$1 == "mac_rx_frames:" { print $2 }')
[ "${tx:-0}" -gt 5000 ]
ok $? "ethtool -S: card 0 port 0 counted ${tx:-0} received frames (> 5000)"

# A port taken down takes the link partner's carrier with it; the
# partner's device CPU reports it (event STATUS_NIC0_ENG0 + port, 648).
# status_events CARD PORT: how many the card's driver counted.
status_events() {
	awk -v id=$((648 + $2)) '$1 == id { print $3 }' "$(card_dir "$1")/events"
}
ev0=$(status_events 1 0)
# gaudi-smi --events in card 1's namespace (issue 26): the flap as it happens
# (with its own sysfs, as in a container: sysfs shows the netdevs of the
# namespace that mounted it)
# shellcheck disable=SC2086 # the list of pids
nsenter -t "$(echo $NSPIDS | cut -d' ' -f2)" -n unshare -m --propagation private \
	sh -c 'mount -t sysfs sysfs /sys && exec "$0" --events --format json -i "$1"' \
	"${SMI:-$BIN/gaudi-smi}" "$(awk '$1 == 1 && $2 == 0 { print $5 }' "$NDMAP")" \
	>/tmp/nic-events 2>&1 &
evpid=$!
diag "gaudi-smi --events in card 1's namespace: pid $evpid"
sleep 1		# its first reading
ns 0 ip link set dev "$(nd 0 0)" down
wait_carrier 1 "$(expected_mask 1 0)"
ok $? "card 0 port 0 down: card 1 port 0 loses its carrier, nothing else changes"
sleep 1
grep -q '"event": "link_down", "source": "poll", "port": 0, "interface": "'"$(nd 1 0)"'"' /tmp/nic-events
evst=$?
ok $evst "gaudi-smi --events: card 1 port 0 link_down within a second"
if [ $evst -ne 0 ]; then
	diag "watcher: $(tr '\0' ' ' </proc/$evpid/cmdline 2>&1) $(grep State /proc/$evpid/status 2>&1)"
	# shellcheck disable=SC2086 # the list of pids
	nsenter -t "$(echo $NSPIDS | cut -d' ' -f2)" -n unshare -m --propagation private \
		sh -c 'mount -t sysfs sysfs /sys; "$0" -n link -i "$1" | head -n 3' \
		"${SMI:-$BIN/gaudi-smi}" "$(awk '$1 == 1 && $2 == 0 { print $5 }' "$NDMAP")" \
		2>&1 | sed 's/^/# view: /'
	sed 's/^/# file: /' /tmp/nic-events
fi
ev1=$(status_events 1 0)
[ "${ev1:-0}" -gt "${ev0:-0}" ]
ok $? "card 1 counted the link change as its port 0 status event (${ev0:-0} -> ${ev1:-0})"
ns 0 ip link set dev "$(nd 0 0)" up
wait_carrier 1 "$(expected_mask 1)" && wait_carrier 0 "$(expected_mask 0)"
ok $? "card 0 port 0 up again: both ends have carrier"
sleep 1
kill "$evpid" 2>/dev/null
wait "$evpid" 2>/dev/null
grep -q '"event": "link_up", "source": "poll", "port": 0' /tmp/nic-events &&
	[ "$(grep -c '"event": "link_' /tmp/nic-events)" -eq 2 ]
ok $? "gaudi-smi --events: then link_up, and no other port's ($(grep -c '"event"' /tmp/nic-events) events)"
sed 's/^/#   /' /tmp/nic-events
ns 0 ping -c 1 -W 3 10.0.1.2 >/dev/null 2>&1
ok $? "ping over c0p0 works again"

# gaudi_en sizes a received frame by the NIC's length word, never by its
# IPv4 header (issue 22): a 60-byte frame claiming 590 bytes arrives as 60
# bytes, with nothing of the 1000-byte frame before it.
mac10=$(awk '$1 == 1 && $2 == 0 { print $4 }' "$NDMAP")
ns 1 "$BIN/gaudi_en_stale" recv "$(nd 1 0)" 10 >/tmp/nic-stale 2>&1 &
stpid=$!
t=0
until grep -qs listening /tmp/nic-stale || [ $t -ge 50 ]; do
	sleep 0.1
	t=$((t + 1))
done
ns 0 "$BIN/gaudi_en_stale" send "$(nd 0 0)" "$mac10" >/dev/null 2>&1
wait "$stpid"
ok $? "gaudi_en: a short frame claiming more IPv4 bytes is taken at its length ($(tail -n 1 /tmp/nic-stale))"

# A QP error: the raw QP's unsecured doorbell (only the secured one is
# allowed on it) rung through card 0's register window.  The port's error
# FIFO gets the entry, the device CPU posts the port's QP event, gaudi_en
# reports and counts it; the port keeps working.
qp_errors() {
	ns 0 ethtool -S "$(nd 0 0)" | awk '$1 == "qp_errors:" { print $2 }'
}
q0=$(qp_errors)
reg "$(card_dir 0)" $((0xCE4630)) >/dev/null	# select the register
echo $((0x80000000)) >"$(card_dir 0)/data32"	# QPC0 UNSECURED_DOORBELL_QPN
t=0
while [ "$(qp_errors)" = "$q0" ] && [ $t -lt 20 ]; do
	sleep 0.1
	t=$((t + 1))
done
q1=$(qp_errors)
[ "${q1:-0}" -eq $((${q0:-0} + 1)) ] &&
	dmesg | grep -q "$(nd 0 0): requester QP 0 error, syndrome 0x43"
ok $? "unsecured doorbell on the raw QP: one QP error reported and counted (${q0:-?} -> ${q1:-?})"
ns 0 ping -c 1 -W 3 10.0.1.2 >/dev/null 2>&1
ok $? "card 0 port 0 still works after the QP error"

# A hard reset of card 1 with its ports up: they come back by themselves.
echo 1 >"/sys/bus/pci/devices/$(awk '$1 == 1 && $2 == 0 { print $5 }' "$NDMAP")/hard_reset"
sleep 1
wait_carrier 1 "$(expected_mask 1)"
ok $? "card 1 hard reset: its ports have carrier again"
t=0
until ns 0 ping -c 1 -W 2 10.0.1.2 >/dev/null 2>&1 || [ $t -ge 10 ]; do
	t=$((t + 1))
done
ns 0 ping -c 1 -W 2 10.0.1.2 >/dev/null 2>&1
ok $? "card 1 hard reset: ping from card 0 answered again"

# Card 1 unbound from gaudi.ko with its ports up: its netdevs go first;
# bound again, they come back (in the first namespace, down).
bdf1=$(awk '$1 == 1 && $2 == 0 { print $5 }' "$NDMAP")
ns_ports() { ns "$1" ip -o link show | grep -vc ": lo:"; }
before=$(ns_ports 1)
echo "$bdf1" >/sys/bus/pci/drivers/gaudi/unbind
ok $? "card 1 unbound with its ports up"
after=$(ns_ports 1)
[ "$before" -eq 10 ] && [ "$after" -eq 0 ]
ok $? "card 1's netdevs are gone from its namespace ($before -> $after)"
echo "$bdf1" >/sys/bus/pci/drivers/gaudi/bind
t=0
ndmap
while [ "$(awk -v b="$bdf1" '$5 == b' "$NDMAP" | wc -l)" -lt 10 ] && [ $t -lt 100 ]; do
	sleep 0.2
	ndmap
	t=$((t + 1))
done
[ "$(awk -v b="$bdf1" '$5 == b' "$NDMAP" | wc -l)" -eq 10 ]
ok $? "card 1 bound again: its ten netdevs are back"

kill $NSPIDS 2>/dev/null
rmmod gaudi_en
ok $? "rmmod gaudi_en"
ndmap
ok "$(wc -l <"$NDMAP")" "no gaudi_en netdev left"
# What counts as a kernel problem: gaudi-vm's (tools/vm/dmesg-judge.sh).
# shellcheck source-path=SCRIPTDIR source=../../../tools/vm/dmesg-judge.sh
. /lib/gaudi-vm/dmesg-judge.sh
no_problems_nic=$(dmesg | kernel_problems | head -3)
[ -z "$no_problems_nic" ]
ok $? "dmesg: no kernel problem${no_problems_nic:+: $no_problems_nic}"

tap_done
