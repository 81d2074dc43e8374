# SPDX-License-Identifier: GPL-2.0
# Shell helpers for the scheduler's debugfs, sourced by the selftests
# (lib.sh) and by the experiment (tools/guest/in/experiment): the one place
# that knows how sched features are read and switched.
# FEATURES may be set before sourcing (tests of the experiment script).
FEATURES=${FEATURES:-/sys/kernel/debug/sched/features}

# feature_state NAME: prints "on", "off" or "absent".
feature_state() {
	[ -r "$FEATURES" ] || { echo absent; return; }
	for f in $(cat "$FEATURES"); do
		[ "$f" = "$1" ] && { echo on; return; }
		[ "$f" = "NO_$1" ] && { echo off; return; }
	done
	echo absent
}

# feature_set NAME on|off: a no-op for an absent feature; warns (on
# stdout, as a TAP comment) when the switch did not take.
feature_set() {
	[ "$(feature_state "$1")" = absent ] && return 0
	if [ "$2" = on ]; then
		echo "$1" > "$FEATURES"
	else
		echo "NO_$1" > "$FEATURES"
	fi 2>/dev/null
	[ "$(feature_state "$1")" = "$2" ] || echo "# warning: could not switch $1 $2"
}
