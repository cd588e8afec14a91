#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# gaudi.ko's tracepoints and debug messages (issue 11;
# Documentation/accel/gaudi.rst, "Debug messages and tracepoints").
#
# With every gaudi event on in tracefs and the [RESET] debug messages on in
# dynamic debug, gaudi_remap_test runs (CSs on several queues, MMU maps and
# unmaps) and the card is hard reset through sysfs; then each event must
# be in the trace with its card named, the reset's debug lines in dmesg,
# and nothing of it once both are off again.
#
# Sourced by suite.sh (after tap.sh) with gaudi.ko loaded; BIN holds
# gaudi_remap_test.

trace_test() {
	tr_dir=/sys/kernel/tracing
	tr_ddc=/sys/kernel/debug/dynamic_debug/control
	[ -d "$tr_dir/events" ] || mount -t tracefs nodev "$tr_dir" 2>/dev/null
	[ -d "$tr_dir/events/gaudi" ]
	ok $? "tracefs has events/gaudi"
	[ -d "$tr_dir/events/gaudi" ] || return
	# A kernel without CONFIG_DYNAMIC_DEBUG (a trimmed debug kernel) has
	# no debug messages to turn on: those checks are counted skips there.
	tr_nodd="the kernel has no dynamic debug (CONFIG_DYNAMIC_DEBUG)"
	if [ -e "$tr_ddc" ]; then
		grep -q '\[gaudi\]' "$tr_ddc"
		ok $? "dynamic debug knows gaudi's debug messages"
	else
		skip "dynamic debug knows gaudi's debug messages" "$tr_nodd"
	fi

	tr_bdf=$(basename "$(readlink /sys/class/accel/accel0/device)")
	tr_cnt=/sys/bus/pci/devices/$tr_bdf/hard_reset_cnt
	tr_before=$(cat "$tr_cnt")
	# A reset writes some 20,000 registers: room for all of it.
	echo 8192 > "$tr_dir/buffer_size_kb"
	echo > "$tr_dir/trace"
	echo 1 > "$tr_dir/events/gaudi/enable"
	[ -e "$tr_ddc" ] && echo "module gaudi format '[RESET]' +p" > "$tr_ddc"
	tr_n0=$(dmesg | wc -l)
	sub "$BIN/gaudi_remap_test" --card 0
	echo 1 > "/sys/bus/pci/devices/$tr_bdf/hard_reset"
	tr_t=0
	while [ "$(cat "$tr_cnt")" = "$tr_before" ] && [ "$tr_t" -lt 100 ]; do
		sleep 0.1
		tr_t=$((tr_t + 1))
	done
	echo 0 > "$tr_dir/events/gaudi/enable"
	[ -e "$tr_ddc" ] && echo "module gaudi format '[RESET]' -p" > "$tr_ddc"
	cp "$tr_dir/trace" /tmp/gaudi.trace
	for tr_ev in gaudi_cs_submit gaudi_cs_complete gaudi_queue_doorbell \
		gaudi_mmu_map gaudi_mmu_unmap gaudi_reset_start \
		gaudi_reset_done gaudi_cpucp_request gaudi_reg_read \
		gaudi_reg_write; do
		tr_n=$(grep -c " $tr_ev: accel0 " /tmp/gaudi.trace)
		[ "$tr_n" -gt 0 ]
		ok $? "trace: $tr_ev events of accel0 ($tr_n)"
	done
	grep -q 'gaudi_reset_start: accel0 reason="requested' /tmp/gaudi.trace
	ok $? "trace: the reset's reason"
	grep -q 'gaudi_reset_done: accel0 ret=0 ' /tmp/gaudi.trace
	ok $? "trace: the reset succeeded"
	grep -q 'gaudi_reg_write: accel0 mmPSOC_GLOBAL_CONF_SW_ALL_RST' \
		/tmp/gaudi.trace
	ok $? "trace: register writes by name (SW_ALL_RST)"
	dmesg | tail -n +$((tr_n0 + 1)) > /tmp/gaudi.dmesg
	if [ -e "$tr_ddc" ]; then
		grep -q '\[RESET\] hard reset done' /tmp/gaudi.dmesg
		ok $? "dynamic debug: the [RESET] messages of the reset"
		tr_n=$(grep -c '\[CS\]' /tmp/gaudi.dmesg)
		[ "$tr_n" -eq 0 ]
		ok $? "dynamic debug: no [CS] message unless asked ($tr_n)"
	else
		skip "dynamic debug: the [RESET] messages of the reset" "$tr_nodd"
		skip "dynamic debug: no [CS] message unless asked" "$tr_nodd"
	fi
	echo > "$tr_dir/trace"
	sub "$BIN/gaudi_remap_test" --card 0
	tr_n=$(grep -c ' gaudi_' "$tr_dir/trace")
	[ "$tr_n" -eq 0 ]
	ok $? "trace: nothing once the events are off ($tr_n)"
	echo 1408 > "$tr_dir/buffer_size_kb"
	rm -f /tmp/gaudi.trace /tmp/gaudi.dmesg
}
