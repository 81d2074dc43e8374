#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /sys/kernel/debug/sched/rust_lb lists every counter, "0" resets them, and
# any other write is refused with EINVAL, leaving the values alone.
. "$(dirname "$0")/lib.sh"

NAMES="rust_calls_get_llc_shared rust_calls_update_idle_cpu_scan rust_calls_ilb_budget
rust_calls_update_ilb_group_scan rust_calls_newidle_skip rust_calls_ttwu_queue_cond
rust_calls_calculate_imbalance rust_calls_serialize newidle_scans newidle_scans_truncated
newidle_groups_scanned newidle_groups_skipped ilb_snapshots_published
newidle_skipped_not_overloaded wakelist_idle_queued llc_imbalance_by_tasks
llc_imbalance_by_util idle_cpus_underflow_avoided serialize_attempts
serialize_skipped_not_due serialize_contended serialize_due placement_ticks
placement_stacked placement_stacked_idle verify_checks verify_mismatches
verify_known_fixes"

ktap_print_header
require_debugfs
if [ ! -e "$COUNTERS" ]; then
	ktap_skip_all "$COUNTERS missing"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 5

missing=""
for n in $NAMES; do
	[ "$(counter "$n")" = missing ] && missing="$missing $n"
done
[ -n "$missing" ] && ktap_print_msg "missing:$missing"
ok=false; [ -z "$missing" ] && ok=true
ktap_test_result "all $(echo $NAMES | wc -w) counters are listed" $ok

extra=$(awk '{print $1}' "$COUNTERS" | while read -r n; do
	echo " $NAMES " | tr '\n' ' ' | grep -q " $n " || echo "$n"; done)
[ -n "$extra" ] && ktap_print_msg "undocumented: $extra"
ok=false; [ -z "$extra" ] && ok=true
ktap_test_result "no counter without documentation" $ok

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
ktap_finished
