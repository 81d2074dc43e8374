// SPDX-License-Identifier: GPL-2.0

//! Load-balancing and wakeup helpers of the fair class, in Rust.
//!
//! This crate is built into the kernel as `kernel/sched/rust_lb/` when
//! `CONFIG_SCHED_RUST_LB=y`.  The C side (`kernel/sched/fair.c`,
//! `kernel/sched/core.c`) keeps short shims that, behind sched features,
//! call the `extern "C"` entry points defined here.  Those turn the C
//! pointers into the references of `kernel::sched`; the policies are in
//! [`decisions`], in safe Rust (a decision of a few lines that no policy
//! module answers may stay in its entry point), and their arithmetic in [`math`] (the kernel
//! crate's, which policy modules share and the host crate `tools/check/lb-math`
//! also compiles and property-tests).  The
//! crate's `unsafe` is here (turning C pointers into references);
//! `events` counts through the `kernel` crate's static-key and per-CPU
//! macros, and `decisions` and `check` forbid `unsafe`.  Each entry
//! point is defined through `entry!`, which checks its type against the
//! C prototype.
//!
//! Every entry point runs in scheduler context on the calling CPU, with
//! preemption disabled; those that take balancing state run inside the
//! balance's RCU read-side critical section.
//!
//! C header: [`kernel/sched/rust_lb.h`](srctree/kernel/sched/rust_lb.h).

mod check;
mod decisions;
mod events;

use core::{ffi::c_uint, num::NonZeroU32};
use kernel::bindings;
use kernel::sched::{
    lb::{LbEnv, SdLbStats, SdLbStatsPicked},
    math,
    rq::Rq,
    topology::SchedDomain,
};

/// Prefix of this crate's log messages.
const __LOG_PREFIX: &[u8] = b"sched_rust_lb\0";

