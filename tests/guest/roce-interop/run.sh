#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The roce-interop suite (issue 22; Documentation/net/interop.rst): a Gaudi
# card's RoCE v2 against Linux's Soft-RoCE.  Two VMs on this machine,
# cabled over loopback sockets:
#
#   VM gaudi  one card, gaudi.ko; card 0's port 7 listens on PORT (8, 9 on
#             PORT + 1, + 2: gaudi-vm --nic-external), its eth0 on PORT + 3
#             (the control link); dumps port 7's frames (--nic-dump)
#   VM peer   no card; rdma-core and rdma_rxe (gaudi-vm --verbs); eth0
#             connects to the card's port 7, eth1 to the control link
#
# gaudi-side.sh runs gaudi_interop, which drives verbs_peer (peer-side.sh)
# through the control link and prints the suite's results.  Then, on the
# host, the capture of the cable: tshark decodes every frame as RoCE v2
# with no malformed one, tests/lib/roce-pcap.py finds every iCRC right
# (and, on a copy with one byte flipped, the one wrong), the opcodes both
# ends sent, the peer's RNR NAKs, the MSNs of the card's ACKs.
#
# INTEROP_TODO lists the conformance of issue 22 the engine does not have
# yet (default below); checks needing a listed piece are "# TODO" results
# (run, counted as skipped).  Environment: GAUDI_QEMU (else build/qemu-path),
# GAUDI_KVER, GAUDI_KO (else built), PORT (base port; default from the
# process id), TIMEOUT (seconds per VM, default 300), CAPTURE_MAX_MIB
# (default 256), GAUDI_VM_OPTS and PEER_VM_OPTS (more gaudi-vm options,
# e.g. --kernel debug).  Prints TAP and "N passed, N failed[, N skipped]";
# exit status 1 on any failure.
set -u

# What the engine and libgaudi do not do yet (words: path-mtu, rnr, msn,
# qpn24, src-check).  Issue 22 brought all five, so none is pending; put
# a word back to run its checks as TODOs.
: "${INTEROP_TODO=}"
export INTEROP_TODO

repo=$(cd "$(dirname "$0")/../../.." && pwd)
here=$repo/tests/guest/roce-interop
outdir=$repo/build/tests/guest/roce-interop
kdir=/lib/modules/${GAUDI_KVER:-6.12.95+deb12-amd64}/build
timeout=${TIMEOUT:-300}
# A command, split into words as make splits it (CC="ccache gcc").
cc=${CC:-gcc}
[ -n "${GAUDI_QEMU:-}" ] || GAUDI_QEMU=$(cat "$repo/build/qemu-path" 2>/dev/null)
export GAUDI_QEMU

gaudi_ip=10.88.0.1 peer_ip=10.88.0.2 foreign_ip=10.88.0.3
gaudi_ctl=10.99.0.1 peer_ctl=10.99.0.2

# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "$repo/tests/lib/tap.sh"

rm -rf "$outdir"
mkdir -p "$outdir/dump"
t_start=$(date +%s)
ko=${GAUDI_KO:-}
if [ -z "$ko" ]; then
	make -s -C "$kdir" M="$repo" modules >"$outdir/build.log" 2>&1
	ok $? "gaudi.ko built"
	ko=$repo/kernel/gaudi.ko
fi
make -s -C "$repo/userspace" >>"$outdir/build.log" 2>&1
ok $? "libgaudi built"
# The guest programs, with the sanitizers (gaudi-vm copies libasan too);
# gaudi_interop finds libgaudi by its rpath, at the same path in the guest.
san="-fsanitize=address,undefined -fno-omit-frame-pointer"
# shellcheck disable=SC2086,SC2046 # flags are words
$cc -O2 -g -Wall -Wextra -Werror $san -I "$repo/userspace/include" \
	-I "$repo/uapi" -I "$repo/hw" -I "$repo/tests/lib" \
	$(pkg-config --cflags libdrm) -o "$outdir/gaudi_interop" \
	"$here/gaudi_interop.c" -L "$repo/build/userspace" -lgaudi \
	-Wl,-rpath,"$repo/build/userspace" >>"$outdir/build.log" 2>&1 &&
	$cc -O2 -g -Wall -Wextra -Werror $san -o "$outdir/verbs_peer" \
		"$here/verbs_peer.c" -libverbs >>"$outdir/build.log" 2>&1
