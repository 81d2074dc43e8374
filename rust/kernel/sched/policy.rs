// SPDX-License-Identifier: GPL-2.0

//! Policy modules: a loadable module's own answers to the balancing
//! decisions of the fair class.
//!
//! A policy is a type implementing [`Policy`], one method per decision;
//! the methods it does not implement stay the built-in helper's, which the
//! trait's default bodies are.  [`module_policy!`](crate::module_policy)
//! makes a kernel module of it: a [`Registration`], pinned in the module's
//! state, hands the policy to the scheduler while the module is loaded.
//! One policy is registered at a time: a second registration fails with
//! `EBUSY`.
//!
//! The scheduler asks the registered policy through the functions of
//! [`decide`], which the helpers' module paths call before their own
//! arithmetic; the scheduler takes those paths only while a policy is
//! registered (one NOP per decision otherwise).  While the policy answers
//! a decision, its function is a direct call into the module (a static
//! call, patched at registration), and the answer is checked before it is
//! used: an
//! answer out of range is replaced by the built-in one and counted, and
//! after enough of them the policy is detached (the C side,
//! `kernel/sched/rust_lb/policy.c`, defers that out of the scheduler's
//! locks).  A policy is never called after its unregistration returns.
//!
//! The inputs are plain values read by the scheduler (the types of
//! [`crate::sched::math`]), so a policy reads no scheduler state itself
//! and needs no symbol beyond the registration's.
//!
//! Without `CONFIG_SCHED_RUST_LB_POLICY` no policy is ever asked (and a
//! module's registration does not link: the registration functions are
//! not built).
//!
//! C header: [`kernel/sched/rust_lb.h`](srctree/kernel/sched/rust_lb.h).
//!
//! # Examples
//!
//! A policy that queues every same-LLC wakeup on an idle CPU's wakelist,
//! whatever TTWU_QUEUE_IDLE says, and leaves the other decisions alone:
//!
//! ```ignore
//! use kernel::prelude::*;
//! use kernel::sched::{math, policy};
//!
//! kernel::module_policy! {
//!     type: QueueIdle,
//!     name: "rust_lb_queue_idle",
//!     author: "A. Developer",
//!     description: "Queue every same-LLC wakeup on an idle CPU's wakelist",
//!     license: "GPL",
//! }
//!
//! struct QueueIdle;
//!
//! #[vtable]
//! impl policy::Policy for QueueIdle {
//!     const NAME: &'static CStr = c_str!("queue_idle");
//!
//!     fn ttwu_queue_cond(input: &math::TtwuQueue) -> bool {
//!         input.nr_running == 0
//!     }
//! }
//! ```

use crate::{
    bindings,
    error::{to_result, Error},
    init::{self, PinInit},
    prelude::*,
    sched::math::{
        BalanceInterval, CanMigrateTask, DetachTasks, FindBusiestQueue, IlbScan, Imbalance,
        Newidle, NewidleDomain, NohzBalancerKick, RdOverload, SelectIdleSibling, Serialize,
        SisUtil, Spare, TtwuQueue, WakeAffine, WakeWide,
    },
    str::CStr,
    types::Opaque,
};
use core::{ffi::c_void, marker::PhantomData};

