#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# RUST_LB_VERIFY: over a mixed load, every decision of the Rust helpers is
# checked against its C twin (kernel/sched/rust_lb_decisions.h), with the
# features as found and again with every mechanism's feature in its other
# position, and none disagrees; then again under stress-ng's scheduler
# stressors.
. "$(dirname "$0")/lib.sh"

# flip_features: every case's feature to its other position, but for
# RUST_LB (off, no decision is Rust's) and SERIALIZE_RQ (on, C takes
# sched_balance_running its own way and SERIALIZE_DUE's decision is not
# made).
flip_features() {
	for f in $(cases_field 2 | grep -vx 'RUST_LB\|SERIALIZE_RQ'); do
		if grep -qw "NO_$f" "$FEATURES"; then echo "$f"; else echo "NO_$f"; fi > "$FEATURES"
	done
}

# verify_run WHAT: one mixed load under RUST_LB_VERIFY, then two results.
verify_run() {
	echo RUST_LB_VERIFY > "$FEATURES"
	counters_reset
	run_load mixed
	echo NO_RUST_LB_VERIFY > "$FEATURES"
	checks=$(counter_sum verify_checks_)
	mism=$(counter_sum verify_mismatches_)
	for d in $(decisions); do
		[ "$(counter "verify_checks_$d")" -gt 0 ] || unchecked="$unchecked $1:$d"
	done
	ktap_print_msg "$1: $checks checks, $mism mismatches"
	ok=false; [ "$checks" -gt 0 ] && ok=true
	ktap_test_result "$1: decisions were checked ($checks)" $ok
	ok=false; [ "$mism" -eq 0 ] && ok=true
	ktap_test_result "$1: Rust and C agree ($mism mismatches)" $ok
}

# stress_run: stress-ng's scheduler stressors under RUST_LB_VERIFY, the
# features as found: at least 14 decisions checked, wakeup CPU, affinity,
# migration, busiest queue and nohz kick among them, none disagreeing.
stress_run() {
	echo RUST_LB_VERIFY > "$FEATURES"
	counters_reset
	stress-ng --switch 2 --yield 2 --affinity 2 --fork 2 --pipe 2 --cpu 2 \
		--timeout "${STRESS_NG_SECONDS:-10}s" --quiet > /dev/null 2>&1
	echo NO_RUST_LB_VERIFY > "$FEATURES"
	checked="" missing="" n=0
	for d in $(decisions); do
		if [ "$(counter "verify_checks_$d")" -gt 0 ]; then
			checked="$checked $d" n=$((n + 1))
		else
			missing="$missing $d"
		fi
	done
	ktap_print_msg "stress-ng: $n decisions checked, not:${missing:- none}"
	ok=false
	[ "$n" -ge 14 ] && ok=true
	for d in select_idle_sibling wake_affine can_migrate_task find_busiest_queue \
		nohz_balancer_kick; do
		case " $checked " in *" $d "*) ;; *) ok=false ;; esac
	done
	what="the wakeup CPU, affinity, migration, busiest queue and nohz kick among them"
	ktap_test_result "stress-ng: $n decisions checked, $what" $ok
	mism=$(counter_sum verify_mismatches_)
	ok=false; [ "$mism" -eq 0 ] && ok=true
	ktap_test_result "stress-ng: Rust and C agree ($mism mismatches)" $ok
}

ktap_print_header
require_debugfs
ktap_set_plan 7
unchecked=""
verify_run "features as found"
flip_features
verify_run "features flipped"
flip_features
[ -n "$unchecked" ] && ktap_print_msg "never checked:$unchecked"
ok=false; [ -z "$unchecked" ] && ok=true
ktap_test_result "each of the $(decisions | wc -l) decisions was checked in both runs" $ok
if command -v stress-ng > /dev/null; then
	stress_run
else
	ktap_test_skip "stress-ng: not installed"
	ktap_test_skip "stress-ng: not installed"
fi
ktap_finished
