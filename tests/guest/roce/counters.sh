# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
#
# Sourced by the roce suite (issue 13: the per-port RoCE counters), last,
# after gaudi.ko was unloaded: counters_test loads gaudi.ko and gaudi_en.ko
# again, runs RDMA WRITEs from card 0 port 0 to card 1 port 0
# (gaudi_roce_counters traffic, which checks the holder's COUNTERS op),
# then one with a bad remote key (gaudi_roce_counters badkey), and checks
# what a user without the card sees of both runs:
#   - ethtool -S of the two ports' gaudi_en netdevs: RoCE packets sent and
#     received on both ends and no QP error after the traffic, and when no
#     loss was injected (roce_injected, the model's; make check's
#     roce-lossy injects) no retransmission and every packet received;
#     roce_qp_errors exactly +1 on each end after the bad key;
#   - gaudi-smi -n stats --format csv: the same numbers as ethtool, and the
#     table has the RoCE columns.
# Then unloads both modules.  Uses the suite's card_dir and netdev_of, ok()
# and tap_sub_each of tests/lib/tap.sh, $BIN/{gaudi_roce_counters,ethtool,
# gaudi-smi}, GAUDI_KO, GAUDI_EN_KO; its variables begin with cnt_.

# "tx rx retransmits qp_errors" of netdev $1 from ethtool -S.
cnt_eth() {
	ethtool -S "$1" 2>/dev/null | awk '
		$1 == "roce_tx_pkts:" { t = $2 }
		$1 == "roce_rx_pkts:" { r = $2 }
		$1 == "roce_retransmits:" { x = $2 }
		$1 == "roce_qp_errors:" { q = $2 }
		END { print t == "" ? "NA" : t, r == "" ? "NA" : r,
			    x == "" ? "NA" : x, q == "" ? "NA" : q }'
}

# The same of gaudi-smi's card $1 (its index) port $2, from -n stats CSV.
cnt_smi() {
	gaudi-smi -n stats --format csv,noheader 2>/dev/null |
		awk -F', ' -v c="$1" -v p="$2" \
			'$1 == c && $2 == p { print $13, $14, $15, $20 }'
}

# Everything, one line: ethtool card 0, card 1, gaudi-smi card 0, card 1.
cnt_snap() {
	echo "$(cnt_eth "$cnt_n0") $(cnt_eth "$cnt_n1") $(cnt_smi "$cnt_i0" 0) $(cnt_smi "$cnt_i1" 0)"
}

# Counter $2 of netdev $1 from ethtool -S.
cnt_one() {
	ethtool -S "$1" 2>/dev/null | awk -v k="$2:" '$1 == k { print $2 }'
}

# roce_injected of both netdevs, summed: frames the model's fault
# injection touched (make check's roce-lossy).
cnt_inj() {
	for cnt_x in "$cnt_n0" "$cnt_n1"; do
		ethtool -S "$cnt_x" 2>/dev/null |
			awk '$1 == "roce_injected:" { print $2 }'
	done | awk '{ s += $1 } END { print s + 0 }'
}

# Field $2 of snapshot $1 (1..4 ethtool card 0, 5..8 card 1, 9..12 and
# 13..16 the same from gaudi-smi).
cnt_f() { echo "$1" | awk -v k="$2" '{ print $k }'; }

