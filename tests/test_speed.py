"""The speed columns tell what the wall clock sees: workers that persist (examples/persistent_workers, real
processes under inject) show spawn's one start-up in first_batch_total_s, which the median first batch
hides. That spawned workers that do not persist are rated slower than forked ones in the same run, and
first_batch_s says why, is asserted on tests/test_slow.py's run (one run, shared)."""

from __future__ import annotations

import re
import shutil

import pytest
from conftest import ROOT, crashmatrix, rows_of

pytestmark = pytest.mark.slow  # real cells timed

SPEED_HEADERS = ["wall s", "first batch s", "first batches total s", "steps/s"]


def by_axis_row(summary: str, value: str) -> list[str]:
    """The start_method row of the "By axis value" table (summary.md, `report --by`) for this value."""
    for line in summary.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[:2] == ["start_method", value]:
            return cells
    raise AssertionError(f"no start_method={value} row in:\n{summary}")


def panel_bars(html: str, title: str) -> dict[str, float]:
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
        f_row, s_row = by_axis_row(text, "fork"), by_axis_row(text, "spawn")
        assert float(s_row[total_at]) >= 3 * float(f_row[total_at]), (f_row, s_row)
    bars = panel_bars((run / "report.html").read_text(), "first batches total s")
    assert bars["spawn"] > 3 * bars["fork"], bars


def _report_by(run, cwd) -> str:
    done = crashmatrix("report", run, "--by", "start_method", cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout
