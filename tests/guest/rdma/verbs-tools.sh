# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
#
# rdma-core's and perftest's programs between two RDMA ends, unmodified,
# for the rdma suite (two cards of one VM) and the rdma-interop suite (two
# VMs): the list of runs, a server and a client of each, each bounded in
# time, and their figures.  Source it after tap.sh (busybox sh).
#
# A run (vt_runs) is ibv_rc_pingpong with -c (it
# checks every received buffer byte for byte and fails on a mismatch),
# perftest's ib_write_bw, ib_read_bw, ib_send_bw and ib_write_lat, each at
# path MTU 1024 and 4096.  perftest checks no data: a
# perftest run passes when both ends complete.  Each run has its own TCP
# port, so that a client never meets the server of another run.
#
# Environment: VT_TIMEOUT (seconds a tool may run, default 45: a run
# takes seconds under TCG, a server whose client failed after connecting
# waits for it until then), VT_CONNECT_S (seconds a client retries its
# first TCP connection, default VT_TIMEOUT + 30: the server of the run
# before may still wait that long), VT_PERFTEST_OPTS (more perftest options), VERBS_TODO_SEND
# (why the runs of SEND/RECV are not expected to pass yet: TODO results),
# VERBS_TODO_RUNS and VERBS_TODO_RUNS_WHY (runs by name, and why).

VT_TIMEOUT=${VT_TIMEOUT:-45}
VT_CONNECT_S=${VT_CONNECT_S:-$((VT_TIMEOUT + 30))}

# load MODULE: insmod with the modules it depends on (modprobe).
load() {
	l_deps=$(modinfo -F depends "$1" 2>/dev/null | tr ',' ' ')
	# shellcheck disable=SC2086 # a list of module names
	{ [ -z "$l_deps" ] || modprobe -a $l_deps; } && insmod "$1"
}

# load_gaudi_ib: GAUDI_KO, GAUDI_EN_KO, ib_uverbs, GAUDI_IB_KO.
load_gaudi_ib() {
	load "$GAUDI_KO" && load "$GAUDI_EN_KO" && modprobe ib_uverbs &&
		load "$GAUDI_IB_KO"
}

# gid_index DEV PORT GID: the index of a RoCE v2 GID in the port's table.
gid_index() {
	i=0
	while [ $i -lt 16 ]; do
		if [ "$(cat "/sys/class/infiniband/$1/ports/$2/gids/$i" 2>/dev/null)" = "$3" ] &&
		   [ "$(cat "/sys/class/infiniband/$1/ports/$2/gid_attrs/types/$i" 2>/dev/null)" = "RoCE v2" ]; then
			echo $i
			return 0
		fi
		i=$((i + 1))
	done
	return 1
}

# wait_for SECONDS COMMAND...: until COMMAND succeeds (0) or time is up.
wait_for() {
	w_t=$(($1 * 5))
	shift
	while ! "$@" >/dev/null 2>&1; do
		w_t=$((w_t - 1))
		[ $w_t -le 0 ] && return 1
		sleep 0.2
	done
}

# ipv4_gid A.B.C.D: the address's RoCE v2 GID as sysfs shows it.
ipv4_gid() {
	echo "$1" | awk -F. '{ printf "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n", $1, $2, $3, $4 }'
}

# vt_runs: the runs, one a line: NAME NEEDS TOOL TCP-PORT ARGS..., NEEDS
# the operation the run cannot do without (send: SEND/RECV).
vt_runs() {
	cat <<'EOF'
pingpong-1024 send ibv_rc_pingpong 18601 -m 1024 -s 16384 -n 20 -c
pingpong-4096 send ibv_rc_pingpong 18602 -m 4096 -s 65536 -n 20 -c
write_bw-1024 write ib_write_bw 18603 -m 1024 -s 65536 -n 200 -F --report_gbits
write_bw-4096 write ib_write_bw 18604 -m 4096 -s 65536 -n 200 -F --report_gbits
read_bw-1024 read ib_read_bw 18608 -m 1024 -s 65536 -n 200 -F --report_gbits
read_bw-4096 read ib_read_bw 18605 -m 4096 -s 65536 -n 200 -F --report_gbits
send_bw-1024 send ib_send_bw 18609 -m 1024 -s 65536 -n 200 -F --report_gbits
send_bw-4096 send ib_send_bw 18606 -m 4096 -s 65536 -n 200 -F --report_gbits
write_lat-1024 write ib_write_lat 18610 -m 1024 -s 8 -n 200 -F
write_lat-4096 write ib_write_lat 18607 -m 4096 -s 8 -n 200 -F
EOF
}

