/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arch's static branch (ARCH_STATIC_BRANCH_ASM() of
 * <asm/jump_label.h>) for kernel::jump_label, expanded by the C
 * preprocessor with the operand names of Rust's asm!: the C and the Rust
 * branches are one definition.  rust/Makefile keeps what follows the cut.
 */
#include <linux/jump_label.h>

// Cut here.

::kernel::concat_literals!(ARCH_STATIC_BRANCH_ASM("{symb} + {off} + {branch}", "{l_yes}"))
