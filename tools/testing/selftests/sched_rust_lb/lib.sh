# SPDX-License-Identifier: GPL-2.0
# Shared by the sched_rust_lb selftests: KTAP helpers and the sched debugfs.
. "$(dirname "$0")/ktap_helpers.sh"

SCHED_DEBUGFS=/sys/kernel/debug/sched
FEATURES=$SCHED_DEBUGFS/features

# feature_state NAME: prints "on", "off" or "absent".
feature_state() {
	for f in $(cat "$FEATURES"); do
		[ "$f" = "$1" ] && { echo on; return; }
		[ "$f" = "NO_$1" ] && { echo off; return; }
	done
	echo absent
}

# feature_set NAME on|off
feature_set() {
	if [ "$2" = on ]; then echo "$1" > "$FEATURES"; else echo "NO_$1" > "$FEATURES"; fi
}

require_debugfs() {
	[ -r "$FEATURES" ] || ktap_skip_all "$FEATURES not readable (debugfs not mounted or no CONFIG_SCHED_DEBUG)"
	[ -r "$FEATURES" ] || exit "$KSFT_SKIP"
}
