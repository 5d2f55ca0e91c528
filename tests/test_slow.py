"""Slow cells explained (issue 38, item 1): the conjunction whose passing runs are several times slower than
every other cell's, beyond the noise of repeats, and where the time goes; in explain (text and --json),
summary.md, report.html's grid, JUnit and resolve.

End to end, real processes: tests/apps/slow_import.py, whose main module takes three seconds to import, under
inject with DataLoader workers that do not persist, 3 epochs (spawn pays its start-up in every one: the
slowdown stands above the noise of a box that runs the suite beside it); start_method x num_workers, 2
repeats, one run shared by every assert (the speed columns' own test too: spawned workers rated
slower than forked ones, and first_batch_s saying why). The rest are pure tables: the issue's own case, a real
H200 run, and the edge cases (no repeats, noise, all equally slow, a failing cell among them).

`resolve RUN --try` (issue 50) on a copy of the same run: the slow cell's change the run never measured
(persistent_workers=true: an estimate) run for real into RUN/tried/, with the ratio it measured. It ran on the
Hydra + Lightning template app's slow.yaml before (tests/test_resolve_try.py): 11 processes importing Lightning,
about 55 CPU-s of a suite bound by its 2 cores, for the rule this app shows as well (3 spawned workers, one per
pass; the import named is torch's here, Lightning's in test_slow_why.py's pure tables).
"""

from __future__ import annotations

import csv
import json
import re
import shlex
import shutil
import xml.etree.ElementTree as ET

import pytest
from conftest import ROOT, crashmatrix, rows_of
from test_speed import SPEED_HEADERS, by_axis_row, panel_bars

from crashmatrix.answers import explain
from crashmatrix.answers.slow import FIRST_BATCHES, START_UP, STEADY, find_slow

