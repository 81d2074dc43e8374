// SPDX-License-Identifier: GPL-2.0

//! The decisions a policy module may answer: the built-in answer to every
//! input passes the seam's range check (so a module that answers as the
//! built-in is never rejected), and the range check refuses what it must.

use lb_math::math::{
    IlbScan, Imbalance, MigrationType, Newidle, Serialize, SisUtil, Spare, SpreadContext,
    TtwuQueue, IMBALANCE_MAX,
};
use proptest::prelude::*;

fn spare() -> impl Strategy<Value = Spare> {
    (
        any::<[bool; 6]>(),
        (any::<u64>(), any::<u64>(), 0u32..4096, 0u32..4096),
        (any::<u32>(), any::<u32>(), 0u32..64, 0u32..64, 0u32..64),
        proptest::option::of(any::<u32>()),
    )
        .prop_map(
            |(b, (cap, util, li, bi), (lnr, bnr, w, lc, bc), numa)| Spare {
                llc_spread: b[0],
                busiest_overloaded: b[1],
                share_llc: b[2],
                local_capacity: cap,
                local_util: util,
                local_idle_cpus: li,
                busiest_idle_cpus: bi,
                local_nr_running: lnr,
                busiest_nr_running: bnr,
                spread: SpreadContext {
                    busiest_group_weight: w,
                    prefer_sibling: b[3],
                    dst_idle: b[4],
                    local_cores: lc,
                    busiest_cores: bc,
                    numa_imb_nr: numa,
                },
            },
        )
}

proptest! {
    #[test]
    fn builtin_scan_depths_are_in_range(nr_groups: u32, sum_util: u64, span_weight: u32) {
        let input = IlbScan { nr_groups, sum_util, span_weight };
        prop_assert!(input.valid(input.builtin()));
    }

    #[test]
    fn builtin_idle_scans_are_in_range(sum_util: u64, llc_weight: u32, imbalance_pct: u32) {
        let input = SisUtil { sum_util, llc_weight, imbalance_pct };
        prop_assert!(input.valid(input.builtin()));
    }

    #[test]
    fn builtin_imbalances_are_in_range(input in spare()) {
        prop_assert!(input.valid(input.builtin()), "{:?} -> {:?}", input, input.builtin());
    }

    #[test]
    fn imbalances_past_the_range_are_refused(input in spare(), extra in 1u64..1000) {
        let most = u64::from(input.busiest_nr_running.max(input.local_idle_cpus)) + 1;
        let too_many = Imbalance { migration_type: MigrationType::Task, imbalance: most + extra };
        prop_assert!(!input.valid(too_many));
        let too_much = Imbalance {
            migration_type: MigrationType::Util,
            imbalance: input.local_capacity.min(IMBALANCE_MAX).saturating_add(extra),
        };
        prop_assert!(input.local_capacity >= IMBALANCE_MAX || !input.valid(too_much));
    }

    #[test]
    fn the_boolean_decisions_match_their_functions(nr: u32, b: [bool; 4], a: u64, c: u64) {
        let ttwu = TtwuQueue { nr_running: nr, wakee_on_cpu: b[0], queue_idle: b[1] };
        prop_assert_eq!(ttwu.builtin(), nr == 0 && (b[0] || b[1]));
        let newidle = Newidle {
            rd_overload: b[2],
            rd_overloaded: b[3],
            avg_idle_ns: a,
            max_newidle_lb_cost_ns: c,
        };
        prop_assert_eq!(newidle.builtin(), (b[2] && !b[3]) || a < c);
        let ser = Serialize { serialize_due: b[0], due: b[1] };
        prop_assert_eq!(ser.builtin(), !b[0] || b[1]);
    }
}

#[test]
fn depths_out_of_range_are_refused() {
    let ilb = IlbScan {
        nr_groups: 4,
        sum_util: 0,
        span_weight: 8,
    };
    assert!(!ilb.valid(0) && !ilb.valid(5) && ilb.valid(1) && ilb.valid(4));
    let empty = IlbScan {
        nr_groups: 0,
        ..ilb
    };
    assert!(empty.valid(0) && !empty.valid(1));
    let sis = SisUtil {
        sum_util: 0,
        llc_weight: 8,
        imbalance_pct: 117,
    };
    assert!(sis.valid(8) && !sis.valid(9));
    let spare = Spare::default();
    for t in [MigrationType::Load, MigrationType::Misfit] {
        assert!(!spare.valid(Imbalance {
            migration_type: t,
            imbalance: 0
        }));
    }
}
