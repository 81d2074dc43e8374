# SPDX-License-Identifier: GPL-2.0
#
# sched-rust-lb: Rust load-balancing helpers for the fair class, as an
# overlay on Linux 6.12.117.  See README.md and Documentation/pipeline.rst.
#
#   make run     build if needed, boot the guest, run the experiment
#   make test    host tests, lint, kernel builds, boots: KUnit + kselftests
#
# Other targets:
#   make show    boot, show the features and domains, flip RUST_LB
#   make shell   an interactive shell in the guest (stdin is typed there)
#   make exec CMD='...'   one command in the guest, quoting intact
#   make scale   the CPU-count sweep of serialize_due and ilb_util (tools/measure/scale)
#   make stress  the stress selftests on the debug kernel (STRESS_SECONDS=300)
#   make check   the developer's loop: rebuild, KUnit + the quick kselftests in two guests
#   make soak    policy modules loaded and removed in a loop under feature flips,
#                hotplug, cpusets and load on the debug kernel (SOAK_SECONDS=1800)
#   make series  the series for `git am` into your own tree (SERIES_OUT=dir)
#   make series-check   the series applied, configured, built and booted on a
#                whole pristine tree (Documentation/series.rst; ~6 min)
#   make vng CMD='...'   boot with virtme-ng, run CMD (VNG=1 kernel)
#   make vng-test   make vng checked: the command's output alone, its status
#   make jump-label-race   the stock-kernel reproduction of robustness.rst
#   make policy [POLICY=dir] [LOAD=1]   build policy modules out of tree against
#                the kernel (default: rust/policies/*; Documentation/policy-modules.rst);
#                LOAD=1: and load them into the guest of make live (LIVE_WAIT=s:
#                and wait for a decision of theirs to be counted)
#   make live    an interactive guest that stays up, into which make policy
#                LOAD=1 (tools/guest/live) loads modules without a reboot
#   make deps | tree | config | kernel | guest   install, unpack+patch, configure, build
#   make clippy | checkpatch | rustfmt | host-test | docs
#   make data-status   which committed datasets were measured on this tree's
#                kernel (make test prints it); make data-check fails on the others
#   make config-off [OFF=RUST|JUMP_LABEL|+NAME] [OFF_TARGETS=vmlinux]   build with an option off (+: on)
#
# Inputs (all optional):
#   BUILD=dir    cache for the kernel tree, objects, guest files, results
#                (default ~/.cache/sched-rust-lb)
#   O=dir        kernel object directory (default $(BUILD)/linux-source-6.12/obj)
#   KSRC=dir     a 6.12.y tree of your own instead of Debian's 6.12.117
#   TOPOLOGY=... guest topology, e.g. sockets=2,cores=2,threads=2,nodes=2
#   ACCEL=tcg|kvm  KVM is probed and falls back to TCG
#   TCG_THREADS=single|multi  one host thread for all vCPUs (default: on 2
#                host cores the faster, and the one that sees patched text
#                at once) or one per vCPU (robustness.rst)
#   DEBUG=1      the debug kernel (lockdep, PROVE_RCU, KASAN, UBSAN, Rust
#                debug assertions) in .../obj-debug
#   make run:    CASES=a,b  ITERATIONS=n  DURATION=s  ICOUNT=1 (virtual
#                clock)  QUICK=1 (smoke test)  SEED=1 (the seeds' long
#                settings, ~15 min)  POLICY=dir (a policy module's A/B:
#                against the built-in, against stock C, its divergence;
#                Documentation/policy-modules.rst)  OUT=dir (default
#                $(BUILD)/results/<timestamp>); its own topology (two
#                LLCs of 4, two nodes) unless TOPOLOGY is given;
#                MAX_HOST_LOAD=L (wait for the host's load average to
#                fall to L first; QUICK=1: no wait)  MAX_HOST_SHARE=F (a run
#                during which other work took more than F of the host is run
#                again)  HOST_REDO=N (how often)  ALL_COUNTERS=1  MEM=MiB
#                RUN_TIMEOUT=s (the guest's)  MDE=1% (add iterations
#                until every benefit measure resolves 1%, or MDE_TIME=s,
#                default 900, runs out); tools/measure/experiment --help
#   STRESS_SECONDS=N  length of each stress selftest (make stress: 300)
#   STRESS_TESTS=a.sh,b.sh  the kselftests make stress runs
#   POLICY_CYCLES=N  policy-module loads and removals in make stress (100)
#   SKIP_DEBUG=1 make test without the debug-kernel stage (faster loop)
#   SHELL_TIMEOUT=s  how long make shell may last (default a day)
#   V=1          verbose kernel build

