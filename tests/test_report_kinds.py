"""report's kinds and its failing cells, on real runs: kinds counted by what they are (outcome, signal,
signature), not by a cut label; summary.md and report.html list the same failing cells, and the cells
crashmatrix could not launch (outcome error) apart from them, under one rule."""

import os
import re

import pytest
from conftest import crashmatrix, rows_of

pytestmark = pytest.mark.slow  # real runs (report's live cell is test_report's)

TWO_CAUSES = """\
import sys
args = dict(a.split("=", 1) for a in sys.argv[1:])
if args["shard"] != "ok" and args["mode"] == "a":
    raise RuntimeError(f"the data loader could not open the shard called {args['shard']}-centauri")
"""


def test_report_by_counts_two_kinds_cut_alike_as_two_and_tells_them_apart(tmp_path, write):
    write("prog.py", TWO_CAUSES)
    path = write(
        "m.yaml", "name: kinds\ncommand: [python, prog.py]\naxes:\n  shard: [alpha, omega, ok]\n  mode: [a, b]\n"
    )
    assert crashmatrix("run", path, "--jobs", "2", "--out", tmp_path / "run", cwd=tmp_path).returncode == 0
    signatures = {r["signature"] for r in rows_of(tmp_path / "run") if r["outcome"] == "fail"}
    assert len(signatures) == 2 and len({s[:40] for s in signatures}) == 1  # the case: alike for 40 characters
    proc = crashmatrix("report", tmp_path / "run", "--by", "mode", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (line,) = [row for row in proc.stdout.splitlines() if row.startswith("| a ")]
    outcome = line.split("|")[2].strip()
    parts = outcome.split(", ")
    assert len(parts) == 2 and all(p.startswith("1/3 fail ") for p in parts), outcome
    assert "alpha" in parts[0] and "omega" in parts[1], outcome  # shortened, yet each says which it is
    assert all(len(p) <= len("1/3 ") + 45 for p in parts), outcome
    # the two-axes grid labels the same kind alike in every square
    grid = crashmatrix("report", tmp_path / "run", "--by", "shard,mode", cwd=tmp_path).stdout
    assert parts[0][len("1/3 ") :] in grid and parts[1][len("1/3 ") :] in grid


# A shell program: the cell x=remove deletes it, so the cell after it cannot be launched (outcome error),
# as when a virtual environment is removed while a run goes on.
VANISHING = """\
#!/bin/sh
case "$1" in
  x=fail) echo "RuntimeError: the shard is gone" >&2; exit 1;;
  x=remove) rm -f "$0";;
esac
"""


def test_summary_md_and_report_html_list_the_same_failing_cells_and_the_unlaunched_apart(tmp_path, write):
    program = write("prog.sh", VANISHING)
    os.chmod(program, 0o755)
    path = write("m.yaml", f"name: vanish\ncommand: [{program}]\naxes:\n  x: [fail, remove, after]\n")
    assert crashmatrix("run", path, "--out", tmp_path / "run", cwd=tmp_path).returncode == 0  # --jobs 1: in order
    ids = {r["x"]: r["cell_id"] for r in rows_of(tmp_path / "run")}
    outcomes = {r["x"]: r["outcome"] for r in rows_of(tmp_path / "run")}
    assert outcomes == {"fail": "fail", "remove": "pass", "after": "error"}

    summary = (tmp_path / "run" / "summary.md").read_text()
    failing_md = summary.split("## Failing cells")[1].split("## ")[0]
    unlaunched_md = summary.split("## Cells crashmatrix could not launch")[1].split("## ")[0]
    html = (tmp_path / "run" / "report.html").read_text()
    failing_html = html.split("<h2>Failing cells")[1].split("<h2>")[0]
    unlaunched_html = html.split("<h2>Cells crashmatrix could not launch")[1].split("<h2>")[0]

    def listed(section):
        return {x for x, cell_id in ids.items() if cell_id in section}

    assert listed(failing_md) == listed(failing_html) == {"fail"}
    assert listed(unlaunched_md) == listed(unlaunched_html) == {"after"}
    assert "No such file or directory" in unlaunched_md and "No such file or directory" in unlaunched_html
    assert re.search(r"<h2>Failing cells \(1\)</h2>", html)
    # report (the same text as summary.md) agrees
    report = crashmatrix("report", tmp_path / "run", cwd=tmp_path).stdout
    assert ids["after"] not in report.split("## Failing cells")[1].split("## ")[0]


def test_kind_labels_tell_apart_kinds_cut_alike_and_kinds_whose_labels_agree():
    from crashmatrix.outcome import FailureKind, kind_labels

    long = "RuntimeError: the data loader could not open the shard called "
    kinds = [FailureKind("fail", "", long + name) for name in ("alpha", "omega", "alphabet")]
    kinds += [FailureKind("error", "", "launch_error"), FailureKind("error", "", "job_lost")]
    kinds += [FailureKind("crash", "SIGSEGV", "killed_by_signal"), FailureKind("pass")]
    labels = kind_labels(kinds, 40)
    assert len(set(labels.values())) == len(kinds), labels
    assert all(len(label) <= 45 for label in labels.values()), labels
    assert labels[FailureKind("pass")] == "pass" and labels[kinds[5]] == "crash SIGSEGV"
    assert labels[kinds[3]] == "error launch_error" and labels[kinds[4]] == "error job_lost"
