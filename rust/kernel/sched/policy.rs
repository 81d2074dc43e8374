// SPDX-License-Identifier: GPL-2.0

//! Policy modules: a loadable module's own answers to the balancing
//! decisions of the fair class.
//!
//! A policy is a type implementing [`Policy`], one method per decision;
//! the methods it does not implement stay the built-in helper's, which the
//! trait's default bodies are.  A [`Registration`], pinned in the module's
//! state, hands the policy to the scheduler and takes it back when
//! dropped.  One policy is registered at a time: a second registration
//! fails with `EBUSY`.
//!
//! The scheduler asks the registered policy through the functions of
//! [`decide`], which the built-in helpers call before their own
//! arithmetic.  With no policy registered each of them is one NOP (a
//! static key); with one, the answer is checked before it is used: an
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
//! use kernel::c_str;
//! use kernel::prelude::*;
//! use kernel::sched::{math, policy};
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
//!
//! // In the module's init, kept in the module's state:
//! let reg = KBox::pin_init(policy::Registration::<QueueIdle>::new(), GFP_KERNEL)?;
//! ```

use crate::{
    bindings,
    error::{to_result, Error},
    init::{self, PinInit},
    prelude::*,
    sched::math::{IlbScan, Imbalance, Newidle, Serialize, SisUtil, Spare, TtwuQueue},
    str::CStr,
    types::Opaque,
};
use core::{ffi::c_void, marker::PhantomData};

/// A balancing policy: the decisions a module may answer in place of the
/// built-in helpers.  Each default is the built-in decision, which honours
/// the sched features through its input, so a policy that overrides
/// nothing decides as the built-in helpers do.
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
    fn ilb_scan_depth(input: &IlbScan) -> u32 {
        input.builtin()
    }

    /// SIS_UTIL: how many CPUs of the LLC a wakeup scans for an idle one
    /// (0 to `llc_weight`).
    fn sis_util_scan(input: &SisUtil) -> u32 {
        input.builtin()
    }

    /// Whether a newly idle CPU skips balancing.
    fn newidle_skip(input: &Newidle) -> bool {
        input.builtin()
    }

    /// Whether a same-LLC wakeup goes to the wakee CPU's wakelist.
    fn ttwu_queue_cond(input: &TtwuQueue) -> bool {
        input.builtin()
    }

    /// What to migrate when the local group has spare capacity.
    fn spare_imbalance(input: &Spare) -> Imbalance {
        input.builtin()
    }

    /// Whether to try `sched_balance_running` for a serialized domain.
    fn serialize_try(input: &Serialize) -> bool {
        input.builtin()
    }
}

/// The decisions of a registered policy: `None` where it keeps the
/// built-in one.  Built once per policy type, as a constant.
// Without CONFIG_SCHED_RUST_LB_POLICY nothing asks a policy.
#[cfg_attr(not(CONFIG_SCHED_RUST_LB_POLICY), allow(dead_code))]
pub struct VTable {
    ilb_scan_depth: Option<fn(&IlbScan) -> u32>,
    sis_util_scan: Option<fn(&SisUtil) -> u32>,
    newidle_skip: Option<fn(&Newidle) -> bool>,
    ttwu_queue_cond: Option<fn(&TtwuQueue) -> bool>,
    spare_imbalance: Option<fn(&Spare) -> Imbalance>,
    serialize_try: Option<fn(&Serialize) -> bool>,
}

impl VTable {
    /// The table of `P`: an entry for each method `P` implements.
    const fn of<P: Policy>() -> Self {
        Self {
            ilb_scan_depth: entry(P::HAS_ILB_SCAN_DEPTH, P::ilb_scan_depth),
            sis_util_scan: entry(P::HAS_SIS_UTIL_SCAN, P::sis_util_scan),
            newidle_skip: entry(P::HAS_NEWIDLE_SKIP, P::newidle_skip),
            ttwu_queue_cond: entry(P::HAS_TTWU_QUEUE_COND, P::ttwu_queue_cond),
            spare_imbalance: entry(P::HAS_SPARE_IMBALANCE, P::spare_imbalance),
            serialize_try: entry(P::HAS_SERIALIZE_TRY, P::serialize_try),
        }
    }
}

/// `Some(f)` for a method the policy implements (`has`, from `#[vtable]`).
const fn entry<F: Copy>(has: bool, f: F) -> Option<F> {
    if has {
        Some(f)
    } else {
        None
    }
}

