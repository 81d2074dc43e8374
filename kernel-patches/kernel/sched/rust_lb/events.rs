// SPDX-License-Identifier: GPL-2.0

//! The helpers' event counters.
//!
//! `kernel/sched/rust_lb_counters.h` lists them, one `RUST_LB_COUNTER(name)`
//! line each; bindgen turns the C enum it expands into the constants
//! `rust_lb_counter_rust_lb_<name>`, and [`count!`] adds to a counter by
//! its name, so a counter is declared once, in C, and counted where a
//! policy decides.  Counting follows schedstats, as the scheduler's own
//! statistics do, and costs a NOP while they are off.

use kernel::bindings;

/// Whether the counters count (schedstats are enabled): the
/// `sched_schedstats` static key, a NOP or a load and a test, as C's
/// `schedstat_enabled()`.  For work that only feeds a counter.
#[inline(always)]
pub(crate) fn enabled() -> bool {
    #[cfg(CONFIG_SCHEDSTATS)]
    {
        kernel::static_branch_unlikely!(bindings::sched_schedstats, bindings::static_key_false, key)
    }
    #[cfg(not(CONFIG_SCHEDSTATS))]
    {
        false
    }
}

/// Adds `n` to the counter with index `counter` on this CPU while the
/// counters count ([`enabled`]): an inline `%gs`-relative add, as C's
/// `rust_lb_count()`.
#[inline(always)]
pub(crate) fn add(counter: bindings::rust_lb_counter, n: u64) {
    if enabled() {
        kernel::this_cpu_add_u64!(bindings::rust_lb_counters, counter as usize, n);
    }
}

/// `count!(name)` adds one to the counter `RUST_LB_COUNTER(name)` of
/// `kernel/sched/rust_lb_counters.h`; `count!(name, n)` adds `n`.  A name
/// that the list does not have does not compile.
macro_rules! count {
    ($name:ident) => {
        $crate::events::count!($name, 1)
    };
    ($name:ident, $n:expr $(,)?) => {
        ::kernel::macros::paste! {
            $crate::events::add(::kernel::bindings::[<rust_lb_counter_rust_lb_ $name>], $n)
        }
    };
}
pub(crate) use count;
