// SPDX-License-Identifier: GPL-2.0

//! The policies, in safe Rust over `kernel::sched`.
//!
//! Each function here is the body of one helper the C shims call (through
//! the `extern "C"` entry points of the crate root, which only turn raw
//! pointers into references).  They read the scheduler's state through the
//! abstractions, leave the arithmetic to [`math`], count what they
//! decide, and are written in safe code only.  A decision that a policy
//! module may answer has a module path too, which asks it
//! ([`kernel::sched::policy::decide`]; see "Policy modules" below).

#![forbid(unsafe_code)]

use crate::events::{self, count};
use core::num::NonZeroU32;
use kernel::sched::{
    lb::{IdleType, LbEnv, SdLbStats, SdLbStatsPicked},
    math,
    policy::decide,
    rq::Rq,
    topology::{flags, SchedDomain, SchedGroup},
};

/// `update_idle_cpu_scan()`: publish SIS_UTIL's depth in the LLC state.
/// `get_llc_shared()` only succeeds when `env->sd` spans exactly the LLC,
/// so the span weight is the LLC's size: no second per-CPU read.
pub(crate) fn update_idle_cpu_scan<const ASK: bool>(env: &LbEnv, sum_util: u64) {
    count!(rust_calls_update_idle_cpu_scan);
    if let Some(sds) = llc_shared(env) {
        let sd = env.sd();
        let depth = sis_util_scan::<ASK>(sum_util, sd.span_weight(), sd.imbalance_pct());
        sds.set_nr_idle_scan(i32::try_from(depth).unwrap_or(i32::MAX));
    }
}

// Policy modules.  A decision a module may answer is a function generic
// over `ASK`: `false` is the built-in path, which the shims inline;
// `true`, the module path, takes the module's answer, or the built-in
// decision when the module keeps it or answered out of range.  The shims
// choose between the two in C, with the policy key among their first
// tests (`rust_lb_decide()` in `rust_lb.h`), and reach
// the module path through a cold entry point of its own (`*_policy` in
// the crate root): one NOP on the built-in path while no module is
// loaded, and nothing else.

/// With `ASK` (the module path), a policy module's answer, counted; None
/// without `ASK`, or when the module keeps the built-in decision or
/// answered out of range.
#[inline(always)]
fn ask<const ASK: bool, T>(decide: impl FnOnce() -> Option<T>) -> Option<T> {
    if !ASK {
        return None;
    }
    let answer = decide();
    if answer.is_some() {
        count!(policy_decisions);
    }
    answer
}

/// SIS_UTIL's depth: with `ASK`, a policy module's, else the built-in one.
#[inline(always)]
pub(crate) fn sis_util_scan<const ASK: bool>(
    sum_util: u64,
    llc_weight: u32,
    imbalance_pct: u32,
) -> u32 {
    let input = math::SisUtil {
        sum_util,
        llc_weight,
        imbalance_pct,
    };
    ask::<ASK, _>(|| decide::sis_util_scan(|| input)).unwrap_or_else(|| input.builtin())
}

/// ILB_UTIL's depth: with `ASK`, a policy module's, else the built-in one.
#[inline(always)]
pub(crate) fn ilb_scan_depth<const ASK: bool>(
    nr_groups: u32,
    sum_util: u64,
    span_weight: u32,
) -> u32 {
    let input = math::IlbScan {
        nr_groups,
        sum_util,
        span_weight,
    };
    ask::<ASK, _>(|| decide::ilb_scan_depth(|| input)).unwrap_or_else(|| input.builtin())
}

/// ILB_UTIL: how many groups a newidle balance of `env->sd` scans, 0 for
/// all of them.  Only the LLC domain has a budget, and only once a periodic
/// balance left a snapshot with a non-zero capacity to borrow.
pub(crate) fn ilb_budget(env: &LbEnv, ilb_util: bool) -> u32 {
    count!(rust_calls_ilb_budget);
    if !ilb_util || env.idle() != IdleType::NewlyIdle {
        return 0;
    }
    let Some(sds) = llc_shared(env) else {
        return 0;
    };
    if sds.ilb_snapshot().1 == 0 {
        return 0;
    }
    let nr_groups = env.sd().nr_groups();
    u32::try_from(sds.ilb_nr_scan())
        .unwrap_or(0)
        .clamp(1, nr_groups.max(1))
}

/// How `update_sd_lb_stats()`'s scan of the groups ended.
pub(crate) struct IlbScanEnd {
    /// Utilization of the groups scanned.
    pub(crate) sum_util: u64,
    /// What [`ilb_budget`] returned for this scan (0: no budget).
    pub(crate) budget: u32,
    /// Groups scanned.
    pub(crate) scanned: u32,
    /// The scan stopped at its budget, before the last group.
    pub(crate) truncated: bool,
    /// The ILB_UTIL feature.
    pub(crate) ilb_util: bool,
}

