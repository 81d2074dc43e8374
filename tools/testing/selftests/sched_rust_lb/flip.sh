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
dmesg_before=$(dmesg | wc -l)
end=$(( $(date +%s) + SECS ))

load "$BIN/spin" -r 1 -n "$NCPUS" &
load "$BIN/wakelat" -m 2 -t 4 -r 2 -w 0 &
load "$BIN/idlewake" -r 2 -n "$NCPUS" &
load "$BIN/msgbench" -g 2 -f 4 -l 100 &
nload=4

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
done_n=$(wc -l < "$T/load-done" 2>/dev/null || echo 0)
ok=false; [ "$done_n" -eq "$nload" ] && [ ! -e "$T/load-fail" ] && ok=true
[ -e "$T/load-fail" ] && ktap_print_msg "$(sort "$T/load-fail" | uniq -c | head -5)"
ktap_test_result "workloads ran to the end without failing" $ok
bad=$(dmesg | tail -n +"$((dmesg_before + 1))" |
	grep -E 'Oops|BUG:|WARNING:|int3:|Kernel panic|Call Trace:' | head -n 10)
[ -n "$bad" ] && echo "$bad" | while read -r l; do ktap_print_msg "$l"; done
ok=false; [ -z "$bad" ] && ok=true
ktap_test_result "no oops, BUG or WARNING while flipping" $ok
rm -rf "$T"
ktap_finished