# Run alone first (tests/apps/slow_import.py's docstring has the figures): spawn with workers pays a
# fresh interpreter's import of torch and of the slow main module in every epoch; nothing else does.
MATRIX = f"""\
name: slow-import
command: [python, {ROOT}/tests/apps/slow_import.py]
inject: true
params:
  epochs: 3
axes:
  start_method: [fork, spawn]
  num_workers: [0, 1]
repeats: 2
timeout: 300
"""
SLOW_WHEN = "start_method=spawn and num_workers=1"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    where = tmp_path_factory.mktemp("slow")
    (where / "m.yaml").write_text(MATRIX)
    done = crashmatrix("run", "m.yaml", "--out", "run", "--jobs", "2", cwd=where, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = rows_of(where / "run")
    assert [r["outcome"] for r in rows] == ["pass"] * 8, [r["error"] for r in rows]
    return where


def _slow_line(text: str) -> str:
    lines = [line for line in text.splitlines() if "slow: " in line]
    assert len(lines) == 1, text
    return lines[0]


@pytest.mark.slow
def test_explain_names_spawn_with_workers_as_slow_with_its_ratio_and_first_batches(run):
    told = crashmatrix("explain", "run", cwd=run)
    assert told.returncode == 0, told.stderr
    lines = told.stdout.splitlines()
    assert lines[0] == "no failing cells"
    assert "Findings beyond failure:" in lines
    line = _slow_line(told.stdout)
    assert re.match(
        rf"slow: \d+\.\d× the median wall time when {SLOW_WHEN} \(2 of 2 runs, each slower than every other run; ", line
    ), line
    assert "; first batches " in line, line

    entries = json.loads(crashmatrix("explain", "run", "--json", cwd=run).stdout)
    (entry,) = entries  # no failure entry: nothing failed
    assert entry["finding"] == "slow" and "outcome" not in entry
    assert entry["conditions"] == {"start_method": "spawn", "num_workers": "1"}
    assert entry["ratio"] >= 2 and entry["sure"] and entry["runs_per_cell"] == 2
    assert entry["where"] == FIRST_BATCHES
    assert entry["ratio"] > entry["noise"] and entry["margin_s"] > 0  # beyond the noise of the repeats
    assert entry["text"] == line


@pytest.mark.slow
def test_summary_and_report_html_say_it_and_the_grid_marks_the_square(run):
    summary = (run / "run" / "summary.md").read_text()
    section = summary.split("## Findings beyond failure", 1)[1]
    assert f"when {SLOW_WHEN}" in _slow_line(section)

    html = (run / "run" / "report.html").read_text()
    assert "<h2>Findings beyond failure</h2>" in html
    # The grid shows the conjunction's two axes (no failure rate varies, so the tie goes to them) and
    # dashes the one square that holds the slow cells.
    assert "start_method \\ num_workers" in html
    squares = {
        row: re.findall(r'<td class="([^"]+)"', cells)
        for row, cells in re.findall(r"<tr><th>(fork|spawn)</th>(.*?)</tr>", html)
    }
    assert squares == {"fork": ["o", "o"], "spawn": ["o", "o slow"]}, squares
    assert f"Dashed: the slow cells, {SLOW_WHEN}" in html


@pytest.mark.slow
def test_junit_keeps_slow_runs_passed_with_a_property(run):
    xml = crashmatrix("report", "run", "--format", "junit", cwd=run)
    suite = ET.fromstring(xml.stdout).find("testsuite")
    assert suite is not None and suite.get("failures") == "0"
    marked = {}
    for case in suite.iter("testcase"):
        assert case.find("failure") is None
        props = [p.get("value") for p in case.iter("property") if p.get("name") == "crashmatrix.slow"]
        marked[case.get("name")] = props
    slow = [name for name, props in marked.items() if props]
    assert len(slow) == 2 and all("start_method=spawn num_workers=1" in name for name in slow), marked
    assert all(p[0].startswith("slow: ") for p in marked.values() if p)


@pytest.mark.slow
def test_resolve_says_what_to_avoid_and_what_it_costs(run):
    done = crashmatrix("resolve", "run", cwd=run)
    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("avoid: ")]
    assert re.match(
        rf"avoid: {SLOW_WHEN}: \d+\.\d× the time \(first batches \d+(?:\.\d)? s of its \d+(?:\.\d)? s; 2 of 2 runs\)",
        line,
    )
    note = (run / "run" / "resolution.md").read_text()
    assert "## What to avoid" in note
    data = json.loads((run / "run" / "resolution.json").read_text())
    assert [a["conditions"] for a in data["avoid"]] == [{"start_method": "spawn", "num_workers": "1"}]
    assert "spawn" not in json.dumps(data["recommended"]["values"]) or data["recommended"]["values"]["num_workers"] == 0


@pytest.mark.slow
def test_the_speed_columns_rate_spawned_workers_slower_than_forked_and_first_batch_shows_why(run):
    rows = [r for r in rows_of(run / "run") if r["num_workers"] == "1"]
    by = {(r["start_method"], r["repeat"]): r for r in rows}
    for repeat in ("0", "1"):
        fork, spawn = by[("fork", repeat)], by[("spawn", repeat)]
        assert fork["steps"] == spawn["steps"] == "24"  # 3 epochs of 8 batches
        # The wall clock, the rate and the first batch all agree: spawn is the slow one.
        assert float(spawn["duration_s"]) > float(fork["duration_s"]), (fork, spawn)
        assert float(spawn["steps_per_s"]) < float(fork["steps_per_s"]), (fork, spawn)
        # Why: a spawned worker is a new interpreter that imports torch (and the slow main module) before
        # its first batch; a forked one has them already.
        assert float(spawn["first_batch_s"]) > 3 * float(fork["first_batch_s"]), (fork, spawn)

    # The per-axis table ranks them the same way: longer wall, longer first batch. (Not steps/s: each value's
    # median there mixes cells without workers, whose rates vary more on a busy box than spawn costs them.)
    summary = (run / "run" / "summary.md").read_text()
    header = next(line for line in summary.splitlines() if line.startswith("| axis"))
    assert [c.strip() for c in header.strip("|").split("|")][5:] == SPEED_HEADERS
    f_row, s_row = by_axis_row(summary, "fork"), by_axis_row(summary, "spawn")
    assert float(s_row[5]) > float(f_row[5]) and float(s_row[6]) > float(f_row[6])

    # And the chart in report.html draws it: a longer first-batch bar for spawn than for fork.
    html = (run / "run" / "report.html").read_text()
    assert "Time and speed by axis value" in html and "<script" not in html
    bars = panel_bars(html, "first batch s")
    assert bars["spawn"] > bars["fork"], bars


