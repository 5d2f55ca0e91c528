"""Tests of crashmatrix.matrix.pairwise: coverage, excludes, determinism, sizes, t=3, edge cases."""

from __future__ import annotations

import itertools
import math

import pytest

from crashmatrix.matrix.pairwise import covering_array, pairs_uncovered, uniform_axes

FAST = 0.2  # time_budget_s for tests that only check correctness


def key(x):
    return (type(x), x)


def matches(row, entry):
    return all(name in row and key(row[name]) == key(v) for name, v in entry.items())


def brute_uncovered(rows, axes, t, exclude=()):
    """Independent oracle: tuples of some allowed full row that no given row contains."""
    names = list(axes)
    t = min(t, len(names))
    allowed = [
        dict(zip(names, vals))
        for vals in itertools.product(*axes.values())
        if not any(matches(dict(zip(names, vals)), e) for e in exclude)
    ]

    def tuples(row):
        return {tuple((n, key(row[n])) for n in cs) for cs in itertools.combinations(names, t)}

    need = set().union(*(tuples(r) for r in allowed)) if allowed else set()
    have = set().union(*(tuples(r) for r in rows)) if rows else set()
    return need - have


def check(rows, axes, t=2, exclude=()):
    names = list(axes)
    for row in rows:
        assert list(row) == names  # axis order kept
        for n in names:  # values are the listed objects, type included
            assert any(key(row[n]) == key(v) for v in axes[n]), (n, row[n])
        for e in exclude:
            assert not matches(row, e), (row, e)
    assert pairs_uncovered(rows, axes, t, exclude) == []
    if math.prod(len(v) for v in axes.values()) <= 5000:
        assert brute_uncovered(rows, axes, t, exclude) == set()


MIXED = {
    "start_method": ["fork", "spawn", "forkserver"],
    "num_workers": [0, 1, 4],
    "pin_memory": [False, True],
    "flag": [True, 1, 1.0, "1", None],  # five distinct values
    "precision": ["32", "16-mixed", "bf16-mixed"],
    "lr": [0.1, 1e-3],
}

MODELS = {
    "3^4": uniform_axes((3, 4)),
    "2^7": uniform_axes((2, 7)),
    "5^1 4^2 3^3 2^4": uniform_axes((5, 1), (4, 2), (3, 3), (2, 4)),
    "mixed-types": MIXED,
    "true-vs-1": {"b": [True, False], "i": [1, 0], "f": [1.0, 0.0], "s": ["1", "0"]},
}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_every_pair_covered(name):
    axes = MODELS[name]
    rows = covering_array(axes, time_budget_s=FAST)
    check(rows, axes)


def test_greedy_only_is_valid():
    axes = uniform_axes((4, 5), (3, 6), (2, 8))
    check(covering_array(axes, time_budget_s=0), axes)


def test_types_survive_true_vs_1():
    axes = {"b": [True, False], "i": [1, 0], "mix": [1, True, "x"]}
    rows = covering_array(axes, time_budget_s=FAST)
    check(rows, axes)
    assert {type(r["b"]) for r in rows} == {bool}
    assert {type(r["i"]) for r in rows} == {int}
    assert {key(r["mix"]) for r in rows} == {key(1), key(True), key("x")}


def test_duplicate_values_collapse():
    rows = covering_array({"a": [1, 1, 2], "b": ["x", "y"]})
    assert sorted((r["a"], r["b"]) for r in rows) == [(1, "x"), (1, "y"), (2, "x"), (2, "y")]


DESIGN_AXES = {
    "start_method": ["fork", "spawn", "forkserver"],
    "num_workers": [0, 4],
    "pin_memory": [False, True],
    "wandb": ["disabled", "offline"],
    "precision": ["32", "16-mixed", "bf16-mixed"],
    "cudnn.benchmark": [False, True],
    "cudnn.deterministic": [False, True],
    "env.CUDA_LAUNCH_BLOCKING": ["0", "1"],
}


@pytest.mark.parametrize(
    "exclude",
    [
        [{"num_workers": 0, "pin_memory": True}],
        [{"num_workers": 0, "pin_memory": True}, {"start_method": "fork", "precision": "32"}],
        [{"start_method": "spawn", "wandb": "offline", "cudnn.benchmark": True}],
        [{"precision": "bf16-mixed"}],  # a whole value goes
    ],
)
def test_exclude_design_example(exclude):
    rows = covering_array(DESIGN_AXES, exclude=exclude, time_budget_s=FAST)
    check(rows, DESIGN_AXES, 2, exclude)
    assert len(rows) <= 10  # the full product has 288 cells; 9 is the bound without excludes


def test_exclude_implied_impossible_value():
    # a=0 is forbidden with b=0 and with b=1, so a=0 can appear in no row at all:
    # pairs (a=0, c=...) are not required, everything else is.
    axes = {"a": [0, 1, 2], "b": [0, 1], "c": ["x", "y", "z"], "d": [False, True]}
    exclude = [{"a": 0, "b": 0}, {"a": 0, "b": 1}]
    rows = covering_array(axes, exclude=exclude, time_budget_s=FAST)
    check(rows, axes, 2, exclude)
    assert all(r["a"] != 0 for r in rows)
    assert {(r["a"], r["c"]) for r in rows} == {(a, c) for a in (1, 2) for c in "xyz"}


def test_exclude_is_type_strict():
    axes = {"flag": [False, True], "n": [0, 1], "s": ["a", "b"]}
    # 1 is not True and True is not 1: neither entry matches anything
    exclude = [{"flag": 1}, {"n": True}]
    rows = covering_array(axes, exclude=exclude, time_budget_s=FAST)
    check(rows, axes, 2, ())  # everything must be covered, as with no excludes
    assert any(r["flag"] is True for r in rows) and any(r["n"] == 1 for r in rows)


def test_exclude_with_value_not_listed_never_matches():
    axes = {"a": [0, 1], "b": [0, 1]}
    rows = covering_array(axes, exclude=[{"a": 7, "b": 0}])
    assert len(rows) == 4


def test_exclude_everything():
    axes = {"a": [0, 1], "b": [0, 1]}
    assert covering_array(axes, exclude=[{}]) == []
    assert covering_array(axes, exclude=[{"a": 0}, {"a": 1}]) == []
    assert pairs_uncovered([], axes, 2, [{}]) == []


def test_exclude_on_bigger_model():
    axes = uniform_axes((4, 6), (3, 6), (2, 6))
    exclude = [{"a0": 0, "a6": 0}, {"a1": 3, "a2": 3, "a12": 1}, {"a7": 2}, {"a3": 1, "a4": 1}]
    rows = covering_array(axes, exclude=exclude, time_budget_s=FAST)
    check(rows, axes, 2, exclude)


def test_bad_input():
    with pytest.raises(ValueError):
        covering_array({"a": []})
    with pytest.raises(ValueError):
        covering_array({"a": [1, 2]}, exclude=[{"nope": 1}])
    with pytest.raises(ValueError):
        covering_array({"a": [1, 2]}, strength=0)


def test_deterministic_for_a_seed():
    axes = uniform_axes((4, 3), (3, 8), (2, 10))
    exclude = [{"a0": 1, "a3": 2}]
    a = covering_array(axes, exclude=exclude, seed=7, time_budget_s=0.3)
    b = covering_array(axes, exclude=exclude, seed=7, time_budget_s=0.3)
    assert a == b
    assert [list(map(type, r.values())) for r in a] == [list(map(type, r.values())) for r in b]


def test_size_3_4_is_9():
    rows = covering_array(uniform_axes((3, 4)))
    assert len(rows) == 9
    check(rows, uniform_axes((3, 4)))


def test_size_3_13_at_most_15():
    axes = uniform_axes((3, 13))
    rows = covering_array(axes, time_budget_s=0.5)  # 15 is reached well within this
    check(rows, axes)
    assert len(rows) <= 15


def test_binary_optimum():
    # strength-2 binary arrays are solved: 10 axes need exactly 6 rows
    rows = covering_array(uniform_axes((2, 10)))
    assert len(rows) == 6
    check(rows, uniform_axes((2, 10)))


def test_optimisation_beats_greedy():
    axes = uniform_axes((4, 5), (3, 5), (2, 5))
    assert len(covering_array(axes, time_budget_s=FAST)) < len(covering_array(axes, time_budget_s=0))


@pytest.mark.parametrize(
    "axes",
    [uniform_axes((2, 5)), uniform_axes((3, 5)), uniform_axes((4, 2), (3, 2), (2, 2)), MIXED],
    ids=["2^5", "3^5", "4^2 3^2 2^2", "mixed-types"],
)
def test_strength_3(axes):
    rows = covering_array(axes, strength=3, time_budget_s=FAST)
    check(rows, axes, 3)
    assert pairs_uncovered(rows, axes, 2) == []  # 3-way implies 2-way


def test_strength_3_with_exclude():
    axes = uniform_axes((3, 3), (2, 3))
    exclude = [{"a0": 0, "a1": 0, "a3": 1}, {"a2": 2, "a4": 0}]
    rows = covering_array(axes, strength=3, exclude=exclude, time_budget_s=FAST)
    check(rows, axes, 3, exclude)


def test_strength_3_sizes():
    assert len(covering_array(uniform_axes((3, 4)), strength=3)) == 27
    assert len(covering_array(uniform_axes((2, 5)), strength=3, time_budget_s=0.3)) <= 12


def test_zero_axes():
    assert covering_array({}) == [{}]
    assert pairs_uncovered([{}], {}) == []
    assert pairs_uncovered([], {}) == [{}]


def test_single_axis():
    assert covering_array({"x": ["b", "a", "c"]}) == [{"x": "b"}, {"x": "a"}, {"x": "c"}]
    assert covering_array({"x": [1, 2]}, exclude=[{"x": 2}]) == [{"x": 1}]


def test_single_valued_axes():
    axes = {"a": [1], "b": ["x", "y", "z"], "c": [None], "d": [True, False]}
    rows = covering_array(axes)
    assert len(rows) == 6
    check(rows, axes)
    assert covering_array({"a": [1], "b": [2], "c": [3]}) == [{"a": 1, "b": 2, "c": 3}]


def test_strength_at_least_axes_is_full_product():
    axes = {"a": [0, 1], "b": ["x", "y", "z"], "c": [False, True]}
    for t in (3, 4, 9):
        rows = covering_array(axes, strength=t)
        assert len(rows) == 12
        check(rows, axes, t)
    rows = covering_array(axes, strength=5, exclude=[{"a": 0, "c": True}])
    assert len(rows) == 9
    check(rows, axes, 5, [{"a": 0, "c": True}])


def test_pairs_uncovered_notices_a_gap():
    axes = {"a": [0, 1], "b": [0, 1], "c": [0, 1]}
    rows = covering_array(axes)
    assert pairs_uncovered(rows[1:], axes) != []
    missing = pairs_uncovered([{"a": 0, "b": 0, "c": 0}], axes)
    assert {"a": 1, "b": 1} in missing and len(missing) == 9
