#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# RUST_LB_VERIFY: over a mixed load, every decision of the Rust helpers is
# checked against its C twin (kernel/sched/rust_lb_decisions.h), with the
# features as found and again with every mechanism's feature in its other
# position, and none disagrees.
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

ktap_print_header
require_debugfs
ktap_set_plan 5
unchecked=""
verify_run "features as found"
flip_features
verify_run "features flipped"
flip_features
[ -n "$unchecked" ] && ktap_print_msg "never checked:$unchecked"
ok=false; [ -z "$unchecked" ] && ok=true
ktap_test_result "each of the $(decisions | wc -l) decisions was checked in both runs" $ok
ktap_finished