# ------------------------------------------------------------------ the finder on tables of rows

AXES = ["start_method", "num_workers", "pin_memory", "precision"]


def _row(values: tuple, wall: float, repeat: int = 0, outcome: str = "pass", **speed) -> dict:
    row = dict(zip(AXES, values), cell_id="-".join(values), repeat=str(repeat), outcome=outcome)
    row["duration_s"] = str(wall)
    row.update({k: str(v) for k, v in speed.items()})
    return row


def _found(rows: list[dict], run: str | None = None) -> list:
    return find_slow(rows, AXES, explain.explain, run=run)


def test_the_issues_case_names_spawn_with_workers_not_spawn_and_not_pin_memory():
    # issue 38: 7 pairwise cells on an H200, one run each; spawn with 2 workers took 111 s, 86 s of it
    # waiting for first batches at 0.22 steps/s; every other cell about 21 s at about 20 steps/s. Three of
    # spawn's four cells have no workers, so spawn's median is 21.7 s.
    fast = dict(steps=24, steps_per_s=20, first_batch_total_s=0.1)
    rows = [
        _row(("fork", "0", "false", "32"), 21.0, **fast),
        _row(("fork", "2", "true", "16-mixed"), 20.5, **fast),
        _row(("forkserver", "2", "false", "16-mixed"), 21.9, **fast),
        _row(("forkserver", "0", "true", "bf16-mixed"), 20.8, **fast),
        _row(("spawn", "0", "true", "32"), 21.7, **fast),
        _row(("spawn", "0", "false", "16-mixed"), 22.1, **fast),
        _row(("spawn", "0", "true", "bf16-mixed"), 21.4, **fast),
        _row(("spawn", "2", "false", "32"), 111.0, steps=24, steps_per_s=0.22, first_batch_total_s=86.0),
    ]
    (slow,) = _found(rows)
    assert slow.conditions == (("start_method", "spawn"), ("num_workers", "2"))
    # Pairwise leaves a choice, and the line says so: the one slow cell is also the one with workers at 32.
    assert slow.alternatives == ((("num_workers", "2"), ("precision", "32")),)
    assert slow.sure and slow.noise is None  # 5.2×: beyond what one run a cell can blur
    assert slow.text().startswith(
        "slow: 5.2× the median wall time when start_method=spawn and num_workers=2 (1 of 1 runs; "
        "1 run a cell, noise not measured); first batches 86 s of its 111 s"
    ), slow.text()


def _reference(name: str) -> tuple[list[dict], list[str]]:
    """A real run's rows and axes, committed under results/reference/."""
    with open(f"{ROOT}/results/reference/{name}/results.csv", newline="") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
    fields = list(reader.fieldnames or [])
    return rows, fields[fields.index("repeat") + 1 : fields.index("outcome")]


def test_a_real_h100_run_of_the_template_app_names_spawn_with_workers():
    # results/reference/h100-2026-11-24-template-app: a Hydra + Lightning app on an H100, trainer x
    # start_method x num_workers, one run each: spawn with 2 workers 134 s and 145 s, every other cell
    # 23 s to 28 s. Its rows predate the speed columns: where the time went is not told.
    rows, axes = _reference("h100-2026-11-24-template-app")
    (slow,) = find_slow(rows, axes, explain.explain)
    assert slow.conditions == (("start_method", "spawn"), ("num_workers", "2"))
    assert slow.text() == (
        "slow: 5.5× the median wall time when start_method=spawn and num_workers=2 (2 of 2 runs; "
        "1 run a cell, noise not measured)"
    )


