#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs last: the kernel log of the whole run has no warning, BUG or oops.
. "$(dirname "$0")/lib.sh"

ktap_print_header
ktap_set_plan 1
bad=$(dmesg | grep -E 'WARNING:|BUG:|Oops|Kernel panic|cut here|Call Trace:|UBSAN:|KASAN:|possible recursive locking|suspicious RCU usage' | head -n 20)
if [ -n "$bad" ]; then
	echo "$bad" | while read -r l; do ktap_print_msg "$l"; done
fi
clean=false
[ -z "$bad" ] && clean=true
ktap_test_result "no WARNING, BUG or Oops in the kernel log" $clean
ktap_finished