/// End of `update_sd_lb_stats()`'s scan: account a newidle scan of the LLC
/// domain in either state of ILB_UTIL (and, under a budget, borrow the
/// snapshot when it stopped early), or, in periodic balance with ILB_UTIL,
/// publish the next scan depth and the snapshot (`update_ilb_group_scan()`
/// of the RFC).
pub(crate) fn ilb_done<const ASK: bool>(env: &LbEnv, stats: &SdLbStats, scan: IlbScanEnd) {
    let IlbScanEnd {
        sum_util,
        budget,
        scanned,
        truncated,
        ilb_util,
    } = scan;
    count!(rust_calls_ilb_done);
    let newidle = env.idle() == IdleType::NewlyIdle;
    // Without ILB_UTIL a newidle scan is only counted: no LLC lookup on
    // that path unless the counters count.
    let count_only = newidle && events::enabled();
    if !(ilb_util || count_only) {
        return;
    }
    let Some(sds) = llc_shared(env) else {
        return;
    };
    let sd = env.sd();
    if newidle {
        // The groups a newidle balance of the LLC domain visits, counted
        // with ILB_UTIL on and off alike: the experiment compares them.
        count!(newidle_scans);
        count!(newidle_groups_scanned, u64::from(scanned));
        count!(
            newidle_groups_skipped,
            u64::from(sd.nr_groups().saturating_sub(scanned)),
        );
        if ilb_util && budget != 0 && truncated {
            count!(newidle_scans_truncated);
            let (load, capacity) = sds.ilb_snapshot();
            if capacity != 0 {
                stats.set_totals(load, capacity);
            }
        }
        return;
    }
    let depth = ilb_scan_depth::<ASK>(sd.nr_groups(), sum_util, sd.span_weight());
    let (load, capacity) = stats.totals();
    sds.set_ilb(i32::try_from(depth).unwrap_or(i32::MAX), load, capacity);
    count!(ilb_snapshots_published);
}

/// `sched_balance_newidle()`'s early exit: skip the balance when the root
/// domain is not overloaded (with RD_OVERLOAD) or when the CPU's average
/// idle time does not pay for a balance of its lowest domain.
pub(crate) fn newidle_skip<const ASK: bool>(
    rq: &Rq,
    sd: Option<&SchedDomain>,
    rd: math::RdOverload,
) -> bool {
    count!(rust_calls_newidle_skip);
    ask::<ASK, _>(|| {
        decide::newidle_skip(|| math::Newidle {
            rd_overload: rd.feature,
            rd_overloaded: rd.overloaded,
            avg_idle_ns: rq.avg_idle(),
            max_newidle_lb_cost_ns: sd.map_or(0, |sd| sd.max_newidle_lb_cost()),
        })
    })
    // A module's skip is counted as the built-in's is: an outcome counter
    // means the same whoever decides.
    .inspect(|&skip| {
        if skip && rd.feature && !rd.overloaded {
            count!(newidle_skipped_not_overloaded);
        }
    })
    .unwrap_or_else(|| newidle_skip_builtin(rq, sd, rd))
}

/// The built-in newidle skip, counted.
#[inline(always)]
fn newidle_skip_builtin(rq: &Rq, sd: Option<&SchedDomain>, rd: math::RdOverload) -> bool {
    let idle_times = || (rq.avg_idle(), sd.map_or(0, |sd| sd.max_newidle_lb_cost()));
    match math::newidle_skip(rd, idle_times) {
        Some(math::NewidleSkip::NotOverloaded) => {
            count!(newidle_skipped_not_overloaded);
            true
        }
        Some(math::NewidleSkip::TooShort) => true,
        None => false,
    }
}

/// The LLC part of `ttwu_queue_cond()`: queue the wakeup on the wakelist
/// of a wakee CPU of this LLC (not this CPU) that runs
/// `input.nr_running` tasks?
pub(crate) fn ttwu_queue_cond<const ASK: bool>(input: math::TtwuQueue) -> bool {
    count!(rust_calls_ttwu_queue_cond);
    ask::<ASK, _>(|| decide::ttwu_queue_cond(|| input))
        .inspect(|&queue| {
            if queue && input.queue_idle && input.nr_running == 0 {
                count!(wakelist_idle_queued);
            }
        })
        .unwrap_or_else(|| ttwu_queue_cond_builtin(&input))
}

/// The built-in wakelist condition, counted.
#[inline(always)]
fn ttwu_queue_cond_builtin(input: &math::TtwuQueue) -> bool {
    // Counted on the branch the decision takes anyway: an idle wakee with
    // TTWU_QUEUE_IDLE queues whatever `wakee_on_cpu` says.
    if input.queue_idle && input.nr_running == 0 {
        count!(wakelist_idle_queued);
        return true;
    }
    input.builtin()
}

/// `calculate_imbalance()` when the local group has spare capacity.
pub(crate) fn spare_imbalance<const ASK: bool>(env: &LbEnv, stats: &SdLbStats, llc_spread: bool) {
    count!(rust_calls_spare_imbalance);
    if !ASK {
        return spare_imbalance_builtin(env, stats, llc_spread);
    }
    let (local, busiest) = (stats.local_stat(), stats.busiest_stat());
    let share_llc = env.sd().flags() & flags::SHARE_LLC != 0;
    let busiest_overloaded = busiest.group_type() > kernel::sched::lb::GroupType::FullyBusy;
    let dst_idle = env.idle() != IdleType::NotIdle;
    let answer = ask::<ASK, _>(|| {
        decide::spare_imbalance(|| {
            let spread = Spread {
                env,
                stats,
                by_siblings: math::spread_by_siblings(
                    busiest.group_weight(),
                    stats.prefer_sibling(),
                ),
                dst_idle,
            };
            let (local_cores, busiest_cores) = math::SpreadInputs::cores(&spread);
            math::Spare {
                llc_spread,
                busiest_overloaded,
                share_llc,
                local_capacity: local.group_capacity(),
                local_util: local.group_util(),
                local_idle_cpus: local.idle_cpus(),
                busiest_idle_cpus: busiest.idle_cpus(),
                local_nr_running: local.sum_nr_running(),
                busiest_nr_running: busiest.sum_nr_running(),
                spread: math::SpreadContext {
                    busiest_group_weight: busiest.group_weight(),
                    prefer_sibling: stats.prefer_sibling(),
                    dst_idle,
                    local_cores,
                    busiest_cores,
                    numa_imb_nr: math::SpreadInputs::numa_imb_nr(&spread),
                },
            }
        })
    });
    match answer {
        Some(imbalance) => env.set_imbalance(imbalance),
        None => spare_imbalance_builtin(env, stats, llc_spread),
    }
}

/// The built-in spare-capacity imbalance, counted.
#[inline(always)]
fn spare_imbalance_builtin(env: &LbEnv, stats: &SdLbStats, llc_spread: bool) {
    let (local, busiest) = (stats.local_stat(), stats.busiest_stat());
    let sd = env.sd();
    let share_llc = sd.flags() & flags::SHARE_LLC != 0;
    let busiest_overloaded = busiest.group_type() > kernel::sched::lb::GroupType::FullyBusy;
    let dst_idle = env.idle() != IdleType::NotIdle;

    let way = math::SpareWay {
        llc_spread,
        busiest_overloaded,
        share_llc,
    };
    let imbalance = if math::spare_migrates_util(way) {
        if share_llc {
            count!(llc_imbalance_by_util);
        }
        math::util_spread_imbalance(local.group_capacity(), local.group_util(), dst_idle)
    } else {
        if share_llc && busiest_overloaded {
            count!(llc_imbalance_by_tasks);
        }
        let by_siblings = math::spread_by_siblings(busiest.group_weight(), stats.prefer_sibling());
        if !by_siblings && local.idle_cpus() < busiest.idle_cpus() {
            count!(idle_cpus_underflow_avoided);
        }
        let inputs = Spread {
            env,
            stats,
            by_siblings,
            dst_idle,
        };
        math::llc_spread_imbalance(
            local.idle_cpus(),
            busiest.idle_cpus(),
            local.sum_nr_running(),
            busiest.sum_nr_running(),
            inputs,
        )
    };
    env.set_imbalance(imbalance);
}

/// The task-count spread's inputs, read from the balance when
/// [`math::llc_spread_imbalance`] asks for them.
struct Spread<'a> {
    env: &'a LbEnv,
    stats: &'a SdLbStats,
    by_siblings: bool,
    dst_idle: bool,
}

impl math::SpreadInputs for Spread<'_> {
    #[inline(always)]
    fn by_siblings(&self) -> bool {
        self.by_siblings
    }

    #[inline(always)]
    fn dst_idle(&self) -> bool {
        self.dst_idle
    }

    #[inline(always)]
    fn cores(&self) -> (u32, u32) {
        let cores = |g: Option<&SchedGroup>| g.map_or(0, |g| g.cores());
        (cores(self.stats.local()), cores(self.stats.busiest()))
    }

    #[inline(always)]
    fn numa_imb_nr(&self) -> Option<u32> {
        let sd = self.env.sd();
        (sd.flags() & flags::NUMA != 0).then(|| sd.imb_numa_nr())
    }
}

// The stock positions (`RUST_LB_STOCK()` in `rust_lb_decisions.h`): the
// general rule with the features at their stock positions, as constants,
// and no counter.  The shims run these while nothing else is wanted of
// them: RUST_LB_VERIFY and schedstats off, no policy module answering.

/// `update_idle_cpu_scan()` in the stock position: SIS_UTIL's depth, the
/// C's arithmetic ([`math::sis_util_nr_idle_scan_stock`]).
pub(crate) fn update_idle_cpu_scan_stock(env: &LbEnv, sum_util: u64) {
    let Some(sds) = env.llc_shared() else {
        return;
    };
    let sd = env.sd();
    if let Some(weight) = NonZeroU32::new(sd.span_weight()) {
        let depth = math::sis_util_nr_idle_scan_stock(sum_util, weight, sd.imbalance_pct());
        sds.set_nr_idle_scan(i32::try_from(depth).unwrap_or(i32::MAX));
    }
}

/// `sched_balance_newidle()`'s early exit in the stock position
/// (RD_OVERLOAD on).
#[inline(always)]
pub(crate) fn newidle_skip_stock(rq: &Rq, sd: &SchedDomain, overloaded: bool) -> bool {
    let rd = math::RdOverload {
        feature: true,
        overloaded,
    };
    math::newidle_skip(rd, || (rq.avg_idle(), sd.max_newidle_lb_cost())).is_some()
}

/// The same-LLC wakelist condition in the stock position (TTWU_QUEUE_IDLE
/// on): whether the wakee CPU is idle.
#[inline(always)]
pub(crate) fn ttwu_queue_cond_stock(nr_running: u32) -> bool {
    math::ttwu_wakelist_same_llc(math::TtwuQueue {
        nr_running,
        wakee_on_cpu: false,
        queue_idle: true,
    })
}

/// `calculate_imbalance()` with spare capacity in the stock position
/// (LB_LLC_SPREAD on), in the stock C's order: each value is read on the
/// branch that uses it, and each branch writes its answer.
#[inline(always)]
pub(crate) fn spare_imbalance_stock(env: &LbEnv, stats: &SdLbStatsPicked) {
    use math::{Imbalance, MigrationType};
    let (local, busiest) = (stats.local_stat(), stats.busiest_stat());
    let sd = env.sd();
    if busiest.group_type() > kernel::sched::lb::GroupType::FullyBusy
        && sd.flags() & flags::SHARE_LLC == 0
    {
        let spare = local.group_capacity().saturating_sub(local.group_util());
        return env.set_imbalance(if spare == 0 && env.idle() != IdleType::NotIdle {
            Imbalance {
                migration_type: MigrationType::Task,
                imbalance: 1,
            }
        } else {
            Imbalance {
                migration_type: MigrationType::Util,
                imbalance: spare,
            }
        });
    }
    let mut imbalance = if math::spread_by_siblings(busiest.group_weight(), stats.prefer_sibling())
    {
        let (local_group, busiest_group) = stats.groups();
        math::sibling_imbalance(
            env.idle() != IdleType::NotIdle,
            local.sum_nr_running(),
            busiest.sum_nr_running(),
            local_group.cores(),
            busiest_group.cores(),
        )
    } else {
        math::idle_cpus_imbalance(local.idle_cpus(), busiest.idle_cpus())
    };
    if sd.flags() & flags::NUMA != 0 {
        let dst_running = u64::from(local.sum_nr_running()).saturating_add(1);
        imbalance = math::adjust_numa_imbalance(imbalance, dst_running, sd.imb_numa_nr());
    }
    env.set_imbalance(Imbalance {
        migration_type: MigrationType::Task,
        imbalance: imbalance / 2,
    });
}

/// Whether to try `sched_balance_running` for an `SD_SERIALIZE` domain.
pub(crate) fn serialize_try<const ASK: bool>(input: math::Serialize) -> bool {
    count!(rust_calls_serialize_try);
    let attempt =
        ask::<ASK, _>(|| decide::serialize_try(|| input)).unwrap_or_else(|| input.builtin());
    // The attempts themselves are counted at the atomic, in C.
    if !attempt {
        count!(serialize_skipped_not_due);
    }
    attempt
}

/// `get_llc_shared()` of the ILB_UTIL RFC, counted.
pub(crate) fn llc_shared(env: &LbEnv) -> Option<&kernel::sched::topology::SchedDomainShared> {
    count!(rust_calls_llc_shared);
    env.llc_shared()
}