# vt_todo_reason TODO NEEDS NAME: why run NAME (of NEEDS) is not expected
# to pass yet: TODO (all runs); for a run of SEND/RECV, VERBS_TODO_SEND;
# for a run named in VERBS_TODO_RUNS, VERBS_TODO_RUNS_WHY; else empty.
vt_todo_reason() {
	if [ -n "$1" ]; then
		echo "$1"
	elif [ "$2" = send ] && [ -n "${VERBS_TODO_SEND:-}" ]; then
		echo "$VERBS_TODO_SEND"
	elif echo " ${VERBS_TODO_RUNS:-} " | grep -q " $3 "; then
		echo "${VERBS_TODO_RUNS_WHY:-known to fail}"
	fi
}

# vt_dev_args TOOL DEV PORT GID: the device options of TOOL.
vt_dev_args() {
	case $1 in
	ibv_*) echo "-d $2 -i $3 -g $4" ;;
	*) echo "-d $2 -i $3 -x $4 ${VT_PERFTEST_OPTS:-}" ;;
	esac
}

# vt_server LOG DEV PORT GID TOOL TCP ARGS...: the server end of one run,
# bounded by VT_TIMEOUT; its output in LOG, its status returned.
vt_server() {
	vs_log=$1 vs_dev=$2 vs_port=$3 vs_gid=$4 vs_tool=$5 vs_tcp=$6
	shift 6
	# shellcheck disable=SC2046 # option words
	timeout "$VT_TIMEOUT" "$vs_tool" $(vt_dev_args "$vs_tool" "$vs_dev" \
		"$vs_port" "$vs_gid") -p "$vs_tcp" "$@" </dev/null >"$vs_log" 2>&1
}

# vt_client LOG HOST DEV PORT GID TOOL TCP ARGS...: the client end, which
# tries again while the server does not listen yet (for VT_CONNECT_S
# seconds); its status.  When it fails before it connected, a bare TCP
# connection releases the waiting server (it reads no peer and ends).
vt_client() {
	vc_log=$1 vc_host=$2 vc_dev=$3 vc_port=$4 vc_gid=$5 vc_tool=$6 vc_tcp=$7
	shift 7
	vc_t=$((VT_CONNECT_S * 2))
	while :; do
		# shellcheck disable=SC2046 # option words
		timeout "$VT_TIMEOUT" "$vc_tool" $(vt_dev_args "$vc_tool" \
			"$vc_dev" "$vc_port" "$vc_gid") -p "$vc_tcp" "$@" \
			"$vc_host" </dev/null >"$vc_log" 2>&1
		vc_st=$?
		[ $vc_st -eq 0 ] && return 0
		grep -q "Couldn't connect to" "$vc_log" || break
		vc_t=$((vc_t - 1))
		[ $vc_t -le 0 ] && return $vc_st
		sleep 0.5
	done
	grep -Eq "local address|remote address|#bytes" "$vc_log" ||
		nc -w 2 "$vc_host" "$vc_tcp" </dev/null >/dev/null 2>&1
	return "$vc_st"
}

# vt_figure NAME LOG: the run's figure from its client's output: average
# bandwidth (Gb/s) of a *_bw run, average latency (usec) of a *_lat run,
# nothing for a pingpong (its own Mbit/sec line is the ping-pong rate).
vt_figure() {
	case $1 in
	*_bw-*) awk '$1 == 65536 && $2 == 200 { print $4; exit }' "$2" ;;
	*_lat-*) awk '$1 == 8 && $2 == 200 { print $6; exit }' "$2" ;;
	esac
}

# vt_todo_or_ok TODO STATUS DESCRIPTION: ok, or a TODO with reason TODO
# when TODO is not empty.
vt_todo_or_ok() {
	if [ -n "$1" ]; then
		todo "$2" "$3" "$1"
	else
		ok "$2" "$3"
	fi
}

# vt_show LOG: the last lines of a tool's output as comments.
vt_show() { tail -n "${2:-6}" "$1" | sed 's/^/# | /'; }
