#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The sched domain hierarchy in debugfs has the levels the guest topology
# implies.  tools/guest/run-guest passes the topology on the kernel command line
# (RUNGUEST_TOPOLOGY=sockets=S,cores=C,threads=T,nodes=N), which the kernel
# hands to init as an environment variable.  Needs `sched_verbose`.
. "$(dirname "$0")/lib.sh"

ktap_print_header
DOMAINS=$SCHED_DEBUGFS/domains
if [ -z "$RUNGUEST_TOPOLOGY" ]; then
	ktap_skip_all "topology unknown (RUNGUEST_TOPOLOGY not set)"
	exit "$KSFT_SKIP"
fi
if [ ! -d "$DOMAINS/cpu0" ]; then
	ktap_skip_all "$DOMAINS/cpu0 missing (boot with sched_verbose)"
	exit "$KSFT_SKIP"
fi

sockets=1 cores=1 threads=1 nodes=1
for kv in $(echo "$RUNGUEST_TOPOLOGY" | tr ',' ' '); do
	case "$kv" in
	sockets=*) sockets=${kv#*=} ;;
	cores=*) cores=${kv#*=} ;;
	threads=*) threads=${kv#*=} ;;
	nodes=*) nodes=${kv#*=} ;;
	esac
done
# x86: SMT = hyperthreads, MC = the LLC (a socket under QEMU), PKG = the
# node (degenerate unless a node holds several sockets), NUMA = the nodes.
expect=""
[ "$threads" -gt 1 ] && expect="$expect SMT"
[ "$cores" -gt 1 ] && expect="$expect MC"
[ $((sockets / nodes)) -gt 1 ] && expect="$expect PKG"
[ "$nodes" -gt 1 ] && expect="$expect NUMA"
expect=${expect# }
ncpus=$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)

ktap_set_plan 3
ktap_print_msg "topology $RUNGUEST_TOPOLOGY, $ncpus CPUs, expecting: $expect"

levels() {
	i=0 out=""
	while [ -d "$DOMAINS/cpu$1/domain$i" ]; do
		out="$out $(cat "$DOMAINS/cpu$1/domain$i/name")"
		i=$((i + 1))
	done
	echo "${out# }"
}
got=$(levels 0)
ktap_print_msg "cpu0: $got"
match=false
[ "$got" = "$expect" ] && match=true
ktap_test_result "cpu0 has the levels $expect" $match

same=true
for c in $(seq 1 $((ncpus - 1))); do
	l=$(levels "$c")
	if [ "$l" != "$got" ]; then
		ktap_print_msg "cpu$c: $l"
		same=false
	fi
done
ktap_test_result "all $ncpus CPUs have the same levels" $same

ktap_test_result "expected $((sockets * cores * threads)) CPUs online" \
	[ "$ncpus" -eq $((sockets * cores * threads)) ]
ktap_finished
