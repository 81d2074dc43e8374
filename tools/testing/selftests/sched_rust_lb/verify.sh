#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# RUST_LB_VERIFY: over a mixed load, every decision the Rust helpers share
# with stock C is checked against it, and none disagrees.
. "$(dirname "$0")/lib.sh"

ktap_print_header
require_debugfs
ktap_set_plan 2
echo RUST_LB_VERIFY > "$FEATURES"
counters_reset
run_load mixed
checks=$(counter_sum verify_checks_)
mism=$(counter_sum verify_mismatches_)
fixes=$(counter verify_known_fixes)
echo NO_RUST_LB_VERIFY > "$FEATURES"
ktap_print_msg "checks $checks, mismatches $mism, known fixes (idle_cpus underflow) $fixes"
ok=false; [ "$checks" -gt 0 ] && ok=true
ktap_test_result "decisions were checked ($checks)" $ok
ok=false; [ "$mism" -eq 0 ] && ok=true
ktap_test_result "Rust and C agree ($mism mismatches)" $ok
ktap_finished
