#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Policy modules (Documentation/policy-modules.rst), with the example
# modules of rust/policies/ built against this kernel and put in
# POLICY_DIR (default /opt/sched-rust-lb/policies; make test does both):
#
# - rust_lb_twin answers every decision as the built-in
#   helpers do: loaded, its answers are taken (policy_decisions) and, with
#   RUST_LB_VERIFY, none diverges from the stock C (verify_mismatches_*
#   in rust_lb);
# - a second policy is refused with EBUSY while one is registered, with a
#   line in the log saying which;
# - rust_lb_unregister_test, loaded and removed POLICY_CYCLES times
#   (default 100) under load, a project feature flipped while it is loaded
#   each time: every load and removal succeeds, nothing diverges, nothing
#   splats (a CPU still in the module's text after rmmod would fault: the
#   debug kernel's KASAN runs this too), and at each removal the module
#   itself saw no call inside it once its unregistration returned, nor any
#   entered over the next 2 ms, while it saw calls over the 2 ms before;
# - rust_lb_out_of_range answers out of range: its answers are rejected
#   and counted, the policy is detached with one log line, and the module
#   still unloads.
. "$(dirname "$0")/lib.sh"

DIR=${POLICY_DIR:-/opt/sched-rust-lb/policies}
CYCLES=${POLICY_CYCLES:-100}
T=/tmp/policy.$$

ktap_print_header
require_debugfs
if [ ! -e "$DIR/rust_lb_twin.ko" ] || [ ! -e "$DIR/rust_lb_out_of_range.ko" ] ||
	[ ! -e "$DIR/rust_lb_unregister_test.ko" ]; then
	ktap_skip_all "no policy modules in $DIR (make policy builds them)"
	exit "$KSFT_SKIP"
fi
if ! command -v insmod > /dev/null; then
	ktap_skip_all "no insmod"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 9
mkdir -p "$T"
log_mark
verify_was=$(feature_state RUST_LB_VERIFY)
feature_set RUST_LB_VERIFY on

# 1. The twin's answers are taken and match the stock C (counted from here
# to test 4).
counters_reset
insmod "$DIR/rust_lb_twin.ko"
loaded=$?
run_load wake
run_load idle
taken=$(counter policy_decisions)
ok=false; [ "$loaded" = 0 ] && [ "$taken" -gt 0 ] && ok=true
ktap_test_result "rust_lb_twin loads and its answers are taken ($taken decisions)" $ok

# 2. One policy at a time.
insmod "$DIR/rust_lb_out_of_range.ko" 2> "$T/busy"
rc=$?
line=$(log_new | grep -c 'policy out_of_range not registered: policy twin is (-EBUSY)')
ktap_print_msg "second insmod: exit $rc, $(cat "$T/busy")"
ok=false; [ "$rc" != 0 ] && grep -q busy "$T/busy" && [ "$line" -ge 1 ] && ok=true
ktap_test_result "a second policy is refused with EBUSY and a log line" $ok

# 2b. A shim whose decision a module answers leaves its stock position:
# the twin answers all of them, so no stock key is on, even with nothing
# else in the way (RUST_LB_VERIFY and schedstats off), and each is back on
# in its position once the twin is gone (stock.sh checks the positions).
feature_set RUST_LB_VERIFY off
echo 0 > "$SCHEDSTATS_SYSCTL"
on_loaded=$(grep -c ' 1$' "$SCHED_DEBUGFS/rust_lb_stock")
rmmod rust_lb_twin
on_gone=$(grep -c ' 1$' "$SCHED_DEBUGFS/rust_lb_stock")
echo 1 > "$SCHEDSTATS_SYSCTL"
feature_set RUST_LB_VERIFY on
ok=false; [ "$on_loaded" = 0 ] && [ "$on_gone" -gt 0 ] && ok=true
ktap_test_result "stock keys: $on_loaded on with the twin loaded, $on_gone after rmmod" $ok

