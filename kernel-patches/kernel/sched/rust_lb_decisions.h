/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The helpers' decisions, one block per mechanism: what the shims hand to
 * Rust, and the decision written in C once, its twin.  Each block holds
 *
 *  RUST_LB_FLAG(NAME)	a yes/no input of its entry points, the bit
 *			numbered RUST_LB_F_NAME in enum rust_lb_flag
 *			(rust_lb.h), tested with rust_lb_flag_set(); NAME
 *			is the feature's for a feature snapshot
 *  RUST_LB_DECISION(name)	a decision: rust_lb_decision_<name>, which
 *			RUST_LB_VERIFY counts ("verify_checks_<name>",
 *			"verify_mismatches_<name>", and the log)
 *  RUST_LB_ANSWER(name, rtype)
 *			a decision a policy module may answer
 *			(rust/kernel/sched/policy.rs): the static call
 *			rust_lb_policy_<name> and its key (made in
 *			rust_lb/policy.c), whose default target is the
 *			built-in answer rtype rust_lb_builtin_<name>(), which
 *			the kernel crate defines
 *  RUST_LB_SHIM(rtype, name, (params), (args), check)
 *			a shim's path, rust_lb_decide(name, args...): the
 *			prototypes of the Rust rust_lb_<name>() (defined by
 *			entry! in rust_lb/sched_lb.rs), which asks a policy
 *			module that answers its decision, and of
 *			RUST_LB_VERIFY's sched_rust_lb_verify_<name>(): check
 *			"twin" has rust_lb/verify.c make it, comparing what
 *			rust_lb_twin_<name>(args) returns with the Rust
 *			answer; "own" is a path that stores what it decides,
 *			whose check verify.c writes out
 *
 *  RUST_LB_STOCK(name, decision, position)
 *			the stock position of a shim's path: while RUST_LB
 *			is on and position (an expression over sched_feat())
 *			holds, RUST_LB_VERIFY is off, schedstats are off and
 *			no policy module answers decision, the static key
 *			rust_lb_stock_<name>_key is on (rust_lb/stock.c) and
 *			the shim runs the stock rule in Rust and nothing
 *			else: rust_lb_<name>_stock() where the rule decides
 *			something, no call where it leaves the stock C as it
 *			is (rust_lb_stock_on(name) in rust_lb.h)
 *
 *  RUST_LB_HOOK(name, rtype)
 *			a decision of fair.c's own code that a policy module
 *			may take over (rust/kernel/sched/policy.rs): the stock
 *			C decides, and while a module answers it or
 *			RUST_LB_VERIFY is on (rust_lb_hooked(name), one NOP
 *			otherwise) the shim fills struct rust_lb_in_<name>
 *			(with RUST_LB_INPUTS defined: what the stock rule
 *			reads, as plain values; the Rust's math::<Name> has
 *			its layout) and asks rust_lb_ask() (rust_lb.h),
 *			which calls the static call rust_lb_policy_<name>
 *			(the module's answer, or the built-in one, the
 *			stock rule in Rust), checks the answer inline with
 *			rust_lb_valid_<name>() (with RUST_LB_VALID defined;
 *			a CPU against struct rust_lb_cpus) and hands it to
 *			rust_lb_checked_<name>() (verify.c) when it is out
 *			of range or RUST_LB_VERIFY compares it with the twin
 *
 * and, with RUST_LB_TWINS defined, the C twins: rust_lb_twin_<name>(),
 * deciding as the Rust built-in does on every input, with the feature's
 * position among the inputs.  They are the one C source of RUST_LB_VERIFY
 * (the twin decides, in whatever position the features are, and the Rust
 * answer, built-in or a policy module's, is compared with it), of the
 * helpers' benchmark (rust_lb/bench.c times the twin against the Rust and
 * checks that the two agree on every input) and of the host's check
 * against the Rust arithmetic (tools/check/lb-math/tests/c_equivalence.rs).
 *
 * Where a twin departs from the stock C of fair.c, it is where the Rust
 * does: no wrap-around of local->idle_cpus - busiest->idle_cpus (the stock
 * rule turns it into some 2^31 tasks to move), and products that overflow
 * in stock C saturate.  The stock positions of the features are otherwise
 * the stock rules.  Each value is read on the branch that uses it, as the
 * Rust reads it.  rust_lb_twin_count(name) marks where the Rust counts an
 * event; the includer may define it (the benchmark counts, so that both
 * sides do the same work); otherwise it only checks that rust_lb_<name>
 * is a counter.  The twins include no header: the includer provides the
 * types (sched.h in the kernel, a small prelude on the host).
 *
 * No include guard: each includer defines the macros it expands, the
 * others expand to nothing.
 */
#ifndef RUST_LB_FLAG
# define RUST_LB_FLAG(...)
# define __RUST_LB_DEFAULT_FLAG
#endif
#ifndef RUST_LB_DECISION
# define RUST_LB_DECISION(...)
# define __RUST_LB_DEFAULT_DECISION
#endif
#ifndef RUST_LB_ANSWER
# define RUST_LB_ANSWER(...)
# define __RUST_LB_DEFAULT_ANSWER
#endif
#ifndef RUST_LB_SHIM
# define RUST_LB_SHIM(...)
# define __RUST_LB_DEFAULT_SHIM
#endif
#ifndef RUST_LB_HOOK
# define RUST_LB_HOOK(...)
# define __RUST_LB_DEFAULT_HOOK
#endif
#ifndef RUST_LB_STOCK
# define RUST_LB_STOCK(...)
# define __RUST_LB_DEFAULT_STOCK
#endif
#if defined(RUST_LB_TWINS) && !defined(rust_lb_twin_count)
# define rust_lb_twin_count(name)	((void)rust_lb_##name)
#endif

/*
 * ILB_UTIL: the depth of the next newidle scans of an LLC, from its
 * utilization at the last periodic balance (the RFC's
 * update_ilb_group_scan()), published at the end of the group scan.
 */
RUST_LB_FLAG(ILB_UTIL)
RUST_LB_FLAG(TRUNCATED)		/* the group scan stopped early */
RUST_LB_DECISION(ilb_scan_depth)
RUST_LB_ANSWER(ilb_scan_depth, u32)
RUST_LB_SHIM(void, ilb_done,
	     (struct lb_env *env, struct sd_lb_stats *sds, u64 sum_util, unsigned int budget,
	      unsigned int scanned, struct rust_lb_flags flags),
	     (env, sds, sum_util, budget, scanned, flags), own)
/* Stock has no ILB_UTIL: neither the budget nor the end of the scan runs. */
RUST_LB_STOCK(ilb_done, ilb_scan_depth, !sched_feat(ILB_UTIL))
#ifdef RUST_LB_TWINS
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

/* The groups the spare capacity covers, at least one. */
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
#endif

/* SIS_UTIL: update_idle_cpu_scan()'s nr_idle_scan, equations [1] to [3]. */
RUST_LB_DECISION(sis_util_scan)
RUST_LB_ANSWER(sis_util_scan, u32)
RUST_LB_SHIM(void, update_idle_cpu_scan, (struct lb_env *env, u64 sum_util),
	     (env, sum_util), own)
/* The shim runs only with SIS_UTIL on, the stock position. */
RUST_LB_STOCK(update_idle_cpu_scan, sis_util_scan, true)
#ifdef RUST_LB_TWINS
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
#endif

/*
 * RD_OVERLOAD: whether sched_balance_newidle() skips the balance.  With
 * the feature (rd.feature), a root domain that is not overloaded
 * (rd.overloaded, as the shim sampled it) decides alone; otherwise
 * rq->avg_idle against sd->max_newidle_lb_cost (0 without a domain), each
 * read once and only then.  The root domain's part is a struct, a
 * compound literal where it is passed, by address: inlined, its fields are
 * the two values (passed by value, clang builds them into one word and
 * tests that, five instructions more per call; a flags word costs three
 * or four).
 */
#ifdef RUST_LB_INPUTS
struct rust_lb_rd_overload {
	bool feature;		/* RD_OVERLOAD */
	bool overloaded;	/* rd->overloaded */
};
#endif
RUST_LB_DECISION(newidle_skip)
RUST_LB_ANSWER(newidle_skip, bool)
RUST_LB_SHIM(bool, newidle_skip,
	     (struct rq *rq, struct sched_domain *sd, const struct rust_lb_rd_overload *rd),
	     (rq, sd, rd), twin)