OVERLAY   := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD     ?= $(HOME)/.cache/sched-rust-lb
override BUILD := $(abspath $(BUILD))
export BUILD
FRAGMENTS := $(OVERLAY)/.config.fragment
ifeq ($(DEBUG),1)
  FRAGMENTS += $(OVERLAY)/tools/build/config/debug.fragment
  OBJ_SUFFIX := -debug
endif
ifeq ($(VNG),1)
  FRAGMENTS += $(OVERLAY)/tools/build/config/vng.fragment
  OBJ_SUFFIX := $(OBJ_SUFFIX)-vng
endif
# The project's own tree keeps its objects in a subdirectory of the tree:
# kbuild then uses the relative srctree "..", and the paths that rustdoc
# bakes into the doctests' symbol names stay short (no "too long for
# kallsyms" from the build path).  A tree of your own keeps its objects
# under $(BUILD).
ifeq ($(strip $(KSRC)),)
  override KSRC := $(BUILD)/linux-source-6.12
  TARBALL   := /usr/src/linux-source-6.12.tar.xz
  OBJBASE   := $(KSRC)/obj
else
  override KSRC := $(abspath $(KSRC))
  $(if $(wildcard $(KSRC)/Makefile),,$(error KSRC=$(KSRC) is not a kernel tree (no Makefile there): give the top of a 6.12.y tree))
  TARBALL   :=
  OBJBASE   := $(BUILD)/obj-ksrc
endif
O         ?= $(OBJBASE)$(OBJ_SUFFIX)
override O := $(abspath $(O))
GUEST     := $(BUILD)/guest
CARGO_TARGET_DIR ?= $(BUILD)/cargo-target
export CARGO_TARGET_DIR

# The design card's `make LLVM=1`: LLVM 22 (the LLVM of rustc 1.95) first.
export PATH := /usr/lib/llvm-22/bin:$(HOME)/.cargo/bin:$(PATH)
JOBS      ?= $(shell nproc)
KMAKE      = $(MAKE) -C $(KSRC) O=$(O) LLVM=1 -j$(JOBS) $(if $(V),V=$(V))

TOPOLOGY  ?= sockets=2,cores=2,threads=2,nodes=2
SHELL_TIMEOUT ?= 86400
TEST_TOPOLOGY ?= sockets=4,cores=2,threads=2,nodes=2
ACCEL     ?= tcg
ifneq ($(TCG_THREADS),)
  export TCG_THREADS
