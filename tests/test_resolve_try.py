"""`crashmatrix resolve RUN --try` (issue 50): a slow finding's change that the run never measured, run for real.

End to end on tests/apps/template_app/slow.yaml: the Hydra + Lightning template app with 1 DataLoader worker
that does not persist, 3 epochs, no validation (fewer processes), under fork and spawn, one run a cell. spawn's
cell is slow, because each epoch spawns a fresh worker that imports Lightning; fork is measured in the run,
persistent_workers=true is not (an estimate). `resolve --try` runs the slow cell again and with
persistent_workers=true, into RUN/tried/, and says the ratio. One run and one --try, shared by every live
assert; what a change that lost or failed says, and which changes reach the program, are pure tests below.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest
from conftest import ROOT, crashmatrix, rows_of

from crashmatrix.resolve import tried

MATRIX = f"{ROOT}/tests/apps/template_app/slow.yaml"
TRIED = re.compile(
    r"persistent_workers=true: (\S+) s against (\S+) s, (\d+\.\d)× (faster|slower) \(measured by --try, 1 run each\)"
)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    where = tmp_path_factory.mktemp("try")
    done = crashmatrix("run", MATRIX, "--out", "run", "--jobs", "2", cwd=where, timeout=600)
    assert done.returncode == 0, done.stderr
    assert [r["outcome"] for r in rows_of(where / "run")] == ["pass"] * 2, rows_of(where / "run")
    before = (where / "run" / "results.csv").read_text()
    tried = crashmatrix("resolve", "run", "--try", cwd=where, timeout=600)
    assert tried.returncode == 0, tried.stdout + tried.stderr
    assert (where / "run" / "results.csv").read_text() == before  # the run's own rows are left as they were
    return where, tried.stdout


def _avoid(stdout: str) -> str:
    (line,) = [x for x in stdout.splitlines() if x.startswith("avoid: ")] or [stdout]
    return line


@pytest.mark.slow
def test_try_runs_the_slow_cell_and_persistent_workers_and_says_the_ratio(run):
    where, stdout = run
    line = _avoid(stdout)
    assert line.startswith("avoid: start_method=spawn"), line
    (slow,) = json.loads((where / "run" / "resolution.json").read_text())["avoid"]
    because = (
        r"because 3 spawned workers started \(1 per pass, 3 passes: not persistent\), each \S+ s to its first batch, "
        r"\S+ s of it importing pytorch_lightning"
    )
    assert re.match(because, slow["why"]["text"]), slow["why"]["text"]
    said = TRIED.search(line)
    assert said, line
    kept_s, slow_s, ratio, how = float(said[1]), float(said[2]), float(said[3]), said[4]
    # a persistent worker starts once, not 3 times: faster, by the ratio of the two wall times it gives
    assert how == "faster" and kept_s < slow_s and ratio == pytest.approx(slow_s / kept_s, abs=0.06 + 0.1 * ratio)
    # fork was a cell of the run: measured there, not tried again
    assert re.search(r"; or start_method=fork: \S+ s against \S+ s \(measured, 1 run\)", line), line
    # the progress lines of the two cells it ran, through the engine
    progress = [x for x in stdout.splitlines() if "tried: " in x]
    assert len(progress) == 2 and all(re.match(r"\[ *\d+\] pass ", x) for x in progress), stdout

    rows = rows_of(where / "run" / "tried")
    assert sorted(r["persistent_workers"] for r in rows) == ["false", "true"]
    assert {r["start_method"] for r in rows} == {"spawn"} and {r["outcome"] for r in rows} == {"pass"}


@pytest.mark.slow
def test_the_measurement_stays_in_resolution_json_and_md_when_resolve_runs_again(run):
    where, _ = run
    again = crashmatrix("resolve", "run", cwd=where)
    assert again.returncode == 0, again.stderr
    assert TRIED.search(_avoid(again.stdout)), again.stdout
    data = json.loads((where / "run" / "resolution.json").read_text())
    (tried,) = data["tried"]
    assert tried["conditions"] == {"start_method": "spawn"} and tried["values"] == {"persistent_workers": "true"}
    assert tried["runs"] == 1 and tried["dir"] == "tried" and tried["ratio"] > 1
    assert TRIED.search((where / "run" / "resolution.md").read_text())

    # a second --try measures nothing again: it says where the first one's figures are
    twice = crashmatrix("resolve", "run", "--try", cwd=where)
    assert twice.returncode == 0 and "holds what --try measured before" in twice.stdout, twice.stdout
    assert len(rows_of(where / "run" / "tried")) == 2


@pytest.mark.slow
def test_nothing_to_try_is_bad_input_in_one_line(run, tmp_path):
    where, _ = run
    fast = tmp_path / "fast"
    fast.mkdir()
    shutil.copy(where / "run" / "matrix.yaml", fast / "matrix.yaml")
    lines = (where / "run" / "results.csv").read_text().splitlines()
    (fast / "results.csv").write_text("\n".join([lines[0], *[x for x in lines[1:] if ",fork," in x]]) + "\n")
    done = crashmatrix("resolve", str(fast), "--try", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().endswith("--try: nothing to try (no slow finding with a change the run did not measure)")
    assert not (fast / "tried").exists()


# --------------------------------------------------------------------------- pure


def test_a_change_that_lost_or_failed_says_so():
    base = dict(conditions=(("start_method", "spawn"),), values=(("num_workers", "2"),), against_s=10.0, runs=1)
    assert tried.Tried(duration_s=20.0, outcome="pass", **base).text() == (
        "num_workers=2: 20 s against 10 s, 2.0× slower (measured by --try, 1 run each)"
    )
    assert tried.Tried(duration_s=None, outcome="crash", **base).text() == (
        "num_workers=2: tried, and it did not pass (crash)"
    )


def test_a_change_is_tried_only_where_it_reaches_the_program():
    assert tried.reaches({"inject": True}, "persistent_workers")  # a knob applied from outside
    assert tried.reaches({"probe": "train"}, "persistent_workers")  # a probe's parameter
    assert tried.reaches({"axes": {"loader.persistent": [False]}}, "loader.persistent")  # the program's own axis
    assert not tried.reaches({"command": ["python", "train.py"]}, "persistent_workers")  # an unknown key to it
