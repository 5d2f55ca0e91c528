"""explain: smallest conjunctions of axis values that separate failing cells."""

from __future__ import annotations

import csv
import io
import itertools

from runner.explain import advice_line, axes_that_matter, explain, render_lines, unexplained

AXES = ["start_method", "num_workers", "pin_memory", "wandb", "precision"]
VALUES = {
    "start_method": ["fork", "spawn"],
    "num_workers": ["0", "4"],
    "pin_memory": ["false", "true"],
    "wandb": ["disabled", "offline"],
    "precision": ["32", "16-mixed", "bf16-mixed"],
}


def matrix(rule, repeats=1):
    """Rows as results.csv has them: every cell, ``rule(cell) -> outcomes per repeat``."""
    rows = []
    for combo in itertools.product(*(VALUES[a] for a in AXES)):
        cell = dict(zip(AXES, combo))
        outcomes = rule(cell)
        if isinstance(outcomes, tuple) or outcomes is None:
            outcomes = [outcomes or ("pass", "")] * repeats
        for r, (outcome, signal) in enumerate(outcomes):
            rows.append({"cell_id": "x", "repeat": str(r), **cell, "outcome": outcome, "signal": signal})
    return rows


def test_two_way_interaction_is_one_pattern_with_two_conditions():
    rows = matrix(lambda c: ("crash", "SIGSEGV") if c["start_method"] == "fork" and c["pin_memory"] == "true" else None)
    patterns = explain(rows, AXES)
    assert [p.to_json() for p in patterns] == [
        {
            "conditions": {"start_method": "fork", "pin_memory": "true"},
            "outcome": "crash",
            "signal": "SIGSEGV",
            "failing": 12,  # 2 num_workers x 2 wandb x 3 precision
            "matching": 12,
        }
    ]
    assert render_lines(patterns, AXES, rows)[0] == (
        "crash SIGSEGV when start_method=fork and pin_memory=true (12 failing of 12 matching cells)"
    )


def test_two_independent_causes_come_out_as_two_patterns():
    def rule(c):
        if c["precision"] == "bf16-mixed":
            return ("crash", "SIGSEGV")
        if c["num_workers"] == "4" and c["wandb"] == "offline":
            return ("crash", "SIGSEGV")
        return None

    patterns = explain(matrix(rule), AXES)
    got = [(p.conditions, p.failing, p.matching) for p in patterns]
    assert got == [
        ((("precision", "bf16-mixed"),), 16, 16),
        ((("num_workers", "4"), ("wandb", "offline")), 12, 12),  # 4 of them also bf16
    ]
    assert axes_that_matter(patterns, AXES) == ["num_workers", "wandb", "precision"]
    assert unexplained(matrix(rule), AXES, patterns) == {}


def test_failure_kinds_are_explained_separately_and_larger_patterns_are_dropped():
    def rule(c):
        if c["start_method"] == "fork" and c["num_workers"] == "4":
            return ("worker_crash", "SIGBUS")
        if c["precision"] == "16-mixed" and c["start_method"] == "spawn":
            return ("cuda_error", "")
        return None

    patterns = explain(matrix(rule), AXES)
    kinds = {(p.outcome, p.signal): dict(p.conditions) for p in patterns}
    assert kinds == {
        ("worker_crash", "SIGBUS"): {"start_method": "fork", "num_workers": "4"},
        ("cuda_error", ""): {"start_method": "spawn", "precision": "16-mixed"},
    }
    # no 3-condition pattern that merely contains one of these survives
    assert all(len(p.conditions) == 2 for p in patterns)


def test_flaky_cell_counts_as_failing_and_never_vetoes():
    def rule(c):
        if c["pin_memory"] == "true" and c["num_workers"] == "4":
            # one cell fails only in its second repeat: still failing, not a veto
            if c["wandb"] == "disabled" and c["precision"] == "32" and c["start_method"] == "spawn":
                return [("pass", ""), ("crash", "SIGSEGV")]
            return [("crash", "SIGSEGV")] * 2
        return [("pass", "")] * 2

    patterns = explain(matrix(rule), AXES)
    assert len(patterns) == 1
    p = patterns[0]
    assert dict(p.conditions) == {"num_workers": "4", "pin_memory": "true"}
    assert (p.failing, p.matching, p.flaky) == (12, 12, 1)
    assert "1 of them flaky" in p.describe()


def test_skipped_cells_do_not_veto_and_count_in_matching():
    def rule(c):
        if c["precision"] == "bf16-mixed":
            return ("skip", "") if c["start_method"] == "spawn" else ("oom", "")
        return None

    patterns = explain(matrix(rule), AXES)
    assert [(dict(p.conditions), p.outcome, p.failing, p.matching) for p in patterns] == [
        ({"precision": "bf16-mixed"}, "oom", 8, 16)
    ]


def test_rows_read_from_a_csv_work_and_nothing_failing_says_so():
    rows = matrix(lambda c: None)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    read = list(csv.DictReader(io.StringIO(buf.getvalue())))
    assert explain(read, AXES) == []
    assert render_lines([], AXES, read) == ["no failing cells"]


def test_cells_needing_more_conditions_than_allowed_are_reported_unexplained():
    lone = {"start_method": "fork", "num_workers": "4", "pin_memory": "true", "wandb": "offline", "precision": "32"}
    rows = matrix(lambda c: ("crash", "SIGABRT") if c == lone else None)
    assert explain(rows, AXES) == []  # five conditions needed, the limit is three
    assert explain(rows, AXES, max_conditions=5)[0].conditions == tuple(lone.items())
    lines = render_lines([], AXES, rows)
    assert lines == ["crash SIGABRT: 1 failing cell not separated from the passing ones by up to 3 axis values"]


def test_advice_names_the_axes_to_run_in_full():
    rows = matrix(lambda c: ("crash", "SIGSEGV") if c["start_method"] == "fork" and c["pin_memory"] == "true" else None)
    patterns = explain(rows, AXES)
    assert advice_line(patterns, AXES) == (
        "axes that matter: start_method, pin_memory; for the minimal change: crashmatrix bisect RUN"
    )
    # With the rows, the other axes are held at a failing cell's values, never dropped: pairwise may
    # have seen too few cells to know that they do not matter.
    held = advice_line(patterns, AXES, rows)
    failing = next(r for r in rows if r["outcome"] == "crash")
    assert held.startswith("axes that matter: start_method, pin_memory; every combination of them")
    for axis in ("num_workers", "wandb", "precision"):
        assert f"axes.{axis}=[{failing[axis]}]" in held
    assert "~axes" not in held


def test_a_cell_that_failed_another_way_vetoes_a_pattern():
    # SIGSEGV needs x=1 and y=1; x=1, y=0 aborts instead: "x=1" alone must not be blamed for SIGSEGV.
    rows = []
    for x in ("0", "1"):
        for y in ("0", "1"):
            for z in ("0", "1"):
                if x == "1" and y == "1":
                    outcome, sig = "crash", "SIGSEGV"
                elif x == "1":
                    outcome, sig = "crash", "SIGABRT"
                else:
                    outcome, sig = "pass", ""
                rows.append({"x": x, "y": y, "z": z, "outcome": outcome, "signal": sig})
    got = {(p.signal, p.conditions) for p in explain(rows, ["x", "y", "z"])}
    assert ("SIGSEGV", (("x", "1"), ("y", "1"))) in got
    assert ("SIGABRT", (("x", "1"), ("y", "0"))) in got
    assert not any(sig == "SIGSEGV" and cond == (("x", "1"),) for sig, cond in got)
