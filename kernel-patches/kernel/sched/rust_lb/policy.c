// SPDX-License-Identifier: GPL-2.0
/*
 * Policy modules: the registration of a module's answers to the helpers'
 * decisions (rust/kernel/sched/policy.rs is the module's side).
 *
 * One policy at a time.  While one is registered, rust_lb_policy_key is
 * enabled and the helpers read rust_lb_policy under rcu_read_lock();
 * unregistration disables the key, clears the pointer and waits for a
 * grace period, so no CPU runs the module's code once it returns, and the
 * module's exit may free it.  No module reference is held: a module
 * unregisters in its exit, before its text goes.
 *
 * An answer out of range is replaced by the built-in one by the caller
 * and reported here; the RUST_LB_POLICY_REJECTS-th detaches the policy.
 * Rejections are reported with runqueue locks held, so detaching (which
 * sleeps) is deferred: an irq_work, which may be queued under any lock,
 * schedules a work item, which detaches the policy if it is still the one
 * that was rejected.
 */
#include "glue.h"

#include <linux/irq_work.h>
#include <linux/export.h>

/* Out-of-range answers after which a policy is detached. */
#define RUST_LB_POLICY_REJECTS	64

DEFINE_STATIC_KEY_FALSE(rust_lb_policy_key);

static const struct rust_lb_policy __rcu *rust_lb_policy;
/* Serializes registration, unregistration and detaching. */
static DEFINE_MUTEX(rust_lb_policy_mutex);
/* Bumped by each registration: a late detach leaves a newer policy alone. */
static unsigned long rust_lb_policy_gen;
static atomic_t rust_lb_policy_rejects;
static unsigned long rust_lb_policy_bad_gen;
static unsigned int rust_lb_policy_bad_decision;

const struct rust_lb_policy *rust_lb_policy_get(void)
{
	return rcu_dereference(rust_lb_policy);
}

/*
 * With the mutex held: take the policy away and wait until no CPU uses it.
 * Expedited: unregistration is rare, and a module's exit (rmmod) waits
 * for it.
 */
static void rust_lb_policy_clear(void)
{
	lockdep_assert_held(&rust_lb_policy_mutex);
	static_branch_disable(&rust_lb_policy_key);
	RCU_INIT_POINTER(rust_lb_policy, NULL);
	synchronize_rcu_expedited();
}

int rust_lb_policy_register(struct rust_lb_policy *policy)
{
	const struct rust_lb_policy *cur;

	guard(mutex)(&rust_lb_policy_mutex);
	cur = rcu_dereference_protected(rust_lb_policy,
					lockdep_is_held(&rust_lb_policy_mutex));
	if (cur) {
		pr_warn("sched: rust_lb: policy %s not registered: policy %s is (-EBUSY)\n",
			policy->name, cur->name);
		return -EBUSY;
	}
	WRITE_ONCE(rust_lb_policy_gen, rust_lb_policy_gen + 1);
	atomic_set(&rust_lb_policy_rejects, 0);
	rcu_assign_pointer(rust_lb_policy, policy);
	static_branch_enable(&rust_lb_policy_key);
	pr_info("sched: rust_lb: policy %s registered\n", policy->name);
	return 0;
}
EXPORT_SYMBOL_GPL(rust_lb_policy_register);

/* Also for a policy that was detached: then there is nothing to do. */
void rust_lb_policy_unregister(struct rust_lb_policy *policy)
{
	guard(mutex)(&rust_lb_policy_mutex);
	if (rcu_access_pointer(rust_lb_policy) != policy)
		return;
	rust_lb_policy_clear();
	pr_info("sched: rust_lb: policy %s unregistered\n", policy->name);
}
EXPORT_SYMBOL_GPL(rust_lb_policy_unregister);

static void rust_lb_policy_detach(struct work_struct *work)
{
	const struct rust_lb_policy *cur;

	guard(mutex)(&rust_lb_policy_mutex);
	cur = rcu_dereference_protected(rust_lb_policy,
					lockdep_is_held(&rust_lb_policy_mutex));
	if (!cur || READ_ONCE(rust_lb_policy_bad_gen) != rust_lb_policy_gen)
		return;
	pr_warn("sched: rust_lb: policy %s detached: %d answers out of range (last: %s)\n",
		cur->name, atomic_read(&rust_lb_policy_rejects),
		rust_lb_decision_names[READ_ONCE(rust_lb_policy_bad_decision)]);
	rust_lb_policy_clear();
	rust_lb_count(rust_lb_policy_detached, 1);
}

static DECLARE_WORK(rust_lb_policy_detach_work, rust_lb_policy_detach);

static void rust_lb_policy_detach_irq(struct irq_work *work)
{
	schedule_work(&rust_lb_policy_detach_work);
}

static DEFINE_IRQ_WORK(rust_lb_policy_detach_irq_work, rust_lb_policy_detach_irq);

/*
 * Called in scheduler context, inside the read-side critical section in
 * which the policy that answered out of range was read.
 */
void rust_lb_policy_reject(enum rust_lb_decision decision)
{
	rust_lb_count(rust_lb_policy_rejected, 1);
	if (atomic_inc_return(&rust_lb_policy_rejects) != RUST_LB_POLICY_REJECTS)
		return;
	WRITE_ONCE(rust_lb_policy_bad_decision,
		   decision < RUST_LB_NR_DECISIONS ? decision : 0);
	/* Read under the RCU lock in which that policy is still registered. */
	WRITE_ONCE(rust_lb_policy_bad_gen, READ_ONCE(rust_lb_policy_gen));
	irq_work_queue(&rust_lb_policy_detach_irq_work);
}

/*
 * The shims' paths while a policy is registered (rust_lb_decide() in
 * rust_lb.h), one per RUST_LB_SHIM() line of rust_lb_decisions.h: calls
 * of the Rust module path, with the cold calling convention.
 */
#define RUST_LB_SHIM(rtype, name, params, args, ...)			\
	__cold rtype __rust_lb_cold_cc rust_lb_policy_##name params	\
	{								\
		return rust_lb_##name##_policy args;			\
	}
#include "../rust_lb_decisions.h"
#undef RUST_LB_SHIM

/* ILB_UTIL's depth alone, for the benchmark. */
__cold u32 __rust_lb_cold_cc rust_lb_policy_ilb_scan_depth(u32 nr_groups, u64 sum_util,
							   u32 span_weight)
{
	return rust_lb_ilb_scan_depth_policy(nr_groups, sum_util, span_weight);
}

/* SIS_UTIL's depth alone, for the benchmark: stored, as the shim's is. */
__cold void __rust_lb_cold_cc rust_lb_policy_sis_util_scan(u64 sum_util, u32 llc_weight,
							   u32 imbalance_pct, u32 *depth)
{
	*depth = rust_lb_sis_util_scan_policy(sum_util, llc_weight, imbalance_pct);
}
