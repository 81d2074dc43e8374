/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sched features of the Rust load-balancing helpers
 * (CONFIG_SCHED_RUST_LB), one block included by features.h: a
 * mechanism's feature is one entry here, and no patch of the series
 * re-anchors on another's.  No include guard: features.h is expanded
 * more than once, with its own SCHED_FEAT().
 */

/*
 * Take the balancing helpers written in Rust (kernel/sched/rust_lb/);
 * NO_RUST_LB takes the stock C code instead.
 */
SCHED_FEAT(RUST_LB, true)
/*
 * Shadow mode: in every shim, the decision's C twin (rust_lb_decisions.h)
 * decides, in whatever position the features are, and the Rust answer is
 * compared with it; checks and disagreements are counted per decision.
 */
SCHED_FEAT(RUST_LB_VERIFY, false)
/*
 * Limit the groups a newidle balance scans in the LLC domain by the LLC's
 * utilization seen at the last periodic balance, and borrow that balance's
 * totals when the scan stops early.  Off by default: upstream never took
 * it, so the stock position is a full scan.
 */
SCHED_FEAT(ILB_UTIL, false)
/*
 * Skip newidle balancing while the root domain has no overloaded runqueue
 * (rd->overloaded); NO_RD_OVERLOAD never skips it for that reason.
 */
SCHED_FEAT(RD_OVERLOAD, true)
/*
 * Queue a wakeup on the wakelist of an idle CPU of the same LLC;
 * NO_TTWU_QUEUE_IDLE: only when the caller saw the wakee still on_cpu
 * (WF_ON_CPU) and that CPU runs nothing else, the rule just before 2022's
 * f3dd3f674555.
 */
SCHED_FEAT(TTWU_QUEUE_IDLE, true)
/*
 * Inside an LLC, a local group with spare capacity pulls from an
 * overloaded busiest by task count (idle CPUs), not utilization;
 * NO_LB_LLC_SPREAD is the rule before 5.10.
 */
SCHED_FEAT(LB_LLC_SPREAD, true)
/*
 * Take the global sched_balance_running for an SD_SERIALIZE domain only
 * when that domain is due for balancing.
 */
SCHED_FEAT(SERIALIZE_DUE, true)
/*
 * Take it in sched_balance_rq() instead, after should_we_balance(), for
 * newidle balancing too, as upstream does since v6.19; SERIALIZE_DUE then
 * decides nothing.
 */
SCHED_FEAT(SERIALIZE_RQ, false)
