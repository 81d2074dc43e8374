# SPDX-License-Identifier: GPL-2.0
"""provenance: which kernel a measurement was taken on.

A kernel of this project is built from a handful of the overlay's paths
(KERNEL_INPUTS): the patches and the files they add, the Rust, the
config fragment and the scripts that turn them into a tree and a
.config.  Their digest, the *kernel inputs id*, names that kernel: two
checkouts with the same id build the same kernel from the same 6.12.117
tarball, whatever else (tools, documentation, policy examples) differs
between them.  The policy modules under rust/policies/ are not part of
the kernel: a policy's dataset records its own sources' digest
(policy_sources()).

  python3 tools/build/provenance.py inputs [--commit C]   the id of the work tree (or of C)
  python3 tools/build/provenance.py stamp OBJDIR ID       record ID beside OBJDIR/vmlinux

``make kernel`` stamps its object directory after each successful build,
with the id computed before the build started, so a tool that measures a
vmlinux reads which kernel that is (built_inputs()) rather than what the
work tree holds now.
"""

import hashlib
import os
import subprocess
import sys

# What a kernel of this project is built from (paths of the overlay).
KERNEL_INPUTS = ("Kbuild", ".config.fragment", "kernel-patches/", "rust/",
                 "tools/build/config/", "tools/build/mkconfig",
                 "tools/build/overlay-files", "tools/build/prepare-tree")
# ... less what is built out of tree against it.
NOT_KERNEL = ("rust/policies/",)
# Written beside vmlinux by make kernel.
STAMP = "sched-rust-lb-inputs"


def _git(overlay, *argv, stdin=None):
    p = subprocess.run(["git", "-C", overlay, *argv], input=stdin,
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"git {' '.join(argv)}: {p.stderr.strip()}")
    return p.stdout


def _counted(path):
    return not path.startswith(NOT_KERNEL)


def _digest(blobs):
    h = hashlib.sha256()
    for path, blob in sorted(blobs):
        h.update(f"{path}\0{blob}\n".encode())
    return h.hexdigest()[:16]


def kernel_inputs(overlay, commit=None):
    """The kernel inputs id of commit (a revision), or of the work tree:
    its tracked and untracked, not ignored files under KERNEL_INPUTS, as
    they are on disk.  A clean work tree has the id of HEAD."""
    if commit:
        out = _git(overlay, "ls-tree", "-r", "-z", commit, "--", *KERNEL_INPUTS)
        blobs = []
        for entry in filter(None, out.split("\0")):
            meta, path = entry.split("\t", 1)
            kind, blob = meta.split()[1:3]
            if kind == "blob" and _counted(path):
                blobs.append((path, blob))
        return _digest(blobs)
    out = _git(overlay, "ls-files", "-z", "-co", "--exclude-standard", "--",
               *KERNEL_INPUTS)
    paths = sorted({p for p in out.split("\0") if p and _counted(p)
                    and os.path.lexists(os.path.join(overlay, p))})
    ids = _git(overlay, "hash-object", "--no-filters", "--stdin-paths",
               stdin="".join(p + "\n" for p in paths)).split()
    return _digest(zip(paths, ids))


def changed_since(overlay, commit):
    """The kernel inputs that differ between commit and the work tree."""
    out = _git(overlay, "diff", "--name-only", commit, "--", *KERNEL_INPUTS)
    return [p for p in out.split() if _counted(p)]


def built_inputs(vmlinux):
    """The kernel inputs id make kernel recorded for this vmlinux, or None
    (built otherwise, or before builds were stamped)."""
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(vmlinux)), STAMP)) as f:
            return f.read().split()[0]
    except (OSError, IndexError):
        return None


def policy_sources(d):
    """The SHA-256 of a policy module's sources: every file of its
    directory, by name."""
    src = hashlib.sha256()
    for name in sorted(os.listdir(d)):
        p = os.path.join(d, name)
        if os.path.isfile(p):
            with open(p, "rb") as f:
                src.update(name.encode() + b"\0" + f.read())
    return src.hexdigest()


def run_inputs(overlay, meta):
    """The kernel inputs id of a run from the meta line tools/measure/experiment
    writes first in results.jsonl: the id it recorded, or, for a run from
    before ids were recorded, the id of its commit if its tree was clean.
    Returns (id or None, how it is known, the run's commit or None)."""
    commit = meta.get("git_commit")
    if "kernel_inputs" in meta:
        # Recorded, or None: a kernel make kernel did not stamp, whose
        # inputs the measuring checkout's commit does not tell.
        if meta["kernel_inputs"]:
            return meta["kernel_inputs"], "recorded", commit
        return None, "its kernel carried no kernel inputs stamp", commit
    if commit and meta.get("git_dirty") is False:
        try:
            return kernel_inputs(overlay, commit), f"of its clean commit {commit[:7]}", commit
        except RuntimeError:
            return None, f"its commit {commit[:7]} is not in this repository", None
    if commit:
        return None, f"measured on a work tree with changes, at {commit[:7]}", commit
    return None, "no commit and no id recorded", None


HEADER = "# kernel inputs: "


def header_inputs(overlay, path):
    """The kernel inputs of a text dataset, from its header line
    '# kernel inputs: ID', '# kernel inputs: commit SHA' (a clean tree's
    commit), '# kernel inputs: of DIR...' (a summary of the runs in those
    directories, beside it) or '# kernel inputs: none, REASON' (a record
    of a kernel that is not this tree's, by design).  Returns (id, how,
    commit), (None, how, None), ("of", [DIR...], None) or ("none", reason,
    None)."""
    with open(path, errors="replace") as f:
        for line in f:
            if not line.startswith("#"):
                break
            if line.startswith(HEADER):
                value = line[len(HEADER):].strip()
                if value.startswith("none"):
                    return "none", value[4:].lstrip(" ,"), None
                if value.startswith("of "):
                    return "of", value.split()[1:], None
                if value.startswith("commit "):
                    commit = value.split()[1]
                    try:
                        return kernel_inputs(overlay, commit), f"of its commit {commit[:7]}", commit
                    except RuntimeError:
                        return None, f"its commit {commit[:7]} is not in this repository", None
                return value.split()[0], "recorded", None
    return None, f"no '{HEADER.strip()}' line", None


def main(argv):
    overlay = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if argv[:1] == ["inputs"] and len(argv) in (1, 3) and argv[1:2] in ([], ["--commit"]):
        print(kernel_inputs(overlay, argv[2] if len(argv) == 3 else None))
        return 0
    if argv[:1] == ["stamp"] and len(argv) == 3:
        # stamp OBJDIR ID: ID computed before the build (inputs), written after it.
        with open(os.path.join(argv[1], STAMP), "w") as f:
            f.write(argv[2] + "\n")
        return 0
    print("usage: provenance.py inputs [--commit C] | stamp OBJDIR ID", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