ok $? "gaudi_interop and verbs_peer built (ASan, UBSan)"
for tool in tshark ss python3; do
	command -v "$tool" >/dev/null || {
		ok 1 "$tool missing (tools/host/install-deps.sh)"
		tap_done
		exit 1
	}
done
if [ ! -f "$ko" ] || [ ! -x "$outdir/gaudi_interop" ] ||
	[ ! -x "$outdir/verbs_peer" ]; then
	sed 's/^/# /' "$outdir/build.log" | tail -n 20
	tap_done
	exit 1
fi

# A base port with the four ports from it free.
port=${PORT:-$((20000 + $$ % 20000))}
busy() {
	ss -Htan | awk '{ print $4 }' |
		grep -Eq ":($port|$((port + 1))|$((port + 2))|$((port + 3)))$"
}
while busy; do
	port=$((port + 4))
done
ctl=$((port + 3))
listening() { ss -Hltn | awk '{ print $4 }' | grep -q ":$1$"; }

common="--driver none --timeout $timeout --add $repo/tests/lib/tap.sh:/suite/tap.sh"
# shellcheck disable=SC2086 # option words
"$repo/tools/vm/gaudi-vm" $common --cards 1 \
	--nic-external "listen:127.0.0.1:$port" --eth "listen:127.0.0.1:$ctl" \
	--nic-dump "$outdir/dump" --nic-dump-max "${CAPTURE_MAX_MIB:-256}" \
	--add "$here/gaudi-side.sh:/suite/gaudi-side.sh" \
	--add "$ko:/suite/ko/gaudi.ko" \
	--add "$outdir/gaudi_interop:/suite/bin/gaudi_interop" \
	${GAUDI_VM_OPTS:-} \
	--cmd "TAP_SH=/suite/tap.sh GAUDI_KO=/suite/ko/gaudi.ko BIN=/suite/bin GAUDI_IP=$gaudi_ip CTL_IP=$gaudi_ctl PEER_CTL_IP=$peer_ctl INTEROP_TODO='$INTEROP_TODO' sh /suite/gaudi-side.sh" \
	>"$outdir/gaudi.log" 2>&1 &
pid_g=$!
# The peer connects: the Gaudi VM's QEMU must listen on both first.
t=0
until { listening "$port" && listening "$ctl"; } || [ $t -ge 150 ]; do
	sleep 0.2
	t=$((t + 1))
done
# shellcheck disable=SC2086 # option words
"$repo/tools/vm/gaudi-vm" $common --cards 0 --verbs \
	--eth "connect:127.0.0.1:$port" --eth "connect:127.0.0.1:$ctl" \
	--add "$here/peer-side.sh:/suite/peer-side.sh" \
	--add "$outdir/verbs_peer:/suite/bin/verbs_peer" \
	${PEER_VM_OPTS:-} \
	--cmd "TAP_SH=/suite/tap.sh BIN=/suite/bin ROCE_IP=$peer_ip FOREIGN_IP=$foreign_ip CTL_IP=$peer_ctl sh /suite/peer-side.sh" \
	>"$outdir/peer.log" 2>&1 &
pid_p=$!
wait $pid_g
st_g=$?
wait $pid_p
st_p=$?

guest() { cat "$outdir/$1.log"; return "$2"; }
tap_sub "gaudi" guest gaudi "$st_g"
tap_sub "peer" guest peer "$st_p"

# ---- the capture of the cable (card 0's port 7) ----
pcap=$outdir/dump/c0p7.pcap
frames=$(tshark -r "$pcap" 2>/dev/null | wc -l)
[ "$frames" -gt 100 ]
ok $? "capture of card 0 port 7: $frames frames, $(wc -c <"$pcap" 2>/dev/null) bytes"
other=$(tshark -r "$pcap" -T fields -e frame.protocols 2>/dev/null |
	grep -Evc '^eth:ethertype:ip:udp:infiniband(:data)?$')
[ "$other" -eq 0 ]
ok $? "tshark decodes every frame as RoCE v2 (eth:ip:udp:infiniband), $other others"
bad=$(tshark -r "$pcap" -Y "_ws.malformed || _ws.expert.severity >= error" 2>/dev/null | wc -l)
[ "$bad" -eq 0 ]
ok $? "no malformed frame and no decoding error ($bad)"
icrc=$(python3 "$repo/tests/lib/roce-pcap.py" "$pcap" 2>&1)
st=$?
echo "$icrc" | sed 's/^/# /'
ok $st "every iCRC right: $(echo "$icrc" | head -n 1)"
# The checker can fail: one payload byte of the first data packet flipped.
first=$(tshark -r "$pcap" -Y "infiniband.bth.opcode == 10" -T fields \
	-e frame.number 2>/dev/null | head -n 1)
