# SPDX-License-Identifier: GPL-2.0
"""The ``case-table`` directive: the mechanisms' cases, as a table read
from the one case table (tools/testing/selftests/sched_rust_lb/cases), so
that a case is declared once and the documentation cannot restate it
wrongly.  Columns: case, feature, workloads, effect and benefit (each
``WORKLOAD METRIC (EXPECT)``)."""
import os

from docutils import nodes
from docutils.parsers.rst import Directive

CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir,
                     "tools", "testing", "selftests", "sched_rust_lb", "cases")
HEAD = ("case", "feature", "workloads", "effect (expect)", "benefit (expect)")


def case_lines(path=CASES):
    """The case table's lines as lists of fields (see its header)."""
    with open(path) as f:
        return [line.rstrip("\n").split(":") for line in f
                if line.strip() and not line.startswith("#")]


def measure(field):
    """'WORKLOAD METRIC EXPECT' as a cell's nodes."""
    workload, metric, expect = field.split()
    para = nodes.paragraph()
    para += nodes.Text(f"{workload} ")
    para += nodes.literal(text=metric)
    para += nodes.Text(f" ({expect})")
    return para


class CaseTable(Directive):
    has_content = False

    def run(self):
        env = self.state.document.settings.env
        env.note_dependency(os.path.abspath(CASES))
        table = nodes.table()
        group = nodes.tgroup(cols=len(HEAD))
        table += group
        for width in (3, 3, 3, 5, 5):
            group += nodes.colspec(colwidth=width)

        def row(cells):
            r = nodes.row()
            for c in cells:
                entry = nodes.entry()
                entry += c if isinstance(c, nodes.Node) else nodes.paragraph(text=c)
                r += entry
            return r

        head = nodes.thead()
        head += row(HEAD)
        group += head
        body = nodes.tbody()
        for f in case_lines():
            if len(f) != 9:
                raise self.error(f"{CASES}: case {f[0]!r} has {len(f)} fields, not 9")
            try:
                effect, benefit = measure(f[5]), measure(f[6])
            except ValueError:
                raise self.error(f"{CASES}: case {f[0]!r}: the effect and the benefit "
                                 "must each be WORKLOAD METRIC EXPECT")
            body += row([nodes.literal(text=f[0]), nodes.literal(text=f[1]),
                         ", ".join(f[2].split()), effect, benefit])
        group += body
        return [table]


def setup(app):
    app.add_directive("case-table", CaseTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
