#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Rust against stock C, per helper: /sys/kernel/debug/sched/rust_lb_bench
# runs each helper, its C twin and an empty loop COST_ITERATIONS times
# (default 5000) per repeat and reports picoseconds per call.  The test
# checks the benchmark refuses to run while schedstats make the helpers
# count (the twins count nothing), runs with them off and leaves the event
# counters alone, reports every helper and every repeat, refuses bad
# iteration counts, and prints the table (tools/helper-cost does the
# statistics on the icount clock; see Documentation/results.rst).
. "$(dirname "$0")/lib.sh"

BENCH=$SCHED_DEBUGFS/rust_lb_bench
HELPERS="get_llc_shared sis_util_scan ilb_scan_depth newidle_skip ttwu_queue_cond calculate_imbalance"
SCHEDSTATS=/proc/sys/kernel/sched_schedstats

ktap_print_header
require_debugfs
if [ ! -e "$BENCH" ]; then
	ktap_skip_all "$BENCH missing"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 5
iterations=${COST_ITERATIONS:-5000}
saved=$(cat "$SCHEDSTATS")

echo 1 > "$SCHEDSTATS"
refused=true
echo "$iterations" > "$BENCH" 2>/dev/null && refused=false
ktap_test_result "the benchmark refuses to run while schedstats are on (the helpers would count)" $refused

echo 0 > "$SCHEDSTATS"
before=$(counter rust_calls_calculate_imbalance)
ok=false
echo "$iterations" > "$BENCH" && ok=true
moved=$(( $(counter rust_calls_calculate_imbalance) - before ))
echo "$saved" > "$SCHEDSTATS"
ok2=false; [ "$ok" = true ] && [ "$moved" -eq 0 ] && ok2=true
ktap_test_result "it runs with schedstats off, counting nothing (rust_calls_calculate_imbalance +$moved)" $ok2

cat "$BENCH" | while read -r line; do ktap_print_msg "$line"; done
missing=""
for h in $HELPERS; do
	n=$(grep -c "^$h " "$BENCH")
	[ "$n" -ge 5 ] || missing="$missing $h($n)"
done
ok=false; [ -z "$missing" ] && ok=true
ktap_test_result "every helper is reported, at least 5 repeats each${missing:+ (short:$missing)}" $ok

bad_line=$(awk '!/^#/ && $1 != "helper" && !($3 > 0 && $4 > 0 && $5 > 0)' "$BENCH" | head -n 1)
ok=false; [ -z "$bad_line" ] && ok=true
ktap_test_result "every repeat timed all three loops${bad_line:+ (not: $bad_line)}" $ok

echo 0 > "$SCHEDSTATS"
refused=true
for bad in 0 1 1000001 abc -5; do
	echo "$bad" > "$BENCH" 2>/dev/null && refused=false
done
echo "$saved" > "$SCHEDSTATS"
ktap_test_result "bad iteration counts are refused" $refused
ktap_finished
