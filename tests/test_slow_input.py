"""A slow cell that waits for its loader (issue 50: a second slow cause, after worker starts): the finding's
because-clause with its measured parts, resolve's estimate of more workers, and `resolve --try`'s measurement.

End to end on tests/apps/slow_reads.py: items from memory or, with source=disk, each from a slow store (a 500 ms
sleep: it costs no CPU and holds on a busy box), read in the main process (num_workers=0, the program's own).
One run a cell, then resolve, then resolve --try (the disk cell again, and with num_workers=2), shared by every
assert. 20 steps (two seconds of reads each) are enough: the disk cell's 38 s of waits stand several times above
the start-up a loaded box stretches in both cells, and half of them, what 2 workers save, above its noise. With
reads of 250 ms a fresh clone's make test once measured the two tried cells alike (28.8 s and 28.5 s): the
workers' loop took 10 s less, and the cell's start and end on the loaded box 10 s more. The estimate's arithmetic
is a pure test below.
"""

from __future__ import annotations

import json
import re

import pytest
from conftest import ROOT, crashmatrix, rows_of

from crashmatrix.answers import slow_why
from crashmatrix.incell import loader_clock

MATRIX = f"""\
name: slow-reads
command: [python, {ROOT}/tests/apps/slow_reads.py]
inject: true
params:
  steps: 20
  read_ms: 500
axes:
  source: [memory, disk]
timeout: 300
"""
BECAUSE = re.compile(
    r"; because the loop waited for its batches (\S+) s of its (\S+) s of steady steps \(input-bound: (\S+) s a "
    r"batch waiting for the loader, (\S+) s of its own work\)$"
)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    where = tmp_path_factory.mktemp("reads")
    (where / "m.yaml").write_text(MATRIX)
    done = crashmatrix("run", "m.yaml", "--out", "run", "--jobs", "2", cwd=where, timeout=600)
    assert done.returncode == 0, done.stderr
    assert [r["outcome"] for r in rows_of(where / "run")] == ["pass"] * 2
    told = crashmatrix("explain", "run", cwd=where)
    estimated = crashmatrix("resolve", "run", cwd=where)
    tried = crashmatrix("resolve", "run", "--try", cwd=where, timeout=600)
    for done in (told, estimated, tried):
        assert done.returncode == 0, done.stdout + done.stderr
    return where, told.stdout, estimated.stdout, tried.stdout


def _line(stdout: str, start: str) -> str:
    (line,) = [x for x in stdout.splitlines() if x.startswith(start)] or [stdout]
    return line


@pytest.mark.slow
def test_the_finding_says_the_loop_waited_for_its_reads(run):
    _, told, _, _ = run
    line = _line(told, "slow")
    assert re.match(r"slow\??: \d+\.\d× the median wall time when source=disk \(1 of 1 runs", line), line
    said = BECAUSE.search(line)
    assert said, line
    waited, steady, per_batch, own = (float(g) for g in said.groups())
    # 19 batches after the first, 4 reads of 500 ms each: about 38 s of waiting, two seconds a batch
    assert 0.9 * 38 <= waited <= steady and per_batch >= 1.8 and own < per_batch, line


@pytest.mark.slow
def test_resolve_estimates_two_workers_and_try_measures_them(run):
    where, _, estimated, tried = run
    before = _line(estimated, "avoid: source=disk")
    guess = re.search(r"; instead: num_workers=2: (\S+) s against (\S+) s \(estimated\)$", before)
    assert guess and float(guess[1]) < float(guess[2]), before
    after = _line(tried, "avoid: source=disk")
    measured = re.search(
        r"; instead: num_workers=2: (\S+) s against (\S+) s, (\d+\.\d)× faster \(measured by --try, 1 run each\)$",
        after,
    )
    assert measured and float(measured[1]) < float(measured[2]), after
    rows = rows_of(where / "run" / "tried")
    assert sorted(r["num_workers"] for r in rows) == ["", "2"] and {r["source"] for r in rows} == {"disk"}
    (entry,) = json.loads((where / "run" / "resolution.json").read_text())["tried"]
    assert entry["values"] == {"num_workers": "2"} and entry["ratio"] > 1


# --------------------------------------------------------------------------- pure


def test_two_workers_are_estimated_to_halve_the_waits_of_none(tmp_path):
    (tmp_path / "a").mkdir()
    loader = {"steady_batches": 39, "wait_s": 39.0, "compute_s": 1.0, "num_workers": 0}
    (tmp_path / "a" / "result.json").write_text(json.dumps({"metrics": {"loader": loader}}))
    row = {"cell_id": "a", "log_dir": "a", "outcome": "pass", "duration_s": "50", "source": "disk"}
    why = slow_why.why("steady steps", [row], [], [row], ["source"], (("source", "disk"),), str(tmp_path))
    assert why is not None and why.cause == slow_why.INPUT_BOUND
    assert [r.text(50.0) for r in why.remedies] == ["num_workers=2: 30 s against 50 s (estimated)"]  # 50 - 39/2


def test_a_clock_keeps_the_most_workers_an_iterator_had():
    class Iterator:
        def __init__(self, workers):
            self._num_workers, self._workers = workers, []

    clock = loader_clock.LoaderClock()
    for workers in (0, 3):
        clock.start()
        clock.tick(Iterator(workers))
    assert loader_clock.loader_figures([clock], {})["num_workers"] == 3
