/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The seam between kernel/sched and the balancing helpers written in Rust
 * (kernel/sched/rust_lb/, CONFIG_SCHED_RUST_LB).
 *
 * This header is self-contained on purpose: rust/bindings/bindings_helper.h
 * includes it, and bindgen cannot digest kernel/sched/sched.h.  Scheduler
 * state that lives in sched.h is reached without calls: the per-CPU
 * variables are declared again below, and the fields of struct rq and
 * struct sched_group the Rust reads are at the offsets that
 * <generated/sched-rust-lb-offsets.h> gives (rust_lb/offsets.c).  The
 * Rust abstractions in rust/kernel/sched/ wrap both.
 */
#ifndef _KERNEL_SCHED_RUST_LB_H
#define _KERNEL_SCHED_RUST_LB_H

#include <linux/types.h>
#include <linux/jump_label.h>
#include <linux/percpu-defs.h>
#include <linux/sched/topology.h>
#include <linux/build_bug.h>

#include "fair_lb.h"

struct rq;

#include "rust_lb_events.h"

void sched_rust_lb_placement_tick(struct rq *rq);

/*
 * sched.h's per-CPU state that the Rust reads, declared again for bindgen;
 * the C compiler checks each declaration against sched.h's wherever both
 * are included (every C file that includes this header).  And stats.h's
 * key, which the counters follow.
 */
DECLARE_PER_CPU_SHARED_ALIGNED(struct rq, runqueues);
DECLARE_PER_CPU(int, sd_llc_size);
DECLARE_PER_CPU(struct sched_domain_shared __rcu *, sd_llc_shared);
DECLARE_STATIC_KEY_FALSE(sched_schedstats);

/*
 * The yes/no inputs of the helpers, one bit each, declared in
 * rust_lb_decisions.h beside the decision that reads it: the sched
 * feature a shim snapshots for its helper (RUST_LB_F_<FEATURE>) and the
 * facts it sampled.  The entry points take them as one struct
 * rust_lb_flags, passed by value in a register, so that C cannot hand a
 * bare bool or int where the flags go; the Rust reads the bits through
 * bindgen.
 */
enum rust_lb_flag {
#define RUST_LB_FLAG(name) RUST_LB_F_##name,
#include "rust_lb_decisions.h"
#undef RUST_LB_FLAG
	RUST_LB_NR_FLAGS,
};

struct rust_lb_flags {
	unsigned int bits;
};

static_assert(RUST_LB_NR_FLAGS <= 32, "more flags than struct rust_lb_flags holds");

/* Whether @flags has RUST_LB_F_<name> (a bit number) set. */
#define rust_lb_flag_set(flags, name)	((flags).bits & (1U << RUST_LB_F_##name))

/*
 * The typed inputs of the decisions (rust_lb_decisions.h): those that
 * shims pass by address, compound literals built with designated
 * initializers where they are passed, and those of fair.c's own decisions that a policy module may
 * take over (RUST_LB_HOOK()), struct rust_lb_in_<name>, what the stock
 * rule reads, as plain values.  Each has a Rust twin of the same layout
 * in kernel::sched::math, checked when the kernel crate is built.
 */
#define RUST_LB_INPUTS
#include "rust_lb_decisions.h"
#undef RUST_LB_INPUTS

/*
 * The CPUs a decision's CPU answer must be among (and active, and in
 * range): the task's or the balance's allowed CPUs, and those the
 * decision chooses within (a group's span, or cpu_active_mask).
 */
struct rust_lb_cpus {
	const struct cpumask *allowed;
	const struct cpumask *within;
};

/*
 * Implemented in Rust: kernel/sched/rust_lb/sched_lb.rs.  Declared
 * in every configuration: the shims call them under rust_lb_on(), which
 * is false without CONFIG_SCHED_RUST_LB, so the calls compile away.
 * bindgen reads them too: each Rust definition (entry! in sched_lb.rs) is
 * checked against its prototype here when the crate is built.
 *
 * The shims' paths, rust_lb_decide(name, ...) below, from their lines in
 * rust_lb_decisions.h: the built-in rust_lb_<name>() and, while a policy
 * module is registered, the same decision on the module path (which asks
 * it), rust_lb_<name>_policy(), out of line and cold, declared below (C
 * only: it has the cold calling convention).
 */
