#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs last: the kernel log of the whole run has no warning, BUG or oops,
# and no warning tainted the kernel (the log may have wrapped).
. "$(dirname "$0")/lib.sh"

ktap_print_header
ktap_set_plan 2
pattern="$SPLATS|possible recursive locking|suspicious RCU usage"
bad=$(dmesg | grep -E "$pattern" | head -n 20)
if [ -n "$bad" ]; then
	echo "$bad" | while read -r l; do ktap_print_msg "$l"; done
fi
clean=false
[ -z "$bad" ] && clean=true
ktap_test_result "no WARNING, BUG or Oops in the kernel log" $clean
# A warning whose text scrolled out of the log buffer still taints the
# kernel: TAINT_WARN is bit 9.
tainted=$(cat /proc/sys/kernel/tainted)
nowarn=false
[ $(( tainted & 512 )) -eq 0 ] && nowarn=true
ktap_test_result "the kernel is not tainted by a warning (tainted=$tainted)" $nowarn
ktap_finished
