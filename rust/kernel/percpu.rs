// SPDX-License-Identifier: GPL-2.0

//! This CPU's copy of a per-CPU variable defined in C, updated as C's
//! `this_cpu_add()` updates it.
//!
//! C header: [`include/linux/percpu-defs.h`](srctree/include/linux/percpu-defs.h).
//!
//! On x86-64 the update is one `%gs`-relative read-modify-write
//! instruction: it cannot be torn by an interrupt or a migration, so it
//! needs neither a lock nor disabled preemption, and it is emitted inline,
//! without a call.  Other architectures are not supported by this module.

/// Adds `$n` (a `u64`) to element `$idx` of this CPU's copy of `$var`, a
/// `DEFINE_PER_CPU(u64 [N], var)` array defined in C.
///
/// `$var` is the path of the array's `extern` static in the bindings.  The
/// index is checked against the array's length (`N`) before the update; an
/// index out of bounds adds nothing.
///
/// # Examples
///
/// ```ignore
/// kernel::this_cpu_add_u64!(kernel::bindings::rust_lb_counters, 3, 1);
/// ```
#[macro_export]
macro_rules! this_cpu_add_u64 {
    ($var:path, $idx:expr, $n:expr) => {{
        let idx: usize = $idx;
        let n: u64 = $n;
        // The length of the array, from its type: only the address of the
        // static is taken, nothing is read through it.
        #[allow(unused_unsafe)]
        // SAFETY: `addr_of!` on a static creates no reference and reads
        // nothing.
        let len = $crate::percpu::array_len(unsafe { ::core::ptr::addr_of!($var) });
        if idx < len {
            // SAFETY: `$var` is a per-CPU array (its address is an offset
            // into the per-CPU area, which `%gs` points at on this CPU) of
            // `len` `u64`s, and `idx < len`; the single `add` instruction
            // updates this CPU's copy atomically with respect to
            // interrupts and preemption, as `this_cpu_add()` does.
            // Not `nomem`: the `add` reads and writes memory, so it is a
            // clobber of all memory.  C's `this_cpu_add()` can name the
            // counter as its only memory operand ("+m"); Rust's `asm!` has
            // no memory operands.
            unsafe {
                ::core::arch::asm!(
                    "addq {n}, %gs:{var}(,{idx},8)",
                    var = sym $var,
                    idx = in(reg) idx,
                    n = in(reg) n,
                    options(att_syntax, nostack),
                );
            }
        }
    }};
}

/// The length of the array `p` points at, from its type alone.
#[doc(hidden)]
#[inline(always)]
pub const fn array_len<const N: usize>(_p: *const [u64; N]) -> usize {
    N
}

/// The address of `cpu`'s copy of the per-CPU variable whose (per-CPU
/// section) address is `var`, as C's `per_cpu_ptr()`.
///
/// # Safety
///
/// `var` is the address of a per-CPU variable (a `DEFINE_PER_CPU()`
/// static) and `cpu` a possible CPU (below `nr_cpu_ids`).
#[inline(always)]
pub unsafe fn per_cpu_ptr<T>(var: *const T, cpu: usize) -> *const T {
    // SAFETY: `__per_cpu_offset` has `NR_CPUS` entries and `cpu` is below
    // `nr_cpu_ids`, which is at most `NR_CPUS` (safety requirements); the
    // entry of a possible CPU is set before any scheduler code runs.
    let off = unsafe {
        core::ptr::addr_of!(crate::bindings::__per_cpu_offset)
            .cast::<core::ffi::c_ulong>()
            .add(cpu)
            .read()
    };
    // The copy of a possible CPU is at `var` plus its offset; the
    // arithmetic is on addresses only (`wrapping_add`: the per-CPU area
    // lies outside the object `var` is an address of).
    var.cast::<u8>().wrapping_add(off as usize).cast::<T>()
}