#define RUST_LB_SHIM(rtype, name, params, ...)				\
	rtype rust_lb_##name params;
#include "rust_lb_decisions.h"
#undef RUST_LB_SHIM
/*
 * The depths that the ILB_UTIL and SIS_UTIL paths decide, alone: for
 * RUST_LB_VERIFY to compare with their twins and for the benchmark.
 */
u32 rust_lb_ilb_scan_depth(u32 nr_groups, u64 sum_util, u32 span_weight);
u32 rust_lb_sis_util_scan(u64 sum_util, u32 llc_weight, u32 imbalance_pct);
/* Flags: ILB_UTIL.  Groups a balance may scan, 0 for all. */
unsigned int rust_lb_ilb_budget(struct lb_env *env, struct rust_lb_flags flags);
struct sched_domain_shared *rust_lb_get_llc_shared(struct lb_env *env);
u64 rust_lb_check_topology(void);
/* The stock C of rust_lb_spare_imbalance(), for the benchmark (fair.c). */
void sched_rust_lb_c_spare_imbalance(struct lb_env *env, struct sd_lb_stats *sds);

/*
 * The shims' stock positions (RUST_LB_STOCK() in rust_lb_decisions.h):
 * per shim, a static key on while its path is in its stock position and
 * nothing but the stock rule is wanted of it: RUST_LB on, the shim's
 * features in their stock positions, RUST_LB_VERIFY and schedstats off
 * (nothing to check, nothing to count), and no policy module answering
 * its decision.  rust_lb/stock.c keeps them: sched_feat_write() and
 * set_schedstats() tell it (below), and so does policy registration.
 * Behind it, the shim runs the stock rule in Rust, rust_lb_<name>_stock()
 * below (the general rule with the features as constants, and no
 * counter), or nothing where the stock rule is the C around the shim.
 */
