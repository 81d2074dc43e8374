// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers' benchmark (CONFIG_SCHED_RUST_LB_BENCH).
 */
#include "glue.h"

/*
 * Benchmark: each helper against its C twin and the stock C, on this CPU,
 * over inputs drawn once from a fixed xorshift sequence, with an empty loop
 * of the same shape (the input fetched, nothing called) as the baseline.
 * Write the number of calls per helper and repeat (2..1000000) to
 * /sys/kernel/debug/sched/rust_lb_bench; it runs RUST_LB_BENCH_REPEATS
 * repeats, the Rust side first in even repeats and the C side first in odd
 * ones (A B C D, D C B A, ...), each side in chunks of RUST_LB_BENCH_CHUNK
 * calls with interrupts off, with a chance to reschedule between chunks.
 * Read back one line per helper and repeat: picoseconds per call of the
 * empty loop, the Rust helper, its C twin and the stock C
 * (tools/measure/helper-cost computes the statistics).
 *
 * The C twin is the helper's decision written in C, the one of
 * ../rust_lb_decisions.h that RUST_LB_VERIFY checks the Rust against: the
 * same inputs (feature positions included), the same guards, the same
 * counters here (rust_lb_count() where the Rust has count!()), each
 * value read on the branch that uses it, as C is written.  Rust against it is what the
 * language and the seam cost.  That the twin decides as the Rust does is
 * checked on every input before each chunk of it: a difference fails the
 * write with -EIO.  Chunks alternate between the CPU's LLC domain and the
 * domain above it, and between a newly idle and a busy destination (see
 * rust_lb_bench_chunk()).
 *
 * The stock C is the code the helper stands beside, one feature position
 * without guards or counters: the stock expressions of fair.c (and of
 * the ILB_UTIL RFC), and calculate_spare_imbalance() itself.  Rust
 * against it is what the switchable, counted helper costs over the kernel
 * it replaces.
 *
 * The Rust side of a decision is the shim's, as in fair.c and core.c,
 * static branches with CONFIG_JUMP_LABEL: the shim's stock key first
 * (RUST_LB_STOCK(), rust_lb_stock_on()), behind which the stock rule runs
 * in Rust alone; otherwise RUST_LB's test, then rust_lb_decide() of
 * rust_lb.h (RUST_LB_VERIFY's and the policy module's static branches,
 * the feature's snapshot, the flags, the call).  The C twin is behind the
 * same tests, with the stock C behind the stock key (the spare-capacity
 * imbalance's twin, whose rule the Rust's is where the stock C wraps),
 * and gets the same snapshot; the stock C has none.  So rust - stock
 * includes what the shim adds.  SIS_UTIL's depth is timed alone, without
 * the rest of its shim's void decision, so its Rust side spells out the
 * shim's branches.  The benchmark runs only in the features' stock
 * positions (-EBUSY and a log line otherwise), where the stock keys are
 * on unless a policy module answers the decision.  Two rows are not
 * decisions of a shim: get_llc_shared, a part of the Rust helpers, has no
 * gate; ilb_scan_depth is ILB_UTIL's depth, which stock never computes
 * (its stock side is the RFC's C), timed alone as the Rust decides it
 * with ILB_UTIL on, while ilb_group_scan is what ILB_UTIL's shims cost in
 * the stock position.
 *
 * Each side is called as fair.c and core.c call it.  The stock code is
 * inline at its call site, so the C sides are inline here; so is the Rust
 * helper with CONFIG_SCHED_RUST_LB_INLINE, and an out-of-line call without
 * it.  calculate_spare_imbalance() is private to fair.c and reached
 * through an exported function, so the Rust spare-capacity imbalance and
 * its twin are called through functions of the same shape.
 *
 * The helpers and the twins count while schedstats are enabled; the
 * stock C counts nothing, so the benchmark refuses to run (-EBUSY) unless
 * schedstats are off: every side then does the same work, and the live
 * counters are left alone.
 */
#define RUST_LB_BENCH_INPUTS	256
#define RUST_LB_BENCH_CHUNK	1024
#define RUST_LB_BENCH_REPEATS	8

/*
 * The helpers, then the decisions of fair.c's own code (RUST_LB_HOOK()),
 * one row each, generated: their Rust side is the site's (its static
 * branch, and while a policy module answers the decision, rust_lb_ask_in()
 * on the input), their C twin and stock C the stock rule over the input.
 */
enum { BENCH_LLC_SHARED, BENCH_SIS_UTIL, BENCH_ILB_DEPTH, BENCH_ILB_SCAN, BENCH_NEWIDLE,
	BENCH_TTWU, BENCH_SPARE,
#define RUST_LB_HOOK(name, ...)	BENCH_##name,
#include "../rust_lb_decisions.h"
#undef RUST_LB_HOOK
	BENCH_NR };

/* The sides of a repeat: the empty loop, the Rust helper, its C twin, stock C. */
enum { SIDE_BASE, SIDE_RUST, SIDE_C, SIDE_STOCK, SIDE_NR };

static const char * const rust_lb_bench_names[BENCH_NR] = {
	"get_llc_shared", "sis_util_scan", "ilb_scan_depth", "ilb_group_scan", "newidle_skip",
	"ttwu_queue_cond", "calculate_imbalance",
#define RUST_LB_HOOK(name, ...)	#name,
#include "../rust_lb_decisions.h"
#undef RUST_LB_HOOK
};

static struct {
	u64 iterations;		/* calls per helper, side and repeat */
	u64 checksum;		/* keeps the compiler from dropping the loops */
	u64 ns[RUST_LB_BENCH_REPEATS][BENCH_NR][SIDE_NR];
	bool valid;
} rust_lb_bench_result;

