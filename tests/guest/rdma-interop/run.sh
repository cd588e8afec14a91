#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The rdma-interop suite (issue 25; Documentation/net/rdma.rst, "Testing"):
# rdma-core's ibv_rc_pingpong and perftest's ib_write_bw, ib_read_bw,
# ib_send_bw and ib_write_lat, unmodified, between two VMs on this machine
# cabled over a loopback socket, for each pair of ends in PAIRS:
#
#   rxe-rxe      Soft-RoCE to Soft-RoCE over virtio NICs: the reference
#   gaudi-gaudi  a Gaudi card's scale-out port 7 to another VM's card's
#                port 7 (gaudi-vm --nic-external listen / connect)
#   gaudi-rxe    a Gaudi card's port 7 to Soft-RoCE on the other VM's NIC
#
# The first end serves, the second runs the clients
# (tests/guest/rdma-interop/side.sh; the list of runs, path MTU 1024 and
# 4096 for every program, is tests/guest/rdma/verbs-tools.sh).  ibv_rc_pingpong checks the
# data (-c); perftest checks none, so a perftest run passes when both ends
# complete.  The perftest figures are reported, not judged: each one of a
# pair with a Gaudi end as its ratio to rxe-rxe's on the same link
# (benchmarks are not tests; the model's NIC is no measure of silicon).
#
# Environment: GAUDI_QEMU (else build/qemu-path), GAUDI_KVER, GAUDI_KO
# (else built), PAIRS (default all three), PORT (base port; default from
# the process id), TIMEOUT (seconds per VM, default 600), VERBS_TODO (the
# reason runs with a Gaudi end are not expected to pass yet: they are then
# TODO results, run and shown, counted as skipped; empty: they count),
# VERBS_TODO_SEND (the same for the runs of SEND/RECV only).
# Prints TAP and "N passed, N failed[, N skipped]"; exit status 1 on any
# failure.
set -u

# The runs with a Gaudi end pass on a quiet host, but on a loaded one the
# card's requester still gives up now and then (IBV_WC_RETRY_EXC_ERR,
# syndrome 0x53) while the peer VM is not run: TODO results until that is
# understood (Documentation/net/rdma.rst, "Testing"; issue 25).
: "${VERBS_TODO=a Gaudi end may end with RETRY_EXC when the host stalls the peer VM (issue 25)}"
PAIRS=${PAIRS:-rxe-rxe gaudi-gaudi gaudi-rxe}

repo=$(cd "$(dirname "$0")/../../.." && pwd)
here=$repo/tests/guest/rdma-interop
outdir=$repo/build/tests/guest/rdma-interop
kdir=/lib/modules/${GAUDI_KVER:-6.12.95+deb12-amd64}/build
timeout=${TIMEOUT:-600}
[ -n "${GAUDI_QEMU:-}" ] || GAUDI_QEMU=$(cat "$repo/build/qemu-path" 2>/dev/null)
export GAUDI_QEMU

# shellcheck source-path=SCRIPTDIR source=../../lib/tap.sh
. "$repo/tests/lib/tap.sh"

rm -rf "$outdir"
mkdir -p "$outdir"
t_start=$(date +%s)
ko=${GAUDI_KO:-}
if [ -z "$ko" ]; then
	make -s -C "$kdir" M="$repo" modules >"$outdir/build.log" 2>&1
	ok $? "gaudi.ko, gaudi_en.ko, gaudi_ib.ko built"
	ko=$repo/kernel/gaudi.ko
fi
en_ko=$(dirname "$ko")/en/gaudi_en.ko
ib_ko=$(dirname "$ko")/ib/gaudi_ib.ko
make -s -C "$repo/userspace/verbs" >>"$outdir/build.log" 2>&1
ok $? "the verbs provider built"
if [ ! -f "$ko" ] || [ ! -f "$en_ko" ] || [ ! -f "$ib_ko" ] ||
	[ ! -f "$repo/build/verbs/libgaudi-rdmav34.so" ] ||
	! command -v ss >/dev/null; then
	sed 's/^/# /' "$outdir/build.log" | tail -n 20
	ok 1 "modules, provider and ss there"
	tap_done
	exit 1
fi
# The provider where Debian's libibverbs looks for it (as make install).
provdir=$(pkg-config --variable=libdir libibverbs)/libibverbs
echo "driver gaudi" >"$outdir/gaudi.driver"

listening() { ss -Hltn | awk '{ print $4 }' | grep -q ":$1$"; }
free4() {
	! ss -Htan | awk '{ print $4 }' |
		grep -Eq ":($1|$(($1 + 1))|$(($1 + 2))|$(($1 + 3)))$"
}
port=${PORT:-$((24000 + $$ % 16000))}

