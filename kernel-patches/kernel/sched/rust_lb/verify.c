// SPDX-License-Identifier: GPL-2.0
/*
 * RUST_LB_VERIFY, the helpers' shadow mode: in every shim, whatever the
 * positions of the features, the C twin of the decision
 * (../rust_lb_decisions.h) decides, and the Rust answer to the same inputs,
 * the built-in helper's or a registered policy module's, is compared with
 * it.  Per decision, /sys/kernel/debug/sched/rust_lb shows
 * "verify_checks_<name>" and "verify_mismatches_<name>": with a policy
 * module loaded, how often its answers diverge from the C.  Counted and
 * reset as the other counters are.
 */
#include "glue.h"

#include <linux/static_call.h>

#define RUST_LB_TWINS
#include "../rust_lb_decisions.h"
#undef RUST_LB_TWINS

const char * const rust_lb_decision_names[RUST_LB_NR_DECISIONS] = {
#define RUST_LB_DECISION(name)	\
	[rust_lb_decision_##name] = #name,
#include "../rust_lb_decisions.h"
#undef RUST_LB_DECISION
};

/*
 * Called with a runqueue lock or p->pi_lock held (sched_balance_newidle(),
 * ttwu_queue_cond()): a console driver that wakes a task could take those
 * locks again, so the report goes through printk_deferred(), and the
 * ratelimit state is a raw spinlock taken with trylock.
 */
static DEFINE_RATELIMIT_STATE(rust_lb_verify_rs, DEFAULT_RATELIMIT_INTERVAL,
			      DEFAULT_RATELIMIT_BURST);

/* A disagreement: counted, and reported without waking a console. */
static noinline __cold void sched_rust_lb_verify_report(enum rust_lb_decision decision)
{
	rust_lb_count(RUST_LB_VERIFY_MISMATCHES + decision, 1);
	/* No KERN_ level: the default message level is a warning. */
	if (__ratelimit(&rust_lb_verify_rs))
		printk_deferred("sched: rust_lb: verify: Rust and C disagree in %s on CPU %d\n",
				rust_lb_decision_names[decision],
				raw_smp_processor_id());
}

static inline void rust_lb_verify(enum rust_lb_decision decision, bool match)
{
	rust_lb_count(RUST_LB_VERIFY_CHECKS + decision, 1);
	if (!match)
		sched_rust_lb_verify_report(decision);
}

/*
 * The Rust answer to (args), a parenthesized argument list: the registered
 * policy module's, where it answers the decision, or the built-in one.
 */
#define rust_lb_answer(name, args)					\
	(rust_lb_policy_on() ? rust_lb_##name##_policy args : rust_lb_##name args)

/* Compares the Rust answer r with the twin's c, which decides. */
#define rust_lb_checked(name, r, c)					\
	({ typeof(c) __c = (c);						\
	   rust_lb_verify(rust_lb_decision_##name, (r) == __c);		\
	   __c; })

/*
 * The domain's LLC shared state, where the scan depths are kept: none
 * unless the domain spans the destination CPU's LLC, as the Rust's
 * get_llc_shared() finds it.
 */
static struct sched_domain_shared *rust_lb_verify_llc_shared(struct lb_env *env)
{
	if (per_cpu(sd_llc_size, env->dst_cpu) != env->sd->span_weight)
		return NULL;
	return rcu_dereference(per_cpu(sd_llc_shared, env->dst_cpu));
}

/* SIS_UTIL: the twin's depth is stored. */
__cold void __rust_lb_cold_cc
sched_rust_lb_verify_update_idle_cpu_scan(struct lb_env *env, u64 sum_util)
{
	struct sched_domain_shared *sd_share = rust_lb_verify_llc_shared(env);
	u32 weight = env->sd->span_weight, pct = env->sd->imbalance_pct;
	int depth;

	if (!sd_share)
		return;
	depth = rust_lb_checked(sis_util_scan,
				rust_lb_answer(sis_util_scan, (sum_util, weight, pct)),
				rust_lb_twin_sis_util_scan(sum_util, weight, pct));
	if (depth != READ_ONCE(sd_share->nr_idle_scan))
		WRITE_ONCE(sd_share->nr_idle_scan, depth);
}

/*
 * ILB_UTIL: the Rust keeps the scan's statistics as without the check;
 * the depth of a periodic balance is compared in every position and, when
 * ILB_UTIL publishes it, the twin's is the one stored.
 */
__cold void __rust_lb_cold_cc
sched_rust_lb_verify_ilb_done(struct lb_env *env, struct sd_lb_stats *sds, u64 sum_util,
			      unsigned int budget, unsigned int scanned, struct rust_lb_flags flags)
{
	struct sched_domain_shared *sd_share;
	u32 nr_groups = env->sd->nr_groups, weight = env->sd->span_weight;
	int depth;

	rust_lb_answer(ilb_done, (env, sds, sum_util, budget, scanned, flags));
	if (env->idle == CPU_NEWLY_IDLE)
		return;
	sd_share = rust_lb_verify_llc_shared(env);
	if (!sd_share)
		return;
	depth = rust_lb_checked(ilb_scan_depth,
				rust_lb_answer(ilb_scan_depth, (nr_groups, sum_util, weight)),
				rust_lb_twin_ilb_scan_depth(nr_groups, sum_util, weight));
	if (rust_lb_flag_set(flags, ILB_UTIL) && depth != READ_ONCE(sd_share->ilb_nr_scan))
		WRITE_ONCE(sd_share->ilb_nr_scan, depth);
}

/* LB_LLC_SPREAD: the Rust decides on a copy of the environment. */
__cold void __rust_lb_cold_cc
sched_rust_lb_verify_spare_imbalance(struct lb_env *env, struct sd_lb_stats *sds,
				     struct rust_lb_flags flags)
{
	struct lb_env r = *env;

	rust_lb_answer(spare_imbalance, (&r, sds, flags));
	rust_lb_twin_spare_imbalance(env, sds, rust_lb_flag_set(flags, LB_LLC_SPREAD));
	rust_lb_verify(rust_lb_decision_spare_imbalance,
		       r.imbalance == env->imbalance && r.migration_type == env->migration_type);
}

/*
 * The paths whose decision is what they return (check "twin" in
 * rust_lb_decisions.h): the twin decides, with the same arguments.
 */
#define RUST_LB_CHECK_own(...)
#define RUST_LB_CHECK_twin(rtype, name, params, args)			\
	__cold rtype __rust_lb_cold_cc sched_rust_lb_verify_##name params \
	{								\
		return rust_lb_checked(name, rust_lb_answer(name, args), \
				       rust_lb_twin_##name args);	\
	}
#define RUST_LB_SHIM(rtype, name, params, args, check)			\
	RUST_LB_CHECK_##check(rtype, name, params, args)
#include "../rust_lb_decisions.h"
#undef RUST_LB_SHIM

#ifdef CONFIG_SCHED_RUST_LB_POLICY
/*
 * The decisions of fair.c's own code (RUST_LB_HOOK()), when the answer the
 * shim got through the static call (rust_lb_ask() in rust_lb.h) is out of
 * range or RUST_LB_VERIFY is on: an answer out of range, unless it is the
 * twin's (which the inline check may leave to this path), is replaced by
 * the twin's and reported; a module's counts in policy_decisions; under
 * RUST_LB_VERIFY the twin decides and the answer is compared with it.
 */
#define RUST_LB_HOOK(name, rtype)					\
	__cold rtype __rust_lb_cold_cc					\
	rust_lb_checked_##name(const struct rust_lb_in_##name *in,	\
			       rtype ans, const struct rust_lb_cpus *cpus) \
	{								\
		rtype twin = rust_lb_twin_##name(in);			\
									\
		if (ans != twin && !rust_lb_valid_##name(in, ans, cpus)) { \
			rust_lb_policy_reject(rust_lb_decision_##name);	\
			ans = twin;					\
		} else if (static_call_query(rust_lb_policy_##name) !=	\
			   rust_lb_builtin_##name) {			\
			rust_lb_count(rust_lb_policy_decisions, 1);	\
		}							\
		if (rust_lb_verify_on()) {				\
			rust_lb_verify(rust_lb_decision_##name, ans == twin); \
			return twin;					\
		}							\
		return ans;						\
	}
#include "../rust_lb_decisions.h"
#undef RUST_LB_HOOK
#endif
