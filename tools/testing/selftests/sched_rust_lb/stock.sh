#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The shims' stock positions (RUST_LB_STOCK() in rust_lb_decisions.h): a
# shim's stock key, listed in /sys/kernel/debug/sched/rust_lb_stock, is on
# exactly while RUST_LB is on, the shim's features are in their stock
# positions, and RUST_LB_VERIFY and schedstats are off (no policy module
# is loaded here; policy.sh loads them).  Each switch below is made, the
# keys compared with what the positions say, and the switch undone.
. "$(dirname "$0")/lib.sh"

STOCK=$SCHED_DEBUGFS/rust_lb_stock
DECISIONS=$(dirname "$0")/rust_lb_decisions.h

# "name position" per RUST_LB_STOCK(name, decision, position) line.
stock_lines() {
	sed -n 's/^RUST_LB_STOCK(\([a-z0-9_]*\), [a-z0-9_]*, \(.*\))$/\1 \2/p' "$DECISIONS"
}

# The feature a position names, if any.
position_feature() {
	echo "$1" | sed -n 's/^!*sched_feat(\([A-Z0-9_]*\))$/\1/p'
}

# want POSITION: 1 if a shim in POSITION should have its key on now.
want() {
	[ "$(feature_state RUST_LB)" = on ] && [ "$(feature_state RUST_LB_VERIFY)" = off ] &&
		[ "$(cat "$SCHEDSTATS_SYSCTL")" = 0 ] || { echo 0; return; }
	f=$(position_feature "$1")
	case "$1" in
	true) echo 1 ;;
	"!"*) [ "$(feature_state "$f")" = off ] && echo 1 || echo 0 ;;
	*) [ "$(feature_state "$f")" = on ] && echo 1 || echo 0 ;;
	esac
}

# check WHAT: one result, every key against its position.
check() {
	ok=true
	stock_lines > /tmp/stock_lines.$$
	while read -r name position; do
		got=$(sed -n "s/^$name //p" "$STOCK")
		w=$(want "$position")
		if [ "$got" != "$w" ]; then
			ktap_print_msg "$name: key $got, position $position wants $w"
			ok=false
		fi
	done < /tmp/stock_lines.$$
	rm -f /tmp/stock_lines.$$
	ktap_test_result "stock keys as the positions say: $1" $ok
}

# flip FEATURE: check with it switched, then switched back.
flip() {
	orig=$(feature_state "$1")
	[ "$orig" = on ] && to=off || to=on
	feature_set "$1" $to
	check "$1 $to"
	feature_set "$1" "$orig"
}

ktap_print_header
require_debugfs
[ -r "$STOCK" ] || ktap_skip_all "$STOCK not readable"
[ -r "$STOCK" ] || exit "$KSFT_SKIP"
lines=$(stock_lines | wc -l)
feats=$(stock_lines | while read -r _ p; do position_feature "$p"; done | sort -u)
ktap_set_plan $(( 5 + $(echo $feats | wc -w) ))
ktap_test_result "one line per RUST_LB_STOCK() ($lines)" \
	[ "$(wc -l < "$STOCK")" -eq "$lines" -a "$lines" -gt 0 ]
echo 0 > "$SCHEDSTATS_SYSCTL"
check "schedstats off"
for f in $feats; do
	flip "$f"
done
flip RUST_LB_VERIFY
flip RUST_LB
echo 1 > "$SCHEDSTATS_SYSCTL"
check "schedstats on"
ktap_finished
