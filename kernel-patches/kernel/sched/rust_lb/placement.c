// SPDX-License-Identifier: GPL-2.0
/*
 * Task placement, sampled at the tick for the experiments: how often a CPU
 * runs two or more fair tasks while another CPU of its LLC is idle
 * ("stacked while idle", the cost LB_LLC_SPREAD is about).  It is counted
 * whatever the features say, so it compares both states of a feature.
 *
 * Only with schedstats enabled (schedstats=enable, or the sysctl): then
 * each tick of a busy CPU counts one sample, and a stacked CPU reads the
 * idle state of its LLC's CPUs, remote cache lines the stock tick does not
 * touch.  An idle CPU does not tick (NOHZ), so the samples are of busy
 * CPUs' time.
 */
#include "glue.h"

void sched_rust_lb_placement_tick(struct rq *rq)
{
	struct sched_domain *sd;
	int cpu = cpu_of(rq), i;

	rust_lb_count(rust_lb_placement_ticks, 1);
	if (READ_ONCE(rq->cfs.h_nr_runnable) < 2)
		return;
	rust_lb_count(rust_lb_placement_stacked, 1);

	rcu_read_lock();
	sd = rcu_dereference(per_cpu(sd_llc, cpu));
	if (sd) {
		for_each_cpu(i, sched_domain_span(sd)) {
			if (i != cpu && idle_cpu(i)) {
				rust_lb_count(rust_lb_placement_stacked_idle, 1);
				break;
			}
		}
	}
	rcu_read_unlock();
}
