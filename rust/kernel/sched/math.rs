// SPDX-License-Identifier: GPL-2.0

//! Pure arithmetic of the fair-class load-balancing policies.
//!
//! Everything here is a total function of plain integers and booleans, or
//! of inputs it asks for lazily (a closure, [`SpreadInputs`]) so that the
//! kernel reads a value only on the branch that uses it, as the C does: no
//! kernel state, no locking, only safe code, no floating point, only `core`.
//! The same file is built into the kernel (as a module of the `sched_lb`
//! crate) and on the host (by `tools/check/lb-math`, which carries the tests).
//!
//! Rules followed by every function:
//!
//! - No panic on any input: no operator that can overflow or divide by
//!   zero is used (the module denies `clippy::arithmetic_side_effects`);
//!   every multiplication is widened, checked or saturating (or wrapping
//!   where a comment proves it cannot wrap), every division is by a
//!   [`NonZeroU64`] or a non-zero constant. Where the C code divides
//!   by an input, the result for a zero divisor is defined and documented.
//! - No 128-bit integers: their division needs `__udivti3` and friends,
//!   which the kernel does not provide (it only redirects `core.o`'s
//!   references to panicking stubs).
//! - Where a function mirrors C code of Linux 6.12 it gives the same result
//!   as the C for every input on which the C arithmetic does not overflow;
//!   where the C would overflow, wrap or underflow, the result here is the
//!   mathematically exact one, saturated or clamped as documented.
//!
//! Imbalance values are clamped to [`IMBALANCE_MAX`] so that they always fit
//! the kernel's `long env->imbalance`.

#![forbid(unsafe_code)]
#![deny(clippy::arithmetic_side_effects)]

use core::num::{NonZeroU32, NonZeroU64};

/// Capacity of one CPU at its highest OPP (`SCHED_CAPACITY_SCALE`, `1 << 10`).
pub const SCHED_CAPACITY_SCALE: u64 = 1024;

/// Largest imbalance returned: `LONG_MAX`, the range of `env->imbalance`.
pub const IMBALANCE_MAX: u64 = i64::MAX as u64;

/// `NUMA_IMBALANCE_MIN` of fair.c: imbalances up to this are tolerated
/// between lightly loaded NUMA groups.
pub const NUMA_IMBALANCE_MIN: u64 = 2;

/// Divisor of equation \[4\] of `update_idle_cpu_scan()`:
/// `10000 * SCHED_CAPACITY_SCALE`.
const SIS_UTIL_DIVISOR: u64 = 10_000 * SCHED_CAPACITY_SCALE;

/// Returns `floor(n * s / d)`, exact when `s < d <= 2^47`.
///
/// The fast path is one multiplication. When `n * s` does not fit in 64
/// bits, `n` is split into 16-bit halves so that every partial product
/// stays below `2^64`. Outside its precondition the result saturates
/// instead of panicking.
#[inline]
fn mul_div_below(n: u32, s: u64, d: NonZeroU64) -> u64 {
    if let Some(p) = u64::from(n).checked_mul(s) {
        return p / d;
    }
    let hi = u64::from(n >> 16);
    let lo = u64::from(n & 0xffff);
    // n * s = hi * s * 2^16 + lo * s and hi * s = qa * d + ra, ra < d.
    let a = hi.saturating_mul(s);
    let (qa, ra) = (a / d, a % d);
    let b = ra
        .saturating_mul(1 << 16)
        .saturating_add(lo.saturating_mul(s));
    qa.saturating_mul(1 << 16).saturating_add(b / d)
}

/// ILB_UTIL: number of sched groups a newly idle balance scans in a domain.
///
/// From Chen Yu's RFC (June 2023, "sched/fair: Calculate the scan depth for
/// idle balance based on system utilization"), computed during periodic
/// balance of an LLC domain and used by the next `CPU_NEWLY_IDLE` balance:
///
/// `nr_scan = nr_groups - nr_groups * sum_util / (span_weight * SCHED_CAPACITY_SCALE)`
///
/// with a truncating division, so the subtracted busy share rounds down and
/// the depth rounds up. The RFC's scan loop visits a group before it counts
/// down (`if (--nr_scan_ilb <= 0) break;`) and the local group comes first,
/// so it always visits at least one group; this function returns the number
/// of groups actually visited:
///
/// - `nr_groups == 0`: `0`.
/// - `span_weight == 0` (no capacity known; the C would divide by zero):
///   `nr_groups`, scan everything.
/// - `sum_util >= span_weight * SCHED_CAPACITY_SCALE` (utilization at or
///   above capacity; the C goes to zero or negative): `1`, the local group.
/// - otherwise `max(1, nr_scan)`.
///
/// The result is always in `0..=nr_groups`.
#[inline]
pub fn ilb_scan_depth(nr_groups: u32, sum_util: u64, span_weight: u32) -> u32 {
    if nr_groups == 0 {
        return 0;
    }
    // span_weight * 1024 < 2^42: cannot overflow.
    let capacity = u64::from(span_weight).wrapping_mul(SCHED_CAPACITY_SCALE);
    let Some(capacity) = NonZeroU64::new(capacity) else {
        return nr_groups;
    };
    if sum_util >= capacity.get() {
        return 1;
    }
    // sum_util < capacity <= 2^42, so busy < nr_groups and it is exact:
    // the depth is in 1..=nr_groups without a clamp.
    let busy = mul_div_below(nr_groups, sum_util, capacity);
    nr_groups.wrapping_sub(busy as u32)
}

/// SIS_UTIL: number of CPUs `select_idle_cpu()` may scan in an LLC.
///
/// Translation of `update_idle_cpu_scan()` (kernel/sched/fair.c, 6.12),
/// the value it writes to `sd_llc_shared->nr_idle_scan`:
///
/// ```text
/// x   = sum_util / llc_weight                                   [3]
/// tmp = min(x * x * pct * pct / (10000 * 1024), 1024)           [4]
/// y   = (1024 - tmp) * llc_weight / 1024                        [2]
/// ```
///
/// Parameters:
/// - `sum_util`: sum of `cpu_util_cfs()` over the LLC domain's CPUs, as
///   accumulated by `update_sd_lb_stats()`.
/// - `llc_weight`: `per_cpu(sd_llc_size, dst_cpu)`, the number of CPUs in
///   the LLC (equal to `sd->span_weight` when the C gets this far).
/// - `imbalance_pct`: `sd->imbalance_pct` of the LLC domain (117 on MC);
///   the C calls it `pct`. The scan drops to zero when the utilization
///   ratio reaches `100 / pct`.
///
/// Bit-identical to the C for every input where the C does not overflow:
/// `x * x * pct * pct` below `2^64`, `imbalance_pct <= INT_MAX` (the C
/// stores it in an `int`) and `llc_weight <= INT_MAX`. Beyond that this
/// uses the exact values: a product of `2^64` or more exceeds the clamp, so
/// `tmp` is `1024` and the result `0`, where the C would use the wrapped
/// product. `llc_weight == 0` (a division by zero in C) returns `0`.
/// The result is always in `0..=llc_weight`.
#[inline]
pub fn sis_util_nr_idle_scan(sum_util: u64, llc_weight: u32, imbalance_pct: u32) -> u32 {
    let Some(weight) = NonZeroU64::new(u64::from(llc_weight)) else {
        return 0;
    };
    // Equation [3].
    let x = sum_util / weight;
    // Equation [4]: x * x * pct * pct == (x * pct)^2.
    let tmp = match x
        .checked_mul(u64::from(imbalance_pct))
        .and_then(|xp| xp.checked_mul(xp))
    {
        Some(sq) => (sq / SIS_UTIL_DIVISOR).min(SCHED_CAPACITY_SCALE),
        None => SCHED_CAPACITY_SCALE,
    };
    // Equation [2]: tmp <= 1024 (the clamp above), so the subtraction
    // cannot wrap, and (1024 - tmp) * llc_weight <= 2^42 cannot overflow;
    // y <= llc_weight, a u32.
    let y = SCHED_CAPACITY_SCALE
        .wrapping_sub(tmp)
        .wrapping_mul(weight.get())
        / SCHED_CAPACITY_SCALE;
    y as u32
}

/// SIS_UTIL's depth as `update_idle_cpu_scan()` of 6.12 computes it, for
/// the stock position: [`sis_util_nr_idle_scan`] without its guards, bit
/// for bit the C.
///
/// `llc_weight` is not zero (an LLC has CPUs), so there is no zero test.
/// `(x * pct)^2` wraps where the C's `x * x * pct * pct` wraps (the same
/// product modulo `2^64`), where [`sis_util_nr_idle_scan`] saturates: that
/// takes `x * pct >= 2^32`, a per-CPU utilization (`x`, at most a CPU's
/// capacity, 1024) above `2^32 / pct`, which `cpu_util_cfs()` never
/// reaches. On every other input the two are equal. The wrapped product
/// divided by `10000 * 1024` is below `2^41`, so the C's signed `min_t()`
/// is this unsigned one, and `(1024 - tmp) * llc_weight <= 2^42`.
#[inline]
pub fn sis_util_nr_idle_scan_stock(
    sum_util: u64,
    llc_weight: NonZeroU32,
    imbalance_pct: u32,
) -> u32 {
    let weight = NonZeroU64::from(llc_weight);
    let xp = (sum_util / weight).wrapping_mul(u64::from(imbalance_pct));
    let tmp = (xp.wrapping_mul(xp) / SIS_UTIL_DIVISOR).min(SCHED_CAPACITY_SCALE);
    (SCHED_CAPACITY_SCALE
        .wrapping_sub(tmp)
        .wrapping_mul(weight.get())
        / SCHED_CAPACITY_SCALE) as u32
}

/// Kind of quantity `env->imbalance` counts (`enum migration_type`).
///
/// The discriminants are those of the C enum, so `ty as u32` converts.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MigrationType {
    /// `migrate_load`: weighted load.
    Load = 0,
    /// `migrate_util`: utilization (capacity units).
    Util = 1,
    /// `migrate_task`: number of tasks.
    Task = 2,
    /// `migrate_misfit`: one misfit task.
    Misfit = 3,
}

/// Result of an imbalance computation: what to migrate and how much.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Imbalance {
    /// Value for `env->migration_type`.
    pub migration_type: MigrationType,
    /// Value for `env->imbalance`; never above [`IMBALANCE_MAX`].
    pub imbalance: u64,
}

/// What chooses between the two ways `calculate_imbalance()` fills the
/// local group's spare capacity ([`spare_migrates_util`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpareWay {
    /// `busiest->group_type > group_fully_busy`.
    pub busiest_overloaded: bool,
    /// The domain has `SD_SHARE_LLC`.
    pub share_llc: bool,
    /// The LB_LLC_SPREAD feature.
    pub llc_spread: bool,
}

/// Whether `calculate_imbalance()` fills the local group's spare capacity
/// by utilization rather than spreading by task count.
///
/// Applies when `local->group_type == group_has_spare`. 6.12 takes the
/// utilization path when `busiest->group_type > group_fully_busy` (at that
/// point only `group_overloaded` is left) and the domain is not
/// `SD_SHARE_LLC`. Without `llc_spread` the `SD_SHARE_LLC` test is
/// dropped, which reproduces the rule before v5.10 (`NO_LB_LLC_SPREAD`).
#[inline]
pub fn spare_migrates_util(way: SpareWay) -> bool {
    way.busiest_overloaded && !(way.llc_spread && way.share_llc)
}

/// Imbalance when the local group fills its spare capacity by utilization.
///
/// The `migrate_util` case of `calculate_imbalance()` for a local group
/// with spare capacity and an overloaded busiest group: migrate
/// `max(capacity, util) - util`, that is `capacity - util` saturated at 0
/// (and clamped to [`IMBALANCE_MAX`]). This is the only rule used before
/// v5.10, inside an LLC too, and what `NO_LB_LLC_SPREAD` reproduces.
///
/// `dst_idle` is `env->idle != __CPU_NOT_IDLE`. As in 6.12, when the
/// destination CPU is idle or newly idle and there is no spare capacity
/// left (utilization at or above capacity), ask for one task instead
/// (`migrate_task`, 1): the busiest group has at least one waiting task.
#[inline]
pub fn util_spread_imbalance(local_capacity: u64, local_util: u64, dst_idle: bool) -> Imbalance {
    let spare = local_capacity.saturating_sub(local_util).min(IMBALANCE_MAX);
    if dst_idle && spare == 0 {
        Imbalance {
            migration_type: MigrationType::Task,
            imbalance: 1,
        }
    } else {
        Imbalance {
            migration_type: MigrationType::Util,
            imbalance: spare,
        }
    }
}

/// Difference of idle CPUs, local minus busiest, saturated at 0.
///
/// 6.12 computes `max_t(long, 0, local->idle_cpus - busiest->idle_cpus)`;
/// the subtraction is done in `unsigned int` and wraps when busiest has
/// more idle CPUs, giving a huge positive imbalance. Saturating is what
/// upstream's later `lsub_positive()` fix does.
#[inline]
pub fn idle_cpus_imbalance(local_idle_cpus: u32, busiest_idle_cpus: u32) -> u64 {
    u64::from(local_idle_cpus.saturating_sub(busiest_idle_cpus))
}

/// `sibling_imbalance()` of 6.12: tasks to move so that both groups run the
/// same number of tasks per core (before the final halving).
///
/// - `dst_idle`: `env->idle != __CPU_NOT_IDLE`; when false, 0.
/// - `local_nr_running`, `busiest_nr_running`: `sum_nr_running` of the
///   groups; when busiest runs nothing, 0.
/// - `local_cores`, `busiest_cores`: `sched_group->cores` of the groups.
///
/// With equal core counts: `busiest - local`, saturated at 0. Otherwise
/// `(2 * d + lc + bc) / (lc + bc)` with
/// `d = max(0, lc * busiest - bc * local)`, and at least 2 when the local
/// group is empty and busiest runs more than one task. Computed in 64 bits
/// without overflow: equal to the C wherever its `unsigned int` products
/// do not wrap.
#[inline]
pub fn sibling_imbalance(
    dst_idle: bool,
    local_nr_running: u32,
    busiest_nr_running: u32,
    local_cores: u32,
    busiest_cores: u32,
) -> u64 {
    if !dst_idle || busiest_nr_running == 0 {
        return 0;
    }
    if local_cores == busiest_cores {
        return u64::from(busiest_nr_running.saturating_sub(local_nr_running));
    }
    // Products of two u32 values are below 2^64: the saturating ops are exact.
    let scaled_busiest = u64::from(local_cores).saturating_mul(u64::from(busiest_nr_running));
    let scaled_local = u64::from(busiest_cores).saturating_mul(u64::from(local_nr_running));
    let diff = scaled_busiest.saturating_sub(scaled_local);
    // The core counts differ, so their sum is at least 1.
    let Some(cores) =
        NonZeroU64::new(u64::from(local_cores).saturating_add(u64::from(busiest_cores)))
    else {
        return 0;
    };
    // (2 * diff + cores) / cores == 2 * diff / cores + 1, and with
    // diff = q * cores + r: 2 * diff / cores = 2 * q + 2 * r / cores.
    // q <= busiest_nr_running < 2^32 and r < cores < 2^33, so the result is
    // below 2^34: the wrapping operations are exact.
    let (q, r) = (diff / cores, diff % cores);
    let imbalance = q
        .wrapping_mul(2)
        .wrapping_add(r.wrapping_mul(2) / cores)
        .wrapping_add(1);
    if imbalance <= 1 && local_nr_running == 0 && busiest_nr_running > 1 {
        2
    } else {
        imbalance
    }
}

/// `adjust_numa_imbalance()` of 6.12: tolerate a small imbalance between
/// NUMA groups while the destination is lightly loaded.
///
/// Returns `imbalance` when `dst_running > imb_numa_nr`, else 0 when
/// `imbalance <= NUMA_IMBALANCE_MIN`, else `imbalance`. The C passes
/// `imbalance` as an `int`; this keeps all 64 bits.
#[inline]
pub fn adjust_numa_imbalance(imbalance: u64, dst_running: u64, imb_numa_nr: u32) -> u64 {
    if dst_running > u64::from(imb_numa_nr) || imbalance > NUMA_IMBALANCE_MIN {
        imbalance
    } else {
        0
    }
}

/// Whether the task-count spread evens out tasks per core rather than idle
/// CPUs: `busiest->group_weight == 1 || sds->prefer_sibling`.
#[inline]
pub fn spread_by_siblings(busiest_group_weight: u32, prefer_sibling: bool) -> bool {
    busiest_group_weight == 1 || prefer_sibling
}

/// Inputs of the task-count spread besides the four per-group counters,
/// each asked for only when [`llc_spread_imbalance`] needs it, as the C
/// reads them on the branch that uses them: the kernel's policy reads them
/// from the balance's state, the host tests give a [`SpreadContext`].
///
/// Laziness is measured, not assumed: reading all of them up front, as a
/// plain struct would, made the Rust side of `calculate_imbalance()` cost
/// 14.5 more instructions per call in `tools/measure/helper-insns` (the core counts
/// and `imb_numa_nr` are loads through two more pointers).
pub trait SpreadInputs {
    /// Whether the spread evens out tasks per core ([`sibling_imbalance`])
    /// rather than idle CPUs: [`spread_by_siblings`].
    fn by_siblings(&self) -> bool;
    /// `env->idle != __CPU_NOT_IDLE`: the destination CPU is idle.
    fn dst_idle(&self) -> bool;
    /// `(sds->local->cores, sds->busiest->cores)`; asked only when
    /// [`SpreadInputs::by_siblings`].
    fn cores(&self) -> (u32, u32);
    /// `Some(env->sd->imb_numa_nr)` in an `SD_NUMA` domain, else `None`.
    fn numa_imb_nr(&self) -> Option<u32>;
}

/// The inputs of the task-count spread as values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpreadContext {
    /// `busiest->group_weight`: CPUs in the busiest group.
    pub busiest_group_weight: u32,
    /// `sds->prefer_sibling`: the busiest group's child domain has
    /// `SD_PREFER_SIBLING`.
    pub prefer_sibling: bool,
    /// `env->idle != __CPU_NOT_IDLE`: the destination CPU is idle.
    pub dst_idle: bool,
    /// `sds->local->cores`: cores in the local group.
    pub local_cores: u32,
    /// `sds->busiest->cores`: cores in the busiest group.
    pub busiest_cores: u32,
    /// `Some(env->sd->imb_numa_nr)` in an `SD_NUMA` domain, else `None`.
    pub numa_imb_nr: Option<u32>,
}

impl SpreadInputs for SpreadContext {
    #[inline]
    fn by_siblings(&self) -> bool {
        spread_by_siblings(self.busiest_group_weight, self.prefer_sibling)
    }

    #[inline]
    fn dst_idle(&self) -> bool {
        self.dst_idle
    }

    #[inline]
    fn cores(&self) -> (u32, u32) {
        (self.local_cores, self.busiest_cores)
    }

    #[inline]
    fn numa_imb_nr(&self) -> Option<u32> {
        self.numa_imb_nr
    }
}

/// Imbalance when the local group has spare capacity and the balance
/// spreads by task count (the LLC spread of v5.10+).
///
/// The `group_has_spare` branch of 6.12's `calculate_imbalance()` after the
/// utilization case (see [`spare_migrates_util`]) was not taken, i.e. inside
/// an `SD_SHARE_LLC` domain, or when busiest is not overloaded:
///
/// - if [`spread_by_siblings`]: even out the tasks per core,
///   [`sibling_imbalance`] (the core counts are asked for only then);
/// - otherwise even out the idle CPUs, [`idle_cpus_imbalance`]: local idle
///   minus busiest idle, saturated at 0 (6.12 wraps in `unsigned int`);
/// - in an `SD_NUMA` domain, [`adjust_numa_imbalance`] with
///   `dst_running = local_nr_running + 1`;
/// - finally halved (`>> 1`): moving one task changes the difference by 2.
///
/// The migration type is always `migrate_task`; the imbalance is a number
/// of tasks, at most `u64::MAX >> 1` = [`IMBALANCE_MAX`].
#[inline]
pub fn llc_spread_imbalance(
    local_idle_cpus: u32,
    busiest_idle_cpus: u32,
    local_nr_running: u32,
    busiest_nr_running: u32,
    inputs: impl SpreadInputs,
) -> Imbalance {
    let mut imbalance = if inputs.by_siblings() {
        let (local_cores, busiest_cores) = inputs.cores();
        sibling_imbalance(
            inputs.dst_idle(),
            local_nr_running,
            busiest_nr_running,
            local_cores,
            busiest_cores,
        )
    } else {
        idle_cpus_imbalance(local_idle_cpus, busiest_idle_cpus)
    };
    if let Some(imb_numa_nr) = inputs.numa_imb_nr() {
        let dst_running = u64::from(local_nr_running).saturating_add(1);
        imbalance = adjust_numa_imbalance(imbalance, dst_running, imb_numa_nr);
    }
    Imbalance {
        migration_type: MigrationType::Task,
        imbalance: imbalance / 2,
    }
}

/// Why `sched_balance_newidle()` gives up before balancing any domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewidleSkip {
    /// The root domain is not overloaded (`RD_OVERLOAD`'s reason).
    NotOverloaded,
    /// The CPU's average idle time does not pay for a balance.
    TooShort,
}

/// The root-domain overload indicator as `sched_balance_newidle()` sees it
/// (`struct rust_lb_rd_overload` in C, which the shim passes by address).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct RdOverload {
    /// The RD_OVERLOAD feature: whether the indicator is consulted.
    pub feature: bool,
    /// `rd->overloaded`, sampled once by the shim.
    pub overloaded: bool,
}

/// The early exit of `sched_balance_newidle()` with the `RD_OVERLOAD`
/// feature: `None` to balance, else why not.
///
/// - `rd.feature` (the stock rule): skip when the root domain is
///   not overloaded (`!rd->overloaded`: no CPU runs a second task, nothing
///   to pull; Tim Chen's 2014 fast idling), or when the CPU's average idle
///   time is shorter than the cost of a balance, `this_rq->avg_idle <
///   sd->max_newidle_lb_cost` of the lowest domain (the 2014 patch
///   compared with `sysctl_sched_migration_cost`);
/// - without `rd.feature`: only the cost rule; the indicator is ignored.
///
/// Both times are in nanoseconds.
///
/// `idle_times` gives `(avg_idle_ns, max_newidle_lb_cost_ns)`; it is called
/// only when the indicator has not decided, as the C reads the two times
/// only then.
#[inline]
pub fn newidle_skip(
    rd: RdOverload,
    idle_times: impl FnOnce() -> (u64, u64),
) -> Option<NewidleSkip> {
    if rd.feature && !rd.overloaded {
        return Some(NewidleSkip::NotOverloaded);
    }
    let (avg_idle_ns, max_newidle_lb_cost_ns) = idle_times();
    if avg_idle_ns < max_newidle_lb_cost_ns {
        Some(NewidleSkip::TooShort)
    } else {
        None
    }
}

/// Whether to try the global `sched_balance_running` lock of an
/// `SD_SERIALIZE` (NUMA) domain.
///
/// Only consulted for a domain with `SD_SERIALIZE`. 6.12's
/// `sched_balance_domains()` does the `atomic_cmpxchg_acquire()` on every
/// visit of such a domain, before it knows whether a balance is due, so
/// every CPU's tick hits the shared cache line (Tim Chen, Oct 2025).
///
/// - without `input.serialize_due` (the feature): always true, the 6.12
///   order.
/// - with it: true only when `input.due` (the interval has elapsed). When
///   false the caller skips the lock; it would not have balanced anyway,
///   since the balance is not due.
///
/// A caller placed after `should_we_balance()`, as upstream finally did in
/// `sched_balance_rq()`, passes `due && should_we_balance` as `due`.
#[inline]
pub fn serialize_should_try(input: Serialize) -> bool {
    !input.serialize_due || input.due
}

/// Whether `ttwu_queue_cond()` queues a wakeup on the wakelist of a wakee
/// CPU in the waker's LLC (not the waker's own CPU: the caller has taken
/// the cross-LLC and same-CPU exits before it reads the wakee runqueue).
///
/// - with `input.queue_idle` (TTWU_QUEUE_IDLE, the rule since
///   f3dd3f674555, 2022): whenever the wakee CPU is idle, `nr_running == 0`.
/// - without it: the rule just before it, after 28156108fecb:
///   only when the caller saw the wakee still descheduling on that CPU
///   (`WF_ON_CPU`, here `wakee_on_cpu`) and nothing else runs there. A
///   descheduling wakee has already been dequeued, so "the only task" is
///   `nr_running == 0`.
#[inline]
pub fn ttwu_wakelist_same_llc(input: TtwuQueue) -> bool {
    input.nr_running == 0 && (input.queue_idle || input.wakee_on_cpu)
}

/// The inputs of ILB_UTIL's newidle scan depth ([`ilb_scan_depth`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IlbScan {
    /// Groups of the LLC domain.
    pub nr_groups: u32,
    /// Utilization of the domain's CPUs at the periodic balance.
    pub sum_util: u64,
    /// CPUs of the domain.
    pub span_weight: u32,
}

impl IlbScan {
    /// The built-in depth, [`ilb_scan_depth`].
    #[inline]
    pub fn builtin(&self) -> u32 {
        ilb_scan_depth(self.nr_groups, self.sum_util, self.span_weight)
    }

    /// Whether `depth` is an answer the scan can use: 0 for a domain
    /// without groups, else 1 to `nr_groups`.
    #[inline]
    pub fn valid(&self, depth: u32) -> bool {
        if self.nr_groups == 0 {
            depth == 0
        } else {
            (1..=self.nr_groups).contains(&depth)
        }
    }
}

/// The inputs of SIS_UTIL's wakeup scan depth ([`sis_util_nr_idle_scan`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SisUtil {
    /// Utilization of the LLC's CPUs.
    pub sum_util: u64,
    /// CPUs of the LLC.
    pub llc_weight: u32,
    /// The LLC domain's `imbalance_pct`.
    pub imbalance_pct: u32,
}

impl SisUtil {
    /// The built-in depth, [`sis_util_nr_idle_scan`].
    #[inline]
    pub fn builtin(&self) -> u32 {
        sis_util_nr_idle_scan(self.sum_util, self.llc_weight, self.imbalance_pct)
    }

    /// Whether `depth` is a number of CPUs of the LLC (0 to `llc_weight`).
    #[inline]
    pub fn valid(&self, depth: u32) -> bool {
        depth <= self.llc_weight
    }
}

/// The inputs of `sched_balance_newidle()`'s early exit ([`newidle_skip`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Newidle {
    /// The RD_OVERLOAD feature.
    pub rd_overload: bool,
    /// `rd->overloaded` as sampled by the shim.
    pub rd_overloaded: bool,
    /// `this_rq->avg_idle`, in nanoseconds.
    pub avg_idle_ns: u64,
    /// `sd->max_newidle_lb_cost` of the lowest domain (0 without one).
    pub max_newidle_lb_cost_ns: u64,
}

impl Newidle {
    /// The built-in decision: whether to skip the balance.
    #[inline]
    pub fn builtin(&self) -> bool {
        let rd = RdOverload {
            feature: self.rd_overload,
            overloaded: self.rd_overloaded,
        };
        newidle_skip(rd, || (self.avg_idle_ns, self.max_newidle_lb_cost_ns)).is_some()
    }
}

/// The inputs of the same-LLC wakelist condition ([`ttwu_wakelist_same_llc`];
/// `struct rust_lb_in_ttwu_queue_cond` in C, which the shim passes by address).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct TtwuQueue {
    /// `nr_running` of the wakee CPU, sampled once.
    pub nr_running: u32,
    /// The caller saw the wakee still descheduling on that CPU.
    pub wakee_on_cpu: bool,
    /// The TTWU_QUEUE_IDLE feature.
    pub queue_idle: bool,
}

impl TtwuQueue {
    /// The built-in decision: whether to queue on the wakee's wakelist.
    #[inline]
    pub fn builtin(&self) -> bool {
        ttwu_wakelist_same_llc(*self)
    }
}

/// The inputs of `calculate_imbalance()` when the local group has spare
/// capacity, every one read up front (the built-in helper reads some only
/// on the branch that uses them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spare {
    /// The LB_LLC_SPREAD feature.
    pub llc_spread: bool,
    /// `busiest->group_type > group_fully_busy`.
    pub busiest_overloaded: bool,
    /// The domain has `SD_SHARE_LLC`.
    pub share_llc: bool,
    /// `local->group_capacity`.
    pub local_capacity: u64,
    /// `local->group_util`.
    pub local_util: u64,
    /// `local->idle_cpus`.
    pub local_idle_cpus: u32,
    /// `busiest->idle_cpus`.
    pub busiest_idle_cpus: u32,
    /// `local->sum_nr_running`.
    pub local_nr_running: u32,
    /// `busiest->sum_nr_running`.
    pub busiest_nr_running: u32,
    /// The task-count spread's other inputs.
    pub spread: SpreadContext,
}

impl Spare {
    /// The built-in imbalance.
    #[inline]
    pub fn builtin(&self) -> Imbalance {
        let way = SpareWay {
            llc_spread: self.llc_spread,
            busiest_overloaded: self.busiest_overloaded,
            share_llc: self.share_llc,
        };
        if spare_migrates_util(way) {
            util_spread_imbalance(self.local_capacity, self.local_util, self.spread.dst_idle)
        } else {
            llc_spread_imbalance(
                self.local_idle_cpus,
                self.busiest_idle_cpus,
                self.local_nr_running,
                self.busiest_nr_running,
                self.spread,
            )
        }
    }

    /// Whether `imb` is an answer the balance can act on: utilization up
    /// to the local group's capacity, or tasks up to one more than the
    /// larger of busiest's tasks and local's idle CPUs; never a load or a
    /// misfit (this case decides neither).
    #[inline]
    pub fn valid(&self, imb: Imbalance) -> bool {
        match imb.migration_type {
            MigrationType::Util => imb.imbalance <= self.local_capacity.min(IMBALANCE_MAX),
            MigrationType::Task => {
                let most = self.busiest_nr_running.max(self.local_idle_cpus);
                imb.imbalance <= u64::from(most).saturating_add(1)
            }
            MigrationType::Load | MigrationType::Misfit => false,
        }
    }
}

/// The inputs of the `sched_balance_running` decision ([`serialize_should_try`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Serialize {
    /// The SERIALIZE_DUE feature.
    pub serialize_due: bool,
    /// The domain is due for balancing.
    pub due: bool,
}

impl Serialize {
    /// The built-in decision: whether to try the lock.
    #[inline]
    pub fn builtin(&self) -> bool {
        serialize_should_try(*self)
    }
}

// The decisions a policy module may take over from fair.c's own code (the
// wakeup's CPU choice, migration, the busiest queue, the balance interval,
// the newidle gate, the nohz kick).  Their inputs are `#[repr(C)]`: the
// scheduler fills the C struct of the same name (`struct rust_lb_in_<name>`
// in `kernel/sched/rust_lb_decisions.h`, whose layout the kernel crate
// checks against these at build time) and hands a policy a reference to it.
// Where the stock rule is a scan of scheduler state (the idle sibling, the
// busiest queue, the nohz kick), the input carries the stock scan's answer,
// `stock`, and the built-in answer is that.

/// The inputs of `wake_wide()`: whether a wakeup is "wide" (the waker and
/// wakee flip between more partners than the LLC has CPUs), so that
/// `select_task_rq_fair()` does not consider an affine wakeup.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WakeWide {
    /// `current->wakee_flips`.
    pub waker_flips: u32,
    /// `p->wakee_flips`.
    pub wakee_flips: u32,
    /// `sd_llc_size` of the waking CPU.
    pub llc_size: u32,
}

impl WakeWide {
    /// The stock rule: the smaller flip count reaches the LLC size and the
    /// larger reaches that many times it (a product that wraps in `unsigned
    /// int`, as in C).
    #[inline]
    pub fn builtin(&self) -> bool {
        let (master, slave) = if self.waker_flips < self.wakee_flips {
            (self.wakee_flips, self.waker_flips)
        } else {
            (self.waker_flips, self.wakee_flips)
        };
        !(slave < self.llc_size || master < slave.wrapping_mul(self.llc_size))
    }
}

/// The inputs of `wake_affine()`: whether the wakee runs on the waking CPU
/// (`this_cpu`) rather than where it ran last (`prev_cpu`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WakeAffine {
    /// The waking CPU.
    pub this_cpu: i32,
    /// The CPU the wakee last ran on.
    pub prev_cpu: i32,
    /// A synchronous wakeup (`WF_SYNC`, the waker about to sleep).
    pub sync: bool,
    /// The WA_IDLE feature.
    pub wa_idle: bool,
    /// The WA_WEIGHT feature.
    pub wa_weight: bool,
    /// The WA_BIAS feature.
    pub wa_bias: bool,
    /// `available_idle_cpu(this_cpu)`.
    pub this_idle: bool,
    /// `available_idle_cpu(prev_cpu)`.
    pub prev_idle: bool,
    /// `cpus_share_cache(this_cpu, prev_cpu)`.
    pub share_cache: bool,
    /// Tasks on `this_cpu` less its delayed-dequeue ones.
    pub this_nr_running: u32,
    /// The domain's `imbalance_pct`.
    pub imbalance_pct: u32,
    /// `cpu_load()` of `this_cpu`.
    pub this_load: u64,
    /// `cpu_load()` of `prev_cpu`.
    pub prev_load: u64,
    /// `task_h_load()` of the wakee.
    pub task_load: u64,
    /// `task_h_load(current)` (read for a synchronous wakeup only).
    pub current_load: u64,
    /// `capacity_of(this_cpu)`.
    pub this_capacity: u64,
    /// `capacity_of(prev_cpu)`.
    pub prev_capacity: u64,
}

/// What one of `wake_affine()`'s tests concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Affine {
    This,
    Prev,
    Undecided,
}

impl WakeAffine {
    /// `wake_affine_idle()`.
    #[inline]
    fn idle(&self) -> Affine {
        if self.this_idle && self.share_cache {
            return if self.prev_idle {
                Affine::Prev
            } else {
                Affine::This
            };
        }
        if self.sync && self.this_nr_running == 1 {
            return Affine::This;
        }
        if self.prev_idle {
            return Affine::Prev;
        }
        Affine::Undecided
    }

    /// `wake_affine_weight()`, in the C's 64-bit arithmetic, wrapping as
    /// the kernel's (`-fno-strict-overflow`) does.
    #[inline]
    fn weight(&self) -> Affine {
        let mut this_eff = self.this_load as i64;
        if self.sync {
            // `unsigned long > s64` compares as unsigned.
            if self.current_load > this_eff as u64 {
                return Affine::This;
            }
            this_eff = this_eff.wrapping_sub(self.current_load as i64);
        }
        this_eff = this_eff.wrapping_add(self.task_load as i64);
        if self.wa_bias {
            this_eff = this_eff.wrapping_mul(100);
        }
        this_eff = this_eff.wrapping_mul(self.prev_capacity as i64);
        let mut prev_eff = (self.prev_load as i64).wrapping_sub(self.task_load as i64);
        if self.wa_bias {
            let bias = 100u32.wrapping_add(self.imbalance_pct.wrapping_sub(100) / 2);
            prev_eff = prev_eff.wrapping_mul(i64::from(bias));
        }
        prev_eff = prev_eff.wrapping_mul(self.this_capacity as i64);
        if self.sync {
            prev_eff = prev_eff.wrapping_add(1);
        }
        if this_eff < prev_eff {
            Affine::This
        } else {
            Affine::Undecided
        }
    }

    /// The stock rule: WA_IDLE's test, then WA_WEIGHT's if that did not
    /// decide; affine only when one chose `this_cpu`.
    #[inline]
    pub fn builtin(&self) -> bool {
        let mut target = Affine::Undecided;
        if self.wa_idle {
            target = self.idle();
        }
        if self.wa_weight && target == Affine::Undecided {
            target = self.weight();
        }
        target == Affine::This
    }
}

/// The inputs of `select_idle_sibling()`: the CPU a wakeup goes to.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SelectIdleSibling {
    /// The CPU the wakee last ran on.
    pub prev: i32,
    /// The CPU the wakeup targets (the waker's after an affine wakeup).
    pub target: i32,
    /// The waking CPU.
    pub this_cpu: i32,
    /// The stock scan's choice.
    pub stock: i32,
}

impl SelectIdleSibling {
    /// The stock scan's choice.
    #[inline]
    pub fn builtin(&self) -> i32 {
        self.stock
    }
}

/// The inputs of `can_migrate_task()` once a task could move (allowed on
/// the destination, not running, not an active balance): whether its cache
/// hotness keeps it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CanMigrateTask {
    /// `migrate_degrades_locality()`: 1 worse, 0 better, -1 no matter.
    pub locality: i32,
    /// The task is cache-hot: `locality` if it matters, else `task_hot()`.
    pub hot: i32,
    /// The domain's `nr_balance_failed`.
    pub nr_balance_failed: u32,
    /// The domain's `cache_nice_tries`.
    pub cache_nice_tries: u32,
    /// The balance's `enum cpu_idle_type`.
    pub idle: u32,
    /// Nanoseconds since the task last ran (`rq_clock_task` less `exec_start`).
    pub exec_age_ns: i64,
    /// `sysctl_sched_migration_cost`, in nanoseconds.
    pub migration_cost_ns: i64,
}

impl CanMigrateTask {
    /// The stock rule: a task that is not hot moves, and so does a hot one
    /// once the domain failed to balance more often than its tries.
    #[inline]
    pub fn builtin(&self) -> bool {
        self.hot <= 0 || self.nr_balance_failed > self.cache_nice_tries
    }
}

/// The inputs of `sched_balance_find_src_rq()`: the busiest runqueue of the
/// busiest group.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FindBusiestQueue {
    /// The stock scan's CPU, -1 for none.
    pub stock: i32,
    /// The balancing CPU.
    pub dst_cpu: i32,
    /// The balance's `enum migration_type`.
    pub migration_type: u32,
    /// CPUs in the busiest group.
    pub group_weight: u32,
    /// What the balance wants to move (`env->imbalance`).
    pub imbalance: i64,
}

impl FindBusiestQueue {
    /// The stock scan's CPU.
    #[inline]
    pub fn builtin(&self) -> i32 {
        self.stock
    }
}

/// The inputs of `detach_tasks()`'s budget (`env->loop_max`): how many
/// tasks of the busiest runqueue a balance looks at.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DetachTasks {
    /// `sysctl_sched_nr_migrate`.
    pub nr_migrate: u32,
    /// Tasks on the busiest runqueue.
    pub nr_running: u32,
}

impl DetachTasks {
    /// The stock rule: the sysctl, at most the runqueue's tasks.
    #[inline]
    pub fn builtin(&self) -> u32 {
        self.nr_migrate.min(self.nr_running)
    }
}

/// The inputs of `get_sd_balance_interval()`: jiffies until a domain's
/// next periodic balance.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BalanceInterval {
    /// The domain's `balance_interval`, in milliseconds.
    pub interval_ms: u32,
    /// The domain's `busy_factor`.
    pub busy_factor: u32,
    /// The CPU is busy (the interval is stretched by `busy_factor`).
    pub busy: bool,
    /// The stock interval in jiffies, before the clamp.
    pub interval: u64,
    /// `max_load_balance_interval`, in jiffies.
    pub max_interval: u64,
}

impl BalanceInterval {
    /// The stock rule: `interval`, clamped to 1 and `max_interval`.
    #[inline]
    pub fn builtin(&self) -> u64 {
        self.interval.max(1).min(self.max_interval)
    }
}

/// The inputs of `sched_balance_newidle()`'s per-domain gate: whether a
/// newly idle CPU balances the next domain up or stops.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NewidleDomain {
    /// `this_rq->avg_idle`, in nanoseconds.
    pub avg_idle_ns: u64,
    /// What the domains below cost this time, in nanoseconds.
    pub curr_cost_ns: u64,
    /// The domain's `max_newidle_lb_cost`, in nanoseconds.
    pub max_newidle_lb_cost_ns: u64,
    /// The domain's level.
    pub level: i32,
}

impl NewidleDomain {
    /// The stock rule: balance while the expected idle time covers what
    /// balancing so far cost plus the domain's worst cost (a sum that
    /// wraps, as in C).
    #[inline]
    pub fn builtin(&self) -> bool {
        self.avg_idle_ns >= self.curr_cost_ns.wrapping_add(self.max_newidle_lb_cost_ns)
    }
}

/// The inputs of `nohz_balancer_kick()`, once it got past its early exits:
/// the `NOHZ_*_KICK` flags of the idle-load-balancer kick (0: no kick).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NohzBalancerKick {
    /// The stock rule's flags.
    pub stock: u32,
    /// Tasks on this runqueue.
    pub nr_running: u32,
    /// Fair tasks on this runqueue (`cfs.h_nr_queued`).
    pub cfs_nr_running: u32,
    /// CPUs in nohz idle.
    pub nohz_idle_cpus: u32,
    /// The next nohz balance is due.
    pub due: bool,
}

impl NohzBalancerKick {
    /// The stock rule's flags.
    #[inline]
    pub fn builtin(&self) -> u32 {
        self.stock
    }
}

// Host tests beside the arithmetic they test: `cargo test` of
// `tools/check/lb-math` compiles this module, the kernel build never does
// (`cfg(test)` is off there).  A mechanism's decision and its tests can so
// live in this one file; the larger property tests are in
// `tools/check/lb-math/tests/`.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialize_tries_every_visit_unless_told_to_wait_until_due() {
        for due in [false, true] {
            let input = |serialize_due| Serialize { serialize_due, due };
            assert!(serialize_should_try(input(false)));
            assert_eq!(serialize_should_try(input(true)), due);
        }
    }

    #[test]
    fn wakelist_same_llc_only_for_an_empty_wakee_runqueue() {
        for nr in [0, 1, 2, u32::MAX] {
            for wakee_on_cpu in [false, true] {
                let input = |queue_idle| TtwuQueue {
                    nr_running: nr,
                    wakee_on_cpu,
                    queue_idle,
                };
                let on_cpu = wakee_on_cpu;
                let q = ttwu_wakelist_same_llc(input(true));
                assert_eq!(q, nr == 0, "TTWU_QUEUE_IDLE: nr_running {nr}");
                let q = ttwu_wakelist_same_llc(input(false));
                assert_eq!(q, nr == 0 && on_cpu, "pre-2022 rule: nr_running {nr}");
            }
        }
    }
}