endif
# The policy modules make policy built for this kernel go along, to
# /opt/sched-rust-lb/policies/ in the guest.
POLICY_KOS = $(wildcard $(O)/sched-rust-lb-policies/*/*.ko)
RUN_GUEST  = $(OVERLAY)/tools/guest/run-guest --kernel $(O)/vmlinux \
	     --initrd $(GUEST)/initramfs.cpio.gz --accel $(ACCEL) \
	     $(foreach k,$(POLICY_KOS),--file $(k):/opt/sched-rust-lb/policies/$(notdir $(k)))

.PHONY: all deps tree config kernel guest run scale show shell exec vng test stress \
	host-test clippy rustfmt checkpatch config-off series series-check docs vng-kernel soak check \
	clean help jump-label-race vng-test policy live data-status data-check
all: kernel guest

help:
	@awk 'NR < 3 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' $(OVERLAY)/Makefile

deps:
	@$(OVERLAY)/tools/build/deps

tree: deps
	@$(OVERLAY)/tools/build/prepare-tree $(OVERLAY) $(KSRC) $(TARBALL)

config: tree
	@$(OVERLAY)/tools/build/mkconfig $(KSRC) $(O) $(FRAGMENTS)

# The object directory records the kernel inputs id the build started
# from (tools/build/provenance.py), which a measurement of its vmlinux records.
PROVENANCE = python3 $(OVERLAY)/tools/build/provenance.py
kernel: config
	@echo "  KBUILD  $(O)/vmlinux"
	@rm -f $(O)/sched-rust-lb-inputs; inputs=$$($(PROVENANCE) inputs) && \
		$(KMAKE) vmlinux modules modules_prepare && \
		$(PROVENANCE) stamp $(O) $$inputs

guest: tree
	@$(OVERLAY)/tools/guest/mkinitramfs $(OVERLAY) $(KSRC) $(GUEST)

# Policy modules (Documentation/policy-modules.rst): each directory of
# POLICY (default: the examples, rust/policies/*) built out of tree against
# the kernel in $(O), into $(O)/sched-rust-lb-policies/NAME/.
POLICY ?= $(wildcard $(OVERLAY)/rust/policies/*)
# LOAD=1: then load each into the guest of make live (tools/guest/live), which
# replaces a loaded module of the same name.  The module is then built
# against the kernel as that guest booted it: no kernel rebuild first.
LIVE_SOCKET ?= $(BUILD)/live.sock
policy: $(if $(filter 1,$(LOAD)),,kernel)
	@test -f $(O)/Module.symvers || { echo "make policy: no kernel built in $(O) (run 'make kernel')" >&2; exit 2; }
	@test "$(LOAD)" != 1 || test $(words $(POLICY)) = 1 || { echo "make policy LOAD=1: one POLICY=dir at a time (one policy is registered at a time)" >&2; exit 2; }
	@kos=$$($(OVERLAY)/tools/build/build-policy "$(KMAKE)" $(O)/sched-rust-lb-policies $(POLICY)) && \
	printf '%s\n' $$kos && \
	if [ "$(LOAD)" = 1 ]; then \
		for ko in $$kos; do $(OVERLAY)/tools/guest/live --socket $(LIVE_SOCKET) load $$ko \
			$(if $(LIVE_WAIT),--wait-decision $(LIVE_WAIT)) || exit 1; done; \
	fi

# A guest that stays up, its shell on this terminal (as make shell), and
# its second serial port on $(LIVE_SOCKET) for tools/guest/live: make policy
# LOAD=1 in another terminal loads a rebuilt policy into it.
live: kernel guest
	@$(RUN_GUEST) --topology $(TOPOLOGY) --timeout $(SHELL_TIMEOUT) --stdin \
		--live $(LIVE_SOCKET) -- /opt/sched-rust-lb/bin/shell

# The main job: the A/B experiment (Documentation/experiment.rst).
# CASES=a,b ITERATIONS=n DURATION=s ICOUNT=1 QUICK=1 SEED=1 select what it runs.
# virtme-ng: the kernel with what vng needs (VNG=1: virtio, 9p), then vng
# from a venv under $(BUILD), booting it with the host's root file system.
VNG_VENV := $(BUILD)/vng-venv
vng-kernel: config
	@echo "  KBUILD  $(O)/arch/x86/boot/bzImage"
	@$(KMAKE) bzImage
# vng boots the host's root file system; without udev there, its guest
# has no /dev/virtio-ports links, finds no script ports, runs the command
# on the console and reports 255.
vng:
	@$(OVERLAY)/tools/build/deps udev
	@$(MAKE) --no-print-directory -f $(OVERLAY)/Makefile VNG=1 vng-kernel
	@test -x $(VNG_VENV)/bin/vng || { python3 -m venv $(VNG_VENV) && \
		$(VNG_VENV)/bin/pip install -q virtme-ng==1.42; }
	@cd $(KSRC) && PATH=$(VNG_VENV)/bin:$$PATH vng --run $(OBJBASE)$(OBJ_SUFFIX)-vng/arch/x86/boot/bzImage \
		--disable-kvm --disable-microvm --force-9p --force-initramfs \
		--cpus $(VNG_CPUS) --memory 1G \
		$(if $(CMD),--exec "$$SCHED_RUST_LB_CMD" < /dev/null)
vng: export SCHED_RUST_LB_CMD = $(value CMD)
VNG_CPUS ?= 4
# make vng as documented: a command's output alone, its exit status kept
# (tools/check/tests/vng; builds the VNG=1 kernel, several minutes cold).
vng-test:
	@$(OVERLAY)/tools/check/tests/vng $(MAKE) --no-print-directory -f $(OVERLAY)/Makefile

# The options are checked before anything is built.
EXPERIMENT = $(OVERLAY)/tools/measure/experiment --kernel $(O)/vmlinux \
		--initrd $(GUEST)/initramfs.cpio.gz --accel $(ACCEL) \
		$(if $(filter-out file,$(origin TOPOLOGY)),--topology $(TOPOLOGY)) \
		$(if $(CASES),--cases $(CASES)) $(if $(ITERATIONS),--iterations $(ITERATIONS)) \
		$(if $(DURATION),--duration $(DURATION)) $(if $(filter 1,$(ICOUNT)),--icount) \
		$(if $(filter 1,$(QUICK)),--quick) $(if $(filter 1,$(SEED)),--seed-settings) \
		$(if $(OUT),--out $(OUT)) $(if $(RUN_POLICY),--policy $(RUN_POLICY)) \
		$(if $(MAX_HOST_LOAD),--max-host-load $(MAX_HOST_LOAD)) \
		$(if $(MAX_HOST_SHARE),--max-host-share $(MAX_HOST_SHARE)) \
		$(if $(HOST_REDO),--host-redo $(HOST_REDO)) \
		$(if $(filter 1,$(ALL_COUNTERS)),--all-counters) \
		$(if $(MEM),--mem $(MEM)) $(if $(RUN_TIMEOUT),--timeout $(RUN_TIMEOUT)) \
		$(if $(MDE),--mde $(MDE)) $(if $(MDE_TIME),--mde-time $(MDE_TIME))
# make run POLICY=dir: that policy module's A/B (its three cases alone,
# unless CASES names others too).
RUN_POLICY = $(if $(filter-out file,$(origin POLICY)),$(POLICY))
run:
	@test $(words $(RUN_POLICY)) -le 1 || { echo "make run: one POLICY=dir at a time" >&2; exit 2; }
	@$(EXPERIMENT) --check
	@$(MAKE) --no-print-directory -f $(OVERLAY)/Makefile kernel guest
	@$(if $(RUN_POLICY),$(MAKE) --no-print-directory -f $(OVERLAY)/Makefile policy POLICY=$(RUN_POLICY) >/dev/null)
	@$(EXPERIMENT)

# The scale sweep: serialize_due and ilb_util at 8, 16, 32 and 64 vCPUs
# (tools/measure/scale; about 20 minutes, most of it booting 64 vCPUs).
scale: kernel guest
	@$(OVERLAY)/tools/measure/scale $(if $(OUT),--out $(OUT))

# Boot, show the features and the sched domains, flip RUST_LB both ways.
show: kernel guest
	@$(RUN_GUEST) --topology $(TOPOLOGY) -- /opt/sched-rust-lb/bin/show-sched

# An interactive shell in the guest (stdin is typed on its console; from a
# script too: printf 'cmd\nexit\n' | make shell).
shell: kernel guest
	@$(RUN_GUEST) --topology $(TOPOLOGY) --timeout $(SHELL_TIMEOUT) --stdin -- \
		/opt/sched-rust-lb/bin/shell

# One command in the guest, its quoting intact: make exec CMD='wakelat -r 5'
exec: export SCHED_RUST_LB_CMD = $(value CMD)
exec:
	@test -n "$$SCHED_RUST_LB_CMD" || { echo "make exec: say what to run, e.g. make exec CMD='cat /proc/schedstat'" >&2; exit 2; }
	@$(MAKE) --no-print-directory -f $(OVERLAY)/Makefile kernel guest
	@$(RUN_GUEST) --topology $(TOPOLOGY) -- "$$SCHED_RUST_LB_CMD"

host-test:
	@cargo test --locked --manifest-path $(OVERLAY)/tools/Cargo.toml --workspace

test: deps
	@mkdir -p $(BUILD)
	@$(OVERLAY)/tools/check/run-tests --overlay $(OVERLAY) --build $(BUILD) \
		--make "$(MAKE) --no-print-directory -f $(OVERLAY)/Makefile BUILD=$(BUILD) KSRC=$(if $(TARBALL),,$(KSRC)) O=$(O) DEBUG=$(DEBUG)" \
		--kernel $(O)/vmlinux --initrd $(GUEST)/initramfs.cpio.gz \
		--topology $(TEST_TOPOLOGY) --accel $(ACCEL) \
		$(if $(filter 1 true,$(CLIPPY_TEST) $(CI)),--clippy) $(if $(TARBALL),,--ksrc-user) \
		$(if $(filter 1,$(SKIP_DEBUG) $(DEBUG)),,--debug-obj $(OBJBASE)-debug)

# The stress selftests on the debug kernel (Documentation/robustness.rst):
# feature flips under load, policy modules loaded and removed under load,
# then flips with hotplug and cpuset partitions, then the soak's module
# loop among them, STRESS_SECONDS each; STRESS_TESTS picks the kselftests.
STRESS_SECONDS ?= 300
STRESS_TESTS ?= flip.sh,policy.sh,stress.sh,soak.sh,dmesg_clean.sh
# Loads and removals of policy.sh's policy module (make test's debug stage: 10).
# NO_BUILD=1: boot the debug kernel as built (make test builds it beside).
POLICY_CYCLES ?= 100
stress: deps
	@$(OVERLAY)/tools/check/run-tests --guest-only --overlay $(OVERLAY) --build $(BUILD) \
		--log-suffix=-debug $(if $(filter 1,$(NO_BUILD)),--no-build) \
		--make "$(MAKE) --no-print-directory -f $(OVERLAY)/Makefile BUILD=$(BUILD) KSRC=$(if $(TARBALL),,$(KSRC)) DEBUG=1" \
		--kernel $(OBJBASE)-debug/vmlinux --initrd $(GUEST)/initramfs.cpio.gz \
		--topology $(TOPOLOGY) --accel $(ACCEL) --timeout $$(( 3 * $(STRESS_SECONDS) + 900 )) \
		--append "KSFT_TESTS=$(STRESS_TESTS) STRESS_SECONDS=$(STRESS_SECONDS) FLIP_SECONDS=$(STRESS_SECONDS) SOAK_SECONDS=$(STRESS_SECONDS) POLICY_CYCLES=$(POLICY_CYCLES)"

# The developer's loop: rebuild what changed, then KUnit and the quick
# kselftests in two guests at once, one per host core (tools/measure/measure-build
# times it after a one-file Rust change).
check: deps
	@$(OVERLAY)/tools/check/run-tests --quick-check --overlay $(OVERLAY) --build $(BUILD) \
		--make "$(MAKE) --no-print-directory -f $(OVERLAY)/Makefile BUILD=$(BUILD) KSRC=$(if $(TARBALL),,$(KSRC)) O=$(O) DEBUG=$(DEBUG)" \
		--kernel $(O)/vmlinux --initrd $(GUEST)/initramfs.cpio.gz \
		--topology $(TOPOLOGY) --accel $(ACCEL)

# The soak on the debug kernel (Documentation/robustness.rst, "Soak"):
# soak.sh for SOAK_SECONDS, the policy modules loaded and removed in a
# loop while features flip, CPUs go offline and online, cpusets partition
# and a load runs; then the log check.  The console: $(BUILD)/test-console-debug.log.
SOAK_SECONDS ?= 1800
soak: deps
	@$(OVERLAY)/tools/check/run-tests --guest-only --overlay $(OVERLAY) --build $(BUILD) --log-suffix=-debug \
		--make "$(MAKE) --no-print-directory -f $(OVERLAY)/Makefile BUILD=$(BUILD) KSRC=$(if $(TARBALL),,$(KSRC)) DEBUG=1" \
		--kernel $(OBJBASE)-debug/vmlinux --initrd $(GUEST)/initramfs.cpio.gz \
		--topology $(TOPOLOGY) --accel $(ACCEL) --timeout $$(( $(SOAK_SECONDS) + 1200 )) \
		--append "KSFT_TESTS=soak.sh,dmesg_clean.sh SOAK_SECONDS=$(SOAK_SECONDS)"

# The series with one option of the test config off (default: the helpers,
# CONFIG_SCHED_RUST_LB; OFF=RUST for a kernel without Rust), building
# OFF_TARGETS (default kernel/sched/; OFF_TARGETS=vmlinux for all of it).
OFF         ?= SCHED_RUST_LB
OFF_TARGETS ?= kernel/sched/
config-off: config
	@$(OVERLAY)/tools/check/check-config-off $(KSRC) $(O)/.config \
		$(BUILD)/obj-$(shell echo '$(OFF)' | sed 's/^+/with-/; t; s/^/no-/' | tr A-Z_ a-z-) \
		'$(OFF)' $(OFF_TARGETS)

# The stock 6.12.117 kernel (no patch of this project) with
# CONFIG_JUMP_LABEL and a module that flips a static key while every vCPU
# runs through its site (Documentation/robustness.rst, "Static keys under
# QEMU"): JLR_ARGS='--qemu BIN --tcg-threads single --pair --seconds N'.
jump-label-race: guest
	@$(OVERLAY)/tools/check/jump-label-race/run $(JLR_ARGS)

# The whole project as a git format-patch series (Documentation/series.rst).
SERIES_OUT ?= $(BUILD)/series
series: deps
	@$(OVERLAY)/tools/build/export-series $(OVERLAY) $(SERIES_OUT)

# The series on a whole pristine tree: git am, the documented config, make
# LLVM=1, a boot that lists the features (Documentation/series.rst).
series-check: series guest
	@$(OVERLAY)/tools/check/series-check $(OVERLAY) $(SERIES_OUT) $(BUILD)/series-check $(GUEST)/initramfs.cpio.gz

# The documentation as Sphinx builds it (warnings are errors).
docs:
	@sphinx-build -q -E -a -W --keep-going -b html $(OVERLAY)/Documentation $(BUILD)/docs
	@echo "  DOCS    $(BUILD)/docs/index.html"

# The committed datasets against this tree's kernel (tools/report/data-status).
data-status:
	@$(OVERLAY)/tools/report/data-status
data-check:
	@$(OVERLAY)/tools/report/data-status --strict

clippy: config
	@$(KMAKE) CLIPPY=1 kernel/sched/rust_lb/ rust/

rustfmt:
	@rustfmt --config-path $(KSRC)/.rustfmt.toml --check $$(find $(OVERLAY)/rust $(OVERLAY)/kernel-patches $(OVERLAY)/tools/check/lb-math -name "*.rs" -not -path "*/target/*")

# Debian's python3 first: checkpatch's SPDX check needs python3-ply/-git.
# FILE_PATH_CHANGES ("does MAINTAINERS need updating?") is ignored: every
# file the series adds is under kernel/sched/, rust/ or the selftests,
# which the SCHEDULER, RUST and KERNEL SELFTEST FRAMEWORK entries of
# MAINTAINERS already cover.  UNKNOWN_COMMIT_ID is ignored: the tree is a
# tarball without git history, so the upstream ids the backport cites
# cannot be looked up.  MACRO_ARG_REUSE is ignored: the one macro that
# reuses an argument, x86's ARCH_STATIC_BRANCH_ASM(key, label), takes
# string literals, which have no side effects to repeat.  What is checked is what a user applies: every patch
# of the exported series (make series), the first one, which adds the
# overlay's files (the C glue, the Rust, the selftests and their workloads),
# included.
CHECKPATCH_SERIES := $(BUILD)/checkpatch-series
CHECKPATCH_IGNORE := FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID,MACRO_ARG_REUSE
# The exported series' first patch adds the new files, where the X-macro
# lists of rust_lb_decisions.h expand to prototypes (rust_lb.h) and to
# function definitions (rust_lb/policy.c, rust_lb/verify.c): checkpatch
# reads those macros as statements that want a do-while or parentheses.
CHECKPATCH_IGNORE_NEW_FILES := COMPLEX_MACRO,MULTISTATEMENT_MACRO_USE_DO_WHILE,TRAILING_SEMICOLON
checkpatch: tree
	@$(OVERLAY)/tools/build/export-series $(OVERLAY) $(CHECKPATCH_SERIES) $(TARBALL) >/dev/null
	@cd $(KSRC) && rc=0 && for p in $$(cd $(CHECKPATCH_SERIES) && ls 0*.patch); do \
		echo "  CHECK   $$p"; \
		ignore=$(CHECKPATCH_IGNORE); \
		case $$p in 0001-*) ignore=$$ignore,$(CHECKPATCH_IGNORE_NEW_FILES);; esac; \
		PATH=/usr/bin:$$PATH perl scripts/checkpatch.pl -q --strict --ignore $$ignore \
			$(CHECKPATCH_SERIES)/$$p || { echo "  BAD     $$p"; rc=1; }; \
	done; exit $$rc

clean:
	rm -rf $(O) $(GUEST)
