// SPDX-License-Identifier: GPL-2.0

//! Static keys, tested from Rust as C tests them.
//!
//! C header: [`include/linux/jump_label.h`](srctree/include/linux/jump_label.h).
//!
//! With `CONFIG_JUMP_LABEL`, [`static_branch_unlikely!`] emits the arch's
//! own static branch, `ARCH_STATIC_BRANCH_ASM()` of `<asm/jump_label.h>`
//! expanded by the C preprocessor (`generated_arch_static_branch_asm.rs`):
//! the instruction the kernel patches while the key is enabled and its
//! `__jump_table` entry, exactly as C's `static_branch_unlikely()` emits
//! them.  The test costs nothing while the key is off.  Without
//! `CONFIG_JUMP_LABEL` it reads the key's count, as C does then.

/// Whether a static key defined in C is enabled, for a branch that is
/// rarely taken.
///
/// Takes the path of the key's `extern` static in the bindings, its type,
/// and the name of the field of that type that holds the `struct
/// static_key` (`key` for a `DEFINE_STATIC_KEY_FALSE()` key, whose type is
/// `struct static_key_false`); evaluates to a `bool`.  The key must be a
/// static key defined in C: the kernel patches the branch through it.
///
/// # Examples
///
/// ```ignore
/// use kernel::{bindings::sched_schedstats, bindings::static_key_false};
///
/// if kernel::static_branch_unlikely!(sched_schedstats, static_key_false, key) {
///     // Only while schedstats are enabled.
/// }
/// ```
#[macro_export]
macro_rules! static_branch_unlikely {
    ($key:path, $keytyp:ty, $field:ident) => {{
        #[cfg(CONFIG_JUMP_LABEL)]
        let enabled = $crate::arch_static_branch!($key, $keytyp, $field, false);
        #[cfg(not(CONFIG_JUMP_LABEL))]
        // SAFETY: the key is a static defined in C that lives as long as
        // the kernel; its count is an `atomic_t`, read once as C's
        // `static_key_count()` reads it.
        let enabled = unsafe {
            let key: *const $keytyp = ::core::ptr::addr_of!($key);
            ::core::ptr::read_volatile(::core::ptr::addr_of!((*key).$field.enabled.counter)) > 0
        };
        enabled
    }};
}

/// The arch's static branch on the `struct static_key` at field `$field` of
/// the static `$key` of type `$keytyp`, taken while the key's state differs
/// from `$branch`.  For [`static_branch_unlikely!`].
#[doc(hidden)]
#[macro_export]
#[cfg(CONFIG_JUMP_LABEL)]
macro_rules! arch_static_branch {
    ($key:path, $keytyp:ty, $field:ident, $branch:expr) => {'taken: {
        // SAFETY: the asm is the arch's static branch
        // (`ARCH_STATIC_BRANCH_ASM()`), the same bytes and `__jump_table`
        // entry as C's `arch_static_branch()` on the same key: the kernel
        // patches it into a jump to `l_yes` while the key is enabled.  It
        // touches neither memory nor flags, and C's asm goto names no
        // clobber either.
        unsafe {
            ::core::arch::asm!(
                include!(concat!(
                    env!("OBJTREE"),
                    "/rust/kernel/generated_arch_static_branch_asm.rs"
                )),
                l_yes = label {
                    break 'taken true;
                },
                symb = sym $key,
                off = const ::core::mem::offset_of!($keytyp, $field),
                branch = const $crate::jump_label::bool_to_int($branch),
                options(att_syntax, nostack, nomem, preserves_flags),
            );
        }
        false
    }};
}

/// `$branch` of [`arch_static_branch!`] as the `i32` the asm adds to the
/// key's address.
#[doc(hidden)]
pub const fn bool_to_int(b: bool) -> i32 {
    b as i32
}

/// Concatenates the string literals the C preprocessor leaves side by side
/// (`generated_arch_static_branch_asm.rs`).
#[doc(hidden)]
#[macro_export]
macro_rules! concat_literals {
    ($($asm:literal)*) => {
        ::core::concat!($($asm),*)
    };
}
