#!/bin/bash
# Run test suites one after another and add up their closing lines.
#   tests/summarize.sh NAME 'command' [NAME 'command' ...]
# Each command prints TAP ending with "N passed, N failed"; a command that
# exits non-zero without such a line, or with "0 failed" but a non-zero
# status, counts as one more failure.  A closing line's ", N skipped" is
# counted apart: skips are neither passes nor failures.  Ends with the total
# closing line "N passed, N failed, N skipped" and exits non-zero if
# anything failed.  A suite that fails before printing any test result
# (an infrastructure failure) is run once more, after a line saying so.
# The last lines of each failed suite's output are
# repeated just before that line, so that a log cut to its tail (CI)
# still shows why.
set -u

total_pass=0
total_fail=0
total_skip=0
summary=()
failed_tails=()

while [ $# -ge 2 ]; do
	name=$1 cmd=$2
	shift 2
	echo "### suite $name: $cmd"
	log=$(mktemp)
	start=$(date +%s)
	bash -c "$cmd" 2>&1 | tee "$log"
	status=${PIPESTATUS[0]}
	# Failed before any test ran (a VM that did not start, a full disk):
	# say what the machine had, then once more; a real failure fails
	# again.
	if [ "$status" -ne 0 ] && ! grep -qE '^(not )?ok ' "$log"; then
		echo "# suite $name failed before any test (status $status); the machine: $(df -h . | tail -n 1 | tr -s ' '), $(free -m | awk '/^Mem:/ {print $7 " MiB available"}'); last lines:"
		tail -n 12 "$log" | sed 's/^/#   /'
		echo "# running suite $name again"
		bash -c "$cmd" 2>&1 | tee "$log"
		status=${PIPESTATUS[0]}
	fi
	secs=$(($(date +%s) - start))
	line=$(grep -E '^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [ -n "$line" ]; then
		p=$(echo "$line" | sed -E 's/^([A-Za-z]+: )?([0-9]+) passed.*/\2/')
		f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
		s=$(echo "$line" | sed -nE 's/.* ([0-9]+) skipped.*/\1/p')
		s=${s:-0}
	else
		p=0 f=0 s=0
	fi
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=$((f + 1))
		echo "# suite $name exited with status $status"
	fi
	if [ "$f" -ne 0 ]; then
		failed_tails+=("### $name (status $status), its last lines:")
		failed_tails+=("$(grep -v '^ok ' "$log" | tail -n 12)")
	fi
	rm -f "$log"
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	total_skip=$((total_skip + s))
	summary+=("$(printf '%-12s %5d passed %4d failed %4d skipped %5ds' "$name" "$p" "$f" "$s" "$secs")")
done

echo "### summary"
printf '%s\n' "${summary[@]}"
[ ${#failed_tails[@]} -eq 0 ] || printf '%s\n' "${failed_tails[@]}"
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