# 3. Load and remove under load (msgbench, hackbench's pattern, and
# wakelat), one project feature flipped off and on while loaded each time.
# until_stop CMD...: runs CMD over and over until $T/stop exists.
until_stop() {
	while [ ! -e "$T/stop" ]; do "$@" > /dev/null 2>&1; done
}
until_stop "$BIN/msgbench" -g 2 -f 4 -l 50 &
until_stop "$BIN/wakelat" -m 2 -t 4 -r 1 -w 0 &
set -- $(cases_field 2) RUST_LB
fail=0 i=0 t0=$(date +%s)
while [ $i -lt "$CYCLES" ]; do
	insmod "$DIR/rust_lb_unregister_test.ko" || fail=$((fail + 1))
	f=$(eval echo "\${$((i % $# + 1))}")
	echo "NO_$f" > "$FEATURES"
	echo "$f" > "$FEATURES"
	rmmod rust_lb_unregister_test || fail=$((fail + 1))
	i=$((i + 1))
done
touch "$T/stop"
wait
ktap_print_msg "$CYCLES cycles in $(( $(date +%s) - t0 )) s, $fail failed insmod/rmmod"
ok=false; [ "$fail" = 0 ] && ! grep -q rust_lb_unregister_test /proc/modules && ok=true
ktap_test_result "loaded and removed $CYCLES times under load and feature flips" $ok

# 3b. The test module's own account of each removal (its log line, see
# rust_lb_unregister_test.rs): none inside or entered after, some before.
log_new | grep 'rust_lb_unregister_test: unregistered:' > "$T/exits"
clean=$(grep -c ': 0 calls inside, 0 entered in' "$T/exits")
before=$(sed -n 's/.*(\([0-9]*\) in the .*/\1/p' "$T/exits" | awk '{ s += $1 } END { print s + 0 }')
grep -v ': 0 calls inside, 0 entered in' "$T/exits" | head -n 3 | while read -r l; do
	ktap_print_msg "$l"
done
exits=$(wc -l < "$T/exits")
ktap_print_msg "$exits removals: $clean with no call after unregistration;" \
	"$before calls entered in the 2 ms before them"
ok=false
[ "$exits" -ge "$CYCLES" ] && [ "$clean" = "$exits" ] && [ "$before" -gt 0 ] && ok=true
ktap_test_result "no CPU inside the policy's text once its unregistration returns" $ok

# 4. No divergence from the stock C in any decision.
div="" total=0 each=""
for n in $(awk 'sub(/^verify_checks_/, "", $1) { print $1 }' "$COUNTERS"); do
	d=$(counter "verify_mismatches_$n")
	c=$(counter "verify_checks_$n")
	total=$((total + c)) each="$each $n=$c"
	[ "$d" != 0 ] && div="$div $n=$d"
done
ktap_print_msg "verify: $total checks ($each )"
ok=false; [ -z "$div" ] && [ "$total" -gt 0 ] && ok=true
ktap_test_result "no decision diverges from the stock C${div:+ (diverged:$div)}" $ok

# 5. Out-of-range answers: rejected, counted, detached; the module unloads.
counters_reset
insmod "$DIR/rust_lb_out_of_range.ko"
loaded=$?
i=0
while [ $i -lt 20 ] && ! log_new | grep -q 'policy out_of_range detached'; do
	run_load over
	i=$((i + 1))
done
# The log line comes first; the detach (the static calls pointed back,
# a grace period waited for) and its count after it.
i=0
while [ $i -lt 50 ] && [ "$(counter policy_detached)" = 0 ]; do
	sleep 0.2
	i=$((i + 1))
done
rejected=$(counter policy_rejected)
detached=$(counter policy_detached)
lines=$(log_new | grep -c 'policy out_of_range detached')
ktap_print_msg "$(log_new | grep 'policy out_of_range detached' | tail -n 1)"
by=$(awk 'sub(/^policy_rejected_/, "", $1) && $2 > 0 { printf " %s=%s", $1, $2 }' "$COUNTERS")
ktap_print_msg "rejected, by decision:$by"
ok=false
[ "$loaded" = 0 ] && [ "$rejected" -ge 64 ] && [ "$detached" = 1 ] && [ "$lines" = 1 ] && ok=true
ktap_test_result "out-of-range answers are rejected ($rejected) and the policy detached once" $ok
rmmod rust_lb_out_of_range
ok=false; [ $? = 0 ] && ! grep -q rust_lb_out_of_range /proc/modules && ok=true
ktap_test_result "a detached policy's module unloads" $ok

# 6. Nothing splatted.
test_no_splat "in the log"

feature_set RUST_LB_VERIFY "$verify_was"
rm -rf "$T"
ktap_finished
