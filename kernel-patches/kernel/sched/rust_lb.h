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

#include "fair_lb.h"

struct rq;

/*
 * The helpers' decisions, one line each in rust_lb_decisions.h: what a
 * policy module may answer and RUST_LB_VERIFY compares with its C twin.
 */
enum rust_lb_decision {
#define RUST_LB_DECISION(name) rust_lb_decision_##name,
#include "rust_lb_decisions.h"
#undef RUST_LB_DECISION
	RUST_LB_NR_DECISIONS,
};

/*
 * Event counters of the helpers (/sys/kernel/debug/sched/rust_lb), one
 * line each in rust_lb_counters.h: RUST_LB_COUNTER(name) is the counter
 * rust_lb_<name>, shown as "<name>".  After them, per decision, the checks
 * of RUST_LB_VERIFY (RUST_LB_VERIFY_CHECKS + decision, shown as
 * "verify_checks_<name>") and its mismatches (RUST_LB_VERIFY_MISMATCHES +
 * decision, "verify_mismatches_<name>").  The Rust side gets the enum
 * through bindgen.
 */
enum rust_lb_counter {
#define RUST_LB_COUNTER(name) rust_lb_##name,
#include "rust_lb_counters.h"
#undef RUST_LB_COUNTER
	RUST_LB_VERIFY_CHECKS,
	RUST_LB_VERIFY_MISMATCHES = RUST_LB_VERIFY_CHECKS + RUST_LB_NR_DECISIONS,
	RUST_LB_NR_COUNTERS = RUST_LB_VERIFY_MISMATCHES + RUST_LB_NR_DECISIONS,
};

/*
 * The counters, per CPU (rust_lb/counters.c).  They count while schedstats
 * are enabled: C through rust_lb_count(), Rust through count!(), both an
 * inline per-CPU add behind the sched_schedstats static key.
 */
DECLARE_PER_CPU(u64 [RUST_LB_NR_COUNTERS], rust_lb_counters);

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
 * The yes/no inputs of the helpers, one bit each, defined once here: the
 * sched feature a shim snapshots for its helper (RUST_LB_F_<FEATURE>) and
 * the facts it sampled.  The entry points take them as one struct
 * rust_lb_flags, passed by value in a register, so that C cannot hand a
 * bare bool or int where the flags go; the Rust reads the bits through
 * bindgen.
 */
enum rust_lb_flag {
	/* Feature snapshots. */
	RUST_LB_F_ILB_UTIL		= 1U << 0,
	RUST_LB_F_RD_OVERLOAD		= 1U << 1,
	RUST_LB_F_TTWU_QUEUE_IDLE	= 1U << 2,
	RUST_LB_F_LB_LLC_SPREAD		= 1U << 3,
	RUST_LB_F_SERIALIZE_DUE		= 1U << 4,
	/* Sampled facts. */
	RUST_LB_F_TRUNCATED		= 1U << 8,	/* the group scan stopped early */
	RUST_LB_F_RD_OVERLOADED		= 1U << 9,	/* rd->overloaded was set */
	RUST_LB_F_WAKEE_ON_CPU		= 1U << 10,	/* the wakee was still descheduling there */
	RUST_LB_F_DUE			= 1U << 11,	/* the domain is due for balancing */
};

struct rust_lb_flags {
	unsigned int bits;
};

/*
 * Implemented in Rust: kernel/sched/rust_lb/sched_lb.rs.  Declared
 * in every configuration: the shims call them under rust_lb_on(), which
 * is false without CONFIG_SCHED_RUST_LB, so the calls compile away.
 * bindgen reads them too: each Rust definition (entry! in sched_lb.rs) is
 * checked against its prototype here when the crate is built.
 */
u32 rust_lb_ilb_scan_depth(u32 nr_groups, u64 sum_util, u32 span_weight);
void rust_lb_update_idle_cpu_scan(struct lb_env *env, u64 sum_util);
u32 rust_lb_sis_util_scan(u64 sum_util, u32 llc_weight, u32 imbalance_pct);
/* Flags: ILB_UTIL. */
unsigned int rust_lb_ilb_budget(struct lb_env *env, struct rust_lb_flags flags);
/* Flags: ILB_UTIL, TRUNCATED. */
void rust_lb_ilb_done(struct lb_env *env, struct sd_lb_stats *sds,
		      u64 sum_util, unsigned int budget, unsigned int scanned,
		      struct rust_lb_flags flags);