/// The table of a policy type, as a `'static` constant.
struct Table<P>(PhantomData<P>);

impl<P: Policy> Table<P> {
    const VTABLE: VTable = VTable::of::<P>();
}

/// A registered policy: registered by [`Registration::new`], unregistered
/// when dropped.
///
/// # Invariants
///
/// `node` is registered with the scheduler (`rust_lb_policy_register()`)
/// from initialization until drop, or was detached by the scheduler, and
/// its `vtable` points to `Table::<P>::VTABLE`.
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
                    name: P::NAME.as_char_ptr(),
                    vtable: core::ptr::from_ref(&Table::<P>::VTABLE).cast::<c_void>(),
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

/// The scheduler's side: the registered policy's answer to a decision, or
/// `None` to take the built-in one (no policy, a policy that keeps this
/// decision, or an answer out of range, which is counted).
pub mod decide {
    use super::*;

    /// Whether a policy is registered: one NOP while none is (always
    /// false without `CONFIG_SCHED_RUST_LB_POLICY`).  A caller that inlines
    /// into the scheduler's hot paths tests this, and calls a cold function
    /// of its own that asks only while it is true.
    #[inline(always)]
    pub fn registered() -> bool {
        #[cfg(CONFIG_SCHED_RUST_LB_POLICY)]
        return crate::static_branch_unlikely!(
            bindings::rust_lb_policy_key,
            bindings::static_key_false,
            key
        );
        #[cfg(not(CONFIG_SCHED_RUST_LB_POLICY))]
        return false;
    }

    /// Asks the registered policy through `op`, checking its answer to
    /// `input` with `valid`; `which` names the decision for the log.
    #[cfg(CONFIG_SCHED_RUST_LB_POLICY)]
    #[inline(always)]
    fn ask<I, T: Copy>(
        which: bindings::rust_lb_decision,
        input: &I,
        op: impl FnOnce(&VTable) -> Option<fn(&I) -> T>,
        valid: fn(&I, T) -> bool,
    ) -> Option<T> {
        let _rcu = crate::sync::rcu::read_lock();
        // SAFETY: called inside an RCU read-side critical section (`_rcu`).
        let node = unsafe { bindings::rust_lb_policy_get() };
        if node.is_null() {
            return None;
        }
        // SAFETY: a registered node and the table it points to stay valid
        // until a grace period after the policy is unregistered or
        // detached (`Registration`'s invariant, and `policy.c` waits for
        // one), and this read-side critical section began while it was
        // registered.
        let vtable = unsafe { &*(*node).vtable.cast::<VTable>() };
        let answer = op(vtable)?(input);
        if valid(input, answer) {
            return Some(answer);
        }
        // SAFETY: called inside the read-side critical section (`_rcu`) in
        // which the policy that answered was read.
        unsafe { bindings::rust_lb_policy_reject(which) };
        None
    }

    /// Generates, per decision, the function the helpers call, which takes
    /// a closure that reads the decision's input (called only while a
    /// policy is registered), and the out-of-line `rust_lb_policy_ask_*`
    /// that asks the policy: a call of the kernel crate's, so that the
    /// helpers inlined into fair.c and core.c keep only the NOP and, on its
    /// other side, that call (tools/check-codegen).
    macro_rules! decisions {
        ($($(#[$doc:meta])* $name:ident($in:ty) -> $out:ty, $valid:expr;)*) => {
            $(crate::macros::paste! {
                $(#[$doc])*
                #[inline(always)]
                pub fn $name(input: impl FnOnce() -> $in) -> Option<$out> {
                    #[cfg(CONFIG_SCHED_RUST_LB_POLICY)]
                    if registered() {
                        return [<rust_lb_policy_ask_ $name>](&input());
                    }
                    let _ = input;
                    None
                }

                #[doc = concat!("Asks the registered policy for [`", stringify!($name), "`].")]
                #[cfg(CONFIG_SCHED_RUST_LB_POLICY)]
                #[no_mangle]
                #[cold]
                #[inline(never)]
                pub fn [<rust_lb_policy_ask_ $name>](input: &$in) -> Option<$out> {
                    ask(
                        bindings::[<rust_lb_decision_rust_lb_decision_ $name>],
                        input,
                        |vt| vt.$name,
                        $valid,
                    )
                }
            })*
        };
    }

    decisions! {
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
}
