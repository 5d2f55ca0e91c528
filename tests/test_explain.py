"""explain: smallest conjunctions of axis values that hold for one kind of failure and no passing cell."""

from __future__ import annotations

import csv
import io
import itertools
import random

from crashmatrix.answers.explain import SearchStats, advice_line, axes_that_matter, explain, render_lines

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
            "signature": "",
            "failing": 12,  # 2 num_workers x 2 wandb x 3 precision
            "matching": 12,
            "masked": 0,
        }
    ]
    assert render_lines(patterns, AXES, rows)[0] == (
        "crash SIGSEGV when start_method=fork and pin_memory=true (12 of 12 matching)"
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
    assert sum(p.failing for p in patterns) - 4 == 24  # every failing cell covered; 4 by both


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


def test_a_conjunction_is_as_long_as_the_data_needs():
    # Was: "reported unexplained" beyond 3 conditions. A lone failing cell needs all five of its values.
    lone = {"start_method": "fork", "num_workers": "4", "pin_memory": "true", "wandb": "offline", "precision": "32"}
    rows = matrix(lambda c: ("crash", "SIGABRT") if c == lone else None)
    patterns = explain(rows, AXES)
    assert [(p.conditions, p.failing, p.matching) for p in patterns] == [(tuple(lone.items()), 1, 1)]
    assert render_lines(patterns, None, rows) == [
        "crash SIGABRT when start_method=fork and num_workers=4 and pin_memory=true and wandb=offline "
        "and precision=32 (1 of 1 matching)"
    ]


def test_advice_names_the_axes_to_run_in_full():
    rows = matrix(lambda c: ("crash", "SIGSEGV") if c["start_method"] == "fork" and c["pin_memory"] == "true" else None)
    patterns = explain(rows, AXES)
    assert advice_line(patterns, AXES) == (
        "axes that matter: start_method, pin_memory; for the minimal change: `crashmatrix bisect RUN`"
    )
    # With the rows, the other axes are held at a failing cell's values, never dropped: pairwise may
    # have seen too few cells to know that they do not matter.
    held = advice_line(patterns, AXES, rows)
    failing = next(r for r in rows if r["outcome"] == "crash")
    assert held.startswith("axes that matter: start_method, pin_memory; every combination of them")
    for axis in ("num_workers", "wandb", "precision"):
        assert f"axes.{axis}=[{failing[axis]}]" in held
    assert "~axes" not in held


def test_a_cell_that_failed_another_way_is_masked_not_a_counter_example():
    # Was a veto. SIGSEGV where x=1 and y=1, SIGABRT where x=1 and y=0, pass where x=0: the data cannot
    # tell whether the abort hides a SIGSEGV (or the reverse), so each kind is "x=1" with the rest masked.
    rows = []
    for x, y, z in itertools.product("01", repeat=3):
        if x == "1":
            outcome, sig = "crash", ("SIGSEGV" if y == "1" else "SIGABRT")
        else:
            outcome, sig = "pass", ""
        rows.append({"x": x, "y": y, "z": z, "outcome": outcome, "signal": sig})
    patterns = explain(rows, ["x", "y", "z"])
    assert sorted((p.signal, p.conditions, p.failing, p.matching, p.masked) for p in patterns) == [
        ("SIGABRT", (("x", "1"),), 2, 4, 2),
        ("SIGSEGV", (("x", "1"),), 2, 4, 2),
    ]
    assert "crash SIGSEGV when x=1 (2 of 4 matching; 2 masked by crash SIGABRT)" in render_lines(patterns)


def overlapping(a, b, c, d, e, f):
    """The issue's planted program: SIGSEGV (checked first) when a..d are all 1; ValueError when e and f are."""
    if a == b == c == d == "1":
        return ("crash", "SIGSEGV", "", "Fatal Python error: Segmentation fault")
    if e == f == "1":
        return ("fail", "", "ValueError: planted", "ValueError: planted")
    return ("pass", "", "", "")


def table(rule, axes, values="01"):
    rows = []
    for combo in itertools.product(values, repeat=len(axes)):
        outcome, signal, signature, error = rule(*combo)
        rows.append(
            {**dict(zip(axes, combo)), "outcome": outcome, "signal": signal, "signature": signature, "error": error}
        )
    return rows


def test_a_hidden_failure_and_the_one_hiding_it_are_each_named_exactly():
    axes = list("abcdef")
    rows = table(overlapping, axes)
    got = [p.to_json() for p in explain(rows, axes)]
    assert got == [
        {
            "conditions": {"e": "1", "f": "1"},
            "outcome": "fail",
            "signal": "",
            "signature": "ValueError: planted",
            "failing": 15,
            "matching": 16,
            "masked": 1,
        },
        {
            "conditions": {"a": "1", "b": "1", "c": "1", "d": "1"},
            "outcome": "crash",
            "signal": "SIGSEGV",
            "signature": "",
            "failing": 4,
            "matching": 4,
            "masked": 0,
        },
    ]
    assert render_lines(explain(rows, axes))[0] == (
        "fail ValueError: planted when e=1 and f=1 (15 of 16 matching; 1 masked by crash SIGSEGV)"
    )


def test_a_failure_in_every_cell_is_the_program_not_a_configuration():
    rows = matrix(lambda c: ("fail", ""))
    for row in rows:
        row["error"] = "usage: train.py: error: unrecognized arguments"
    patterns = explain(rows, AXES)
    assert [p.to_json() for p in patterns] == [
        {"conditions": {}, "outcome": "fail", "signal": "", "signature": "", "failing": 48, "matching": 48, "masked": 0}
    ]
    assert render_lines(patterns, AXES, rows) == [
        "fail in every cell (48 of 48): the program itself, not a configuration — "
        "usage: train.py: error: unrecognized arguments"
    ]


def test_with_no_pass_anywhere_a_rarer_failure_is_set_apart_from_the_common_one():
    # The program fails everywhere (a config error) except where it crashes before reaching it.
    rows = matrix(lambda c: ("crash", "SIGSEGV") if c["precision"] == "bf16-mixed" else ("fail", ""))
    got = [(p.outcome, dict(p.conditions), p.failing, p.matching, p.masked) for p in explain(rows, AXES)]
    assert got == [("fail", {}, 32, 48, 16), ("crash", {"precision": "bf16-mixed"}, 16, 16, 0)]
    assert explain(rows, AXES)[0].describe() == (
        "fail in 32 of 48 cells and no cell passed (16 masked by crash SIGSEGV): the program itself, not a "
        "configuration"
    )


def test_a_flaky_failure_in_every_cell_names_no_condition():
    patterns = explain(matrix(lambda c: [("pass", ""), ("timeout", "")]), AXES)
    assert [(p.conditions, p.failing, p.flaky) for p in patterns] == [((), 48, 48)]


def test_signatures_split_one_outcome_into_kinds_and_old_runs_without_them_still_work():
    def rule(c):
        if c["num_workers"] == "4" and c["start_method"] == "fork":
            return ("worker_crash", "", "fd_exhaustion", "OSError: [Errno 24] Too many open files")
        if c["num_workers"] == "4" and c["pin_memory"] == "true":
            return ("worker_crash", "", "shm_full", "No space left on device (/dev/shm)")
        return ("pass", "", "", "")

    rows = []
    for combo in itertools.product(*(VALUES[a] for a in AXES[:3])):
        cell = dict(zip(AXES[:3], combo))
        outcome, signal, signature, error = rule(cell)
        rows.append({**cell, "outcome": outcome, "signal": signal, "signature": signature, "error": error})
    got = {p.signature: dict(p.conditions) for p in explain(rows, AXES[:3])}
    assert got == {
        "fd_exhaustion": {"start_method": "fork", "num_workers": "4"},
        # fork + 4 + true is masked by fd_exhaustion (unknown), so spawn is not needed to separate it
        "shm_full": {"num_workers": "4", "pin_memory": "true"},
    }
    # Without the column (a run from before it): one kind, outcome + signal, both causes in one cover.
    old = [{k: v for k, v in r.items() if k != "signature"} for r in rows]
    assert {(p.outcome, p.signature, tuple(p.conditions)) for p in explain(old, AXES[:3])} == {
        ("worker_crash", "", (("num_workers", "4"), ("start_method", "fork"))[::-1]),
        ("worker_crash", "", (("num_workers", "4"), ("pin_memory", "true"))),
    }


def brute_force_minimal(rows, axes, kind):
    """Every minimal conjunction holding for a failing cell of kind and no passing cell, the slow way."""
    cells = {}
    for r in rows:
        cell = cells.setdefault(tuple(r[a] for a in axes), set())
        cell.add(r["outcome"] if r["outcome"] != "fail" else ("fail", r["signature"]))
    failing = [k for k, seen in cells.items() if kind in seen]
    passing = [k for k, seen in cells.items() if "pass" in seen and kind not in seen]
    valid = set()
    for f in failing:
        for size in range(len(axes) + 1):
            for idx in itertools.combinations(range(len(axes)), size):
                if not any(all(p[i] == f[i] for i in idx) for p in passing):
                    valid.add(tuple((axes[i], f[i]) for i in idx))
    return {c for c in valid if not any(set(o) < set(c) for o in valid)}


def test_every_pattern_is_minimal_and_valid_and_every_failing_cell_covered_on_random_tables():
    axes = list("pqrst")
    rng = random.Random(7)
    for _ in range(40):
        rows = []
        for combo in itertools.product("012", "01", "01", "01", "012"):
            if rng.random() < 0.3:
                continue  # a partial matrix, as pairwise or an interrupted run leaves
            draw = rng.random()
            outcome, signature = ("pass", "") if draw < 0.55 else ("fail", "A") if draw < 0.8 else ("fail", "B")
            if rng.random() < 0.1:
                outcome, signature = "skip", ""
            rows.append({**dict(zip(axes, combo)), "outcome": outcome, "signal": "", "signature": signature})
        if not any(r["outcome"] == "pass" for r in rows):
            continue
        patterns = explain(rows, axes)
        for sig in ("A", "B"):
            mine = [p for p in patterns if p.signature == sig]
            minimal = brute_force_minimal(rows, axes, ("fail", sig))
            assert all(p.conditions in minimal for p in mine)
            for cell in {tuple(r[a] for a in axes) for r in rows if r["signature"] == sig}:
                assert any(all(cell[axes.index(a)] == v for a, v in p.conditions) for p in mine)


def test_twelve_axes_and_hundreds_of_cells_stay_within_a_work_budget():
    # A pairwise-sized run of 12 axes: 300 random cells, a 4-way crash, a 2-way failure it hides, noise.
    axes = [f"a{i}" for i in range(12)]
    rng = random.Random(1)
    rows, seen = [], set()
    while len(rows) < 300:
        cell = tuple(rng.choice("0123"[: 2 + i % 3]) for i in range(12))
        if cell in seen:
            continue
        seen.add(cell)
        if cell[0] == "1" and cell[3] == "1" and cell[5] == "0" and cell[7] == "1":
            outcome, signal = "crash", "SIGSEGV"
        elif cell[2] == "1" and cell[10] == "2":
            outcome, signal = "fail", ""
        else:
            outcome, signal = "pass", ""
        rows.append({**dict(zip(axes, cell)), "outcome": outcome, "signal": signal})
    stats = SearchStats()
    patterns = explain(rows, axes, stats=stats)
    by_kind = {p.outcome: p.conditions for p in patterns if p.failing > 1}
    assert by_kind["crash"] == (("a0", "1"), ("a3", "1"), ("a5", "0"), ("a7", "1"))
    assert by_kind["fail"] == (("a2", "1"), ("a10", "2"))
    # bitmask ANDs the search did, both kinds together (measured 28,000 when written); time on a shared
    # box would be a flaky measure, work is not
    assert stats.examined < 60_000, stats.examined
    assert stats.fallbacks == 0


def test_out_of_budget_the_answer_is_still_valid_minimal_and_complete():
    # parity over 6 axes: every failing cell needs all six values; a budget of 50 cannot enumerate them
    axes = list("abcdef")
    rows = table(lambda *v: ("fail", "", "", "") if sum(map(int, v)) % 2 else ("pass", "", "", ""), axes)
    stats = SearchStats()
    patterns = explain(rows, axes, work_budget=50, stats=stats)
    assert stats.fallbacks == 1
    assert len(patterns) == 32 and all(len(p.conditions) == 6 and p.failing == 1 for p in patterns)


def test_conjunctions_the_data_cannot_tell_apart_are_all_named():
    """Four cells, as a pairwise run leaves them: the crash cells are the only ones with both
    num_workers=4 and pin_memory=true, and also the only ones with wandb=offline and num_workers=4.
    Naming one of them alone would be a guess; both come out, and every axis they use matters."""
    axes = ["num_workers", "pin_memory", "wandb"]
    cells = [
        ("0", "false", "disabled", "pass"),
        ("4", "false", "disabled", "pass"),
        ("0", "true", "offline", "pass"),
        ("4", "true", "offline", "crash"),
    ]
    rows = [
        {"num_workers": w, "pin_memory": p, "wandb": m, "outcome": o, "signal": "SIGSEGV" if o == "crash" else ""}
        for w, p, m, o in cells
    ]
    [pattern] = explain(rows, axes)
    found = [dict(pattern.conditions)] + [dict(alt) for alt in pattern.alternatives]
    assert sorted(map(sorted, map(dict.items, found))) == sorted(
        map(
            sorted,
            map(
                dict.items,
                [
                    {"num_workers": "4", "pin_memory": "true"},
                    {"num_workers": "4", "wandb": "offline"},
                ],
            ),
        )
    )  # pin_memory=true and wandb=offline also holds for the passing (0, true, offline)
    assert "the data fit as well: " in pattern.describe()
    assert pattern.to_json()["alternatives"] == [dict(alt) for alt in pattern.alternatives]
    assert axes_that_matter([pattern], axes) == axes


def test_a_pattern_the_data_pin_down_has_no_alternatives():
    rows = matrix(lambda c: ("crash", "SIGSEGV") if c["start_method"] == "fork" and c["pin_memory"] == "true" else None)
    [pattern] = explain(rows, AXES)
    assert pattern.alternatives == () and "alternatives" not in pattern.to_json()


def test_no_pass_and_two_equally_common_failures_are_each_told_by_where_the_other_is_not():
    """A hang in half the cells, a crash in the other half, nothing passed: neither is "the program"."""
    rows = [
        {"mode": m, "start_method": s, "outcome": o, "signal": sig}
        for m, o, sig in (("hang", "timeout", ""), ("segv", "crash", "SIGSEGV"))
        for s in ("fork", "spawn")
    ]
    lines = [p.describe() for p in explain(rows, ["mode", "start_method"])]
    assert lines == ["crash SIGSEGV when mode=segv (2 of 2 matching)", "timeout when mode=hang (2 of 2 matching)"]


def test_two_failures_whose_signatures_begin_alike_are_told_apart():
    # torch.load refusing two globals (tests/data/weights-only): alike for their first 60 characters and more
    from crashmatrix.answers.explain import Pattern

    refused = "_pickle.UnpicklingError: Weights only load failed. WeightsUnpickler error: Unsupported global: GLOBAL "
    scalar = Pattern((("which", "wo"),), "fail", "", 1, 1, refused + "numpy._core.multiarray.scalar was not allowed.")
    namespace = Pattern((("which", "wo2"),), "fail", "", 1, 1, refused + "argparse.Namespace was not allowed.")
    plain = Pattern((("which", "other"),), "fail", "", 1, 1, "ValueError: bad batch")
    heads = [line.split(" when ")[0] for line in render_lines([scalar, namespace, plain]) if " when " in line]
    assert len(set(heads)) == 3, heads
    assert "numpy._core.multiarray.scalar" in heads[0] and "argparse.Namespace" in heads[1], heads
    assert heads[2] == "fail ValueError: bad batch"  # a label that cuts alike with none is as it was


def test_a_failure_in_every_cell_but_not_every_run_says_in_how_many_runs():
    # One cell run 4 times: two repeats failed one way, one crashed, one passed. Each kind is in "every cell",
    # which alone would read as if each came every time.
    runs = [("fail", "", "KeyError: 'mean' in train.py:load"), ("crash", "SIGSEGV", "SIGSEGV in train.py:step")]
    rows = [
        {"cell_id": "x", "repeat": str(r), "num_workers": "2", "outcome": o, "signal": sig, "signature": s}
        for r, (o, sig, s) in enumerate([runs[0], runs[0], runs[1], ("pass", "", "")])
    ]
    assert [p.describe() for p in explain(rows, ["num_workers"])] == [
        "crash SIGSEGV in every cell (1 of 1; 1 of them flaky; in 1 of 4 runs): the program itself, not a "
        "configuration — SIGSEGV in train.py:step",
        "fail in every cell (1 of 1; 1 of them flaky; in 2 of 4 runs): the program itself, not a configuration — "
        "KeyError: 'mean' in train.py:load",
    ]
    once = [dict(row, repeat="0") for row in rows[:1]]
    assert explain(once, ["num_workers"])[0].describe().startswith("fail in every cell (1 of 1): the program")