if python3 - "$pcap" "$outdir/flipped.pcap" "${first:-0}" <<'EOF'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
off, n = 24, 0
while off + 16 <= len(data):
    incl = int.from_bytes(data[off + 8:off + 12], "little")
    n += 1
    if n == int(sys.argv[3]):
        data[off + 16 + 14 + 20 + 8 + 12 + 16] ^= 0x01  # first payload byte
        break
    off += 16 + incl
open(sys.argv[2], "wb").write(data)
sys.exit(0 if n == int(sys.argv[3]) else 1)
EOF
then
	python3 "$repo/tests/lib/roce-pcap.py" "$outdir/flipped.pcap" |
		grep -q "^roce-pcap: frame $first: iCRC"
	ok $? "roce-pcap.py finds the bad iCRC of frame $first when one byte is flipped"
else
	ok 1 "a copy of the capture with one byte of frame ${first:-?} flipped"
fi

# Opcodes from each end: RDMA WRITE FIRST, MIDDLE, LAST, ONLY, ONLY WITH
# IMMEDIATE (6, 7, 8, 10, 11) and ACKNOWLEDGE (17).
for who in "card $gaudi_ip" "peer $peer_ip"; do
	ip=${who#* }
	ops=$(tshark -r "$pcap" -Y "ip.src == $ip" -T fields \
		-e infiniband.bth.opcode 2>/dev/null | sort -nu | tr '\n' ' ')
	miss=
	for op in 6 7 8 10 11 17; do
		echo " $ops" | grep -q " $op " || miss="$miss $op"
	done
	[ -z "$miss" ]
	ok $? "the ${who% *} ($ip) sent RDMA WRITE FIRST/MIDDLE/LAST/ONLY/ONLY WITH IMMEDIATE and ACKs (opcodes: $ops${miss:+; missing:$miss})"
done
# The peer refused the immediate while it had no receive: RNR NAKs
# (AETH syndrome 001xxxxx); remote access NAKs (0x62) from both ends.
rnr=$(tshark -r "$pcap" -Y "ip.src == $peer_ip && infiniband.aeth.syndrome >= 0x20 && infiniband.aeth.syndrome < 0x40" 2>/dev/null | wc -l)
[ "$rnr" -gt 0 ]
ok $? "the peer answered the write with immediate by RNR NAKs ($rnr)"
for ip in $gaudi_ip $peer_ip; do
	naks=$(tshark -r "$pcap" -Y "ip.src == $ip && infiniband.aeth.syndrome == 0x62" 2>/dev/null | wc -l)
	[ "$naks" -gt 0 ]
	ok $? "$ip NAKed a bad R_Key or SOB with a remote access error ($naks)"
done
# MSN: every ACK/NAK carries the responder's count of completed messages;
# per connection (destination QP and UDP source port: a card QPN comes
# back for the next connection, a peer QP's source port does not) it
# never goes back, and it moves.
for who in "peer $peer_ip" "card $gaudi_ip"; do
	ip=${who#* }
	msn=$(tshark -r "$pcap" -Y "ip.src == $ip && infiniband.aeth" -T fields \
		-e infiniband.bth.destqp -e udp.srcport -e infiniband.aeth.msn \
		2>/dev/null |
		awk '{ n++; k = $1 "/" $2; if ($3 > max) max = $3
			if ((k in last) && $3 < last[k] && last[k] - $3 < 8388608) back++
			last[k] = $3 }
			END { printf "%d %d %d\n", n, max, back }')
	# shellcheck disable=SC2086 # three numbers
	set -- $msn
	st=1
	[ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ] && [ "${3:-1}" -eq 0 ] && st=0
	what="ACKs and NAKs of the ${who% *} ($ip) carry MSNs: ${1:-0} of them, largest ${2:-0}, ${3:-?} going back"
	if [ "${who% *}" = card ] && echo " $INTEROP_TODO " | grep -q " msn "; then
		todo $st "$what" "msn (issue 22)"
	else
		ok $st "$what"
	fi
done
diag "roce-interop: $(($(date +%s) - t_start)) s (INTEROP_TODO: ${INTEROP_TODO:-none})"
tap_done