def test_a_real_h100_run_without_a_cliff_claims_nothing():
    # results/reference/h100-2026-11-22: 9 pairwise cells, all passing, 11 s to 30 s by steps of at most 1.5×.
    rows, axes = _reference("h100-2026-11-22")
    assert find_slow(rows, axes, explain.explain) == []


def test_one_run_a_cell_and_a_modest_gap_says_what_it_cannot_tell():
    rows = [
        _row(("fork", w, p, "32"), 10.0 + i / 10)
        for i, (w, p) in enumerate([("0", "false"), ("2", "false"), ("2", "true")])
    ]
    rows += [_row(("spawn", "0", "false", "32"), 10.5), _row(("spawn", "2", "false", "32"), 23.0)]
    (slow,) = _found(rows, run="results/my run")
    assert not slow.sure
    assert slow.text() == (
        "slow?: 2.3× the median wall time when start_method=spawn and num_workers=2 (1 of 1 runs); 1 run a cell: "
        "a 2.3× difference could be noise; rerun with repeats=3: `crashmatrix rerun 'results/my run' repeats=3`"
    )


@pytest.mark.parametrize(
    "busy_repeats, slow_repeats, told",
    [
        ((9.0, 14.0), (26.0, 28.0), True),
        # a slow cell's repeat no slower than another cell's: the repeats say it is noise
        ((9.0, 14.0), (12.0, 42.0), False),
        # every slow run apart, but one cell's repeats vary 3.2×, more than the 2.9× slowdown
        ((5.0, 16.0), (26.0, 28.0), False),
    ],
)
def test_repeats_that_vary_as_much_as_the_slowdown_are_noise(busy_repeats, slow_repeats, told):
    rows = []
    for values, walls in [
        (("fork", "0", "false", "32"), (8.0, 9.0)),
        (("fork", "2", "false", "32"), busy_repeats),
        (("spawn", "0", "false", "32"), (9.5, 10.0)),
        (("spawn", "2", "false", "32"), slow_repeats),
    ]:
        rows += [_row(values, w, repeat=r) for r, w in enumerate(walls)]
    found = _found(rows)
    assert bool(found) == told
    if told:
        assert "(2 of 2 runs, each slower than every other run; repeats vary by up to 1.6×)" in found[0].text()


def test_cells_all_equally_slow_are_no_finding():
    rows = [
        _row((m, w, "false", "32"), 40.0 + n, repeat=r)
        for n, (m, w) in enumerate([("fork", "0"), ("fork", "2"), ("spawn", "0"), ("spawn", "2")])
        for r in range(2)
    ]
    assert _found(rows) == []


@pytest.mark.parametrize(
    "walls",
    [
        # one fast configuration among slow ones (forkserver with workers, tests/apps/loader_speed.py):
        # what resolve recommends, not four configurations to avoid
        {("fork", "0"): 7.8, ("spawn", "0"): 7.9, ("spawn", "2"): 6.5, ("forkserver", "2"): 2.5},
        # quick cells, 2.7x apart by half a second: nobody waits on that
        {("fork", "0"): 0.3, ("fork", "2"): 0.31, ("spawn", "0"): 0.3, ("spawn", "2"): 0.8},
    ],
)
def test_a_fast_outlier_or_a_sub_second_gap_is_no_slow_finding(walls):
    rows = [_row((m, w, "false", "32"), wall + r / 100, repeat=r) for (m, w), wall in walls.items() for r in range(2)]
    assert _found(rows) == []


def test_wall_times_that_read_0_000_are_no_division_by_zero():
    # a results.csv row of a program that ended within the millisecond (seen on a loaded box, before the
    # engine took the start time ahead of Popen): tiny fast cells, or one slow cell beside them
    tiny = [_row((m, "0", "false", "32"), 0.0, repeat=r) for m in ("fork", "spawn") for r in range(2)]
    assert _found(tiny + [_row(("fork", "2", "false", "32"), 0.018, repeat=r) for r in range(2)]) == []
    (slow,) = _found(tiny + [_row(("spawn", "2", "false", "32"), 5.0 + r / 10, repeat=r) for r in range(2)])
    assert slow.conditions == (("num_workers", "2"),) and slow.ratio == pytest.approx(5050.0)


