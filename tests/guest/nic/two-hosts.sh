#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Two emulated hosts whose cards talk over their scale-out ports (issue 12):
# VM a (gaudi-vm --nic-external listen:127.0.0.1:PORT) and VM b (connect)
# each have one card; card 0's port 7 of a is cabled to card 0's port 7 of
# b through a socket on the loopback.  Each side runs two-hosts-guest.sh
# (ping both ways, a RoCE all-reduce, a file over TCP).  VM a dumps its
# ports' frames (--nic-dump), and tshark must decode the capture cleanly:
# Ethernet, ARP, IPv4, ICMP, TCP, HTTP and RoCE v2 (InfiniBand BTH/RETH
# over UDP 4791), no malformed frame; tests/lib/roce-pcap.py finds every
# RoCE iCRC right.
#
# Environment: GAUDI_QEMU (else build/qemu-path), GAUDI_KVER, PORT (base
# port, default from the process id).  Prints TAP and "N passed, N
# failed"; exit status 1 on any failure.
set -u

repo=$(cd "$(dirname "$0")/../../.." && pwd)
outdir=$repo/build/tests/guest/nic-two-hosts
kdir=/lib/modules/${GAUDI_KVER:-6.12.95+deb12-amd64}/build
[ -n "${GAUDI_QEMU:-}" ] || GAUDI_QEMU=$(cat "$repo/build/qemu-path" 2>/dev/null)
export GAUDI_QEMU

# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "$repo/tests/lib/tap.sh"

rm -rf "$outdir"
mkdir -p "$outdir/dump"
make -s -C "$kdir" M="$repo" modules >"$outdir/build.log" 2>&1
ok $? "gaudi.ko and gaudi_en.ko built"
make -s -C "$repo/userspace" all examples >>"$outdir/build.log" 2>&1
ok $? "libgaudi and gaudi_allreduce built"
for tool in ip ethtool tshark ss; do
	command -v "$tool" >/dev/null || {
		ok 1 "$tool missing (tools/host/install-deps.sh)"
		tap_done
		exit 1
	}
done

# A base port with the three ports above it free.
port=${PORT:-$((20000 + $$ % 20000))}
while ss -Htan | awk '{ print $4 }' | grep -Eq ":($port|$((port + 1))|$((port + 2)))$"; do
	port=$((port + 3))
done

vm() {	# vm ROLE HOW [gaudi-vm options]
	role=$1
	how=$2
	shift 2
	"$repo/tools/vm/gaudi-vm" --driver none --cards 1 --timeout 300 \
		--nic-external "$how:127.0.0.1:$port" "$@" \
		--add "$repo/tests/guest/nic:/suite/nic" \
		--add "$repo/tests/lib/tap.sh:/suite/tap.sh" \
		--add "$repo/kernel/gaudi.ko:/suite/ko/gaudi.ko" \
		--add "$repo/kernel/en/gaudi_en.ko:/suite/ko/gaudi_en.ko" \
		--add "$(command -v ip):/suite/bin/ip" \
		--add "$(command -v ethtool):/suite/bin/ethtool" \
		--add "$repo/build/userspace/examples/gaudi_allreduce:/suite/bin/gaudi_allreduce" \
		--cmd "ROLE=$role TAP_SH=/suite/tap.sh GAUDI_KO=/suite/ko/gaudi.ko GAUDI_EN_KO=/suite/ko/gaudi_en.ko BIN=/suite/bin sh /suite/nic/two-hosts-guest.sh" \
		>"$outdir/$role.log" 2>&1
}

vm a listen --nic-dump "$outdir/dump" &
pid_a=$!
# b connects: a's QEMU must listen first.
t=0
until ss -Hltn | awk '{ print $4 }' | grep -q ":$port$" || [ $t -ge 100 ]; do
	sleep 0.2
	t=$((t + 1))
done
vm b connect &
pid_b=$!
wait $pid_a
st_a=$?
wait $pid_b
st_b=$?

# The guests' TAP, renumbered (the logs hold boot lines too).
guest() { cat "$outdir/$1.log"; return "$2"; }
tap_sub "vm a" guest a "$st_a"
tap_sub "vm b" guest b "$st_b"

# tshark on what crossed a's port 7.
pcap=$outdir/dump/c0p7.pcap
[ -s "$pcap" ]
ok $? "capture of card 0 port 7 on host a ($(wc -c <"$pcap" 2>/dev/null) bytes)"
frames=$(tshark -r "$pcap" 2>/dev/null | wc -l)
[ "$frames" -gt 100 ]
ok $? "tshark reads $frames frames"
protos=$(tshark -r "$pcap" -T fields -e frame.protocols 2>/dev/null | sort -u)
for want in eth:ethertype:arp eth:ethertype:ip:icmp eth:ethertype:ip:tcp \
	eth:ethertype:ip:tcp:http eth:ethertype:ip:udp:infiniband; do
	echo "$protos" | grep -q "^$want\(:\|$\)"
	ok $? "tshark decodes $want"
done
bad=$(tshark -r "$pcap" -Y "_ws.malformed || _ws.expert.severity >= error" 2>/dev/null | wc -l)
ok "$bad" "no malformed frame and no decoding error ($bad)"
# tshark shows the RoCE iCRC without checking it.
icrc=$(python3 "$repo/tests/lib/roce-pcap.py" "$pcap" 2>&1)
ok $? "every RoCE iCRC right: $(echo "$icrc" | head -n 1)"
tap_done
