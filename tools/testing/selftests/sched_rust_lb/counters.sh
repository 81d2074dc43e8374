#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /sys/kernel/debug/sched/rust_lb lists every counter of
# kernel/sched/rust_lb_counters.h (and rust_lb_decisions.h) and no other, "0"
# resets them, any other write is refused with EINVAL, leaving the values
# alone, and nothing is counted while schedstats are off.
. "$(dirname "$0")/lib.sh"

# The counters: the one list, kernel/sched/rust_lb_counters.h, then
# RUST_LB_VERIFY's checks and mismatches and the policy rejections per
# decision of kernel/sched/rust_lb_decisions.h, both installed beside the
# tests.
NAMES=$(sed -n 's/^RUST_LB_COUNTER(\([a-z0-9_]*\))$/\1/p' "$(dirname "$0")/rust_lb_counters.h"
	for d in $(decisions); do
		echo "verify_checks_$d verify_mismatches_$d policy_rejected_$d"
	done)

ktap_print_header
require_debugfs
if [ ! -e "$COUNTERS" ]; then
	ktap_skip_all "$COUNTERS missing"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 6

missing=""
for n in $NAMES; do
	[ "$(counter "$n")" = missing ] && missing="$missing $n"
done
[ -n "$missing" ] && ktap_print_msg "missing:$missing"
ok=false; [ -z "$missing" ] && ok=true
ktap_test_result "all $(echo $NAMES | wc -w) counters are listed" $ok

extra=$(awk '{print $1}' "$COUNTERS" | while read -r n; do
	echo " $NAMES " | tr '\n' ' ' | grep -q " $n " || echo "$n"; done)
[ -n "$extra" ] && ktap_print_msg "not in rust_lb_counters.h or rust_lb_decisions.h: $extra"
ok=false; [ -z "$extra" ] && ok=true
ktap_test_result "no counter that the two lists do not name" $ok

run_load wake
before=$(counter rust_calls_ttwu_queue_cond)
ok=false; [ "$before" -gt 0 ] && ok=true
ktap_test_result "counters move under load (ttwu calls: $before)" $ok

for bad in 1 -1 abc 18446744073709551616 " "; do
	if printf '%s' "$bad" > "$COUNTERS" 2>/dev/null; then
		ktap_print_msg "write of '$bad' was accepted"
		rejected=false
	fi
done
after=$(counter rust_calls_ttwu_queue_cond)
ok=false; [ "${rejected:-true}" = true ] && [ "$after" -ge "$before" ] && ok=true
ktap_test_result "bad writes are refused and leave the values ($before -> $after)" $ok

counters_reset
v=$(counter rust_calls_ttwu_queue_cond)
ok=false; [ "$v" -lt "$before" ] && ok=true
ktap_test_result "writing 0 resets the counters ($before -> $v)" $ok

# Counting follows schedstats: with them off the counters stand still
# under the same load (the static key skips the per-CPU add).
if [ -w "$SCHEDSTATS_SYSCTL" ]; then
	echo 0 > "$SCHEDSTATS_SYSCTL"
	counters_reset
	run_load wake
	off=$(counter rust_calls_ttwu_queue_cond)
	echo 1 > "$SCHEDSTATS_SYSCTL"
	ok=false; [ "$off" -eq 0 ] && ok=true
	ktap_test_result "with schedstats off nothing is counted (ttwu calls: $off)" $ok
else
	ktap_test_skip "with schedstats off nothing is counted ($SCHEDSTATS_SYSCTL missing)"
fi
ktap_finished