/*
 * The two decisions on the wakeup and newidle fast paths take their
 * yes/no inputs as bools, not as rust_lb_flags: inlined, the Rust keeps a
 * word it tests bits of, and builds it (4 and 3 instructions per call
 * more than the same test in C; Documentation/results.rst).
 * rd_overload: the RD_OVERLOAD feature; rd_overloaded: rd->overloaded as
 * sampled by the shim.
 */
bool rust_lb_newidle_skip(struct rq *this_rq, struct sched_domain *sd,
			  bool rd_overload, bool rd_overloaded);
/* queue_idle: the TTWU_QUEUE_IDLE feature; wakee_on_cpu: as sampled. */
bool rust_lb_ttwu_queue_cond(unsigned int nr_running, bool queue_idle, bool wakee_on_cpu);
/* Flags: LB_LLC_SPREAD. */
void rust_lb_spare_imbalance(struct lb_env *env, struct sd_lb_stats *sds,
			     struct rust_lb_flags flags);
/* Flags: SERIALIZE_DUE, DUE. */
bool rust_lb_serialize_try(struct rust_lb_flags flags);
/*
 * The same decisions while a policy module is registered (the module
 * path, which asks it), out of line and cold: called only from
 * rust_lb/policy.c, the decisions' paths below.
 */
u32 rust_lb_ilb_scan_depth_policy(u32 nr_groups, u64 sum_util, u32 span_weight);
void rust_lb_update_idle_cpu_scan_policy(struct lb_env *env, u64 sum_util);
u32 rust_lb_sis_util_scan_policy(u64 sum_util, u32 llc_weight, u32 imbalance_pct);
void rust_lb_ilb_done_policy(struct lb_env *env, struct sd_lb_stats *sds,
			     u64 sum_util, unsigned int budget, unsigned int scanned,
			     struct rust_lb_flags flags);
bool rust_lb_newidle_skip_policy(struct rq *this_rq, struct sched_domain *sd,
				 bool rd_overload, bool rd_overloaded);
bool rust_lb_ttwu_queue_cond_policy(unsigned int nr_running, bool queue_idle,
				    bool wakee_on_cpu);
void rust_lb_spare_imbalance_policy(struct lb_env *env, struct sd_lb_stats *sds,
				    struct rust_lb_flags flags);
bool rust_lb_serialize_try_policy(struct rust_lb_flags flags);
struct sched_domain_shared *rust_lb_get_llc_shared(struct lb_env *env);
u64 rust_lb_check_topology(void);
/* The stock C of rust_lb_spare_imbalance(), for the benchmark (fair.c). */
void sched_rust_lb_c_spare_imbalance(struct lb_env *env, struct sd_lb_stats *sds);

/*
 * Policy modules (rust_lb/policy.c, rust/kernel/sched/policy.rs): one
 * loadable module at a time may answer the helpers' decisions in their
 * place.  The module's registration is a struct rust_lb_policy that it
 * keeps, pinned, until it unregisters it; vtable is the Rust table of its
 * answers, which only Rust reads.  rust_lb_policy_key is enabled while a
 * policy is registered; the helpers ask it only then, inside an RCU
 * read-side critical section (rust_lb_policy_get()), and report an answer
 * out of range with rust_lb_policy_reject().
 */
struct rust_lb_policy {
	const char *name;
	const void *vtable;
};

DECLARE_STATIC_KEY_FALSE(rust_lb_policy_key);
int rust_lb_policy_register(struct rust_lb_policy *policy);
void rust_lb_policy_unregister(struct rust_lb_policy *policy);
const struct rust_lb_policy *rust_lb_policy_get(void);
void rust_lb_policy_reject(enum rust_lb_decision decision);

