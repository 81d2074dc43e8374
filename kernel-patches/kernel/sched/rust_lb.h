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
 * Event counters of the helpers (/sys/kernel/debug/sched/rust_lb), one
 * line each in rust_lb_counters.h: RUST_LB_COUNTER(name) is the counter
 * rust_lb_<name>, shown as "<name>".  The Rust side gets the enum through
 * bindgen.
 */
enum rust_lb_counter {
#define RUST_LB_COUNTER(name) rust_lb_##name,
#include "rust_lb_counters.h"
#undef RUST_LB_COUNTER
	RUST_LB_NR_COUNTERS,
};

/* Decisions that RUST_LB_VERIFY checks, one line each in rust_lb_checks.h. */
enum rust_lb_check {
#define RUST_LB_CHECK(name) rust_lb_check_##name,
#include "rust_lb_checks.h"
#undef RUST_LB_CHECK
	RUST_LB_NR_CHECKS,
};

/*
 * The counters, per CPU (rust_lb/counters.c).  They count while schedstats
 * are enabled: C through rust_lb_count(), Rust through count!(), both an
 * inline per-CPU add behind the sched_schedstats static key.
 */
DECLARE_PER_CPU(u64 [RUST_LB_NR_COUNTERS], rust_lb_counters);

void sched_rust_lb_verify(unsigned int check, bool match);
void sched_rust_lb_placement_tick(struct rq *rq);

/*
 * sched.h's per-CPU state that the Rust reads, declared again for bindgen;
 * the C compiler checks each declaration against sched.h's wherever both
 * are included (every C file that includes this header).  And stats.h's
 * key, which the counters follow.
 */
DECLARE_PER_CPU_SHARED_ALIGNED(struct rq, runqueues);
DECLARE_PER_CPU(struct sched_domain __rcu *, sd_llc);
DECLARE_PER_CPU(int, sd_llc_size);
DECLARE_PER_CPU(struct sched_domain_shared __rcu *, sd_llc_shared);
DECLARE_STATIC_KEY_FALSE(sched_schedstats);

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
unsigned int rust_lb_ilb_budget(struct lb_env *env, bool ilb_util);
void rust_lb_ilb_done(struct lb_env *env, struct sd_lb_stats *sds,
		      u64 sum_util, unsigned int budget, unsigned int scanned,
		      bool truncated, bool ilb_util);
bool rust_lb_newidle_skip(struct rq *this_rq, struct sched_domain *sd,
			  bool rd_overloaded, bool rd_overload_feat);
bool rust_lb_ttwu_queue_cond(unsigned int nr_running, bool wakee_on_cpu,
			     bool queue_idle_feat);
void rust_lb_spare_imbalance(struct lb_env *env, struct sd_lb_stats *sds,
			     bool llc_spread_feat);
bool rust_lb_serialize_try(bool due, bool serialize_due_feat);
struct sched_domain_shared *rust_lb_get_llc_shared(struct lb_env *env);
u64 rust_lb_check_topology(void);
/* The stock C twin of rust_lb_spare_imbalance(), for the benchmark (fair.c). */
void sched_rust_lb_c_spare_imbalance(struct lb_env *env, struct sd_lb_stats *sds);

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

static inline void rust_lb_count(unsigned int counter, u64 n)
{
	if (IS_ENABLED(CONFIG_SCHED_RUST_LB) && schedstat_enabled() &&
	    counter < RUST_LB_NR_COUNTERS)
		this_cpu_add(rust_lb_counters[counter], n);
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

static inline void rust_lb_verify(unsigned int check, bool match)
{
	if (IS_ENABLED(CONFIG_SCHED_RUST_LB))
		sched_rust_lb_verify(check, match);
}
#endif /* !__BINDGEN__ */

#endif /* _KERNEL_SCHED_RUST_LB_H */
