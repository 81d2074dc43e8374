/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The C twins of the Rust helpers' six decisions: each decision written in
 * C once, with its feature's position as an input, deciding as the Rust
 * built-in does on every input (tools/lb-math/tests/c_equivalence.rs
 * compiles this header on the host and checks it against the Rust
 * arithmetic).  The one C source of:
 *
 *  - RUST_LB_VERIFY (rust_lb/verify.c): the twin decides, in whatever
 *    position the features are, and the Rust answer (built-in or a policy
 *    module's) is compared with it;
 *  - the helpers' benchmark (rust_lb/bench.c), which times it against the
 *    Rust and checks on every input that the two agree.
 *
 * Where a twin departs from the stock C of fair.c, it is where the Rust
 * does: no wrap-around of local->idle_cpus - busiest->idle_cpus (the stock
 * rule turns it into some 2^31 tasks to move), and products that
 * overflow in stock C saturate.  The stock positions of the features are
 * otherwise the stock rules.
 *
 * Each value is read on the branch that uses it, as the Rust reads it.
 * rust_lb_twin_count(name) marks where the Rust counts an event; the
 * includer may define it (the benchmark counts, so that both sides do the
 * same work); otherwise it only checks that rust_lb_<name> is a counter.
 * No kernel header is included: the includer provides the types (sched.h
 * in the kernel, a small prelude on the host).
 */
#ifndef _KERNEL_SCHED_RUST_LB_TWINS_H
#define _KERNEL_SCHED_RUST_LB_TWINS_H

#ifndef rust_lb_twin_count
#define rust_lb_twin_count(name)	((void)rust_lb_##name)
#endif

/* SIS_UTIL: update_idle_cpu_scan()'s nr_idle_scan, equations [1] to [3]. */
static __always_inline u32
rust_lb_twin_sis_util_scan(u64 sum_util, u32 llc_weight, u32 imbalance_pct)
{
	u64 x, xp, sq, tmp;

	if (!llc_weight)
		return 0;
	x = sum_util / llc_weight;
	if (check_mul_overflow(x, (u64)imbalance_pct, &xp) || check_mul_overflow(xp, xp, &sq))
		tmp = SCHED_CAPACITY_SCALE;
	else
		tmp = min_t(u64, sq / (10000 * SCHED_CAPACITY_SCALE), SCHED_CAPACITY_SCALE);
	return (SCHED_CAPACITY_SCALE - tmp) * llc_weight / SCHED_CAPACITY_SCALE;
}

/* n * s / d, rounded down, exact where n * s overflows (d > s). */
static __always_inline u64 rust_lb_twin_mul_div_below(u32 n, u64 s, u64 d)
{
	u64 p, a, qa, ra, b;

	if (!check_mul_overflow((u64)n, s, &p))
		return p / d;
	a = size_mul(n >> 16, s);
	qa = a / d;
	ra = a % d;
	b = size_add(size_mul(ra, 1 << 16), size_mul(n & 0xffff, s));
	return size_add(size_mul(qa, 1 << 16), b / d);
}

/*
 * ILB_UTIL: the depth of the next newidle scans of an LLC, from its
 * utilization at the last periodic balance (the RFC's
 * update_ilb_group_scan()): the groups the spare capacity covers, at
 * least one.
 */
static __always_inline u32
rust_lb_twin_ilb_scan_depth(u32 nr_groups, u64 sum_util, u32 span_weight)
{
	u64 capacity = (u64)span_weight * SCHED_CAPACITY_SCALE;

	if (!nr_groups)
		return 0;
	if (!capacity)
		return nr_groups;
	if (sum_util >= capacity)
		return 1;
	return nr_groups - (u32)rust_lb_twin_mul_div_below(nr_groups, sum_util, capacity);
}

/*
 * RD_OVERLOAD: whether sched_balance_newidle() skips the balance.  With
 * the feature, a root domain that is not overloaded decides alone;
 * otherwise *avg_idle against *max_newidle_lb_cost (0 without a domain),
 * each read once and only then.
 */
static __always_inline bool rust_lb_twin_newidle_skip(bool rd_overload, bool rd_overloaded,
						      const u64 *avg_idle,
						      const u64 *max_newidle_lb_cost)
{
	if (rd_overload && !rd_overloaded) {
		rust_lb_twin_count(newidle_skipped_not_overloaded);
		return true;
	}
	return READ_ONCE(*avg_idle) <
	       (max_newidle_lb_cost ? READ_ONCE(*max_newidle_lb_cost) : 0);
}

/*
 * TTWU_QUEUE_IDLE: whether ttwu_queue_cond() queues a wakeup on the
 * wakelist of a CPU of the waker's LLC that runs nr_running tasks.  With
 * the feature, whenever that CPU is idle; without it, only when the caller
 * also saw the wakee still on that CPU (the rule before f3dd3f674555).
 */
static __always_inline bool rust_lb_twin_ttwu_queue_cond(unsigned int nr_running,
							 bool queue_idle, bool wakee_on_cpu)
{
	if (queue_idle && !nr_running) {
		rust_lb_twin_count(wakelist_idle_queued);
		return true;
	}
	return !nr_running && wakee_on_cpu;
}

/* SERIALIZE_DUE: whether to try sched_balance_running for a serialized domain. */
static __always_inline bool rust_lb_twin_serialize_try(bool serialize_due, bool due)
{
	return !serialize_due || due;
}

/* sibling_imbalance(), products in 64 bits. */
static __always_inline u64 rust_lb_twin_sibling(bool dst_idle, u32 lnr, u32 bnr, u32 lc, u32 bc)
{
	u64 diff, sub, cores, imb;

	if (!dst_idle || !bnr)
		return 0;
	if (lc == bc)
		return bnr > lnr ? bnr - lnr : 0;
	diff = (u64)lc * bnr;
	sub = (u64)bc * lnr;
	diff = diff > sub ? diff - sub : 0;
	cores = (u64)lc + bc;
	imb = 2 * (diff / cores) + 2 * (diff % cores) / cores + 1;
	if (imb <= 1 && !lnr && bnr > 1)
		return 2;
	return imb;
}

/*
 * LB_LLC_SPREAD: calculate_imbalance() when the local group has spare
 * capacity.  With the feature, inside an LLC an overloaded busiest group
 * is spread by task count, as elsewhere a group that is not overloaded;
 * without it, by utilization (the rule before 5.10).
 */
static __always_inline void rust_lb_twin_spare_imbalance(struct lb_env *env,
							 struct sd_lb_stats *sds,
							 bool llc_spread)
{
	struct sg_lb_stats *local = &sds->local_stat, *busiest = &sds->busiest_stat;
	bool share_llc = env->sd->flags & SD_SHARE_LLC;
	bool overloaded = busiest->group_type > group_fully_busy;
	bool dst_idle = env->idle != __CPU_NOT_IDLE;
	bool by_siblings;
	u64 imb;

	if (overloaded && !(llc_spread && share_llc)) {
		if (share_llc)
			rust_lb_twin_count(llc_imbalance_by_util);
		imb = min_t(u64, local->group_capacity > local->group_util ?
			    local->group_capacity - local->group_util : 0, LONG_MAX);
		env->migration_type = dst_idle && !imb ? migrate_task : migrate_util;
		env->imbalance = dst_idle && !imb ? 1 : imb;
		return;
	}
	if (share_llc && overloaded)
		rust_lb_twin_count(llc_imbalance_by_tasks);
	by_siblings = busiest->group_weight == 1 || sds->prefer_sibling;
	if (!by_siblings && local->idle_cpus < busiest->idle_cpus)
		rust_lb_twin_count(idle_cpus_underflow_avoided);
	if (by_siblings)
		imb = rust_lb_twin_sibling(dst_idle, local->sum_nr_running, busiest->sum_nr_running,
					   sds->local ? sds->local->cores : 0,
					   sds->busiest ? sds->busiest->cores : 0);
	else
		imb = local->idle_cpus > busiest->idle_cpus ?
		      local->idle_cpus - busiest->idle_cpus : 0;
	if ((env->sd->flags & SD_NUMA) && (u64)local->sum_nr_running + 1 <= env->sd->imb_numa_nr &&
	    imb <= 2)
		imb = 0;
	env->migration_type = migrate_task;
	env->imbalance = min_t(u64, imb / 2, LONG_MAX);
}

#endif /* _KERNEL_SCHED_RUST_LB_TWINS_H */