static DEFINE_MUTEX(rust_lb_bench_mutex);

struct rust_lb_bench_input {
	/*
	 * SIS_UTIL's depth, as stored (rust_lb_sis()); first, so that the
	 * pointer the module path takes is the input's own, as the shim's
	 * path hands on the lb_env it holds, with no address to compute.
	 */
	u32 depth;
	u64 util;
	u32 nr_groups, weight, pct, nr;
	bool overloaded, on_cpu;
	struct sd_lb_stats sds;
#define RUST_LB_HOOK(name, ...)	struct rust_lb_in_##name name;
#include "../rust_lb_decisions.h"
#undef RUST_LB_HOOK
};

static u64 rust_lb_xorshift(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static __always_inline u32 rust_lb_stock_sis_util(u64 sum_util, u32 llc_weight, u32 pct)
{
	u64 x = sum_util, y, tmp;

	do_div(x, llc_weight);
	tmp = x * x * pct * pct;
	do_div(tmp, 10000 * SCHED_CAPACITY_SCALE);
	tmp = min_t(long, tmp, SCHED_CAPACITY_SCALE);
	y = (SCHED_CAPACITY_SCALE - tmp) * llc_weight;
	do_div(y, SCHED_CAPACITY_SCALE);
	return y;
}

static __always_inline u32 rust_lb_stock_ilb_depth(u32 nr_groups, u64 sum_util, u32 weight)
{
	u64 nr_scan = (u64)nr_groups * sum_util;

	do_div(nr_scan, weight * SCHED_CAPACITY_SCALE);
	return nr_groups - nr_scan;
}

/* The stock C of the newidle skip, as 6.12 has it (sd is not null). */
#define rust_lb_stock_newidle(rq, sd, overloaded)				\
	(!(overloaded) || (rq)->avg_idle < (sd)->max_newidle_lb_cost)

static __always_inline struct sched_domain_shared *
rust_lb_stock_llc_shared(struct lb_env *env)
{
	if (per_cpu(sd_llc_size, env->dst_cpu) != env->sd->span_weight)
		return NULL;
	return rcu_dereference(per_cpu(sd_llc_shared, env->dst_cpu));
}

/*
 * The C twins of the helpers (see the top of this file): those of
 * rust_lb_decisions.h, counting what the Rust counts, behind what the Rust
 * entry point counts on entry.
 */
#define rust_lb_twin_count(name)	rust_lb_count(rust_lb_##name, 1)
#define RUST_LB_TWINS
#include "../rust_lb_decisions.h"
#undef RUST_LB_TWINS

static __always_inline struct sched_domain_shared *rust_lb_c_llc_shared(struct lb_env *env)
{
	rust_lb_twin_count(rust_calls_llc_shared);
	return rust_lb_stock_llc_shared(env);
}

static __always_inline bool rust_lb_c_newidle_skip(struct rq *rq, struct sched_domain *sd,
						   const struct rust_lb_rd_overload *rd)
{
	rust_lb_twin_count(rust_calls_newidle_skip);
	return rust_lb_twin_newidle_skip(rq, sd, rd);
}

/* The shims' gate of the C twins: RUST_LB on, RUST_LB_VERIFY off. */
#define rust_lb_bench_gate()	(rust_lb_on() && !rust_lb_verify_on())

static __always_inline bool rust_lb_c_ttwu(const struct rust_lb_in_ttwu_queue_cond *in)
{
	rust_lb_twin_count(rust_calls_ttwu_queue_cond);
	return rust_lb_twin_ttwu_queue_cond(in);
}

static noinline void rust_lb_c_spare(struct lb_env *env, struct sd_lb_stats *sds,
				     bool llc_spread)
{
	rust_lb_twin_count(rust_calls_spare_imbalance);
	rust_lb_twin_spare_imbalance(env, sds, llc_spread);
}

/*
 * The shims' paths and their C twins, behind the gate (see the top).
 * SIS_UTIL's depth is stored in *@depth on every side, as its shim's path
 * (rust_lb_decide(update_idle_cpu_scan, ...), which returns nothing)
 * stores it: returned, the module path's depth and the inlined one would meet in a register, which
 * the shim's never do, and the benchmark would time that merge.
 */
/* SIS_UTIL's depth on the module path, stored as the shim's path stores it. */
static noinline __cold void __rust_lb_cold_cc
rust_lb_bench_sis_policy(u64 sum_util, u32 llc_weight, u32 pct, u32 *depth)
{
	*depth = rust_lb_sis_util_scan_policy(sum_util, llc_weight, pct);
}

static __always_inline void rust_lb_sis(u64 sum_util, u32 llc_weight, u32 pct, u32 *depth)
{
	if (rust_lb_stock_on(update_idle_cpu_scan))
		*depth = rust_lb_sis_util_scan_stock(sum_util, llc_weight, pct);
	else if (!rust_lb_bench_gate())
		*depth = rust_lb_stock_sis_util(sum_util, llc_weight, pct);
	else if (rust_lb_policy_on())
		rust_lb_bench_sis_policy(sum_util, llc_weight, pct, depth);
	else
		*depth = rust_lb_sis_util_scan(sum_util, llc_weight, pct);
}

static __always_inline void rust_lb_c_sis(u64 sum_util, u32 llc_weight, u32 pct, u32 *depth)
{
	if (rust_lb_stock_on(update_idle_cpu_scan) || !rust_lb_bench_gate())
		*depth = rust_lb_stock_sis_util(sum_util, llc_weight, pct);
	else
		*depth = rust_lb_twin_sis_util_scan(sum_util, llc_weight, pct);
}

static __always_inline u32 rust_lb_ilb(u32 nr_groups, u64 sum_util, u32 weight)
{
	if (!rust_lb_bench_gate())
		return rust_lb_stock_ilb_depth(nr_groups, sum_util, weight);
	/* As rust_lb_decide(ilb_done, ...), for the depth alone. */
	if (rust_lb_policy_on())
		return rust_lb_ilb_scan_depth_policy(nr_groups, sum_util, weight);
	return rust_lb_ilb_scan_depth(nr_groups, sum_util, weight);
}

static __always_inline u32 rust_lb_c_ilb(u32 nr_groups, u64 sum_util, u32 weight)
{
	if (!rust_lb_bench_gate())
		return rust_lb_stock_ilb_depth(nr_groups, sum_util, weight);
	return rust_lb_twin_ilb_scan_depth(nr_groups, sum_util, weight);
}

/*
 * ILB_UTIL's shims around update_sd_lb_stats()'s group scan, as there: the
 * budget before the scan, the end of a scan of every group after it; the
 * budget.  Stock has neither, and they have no twin: the C side of this
 * row is the stock one, nothing, beside the same test of the key.
 */
static __always_inline u32 rust_lb_ilb_scan_rest(struct lb_env *env, struct sd_lb_stats *sds,
						 u64 sum_util)
{
	bool ilb_util;
	u32 budget;

	if (!rust_lb_on())
		return 0;
	ilb_util = rust_lb_feat(ILB_UTIL);
	budget = rust_lb_ilb_budget(env, rust_lb_flags(rust_lb_flag(ilb_util, ILB_UTIL)));
	rust_lb_decide(ilb_done, env, sds, sum_util, budget, env->sd->nr_groups,
		       rust_lb_flags(rust_lb_flag(ilb_util, ILB_UTIL)));
	return budget;
}

static __always_inline u32 rust_lb_ilb_scan(struct lb_env *env, struct sd_lb_stats *sds,
					    u64 sum_util)
{
	return rust_lb_stock_on(ilb_done) ? 0 : rust_lb_ilb_scan_rest(env, sds, sum_util);
}

static __always_inline bool rust_lb_newidle_rest(struct rq *rq, struct sched_domain *sd,
						 bool overloaded)
{
	if (!rust_lb_on())
		return rust_lb_stock_newidle(rq, sd, overloaded);
	return rust_lb_decide(newidle_skip, rq, sd, &(struct rust_lb_rd_overload){
				      .feature = rust_lb_feat(RD_OVERLOAD),
				      .overloaded = overloaded });
}

static __always_inline bool rust_lb_newidle(struct rq *rq, struct sched_domain *sd,
					    bool overloaded)
{
	if (rust_lb_stock_on(newidle_skip))
		return rust_lb_newidle_skip_stock(rq, sd, overloaded);
	return rust_lb_newidle_rest(rq, sd, overloaded);
}

static __always_inline bool rust_lb_c_newidle_rest(struct rq *rq, struct sched_domain *sd,
						   bool overloaded)
{
	if (!rust_lb_bench_gate())
		return rust_lb_stock_newidle(rq, sd, overloaded);
	return rust_lb_c_newidle_skip(rq, sd, &(struct rust_lb_rd_overload){
					      .feature = rust_lb_feat(RD_OVERLOAD),
					      .overloaded = overloaded });
}

static __always_inline bool rust_lb_c_newidle(struct rq *rq, struct sched_domain *sd,
					      bool overloaded)
{
	if (rust_lb_stock_on(newidle_skip))
		return rust_lb_stock_newidle(rq, sd, overloaded);
	return rust_lb_c_newidle_rest(rq, sd, overloaded);
}

static __always_inline bool rust_lb_ttwu_rest(unsigned int nr, bool on_cpu)
{
	if (!rust_lb_on())
		return !nr;
	return rust_lb_decide(ttwu_queue_cond,
			      &(struct rust_lb_in_ttwu_queue_cond){
				      .nr_running = nr,
				      .queue_idle = rust_lb_feat(TTWU_QUEUE_IDLE),
				      .wakee_on_cpu = on_cpu });
}

static __always_inline bool rust_lb_ttwu(unsigned int nr, bool on_cpu)
{
	if (rust_lb_stock_on(ttwu_queue_cond))
		return rust_lb_ttwu_queue_cond_stock(nr);
	return rust_lb_ttwu_rest(nr, on_cpu);
}

static __always_inline bool rust_lb_c_ttwu_rest(unsigned int nr, bool on_cpu)
{
	if (!rust_lb_bench_gate())
		return !nr;
	return rust_lb_c_ttwu(&(struct rust_lb_in_ttwu_queue_cond){
				      .nr_running = nr,
				      .queue_idle = rust_lb_feat(TTWU_QUEUE_IDLE),
				      .wakee_on_cpu = on_cpu });
}

static __always_inline bool rust_lb_c_ttwu_gated(unsigned int nr, bool on_cpu)
{
	if (rust_lb_stock_on(ttwu_queue_cond))
		return !nr;
	return rust_lb_c_ttwu_rest(nr, on_cpu);
}

/*
 * The spare-capacity imbalance of the shim and of its C twin, shaped as
 * sched_rust_lb_c_spare_imbalance().
 */
static noinline void rust_lb_spare(struct lb_env *env, struct sd_lb_stats *sds)
{
	if (rust_lb_stock_on(spare_imbalance))
		rust_lb_spare_imbalance_stock(env, sds);
	else if (rust_lb_on())
		rust_lb_decide(spare_imbalance, env, sds,
			       rust_lb_flags(rust_lb_flag(rust_lb_feat(LB_LLC_SPREAD),
							  LB_LLC_SPREAD)));
	else
		sched_rust_lb_c_spare_imbalance(env, sds);
}

static noinline void rust_lb_c_spare_gated(struct lb_env *env, struct sd_lb_stats *sds)
{
	/*
	 * The twin in the stock position too: the stock C wraps where the
	 * Rust saturates (see the top of ../rust_lb_decisions.h).
	 */
	if (rust_lb_stock_on(spare_imbalance))
		rust_lb_c_spare(env, sds, true);
	else if (rust_lb_bench_gate())
		rust_lb_c_spare(env, sds, rust_lb_feat(LB_LLC_SPREAD));
	else
		sched_rust_lb_c_spare_imbalance(env, sds);
}

/*
 * The inputs of fair.c's own decisions, as their sites fill them: on this
 * CPU, the features in their stock positions, the CPUs active ones.
 */
static int rust_lb_bench_other_cpu(int cpu)
{
	unsigned int other = cpumask_any_but(cpu_active_mask, cpu);

	return other < nr_cpu_ids ? other : cpu;
}

static void rust_lb_bench_fill_wake_wide(struct rust_lb_in_wake_wide *in, u64 *x, int cpu)
{
	in->waker_flips = rust_lb_xorshift(x) % 64;
	in->wakee_flips = rust_lb_xorshift(x) % 64;
	in->llc_size = per_cpu(sd_llc_size, cpu);
}

static void rust_lb_bench_fill_wake_affine(struct rust_lb_in_wake_affine *in, u64 *x, int cpu)
{
	in->this_cpu = cpu;
	in->prev_cpu = rust_lb_bench_other_cpu(cpu);
	in->sync = rust_lb_xorshift(x) & 1;
	in->wa_idle = sched_feat(WA_IDLE);
	in->wa_weight = sched_feat(WA_WEIGHT);
	in->wa_bias = sched_feat(WA_BIAS);
	in->this_idle = rust_lb_xorshift(x) & 1;
	in->prev_idle = rust_lb_xorshift(x) & 1;
	in->share_cache = rust_lb_xorshift(x) & 1;
	in->this_nr_running = rust_lb_xorshift(x) % 3;
	in->imbalance_pct = 117;
	in->this_load = rust_lb_xorshift(x) % 2048;
	in->prev_load = rust_lb_xorshift(x) % 2048;
	in->task_load = rust_lb_xorshift(x) % 1024;
	in->current_load = rust_lb_xorshift(x) % 1024;
	in->this_capacity = SCHED_CAPACITY_SCALE;
	in->prev_capacity = SCHED_CAPACITY_SCALE;
}

static void rust_lb_bench_fill_select_idle_sibling(struct rust_lb_in_select_idle_sibling *in,
						   u64 *x, int cpu)
{
	in->prev = rust_lb_bench_other_cpu(cpu);
	in->target = cpu;
	in->this_cpu = cpu;
	in->stock = rust_lb_xorshift(x) & 1 ? cpu : in->prev;
}

static void rust_lb_bench_fill_can_migrate_task(struct rust_lb_in_can_migrate_task *in,
						u64 *x, int cpu)
{
	in->locality = (int)(rust_lb_xorshift(x) % 3) - 1;
	in->hot = in->locality >= 0 ? in->locality : rust_lb_xorshift(x) & 1;
	in->nr_balance_failed = rust_lb_xorshift(x) % 4;
	in->cache_nice_tries = rust_lb_xorshift(x) % 3;
	in->idle = rust_lb_xorshift(x) % 3;
	in->exec_age_ns = rust_lb_xorshift(x) % 1000000;
	in->migration_cost_ns = 500000;
}

static void rust_lb_bench_fill_find_busiest_queue(struct rust_lb_in_find_busiest_queue *in,
						  u64 *x, int cpu)
{
	int other = rust_lb_bench_other_cpu(cpu);

	in->stock = rust_lb_xorshift(x) & 1 && other != cpu ? other : -1;
	in->dst_cpu = cpu;
	in->migration_type = rust_lb_xorshift(x) % (migrate_misfit + 1);
	in->group_weight = 4;
	in->imbalance = rust_lb_xorshift(x) % 4096;
}

static void rust_lb_bench_fill_detach_tasks(struct rust_lb_in_detach_tasks *in, u64 *x, int cpu)
{
	in->nr_migrate = 32;
	in->nr_running = 1 + rust_lb_xorshift(x) % 64;
}

static void rust_lb_bench_fill_balance_interval(struct rust_lb_in_balance_interval *in,
						u64 *x, int cpu)
{
	in->interval_ms = 4 + rust_lb_xorshift(x) % 64;
	in->busy_factor = 16;
	in->busy = rust_lb_xorshift(x) & 1;
	in->interval = rust_lb_xorshift(x) % 256;
	in->max_interval = 1 + rust_lb_xorshift(x) % 200;
}

static void rust_lb_bench_fill_newidle_domain(struct rust_lb_in_newidle_domain *in, u64 *x,
					      int cpu)
{
	in->avg_idle_ns = rust_lb_xorshift(x) % 1000000;
	in->curr_cost_ns = rust_lb_xorshift(x) % 100000;
	in->max_newidle_lb_cost_ns = rust_lb_xorshift(x) % 500000;
	in->level = rust_lb_xorshift(x) % 3;
}

static void rust_lb_bench_fill_nohz_balancer_kick(struct rust_lb_in_nohz_balancer_kick *in,
						  u64 *x, int cpu)
{
	in->stock = 0;
#ifdef CONFIG_NO_HZ_COMMON
	if (rust_lb_xorshift(x) & 1)
		in->stock = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
#endif
	in->nr_running = rust_lb_xorshift(x) % 4;
	in->cfs_nr_running = in->nr_running;
	in->nohz_idle_cpus = rust_lb_xorshift(x) % 8;
	in->due = rust_lb_xorshift(x) & 1;
}

static void rust_lb_bench_fill(struct rust_lb_bench_input *in, struct sched_domain *sd)
{
	u64 x = 0x9e3779b97f4a7c15ULL;
	int i, cpu = smp_processor_id();

	for (i = 0; i < RUST_LB_BENCH_INPUTS; i++) {
		struct sg_lb_stats *l = &in[i].sds.local_stat, *b = &in[i].sds.busiest_stat;

		in[i].weight = 1 + rust_lb_xorshift(&x) % 64;
		in[i].nr_groups = 1 + rust_lb_xorshift(&x) % in[i].weight;
		in[i].util = rust_lb_xorshift(&x) % (in[i].weight * SCHED_CAPACITY_SCALE);
		in[i].pct = 110 + rust_lb_xorshift(&x) % 20;
		in[i].nr = rust_lb_xorshift(&x) % 3;
		in[i].overloaded = rust_lb_xorshift(&x) & 1;
		in[i].on_cpu = rust_lb_xorshift(&x) & 1;
		memset(&in[i].sds, 0, sizeof(in[i].sds));
		in[i].sds.local = sd->groups;
		in[i].sds.busiest = sd->groups->next;
		in[i].sds.prefer_sibling = rust_lb_xorshift(&x) & 1;
		l->group_type = group_has_spare;
		b->group_type = rust_lb_xorshift(&x) % (group_overloaded + 1);
		l->group_weight = sd->groups->group_weight;
		b->group_weight = sd->groups->next->group_weight;
		l->idle_cpus = rust_lb_xorshift(&x) % (l->group_weight + 1);
		b->idle_cpus = rust_lb_xorshift(&x) % (b->group_weight + 1);
		l->sum_nr_running = rust_lb_xorshift(&x) % 8;
		b->sum_nr_running = rust_lb_xorshift(&x) % 8;
		l->group_capacity = l->group_weight * SCHED_CAPACITY_SCALE;
		l->group_util = rust_lb_xorshift(&x) % (l->group_capacity + 512);
#define RUST_LB_HOOK(name, ...)	rust_lb_bench_fill_##name(&in[i].name, &x, cpu);
#include "../rust_lb_decisions.h"
#undef RUST_LB_HOOK
	}
}

/*
 * A timed loop: @n calls of @expr, each on the next input @p, timed into
 * *@ns.  Each helper and side is a function of its own, so that each loop
 * gets registers of its own: in one function, the 60 loops would share
 * one register allocation, and a spill one loop needs would be paid by
 * the others.
 */
typedef void (*rust_lb_bench_fn)(struct rust_lb_bench_input *in, struct lb_env *env,
				 struct rq *rq, struct sched_domain *lowest, u64 n, u64 *ns,
				 u64 *sum);

#define RUST_LB_BENCH_LOOP(name, stmt)						\
static noinline void name(struct rust_lb_bench_input *in, struct lb_env *env,	\
			  struct rq *rq, struct sched_domain *lowest, u64 n,	\
			  u64 *ns, u64 *sum)					\
{										\
	u64 sink = 0, asked = 0, i, t = local_clock();				\
										\
	for (i = 0; i < n; i++) {						\
		struct rust_lb_bench_input *p = &in[i % RUST_LB_BENCH_INPUTS];	\
										\
		OPTIMIZER_HIDE_VAR(p);						\
		stmt;								\
	}									\
	*ns += local_clock() - t;						\
	*sum += sink + asked;							\
}

#define RUST_LB_BENCH_FN(name, expr)	RUST_LB_BENCH_LOOP(name, sink += (expr))

/*
 * A shim's Rust path as the shim takes it: its stock instance @stock behind
 * the stock key of @shim, else @rest; each side's answer summed apart, as
 * the hooks' are (see below): the shims' callers branch on it.
 */
#define RUST_LB_BENCH_STOCK(name, shim, stock, rest)				\
	RUST_LB_BENCH_LOOP(name,						\
		if (rust_lb_stock_on(shim))					\
			sink += (stock);					\
		else								\
			asked += (rest))

/*
 * A shim beside the stock code @expr, which its stock instance leaves
 * alone: @rest unless @shim is in its stock position.
 */
#define RUST_LB_BENCH_BESIDE(name, expr, shim, rest)				\
	RUST_LB_BENCH_LOOP(name,						\
		sink += (expr);							\
		if (!rust_lb_stock_on(shim))					\
			asked += (rest))

/* The spare-capacity imbalance through @fn, and what it decided. */
#define RUST_LB_BENCH_SPARE(fn)	((fn)(env, &p->sds), env->imbalance + env->migration_type)

RUST_LB_BENCH_FN(rust_lb_bench_base_llc, (unsigned long)env + p->nr)
/* SIS_UTIL's depth through @fn, stored in the input (see rust_lb_sis()). */
#define RUST_LB_BENCH_SIS(fn)	((fn)(p->util, p->weight, p->pct, &p->depth), 0)

RUST_LB_BENCH_FN(rust_lb_bench_base_sis, (p->depth = p->util + p->weight + p->pct, 0))
RUST_LB_BENCH_FN(rust_lb_bench_base_ilb, p->nr_groups + p->util + p->weight)
RUST_LB_BENCH_FN(rust_lb_bench_base_ilb_scan, (unsigned long)&p->sds + p->util)
RUST_LB_BENCH_FN(rust_lb_bench_base_newidle, p->overloaded)
RUST_LB_BENCH_FN(rust_lb_bench_base_ttwu, p->nr + p->on_cpu)
RUST_LB_BENCH_FN(rust_lb_bench_base_spare,
		 (unsigned long)&p->sds + env->imbalance + env->migration_type)

RUST_LB_BENCH_FN(rust_lb_bench_rust_llc, (unsigned long)rust_lb_get_llc_shared(env) + p->nr)
RUST_LB_BENCH_FN(rust_lb_bench_rust_sis, RUST_LB_BENCH_SIS(rust_lb_sis))
RUST_LB_BENCH_FN(rust_lb_bench_rust_ilb, rust_lb_ilb(p->nr_groups, p->util, p->weight))
/* ILB_UTIL's shims add a branch, empty in the stock position. */
RUST_LB_BENCH_BESIDE(rust_lb_bench_rust_ilb_scan, (unsigned long)&p->sds + p->util, ilb_done,
		     rust_lb_ilb_scan_rest(env, &p->sds, p->util))
RUST_LB_BENCH_STOCK(rust_lb_bench_rust_newidle, newidle_skip,
		    rust_lb_newidle_skip_stock(rq, lowest, p->overloaded),
		    rust_lb_newidle_rest(rq, lowest, p->overloaded))
RUST_LB_BENCH_STOCK(rust_lb_bench_rust_ttwu, ttwu_queue_cond, rust_lb_ttwu_queue_cond_stock(p->nr),
		    rust_lb_ttwu_rest(p->nr, p->on_cpu))
RUST_LB_BENCH_FN(rust_lb_bench_rust_spare, RUST_LB_BENCH_SPARE(rust_lb_spare))

RUST_LB_BENCH_FN(rust_lb_bench_c_llc, (unsigned long)rust_lb_c_llc_shared(env) + p->nr)
RUST_LB_BENCH_FN(rust_lb_bench_c_sis, RUST_LB_BENCH_SIS(rust_lb_c_sis))
RUST_LB_BENCH_FN(rust_lb_bench_c_ilb, rust_lb_c_ilb(p->nr_groups, p->util, p->weight))
RUST_LB_BENCH_BESIDE(rust_lb_bench_c_ilb_scan, (unsigned long)&p->sds + p->util, ilb_done, 0)
RUST_LB_BENCH_STOCK(rust_lb_bench_c_newidle, newidle_skip,
		    rust_lb_stock_newidle(rq, lowest, p->overloaded),
		    rust_lb_c_newidle_rest(rq, lowest, p->overloaded))
RUST_LB_BENCH_STOCK(rust_lb_bench_c_ttwu, ttwu_queue_cond, !p->nr,
		    rust_lb_c_ttwu_rest(p->nr, p->on_cpu))
RUST_LB_BENCH_FN(rust_lb_bench_c_spare, RUST_LB_BENCH_SPARE(rust_lb_c_spare_gated))

RUST_LB_BENCH_FN(rust_lb_bench_stock_llc, (unsigned long)rust_lb_stock_llc_shared(env) + p->nr)
RUST_LB_BENCH_FN(rust_lb_bench_stock_sis,
		 (p->depth = rust_lb_stock_sis_util(p->util, p->weight, p->pct), 0))
RUST_LB_BENCH_FN(rust_lb_bench_stock_ilb,
		 rust_lb_stock_ilb_depth(p->nr_groups, p->util, p->weight))
RUST_LB_BENCH_FN(rust_lb_bench_stock_ilb_scan, (unsigned long)&p->sds + p->util)
RUST_LB_BENCH_FN(rust_lb_bench_stock_newidle, rust_lb_stock_newidle(rq, lowest, p->overloaded))
RUST_LB_BENCH_FN(rust_lb_bench_stock_ttwu, !p->nr)
RUST_LB_BENCH_FN(rust_lb_bench_stock_spare, RUST_LB_BENCH_SPARE(sched_rust_lb_c_spare_imbalance))

/*
 * fair.c's own decisions: the site's path on the input (the CPU answers
 * checked against the active CPUs), each side of its static branch using
 * its own answer (summed apart: joined, the compiler would spend
 * instructions on the stock side to meet the asked side's answer), as the
 * sites' "if (rust_lb_hooked()) ... else <stock>" do; and the stock rule,
 * which is their C twin too.
 */
static const struct rust_lb_cpus rust_lb_bench_cpus = { .within = cpu_active_mask };

#define RUST_LB_HOOK(name, rtype)						\
static __always_inline rtype rust_lb_bench_hook_##name(struct rust_lb_bench_input *p) \
{										\
	if (rust_lb_hooked(name))						\
		return rust_lb_ask_in(name, &p->name, &rust_lb_bench_cpus);	\
	return rust_lb_twin_##name(&p->name);					\
}										\
RUST_LB_BENCH_FN(rust_lb_bench_base_##name, (unsigned long)&p->name)		\
static __always_inline rtype rust_lb_bench_twin_##name(struct rust_lb_bench_input *p) \
{										\
	return rust_lb_twin_##name(&p->name);					\
}										\
RUST_LB_BENCH_LOOP(rust_lb_bench_rust_##name,					\
	if (rust_lb_hooked(name))						\
		asked += rust_lb_ask_in(name, &p->name, &rust_lb_bench_cpus);	\
	else									\
		sink += rust_lb_twin_##name(&p->name))				\
RUST_LB_BENCH_FN(rust_lb_bench_c_##name, rust_lb_twin_##name(&p->name))	\
RUST_LB_BENCH_FN(rust_lb_bench_stock_##name, rust_lb_twin_##name(&p->name))
#include "../rust_lb_decisions.h"
#undef RUST_LB_HOOK

/* Each side's loops, by helper. */
#define RUST_LB_BENCH_ROW(h, name)						\
	[SIDE_BASE][h] = rust_lb_bench_base_##name,				\
	[SIDE_RUST][h] = rust_lb_bench_rust_##name,				\
	[SIDE_C][h] = rust_lb_bench_c_##name,					\
	[SIDE_STOCK][h] = rust_lb_bench_stock_##name,
static const rust_lb_bench_fn rust_lb_bench_fns[SIDE_NR][BENCH_NR] = {
	RUST_LB_BENCH_ROW(BENCH_LLC_SHARED, llc)
	RUST_LB_BENCH_ROW(BENCH_SIS_UTIL, sis)
	RUST_LB_BENCH_ROW(BENCH_ILB_DEPTH, ilb)
	RUST_LB_BENCH_ROW(BENCH_ILB_SCAN, ilb_scan)
	RUST_LB_BENCH_ROW(BENCH_NEWIDLE, newidle)
	RUST_LB_BENCH_ROW(BENCH_TTWU, ttwu)
	RUST_LB_BENCH_ROW(BENCH_SPARE, spare)
#define RUST_LB_HOOK(name, ...)	RUST_LB_BENCH_ROW(BENCH_##name, name)
#include "../rust_lb_decisions.h"
#undef RUST_LB_HOOK
};

/* Runs one side of every helper; returns a checksum. */
static u64 rust_lb_bench_pass(struct rust_lb_bench_input *in, struct lb_env *env,
			      struct rq *rq, u64 n, int side, u64 *ns)
{
	/* The newidle decision is about the CPU's lowest domain, as in C. */
	struct sched_domain *lowest = rcu_dereference(rq->sd);
	u64 sink = 0;
	int h;

	for (h = 0; h < BENCH_NR; h++)
		rust_lb_bench_fns[side][h](in, env, rq, lowest, n, &ns[h], &sink);
	return sink;
}

/*
 * The twins take the helpers' decisions: before a chunk of the C twins,
 * both run over every input, untimed, and a difference fails the
 * benchmark (-EIO), naming the helper.
 */
static int rust_lb_bench_check(struct rust_lb_bench_input *in, struct lb_env *env,
			       struct rq *rq)
{
	struct sched_domain *lowest = rcu_dereference(rq->sd);
	unsigned int i, type;
	u32 depth, c_depth;
	int bad = -1;
	long imb;

	for (i = 0; i < RUST_LB_BENCH_INPUTS; i++) {
		struct rust_lb_bench_input *p = &in[i];

		rust_lb_sis(p->util, p->weight, p->pct, &depth);
		rust_lb_c_sis(p->util, p->weight, p->pct, &c_depth);
		if (rust_lb_get_llc_shared(env) != rust_lb_c_llc_shared(env))
			bad = BENCH_LLC_SHARED;
		else if (depth != c_depth)
			bad = BENCH_SIS_UTIL;
		else if (rust_lb_ilb(p->nr_groups, p->util, p->weight) !=
			 rust_lb_c_ilb(p->nr_groups, p->util, p->weight))
			bad = BENCH_ILB_DEPTH;
		else if (rust_lb_ilb_scan(env, &p->sds, p->util))
			bad = BENCH_ILB_SCAN;	/* a budget, with ILB_UTIL off */
		else if (rust_lb_newidle(rq, lowest, p->overloaded) !=
			 rust_lb_c_newidle(rq, lowest, p->overloaded))
			bad = BENCH_NEWIDLE;
		else if (rust_lb_ttwu(p->nr, p->on_cpu) != rust_lb_c_ttwu_gated(p->nr, p->on_cpu))
			bad = BENCH_TTWU;
#define RUST_LB_HOOK(name, ...)						\
		else if (rust_lb_bench_hook_##name(p) != rust_lb_bench_twin_##name(p))	\
			bad = BENCH_##name;
#include "../rust_lb_decisions.h"
#undef RUST_LB_HOOK
		if (bad >= 0)
			break;
		/* Poisoned first, so that a result left unwritten shows. */
		env->imbalance = -1;
		env->migration_type = -1;
		rust_lb_spare(env, &p->sds);
		imb = env->imbalance;
		type = env->migration_type;
		env->imbalance = -2;
		env->migration_type = -2;
		rust_lb_c_spare_gated(env, &p->sds);
		if (imb != env->imbalance || type != env->migration_type) {
			bad = BENCH_SPARE;
			break;
		}
	}
	if (bad < 0)
		return 0;
	pr_warn("rust_lb_bench: %s: the C twin decides otherwise than the Rust (input %u)\n",
		rust_lb_bench_names[bad], i);
	return -EIO;
}

/*
 * One chunk of @n calls of one side, on whichever CPU runs it, against that
 * CPU's LLC domain (looked up again: domains may have been rebuilt since
 * the last chunk, and the inputs point at its groups) in even chunks, the
 * domain above it in odd ones (without SD_SHARE_LLC; with SD_NUMA at the
 * top of a NUMA machine), for a newly idle destination in chunks 0 and 1
 * of every four and a busy one in chunks 2 and 3: so that with four chunks
 * or more the spare-capacity imbalance is timed and checked on its paths.
 */
static int rust_lb_bench_chunk(struct rust_lb_bench_input *in, u64 n, int side,
			       unsigned int chunk, u64 *ns, u64 *sum)
{
	struct lb_env env = { .idle = chunk & 2 ? __CPU_NOT_IDLE : CPU_NEWLY_IDLE };
	bool above = chunk & 1;
	struct sched_domain *sd, *parent;
	unsigned long flags;
	int cpu, ret = 0;

	local_irq_save(flags);
	rcu_read_lock();
	cpu = smp_processor_id();
	sd = rcu_dereference(per_cpu(sd_llc, cpu));
	if (!sd || sd->groups == sd->groups->next) {
		ret = -ENODEV;	/* no LLC domain with two groups to balance */
		goto out;
	}
	parent = rcu_dereference(sd->parent);
	if (above && parent && parent->groups != parent->groups->next)
		sd = parent;
	env.sd = sd;
	env.dst_cpu = cpu;
	env.dst_rq = cpu_rq(cpu);
	rust_lb_bench_fill(in, sd);
	if (side == SIDE_C) {
		ret = rust_lb_bench_check(in, &env, env.dst_rq);
		if (ret)
			goto out;
	}
	*sum += rust_lb_bench_pass(in, &env, env.dst_rq, n, side, ns);
out:
	rcu_read_unlock();
	local_irq_restore(flags);
	return ret;
}

static int rust_lb_bench_run(u64 n)
{
	static const int order[2][SIDE_NR] = {
		{ SIDE_BASE, SIDE_RUST, SIDE_C, SIDE_STOCK },
		{ SIDE_STOCK, SIDE_C, SIDE_RUST, SIDE_BASE },
	};
	struct rust_lb_bench_input *in;
	u64 (*ns)[BENCH_NR][SIDE_NR];
	u64 sum = 0, done, len;
	int r, k, h, ret = 0;

	in = kmalloc_array(RUST_LB_BENCH_INPUTS, sizeof(*in), GFP_KERNEL);
	ns = kcalloc(RUST_LB_BENCH_REPEATS, sizeof(*ns), GFP_KERNEL);
	if (!in || !ns) {
		ret = -ENOMEM;
		goto out;
	}
	for (r = 0; r < RUST_LB_BENCH_REPEATS; r++) {
		for (k = 0; k < SIDE_NR; k++) {
			int side = order[r & 1][k];
			u64 t[BENCH_NR] = { };

			for (done = 0; done < n; done += len) {
				len = min_t(u64, RUST_LB_BENCH_CHUNK, n - done);
				ret = rust_lb_bench_chunk(in, len, side,
							  done / RUST_LB_BENCH_CHUNK, t, &sum);
				if (ret)
					goto out;
				cond_resched();
			}
			for (h = 0; h < BENCH_NR; h++)
				ns[r][h][side] = t[h];
		}
	}
	mutex_lock(&rust_lb_bench_mutex);
	rust_lb_bench_result.iterations = n;
	rust_lb_bench_result.checksum = sum;
	memcpy(rust_lb_bench_result.ns, ns, sizeof(rust_lb_bench_result.ns));
	rust_lb_bench_result.valid = true;
	mutex_unlock(&rust_lb_bench_mutex);
out:
	kfree(ns);
	kfree(in);
	return ret;
}

static int rust_lb_bench_show(struct seq_file *m, void *v)
{
	u64 n;
	int r, h;

	mutex_lock(&rust_lb_bench_mutex);
	n = rust_lb_bench_result.iterations;
	if (!rust_lb_bench_result.valid || !n)
		goto out;
	seq_printf(m, "# %llu calls per helper, side and repeat; %d repeats; ps per call\n",
		   n, RUST_LB_BENCH_REPEATS);
	seq_printf(m, "%-20s %6s %10s %10s %10s %10s\n", "helper", "repeat", "base_ps",
		   "rust_ps", "c_ps", "stock_ps");
	for (h = 0; h < BENCH_NR; h++)
		for (r = 0; r < RUST_LB_BENCH_REPEATS; r++) {
			u64 *t = rust_lb_bench_result.ns[r][h];

			seq_printf(m, "%-20s %6d %10llu %10llu %10llu %10llu\n",
				   rust_lb_bench_names[h], r,
				   div64_u64(t[SIDE_BASE] * 1000, n),
				   div64_u64(t[SIDE_RUST] * 1000, n),
				   div64_u64(t[SIDE_C] * 1000, n),
				   div64_u64(t[SIDE_STOCK] * 1000, n));
		}
out:
	mutex_unlock(&rust_lb_bench_mutex);
	return 0;
}

static ssize_t rust_lb_bench_write(struct file *filp, const char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	u64 n;
	int ret;

	ret = kstrtoull_from_user(ubuf, cnt, 10, &n);
	if (ret)
		return ret;
	if (n < 2 || n > 1000000)
		return -EINVAL;
	/* The helpers would count, the twins do not: not the same work. */
	if (schedstat_enabled())
		return -EBUSY;
	/* The shims' Rust paths are timed in their stock position only. */
	if (!rust_lb_feat(RUST_LB) || rust_lb_feat(RUST_LB_VERIFY) || rust_lb_feat(ILB_UTIL) ||
	    !rust_lb_feat(RD_OVERLOAD) || !rust_lb_feat(TTWU_QUEUE_IDLE) ||
	    !rust_lb_feat(LB_LLC_SPREAD)) {
		pr_warn("rust_lb_bench: wants RUST_LB, RD_OVERLOAD, TTWU_QUEUE_IDLE, LB_LLC_SPREAD on, ILB_UTIL, RUST_LB_VERIFY off\n");
		return -EBUSY;
	}
	ret = rust_lb_bench_run(n);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

DEFINE_SHOW_STORE_ATTRIBUTE(rust_lb_bench);

static int __init sched_rust_lb_bench_init(void)
{
	sched_rust_lb_debugfs_create("rust_lb_bench", 0644, &rust_lb_bench_fops);
	return 0;
}
late_initcall_sync(sched_rust_lb_bench_init);
