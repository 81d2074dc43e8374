#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Torture the helpers for STRESS_SECONDS (default 20): at the same time
#  - keep the CPUs busy with the project's workloads,
#  - take CPUs offline and online again (domains rebuilt, sd_llc_shared
#    replaced, nr_groups recounted),
#  - create and remove cpuset partitions (another rebuild path),
#  - flip every behaviour feature and RUST_LB at a high rate,
# all with RUST_LB_VERIFY on.  Passes when every CPU comes back, the
# workloads finish, verify finds no disagreement, and (dmesg_clean.sh, run
# after this) the log has no splat.
. "$(dirname "$0")/lib.sh"

SECS=${STRESS_SECONDS:-20}
FEATS=${STRESS_FEATS-$(cases_field 2 | tr '\n' ' ')}
CG=/sys/fs/cgroup
T=/tmp/stress.$$
mkdir -p "$T"

ktap_print_header
require_debugfs
ktap_set_plan 7
ktap_print_msg "$SECS s on $NCPUS CPUs"
end=$(( $(date +%s) + SECS ))

echo RUST_LB_VERIFY > "$FEATURES"
counters_reset

load "$BIN/wakelat" -m 2 -t 4 -r 2 -w 0 &
load "$BIN/msgbench" -g 2 -f 4 -l 100 &
load "$BIN/idlewake" -r 2 -n "$NCPUS" &
load "$BIN/spin" -r 1 -n "$NCPUS" &
nload=4

# CPU hotplug: every CPU but 0 goes down and comes back, in turn.
(
	n=0
	while [ "$(date +%s)" -lt "$end" ]; do
		c=$(( RANDOM % (NCPUS - 1) + 1 ))
		f=/sys/devices/system/cpu/cpu$c/online
		if echo 0 > "$f"; then
			echo 1 > "$f" || echo "cpu$c did not come back" >> "$T/hp-fail"
			n=$((n + 1))
		fi
	done
	echo "$n" > "$T/hp-count"
) &

# cpuset partitions: a root partition of two CPUs, then back and away.
(
	n=0
	if echo "+cpuset" > "$CG/cgroup.subtree_control" 2>/dev/null; then
		while [ "$(date +%s)" -lt "$end" ]; do
			p=$CG/stress-part
			mkdir -p "$p"
			lo=$(( (RANDOM % (NCPUS / 2)) * 2 ))
			[ "$lo" -eq 0 ] && lo=2
			echo "$lo-$((lo + 1))" > "$p/cpuset.cpus" 2>/dev/null
			echo root > "$p/cpuset.cpus.partition" 2>/dev/null && n=$((n + 1))
			sleep 0.2
			echo member > "$p/cpuset.cpus.partition" 2>/dev/null
			rmdir "$p" 2>/dev/null
		done
	fi
	echo "$n" > "$T/cs-count"
) &

# Feature flips.
(
	n=0
	while [ "$(date +%s)" -lt "$end" ]; do
		for f in $FEATS; do
			if [ $((RANDOM % 2)) = 0 ]; then
				echo "NO_$f"
			else
				echo "$f"
			fi > "$FEATURES"
			n=$((n + 1))
		done
	done
	echo "$n" > "$T/flip-count"
) &

wait
for f in $FEATS; do echo "$f" > "$FEATURES"; done
# Hotplug turns features off and on only through the file; make sure all
# CPUs are back whatever happened.
offline=""
for f in /sys/devices/system/cpu/cpu[0-9]*/online; do
	[ "$(cat "$f")" = 1 ] || { offline="$offline $f"; echo 1 > "$f"; }
done
checks=$(counter_sum verify_checks_)
mism=$(counter_sum verify_mismatches_)
echo NO_RUST_LB_VERIFY > "$FEATURES"

hp=$(cat "$T/hp-count" 2>/dev/null || echo 0)
cs=$(cat "$T/cs-count" 2>/dev/null || echo 0)
flips=$(cat "$T/flip-count" 2>/dev/null || echo 0)
done_n=$(wc -l < "$T/load-done" 2>/dev/null || echo 0)
ktap_print_msg \
	"hotplug cycles $hp, cpuset partitions $cs, feature flips $flips, verify checks $checks"

ok=false; [ "$hp" -gt 0 ] && [ ! -e "$T/hp-fail" ] && ok=true
[ -e "$T/hp-fail" ] && ktap_print_msg "$(cat "$T/hp-fail")"
ktap_test_result "CPU hotplug cycles ($hp) all brought the CPU back" $ok
ok=false; [ -z "$offline" ] && ok=true
ktap_test_result "every CPU is online at the end" $ok
ok=false; [ "$flips" -gt 0 ] && ok=true
ktap_test_result "features flipped ($flips)" $ok
ok=false; [ "$done_n" -eq "$nload" ] && [ ! -e "$T/load-fail" ] && ok=true
[ -e "$T/load-fail" ] && ktap_print_msg "$(sort "$T/load-fail" | uniq -c | head -5)"
ktap_test_result "workloads ran to the end without failing" $ok
ok=false; [ "$mism" -eq 0 ] && ok=true
ktap_test_result "RUST_LB_VERIFY found no disagreement ($checks checks)" $ok
topo=$(cat "$SCHED_DEBUGFS/rust_lb_topology" 2>/dev/null)
ktap_print_msg "domain check after the storm: ${topo:-unavailable}"
ok=false
case "$topo" in "domains "*" groups_mismatch 0") ok=true ;; esac
ktap_test_result "every domain's nr_groups matches its group ring" $ok
if [ "$cs" -gt 0 ]; then
	ktap_test_pass "cpuset root partitions created and removed ($cs)"
else
	ktap_test_skip "cpuset partitions not available"
fi
rm -rf "$T"
ktap_finished