def test_a_failing_cell_among_them_is_unknown_not_fast():
    fast = dict(steps=40, steps_per_s=20, first_batch_total_s=0.1)
    rows = []
    for r in range(2):
        rows += [
            _row(("fork", "0", "false", "32"), 10.0 + r, repeat=r, **fast),
            _row(("fork", "2", "false", "32"), 10.5 + r, repeat=r, **fast),
            _row(("spawn", "0", "false", "32"), 11.0 + r, repeat=r, **fast),
            _row(("spawn", "2", "false", "32"), 40.0 + r, repeat=r, steps=40, steps_per_s=1.5, first_batch_total_s=20),
            _row(("spawn", "2", "true", "32"), 3.0, repeat=r, outcome="crash", signal="SIGSEGV"),
        ]
    (slow,) = _found(rows)
    assert slow.conditions == (("start_method", "spawn"), ("num_workers", "2"))
    assert (slow.slow_runs, slow.runs) == (2, 4)  # the crashed cell's runs count, as runs that told nothing
    assert slow.where == FIRST_BATCHES and "(2 of 4 runs, " in slow.text()
    assert [p.outcome for p in explain.explain(rows, AXES)] == ["crash"]  # the failure stays explain's own


@pytest.mark.parametrize(
    "speed, where, said",
    [
        # 40 steps at 1 step/s: the passes take 40 s, their first batches 1 s: the steady steps
        (
            dict(steps=40, steps_per_s=1.0, first_batch_total_s=1.0),
            STEADY,
            "steady steps 39 s of its 45 s (1 steps/s against 20)",
        ),
        # 40 steps at 20 steps/s: 2 s of passes in a 45 s run: the time went before or after them
        (dict(steps=40, steps_per_s=20.0, first_batch_total_s=0.1), START_UP, "start-up 43 s of its 45 s"),
    ],
)
def test_where_the_time_goes(speed, where, said):
    fast = dict(steps=40, steps_per_s=20, first_batch_total_s=0.1)
    rows = []
    for r in range(2):
        rows += [_row(("fork", w, "false", "32"), 10.0 + r / 2, repeat=r, **fast) for w in ("0", "2")]
        rows += [_row(("spawn", "0", "false", "32"), 10.2, repeat=r, **fast)]
        rows += [_row(("spawn", "2", "false", "32"), 45.0, repeat=r, **speed)]
    (slow,) = _found(rows)
    assert slow.where == where and slow.text().endswith(said), slow.text()


@pytest.mark.slow
def test_explain_json_lists_failures_first_then_findings(tmp_path):
    rows = []
    for r in range(2):
        rows += [
            _row(("fork", "0", "false", "32"), 10.0 + r, repeat=r),
            _row(("fork", "2", "false", "32"), 10.5, repeat=r),
            _row(("spawn", "0", "false", "32"), 11.0, repeat=r),
            _row(("spawn", "2", "false", "32"), 40.0 + r, repeat=r),
            _row(("spawn", "2", "true", "32"), 3.0, repeat=r, outcome="crash", signal="SIGSEGV"),
        ]
    with open(tmp_path / "results.csv", "w", newline="") as f:
        writer = csv.DictWriter(
            f, ["cell_id", "repeat", *AXES, "outcome", "signal", "exit_code", "error", "duration_s", "host", "log_dir"]
        )
        writer.writeheader()
        writer.writerows({k: row.get(k, "") for k in writer.fieldnames} for row in rows)
    entries = json.loads(crashmatrix("explain", "results.csv", "--json", cwd=tmp_path).stdout)
    assert [e.get("outcome") for e in entries] == ["crash", None]
    assert entries[1]["finding"] == "slow" and entries[1]["where"] is None  # no speed columns: not told