# vm NAME KIND SIDE HOW: boot one end (HOW listen or connect) in the
# background; its log in $outdir/NAME.log, its pid in vm_pid.
vm() {
	v_name=$1 v_kind=$2 v_side=$3 v_how=$4
	if [ "$v_side" = server ]; then
		v_ip=10.77.0.1 v_ctl=10.78.0.1 v_peer=10.78.0.2
	else
		v_ip=10.77.0.2 v_ctl=10.78.0.2 v_peer=10.78.0.1
	fi
	v_todo=''
	v_todo_send=''
	case $v_name in *gaudi*) v_todo=$VERBS_TODO v_todo_send=${VERBS_TODO_SEND:-} ;; esac
	if [ "$v_kind" = gaudi ]; then
		set -- --cards 1 --nic-external "$v_how:127.0.0.1:$port" \
			--eth "$v_how:127.0.0.1:$((port + 3))" \
			--add "$ko:/suite/ko/gaudi.ko" \
			--add "$en_ko:/suite/ko/gaudi_en.ko" \
			--add "$ib_ko:/suite/ko/gaudi_ib.ko" \
			--add "$repo/build/verbs/libgaudi-rdmav34.so:$provdir/libgaudi-rdmav34.so" \
			--add "$outdir/gaudi.driver:/etc/libibverbs.d/gaudi.driver"
	else
		set -- --cards 0 --eth "$v_how:127.0.0.1:$port" \
			--eth "$v_how:127.0.0.1:$((port + 3))"
	fi
	"$repo/tools/vm/gaudi-vm" --driver none --timeout "$timeout" --verbs \
		--add "$repo/tests/lib/tap.sh:/suite/tap.sh" \
		--add "$repo/tests/guest/rdma/verbs-tools.sh:/suite/verbs-tools.sh" \
		--add "$here/side.sh:/suite/side.sh" "$@" \
		--cmd "TAP_SH=/suite/tap.sh VT_SH=/suite/verbs-tools.sh BIN=/suite/bin GAUDI_KO=/suite/ko/gaudi.ko GAUDI_EN_KO=/suite/ko/gaudi_en.ko GAUDI_IB_KO=/suite/ko/gaudi_ib.ko KIND=$v_kind SIDE=$v_side ROCE_IP=$v_ip CTL_IP=$v_ctl PEER_CTL_IP=$v_peer TODO='$v_todo' VERBS_TODO_SEND='$v_todo_send' sh /suite/side.sh" \
		>"$outdir/$v_name.log" 2>&1 &
	vm_pid=$!
}

guest() { cat "$outdir/$1.log"; return "$2"; }
for pair in $PAIRS; do
	a=${pair%-*} b=${pair#*-}
	while ! free4 "$port"; do
		port=$((port + 4))
	done
	t0=$(date +%s)
	vm "$pair.server" "$a" server listen
	pid_a=$vm_pid
	# The client's QEMU connects: the server's must listen first.
	t=0
	until { listening "$port" && listening $((port + 3)); } || [ $t -ge 300 ]; do
		sleep 0.2
		t=$((t + 1))
	done
	vm "$pair.client" "$b" client connect
	pid_b=$vm_pid
	wait $pid_a
	st_a=$?
	wait $pid_b
	st_b=$?
	tap_sub "$pair server ($a)" guest "$pair.server" "$st_a"
	tap_sub "$pair client ($b)" guest "$pair.client" "$st_b"
	diag "$pair: $(($(date +%s) - t0)) s"
	sed -n 's/^# figure \([^ ]*\) \(.*\)$/\1 \2/p' "$outdir/$pair.client.log" \
		>"$outdir/$pair.figures"
	port=$((port + 4))
done

# The figures, and each Gaudi pair's as a ratio to rxe-rxe's.
ref=$outdir/rxe-rxe.figures
for pair in $PAIRS; do
	[ -s "$outdir/$pair.figures" ] || continue
	while read -r name fig; do
		r=$(awk -v n="$name" '$1 == n { print $2 }' "$ref" 2>/dev/null)
		unit="Gb/s"
		case $name in *_lat-*) unit=usec ;; esac
		if [ "$pair" != rxe-rxe ] && [ -n "$r" ]; then
			diag "bench $pair $name $fig $unit, rxe-rxe $r: ratio $(awk "BEGIN { printf \"%.2f\", $fig / $r }")"
		else
			diag "bench $pair $name $fig $unit"
		fi
	done <"$outdir/$pair.figures"
done
diag "rdma-interop: $(($(date +%s) - t_start)) s (VERBS_TODO: ${VERBS_TODO:-none})"
tap_done
