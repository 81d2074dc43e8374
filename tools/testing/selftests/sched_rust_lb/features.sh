#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every feature of the project is listed in /sys/kernel/debug/sched/features
# and can be switched off and on again; writing restores the default.
. "$(dirname "$0")/lib.sh"

# Every case's feature (RUST_LB and one per mechanism) and the shadow mode.
FEATS="$(cases_field 2 | tr '\n' ' ')RUST_LB_VERIFY"

ktap_print_header
require_debugfs
ktap_set_plan $(( $(echo $FEATS | wc -w) * 3 + 1 ))
for f in $FEATS; do
	orig=$(feature_state "$f")
	ktap_test_result "$f is listed (state: $orig)" [ "$orig" != absent ]
	feature_set "$f" off
	ktap_test_result "NO_$f switches it off" [ "$(feature_state "$f")" = off ]
	feature_set "$f" on
	ktap_test_result "$f switches it on again" [ "$(feature_state "$f")" = on ]
	[ "$orig" = off ] && feature_set "$f" off
done
before=$(cat "$FEATURES")
refused=true
for bad in NO_SUCH_FEATURE NO_ RUST_LBX "RUST_LB RD_OVERLOAD" ""; do
	if echo "$bad" > "$FEATURES" 2>/dev/null; then
		ktap_print_msg "'$bad' was accepted"
		refused=false
	fi
done
[ "$(cat "$FEATURES")" = "$before" ] || refused=false
ktap_test_result "unknown or malformed names are refused, nothing changes" $refused
ktap_finished
