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
T=/tmp/stress.$$
mkdir -p "$T"

ktap_print_header
require_debugfs
ktap_set_plan 7
ktap_print_msg "$SECS s on $NCPUS CPUs"
end=$(( $(date +%s) + SECS ))

echo RUST_LB_VERIFY > "$FEATURES"
counters_reset

storm_load
storm_hotplug 0
storm_cpusets stress-part 0.2
storm_flips 0 $FEATS

wait
for f in $FEATS; do echo "$f" > "$FEATURES"; done
# Hotplug turns features off and on only through the file; make sure all
# CPUs are back whatever happened.
offline=$(cpus_online)
checks=$(counter_sum verify_checks_)
mism=$(counter_sum verify_mismatches_)
echo NO_RUST_LB_VERIFY > "$FEATURES"

hp=$(cat "$T/hp-count" 2>/dev/null || echo 0)
cs=$(cat "$T/cs-count" 2>/dev/null || echo 0)
flips=$(cat "$T/flip-count" 2>/dev/null || echo 0)
ktap_print_msg \
	"hotplug cycles $hp, cpuset partitions $cs, feature flips $flips, verify checks $checks"

ok=false; [ "$hp" -gt 0 ] && [ ! -e "$T/hp-fail" ] && ok=true
[ -e "$T/hp-fail" ] && ktap_print_msg "$(cat "$T/hp-fail")"
ktap_test_result "CPU hotplug cycles ($hp) all brought the CPU back" $ok
ok=false; [ -z "$offline" ] && ok=true
ktap_test_result "every CPU is online at the end" $ok
ok=false; [ "$flips" -gt 0 ] && ok=true
ktap_test_result "features flipped ($flips)" $ok
test_load_done
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
