"""Memory that grows, measured inside the cell (issue 38, item 2).

End to end, real processes: tests/apps/keeps_outputs.py under inject, its truth measured alone and written
in its docstring (1 MiB a step kept by the main process with cache_preds=true; 1 MiB a step kept by the
two loader workers together with worker_cache=true; flat otherwise; SIGKILLed at step 80 with die_at=80).
One run of four cells (--jobs 2) serves every end-to-end assertion. The rest are pure functions on tables.
GPU: torch.cuda.memory_allocated is read only where the program initialised CUDA; there is no GPU here,
so gpu_growth_mb_per_step is asserted empty, and its growth finding is tested on rows only.
"""

from __future__ import annotations

import json
import os
import re
import sys
import types
import xml.etree.ElementTree as ET

import pytest
from conftest import ROOT, crashmatrix, rows_of

from crashmatrix.answers import growth
from crashmatrix.incell import memory_sampler
from crashmatrix.incell.memory_sampler import MemorySampler, figures

MATRIX = f"""\
name: growth
command: [python, {ROOT}/tests/apps/keeps_outputs.py]
inject: true
params:
  steps: 100
env: {{MALLOC_MMAP_THRESHOLD_: "131072"}}   # see the app's docstring: a healthy heap stays flat
axes:
  cache_preds: [false, true]
  worker_cache: [false, true]
  num_workers: [2]
exclude:
  - {{cache_preds: true, worker_cache: true}}
include:
  - {{cache_preds: true, worker_cache: false, num_workers: 0, die_at: 80}}
timeout: 300
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("growth")
    (tmp / "m.yaml").write_text(MATRIX)
    done = crashmatrix("run", tmp / "m.yaml", "--out", tmp / "run", "--jobs", "2", cwd=tmp, timeout=600)
    assert done.returncode == 0, done.stderr
    return tmp / "run"


def _row(run, cache_preds, worker_cache, num_workers="2") -> dict:
    (row,) = [
        r
        for r in rows_of(run)
        if (r["cache_preds"], r["worker_cache"], r["num_workers"]) == (cache_preds, worker_cache, num_workers)
    ]
    return row


def _memory(run, row) -> dict:
    return json.loads((run / row["log_dir"] / "result.json").read_text())["metrics"]["memory"]


@pytest.mark.slow
def test_a_loop_that_keeps_its_outputs_grows_by_what_it_keeps_and_a_healthy_one_does_not(run):
    kept, healthy = _row(run, "true", "false"), _row(run, "false", "false")
    assert (kept["outcome"], healthy["outcome"]) == ("pass", "pass"), (kept["error"], healthy["error"])
    assert 0.8 <= float(kept["rss_growth_mb_per_step"]) <= 1.2, kept  # the truth: 1 MiB a step
    assert abs(float(healthy["rss_growth_mb_per_step"])) < 0.1, healthy
    assert kept["gpu_growth_mb_per_step"] == healthy["gpu_growth_mb_per_step"] == ""  # no CUDA here
    memory = _memory(run, kept)
    assert 0.8 <= memory["main_growth_mb_per_step"] <= 1.2 and abs(memory["workers_growth_mb_per_step"]) < 0.1
    assert len(memory["step"]) >= memory_sampler.MIN_SAMPLES and len(memory["step"]) == len(memory["main_mb"])


@pytest.mark.slow
def test_workers_that_grow_are_told_apart_from_the_main_process(run):
    row = _row(run, "false", "true")
    memory = _memory(run, row)
    assert 0.8 <= memory["workers_growth_mb_per_step"] <= 1.2, memory["workers_growth_mb_per_step"]
    assert abs(memory["main_growth_mb_per_step"]) < 0.1, memory["main_growth_mb_per_step"]
    assert 0.8 <= float(row["rss_growth_mb_per_step"]) <= 1.2  # the tree's: main and workers together


@pytest.mark.slow
def test_a_cell_killed_as_it_grows_still_says_how_it_grew(run):
    # killed by SIGKILL at step 80: no report at exit, only the samples it wrote at most a second before
    row = _row(run, "true", "false", num_workers="0")
    assert (row["outcome"], row["signal"]) == ("crash", "SIGKILL"), row
    assert 0.8 <= float(row["rss_growth_mb_per_step"]) <= 1.2, row
    assert not (run / row["log_dir"] / "memory.json").exists()  # folded into result.json


@pytest.mark.slow
def test_explain_names_each_growing_value_and_its_process(run):
    done = crashmatrix("explain", run, cwd=run)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    section = lines[lines.index("Findings beyond failure:") :]
    # the main process's growth, run once more traced (issue 50): what it keeps and the line that makes it
    main = re.fullmatch(
        r"memory grows (\S+) MB a step when cache_preds=true \(main process; 2 of 2 cells\); "
        r"1 of 2 runs grew to crash SIGKILL: float32 \[262144\] tensors kept, created at "
        r"tests/apps/keeps_outputs.py:66 in main \((\d+) alive at step (\d+), in an instrumented rerun\)",
        section[1],
    )
    # the workers' too, each worker's census at the items it fetched: the dataset's list of bytes
    workers = re.fullmatch(
        r"memory grows (\S+) MB a step when worker_cache=true \(loader workers; 1 of 1 cells\): \S+ MB of Python "
        r"objects kept, created at tests/apps/keeps_outputs.py:44 in __getitem__ \((\d+) alive per worker at item "
        r"(\d+), in an instrumented rerun\)",
        section[2],
    )
    assert main and workers, section
    # one kept a step since the first batch (the traced run keeps every output from its first step)
    assert int(main.group(3)) >= 40 and int(main.group(2)) >= int(main.group(3)) - 2, section
    assert 0.8 <= float(main.group(1)) <= 1.2 and 0.8 <= float(workers.group(1)) <= 1.2, section
    # the SIGKILL is a failure of its own, explained first, as ever
    assert lines.index("Findings beyond failure:") > next(i for i, x in enumerate(lines) if "SIGKILL" in x)

    entries = json.loads(crashmatrix("explain", run, "--json", cwd=run).stdout)
    failures = [e for e in entries if "finding" not in e]
    found = [e for e in entries if "finding" in e]
    assert entries == failures + found and [f["outcome"] for f in failures] == ["crash"]
    assert [(f["finding"], f["conditions"], f["process"]) for f in found] == [
        ("memory_growth", {"cache_preds": "true"}, "main process"),
        ("memory_growth", {"worker_cache": "true"}, "loader workers"),
    ]
    assert all("outcome" not in f and 0.8 <= f["mb_per_step"] <= 1.2 for f in found)
    assert [f["kept"]["place"] for f in found] == [
        "tests/apps/keeps_outputs.py:66 in main",
        "tests/apps/keeps_outputs.py:44 in __getitem__",
    ]
    # the traced rerun is a run directory of its own, of the growing cells, its rows not the matrix's
    assert len(rows_of(run / "memory_trace")) == 2 and len(rows_of(run)) == 4


@pytest.mark.slow
def test_summary_report_and_junit_say_where_memory_grows(run):
    summary = (run / "summary.md").read_text()
    assert "## Findings beyond failure" in summary and "when worker_cache=true (loader workers" in summary
    html = (run / "report.html").read_text()
    assert "<h2>Findings beyond failure</h2>" in html and "<script" not in html
    # each growth finding's growing run beside a flat one, on one chart under a caption that wraps
    assert html.count("<polyline") == 4 and html.count('<figure class="chart">') == 2
    assert "(grows)" in html and "(flat)" in html and "<figcaption>main process RSS: memory grows" in html

    xml = ET.fromstring(crashmatrix("report", run, "--format", "junit", cwd=run).stdout)
    cases = {c.get("name").split(" ", 2)[2]: c for c in xml.iter("testcase")}
    grown = cases["cache_preds=true worker_cache=false num_workers=2"]
    assert grown.find("failure") is None  # a finding, not a failure
    (prop,) = grown.iter("property")
    assert prop.get("name") == "crashmatrix.memory_growth", prop.attrib
    said = re.fullmatch(r"main process (\S+) MB a step", prop.get("value"))
    assert said and 0.8 <= float(said.group(1)) <= 1.2, prop.attrib
    assert cases["cache_preds=false worker_cache=false num_workers=2"].find("properties") is None


# --------------------------------------------------------------------------- pure


def test_growth_is_the_slope_after_the_warm_up():
    steps = list(range(1, 41))
    linear = [100.0 + 2.0 * s for s in steps]
    assert memory_sampler.growth(steps, linear) == pytest.approx(2.0)
    # a jump in the first steps (imports, the allocator's first pages) is warm-up, not growth
    jumpy = [50.0 if s <= 4 else 300.0 for s in steps]
    assert memory_sampler.growth(steps, jumpy) == pytest.approx(0.0)
    assert memory_sampler.growth(steps[:12], linear[:12]) is None  # 7 samples after the warm-up: too few
    assert memory_sampler.growth(steps, [None] * 40) is None  # no workers


def test_figures_add_the_workers_to_the_tree_and_keep_each_apart():
    samples = [(s, 200.0 + s, 300.0 + 0.5 * s if s > 2 else None, None, None) for s in range(1, 31)]
    out = figures(samples)
    assert out["rss_growth_mb_per_step"] == pytest.approx(1.5)
    assert out["memory"]["main_growth_mb_per_step"] == pytest.approx(1.0)
    assert out["memory"]["workers_growth_mb_per_step"] == pytest.approx(0.5)
    assert out["gpu_growth_mb_per_step"] is None and out["memory"]["step"][:2] == [1, 2]


def test_workers_are_not_sampled_once_every_batch_was_sent_to_them(monkeypatch):
    # tests/test_slow_why.py's decode_cache on a loaded box: 6 workers had made every batch by step 61 of 70,
    # and their flat last samples bent a slope of 0.75 MB a step to 0.71, under GROWN_MB over the run
    class Worker:
        pid = os.getpid()

    class Iterator:  # a multi-process loader's, as torch keeps it: the batches sent, the pass's length
        _workers, _send_idx = [Worker()], 0

        def __len__(self):
            return 10

    monkeypatch.setattr(memory_sampler, "COST_SHARE", 1e9)  # every step samples
    sampler, iterator = MemorySampler(), Iterator()
    for step in range(1, 11):
        iterator._send_idx = min(10, step + 4)  # four batches ahead of the loop, all sent by step 6
        sampler.step(iterator)
    assert [s[0] for s in sampler.samples if s[2] is not None] == [1, 2, 3, 4, 5]
    # a pass of fewer batches than the prefetch sends them all at once: sampled as it goes, no other sample of it
    short = Iterator()
    short._send_idx = 10
    sampler.step(short)
    assert sampler.samples[-1][2] is not None
    out = figures([(s, 200.0, 300.0 + s if s <= 6 else None, None, None) for s in range(1, 31)])
    assert out["rss_growth_mb_per_step"] is None  # the tree without its workers' figure is not sampled


def test_a_long_run_keeps_a_bounded_even_sample(monkeypatch):
    monkeypatch.setattr(memory_sampler, "COST_SHARE", 1e9)  # no time budget: every looked-at step samples
    sampler = MemorySampler()
    for _ in range(4100):
        sampler.step()
    steps = [s[0] for s in sampler.samples]
    assert len(steps) <= memory_sampler.MAX_SAMPLES and sampler.every == 4
    assert steps[0] <= 4 and steps[-1] > 4000  # the whole run, evenly: at last 4 to 8 steps apart
    gaps = [b - a for a, b in zip(steps[-100:], steps[-99:])]
    assert min(gaps) >= 4 and max(gaps) <= 8, gaps


def test_sampling_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("CRASHMATRIX_MEMORY_SAMPLING", "0")
    sampler = MemorySampler()
    sampler.step()
    assert sampler.samples == [] and sampler.figures() == {}


def _rows(rule, steps="200"):
    return [
        {"cell_id": f"c{i}", "repeat": "0", "keep": k, "batch": b, "outcome": outcome, "signal": signal,
         "steps": steps, "rss_growth_mb_per_step": rss, "gpu_growth_mb_per_step": gpu}
        for i, (k, b) in enumerate([(k, b) for k in ("false", "true") for b in ("8", "16")])
        for rss, gpu, outcome, signal in [rule(k, b)]
    ]  # fmt: skip


def test_a_conjunction_of_values_grows_and_an_oom_says_how_it_got_there():
    # rows only (a bare results.csv): the tree's slope; GPU growth as a GPU run records it
    rows = _rows(lambda k, b: ("0.01", "1300" if k == "true" and b == "16" else "0.0",
                              "oom" if k == "true" and b == "16" else "pass", ""))  # fmt: skip
    (found,) = growth.findings(rows, ["keep", "batch"])
    assert found.text() == (
        "GPU memory grows 1.3 GB a step when keep=true and batch=16 "
        "(torch's allocated CUDA memory; 1 of 1 cells); 1 of 1 runs grew to oom"
    )


def test_noise_and_short_runs_are_not_growth():
    # 0.2 MB a step over 20 steps is 4 MB: noise; an empty slope is unknown, not flat
    rows = _rows(lambda k, b: ("0.2" if k == "true" else "0.0", "", "pass", ""), steps="20")
    assert growth.findings(rows, ["keep", "batch"]) == []
    rows = _rows(lambda k, b: ("", "", "pass", ""))
    assert growth.findings(rows, ["keep", "batch"]) == []
    # every cell grows: the program, not a value
    rows = _rows(lambda k, b: ("0.5", "", "pass", ""))
    assert [g.text() for g in growth.findings(rows, ["keep", "batch"])] == [
        "memory grows 0.5 MB a step in every cell (process tree; 4 of 4 cells)"
    ]


def test_gpu_memory_is_read_only_where_the_program_initialised_cuda(monkeypatch):
    # Mocked, as no GPU is here: torch.cuda as the sampler asks it (is_initialized, memory_allocated,
    # memory_reserved), 100 MiB more allocated at each look. Before CUDA is initialised nothing is read
    # (reading would initialise it in a program that never meant to).
    allocated = iter(range(0, 100 * 2**20 * 100, 100 * 2**20))
    calls = []
    cuda = types.SimpleNamespace(
        is_initialized=lambda: bool(calls),
        memory_allocated=lambda: calls.append("allocated") or next(allocated),
        memory_reserved=lambda: 2**30,
    )
    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(cuda=cuda))
    monkeypatch.setattr(memory_sampler, "COST_SHARE", 1e9)
    sampler = MemorySampler()
    sampler.step()
    assert sampler.samples[0][3:] == (None, None) and calls == []
    calls.append("the program's own first CUDA call")
    for _ in range(30):
        sampler.step()
    out = sampler.figures()
    assert out["gpu_growth_mb_per_step"] == pytest.approx(100.0)
    assert out["memory"]["gpu_reserved_mb"][-1] == 1024.0


def test_memory_that_climbs_and_levels_off_is_not_growth(tmp_path):
    # as a healthy loop's heap does under glibc's moving mmap threshold (tests/apps/keeps_outputs.py: about
    # 80 MB over its first 120 steps, then flat): here 250 MB over 250 steps, then flat; the run's slope
    # alone (0.63 MB a step over 400 steps) would count
    steps = list(range(1, 401, 4))
    memory = {"step": steps, "main_mb": [230 + min(s, 250) * 1.0 for s in steps], "workers_mb": [None] * 100}
    memory["main_growth_mb_per_step"] = memory_sampler.growth(steps, memory["main_mb"])
    leaking = dict(memory, main_mb=[230 + s * 0.3 for s in steps], main_growth_mb_per_step=0.3)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "result.json").write_text(json.dumps({"metrics": {"memory": memory}}))
    (tmp_path / "b" / "result.json").write_text(json.dumps({"metrics": {"memory": leaking}}))
    rows = [
        {"cell_id": c, "repeat": "0", "kind": c, "outcome": "pass", "steps": "400", "log_dir": c} for c in ("a", "b")
    ]
    assert memory["main_growth_mb_per_step"] * 400 > growth.GROWN_MB
    assert [g.text() for g in growth.findings(rows, ["kind"], str(tmp_path))] == [
        "memory grows 0.3 MB a step when kind=b (main process; 1 of 1 cells)"
    ]