#define RUST_LB_STOCK(name, ...)					\
	DECLARE_STATIC_KEY_FALSE(rust_lb_stock_##name##_key);
#include "rust_lb_decisions.h"
#undef RUST_LB_STOCK
#ifdef CONFIG_SCHED_RUST_LB
/* A sched feature changed: with the CPU hotplug lock read-held. */
void sched_rust_lb_features_changed(void);
/* Schedstats were turned on or off. */
void sched_rust_lb_schedstats_changed(void);
#else
static inline void sched_rust_lb_features_changed(void) { }
static inline void sched_rust_lb_schedstats_changed(void) { }
#endif
/* The stock keys, with the CPU hotplug lock read-held (rust_lb/stock.c). */
void rust_lb_stock_update(void);
void rust_lb_update_idle_cpu_scan_stock(struct lb_env *env, u64 sum_util);
/* sd is not null. */
bool rust_lb_newidle_skip_stock(struct rq *rq, struct sched_domain *sd, bool overloaded);
bool rust_lb_ttwu_queue_cond_stock(u32 nr_running);
/* sds has its local and busiest groups set. */
void rust_lb_spare_imbalance_stock(struct lb_env *env, struct sd_lb_stats *sds);
/*
 * SIS_UTIL's depth in the stock position, alone, for the benchmark:
 * llc_weight is not 0, as an LLC's size never is.
 */
u32 rust_lb_sis_util_scan_stock(u64 sum_util, u32 llc_weight, u32 imbalance_pct);

/*
 * Policy modules (rust_lb/policy.c, rust/kernel/sched/policy.rs): one
 * loadable module at a time may answer the helpers' decisions in their
 * place.  The module's registration is a struct rust_lb_policy that it
 * keeps, pinned, until it unregisters it: its size (a module built for
 * another layout of it is refused), its name, and per decision (enum
 * rust_lb_decision) the function that answers it, or NULL to keep the
 * built-in answer.  While one is registered, rust_lb_policy_key is
 * on and the shims take the module paths; per decision that a module may
 * answer (RUST_LB_ANSWER()), rust_lb_policy_<name>_key is on while the
 * registered policy answers it, and the module path (Rust) then calls
 * the module through the static call rust_lb_policy_<name>, with a
 * pointer to the decision's input, and reports an answer out of range
 * with rust_lb_policy_reject().
 */
struct rust_lb_policy {
	unsigned int size;
	const char *name;
	void *answers[RUST_LB_NR_DECISIONS];
};

/* On while a policy is registered: the shims take the module path. */
DECLARE_STATIC_KEY_FALSE(rust_lb_policy_key);

#define RUST_LB_ANSWER(name, ...)					\
	DECLARE_STATIC_KEY_FALSE(rust_lb_policy_##name##_key);
#include "rust_lb_decisions.h"
#undef RUST_LB_ANSWER
/*
 * Per decision of fair.c's own code (RUST_LB_HOOK()): on while
 * RUST_LB is and the registered policy answers it or RUST_LB_VERIFY is on
 * (rust_lb/policy.c), and the shim then asks rust_lb_ask().
 * sched_feat_write() tells the keys a feature changed
 * (sched_rust_lb_features_changed(), above).
 */
#define RUST_LB_HOOK(name, ...)						\
	DECLARE_STATIC_KEY_FALSE(rust_lb_hook_##name##_key);
#include "rust_lb_decisions.h"
#undef RUST_LB_HOOK
/* The hooks' keys, with the CPU hotplug lock read-held (rust_lb/policy.c). */
void rust_lb_hooks_update(void);
#ifdef CONFIG_SCHED_RUST_LB_POLICY
/* The decisions the registered policy answers, a bit each (policy.c). */
unsigned long rust_lb_policy_answered(void);
#else
static inline unsigned long rust_lb_policy_answered(void) { return 0; }
#endif
int rust_lb_policy_register(struct rust_lb_policy *policy);
void rust_lb_policy_unregister(struct rust_lb_policy *policy);
void rust_lb_policy_reject(enum rust_lb_decision decision);

#ifndef __BINDGEN__	/* C only: bindgen knows no preserve_most */
#include <linux/static_call.h>

/*
 * The shims' cold paths, called by rust_lb_decide() below: a decision
 * while a policy module is registered (the Rust module path, whose
 * extern "rust-cold" is this convention on x86-64), and under
 * RUST_LB_VERIFY (rust_lb/verify.c).  Out of line, and with clang's
 * preserve_most convention, so that they keep every register of their
 * caller but the return value, and the inlined built-in path around the
 * call needs no register, spill or move for it.
 */
#if __has_attribute(__preserve_most__)
# define __rust_lb_cold_cc	__attribute__((__preserve_most__))
#else
# define __rust_lb_cold_cc
#endif
#define RUST_LB_SHIM(rtype, name, params, ...)				\
	rtype __rust_lb_cold_cc rust_lb_##name##_policy params;		\
	rtype __rust_lb_cold_cc sched_rust_lb_verify_##name params;
#include "rust_lb_decisions.h"
#undef RUST_LB_SHIM
/*
 * The built-in answers (policy.rs), the targets of the answers' static
 * calls while no policy answers (policy.c), of the cold convention, as
 * every answer function is.  C never calls them: the input is the Rust's
 * math::<Input>, and the answer of spare_imbalance a Rust math::Imbalance,
 * which C only names.
 */
struct rust_lb_imbalance;
#define RUST_LB_ANSWER(name, rtype)					\
	rtype __rust_lb_cold_cc rust_lb_builtin_##name(const void *input);
#include "rust_lb_decisions.h"
#undef RUST_LB_ANSWER
/*
 * The decisions of fair.c's own code: the built-in answers (policy.rs),
 * the default targets of their static calls (rust_lb/policy.c), the
 * static calls, and the cold path of an answer out of range or checked
 * under RUST_LB_VERIFY (rust_lb/verify.c), which returns the answer to
 * use.
 */
#define RUST_LB_HOOK(name, rtype)					\
	rtype __rust_lb_cold_cc						\
	rust_lb_builtin_##name(const struct rust_lb_in_##name *in);	\
	rtype __rust_lb_cold_cc						\
	rust_lb_checked_##name(const struct rust_lb_in_##name *in,	\
			       rtype ans, const struct rust_lb_cpus *cpus);
#include "rust_lb_decisions.h"
#undef RUST_LB_HOOK
#ifdef CONFIG_SCHED_RUST_LB_POLICY
#define RUST_LB_HOOK(name, ...)						\
	DECLARE_STATIC_CALL(rust_lb_policy_##name, rust_lb_builtin_##name);
#include "rust_lb_decisions.h"
#undef RUST_LB_HOOK
#endif

/*
 * A CPU answer: in range, active, and in both masks of @cpus (none to
 * check without them).
 */
static __always_inline bool rust_lb_cpu_valid(int cpu, const struct rust_lb_cpus *cpus)
{
	if ((unsigned int)cpu >= nr_cpu_ids || !cpu_active(cpu))
		return false;
	return !cpus || ((!cpus->allowed || cpumask_test_cpu(cpu, cpus->allowed)) &&
			 (!cpus->within || cpumask_test_cpu(cpu, cpus->within)));
}

/* The answers' checks: rust_lb_valid_<name>(). */
#define RUST_LB_VALID
#include "rust_lb_decisions.h"
#undef RUST_LB_VALID
/* The depths alone, on the module path: for RUST_LB_VERIFY and the benchmark. */
u32 __rust_lb_cold_cc rust_lb_ilb_scan_depth_policy(u32 nr_groups, u64 sum_util,
						    u32 span_weight);
u32 __rust_lb_cold_cc rust_lb_sis_util_scan_policy(u64 sum_util, u32 llc_weight,
						   u32 imbalance_pct);
#endif

/*
 * For the C shims, after sched.h: whether to take the Rust path, and the
 * state of a feature of the helpers (false without CONFIG_SCHED_RUST_LB,
 * so the calls compile away).
 */
#ifndef __BINDGEN__
#ifdef CONFIG_SCHED_RUST_LB
# define rust_lb_on()		sched_feat(RUST_LB)
# define rust_lb_feat(x)	sched_feat(x)
# define rust_lb_verify_on()	unlikely(sched_feat(RUST_LB_VERIFY))
#else
# define rust_lb_on()		false
# define rust_lb_feat(x)	(sizeof(#x) == 0)
# define rust_lb_verify_on()	false
#endif

/* The bit of RUST_LB_F_<name> if cond, for rust_lb_flags(). */
#define rust_lb_flag(cond, name)	((cond) ? 1U << RUST_LB_F_##name : 0U)

static inline struct rust_lb_flags rust_lb_flags(unsigned int bits)
{
	return (struct rust_lb_flags){ .bits = bits };
}

/*
 * Whether the shim of RUST_LB_STOCK(name) is in its stock position: one
 * NOP, tested first, as the key implies RUST_LB (see rust_lb_decide()
 * below).  The stock instance takes no feature snapshot: a static branch
 * is not dropped when its value is not used.
 */
#define rust_lb_stock_on(name)						\
	(IS_ENABLED(CONFIG_SCHED_RUST_LB) &&				\
	 static_branch_likely(&rust_lb_stock_##name##_key))

/* While a policy module is registered (one NOP otherwise). */
#define rust_lb_policy_on()						\
	(IS_ENABLED(CONFIG_SCHED_RUST_LB_POLICY) &&			\
	 static_branch_unlikely(&rust_lb_policy_key))

/*
 * A decision of fair.c's own code, one shape for all (RUST_LB_HOOK()):
 *
 *	if (rust_lb_hooked(name))
 *		r = rust_lb_ask(name, cpus, .field = value, ...);
 *	else
 *		r = <the stock C>;
 *
 * or, where the stock C is a scan whose answer is an input, the stock C
 * first and its answer among the fields.  One NOP while neither a policy
 * module answers the decision nor RUST_LB_VERIFY is on.  Behind it, the
 * input is filled on the caller's stack and the decision's static call
 * (the module's answer, or the built-in one) called directly; the answer
 * is checked inline against rust_lb_valid_<name>() (@cpus is NULL, or the
 * struct rust_lb_cpus a CPU answer must be in) and counted per CPU.  Out
 * of range, or under RUST_LB_VERIFY, rust_lb_checked_<name>() decides, out
 * of line.  rust_lb_ask_in() takes an input already filled.
 */
#define rust_lb_hooked(name)						\
	(IS_ENABLED(CONFIG_SCHED_RUST_LB_POLICY) &&			\
	 static_branch_unlikely(&rust_lb_hook_##name##_key))
#ifdef CONFIG_SCHED_RUST_LB_POLICY
#define rust_lb_ask_in(name, in, cpus)					\
	({								\
		const struct rust_lb_in_##name *__in = (in);		\
		typeof(rust_lb_builtin_##name(__in)) __ans =		\
			static_call(rust_lb_policy_##name)(__in);	\
									\
		if (rust_lb_verify_on() ||				\
		    unlikely(!rust_lb_valid_##name(__in, __ans, cpus)))	\
			__ans = rust_lb_checked_##name(__in, __ans, cpus); \
		else							\
			rust_lb_count(rust_lb_policy_decisions, 1);	\
		__ans;							\
	})
#else
#define rust_lb_ask_in(name, in, cpus)	rust_lb_checked_##name(in, 0, cpus)
#endif
#define rust_lb_ask(name, cpus, ...)					\
	({								\
		const struct rust_lb_in_##name __rust_lb_in = { __VA_ARGS__ }; \
									\
		rust_lb_ask_in(name, &__rust_lb_in, cpus);		\
	})

/*
 * The shims' Rust decisions, one shape for all six (fair.c, core.c):
 *
 *	if (rust_lb_stock_on(name))
 *		r = rust_lb_<name>_stock(args);
 *	else if (rust_lb_on())
 *		r = rust_lb_decide(name, args, features);
 *	else
 *		r = <the stock C>;
 *
 * rust_lb_decide() calls, by the first static branch that is on:
 * RUST_LB_VERIFY's check (sched_rust_lb_verify_<name>(), where the C twin
 * decides and the Rust answer is compared with it), the policy-module
 * path (rust_lb_<name>_policy()), or the built-in Rust helper
 * rust_lb_<name>(), inlined with CONFIG_SCHED_RUST_LB_INLINE.  The
 * arguments, feature snapshots among them, are evaluated once, on the
 * path taken.  The benchmark (rust_lb/bench.c) times this same
 * expression.
 */
#define rust_lb_decide(name, ...)					\
	(rust_lb_verify_on() ? sched_rust_lb_verify_##name(__VA_ARGS__) :	\
	 rust_lb_policy_on() ? rust_lb_##name##_policy(__VA_ARGS__) :	\
	 rust_lb_##name(__VA_ARGS__))

/*
 * ttwu_queue() and ttwu_queue_wakelist(): where a wakeup onto another CPU
 * of the waker's LLC is activated, in every feature position, while
 * schedstats are enabled: every such wakeup counts in ttwu_llc_remote,
 * and in ttwu_llc_on_wakee too when the wakelist hands the activation to
 * the wakee's CPU (@on_wakee) rather than the waker taking its runqueue
 * lock.  The LLC test is left for when schedstats are on.
 */
static inline void rust_lb_ttwu_activation(int cpu, bool on_wakee)
{
	int this_cpu;

	if (!IS_ENABLED(CONFIG_SCHED_RUST_LB) || !schedstat_enabled())
		return;
	this_cpu = smp_processor_id();
	if (cpu == this_cpu || !cpus_share_cache(this_cpu, cpu))
		return;
	rust_lb_count(rust_lb_ttwu_llc_remote, 1);
	if (on_wakee)
		rust_lb_count(rust_lb_ttwu_llc_on_wakee, 1);
}

/*
 * sched_tick(): sample task placement for the experiments, in every
 * feature position, only while schedstats are enabled (rust_lb/placement.c).
 */
static inline void rust_lb_placement_tick(struct rq *rq)
{
	if (IS_ENABLED(CONFIG_SCHED_RUST_LB) && schedstat_enabled())
		sched_rust_lb_placement_tick(rq);
}
#endif /* !__BINDGEN__ */

#endif /* _KERNEL_SCHED_RUST_LB_H */
