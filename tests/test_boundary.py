"""A numeric axis's boundary (issue 38, item 3): the search with injected predicates whose boundary is
known, the table reading that decides an axis orders a failure, memory's scale and fit, and one real
program under `crashmatrix bisect RUN`."""

from __future__ import annotations

import json
import random

import pytest
from conftest import crashmatrix, rows_of

from crashmatrix.bisect.axis_order import is_numeric_axis, ordered_line
from crashmatrix.bisect.boundary import midpoint, narrow
from crashmatrix.bisect.memory_scale import scale_of
from crashmatrix.bisect.result import BoundaryInterrupted
from crashmatrix.bisect.text import boundary_detail, boundary_line, megabytes, memory_lines
from crashmatrix.outcome import FailureKind

SEGV = FailureKind("crash", "SIGSEGV")
PASS = FailureKind("pass")
TIMEOUT = FailureKind("timeout")


class Above:
    """Fails (SIGSEGV) above `threshold` (below it with upward=False), at rate p; counts its calls."""

    def __init__(self, threshold, p=1.0, seed=0, upward=True):
        self.threshold, self.p, self.upward = threshold, p, upward
        self.rng = random.Random(seed)
        self.calls: list = []

    def __call__(self, value):
        self.calls.append(value)
        beyond = value > self.threshold if self.upward else value < self.threshold
        return SEGV if beyond and self.rng.random() < self.p else PASS


# ---- the search, pure


@pytest.mark.parametrize("threshold", [32, 33, 40, 47, 48, 55, 62, 63])
def test_an_integer_boundary_is_found_exactly_in_log2_runs(threshold):
    test = Above(threshold)
    b = narrow("batch", 32, 64, test, SEGV, repeats=1, seeded={32: [PASS], 64: [SEGV]})
    assert (b.passes, b.fails, b.exact, b.target) == (threshold, threshold + 1, True, SEGV)
    assert b.runs == len(test.calls) <= 5  # ceil(log2(64 - 32)) values between, one run each
    assert all(32 < v < 64 for v in test.calls)  # the table's own two are evidence, not run again


def test_a_failure_below_a_threshold_narrows_downwards():
    b = narrow("timeout_s", 20, 2, Above(10, upward=False), SEGV, repeats=1, seeded={20: [PASS], 2: [SEGV]})
    assert (b.passes, b.fails) == (10, 9)


def test_adjacent_listed_values_need_no_run():
    test = Above(48)
    b = narrow("batch", 48, 49, test, SEGV, repeats=1, seeded={48: [PASS], 49: [SEGV]})
    assert (b.passes, b.fails, b.runs, test.calls) == (48, 49, 0, [])


@pytest.mark.parametrize("seed", range(5))
def test_a_flaky_failure_still_gives_the_exact_boundary(seed):
    # fails half the time above 48: a value is believed to pass only after n clean runs
    test = Above(48, p=0.5, seed=seed)
    b = narrow("batch", 32, 64, test, SEGV, seeded={32: [PASS], 64: [SEGV]})
    assert (b.passes, b.fails) == (48, 49)
    assert b.repeats > 3 and not b.repeats_given  # estimated from the rate, not trusted from one run
    assert b.of(48).count(PASS) >= b.repeats  # the value said to pass has n clean runs
    assert b.rate is not None and b.rate.failures < b.rate.runs
    assert b.runs == len(test.calls) < 80


def test_floats_narrow_to_a_tolerance_with_short_midpoints():
    test = Above(0.237)
    b = narrow("lr", 0.1, 0.5, test, SEGV, integer=False, repeats=1, seeded={0.1: [PASS], 0.5: [SEGV]})
    assert b.passes <= 0.237 < b.fails and b.fails - b.passes <= b.tolerance == pytest.approx(0.004)
    assert b.exact and len(test.calls) <= 7
    assert all(len(repr(v)) <= 7 for v in test.calls), test.calls  # 0.3, 0.2, 0.25, not 0.30000000000000004
    assert midpoint(0.1, 0.5, integer=False) == 0.3 and midpoint(32, 64, integer=True) == 48


def test_the_listed_passing_value_failing_on_a_top_up_is_no_boundary():
    # every value above 32 fails, and 32 itself fails when run again: its one pass in the table was luck
    b = narrow("batch", 32, 64, lambda v: SEGV, SEGV, repeats=3, seeded={32: [PASS], 64: [SEGV]})
    assert not b.found and (b.passes, b.fails) == (32, 32)
    assert boundary_line(b, SEGV, []) == (
        "batch is not a boundary of crash SIGSEGV: it shows at 32 too, which passed in the table"
    )


def test_a_failing_value_that_no_longer_fails_is_said():
    b = narrow("batch", 32, 64, Above(1000), SEGV, repeats=2)
    assert b.target is None and b.runs == 2
    assert boundary_line(b, SEGV, []) == "batch=64 did not show crash SIGSEGV in 2 runs here"


def test_a_budget_ends_with_the_bracket_so_far():
    b = narrow("batch", 32, 64, Above(48), SEGV, repeats=1, max_runs=2, seeded={64: [SEGV]})
    assert b.partial and b.stop_reason == "max_runs" and not b.exact and b.runs == 2
    assert b.passes <= 48 < b.fails and (b.passes, b.fails) != (32, 64)
    assert boundary_line(b, SEGV, []).startswith("partial (run budget spent): batch=")


def test_ctrl_c_carries_the_bracket_so_far():
    inner = Above(48)

    def test(value):
        if len(inner.calls) == 2:
            raise KeyboardInterrupt
        return inner(value)

    with pytest.raises(BoundaryInterrupted) as stopped:
        narrow("batch", 32, 64, test, SEGV, repeats=1, seeded={64: [SEGV]})
    b = stopped.value.result
    assert b.partial and b.stop_reason == "interrupted" and b.axis == "batch" and b.passes <= 48 < b.fails


def test_jobs_do_not_change_a_deterministic_answer():
    one = narrow("batch", 32, 64, Above(41), SEGV, repeats=3, seeded={32: [PASS] * 3, 64: [SEGV]})
    two = narrow("batch", 32, 64, Above(41), SEGV, repeats=3, jobs=2, seeded={32: [PASS] * 3, 64: [SEGV]})
    assert (one.passes, one.fails) == (two.passes, two.fails) == (41, 42)


def test_another_failure_on_the_way_is_not_the_target():
    def test(value):
        return TIMEOUT if value == 48 else (SEGV if value > 52 else PASS)

    b = narrow("batch", 32, 64, test, SEGV, repeats=1, seeded={64: [SEGV]})
    assert (b.passes, b.fails) == (52, 53)
    assert b.of(48) == (TIMEOUT,)


# ---- which axis orders a failure, from a table


def rows(table):
    """{(batch, workers): [outcome, ...]} -> results.csv-like rows with typed values."""
    out = []
    for (batch, workers), outcomes in table.items():
        for o in outcomes:
            out.append({"batch": batch, "workers": workers, "outcome": o, "signal": "SIGSEGV" if o == "crash" else ""})
    return out


AXES = {"batch": [16, 32, 64, 128], "workers": [0, 2]}


def test_a_failure_at_high_values_on_every_line_is_ordered():
    table = {(b, w): ["crash" if b >= 64 else "pass"] for b in AXES["batch"] for w in AXES["workers"]}
    line, disorders = ordered_line(rows(table), AXES, SEGV, prefer={"batch": 64, "workers": 2}, only=["batch"])
    assert disorders == [] and line is not None
    assert (line.axis, line.passes, line.fails, line.held, line.upward, line.integer) == (
        "batch",
        32,
        64,
        {"workers": 2},
        True,
        True,
    )
    assert line.values(48, ["batch", "workers"]) == {"batch": 48, "workers": 2}


def test_the_failing_cells_own_line_is_narrowed_where_it_steps():
    # only with 2 workers does batch matter; the line held is the one that steps
    table = {(b, w): ["crash" if b >= 64 and w == 2 else "pass"] for b in AXES["batch"] for w in AXES["workers"]}
    line, _ = ordered_line(rows(table), AXES, SEGV, prefer={"batch": 128, "workers": 0}, only=["batch"])
    assert line is not None and line.held == {"workers": 2}


def test_a_passing_value_above_a_failing_one_is_no_boundary():
    table = {(b, 0): ["crash" if b == 64 else "pass"] for b in AXES["batch"]}
    line, disorders = ordered_line(rows(table), AXES, SEGV, only=["batch"])
    assert line is None
    assert [d.said() for d in disorders] == ["batch is not a boundary: batch=64 fails but batch=128 passes (workers=0)"]


def test_lines_that_disagree_on_the_side_are_no_boundary():
    table = {(b, w): ["crash" if (b >= 64) == (w == 2) else "pass"] for b in AXES["batch"] for w in AXES["workers"]}
    line, disorders = ordered_line(rows(table), AXES, SEGV, only=["batch"])
    assert line is None and "high values on one line and at low values on another" in disorders[0].said()


