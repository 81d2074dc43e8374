#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Rust against its C twin and the stock C, per helper: /sys/kernel/debug/sched/rust_lb_bench
# runs each helper, its C twin, the stock C and an empty loop
# COST_ITERATIONS times (default 5000) per repeat and reports picoseconds
# per call.  The test checks the benchmark refuses to run while schedstats
# make the helpers count (the stock C counts nothing), runs with them off
# and leaves the event
# counters alone, reports every helper and every repeat, refuses bad
# iteration counts, and prints the table (tools/measure/helper-cost does the
# statistics on the icount clock; see Documentation/results.rst).
. "$(dirname "$0")/lib.sh"

BENCH=$SCHED_DEBUGFS/rust_lb_bench
HELPERS="get_llc_shared sis_util_scan ilb_scan_depth newidle_skip ttwu_queue_cond"
HELPERS="$HELPERS calculate_imbalance"
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
ktap_test_result \
	"the benchmark refuses to run while schedstats are on (the helpers would count)" \
	$refused

echo 0 > "$SCHEDSTATS"
before=$(counter rust_calls_spare_imbalance)
ok=false
echo "$iterations" > "$BENCH" && ok=true
moved=$(( $(counter rust_calls_spare_imbalance) - before ))
echo "$saved" > "$SCHEDSTATS"
ok2=false; [ "$ok" = true ] && [ "$moved" -eq 0 ] && ok2=true
ktap_test_result \
	"it runs with schedstats off, counting nothing (rust_calls_spare_imbalance +$moved)" \
	$ok2

cat "$BENCH" | while read -r line; do ktap_print_msg "$line"; done
missing=""
for h in $HELPERS; do
	n=$(grep -c "^$h " "$BENCH")
	[ "$n" -ge 5 ] || missing="$missing $h($n)"
done
ok=false; [ -z "$missing" ] && ok=true
ktap_test_result \
	"every helper is reported, at least 5 repeats each${missing:+ (short:$missing)}" \
	$ok

# Each helper's four loops (empty, Rust, C twin, stock C) took time over
# its repeats.  A single short repeat may read 0 ns on an emulated clock; a
# loop that never ran reads 0 in every repeat.
bad_helper=$(awk '!/^#/ && $1 != "helper" { b[$1] += $3; r[$1] += $4; c[$1] += $5; s[$1] += $6 }
	END { for (h in b) if (!(b[h] > 0 && r[h] > 0 && c[h] > 0 && s[h] > 0)) print h }' \
	"$BENCH" | head -n 1)
ok=false; [ -z "$bad_helper" ] && ok=true
ktap_test_result "every helper's four loops were timed${bad_helper:+ (not: $bad_helper)}" $ok

echo 0 > "$SCHEDSTATS"
refused=true
for bad in 0 1 1000001 abc -5; do
	echo "$bad" > "$BENCH" 2>/dev/null && refused=false
done
echo "$saved" > "$SCHEDSTATS"
ktap_test_result "bad iteration counts are refused" $refused
ktap_finished