#ifndef __BINDGEN__	/* C only: bindgen knows no preserve_most */
/*
 * The shims' cold paths, called by rust_lb_decide() below: a decision
 * while a policy module is registered (rust_lb/policy.c), and under
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
u32 __rust_lb_cold_cc rust_lb_policy_ilb_scan_depth(u32 nr_groups, u64 sum_util,
						    u32 span_weight);
void __rust_lb_cold_cc rust_lb_policy_update_idle_cpu_scan(struct lb_env *env, u64 sum_util);
void __rust_lb_cold_cc rust_lb_policy_sis_util_scan(u64 sum_util, u32 llc_weight,
						    u32 imbalance_pct, u32 *depth);
void __rust_lb_cold_cc rust_lb_policy_ilb_done(struct lb_env *env, struct sd_lb_stats *sds,
					       u64 sum_util, unsigned int budget,
					       unsigned int scanned, struct rust_lb_flags flags);
bool __rust_lb_cold_cc rust_lb_policy_newidle_skip(struct rq *rq, struct sched_domain *sd,
						   bool rd_overload, bool rd_overloaded);
bool __rust_lb_cold_cc rust_lb_policy_ttwu_queue_cond(unsigned int nr, bool queue_idle,
						      bool wakee_on_cpu);
void __rust_lb_cold_cc rust_lb_policy_spare_imbalance(struct lb_env *env,
						      struct sd_lb_stats *sds,
						      struct rust_lb_flags flags);
bool __rust_lb_cold_cc rust_lb_policy_serialize_try(struct rust_lb_flags flags);

void __rust_lb_cold_cc sched_rust_lb_verify_update_idle_cpu_scan(struct lb_env *env,
								 u64 sum_util);
void __rust_lb_cold_cc sched_rust_lb_verify_ilb_done(struct lb_env *env,
						     struct sd_lb_stats *sds, u64 sum_util,
						     unsigned int budget, unsigned int scanned,
						     struct rust_lb_flags flags);
bool __rust_lb_cold_cc sched_rust_lb_verify_newidle_skip(struct rq *rq,
							 struct sched_domain *sd,
							 bool rd_overload, bool rd_overloaded);
bool __rust_lb_cold_cc sched_rust_lb_verify_ttwu_queue_cond(unsigned int nr, bool queue_idle,
							    bool wakee_on_cpu);
void __rust_lb_cold_cc sched_rust_lb_verify_spare_imbalance(struct lb_env *env,
							    struct sd_lb_stats *sds,
							    struct rust_lb_flags flags);
bool __rust_lb_cold_cc sched_rust_lb_verify_serialize_try(struct rust_lb_flags flags);
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

/* RUST_LB_F_<name> if cond, for rust_lb_flags(). */
#define rust_lb_flag(cond, name)	((cond) ? RUST_LB_F_##name : 0U)

static inline struct rust_lb_flags rust_lb_flags(unsigned int bits)
{
	return (struct rust_lb_flags){ .bits = bits };
}

/* While a policy module is registered (one NOP otherwise). */
#define rust_lb_policy_on()						\
	(IS_ENABLED(CONFIG_SCHED_RUST_LB_POLICY) &&			\
	 static_branch_unlikely(&rust_lb_policy_key))

/*
 * The shims' Rust decisions, one shape for all six (fair.c, core.c):
 *
 *	if (rust_lb_on())
 *		r = rust_lb_decide(name, args);
 *	else
 *		r = <the stock C>;
 *
 * rust_lb_decide() calls, by the first static branch that is on:
 * RUST_LB_VERIFY's check (sched_rust_lb_verify_<name>(), where the C twin
 * decides and the Rust answer is compared with it), the policy-module
 * path (rust_lb_policy_<name>()), or the built-in Rust helper
 * rust_lb_<name>(), inlined with CONFIG_SCHED_RUST_LB_INLINE.  The
 * arguments, feature snapshots among them, are evaluated once, on the
 * path taken.  The benchmark (rust_lb/bench.c) times this same
 * expression.
 */
#define rust_lb_decide(name, ...)					\
	(rust_lb_verify_on() ? sched_rust_lb_verify_##name(__VA_ARGS__) :	\
	 rust_lb_policy_on() ? rust_lb_policy_##name(__VA_ARGS__) :	\
	 rust_lb_##name(__VA_ARGS__))

static inline void rust_lb_count(unsigned int counter, u64 n)
{
	if (IS_ENABLED(CONFIG_SCHED_RUST_LB) && schedstat_enabled() &&
	    counter < RUST_LB_NR_COUNTERS)
		this_cpu_add(rust_lb_counters[counter], n);
}

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