def test_a_flaky_value_counts_as_failing_and_other_failures_say_nothing():
    table = {(16, 0): ["pass"], (32, 0): ["timeout"], (64, 0): ["pass", "crash"], (128, 0): ["crash"]}
    line, disorders = ordered_line(rows(table), AXES, SEGV, only=["batch"])
    assert disorders == [] and line is not None and (line.passes, line.fails) == (16, 64)


def test_two_values_are_an_order_only_where_the_user_names_the_axis():
    # kill_rank [-1, 1]: a rank, not a size; two values passing and failing say nothing of an order
    table = [{"kill_rank": -1, "outcome": "pass"}, {"kill_rank": 1, "outcome": "crash", "signal": "SIGSEGV"}]
    assert ordered_line(table, {"kill_rank": [-1, 1]}, SEGV, only=["kill_rank"]) == (None, [])
    line, _ = ordered_line(table, {"kill_rank": [-1, 1]}, SEGV, only=["kill_rank"], least=2)
    assert line is not None and (line.passes, line.fails) == (-1, 1)


def test_only_numbers_make_an_ordered_axis():
    assert is_numeric_axis([16, 32]) and is_numeric_axis([0.1, 1])
    assert not is_numeric_axis([False, True]) and not is_numeric_axis(["32", "16-mixed"])
    assert not is_numeric_axis([4]) and not is_numeric_axis([4, 4.0])


# ---- memory: scale and fit


def test_gpu_memory_per_unit_and_the_value_that_fits_a_budget():
    """A written table (no GPU on this machine): peak_gpu_mb 400 MB + 288 MB per unit of batch, as torch's
    max_memory_allocated would give; the crashed value has no figure."""
    table = [
        {"batch": "16", "outcome": "pass", "peak_gpu_mb": "5008", "peak_rss_mb": "900"},
        {"batch": "32", "outcome": "pass", "peak_gpu_mb": "9616", "peak_rss_mb": "905"},
        {"batch": "40", "outcome": "pass", "peak_gpu_mb": "11920", "peak_rss_mb": "903"},
        {"batch": "41", "outcome": "crash", "signal": "SIGSEGV", "peak_gpu_mb": "", "peak_rss_mb": ""},
    ]
    gpu = scale_of(table, "batch", "gpu_mb", integer=True)
    assert gpu is not None and gpu.mb_per_unit == pytest.approx(288) and gpu.base_mb == pytest.approx(400)
    assert gpu.largest_fitting(12288, integer=True) == 41  # (12288 - 400) / 288 = 41.3
    assert gpu.largest_fitting(300, integer=True) is None  # not even batch 0
    (line,) = memory_lines("batch", [gpu], {"gpu_mb": 12288}, integer=True)
    assert line == (
        "peak GPU memory grows 288 MB per unit of batch (16: 4.9 GB, 32: 9.4 GB, 40: 11.6 GB);"
        " batch ≤ 41 fits in 12 GB of GPU memory at this memory per unit"
    )
    rss = scale_of(table, "batch", "rss_mb", integer=True)
    assert rss is not None and abs(rss.mb_per_unit) < 0.5  # RAM does not follow batch here
    assert memory_lines("batch", [], {"rss_mb": 100}, True) == ["--fit-rss-mb: peak RSS was not measured at two values"]


def test_megabytes_are_said_in_the_larger_unit():
    assert [megabytes(m) for m in (68.2, 1024, 12288, 1536)] == ["68 MB", "1 GB", "12 GB", "1.5 GB"]


# ---- a real program under bisect RUN

APP = """\
import ctypes, sys
args = dict(a.split("=", 1) for a in sys.argv[1:])
batch = int(args["batch"])
held = bytearray(batch * 2**20)  # one MB per unit of batch, each page touched
for i in range(0, len(held), 4096):
    held[i] = 1
if batch > 48:
    ctypes.string_at(0)  # a NULL read: SIGSEGV
"""
MATRIX = """\
name: batchy
command: [python, app.py]
inject: true
axes:
  batch: [16, 32, 64, 128]
timeout: 60
"""


@pytest.fixture(scope="module")
def bisected(tmp_path_factory):
    """The truth, the program run alone: `python app.py batch=48` exits 0 and `batch=49` dies of SIGSEGV
    (exit 139 under a shell), as every batch above 48 does; its RSS grows 1 MB per unit of batch (inject
    measures peak_rss_mb at exit, so a crashed run has none). The matrix lists neither 48 nor 49."""
    tmp = tmp_path_factory.mktemp("boundary")
    (tmp / "app.py").write_text(APP)
    (tmp / "m.yaml").write_text(MATRIX)
    run = crashmatrix("run", "m.yaml", "--out", "run", "--jobs", "2", cwd=tmp)
    assert run.returncode == 0, run.stderr
    proc = crashmatrix("bisect", "run", "--repeats", "1", "--fit-rss-mb", "60", "--out", "b", cwd=tmp)
    return tmp, proc