RUST_LB_STOCK(newidle_skip, newidle_skip, sched_feat(RD_OVERLOAD))
#ifdef RUST_LB_TWINS
static __always_inline bool rust_lb_twin_newidle_skip(struct rq *rq, struct sched_domain *sd,
						      const struct rust_lb_rd_overload *rd)
{
	if (rd->feature && !rd->overloaded) {
		rust_lb_twin_count(newidle_skipped_not_overloaded);
		return true;
	}
	return READ_ONCE(rq->avg_idle) < (sd ? READ_ONCE(sd->max_newidle_lb_cost) : 0);
}
#endif

/*
 * TTWU_QUEUE_IDLE: whether ttwu_queue_cond() queues a wakeup on the
 * wakelist of a CPU of the waker's LLC that runs nr_running tasks.  With
 * the feature (queue_idle), whenever that CPU is idle; without it, only
 * when the caller also saw the wakee still on that CPU (wakee_on_cpu, the
 * rule before f3dd3f674555).  The input is one struct, passed as
 * newidle_skip's is.
 */
#ifdef RUST_LB_INPUTS
struct rust_lb_in_ttwu_queue_cond {
	u32 nr_running;
	bool wakee_on_cpu;
	bool queue_idle;	/* TTWU_QUEUE_IDLE */
};
#endif
RUST_LB_DECISION(ttwu_queue_cond)
RUST_LB_ANSWER(ttwu_queue_cond, bool)
RUST_LB_SHIM(bool, ttwu_queue_cond, (const struct rust_lb_in_ttwu_queue_cond *in), (in), twin)
RUST_LB_STOCK(ttwu_queue_cond, ttwu_queue_cond, sched_feat(TTWU_QUEUE_IDLE))
#ifdef RUST_LB_TWINS
static __always_inline bool
rust_lb_twin_ttwu_queue_cond(const struct rust_lb_in_ttwu_queue_cond *in)
{
	if (in->queue_idle && !in->nr_running) {
		rust_lb_twin_count(wakelist_idle_queued);
		return true;
	}
	return !in->nr_running && in->wakee_on_cpu;
}
#endif

/*
 * LB_LLC_SPREAD: calculate_imbalance() when the local group has spare
 * capacity.  With the feature, inside an LLC an overloaded busiest group
 * is spread by task count, as elsewhere a group that is not overloaded;
 * without it, by utilization (the rule before 5.10).
 */
RUST_LB_FLAG(LB_LLC_SPREAD)
RUST_LB_DECISION(spare_imbalance)
RUST_LB_ANSWER(spare_imbalance, struct rust_lb_imbalance)
RUST_LB_SHIM(void, spare_imbalance,
	     (struct lb_env *env, struct sd_lb_stats *sds, struct rust_lb_flags flags),
	     (env, sds, flags), own)
RUST_LB_STOCK(spare_imbalance, spare_imbalance, sched_feat(LB_LLC_SPREAD))
#ifdef RUST_LB_TWINS
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
#endif

/*
 * SERIALIZE_DUE: whether to try sched_balance_running for a serialized
 * domain: with the feature, only when the domain is due for balancing.
 */
RUST_LB_FLAG(SERIALIZE_DUE)
RUST_LB_FLAG(DUE)		/* the domain is due for balancing */
RUST_LB_DECISION(serialize_try)
RUST_LB_ANSWER(serialize_try, bool)
RUST_LB_SHIM(bool, serialize_try, (struct rust_lb_flags flags), (flags), twin)
/* Stock tries the lock on every visit: nothing to decide. */
RUST_LB_STOCK(serialize_try, serialize_try, !sched_feat(SERIALIZE_DUE))
#ifdef RUST_LB_TWINS
static __always_inline bool rust_lb_twin_serialize_try(struct rust_lb_flags flags)
{
	return !rust_lb_flag_set(flags, SERIALIZE_DUE) || rust_lb_flag_set(flags, DUE);
}
#endif

