#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Each mechanism's counter moves under a load that exercises it while its
# feature is on, and stays flat while it is off; with NO_RUST_LB no Rust
# helper is called at all.
. "$(dirname "$0")/lib.sh"

ktap_print_header
require_debugfs
if [ ! -e "$COUNTERS" ]; then
	ktap_skip_all "$COUNTERS missing"
	exit "$KSFT_SKIP"
fi

# feature  counter  load: from the case table, each mechanism's first
# counter (RUST_LB's own case is the last test below).
CASES=$(grep -v '^#' "$CASES_FILE" | grep . | grep -v '^rust_lb:' |
	awk -F: '{ split($4, c, " "); print $2, c[1], $5 }')

ktap_set_plan $(( $(echo "$CASES" | wc -l) * 2 + 1 ))
echo NI_RANDOM > "$FEATURES"

while read -r feat cnt load; do
	# Put each feature back as it was: a later case (SERIALIZE_DUE's
	# with SERIALIZE_RQ off) and a later run depend on it.
	was=$(feature_state "$feat")
	for state in on off; do
		feature_set "$feat" "$state"
		counters_reset
		run_load "$load"
		v=$(counter "$cnt")
		feature_set "$feat" "$was"
		if [ "$state" = on ]; then
			ok=false; [ "$v" -gt 0 ] && ok=true
			ktap_test_result "$feat on: $cnt moves ($v)" $ok
		else
			ok=false; [ "$v" -eq 0 ] && ok=true
			ktap_test_result "NO_$feat: $cnt stays flat ($v)" $ok
		fi
	done
done <<EOT
$CASES
EOT

feature_set RUST_LB off
counters_reset
run_load msg
run_load idle
calls=$(grep '^rust_calls_' "$COUNTERS" | awk '{ s += $2 } END { print s + 0 }')
feature_set RUST_LB on
ok=false; [ "$calls" -eq 0 ] && ok=true
ktap_test_result "NO_RUST_LB: no Rust helper is called ($calls calls)" $ok
ktap_finished
