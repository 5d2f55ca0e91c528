"""The speed columns tell what the wall clock sees: on a Hydra + Lightning app, spawned DataLoader
workers are rated slower than forked ones in the same run, and first_batch_s says why (each pass
waits for fresh interpreters to import torch). Real processes: the example app, unmodified, under
inject, 2 workers, a few batches."""

from __future__ import annotations

import re
import shutil

from conftest import ROOT, crashmatrix, rows_of

# 16 samples in batches of 4: 4 batches an epoch, so 8 steps are 2 train passes (and 2 val
# passes of 2), each of which starts its workers anew: 8 train batches, just enough for a rate.
MATRIX = f"""\
name: speed
command: [python, {ROOT}/examples/ocr_app/train.py]
inject: true
params:
  stages: [fit]
  trainer.max_steps: 8
axes:
  start_method: [fork, spawn]
  num_workers: [2]
timeout: 300
"""


SPEED_HEADERS = ["wall s", "first batch s", "first batches total s", "steps/s"]


def _by_axis_row(summary: str, value: str) -> list[str]:
    """The start_method row of the "By axis value" table (summary.md, `report --by`) for this value."""
    for line in summary.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[:2] == ["start_method", value]:
            return cells
    raise AssertionError(f"no start_method={value} row in:\n{summary}")


def test_spawn_is_rated_slower_than_fork_and_first_batch_shows_why(tmp_path):
    matrix, run = tmp_path / "m.yaml", tmp_path / "run"
    matrix.write_text(MATRIX)
    done = crashmatrix("run", matrix, "--out", run, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = {r["start_method"]: r for r in rows_of(run)}
    assert [r["outcome"] for r in rows.values()] == ["pass", "pass"], [r["error"] for r in rows.values()]
    fork, spawn = rows["fork"], rows["spawn"]
    assert fork["steps"] == spawn["steps"] == "8"
    # The wall clock, the rate and the first batch all agree: spawn is the slow one.
    assert float(spawn["duration_s"]) > float(fork["duration_s"]), (fork, spawn)
    assert float(spawn["steps_per_s"]) < float(fork["steps_per_s"]), (fork, spawn)
    # Why: a spawned worker is a new interpreter that imports torch before its first batch;
    # a forked one has it already.
    assert float(spawn["first_batch_s"]) > 3 * float(fork["first_batch_s"]), (fork, spawn)

    # The per-axis table ranks them the same way: longer wall, longer first batch, fewer steps/s.
    summary = (run / "summary.md").read_text()
    header = next(line for line in summary.splitlines() if line.startswith("| axis"))
    assert [c.strip() for c in header.strip("|").split("|")][5:] == SPEED_HEADERS
    f_row, s_row = _by_axis_row(summary, "fork"), _by_axis_row(summary, "spawn")
    assert float(s_row[5]) > float(f_row[5]) and float(s_row[6]) > float(f_row[6])
    assert float(s_row[8]) < float(f_row[8])

    # And the chart in report.html draws it: a longer first-batch bar for spawn than for fork.
    html = (run / "report.html").read_text()
    assert "Time and speed by axis value" in html and "<script" not in html
    bars = _panel_bars(html, "first batch s")
    assert bars["spawn"] > bars["fork"], bars


def _panel_bars(html: str, title: str) -> dict[str, float]:
    """The bar widths of report.html's start_method panel of this title, by value."""
    panel = re.search(rf'<h3>start_method</h3>.*?aria-label="{title}">(.*?)</svg>', html, re.S)
    assert panel, html
    return {name: float(w) for w, name in re.findall(r'width="([\d.]+)"[^>]*><title>(\w+):', panel.group(1))}


def test_workers_that_persist_show_spawns_start_up_in_the_total(tmp_path):
    # examples/persistent_workers: persistent_workers=True and 2 workers written in the app's code,
    # 6 epochs of 8 batches; only the first epoch waits for the workers to start.
    app = tmp_path / "app"
    shutil.copytree(f"{ROOT}/examples/persistent_workers", app)
    run = tmp_path / "run"
    done = crashmatrix("run", "matrix.yaml", "--out", run, cwd=app, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = {r["start_method"]: r for r in rows_of(run)}
    assert [r["outcome"] for r in rows.values()] == ["pass", "pass"], [r["error"] for r in rows.values()]
    fork, spawn = rows["fork"], rows["spawn"]
    assert fork["steps"] == spawn["steps"] == "48"
    # Every epoch's wait, summed: spawn's one start-up of two fresh interpreters is in it.
    assert float(spawn["first_batch_total_s"]) >= 3 * float(fork["first_batch_total_s"]), (fork, spawn)
    # The median epoch does not wait for the start-up, so first_batch_s hides it; the total does not.
    assert float(spawn["first_batch_total_s"]) > 10 * float(spawn["first_batch_s"]), spawn
    header = list(rows_of(run)[0])
    assert header.index("first_batch_total_s") == header.index("first_batch_s") + 1, header

    # summary.md, the console, `report --by` and report.html all show it beside the median.
    total_at = 5 + SPEED_HEADERS.index("first batches total s")
    for text in ((run / "summary.md").read_text(), done.stdout, _report_by(run, tmp_path)):
        f_row, s_row = _by_axis_row(text, "fork"), _by_axis_row(text, "spawn")
        assert float(s_row[total_at]) >= 3 * float(f_row[total_at]), (f_row, s_row)
    bars = _panel_bars((run / "report.html").read_text(), "first batches total s")
    assert bars["spawn"] > 3 * bars["fork"], bars


def _report_by(run, cwd) -> str:
    done = crashmatrix("report", run, "--by", "start_method", cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout
