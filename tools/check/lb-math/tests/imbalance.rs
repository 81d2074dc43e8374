// SPDX-License-Identifier: GPL-2.0

//! The `group_has_spare` branch of `calculate_imbalance()` (Linux 6.12)
//! and the 2020 LLC-spread change (Vincent Guittot's fix for Chris Mason's
//! schbench report): references written from the C in i128, the idle-CPU
//! underflow, and the utilization rule that `NO_LB_LLC_SPREAD` restores.

use lb_math::math::{
    adjust_numa_imbalance, idle_cpus_imbalance, llc_spread_imbalance, sibling_imbalance,
    spare_migrates_util, util_spread_imbalance, Imbalance, MigrationType, SpareWay, SpreadContext,
    IMBALANCE_MAX, NUMA_IMBALANCE_MIN,
};
use proptest::prelude::*;

fn task(imbalance: u64) -> Imbalance {
    Imbalance {
        migration_type: MigrationType::Task,
        imbalance,
    }
}

fn util(imbalance: u64) -> Imbalance {
    Imbalance {
        migration_type: MigrationType::Util,
        imbalance,
    }
}

// ---- references (i128, from the 6.12 C) ----

fn ref_util(capacity: u64, util_: u64, dst_idle: bool) -> Imbalance {
    let spare =
        (i128::from(capacity).max(i128::from(util_)) - i128::from(util_)).min(i128::from(i64::MAX));
    let spare = u64::try_from(spare).unwrap();
    if dst_idle && spare == 0 {
        task(1)
    } else {
        util(spare)
    }
}

fn ref_sibling(dst_idle: bool, l_nr: u32, b_nr: u32, l_cores: u32, b_cores: u32) -> i128 {
    if !dst_idle || b_nr == 0 {
        return 0;
    }
    let (l_nr, b_nr) = (i128::from(l_nr), i128::from(b_nr));
    let (lc, bc) = (i128::from(l_cores), i128::from(b_cores));
    if lc == bc {
        return (b_nr - l_nr).max(0);
    }
    let d = (lc * b_nr - bc * l_nr).max(0);
    let imb = (2 * d + lc + bc) / (lc + bc);
    if imb <= 1 && l_nr == 0 && b_nr > 1 {
        2
    } else {
        imb
    }
}

fn ref_numa(imb: i128, dst_running: i128, imb_numa_nr: u32) -> i128 {
    if dst_running > i128::from(imb_numa_nr) {
        imb
    } else if imb <= 2 {
        0
    } else {
        imb
    }
}

fn ref_spread(l_idle: u32, b_idle: u32, l_nr: u32, b_nr: u32, ctx: SpreadContext) -> Imbalance {
    let mut imb = if ctx.busiest_group_weight == 1 || ctx.prefer_sibling {
        ref_sibling(ctx.dst_idle, l_nr, b_nr, ctx.local_cores, ctx.busiest_cores)
    } else {
        (i128::from(l_idle) - i128::from(b_idle)).max(0)
    };
    if let Some(nr) = ctx.numa_imb_nr {
        imb = ref_numa(imb, i128::from(l_nr) + 1, nr);
    }
    task(u64::try_from(imb >> 1).unwrap())
}

/// 6.12's `max_t(long, 0, local->idle_cpus - busiest->idle_cpus)`: the
/// subtraction is `unsigned int`, then converted to `long`.
fn c_idle_diff(l_idle: u32, b_idle: u32) -> i64 {
    std::cmp::max(0, i64::from(l_idle.wrapping_sub(b_idle)))
}

// ---- examples ----

#[test]
fn migration_type_matches_c_enum() {
    assert_eq!(MigrationType::Load as u32, 0);
    assert_eq!(MigrationType::Util as u32, 1);
    assert_eq!(MigrationType::Task as u32, 2);
    assert_eq!(MigrationType::Misfit as u32, 3);
    assert_eq!(IMBALANCE_MAX, i64::MAX as u64);
    assert_eq!(NUMA_IMBALANCE_MIN, 2);
}

/// Which rule applies: 6.12 spreads by tasks inside an LLC, pre-5.10
/// (`NO_LB_LLC_SPREAD`) fills spare utilization everywhere.
#[test]
fn rule_selection() {
    let migrates_util = |busiest_overloaded, share_llc, llc_spread| {
        spare_migrates_util(SpareWay {
            llc_spread,
            busiest_overloaded,
            share_llc,
        })
    };
    // Busiest overloaded, MC domain (SD_SHARE_LLC).
    assert!(!migrates_util(true, true, true));
    assert!(migrates_util(true, true, false));
    // Busiest overloaded, PKG/NUMA domain.
    assert!(migrates_util(true, false, true));
    assert!(migrates_util(true, false, false));
    // Busiest not overloaded: always the task-count spread.
    assert!(!migrates_util(false, true, true));
    assert!(!migrates_util(false, false, false));
}

/// Rik van Riel's example in the 2020 thread: groups {0, 2} and {1, 3} of
/// one LLC, CPU 2 idle, three tasks on CPUs 1 and 3 (CPU 0 runs one).
/// At the MC level the child (SMT) prefers siblings, each group is one
/// core: move (3 - 1) / 2 = 1 task.
#[test]
fn rik_two_cores_example() {
    let ctx = SpreadContext {
        busiest_group_weight: 2,
        prefer_sibling: true,
        dst_idle: true,
        local_cores: 1,
        busiest_cores: 1,
        numa_imb_nr: None,
    };
    assert_eq!(llc_spread_imbalance(1, 0, 1, 3, ctx), task(1));
    // Without prefer_sibling, the idle-CPU difference (1 - 0) halves to 0.
    let ctx = SpreadContext {
        prefer_sibling: false,
        ..ctx
    };
    assert_eq!(llc_spread_imbalance(1, 0, 1, 3, ctx), task(0));
}

/// Vincent's first try in the thread: between single CPUs
/// (`group_weight == 1`) spread tasks: an idle CPU vs one running 3.
#[test]
fn single_cpu_groups() {
    let ctx = SpreadContext {
        busiest_group_weight: 1,
        dst_idle: true,
        local_cores: 1,
        busiest_cores: 1,
        ..SpreadContext::default()
    };
    assert_eq!(llc_spread_imbalance(1, 0, 0, 3, ctx), task(1));
    assert_eq!(llc_spread_imbalance(1, 0, 0, 4, ctx), task(2));
    // Periodic balance from a busy CPU: sibling_imbalance() returns 0.
    let busy = SpreadContext {
        dst_idle: false,
        ..ctx
    };
    assert_eq!(llc_spread_imbalance(1, 0, 0, 3, busy), task(0));
}

/// 8 idle CPUs in the local group, 2 in busiest: move (8 - 2) / 2 = 3.
#[test]
fn idle_cpu_spread() {
    let ctx = SpreadContext {
        busiest_group_weight: 8,
        ..SpreadContext::default()
    };
    assert_eq!(llc_spread_imbalance(8, 2, 0, 12, ctx), task(3));
    assert_eq!(idle_cpus_imbalance(8, 2), 6);
}

/// The 6.12 underflow: local has fewer idle CPUs than busiest. The C
/// computes `(unsigned)(2 - 5)`, converts it to a positive `long` and asks
/// for about 2^31 tasks; here it saturates to 0 like upstream's fix.
#[test]
fn idle_cpus_underflow() {
    assert_eq!(c_idle_diff(2, 5) >> 1, 2_147_483_646);
    assert_eq!(idle_cpus_imbalance(2, 5), 0);
    let ctx = SpreadContext {
        busiest_group_weight: 4,
        ..SpreadContext::default()
    };
    assert_eq!(llc_spread_imbalance(2, 5, 3, 9, ctx), task(0));
    assert_eq!(idle_cpus_imbalance(0, u32::MAX), 0);
    assert_eq!(idle_cpus_imbalance(u32::MAX, 0), u64::from(u32::MAX));
}

#[test]
fn sibling_imbalance_cores_differ() {
    // 4 cores local running 1, 2 cores busiest running 6: balance the
    // tasks per core: (2 * (4*6 - 2*1) + 6) / 6 = 50 / 6 = 8.
    assert_eq!(sibling_imbalance(true, 1, 6, 4, 2), 8);
    // Empty local group gets at least 2 when busiest runs more than one.
    assert_eq!(sibling_imbalance(true, 0, 2, 1, 8), 2);
    // Differing cores and nothing to move: the rounding term gives 1.
    assert_eq!(sibling_imbalance(true, 5, 1, 1, 8), 1);
    // One group without cores (sum of cores is 1).
    assert_eq!(sibling_imbalance(true, 0, 3, 1, 0), 7);
    assert_eq!(sibling_imbalance(true, 3, 3, 0, 1), 1);
    // Not idle / nothing running in busiest.
    assert_eq!(sibling_imbalance(false, 0, 9, 1, 2), 0);
    assert_eq!(sibling_imbalance(true, 0, 0, 1, 2), 0);
    // Maximum values do not overflow.
    let m = u32::MAX;
    assert_eq!(
        i128::from(sibling_imbalance(true, 0, m, m, m - 1)),
        ref_sibling(true, 0, m, m, m - 1)
    );
}

#[test]
fn numa_small_imbalance_allowed() {
    // Lightly loaded destination (dst_running <= imb_numa_nr): tolerate 2.
    assert_eq!(adjust_numa_imbalance(2, 1, 4), 0);
    assert_eq!(adjust_numa_imbalance(3, 1, 4), 3);
    assert_eq!(adjust_numa_imbalance(2, 5, 4), 2);
    let ctx = SpreadContext {
        busiest_group_weight: 4,
        numa_imb_nr: Some(4),
        ..SpreadContext::default()
    };
    // local 3 idle vs 1 idle: 2 tolerated -> 0; with 4 idle: 3 >> 1 = 1.
    assert_eq!(llc_spread_imbalance(3, 1, 1, 3, ctx), task(0));
    assert_eq!(llc_spread_imbalance(4, 1, 1, 3, ctx), task(1));
}

/// The pre-5.10 rule: fill the local group's spare utilization.
#[test]
fn util_rule() {
    // Two CPUs of 1024, utilization 700: migrate 1348 units.
    assert_eq!(util_spread_imbalance(2048, 700, false), util(1348));
    assert_eq!(util_spread_imbalance(2048, 700, true), util(1348));
    // Utilization above capacity (migrations): saturate at 0 ...
    assert_eq!(util_spread_imbalance(2048, 2300, false), util(0));
    // ... and an idle destination pulls one task instead.
    assert_eq!(util_spread_imbalance(2048, 2300, true), task(1));
    assert_eq!(util_spread_imbalance(2048, 2048, true), task(1));
    // Zero capacity.
    assert_eq!(util_spread_imbalance(0, 0, false), util(0));
    assert_eq!(util_spread_imbalance(0, 5, true), task(1));
    // Clamped to LONG_MAX.
    assert_eq!(
        util_spread_imbalance(u64::MAX, 0, false),
        util(IMBALANCE_MAX)
    );
}

// ---- properties ----

fn nr() -> impl Strategy<Value = u32> {
    prop_oneof![0u32..=64, 0u32..=100_000, any::<u32>(), Just(u32::MAX)]
}

fn big() -> impl Strategy<Value = u64> {
    prop_oneof![0u64..=1_000_000, any::<u64>(), Just(u64::MAX)]
}

fn ctx() -> impl Strategy<Value = SpreadContext> {
    (
        prop_oneof![Just(1u32), nr()],
        any::<bool>(),
        any::<bool>(),
        nr(),
        nr(),
        proptest::option::of(nr()),
    )
        .prop_map(
            |(busiest_group_weight, prefer_sibling, dst_idle, local_cores, busiest_cores, numa)| {
                SpreadContext {
                    busiest_group_weight,
                    prefer_sibling,
                    dst_idle,
                    local_cores,
                    busiest_cores,
                    numa_imb_nr: numa,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn util_matches_reference(cap in big(), u in big(), idle in any::<bool>()) {
        prop_assert_eq!(util_spread_imbalance(cap, u, idle), ref_util(cap, u, idle));
    }

    #[test]
    fn idle_diff_saturates(l in nr(), b in nr()) {
        let expect = (i128::from(l) - i128::from(b)).max(0);
        prop_assert_eq!(i128::from(idle_cpus_imbalance(l, b)), expect);
        // Where the C does not underflow it agrees.
        if l >= b {
            prop_assert_eq!(i128::from(idle_cpus_imbalance(l, b)), i128::from(c_idle_diff(l, b)));
        }
    }

    #[test]
    fn sibling_matches_reference(
        idle in any::<bool>(), l_nr in nr(), b_nr in nr(), lc in nr(), bc in nr(),
    ) {
        prop_assert_eq!(
            i128::from(sibling_imbalance(idle, l_nr, b_nr, lc, bc)),
            ref_sibling(idle, l_nr, b_nr, lc, bc)
        );
    }

    #[test]
    fn numa_matches_reference(imb in big(), dst in big(), nr_ in nr()) {
        prop_assert_eq!(
            i128::from(adjust_numa_imbalance(imb, dst, nr_)),
            ref_numa(i128::from(imb), i128::from(dst), nr_)
        );
    }

    #[test]
    fn spread_matches_reference(
        l_idle in nr(), b_idle in nr(), l_nr in nr(), b_nr in nr(), c in ctx(),
    ) {
        let got = llc_spread_imbalance(l_idle, b_idle, l_nr, b_nr, c);
        prop_assert_eq!(got, ref_spread(l_idle, b_idle, l_nr, b_nr, c));
        prop_assert!(got.imbalance <= IMBALANCE_MAX);
        prop_assert_eq!(got.migration_type, MigrationType::Task);
    }
}
