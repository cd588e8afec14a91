# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
#
# gaudi-smi's NIC ports against sysfs, in the guest; sourced by the nic
# suite (tests/guest/nic/suite.sh), not run alone.
#
# Inputs: it runs in the init network namespace, once, when gaudi_en's
# netdevs of all CARDS cards are visible there and set up (before any is
# moved to another namespace); it waits for their carriers to settle.  It uses $BIN/gaudi-smi (or $SMI), CARDS and the
# ok() of tests/lib/tap.sh, which the suite has sourced (its counters go
# on); it sets only variables that begin with smi_ and leaves files in
# /tmp/nic-smi.  Checks:
#   - gaudi-smi -n ports lists CARDS * 10 ports, and each gaudi_en netdev
#     (/sys/class/net/*) on the row of its card (PCI order) and port
#     (dev_port) with its MAC;
#   - the link column is "yes" exactly where sysfs carrier is 1;
#   - -n topo links every pair of cards with a port that has link;
#   - --format json: well nested (an awk check: busybox has no parser),
#     one object per port, every interface named;
#   - --prometheus: gaudi_nic_port_link, _rx_frames_total and
#     _tx_frames_total for every port.

smi_bin=${SMI:-$BIN/gaudi-smi}
smi_dir=/tmp/nic-smi
mkdir -p "$smi_dir"

# What sysfs says: "card port interface mac carrier" per gaudi_en netdev,
# the card being the index of its PCI function among gaudi-smi's cards.
# Few forks (TCG makes each one slow): shell reads, two readlinks a netdev.
smi_expect() {
	smi_bdfs=$("$smi_bin" -Q pci.bus_id --format csv,noheader)
	for smi_nf in /sys/class/net/*; do
		smi_drv=$(readlink "$smi_nf/device/driver" 2>/dev/null)
		[ "${smi_drv##*/}" = gaudi_en.eth ] || continue
		smi_dev=$(readlink -f "$smi_nf/device")
		smi_dev=${smi_dev%/*}
		smi_card=0
		for smi_b in $smi_bdfs; do
			[ "$smi_b" = "${smi_dev##*/}" ] && break
			smi_card=$((smi_card + 1))
		done
		read -r smi_port <"$smi_nf/dev_port"
		read -r smi_mac <"$smi_nf/address"
		smi_car=-
		read -r smi_car 2>/dev/null <"$smi_nf/carrier"
		echo "$smi_card $smi_port ${smi_nf##*/} $smi_mac ${smi_car:--}"
	done | sort -n -k1,1 -k2,2
}

# gaudi-smi -n ports as "card port interface mac link" (rows of ports).
smi_ports() {
	"$smi_bin" -n ports | awk '$1 ~ /^[0-9]+$/ { print $1, $2, $3, $4, $5 }' |
		sort -n -k1,1 -k2,2
}

# The links come up within the driver's 200 ms link poll after "up":
# wait (10 s at most) until some carrier is up and the count holds for 1 s.
smi_carriers() { cat /sys/class/net/*/carrier 2>/dev/null | grep -c '^1$'; }
smi_t=0
smi_last=-1
smi_same=0
while [ $smi_t -lt 20 ] && [ $smi_same -lt 2 ]; do
	smi_now=$(smi_carriers)
	if [ "$smi_now" -gt 0 ] && [ "$smi_now" = "$smi_last" ]; then
		smi_same=$((smi_same + 1))
	else
		smi_same=0
	fi
	smi_last=$smi_now
	sleep 0.5
	smi_t=$((smi_t + 1))
done

# A snapshot of both, taken again (5 times at most) while a carrier
# changes under it.
smi_t=0
while :; do
	smi_before=$(cat /sys/class/net/*/carrier 2>/dev/null)
	smi_expect >"$smi_dir/sys"
	smi_ports >"$smi_dir/smi"
	[ "$smi_before" = "$(cat /sys/class/net/*/carrier 2>/dev/null)" ] && break
	smi_t=$((smi_t + 1))
	[ $smi_t -ge 5 ] && break
	sleep 0.5
done

smi_n=$(wc -l <"$smi_dir/smi")
[ "$smi_n" -eq $((CARDS * 10)) ]
ok $? "gaudi-smi -n ports lists $((CARDS * 10)) ports (got $smi_n)"

