#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Soak for SOAK_SECONDS (default 20; make soak: 1800), RUST_LB_VERIFY on
# throughout.  At the same time:
#  - every policy module of POLICY_DIR is loaded, left to decide for a
#    moment and removed, in turn, in a loop, with a moment of no module
#    between two (the twin, the built-in module and the unregistration
#    test answer as stock does, wakelist_rfc as its RFC does, out_of_range
#    out of range until it is detached);
#  - every project feature flips, CPUs go offline and online, a cpuset
#    root partition comes and goes, and the project's workloads run.
# Passes when every load and removal succeeded, the decisions taken while
# no module or a stock-answering one was loaded match stock C (each
# window's verify_mismatches_ delta; a diverging module's are counted as
# its divergence), out_of_range was detached, every CPU is back, the
# workloads finished, kmemleak (where the kernel has it) found no new
# leak, and the log has no splat.
. "$(dirname "$0")/lib.sh"

SECS=${SOAK_SECONDS:-20}
DIR=${POLICY_DIR:-/opt/sched-rust-lb/policies}
FEATS=$(cases_field 2 | tr '\n' ' ')
KMEMLEAK=/sys/kernel/debug/kmemleak
T=/tmp/soak.$$
mkdir -p "$T"

ktap_print_header
require_debugfs
mods=$(ls "$DIR"/*.ko 2>/dev/null)
if [ -z "$mods" ] || ! command -v insmod > /dev/null; then
	ktap_skip_all "no policy modules in $DIR, or no insmod (make policy builds them)"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 8
ktap_print_msg "$SECS s on $NCPUS CPUs, modules: $(echo "$mods" | xargs -n1 basename | tr '\n' ' ')"
log_mark
detaches() { log_new | grep -c 'policy out_of_range detached'; }
verify_was=$(feature_state RUST_LB_VERIFY)
feature_set RUST_LB_VERIFY on
# What was allocated before the soak is not its leak.
[ -w "$KMEMLEAK" ] && echo clear > "$KMEMLEAK"
counters_reset
end=$(( $(date +%s) + SECS ))

storm_load
storm_hotplug 0.5
storm_cpusets soak-part 1
# RUST_LB_VERIFY stays on.
storm_flips 0.1 $FEATS RUST_LB

# The module loop, in this shell: each window's mismatches are the change
# of their sum across it.  A window of no module, then one with a module.
mism() { counter_sum verify_mismatches_; }
stock_bad=0 cycles=0 fail=0 oor_loads=0
while [ "$(date +%s)" -lt "$end" ]; do
	for ko in $mods; do
		name=$(basename "$ko" .ko)
		m0=$(mism)
		sleep 0.5
		m1=$(mism)
		stock_bad=$((stock_bad + m1 - m0))
		[ $((m1 - m0)) != 0 ] && echo "no module: $((m1 - m0))" >> "$T/stock-mism"
		insmod "$ko" || { fail=$((fail + 1)); continue; }
		sleep 1
		if [ "$name" = rust_lb_out_of_range ]; then
			# Left until its out-of-range answers detach it, with a load
			# of its own (the soak's may have ended) and every feature
			# on, so that each decision it answers is asked (the flips
			# may have stopped with ILB_UTIL off): policy.sh's way.
			oor_loads=$((oor_loads + 1))
			i=0
			while [ $i -lt 10 ] && [ "$(detaches)" -lt "$oor_loads" ]; do
				for f in $FEATS; do echo "$f" > "$FEATURES"; done
				run_load over
				i=$((i + 1))
			done
		fi
		rmmod "$name" || fail=$((fail + 1))
		m2=$(mism)
		case $name in
		rust_lb_twin|rust_lb_builtin|rust_lb_out_of_range|rust_lb_unregister_test)
			stock_bad=$((stock_bad + m2 - m1))
			[ $((m2 - m1)) != 0 ] && echo "$name: $((m2 - m1))" >> "$T/stock-mism" ;;
		*)	echo "$name $((m2 - m1))" >> "$T/divergence" ;;
		esac
		cycles=$((cycles + 1))
	done
done
wait
for f in $FEATS RUST_LB; do echo "$f" > "$FEATURES"; done
offline=$(cpus_online)
checks=$(counter_sum verify_checks_)
detached=$(detaches)
div=$(awk '{ n[$1] += $2 } END { for (m in n) printf "%s %d, ", m, n[m] }' \
	"$T/divergence" 2>/dev/null)
hp=$(cat "$T/hp-count" 2>/dev/null || echo 0)
cs=$(cat "$T/cs-count" 2>/dev/null || echo 0)
flips=$(cat "$T/flip-count" 2>/dev/null || echo 0)
ktap_print_msg "module cycles $cycles ($fail failed insmod/rmmod), hotplug cycles $hp," \
	"cpuset partitions $cs, feature flips $flips, verify checks $checks"
ktap_print_msg "module divergence from stock C (a different rule, counted): ${div:-none}"

ok=false; [ "$cycles" -gt 0 ] && [ "$fail" = 0 ] && ok=true
ktap_test_result "policy modules loaded and removed ($cycles cycles, $fail failed)" $ok
ok=false; [ "$stock_bad" = 0 ] && [ "$checks" -gt 0 ] && ok=true
[ -e "$T/stock-mism" ] && ktap_print_msg "$(head -n 5 "$T/stock-mism" | tr '\n' ';')"
ktap_test_result \
	"stock decisions match stock C with no module or a stock-answering one ($checks checks)" $ok
ok=false; [ "$detached" = "$oor_loads" ] && ok=true
ktap_test_result \
	"the out-of-range module is detached each time it is loaded ($detached of $oor_loads)" $ok
ok=false; [ "$hp" -gt 0 ] && [ ! -e "$T/hp-fail" ] && [ -z "$offline" ] && ok=true
ktap_test_result "CPU hotplug cycles ($hp) brought every CPU back" $ok
test_load_done
ok=false; [ "$flips" -gt 0 ] && ok=true
ktap_test_result "features flipped ($flips)" $ok
if [ -w "$KMEMLEAK" ]; then
	# Two scans: an object is reported once it was unreferenced in both.
	echo scan > "$KMEMLEAK"
	sleep 6
	echo scan > "$KMEMLEAK"
	leaks=$(grep -c '^unreferenced object' "$KMEMLEAK")
	[ "$leaks" != 0 ] && grep -A12 -m 2 '^unreferenced object' "$KMEMLEAK" |
		while read -r l; do ktap_print_msg "$l"; done
	ok=false; [ "$leaks" = 0 ] && ok=true
	ktap_test_result "kmemleak finds no new leak ($leaks suspected)" $ok
else
	ktap_test_skip "kmemleak finds no new leak (no kmemleak in this kernel)"
fi
test_no_splat "in the log"

feature_set RUST_LB_VERIFY "$verify_was"
rm -rf "$T"
ktap_finished
