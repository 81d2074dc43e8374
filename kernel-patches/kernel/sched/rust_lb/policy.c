// SPDX-License-Identifier: GPL-2.0
/*
 * Policy modules: the registration of a module's answers to the helpers'
 * decisions (rust/kernel/sched/policy.rs is the module's side).
 *
 * While a policy is registered, rust_lb_policy_key is on and the shims
 * take the decisions' module paths (Rust, cold, rust_lb.h's
 * rust_lb_decide()).  Each decision a module may answer (RUST_LB_ANSWER()
 * in ../rust_lb_decisions.h) has a static call, rust_lb_policy_<name>, whose
 * target is the built-in answer rust_lb_builtin_<name>() (policy.rs) while
 * no module answers it, and a static key, rust_lb_policy_<name>_key, off
 * until one does.  The module path tests the key and, while it is on,
 * calls through the static call: a direct call into the module, patched
 * at registration, with no pointer to load and no indirect branch.  It
 * checks the answer, and reports one out of range with
 * rust_lb_policy_reject().
 *
 * One policy at a time.  Registration points each static call that the
 * policy answers at the module's function, then turns its key on (and
 * the stock key of its shim off, rust_lb/stock.c), then
 * rust_lb_policy_key.  Unregistration turns the keys off (the stock keys
 * back on), points the calls back at the built-in answers and waits for
 * an RCU grace period:
 * every helper runs with preemption or interrupts disabled or inside
 * rcu_read_lock() (scheduler context), so once synchronize_rcu() returns
 * no CPU is still in a call that began while the module's function was
 * the target, and the module's exit may go on.  A CPU that saw the key on and calls after
 * the call was pointed back runs the built-in answer, which is correct.
 * No module reference is held: a module unregisters in its exit, before
 * its text goes.
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
#include <linux/static_call.h>

/* Out-of-range answers after which a policy is detached. */
#define RUST_LB_POLICY_REJECTS	64

DEFINE_STATIC_KEY_FALSE(rust_lb_policy_key);

/*
 * Per decision, the static call and the key, and the trampoline under the
 * name the Rust calls it by (policy.rs): a call of __SCT__<name> would be
 * one of objtool's static call sites, which need the key's symbol in the
 * calling object, and the Rust's objects do not have it.  Their calls go
 * through the trampoline, whose jump registration patches.
 */