/*
 * The decisions of fair.c's own code that a module may take over
 * (RUST_LB_HOOK).  Their twins are the stock C, over the input; where the
 * stock rule is a scan of scheduler state, the input carries the stock
 * scan's answer, and the twin is that.
 */

/* wake_wide(): whether a wakeup is too wide to consider an affine one. */
RUST_LB_DECISION(wake_wide)
RUST_LB_HOOK(wake_wide, bool)
#ifdef RUST_LB_INPUTS
struct rust_lb_in_wake_wide {
	u32 waker_flips;
	u32 wakee_flips;
	u32 llc_size;
};
#endif
#ifdef RUST_LB_TWINS
static __always_inline bool rust_lb_twin_wake_wide(const struct rust_lb_in_wake_wide *in)
{
	u32 master = in->waker_flips, slave = in->wakee_flips, t;

	if (master < slave) {
		t = master;
		master = slave;
		slave = t;
	}
	return !(slave < in->llc_size || master < slave * in->llc_size);
}
#endif
#ifdef RUST_LB_VALID
static __always_inline bool rust_lb_valid_wake_wide(const struct rust_lb_in_wake_wide *in,
						    bool ans, const struct rust_lb_cpus *cpus)
{
	return true;
}
#endif

/*
 * wake_affine(): whether the wakee goes to the waking CPU (true) or stays
 * with its previous one, WA_IDLE's test then WA_WEIGHT's.
 */
RUST_LB_DECISION(wake_affine)
RUST_LB_HOOK(wake_affine, bool)
#ifdef RUST_LB_INPUTS
struct rust_lb_in_wake_affine {
	int this_cpu;
	int prev_cpu;
	bool sync;
	bool wa_idle;
	bool wa_weight;
	bool wa_bias;
	bool this_idle;
	bool prev_idle;
	bool share_cache;
	u32 this_nr_running;
	u32 imbalance_pct;
	u64 this_load;
	u64 prev_load;
	u64 task_load;
	u64 current_load;
	u64 this_capacity;
	u64 prev_capacity;
};
#endif
#ifdef RUST_LB_TWINS
/* 1: this CPU, 0: the previous one, -1: undecided. */
static __always_inline int rust_lb_twin_wake_affine_idle(const struct rust_lb_in_wake_affine *in)
{
	if (in->this_idle && in->share_cache)
		return in->prev_idle ? 0 : 1;
	if (in->sync && in->this_nr_running == 1)
		return 1;
	if (in->prev_idle)
		return 0;
	return -1;
}

static __always_inline int rust_lb_twin_wake_affine_weight(const struct rust_lb_in_wake_affine *in)
{
	s64 this_eff_load = in->this_load, prev_eff_load;

	if (in->sync) {
		if (in->current_load > this_eff_load)
			return 1;
		this_eff_load -= in->current_load;
	}
	this_eff_load += in->task_load;
	if (in->wa_bias)
		this_eff_load *= 100;
	this_eff_load *= in->prev_capacity;
	prev_eff_load = in->prev_load;
	prev_eff_load -= in->task_load;
	if (in->wa_bias)
		prev_eff_load *= 100 + (in->imbalance_pct - 100) / 2;
	prev_eff_load *= in->this_capacity;
	if (in->sync)
		prev_eff_load += 1;
	return this_eff_load < prev_eff_load ? 1 : -1;
}

static __always_inline bool rust_lb_twin_wake_affine(const struct rust_lb_in_wake_affine *in)
{
	int target = -1;

	if (in->wa_idle)
		target = rust_lb_twin_wake_affine_idle(in);
	if (in->wa_weight && target == -1)
		target = rust_lb_twin_wake_affine_weight(in);
	return target == 1;
}
#endif
#ifdef RUST_LB_VALID
static __always_inline bool rust_lb_valid_wake_affine(const struct rust_lb_in_wake_affine *in,
						      bool ans, const struct rust_lb_cpus *cpus)
{
	return true;
}
#endif

/*
 * select_idle_sibling(): the CPU a wakeup goes to.  A CPU the task may
 * run on, active, and not out of range: the stock scan's answer, which
 * the kernel would use, needs no test.
 */