/// Defines an entry point of the C shims: `#[no_mangle]`, and checked at
/// build time against its prototype in `rust_lb.h` as bindgen reads it.
/// Both function items must coerce to one function pointer type, so a
/// parameter or return type that differs on either side of the seam fails
/// the build ("`if` and `else` have incompatible types").
macro_rules! entry {
    (@check $name:ident) => {
        const _: () = {
            if true {
                bindings::$name
            } else {
                $name
            };
        };
    };
    ($(#[$attr:meta])* pub unsafe extern "C" fn $name:ident $($rest:tt)*) => {
        $(#[$attr])*
        #[no_mangle]
        pub unsafe extern "C" fn $name $($rest)*
        entry!(@check $name);
    };
    ($(#[$attr:meta])* pub extern "C" fn $name:ident $($rest:tt)*) => {
        $(#[$attr])*
        #[no_mangle]
        pub extern "C" fn $name $($rest)*
        entry!(@check $name);
    };
}

/// Defines a decision's entry point and the entry point of its policy-module
/// path (see `decisions`): `$name` runs `$body` with `ASK == false`, the
/// built-in decision that the shims inline; `$policy`, cold and out of line,
/// runs it with `ASK == true`, and is called only while a policy module is
/// registered.  A path's C side is its `RUST_LB_SHIM()` line in
/// `rust_lb_decisions.h`; a decision that no policy module answers does not
/// read `ASK`.
///
/// The module path has Rust's cold calling convention (`extern
/// "rust-cold"`, LLVM's `preserve_most` on x86-64, which `rust_lb.h`
/// declares it with in C): it keeps every register of the inlined
/// built-in path that calls it, so that path needs no register, spill or
/// move for the call.  bindgen knows no such convention, so the module
/// path is not checked against a bindgen'd prototype; its parameters are
/// the built-in entry point's, which is.
macro_rules! decision {
    (@policy $(#[$attr:meta])* $policy:ident ($($arg:ident: $ty:ty),*) $(-> $ret:ty)?
     $body:block $($unsafe:ident)?) => {
        /// The module path of the decision above, taken while a policy module
        /// is registered.
        $(#[$attr])*
        #[cold]
        #[inline(never)]
        #[no_mangle]
        pub $($unsafe)? extern "rust-cold" fn $policy($($arg: $ty),*) $(-> $ret)? {
            #[allow(dead_code)]
            const ASK: bool = true;
            $body
        }
    };
    ($(#[$attr:meta])* pub unsafe extern "C" fn $name:ident / $policy:ident
     ($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? $body:block) => {
        entry! {
            $(#[$attr])*
            pub unsafe extern "C" fn $name($($arg: $ty),*) $(-> $ret)? {
                #[allow(dead_code)]
                const ASK: bool = false;
                $body
            }
        }
        decision! {
            @policy
            ///
            /// # Safety
            ///
            #[doc = concat!("As for [`", stringify!($name), "`].")]
            $policy($($arg: $ty),*) $(-> $ret)? $body unsafe
        }
    };
    ($(#[$attr:meta])* pub extern "C" fn $name:ident / $policy:ident
     ($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? $body:block) => {
        entry! {
            $(#[$attr])*
            pub extern "C" fn $name($($arg: $ty),*) $(-> $ret)? {
                #[allow(dead_code)]
                const ASK: bool = false;
                $body
            }
        }
        decision! { @policy $policy($($arg: $ty),*) $(-> $ret)? $body }
    };
}

/// The yes/no inputs of an entry point (`struct rust_lb_flags` of
/// `rust_lb.h`): one bit per feature snapshot or sampled fact, declared
/// once in C, `RUST_LB_FLAG(NAME)` in `rust_lb_decisions.h`.
#[derive(Clone, Copy)]
struct Flags(bindings::rust_lb_flags);

impl Flags {
    /// Whether `flag` (a bit number of `enum rust_lb_flag`, see `flag!`)
    /// is set.
    #[inline(always)]
    fn has(self, flag: bindings::rust_lb_flag) -> bool {
        self.0.bits & (1 << flag) != 0
    }
}

/// `flag!(NAME)`: the bit number `RUST_LB_F_NAME` of `rust_lb.h`'s `enum
/// rust_lb_flag`, through bindgen (a name the enum lacks does not compile).
macro_rules! flag {
    ($name:ident) => {
        ::kernel::macros::paste! { ::kernel::bindings::[<rust_lb_flag_RUST_LB_F_ $name>] }
    };
}

// The arithmetic's migration types are the C enum's values (`ty as u32`
// converts, see `math::MigrationType`): checked when the crate is built.
const _: () = {
    use math::MigrationType as M;
    assert!(M::Load as u32 == bindings::migration_type_migrate_load);
    assert!(M::Util as u32 == bindings::migration_type_migrate_util);
    assert!(M::Task as u32 == bindings::migration_type_migrate_task);
    assert!(M::Misfit as u32 == bindings::migration_type_migrate_misfit);
};

decision! {
    /// ILB_UTIL's newidle scan depth: how many of `nr_groups` groups a newly
    /// idle CPU scans when the domain's `span_weight` CPUs run `sum_util`.
    ///
    /// Called from C as `rust_lb_ilb_scan_depth()`; see [`math::ilb_scan_depth`].
    pub extern "C" fn rust_lb_ilb_scan_depth / rust_lb_ilb_scan_depth_policy(
        nr_groups: u32,
        sum_util: u64,
        span_weight: u32,
    ) -> u32 {
        decisions::ilb_scan_depth::<ASK>(nr_groups, sum_util, span_weight)
    }
}

decision! {
    /// Publishes SIS_UTIL's wakeup scan depth for the LLC of `env`.
    ///
    /// # Safety
    ///
    /// `env` is the environment of a balance in progress on this CPU, called
    /// inside that balance's RCU read-side critical section.
    pub unsafe extern "C" fn rust_lb_update_idle_cpu_scan / rust_lb_update_idle_cpu_scan_policy(
        env: *mut bindings::lb_env,
        sum_util: u64,
    ) {
        // SAFETY: the caller's promise is `LbEnv::from_raw()`'s contract.
        let env = unsafe { LbEnv::from_raw(env) };
        decisions::update_idle_cpu_scan::<ASK>(env, sum_util);
    }
}

decision! {
    /// SIS_UTIL's depth for the given inputs, for RUST_LB_VERIFY to compare
    /// with the C; see [`math::sis_util_nr_idle_scan`].
    pub extern "C" fn rust_lb_sis_util_scan / rust_lb_sis_util_scan_policy(
        sum_util: u64,
        llc_weight: u32,
        imbalance_pct: u32,
    ) -> u32 {
        decisions::sis_util_scan::<ASK>(sum_util, llc_weight, imbalance_pct)
    }
}

entry! {
    /// ILB_UTIL: groups the balance of `env` may scan, 0 for all.
    ///
    /// # Safety
    ///
    /// As for [`rust_lb_update_idle_cpu_scan`].
    pub unsafe extern "C" fn rust_lb_ilb_budget(
        env: *mut bindings::lb_env,
        flags: bindings::rust_lb_flags,
    ) -> c_uint {
        // SAFETY: as above.
        let env = unsafe { LbEnv::from_raw(env) };
        decisions::ilb_budget(env, Flags(flags).has(flag!(ILB_UTIL)))
    }
}

decision! {
    /// ILB_UTIL: end of the group scan of `update_sd_lb_stats()`.
    ///
    /// # Safety
    ///
    /// As for [`rust_lb_update_idle_cpu_scan`]; `sds` is that balance's
    /// domain statistics.
    pub unsafe extern "C" fn rust_lb_ilb_done / rust_lb_ilb_done_policy(
        env: *mut bindings::lb_env,
        sds: *mut bindings::sd_lb_stats,
        sum_util: u64,
        budget: c_uint,
        scanned: c_uint,
        flags: bindings::rust_lb_flags,
    ) {
        // SAFETY: as above, for both pointers.
        let (env, sds) = unsafe { (LbEnv::from_raw(env), SdLbStats::from_raw(sds)) };
        let f = Flags(flags);
        let scan = decisions::IlbScanEnd {
            sum_util,
            budget,
            scanned,
            truncated: f.has(flag!(TRUNCATED)),
            ilb_util: f.has(flag!(ILB_UTIL)),
        };
        decisions::ilb_done::<ASK>(env, sds, scan);
    }
}

decision! {
    /// Whether `sched_balance_newidle()` skips balancing.
    ///
    /// # Safety
    ///
    /// `this_rq` is the runqueue of the calling CPU and `sd` null or its lowest
    /// domain, obtained inside the RCU read-side critical section the caller
    /// is in; `rd` points to the shim's input, valid for the call.
    pub unsafe extern "C" fn rust_lb_newidle_skip / rust_lb_newidle_skip_policy(
        this_rq: *mut bindings::rq,
        sd: *mut bindings::sched_domain,
        rd: *const bindings::rust_lb_rd_overload,
    ) -> bool {
        // SAFETY: runqueues live forever; `sd` is protected by the caller's RCU
        // read-side critical section for the duration of this call; `rd` is
        // the shim's input, valid for the call.
        let (rq, sd, rd) =
            unsafe { (Rq::from_raw(this_rq), SchedDomain::from_raw(sd), rd.read()) };
        decisions::newidle_skip::<ASK>(rq, sd, rd.into())
    }
}

decision! {
    /// The same-LLC wakelist condition of `ttwu_queue_cond()`, for a wakee CPU
    /// of the waker's LLC other than the waker's own: the caller has taken the
    /// cross-LLC and same-CPU exits, then sampled the wakee runqueue's
    /// `nr_running` once, so that its C twin sees the same value.
    /// `wakee_on_cpu` is what `WF_ON_CPU` said before 2022: the caller saw the
    /// wakee still descheduling on that CPU.
    ///
    /// # Safety
    ///
    /// `input` points to the shim's input, valid for the call.
    pub unsafe extern "C" fn rust_lb_ttwu_queue_cond / rust_lb_ttwu_queue_cond_policy(
        input: *const bindings::rust_lb_in_ttwu_queue_cond,
    ) -> bool {
        // SAFETY: the caller's promise.
        let input = unsafe { input.read() };
        decisions::ttwu_queue_cond::<ASK>(input.into())
    }
}

decision! {
    /// `calculate_imbalance()` when the local group has spare capacity.
    ///
    /// # Safety
    ///
    /// As for [`rust_lb_ilb_done`].
    pub unsafe extern "C" fn rust_lb_spare_imbalance / rust_lb_spare_imbalance_policy(
        env: *mut bindings::lb_env,
        sds: *mut bindings::sd_lb_stats,
        flags: bindings::rust_lb_flags,
    ) {
        // SAFETY: as above, for both pointers.
        let (env, sds) = unsafe { (LbEnv::from_raw(env), SdLbStats::from_raw(sds)) };
        decisions::spare_imbalance::<ASK>(env, sds, Flags(flags).has(flag!(LB_LLC_SPREAD)));
    }
}

decision! {
    /// Whether to try `sched_balance_running` for a serialized domain.
    pub extern "C" fn rust_lb_serialize_try / rust_lb_serialize_try_policy(
        flags: bindings::rust_lb_flags,
    ) -> bool {
        let f = Flags(flags);
        decisions::serialize_try::<ASK>(math::Serialize {
            serialize_due: f.has(flag!(SERIALIZE_DUE)),
            due: f.has(flag!(DUE)),
        })
    }
}

// The stock positions' entry points (`RUST_LB_STOCK()` in
// `rust_lb_decisions.h`, `decisions` for the rules): called by the shims
// while their stock keys are on.

entry! {
    /// SIS_UTIL's depth for the LLC of `env`, in the stock position.
    ///
    /// # Safety
    ///
    /// As for [`rust_lb_update_idle_cpu_scan`].
    pub unsafe extern "C" fn rust_lb_update_idle_cpu_scan_stock(
        env: *mut bindings::lb_env,
        sum_util: u64,
    ) {
        // SAFETY: as above.
        let env = unsafe { LbEnv::from_raw(env) };
        decisions::update_idle_cpu_scan_stock(env, sum_util);
    }
}

entry! {
    /// SIS_UTIL's depth alone in the stock position, for the benchmark; see
    /// [`math::sis_util_nr_idle_scan_stock`].
    ///
    /// # Safety
    ///
    /// `llc_weight` is not 0.
    pub unsafe extern "C" fn rust_lb_sis_util_scan_stock(
        sum_util: u64,
        llc_weight: u32,
        imbalance_pct: u32,
    ) -> u32 {
        // SAFETY: the caller's promise.
        let weight = unsafe { NonZeroU32::new_unchecked(llc_weight) };
        math::sis_util_nr_idle_scan_stock(sum_util, weight, imbalance_pct)
    }
}

entry! {
    /// Whether `sched_balance_newidle()` skips balancing, in the stock
    /// position; `overloaded` is the root domain's indicator, sampled once.
    ///
    /// # Safety
    ///
    /// As for [`rust_lb_newidle_skip`], and `sd` is not null (the caller
    /// has left already without a domain, as 6.12's does).
    pub unsafe extern "C" fn rust_lb_newidle_skip_stock(
        this_rq: *mut bindings::rq,
        sd: *mut bindings::sched_domain,
        overloaded: bool,
    ) -> bool {
        // SAFETY: as for `rust_lb_newidle_skip`; `sd` is not null.
        let (rq, sd) =
            unsafe { (Rq::from_raw(this_rq), SchedDomain::from_raw(sd).unwrap_unchecked()) };
        decisions::newidle_skip_stock(rq, sd, overloaded)
    }
}

entry! {
    /// The same-LLC wakelist condition in the stock position, for a wakee
    /// CPU that runs `nr_running` tasks (see [`rust_lb_ttwu_queue_cond`]).
    pub extern "C" fn rust_lb_ttwu_queue_cond_stock(nr_running: u32) -> bool {
        decisions::ttwu_queue_cond_stock(nr_running)
    }
}

entry! {
    /// `calculate_imbalance()` when the local group has spare capacity, in
    /// the stock position.
    ///
    /// # Safety
    ///
    /// As for [`rust_lb_ilb_done`], and `sds` has its local and busiest
    /// groups set, as in `calculate_imbalance()`.
    pub unsafe extern "C" fn rust_lb_spare_imbalance_stock(
        env: *mut bindings::lb_env,
        sds: *mut bindings::sd_lb_stats,
    ) {
        // SAFETY: as above, for both pointers; both groups are set.
        let (env, sds) = unsafe { (LbEnv::from_raw(env), SdLbStatsPicked::from_raw(sds)) };
        decisions::spare_imbalance_stock(env, sds);
    }
}

entry! {
    /// `get_llc_shared()` on its own, for the helpers' benchmark: the LLC
    /// state of `env`'s destination CPU when `env->sd` is its LLC domain, else
    /// null.
    ///
    /// # Safety
    ///
    /// As for [`rust_lb_update_idle_cpu_scan`].
    pub unsafe extern "C" fn rust_lb_get_llc_shared(
        env: *mut bindings::lb_env,
    ) -> *mut bindings::sched_domain_shared {
        // SAFETY: as above.
        let env = unsafe { LbEnv::from_raw(env) };
        decisions::llc_shared(env).map_or(core::ptr::null_mut(), |sds| sds.as_raw())
    }
}

entry! {
    /// Checks every CPU's domain hierarchy (see `check::check_topology`):
    /// domains visited in the high 32 bits, mismatches in the low 32 bits.
    pub extern "C" fn rust_lb_check_topology() -> u64 {
        let r = check::check_topology();
        (u64::from(r.domains) << 32) | u64::from(r.mismatches)
    }
}