#define RUST_LB_ANSWER(name, ...)					\
	DEFINE_STATIC_CALL(rust_lb_policy_##name, rust_lb_builtin_##name);	\
	DEFINE_STATIC_KEY_FALSE(rust_lb_policy_##name##_key);		\
	asm(".globl rust_lb_policy_call_" #name "\n\t"			\
	    ".set rust_lb_policy_call_" #name ", "			\
	    STATIC_CALL_TRAMP_STR(rust_lb_policy_##name) "\n");
#include "../rust_lb_decisions.h"
#undef RUST_LB_ANSWER

/*
 * Per decision of fair.c's own code (RUST_LB_HOOK()): the static call
 * that the site's rust_lb_ask() calls, and the key of the site's NOP,
 * which rust_lb_hooks_update() keeps.
 */
#define RUST_LB_HOOK(name, ...)						\
	DEFINE_STATIC_CALL(rust_lb_policy_##name, rust_lb_builtin_##name);	\
	DEFINE_STATIC_KEY_FALSE(rust_lb_hook_##name##_key);
#include "../rust_lb_decisions.h"
#undef RUST_LB_HOOK

/*
 * What registration changes for one decision: its static call, and the
 * key that is on while the policy answers it (@key), or, for a decision
 * of fair.c's own code, the key of its shim (@hook), which RUST_LB_VERIFY
 * turns on too.
 */
struct rust_lb_answer_site {
	enum rust_lb_decision decision;
	struct static_call_key *call;
	void *tramp;
	void *builtin;
	struct static_key_false *key;
	struct static_key_false *hook;
};

static const struct rust_lb_answer_site rust_lb_answer_sites[] = {
#define RUST_LB_ANSWER(name, ...)					\
	{								\
		.decision = rust_lb_decision_##name,			\
		.call = &STATIC_CALL_KEY(rust_lb_policy_##name),	\
		.tramp = STATIC_CALL_TRAMP_ADDR(rust_lb_policy_##name),	\
		.builtin = rust_lb_builtin_##name,			\
		.key = &rust_lb_policy_##name##_key,			\
	},
#include "../rust_lb_decisions.h"
#undef RUST_LB_ANSWER
#define RUST_LB_HOOK(name, ...)						\
	{								\
		.decision = rust_lb_decision_##name,			\
		.call = &STATIC_CALL_KEY(rust_lb_policy_##name),	\
		.tramp = STATIC_CALL_TRAMP_ADDR(rust_lb_policy_##name),	\
		.builtin = rust_lb_builtin_##name,			\
		.hook = &rust_lb_hook_##name##_key,			\
	},
#include "../rust_lb_decisions.h"
#undef RUST_LB_HOOK
};

#define for_each_answer_site(s)						\
	for (s = rust_lb_answer_sites;					\
	     s < rust_lb_answer_sites + ARRAY_SIZE(rust_lb_answer_sites); s++)

static_assert(RUST_LB_NR_DECISIONS <= BITS_PER_LONG);
/* The decisions the registered policy answers, a bit each. */
static unsigned long rust_lb_policy_answers;

/* The decisions the registered policy answers (rust_lb/stock.c). */
unsigned long rust_lb_policy_answered(void)
{
	return READ_ONCE(rust_lb_policy_answers);
}

/* Serializes rust_lb_hooks_update(). */
static DEFINE_MUTEX(rust_lb_hooks_mutex);

/*
 * The shims' keys of fair.c's own decisions: on while RUST_LB is and the
 * registered policy answers the decision or RUST_LB_VERIFY is on.  With
 * the CPU hotplug lock read-held (sched_feat_write() holds it).
 */
void rust_lb_hooks_update(void)
{
	bool verify = sched_feat(RUST_LB) && sched_feat(RUST_LB_VERIFY);
	const struct rust_lb_answer_site *s;
	unsigned long answers;

	lockdep_assert_cpus_held();
	guard(mutex)(&rust_lb_hooks_mutex);
	answers = READ_ONCE(rust_lb_policy_answers);
	for_each_answer_site(s) {
		if (!s->hook)
			continue;
		if (verify || (sched_feat(RUST_LB) && (answers & BIT(s->decision))))
			static_branch_enable_cpuslocked(s->hook);
		else
			static_branch_disable_cpuslocked(s->hook);
	}
}

/*
 * The decisions the policy answers (@answers, a bit each): the hooks' keys
 * of those of fair.c's own code, and the shims' stock keys
 * (rust_lb/stock.c), off for a decision the policy answers.
 */
static void rust_lb_keys_set(unsigned long answers)
{
	WRITE_ONCE(rust_lb_policy_answers, answers);
	cpus_read_lock();
	rust_lb_hooks_update();
	rust_lb_stock_update();
	cpus_read_unlock();
}

static const struct rust_lb_policy *rust_lb_policy;
/* Serializes registration, unregistration and detaching. */
static DEFINE_MUTEX(rust_lb_policy_mutex);
/* Bumped by each registration: a late detach leaves a newer policy alone. */
static unsigned long rust_lb_policy_gen;
static atomic_t rust_lb_policy_rejects;
static unsigned long rust_lb_policy_bad_gen;
static unsigned int rust_lb_policy_bad_decision;

/*
 * With the mutex held: take the policy away and wait until no CPU runs
 * its code.  Expedited: unregistration is rare, and a module's exit
 * (rmmod) waits for it.
 */
static void rust_lb_policy_clear(void)
{
	const struct rust_lb_answer_site *s;

	lockdep_assert_held(&rust_lb_policy_mutex);
	static_branch_disable(&rust_lb_policy_key);
	for_each_answer_site(s) {
		if (s->key)
			static_branch_disable(s->key);
	}
	rust_lb_keys_set(0);
	for_each_answer_site(s)
		__static_call_update(s->call, s->tramp, s->builtin);
	rust_lb_policy = NULL;
	synchronize_rcu_expedited();
}

int rust_lb_policy_register(struct rust_lb_policy *policy)
{
	const struct rust_lb_answer_site *s;
	unsigned long answers = 0;

	if (policy->size != sizeof(*policy)) {
		pr_warn("sched: rust_lb: a policy of %u bytes not registered: this kernel's are %zu (-EINVAL: built for another kernel?)\n",
			policy->size, sizeof(*policy));
		return -EINVAL;
	}
	guard(mutex)(&rust_lb_policy_mutex);
	if (rust_lb_policy) {
		pr_warn("sched: rust_lb: policy %s not registered: policy %s is (-EBUSY)\n",
			policy->name, rust_lb_policy->name);
		return -EBUSY;
	}
	WRITE_ONCE(rust_lb_policy_gen, rust_lb_policy_gen + 1);
	atomic_set(&rust_lb_policy_rejects, 0);
	rust_lb_policy = policy;
	/* The calls are pointed at the module first, then the keys turned on. */
	for_each_answer_site(s) {
		if (!policy->answers[s->decision])
			continue;
		__static_call_update(s->call, s->tramp, policy->answers[s->decision]);
		if (s->key)
			static_branch_enable(s->key);
		answers |= BIT(s->decision);
	}
	rust_lb_keys_set(answers);
	static_branch_enable(&rust_lb_policy_key);
	pr_info("sched: rust_lb: policy %s registered\n", policy->name);
	return 0;
}
EXPORT_SYMBOL_GPL(rust_lb_policy_register);

/* Also for a policy that was detached: then there is nothing to do. */
void rust_lb_policy_unregister(struct rust_lb_policy *policy)
{
	guard(mutex)(&rust_lb_policy_mutex);
	if (rust_lb_policy != policy)
		return;
	rust_lb_policy_clear();
	pr_info("sched: rust_lb: policy %s unregistered\n", policy->name);
}
EXPORT_SYMBOL_GPL(rust_lb_policy_unregister);

/*
 * The log line comes last: whoever reads it finds the policy gone.  The
 * policy's name is still the module's: its exit waits for the mutex.
 */
static void rust_lb_policy_detach(struct work_struct *work)
{
	const struct rust_lb_policy *policy;

	guard(mutex)(&rust_lb_policy_mutex);
	policy = rust_lb_policy;
	if (!policy || READ_ONCE(rust_lb_policy_bad_gen) != rust_lb_policy_gen)
		return;
	rust_lb_policy_clear();
	rust_lb_count(rust_lb_policy_detached, 1);
	pr_warn("sched: rust_lb: policy %s detached: %d answers out of range (last: %s)\n",
		policy->name, atomic_read(&rust_lb_policy_rejects),
		rust_lb_decision_names[READ_ONCE(rust_lb_policy_bad_decision)]);
}

static DECLARE_WORK(rust_lb_policy_detach_work, rust_lb_policy_detach);

static void rust_lb_policy_detach_irq(struct irq_work *work)
{
	schedule_work(&rust_lb_policy_detach_work);
}

static DEFINE_IRQ_WORK(rust_lb_policy_detach_irq_work, rust_lb_policy_detach_irq);

/*
 * Called in scheduler context, by the helper that the policy answered out
 * of range: before a grace period could end, so the policy is still the
 * one registered, or was unregistered after the call (then the work finds
 * a generation that is not its own, or no policy).
 */
__cold void rust_lb_policy_reject(enum rust_lb_decision decision)
{
	rust_lb_count(rust_lb_policy_rejected, 1);
	if (decision < RUST_LB_NR_DECISIONS)
		rust_lb_count(RUST_LB_POLICY_REJECTED + decision, 1);
	if (atomic_inc_return(&rust_lb_policy_rejects) != RUST_LB_POLICY_REJECTS)
		return;
	WRITE_ONCE(rust_lb_policy_bad_decision,
		   decision < RUST_LB_NR_DECISIONS ? decision : 0);
	WRITE_ONCE(rust_lb_policy_bad_gen, READ_ONCE(rust_lb_policy_gen));
	irq_work_queue(&rust_lb_policy_detach_irq_work);
}
