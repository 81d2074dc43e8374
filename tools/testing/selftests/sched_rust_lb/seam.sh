#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The C->Rust seam works: at boot, kernel/sched/rust_lb_glue.c calls the
# Rust function rust_lb_ilb_scan_depth() and logs the result.  8 groups at
# half utilization scan 4 of them.
. "$(dirname "$0")/lib.sh"

ktap_print_header
ktap_set_plan 1
line=$(dmesg | grep 'C calls Rust: rust_lb_ilb_scan_depth')
ktap_print_msg "${line:-no such line in dmesg}"
ktap_test_result "boot log shows C calling Rust (8 groups, 50% util -> 4)" \
	[ "${line##*= }" = 4 ]
ktap_finished