RUST_LB_DECISION(select_idle_sibling)
RUST_LB_HOOK(select_idle_sibling, int)
#ifdef RUST_LB_INPUTS
struct rust_lb_in_select_idle_sibling {
	int prev;
	int target;
	int this_cpu;
	int stock;
};
#endif
#ifdef RUST_LB_TWINS
static __always_inline int
rust_lb_twin_select_idle_sibling(const struct rust_lb_in_select_idle_sibling *in)
{
	return in->stock;
}
#endif
#ifdef RUST_LB_VALID
static __always_inline bool
rust_lb_valid_select_idle_sibling(const struct rust_lb_in_select_idle_sibling *in, int ans,
				  const struct rust_lb_cpus *cpus)
{
	return ans == in->stock || rust_lb_cpu_valid(ans, cpus);
}
#endif

/*
 * can_migrate_task(), once the task could move (allowed there, not
 * running, not an active balance): whether its cache hotness lets it.
 */
RUST_LB_DECISION(can_migrate_task)
RUST_LB_HOOK(can_migrate_task, bool)
#ifdef RUST_LB_INPUTS
struct rust_lb_in_can_migrate_task {
	int locality;
	int hot;
	u32 nr_balance_failed;
	u32 cache_nice_tries;
	u32 idle;
	s64 exec_age_ns;
	s64 migration_cost_ns;
};
#endif
#ifdef RUST_LB_TWINS
static __always_inline bool
rust_lb_twin_can_migrate_task(const struct rust_lb_in_can_migrate_task *in)
{
	return in->hot <= 0 || in->nr_balance_failed > in->cache_nice_tries;
}
#endif
#ifdef RUST_LB_VALID
static __always_inline bool
rust_lb_valid_can_migrate_task(const struct rust_lb_in_can_migrate_task *in, bool ans,
			       const struct rust_lb_cpus *cpus)
{
	return true;
}
#endif

/*
 * sched_balance_find_src_rq(): the busiest runqueue's CPU, or -1 for none.
 * A CPU of the busiest group the balance may pull from, never the
 * balancing CPU; the stock scan's answer needs no test.
 */
RUST_LB_DECISION(find_busiest_queue)
RUST_LB_HOOK(find_busiest_queue, int)
#ifdef RUST_LB_INPUTS
struct rust_lb_in_find_busiest_queue {
	int stock;
	int dst_cpu;
	u32 migration_type;
	u32 group_weight;
	s64 imbalance;
};
#endif
#ifdef RUST_LB_TWINS
static __always_inline int
rust_lb_twin_find_busiest_queue(const struct rust_lb_in_find_busiest_queue *in)
{
	return in->stock;
}
#endif
#ifdef RUST_LB_VALID
static __always_inline bool
rust_lb_valid_find_busiest_queue(const struct rust_lb_in_find_busiest_queue *in, int ans,
				 const struct rust_lb_cpus *cpus)
{
	return ans == in->stock || ans == -1 ||
	       (ans != in->dst_cpu && rust_lb_cpu_valid(ans, cpus));
}
#endif

/*
 * sched_balance_rq(): detach_tasks()'s budget, env->loop_max.  At most
 * the busiest runqueue's tasks, and at least one if it has any.
 */
RUST_LB_DECISION(detach_tasks)
RUST_LB_HOOK(detach_tasks, u32)
#ifdef RUST_LB_INPUTS
struct rust_lb_in_detach_tasks {
	u32 nr_migrate;
	u32 nr_running;
};
#endif
#ifdef RUST_LB_TWINS
static __always_inline u32 rust_lb_twin_detach_tasks(const struct rust_lb_in_detach_tasks *in)
{
	return in->nr_migrate < in->nr_running ? in->nr_migrate : in->nr_running;
}
#endif
#ifdef RUST_LB_VALID
static __always_inline bool rust_lb_valid_detach_tasks(const struct rust_lb_in_detach_tasks *in,
						       u32 ans, const struct rust_lb_cpus *cpus)
{
	/*
	 * 1 to nr_running, in one compare; 0 when there is none is the twin's
	 * answer, which rust_lb_checked_detach_tasks() takes.
	 */
	return ans - 1 < in->nr_running;
}
#endif

/*
 * get_sd_balance_interval(): jiffies to a domain's next balance, from 1
 * to max_load_balance_interval.
 */
