# SPDX-License-Identifier: GPL-2.0
"""A small KTAP (version 1, and TAP 13 as kselftest prints it) parser.

Results nest by indentation (four spaces per level, or the "# " prefix
kselftest's runner uses).  A result line closes the subtests printed just
before it at a deeper level; only leaves are counted, so a suite is counted
through its cases.  A parent that failed although all its children passed
(or that has none) counts as one failure: a test that crashed still fails.
"""
import re

_TS = re.compile(r"^\[\s*\d+\.\d+\] ?")
_RES = re.compile(r"^(not ok|ok)\s+(\d+)\s*(?:-\s*)?([^#]*?)\s*(?:#\s*(.*))?$")
_SUBTEST = re.compile(r"^#\s*Subtest:\s*(.*)$")


class Result:
    def __init__(self, path, ok, directive):
        self.path = path
        self.ok = ok
        self.directive = directive or ""

    @property
    def skipped(self):
        return self.directive.upper().startswith("SKIP")

    @property
    def status(self):
        if self.skipped:
            return "skip"
        return "ok" if self.ok else "FAIL"


def strip_console(line):
    """Drops the printk timestamp of a console line."""
    return _TS.sub("", line.rstrip("\r\n"), count=1)


def parse(lines, prefix=""):
    """Returns the leaf results of the KTAP in `lines` as Result objects."""
    results = []
    # Per depth: name announced by "# Subtest:", children seen since.
    pending = {}
    names = {}
    for raw in lines:
        line = strip_console(raw).expandtabs(4)
        body = line.lstrip(" ")
        depth = (len(line) - len(body)) // 4
        # kselftest runner style nesting: "# " prefixes.
        while body.startswith("# ") and _RES.match(body[2:].lstrip(" ")):
            body = body[2:].lstrip(" ")
            depth += 1
        m = _SUBTEST.match(body)
        if m:
            names[depth] = m.group(1).strip()
            continue
        m = _RES.match(body)
        if not m:
            continue
        ok = m.group(1) == "ok"
        name = m.group(3).strip() or names.get(depth, f"test{m.group(2)}")
        directive = (m.group(4) or "").strip()
        kids = pending.pop(depth + 1, [])
        # deeper levels that never closed belong to this result too
        for d in [d for d in pending if d > depth + 1]:
            kids += pending.pop(d)
        # "# Subtest: NAME" names the test whose lines are at its depth.
        parents = [names[d] for d in sorted(names) if d <= depth and names[d] != name]
        path = "/".join(parents + [name])
        if kids:
            for k in kids:
                if not k.path.startswith(path + "/"):
                    k.path = path + "/" + k.path
            pending.setdefault(depth, []).extend(kids)
            if not ok and all(k.ok or k.skipped for k in kids):
                pending[depth].append(Result(path, False, directive or "failed"))
        else:
            pending.setdefault(depth, []).append(Result(path, ok, directive))
        names.pop(depth + 1, None)
    for d in sorted(pending):
        results.extend(pending[d])
    if prefix:
        for r in results:
            r.path = prefix + "/" + r.path
    return results
