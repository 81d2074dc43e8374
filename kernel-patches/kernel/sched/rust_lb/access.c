// SPDX-License-Identifier: GPL-2.0
/*
 * Accessors through which the Rust helpers reach scheduler state that only
 * kernel/sched/sched.h describes (per-CPU domain pointers, runqueues, root
 * domains, groups); rust/kernel/sched/ wraps them.
 */
#include "glue.h"

static inline bool rust_lb_cpu_ok(int cpu)
{
	return cpu >= 0 && cpu < nr_cpu_ids && cpu_possible(cpu);
}

struct sched_domain *sched_rust_lb_cpu_domain(int cpu)
{
	if (!rust_lb_cpu_ok(cpu))
		return NULL;
	return rcu_dereference_check_sched_domain(cpu_rq(cpu)->sd);
}

struct sched_domain_shared *sched_rust_lb_llc_shared(int cpu)
{
	if (!rust_lb_cpu_ok(cpu))
		return NULL;
	return rcu_dereference(per_cpu(sd_llc_shared, cpu));
}

int sched_rust_lb_llc_size(int cpu)
{
	return rust_lb_cpu_ok(cpu) ? per_cpu(sd_llc_size, cpu) : 0;
}

struct sched_group *sched_rust_lb_group_next(struct sched_group *sg)
{
	return sg->next;
}

unsigned int sched_rust_lb_group_weight(struct sched_group *sg)
{
	return sg->group_weight;
}

unsigned int sched_rust_lb_group_cores(struct sched_group *sg)
{
	return sg->cores;
}

struct rq *sched_rust_lb_cpu_rq(int cpu)
{
	return rust_lb_cpu_ok(cpu) ? cpu_rq(cpu) : NULL;
}

u64 sched_rust_lb_rq_avg_idle(struct rq *rq)
{
	return READ_ONCE(rq->avg_idle);
}
