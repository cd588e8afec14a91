#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# gaudi-smi --cdi against a real CDI consumer, Debian's podman: the spec
# test_smi_ops wrote for its two fake cards ($1) is installed in
# /var/run/cdi, with each device node's hostPath pointing at a character
# device made here with the node's number (accelN 261:N, accel_controlDN
# 261:64+N: the host has no card).  podman must resolve
# habana.ai/gaudi=0, =<bus id> and =all into exactly those nodes in the
# container's OCI configuration, and refuse a device the spec does not
# have.  Starting the container needs cgroup v2 and a high RLIMIT_NOFILE;
# where the host has neither (a container with cgroup v1), the start's
# failure is reported and the OCI configuration podman built is what is
# checked.  Root only (podman's system store); prints TAP.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib/tap.sh
. "$here/../lib/tap.sh"
spec=${1:?usage: cdi-podman.sh SPEC}
if [ "$(id -u)" != 0 ] || ! command -v podman >/dev/null; then
	skip "CDI spec in podman" "needs root and podman (tools/host/install-deps.sh)"
	tap_done
	exit 0
fi
tmp=$(mktemp -d)
cdi=/var/run/cdi/gaudi-open-test-$$.json
img=localhost/gaudi-open-cdi-test:$$
cleanup() {
	podman rm -f -a --filter "ancestor=$img" >/dev/null 2>&1
	podman rmi -f "$img" >/dev/null 2>&1
	rm -f "$cdi"
	rm -rf "$tmp"
}
trap cleanup EXIT

# The spec with host paths under $tmp, and the nodes there.
mkdir -p /var/run/cdi "$tmp/dev/accel" "$tmp/root/bin"
python3 - "$spec" "$tmp" >"$cdi" <<'PY'
import json, os, re, sys
s = json.load(open(sys.argv[1]))
for d in s["devices"]:
    for n in d["containerEdits"]["deviceNodes"]:
        n["hostPath"] = sys.argv[2] + n["path"]
print(json.dumps(s, indent=1))
PY
ok $? "the spec, its nodes pointed at $tmp/dev"
for p in $(python3 -c 'import json,sys
for d in json.load(open(sys.argv[1]))["devices"]:
    for n in d["containerEdits"]["deviceNodes"]: print(n["path"])' "$spec" | sort -u); do
	num=${p##*[!0-9]}
	case $p in
	*accel_controlD*) mknod "$tmp$p" c 261 $((64 + num)) ;;
	*) mknod "$tmp$p" c 261 "$num" ;;
	esac
done
ok $? "character devices for the spec's nodes"

cp /bin/busybox "$tmp/root/bin/" && ln -s busybox "$tmp/root/bin/sh" &&
	tar -C "$tmp/root" -cf "$tmp/root.tar" . &&
	podman import -q "$tmp/root.tar" "$img" >/dev/null
ok $? "a busybox image imported locally ($img)"

# devices DEVICE: the /dev paths and numbers podman put in the OCI config
devices() {
	local cid
	cid=$(podman create --network none --ulimit nofile=1024:1024 \
		--device "habana.ai/gaudi=$1" "$img" /bin/busybox ls -l /dev/accel 2>"$tmp/err")
	podman start -a "$cid" >"$tmp/run.out" 2>"$tmp/run.err"
	echo $? >"$tmp/run.rc"
	python3 - "$(podman inspect --format '{{.StaticDir}}' "$cid" 2>/dev/null)/config.json" <<'PY' 2>/dev/null
import json, sys
c = json.load(open(sys.argv[1]))
for d in c["linux"]["devices"]:
    if d["path"].startswith("/dev/accel/"):
        print("%s %s %d:%d" % (d["path"], d["type"], d["major"], d["minor"]))
PY
	podman rm -f "$cid" >/dev/null 2>&1
}
want0="/dev/accel/accel0 c 261:0
/dev/accel/accel_controlD0 c 261:64"
want1="/dev/accel/accel1 c 261:1
/dev/accel/accel_controlD1 c 261:65"
got=$(devices 0 | sort)
[ "$got" = "$want0" ]
ok $? "podman: habana.ai/gaudi=0 is card 0's compute and control node ($(echo $got))"
if [ "$(cat "$tmp/run.rc")" = 0 ]; then
	grep -q "accel_controlD0" "$tmp/run.out"
	ok $? "podman: the container sees them in /dev/accel"
else
	diag "the container did not start on this host: $(tail -n 1 "$tmp/run.err")"
fi
got=$(devices 0000:02:00.0 | sort)
[ "$got" = "$want1" ]
ok $? "podman: habana.ai/gaudi=0000:02:00.0 (a bus id) is card 1"
got=$(devices all | sort)
[ "$got" = "$(printf '%s\n%s\n' "$want0" "$want1" | sort)" ]
ok $? "podman: habana.ai/gaudi=all is both cards"
devices 9 >/dev/null
grep -q "unresolvable CDI devices habana.ai/gaudi=9" "$tmp/run.err" "$tmp/err"
ok $? "podman: habana.ai/gaudi=9, not in the spec, is refused"
tap_done
