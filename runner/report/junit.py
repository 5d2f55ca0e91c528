"""`crashmatrix report RUN --format junit`: JUnit XML for CI systems, one testcase per run.

The common subset that GitHub Actions' test reporters, GitLab and Jenkins read:
testsuites > testsuite > testcase, with `failure`, `error` or `skipped` inside a
testcase and the counts on the testsuite. A failing outcome is a `failure`
whose message names outcome, signal and error; `error` (crashmatrix could not
run the cell) is an `error`; `skip` is `skipped` with its reason. A passing run
of a slow cell (explain's findings beyond failure) stays passed, with a
`crashmatrix.slow` property saying so.
A run whose memory grows keeps its outcome's element and gains a property saying how it grew
(memory_growth, under crashmatrix's prefix).

The standard library's ElementTree writes it; the junit-xml package adds a
dependency (unreleased since 2020) for what is a few elements here.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET

from crashmatrix.answers import explain, growth
from crashmatrix.answers.slow import Slow
from crashmatrix.axis_values import value_of
from crashmatrix.outcome import FailureKind, Outcome, is_pass, is_run_error, with_rank_note
from crashmatrix.rundir.finished_run import FinishedRun

PROPERTY_PREFIX = "crashmatrix."  # a testcase's findings beyond failure, as properties named with it
# XML 1.0 cannot carry most control characters (a log's ANSI escapes, a NUL): they are dropped.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_safe(value) -> str:
    return _NOT_XML.sub("", str(value or ""))


def _duration_of(row: dict) -> float:
    try:
        return float(row.get("duration_s") or 0.0)
    except ValueError:
        return 0.0


def case_name(row: dict, value_columns: list[str]) -> str:
    values = " ".join(f"{k}={value_of(row, k)}" for k in value_columns if value_of(row, k) != "")
    return f"{row['cell_id']} r{row['repeat']}" + (f" {values}" if values else "")


def failure_message(row: dict) -> str:
    """`crash SIGSEGV: Fatal Python error: Segmentation fault` (outcome, signal when any, error when any); a
    distributed job's with the rank: `rank_crash SIGSEGV (rank 1): ...`."""
    head = with_rank_note(FailureKind.from_row(row, with_signature=False).label(), [row.get("rank") or ""])
    return f"{head}: {row['error']}" if row.get("error") else head


def _testcase(
    suite: ET.Element, row: dict, value_columns: list[str], classname: str, found: list, grew: str = ""
) -> str:
    """Adds one testcase; returns its kind: passed, failure, error or skipped. found: explain's findings beyond
    failure; a passing run of a slow cell stays a passed test that carries the finding as a property. grew:
    how its memory grew (growth.run_growth), a property."""
    case = ET.SubElement(
        suite,
        "testcase",
        name=_xml_safe(case_name(row, value_columns)),
        classname=_xml_safe(classname),
        time=f"{_duration_of(row):.3f}",
    )
    if grew:  # a finding beyond failure, not a failure: the case passes (or fails) as its outcome says
        properties = ET.SubElement(case, "properties")
        ET.SubElement(properties, "property", name=f"{PROPERTY_PREFIX}memory_growth", value=_xml_safe(grew))
    outcome = row.get("outcome", "")
    if is_pass(outcome):
        _properties(case, row, found)
        return "passed"
    if outcome == Outcome.SKIP.value:
        ET.SubElement(case, "skipped", message=_xml_safe(row.get("error")))
        return "skipped"
    kind = "error" if is_run_error(outcome) else "failure"
    body = f"{failure_message(row)}\nlogs: {row.get('log_dir', '')}"
    if row.get("exit_code", "") != "":
        body += f"\nexit status: {row['exit_code']}"
    element = ET.SubElement(case, kind, message=_xml_safe(failure_message(row)), type=_xml_safe(outcome))
    element.text = _xml_safe(body)
    return kind


def _properties(case: ET.Element, row: dict, found: list) -> None:
    """`<properties><property name="crashmatrix.slow" value="slow: 4.9× ..."/></properties>` for each
    finding whose conjunction holds for the row (a slow one that this run can tell)."""
    mine = [f for f in found if isinstance(f, Slow) and f.sure and f.holds(row)]
    if mine:
        props = ET.SubElement(case, "properties")
        for f in mine:
            ET.SubElement(props, "property", name="crashmatrix.slow", value=_xml_safe(f.text()))


def junit_xml(run: FinishedRun) -> str:
    """The run's JUnit XML; the testsuite is named after the matrix, else the run directory."""
    rows, value_columns = list(run.rows), list(run.answer_axes)  # a fleet's node names each case too
    name = str(run.matrix.get("name") or os.path.basename(run.directory))
    root = ET.Element("testsuites", name="crashmatrix")
    suite = ET.SubElement(root, "testsuite", name=_xml_safe(name))
    hosts = sorted({r.get("host", "") for r in rows if r.get("host")})
    if hosts:
        suite.set("hostname", _xml_safe(",".join(hosts)))
    starts = sorted(r["started_at"] for r in rows if r.get("started_at"))
    if starts:
        suite.set("timestamp", starts[0])
    found = explain.findings(rows, value_columns)
    kinds = [_testcase(suite, r, value_columns, name, found, growth.run_growth(r, run.directory)) for r in rows]
    total = f"{sum(_duration_of(r) for r in rows):.3f}"
    counts = {
        "tests": str(len(rows)),
        "failures": str(kinds.count("failure")),
        "errors": str(kinds.count("error")),
        "skipped": str(kinds.count("skipped")),
        "time": total,
    }
    for element in (root, suite):
        for key, value in counts.items():
            element.set(key, value)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