/// A balancing policy: the decisions a module may answer in place of the
/// built-in helpers.  Each default is the built-in decision, which honours
/// the sched features through its input, so a policy that overrides
/// nothing decides as the built-in helpers do.  The defaults are inlined
/// into the module's answer functions; a method of a policy's own may be
/// `#[inline]` too, so that its answer function calls nothing (it keeps
/// every register of its caller, and saves only those its body uses).
///
/// Every method runs in scheduler context on the calling CPU, with
/// preemption or interrupts disabled and runqueue or `pi_lock` locks held:
/// it must not sleep, allocate or take a lock that the scheduler's wakeup
/// path takes.
#[vtable]
pub trait Policy: 'static {
    /// The policy's name, in the scheduler's log lines.
    const NAME: &'static CStr;

    /// ILB_UTIL: how many groups of the LLC domain a newidle balance scans
    /// (1 to `nr_groups`).
    #[inline(always)]
    fn ilb_scan_depth(input: &IlbScan) -> u32 {
        input.builtin()
    }

    /// SIS_UTIL: how many CPUs of the LLC a wakeup scans for an idle one
    /// (0 to `llc_weight`).
    #[inline(always)]
    fn sis_util_scan(input: &SisUtil) -> u32 {
        input.builtin()
    }

    /// Whether a newly idle CPU skips balancing.
    #[inline(always)]
    fn newidle_skip(input: &Newidle) -> bool {
        input.builtin()
    }

    /// Whether a same-LLC wakeup goes to the wakee CPU's wakelist.
    #[inline(always)]
    fn ttwu_queue_cond(input: &TtwuQueue) -> bool {
        input.builtin()
    }

    /// What to migrate when the local group has spare capacity.
    #[inline(always)]
    fn spare_imbalance(input: &Spare) -> Imbalance {
        input.builtin()
    }

    /// Whether to try `sched_balance_running` for a serialized domain.
    #[inline(always)]
    fn serialize_try(input: &Serialize) -> bool {
        input.builtin()
    }

    /// `wake_wide()`: whether a wakeup is too wide for an affine one.
    #[inline(always)]
    fn wake_wide(input: &WakeWide) -> bool {
        input.builtin()
    }

    /// `wake_affine()`: whether the wakee goes to the waking CPU (`true`)
    /// or stays with its previous CPU.
    #[inline(always)]
    fn wake_affine(input: &WakeAffine) -> bool {
        input.builtin()
    }

    /// `select_idle_sibling()`: the CPU the wakee runs on (one it may run
    /// on, and active).
    #[inline(always)]
    fn select_idle_sibling(input: &SelectIdleSibling) -> i32 {
        input.builtin()
    }

    /// `can_migrate_task()`: whether a task that could move may, given its
    /// cache hotness.
    #[inline(always)]
    fn can_migrate_task(input: &CanMigrateTask) -> bool {
        input.builtin()
    }

    /// `sched_balance_find_src_rq()`: the CPU of the busiest group to pull
    /// from (one the balance may pull from, never the balancing CPU), or -1
    /// for none.
    #[inline(always)]
    fn find_busiest_queue(input: &FindBusiestQueue) -> i32 {
        input.builtin()
    }

    /// `detach_tasks()`'s budget: how many tasks of the busiest runqueue a
    /// balance looks at (1 to its tasks).
    #[inline(always)]
    fn detach_tasks(input: &DetachTasks) -> u32 {
        input.builtin()
    }

    /// `get_sd_balance_interval()`: jiffies to the domain's next balance
    /// (1 to `max_interval`).
    #[inline(always)]
    fn balance_interval(input: &BalanceInterval) -> u64 {
        input.builtin()
    }

    /// `sched_balance_newidle()`, per domain: whether to balance it.
    #[inline(always)]
    fn newidle_domain(input: &NewidleDomain) -> bool {
        input.builtin()
    }

    /// `nohz_balancer_kick()`: the `NOHZ_*_KICK` flags of the kick, 0 for
    /// none (those flags only).
    #[inline(always)]
    fn nohz_balancer_kick(input: &NohzBalancerKick) -> u32 {
        input.builtin()
    }

    /// Called by [`module_policy!`](crate::module_policy) when its module is
    /// removed, while the policy is still registered.
    fn unregistering() {}

    /// Called by [`module_policy!`](crate::module_policy) when its module is
    /// removed, once the policy is unregistered: no CPU is in, or enters,
    /// one of its methods.
    fn unregistered() {}
}

/// Makes a kernel module of the policy `type`: loaded, it registers the
/// policy (a [`Registration`] in the module's state, so a second policy
/// fails to load with `EBUSY`); removed, it calls
/// [`Policy::unregistering`], unregisters the policy and calls
/// [`Policy::unregistered`].  The other fields are `module!`'s.
///
/// # Examples
///
/// ```ignore
/// use kernel::prelude::*;
/// use kernel::sched::{math, policy};
///
/// kernel::module_policy! {
///     type: Stack,
///     name: "rust_lb_stack",
///     author: "A. Developer",
///     description: "Wake every task on its previous CPU",
///     license: "GPL",
/// }
///
/// struct Stack;
///
/// #[vtable]
/// impl policy::Policy for Stack {
///     const NAME: &'static CStr = c_str!("stack");
///
///     fn select_idle_sibling(input: &math::SelectIdleSibling) -> i32 {
///         input.prev
///     }
/// }
/// ```
#[macro_export]
macro_rules! module_policy {
    (type: $policy:ty, $($f:tt)*) => {
        /// The module: the policy's registration, from load to removal.
        struct PolicyModule {
            registration: ::core::option::Option<
                ::core::pin::Pin<
                    $crate::alloc::KBox<$crate::sched::policy::Registration<$policy>>,
                >,
            >,
        }

        $crate::prelude::module! {
            type: PolicyModule,
            $($f)*
        }

        impl $crate::Module for PolicyModule {
            fn init(_module: &'static $crate::ThisModule) -> $crate::error::Result<Self> {
                let registration = $crate::alloc::KBox::pin_init(
                    $crate::sched::policy::Registration::<$policy>::new(),
                    $crate::alloc::flags::GFP_KERNEL,
                )?;
                ::core::result::Result::Ok(Self {
                    registration: ::core::option::Option::Some(registration),
                })
            }
        }

        impl ::core::ops::Drop for PolicyModule {
            fn drop(&mut self) {
                <$policy as $crate::sched::policy::Policy>::unregistering();
                // Unregisters: once this returns, no CPU is in, or enters,
                // the policy's methods.
                ::core::mem::drop(self.registration.take());
                <$policy as $crate::sched::policy::Policy>::unregistered();
            }
        }
    };
}

