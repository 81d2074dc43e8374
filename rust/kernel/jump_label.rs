// SPDX-License-Identifier: GPL-2.0

//! Static keys, read from Rust as C reads them.
//!
//! C header: [`include/linux/jump_label.h`](srctree/include/linux/jump_label.h).
//!
//! With `CONFIG_JUMP_LABEL`, [`static_branch_unlikely!`] emits what the C
//! `static_branch_unlikely()` emits on x86-64: a five-byte NOP and an entry
//! in the `__jump_table` section, which the kernel patches into a jump when
//! the key is enabled.  The test costs nothing while the key is off.
//! Without `CONFIG_JUMP_LABEL` it reads the key's count, as C does then.

/// Whether a `DEFINE_STATIC_KEY_FALSE()` key defined in C is enabled, for
/// a branch that is rarely taken.
///
/// `$key` is the path of the key's `extern` static in the bindings (a
/// `struct static_key_false`); the macro evaluates to a `bool`.
///
/// # Examples
///
/// ```ignore
/// if kernel::static_branch_unlikely!(kernel::bindings::sched_schedstats) {
///     // Only while schedstats are enabled.
/// }
/// ```
#[macro_export]
macro_rules! static_branch_unlikely {
    ($key:path) => {{
        #[cfg(all(CONFIG_JUMP_LABEL, target_arch = "x86_64"))]
        let enabled = 'done: {
            // SAFETY: the instruction is a five-byte NOP, and the
            // `__jump_table` entry has the layout of C's `struct
            // jump_entry` on x86-64 (arch/x86/include/asm/jump_label.h):
            // the NOP's and the label's addresses and the key's, relative
            // to the entry, with the branch bit clear ("unlikely").  The
            // kernel patches the NOP into a jump to `l_yes` while the key
            // is enabled, as it does for the C branches on the same key.
            unsafe {
                ::core::arch::asm!(
                    "1: .byte 0x0f,0x1f,0x44,0x00,0x00",
                    ".pushsection __jump_table, \"aw\"",
                    ".balign 8",
                    ".long 1b - .",
                    ".long {l_yes} - .",
                    ".quad {key} - .",
                    ".popsection",
                    key = sym $key,
                    l_yes = label {
                        break 'done true;
                    },
                    // The NOP and the jump it is patched into touch
                    // neither memory nor flags; C's asm goto names no
                    // clobber either, so neither side makes the compiler
                    // reload memory or flags around a key test.
                    options(att_syntax, nostack, nomem, preserves_flags),
                );
            }
            false
        };
        #[cfg(not(all(CONFIG_JUMP_LABEL, target_arch = "x86_64")))]
        // SAFETY: the key is a static defined in C that lives forever; its
        // count is an `atomic_t`, read once as C's `static_key_count()`.
        let enabled = unsafe {
            ::core::ptr::read_volatile(::core::ptr::addr_of!($key.key.enabled.counter)) > 0
        };
        enabled
    }};
}