@pytest.mark.slow
def test_the_rerun_it_advises_runs_as_printed(tmp_path, write):
    # A real run of two quick cells, one run each; its table then says what a busy machine could have
    # said (b=1 2.5× slower), and the command explain prints for that runs, as printed.
    write("quick.py", "print('ok')\n")
    write("m.yaml", "name: quick\ncommand: [python, quick.py]\naxes:\n  b: [0, 1]\n")
    assert crashmatrix("run", "m.yaml", "--out", "results/q", cwd=tmp_path).returncode == 0
    path = tmp_path / "results" / "q" / "results.csv"
    rows = rows_of(tmp_path / "results" / "q")
    for row in rows:
        row["duration_s"] = "2.5" if row["b"] == "1" else "1.0"
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    told = crashmatrix("explain", "results/q", cwd=tmp_path)
    (command,) = re.findall(r"`(crashmatrix rerun [^`]+)`", told.stdout)
    again = crashmatrix(*shlex.split(command)[1:], cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    (new,) = [d for d in (tmp_path / "results").iterdir() if d.name != "q"]
    assert len(rows_of(new)) == 6  # 2 cells, 3 runs each


# ------------------------------------------------------------------ why (issue 50), on the same run


@pytest.mark.slow
def test_the_finding_says_why_in_the_programs_terms_and_resolve_what_removes_it(run):
    # spawn with 1 worker that does not persist, 3 epochs: 3 fresh interpreters, each importing torch (and the
    # 3 s main module) before its first batch; the fork cells of the same run are the measured alternative
    line = _slow_line(crashmatrix("explain", "run", cwd=run).stdout)
    because = re.search(
        r"; because 3 spawned workers started \(1 per pass, 3 passes: not persistent\), each (\S+) s to its first "
        r"batch, (\S+) s of it importing torch$",
        line,
    )
    assert because, line
    each, importing = float(because.group(1)), float(because.group(2))
    assert each > 3.0 and 0.3 < importing < each, line  # the slow main module's 3 s are not an import

    (entry,) = json.loads(crashmatrix("explain", "run", "--json", cwd=run).stdout)
    why = entry["why"]
    assert why["cause"] == "worker starts" and why["methods"] == ["spawn"] and why["imports_named"] == ["torch"]
    remedies = {tuple(r["values"].items()): r for r in why["remedies"]}
    # persistent_workers is not an axis here: estimated (the wall time less the restarts' waits); fork measured
    kept, fork = remedies[(("persistent_workers", "true"),)], remedies[(("start_method", "fork"),)]
    assert not kept["measured"] and kept["duration_s"] < why["slow_s"] - each, why
    assert fork["measured"] and fork["runs"] == 2 and fork["duration_s"] < why["slow_s"]

    (line,) = [x for x in crashmatrix("resolve", "run", cwd=run).stdout.splitlines() if x.startswith("avoid: ")]
    assert re.search(
        r"; instead: persistent_workers=true: \S+ s against \S+ s \(estimated\); or start_method=fork: \S+ s "
        r"against \S+ s \(measured, 2 runs\)$",
        line,
    ), line


@pytest.mark.slow  # the shared live run
def test_report_html_draws_the_slow_cells_passes_beside_a_fast_cells(run):
    html = (run / "run" / "report.html").read_text()
    section = html.split("<h3>Loader passes: the slow cell beside a fast one</h3>", 1)[1].split("</div>", 1)[0]
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", section)
    assert len(captions) == 2 and captions[0].startswith("slow: start_method=spawn num_workers=1")
    # the nearest fast cell that starts a worker too: the one change, fork, not the cell with no workers
    assert captions[1].startswith("fast: start_method=fork num_workers=1"), captions
    slow, fast = section.split("<figcaption>fast: ", 1)
    assert slow.count(">pass ") == fast.count(">pass ") == 3  # 3 epochs each, on one time scale
    assert slow.count(">1w</text>") == 3  # each of the slow cell's passes started its worker again


# ------------------------------------------------------------------ resolve --try, on a copy of the shared run

TRIED = re.compile(
    r"persistent_workers=true: (\S+) s against (\S+) s, (\d+\.\d)× (faster|slower) \(measured by --try, 1 run each\)"
)


@pytest.fixture(scope="module")
def tried(run):
    shutil.copytree(run / "run", run / "tried-run")
    before = (run / "tried-run" / "results.csv").read_text()
    done = crashmatrix("resolve", "tried-run", "--try", cwd=run, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (run / "tried-run" / "results.csv").read_text() == before  # the run's own rows are left as they were
    return run / "tried-run", done.stdout


def _avoid(stdout: str) -> str:
    (line,) = [x for x in stdout.splitlines() if x.startswith("avoid: ")] or [stdout]
    return line


@pytest.mark.slow
def test_try_runs_the_slow_cell_and_persistent_workers_and_says_the_ratio(tried):
    where, stdout = tried
    line = _avoid(stdout)
    assert line.startswith(f"avoid: {SLOW_WHEN}"), line
    (slow,) = json.loads((where / "resolution.json").read_text())["avoid"]
    because = (
        r"because 3 spawned workers started \(1 per pass, 3 passes: not persistent\), each \S+ s to its first batch, "
        r"\S+ s of it importing torch"
    )
    assert re.match(because, slow["why"]["text"]), slow["why"]["text"]
    said = TRIED.search(line)
    assert said, line
    kept_s, slow_s, ratio, how = float(said[1]), float(said[2]), float(said[3]), said[4]
    # a persistent worker starts once, not 3 times: faster, by the ratio of the two wall times it gives
    assert how == "faster" and kept_s < slow_s and ratio == pytest.approx(slow_s / kept_s, abs=0.06 + 0.1 * ratio)
    # fork was a cell of the run: measured there, not tried again
    assert re.search(r"; or start_method=fork: \S+ s against \S+ s \(measured, 2 runs\)", line), line
    # the progress lines of the two cells it ran, through the engine
    progress = [x for x in stdout.splitlines() if "tried: " in x]
    assert len(progress) == 2 and all(re.match(r"\[ *\d+\] pass ", x) for x in progress), stdout

    rows = rows_of(where / "tried")
    assert sorted(r["persistent_workers"] for r in rows) == ["false", "true"]
    assert {r["start_method"] for r in rows} == {"spawn"} and {r["outcome"] for r in rows} == {"pass"}


@pytest.mark.slow
def test_the_measurement_stays_in_resolution_json_and_md_when_resolve_runs_again(tried):
    where, _ = tried
    again = crashmatrix("resolve", where.name, cwd=where.parent)
    assert again.returncode == 0, again.stderr
    assert TRIED.search(_avoid(again.stdout)), again.stdout
    data = json.loads((where / "resolution.json").read_text())
    (measured,) = data["tried"]
    assert measured["conditions"] == {"start_method": "spawn", "num_workers": "1"}
    assert measured["values"] == {"persistent_workers": "true"}
    assert measured["runs"] == 1 and measured["dir"] == "tried" and measured["ratio"] > 1
    assert TRIED.search((where / "resolution.md").read_text())

    # a second --try measures nothing again: it says where the first one's figures are
    twice = crashmatrix("resolve", where.name, "--try", cwd=where.parent)
    assert twice.returncode == 0 and "holds what --try measured before" in twice.stdout, twice.stdout
    assert len(rows_of(where / "tried")) == 2


@pytest.mark.slow
def test_nothing_to_try_is_bad_input_in_one_line(run, tmp_path):
    fast = tmp_path / "fast"
    fast.mkdir()
    shutil.copy(run / "run" / "matrix.yaml", fast / "matrix.yaml")
    lines = (run / "run" / "results.csv").read_text().splitlines()
    (fast / "results.csv").write_text("\n".join([lines[0], *[x for x in lines[1:] if ",fork," in x]]) + "\n")
    done = crashmatrix("resolve", str(fast), "--try", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().endswith("--try: nothing to try (no slow finding with a change the run did not measure)")
    assert not (fast / "tried").exists()