/// A registered policy: registered by [`Registration::new`], unregistered
/// when dropped.
///
/// # Invariants
///
/// `node` is registered with the scheduler (`rust_lb_policy_register()`)
/// from initialization until drop, or was detached by the scheduler, and
/// each of its `answers` is null or `decide`'s answer function of `P` for
/// that decision.
#[pin_data(PinnedDrop)]
pub struct Registration<P: Policy> {
    #[pin]
    node: Opaque<bindings::rust_lb_policy>,
    _policy: PhantomData<P>,
}

// SAFETY: the registration is only the node the scheduler reads, through
// `rust_lb_policy_*()`, which serialize registration and unregistration
// themselves; it may be dropped on any thread.
unsafe impl<P: Policy> Send for Registration<P> {}

// SAFETY: a shared reference gives no access to the node.
unsafe impl<P: Policy> Sync for Registration<P> {}

impl<P: Policy> Registration<P> {
    /// Registers `P` with the scheduler; fails with `EBUSY` while another
    /// policy is registered.
    pub fn new() -> impl PinInit<Self, Error> {
        let register = |slot: *mut Opaque<bindings::rust_lb_policy>| {
            let node = Opaque::raw_get(slot);
            // SAFETY: `node` is valid for writes (the slot being initialized).
            unsafe {
                node.write(bindings::rust_lb_policy {
                    // The layout this module was built for (the scheduler
                    // refuses another).
                    size: core::mem::size_of::<bindings::rust_lb_policy>() as u32,
                    name: P::NAME.as_char_ptr(),
                    answers: decide::answers::<P>(),
                })
            };
            // SAFETY: `node` is initialized, and pinned until the
            // registration's drop unregisters it.
            to_result(unsafe { bindings::rust_lb_policy_register(node) })
        };
        // SAFETY: on success `register` has initialized the node and
        // registered it, at the address where it stays (the slot is pinned);
        // on failure the node is not registered and needs no drop (`Opaque`
        // drops nothing).
        let node = unsafe { init::pin_init_from_closure(register) };
        // INVARIANT: `node` is registered once this initializer succeeds.
        try_pin_init!(Self {
            _policy: PhantomData,
            node <- node,
        }? Error)
    }
}

#[pinned_drop]
impl<P: Policy> PinnedDrop for Registration<P> {
    fn drop(self: Pin<&mut Self>) {
        // SAFETY: by the type invariant the node was registered (or detached,
        // which unregistration tolerates); after this returns no CPU uses it.
        unsafe { bindings::rust_lb_policy_unregister(self.node.get()) };
    }
}

/// `c_input! { Rust = c_struct { fields }; ... }`: the `math` type `Rust` is the
/// Rust view of the C's `struct c_struct`, which the scheduler fills: the
/// same fields, of the same types (the conversion names each once, and its
/// type must match), at the same offsets, and no more; checked when the
/// crate is built.  The conversion costs nothing once inlined.
macro_rules! c_input {
    ($($rust:ident = $c:ident { $($field:ident),* $(,)? };)*) => {
        $(
            const _: () = {
                type C = bindings::$c;
                assert!(core::mem::size_of::<$rust>() == core::mem::size_of::<C>());
                assert!(core::mem::align_of::<$rust>() == core::mem::align_of::<C>());
                $(assert!(
                    core::mem::offset_of!($rust, $field) == core::mem::offset_of!(C, $field)
                );)*
            };

            impl From<bindings::$c> for $rust {
                #[inline(always)]
                fn from(c: bindings::$c) -> Self {
                    Self { $($field: c.$field),* }
                }
            }
        )*
    };
}