# card port interface mac, from both sides
awk '{ print $1, $2, $3, $4 }' "$smi_dir/sys" >"$smi_dir/sys.mac"
awk '{ print $1, $2, $3, $4 }' "$smi_dir/smi" >"$smi_dir/smi.mac"
# (busybox diff is unified only: count the sysfs lines gaudi-smi lacks)
smi_bad=$(grep -cvxFf "$smi_dir/smi.mac" "$smi_dir/sys.mac")
[ "$(wc -l <"$smi_dir/sys.mac")" -eq $((CARDS * 10)) ] && [ "$smi_bad" -eq 0 ] &&
	cmp -s "$smi_dir/sys.mac" "$smi_dir/smi.mac"
ok $? "gaudi-smi -n ports: each netdev on its card and port with its MAC ($smi_bad lines differ)"
[ "$smi_bad" -eq 0 ] || grep -vxFf "$smi_dir/smi.mac" "$smi_dir/sys.mac" |
	head -5 | sed 's/^/#   sysfs, not in gaudi-smi: /'

# link yes exactly where carrier is 1
smi_bad=$(paste -d' ' "$smi_dir/sys" "$smi_dir/smi" |
	awk '{ want = $5 == "1" ? "yes" : $5 == "-" ? "down" : "no"
	       if ($10 != want) n++ }
	     END { print n + 0 }')
smi_up=$(awk '$5 == "1"' "$smi_dir/sys" | wc -l)
[ "$smi_bad" -eq 0 ] && [ "$smi_up" -gt 0 ]
ok $? "gaudi-smi -n ports: link yes exactly on the $smi_up ports with carrier ($smi_bad differ)"

# -n topo: a row per card, every pair linked by a port with link
"$smi_bin" -n topo >"$smi_dir/topo"
smi_rows=$(grep -c '^card[0-9]' "$smi_dir/topo")
smi_bad=$(awk -v n="$CARDS" '/^card[0-9]/ {
		for (j = 2; j <= n + 1; j++)
			if ($j != "X" && $j !~ /^p[0-6]$/) bad++
	} END { print bad + 0 }' "$smi_dir/topo")
[ "$smi_rows" -eq "$CARDS" ] && [ "$smi_bad" -eq 0 ] &&
	grep -q "board map" "$smi_dir/topo"
ok $? "gaudi-smi -n topo: $CARDS rows, each pair of cards linked by a port with link ($smi_bad cells not)"
[ "$smi_bad" -eq 0 ] || sed 's/^/#   /' "$smi_dir/topo"

# --format json: nesting outside strings, one object per port
"$smi_bin" -n ports --format json >"$smi_dir/json"
smi_st=$?
smi_msg=$(awk '
	{ s = s $0 "\n" }
	END {
		gsub(/\\./, "", s)		# escapes inside strings
		gsub(/"[^"]*"/, "\"\"", s)	# strings
		d = 0
		for (i = 1; i <= length(s); i++) {
			ch = substr(s, i, 1)
			if (ch == "{" || ch == "[") st[++d] = ch
			else if (ch == "}" || ch == "]") {
				if (d == 0 || (ch == "}") != (st[d] == "{")) {
					print "bad nesting at " i; exit 1
				}
				d--
			}
		}
		if (d) { print "unclosed"; exit 1 }
		print "nested"
	}' "$smi_dir/json")
smi_ok=$?
smi_ports_n=$(grep -o '"port": [0-9]*, "interface": "[^"]*"' "$smi_dir/json" | wc -l)
[ $smi_st -eq 0 ] && [ $smi_ok -eq 0 ] && [ "$smi_ports_n" -eq $((CARDS * 10)) ]
ok $? "gaudi-smi -n ports --format json: $smi_msg, $smi_ports_n ports with their interface"

# --prometheus: the port families for every port
"$smi_bin" --prometheus >"$smi_dir/prom"
smi_miss=
for smi_m in gaudi_nic_port_link gaudi_nic_port_rx_frames_total \
	gaudi_nic_port_tx_frames_total; do
	smi_c=$(grep -c "^$smi_m{card=\"[0-9]*\",bus_id=\"[^\"]*\",port=\"[0-9]\"} [0-9]" \
		"$smi_dir/prom")
	[ "$smi_c" -eq $((CARDS * 10)) ] || smi_miss="$smi_miss $smi_m($smi_c)"
done
smi_c=$(grep -c '^gaudi_nic_port_link{.*} 1$' "$smi_dir/prom")
[ -z "$smi_miss" ] && [ "$smi_c" -eq "$smi_up" ]
ok $? "gaudi-smi --prometheus: link and frame counters of the $((CARDS * 10)) ports, $smi_c links up${smi_miss:+ (short:$smi_miss)}"
