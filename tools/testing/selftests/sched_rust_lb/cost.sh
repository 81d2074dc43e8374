#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Rust against stock C, per helper: /sys/kernel/debug/sched/rust_lb_bench
# runs each helper and its C twin COST_ITERATIONS times (default 20000) and
# reports picoseconds per call.  The test checks the benchmark runs and
# reports every helper, leaves the live event counters alone, refuses bad
# iteration counts, and prints the table (the results page uses longer
# runs; see Documentation/results.rst).
. "$(dirname "$0")/lib.sh"

BENCH=$SCHED_DEBUGFS/rust_lb_bench
HELPERS="get_llc_shared sis_util_scan ilb_scan_depth newidle_skip ttwu_queue_cond calculate_imbalance"

ktap_print_header
require_debugfs
if [ ! -e "$BENCH" ]; then
	ktap_skip_all "$BENCH missing"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 4
iterations=${COST_ITERATIONS:-20000}
before=$(counter rust_calls_calculate_imbalance)
ok=false
echo "$iterations" > "$BENCH" && ok=true
ktap_test_result "the benchmark runs" $ok
# It calls the Rust calculate_imbalance() $iterations times; only the live
# balancing of an idle guest may move the counter, far less often.
moved=$(( $(counter rust_calls_calculate_imbalance) - before ))
ok=false; [ "$moved" -lt $((iterations / 2)) ] && ok=true
ktap_test_result "the event counters only saw live traffic (rust_calls_calculate_imbalance +$moved for $iterations benchmark calls)" $ok
cat "$BENCH" | while read -r line; do ktap_print_msg "$line"; done
missing=""
for h in $HELPERS; do
	grep -q "^$h " "$BENCH" || missing="$missing $h"
done
ok=false; [ -z "$missing" ] && ok=true
ktap_test_result "every helper is reported${missing:+ (missing:$missing)}" $ok
refused=true
for bad in 0 1 1000001 abc -5; do
	echo "$bad" > "$BENCH" 2>/dev/null && refused=false
done
ktap_test_result "bad iteration counts are refused" $refused
ktap_finished