// The inputs that shims pass (`rust_lb_decisions.h`).
c_input! {
    RdOverload = rust_lb_rd_overload { feature, overloaded };
    TtwuQueue = rust_lb_in_ttwu_queue_cond { nr_running, wakee_on_cpu, queue_idle };
}

/// The scheduler's side: the registered policy's answer to a decision, or
/// `None` to take the built-in one (no policy, a policy that keeps this
/// decision, or an answer out of range, which is reported).
///
/// Per decision, the scheduler's C side (`kernel/sched/rust_lb/policy.c`)
/// has a static key, on while the registered policy answers the decision,
/// and a static call, whose target is the policy's answer function while
/// the key is on and the built-in answer (`rust_lb_builtin_<name>`) else.
/// A helper's module path tests the key, and while it is on calls the
/// module directly: the static call's trampoline, one jump, which
/// registration patched, with a pointer to the input on the module path's
/// stack.  The answer is checked there.
///
/// The answer functions, the module's and the built-in ones, have Rust's
/// cold calling convention (`extern "rust-cold"`, LLVM's `preserve_most`
/// on x86-64), as the module paths do: the callee keeps every register of
/// its caller but the return value's.
pub mod decide {
    use super::*;

    /// Generates, per decision: the function the helpers call, which tests
    /// the decision's key and, while it is on, builds the input with the
    /// closure it takes, calls the module and checks its answer; the
    /// built-in answer `rust_lb_builtin_<name>`, the static call's default
    /// target; the answer function of a policy type; and `answers`, the
    /// table a registration hands to the scheduler.
    macro_rules! decisions {
        (
            seam { $($(#[$doc:meta])* $name:ident($in:ty) -> $out:ty, $valid:expr;)* }
            hooks {
                $($(#[$hdoc:meta])* $hook:ident($hin:ident { $($field:ident),* $(,)? })
                  -> $hout:ty;)*
            }
        ) => {
            $(crate::macros::paste! {
                // The input is the C's struct rust_lb_in_<name>, which the
                // scheduler fills and this reads.
                c_input! { $hin = [<rust_lb_in_ $hook>] { $($field),* }; }

                $(#[$hdoc])*
                #[doc = "The built-in answer: the static call's target while no policy answers."]
                #[cfg(CONFIG_SCHED_RUST_LB_POLICY)]
                #[no_mangle]
                pub extern "rust-cold" fn [<rust_lb_builtin_ $hook>](input: &$hin) -> $hout {
                    input.builtin()
                }

                #[cfg(CONFIG_SCHED_RUST_LB_POLICY)]
                extern "rust-cold" fn [<answer_ $hook>]<P: Policy>(input: &$hin) -> $hout {
                    P::$hook(input)
                }
            })*

            $(crate::macros::paste! {
                #[cfg(CONFIG_SCHED_RUST_LB_POLICY)]
                extern "rust-cold" {
                    // The static call's trampoline, under the name that
                    // `policy.c` gives it for Rust (a call to it is not one
                    // of objtool's static call sites, which would need the
                    // key's symbol in the calling object).  The input is a
                    // `&$in`, which C never reads.
                    #[link_name = concat!("rust_lb_policy_call_", stringify!($name))]
                    fn [<call_ $name>](input: *const c_void) -> $out;
                }

                $(#[$doc])*
                #[inline(always)]
                pub fn $name(input: impl FnOnce() -> $in) -> Option<$out> {
                    #[cfg(CONFIG_SCHED_RUST_LB_POLICY)]
                    if crate::static_branch_unlikely!(
                        bindings::[<rust_lb_policy_ $name _key>],
                        bindings::static_key_false,
                        key
                    ) {
                        let input = input();
                        // SAFETY: the trampoline jumps to an answer
                        // function of this decision, `[<answer_ $name>]` of
                        // the registered policy or the built-in one, both
                        // of this type; a policy's stays callable until a
                        // grace period after its unregistration, and this
                        // runs in scheduler context, which that grace
                        // period waits for.
                        let answer = unsafe { [<call_ $name>](core::ptr::from_ref(&input).cast()) };
                        let valid: fn(&$in, $out) -> bool = $valid;
                        if valid(&input, answer) {
                            return Some(answer);
                        }
                        // SAFETY: called in scheduler context by the
                        // helper the registered policy answered (a cold C
                        // function, out of the helper's hot path).
                        unsafe {
                            bindings::rust_lb_policy_reject(
                                bindings::[<rust_lb_decision_rust_lb_decision_ $name>],
                            )
                        };
                        return None;
                    }
                    let _ = input;
                    None
                }

                #[doc = concat!("The built-in answer to [`", stringify!($name),
                                "`]: the static call's target while no policy answers.")]
                #[cfg(CONFIG_SCHED_RUST_LB_POLICY)]
                #[no_mangle]
                pub extern "rust-cold" fn [<rust_lb_builtin_ $name>](input: &$in) -> $out {
                    input.builtin()
                }

                #[cfg(CONFIG_SCHED_RUST_LB_POLICY)]
                extern "rust-cold" fn [<answer_ $name>]<P: Policy>(input: &$in) -> $out {
                    P::$name(input)
                }
            })*

            /// The answer functions of `P`, by decision: null where `P`
            /// keeps the built-in answer.
            pub(super) fn answers<P: Policy>()
                -> [*mut c_void; bindings::rust_lb_decision_RUST_LB_NR_DECISIONS as usize]
            {
                const N: usize = bindings::rust_lb_decision_RUST_LB_NR_DECISIONS as usize;
                #[allow(unused_mut)]
                let mut answers = [core::ptr::null_mut(); N];
                $(crate::macros::paste! {
                    #[cfg(CONFIG_SCHED_RUST_LB_POLICY)]
                    if P::[<HAS_ $name:upper>] {
                        let f: extern "rust-cold" fn(&$in) -> $out = [<answer_ $name>]::<P>;
                        answers[bindings::[<rust_lb_decision_rust_lb_decision_ $name>] as usize] =
                            f as *mut c_void;
                    }
                })*
                $(crate::macros::paste! {
                    #[cfg(CONFIG_SCHED_RUST_LB_POLICY)]
                    if P::[<HAS_ $hook:upper>] {
                        let f: extern "rust-cold" fn(&$hin) -> $hout = [<answer_ $hook>]::<P>;
                        answers[bindings::[<rust_lb_decision_rust_lb_decision_ $hook>] as usize] =
                            f as *mut c_void;
                    }
                })*
                answers
            }
        };
    }

    decisions! {
      seam {
        /// ILB_UTIL's scan depth.
        ilb_scan_depth(IlbScan) -> u32, |i, d| i.valid(d);
        /// SIS_UTIL's scan depth.
        sis_util_scan(SisUtil) -> u32, |i, d| i.valid(d);
        /// The newidle skip.
        newidle_skip(Newidle) -> bool, |_, _| true;
        /// The same-LLC wakelist condition.
        ttwu_queue_cond(TtwuQueue) -> bool, |_, _| true;
        /// The spare-capacity imbalance.
        spare_imbalance(Spare) -> Imbalance, |i, imb| i.valid(imb);
        /// Whether to try `sched_balance_running`.
        serialize_try(Serialize) -> bool, |_, _| true;
      }
      hooks {
        /// `wake_wide()`.
        wake_wide(WakeWide { waker_flips, wakee_flips, llc_size }) -> bool;
        /// `wake_affine()`.
        wake_affine(WakeAffine {
            this_cpu, prev_cpu, sync, wa_idle, wa_weight, wa_bias, this_idle, prev_idle,
            share_cache, this_nr_running, imbalance_pct, this_load, prev_load, task_load,
            current_load, this_capacity, prev_capacity,
        }) -> bool;
        /// `select_idle_sibling()`.
        select_idle_sibling(SelectIdleSibling { prev, target, this_cpu, stock }) -> i32;
        /// `can_migrate_task()`.
        can_migrate_task(CanMigrateTask {
            locality, hot, nr_balance_failed, cache_nice_tries, idle, exec_age_ns,
            migration_cost_ns,
        }) -> bool;
        /// `sched_balance_find_src_rq()`.
        find_busiest_queue(FindBusiestQueue {
            stock, dst_cpu, migration_type, group_weight, imbalance,
        }) -> i32;
        /// `detach_tasks()`'s budget.
        detach_tasks(DetachTasks { nr_migrate, nr_running }) -> u32;
        /// `get_sd_balance_interval()`.
        balance_interval(BalanceInterval {
            interval_ms, busy_factor, busy, interval, max_interval,
        }) -> u64;
        /// `sched_balance_newidle()`'s per-domain gate.
        newidle_domain(NewidleDomain {
            avg_idle_ns, curr_cost_ns, max_newidle_lb_cost_ns, level,
        }) -> bool;
        /// `nohz_balancer_kick()`.
        nohz_balancer_kick(NohzBalancerKick {
            stock, nr_running, cfs_nr_running, nohz_idle_cpus, due,
        }) -> u32;
      }
    }
}