counters_test() {
	cnt_s=$(date +%s)
	insmod "$GAUDI_KO" && insmod "$GAUDI_EN_KO"
	ok $? "counters: insmod gaudi.ko and gaudi_en.ko again"
	cnt_t=0
	while :; do
		cnt_n0=$(netdev_of 0 0)
		cnt_n1=$(netdev_of 1 0)
		{ [ -n "$cnt_n0" ] && [ -n "$cnt_n1" ]; } || [ $cnt_t -ge 50 ] &&
			break
		sleep 0.2
		cnt_t=$((cnt_t + 1))
	done
	# Up, so that no lane is in low power and the cable has link.
	ip link set "$cnt_n0" up && ip link set "$cnt_n1" up
	ok $? "counters: card 0 port 0 ($cnt_n0) and card 1 port 0 ($cnt_n1) up"
	cnt_b0=$(basename "$(card_dir 0)")
	cnt_b1=$(basename "$(card_dir 1)")
	cnt_bdfs=$(gaudi-smi -Q pci.bus_id --format csv,noheader)
	cnt_i0=$(echo "$cnt_bdfs" | grep -n -i "^$cnt_b0\$" | cut -d: -f1)
	cnt_i1=$(echo "$cnt_bdfs" | grep -n -i "^$cnt_b1\$" | cut -d: -f1)
	cnt_i0=$((${cnt_i0:-0} - 1))
	cnt_i1=$((${cnt_i1:-0} - 1))
	sleep 1	# the link comes up within gaudi_en's 200 ms poll

	cnt_a=$(cnt_snap)
	cnt_ia=$(cnt_inj)
	tap_sub_each counters "$BIN/gaudi_roce_counters" traffic
	# shellcheck disable=SC2154 # out: tap_sub_each's
	echo "$out" | grep -q "^# ports: $cnt_b0 0 $cnt_b1 0\$"
	ok $? "counters: the program used card 0 port 0 and card 1 port 0"
	cnt_b=$(cnt_snap)
	diag "counters before: $cnt_a"
	diag "counters after traffic: $cnt_b"
	cnt_d() { echo $(($(cnt_f "$2" "$3") - $(cnt_f "$1" "$3"))); }
	cnt_inj=$(($(cnt_inj) - cnt_ia))
	[ "$(cnt_d "$cnt_a" "$cnt_b" 1)" -gt 0 ] &&
		[ "$(cnt_d "$cnt_a" "$cnt_b" 2)" -gt 0 ] &&
		[ "$(cnt_d "$cnt_a" "$cnt_b" 6)" -gt 0 ]
	ok $? "ethtool -S: card 0 sent $(cnt_d "$cnt_a" "$cnt_b" 1) RoCE packets and received $(cnt_d "$cnt_a" "$cnt_b" 2) (ACKs), card 1 received $(cnt_d "$cnt_a" "$cnt_b" 6)"
	if [ "$cnt_inj" -eq 0 ]; then
		[ "$(cnt_d "$cnt_a" "$cnt_b" 4)" -eq 0 ] &&
			[ "$(cnt_d "$cnt_a" "$cnt_b" 8)" -eq 0 ]
		ok $? "ethtool -S: no QP error"
		[ "$(cnt_d "$cnt_a" "$cnt_b" 3)" -eq 0 ] &&
			[ "$(cnt_d "$cnt_a" "$cnt_b" 7)" -eq 0 ] &&
			[ "$(cnt_d "$cnt_a" "$cnt_b" 6)" -eq "$(cnt_d "$cnt_a" "$cnt_b" 1)" ]
		ok $? "ethtool -S: no loss injected: no retransmission, card 1 received every packet"
	else
		# A frame held back to be sent late may reach card 1 after
		# the program destroyed its QP: an invalid-QP error then.
		diag "counters: loss injected ($cnt_inj frames): $(cnt_d "$cnt_a" "$cnt_b" 3) packets retransmitted, QP errors (a late frame after the QPs went) $(cnt_d "$cnt_a" "$cnt_b" 4) $(cnt_d "$cnt_a" "$cnt_b" 8)"
	fi
	[ "$(echo "$cnt_b" | cut -d' ' -f1-8)" = \
		"$(echo "$cnt_b" | cut -d' ' -f9-16)" ]
	ok $? "gaudi-smi -n stats --format csv: the same RoCE counters as ethtool (card $cnt_i0 and $cnt_i1 port 0)"
	gaudi-smi -n stats | grep -q "RoCE TX.*Retrans.*NAK tx.*NAK rx.*QP err"
	ok $? "gaudi-smi -n stats: the RoCE columns"

	cnt_r0=$(cnt_one "$cnt_n1" roce_region_errors)
	tap_sub_each counters "$BIN/gaudi_roce_counters" badkey
	cnt_c=$(cnt_snap)
	cnt_r1=$(cnt_one "$cnt_n1" roce_region_errors)
	[ "$((${cnt_r1:-0} - ${cnt_r0:-0}))" -ge 1 ]
	ok $? "ethtool -S: the bad key is card 1's region error (roce_region_errors ${cnt_r0:-NA} -> ${cnt_r1:-NA})"
	diag "counters after the bad key: $cnt_c"
	# Exactly one each; with loss injected a late frame may add an
	# invalid-QP error (the program counted exactly one while it ran).
	cnt_inj=$(($(cnt_inj) - cnt_ia))
	cnt_q0=$(cnt_d "$cnt_b" "$cnt_c" 4)
	cnt_q1=$(cnt_d "$cnt_b" "$cnt_c" 8)
	if [ "$cnt_inj" -eq 0 ]; then
		[ "$cnt_q0" -eq 1 ] && [ "$cnt_q1" -eq 1 ]
	else
		[ "$cnt_q0" -ge 1 ] && [ "$cnt_q1" -ge 1 ]
	fi
	ok $? "ethtool -S: a bad remote key, roce_qp_errors +1 on each end ($cnt_q0, $cnt_q1; $cnt_inj frames injected)"
	[ "$(echo "$cnt_c" | cut -d' ' -f1-8)" = \
		"$(echo "$cnt_c" | cut -d' ' -f9-16)" ]
	ok $? "gaudi-smi: the same counters as ethtool after the bad key"

	rmmod gaudi_en && rmmod gaudi
	ok $? "counters: rmmod gaudi_en and gaudi"
	cnt_p=$(dmesg | kernel_problems | head -3)
	[ -z "$cnt_p" ]
	ok $? "counters: dmesg: no kernel problem${cnt_p:+: $cnt_p}"
	diag "counters: $(($(date +%s) - cnt_s)) s"
}