RUST_LB_DECISION(balance_interval)
RUST_LB_HOOK(balance_interval, u64)
#ifdef RUST_LB_INPUTS
struct rust_lb_in_balance_interval {
	u32 interval_ms;
	u32 busy_factor;
	bool busy;
	u64 interval;
	u64 max_interval;
};
#endif
#ifdef RUST_LB_TWINS
static __always_inline u64
rust_lb_twin_balance_interval(const struct rust_lb_in_balance_interval *in)
{
	u64 interval = in->interval ?: 1;

	return interval > in->max_interval ? in->max_interval : interval;
}
#endif
#ifdef RUST_LB_VALID
static __always_inline bool
rust_lb_valid_balance_interval(const struct rust_lb_in_balance_interval *in, u64 ans,
			       const struct rust_lb_cpus *cpus)
{
	/* 1 to max_interval, in one compare (else the twin's answer). */
	return ans - 1 < in->max_interval;
}
#endif

/*
 * sched_balance_newidle(), per domain: whether a newly idle CPU balances
 * this domain (true) or stops.
 */
RUST_LB_DECISION(newidle_domain)
RUST_LB_HOOK(newidle_domain, bool)
#ifdef RUST_LB_INPUTS
struct rust_lb_in_newidle_domain {
	u64 avg_idle_ns;
	u64 curr_cost_ns;
	u64 max_newidle_lb_cost_ns;
	int level;
};
#endif
#ifdef RUST_LB_TWINS
static __always_inline bool
rust_lb_twin_newidle_domain(const struct rust_lb_in_newidle_domain *in)
{
	return !(in->avg_idle_ns < in->curr_cost_ns + in->max_newidle_lb_cost_ns);
}
#endif
#ifdef RUST_LB_VALID
static __always_inline bool
rust_lb_valid_newidle_domain(const struct rust_lb_in_newidle_domain *in, bool ans,
			     const struct rust_lb_cpus *cpus)
{
	return true;
}
#endif

/*
 * nohz_balancer_kick(), past its early exits: the NOHZ_*_KICK flags of the
 * kick, 0 for none.  Only those flags.
 */
RUST_LB_DECISION(nohz_balancer_kick)
RUST_LB_HOOK(nohz_balancer_kick, u32)
#ifdef RUST_LB_INPUTS
struct rust_lb_in_nohz_balancer_kick {
	u32 stock;
	u32 nr_running;
	u32 cfs_nr_running;
	u32 nohz_idle_cpus;
	bool due;
};
#endif
#ifdef RUST_LB_TWINS
static __always_inline u32
rust_lb_twin_nohz_balancer_kick(const struct rust_lb_in_nohz_balancer_kick *in)
{
	return in->stock;
}
#endif
#ifdef RUST_LB_VALID
static __always_inline bool
rust_lb_valid_nohz_balancer_kick(const struct rust_lb_in_nohz_balancer_kick *in, u32 ans,
				 const struct rust_lb_cpus *cpus)
{
#ifdef CONFIG_NO_HZ_COMMON
	return !(ans & ~NOHZ_KICK_MASK);
#else
	return !ans;
#endif
}
#endif

#ifdef __RUST_LB_DEFAULT_FLAG
# undef RUST_LB_FLAG
# undef __RUST_LB_DEFAULT_FLAG
#endif
#ifdef __RUST_LB_DEFAULT_DECISION
# undef RUST_LB_DECISION
# undef __RUST_LB_DEFAULT_DECISION
#endif
#ifdef __RUST_LB_DEFAULT_ANSWER
# undef RUST_LB_ANSWER
# undef __RUST_LB_DEFAULT_ANSWER
#endif
#ifdef __RUST_LB_DEFAULT_SHIM
# undef RUST_LB_SHIM
# undef __RUST_LB_DEFAULT_SHIM
#endif
#ifdef __RUST_LB_DEFAULT_HOOK
# undef RUST_LB_HOOK
# undef __RUST_LB_DEFAULT_HOOK
#endif
#ifdef __RUST_LB_DEFAULT_STOCK
# undef RUST_LB_STOCK
# undef __RUST_LB_DEFAULT_STOCK
#endif
