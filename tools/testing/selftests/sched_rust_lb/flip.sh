#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Flip every project feature under load, as fast as the shell writes
# /sys/kernel/debug/sched/features, for FLIP_SECONDS (default 30): every
# vCPU spins, wakes and balances while each flip patches the feature's
# static-key sites (CONFIG_JUMP_LABEL) or toggles its bit.  Passes when the
# kernel log stays free of any oops, BUG or WARNING (an "Oops: int3" is a
# text_poke_bp() breakpoint executed after patching finished), the flips
# happened, the workloads ran to the end, and every feature reads back in
# the position it was last written to.  FLIP_FEATS overrides the list.
. "$(dirname "$0")/lib.sh"

SECS=${FLIP_SECONDS:-30}
FEATS=${FLIP_FEATS-"$(cases_field 2 | tr '\n' ' ')RUST_LB_VERIFY"}
T=/tmp/flip.$$
mkdir -p "$T"

ktap_print_header
require_debugfs
ktap_set_plan 4
ktap_print_msg "$SECS s on $NCPUS CPUs, features: $FEATS"
orig=""
for f in $FEATS; do orig="$orig $f=$(feature_state "$f")"; done
log_mark
end=$(( $(date +%s) + SECS ))

storm_load

n=0
while [ "$(date +%s)" -lt "$end" ]; do
	for f in $FEATS; do
		echo "NO_$f" > "$FEATURES"
		echo "$f" > "$FEATURES"
		n=$((n + 2))
	done
done
wait
# The last write of each left it on; read every one back.
wrong=""
for f in $FEATS; do
	[ "$(feature_state "$f")" = on ] || wrong="$wrong $f"
done
# Leave each feature as it was.
for fs in $orig; do feature_set "${fs%=*}" "${fs#*=}"; done

ktap_print_msg "$n flips"
ok=false; [ "$n" -gt 0 ] && ok=true
ktap_test_result "features flipped under load ($n flips)" $ok
ok=false; [ -z "$wrong" ] && ok=true
ktap_test_result "every feature reads back as written${wrong:+ (not:$wrong)}" $ok
test_load_done
test_no_splat "while flipping"
rm -rf "$T"
ktap_finished