@pytest.mark.slow
def test_bisect_run_finds_the_unlisted_boundary_of_a_real_crash(bisected):
    tmp, proc = bisected
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp / "b" / "bisect.json").read_text())
    b = data["boundary"]
    assert (b["axis"], b["passes"], b["fails"], b["outcome"], b["signal"]) == ("batch", 48, 49, "crash", "SIGSEGV")
    assert (data["good"], data["bad"], data["minimal"]) == ({"batch": "48"}, {"batch": "49"}, {"batch": "49"})
    assert b["exact"] and b["listed"] == [32, 64]
    # one run per value tried, each a real cell of the bisect's results.csv: 48, 56, 52, 50, 49
    tried = [r["batch"] for r in rows_of(tmp / "b")]
    assert data["runs"] == b["runs"] == len(tried) <= 8 and {"48", "49"} <= set(tried)
    assert "batch=48 passes, batch=49 fails: crash SIGSEGV" in proc.stdout
    assert f"in {len(tried)} runs" in proc.stdout


@pytest.mark.slow
def test_bisect_run_says_how_memory_scales_and_what_fits(bisected):
    tmp, proc = bisected
    b = json.loads((tmp / "b" / "bisect.json").read_text())["boundary"]
    assert b["mb_per_unit"]["rss_mb"] == pytest.approx(1.0, rel=0.15)
    assert set(b["memory"]["rss_mb"]) >= {"16", "32", "48"} and "49" not in b["memory"]["rss_mb"]
    # 60 MB of RAM at about 1 MB a unit over the interpreter's own: a batch in the forties
    largest = b["fit"]["rss_mb"]["largest"]
    assert 30 <= largest < 60 and b["fit"]["rss_mb"]["budget_mb"] == 60
    assert f"batch ≤ {largest} fits in 60 MB of RAM" in proc.stdout
    assert "peak RSS" in proc.stdout and "MB at 48" in proc.stdout


@pytest.mark.slow
def test_two_listed_values_narrow_only_under_axis(bisected):
    # an override that keeps two of the values: another experiment (the rows are not counted), and two
    # values alone are no order: delta debugging, unless --axis names the axis
    tmp, _ = bisected
    two = "axes.batch=[32,64]"
    plain = crashmatrix("bisect", "run", two, "--repeats", "1", "--out", "dd", cwd=tmp)
    assert plain.returncode == 0, plain.stderr
    assert "boundary" not in json.loads((tmp / "dd" / "bisect.json").read_text())
    named = crashmatrix("bisect", "run", two, "--axis", "batch", "--repeats", "1", "--out", "ax", cwd=tmp)
    assert named.returncode == 0, named.stderr
    b = json.loads((tmp / "ax" / "bisect.json").read_text())["boundary"]
    assert (b["passes"], b["fails"], b["counted_from_run"]) == (48, 49, 0)
    assert b["runs"] == 6  # batch=64 once (the rows are not counted), then 48, 56, 52, 50, 49
    assert "its rows are not counted" in named.stdout


@pytest.mark.slow
def test_bisect_boundary_options_bad_input(bisected):
    tmp, _ = bisected
    for args, fragment in (
        (["run", "--fit-rss-mb", "0"], "--fit-rss-mb: expected a number of MB above 0"),
        (["run", "--fit-gpu-mb", "inf"], "--fit-gpu-mb: expected a number of MB above 0, got inf"),
        (["m.yaml", "--bad", "batch=64", "--fit-gpu-mb", "100"], "goes with bisect RUN"),
        (["m.yaml", "--bad", "batch=64", "--axis", "batch"], "goes with bisect RUN"),
        (["run", "--axis", "colour"], "--axis colour: not an axis"),
        (["run", "--axis", "batch", "axes.batch=[a,b]"], "axes.batch [a, b] are not two or more numbers"),
    ):
        proc = crashmatrix("bisect", *args, cwd=tmp)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert fragment in proc.stderr and "Traceback" not in proc.stderr


def test_boundary_detail_says_where_it_started_and_how_flaky_it_is():
    b = narrow("batch", 32, 64, Above(48), SEGV, repeats=1, seeded={32: [PASS], 64: [SEGV]})
    assert boundary_detail(b, "workers=2") == (
        "narrowed from the listed 32 and 64 (workers=2 held) in 5 runs (and 2 of the table counted);"
        " repeats=1: each value run once (a flaky failure can make the answer wrong)"
    )
